"""The memory service through a real ADK Runner with an offline model."""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from pathlib import Path

import pytest
from google.adk.agents.llm_agent import LlmAgent
from google.adk.apps.app import App
from google.adk.events.event import Event
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import Runner
from google.adk.sessions.in_memory_session_service import InMemorySessionService
from google.adk.sessions.session import Session
from google.adk.tools.load_memory_tool import load_memory_tool
from google.genai import types

from adk_memory.adk.service import AdkMemoryService
from adk_memory.errors import InvalidInputError, NotFoundError
from adk_memory.model import Scope

APP = "shop"
USER = "alice"


class RecallingLlm(BaseLlm):
    """Offline model: on "what do you remember about X" it calls load_memory(X) and then
    answers with what the tool returned; otherwise it acknowledges."""

    model: str = "recalling-test-llm"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1]
        parts = last.parts or []
        tool_result = next((p.function_response for p in parts if p.function_response), None)
        if tool_result is not None:
            result = (tool_result.response or {}).get("result")
            memories = getattr(result, "memories", [])
            texts = [p.text for m in memories for p in (m.content.parts or []) if p.text]
            yield LlmResponse(
                content=types.Content(role="model", parts=[types.Part(text=" | ".join(texts))])
            )
            return
        text = " ".join(p.text for p in parts if p.text)
        marker = "what do you remember about "
        if marker in text.lower():
            topic = text.lower().split(marker, 1)[1].strip(" ?")
            call = types.FunctionCall(name="load_memory", args={"query": topic})
            yield LlmResponse(
                content=types.Content(role="model", parts=[types.Part(function_call=call)])
            )
            return
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text="Noted.")]))


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[AdkMemoryService]:
    svc = AdkMemoryService(store_uri=f"adkmem+sqlite:///{tmp_path}/memory.db")
    yield svc
    await svc.close()


def _runner(service: AdkMemoryService, sessions: InMemorySessionService) -> Runner:
    agent = LlmAgent(name="assistant", model=RecallingLlm(), tools=[load_memory_tool])
    app = App(name=APP, root_agent=agent)
    return Runner(app=app, session_service=sessions, memory_service=service)


async def _turn(runner: Runner, session_id: str, text: str) -> str:
    reply = ""
    message = types.Content(role="user", parts=[types.Part(text=text)])
    async for event in runner.run_async(user_id=USER, session_id=session_id, new_message=message):
        if event.content and event.content.parts:
            reply += "".join(p.text or "" for p in event.content.parts)
    return reply


async def test_session_saved_then_recalled_through_load_memory(service: AdkMemoryService) -> None:
    sessions = InMemorySessionService()
    runner = _runner(service, sessions)
    first = await sessions.create_session(app_name=APP, user_id=USER)
    await _turn(runner, first.id, "I live in Berlin and I mostly write Java at work.")
    await _turn(runner, first.id, "We just migrated everything from Java to Go.")
    saved = await sessions.get_session(app_name=APP, user_id=USER, session_id=first.id)
    assert saved is not None
    await service.add_session_to_memory(saved)

    second = await sessions.create_session(app_name=APP, user_id=USER)
    answer = await _turn(runner, second.id, "What do you remember about my programming language?")
    assert "Go" in answer
    assert "Java at work" not in answer  # the superseded fact is never returned


async def test_search_memory_entries_carry_ids_and_scores(service: AdkMemoryService) -> None:
    await service.add_memory(
        app_name=APP,
        user_id=USER,
        memories=[
            MemoryEntry(
                content=types.Content(parts=[types.Part(text="I'm allergic to peanuts.")]),
                author="user",
                timestamp="2026-03-01T10:00:00+00:00",
            )
        ],
    )
    response = await service.search_memory(app_name=APP, user_id=USER, query="allergies")
    [entry] = response.memories
    assert entry.id and entry.author == "user"
    assert entry.timestamp == "2026-03-01T10:00:00+00:00"
    meta = entry.custom_metadata
    assert {"score", "similarity", "decay", "confidence"} <= set(meta)
    assert meta["score"] == pytest.approx(meta["similarity"] * meta["decay"] * meta["confidence"])
    other = await service.search_memory(app_name=APP, user_id="bob", query="allergies")
    assert other.memories == []


async def test_add_events_delta_and_delete(service: AdkMemoryService) -> None:
    sessions = InMemorySessionService()
    runner = _runner(service, sessions)
    session = await sessions.create_session(app_name=APP, user_id=USER)
    await _turn(runner, session.id, "My favorite color is green.")
    saved = await sessions.get_session(app_name=APP, user_id=USER, session_id=session.id)
    assert saved is not None
    await service.add_events_to_memory(
        app_name=APP, user_id=USER, events=saved.events, session_id=saved.id
    )
    result = await service.ingest_events(
        app_name=APP, user_id=USER, events=saved.events, session_id=saved.id
    )
    assert result.events_skipped >= 1 and result.outcomes == []  # a delta is never re-ingested
    [entry] = (await service.search_memory(app_name=APP, user_id=USER, query="color")).memories
    with pytest.raises(NotFoundError):
        await service.delete_memory(app_name=APP, user_id="bob", memory_id=entry.id)
    await service.delete_memory(app_name=APP, user_id=USER, memory_id=entry.id)
    assert (await service.search_memory(app_name=APP, user_id=USER, query="color")).memories == []
    with pytest.raises(InvalidInputError):
        await service.delete_memory(app_name=APP, user_id=USER)


async def test_search_never_fails_the_turn(tmp_path: Path) -> None:
    broken = AdkMemoryService(store_uri=f"adkmem+sqlite:///{tmp_path}")  # a directory: unusable
    response = await broken.search_memory(app_name=APP, user_id=USER, query="anything")
    assert response.memories == []


def said(text: str, *, timestamp: float | None = None) -> Event:
    event = Event(author="user", content=types.Content(role="user", parts=[types.Part(text=text)]))
    if timestamp is not None:
        event.timestamp = timestamp
    return event


async def texts(service: AdkMemoryService, user: str = USER) -> list[str]:
    page = await (await service.engine()).list(Scope(app_name=APP, user_id=user))
    return sorted(r.text for r in page.records)


async def test_a_pasted_log_never_costs_the_facts_around_it(service: AdkMemoryService) -> None:
    log = "\n".join(f"2026-03-01 10:00:{i % 60:02d} INFO worker {i} ok" for i in range(1500))
    assert len(log) > 46_000
    session = Session(
        id="s1",
        app_name=APP,
        user_id=USER,
        events=[said("I live in Lisbon."), said(log), said("I'm allergic to peanuts.")],
    )

    await service.add_session_to_memory(session)

    stored = " ".join(await texts(service))
    assert "Lisbon" in stored and "peanuts" in stored


async def test_an_event_that_cannot_be_stored_is_left_out_and_counted(
    service: AdkMemoryService, caplog: pytest.LogCaptureFixture
) -> None:
    bad = said("I was born in the year ten thousand.", timestamp=1e20)
    events = [said("I live in Lisbon."), bad, said("I work at Acme.")]

    with caplog.at_level(logging.WARNING, logger="adk_memory"):
        result = await service.ingest_events(
            app_name=APP, user_id=USER, events=events, session_id="s1"
        )

    assert result.events_ingested == 2
    assert service.stats.invalid_events == 1
    assert f"left out event {bad.id}" in caplog.text
    stored = await texts(service)
    assert len(stored) == 2 and "Lisbon" in stored[0] + stored[1] and "Acme" in " ".join(stored)


async def test_a_failing_search_is_logged_and_counted(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    broken = AdkMemoryService(store_uri=f"adkmem+sqlite:///{tmp_path}")  # a directory
    with caplog.at_level(logging.WARNING, logger="adk_memory"):
        response = await broken.search_memory(app_name=APP, user_id=USER, query="anything")
    assert response.memories == []
    assert broken.stats.search_failures == 1
    assert "memory search failed" in caplog.text


async def test_erase_user_removes_their_memories_and_their_pending_saves(
    service: AdkMemoryService, tmp_path: Path
) -> None:
    from adk_memory.adk.autosave import SaveQueue
    from adk_memory.adk.outbox import Outbox

    await service.add_memory(
        app_name=APP,
        user_id=USER,
        memories=[MemoryEntry(content=types.Content(parts=[types.Part(text="I like tea.")]))],
    )
    await service.add_memory(
        app_name=APP,
        user_id="bob",
        memories=[MemoryEntry(content=types.Content(parts=[types.Part(text="I like jazz.")]))],
    )
    queue = SaveQueue(debounce_s=60, outbox=Outbox(tmp_path / "outbox.db"))
    service.track_pending_saves(queue)
    queue.submit(
        service, app_name=APP, user_id=USER, session_id="s9", events=[said("I live in Rome.")]
    )

    erased = await service.erase_user(app_name=APP, user_id=USER)
    await queue.close(1.0)  # would write a pending save of the erased user

    assert erased == 1
    assert await texts(service) == []
    assert (await service.search_memory(app_name=APP, user_id=USER, query="tea")).memories == []
    assert await texts(service, "bob") == ["I like jazz."]


async def test_an_event_the_engine_rejects_is_found_and_the_rest_ingested(tmp_path: Path) -> None:
    from adk_memory.engine import MemoryEngine
    from adk_memory.errors import InvalidInputError as Invalid
    from adk_memory.factory import build_engine
    from adk_memory.model import IngestResult, InputEvent
    from adk_memory.stores.sqlite.store import SqliteStore

    class PickyEngine(MemoryEngine):
        """Rejects a whole batch holding a poisoned event, without saying which one."""

        async def ingest(self, scope: Scope, events: Sequence[InputEvent]) -> IngestResult:
            if any("POISON" in e.text for e in events):
                raise Invalid("batch rejected")
            return await super().ingest(scope, events)

    base = build_engine(await SqliteStore(tmp_path / "m.db").open())
    engine = PickyEngine(
        base.store, embedder=base.embedder, extractor=base.extractor, classifier=base.classifier
    )
    service = AdkMemoryService(engine)
    events = [
        said("I live in Lisbon."),
        said("I work at Acme."),
        said("POISON"),
        said("I am allergic to peanuts."),
        said("My dog is called Pixel."),
    ]
    try:
        result = await service.ingest_events(app_name=APP, user_id=USER, events=events)
        stored = " ".join(await texts(service))
    finally:
        await service.close()

    assert result.events_ingested == 4 and service.stats.invalid_events == 1
    assert all(word in stored for word in ("Lisbon", "Acme", "peanuts", "Pixel"))
