"""The Vector Search backend's document store: a `SqliteStore` plus an index outbox.

Records (every field, the embedding, seen events, hit counts) live in a `SqliteStore`, used
through its public API only, which gives the backend scope isolation, listing, paging, atomic
REPLACE, erase and the cross-process reconcile lock. What the index must learn is kept in an
outbox table of the same file, on a connection of its own (`IndexOutbox`): every write queues
its ids before it touches the records and again after, and a flush sends the *current* state
of each queued id (an upsert, or a removal once the record is gone). So a crash or an index
outage between the two never loses an index update, and a write racing a flush is sent again:
each queueing bumps a version, and a flush clears only the versions it sent.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TypeVar

import numpy as np

from adk_memory.errors import BackendError
from adk_memory.model import MemoryRecord, Scope, Status
from adk_memory.stores.base import ListFilter, Page, SearchHit
from adk_memory.stores.sqlite.store import SqliteStore

T = TypeVar("T")

_OUTBOX = """CREATE TABLE IF NOT EXISTS vector_search_outbox (
    id TEXT PRIMARY KEY, version INTEGER NOT NULL
) WITHOUT ROWID"""


@dataclass(frozen=True)
class PendingDatapoint:
    """An id the index must catch up on, with its current document state.

    `record` is None once the record is gone: the datapoint must be removed.
    """

    id: str
    version: int
    record: MemoryRecord | None

    @property
    def vector(self) -> np.ndarray | None:
        if self.record is None or self.record.embedding is None:
            return None
        return np.asarray(self.record.embedding, dtype=np.float32)


class IndexOutbox:
    """Ids whose datapoint must be (re)sent, in a table of the document file.

    Args:
        path: The document store's SQLite file (opened by it first).
        busy_timeout_s: How long a write waits for another connection's transaction.
    """

    def __init__(self, path: Path, *, busy_timeout_s: float = 30.0) -> None:
        self._path = path
        self._busy_timeout_s = busy_timeout_s
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="adkmem-vs-outbox")
        self._conn: sqlite3.Connection | None = None

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        loop = asyncio.get_running_loop()

        def call() -> T:
            if self._conn is None:
                raise BackendError("the Vector Search outbox is not open")
            return fn(self._conn)

        try:
            return await loop.run_in_executor(self._executor, call)
        except sqlite3.Error as exc:
            raise BackendError(f"vectorsearch outbox: {exc}") from exc

    async def open(self) -> None:
        def connect() -> None:
            conn = sqlite3.connect(self._path, timeout=self._busy_timeout_s, isolation_level=None)
            conn.execute(_OUTBOX)
            self._conn = conn

        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._executor, connect)

    async def enqueue(self, ids: Sequence[str]) -> None:
        unique = [(i,) for i in dict.fromkeys(ids)]
        if not unique:
            return
        await self._run(
            lambda conn: conn.executemany(
                "INSERT INTO vector_search_outbox (id, version) VALUES (?, 1) "
                "ON CONFLICT (id) DO UPDATE SET version = version + 1",
                unique,
            )
        )

    async def queued(self, limit: int) -> list[tuple[str, int]]:
        """Up to `limit` queued (id, version) pairs."""
        rows = await self._run(
            lambda conn: conn.execute(
                "SELECT id, version FROM vector_search_outbox ORDER BY id LIMIT ?", (limit,)
            ).fetchall()
        )
        return [(str(i), int(v)) for i, v in rows]

    async def has_pending(self) -> bool:
        return await self._run(
            lambda conn: (
                conn.execute("SELECT 1 FROM vector_search_outbox LIMIT 1").fetchone() is not None
            )
        )

    async def clear(self, sent: Sequence[tuple[str, int]]) -> None:
        """Removes queued ids whose version is still the one that was sent."""
        if sent:
            await self._run(
                lambda conn: conn.executemany(
                    "DELETE FROM vector_search_outbox WHERE id = ? AND version = ?", sent
                )
            )

    async def close(self) -> None:
        def close() -> None:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._executor, close)
        finally:
            self._executor.shutdown(wait=True)


class DocumentStore:
    """The records of a Vector Search store, and what its index still has to learn.

    Args:
        path: The SQLite file.
    """

    def __init__(self, path: str | Path) -> None:
        self.records = SqliteStore(path)
        self.outbox = IndexOutbox(self.records.path)

    async def open(self) -> DocumentStore:
        await self.records.open()
        await self.outbox.open()
        return self

    # -- writes: queue, write, queue again ---------------------------------------------

    async def _queued_around(self, ids: Sequence[str], write: Callable[[], Awaitable[T]]) -> T:
        await self.outbox.enqueue(ids)
        result = await write()
        await self.outbox.enqueue(ids)
        return result

    async def upsert(self, records: Sequence[MemoryRecord]) -> None:
        await self._queued_around([r.id for r in records], lambda: self.records.upsert(records))

    async def replace(self, new: MemoryRecord, superseded_ids: Sequence[str]) -> list[str]:
        return await self._queued_around(
            [new.id, *superseded_ids], lambda: self.records.replace(new, superseded_ids)
        )

    async def set_status(
        self,
        scope: Scope,
        ids: Sequence[str],
        status: Status,
        *,
        consolidated_into: str | None = None,
    ) -> list[str]:
        return await self._queued_around(
            ids,
            lambda: self.records.set_status(
                scope, ids, status, consolidated_into=consolidated_into
            ),
        )

    async def delete(self, scope: Scope, ids: Sequence[str]) -> list[str]:
        return await self._queued_around(ids, lambda: self.records.delete(scope, ids))

    async def erase(self, scope: Scope) -> int:
        """Erases the scope's records; their datapoints are queued for removal first."""
        ids = await self.scope_ids(scope)
        await self.outbox.enqueue(ids)
        return await self.records.erase(scope)

    async def scope_ids(self, scope: Scope) -> list[str]:
        """The ids of every record of a scope, any status."""
        ids: list[str] = []
        cursor: str | None = None
        while True:
            page = await self.records.list_page(scope, limit=500, cursor=cursor)
            ids.extend(r.id for r in page.records)
            cursor = page.next_cursor
            if cursor is None:
                return ids

    async def record_hits(self, scope: Scope, ids: Sequence[str], at: datetime) -> None:
        await self.records.record_hits(scope, ids, at)

    async def mark_events_seen(self, scope: Scope, event_ids: Sequence[str]) -> None:
        await self.records.mark_events_seen(scope, event_ids)

    def reconcile_lock(self, scope: Scope) -> AbstractAsyncContextManager[None]:
        return self.records.reconcile_lock(scope)

    # -- reads -------------------------------------------------------------------------

    async def get(self, memory_id: str, scope: Scope | None = None) -> MemoryRecord | None:
        return await self.records.get(memory_id, scope)

    async def list_page(
        self,
        scope: Scope,
        *,
        filters: ListFilter | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page:
        return await self.records.list_page(scope, filters=filters, limit=limit, cursor=cursor)

    async def seen_events(self, scope: Scope, event_ids: Sequence[str]) -> set[str]:
        return await self.records.seen_events(scope, event_ids)

    async def scopes(self) -> list[Scope]:
        return await self.records.scopes()

    # -- the index outbox ----------------------------------------------------------------

    async def pending(self, limit: int) -> list[PendingDatapoint]:
        """Up to `limit` queued ids with their current state."""
        queued = await self.outbox.queued(limit)
        found = {
            r.id: r
            for r in await self.records.get_many([i for i, _ in queued], with_embeddings=True)
        }
        return [PendingDatapoint(i, version, found.get(i)) for i, version in queued]

    async def has_pending(self) -> bool:
        return await self.outbox.has_pending()

    async def clear(self, sent: Sequence[tuple[str, int]]) -> None:
        await self.outbox.clear(sent)

    # -- search --------------------------------------------------------------------------

    async def candidates(
        self,
        scope: Scope,
        ids: Sequence[str],
        *,
        vector: np.ndarray,
        lexical: Sequence[SearchHit],
        statuses: Sequence[Status],
    ) -> list[SearchHit]:
        """Search hits for the index's candidate `ids` plus lexical matches, nearest first.

        Scope and status are checked here again (the index may lag behind the documents);
        each cosine is computed from the stored vector, exactly.
        """
        wanted = set(statuses)
        unit = vector / max(float(np.linalg.norm(vector)), 1e-12)
        hits: dict[str, SearchHit] = {}
        for record in await self.records.get_many(ids, scope, with_embeddings=True):
            if record.status not in wanted or record.embedding is None:
                continue
            stored = np.asarray(record.embedding, dtype=np.float32)
            cosine = float(stored @ unit) / max(float(np.linalg.norm(stored)), 1e-12)
            hits[record.id] = SearchHit(
                record=record.model_copy(update={"embedding": None}),
                cosine=max(-1.0, min(1.0, cosine)),
            )
        for hit in lexical:
            if hit.record.scope != scope or hit.record.status not in wanted:
                continue
            known = hits.get(hit.record.id)
            hits[hit.record.id] = (
                hit if known is None else known.model_copy(update={"lexical": hit.lexical})
            )
        return sorted(hits.values(), key=lambda h: h.cosine, reverse=True)

    async def local_search(
        self,
        scope: Scope,
        *,
        vector: np.ndarray,
        query: str | None,
        k: int,
        statuses: Sequence[Status],
    ) -> list[SearchHit]:
        """The document store's own search of the scope (dense and lexical candidates).

        Raises:
            InvalidInputError: if the vector's dimension differs from the stored vectors'.
        """
        return await self.records.search(scope, vector=vector, query=query, k=k, statuses=statuses)

    async def close(self) -> None:
        try:
            await self.outbox.close()
        finally:
            await self.records.close()


__all__ = ["DocumentStore", "IndexOutbox", "PendingDatapoint"]
