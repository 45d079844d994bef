"""Garbage collection: archive facts that have faded and are never recalled.

A fact is archived when both hold:
- its decayed score, `confidence · exp(−λ·age)` at `now` with the per-kind half-lives of the
  scoring config, is below `s_min`;
- it had no recall hit in the last N sessions of its scope, and it is not itself from one of
  them (a fact needs N sessions of opportunity before "never recalled" means anything).

Sessions are the distinct `source.session_id` values of the scope's records; a session starts
at the earliest `created_at` of its records (the engine clock, like `last_accessed_at`).
Superseded facts are archived once their successor has been true for the retention period.

Archiving is a status change, never a deletion: `lifecycle.restore` brings a fact back, and archived
facts are never returned by search. Candidates are chosen without the scope lock and checked
again under it, so a job can run while the agent serves traffic.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from pydantic import BaseModel, Field

from adk_memory.engine import MemoryEngine
from adk_memory.lifecycle.paging import list_all, target_scopes
from adk_memory.model import MemoryRecord, Scope, Status, as_utc
from adk_memory.retrieval.scoring import ScoringConfig, age_days, decay_factor


class GcConfig(BaseModel):
    """When a fact counts as garbage."""

    #: Facts whose decayed score (confidence × decay) is below this are candidates.
    s_min: float = Field(default=0.25, ge=0.0, le=1.0)
    #: Recent sessions a candidate must have gone without a recall hit.
    sessions_without_hit: int = Field(default=5, ge=1)
    #: Days a superseded fact is kept visible to history before it is archived; None = never.
    superseded_retention_days: float | None = Field(default=90.0, ge=0.0)
    #: Half-lives for the decay; None uses the engine's scoring config.
    scoring: ScoringConfig | None = None


class ScopeGcReport(BaseModel):
    """What garbage collection found in one scope."""

    app_name: str
    user_id: str
    examined: int = 0
    sessions: int = 0
    #: Active facts archived for a low decayed score and no recent hit.
    faded: list[str] = Field(default_factory=list)
    #: Superseded facts archived after the retention period.
    expired: list[str] = Field(default_factory=list)

    @property
    def archived(self) -> list[str]:
        return [*self.faded, *self.expired]


class GcReport(BaseModel):
    """The outcome of one garbage collection run (or what it would do, on a dry run)."""

    dry_run: bool
    now: datetime
    scopes: list[ScopeGcReport] = Field(default_factory=list)

    @property
    def archived_ids(self) -> list[str]:
        return [i for s in self.scopes for i in s.archived]

    @property
    def archived_count(self) -> int:
        return sum(len(s.archived) for s in self.scopes)


def decayed_score(record: MemoryRecord, now: datetime, scoring: ScoringConfig) -> float:
    """confidence × decay at `now`, with the record kind's half-life."""
    half_life = scoring.kind_half_life_days.get(record.kind, scoring.half_life_days)
    return record.confidence * decay_factor(age_days(record.valid_at, now), half_life)


def recent_sessions(records: Sequence[MemoryRecord], n: int) -> tuple[set[str], datetime | None]:
    """The ids of the scope's N most recent sessions and the start of the oldest of them.

    The start is None when the scope has had fewer than N sessions: no fact has yet had N
    sessions in which to be recalled.
    """
    starts: dict[str, datetime] = {}
    for record in records:
        session = record.source.session_id
        if session is not None and (session not in starts or record.created_at < starts[session]):
            starts[session] = record.created_at
    ordered = sorted(starts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    if len(ordered) < n:
        return {s for s, _ in ordered}, None
    return {s for s, _ in ordered[:n]}, ordered[n - 1][1]


def is_faded(
    record: MemoryRecord,
    *,
    now: datetime,
    config: GcConfig,
    scoring: ScoringConfig,
    recent: set[str],
    cutoff: datetime | None,
) -> bool:
    """Whether an active fact is garbage (see the module docstring)."""
    if record.status is not Status.ACTIVE or cutoff is None:
        return False
    if decayed_score(record, now, scoring) >= config.s_min:
        return False
    if record.source.session_id in recent or record.created_at >= cutoff:
        return False
    return record.last_accessed_at is None or record.last_accessed_at < cutoff


def is_expired(
    record: MemoryRecord, *, now: datetime, config: GcConfig, by_id: dict[str, MemoryRecord]
) -> bool:
    """Whether a superseded fact is past its retention period, counted from the moment its
    successor became true (its own creation time when the successor is gone)."""
    if record.status is not Status.SUPERSEDED or config.superseded_retention_days is None:
        return False
    successor = by_id.get(record.superseded_by or "")
    since = successor.valid_at if successor is not None else record.created_at
    return now - since >= timedelta(days=config.superseded_retention_days)


async def _collect_scope(
    engine: MemoryEngine, scope: Scope, config: GcConfig, now: datetime, dry_run: bool
) -> ScopeGcReport:
    scoring = config.scoring or engine.config.scoring
    records = await list_all(engine, scope)
    by_id = {r.id: r for r in records}
    recent, cutoff = recent_sessions(records, config.sessions_without_hit)
    report = ScopeGcReport(
        app_name=scope.app_name,
        user_id=scope.user_id,
        examined=len(records),
        sessions=len({r.source.session_id for r in records if r.source.session_id}),
    )

    def faded(r: MemoryRecord) -> bool:
        return is_faded(r, now=now, config=config, scoring=scoring, recent=recent, cutoff=cutoff)

    def expired(r: MemoryRecord) -> bool:
        return is_expired(r, now=now, config=config, by_id=by_id)

    candidates = [r for r in records if faded(r) or expired(r)]
    if not candidates:
        return report
    async with engine.scope_lock(scope):
        # A recall may have hit a candidate, or an ingest superseded it, since the listing.
        fresh = [await engine.store.get(r.id, scope) for r in candidates]
        report.faded = [r.id for r in fresh if r is not None and faded(r)]
        report.expired = [r.id for r in fresh if r is not None and expired(r)]
        if not dry_run and report.archived:
            changed: set[str] = set(
                await engine.store.set_status(scope, report.archived, Status.ARCHIVED)
            )
            report.faded = [i for i in report.faded if i in changed]
            report.expired = [i for i in report.expired if i in changed]
    return report


async def collect_garbage(
    engine: MemoryEngine,
    scope: Scope | None = None,
    config: GcConfig | None = None,
    now: datetime | None = None,
    dry_run: bool = False,
) -> GcReport:
    """Archives faded, never-recalled facts and expired superseded facts.

    Idempotent: a second run at the same `now` archives nothing more.

    Args:
        engine: The engine whose store is collected.
        scope: One scope, or None for every scope of the store.
        config: Thresholds (default `GcConfig()`).
        now: The time decay is measured at (default: the engine clock).
        dry_run: Report what would be archived and change nothing.

    Returns:
        Per-scope counts and the ids archived (or that would be, on a dry run).
    """
    config = config or GcConfig()
    at = as_utc(now) if now is not None else engine.clock()
    report = GcReport(dry_run=dry_run, now=at)
    for target in await target_scopes(engine, scope):
        report.scopes.append(await _collect_scope(engine, target, config, at, dry_run))
    return report
