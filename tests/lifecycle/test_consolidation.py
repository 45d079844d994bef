"""Consolidation: related facts become a summary that links its archived sources."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from adk_memory.engine import MemoryEngine
from adk_memory.factory import build_engine
from adk_memory.lifecycle import (
    ConsolidationConfig,
    LocalSummarizer,
    consolidate,
    restore,
    source_event_ids,
)
from adk_memory.lifecycle.consolidation import plan_clusters, summary_sources
from adk_memory.model import Decision, Kind, MemoryRecord, Status, Verdict
from adk_memory.reconcile.base import ClassificationResult, ReconcileItem
from adk_memory.stores.base import MemoryStore
from adk_memory.stores.sqlite.store import SqliteStore
from tests.helpers import FixedClock
from tests.lifecycle.support import SCOPE, CrashingStore, at, fact, snapshot, statuses

CONFIG = ConsolidationConfig(similarity=0.45, min_cluster_size=3)
NOW = at(60)

HIKING = [
    "I went hiking in the mountains last weekend",
    "I love hiking in the mountains",
    "We hiked up a mountain trail on Saturday",
    "Hiking in the mountains is my favourite weekend activity",
]
BREAD = [
    "I baked sourdough bread this morning",
    "My sourdough bread came out great",
    "I bake bread every Sunday",
]
OTHER = ["My cat is called Luna", "The quarterly report is due on Friday"]


async def seed(engine: MemoryEngine) -> dict[str, MemoryRecord]:
    texts = [*HIKING, *BREAD, *OTHER]
    records = {
        t: fact(t, days=i, confidence=0.6 + 0.05 * i, event=f"D1:{i}") for i, t in enumerate(texts)
    }
    await engine.store.upsert(list(records.values()))
    return records


async def summaries(engine: MemoryEngine) -> list[MemoryRecord]:
    page = await engine.store.list_page(SCOPE, limit=1000)
    return [r for r in page.records if r.kind is Kind.SUMMARY]


async def test_summary_links_and_archives_its_sources(engine: MemoryEngine) -> None:
    records = await seed(engine)

    report = await consolidate(engine, SCOPE, CONFIG, NOW)

    assert len(report.scopes[0].clusters) == 2
    hiking_ids = {records[t].id for t in HIKING}
    summary = next(s for s in await summaries(engine) if set(summary_sources(s)) == hiking_ids)
    sources = [records[t] for t in HIKING]
    assert summary.status is Status.ACTIVE
    assert summary.text.startswith("User: ")
    assert summary.confidence == round(sum(r.confidence for r in sources) / 4, 4)
    assert summary.valid_at == max(r.valid_at for r in sources)
    assert set(summary.source.event_ids) == {"D1:0", "D1:1", "D1:2", "D1:3"}
    for source in sources:
        stored = await engine.get(source.id)
        assert (stored.status, stored.consolidated_into) == (Status.ARCHIVED, summary.id)
    assert await statuses(engine, [records[t].id for t in OTHER]) == [Status.ACTIVE] * 2
    recalled = await engine.recall(SCOPE, "mountain hiking", now=NOW)
    assert recalled[0].record.id == summary.id
    assert not hiking_ids & {m.record.id for m in recalled}
    assert set(await source_event_ids(engine, summary)) == {"D1:0", "D1:1", "D1:2", "D1:3"}


async def test_dry_run_changes_nothing(engine: MemoryEngine) -> None:
    await seed(engine)
    before = await snapshot(engine)

    report = await consolidate(engine, SCOPE, CONFIG, NOW, dry_run=True)

    assert len(report.scopes[0].clusters) == 2
    assert await snapshot(engine) == before


async def test_second_run_changes_nothing(engine: MemoryEngine) -> None:
    await seed(engine)
    await consolidate(engine, SCOPE, CONFIG, NOW)
    before = await snapshot(engine)

    again = await consolidate(engine, None, CONFIG, NOW)

    assert again.summary_ids == [] and again.archived_count == 0
    assert await snapshot(engine) == before


async def test_never_merges_contradicting_facts(engine: MemoryEngine) -> None:
    homes = [
        fact(f"User lives in {city}.", days=i, kind=Kind.PROFILE, predicate="lives_in", obj=city)
        for i, city in enumerate(["Berlin", "Munich", "Hamburg"])
    ]
    await engine.store.upsert(homes)
    config = ConsolidationConfig(similarity=0.45, min_cluster_size=2, kinds=[Kind.PROFILE])

    report = await consolidate(engine, SCOPE, config, NOW)

    assert report.summary_ids == []
    assert await statuses(engine, [h.id for h in homes]) == [Status.ACTIVE] * 3


class NeverContradicts:
    """A configured classifier that finds no contradiction anywhere."""

    async def classify(self, items: Sequence[ReconcileItem]) -> ClassificationResult:
        return ClassificationResult(verdicts=[Verdict(decision=Decision.ADD) for _ in items])


async def test_the_configured_classifier_decides_what_contradicts(
    tmp_path: Path, clock: FixedClock
) -> None:
    """No local slot rule overrides the classifier: where it sees no contradiction, the
    three homes are one cluster."""
    store = await SqliteStore(tmp_path / "memory.db").open()
    engine = build_engine(store, classifier=NeverContradicts(), clock=clock)
    try:
        homes = [
            fact(f"User lives in {c}.", days=i, kind=Kind.PROFILE, predicate="lives_in", obj=c)
            for i, c in enumerate(["Berlin", "Munich", "Hamburg"])
        ]
        await engine.store.upsert(homes)
        config = ConsolidationConfig(similarity=0.45, min_cluster_size=2, kinds=[Kind.PROFILE])
        report = await consolidate(engine, SCOPE, config, NOW)
        assert len(report.summary_ids) == 1
    finally:
        await engine.close()


def test_clustering_splits_a_contradicting_pair() -> None:
    records = [fact(t) for t in ("a", "b", "c")]
    vectors = np.ones((3, 4), dtype=np.float32) / 2.0
    config = ConsolidationConfig(min_cluster_size=2, similarity=0.5)

    clusters = plan_clusters(records, vectors, config, lambda i, j: {i, j} == {0, 1})

    assert clusters == [[0, 2]]


async def test_crash_between_summary_and_archive_is_completed_by_a_rerun(
    tmp_path: Path, clock: FixedClock
) -> None:
    store = CrashingStore(await SqliteStore(tmp_path / "memory.db").open())
    assert isinstance(store, MemoryStore)
    engine = build_engine(store, clock=clock)
    try:
        records = await seed(engine)
        try:
            await consolidate(engine, SCOPE, CONFIG, NOW)
        except ConnectionError:
            pass
        else:
            raise AssertionError("the simulated crash did not happen")
        [written] = await summaries(engine)
        pending = summary_sources(written)
        # Consistent: the summary is there and nothing was lost or half-archived.
        assert await statuses(engine, pending) == [Status.ACTIVE] * len(pending)
        assert await store.inner.integrity_check() == "ok"

        report = await consolidate(engine, SCOPE, CONFIG, NOW)

        assert sorted(report.scopes[0].completed) == sorted(pending)
        for source_id in pending:
            stored = await engine.get(source_id)
            assert (stored.status, stored.consolidated_into) == (Status.ARCHIVED, written.id)
        assert len(await summaries(engine)) == 2
        merged = [records[t].id for t in [*HIKING, *BREAD]]
        assert await statuses(engine, merged) == [Status.ARCHIVED] * len(merged)
        before = await snapshot(engine)
        again = await consolidate(engine, SCOPE, CONFIG, NOW)
        assert again.archived_count == 0 and await snapshot(engine) == before
    finally:
        await engine.close()


async def test_restored_source_is_detached_and_stays_active(engine: MemoryEngine) -> None:
    records = await seed(engine)
    await consolidate(engine, SCOPE, CONFIG, NOW)
    source = records[HIKING[0]]

    assert await restore(engine, SCOPE, [source.id]) == [source.id]
    await consolidate(engine, SCOPE, CONFIG, NOW)

    stored = await engine.get(source.id)
    assert (stored.status, stored.consolidated_into) == (Status.ACTIVE, None)
    assert all(source.id not in summary_sources(s) for s in await summaries(engine))


async def test_restoring_every_source_undoes_the_consolidation(engine: MemoryEngine) -> None:
    await seed(engine)
    report = await consolidate(engine, SCOPE, CONFIG, NOW)
    cluster = report.scopes[0].clusters[0]

    assert sorted(await restore(engine, SCOPE, cluster.source_ids)) == sorted(cluster.source_ids)

    assert await statuses(engine, [cluster.summary_id]) == [Status.ARCHIVED]
    assert await statuses(engine, cluster.source_ids) == [Status.ACTIVE] * len(cluster.source_ids)
    recalled = await engine.recall(SCOPE, cluster.text, top_k=10, now=NOW)
    assert cluster.summary_id not in {m.record.id for m in recalled}


async def test_summaries_of_summaries(engine: MemoryEngine) -> None:
    texts = [f"I went hiking in the mountains with friend number {i}" for i in range(9)]
    await engine.store.upsert([fact(t, days=i, event=f"e{i}") for i, t in enumerate(texts)])
    config = ConsolidationConfig(similarity=0.45, min_cluster_size=3, max_cluster_size=3)

    report = await consolidate(engine, SCOPE, config, NOW)

    levels = sorted(c.level for c in report.scopes[0].clusters)
    assert levels == [1, 1, 1, 2]
    [top] = [s for s in await summaries(engine) if s.status is Status.ACTIVE]
    assert len(await source_event_ids(engine, top)) == 9


async def test_every_summary_carries_each_of_its_sources(engine: MemoryEngine) -> None:
    texts = [f"I went hiking in the mountains with my friend number {i} today" for i in range(9)]
    await engine.store.upsert([fact(t, days=i, event=f"e{i}") for i, t in enumerate(texts)])
    config = ConsolidationConfig(similarity=0.45, min_cluster_size=2, max_cluster_size=9)

    report = await consolidate(engine, SCOPE, config, NOW, summarizer=LocalSummarizer(160))

    clusters = report.scopes[0].clusters
    assert clusters and all(len(c.source_ids) < 9 for c in clusters)
    for summary in await summaries(engine):
        assert len(summary.text) <= 160
        for source_id in summary_sources(summary):
            source = await engine.store.get(source_id, SCOPE)
            assert source is not None
            said = source.text
            if source.kind is Kind.SUMMARY:
                said = said.partition(": ")[2].rstrip(".")  # its statements, without the label
            assert said in summary.text


async def test_sentences_repeated_across_a_cluster_appear_once() -> None:
    records = [
        fact("Caroline: Thanks, Mel! I painted a lake at sunrise.", subject="caroline"),
        fact("Caroline: Thanks, Mel! The kids loved the pottery class.", subject="caroline"),
    ]
    text = await LocalSummarizer().summarize("caroline", records)

    assert text == (
        "Caroline: Thanks, Mel! I painted a lake at sunrise; The kids loved the pottery class."
    )


async def test_local_summarizer_is_bounded_and_readable() -> None:
    records = [fact(t) for t in HIKING] + [
        fact("User lives in Berlin.", kind=Kind.PROFILE, predicate="lives_in", obj="Berlin")
    ]
    text = await LocalSummarizer(max_chars=120).summarize("user", records)

    assert text.startswith("User: I went hiking in the mountains last weekend; ")
    assert len(text) <= 120
    long = await LocalSummarizer(max_chars=60).summarize("caroline", [fact("x" * 500)])
    assert long.startswith("Caroline: xxx") and len(long) <= 60
