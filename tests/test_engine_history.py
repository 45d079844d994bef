"""The engine's time logic, batch reconciliation, idempotent re-runs, forget and erase,
through its public API on the embedded default store."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from adk_memory.engine import MemoryEngine
from adk_memory.extraction.base import Usage
from adk_memory.factory import build_engine
from adk_memory.model import Decision, InputEvent, MemoryRecord, Scope, Status, Verdict
from adk_memory.reconcile.base import ClassificationResult, ReconcileItem
from adk_memory.reconcile.local import LocalClassifier
from adk_memory.stores.sqlite.store import SqliteStore
from tests.helpers import T0, FixedClock

ALICE = Scope(app_name="app", user_id="alice")


def _event(text: str, days: float, event_id: str, author: str = "user") -> InputEvent:
    return InputEvent(
        id=event_id,
        author=author,
        text=text,
        timestamp=T0 + timedelta(days=days),
        session_id=f"s{int(days)}",
    )


async def test_moved_last_week_supersedes_a_home_stated_days_before(
    engine: MemoryEngine,
) -> None:
    """Munich's valid_at resolves to before Berlin's statement; it was stated after, so it
    is the current value (issue: time logic lost this update)."""
    await engine.ingest(ALICE, [_event("I live in Berlin.", 0, "e1")])
    result = await engine.ingest(ALICE, [_event("I moved to Munich last week.", 3, "e2")])
    [outcome] = [o for o in result.outcomes if "Munich" in o.text]
    assert outcome.decision is Decision.REPLACE
    assert outcome.status is Status.ACTIVE
    munich = await engine.get(outcome.id)
    assert munich.valid_at < T0 + timedelta(days=3)
    assert munich.stated_at == T0 + timedelta(days=3)
    ranked = await engine.recall(ALICE, "Where do I live?", now=T0 + timedelta(days=4))
    assert "Munich" in ranked[0].record.text
    assert all("Berlin" not in m.record.text for m in ranked)


@pytest.mark.parametrize(
    ("update", "new"),
    [
        ("I moved to Munich three weeks ago.", "Munich"),
        ("I relocated to Munich a month ago, love it.", "Munich"),
    ],
)
async def test_a_move_dated_ago_supersedes_and_dates_the_new_home(
    engine: MemoryEngine, update: str, new: str
) -> None:
    """ "Ago" dates the start of what holds now; "I lived in Munich two years ago" is the past."""
    await engine.ingest(ALICE, [_event("I live in Berlin.", 0, "e1")])
    result = await engine.ingest(ALICE, [_event(update, 30, "e2")])
    [outcome] = [o for o in result.outcomes if new in o.text]
    assert outcome.decision is Decision.REPLACE
    # Dated when the move happened, weeks before it was said.
    moved = await engine.get(outcome.id)
    assert moved.valid_at <= T0 + timedelta(days=30 - 21)
    ranked = await engine.recall(ALICE, "Where do I live?", now=T0 + timedelta(days=31))
    assert new in ranked[0].record.text


async def test_a_past_home_dated_ago_supersedes_nothing(engine: MemoryEngine) -> None:
    first = await engine.ingest(ALICE, [_event("I live in Berlin.", 0, "e1")])
    await engine.ingest(ALICE, [_event("I lived in Munich two years ago.", 30, "e2")])
    [berlin] = first.outcomes
    assert (await engine.get(berlin.id)).status is Status.ACTIVE


async def test_a_late_arriving_older_statement_is_kept_as_history(engine: MemoryEngine) -> None:
    await engine.ingest(ALICE, [_event("I live in Munich.", 10, "e2")])
    result = await engine.ingest(ALICE, [_event("I live in Berlin.", 1, "e1")])
    [outcome] = result.outcomes
    assert outcome.status is Status.SUPERSEDED
    stored = await engine.get(outcome.id)
    assert stored.status is Status.SUPERSEDED
    ranked = await engine.recall(ALICE, "Where do I live?", now=T0 + timedelta(days=11))
    assert "Munich" in ranked[0].record.text


class RecordingClassifier:
    """A real classifier (the local one) that also records what it was shown."""

    def __init__(self) -> None:
        self.inner = LocalClassifier()
        self.seen: list[ReconcileItem] = []

    async def classify(self, items: Sequence[ReconcileItem]) -> ClassificationResult:
        self.seen += items
        return await self.inner.classify(items)


async def test_the_configured_classifier_sees_earlier_facts_of_the_same_batch(
    tmp_path: Path,
) -> None:
    classifier = RecordingClassifier()
    store = await SqliteStore(tmp_path / "m.db").open()
    engine = build_engine(store, classifier=classifier, clock=FixedClock(T0 + timedelta(days=5)))
    try:
        result = await engine.ingest(
            ALICE,
            [_event("I live in Berlin.", 1, "e1"), _event("Actually I moved to Munich.", 2, "e2")],
        )
        second = classifier.seen[1]
        assert any("Berlin" in c.record.text for c in second.candidates)
        assert [o.decision for o in result.outcomes] == [Decision.ADD, Decision.REPLACE]
        active = (await engine.list(ALICE, statuses=[Status.ACTIVE])).records
        assert [r.object for r in active if r.predicate] == ["Munich"]
    finally:
        await engine.close()


class AddEverything:
    """A classifier that never supersedes: the engine must not apply a rule of its own."""

    async def classify(self, items: Sequence[ReconcileItem]) -> ClassificationResult:
        return ClassificationResult(
            verdicts=[Verdict(decision=Decision.ADD) for _ in items], usage=Usage()
        )


async def test_no_local_rule_overrides_the_configured_classifier(tmp_path: Path) -> None:
    store = await SqliteStore(tmp_path / "m.db").open()
    engine = build_engine(store, classifier=AddEverything(), clock=FixedClock(T0))
    try:
        result = await engine.ingest(
            ALICE, [_event("I live in Berlin.", 1, "e1"), _event("I live in Munich.", 2, "e2")]
        )
        assert [o.decision for o in result.outcomes] == [Decision.ADD, Decision.ADD]
        assert len((await engine.list(ALICE, statuses=[Status.ACTIVE])).records) == 2
    finally:
        await engine.close()


async def test_current_value_comes_first_even_when_replace_missed(tmp_path: Path) -> None:
    """Two active answers to one question (the classifier kept both): the one stated last
    comes first and the pair is marked latest / earlier."""
    store = await SqliteStore(tmp_path / "m.db").open()
    engine = build_engine(store, classifier=AddEverything(), clock=FixedClock(T0))
    try:
        await engine.ingest(ALICE, [_event("I live in Munich.", 90, "e2")])
        await engine.ingest(ALICE, [_event("I live in Berlin.", 120, "e1")])
        ranked = await engine.recall(ALICE, "Where do I live?", now=T0 + timedelta(days=121))
        assert "Berlin" in ranked[0].record.text and ranked[0].latest is True
        assert "Munich" in ranked[1].record.text and ranked[1].latest is False
    finally:
        await engine.close()


class CrashBeforeMarking:
    """The sqlite store, dying once right before an ingest marks its events seen (as a
    process killed between writing facts and finishing the batch would)."""

    def __init__(self, inner: SqliteStore) -> None:
        self.inner = inner
        self.armed = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def mark_events_seen(self, scope: Scope, event_ids: Sequence[str]) -> None:
        if self.armed:
            self.armed = False
            raise RuntimeError("killed")
        await self.inner.mark_events_seen(scope, event_ids)


def _state(records: Sequence[MemoryRecord]) -> dict[str, tuple[object, ...]]:
    return {r.id: (r.status, r.confidence, tuple(r.source.event_ids)) for r in records}


async def test_rerunning_an_interrupted_batch_changes_nothing(tmp_path: Path) -> None:
    store = CrashBeforeMarking(await SqliteStore(tmp_path / "m.db").open())
    engine = build_engine(store, clock=FixedClock(T0 + timedelta(days=9)))  # type: ignore[arg-type]
    try:
        await engine.ingest(ALICE, [_event("I live in Berlin.", 1, "e1")])
        batch = [
            _event("I live in Berlin, as I said.", 2, "e2"),
            _event("I moved to Munich.", 3, "e3"),
            _event("I love hiking in the Alps.", 3, "e4"),
        ]
        store.armed = True
        with pytest.raises(RuntimeError):
            await engine.ingest(ALICE, batch)
        crashed = _state((await engine.list(ALICE, limit=100)).records)
        rerun = await engine.ingest(ALICE, batch)
        assert rerun.events_ingested == 3
        assert _state((await engine.list(ALICE, limit=100)).records) == crashed
        active = (await engine.list(ALICE, statuses=[Status.ACTIVE], limit=100)).records
        assert [r.object for r in active if r.predicate == "lives_in"] == ["Munich"]
    finally:
        await engine.close()


async def test_forgetting_the_current_value_brings_the_previous_one_back(
    engine: MemoryEngine, clock: FixedClock
) -> None:
    berlin = await engine.remember(ALICE, "I live in Berlin.")
    clock.advance(5)
    munich = await engine.remember(ALICE, "I moved to Munich.")
    assert munich.superseded == [berlin.id]
    await engine.forget(munich.id)
    restored = await engine.get(berlin.id)
    assert restored.status is Status.ACTIVE and restored.superseded_by is None
    assert [r.id for r in await engine.history(berlin.id)] == [berlin.id]


async def test_forgetting_a_middle_value_relinks_its_history(
    engine: MemoryEngine, clock: FixedClock
) -> None:
    berlin = await engine.remember(ALICE, "I live in Berlin.")
    clock.advance(5)
    munich = await engine.remember(ALICE, "I moved to Munich.")
    clock.advance(5)
    hamburg = await engine.remember(ALICE, "I moved to Hamburg.")
    await engine.forget(munich.id)
    old = await engine.get(berlin.id)
    assert old.status is Status.SUPERSEDED and old.superseded_by == hamburg.id
    assert [r.id for r in await engine.history(hamburg.id)] == [berlin.id, hamburg.id]


async def test_an_invalid_event_is_left_out_and_its_neighbours_ingested(
    engine: MemoryEngine,
) -> None:
    result = await engine.ingest(
        ALICE,
        [
            _event("I live in Lisbon.", 1, "e1"),
            _event("bad \x00 bytes", 1, "e2"),
            _event("I'm allergic to peanuts.", 1, "e3"),
        ],
    )
    assert [r.event_id for r in result.rejected] == ["e2"]
    texts = " ".join(r.text for r in (await engine.list(ALICE, limit=100)).records)
    assert "Lisbon" in texts and "peanuts" in texts


async def test_erase_removes_every_record_of_the_scope_only(engine: MemoryEngine) -> None:
    bob = Scope(app_name="app", user_id="bob")
    berlin = await engine.remember(ALICE, "I live in Berlin.")
    await engine.remember(ALICE, "I moved to Munich.")
    await engine.remember(bob, "I live in Oslo.")
    assert await engine.erase(ALICE) == 2
    assert (await engine.list(ALICE, limit=100)).records == []
    assert await engine.store.get(berlin.id) is None
    assert len((await engine.list(bob)).records) == 1
    assert await engine.erase(ALICE) == 0


async def test_a_query_naming_the_user_by_id_scores_like_a_first_person_one(
    engine: MemoryEngine,
) -> None:
    await engine.remember(ALICE, "I live in Berlin.")
    await engine.remember(ALICE, "I'm allergic to peanuts.")
    by_name = await engine.recall(ALICE, "Where does alice live?")
    first_person = await engine.recall(ALICE, "Where do I live?")
    assert "Berlin" in by_name[0].record.text
    assert by_name[0].score >= 0.8 * first_person[0].score


async def test_a_user_id_that_is_a_word_does_not_rewrite_queries(engine: MemoryEngine) -> None:
    """For the user "me", "Tell me about my car" is searched as said: it scores exactly as
    it does for a user whose id is no word."""
    scores = []
    for user_id in ("me", "u-17"):
        scope = Scope(app_name="app", user_id=user_id)
        await engine.remember(scope, "My car is a red Mazda.")
        [hit] = await engine.recall(scope, "Tell me about my car")
        scores.append(hit.breakdown.similarity)
    assert scores[0] == scores[1]
