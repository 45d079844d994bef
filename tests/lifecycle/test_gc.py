"""Garbage collection: faded, never-recalled facts and expired superseded facts are archived."""

from __future__ import annotations

from adk_memory.engine import MemoryEngine
from adk_memory.lifecycle import GcConfig, collect_garbage, restore
from adk_memory.model import Kind, MemoryRecord, Status
from adk_memory.retrieval.scoring import ScoringConfig
from tests.lifecycle.support import SCOPE, at, fact, snapshot, statuses

#: Episodic facts halve every 90 days; profile facts never decay.
SCORING = ScoringConfig(half_life_days=90.0)
CONFIG = GcConfig(s_min=0.3, sessions_without_hit=3, scoring=SCORING)
NOW = at(400)


def sessions() -> list[MemoryRecord]:
    """Six sessions, ten days apart; the 3rd most recent (s4) starts on day 30."""
    return [
        fact(f"In session {i} we talked about the weather.", days=10 * i, session=f"s{i}")
        for i in range(6)
    ]


async def seed(engine: MemoryEngine) -> dict[str, MemoryRecord]:
    records = {
        "faded": fact("I tried a pottery class once.", days=1, session="s0"),
        "hit": fact("I went to a jazz concert downtown.", days=2, session="s0", hit_days=45),
        "old_hit": fact("I read a novel about sailing.", days=3, session="s1", hit_days=15),
        "profile": fact(
            "User lives in Berlin.",
            days=1,
            session="s0",
            kind=Kind.PROFILE,
            predicate="lives_in",
            obj="Berlin",
        ),
        "recent": fact("I bought a new umbrella.", days=50, session="s5", confidence=0.1),
    }
    await engine.store.upsert([*sessions(), *records.values()])
    return records


async def test_dry_run_changes_nothing(engine: MemoryEngine) -> None:
    records = await seed(engine)
    before = await snapshot(engine)

    report = await collect_garbage(engine, SCOPE, CONFIG, NOW, dry_run=True)

    assert report.dry_run
    assert records["faded"].id in report.archived_ids
    assert await snapshot(engine) == before


async def test_archives_faded_unhit_facts_and_keeps_hit_ones(engine: MemoryEngine) -> None:
    records = await seed(engine)

    report = await collect_garbage(engine, SCOPE, CONFIG, NOW)

    archived = set(report.archived_ids)
    assert records["faded"].id in archived
    assert records["old_hit"].id in archived  # its only hit predates the last 3 sessions
    assert records["hit"].id not in archived  # recalled during s4
    assert records["profile"].id not in archived  # profile facts do not decay
    assert records["recent"].id not in archived  # from a recent session: no chance yet
    assert report.scopes[0].sessions == 6
    assert await statuses(engine, [records["faded"].id]) == [Status.ARCHIVED]
    recalled = await engine.recall(SCOPE, "pottery class", now=NOW)
    assert records["faded"].id not in {m.record.id for m in recalled}


async def test_second_run_changes_nothing(engine: MemoryEngine) -> None:
    await seed(engine)
    await collect_garbage(engine, SCOPE, CONFIG, NOW)
    before = await snapshot(engine)

    again = await collect_garbage(engine, None, CONFIG, NOW)

    assert again.archived_count == 0
    assert await snapshot(engine) == before


async def test_too_few_sessions_archive_nothing(engine: MemoryEngine) -> None:
    await engine.store.upsert([fact("I tried a pottery class once.", days=1, session="s0")])

    report = await collect_garbage(engine, SCOPE, CONFIG, NOW)

    assert report.archived_count == 0


async def test_restore_brings_an_archived_fact_back(engine: MemoryEngine) -> None:
    records = await seed(engine)
    await collect_garbage(engine, SCOPE, CONFIG, NOW)
    faded = records["faded"].id

    restored = await restore(engine, SCOPE, [faded, records["hit"].id, "no-such-id"])

    assert restored == [faded]
    assert await statuses(engine, [faded]) == [Status.ACTIVE]
    recalled = await engine.recall(SCOPE, "pottery class", now=NOW)
    assert recalled[0].record.id == faded


async def test_superseded_facts_are_archived_after_retention(engine: MemoryEngine) -> None:
    new = fact(
        "User lives in Munich.", days=100, kind=Kind.PROFILE, predicate="lives_in", obj="Munich"
    )
    old = fact(
        "User lives in Berlin.",
        days=0,
        kind=Kind.PROFILE,
        predicate="lives_in",
        obj="Berlin",
        status=Status.SUPERSEDED,
        superseded_by=new.id,
    )
    await engine.store.upsert([old, new])
    config = GcConfig(superseded_retention_days=90, scoring=SCORING)

    early = await collect_garbage(engine, SCOPE, config, at(150))
    late = await collect_garbage(engine, SCOPE, config, at(191))

    assert early.archived_count == 0
    assert late.scopes[0].expired == [old.id]
    assert await restore(engine, SCOPE, [old.id]) == [old.id]
    back = await engine.get(old.id)
    assert (back.status, back.superseded_by) == (Status.SUPERSEDED, new.id)
    assert [r.id for r in await engine.history(new.id)] == [old.id, new.id]
