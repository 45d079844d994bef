"""`MemoryBankApi`: every Memory Bank SDK call the stores make, with retries and error mapping.

It speaks through the client ADK's own `VertexAiMemoryBankService` uses
(`agentplatform.Client(...).aio.memory_banks`), or a legacy `vertexai` client
(`agent_engines.memories`). Only public SDK methods are called, with one exception the SDK
forces: google-cloud-aiplatform 2.7 has no public `memories.update` (neither in `agentplatform`
nor in `vertexai`; only `_update`, its `PATCH {memory}`), and without it no metadata can be
changed in place. `update_memory` is the one place that calls it, and awaits its operation with
the SDK's `_get_memory_operation`, since no public call polls an update either.

Long-running operations of public calls are awaited by the SDK (`wait_for_completion=True`),
or, for `create`, by reading the memory back once the operation is not done at once; both are
bounded here by `operation_timeout`; every call has a per-attempt timeout and bounded,
jittered exponential retries on 408/429/5xx and transport errors (`RetryPolicy`).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from adk_memory.errors import AdkMemoryError, BackendError
from adk_memory.stores.vertex import RetryPolicy, backend_error, status_code

T = TypeVar("T")

#: Memory Bank's largest `topK` / `pageSize`.
MAX_TOP_K = 100

MetadataFilterGroups = list[dict[str, Any]]


class NotFound(Exception):
    """A 404 from Memory Bank, before the caller decides what it means."""


class MemoryBankApi:
    """The SDK calls on one reasoning engine's Memory Bank.

    Args:
        engine: `projects/P/locations/L/reasoningEngines/ID`.
        client_factory: Builds the async SDK client; called once per event loop (an async
            client belongs to the loop that opened it).
        retry: Retries of transient failures.
        call_timeout: Seconds one HTTP attempt may take.
        operation_timeout: Seconds a call that waits for its long-running operation may take.
        poll_interval: Seconds between polls of an update operation that is not done yet.
        max_concurrency: Calls in flight at once.
    """

    def __init__(
        self,
        engine: str,
        *,
        client_factory: Callable[[], Any],
        retry: RetryPolicy,
        call_timeout: float,
        operation_timeout: float,
        poll_interval: float,
        max_concurrency: int,
    ) -> None:
        self.engine = engine
        self._client_factory = client_factory
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = (
            weakref.WeakKeyDictionary()
        )
        self._semaphores: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, asyncio.Semaphore
        ] = weakref.WeakKeyDictionary()
        self._retry = retry
        self._call_timeout = call_timeout
        self._operation_timeout = operation_timeout
        self._poll_interval = poll_interval
        self._max_concurrency = max(1, max_concurrency)
        self._closed = False

    # -- plumbing ----------------------------------------------------------------------

    def client(self) -> Any:
        """The SDK client of the running event loop (built on first use)."""
        if self._closed:
            raise BackendError("the Memory Bank store is closed")
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            client = self._client_factory()
            self._clients[loop] = client
        return client

    @property
    def memories(self) -> Any:
        # Same lookup as ADK: `memory_banks.memories` on agentplatform clients, the legacy
        # `agent_engines.memories` on vertexai clients.
        banks = getattr(self.client(), "memory_banks", None)
        return banks.memories if banks is not None else self.client().agent_engines.memories

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

    async def call(
        self,
        what: str,
        fn: Callable[[], Awaitable[T]],
        *,
        missing_ok: bool = False,
        conflict: Callable[[], Awaitable[T]] | None = None,
        waits: bool = False,
    ) -> T:
        """Runs one SDK call with a timeout, bounded retries and error mapping.

        Args:
            what: A short description for error messages.
            fn: Makes the call (a fresh coroutine per attempt).
            missing_ok: Raise `NotFound` on 404 instead of a `ConfigError`.
            conflict: Run instead when the call answers 409 (already exists).
            waits: The call awaits a long-running operation (`operation_timeout` applies).
        """
        # Build the client (a heavy first import) before any attempt's timeout starts.
        self.client()
        timeout = self._operation_timeout if waits else self._call_timeout
        try:
            async with self._semaphore():
                async for attempt in self._retry.retrying():
                    with attempt:
                        return await asyncio.wait_for(fn(), timeout)
        except Exception as exc:
            code = status_code(exc)
            if code == 404 and missing_ok:
                raise NotFound(what) from exc
            if code == 409 and conflict is not None:
                return await conflict()
            if isinstance(exc, RuntimeError) and not isinstance(exc, AdkMemoryError):
                # The SDK raises RuntimeError for an operation that finished with an error.
                raise BackendError(f"Memory Bank {what} failed: {exc}") from exc
            raise self._error(exc, what) from exc
        raise AssertionError("unreachable")  # pragma: no cover - tenacity always returns

    def name(self, memory_id: str) -> str:
        """The resource name of a memory of this engine."""
        return f"{self.engine}/memories/{memory_id}"

    # -- engine ------------------------------------------------------------------------

    async def verify(self) -> None:
        """GETs the engine (public `memory_banks.get`, or `agent_engines.get` on vertexai)."""
        client = self.client()
        banks = getattr(client, "memory_banks", None)
        getter = banks.get if banks is not None else client.agent_engines.get
        await self.call("get engine", lambda: getter(name=self.engine))

    # -- memories ----------------------------------------------------------------------

    async def get_memory(self, memory_id: str) -> Any | None:
        """One memory by id, or None when it does not exist."""
        name = self.name(memory_id)
        try:
            return await self.call(
                f"get {memory_id}", lambda: self.memories.get(name=name), missing_ok=True
            )
        except NotFound:
            return None

    async def create_memory(
        self,
        memory_id: str,
        *,
        fact: str,
        scope: dict[str, str],
        metadata: dict[str, Any],
        on_conflict: Callable[[], Awaitable[None]],
        revisions: bool = True,
    ) -> None:
        """Creates a memory with our own id; `on_conflict` runs when the id exists (409)."""
        config: dict[str, Any] = {
            "memory_id": memory_id,
            "metadata": metadata,
            # Awaited here: the SDK's own wait reads the memory back once more (a GET per
            # write), and a finished create needs nothing more.
            "wait_for_completion": False,
        }
        if not revisions:
            config["disable_memory_revisions"] = True
        name = self.name(memory_id)

        async def create() -> None:
            op = await self.memories.create(name=self.engine, fact=fact, scope=scope, config=config)
            if getattr(op, "error", None):
                raise BackendError(f"Memory Bank create {memory_id} failed: {op.error}")
            if getattr(op, "done", False):
                return
            # Not done yet: the memory exists once it is (public `get`, no operation poll).
            loop = asyncio.get_running_loop()
            deadline = loop.time() + self._operation_timeout
            while loop.time() < deadline:
                await asyncio.sleep(self._poll_interval)
                try:
                    await self.memories.get(name=name)
                    return
                except Exception as exc:
                    if status_code(exc) != 404:
                        raise
            raise BackendError(
                f"Memory Bank create {memory_id}: not done after {self._operation_timeout:.0f} s"
            )

        await self.call(f"create {memory_id}", create, conflict=on_conflict, waits=True)

    async def update_memory(
        self, memory_id: str, *, fact: str | None, metadata: dict[str, Any]
    ) -> None:
        """Replaces a memory's metadata (and its fact when given): `PATCH {memory}`.

        The only private SDK calls of the package (see the module docstring).
        """
        name = self.name(memory_id)
        config: dict[str, Any] = {
            "metadata": metadata,
            "update_mask": "fact,metadata" if fact is not None else "metadata",
        }

        async def update() -> None:
            memories = self.memories
            op = await memories._update(name=name, fact=fact, config=config)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + self._operation_timeout
            while not getattr(op, "done", False):
                if loop.time() > deadline:
                    raise BackendError(
                        f"Memory Bank update {memory_id}: operation {op.name} not done after "
                        f"{self._operation_timeout:.0f} s"
                    )
                await asyncio.sleep(self._poll_interval)
                op = await memories._get_memory_operation(operation_name=op.name)
            if getattr(op, "error", None):
                raise BackendError(f"Memory Bank update {memory_id} failed: {op.error}")

        await self.call(f"update {memory_id}", update, waits=True)

    async def delete_memory(self, memory_id: str) -> bool:
        """Deletes one memory; False when it did not exist."""
        name = self.name(memory_id)
        try:
            await self.call(
                f"delete {memory_id}", lambda: self.memories.delete(name=name), missing_ok=True
            )
        except NotFound:
            return False
        return True

    async def retrieve_similar(
        self, scope: dict[str, str], query: str, k: int, groups: MetadataFilterGroups | None
    ) -> list[Any]:
        """Similarity retrieval: `(memory, distance)` items, nearest first."""

        async def retrieve() -> list[Any]:
            pager = await self.memories.retrieve(
                name=self.engine,
                scope=scope,
                similarity_search_params={"search_query": query, "top_k": min(k, MAX_TOP_K)},
                config={"filter_groups": groups} if groups else None,
            )
            return list(pager.page)

        return await self.call("search", retrieve)

    async def _every_page(
        self,
        what: str,
        fetch: Callable[[dict[str, Any]], Awaitable[Any]],
        *,
        missing_ok: bool = False,
    ) -> list[Any]:
        """The items of every page of one listing. `fetch` takes the paging parameters
        (`page_size`, then `page_token`); the SDK pagers' own `next_page()` is broken for
        simple retrieval (SDK 2.7), so paging is by hand, the same way for every listing."""
        items: list[Any] = []
        token: str | None = None
        while True:
            params: dict[str, Any] = {"page_size": MAX_TOP_K}
            if token:
                params["page_token"] = token

            async def page(params: dict[str, Any] = params) -> Any:
                return await fetch(params)

            pager = await self.call(what, page, missing_ok=missing_ok)
            items.extend(pager.page)
            token = (pager.config or {}).get("page_token")
            if not token:
                return items

    async def retrieve_all(
        self, scope: dict[str, str], groups: MetadataFilterGroups | None
    ) -> list[Any]:
        """Every memory of exactly `scope` that matches the metadata filter groups."""

        async def fetch(params: dict[str, Any]) -> Any:
            return await self.memories.retrieve(
                name=self.engine,
                scope=scope,
                simple_retrieval_params=params,
                config={"filter_groups": groups} if groups else None,
            )

        items = await self._every_page("retrieve", fetch)
        return [item.memory for item in items if item.memory is not None]

    async def list_all(self) -> list[Any]:
        """Every memory of the engine, every scope (an admin listing)."""

        async def fetch(params: dict[str, Any]) -> Any:
            return await self.memories.list(name=self.engine, config=params)

        return await self._every_page("list", fetch)

    # -- revisions ---------------------------------------------------------------------

    async def list_revisions(self, memory_id: str) -> list[Any]:
        """Every revision of a memory (public `memories.revisions.list`), as the service
        orders them; [] when the memory does not exist."""
        name = self.name(memory_id)

        async def fetch(params: dict[str, Any]) -> Any:
            return await self.memories.revisions.list(name=name, config=params)

        try:
            return await self._every_page(f"list revisions of {memory_id}", fetch, missing_ok=True)
        except NotFound:
            return []

    async def get_revision(self, memory_id: str, revision_id: str) -> Any | None:
        """One revision of a memory (public `memories.revisions.get`), or None."""
        name = f"{self.name(memory_id)}/revisions/{revision_id}"
        try:
            return await self.call(
                f"get revision {revision_id} of {memory_id}",
                lambda: self.memories.revisions.get(name=name),
                missing_ok=True,
            )
        except NotFound:
            return None

    async def rollback(self, memory_id: str, revision_id: str) -> None:
        """Makes a revision's fact the memory's fact again (public `memories.rollback`,
        awaited by the SDK). Raises `NotFound` when the memory or revision does not exist."""
        name = self.name(memory_id)

        async def rollback() -> None:
            await self.memories.rollback(
                name=name,
                target_revision_id=revision_id,
                config={"wait_for_completion": True},
            )

        await self.call(
            f"rollback {memory_id} to revision {revision_id}",
            rollback,
            missing_ok=True,
            waits=True,
        )

    async def purge(self, filter_text: str) -> int:
        """Deletes every memory matching an AIP-160 `filter` (with its revisions) for good.

        Returns:
            The service's `purgeCount`.
        """

        async def purge() -> Any:
            return await self.memories.purge(
                name=self.engine,
                filter=filter_text,
                force=True,
                config={"wait_for_completion": True},
            )

        op = await self.call("purge", purge, waits=True)
        response = getattr(op, "response", None)
        return int(getattr(response, "purge_count", 0) or 0)

    async def ingest_events(
        self,
        scope: dict[str, str],
        *,
        stream_id: str,
        events: Sequence[dict[str, Any]],
        metadata: dict[str, Any],
        revision_labels: dict[str, str] | None = None,
    ) -> None:
        """Sends events to a generation stream and flushes it (`IngestEvents`).

        Memory Bank drops events whose `event_id` the stream has already seen, so a retried
        call never generates twice. `force_flush` makes the memories exist when this returns.
        `revision_labels` go on every revision the generation writes.
        """

        client = self.client()
        banks = getattr(client, "memory_banks", None)
        # `ingest_events` sits on `memory_banks` itself, under `memories` on vertexai clients.
        ingest_api = (
            banks.ingest_events
            if banks is not None
            else client.agent_engines.memories.ingest_events
        )

        config: dict[str, Any] = {
            "metadata": metadata,
            "metadata_merge_strategy": "OVERWRITE",
            "force_flush": True,
            "wait_for_completion": True,
        }
        if revision_labels:
            config["revision_labels"] = revision_labels

        async def ingest() -> None:
            await ingest_api(
                name=self.engine,
                scope=scope,
                stream_id=stream_id,
                direct_contents_source={"events": list(events)},
                config=config,
            )

        await self.call("ingestEvents", ingest, waits=True)

    async def close(self) -> None:
        """Closes the client of the running loop; the API is unusable afterwards."""
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
