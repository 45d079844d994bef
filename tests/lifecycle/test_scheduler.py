"""The optional periodic runner."""

from __future__ import annotations

import asyncio

from adk_memory.engine import MemoryEngine
from adk_memory.lifecycle.scheduler import LifecycleSchedule, LifecycleScheduler
from adk_memory.model import Status
from tests.lifecycle.support import SCOPE, fact


class Ticks:
    """A sleep that returns at once and records the calls; `third` is set on the third (the
    sleep after the second run)."""

    def __init__(self) -> None:
        self.calls: list[float] = []
        self.third = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)
        if len(self.calls) >= 3:
            self.third.set()
        await asyncio.sleep(0)


async def test_disabled_by_default(engine: MemoryEngine) -> None:
    scheduler = LifecycleScheduler(engine)

    assert scheduler.start() is False
    assert not scheduler.running
    await scheduler.stop()


async def test_runs_periodically_and_stops(engine: MemoryEngine) -> None:
    await engine.store.upsert(
        [fact(f"I went hiking in the mountains with friend {i}", event=f"e{i}") for i in range(3)]
    )
    ticks = Ticks()
    schedule = LifecycleSchedule(enabled=True, interval_seconds=60, initial_delay_seconds=5)
    scheduler = LifecycleScheduler(engine, schedule, sleep=ticks)

    assert scheduler.start() and scheduler.start()
    await asyncio.wait_for(ticks.third.wait(), timeout=10)
    await scheduler.stop()

    assert scheduler.runs >= 2 and scheduler.failures == 0 and not scheduler.running
    assert ticks.calls[:3] == [5, 60, 60]
    page = await engine.store.list_page(SCOPE, filters=None, limit=100)
    assert {r.status for r in page.records} == {Status.ACTIVE, Status.ARCHIVED}
    assert scheduler.last is not None and scheduler.last.consolidation is not None
    assert scheduler.last.consolidation.summary_ids == []  # the second run found nothing new
