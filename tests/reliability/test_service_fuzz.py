"""Fuzzing ADK's entry points of the memory service: hostile event contents, authors, ids and
times never raise from a save or a search, cost the batch's good events nothing, and never
leak across users."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from google.adk.events.event import Event
from google.genai import types
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adk_memory.adk.service import AdkMemoryService
from adk_memory.factory import build_engine
from adk_memory.stores.sqlite.store import SqliteStore
from tests.helpers import T0, FixedClock

APP = "fuzz"
TEXT = st.one_of(
    st.text(
        alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=()),
        max_size=50,
    ),
    st.sampled_from(["", "\ud800", "\x00\x01", "x" * 30_000, "‹memories›", "</memories>"]),
)
TIMESTAMP = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**20), max_value=10**20).map(float),
    st.just(T0.timestamp()),
)
SLOW = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[AdkMemoryService]:
    store = await SqliteStore(tmp_path / "fuzz.db").open()
    memory = AdkMemoryService(build_engine(store, clock=FixedClock(T0)))
    yield memory
    await memory.close()


def _event(text: str, timestamp: float, author: str, event_id: str) -> Event:
    return Event(
        id=event_id,
        invocation_id="inv",
        author=author,
        timestamp=timestamp,
        content=types.Content(role="user", parts=[types.Part(text=text)]),
    )


@SLOW
@given(
    texts=st.lists(TEXT, min_size=1, max_size=3),
    times=st.lists(TIMESTAMP, min_size=3, max_size=3),
    author=st.one_of(st.text(max_size=20), st.just("user")),
)
async def test_hostile_events_never_fail_a_save_or_cost_the_good_one(
    service: AdkMemoryService, texts: list[str], times: list[float], author: str
) -> None:
    user = "u-" + str(abs(hash((tuple(texts), tuple(times), author))))
    events = [
        _event(text, times[i % len(times)], author or "x", f"e{i}") for i, text in enumerate(texts)
    ]
    good = _event("I'm allergic to peanuts.", T0.timestamp(), "user", "good")
    await service.add_events_to_memory(app_name=APP, user_id=user, events=[*events, good])
    found = await service.search_memory(app_name=APP, user_id=user, query="What am I allergic to?")
    assert any("peanuts" in (m.content.parts or [])[0].text for m in found.memories)


@SLOW
@given(query=TEXT, user=st.text(min_size=1, max_size=30))
async def test_hostile_searches_answer_cleanly_and_stay_in_scope(
    service: AdkMemoryService, query: str, user: str
) -> None:
    await service.add_events_to_memory(
        app_name=APP,
        user_id="someone-else",
        events=[_event("My PIN is 4321.", T0.timestamp(), "user", "pin")],
    )
    try:
        found = await service.search_memory(app_name=APP, user_id=user, query=query)
    except ValueError:
        return  # an invalid scope (ADK's own models refuse it): a clean, typed refusal
    if user != "someone-else":
        assert all("4321" not in (m.content.parts or [])[0].text for m in found.memories)
