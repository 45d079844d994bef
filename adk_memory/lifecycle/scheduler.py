"""An optional in-process scheduler for the lifecycle jobs (off by default).

For one long-lived agent process this saves a cron entry: the plugin (or any owner of an
engine) calls `start()` and, on shutdown, `stop()`. Several replicas sharing one store should
use cron / Cloud Scheduler instead (docs/lifecycle.md): the jobs are idempotent, but there is
no point in every replica running them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from pydantic import BaseModel, Field

from adk_memory.engine import MemoryEngine
from adk_memory.lifecycle.consolidation import ConsolidationConfig, ConsolidationReport, consolidate
from adk_memory.lifecycle.gc import GcConfig, GcReport, collect_garbage
from adk_memory.lifecycle.summarizer import Summarizer

logger = logging.getLogger(__name__)


class LifecycleSchedule(BaseModel):
    """When and what the scheduler runs."""

    #: Off unless asked for: archiving should be a deliberate choice of the deployer.
    enabled: bool = False
    interval_seconds: float = Field(default=6 * 3600.0, gt=0)
    #: Delay before the first run, so a starting agent serves its first turns undisturbed.
    initial_delay_seconds: float = Field(default=300.0, ge=0)
    #: Garbage collection settings; None skips it.
    gc: GcConfig | None = Field(default_factory=GcConfig)
    #: Consolidation settings; None skips it.
    consolidation: ConsolidationConfig | None = Field(default_factory=ConsolidationConfig)
    dry_run: bool = False


class LifecycleRun(BaseModel):
    """What one scheduled run did."""

    gc: GcReport | None = None
    consolidation: ConsolidationReport | None = None


class LifecycleScheduler:
    """Runs garbage collection, then consolidation, over every scope, periodically.

    A failing run is logged and the next one still happens; `stop()` cancels a run in
    progress, which is safe because every write of the jobs is idempotent and crash-safe.

    Args:
        engine: The engine the agent uses (its scope locks keep the jobs off live writes).
        schedule: Interval and job settings; nothing runs unless `schedule.enabled`.
        summarizer: Writes summaries (default: the local summariser).
        sleep: Injected for tests.
    """

    def __init__(
        self,
        engine: MemoryEngine,
        schedule: LifecycleSchedule | None = None,
        *,
        summarizer: Summarizer | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.engine = engine
        self.schedule = schedule or LifecycleSchedule()
        self.summarizer = summarizer
        self._sleep = sleep
        self._task: asyncio.Task[None] | None = None
        self.runs = 0
        self.failures = 0
        self.last: LifecycleRun | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> bool:
        """Starts the periodic task on the running loop. Returns whether it runs (False when
        the schedule is disabled); calling it again while running changes nothing."""
        if not self.schedule.enabled:
            return False
        if not self.running:
            self._task = asyncio.get_running_loop().create_task(self._loop())
        return True

    async def stop(self) -> None:
        """Cancels the periodic task and waits for it to end."""
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            if not task.cancelled():
                raise

    async def run_once(self) -> LifecycleRun:
        """One garbage collection then one consolidation over every scope."""
        result = LifecycleRun()
        now = self.engine.clock()
        if self.schedule.gc is not None:
            result.gc = await collect_garbage(
                self.engine, None, self.schedule.gc, now, self.schedule.dry_run
            )
        if self.schedule.consolidation is not None:
            result.consolidation = await consolidate(
                self.engine,
                None,
                self.schedule.consolidation,
                now,
                self.schedule.dry_run,
                summarizer=self.summarizer,
            )
        return result

    async def _loop(self) -> None:
        await self._sleep(self.schedule.initial_delay_seconds)
        while True:
            try:
                self.last = await self.run_once()
                self.runs += 1
                logger.info(
                    "lifecycle run %d: %d archived by gc, %d summaries",
                    self.runs,
                    self.last.gc.archived_count if self.last.gc else 0,
                    len(self.last.consolidation.summary_ids) if self.last.consolidation else 0,
                )
            except Exception:  # one bad run must not end the schedule
                self.failures += 1
                logger.warning("lifecycle run failed", exc_info=True)
            await self._sleep(self.schedule.interval_seconds)
