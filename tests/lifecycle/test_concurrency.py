"""Lifecycle jobs run while the agent serves traffic: recall never sees an archived fact."""

from __future__ import annotations

import asyncio

from adk_memory.engine import MemoryEngine
from adk_memory.lifecycle import ConsolidationConfig, GcConfig, collect_garbage, consolidate
from adk_memory.model import ScoredMemory, Status
from adk_memory.retrieval.scoring import ScoringConfig
from tests.lifecycle.support import SCOPE, at, fact

TOPICS = ["hiking trip", "pottery class", "jazz concert", "sourdough bread", "chess club"]
NOW = at(400)


async def seed(engine: MemoryEngine) -> None:
    records = [
        fact(f"I talked about the {topic}, part {i}.", days=i, session=f"s{i}", event=f"e{i}-{t}")
        for i in range(8)
        for t, topic in enumerate(TOPICS)
    ]
    await engine.store.upsert(records)


async def recall_loop(engine: MemoryEngine, stop: asyncio.Event) -> list[list[ScoredMemory]]:
    results: list[list[ScoredMemory]] = []
    while not stop.is_set():
        for topic in TOPICS:
            results.append(await engine.recall(SCOPE, topic, now=NOW))
        await asyncio.sleep(0)
    return results


async def test_recall_during_gc_and_consolidation_is_consistent(engine: MemoryEngine) -> None:
    await seed(engine)
    stop = asyncio.Event()
    readers = [asyncio.create_task(recall_loop(engine, stop)) for _ in range(4)]
    gc = await collect_garbage(
        engine,
        SCOPE,
        GcConfig(s_min=0.5, sessions_without_hit=2, scoring=ScoringConfig(half_life_days=90)),
        NOW,
    )
    merged = await consolidate(engine, SCOPE, ConsolidationConfig(similarity=0.5), NOW)
    stop.set()
    during = [ranked for task in readers for ranked in await task]
    after = [await engine.recall(SCOPE, topic, now=NOW) for topic in TOPICS]

    assert gc.archived_count > 0
    assert during
    for ranked in during + after:
        assert all(m.record.status is Status.ACTIVE for m in ranked)
    gone = set(gc.archived_ids) | {
        i for s in merged.scopes for c in s.clusters for i in c.source_ids
    }
    assert not gone & {m.record.id for ranked in after for m in ranked}
    for record_id in gone:
        assert (await engine.get(record_id)).status is Status.ARCHIVED
