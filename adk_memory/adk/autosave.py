"""`SaveQueue`: hands event deltas to a memory service in the background, losing none.

A turn must never wait for, or fail because of, saving its events. Saves are therefore
queued and run one at a time by a worker task:

* debounced per session: turns of one session that arrive within `debounce_s` of each other
  become one save (deferred at most `MAX_DEFER` debounce periods, so a chatty session still
  saves);
* bounded in memory: at most `max_pending` sessions wait; past that a save goes straight to
  the outbox (or, without one, is dropped with a warning);
* durable: with an `Outbox`, each save is written to it before it is attempted and removed
  when the service accepted it. A failed save stays there and is replayed with backoff; as
  soon as a save to the same service succeeds again (the backend recovered) the waiting ones
  are replayed at once, and a new process replays what an earlier one left. `close()` keeps
  in the outbox whatever it could not save in time;
* failures are counted and logged, never raised; what the outbox finally gives up (too old,
  too many attempts, outbox full) is counted in `SaveStats.given_up` and logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from google.adk.events.event import Event
from google.adk.memory.base_memory_service import BaseMemoryService

from adk_memory.adk.outbox import GivenUp, Outbox, OutboxEntry

logger = logging.getLogger("adk_memory.adk.plugin")

#: A session's save is deferred at most this many debounce periods after its first turn.
MAX_DEFER = 5
#: Outbox entries replayed per round (the worker checks for new turns between rounds).
REPLAY_BATCH = 16

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
    """Counters of what the queue did (for tests, logs, metrics and benchmarks)."""

    saves: int = 0
    events: int = 0
    #: Save attempts that failed (a save retried three times counts three).
    failures: int = 0
    #: Saves that were not kept anywhere (queue full without an outbox).
    dropped: int = 0
    #: Saves written by replaying the outbox (after an outage or a restart).
    replayed: int = 0
    #: Saves the outbox gave up (age, attempts or size bound); each one is logged.
    given_up: int = 0


def destination_of(service: BaseMemoryService) -> str:
    """Which store a service writes to, as the outbox keys its saves."""
    destination = getattr(service, "destination", None)
    if isinstance(destination, str) and destination:
        return destination
    return f"{type(service).__module__}.{type(service).__qualname__}"


class SaveQueue:
    """Background, debounced, bounded, durable saving of new events to a memory service.

    Args:
        max_pending: Sessions that may wait in memory for a save at once.
        debounce_s: Quiet time after a session's last turn before its save starts.
        outbox: Where saves wait until the service accepted them (None: in memory only; a
            failed save is then lost).
    """

    def __init__(
        self, *, max_pending: int = 256, debounce_s: float = 0.5, outbox: Outbox | None = None
    ) -> None:
        if max_pending < 1:
            raise ValueError("max_pending must be at least 1")
        if debounce_s < 0:
            raise ValueError("debounce_s must not be negative")
        self.max_pending = max_pending
        self.debounce_s = debounce_s
        self.outbox = outbox
        self.stats = SaveStats()
        self._pending: dict[_Key, _Pending] = {}
        #: destination -> the service that writes there (replay needs one).
        self._services: dict[str, BaseMemoryService] = {}
        #: destinations whose waiting saves are replayed at once, ignoring their backoff:
        #: at start-up and after a save there succeeded (the backend is back).
        self._replay_now: set[str] = set()
        self._flush_waiters: list[asyncio.Future[None]] = []
        self._puts: set[asyncio.Task[None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._worker: asyncio.Task[None] | None = None
        self._wakeup = asyncio.Event()
        self._saving = asyncio.Lock()

    @property
    def pending(self) -> int:
        """Sessions waiting in memory for a save."""
        return len(self._pending)

    async def outboxed(self) -> int:
        """Saves waiting in the outbox (all destinations)."""
        if self.outbox is None:
            return 0
        return await asyncio.to_thread(self.outbox.count)

    def attach(self, service: BaseMemoryService) -> None:
        """Makes `service` the one that replays its destination's saves, and starts replaying
        what an earlier process left in the outbox (in the background)."""
        destination = destination_of(service)
        known = destination in self._services
        self._services[destination] = service
        if not known and self.outbox is not None:
            self._replay_now.add(destination)
            self._ensure_worker()
            self._wakeup.set()

    def submit(
        self,
        service: BaseMemoryService,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        events: Sequence[Event],
    ) -> bool:
        """Queues `events` of a session for saving; returns False if they were dropped."""
        if not events:
            return True
        self.attach(service)
        self._ensure_worker()
        now = asyncio.get_running_loop().time()
        key = (app_name, user_id, session_id)
        entry = self._pending.get(key)
        if entry is None:
            if len(self._pending) >= self.max_pending:
                return self._overflow(service, app_name, user_id, session_id, events)
            entry = _Pending(service, app_name, user_id, session_id, [], now, now)
            self._pending[key] = entry
        for event in events:
            if event.id not in entry.event_ids:
                entry.event_ids.add(event.id)
                entry.events.append(event)
        entry.due = min(now + self.debounce_s, entry.first + MAX_DEFER * self.debounce_s)
        self._wakeup.set()
        return True

    def _overflow(
        self,
        service: BaseMemoryService,
        app_name: str,
        user_id: str,
        session_id: str,
        events: Sequence[Event],
    ) -> bool:
        if self.outbox is not None:
            # Straight to the durable queue: replayed like any failed save.
            self._spawn_put(service, app_name, user_id, session_id, list(events))
            return True
        self.stats.dropped += 1
        logger.warning(
            "memory save queue full (%d sessions); not saving %d events of session %s",
            self.max_pending,
            len(events),
            session_id,
        )
        return False

    def _spawn_put(
        self,
        service: BaseMemoryService,
        app_name: str,
        user_id: str,
        session_id: str,
        events: list[Event],
    ) -> None:
        async def put() -> None:
            await self._put(service, app_name, user_id, session_id, events)
            self._wakeup.set()

        task = asyncio.get_running_loop().create_task(put())
        self._puts.add(task)
        task.add_done_callback(self._puts.discard)

    async def discard_scope(self, app_name: str, user_id: str) -> int:
        """Forgets every pending save of one user, in memory and in the outbox (erase);
        returns how many saves were dropped."""
        if self._puts:
            await asyncio.gather(*list(self._puts), return_exceptions=True)
        removed = 0
        # Taken after the in-flight save (if any) finished: an erase that follows must see
        # what it wrote, and the outbox must not keep its entry.
        async with self._saving:
            keys = [k for k in self._pending if k[0] == app_name and k[1] == user_id]
            for key in keys:
                del self._pending[key]
            if self.outbox is not None:
                removed = await asyncio.to_thread(self.outbox.discard_scope, app_name, user_id)
        return len(keys) + removed

    async def flush(self) -> None:
        """Attempts every pending save now (in memory, then the outbox, ignoring backoff)
        and waits until all have been tried once."""
        if self._worker is None and not self._pending and not self._services:
            return
        self._ensure_worker()
        waiter = asyncio.get_running_loop().create_future()
        self._flush_waiters.append(waiter)
        self._wakeup.set()
        await waiter

    async def close(self, timeout_s: float) -> None:
        """Flushes within `timeout_s`, then stops the worker. What could not be saved stays
        in the outbox for the next process (without one, it is lost and logged)."""
        try:
            await asyncio.wait_for(self.flush(), timeout=timeout_s)
        except TimeoutError:
            logger.warning(
                "memory saves still pending after %.1fs at close; %d sessions %s",
                timeout_s,
                len(self._pending),
                "kept in the outbox" if self.outbox is not None else "not saved",
            )
        worker, self._worker = self._worker, None
        if worker is not None and not worker.done():
            worker.cancel()
            await asyncio.gather(worker, return_exceptions=True)
        if self._puts:
            await asyncio.gather(*list(self._puts), return_exceptions=True)
        leftover, self._pending = list(self._pending.values()), {}
        if self.outbox is not None:
            for entry in leftover:
                await self._put(
                    entry.service, entry.app_name, entry.user_id, entry.session_id, entry.events
                )
            await asyncio.to_thread(self.outbox.close)

    def _ensure_worker(self) -> None:
        loop = asyncio.get_running_loop()
        if self._worker is not None and not self._worker.done() and self._loop is loop:
            return
        # A new event loop (a fresh `asyncio.run`, a test) needs primitives bound to it.
        self._loop = loop
        self._wakeup = asyncio.Event()
        self._wakeup.set()
        self._saving = asyncio.Lock()
        self._worker = loop.create_task(self._run(), name="adk_memory-autosave")

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            self._wakeup.clear()
            if self._flush_waiters:
                waiters, self._flush_waiters = self._flush_waiters, []
                while self._pending:
                    await self._save(next(iter(self._pending)))
                self._replay_now.update(self._services)
                while await self._replay_round():
                    pass
                for waiter in waiters:
                    if not waiter.done():
                        waiter.set_result(None)
                continue
            wait: float | None = None
            if self._pending:
                key = min(self._pending, key=lambda k: self._pending[k].due)
                delay = self._pending[key].due - loop.time()
                if delay <= 0:
                    await self._save(key)
                    continue
                wait = delay
            if await self._replay_round():
                continue
            retry_in = await self._next_retry_in()
            if retry_in is not None:
                wait = retry_in if wait is None else min(wait, retry_in)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), timeout=wait)

    async def _save(self, key: _Key) -> None:
        # Under the lock from the moment it leaves `_pending`: an erase either finds the save
        # still pending or waits until it has been written.
        async with self._saving:
            entry = self._pending.pop(key, None)
            if entry is None:
                return
            outbox_id = await self._put(
                entry.service, entry.app_name, entry.user_id, entry.session_id, entry.events
            )
            await self._attempt_locked(
                entry.service,
                entry.app_name,
                entry.user_id,
                entry.session_id,
                entry.events,
                outbox_id,
                replay=False,
            )

    async def _attempt_locked(
        self,
        service: BaseMemoryService,
        app_name: str,
        user_id: str,
        session_id: str,
        events: list[Event],
        outbox_id: int | None,
        *,
        replay: bool,
    ) -> bool:
        destination = destination_of(service)
        # Erased while it waited for its turn: nothing of this user may be written.
        if (
            outbox_id is not None
            and self.outbox is not None
            and not await asyncio.to_thread(self.outbox.contains, outbox_id)
        ):
            return True
        try:
            await service.add_events_to_memory(
                app_name=app_name, user_id=user_id, events=events, session_id=session_id
            )
        except Exception as exc:
            self.stats.failures += 1
            self._replay_now.discard(destination)
            logger.warning(
                "saving %d events of session %s to memory failed%s",
                len(events),
                session_id,
                "; kept in the outbox for a retry" if outbox_id is not None else "",
                exc_info=True,
            )
            if outbox_id is not None and self.outbox is not None:
                given_up = await asyncio.to_thread(
                    self.outbox.failed, outbox_id, f"{type(exc).__name__}: {exc}"
                )
                if given_up is not None:
                    self._give_up([given_up])
            return False
        if outbox_id is not None and self.outbox is not None:
            await asyncio.to_thread(self.outbox.done, outbox_id)
        self.stats.saves += 1
        self.stats.events += len(events)
        if replay:
            self.stats.replayed += 1
        else:
            # The backend takes writes: whatever waits for it need not wait out its backoff.
            self._replay_now.add(destination)
        return True

    async def _put(
        self,
        service: BaseMemoryService,
        app_name: str,
        user_id: str,
        session_id: str,
        events: list[Event],
    ) -> int | None:
        if self.outbox is None:
            return None
        try:
            entry_id, given_up = await asyncio.to_thread(
                self.outbox.put,
                destination_of(service),
                app_name=app_name,
                user_id=user_id,
                session_id=session_id,
                events=events,
            )
        except Exception:
            # A broken outbox file must not stop saving: the save is attempted anyway.
            logger.warning("could not write the memory save outbox", exc_info=True)
            return None
        self._give_up(given_up)
        return entry_id

    async def _replay_round(self) -> bool:
        """Replays due outbox entries of each known destination; True if any was tried."""
        if self.outbox is None:
            return False
        tried = False
        for destination, service in list(self._services.items()):
            now = destination in self._replay_now
            entries: list[OutboxEntry] = await asyncio.to_thread(
                self.outbox.due, destination, limit=REPLAY_BATCH, ignore_backoff=now
            )
            if not entries:
                self._replay_now.discard(destination)
                continue
            for entry in entries:
                tried = True
                async with self._saving:
                    saved = await self._attempt_locked(
                        service,
                        entry.app_name,
                        entry.user_id,
                        entry.session_id,
                        entry.events,
                        entry.id,
                        replay=True,
                    )
                if saved:
                    continue
                break  # still down: the rest wait for their backoff
            if len(entries) < REPLAY_BATCH:
                self._replay_now.discard(destination)
        return tried

    async def _next_retry_in(self) -> float | None:
        if self.outbox is None:
            return None
        waits = [
            await asyncio.to_thread(self.outbox.next_due_in, destination)
            for destination in self._services
        ]
        known = [w for w in waits if w is not None]
        return min(known) if known else None

    def _give_up(self, given_up: Sequence[GivenUp]) -> None:
        for item in given_up:
            self.stats.given_up += 1
            logger.warning(
                "memory save given up: %d events of session %s (%s/%s), %s",
                item.events,
                item.session_id,
                item.app_name,
                item.user_id,
                item.reason,
            )
