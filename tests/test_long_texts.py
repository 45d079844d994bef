"""A long pasted text between two facts: both facts kept, the text kept as bounded excerpts
that cite their event and are findable by a phrase inside them (engine and ADK service)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from google.adk.events.event import Event
from google.adk.sessions.session import Session
from google.genai import types

from adk_memory.adk.service import AdkMemoryService
from adk_memory.engine import MemoryEngine
from adk_memory.factory import build_engine
from adk_memory.model import MAX_TEXT_CHARS, InputEvent, Scope
from adk_memory.stores.sqlite.store import SqliteStore

SCOPE = Scope(app_name="app", user_id="u")
T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
NEEDLE = "checksum mismatch on shard 7f3a"


def pasted_log(chars: int = 50_000) -> str:
    lines = []
    i = 0
    while sum(len(line) + 1 for line in lines) < chars:
        lines.append(
            f"2026-03-01T09:{i // 60 % 60:02d}:{i % 60:02d} INFO worker-{i % 9} step {i} ok"
        )
        i += 1
    lines.insert(len(lines) // 2, f"2026-03-01T09:30:00 ERROR {NEEDLE}, retrying")
    return "\n".join(lines)


async def _check(engine: MemoryEngine) -> None:
    home = await engine.recall(SCOPE, "Where do I live?")
    assert "Lisbon" in home[0].record.text
    allergy = await engine.recall(SCOPE, "What am I allergic to?")
    assert "peanuts" in allergy[0].record.text
    found = await engine.recall(SCOPE, NEEDLE)
    assert NEEDLE in found[0].record.text
    records = (await engine.list(SCOPE, limit=1000)).records
    assert all(len(r.text) <= MAX_TEXT_CHARS for r in records)
    excerpts = [r for r in records if r.source.event_ids == ["log"]]
    assert len(excerpts) > 1


async def test_engine_keeps_a_pasted_log_bounded_between_two_facts(tmp_path: Path) -> None:
    store = await SqliteStore(tmp_path / "m.db").open()
    engine = build_engine(store, clock=lambda: T0 + timedelta(hours=1))
    try:
        result = await engine.ingest(
            SCOPE,
            [
                InputEvent(id="home", author="user", text="I live in Lisbon.", timestamp=T0),
                InputEvent(id="log", author="user", text=pasted_log(), timestamp=T0),
                InputEvent(
                    id="allergy", author="user", text="I'm allergic to peanuts.", timestamp=T0
                ),
            ],
        )
        assert result.rejected == [] and result.events_ingested == 3
        await _check(engine)
    finally:
        await engine.close()


def _event(event_id: str, text: str) -> Event:
    return Event(
        id=event_id,
        invocation_id="inv",
        author="user",
        timestamp=T0.timestamp(),
        content=types.Content(role="user", parts=[types.Part(text=text)]),
    )


async def test_service_saves_the_whole_session_around_a_pasted_log(tmp_path: Path) -> None:
    store = await SqliteStore(tmp_path / "m.db").open()
    engine = build_engine(store, clock=lambda: T0 + timedelta(hours=1))
    service = AdkMemoryService(engine)
    session = Session(
        id="s1",
        app_name=SCOPE.app_name,
        user_id=SCOPE.user_id,
        events=[
            _event("home", "I live in Lisbon."),
            _event("log", pasted_log(46_000)),
            _event("allergy", "I'm allergic to peanuts."),
        ],
    )
    try:
        await service.add_session_to_memory(session)
        response = await service.search_memory(
            app_name=SCOPE.app_name, user_id=SCOPE.user_id, query="What am I allergic to?"
        )
        assert any("peanuts" in (m.content.parts or [])[0].text for m in response.memories)
        await _check(engine)
    finally:
        await service.close()
