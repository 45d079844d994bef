"""Smoke test of the knowledge-update benchmark: the data loads, validates, and runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.bench_updates import (
    HELD_OUT,
    SPLITS,
    Case,
    CaseResult,
    PathRun,
    SuiteError,
    as_json,
    conversation,
    load_suite,
    mentions,
    metrics,
    render,
    run_cases,
    validate,
)


def test_both_splits_load_with_the_sizes_the_issue_asks() -> None:
    suite = load_suite("all")
    by_kind = {k: [c for c in suite.cases if c.kind == k] for k in ("update", "compatible", "keep")}
    assert len(by_kind["update"]) >= 150
    assert len(by_kind["compatible"]) >= 60
    assert len(by_kind["keep"]) >= 60
    assert len({c.domain for c in by_kind["update"]}) >= 20
    assert {c.split for c in suite.cases} == set(SPLITS)


def test_sessions_are_deterministic_and_the_statement_sits_among_filler() -> None:
    suite = load_suite("dev")
    case = suite.cases[0]
    one, two = conversation(case, suite.filler["dev"]), conversation(case, suite.filler["dev"])
    assert one == two
    texts = {e.id: e.text for s in one.sessions for e in s}
    assert texts[one.first_id] == case.before and texts[one.second_id] == case.after
    assert all(len(s) >= 4 for s in (one.sessions[0], one.sessions[-1]))
    assert {e.author for s in one.sessions for e in s} == {"user", "model"}
    assert one.now > one.sessions[-1][-1].timestamp


def test_validation_rejects_a_value_missing_from_its_statement() -> None:
    suite = load_suite("dev")
    bad = Case(
        id="u-bad",
        kind="update",
        domain="home",
        form="explicit",
        gap_days=3,
        before="I live in Berlin.",
        after="I moved to Munich.",
        probe="Where do I live?",
        old=("Hamburg",),
        new=("Munich",),
    )
    with pytest.raises(SuiteError, match="no old value"):
        validate([bad], suite.filler["dev"])


def test_mentions_matches_whole_words_and_symbols() -> None:
    assert mentions("User writes C++ at work.", ["C++"])
    assert not mentions("User is going home.", ["Go"])
    assert mentions("I bank with U.S. Bank.", ["U.S. Bank"])


async def test_three_cases_run_through_the_local_path(tmp_path: Path) -> None:
    suite = load_suite("dev")
    picked = [next(c for c in suite.cases if c.kind == k) for k in ("update", "compatible", "keep")]

    results = await run_cases(picked, suite.filler, workdir=tmp_path)

    assert [r.id for r in results] == [c.id for c in picked]
    update, compatible, keep = results
    assert update.current_first is not None and update.stale_returned is not None
    assert update.candidate_hit is not None  # the old value was stored and observed
    assert compatible.compatible_kept is not None
    assert keep.fact_lost is not None
    assert all(r.returned for r in results)
    figures = metrics(results)
    assert figures["current_first"]["n"] == 1 and figures["facts_lost"]["n"] == 1
    json.dumps(figures)


def test_the_held_out_splits_are_reported_together() -> None:
    def result(split: str, first: bool) -> CaseResult:
        return CaseResult(
            id=f"u-{split}",
            split=split,
            kind="update",
            domain="home",
            form="f",
            probe="?",
            current_first=first,
            stale_returned=False,
        )

    runs = [
        PathRun(
            path="local",
            where="here",
            results=[result("dev", True), result("blind", False), result("heldout3", True)],
            seconds=1.0,
        )
    ]

    figures = as_json(runs, "all", [])["paths"]["local"]["splits"]

    assert set(HELD_OUT) <= set(SPLITS) and not set(HELD_OUT) & {"dev", "dev2", "dev3"}
    assert figures["held-out"]["current_first"] == {"value": 0.5, "hits": 1, "n": 2}
    assert figures["all"]["current_first"]["n"] == 3
    assert "### split held-out: 2 updates" in render(runs, "all", [])
