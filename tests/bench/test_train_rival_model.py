"""Smoke test of the trainer of the learned weighings of rival answers."""

from __future__ import annotations

from pathlib import Path

from adk_memory.retrieval import rival_model
from adk_memory.retrieval.ordering import DISPLACED_FEATURES, RIVAL_FEATURES
from bench.bench_updates import HELD_OUT, SPLITS, load_suite
from bench.train_rival_model import (
    TRAIN_SPLITS,
    TRUE_FACT_WEIGHT,
    displaced_examples,
    recall_all,
    rival_examples,
)


async def test_updates_give_positive_pairs_and_every_row_has_every_feature(
    tmp_path: Path,
) -> None:
    suite = load_suite("dev")
    # An update REPLACE misses (both values stay active) and a look-alike.
    by_id = {c.id: c for c in suite.cases}
    picked = [by_id["u-money-excel-ynab"], next(c for c in suite.cases if c.kind == "keep")]

    recalled = await recall_all(picked, suite.filler, tmp_path)
    rows = rival_examples(recalled)

    assert len(rows.rows) == len(rows.labels) > 0
    assert all(set(row) == set(RIVAL_FEATURES) for row in rows.rows)
    assert 0 < sum(rows.labels) < len(rows.labels)


async def test_displacement_pairs_weigh_a_true_fact_more_than_a_stale_one(tmp_path: Path) -> None:
    suite = load_suite("dev")
    by_id = {c.id: c for c in suite.cases}
    # An update the rules leave unmarked (the later value placed first, the earlier shown)
    # and a compatible pair whose earlier fact must stay.
    picked = [by_id["u-diet-vegetarian-pescatarian"], by_id["c-device-kindle-ipad"]]

    recalled = await recall_all(picked, suite.filler, tmp_path)
    found = displaced_examples(recalled, rival_model.bundled())

    assert all(set(row) == set(DISPLACED_FEATURES) for row in found.rows)
    assert 1 in found.labels
    assert TRUE_FACT_WEIGHT in found.weights
    assert all(w == 1.0 for w, label in zip(found.weights, found.labels, strict=True) if label)


def test_the_bundled_models_were_fitted_on_what_the_trainer_reads_and_no_held_out_split() -> None:
    for file in (rival_model.BUNDLED_FILE, rival_model.DISPLACED_FILE):
        assert rival_model.bundled(file).provenance["splits"] == list(TRAIN_SPLITS)
    assert not set(TRAIN_SPLITS) & set(HELD_OUT)
    assert set(TRAIN_SPLITS) | set(HELD_OUT) == set(SPLITS)
