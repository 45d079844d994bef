"""The learned weighing of rival answers: fitting, scoring, and the bundled weights."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from adk_memory.retrieval import rival_model
from adk_memory.retrieval.ordering import DISPLACED_FEATURES, DISPLACED_SIGNS, RIVAL_FEATURES
from adk_memory.retrieval.rival_model import RivalModel, fit


def _rows() -> tuple[list[dict[str, float]], list[int]]:
    """A signal feature that decides the label, beside noise that does not."""
    rows, labels = [], []
    for i in range(200):
        signal = float(i % 2)
        rows.append({"signal": signal, "noise": float((i * 7) % 5) / 4})
        labels.append(int(signal) if i % 17 else 1 - int(signal))  # a few labelled wrong
    return rows, labels


def test_fit_learns_the_feature_that_decides_and_is_deterministic() -> None:
    rows, labels = _rows()
    model = fit(rows, labels, features=("signal", "noise"))

    assert model.probability({"signal": 1.0, "noise": 0.5}) > 0.8
    assert model.probability({"signal": 0.0, "noise": 0.5}) < 0.2
    assert abs(model.weights[0]) > 5 * abs(model.weights[1])
    assert fit(rows, labels, features=("signal", "noise")) == model


def test_a_stronger_penalty_shrinks_the_weights() -> None:
    rows, labels = _rows()
    loose = fit(rows, labels, features=("signal", "noise"), l2=0.1)
    tight = fit(rows, labels, features=("signal", "noise"), l2=100.0)
    assert abs(tight.weights[0]) < abs(loose.weights[0])


def test_fit_refuses_rows_without_labels() -> None:
    with pytest.raises(ValueError, match="one label per row"):
        fit([{"a": 1.0}], [], features=("a",))


def test_a_model_needs_one_weight_per_feature_and_every_feature_to_score() -> None:
    with pytest.raises(ValidationError, match="one weight per feature"):
        RivalModel(features=("a", "b"), weights=(1.0,), intercept=0.0)
    model = RivalModel(features=("a", "b"), weights=(1.0, -1.0), intercept=0.0)
    assert model.probability({"a": 0.0, "b": 0.0}) == pytest.approx(0.5)
    # Extreme scores stay finite in both directions.
    assert model.probability({"a": 1000.0, "b": 0.0}) == pytest.approx(1.0)
    assert model.probability({"a": -1000.0, "b": 0.0}) == pytest.approx(0.0)
    with pytest.raises(KeyError):
        model.probability({"a": 1.0})


def test_the_bundled_model_reads_what_ordering_computes_and_saw_no_held_out_split() -> None:
    model = rival_model.bundled()
    # A renamed or added feature without refitting fails here, not silently at recall.
    assert model.features == RIVAL_FEATURES
    splits = set(model.provenance["splits"])  # type: ignore[arg-type]
    assert splits and not splits & {"heldout", "blind", "heldout3"}


def test_a_weighted_example_pulls_the_fit_toward_it() -> None:
    rows = [{"a": 1.0}, {"a": 1.0}, {"a": 0.0}, {"a": 0.0}]
    labels = [1, 0, 0, 1]
    even = fit(rows, labels, features=("a",), l2=0.1)
    # The negative at a=1 counting five times: a=1 reads as much less likely.
    weighted = fit(rows, labels, features=("a",), l2=0.1, weights=[1.0, 5.0, 1.0, 1.0])
    assert weighted.probability({"a": 1.0}) < even.probability({"a": 1.0}) - 0.2
    with pytest.raises(ValueError, match="one positive weight per row"):
        fit(rows, labels, features=("a",), weights=[1.0, 1.0])
    with pytest.raises(ValueError, match="one positive weight per row"):
        fit(rows, labels, features=("a",), weights=[1.0, 0.0, 1.0, 1.0])


def test_the_bundled_displacement_model_reads_what_ordering_computes() -> None:
    model = rival_model.bundled(rival_model.DISPLACED_FILE)
    assert model.features == DISPLACED_FEATURES
    splits = set(model.provenance["splits"])  # type: ignore[arg-type]
    assert splits and not splits & {"heldout", "blind", "heldout3"}


def test_a_signed_feature_never_pushes_against_its_direction() -> None:
    # In these examples "passing" happens to come with the label 1 more often; a passing
    # moment must still never count for it.
    rows = [
        {"signal": 1.0, "passing": 1.0},
        {"signal": 1.0, "passing": 1.0},
        {"signal": 1.0, "passing": 0.0},
        {"signal": 0.0, "passing": 1.0},
        {"signal": 0.0, "passing": 0.0},
        {"signal": 0.0, "passing": 0.0},
    ]
    labels = [1, 1, 0, 1, 0, 0]
    free = fit(rows, labels, features=("signal", "passing"), l2=0.1)
    assert free.weights[1] > 0
    signed = fit(rows, labels, features=("signal", "passing"), l2=0.1, signs={"passing": -1})
    assert signed.weights[1] == 0.0 and signed.weights[0] > 0
    with pytest.raises(ValueError, match="signs must name fitted features"):
        fit(rows, labels, features=("signal",), signs={"passing": -1})
    with pytest.raises(ValueError, match="each \\+1 or -1"):
        fit(rows, labels, features=("signal",), signs={"signal": 2})


def test_the_bundled_displacement_model_keeps_every_stated_direction() -> None:
    model = rival_model.bundled(rival_model.DISPLACED_FILE)
    weights = dict(zip(model.features, model.weights, strict=True))
    assert all(weights[name] * sign >= 0 for name, sign in DISPLACED_SIGNS.items())
