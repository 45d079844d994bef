"""Restore: archived facts come back, and a consolidation whose sources all return is undone."""

from __future__ import annotations

from collections.abc import Sequence

from adk_memory.engine import MemoryEngine
from adk_memory.lifecycle.consolidation import detach_sources
from adk_memory.model import Scope, Status


async def restore(engine: MemoryEngine, scope: Scope, ids: Sequence[str]) -> list[str]:
    """Brings archived facts of `scope` back. Returns the ids restored; ids that are not
    archived facts of the scope are ignored.

    A fact archived while superseded returns to `superseded` (its successor still holds);
    any other returns to `active`. A consolidated source is detached from its summary, so a
    later consolidation does not archive it again; the summary stays until every one of its
    sources is restored, then it is archived (the consolidation is undone).
    """
    wanted = list(dict.fromkeys(ids))
    async with engine.scope_lock(scope):
        found = [await engine.store.get(i, scope) for i in wanted]
        archived = [r for r in found if r is not None and r.status is Status.ARCHIVED]
        history = [r for r in archived if r.superseded_by]
        if history:
            await engine.store.upsert(
                [
                    r.model_copy(
                        update={
                            "status": Status.SUPERSEDED,
                            "consolidated_into": None,
                            "embedding": None,
                        }
                    )
                    for r in history
                ]
            )
        plain = [r.id for r in archived if not r.superseded_by]
        done = {r.id for r in history} | set(
            await engine.store.set_status(scope, plain, Status.ACTIVE)
        )
        await detach_sources(engine, scope, [r for r in archived if r.id in done])
    return [i for i in wanted if i in done]
