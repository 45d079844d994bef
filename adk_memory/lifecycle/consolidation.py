"""Consolidation: clusters of related facts become one summary that links its sources.

Per scope, active facts of the configured kinds are re-embedded with the engine's embedder
(stores do not return vectors) and grouped greedily: seeds in order of how many neighbours
they have (cosine ≥ `similarity`), members added most similar first while they stay within
`similarity` of every member (complete linkage), share the subject, contradict no member
(the engine's configured classifier says neither supersedes the other), and their
statements together still fit in one summary of the summariser's `max_chars`: a source is
archived only into a summary that can carry what it said, so nothing a fact said is lost to
a length cut. Clusters of at
least `min_cluster_size` are summarised by a `Summarizer`; the summary is a `kind=summary`
record whose confidence is the sources' mean, whose `valid_at` is the newest source's, and
whose events are the union (bounded) of theirs. Its `predicate` is `consolidates` and its
`object` lists the source ids.

Hierarchy: facts are clustered until no new cluster forms, then summaries are clustered among
themselves the same way (a summary of summaries), so one run reaches a fixed point and a
second run changes nothing.

Crash safety, by write order: the summary is written first (active), then its sources are
archived with `consolidated_into` set, in one `set_status` call. A crash between the two leaves
the sources active beside their summary: duplicated, never lost. The next run first completes
such interrupted clusters from the summary's source list, then consolidates afresh, leaving
those sources out. Summary ids are derived from the source ids, so re-planning the same
cluster rewrites the same record instead of adding another.

Clusters are planned without the scope lock (embedding and summarising may be slow); each is
written under it after checking its sources are still active and unchanged, so a run is safe
while the agent serves traffic.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

import numpy as np
from pydantic import BaseModel, Field

from adk_memory.engine import MemoryEngine
from adk_memory.lifecycle.paging import list_all, target_scopes
from adk_memory.lifecycle.summarizer import LocalSummarizer, Summarizer, full_summary_length
from adk_memory.model import Decision, Fact, Kind, MemoryRecord, Scope, Source, Status, as_utc
from adk_memory.reconcile.base import Candidate, ReconcileItem, sanitize_verdict

#: The predicate of a summary record; its object lists the source ids.
SUMMARY_PREDICATE = "consolidates"
#: Source event ids kept on a summary (its sources keep theirs).
MAX_SUMMARY_EVENTS = 32
#: Summary levels one run builds at most (facts → summaries → summaries of summaries …).
MAX_LEVELS = 4


class ConsolidationConfig(BaseModel):
    """Which facts are merged and how."""

    #: Smallest cluster that is summarised.
    min_cluster_size: int = Field(default=3, ge=2)
    #: Largest cluster: bounds what one summary stands for.
    max_cluster_size: int = Field(default=8, ge=2, le=64)
    #: Cosine every two members of a cluster reach at least (MiniLM scale; 0.55 halves the
    #: LoCoMo store in `bench.bench_lifecycle` with no fact's statement lost).
    similarity: float = Field(default=0.55, ge=-1.0, le=1.0)
    #: Kinds that are consolidated. Slot facts (profile, preference) are left out by default:
    #: a later update must find them individually to supersede them.
    kinds: list[Kind] = Field(default_factory=lambda: [Kind.EPISODIC, Kind.SUMMARY])
    #: Facts younger than this (by `valid_at`) are left alone.
    min_age_days: float = Field(default=0.0, ge=0.0)


class ClusterReport(BaseModel):
    """One summary written (or planned)."""

    summary_id: str
    source_ids: list[str]
    text: str
    level: int


class ScopeConsolidationReport(BaseModel):
    """What consolidation did in one scope."""

    app_name: str
    user_id: str
    examined: int = 0
    clusters: list[ClusterReport] = Field(default_factory=list)
    #: Sources archived to complete a run that was interrupted after writing their summary.
    completed: list[str] = Field(default_factory=list)
    #: Planned clusters dropped because a source changed while the run was planning.
    skipped: int = 0

    @property
    def archived(self) -> list[str]:
        return [*self.completed, *(i for c in self.clusters for i in c.source_ids)]


class ConsolidationReport(BaseModel):
    """The outcome of one consolidation run (or what it would do, on a dry run)."""

    dry_run: bool
    now: datetime
    scopes: list[ScopeConsolidationReport] = Field(default_factory=list)

    @property
    def summary_ids(self) -> list[str]:
        return [c.summary_id for s in self.scopes for c in s.clusters]

    @property
    def archived_count(self) -> int:
        return sum(len(s.archived) for s in self.scopes)


def summary_sources(record: MemoryRecord) -> list[str]:
    """The source ids a summary record lists (empty for any other record)."""
    if record.kind is not Kind.SUMMARY or record.predicate != SUMMARY_PREDICATE:
        return []
    return record.object.split()


def summary_id_for(source_ids: Sequence[str]) -> str:
    """A summary's id, derived from its sources so re-planning is idempotent."""
    return hashlib.sha256(" ".join(sorted(source_ids)).encode()).hexdigest()[:32]


def _as_fact(record: MemoryRecord) -> Fact:
    return Fact(
        subject=record.subject,
        predicate=record.predicate,
        object=record.object,
        text=record.text,
        confidence=record.confidence,
        valid_at=record.valid_at,
        kind=record.kind,
        polarity=record.polarity,
        author=record.author,
        source=record.source,
    )


def plan_clusters(
    records: Sequence[MemoryRecord],
    vectors: np.ndarray,
    config: ConsolidationConfig,
    conflicts: Callable[[int, int], bool],
    fits: Callable[[Sequence[int]], bool] = lambda members: True,
) -> list[list[int]]:
    """Deterministic greedy complete-linkage clusters (indexes into `records`), each ordered
    most central first. A member joins only while `fits(members)` holds (its summary can
    still carry every member). Pure: the same input always gives the same clusters."""
    n = len(records)
    if n < config.min_cluster_size:
        return []
    sims = vectors @ vectors.T
    subjects = np.array([r.subject for r in records], dtype=object)
    linked = (sims >= config.similarity) & (subjects[:, None] == subjects[None, :])
    np.fill_diagonal(linked, False)
    degree = linked.sum(axis=1)
    taken = np.zeros(n, dtype=bool)
    clusters: list[list[int]] = []
    for seed in sorted(range(n), key=lambda i: (-int(degree[i]), i)):
        if taken[seed] or degree[seed] < config.min_cluster_size - 1 or not fits([seed]):
            continue
        members = [seed]
        neighbours = [int(j) for j in np.flatnonzero(linked[seed] & ~taken)]
        for j in sorted(neighbours, key=lambda j: (-float(sims[seed, j]), j)):
            if len(members) >= config.max_cluster_size:
                break
            if (
                all(linked[j, m] for m in members)
                and not any(conflicts(j, m) for m in members)
                and fits([*members, j])
            ):
                members.append(j)
        if len(members) < config.min_cluster_size:
            continue
        taken[members] = True
        centrality = {m: float(np.mean([sims[m, o] for o in members if o != m])) for m in members}
        clusters.append(sorted(members, key=lambda m: (-centrality[m], m)))
    return clusters


def build_summary(
    scope: Scope,
    members: Sequence[MemoryRecord],
    text: str,
    vector: np.ndarray,
    now: datetime,
) -> MemoryRecord:
    """The summary record for a cluster (see the module docstring for its fields)."""
    ids = sorted(m.id for m in members)
    newest = max(members, key=lambda m: (m.valid_at, m.created_at, m.id))
    chronological = sorted(members, key=lambda m: (m.valid_at, m.id))
    events = list(dict.fromkeys(e for m in chronological for e in m.source.event_ids))
    authors = {m.author for m in members}
    return MemoryRecord(
        id=summary_id_for(ids),
        scope=scope,
        text=text,
        subject=members[0].subject,
        predicate=SUMMARY_PREDICATE,
        object=" ".join(ids),
        confidence=round(sum(m.confidence for m in members) / len(members), 4),
        kind=Kind.SUMMARY,
        author=authors.pop() if len(authors) == 1 else None,
        valid_at=newest.valid_at,
        created_at=now,
        source=Source(session_id=newest.source.session_id, event_ids=events[:MAX_SUMMARY_EVENTS]),
        embedding=[float(x) for x in vector],
    )


class _ScopeRun:
    """One scope's consolidation: completes interrupted clusters, then builds new ones."""

    def __init__(
        self,
        engine: MemoryEngine,
        scope: Scope,
        config: ConsolidationConfig,
        now: datetime,
        dry_run: bool,
        summarizer: Summarizer,
    ) -> None:
        self.engine = engine
        self.scope = scope
        self.config = config
        self.now = now
        self.dry_run = dry_run
        self.summarizer = summarizer
        self.report = ScopeConsolidationReport(app_name=scope.app_name, user_id=scope.user_id)
        #: The facts (not summaries) under each record.
        self.leaves: dict[str, list[MemoryRecord]] = {}
        #: Leaf ids already shown to the classifier, and the pairs it found in conflict.
        self.classified: set[str] = set()
        self.conflicting: set[frozenset[str]] = set()
        #: Embeddings by record id: each text is embedded once per run, however many passes.
        self.vectors: dict[str, np.ndarray] = {}

    async def run(self) -> ScopeConsolidationReport:
        active = await list_all(self.engine, self.scope, [Status.ACTIVE])
        self.report.examined = len(active)
        pending = await self._complete_interrupted(active)
        oldest = self.now - timedelta(days=self.config.min_age_days)
        pool = [
            r
            for r in active
            if r.kind in self.config.kinds
            and r.id not in pending
            and r.consolidated_into is None
            and r.valid_at <= oldest
        ]
        facts = [r for r in pool if r.kind is not Kind.SUMMARY]
        summaries = [r for r in pool if r.kind is Kind.SUMMARY]
        _, produced = await self._converge(facts, level=1)
        summaries += produced
        if Kind.SUMMARY in self.config.kinds:
            for level in range(2, MAX_LEVELS + 1):
                left, produced = await self._converge(summaries, level=level)
                if not produced:
                    break
                summaries = left + produced
        return self.report

    async def _complete_interrupted(self, active: Sequence[MemoryRecord]) -> set[str]:
        """Archives the still-active sources of existing summaries. Returns their ids."""
        by_id = {r.id: r for r in active}
        pending: set[str] = set()
        for summary in sorted(active, key=lambda r: (r.created_at, r.id)):
            ids = [
                i
                for i in summary_sources(summary)
                if i in by_id and i not in pending and by_id[i].consolidated_into is None
            ]
            if not ids:
                continue
            pending.update(ids)
            if self.dry_run:
                self.report.completed += ids
                continue
            async with self.engine.scope_lock(self.scope):
                self.report.completed += await self.engine.store.set_status(
                    self.scope, ids, Status.ARCHIVED, consolidated_into=summary.id
                )
        return pending

    async def _converge(
        self, pool: list[MemoryRecord], *, level: int
    ) -> tuple[list[MemoryRecord], list[MemoryRecord]]:
        """Clusters `pool` until no cluster forms. Returns what is left unmerged and the new
        summaries (together, the next level's input)."""
        produced: list[MemoryRecord] = []
        while len(pool) >= self.config.min_cluster_size:
            vectors = await self._vectors(pool)
            leaves = [await self._leaves(r) for r in pool]
            await self._classify([leaf for group in leaves for leaf in group])

            def conflicts(i: int, j: int, leaves: list[list[MemoryRecord]] = leaves) -> bool:
                return any(
                    frozenset((a.id, b.id)) in self.conflicting
                    for a in leaves[i]
                    for b in leaves[j]
                )

            clusters = plan_clusters(pool, vectors, self.config, conflicts, self._fits(pool))
            if not clusters:
                break
            merged: set[str] = set()
            for cluster in clusters:
                members = [pool[i] for i in cluster]
                summary = await self._write(members, level)
                merged.update(m.id for m in members)
                if summary is not None:
                    produced.append(summary)
            pool = [r for r in pool if r.id not in merged]
        return pool, produced

    def _fits(self, pool: Sequence[MemoryRecord]) -> Callable[[Sequence[int]], bool]:
        """Whether one summary within the summariser's bound can carry all these members."""

        def fits(members: Sequence[int]) -> bool:
            records = [pool[i] for i in members]
            return full_summary_length(records[0].subject, records) <= self.summarizer.max_chars

        return fits

    async def _vectors(self, records: Sequence[MemoryRecord]) -> np.ndarray:
        missing = [r for r in records if r.id not in self.vectors]
        if missing:
            embedded = await self.engine.embedder.embed([r.text for r in missing])
            self.vectors.update((r.id, v) for r, v in zip(missing, embedded, strict=True))
        return np.stack([self.vectors[r.id] for r in records])

    async def _classify(self, leaves: Sequence[MemoryRecord]) -> None:
        """Asks the engine's classifier which facts contradict each other (they must never
        share a summary). Each fact is shown once per run, against the facts of its subject
        it could be clustered with (the most similar) and those of the same slot, as the
        engine shows candidates at ingest."""
        known = list({leaf.id: leaf for leaf in [*self._all_leaves(), *leaves]}.values())
        new = [leaf for leaf in known if leaf.id not in self.classified]
        if not new:
            return
        vectors = await self._vectors(known)
        sims = vectors @ vectors.T
        index = {leaf.id: i for i, leaf in enumerate(known)}
        items: list[ReconcileItem] = []
        owners: list[str] = []
        for leaf in new:
            i = index[leaf.id]
            peers = [
                int(j)
                for j in np.argsort(-sims[i], kind="stable")
                if j != i and known[j].subject == leaf.subject
            ]
            chosen = peers[: self.engine.config.reconcile_candidates]
            chosen += [
                j
                for j in peers
                if leaf.predicate
                and (known[j].predicate, known[j].kind) == (leaf.predicate, leaf.kind)
                and j not in chosen
            ]
            if chosen:
                candidates = [
                    Candidate(record=known[j], similarity=float(sims[i, j])) for j in chosen
                ]
                items.append(ReconcileItem(fact=_as_fact(leaf), candidates=candidates))
                owners.append(leaf.id)
        self.classified.update(leaf.id for leaf in new)
        if not items:
            return
        result = await self.engine.classifier.classify(items)
        for owner, item, verdict in zip(owners, items, result.verdicts, strict=False):
            checked = sanitize_verdict(verdict, item)
            if checked.decision is Decision.REPLACE:
                self.conflicting.update(frozenset((owner, t)) for t in checked.target_ids)

    def _all_leaves(self) -> list[MemoryRecord]:
        return [leaf for group in self.leaves.values() for leaf in group]

    async def _leaves(self, record: MemoryRecord) -> list[MemoryRecord]:
        if record.id in self.leaves:
            return self.leaves[record.id]
        if record.kind is not Kind.SUMMARY:
            found = [record]
        else:
            found = []
            for source_id in summary_sources(record):
                source = await self.engine.store.get(source_id, self.scope)
                if source is not None:
                    found += await self._leaves(source)
        self.leaves[record.id] = found
        return found

    async def _write(self, members: list[MemoryRecord], level: int) -> MemoryRecord | None:
        text = await self.summarizer.summarize(members[0].subject, members)
        vector = (await self.engine.embedder.embed([text]))[0]
        summary = build_summary(self.scope, members, text, vector, self.now)
        self.vectors[summary.id] = vector
        self.leaves[summary.id] = [leaf for m in members for leaf in self.leaves.get(m.id, [])]
        if not self.dry_run:
            async with self.engine.scope_lock(self.scope):
                current = [await self.engine.store.get(m.id, self.scope) for m in members]
                if any(
                    c is None
                    or c.status is not Status.ACTIVE
                    or c.consolidated_into is not None
                    or c.text != m.text
                    for c, m in zip(current, members, strict=True)
                ):
                    self.report.skipped += 1
                    return None
                await self.engine.store.upsert([summary])
                await self.engine.store.set_status(
                    self.scope,
                    [m.id for m in members],
                    Status.ARCHIVED,
                    consolidated_into=summary.id,
                )
        self.report.clusters.append(
            ClusterReport(
                summary_id=summary.id, source_ids=summary_sources(summary), text=text, level=level
            )
        )
        return summary


async def consolidate(
    engine: MemoryEngine,
    scope: Scope | None = None,
    config: ConsolidationConfig | None = None,
    now: datetime | None = None,
    dry_run: bool = False,
    *,
    summarizer: Summarizer | None = None,
) -> ConsolidationReport:
    """Summarises clusters of related facts and archives the sources into their summary.

    Idempotent: a second run finds nothing to merge, and completes a run that crashed after
    writing a summary.

    Args:
        engine: The engine whose store (and embedder) is used.
        scope: One scope, or None for every scope of the store.
        config: Clustering settings (default `ConsolidationConfig()`).
        now: The summaries' creation time and the reference for `min_age_days` (default:
            the engine clock).
        dry_run: Plan and report the summaries, change nothing.
        summarizer: Writes the summaries (default: `LocalSummarizer()`).

    Returns:
        Per-scope summaries written (with their sources) and interrupted runs completed.
    """
    config = config or ConsolidationConfig()
    at = as_utc(now) if now is not None else engine.clock()
    writer = summarizer or LocalSummarizer()
    report = ConsolidationReport(dry_run=dry_run, now=at)
    for target in await target_scopes(engine, scope):
        run = _ScopeRun(engine, target, config, at, dry_run, writer)
        report.scopes.append(await run.run())
    return report


async def source_event_ids(engine: MemoryEngine, record: MemoryRecord) -> list[str]:
    """The event ids behind a record: its own, and for a summary those of every source it
    consolidates, recursively (the sources keep their full lists; the summary a bounded one)."""
    events = list(record.source.event_ids)
    seen = {record.id}
    frontier = summary_sources(record)
    while frontier:
        source_id = frontier.pop(0)
        if source_id in seen:
            continue
        seen.add(source_id)
        source = await engine.store.get(source_id, record.scope)
        if source is not None:
            events += source.source.event_ids
            frontier += summary_sources(source)
    return list(dict.fromkeys(events))


async def detach_sources(
    engine: MemoryEngine, scope: Scope, restored: Sequence[MemoryRecord]
) -> None:
    """Removes restored records from the source lists of the summaries they were merged into,
    so a later run does not archive them again as an interrupted cluster. A summary left with
    no source is archived: restoring all of a cluster undoes its consolidation."""
    by_summary: dict[str, set[str]] = {}
    for record in restored:
        if record.consolidated_into:
            by_summary.setdefault(record.consolidated_into, set()).add(record.id)
    for summary_id, ids in sorted(by_summary.items()):
        summary = await engine.store.get(summary_id, scope)
        if summary is None or not summary_sources(summary):
            continue
        kept = [i for i in summary_sources(summary) if i not in ids]
        await engine.store.upsert(
            [summary.model_copy(update={"object": " ".join(kept), "embedding": None})]
        )
        if not kept and summary.status is Status.ACTIVE:
            # Every source is back on its own: the summary would only repeat them.
            await engine.store.set_status(scope, [summary_id], Status.ARCHIVED)
