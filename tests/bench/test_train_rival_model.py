"""Smoke test of the trainer of the learned weighing of rival answers."""

from __future__ import annotations

from pathlib import Path

from adk_memory.retrieval import rival_model
from adk_memory.retrieval.ordering import RIVAL_FEATURES
from bench.bench_updates import HELD_OUT, SPLITS, load_suite
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


def test_the_bundled_model_was_fitted_on_what_the_trainer_reads_and_no_held_out_split() -> None:
    assert rival_model.bundled().provenance["splits"] == list(TRAIN_SPLITS)
    assert not set(TRAIN_SPLITS) & set(HELD_OUT)
    assert set(TRAIN_SPLITS) | set(HELD_OUT) == set(SPLITS)
