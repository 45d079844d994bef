"""Builders and store helpers shared by the lifecycle tests."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from adk_memory.engine import MemoryEngine
from adk_memory.model import Kind, MemoryRecord, Scope, Source, Status
from adk_memory.stores.sqlite.store import SqliteStore
from tests.helpers import T0, vector

SCOPE = Scope(app_name="app", user_id="alice")


def at(days: float) -> datetime:
    return T0 + timedelta(days=days)


def fact(
    text: str,
    *,
    days: float = 0,
    session: str | None = "s1",
    kind: Kind = Kind.EPISODIC,
    confidence: float = 0.8,
    subject: str = "user",
    predicate: str = "said",
    obj: str = "",
    hit_days: float | None = None,
    status: Status = Status.ACTIVE,
    superseded_by: str | None = None,
    event: str | None = None,
) -> MemoryRecord:
    return MemoryRecord(
        scope=SCOPE,
        text=text,
        subject=subject,
        predicate=predicate,
        object=obj,
        kind=kind,
        confidence=confidence,
        valid_at=at(days),
        created_at=at(days),
        status=status,
        superseded_by=superseded_by,
        source=Source(session_id=session, event_ids=[event or f"ev-{text[:12]}"]),
        last_accessed_at=None if hit_days is None else at(hit_days),
        embedding=vector(text).tolist(),
    )


async def snapshot(engine: MemoryEngine) -> list[dict[str, Any]]:
    """Every record of the test scope (the only one the tests write), as comparable dicts."""
    page = await engine.store.list_page(SCOPE, limit=10_000)
    return sorted((r.model_dump(mode="json") for r in page.records), key=lambda r: str(r["id"]))


async def statuses(engine: MemoryEngine, ids: Sequence[str]) -> list[Status]:
    found = [await engine.store.get(i, SCOPE) for i in ids]
    return [r.status for r in found if r is not None]


class CrashingStore:
    """A `MemoryStore` over SQLite whose first `set_status` fails, as if the process died
    between writing a summary and archiving its sources. Everything else is the sqlite
    store's own."""

    def __init__(self, inner: SqliteStore) -> None:
        self.inner = inner
        self.crashes_left = 1

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def set_status(
        self,
        scope: Scope,
        ids: Sequence[str],
        status: Status,
        *,
        consolidated_into: str | None = None,
    ) -> list[str]:
        if self.crashes_left:
            self.crashes_left -= 1
            raise ConnectionError("simulated crash before archiving")
        return await self.inner.set_status(scope, ids, status, consolidated_into=consolidated_into)
