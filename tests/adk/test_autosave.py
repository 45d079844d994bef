"""SaveQueue: debounced per session, bounded, never raising."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from google.adk.events.event import Event
from google.adk.memory.base_memory_service import BaseMemoryService, SearchMemoryResponse
from google.adk.sessions.session import Session
from google.genai import types

from adk_memory.adk.autosave import SaveQueue


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
