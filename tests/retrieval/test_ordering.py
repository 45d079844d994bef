"""Same-question ordering: pure, on hand-made scored memories and unit vectors."""

from __future__ import annotations

from datetime import timedelta

import numpy as np

from adk_memory.model import Kind, Scope, ScoreBreakdown, ScoredMemory
from adk_memory.retrieval.ordering import OrderingConfig, current_first
from tests.helpers import T0, make_record

SCOPE = Scope(app_name="a", user_id="u")


def scored(text: str, score: float, day: int, **fields: object) -> ScoredMemory:
    record = make_record(SCOPE, text, days=day, **fields)  # type: ignore[arg-type]
    record = record.model_copy(update={"recorded_at": T0 + timedelta(days=day)})
    b = ScoreBreakdown(
        score=score, similarity=score, cosine=score, lexical=0, decay=1, confidence=1, age_days=0
    )
    return ScoredMemory(record=record, breakdown=b)


def unit(*values: float) -> np.ndarray:
    v = np.array(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_same_slot_answers_come_newest_first_and_are_marked() -> None:
    old = scored("User lives in Berlin.", 0.9, 1, predicate="lives_in", kind=Kind.PROFILE)
    other = scored("User likes tea.", 0.7, 5)
    new = scored("User lives in Munich.", 0.8, 9, predicate="lives_in", kind=Kind.PROFILE)
    vectors = np.stack([unit(1, 0), unit(0, 1), unit(1, 1)])
    ordered = current_first([old, other, new], vectors, OrderingConfig())
    assert [m.record.text for m in ordered] == [
        "User lives in Munich.",
        "User lives in Berlin.",
        "User likes tea.",
    ]
    assert [m.latest for m in ordered] == [True, False, None]
    last = current_first([old, other, new], vectors, OrderingConfig(earlier_last=True))
    assert [m.record.text for m in last] == [
        "User lives in Munich.",
        "User likes tea.",
        "User lives in Berlin.",
    ]


def test_near_identical_episodes_group_by_embedding() -> None:
    a = scored("I drive a Golf.", 0.9, 1)
    b = scored("I drive an e-bike now.", 0.85, 30)
    vectors = np.stack([unit(1, 0.2), unit(1, 0.3)])
    ordered = current_first([a, b], vectors, OrderingConfig())
    assert [m.record.text for m in ordered] == ["I drive an e-bike now.", "I drive a Golf."]


def test_unrelated_or_weak_memories_keep_their_rank() -> None:
    a = scored("I drive a Golf.", 0.9, 1)
    weak = scored("I drive to work on Mondays.", 0.3, 30)  # similar, but barely answers
    far = scored("My cat is Luna.", 0.8, 40)
    vectors = np.stack([unit(1, 0.2), unit(0, 1), unit(1, 0.25)])
    ordered = current_first([a, far, weak], vectors, OrderingConfig())
    assert [m.record.text for m in ordered] == [a.record.text, far.record.text, weak.record.text]
    assert all(m.latest is None for m in ordered)


def test_summaries_never_group() -> None:
    fact = scored("I moved to Munich.", 0.9, 1)
    summary = scored("Alice: lives in Munich; likes tea.", 0.85, 50, kind=Kind.SUMMARY)
    vectors = np.stack([unit(1, 0), unit(1, 0)])
    ordered = current_first([fact, summary], vectors, OrderingConfig())
    assert [m.record.text for m in ordered] == [fact.record.text, summary.record.text]


def test_grouping_can_be_turned_off() -> None:
    a, b = scored("I drive a Golf.", 0.9, 1), scored("I drive a bike.", 0.85, 30)
    vectors = np.stack([unit(1, 0), unit(1, 0)])
    assert current_first([a, b], vectors, OrderingConfig(enabled=False)) == [a, b]
