"""The Vector Search backend's document store: `SqliteStore` plus an index outbox.

Records (every field, the embedding, seen events) live in SQLite, which gives the backend
scope isolation, listing, paging, atomic REPLACE and hit counts for free. What the index must
learn is kept in an outbox table written in the same transaction as the records
(`_write_records`, `_set_status_rows` are the write paths of `upsert`, `replace` and
`set_status`), so a crash or an index outage between the two never loses an index update: the
next flush sends the current state of every queued id. Each enqueue bumps a version, and a
flush clears only the versions it sent, so a write racing a flush is sent again.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import numpy as np

from adk_memory.model import MemoryRecord, Scope, Status
from adk_memory.stores.base import SearchHit
from adk_memory.stores.sqlite.store import _COLUMNS, SqliteStore

_OUTBOX = """CREATE TABLE IF NOT EXISTS vector_search_outbox (
    id TEXT PRIMARY KEY, version INTEGER NOT NULL
) WITHOUT ROWID"""
_CHUNK = 500


class PendingDatapoint:
    """An id the index must catch up on, with its current document state (None = deleted)."""

    __slots__ = ("id", "scope", "status", "vector", "version")

    def __init__(
        self,
        memory_id: str,
        version: int,
        scope: Scope | None,
        status: Status | None,
        vector: np.ndarray | None,
    ) -> None:
        self.id = memory_id
        self.version = version
        self.scope = scope
        self.status = status
        self.vector = vector


class DocumentStore(SqliteStore):
    """`SqliteStore` whose record writes also queue index updates."""

    async def open(self) -> DocumentStore:
        await super().open()
        return self

    def _open(self) -> None:
        super()._open()
        self._db.execute(_OUTBOX)

    @property
    def dimension(self) -> int | None:
        return self._dimension

    def _enqueue(self, conn: sqlite3.Connection, ids: Sequence[str]) -> None:
        conn.executemany(
            "INSERT INTO vector_search_outbox (id, version) VALUES (?, 1) "
            "ON CONFLICT (id) DO UPDATE SET version = version + 1",
            [(i,) for i in dict.fromkeys(ids)],
        )

    def _write_records(self, conn: sqlite3.Connection, records: Sequence[MemoryRecord]) -> None:
        super()._write_records(conn, records)
        self._enqueue(conn, [r.id for r in records])

    def _set_status_rows(
        self,
        conn: sqlite3.Connection,
        scope: Scope,
        ids: Sequence[str],
        status: Status,
        *,
        only_from: Status | None = None,
        superseded_by: str | None = None,
        consolidated_into: str | None = None,
    ) -> list[str]:
        changed = super()._set_status_rows(
            conn,
            scope,
            ids,
            status,
            only_from=only_from,
            superseded_by=superseded_by,
            consolidated_into=consolidated_into,
        )
        self._enqueue(conn, changed)
        return changed

    async def delete(self, scope: Scope, ids: Sequence[str]) -> list[str]:
        # Queue before deleting (a crash in between must still remove the datapoints) and
        # again after, so a flush that read the rows before the delete does not clear them.
        if not ids:
            return []
        await self._run(self._transaction, lambda c: self._enqueue(c, ids))
        deleted = await super().delete(scope, ids)
        await self._run(self._transaction, lambda c: self._enqueue(c, ids))
        return deleted

    async def pending(self, limit: int) -> list[PendingDatapoint]:
        """Up to `limit` queued ids with their current state."""

        def body() -> list[PendingDatapoint]:
            rows = self._db.execute(
                "SELECT o.id, o.version, m.app_name, m.user_id, m.status, m.embedding "
                "FROM vector_search_outbox o LEFT JOIN memories m ON m.id = o.id "
                "ORDER BY o.id LIMIT ?",
                (limit,),
            ).fetchall()
            out: list[PendingDatapoint] = []
            for memory_id, version, app, user, status, blob in rows:
                if app is None or blob is None:
                    out.append(PendingDatapoint(memory_id, version, None, None, None))
                    continue
                out.append(
                    PendingDatapoint(
                        memory_id,
                        version,
                        Scope(app_name=app, user_id=user),
                        Status(status),
                        np.frombuffer(blob, dtype=np.float32),
                    )
                )
            return out

        return await self._run(body)

    async def has_pending(self) -> bool:
        return await self._run(
            lambda: (
                self._db.execute("SELECT 1 FROM vector_search_outbox LIMIT 1").fetchone()
                is not None
            )
        )

    async def clear(self, sent: Sequence[tuple[str, int]]) -> None:
        """Removes queued ids whose version is still the one that was sent."""

        def body(conn: sqlite3.Connection) -> None:
            conn.executemany("DELETE FROM vector_search_outbox WHERE id = ? AND version = ?", sent)

        if sent:
            await self._run(self._transaction, body)

    async def candidates(
        self,
        scope: Scope,
        ids: Sequence[str],
        *,
        vector: np.ndarray,
        query: str | None,
        k: int,
        statuses: Sequence[Status],
    ) -> list[SearchHit]:
        """Search hits for index candidates `ids` plus lexical matches, nearest first.

        Statuses and scope are checked here again: the index may lag behind the documents.
        Cosines are computed from the stored vectors.
        """
        wanted = [s.value for s in statuses]
        unit = vector / max(float(np.linalg.norm(vector)), 1e-12)

        def rows(where: str, params: Sequence[Any]) -> list[Any]:
            marks = ",".join("?" * len(wanted))
            return self._db.execute(
                f"SELECT {_COLUMNS}, embedding FROM memories WHERE {where} "
                f"AND app_name = ? AND user_id = ? AND status IN ({marks})",
                (*params, scope.app_name, scope.user_id, *wanted),
            ).fetchall()

        def body() -> list[SearchHit]:
            found: dict[str, Any] = {}
            unique = list(dict.fromkeys(ids))
            for start in range(0, len(unique), _CHUNK):
                chunk = unique[start : start + _CHUNK]
                for row in rows(f"id IN ({','.join('?' * len(chunk))})", chunk):
                    found[row[1]] = row
            dense = [found[i] for i in unique if i in found]
            lexical = self._lexical(scope, query, k, statuses, [r[0] for r in dense])
            seen = {r[0] for r in dense}
            extra = [r for r in lexical if r not in seen]
            for start in range(0, len(extra), _CHUNK):
                rowids = extra[start : start + _CHUNK]
                dense += rows(f"rowid IN ({','.join('?' * len(rowids))})", rowids)
            hits: list[SearchHit] = []
            for row in dense:
                if row[-1] is None:
                    continue
                stored = np.frombuffer(row[-1], dtype=np.float32)
                cosine = float(stored @ unit) / max(float(np.linalg.norm(stored)), 1e-12)
                hits.append(
                    SearchHit(
                        record=self._record(row),
                        cosine=max(-1.0, min(1.0, cosine)),
                        lexical=lexical.get(row[0], 0.0),
                    )
                )
            hits.sort(key=lambda h: h.cosine, reverse=True)
            return hits

        return await self._run(body)
