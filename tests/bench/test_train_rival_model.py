"""Smoke test of the trainer of the learned weighing of rival answers."""

from __future__ import annotations

from pathlib import Path

from adk_memory.retrieval.ordering import RIVAL_FEATURES
from bench.bench_updates import load_suite
from bench.train_rival_model import TRAIN_SPLITS, examples


async def test_updates_give_positive_pairs_and_every_row_has_every_feature(
    tmp_path: Path,
) -> None:
    suite = load_suite("dev")
    # An update REPLACE misses (both values stay active) and a look-alike.
    by_id = {c.id: c for c in suite.cases}
    picked = [by_id["u-money-excel-ynab"], next(c for c in suite.cases if c.kind == "keep")]

    rows, labels = await examples(picked, suite.filler, tmp_path)

    assert len(rows) == len(labels) > 0
    assert all(set(row) == set(RIVAL_FEATURES) for row in rows)
    assert 0 < sum(labels) < len(labels)


def test_the_model_is_fitted_on_dev_splits_only() -> None:
    assert set(TRAIN_SPLITS) == {"dev", "dev2", "dev3"}
