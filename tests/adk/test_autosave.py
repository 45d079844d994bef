"""SaveQueue: debounced per session, bounded, durable through its outbox, never raising."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path

import pytest
from google.adk.events.event import Event
from google.adk.memory.base_memory_service import BaseMemoryService, SearchMemoryResponse
from google.adk.sessions.session import Session
from google.genai import types

from adk_memory.adk.autosave import SaveQueue
from adk_memory.adk.outbox import Outbox
from tests.adk.support import until


class ListMemoryService(BaseMemoryService):
    """A memory service that keeps each saved batch in a list (optionally slowly)."""

    def __init__(self, delay_s: float = 0.0) -> None:
        self.batches: list[tuple[str | None, list[str]]] = []
        self.delay_s = delay_s

    async def add_session_to_memory(self, session: Session) -> None:
        raise NotImplementedError

    async def add_events_to_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        events: Sequence[Event],
        session_id: str | None = None,
        custom_metadata: object = None,
    ) -> None:
        await asyncio.sleep(self.delay_s)
        self.batches.append((session_id, [e.id for e in events]))

    async def search_memory(
        self, *, app_name: str, user_id: str, query: str
    ) -> SearchMemoryResponse:
        return SearchMemoryResponse()


def event(text: str) -> Event:
    return Event(author="user", content=types.Content(role="user", parts=[types.Part(text=text)]))


def submit(queue: SaveQueue, service: BaseMemoryService, session: str, *events: Event) -> bool:
    return queue.submit(service, app_name="a", user_id="u", session_id=session, events=events)


async def test_turns_of_a_session_within_the_debounce_window_become_one_save() -> None:
    service = ListMemoryService()
    queue = SaveQueue(debounce_s=0.05)
    a, b, c = event("one"), event("two"), event("three")
    assert submit(queue, service, "s1", a)
    assert submit(queue, service, "s1", b, a)  # a repeated event is saved once
    assert submit(queue, service, "s2", c)
    await asyncio.sleep(0.01)
    assert service.batches == []
    await asyncio.sleep(0.15)
    assert sorted(service.batches) == [("s1", [a.id, b.id]), ("s2", [c.id])]
    await queue.close(1.0)


async def test_a_full_queue_drops_new_sessions_instead_of_growing() -> None:
    service = ListMemoryService()
    queue = SaveQueue(max_pending=1, debounce_s=10)
    assert submit(queue, service, "s1", event("one"))
    assert submit(queue, service, "s1", event("two"))  # same session: merged, not refused
    assert not submit(queue, service, "s2", event("three"))
    assert queue.stats.dropped == 1
    await queue.flush()
    assert [s for s, _ in service.batches] == ["s1"]
    await queue.close(1.0)


async def test_close_gives_up_after_its_timeout() -> None:
    service = ListMemoryService(delay_s=10)
    queue = SaveQueue(debounce_s=0)
    submit(queue, service, "s1", event("one"))
    started = asyncio.get_running_loop().time()
    await queue.close(0.05)
    assert asyncio.get_running_loop().time() - started < 1.0
    assert service.batches == [] and queue.pending == 0


async def test_flush_without_work_returns_at_once() -> None:
    queue = SaveQueue()
    await asyncio.wait_for(queue.flush(), timeout=0.5)
    await queue.close(0.1)


class FlakyService(ListMemoryService):
    """Fails every save while `down` is set (a backend outage)."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False
        self.destination = "flaky-store"

    async def add_events_to_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        events: Sequence[Event],
        session_id: str | None = None,
        custom_metadata: object = None,
    ) -> None:
        if self.down:
            raise ConnectionError("backend unavailable")
        await super().add_events_to_memory(
            app_name=app_name, user_id=user_id, events=events, session_id=session_id
        )


def saved_ids(service: ListMemoryService) -> set[str]:
    return {i for _, ids in service.batches for i in ids}


async def test_saves_failed_during_an_outage_are_replayed_when_it_ends(tmp_path: Path) -> None:
    service = FlakyService()
    queue = SaveQueue(
        debounce_s=0, outbox=Outbox(tmp_path / "o.db", backoff_initial_s=3600, backoff_max_s=3600)
    )
    service.down = True
    during = [event("I live in Lisbon."), event("I'm allergic to peanuts.")]
    submit(queue, service, "s1", during[0])
    submit(queue, service, "s2", during[1])
    await until(lambda: queue.stats.failures == 2)
    assert service.batches == []
    assert await queue.outboxed() == 2

    service.down = False
    after = event("I work at Acme.")
    submit(queue, service, "s3", after)
    # The first save that works again releases the waiting ones without their hour of backoff.
    await until(lambda: len(service.batches) == 3)
    assert saved_ids(service) == {e.id for e in [*during, after]}
    assert queue.stats.replayed == 2 and await queue.outboxed() == 0
    await queue.close(1.0)


async def test_pending_saves_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "o.db"
    service = FlakyService()
    service.down = True
    first = SaveQueue(debounce_s=0, outbox=Outbox(path))
    failed, unsent = event("I live in Lisbon."), event("I'm allergic to peanuts.")
    submit(first, service, "s1", failed)
    await until(lambda: first.stats.failures == 1)
    slow = SaveQueue(debounce_s=60, outbox=Outbox(path))  # a second queue, still debouncing
    submit(slow, service, "s2", unsent)
    await first.close(0.2)
    await slow.close(0.2)  # its save fails too: both wait in the file

    service.down = False
    restarted = SaveQueue(outbox=Outbox(path))
    restarted.attach(service)  # a new process meets its service: replays at start-up
    await restarted.flush()
    assert saved_ids(service) == {failed.id, unsent.id}
    assert restarted.stats.replayed == 2
    await restarted.close(1.0)


async def test_what_is_finally_given_up_is_counted_and_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    service = FlakyService()
    service.down = True
    queue = SaveQueue(debounce_s=0, outbox=Outbox(tmp_path / "o.db", max_attempts=2))
    with caplog.at_level(logging.WARNING, logger="adk_memory.adk.plugin"):
        submit(queue, service, "s1", event("I live in Lisbon."))
        await queue.flush()  # attempt 1 (the save), attempt 2 (the replay): given up
    assert queue.stats.given_up == 1 and await queue.outboxed() == 0
    assert "memory save given up: 1 events of session s1 (a/u), 2 failed attempts" in caplog.text
    await queue.close(1.0)


async def test_discarding_a_scope_drops_its_waiting_saves(tmp_path: Path) -> None:
    service = FlakyService()
    service.down = True
    queue = SaveQueue(debounce_s=0, outbox=Outbox(tmp_path / "o.db"))
    submit(queue, service, "s1", event("I live in Lisbon."))
    await until(lambda: queue.stats.failures == 1)  # failed once: in the outbox
    queue.submit(service, app_name="a", user_id="u", session_id="s2", events=[event("more")])
    queue.submit(service, app_name="a", user_id="bob", session_id="s3", events=[event("bob's")])
    queue.debounce_s = 60

    assert await queue.discard_scope("a", "u") >= 2
    service.down = False
    await queue.flush()
    assert [s for s, _ in service.batches] == ["s3"]  # only the other user's save
    await queue.close(1.0)
