"""Fits the learned weighings of rival answers on the dev splits of bench/updates.

    .venv/bin/python -m bench.train_rival_model [--out-dir DIR] [--check]

Every case of `dev` to `dev8` (never a held-out split) is saved session by
session as `bench_updates` saves it, and its probe recalled with the same-question ordering
off. Two logistic regressions are fitted on what the recalls hold:

- the **rival model** (`rival_model.BUNDLED_FILE`), on the plain score order that
  `ordering.current_first` starts from: each candidate pair (`ordering.rival_pairs`) is
  labelled 1 when its earlier memory names the case's old value and not the new one and its
  later memory names the new value (an update the later statement makes), else 0:
  look-alikes, compatible pairs and every other pair the recall holds;
- then the **displacement model** (`rival_model.DISPLACED_FILE`), on the order the rules and
  the new rival model give: each pair the order places later first whose earlier memory
  would be shown (`SHOWN`, the ADK plugin's default), labelled the same way, with a pair
  whose earlier memory still holds (anything but an update's old value) counting
  `TRUE_FACT_WEIGHT` times: sending a true fact away costs more than leaving a stale one in
  sight. Readings whose direction is known beforehand are fitted only in that direction
  (`ordering.DISPLACED_SIGNS`).

The fits are deterministic (Newton's method, fixed penalty), so the same code and data give
the same files; `--check` fits again and fails when a bundled file differs, i.e. when
features or data changed without refitting.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from adk_memory.embedding.local import LocalEmbedder
from adk_memory.engine import EngineConfig
from adk_memory.factory import build_engine
from adk_memory.model import Scope, ScoredMemory
from adk_memory.retrieval import rival_model
from adk_memory.retrieval.ordering import (
    DISPLACED_FEATURES,
    DISPLACED_SIGNS,
    RIVAL_FEATURES,
    OrderingConfig,
    PairReadings,
    Reading,
    changes_in,
    current_first,
    displaced_pairs_of,
    group_same_question,
    rival_pairs,
)
from adk_memory.retrieval.recall import settled_changes, without_question_frame
from adk_memory.stores.uri import open_store
from bench.bench_updates import (
    PROBE_K,
    Case,
    Filler,
    conversation,
    ingest_sessions,
    load_suite,
    mentions,
    session_clock,
)
from bench.report import command_line

MODULE = "bench.train_rival_model"

#: The splits the models are fitted on; the held-out ones only ever measure them.
TRAIN_SPLITS = ("dev", "dev2", "dev3", "dev4", "dev5", "dev6", "dev7", "dev8")

#: The penalty on the weights (features are on comparable 0..1 scales).
L2 = 1.0

#: How many memories the ADK plugin shows by default (`MemoryPlugin(top_k=5)`): the
#: displacement model is fitted on the pairs whose earlier memory it would show, the only
#: ones where sending it away changes what the agent reads.
SHOWN = 5

#: How much more a pair counts in the displacement fit when sending its earlier memory away
#: would hide a true fact (any memory but an update's old value) than when it would leave a
#: stale value in sight.
TRUE_FACT_WEIGHT = 5.0

DATA_DIR = Path(rival_model.__file__).resolve().parent / "data"


@dataclass(frozen=True)
class Recalled:
    """One probe's recall with the ordering off, and what ordering it needs."""

    case: Case
    ranked: list[ScoredMemory]
    vectors: np.ndarray
    query: str
    settled: frozenset[str]


@dataclass(frozen=True)
class Examples:
    """Feature rows, one label each (1: an update's stale value beside its new one) and how
    much each counts in the fit."""

    rows: list[dict[str, float]]
    labels: list[int]
    weights: list[float]


def _label(case: Case, earlier: str, later: str) -> int:
    if case.kind != "update":
        return 0
    stale = mentions(earlier, case.old) and not mentions(earlier, case.new)
    return int(stale and mentions(later, case.new))


def _true_fact(case: Case, text: str) -> bool:
    """Whether a memory still holds: everything but an update's old value."""
    if case.kind != "update":
        return True
    return not (mentions(text, case.old) and not mentions(text, case.new))


async def recall_all(
    cases: Sequence[Case], filler: dict[str, Filler], workdir: Path
) -> list[Recalled]:
    """Every case saved and each of its probes recalled with the ordering off."""
    embedder = LocalEmbedder()
    store = await open_store(f"adkmem+sqlite://{workdir / 'train.db'}")
    config = EngineConfig(record_hits=False, ordering=OrderingConfig(enabled=False))
    engine = build_engine(store, embedder=embedder, config=config, clock=session_clock)
    found: list[Recalled] = []
    try:
        for case in cases:
            scope = Scope(app_name="train_rival_model", user_id=case.id)
            convo = conversation(case, filler[case.split])
            await ingest_sessions(engine, scope, convo.sessions)
            probes = [case.probe, *([case.probe_second] if case.probe_second else [])]
            for probe in probes:
                ranked = await engine.recall(scope, probe, top_k=PROBE_K, now=convo.now)
                if len(ranked) < 2:
                    continue
                vectors = await embedder.embed([m.record.text for m in ranked])
                # The query as recall reads it.
                query = without_question_frame(probe)
                grouping = group_same_question(ranked, vectors, OrderingConfig(), query=query)
                settled = await settled_changes(store, ranked, changes_in(grouping))
                found.append(Recalled(case, ranked, vectors, query, frozenset(settled)))
    finally:
        await engine.close()
    return found


def rival_examples(recalled: Sequence[Recalled]) -> Examples:
    """Feature rows and labels of every candidate rival pair of the recalls."""
    rows: list[dict[str, float]] = []
    labels: list[int] = []
    for r in recalled:
        for pair in rival_pairs(r.ranked, r.vectors, OrderingConfig(), query=r.query):
            rows.append(dict(pair.features))
            labels.append(
                _label(r.case, r.ranked[pair.earlier].record.text, r.ranked[pair.later].record.text)
            )
    return Examples(rows, labels, [1.0] * len(rows))


def displaced_examples(recalled: Sequence[Recalled], rivals: rival_model.RivalModel) -> Examples:
    """Feature rows, labels and weights of the pairs the ordering (with `rivals`) places later
    first, the earlier one shown."""
    config = OrderingConfig(displaced_order=None)
    rows: list[dict[str, float]] = []
    labels: list[int] = []
    weights: list[float] = []
    for r in recalled:
        ordered = current_first(
            r.ranked, r.vectors, config, r.settled, query=r.query, rivals=rivals
        )
        shown = {m.record.id for m in ordered[:SHOWN]}
        pairs = PairReadings(Reading(r.ranked, r.vectors, config, r.query), config)
        for pair in displaced_pairs_of(pairs, ordered):
            earlier = r.ranked[pair.earlier].record
            if earlier.id not in shown:
                continue
            rows.append(dict(pair.features))
            labels.append(_label(r.case, earlier.text, r.ranked[pair.later].record.text))
            weights.append(TRUE_FACT_WEIGHT if _true_fact(r.case, earlier.text) else 1.0)
    return Examples(rows, labels, weights)


def _provenance(
    cases: int, examples: Examples, argv: Sequence[str], **extra: object
) -> dict[str, object]:
    return {
        "splits": list(TRAIN_SPLITS),
        "cases": cases,
        "pairs": len(examples.rows),
        "updates": sum(examples.labels),
        "l2": L2,
        **extra,
        "command": command_line(MODULE, [a for a in argv if a != "--check"]),
    }


async def train(argv: Sequence[str]) -> dict[str, rival_model.RivalModel]:
    """Both models, by the file each ships in."""
    suites = [load_suite(split) for split in TRAIN_SPLITS]
    cases = [c for s in suites for c in s.cases]
    filler = {k: v for s in suites for k, v in s.filler.items()}
    with tempfile.TemporaryDirectory(prefix="adkmem-rivals-") as tmp:
        recalled = await recall_all(cases, filler, Path(tmp))
    rival = rival_examples(recalled)
    rivals = rival_model.fit(
        rival.rows,
        rival.labels,
        features=RIVAL_FEATURES,
        l2=L2,
        provenance=_provenance(len(cases), rival, argv),
    )
    displaced = displaced_examples(recalled, rivals)
    displacement = rival_model.fit(
        displaced.rows,
        displaced.labels,
        features=DISPLACED_FEATURES,
        l2=L2,
        weights=displaced.weights,
        signs=DISPLACED_SIGNS,
        provenance=_provenance(
            len(cases),
            displaced,
            argv,
            shown=SHOWN,
            true_fact_weight=TRUE_FACT_WEIGHT,
        ),
    )
    for name, examples in (("rival", rival), ("displacement", displaced)):
        print(
            f"  {name}: {len(cases)} cases, {len(examples.rows)} pairs, "
            f"{sum(examples.labels)} updates",
            file=sys.stderr,
        )
    return {rival_model.BUNDLED_FILE: rivals, rival_model.DISPLACED_FILE: displacement}


def _drift(fitted: rival_model.RivalModel, bundled: rival_model.RivalModel) -> float:
    if fitted.features != bundled.features:
        return float("inf")
    return max(
        abs(a - b)
        for a, b in zip(
            (fitted.intercept, *fitted.weights),
            (bundled.intercept, *bundled.weights),
            strict=True,
        )
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}", description=__doc__.split("\n")[0])
    parser.add_argument("--out-dir", type=Path, default=DATA_DIR, help="where to write the weights")
    parser.add_argument(
        "--check", action="store_true", help="fail if a bundled file differs from a new fit"
    )
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    models = asyncio.run(train(list(sys.argv[1:] if argv is None else argv)))
    if args.check:
        worst = 0.0
        for file, model in models.items():
            bundled = rival_model.RivalModel.model_validate_json(
                (DATA_DIR / file).read_text("utf-8")
            )
            drift = _drift(model, bundled)
            print(f"{file}: largest coefficient difference from the bundled model: {drift:.2e}")
            worst = max(worst, drift)
        return 0 if worst < 1e-3 else 1
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for file, model in models.items():
        path = args.out_dir / file
        path.write_text(json.dumps(model.model_dump(mode="json"), indent=1) + "\n", "utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
