"""What the inspector's pages show, read through the engine's public API only.

Nothing here renders HTML: every function returns plain models, so the pages, the tests and a
JSON caller see the same facts recall does.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel, Field

from adk_memory.adk.memory_block import fit_to_budget, format_memory_block
from adk_memory.adk.service import to_memory_entry
from adk_memory.engine import MemoryEngine
from adk_memory.errors import InvalidInputError, NotFoundError
from adk_memory.factory import build_engine
from adk_memory.lifecycle import (
    ConsolidationConfig,
    ConsolidationReport,
    GcReport,
    collect_garbage,
    consolidate,
    source_event_ids,
)
from adk_memory.lifecycle.consolidation import summary_sources
from adk_memory.model import Kind, MemoryRecord, Scope, ScoredMemory, Status
from adk_memory.stores.base import RevisionStore

#: Records read per page while walking a scope.
PAGE_SIZE = 500
#: Most records one scope page lists (the counts stay exact beyond it).
MAX_LISTED = 2000
#: What `MemoryPlugin` injects per turn unless configured otherwise.
PLUGIN_TOP_K = 5


class ScopeSummary(BaseModel):
    """One scope with its record counts by status."""

    scope: Scope
    counts: dict[Status, int] = Field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.counts.values())


class MemoryFilter(BaseModel):
    """What the memories page is asked to show."""

    status: Status | None = None
    kind: Kind | None = None
    text: str = ""


class Listing(BaseModel):
    """The memories of a scope that match a filter, oldest first."""

    summary: ScopeSummary
    records: list[MemoryRecord]
    #: More matched than `MAX_LISTED`; only the first ones are in `records`.
    truncated: bool = False


class TimelineEntry(BaseModel):
    """One value in a memory's history and how it left the current state, if it did."""

    record: MemoryRecord
    #: Why this value is no longer current, in words ("" while it is current).
    change: str = ""
    successor: MemoryRecord | None = None
    summary: MemoryRecord | None = None
    #: An earlier value the store keeps as a revision of its memory (Memory Bank): restoring
    #: it rolls the memory back to it.
    revision: bool = False


class History(BaseModel):
    """A memory, the chain of values it belongs to, and its consolidation links."""

    record: MemoryRecord
    timeline: list[TimelineEntry]
    #: `record` is an earlier value kept as a revision (see `TimelineEntry.revision`).
    revision: bool = False
    #: For a summary: the records it consolidates (any status), in its own order.
    sources: list[MemoryRecord] = Field(default_factory=list)
    #: Source ids a summary lists that are no longer in the store.
    missing_sources: list[str] = Field(default_factory=list)
    event_ids: list[str] = Field(default_factory=list)


class Playground(BaseModel):
    """A recall as the plugin would run it, with what it would inject."""

    query: str
    now: datetime
    ranked: list[ScoredMemory]
    #: The instruction text the plugin appends for this query (None: it injects nothing).
    block: str | None
    injected: int
    top_k: int
    max_chars: int | None

    @property
    def block_chars(self) -> int:
        return len(self.block) if self.block else 0


class DryRun(BaseModel):
    """What garbage collection and consolidation would change in a scope."""

    gc: GcReport
    consolidation: ConsolidationReport
    #: The records the reports name, by id, so the page can show their text.
    records: dict[str, MemoryRecord] = Field(default_factory=dict)


def stated_at(record: MemoryRecord) -> datetime:
    """When a record was stated: `recorded_at` where the store keeps it, else `valid_at`."""
    recorded: datetime | None = getattr(record, "recorded_at", None)
    return recorded or record.valid_at


def is_revision(engine: MemoryEngine, memory_id: str) -> bool:
    """Whether an id names an earlier value the engine's store keeps as a revision."""
    return isinstance(engine.store, RevisionStore) and engine.store.is_revision(memory_id)


def quiet_engine(engine: MemoryEngine) -> MemoryEngine:
    """An engine over the same store and models that counts no recall hits: looking at a
    ranking in the playground must not change what garbage collection sees."""
    return build_engine(
        engine.store,
        embedder=engine.embedder,
        extractor=engine.extractor,
        classifier=engine.classifier,
        config=engine.config.model_copy(update={"record_hits": False}),
        clock=engine.clock,
    )


async def all_records(
    engine: MemoryEngine, scope: Scope, statuses: Sequence[Status] | None = None
) -> list[MemoryRecord]:
    """Every record of a scope (with one of `statuses`), oldest first."""
    records: list[MemoryRecord] = []
    cursor: str | None = None
    while True:
        page = await engine.list(scope, statuses=statuses, limit=PAGE_SIZE, cursor=cursor)
        records += page.records
        cursor = page.next_cursor
        if cursor is None:
            return records


def _counts(records: Sequence[MemoryRecord]) -> dict[Status, int]:
    counts = dict.fromkeys(Status, 0)
    for record in records:
        counts[record.status] += 1
    return counts


async def scope_summaries(engine: MemoryEngine) -> list[ScopeSummary]:
    """Every scope of the store with its counts, ordered by app then user."""
    scopes = sorted(await engine.scopes(), key=lambda s: (s.app_name, s.user_id))
    return [ScopeSummary(scope=s, counts=_counts(await all_records(engine, s))) for s in scopes]


async def require_scope(engine: MemoryEngine, scope: Scope) -> None:
    """Raises `NotFoundError` for a scope that holds no record."""
    if scope not in set(await engine.scopes()):
        raise NotFoundError(f"no memories for app {scope.app_name!r}, user {scope.user_id!r}")


def _matches(record: MemoryRecord, wanted: MemoryFilter) -> bool:
    if wanted.status is not None and record.status is not wanted.status:
        return False
    if wanted.kind is not None and record.kind is not wanted.kind:
        return False
    if wanted.text:
        haystack = " ".join((record.text, record.subject, record.predicate, record.object))
        return all(word in haystack.lower() for word in wanted.text.lower().split())
    return True


async def list_memories(engine: MemoryEngine, scope: Scope, wanted: MemoryFilter) -> Listing:
    """The scope's records that match `wanted`, with the scope's counts.

    Raises:
        NotFoundError: if the scope holds no record.
    """
    await require_scope(engine, scope)
    records = await all_records(engine, scope)
    matched = [r for r in records if _matches(r, wanted)]
    return Listing(
        summary=ScopeSummary(scope=scope, counts=_counts(records)),
        records=matched[:MAX_LISTED],
        truncated=len(matched) > MAX_LISTED,
    )


async def get_memory(engine: MemoryEngine, memory_id: str, scope: Scope | None) -> MemoryRecord:
    """One record by id, from `scope` when given.

    Raises:
        NotFoundError: if there is no such record (in that scope).
    """
    if not memory_id or len(memory_id) > 256:
        raise NotFoundError(f"no memory with id {memory_id[:64]!r}")
    return await engine.get(memory_id, scope)


def _change(record: MemoryRecord, successor: MemoryRecord | None, *, revision: bool) -> str:
    if successor is None:
        return ""
    if revision:
        # A revision's times are the server's and its successor's the engine's clock, so
        # only the statement times tell a rollback from an update.
        if stated_at(record) > stated_at(successor):
            return (
                "rolled back: a restore made an earlier value of this memory current again; "
                "Memory Bank keeps this one as a revision (restorable)"
            )
        return (
            "updated in place by Memory Bank: a later statement replaced this value, which "
            "Memory Bank keeps as a revision (restorable)"
        )
    if record.created_at > successor.created_at:
        return (
            "stored as history: it was stated before the value already known, so it never "
            "became current (REPLACE of an older statement)"
        )
    return "superseded (REPLACE): a later statement about the same subject and attribute"


async def memory_history(engine: MemoryEngine, memory_id: str, scope: Scope | None) -> History:
    """The supersession chain through a memory and its consolidation links.

    Raises:
        NotFoundError: if there is no such memory (in `scope`, when given).
    """
    record = await get_memory(engine, memory_id, scope)
    chain = await engine.history(record.id)
    by_id = {r.id: r for r in chain}
    summaries: dict[str, MemoryRecord | None] = {}
    timeline: list[TimelineEntry] = []
    for item in chain:
        successor = by_id.get(item.superseded_by or "")
        if item.superseded_by and successor is None:
            successor = await engine.store.get(item.superseded_by, item.scope)
        summary = None
        if item.consolidated_into:
            if item.consolidated_into not in summaries:
                summaries[item.consolidated_into] = await engine.store.get(
                    item.consolidated_into, item.scope
                )
            summary = summaries[item.consolidated_into]
        revision = is_revision(engine, item.id)
        change = _change(item, successor, revision=revision)
        if not change and summary is not None and item.status is Status.ARCHIVED:
            change = "archived by consolidation into a summary"
        elif not change and item.status is Status.ARCHIVED:
            change = "archived by garbage collection (restorable)"
        timeline.append(
            TimelineEntry(
                record=item, change=change, successor=successor, summary=summary, revision=revision
            )
        )
    sources: list[MemoryRecord] = []
    missing: list[str] = []
    for source_id in summary_sources(record):
        source = await engine.store.get(source_id, record.scope)
        if source is None:
            missing.append(source_id)
        else:
            sources.append(source)
    return History(
        record=record,
        timeline=timeline,
        revision=is_revision(engine, record.id),
        sources=sources,
        missing_sources=missing,
        event_ids=await source_event_ids(engine, record),
    )


def injected_block(
    ranked: Sequence[ScoredMemory], *, top_k: int = PLUGIN_TOP_K, max_chars: int | None = None
) -> tuple[str | None, int]:
    """The memory block the plugin appends for a ranking, and how many memories it holds.

    It takes the same steps as `MemoryPlugin`: ADK memory entries, the best `top_k`, the
    character budget, the fenced block.
    """
    entries = fit_to_budget([to_memory_entry(m) for m in ranked][:top_k], max_chars)
    return format_memory_block(entries), len(entries)


async def playground(
    engine: MemoryEngine,
    scope: Scope,
    query: str,
    *,
    now: datetime | None = None,
    top_k: int = PLUGIN_TOP_K,
    max_chars: int | None = None,
) -> Playground:
    """Recall as the plugin runs it (the engine's top-k, then the plugin's cut and budget).

    `engine` should count no hits (see `quiet_engine`).

    Raises:
        NotFoundError: if the scope holds no record.
        InvalidInputError: on an empty, binary or over-long query or a bad bound.
    """
    if top_k < 1 or top_k > 100:
        raise InvalidInputError("top_k must be between 1 and 100")
    if max_chars is not None and max_chars < 1:
        raise InvalidInputError("max_chars must be at least 1")
    await require_scope(engine, scope)
    at = now or engine.clock()
    ranked = await engine.recall(scope, query, now=at)
    block, injected = injected_block(ranked, top_k=top_k, max_chars=max_chars)
    return Playground(
        query=query,
        now=at,
        ranked=ranked,
        block=block,
        injected=injected,
        top_k=top_k,
        max_chars=max_chars,
    )


async def dry_run(
    engine: MemoryEngine,
    scope: Scope,
    *,
    now: datetime | None = None,
    similarity: float | None = None,
) -> DryRun:
    """What GC and consolidation would archive and write in `scope`; changes nothing.

    Raises:
        NotFoundError: if the scope holds no record.
        InvalidInputError: on a similarity outside [-1, 1].
    """
    await require_scope(engine, scope)
    config = ConsolidationConfig()
    if similarity is not None:
        if not -1.0 <= similarity <= 1.0:
            raise InvalidInputError("similarity must be between -1 and 1")
        config = config.model_copy(update={"similarity": similarity})
    gc = await collect_garbage(engine, scope, now=now, dry_run=True)
    plan = await consolidate(engine, scope, config, now=now, dry_run=True)
    records = {r.id: r for r in await all_records(engine, scope)}
    return DryRun(gc=gc, consolidation=plan, records=records)
