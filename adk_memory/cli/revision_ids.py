"""Ids of earlier values on the command line (`history`, `restore`).

A store that keeps a memory's earlier values itself (`RevisionStore`: Memory Bank) lists them
in `history` under ids of their own (`rev~N~MEMORY` on Memory Bank). They are not records a
scope lists, so `resolve_id` cannot find them by prefix; here a unique prefix of one is as
good as the id, as for any memory, and an ambiguous one is a clear error.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from adk_memory.cli.engine import all_records, resolve_id

if TYPE_CHECKING:
    from adk_memory.engine import MemoryEngine
    from adk_memory.model import MemoryRecord, Scope

#: Memories whose earlier values are listed at once while a prefix is looked up.
LOOKUP_CONCURRENCY = 8


async def resolve_memory_id(engine: MemoryEngine, given: str, scope: Scope | None = None) -> str:
    """The full id of a memory, or of an earlier value kept as a revision, named by its id or
    a unique prefix of it.

    An id shaped like a revision's (the store's `is_revision`; on Memory Bank `rev~N~` and at
    least the first digit of the memory id, as tables print it) is looked up among the
    earlier values of the scope's memories (every scope's without `scope`); any other goes to
    `resolve_id`.

    Raises:
        NotFoundError: when nothing matches.
        click.ClickException: when more than one earlier value matches (or, for any other id,
            what `resolve_id` raises).
    """
    from adk_memory.errors import NotFoundError
    from adk_memory.stores.base import RevisionStore

    store = engine.store
    wanted = given.strip()
    if not (isinstance(store, RevisionStore) and store.is_revision(wanted)):
        return await resolve_id(engine, given, scope)
    if await engine.store.get(wanted, scope) is not None:
        return wanted
    scopes: Sequence[Scope] = [scope] if scope else await engine.store.scopes()
    records = [r for s in scopes for r in await all_records(engine, s)]
    gate = asyncio.Semaphore(LOOKUP_CONCURRENCY)

    async def earlier(record: MemoryRecord) -> list[MemoryRecord]:
        async with gate:
            return await store.revisions(record)

    found = await asyncio.gather(*(earlier(r) for r in records))
    matches = list(
        dict.fromkeys(v.id for values in found for v in values if v.id.startswith(wanted))
    )
    where = f" in {scope}" if scope else ""
    if not matches:
        raise NotFoundError(f"no memory revision with id or id prefix {wanted!r}{where}")
    if len(matches) > 1:
        shown = ", ".join(m[:24] for m in matches[:5])
        raise click.ClickException(
            f"id prefix {wanted!r} is ambiguous: {len(matches)} earlier values match ({shown}"
            f"{', ...' if len(matches) > 5 else ''}); give more characters"
        )
    return matches[0]
