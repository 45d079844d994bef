"""`SaveQueue`: hands event deltas to a memory service in the background.

A turn must never wait for, or fail because of, saving its events. Saves are therefore
queued and run one at a time by a worker task:

* debounced per session: turns of one session that arrive within `debounce_s` of each other
  become one save (deferred at most `MAX_DEFER` debounce periods, so a chatty session still
  saves);
* bounded: at most `max_pending` sessions wait; past that a save is dropped with a warning
  rather than letting memory grow without limit;
* failures are logged, never raised.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from google.adk.events.event import Event
from google.adk.memory.base_memory_service import BaseMemoryService

logger = logging.getLogger("adk_memory.adk.plugin")

#: A session's save is deferred at most this many debounce periods after its first turn.
MAX_DEFER = 5

_Key = tuple[str, str, str]


@dataclass
class _Pending:
    service: BaseMemoryService
    app_name: str
    user_id: str
    session_id: str
    events: list[Event]
    first: float
    due: float
    event_ids: set[str] = field(default_factory=set)


@dataclass
class SaveStats:
    """Counters of what the queue did (for tests, logs and benchmarks)."""

    saves: int = 0
    events: int = 0
    failures: int = 0
    dropped: int = 0


class SaveQueue:
    """Background, debounced, bounded saving of new events to a memory service.

    Args:
        max_pending: Sessions that may wait for a save at once.
        debounce_s: Quiet time after a session's last turn before its save starts.
    """

    def __init__(self, *, max_pending: int = 256, debounce_s: float = 0.5) -> None:
        if max_pending < 1:
            raise ValueError("max_pending must be at least 1")
        if debounce_s < 0:
            raise ValueError("debounce_s must not be negative")
        self.max_pending = max_pending
        self.debounce_s = debounce_s
        self.stats = SaveStats()
        self._pending: dict[_Key, _Pending] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._worker: asyncio.Task[None] | None = None
        self._wakeup = asyncio.Event()
        self._idle = asyncio.Event()
        self._flushing = False

    @property
    def pending(self) -> int:
        """Sessions waiting for a save."""
        return len(self._pending)

    def submit(
        self,
        service: BaseMemoryService,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        events: Sequence[Event],
    ) -> bool:
        """Queues `events` of a session for saving; returns False if the queue was full."""
        if not events:
            return True
        self._ensure_worker()
        loop = asyncio.get_running_loop()
        now = loop.time()
        key = (app_name, user_id, session_id)
        entry = self._pending.get(key)
        if entry is None:
            if len(self._pending) >= self.max_pending:
                self.stats.dropped += 1
                logger.warning(
                    "memory save queue full (%d sessions); not saving %d events of session %s",
                    self.max_pending,
                    len(events),
                    session_id,
                )
                return False
            entry = _Pending(service, app_name, user_id, session_id, [], now, now)
            self._pending[key] = entry
        for event in events:
            if event.id not in entry.event_ids:
                entry.event_ids.add(event.id)
                entry.events.append(event)
        entry.due = min(now + self.debounce_s, entry.first + MAX_DEFER * self.debounce_s)
        self._idle.clear()
        self._wakeup.set()
        return True

    async def flush(self) -> None:
        """Starts every pending save now and waits until all have finished."""
        if self._worker is None and not self._pending:
            return
        self._ensure_worker()
        self._flushing = True
        self._wakeup.set()
        try:
            await self._idle.wait()
        finally:
            self._flushing = False

    async def close(self, timeout_s: float) -> None:
        """Flushes within `timeout_s`, then stops the worker; unsaved sessions are logged."""
        try:
            await asyncio.wait_for(self.flush(), timeout=timeout_s)
        except TimeoutError:
            logger.warning(
                "memory saves still pending after %.1fs at close; %d sessions not saved",
                timeout_s,
                len(self._pending),
            )
        worker, self._worker = self._worker, None
        if worker is not None and not worker.done():
            worker.cancel()
            await asyncio.gather(worker, return_exceptions=True)
        self._pending.clear()

    def _ensure_worker(self) -> None:
        loop = asyncio.get_running_loop()
        if self._worker is not None and not self._worker.done() and self._loop is loop:
            return
        # A new event loop (a fresh `asyncio.run`, a test) needs primitives bound to it.
        self._loop = loop
        self._wakeup = asyncio.Event()
        self._idle = asyncio.Event()
        if self._pending:
            self._wakeup.set()
        else:
            self._idle.set()
        self._worker = loop.create_task(self._run(), name="adk_memory-autosave")

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if not self._pending:
                self._idle.set()
                self._wakeup.clear()
                await self._wakeup.wait()
                continue
            key = min(self._pending, key=lambda k: self._pending[k].due)
            delay = self._pending[key].due - loop.time()
            if delay > 0 and not self._flushing:
                self._wakeup.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wakeup.wait(), timeout=delay)
                continue
            await self._save(self._pending.pop(key))

    async def _save(self, entry: _Pending) -> None:
        try:
            await entry.service.add_events_to_memory(
                app_name=entry.app_name,
                user_id=entry.user_id,
                events=entry.events,
                session_id=entry.session_id,
            )
        except Exception:
            self.stats.failures += 1
            logger.warning(
                "saving %d events of session %s to memory failed",
                len(entry.events),
                entry.session_id,
                exc_info=True,
            )
            return
        self.stats.saves += 1
        self.stats.events += len(entry.events)
