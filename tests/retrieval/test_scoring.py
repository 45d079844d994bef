from __future__ import annotations

import math
from datetime import timedelta

import pytest

from adk_memory.model import Kind, Scope
from adk_memory.retrieval.scoring import ScoringConfig, decay_factor, decay_rate, rerank
from adk_memory.stores.base import SearchHit
from tests.helpers import T0, make_record

SCOPE = Scope(app_name="a", user_id="u")


def test_decay_halves_every_half_life() -> None:
    assert decay_rate(30) == pytest.approx(math.log(2) / 30)
    assert decay_factor(30, 30) == pytest.approx(0.5)
    assert decay_factor(60, 30) == pytest.approx(0.25)
    assert decay_factor(1000, None) == 1.0


def test_score_is_product_of_components() -> None:
    record = make_record(SCOPE, "x", days=0, confidence=0.8)
    config = ScoringConfig(half_life_days=10, lexical_weight=0.0, kind_half_life_days={})
    [scored] = rerank(
        [SearchHit(record=record, cosine=0.5)], now=T0 + timedelta(days=10), k=1, config=config
    )
    b = scored.breakdown
    assert b.decay == pytest.approx(0.5)
    assert b.score == pytest.approx(0.5 * 0.5 * 0.8)
    assert b.age_days == pytest.approx(10)


def test_negative_cosine_never_scores_above_zero() -> None:
    record = make_record(SCOPE, "x")
    config = ScoringConfig(lexical_weight=0.0)
    [scored] = rerank([SearchHit(record=record, cosine=-0.4)], now=T0, k=1, config=config)
    assert scored.score == 0.0


def test_decay_breaks_ties_towards_recent_and_profile_facts_do_not_decay() -> None:
    old = make_record(SCOPE, "old", days=0)
    new = make_record(SCOPE, "new", days=300)
    profile = make_record(SCOPE, "profile", days=0, kind=Kind.PROFILE)
    now = T0 + timedelta(days=310)
    config = ScoringConfig(half_life_days=90, lexical_weight=0.0)
    ranked = rerank(
        [SearchHit(record=r, cosine=0.6) for r in (old, new, profile)], now=now, k=3, config=config
    )
    assert [m.record.text for m in ranked] == ["profile", "new", "old"]
    assert ranked[0].breakdown.decay == 1.0


def test_lexical_relevance_lifts_exact_term_matches() -> None:
    a = make_record(SCOPE, "a")
    b = make_record(SCOPE, "b")
    config = ScoringConfig(half_life_days=None, lexical_weight=0.5)
    ranked = rerank(
        [
            SearchHit(record=a, cosine=0.6, lexical=0.0),
            SearchHit(record=b, cosine=0.5, lexical=1.0),
        ],
        now=T0,
        k=2,
        config=config,
    )
    assert ranked[0].record.text == "b"


def test_future_valid_at_counts_as_fresh() -> None:
    record = make_record(SCOPE, "x", days=5)
    [scored] = rerank(
        [SearchHit(record=record, cosine=1.0)], now=T0, k=1, config=ScoringConfig(lexical_weight=0)
    )
    assert scored.breakdown.decay == 1.0
