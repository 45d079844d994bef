"""Retrieval variants on LoCoMo: fusion rules, weights, candidate depth, decay, extraction.

    .venv/bin/python -m bench.locomo_tuning [--conversations N] [--extractors local,turns]

An experiment harness behind the recommendations in `bench/README.md`, not a product
benchmark. Ingestion is the slow part, so each extractor variant ingests once; the store's
candidates for every question are then fetched once at a deep cut-off and every ranking
variant is computed offline from those hits. A smaller candidate depth is simulated exactly:
the store returns the union of the dense top-K' and the lexical top-K', so the union of the
top-K' by cosine and the top-K' by lexical score of a deeper fetch is the same set.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import statistics
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import numpy as np

from adk_memory.embedding.local import LocalEmbedder
from adk_memory.engine import EngineConfig
from adk_memory.extraction.base import ExtractionResult, FactExtractor
from adk_memory.extraction.local import LocalExtractor, display_name
from adk_memory.factory import build_engine
from adk_memory.model import Fact, InputEvent, Kind, Source
from adk_memory.retrieval.scoring import ScoringConfig, decay_factor, score_hit
from adk_memory.stores.base import SearchHit
from adk_memory.stores.sqlite.store import SqliteStore
from bench.bench_locomo import IngestStats, ingest_conversation, scope_for
from bench.locomo import (
    CATEGORY_NAMES,
    RECALL_CATEGORIES,
    Conversation,
    Question,
    evaluable,
    load_locomo,
    recall_at_k,
)
from bench.report import command_line, table

MODULE = "bench.locomo_tuning"
KS = (1, 5, 10, 20)
DEEP_FETCH = 320


class TurnExtractor:
    """One episodic memory per turn, verbatim ("Speaker: text"): what the raw-turn baselines
    index, for comparing extraction against no extraction."""

    def __init__(self, *, prefix: bool = True) -> None:
        self.prefix = prefix

    async def extract(self, events: Sequence[InputEvent]) -> ExtractionResult:
        facts = [
            Fact(
                subject=e.author.lower(),
                predicate="said",
                object="",
                text=f"{display_name(e.author)}: {e.text}" if self.prefix else e.text,
                confidence=0.8,
                valid_at=e.timestamp,
                kind=Kind.EPISODIC,
                author=e.author,
                source=Source(session_id=e.session_id, event_ids=[e.id]),
            )
            for e in events
        ]
        return ExtractionResult(facts=facts)


EXTRACTORS: dict[str, Callable[[], FactExtractor]] = {
    "local": LocalExtractor,
    "turns": TurnExtractor,
    "turns-noprefix": lambda: TurnExtractor(prefix=False),
}


@dataclass
class Probe:
    """A question and the deep candidate list the store returned for it."""

    question: Question
    now: datetime
    hits: list[SearchHit]


async def collect(
    conversations: Sequence[Conversation], extractor: FactExtractor, workdir: Path
) -> tuple[list[Probe], IngestStats]:
    store = await SqliteStore(workdir / "tuning.db").open()
    engine = build_engine(store, extractor=extractor, config=EngineConfig(record_hits=False))
    embedder = LocalEmbedder()
    stats = IngestStats()
    probes: list[Probe] = []
    for conversation in conversations:
        await ingest_conversation(engine, conversation, stats)
        questions = evaluable(conversation.questions)
        vectors = embedder.embed_sync([q.question for q in questions])
        for question, vector in zip(questions, vectors, strict=True):
            hits = await store.search(
                scope_for(conversation), vector=vector, query=question.question, k=DEEP_FETCH
            )
            probes.append(Probe(question, conversation.last_date, hits))
        print(f"  collected {conversation.sample_id}", file=sys.stderr)
    await engine.close()
    return probes, stats


def restrict(hits: Sequence[SearchHit], depth: int) -> list[SearchHit]:
    """The candidates a fetch of `depth` would have returned (dense top ∪ lexical top)."""
    if depth >= DEEP_FETCH:
        return list(hits)
    dense = sorted(hits, key=lambda h: -h.cosine)[:depth]
    lexical = sorted((h for h in hits if h.lexical > 0), key=lambda h: -h.lexical)[:depth]
    keep = {id(h) for h in [*dense, *lexical]}
    return [h for h in hits if id(h) in keep]


Ranker = Callable[[Sequence[SearchHit], datetime], list[SearchHit]]


def linear(config: ScoringConfig) -> Ranker:
    """The engine's rule: (1−w)·cos + w·bm25/best, times decay and confidence."""

    def rank(hits: Sequence[SearchHit], now: datetime) -> list[SearchHit]:
        scored = [(score_hit(h, now=now, config=config).score, h) for h in hits]
        scored.sort(key=lambda p: (-p[0], -p[1].record.valid_at.timestamp()))
        return [h for _, h in scored]

    return rank


def _prior(hit: SearchHit, now: datetime, half_life: float | None) -> float:
    age = max((now - hit.record.valid_at).total_seconds() / 86_400.0, 0.0)
    return decay_factor(age, half_life) * hit.record.confidence


def rrf(k: int = 60, lexical_weight: float = 1.0, half_life: float | None = None) -> Ranker:
    """Reciprocal-rank fusion of the dense and lexical rankings (scale-free)."""

    def rank(hits: Sequence[SearchHit], now: datetime) -> list[SearchHit]:
        dense = {id(h): i for i, h in enumerate(sorted(hits, key=lambda h: -h.cosine))}
        lexical_order = sorted((h for h in hits if h.lexical > 0), key=lambda h: -h.lexical)
        lexical = {id(h): i for i, h in enumerate(lexical_order)}

        def score(h: SearchHit) -> float:
            s = 1.0 / (k + dense[id(h)] + 1)
            if id(h) in lexical:
                s += lexical_weight / (k + lexical[id(h)] + 1)
            return s * _prior(h, now, half_life)

        return sorted(hits, key=lambda h: -score(h))

    return rank


def minmax(lexical_weight: float, half_life: float | None = None) -> Ranker:
    """Convex combination of min-max normalised cosine and lexical scores."""

    def rank(hits: Sequence[SearchHit], now: datetime) -> list[SearchHit]:
        cos = np.array([h.cosine for h in hits])
        lex = np.array([h.lexical for h in hits])

        def norm(a: np.ndarray) -> np.ndarray:
            span = a.max() - a.min() if a.size else 0.0
            return (a - a.min()) / span if span > 0 else np.zeros_like(a)

        fused = (1 - lexical_weight) * norm(cos) + lexical_weight * norm(lex)
        scores = [f * _prior(h, now, half_life) for f, h in zip(fused, hits, strict=True)]
        order = np.argsort(-np.asarray(scores), kind="stable")
        return [hits[i] for i in order]

    return rank


def damped(
    lexical_weight: float, half_life: float | None, floor: float, use_confidence: bool = True
) -> Ranker:
    """The linear blend with decay as a bounded tie-breaker: the prior is
    floor + (1 − floor)·decay, so age can cost at most (1 − floor) of the score."""

    def rank(hits: Sequence[SearchHit], now: datetime) -> list[SearchHit]:
        def score(h: SearchHit) -> float:
            sim = (1 - lexical_weight) * max(h.cosine, 0.0) + lexical_weight * h.lexical
            age = max((now - h.record.valid_at).total_seconds() / 86_400.0, 0.0)
            prior = floor + (1 - floor) * decay_factor(age, half_life)
            return sim * prior * (h.record.confidence if use_confidence else 1.0)

        return sorted(hits, key=lambda h: -score(h))

    return rank


def evaluate(probes: Sequence[Probe], ranker: Ranker, depth: int) -> dict[str, float]:
    per_cat: dict[int, list[float]] = {c: [] for c in RECALL_CATEGORIES}
    totals: dict[int, list[float]] = {k: [] for k in KS}
    sources: list[int] = []
    for probe in probes:
        ranked = ranker(restrict(probe.hits, depth), probe.now)[: max(KS)]
        cited = [h.record.source.event_ids for h in ranked]
        for k in KS:
            totals[k].append(recall_at_k(probe.question.evidence, cited, k))
        per_cat[probe.question.category].append(totals[10][-1])
        sources += [len(c) for c in cited[:10]]
    out = {f"R@{k}": statistics.fmean(v) for k, v in totals.items()}
    out |= {f"R@10 {CATEGORY_NAMES[c]}": statistics.fmean(v) for c, v in per_cat.items() if v}
    return out


def variants() -> list[tuple[str, Ranker, int]]:
    """(name, ranker, candidate depth); depth 80 is the engine default for top_k 20."""
    default = ScoringConfig()
    out: list[tuple[str, Ranker, int]] = [
        ("engine default (w .35, hl 365, K' 80)", linear(default), 80)
    ]
    for w in (0.0, 0.2, 0.5, 0.65, 0.8, 1.0):
        out.append((f"linear w {w}", linear(default.model_copy(update={"lexical_weight": w})), 80))
    for hl in (None, 90.0, 1000.0):
        config = default.model_copy(update={"half_life_days": hl})
        out.append((f"linear w .35 half-life {hl}", linear(config), 80))
    for depth in (40, 160, 320):
        out.append((f"linear w .35 K' {depth}", linear(default), depth))
    for w in (0.5, 0.65):
        config = default.model_copy(update={"lexical_weight": w, "half_life_days": None})
        out.append((f"linear w {w} no decay", linear(config), 80))
    for k in (10, 60):
        for lw in (1.0, 1.5):
            out.append((f"RRF k {k} lexical×{lw}", rrf(k, lw), 80))
            out.append((f"RRF k {k} lexical×{lw} hl 365", rrf(k, lw, 365.0), 80))
    out.append(("RRF k 60 K' 160", rrf(60), 160))
    for floor in (0.8, 0.9):
        for w in (0.35, 0.5):
            out.append((f"linear w {w}, decay floor {floor} (hl 365)", damped(w, 365.0, floor), 80))
    for w in (0.35, 0.5, 0.65):
        out.append((f"linear w {w} no decay, no confidence", damped(w, None, 1.0, False), 80))
    for w in (0.35, 0.5, 0.65):
        out.append((f"min-max w {w}", minmax(w), 80))
    for hl in (365.0, 730.0, 1825.0, 3650.0, None):
        config = default.model_copy(update={"lexical_weight": 0.5, "half_life_days": hl})
        out.append((f"linear w 0.5 half-life {hl}", linear(config), 80))
    return out


async def run(argv: Sequence[str]) -> str:
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}", description=__doc__.split("\n")[0])
    parser.add_argument("--conversations", type=int, default=None)
    parser.add_argument("--extractors", default="local,turns", help=f"of {sorted(EXTRACTORS)}")
    parser.add_argument("--data", default=None)
    parser.add_argument("--no-captions", action="store_true")
    args = parser.parse_args(argv)
    conversations = load_locomo(args.data, captions=not args.no_captions)[: args.conversations]
    sections: list[str] = []
    for name in [e.strip() for e in args.extractors.split(",") if e.strip()]:
        with tempfile.TemporaryDirectory(prefix="adkmem-tuning-") as tmp:
            probes, stats = await collect(conversations, EXTRACTORS[name](), Path(tmp))
        rows = []
        for label, ranker, depth in variants():
            figures = evaluate(probes, ranker, depth)
            rows.append([label, *(figures.get(h, math.nan) for h in _HEADERS)])
        sections.append(
            f"### extractor `{name}` ({len(probes)} questions; "
            f"{sum(stats.decisions.values())} facts from {stats.events} events)\n\n"
            + table(["variant", *_HEADERS], rows)
        )
        # Each extractor takes minutes: show its table as soon as it is ready.
        print(sections[-1], file=sys.stderr)
    sections.append(f"Reproduce: `{command_line(MODULE, argv)}`")
    return "\n\n".join(sections)


_HEADERS = (
    "R@1",
    "R@5",
    "R@10",
    "R@20",
    *(f"R@10 {CATEGORY_NAMES[c]}" for c in RECALL_CATEGORIES),
)


def main(argv: Sequence[str] | None = None) -> str:
    report = asyncio.run(run(list(sys.argv[1:] if argv is None else argv)))
    print(report)
    return report


if __name__ == "__main__":
    main()
