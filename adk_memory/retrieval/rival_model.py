"""A learned weighing of the evidence that a later answer holds instead of an earlier one.

The same-question ordering (`ordering`) reads many cues in two statements' words (a change,
newness, a passing moment, a maybe, someone else's news) and how the query and the two
memories' embeddings relate. Hand-ordered rules combine them into evidence, and on chat the
rules fitted to the examples they were written for leave many updates unordered. This model
weighs the same readings with a logistic regression fitted on the dev splits of
`bench/updates` (`python -m bench.train_rival_model`), and is measured on the held-out
splits it never saw. Two models ship: one weighs whether a later answer holds instead of an
earlier one (it moves the later up), the other whether a later answer already placed first
displaced the earlier (it sends the earlier after every other recalled memory). Both only
order recalled memories, unmarked; neither supersedes anything, so a wrong reading costs
ranks, never a stored fact.

Pure: numpy only, no I/O beyond reading the bundled weights once.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping, Sequence
from importlib import resources

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

#: Where the fitted weights ship (`bench/train_rival_model.py` writes both): the weighing
#: of rival answers, and the weighing of whether a later answer displaced an earlier one.
BUNDLED_FILE = "rival_model.json"
DISPLACED_FILE = "displaced_model.json"


class RivalModel(BaseModel):
    """A logistic regression over named features: P = σ(intercept + Σ weight · value)."""

    # One instance is shared by every recall (`bundled`).
    model_config = ConfigDict(frozen=True)

    features: tuple[str, ...]
    weights: tuple[float, ...]
    intercept: float
    #: What it was fitted on and how, for whoever reads the file.
    provenance: Mapping[str, object] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one_weight_a_feature(self) -> RivalModel:
        if len(self.features) != len(self.weights):
            raise ValueError("a rival model needs one weight per feature")
        return self

    def probability(self, values: Mapping[str, float]) -> float:
        """How likely the later statement holds instead of the earlier, given `values` (one
        per feature; a missing one is an error, so a renamed feature cannot pass silently)."""
        z = self.intercept + sum(
            w * values[name] for name, w in zip(self.features, self.weights, strict=True)
        )
        return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


def _newton(
    x: np.ndarray, y: np.ndarray, counts: np.ndarray, l2: float, iterations: int
) -> np.ndarray:
    """The weights (intercept first) of an L2-regularised logistic regression."""
    penalty = np.full(x.shape[1], l2)
    penalty[0] = 0.0
    beta = np.zeros(x.shape[1])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(x @ beta)))
        gradient = x.T @ (counts * (p - y)) + penalty * beta
        hessian = (x * (counts * p * (1.0 - p))[:, None]).T @ x
        hessian += np.diag(penalty) + 1e-9 * np.eye(len(beta))
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return beta


def fit(
    rows: Sequence[Mapping[str, float]],
    labels: Sequence[int],
    *,
    features: Sequence[str],
    l2: float = 1.0,
    iterations: int = 50,
    weights: Sequence[float] | None = None,
    signs: Mapping[str, int] | None = None,
    provenance: Mapping[str, object] | None = None,
) -> RivalModel:
    """Fits an L2-regularised logistic regression by Newton's method (deterministic).

    Args:
        rows: Feature values per example.
        labels: 1 where the later statement holds instead of the earlier, else 0.
        features: The features to use, in order.
        l2: Penalty on the weights (not the intercept).
        iterations: Newton steps at most; it stops once the step is negligible.
        weights: How much each example counts (default 1 each): a mistake that would cost
            a true fact may count more than one that costs a rank.
        signs: The direction a feature may push, where it is known before any data (+1:
            only towards 1, -1: only towards 0): a reading of a passing moment must never
            count for an update, however the examples happen to fall. A feature whose
            fitted weight points the other way is left out (weight 0), the one pointing
            furthest first, and the rest fitted again, until none does.
        provenance: Kept in the model, for whoever reads the file.

    Returns:
        The fitted model.
    """
    if len(rows) != len(labels) or not rows:
        raise ValueError("fit needs one label per row, and at least one row")
    if weights is not None and (len(weights) != len(rows) or min(weights) <= 0):
        raise ValueError("fit needs one positive weight per row")
    directions = dict(signs or {})
    if set(directions) - set(features) or not set(directions.values()) <= {-1, 1}:
        raise ValueError("signs must name fitted features, each +1 or -1")
    x = np.array([[1.0, *(row[name] for name in features)] for row in rows], dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    counts = np.ones(len(rows)) if weights is None else np.asarray(weights, dtype=np.float64)
    kept = list(range(len(features)))
    while True:
        beta = _newton(x[:, [0, *(k + 1 for k in kept)]], y, counts, l2, iterations)
        fitted = dict(zip(kept, beta[1:], strict=True))
        against = {
            k: -directions[features[k]] * w
            for k, w in fitted.items()
            if features[k] in directions and directions[features[k]] * w < 0
        }
        if not against:
            break
        kept.remove(max(against, key=lambda k: (against[k], -k)))
    return RivalModel(
        features=tuple(features),
        weights=tuple(round(float(fitted.get(k, 0.0)), 6) for k in range(len(features))),
        intercept=round(float(beta[0]), 6),
        provenance=dict(provenance or {}),
    )


@functools.cache
def bundled(file: str = BUNDLED_FILE) -> RivalModel:
    """A model that ships with the package: `BUNDLED_FILE` or `DISPLACED_FILE`."""
    text = (resources.files("adk_memory.retrieval") / "data" / file).read_text("utf-8")
    return RivalModel.model_validate(json.loads(text))
