"""`MemoryBankStore`: the `MemoryStore` protocol on Vertex AI Memory Bank.

It speaks to Memory Bank through the client ADK's own `VertexAiMemoryBankService` uses
(`agentplatform.Client(...).aio.memory_banks.memories`), with the same scope
`{"app_name", "user_id"}`; record fields live in memory metadata (see `memory_bank_codec`).

Design notes:
- **Search** sends the query text (`similarity_search_params.search_query`): Memory Bank embeds
  server-side, so the caller's vector is not used. `topK = min(k, 100)`; statuses are a
  metadata filter. `distance` becomes a cosine (`distance_to_cosine`); `lexical` is 0.
- **REPLACE without transactions.** The commit point is one write: the new record is created
  with `pending_replace=true` and `supersedes=[ids]`. Then each old record is patched to
  `superseded`, and finally the pending flag is cleared. Readers (`get`, `search`, `list`)
  look up the pending records of the scope and treat every id they supersede as superseded,
  repairing it on the way. So a crash or an error at any step after the first leaves a state
  that reads as fully replaced and converges; a failure of the first step changes nothing.
- **Ingest markers** (`seen_events`) are one tiny memory per event with a deterministic id,
  in the scope `{app_name, user_id, adk_memory: "ingest-markers"}`. Exact scope matching keeps
  them out of every retrieval of the user's scope (ADK's included); creating one is
  idempotent (409 = already marked) and needs no read-modify-write of a shared document.
- **Writes are idempotent under retries**: records are created with our own memory id
  (`memory_id_for`); a 409 from a retried create turns into a full PATCH.
- Every call has a per-attempt timeout and bounded, jittered exponential retries on
  408/429/5xx and transport errors; long-running operations are polled with a deadline.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import weakref
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any, Literal, TypeVar

import numpy as np

from adk_memory.errors import AdkMemoryError, BackendError, ConfigError, InvalidInputError
from adk_memory.model import InputEvent, MemoryRecord, Scope, Source, Status, as_utc, utcnow
from adk_memory.stores.base import ListFilter, Page, SearchHit
from adk_memory.stores.memory_bank import codec
from adk_memory.stores.uri import StoreUri
from adk_memory.stores.vertex import (
    RetryPolicy,
    backend_error,
    base_url_override,
    call_settings,
    emulator_credentials,
    is_loopback_url,
    status_code,
)

logger = logging.getLogger(__name__)

T = TypeVar("T")
Consolidation = Literal["client", "server"]

#: Memory Bank's largest `topK` / `pageSize`.
MAX_TOP_K = 100
_EXPRESS_ENV = ("GOOGLE_GENAI_USE_ENTERPRISE", "GOOGLE_GENAI_USE_VERTEXAI")


class _NotFound(Exception):
    """A 404 from Memory Bank, before it is interpreted by the caller."""


def _env_true(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes")


def build_client(project: str, location: str, params: dict[str, str] | None = None) -> Any:
    """An `agentplatform` async client for Memory Bank, configured from env and URI params.

    - `GOOGLE_VERTEX_BASE_URL` on a loopback address (the emulator): fake token credentials.
    - `?auth=apikey`, or `GOOGLE_API_KEY` with `GOOGLE_GENAI_USE_ENTERPRISE` /
      `GOOGLE_GENAI_USE_VERTEXAI` true (ADK's rule): express mode with that API key.
    - otherwise Application Default Credentials.

    Raises:
        ConfigError: when the SDK is missing or no credentials can be found.
    """
    params = params or {}
    try:
        import agentplatform
        from google.auth import exceptions as auth_exceptions
    except ImportError as exc:
        raise ConfigError(
            "the memorybank backend needs the Vertex SDK: pip install 'adk-memory[vertex]'"
        ) from exc
    base_url = base_url_override(params)
    http_options: dict[str, Any] = {"api_version": params.get("api_version", "v1beta1")}
    if base_url:
        http_options["base_url"] = base_url
    auth = params.get("auth", "auto")
    if auth not in ("auto", "adc", "apikey"):
        raise ConfigError(f"bad auth={auth!r} in memorybank URI: use adc or apikey")
    try:
        fake = emulator_credentials(base_url)
        if fake is not None:
            return agentplatform.Client(
                project=project, location=location, credentials=fake, http_options=http_options
            ).aio
        api_key = os.environ.get("GOOGLE_API_KEY")
        express = auth == "apikey" or (
            auth == "auto" and bool(api_key) and any(_env_true(n) for n in _EXPRESS_ENV)
        )
        if express:
            if not api_key:
                raise ConfigError("auth=apikey needs GOOGLE_API_KEY (a Vertex express-mode key)")
            return agentplatform.Client(api_key=api_key, http_options=http_options).aio
        return agentplatform.Client(
            project=project, location=location, http_options=http_options
        ).aio
    except auth_exceptions.DefaultCredentialsError as exc:
        raise ConfigError(
            "no Google credentials for Memory Bank: run `gcloud auth application-default "
            "login`, or use an express-mode key (GOOGLE_API_KEY with ?auth=apikey)"
        ) from exc


def _memories_api(client: Any) -> Any:
    # Same lookup as ADK: `memory_banks.memories` on agentplatform clients, the legacy
    # `agent_engines.memories` on vertexai clients.
    banks = getattr(client, "memory_banks", None)
    return banks.memories if banks is not None else client.agent_engines.memories


class MemoryBankStore:
    """A `MemoryStore` on one Memory Bank (a reasoning engine).

    Args:
        engine: `projects/P/locations/L/reasoningEngines/ID`.
        client_factory: Builds the async SDK client; called once per event loop (an async
            client belongs to the loop that opened it).
        consolidation: `client` (our ADD/REPLACE/NOOP; writes with `memories.create`) or
            `server` (writes through `memories.generate`, Memory Bank consolidates).
        call_timeout: Seconds one HTTP attempt may take.
        retry_attempts: Attempts per call, the first included.
        retry_initial: First backoff in seconds (then doubling, jittered, up to `retry_max`).
        retry_max: Largest backoff in seconds.
        retry_deadline: Seconds after which a call stops retrying.
        operation_timeout: Seconds to wait for a long-running operation.
        poll_interval: Seconds between operation polls.
        max_concurrency: Calls in flight at once per store.
        distance_metric: How to read `distance` (`cosine` or `euclidean`).
    """

    max_search_k = MAX_TOP_K

    def __init__(
        self,
        engine: str,
        *,
        client_factory: Callable[[], Any],
        consolidation: Consolidation = "client",
        call_timeout: float = 10.0,
        retry_attempts: int = 5,
        retry_initial: float = 0.25,
        retry_max: float = 4.0,
        retry_deadline: float = 30.0,
        operation_timeout: float = 60.0,
        poll_interval: float = 0.5,
        max_concurrency: int = 8,
        distance_metric: str = "cosine",
    ) -> None:
        if consolidation not in ("client", "server"):
            raise ConfigError(f"consolidation must be client or server, got {consolidation!r}")
        if distance_metric not in ("cosine", "euclidean"):
            raise ConfigError(f"distance must be cosine or euclidean, got {distance_metric!r}")
        self.engine = engine
        self.consolidation: Consolidation = consolidation
        self._client_factory = client_factory
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = (
            weakref.WeakKeyDictionary()
        )
        self._call_timeout = call_timeout
        self._retry = RetryPolicy(
            attempts=retry_attempts,
            initial=retry_initial,
            maximum=retry_max,
            deadline=retry_deadline,
        )
        self._operation_timeout = operation_timeout
        self._poll_interval = poll_interval
        self._max_concurrency = max(1, max_concurrency)
        self._semaphores: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, asyncio.Semaphore
        ] = weakref.WeakKeyDictionary()
        self._distance_metric = distance_metric
        self._closed = False

    # -- plumbing ----------------------------------------------------------------------

    def _client(self) -> Any:
        if self._closed:
            raise BackendError("the Memory Bank store is closed")
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            client = self._client_factory()
            self._clients[loop] = client
        return client

    @property
    def _api(self) -> Any:
        return _memories_api(self._client())

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        sem = self._semaphores.get(loop)
        if sem is None:
            sem = asyncio.Semaphore(self._max_concurrency)
            self._semaphores[loop] = sem
        return sem

    def _error(self, exc: BaseException, what: str) -> AdkMemoryError:
        return backend_error(
            exc,
            what,
            service="Memory Bank",
            resource=self.engine,
            not_found=f"reasoning engine {self.engine} not found (404) during {what}: create it "
            "(adk-memory emulator / terraform) or fix the store URI.",
        )

    async def _call(
        self,
        what: str,
        fn: Callable[[], Awaitable[T]],
        *,
        missing_ok: bool = False,
        conflict: Callable[[], Awaitable[T]] | None = None,
    ) -> T:
        """Runs one SDK call with timeout, bounded retries and error mapping.

        Args:
            what: A short description for error messages.
            fn: Makes the call (a fresh coroutine per attempt).
            missing_ok: Raise `_NotFound` on 404 instead of a `ConfigError`.
            conflict: Run instead when the call answers 409 (already exists).
        """
        # Build the client (a heavy first import) before any attempt's timeout starts.
        self._client()
        try:
            async with self._semaphore():
                async for attempt in self._retry.retrying():
                    with attempt:
                        return await asyncio.wait_for(fn(), self._call_timeout)
        except Exception as exc:
            code = status_code(exc)
            if code == 404 and missing_ok:
                raise _NotFound(what) from exc
            if code == 409 and conflict is not None:
                return await conflict()
            raise self._error(exc, what) from exc
        raise AssertionError("unreachable")  # pragma: no cover - tenacity always returns

    async def _wait(self, op: Any, what: str, *, generate: bool = False) -> Any:
        """Polls a long-running operation until done (bounded); returns it or raises."""
        deadline = asyncio.get_running_loop().time() + self._operation_timeout
        while not getattr(op, "done", False):
            if asyncio.get_running_loop().time() > deadline:
                raise BackendError(
                    f"Memory Bank {what}: operation {op.name} not done after "
                    f"{self._operation_timeout:.0f} s"
                )
            await asyncio.sleep(self._poll_interval)
            getter = (
                self._api._get_generate_memories_operation
                if generate
                else self._api._get_memory_operation
            )
            op = await self._call(
                f"{what} (poll)", functools.partial(getter, operation_name=op.name)
            )
        if getattr(op, "error", None):
            raise BackendError(f"Memory Bank {what} failed: {op.error}")
        return op

    def _name(self, memory_id: str) -> str:
        return f"{self.engine}/memories/{memory_id}"

    # -- low-level memory operations ---------------------------------------------------

    async def _get_memory(self, memory_id: str) -> Any | None:
        name = self._name(memory_id)
        try:
            return await self._call(
                f"get {memory_id}", lambda: self._api.get(name=name), missing_ok=True
            )
        except _NotFound:
            return None

    async def _patch(self, memory_id: str, *, fact: str | None, metadata: dict[str, Any]) -> None:
        name = self._name(memory_id)
        config: dict[str, Any] = {
            "metadata": metadata,
            "update_mask": "fact,metadata" if fact is not None else "metadata",
        }
        op = await self._call(
            f"update {memory_id}",
            # There is no public update in the SDK (2.7); `_update` is its PATCH {memory}.
            lambda: self._api._update(name=name, fact=fact, config=config),
        )
        await self._wait(op, f"update {memory_id}")

    async def _delete_memory(self, memory_id: str) -> bool:
        name = self._name(memory_id)
        try:
            await self._call(
                f"delete {memory_id}", lambda: self._api.delete(name=name), missing_ok=True
            )
        except _NotFound:
            return False
        return True

    async def _create(
        self,
        memory_id: str,
        *,
        fact: str,
        scope: dict[str, str],
        metadata: dict[str, Any],
        on_conflict: Callable[[], Awaitable[None]],
        revisions: bool = True,
    ) -> None:
        config: dict[str, Any] = {
            "memory_id": memory_id,
            "metadata": metadata,
            "wait_for_completion": False,
        }
        if not revisions:
            config["disable_memory_revisions"] = True

        async def create() -> None:
            op = await self._api.create(name=self.engine, fact=fact, scope=scope, config=config)
            await self._wait(op, f"create {memory_id}")

        await self._call(f"create {memory_id}", create, conflict=on_conflict)

    async def _write(self, record: MemoryRecord, supersedes: list[str] | None = None) -> None:
        """Creates or fully replaces one record (client consolidation)."""
        memory_id = codec.memory_id_for(record.id)
        metadata = codec.encode_metadata(record, supersedes=supersedes)
        scope = codec.scope_dict(record.scope)

        async def overwrite() -> None:
            # Already there: a retried create that had succeeded, or a real upsert. Scope is
            # immutable in Memory Bank, so a record that changed scope is recreated.
            existing = await self._get_memory(memory_id)
            if existing is not None and (existing.scope or {}) != scope:
                await self._delete_memory(memory_id)
                await self._create(
                    memory_id,
                    fact=record.text,
                    scope=scope,
                    metadata=metadata,
                    on_conflict=overwrite,
                )
                return
            await self._patch(memory_id, fact=record.text, metadata=metadata)

        await self._create(
            memory_id, fact=record.text, scope=scope, metadata=metadata, on_conflict=overwrite
        )

    async def _generate_record(self, record: MemoryRecord) -> list[str]:
        """Writes one record through `memories.generate` (server consolidation).

        Returns the memory ids Memory Bank created or updated.
        """
        config = {
            "metadata": codec.encode_metadata(record),
            "metadata_merge_strategy": "OVERWRITE",
            "wait_for_completion": False,
        }
        scope = codec.scope_dict(record.scope)

        async def generate() -> Any:
            op = await self._api.generate(
                name=self.engine,
                direct_memories_source={"direct_memories": [{"fact": record.text}]},
                scope=scope,
                config=config,
            )
            return await self._wait(op, "generate", generate=True)

        op = await self._call("generate", generate)
        return _generated_ids(op)

    async def _retrieve_page(
        self, *, scope: dict[str, str], params: dict[str, Any], config: dict[str, Any] | None
    ) -> Any:
        return await self._api.retrieve(
            name=self.engine, scope=scope, simple_retrieval_params=params, config=config
        )

    async def _retrieve_all(
        self, scope: dict[str, str], groups: list[dict[str, Any]] | None
    ) -> list[Any]:
        """Every memory of exactly `scope` that matches the metadata filter groups."""
        memories: list[Any] = []
        token: str | None = None
        while True:
            params: dict[str, Any] = {"page_size": MAX_TOP_K}
            if token:
                params["page_token"] = token
            config = {"filter_groups": groups} if groups else None
            page = functools.partial(self._retrieve_page, scope=scope, params=params, config=config)
            pager = await self._call("retrieve", page)
            memories.extend(item.memory for item in pager.page if item.memory is not None)
            # The pager's own next_page() is broken for simple retrieval (SDK 2.7): page by hand.
            token = (pager.config or {}).get("page_token")
            if not token:
                return memories

    # -- REPLACE bookkeeping -----------------------------------------------------------

    async def _pending(self, scope: Scope) -> dict[str, tuple[str, Any]]:
        """old id -> (superseding id, its memory) for every REPLACE still in flight."""
        pending = await self._retrieve_all(
            codec.scope_dict(scope),
            [{"filters": [{"key": codec.PENDING, "value": {"bool_value": True}}]}],
        )
        out: dict[str, tuple[str, Any]] = {}
        for memory in pending:
            if not codec.is_record(memory):
                continue
            new_id = codec.record_id_of(memory)
            for old_id in codec.supersedes_of(memory):
                out[old_id] = (new_id, memory)
        return out

    def _overlay(self, record: MemoryRecord, pending: dict[str, tuple[str, Any]]) -> MemoryRecord:
        if record.status is Status.ACTIVE and record.id in pending:
            return record.model_copy(
                update={"status": Status.SUPERSEDED, "superseded_by": pending[record.id][0]}
            )
        return record

    async def _repair(self, scope: Scope, pending: dict[str, tuple[str, Any]]) -> None:
        """Finishes interrupted REPLACEs (best effort: a failure is retried by the next read)."""
        by_new: dict[str, Any] = {new_id: memory for new_id, memory in pending.values()}
        try:
            for new_id, memory in by_new.items():
                olds = codec.supersedes_of(memory)
                await self._supersede(scope, olds, new_id)
                record = codec.decode_record(memory)
                if record is not None:
                    await self._patch(
                        codec.memory_id_for(new_id),
                        fact=None,
                        metadata=codec.encode_metadata(record),
                    )
        except AdkMemoryError as exc:
            logger.warning("could not finish an interrupted REPLACE in %s: %s", scope, exc)

    async def _supersede(self, scope: Scope, old_ids: Sequence[str], new_id: str) -> list[str]:
        async def one(old_id: str) -> str | None:
            memory = await self._get_memory(codec.memory_id_for(old_id))
            record = codec.decode_record(memory) if memory is not None else None
            if record is None or record.scope != scope or record.status is not Status.ACTIVE:
                return None
            updated = record.model_copy(
                update={"status": Status.SUPERSEDED, "superseded_by": new_id}
            )
            await self._patch(
                codec.memory_id_for(old_id), fact=None, metadata=codec.encode_metadata(updated)
            )
            return old_id

        done = await asyncio.gather(*(one(i) for i in dict.fromkeys(old_ids)))
        return [i for i in done if i is not None]

    # -- MemoryStore -------------------------------------------------------------------

    async def upsert(self, records: Sequence[MemoryRecord]) -> None:
        """Writes records concurrently; each write is idempotent, the batch is not atomic."""
        if self.consolidation == "server":
            await asyncio.gather(*(self._generate_record(r) for r in records))
            return
        await asyncio.gather(*(self._write(r) for r in records))

    async def replace(self, new: MemoryRecord, superseded_ids: Sequence[str]) -> list[str]:
        """Stores `new` and supersedes the active `superseded_ids` of its scope.

        Order: (1) create `new` pending with `supersedes=[ids]` (the commit point), (2) mark
        each old record superseded, (3) clear the pending flag. Readers treat the ids of a
        pending record as superseded, so the state is never torn; an error after step 1 is
        logged and repaired by the next read instead of failing the call.
        """
        ids = [i for i in dict.fromkeys(superseded_ids) if i != new.id]
        memories, pending = await asyncio.gather(
            asyncio.gather(*(self._get_memory(codec.memory_id_for(i)) for i in ids)),
            self._pending(new.scope),
        )
        targets = []
        for old_id, memory in zip(ids, memories, strict=True):
            record = codec.decode_record(memory) if memory is not None else None
            if record is None or record.scope != new.scope:
                continue
            if self._overlay(record, pending).status is Status.ACTIVE:
                targets.append(old_id)
        if self.consolidation == "server":
            touched = set(await self._generate_record(new))
            # Memory Bank may have merged the new fact into one of the old memories.
            targets = [t for t in targets if codec.memory_id_for(t) not in touched]
            return await self._supersede(new.scope, targets, new.id)
        if not targets:
            await self._write(new)
            return []
        await self._write(new, supersedes=targets)
        try:
            await self._supersede(new.scope, targets, new.id)
            await self._patch(
                codec.memory_id_for(new.id), fact=None, metadata=codec.encode_metadata(new)
            )
        except AdkMemoryError as exc:
            logger.warning("REPLACE of %s committed; finishing it later: %s", new.id, exc)
        return targets

    async def get(self, memory_id: str, scope: Scope | None = None) -> MemoryRecord | None:
        memory = await self._get_memory(codec.memory_id_for(memory_id))
        if memory is None and self.consolidation == "server" and scope is not None:
            found = await self._retrieve_all(
                codec.scope_dict(scope),
                [{"filters": [{"key": codec.RID, "value": {"string_value": memory_id}}]}],
            )
            memory = found[0] if found else None
        record = codec.decode_record(memory) if memory is not None else None
        if record is None or (scope is not None and record.scope != scope):
            return None
        if record.status is Status.ACTIVE:
            pending = await self._pending(record.scope)
            if record.id in pending:
                await self._repair(record.scope, pending)
                return self._overlay(record, pending)
        return record

    async def search(
        self,
        scope: Scope,
        *,
        vector: np.ndarray,
        query: str | None = None,
        k: int,
        statuses: Sequence[Status] = (Status.ACTIVE,),
    ) -> list[SearchHit]:
        """Similarity search by `query` text; `vector` is ignored (server-side embeddings)."""
        if not query or not query.strip():
            raise InvalidInputError("memorybank search needs the query text (query=...)")
        if k <= 0 or not statuses:
            return []
        wanted = set(statuses)
        # A record superseded by a pending REPLACE is still stored active.
        fetch = wanted | ({Status.ACTIVE} if Status.SUPERSEDED in wanted else set())
        groups = [
            {"filters": [{"key": codec.STATUS, "value": {"string_value": s.value}}]}
            for s in sorted(fetch)
        ]
        scope_map = codec.scope_dict(scope)

        async def retrieve() -> list[Any]:
            pager = await self._api.retrieve(
                name=self.engine,
                scope=scope_map,
                similarity_search_params={"search_query": query, "top_k": min(k, MAX_TOP_K)},
                config={"filter_groups": groups},
            )
            return list(pager.page)

        found, pending = await asyncio.gather(self._call("search", retrieve), self._pending(scope))
        hits: list[SearchHit] = []
        for item in found:
            record = codec.decode_record(item.memory) if item.memory is not None else None
            if record is None or record.scope != scope:
                continue
            record = self._overlay(record, pending)
            if record.status in wanted:
                hits.append(
                    SearchHit(
                        record=record,
                        cosine=codec.distance_to_cosine(item.distance, self._distance_metric),
                    )
                )
        if pending:
            await self._repair(scope, pending)
        return hits

    async def list_page(
        self,
        scope: Scope,
        *,
        filters: ListFilter | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page:
        """Records oldest first (`created_at`, server create time, name), keyset-paged.

        Memory Bank cannot sort retrievals, so the scope's matching records are fetched and
        ordered here: O(records in scope) per page.
        """
        if limit <= 0:
            raise InvalidInputError("limit must be positive")
        after: tuple[str, ...] | None = None
        if cursor:
            after = tuple(cursor.split("|"))
            if len(after) != 3:
                raise InvalidInputError(f"bad cursor {cursor!r}")
        filters = filters or ListFilter()
        wanted = set(filters.statuses or list(Status))
        fetch = wanted | ({Status.ACTIVE} if Status.SUPERSEDED in wanted else set())
        groups = [
            {"filters": [{"key": codec.STATUS, "value": {"string_value": s.value}}]}
            for s in sorted(fetch)
        ]
        memories, pending = await asyncio.gather(
            self._retrieve_all(codec.scope_dict(scope), groups), self._pending(scope)
        )
        rows: list[tuple[tuple[str, ...], MemoryRecord]] = []
        for memory in memories:
            record = codec.decode_record(memory)
            if record is None or record.scope != scope:
                continue
            record = self._overlay(record, pending)
            if record.status not in wanted or not _matches(record, filters):
                continue
            # created_at first: a batch is written concurrently, so server create times
            # follow arrival, not the caller's order.
            server_time = _sortable(memory.create_time) if memory.create_time else ""
            rows.append(((_sortable(record.created_at), server_time, str(memory.name)), record))
        rows.sort(key=lambda row: row[0])
        if after is not None:
            rows = [row for row in rows if row[0] > after]
        page = rows[:limit]
        next_cursor = "|".join(page[-1][0]) if len(rows) > limit else None
        if pending:
            await self._repair(scope, pending)
        return Page(records=[r for _, r in page], next_cursor=next_cursor)

    async def set_status(
        self,
        scope: Scope,
        ids: Sequence[str],
        status: Status,
        *,
        consolidated_into: str | None = None,
    ) -> list[str]:
        async def one(memory_id: str) -> str | None:
            memory = await self._get_memory(codec.memory_id_for(memory_id))
            record = codec.decode_record(memory) if memory is not None else None
            if record is None or record.scope != scope or record.status is status:
                return None
            update: dict[str, Any] = {"status": status}
            if status is Status.SUPERSEDED:
                update["superseded_by"] = None
            if status is Status.ACTIVE:
                update.update(superseded_by=None, consolidated_into=None)
            if consolidated_into is not None:
                update["consolidated_into"] = consolidated_into
            updated = record.model_copy(update=update)
            await self._patch(
                codec.memory_id_for(memory_id), fact=None, metadata=codec.encode_metadata(updated)
            )
            return memory_id

        done = await asyncio.gather(*(one(i) for i in dict.fromkeys(ids)))
        return [i for i in done if i is not None]

    async def delete(self, scope: Scope, ids: Sequence[str]) -> list[str]:
        async def one(memory_id: str) -> str | None:
            memory = await self._get_memory(codec.memory_id_for(memory_id))
            record = codec.decode_record(memory) if memory is not None else None
            if record is None or record.scope != scope:
                return None
            deleted = await self._delete_memory(codec.memory_id_for(memory_id))
            return memory_id if deleted else None

        done = await asyncio.gather(*(one(i) for i in dict.fromkeys(ids)))
        return [i for i in done if i is not None]

    async def record_hits(self, scope: Scope, ids: Sequence[str], at: datetime) -> None:
        """Read-modify-write per record: concurrent recalls may undercount hits (advisory)."""

        async def one(memory_id: str) -> None:
            memory = await self._get_memory(codec.memory_id_for(memory_id))
            record = codec.decode_record(memory) if memory is not None else None
            if record is None or record.scope != scope:
                return
            updated = record.model_copy(update={"hits": record.hits + 1, "last_accessed_at": at})
            supersedes = codec.supersedes_of(memory)
            await self._patch(
                codec.memory_id_for(memory_id),
                fact=None,
                metadata=codec.encode_metadata(updated, supersedes=supersedes or None),
            )

        await asyncio.gather(*(one(i) for i in dict.fromkeys(ids)))

    async def seen_events(self, scope: Scope, event_ids: Sequence[str]) -> set[str]:
        marker_scope = codec.marker_scope_dict(scope)

        async def one(event_id: str) -> str | None:
            memory = await self._get_memory(codec.marker_id_for(scope, event_id))
            if memory is None or (memory.scope or {}) != marker_scope:
                return None
            return event_id

        done = await asyncio.gather(*(one(e) for e in dict.fromkeys(event_ids)))
        return {e for e in done if e is not None}

    async def mark_events_seen(self, scope: Scope, event_ids: Sequence[str]) -> None:
        marker_scope = codec.marker_scope_dict(scope)

        async def already() -> None:
            return None

        async def one(event_id: str) -> None:
            await self._create(
                codec.marker_id_for(scope, event_id),
                fact=f"ingested event {event_id}",
                scope=marker_scope,
                metadata={
                    "kind": {"string_value": codec.KIND_MARKER},
                    "event_id": {"string_value": event_id},
                },
                on_conflict=already,
                revisions=False,
            )

        await asyncio.gather(*(one(e) for e in dict.fromkeys(event_ids)))

    async def scopes(self) -> list[Scope]:
        """Scopes with at least one record: lists the whole engine (an admin operation)."""
        found: set[Scope] = set()
        token: str | None = None
        while True:
            config: dict[str, Any] = {"page_size": MAX_TOP_K}
            if token:
                config["page_token"] = token

            async def page(config: dict[str, Any] = config) -> Any:
                return await self._api.list(name=self.engine, config=config)

            pager = await self._call("list", page)
            for memory in pager.page:
                record_scope = codec.record_scope(memory.scope)
                if record_scope is not None and codec.is_record(memory):
                    found.add(record_scope)
            token = (pager.config or {}).get("page_token")
            if not token:
                return sorted(found, key=lambda s: (s.app_name, s.user_id))

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover - close() is always awaited
            return
        client = self._clients.pop(loop, None)
        if client is not None and hasattr(client, "aclose"):
            await client.aclose()

    # -- Memory Bank specific ----------------------------------------------------------

    async def verify(self) -> None:
        """Checks that the engine exists and is reachable (clear errors at open time)."""
        client = self._client()
        banks = getattr(client, "memory_banks", None)
        getter = banks._get if banks is not None else client.agent_engines._get
        await self._call("get engine", lambda: getter(name=self.engine))

    async def generate_from_events(
        self, scope: Scope, events: Sequence[InputEvent], *, now: datetime | None = None
    ) -> list[str]:
        """Server consolidation: Memory Bank extracts and consolidates facts from events.

        Returns the ids of the memories it created or updated. Each gets our record metadata
        (active, episodic, valid from the newest event) so search and list see it.
        """
        if not events:
            return []
        created = now or utcnow()
        valid_at = max(e.timestamp for e in events)
        template = MemoryRecord(
            scope=scope,
            text="(generated)",
            valid_at=valid_at,
            created_at=created,
            source=Source(session_id=events[0].session_id, event_ids=[e.id for e in events]),
        )
        metadata = codec.encode_metadata(template)
        metadata.pop(codec.RID)
        contents = [
            {
                "content": {
                    "role": "model" if _is_agent(e.author) else "user",
                    "parts": [{"text": e.text}],
                }
            }
            for e in events
        ]

        async def generate() -> Any:
            op = await self._api.generate(
                name=self.engine,
                direct_contents_source={"events": contents},
                scope=codec.scope_dict(scope),
                config={"metadata": metadata, "wait_for_completion": False},
            )
            return await self._wait(op, "generate", generate=True)

        op = await self._call("generate", generate)
        return [i[2:] if i.startswith("r-") else i for i in _generated_ids(op)]


#: Event authors sent to Memory Bank as the model's turns; anyone else speaks as the user.
_AGENT_AUTHORS = frozenset({"model", "agent", "assistant", "system", "tool"})


def _is_agent(author: str) -> bool:
    return author.lower() in _AGENT_AUTHORS


def _generated_ids(op: Any) -> list[str]:
    response = getattr(op, "response", None)
    ids: list[str] = []
    for item in getattr(response, "generated_memories", None) or []:
        memory = getattr(item, "memory", None)
        if memory is not None and memory.name:
            ids.append(str(memory.name).rsplit("/", 1)[-1])
    return ids


def _sortable(value: datetime) -> str:
    return as_utc(value).strftime("%Y-%m-%dT%H:%M:%S.%f")


def _matches(record: MemoryRecord, filters: ListFilter) -> bool:
    return all(
        getattr(filters, key) is None or getattr(record, key) == getattr(filters, key)
        for key in ("subject", "predicate", "superseded_by", "consolidated_into")
    )


async def open_memory_bank_store(uri: StoreUri) -> MemoryBankStore:
    """Opens the Memory Bank store a parsed `adkmem+memorybank://` URI names.

    URI params: `consolidation=client|server`, `auth=adc|apikey`, `api_version`,
    `distance=cosine|euclidean`, `timeout` (seconds per call), `retries` (attempts),
    `verify=false` (skip the engine check).

    Raises:
        ConfigError: on a bad URI, missing credentials or a missing engine.
        BackendError: if the engine cannot be reached or access is denied.
    """
    segments = uri.location.split("/")
    if len(segments) != 6:
        raise ConfigError(
            f"bad memorybank URI {uri.raw!r}: expected "
            "adkmem+memorybank://projects/P/locations/L/reasoningEngines/ID"
        )
    project, location = segments[1], segments[3]
    params = dict(uri.params)
    consolidation = params.get("consolidation", "client")
    if consolidation not in ("client", "server"):
        raise ConfigError(f"bad consolidation={consolidation!r}: use client or server")
    timeout, attempts = call_settings(uri)
    store = MemoryBankStore(
        uri.location,
        client_factory=lambda: build_client(project, location, params),
        consolidation="server" if consolidation == "server" else "client",
        call_timeout=timeout,
        retry_attempts=attempts,
        distance_metric=params.get("distance", "cosine"),
    )
    if params.get("verify", "true").lower() not in ("0", "false", "no"):
        try:
            await store.verify()
        except AdkMemoryError:
            await store.close()
            raise
    return store


__all__ = [
    "MAX_TOP_K",
    "MemoryBankStore",
    "build_client",
    "is_loopback_url",
    "open_memory_bank_store",
]
