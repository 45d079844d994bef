"""Store walks shared by garbage collection and consolidation.

Lifecycle jobs see the store only through the `MemoryStore` protocol (list, get, upsert,
set_status, scopes), so they run unchanged on every backend.
"""

from __future__ import annotations

from collections.abc import Sequence

from adk_memory.engine import MemoryEngine
from adk_memory.model import MemoryRecord, Scope, Status
from adk_memory.stores.base import ListFilter

#: Records per `list` page while walking a scope.
PAGE_SIZE = 500


async def target_scopes(engine: MemoryEngine, scope: Scope | None) -> list[Scope]:
    """The one scope asked for, or every scope of the store in a stable order."""
    if scope is not None:
        return [scope]
    scopes = await engine.store.scopes()
    return sorted(scopes, key=lambda s: (s.app_name, s.user_id))


async def list_all(
    engine: MemoryEngine, scope: Scope, statuses: Sequence[Status] | None = None
) -> list[MemoryRecord]:
    """Every record of a scope with one of `statuses` (all when None), oldest first."""
    filters = ListFilter(statuses=list(statuses) if statuses else None)
    records: list[MemoryRecord] = []
    cursor: str | None = None
    while True:
        page = await engine.store.list_page(scope, filters=filters, limit=PAGE_SIZE, cursor=cursor)
        records += page.records
        cursor = page.next_cursor
        if cursor is None:
            return records
