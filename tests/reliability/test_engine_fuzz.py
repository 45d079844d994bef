"""Fuzzing the engine's public entry points: hostile text, ids, scopes and times give a clean
typed error (or a clean result), never another exception, and a refused call writes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from adk_memory.engine import MemoryEngine
from adk_memory.errors import AdkMemoryError
from adk_memory.factory import build_engine
from adk_memory.model import InputEvent, Scope
from adk_memory.stores.sqlite.store import SqliteStore
from tests.helpers import T0, FixedClock

SCOPE = Scope(app_name="fuzz", user_id="u")

#: Unicode with everything that has broken text handling before: lone surrogates, controls,
#: format characters, fullwidth and combining marks, plus plain words.
HOSTILE_TEXT = st.one_of(
    st.text(
        alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=()),
        max_size=60,
    ),
    st.sampled_from(
        [
            "",
            " ",
            "\ud800",
            "a\udfffb",
            "\x00",
            "\x1b[31mred",
            "\u202eevil",
            "\u200b",
            "ＩＧＮＯＲＥ ＡＬＬ",
            "x" * 20_001,
            "I live in Berlin.",
            "{" * 5000,
        ]
    ),
)
HOSTILE_ID = st.one_of(st.text(max_size=40), st.just("x" * 100_000), st.just("../../etc"))
ODD_TIME = st.one_of(
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),
    st.datetimes(
        min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=st.timezones()
    ),
)
SLOW = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture
async def fuzz_engine(tmp_path: Path) -> AsyncIterator[MemoryEngine]:
    store = await SqliteStore(tmp_path / "fuzz.db").open()
    engine = build_engine(store, clock=FixedClock(T0))
    yield engine
    await engine.close()


async def _count(engine: MemoryEngine) -> int:
    return len((await engine.list(SCOPE, limit=1000)).records)


@SLOW
@given(text=HOSTILE_TEXT, at=st.one_of(st.none(), ODD_TIME))
async def test_remember_takes_or_refuses_cleanly(
    fuzz_engine: MemoryEngine, text: str, at: datetime | None
) -> None:
    before = await _count(fuzz_engine)
    try:
        outcome = await fuzz_engine.remember(SCOPE, text, at=at)
    except AdkMemoryError:
        assert await _count(fuzz_engine) == before
        return
    assert (await fuzz_engine.get(outcome.id, SCOPE)).text


@SLOW
@given(query=HOSTILE_TEXT, top_k=st.integers(min_value=-3, max_value=2000))
async def test_recall_answers_or_refuses_cleanly(
    fuzz_engine: MemoryEngine, query: str, top_k: int
) -> None:
    await fuzz_engine.remember(SCOPE, "I live in Berlin.")
    try:
        ranked = await fuzz_engine.recall(SCOPE, query, top_k=top_k)
    except AdkMemoryError:
        return
    assert all(m.record.scope == SCOPE for m in ranked)


@SLOW
@given(texts=st.lists(HOSTILE_TEXT, min_size=1, max_size=4), ids=st.lists(HOSTILE_ID, max_size=4))
async def test_ingest_keeps_the_good_events_of_a_hostile_batch(
    fuzz_engine: MemoryEngine, texts: list[str], ids: list[str]
) -> None:
    events: list[InputEvent] = []
    for index, text in enumerate(texts):
        event_id = ids[index] if index < len(ids) and ids[index] else f"e{index}"
        try:
            events.append(
                InputEvent(id=event_id, author="user", text=text, timestamp=T0 + timedelta(index))
            )
        except (ValidationError, AdkMemoryError):
            continue
    good = InputEvent(id="good-event", author="user", text="I'm allergic to peanuts.", timestamp=T0)
    result = await fuzz_engine.ingest(SCOPE, [*events, good])
    assert "good-event" not in {r.event_id for r in result.rejected}
    recalled = await fuzz_engine.recall(SCOPE, "What am I allergic to?")
    assert any("peanuts" in m.record.text for m in recalled)


@SLOW
@given(memory_id=HOSTILE_ID)
async def test_lookups_of_unknown_ids_are_not_found(
    fuzz_engine: MemoryEngine, memory_id: str
) -> None:
    for call in (fuzz_engine.get, fuzz_engine.forget, fuzz_engine.history):
        with pytest.raises(AdkMemoryError):
            await call(memory_id)  # type: ignore[operator]


@SLOW
@given(app=HOSTILE_ID, user=HOSTILE_ID)
async def test_hostile_scopes_are_refused_or_isolated(
    fuzz_engine: MemoryEngine, app: str, user: str
) -> None:
    try:
        scope = Scope(app_name=app, user_id=user)
    except (ValidationError, AdkMemoryError):
        return
    try:
        await fuzz_engine.remember(scope, "My cat is called Luna.")
    except AdkMemoryError:
        return
    ranked = await fuzz_engine.recall(scope, "cat")
    assert {m.record.scope for m in ranked} == {scope}
    assert await fuzz_engine.erase(scope) >= 1


def test_out_of_range_now_is_a_typed_error() -> None:
    with pytest.raises((AdkMemoryError, ValidationError, ValueError)):
        InputEvent(author="user", text="hi", timestamp=datetime(9999, 12, 31, 23, 59, tzinfo=UTC))
