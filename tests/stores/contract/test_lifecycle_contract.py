"""GC, consolidation and restore through the `MemoryStore` protocol alone, on every backend
of the contract suite (sqlite, and Memory Bank / Vector Search through the emulator)."""

from __future__ import annotations

from adk_memory.factory import build_engine
from adk_memory.lifecycle import (
    ConsolidationConfig,
    GcConfig,
    collect_garbage,
    consolidate,
    restore,
    source_event_ids,
)
from adk_memory.model import Kind, Status
from adk_memory.retrieval.scoring import ScoringConfig
from adk_memory.stores.base import MemoryStore
from tests.helpers import FixedClock
from tests.lifecycle.support import SCOPE, at, fact

HIKING = [
    "I went hiking in the mountains last weekend",
    "I love hiking in the mountains",
    "We hiked up a mountain trail on Saturday",
]


async def test_consolidate_then_restore(store: MemoryStore) -> None:
    engine = build_engine(store, clock=FixedClock(at(60)))
    sources = [fact(t, days=i, event=f"D1:{i}") for i, t in enumerate(HIKING)]
    other = fact("The quarterly report is due on Friday", days=5, event="D1:9")
    await store.upsert([*sources, other])
    config = ConsolidationConfig(similarity=0.45, min_cluster_size=3)

    report = await consolidate(engine, SCOPE, config, at(60))

    [summary_id] = report.summary_ids
    summary = await store.get(summary_id, SCOPE)
    assert summary is not None and summary.kind is Kind.SUMMARY
    assert all(s.text in summary.text for s in sources)
    for source in sources:
        archived = await store.get(source.id, SCOPE)
        assert archived is not None
        assert (archived.status, archived.consolidated_into) == (Status.ARCHIVED, summary_id)
    assert sorted(await source_event_ids(engine, summary)) == ["D1:0", "D1:1", "D1:2"]
    recalled = await engine.recall(SCOPE, "hiking in the mountains", top_k=2, now=at(60))
    assert recalled[0].record.id == summary_id
    assert {m.record.status for m in recalled} == {Status.ACTIVE}
    assert (await consolidate(engine, SCOPE, config, at(60))).summary_ids == []

    assert await restore(engine, SCOPE, [sources[0].id]) == [sources[0].id]
    back = await store.get(sources[0].id, SCOPE)
    assert back is not None and back.status is Status.ACTIVE


async def test_gc_archives_faded_facts_and_restore_undoes_it(store: MemoryStore) -> None:
    engine = build_engine(store, clock=FixedClock(at(400)))
    weather = [
        fact(f"In session {i} we talked about the weather.", days=10 * i, session=f"s{i}")
        for i in range(4)
    ]
    faded = fact("I tried a pottery class once.", days=1, session="s0")
    await store.upsert([*weather, faded])
    config = GcConfig(s_min=0.3, sessions_without_hit=2, scoring=ScoringConfig(half_life_days=90.0))

    dry = await collect_garbage(engine, SCOPE, config, at(400), dry_run=True)
    stored = await store.get(faded.id, SCOPE)
    assert stored is not None and stored.status is Status.ACTIVE
    report = await collect_garbage(engine, SCOPE, config, at(400))

    assert faded.id in report.archived_ids == dry.archived_ids
    stored = await store.get(faded.id, SCOPE)
    assert stored is not None and stored.status is Status.ARCHIVED
    assert faded.id not in {m.record.id for m in await engine.recall(SCOPE, "pottery class")}
    assert await restore(engine, SCOPE, [faded.id]) == [faded.id]
    assert (await engine.recall(SCOPE, "pottery class", top_k=1))[0].record.id == faded.id
