"""GeminiExtractor against the emulator through the real google-genai client."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from google import genai

from adk_memory.extraction.base import FactExtractor
from adk_memory.extraction.gemini import GeminiExtractor
from adk_memory.extraction.local import LocalExtractor
from adk_memory.google_api.gemini import GeminiSettings, RetryPolicy
from adk_memory.model import Decision, InputEvent, Kind, MemoryRecord, Scope
from adk_memory.reconcile.base import Candidate, ReconcileItem
from adk_memory.reconcile.gemini import GeminiClassifier
from tests.support.gemini import Admin

T0 = datetime(2026, 5, 10, 12, 0, tzinfo=UTC)


def event(id_: str, author: str, text: str, minutes: int = 0) -> InputEvent:
    return InputEvent(
        id=id_, author=author, text=text, timestamp=T0 + timedelta(minutes=minutes), session_id="s1"
    )


def conversation() -> list[InputEvent]:
    return [
        event("e1", "user", "I moved to Munich last month.", 0),
        event("e2", "memory_agent", "Nice! You live in Paris too, right?", 1),
        event("e3", "user", "I switched from Java to Go.", 2),
    ]


def fact(**fields: object) -> dict[str, object]:
    base: dict[str, object] = {
        "subject": "user",
        "predicate": "lives_in",
        "object": "Munich",
        "text": "User lives in Munich.",
        "kind": "profile",
        "polarity": True,
        "confidence": 0.9,
        "valid_at": "2026-05-10",
        "event_ids": ["e1"],
    }
    return base | fields


def test_is_a_fact_extractor(client: genai.Client, settings: GeminiSettings) -> None:
    assert isinstance(GeminiExtractor(client, settings=settings), FactExtractor)


async def test_extracts_with_event_ids_and_resolved_dates(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    result = await GeminiExtractor(client, settings=settings).extract(conversation())

    by_predicate = {f.predicate: f for f in result.facts}
    munich = by_predicate["lives_in"]
    assert munich.object == "Munich"
    assert munich.source.event_ids == ["e1"]
    assert munich.source.session_id == "s1"
    assert munich.valid_at.date() == (T0 - timedelta(days=30)).date()  # "last month"
    go = by_predicate["primary_language"]
    assert (go.object, go.replaces, go.source.event_ids) == ("Go", "java", ["e3"])
    # The agent's "Paris" is context, never a fact.
    assert all("Paris" not in f.text and "e2" not in f.source.event_ids for f in result.facts)
    assert result.fallback_event_ids == []
    assert result.usage.calls == 1
    assert result.usage.tokens == admin.stats()["total_tokens"] > 0


async def test_request_carries_ids_authors_timestamps_and_schema(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    await GeminiExtractor(client, settings=settings).extract(conversation())

    [logged] = admin.requests()
    assert logged["path"] == "/v1beta/models/gemini-2.5-flash:generateContent"
    body = logged["body"]
    config = body["generationConfig"]
    assert config["temperature"] == 0
    assert config["responseMimeType"] == "application/json"
    assert "facts" in config["responseSchema"]["properties"]
    assert "human speakers" in body["systemInstruction"]["parts"][0]["text"]
    prompt = body["contents"][0]["parts"][0]["text"]
    payload = json.loads(prompt.split("```json\n", 1)[1].rsplit("\n```", 1)[0])
    assert payload["events"][1] == {
        "id": "e2",
        "author": "memory_agent",
        "speaker": "agent",
        "timestamp": "2026-05-10T12:01:00+00:00",
        "text": "Nice! You live in Paris too, right?",
    }


async def test_keeps_only_citations_of_human_events_in_the_batch(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    admin.script(
        {
            "json": {
                "facts": [
                    fact(event_ids=["e1", "bogus"], valid_at="2026-04"),
                    fact(object="Paris", text="User lives in Paris.", event_ids=["e2"]),
                    fact(object="Rome", text="User lives in Rome.", event_ids=["ghost"]),
                    fact(
                        predicate="plans_to",
                        object="visit Oslo",
                        text="User plans to visit Oslo.",
                        valid_at="2027-01-01",
                        event_ids=["e3"],
                        confidence=1.7,
                        replaces="",
                        subject="User",
                    ),
                ]
            }
        }
    )
    result = await GeminiExtractor(client, settings=settings).extract(conversation())

    assert [f.text for f in result.facts] == ["User lives in Munich.", "User plans to visit Oslo."]
    munich, oslo = result.facts
    assert munich.source.event_ids == ["e1"]
    assert munich.valid_at == datetime(2026, 4, 1, tzinfo=UTC)
    # A date after the statement is pulled back to when it was said.
    assert oslo.valid_at == T0 + timedelta(minutes=2)
    assert (oslo.confidence, oslo.subject, oslo.replaces) == (1.0, "user", None)


async def test_agent_only_batch_makes_no_call(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    events = [event("a1", "memory_agent", "Hello! How can I help?")]
    result = await GeminiExtractor(client, settings=settings).extract(events)
    assert result.facts == [] and result.usage.calls == 0
    assert admin.stats()["generate_requests"] == 0


async def test_one_call_for_a_twenty_turn_batch(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    lines = [
        "I live in Berlin.",
        "Noted.",
        "I work as a nurse.",
        "Great.",
        "I love hiking.",
        "Where?",
        "Mostly in the Alps.",
        "Nice.",
        "I have a dog named Rex.",
        "Cute!",
        "I'm allergic to peanuts.",
        "I'll remember.",
        "My favorite color is green.",
        "OK.",
        "I speak German.",
        "Wunderbar.",
        "I'm learning Spanish.",
        "Good luck.",
        "I use Linux.",
        "Cool.",
    ]
    events = [
        event(f"t{i}", "user" if i % 2 == 0 else "memory_agent", text, i)
        for i, text in enumerate(lines)
    ]
    result = await GeminiExtractor(client, settings=settings).extract(events)

    assert len(events) == 20
    stats = admin.stats()
    assert stats["generate_requests"] == stats["generate_calls"] == 1
    assert result.usage.calls == 1
    assert result.usage.tokens == stats["total_tokens"]
    assert {"lives_in", "job_title", "allergic_to", "speaks"} <= {f.predicate for f in result.facts}

    # Classifying the whole batch against the store takes at most one more call.
    berlin = MemoryRecord(
        id="rec-berlin",
        scope=Scope(app_name="app", user_id="u1"),
        text="User lives in Hamburg.",
        subject="user",
        predicate="lives_in",
        object="Hamburg",
        kind=Kind.PROFILE,
        valid_at=T0 - timedelta(days=90),
        created_at=T0 - timedelta(days=90),
    )
    items = [
        ReconcileItem(fact=f, candidates=[Candidate(record=berlin, similarity=0.5)])
        for f in result.facts
    ]
    classified = await GeminiClassifier(client, settings=settings).classify(items)
    assert classified.usage.calls == 1
    assert admin.stats()["generate_calls"] == 2
    decisions = {
        f.predicate: v.decision for f, v in zip(result.facts, classified.verdicts, strict=True)
    }
    assert decisions["lives_in"] is Decision.REPLACE


async def test_malformed_once_is_retried_with_the_error(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    admin.faults(malformed=1)
    result = await GeminiExtractor(client, settings=settings).extract(conversation())

    assert result.fallback_event_ids == []
    assert result.usage.calls == 2
    assert {f.predicate for f in result.facts} == {"lives_in", "primary_language"}
    retry = admin.requests()[-1]["body"]["contents"]
    assert [c["role"] for c in retry] == ["user", "model", "user"]
    assert "did not validate" in retry[2]["parts"][0]["text"]


async def test_malformed_twice_falls_back_to_local(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    admin.faults(malformed=2)
    events = conversation()
    result = await GeminiExtractor(client, settings=settings).extract(events)

    assert result.fallback_event_ids == ["e1", "e2", "e3"]
    assert result.usage.calls == 2
    assert result.usage.tokens == admin.stats()["total_tokens"]
    local = await LocalExtractor().extract(events)
    assert [f.text for f in result.facts] == [f.text for f in local.facts]


async def test_transient_errors_are_retried(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    admin.faults(fail_statuses=[429, 503])
    result = await GeminiExtractor(client, settings=settings).extract(conversation())

    assert result.fallback_event_ids == []
    assert result.usage.calls == 1
    stats = admin.stats()
    assert (stats["generate_requests"], stats["generate_calls"]) == (3, 1)
    assert stats["faults_injected"] == 2


async def test_exhausted_retries_fall_back(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    admin.faults(fail_statuses=[503] * 10)
    retry = settings.retry.model_copy(update={"max_attempts": 3})
    extractor = GeminiExtractor(client, settings=settings.model_copy(update={"retry": retry}))
    result = await extractor.extract(conversation())

    assert result.fallback_event_ids == ["e1", "e2", "e3"]
    assert result.usage.calls == 0
    assert admin.stats()["generate_requests"] == 3
    assert result.facts


async def test_client_errors_are_not_retried(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    admin.script({"status": 400, "message": "bad request"})
    result = await GeminiExtractor(client, settings=settings).extract(conversation())
    assert result.fallback_event_ids == ["e1", "e2", "e3"]
    assert admin.stats()["generate_requests"] == 1


async def test_timeouts_are_retried_within_the_total_budget(
    client: genai.Client, admin: Admin
) -> None:
    admin.faults(latency_ms=400, methods=["generateContent"])
    # The budget leaves room for several timed-out attempts even on a loaded machine (0.5 s
    # allowed a single one under load); max_attempts bounds them.
    retry = RetryPolicy(
        max_attempts=5, max_total_seconds=1.5, initial_backoff=0.01, jitter=0, call_timeout=0.1
    )
    extractor = GeminiExtractor(client, settings=GeminiSettings(retry=retry))
    result = await extractor.extract(conversation())

    assert result.fallback_event_ids == ["e1", "e2", "e3"]
    assert 2 <= admin.stats()["generate_requests"] <= 5


@pytest.mark.parametrize("model", ["gemini-2.5-flash", "gemini-2.5-flash-lite"])
async def test_model_name_is_configurable(
    client: genai.Client, settings: GeminiSettings, admin: Admin, model: str
) -> None:
    extractor = GeminiExtractor(client, settings=settings.model_copy(update={"model": model}))
    await extractor.extract(conversation())
    assert admin.requests()[0]["path"] == f"/v1beta/models/{model}:generateContent"
