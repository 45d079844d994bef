"""Restore: archived facts come back, and a consolidation whose sources all return is undone."""

from __future__ import annotations

from collections.abc import Sequence

from adk_memory.engine import MemoryEngine
from adk_memory.errors import NotFoundError
from adk_memory.lifecycle.consolidation import detach_sources
from adk_memory.model import Scope, Status
from adk_memory.stores.base import RevisionStore


async def restore(engine: MemoryEngine, scope: Scope, ids: Sequence[str]) -> list[str]:
    """Brings archived facts of `scope` back. Returns the ids restored; ids that are not
    archived facts of the scope are ignored.

    A fact archived while superseded returns to `superseded` (its successor still holds);
    any other returns to `active`. A consolidated source is detached from its summary, so a
    later consolidation does not archive it again; the summary stays until every one of its
    sources is restored, then it is archived (the consolidation is undone).

    On a store that keeps earlier values itself (`RevisionStore`: Memory Bank's revisions), an
    id from `history` that names such a value makes it the memory's current value again.

    Raises:
        NotFoundError: if an id names a revision that is not one of the scope (checked before
            anything changes).
    """
    wanted = list(dict.fromkeys(ids))
    store = engine.store if isinstance(engine.store, RevisionStore) else None
    revisions = [i for i in wanted if store is not None and store.is_revision(i)]
    async with engine.scope_lock(scope):
        if store is not None and revisions:
            for revision_id in revisions:
                if await engine.store.get(revision_id, scope) is None:
                    raise NotFoundError(f"no memory revision {revision_id!r} in {scope}")
            for revision_id in revisions:
                await store.rollback(scope, revision_id)
        wanted_records = [i for i in wanted if i not in set(revisions)]
        found = [await engine.store.get(i, scope) for i in wanted_records]
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
    done.update(revisions)
    return [i for i in wanted if i in done]
