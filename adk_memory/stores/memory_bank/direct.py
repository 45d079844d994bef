"""`MemoryBankStore`: the `MemoryStore` protocol on Vertex AI Memory Bank, written directly.

Records are memories of the scope `{"app_name", "user_id"}` (exactly as ADK's
`VertexAiMemoryBankService` writes them); their fields live in memory metadata (`codec`), and
every SDK call goes through `MemoryBankApi`. This store writes each record with
`memories.create` under its own id: the engine's ADD / REPLACE / NOOP decides what is stored.
`MemoryBankGeneratedStore` (`generated.py`, `?consolidation=server`) lets Memory Bank generate
and consolidate the memories instead.

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
- **No cross-process lock.** Memory Bank has no transactions or locks, so `reconcile_lock` is
  a no-op and the losing writer re-checks instead: after writing an active value of a
  single-valued slot (`lives_in`, `works_at`, ...), the store re-reads that slot's active
  records, keeps the one stated last (then created last, then the larger id) and supersedes
  the others. Every writer applies the same rule to the same records, so all converge on one
  active value.
- **Ingest markers** (`seen_events`) are one tiny memory per event with a deterministic id,
  in the scope `{app_name, user_id, adk_memory: "ingest-markers"}`. Exact scope matching keeps
  them out of every retrieval of the user's scope (ADK's included); creating one is
  idempotent (409 = already marked) and needs no read-modify-write of a shared document.
- **Erase** is one scoped `memories.purge` (`scope.app_name=... AND scope.user_id=...`, forced):
  records of every status, markers, and with each memory its revisions.
- **Writes are idempotent under retries**: records are created with our own memory id
  (`memory_id_for`); a 409 from a retried create turns into a full PATCH.
- **Revisions** (`RevisionStore`): Memory Bank keeps every earlier fact of a memory as a
  revision. `revisions` lists them for `history` as superseded records with ids
  `rev~{revision}~{memory}` (readable with `get`, never written or deleted on their own);
  `rollback` makes one current again with `memories.rollback`. Our own records never change
  their text, so only memories Memory Bank consolidated (server generation, or another
  writer's before an upgrade) have earlier values.
- **Memories of other writers** (ADK's service, earlier server generation) read as active
  facts; see `codec`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any

import numpy as np

from adk_memory.errors import AdkMemoryError, ConfigError, InvalidInputError, NotFoundError
from adk_memory.extraction.slots import is_single_valued
from adk_memory.model import MemoryRecord, Scope, Status, as_utc
from adk_memory.stores.base import ListFilter, Page, SearchHit
from adk_memory.stores.memory_bank import codec
from adk_memory.stores.memory_bank.api import MAX_TOP_K, MemoryBankApi, NotFound
from adk_memory.stores.vertex import RetryPolicy

logger = logging.getLogger(__name__)

#: old record id -> (the id superseding it, the pending memory) for REPLACEs in flight.
Pending = dict[str, tuple[str, Any]]


class MemoryBankStore:
    """A `MemoryStore` on one Memory Bank (a reasoning engine); we consolidate.

    Args:
        engine: `projects/P/locations/L/reasoningEngines/ID`.
        client_factory: Builds the async SDK client; called once per event loop (an async
            client belongs to the loop that opened it).
        call_timeout: Seconds one HTTP attempt may take.
        retry_attempts: Attempts per call, the first included.
        retry_initial: First backoff in seconds (then doubling, jittered, up to `retry_max`).
        retry_max: Largest backoff in seconds.
        retry_deadline: Seconds after which a call stops retrying.
        operation_timeout: Seconds to wait for a long-running operation.
        poll_interval: Seconds between polls of an update operation.
        max_concurrency: Calls in flight at once per store.
        distance_metric: How to read `distance` (`cosine` or `euclidean`).
    """

    max_search_k = MAX_TOP_K
    #: The `?consolidation=` mode this class implements.
    consolidation = "client"

    def __init__(
        self,
        engine: str,
        *,
        client_factory: Callable[[], Any],
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
        if distance_metric not in ("cosine", "euclidean"):
            raise ConfigError(f"distance must be cosine or euclidean, got {distance_metric!r}")
        self.engine = engine
        self._distance_metric = distance_metric
        self.api = MemoryBankApi(
            engine,
            client_factory=client_factory,
            retry=RetryPolicy(
                max_attempts=max(1, retry_attempts),
                initial_backoff=retry_initial,
                max_backoff=retry_max,
                jitter=retry_initial,
                max_total_seconds=retry_deadline,
                call_timeout=call_timeout,
                label="Memory Bank",
            ),
            call_timeout=call_timeout,
            operation_timeout=operation_timeout,
            poll_interval=poll_interval,
            max_concurrency=max_concurrency,
        )

    # -- finding a record's memory -----------------------------------------------------

    async def _find(self, record_id: str, scope: Scope | None) -> tuple[Any, MemoryRecord] | None:
        """The memory holding a record, and the record; None when there is none.

        Our records live under `memory_id_for(id)`; another writer's memory under its own
        id, which is its record id.
        """
        memory = await self.api.get_memory(codec.memory_id_for(record_id))
        found = self._accept(memory, record_id, scope)
        if found is None:
            foreign = codec.foreign_memory_id(record_id)
            if foreign is not None:
                found = self._accept(await self.api.get_memory(foreign), record_id, scope)
        return found

    @staticmethod
    def _accept(
        memory: Any | None, record_id: str, scope: Scope | None
    ) -> tuple[Any, MemoryRecord] | None:
        record = codec.decode_record(memory) if memory is not None else None
        if record is None or record.id != record_id:
            return None
        if scope is not None and record.scope != scope:
            return None
        return memory, record

    # -- writing one record ------------------------------------------------------------

    async def _patch(self, memory: Any, record: MemoryRecord, *, fact: str | None = None) -> None:
        supersedes = codec.supersedes_of(memory)
        await self.api.update_memory(
            codec.memory_id_of(memory),
            fact=fact,
            metadata=codec.encode_metadata(record, supersedes=supersedes or None),
        )

    async def _write(self, record: MemoryRecord, supersedes: list[str] | None = None) -> None:
        """Creates or fully replaces one record under its own memory id."""
        memory_id = codec.memory_id_for(record.id)
        metadata = codec.encode_metadata(record, supersedes=supersedes)
        scope = codec.scope_dict(record.scope)

        async def overwrite() -> None:
            # Already there: a retried create that had succeeded, or a real upsert. Scope is
            # immutable in Memory Bank, so a record that changed scope is recreated.
            existing = await self.api.get_memory(memory_id)
            if existing is not None and (existing.scope or {}) != scope:
                await self.api.delete_memory(memory_id)
                await self.api.create_memory(
                    memory_id,
                    fact=record.text,
                    scope=scope,
                    metadata=metadata,
                    on_conflict=overwrite,
                )
                return
            await self.api.update_memory(memory_id, fact=record.text, metadata=metadata)

        await self.api.create_memory(
            memory_id, fact=record.text, scope=scope, metadata=metadata, on_conflict=overwrite
        )

    async def _store(self, record: MemoryRecord) -> None:
        """Stores one record (ADD or a full update). Subclasses change how."""
        foreign = None if codec.is_own_id(record.id) else codec.foreign_memory_id(record.id)
        if foreign is not None:
            found = self._accept(await self.api.get_memory(foreign), record.id, None)
            if found is not None:
                # Another writer's memory, kept under its own id: update it in place.
                await self._patch(found[0], record, fact=record.text)
                return
        await self._write(record)

    # -- REPLACE bookkeeping -----------------------------------------------------------

    async def _pending(self, scope: Scope) -> Pending:
        pending = await self.api.retrieve_all(
            codec.scope_dict(scope),
            [{"filters": [{"key": codec.PENDING, "value": {"bool_value": True}}]}],
        )
        out: Pending = {}
        for memory in pending:
            if not codec.is_record(memory):
                continue
            new_id = codec.record_id_of(memory)
            for old_id in codec.supersedes_of(memory):
                out[old_id] = (new_id, memory)
        return out

    @staticmethod
    def _overlay(record: MemoryRecord, pending: Pending) -> MemoryRecord:
        if record.status is Status.ACTIVE and record.id in pending:
            return record.model_copy(
                update={"status": Status.SUPERSEDED, "superseded_by": pending[record.id][0]}
            )
        return record

    async def _repair(self, scope: Scope, pending: Pending) -> None:
        """Finishes interrupted REPLACEs (best effort: a failure is retried by the next read)."""
        by_new: dict[str, Any] = {new_id: memory for new_id, memory in pending.values()}
        try:
            for new_id, memory in by_new.items():
                await self._supersede(scope, codec.supersedes_of(memory), new_id)
                record = codec.decode_record(memory)
                if record is not None:
                    await self.api.update_memory(
                        codec.memory_id_of(memory),
                        fact=None,
                        metadata=codec.encode_metadata(record),
                    )
        except AdkMemoryError as exc:
            logger.warning("could not finish an interrupted REPLACE in %s: %s", scope, exc)

    async def _supersede(self, scope: Scope, old_ids: Sequence[str], new_id: str) -> list[str]:
        async def one(old_id: str) -> str | None:
            found = await self._find(old_id, scope)
            if found is None or found[1].status is not Status.ACTIVE:
                return None
            memory, record = found
            updated = record.model_copy(
                update={"status": Status.SUPERSEDED, "superseded_by": new_id}
            )
            await self._patch(memory, updated)
            return old_id

        done = await asyncio.gather(*(one(i) for i in dict.fromkeys(old_ids)))
        return [i for i in done if i is not None]

    async def _active_targets(self, new: MemoryRecord, superseded_ids: Sequence[str]) -> list[str]:
        """The ids among `superseded_ids` that are active records of `new.scope`."""
        ids = [i for i in dict.fromkeys(superseded_ids) if i != new.id]
        found, pending = await asyncio.gather(
            asyncio.gather(*(self._find(i, new.scope) for i in ids)),
            self._pending(new.scope),
        )
        return [
            old_id
            for old_id, hit in zip(ids, found, strict=True)
            if hit is not None and self._overlay(hit[1], pending).status is Status.ACTIVE
        ]

    # -- the losing writer re-checks (no cross-process lock) --------------------------

    async def _converge(self, records: Sequence[MemoryRecord]) -> None:
        """Leaves one active value in each single-valued slot these records wrote.

        Best effort: a failure is logged; the next write to the slot converges it.
        """
        slots = {
            (r.scope, r.subject, r.predicate)
            for r in records
            if r.status is Status.ACTIVE and r.predicate and is_single_valued(r.predicate)
        }
        try:
            await asyncio.gather(*(self._converge_slot(*slot) for slot in slots))
        except AdkMemoryError as exc:
            logger.warning("could not re-check a single-valued slot after a write: %s", exc)

    async def _converge_slot(self, scope: Scope, subject: str, predicate: str) -> None:
        memories, pending = await asyncio.gather(
            self.api.retrieve_all(
                codec.scope_dict(scope), codec.slot_filter_groups(subject, predicate)
            ),
            self._pending(scope),
        )
        active: list[MemoryRecord] = []
        for memory in memories:
            record = codec.decode_record(memory)
            if record is None or record.subject != subject or record.predicate != predicate:
                continue
            if self._overlay(record, pending).status is Status.ACTIVE:
                active.append(record)
        if len(active) < 2:
            return
        winner = max(active, key=_stated_order)
        losers = [r.id for r in active if r.id != winner.id]
        logger.info(
            "%s: %d concurrent values of %s/%s; keeping %s (stated last)",
            scope,
            len(active),
            subject,
            predicate,
            winner.id,
        )
        await self._supersede(scope, losers, winner.id)

    # -- MemoryStore: writes -----------------------------------------------------------

    async def upsert(self, records: Sequence[MemoryRecord]) -> None:
        """Writes records concurrently; each write is idempotent, the batch is not atomic.

        Raises:
            InvalidInputError: for an earlier value kept as a revision (read-only; `rollback`
                makes it current again).
        """
        _refuse_revisions([r.id for r in records], "written")
        await asyncio.gather(*(self._store(r) for r in records))
        await self._converge(records)

    async def replace(self, new: MemoryRecord, superseded_ids: Sequence[str]) -> list[str]:
        """Stores `new` and supersedes the active `superseded_ids` of its scope.

        Order: (1) create `new` pending with `supersedes=[ids]` (the commit point), (2) mark
        each old record superseded, (3) clear the pending flag. Readers treat the ids of a
        pending record as superseded, so the state is never torn; an error after step 1 is
        logged and repaired by the next read instead of failing the call.
        """
        targets = await self._active_targets(new, superseded_ids)
        if not targets:
            await self._store(new)
            await self._converge([new])
            return []
        await self._write(new, supersedes=targets)
        try:
            await self._supersede(new.scope, targets, new.id)
            await self.api.update_memory(
                codec.memory_id_for(new.id), fact=None, metadata=codec.encode_metadata(new)
            )
        except AdkMemoryError as exc:
            logger.warning("REPLACE of %s committed; finishing it later: %s", new.id, exc)
        await self._converge([new])
        return targets

    async def set_status(
        self,
        scope: Scope,
        ids: Sequence[str],
        status: Status,
        *,
        consolidated_into: str | None = None,
    ) -> list[str]:
        async def one(record_id: str) -> str | None:
            found = await self._find(record_id, scope)
            if found is None or found[1].status is status:
                return None
            memory, record = found
            update: dict[str, Any] = {"status": status}
            if status is Status.SUPERSEDED:
                update["superseded_by"] = None
            if status is Status.ACTIVE:
                update.update(superseded_by=None, consolidated_into=None)
            if consolidated_into is not None:
                update["consolidated_into"] = consolidated_into
            await self.api.update_memory(
                codec.memory_id_of(memory),
                fact=None,
                metadata=codec.encode_metadata(record.model_copy(update=update)),
            )
            return record_id

        done = await asyncio.gather(*(one(i) for i in dict.fromkeys(ids)))
        return [i for i in done if i is not None]

    async def delete(self, scope: Scope, ids: Sequence[str]) -> list[str]:
        """Deletes records with their memories (and so their revisions).

        Raises:
            InvalidInputError: for an earlier value kept as a revision: Memory Bank deletes a
                revision only with its memory.
        """
        _refuse_revisions(ids, "deleted on its own (forget the memory it belongs to)")

        async def one(record_id: str) -> str | None:
            found = await self._find(record_id, scope)
            if found is None:
                return None
            deleted = await self.api.delete_memory(codec.memory_id_of(found[0]))
            return record_id if deleted else None

        done = await asyncio.gather(*(one(i) for i in dict.fromkeys(ids)))
        return [i for i in done if i is not None]

    async def record_hits(self, scope: Scope, ids: Sequence[str], at: datetime) -> None:
        """Read-modify-write per record: concurrent recalls may undercount hits (advisory)."""

        async def one(record_id: str) -> None:
            found = await self._find(record_id, scope)
            if found is None:
                return
            memory, record = found
            updated = record.model_copy(update={"hits": record.hits + 1, "last_accessed_at": at})
            await self._patch(memory, updated)

        await asyncio.gather(*(one(i) for i in dict.fromkeys(ids)))

    async def mark_events_seen(self, scope: Scope, event_ids: Sequence[str]) -> None:
        marker_scope = codec.marker_scope_dict(scope)

        async def already() -> None:
            return None

        async def one(event_id: str) -> None:
            await self.api.create_memory(
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

    async def erase(self, scope: Scope) -> int:
        """Purges every memory of the user: records of every status, markers, revisions.

        Returns the number of records (markers not counted) the scope held just before.
        """
        records = [
            m
            for m in await self.api.retrieve_all(codec.scope_dict(scope), None)
            if codec.decode_record(m) is not None
        ]
        await self.api.purge(codec.scope_filter(scope))
        return len(records)

    def reconcile_lock(self, scope: Scope) -> AbstractAsyncContextManager[None]:
        """A no-op: Memory Bank cannot lock; writes of single-valued slots re-check instead."""
        return contextlib.nullcontext()

    # -- MemoryStore: reads ------------------------------------------------------------

    async def get(self, memory_id: str, scope: Scope | None = None) -> MemoryRecord | None:
        revision = codec.parse_revision_record_id(memory_id)
        if revision is not None:
            found_revision = await self._revision(*revision, scope)
            return found_revision[1] if found_revision is not None else None
        found = await self._find(memory_id, scope)
        if found is None:
            return None
        record = found[1]
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
        found, pending = await asyncio.gather(
            self.api.retrieve_similar(
                codec.scope_dict(scope), query, k, codec.status_filter_groups(fetch)
            ),
            self._pending(scope),
        )
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
        memories, pending = await asyncio.gather(
            self.api.retrieve_all(codec.scope_dict(scope), codec.status_filter_groups(fetch)),
            self._pending(scope),
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

    # -- RevisionStore: earlier values Memory Bank keeps --------------------------------

    def is_revision(self, memory_id: str) -> bool:
        """Whether an id names a revision of a memory (`rev~{revision}~{memory}`)."""
        return codec.parse_revision_record_id(memory_id) is not None

    async def revisions(self, record: MemoryRecord) -> list[MemoryRecord]:
        """The earlier values of a record's memory, from its revisions (`revisions.list`).

        Oldest first; each earlier value once (at its last revision), none equal to the current
        text: the newest revision is the current value itself, and a metadata-only change may
        add revisions with an unchanged fact.
        """
        if self.is_revision(record.id):
            return []
        found = await self._find(record.id, record.scope)
        if found is None:
            return []
        memory, current = found
        memory_id = codec.memory_id_of(memory)
        revisions = sorted(
            (r for r in await self.api.list_revisions(memory_id) if r.fact),
            key=_revision_order,
        )
        latest: dict[str, Any] = {}
        for revision in revisions:
            if revision.fact != current.text:
                latest.pop(revision.fact, None)
                latest[revision.fact] = revision
        return [codec.decode_revision(r, current, memory_id) for r in latest.values()]

    async def rollback(self, scope: Scope, revision_id: str) -> MemoryRecord:
        """Rolls a memory back to one of its revisions (`memories.rollback`).

        The memory's fact becomes the revision's again (Memory Bank embeds it anew, so search
        finds it), and its metadata says so: the record keeps its id and status, its text and
        times become the earlier value's, and its object (known for the value being replaced
        only) is cleared.

        Raises:
            NotFoundError: if `revision_id` is no revision of a memory of `scope`.
        """
        parsed = codec.parse_revision_record_id(revision_id)
        found = await self._revision(*parsed, scope) if parsed is not None else None
        if parsed is None or found is None:
            raise NotFoundError(f"no memory revision {revision_id!r} in {scope}")
        (memory, current), target = found
        memory_id, number = parsed
        try:
            await self.api.rollback(memory_id, number)
        except NotFound as exc:
            raise NotFoundError(f"no memory revision {revision_id!r} in {scope}") from exc
        restored = current.model_copy(
            update={
                "text": target.text,
                "object": "",
                "valid_at": target.valid_at,
                "recorded_at": target.recorded_at,
            }
        )
        await self._patch(memory, restored)
        now = await self.get(current.id, scope)
        return now if now is not None else restored

    async def _revision(
        self, memory_id: str, revision_id: str, scope: Scope | None
    ) -> tuple[tuple[Any, MemoryRecord], MemoryRecord] | None:
        """`((memory, its record), the revision's record)`, or None when either is missing or
        the memory is not a record of `scope`."""
        memory = await self.api.get_memory(memory_id)
        current = codec.decode_record(memory) if memory is not None else None
        if current is None or (scope is not None and current.scope != scope):
            return None
        revision = await self.api.get_revision(memory_id, revision_id)
        if revision is None or not revision.fact:
            return None
        return (memory, current), codec.decode_revision(revision, current, memory_id)

    async def seen_events(self, scope: Scope, event_ids: Sequence[str]) -> set[str]:
        marker_scope = codec.marker_scope_dict(scope)

        async def one(event_id: str) -> str | None:
            memory = await self.api.get_memory(codec.marker_id_for(scope, event_id))
            if memory is None or (memory.scope or {}) != marker_scope:
                return None
            return event_id

        done = await asyncio.gather(*(one(e) for e in dict.fromkeys(event_ids)))
        return {e for e in done if e is not None}

    async def scopes(self) -> list[Scope]:
        """Scopes with at least one record: lists the whole engine (an admin operation)."""
        found = {
            record.scope
            for record in map(codec.decode_record, await self.api.list_all())
            if record is not None
        }
        return sorted(found, key=lambda s: (s.app_name, s.user_id))

    async def verify(self) -> None:
        """Checks that the engine exists and is reachable (clear errors at open time)."""
        await self.api.verify()

    async def close(self) -> None:
        await self.api.close()


def _refuse_revisions(ids: Sequence[str], what: str) -> None:
    revisions = [i for i in ids if codec.parse_revision_record_id(i) is not None]
    if revisions:
        raise InvalidInputError(
            f"{revisions[0]!r} is an earlier value Memory Bank keeps as a revision; it cannot "
            f"be {what}"
        )


def _revision_order(revision: Any) -> tuple[str, int, str]:
    """Revisions oldest first: create time, then the revision id (numeric where it is)."""
    created = revision.create_time
    revision_id = codec.revision_id_of(revision)
    return (
        _sortable(created) if isinstance(created, datetime) else "",
        int(revision_id) if revision_id.isdigit() else -1,
        revision_id,
    )


def _stated_order(record: MemoryRecord) -> tuple[datetime, datetime, str]:
    """How concurrent values of one slot are ordered: stated, then created, then id."""
    return (as_utc(record.stated_at), as_utc(record.created_at), record.id)


def _sortable(value: datetime) -> str:
    return as_utc(value).strftime("%Y-%m-%dT%H:%M:%S.%f")


def _matches(record: MemoryRecord, filters: ListFilter) -> bool:
    return all(
        getattr(filters, key) is None or getattr(record, key) == getattr(filters, key)
        for key in ("subject", "predicate", "superseded_by", "consolidated_into")
    )


__all__ = ["MAX_TOP_K", "MemoryBankStore"]
