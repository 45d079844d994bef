"""Fits the learned weighing of rival answers on the dev splits of bench/updates.

    .venv/bin/python -m bench.train_rival_model [--out PATH] [--check]

Every case of `dev`, `dev2`, `dev3` and `dev4` (never a held-out split) is saved session by session
as `bench_updates` saves it, and its probe recalled with the same-question ordering off,
so the pairs are read on the plain score order that `ordering.current_first` starts from.
Each candidate pair (`ordering.rival_pairs`) is labelled 1 when its earlier memory names
the case's old value and not the new one and its later memory names the new value (an
update the later statement makes), else 0: look-alikes, compatible pairs and every other
pair the recall holds. The fit is deterministic (Newton's method, fixed penalty), so the
same code and data give the same file; `--check` fits again and fails when the bundled file
differs, i.e. when features or data changed without refitting.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from adk_memory.embedding.local import LocalEmbedder
from adk_memory.engine import EngineConfig
from adk_memory.factory import build_engine
from adk_memory.model import Scope
from adk_memory.retrieval import rival_model
from adk_memory.retrieval.ordering import RIVAL_FEATURES, OrderingConfig, rival_pairs
from adk_memory.retrieval.recall import without_question_frame
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
#: The splits the model is fitted on; the held-out ones only ever measure it.
TRAIN_SPLITS = ("dev", "dev2", "dev3", "dev4")
#: The penalty on the weights (features are on comparable 0..1 scales).
L2 = 1.0
BUNDLED = Path(rival_model.__file__).resolve().parent / "data" / rival_model.BUNDLED_FILE


def _label(case: Case, earlier: str, later: str) -> int:
    if case.kind != "update":
        return 0
    stale = mentions(earlier, case.old) and not mentions(earlier, case.new)
    return int(stale and mentions(later, case.new))


async def examples(
    cases: Sequence[Case], filler: dict[str, Filler], workdir: Path
) -> tuple[list[dict[str, float]], list[int]]:
    """Feature rows and labels of every candidate pair of every case's probe recall(s)."""
    embedder = LocalEmbedder()
    store = await open_store(f"adkmem+sqlite://{workdir / 'train.db'}")
    config = EngineConfig(record_hits=False, ordering=OrderingConfig(enabled=False))
    engine = build_engine(store, embedder=embedder, config=config, clock=session_clock)
    rows: list[dict[str, float]] = []
    labels: list[int] = []
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
                for pair in rival_pairs(ranked, vectors, OrderingConfig(), query=query):
                    earlier = ranked[pair.earlier].record.text
                    later = ranked[pair.later].record.text
                    rows.append(dict(pair.features))
                    labels.append(_label(case, earlier, later))
    finally:
        await engine.close()
    return rows, labels


async def train(argv: Sequence[str]) -> rival_model.RivalModel:
    suites = [load_suite(split) for split in TRAIN_SPLITS]
    cases = [c for s in suites for c in s.cases]
    filler = {k: v for s in suites for k, v in s.filler.items()}
    with tempfile.TemporaryDirectory(prefix="adkmem-rivals-") as tmp:
        rows, labels = await examples(cases, filler, Path(tmp))
    print(
        f"  {len(cases)} cases, {len(rows)} candidate pairs, {sum(labels)} updates",
        file=sys.stderr,
    )
    return rival_model.fit(
        rows,
        labels,
        features=RIVAL_FEATURES,
        l2=L2,
        provenance={
            "splits": list(TRAIN_SPLITS),
            "cases": len(cases),
            "pairs": len(rows),
            "updates": sum(labels),
            "l2": L2,
            "command": command_line(MODULE, [a for a in argv if a != "--check"]),
        },
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=BUNDLED, help="where to write the weights")
    parser.add_argument(
        "--check", action="store_true", help="fail if the bundled weights differ from a new fit"
    )
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    model = asyncio.run(train(list(sys.argv[1:] if argv is None else argv)))
    text = json.dumps(model.model_dump(mode="json"), indent=1) + "\n"
    if args.check:
        bundled = rival_model.RivalModel.model_validate_json(BUNDLED.read_text("utf-8"))
        drift = (
            max(
                abs(a - b)
                for a, b in zip(
                    (model.intercept, *model.weights),
                    (bundled.intercept, *bundled.weights),
                    strict=True,
                )
            )
            if model.features == bundled.features
            else float("inf")
        )
        print(f"largest coefficient difference from the bundled model: {drift:.2e}")
        return 0 if drift < 1e-3 else 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
