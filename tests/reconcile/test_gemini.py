"""GeminiClassifier against the emulator through the real google-genai client."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from google import genai

from adk_memory.extraction.gemini import GeminiExtractor
from adk_memory.google_api.gemini import GeminiSettings
from adk_memory.model import Decision, Fact, InputEvent, Kind, MemoryRecord, Scope
from adk_memory.reconcile.base import Candidate, ContradictionClassifier, ReconcileItem
from adk_memory.reconcile.gemini import GeminiClassifier
from tests.support.gemini import Admin

T0 = datetime(2026, 5, 10, 12, 0, tzinfo=UTC)
SCOPE = Scope(app_name="app", user_id="u1")


def record(
    id_: str, predicate: str, obj: str, text: str, kind: Kind = Kind.PROFILE
) -> MemoryRecord:
    old = T0 - timedelta(days=100)
    return MemoryRecord(
        id=id_,
        scope=SCOPE,
        text=text,
        subject="user",
        predicate=predicate,
        object=obj,
        kind=kind,
        valid_at=old,
        created_at=old,
    )


def new_fact(predicate: str, obj: str, text: str, *, replaces: str | None = None) -> Fact:
    return Fact(
        subject="user",
        predicate=predicate,
        object=obj,
        text=text,
        kind=Kind.PROFILE,
        valid_at=T0,
        replaces=replaces,
    )


def item(fact: Fact, *candidates: tuple[MemoryRecord, float]) -> ReconcileItem:
    return ReconcileItem(
        fact=fact, candidates=[Candidate(record=r, similarity=s) for r, s in candidates]
    )


JAVA = record(
    "rec-java", "primary_language", "Java", "User mainly programs in Java.", Kind.PREFERENCE
)
BERLIN = record("rec-berlin", "lives_in", "Berlin", "User lives in Berlin.")
COFFEE = record("rec-coffee", "likes", "coffee", "User likes coffee.", Kind.PREFERENCE)


def test_is_a_contradiction_classifier(client: genai.Client, settings: GeminiSettings) -> None:
    assert isinstance(GeminiClassifier(client, settings=settings), ContradictionClassifier)


async def test_go_replaces_java_from_extracted_facts(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    events = [InputEvent(id="e1", author="user", text="I switched from Java to Go.", timestamp=T0)]
    extracted = await GeminiExtractor(client, settings=settings).extract(events)
    [go] = extracted.facts

    result = await GeminiClassifier(client, settings=settings).classify([item(go, (JAVA, 0.73))])

    [verdict] = result.verdicts
    assert (verdict.decision, verdict.target_ids) == (Decision.REPLACE, ["rec-java"])
    assert result.usage.calls == 1
    assert admin.stats()["calls_by_task"] == {"extract_facts": 1, "classify_facts": 1}


async def test_record_ids_never_reach_the_model(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    munich = new_fact("lives_in", "Munich", "User lives in Munich.")
    await GeminiClassifier(client, settings=settings).classify([item(munich, (BERLIN, 0.67))])

    body = json.dumps(admin.requests()[-1]["body"])
    assert "rec-berlin" not in body
    assert "User lives in Berlin." in body


async def test_semantics_through_the_emulator(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    items = [
        item(new_fact("lives_in", "Munich", "User lives in Munich."), (BERLIN, 0.67)),
        item(
            new_fact("likes", "tea", "User likes tea.").model_copy(
                update={"kind": Kind.PREFERENCE}
            ),
            (COFFEE, 0.71),
        ),
        item(new_fact("lives_in", "Berlin", "User lives in Berlin."), (BERLIN, 0.99)),
    ]
    result = await GeminiClassifier(client, settings=settings).classify(items)

    assert [(v.decision, v.target_ids) for v in result.verdicts] == [
        (Decision.REPLACE, ["rec-berlin"]),
        (Decision.ADD, []),
        (Decision.NOOP, ["rec-berlin"]),
    ]
    assert admin.stats()["generate_calls"] == 1


async def test_skips_the_call_when_no_candidate_is_close(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    items = [
        item(new_fact("lives_in", "Munich", "User lives in Munich."), (COFFEE, 0.12)),
        item(new_fact("has_pet", "dog", "User has a dog.")),
    ]
    result = await GeminiClassifier(client, settings=settings).classify(items)

    assert [v.decision for v in result.verdicts] == [Decision.ADD, Decision.ADD]
    assert result.usage.calls == 0
    assert admin.stats()["generate_requests"] == 0


async def test_only_close_facts_and_candidates_are_sent(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    items = [
        item(new_fact("has_pet", "dog", "User has a dog."), (COFFEE, 0.1)),
        item(new_fact("lives_in", "Munich", "User lives in Munich."), (COFFEE, 0.2), (BERLIN, 0.6)),
    ]
    classifier = GeminiClassifier(client, settings=settings, min_similarity=0.5)
    result = await classifier.classify(items)

    assert [(v.decision, v.target_ids) for v in result.verdicts] == [
        (Decision.ADD, []),
        (Decision.REPLACE, ["rec-berlin"]),
    ]
    prompt = admin.requests()[-1]["body"]["contents"][0]["parts"][0]["text"]
    payload = json.loads(prompt.split("```json\n", 1)[1].rsplit("\n```", 1)[0])
    [sent] = payload["facts"]
    assert sent["number"] == 1 and sent["new_fact"]["object"] == "Munich"
    assert [c["text"] for c in sent["candidates"]] == ["User lives in Berlin."]


async def test_scripted_numbers_map_back_and_are_sanitised(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    admin.script(
        {
            "json": {
                "verdicts": [
                    {"fact": 2, "decision": "REPLACE", "candidates": [7], "reason": "bad number"},
                    {"fact": 1, "decision": "NOOP", "candidates": [2], "reason": "restated"},
                ]
            }
        }
    )
    items = [
        item(new_fact("likes", "coffee", "User likes coffee."), (BERLIN, 0.4), (COFFEE, 0.95)),
        item(new_fact("lives_in", "Munich", "User lives in Munich."), (BERLIN, 0.67)),
    ]
    result = await GeminiClassifier(client, settings=settings).classify(items)

    assert [(v.decision, v.target_ids) for v in result.verdicts] == [
        (Decision.NOOP, ["rec-coffee"]),
        (Decision.ADD, []),
    ]


async def test_missing_verdict_is_retried_once(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    admin.script(
        {"json": {"verdicts": []}},
        {
            "json": {
                "verdicts": [
                    {"fact": 1, "decision": "REPLACE", "candidates": [1], "reason": "moved"}
                ]
            }
        },
    )
    munich = item(new_fact("lives_in", "Munich", "User lives in Munich."), (BERLIN, 0.67))
    result = await GeminiClassifier(client, settings=settings).classify([munich])

    assert result.verdicts[0].target_ids == ["rec-berlin"]
    assert result.usage.calls == 2
    assert "no verdict for facts [1]" in json.dumps(admin.requests()[-1]["body"])


async def test_malformed_twice_falls_back_to_local(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    admin.script({"text": '{"verdicts": [{"fact": 1,'}, {"text": "not json"})
    munich = item(new_fact("lives_in", "Munich", "User lives in Munich."), (BERLIN, 0.67))
    result = await GeminiClassifier(client, settings=settings).classify([munich])

    assert (result.verdicts[0].decision, result.verdicts[0].target_ids) == (
        Decision.REPLACE,
        ["rec-berlin"],
    )
    assert result.usage.calls == 2


async def test_retries_429_then_succeeds(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    admin.faults(fail_statuses=[429, 503])
    munich = item(new_fact("lives_in", "Munich", "User lives in Munich."), (BERLIN, 0.67))
    result = await GeminiClassifier(client, settings=settings).classify([munich])
    assert result.verdicts[0].decision is Decision.REPLACE
    assert admin.stats()["generate_requests"] == 3


async def test_same_slot_candidates_are_sent_whatever_their_similarity(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    go = new_fact("primary_language", "Go", "User mainly programs in Go.", replaces="java")
    result = await GeminiClassifier(client, settings=settings).classify([item(go, (JAVA, 0.0))])

    assert (result.verdicts[0].decision, result.verdicts[0].target_ids) == (
        Decision.REPLACE,
        ["rec-java"],
    )
    assert admin.stats()["calls_by_task"] == {"classify_facts": 1}


async def test_a_replace_never_supersedes_a_record_that_says_several_things(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    # The model may judge "moved to Munich" to update the whole record; superseded, the
    # record would take Siemens with it.
    household = record(
        "rec-household",
        "lives_in",
        "Berlin",
        "User: I live in Berlin with my wife and we both work at Siemens.",
    )
    admin.script(
        {
            "json": {
                "verdicts": [
                    {"fact": 1, "decision": "REPLACE", "candidates": [1, 2], "reason": "moved"}
                ]
            }
        }
    )
    munich = item(
        new_fact("lives_in", "Munich", "User lives in Munich."), (household, 0.7), (BERLIN, 0.67)
    )
    result = await GeminiClassifier(client, settings=settings).classify([munich])

    [verdict] = result.verdicts
    assert (verdict.decision, verdict.target_ids) == (Decision.REPLACE, ["rec-berlin"])

    admin.script(
        {
            "json": {
                "verdicts": [
                    {"fact": 1, "decision": "REPLACE", "candidates": [1], "reason": "moved"}
                ]
            }
        }
    )
    alone = item(new_fact("lives_in", "Munich", "User lives in Munich."), (household, 0.7))
    [verdict] = (await GeminiClassifier(client, settings=settings).classify([alone])).verdicts
    assert (verdict.decision, verdict.target_ids) == (Decision.ADD, [])
    assert "says several things" in verdict.reason
