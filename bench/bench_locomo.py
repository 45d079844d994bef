"""Evidence recall on LoCoMo through `MemoryEngine`, beside the ADK baselines.

    .venv/bin/python -m bench.bench_locomo [--conversations N] [--k 1,5,10,20]

Each conversation is ingested into its own scope of a fresh sqlite store, one `ingest` call per
session, one `InputEvent` per turn (id = dialog id, author = speaker, timestamp = session date
+ turn index seconds). Each question of categories 1–4 is then recalled with `now` = the date
of the last session; a recalled memory counts for the dialog ids in its
`record.source.event_ids`, and evidence recall@k = |evidence ∩ dialog ids of the top k| /
|evidence|, averaged over questions.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from adk_memory.engine import EngineConfig, MemoryEngine
from adk_memory.extraction.base import FactExtractor
from adk_memory.factory import build_engine
from adk_memory.model import Decision, InputEvent, Scope, ScoredMemory
from adk_memory.retrieval.ordering import OrderingConfig
from adk_memory.stores.sqlite.store import SqliteStore
from bench.locomo import (
    CATEGORY_NAMES,
    RECALL_CATEGORIES,
    Conversation,
    Question,
    evaluable,
    load_locomo,
    recall_at_k,
)
from bench.report import command_line, machine, percentile_ms, table

MODULE = "bench.bench_locomo"

#: Published figures for the same protocol (research notes, 1,536 questions): name → R@1/5/10.
BASELINES: dict[str, tuple[float, float, float]] = {
    "raw turns, MiniLM, exact cosine": (0.151, 0.352, 0.437),
    "ADK InMemoryMemoryService (word overlap, max 10)": (0.206, 0.354, 0.421),
    "ADK SqliteMemoryService (FTS5, max 50)": (0.269, 0.466, 0.534),
}
TARGET_R10 = 0.55


def scope_for(conversation: Conversation) -> Scope:
    return Scope(app_name="locomo", user_id=conversation.sample_id)


def session_events(conversation: Conversation) -> list[list[InputEvent]]:
    """The conversation as ingest batches: one list of events per session."""
    return [
        [
            InputEvent(
                id=turn.dia_id,
                author=turn.speaker,
                text=turn.text,
                timestamp=turn.timestamp,
                session_id=f"session_{session.number}",
                role="user",
            )
            for turn in session.turns
        ]
        for session in conversation.sessions
    ]


@dataclass
class IngestStats:
    seconds: float = 0.0
    events: int = 0
    decisions: Counter[str] = field(default_factory=Counter)


async def ingest_conversation(
    engine: MemoryEngine, conversation: Conversation, stats: IngestStats
) -> None:
    scope = scope_for(conversation)
    for events in session_events(conversation):
        started = time.perf_counter()
        result = await engine.ingest(scope, events)
        stats.seconds += time.perf_counter() - started
        stats.events += result.events_ingested
        stats.decisions.update(o.decision.value for o in result.outcomes)


@dataclass
class QuestionResult:
    category: int
    recalls: dict[int, float]
    #: Source events cited by each of the top-10 memories.
    sources: list[int]


async def evaluate_conversation(
    engine: MemoryEngine,
    conversation: Conversation,
    ks: Sequence[int],
    latencies: list[float] | None = None,
) -> list[QuestionResult]:
    """Recalls every evaluable question of a conversation; appends per-query seconds.

    R@k is measured on `recall(top_k=k)`, what a caller asking for k memories gets: recall
    orders answers to the same question newest first within the k it returns, so the first
    k of a longer list is not the same set."""
    scope = scope_for(conversation)
    results: list[QuestionResult] = []
    for question in evaluable(conversation.questions):
        by_k: dict[int, list[ScoredMemory]] = {}
        for k in sorted(ks, reverse=True):
            started = time.perf_counter()
            by_k[k] = await engine.recall(
                scope, question.question, top_k=k, now=conversation.last_date
            )
            if latencies is not None and k == max(ks):
                latencies.append(time.perf_counter() - started)
        results.append(score_at_each_k(question, by_k))
    return results


def score_at_each_k(question: Question, by_k: dict[int, list[ScoredMemory]]) -> QuestionResult:
    """R@k of each k from its own recall; source counts from the top 10 (or the largest)."""
    cited = {k: [m.record.source.event_ids for m in ranked] for k, ranked in by_k.items()}
    shown = cited.get(10) or cited[max(cited)]
    return QuestionResult(
        category=question.category,
        recalls={k: recall_at_k(question.evidence, ids, k) for k, ids in cited.items()},
        sources=[len(ids) for ids in shown[:10]],
    )


def recall_rows(results: Sequence[QuestionResult], ks: Sequence[int]) -> list[list[object]]:
    """One row per category and one overall: name, n, mean R@k for each k."""
    by_category: dict[int, list[QuestionResult]] = defaultdict(list)
    for r in results:
        by_category[r.category].append(r)
    rows: list[list[object]] = []
    groups = [(f"{c} {CATEGORY_NAMES[c]}", by_category[c]) for c in RECALL_CATEGORIES]
    for name, group in [*groups, ("**overall**", list(results))]:
        if group:
            rows.append(
                [name, len(group), *(statistics.fmean(r.recalls[k] for r in group) for k in ks)]
            )
    return rows


def mean_recall(results: Sequence[QuestionResult], k: int) -> float:
    return statistics.fmean(r.recalls[k] for r in results)


async def run_benchmark(
    conversations: Sequence[Conversation],
    ks: Sequence[int],
    *,
    config: EngineConfig | None = None,
    extractor: FactExtractor | None = None,
    workdir: Path,
) -> tuple[list[QuestionResult], IngestStats, list[float], int]:
    """Ingests and evaluates; returns (results, ingest stats, query latencies, memories)."""
    store = await SqliteStore(workdir / "locomo.db").open()
    engine = build_engine(
        store,
        extractor=extractor,
        config=config or EngineConfig(record_hits=False),
    )
    stats = IngestStats()
    results: list[QuestionResult] = []
    latencies: list[float] = []
    memories = 0
    for conversation in conversations:
        await ingest_conversation(engine, conversation, stats)
        page = await engine.list(scope_for(conversation), limit=100_000)
        memories += len(page.records)
        results += await evaluate_conversation(engine, conversation, ks, latencies)
        print(
            f"  {conversation.sample_id}: {conversation.turn_count()} turns, "
            f"R@10 so far {mean_recall(results, 10) if 10 in ks else 0:.3f}",
            file=sys.stderr,
        )
    await engine.close()
    return results, stats, latencies, memories


def render(
    results: Sequence[QuestionResult],
    stats: IngestStats,
    latencies: Sequence[float],
    memories: int,
    ks: Sequence[int],
    conversations: int,
    argv: Sequence[str],
) -> str:
    sources = [n for r in results for n in r.sources]
    decisions = ", ".join(f"{d.value} {stats.decisions.get(d.value, 0)}" for d in Decision)
    baseline_ks = (1, 5, 10)
    ours = {k: mean_recall(results, k) for k in ks}
    comparison = [[name, *(f"{v:.3f}" for v in values)] for name, values in BASELINES.items()] + [
        [
            "**adk-memory (this run)**",
            *(f"{ours[k]:.3f}" if k in ours else "—" for k in baseline_ks),
        ]
    ]
    lines = [
        f"## LoCoMo evidence recall ({len(results)} questions, {conversations} conversations)",
        "",
        table(["category", "n", *(f"R@{k}" for k in ks)], recall_rows(results, ks)),
        "",
        "Beside the baselines (same protocol, research notes):",
        "",
        table(["system", *(f"R@{k}" for k in baseline_ks)], comparison),
        "",
        f"Target R@10 ≥ {TARGET_R10}: "
        + (f"{'met' if ours.get(10, 0.0) >= TARGET_R10 else 'missed'} ({ours.get(10, 0):.3f})."),
        "",
        f"- ingest: {stats.events} events in {stats.seconds:.1f} s "
        f"({stats.events / max(stats.seconds, 1e-9):.0f} events/s); decisions: {decisions}; "
        f"{memories} active memories",
        f"- source events per returned memory (top 10): {statistics.fmean(sources):.2f}",
        f"- recall latency per question: median {percentile_ms(latencies, 50):.1f} ms, "
        f"p95 {percentile_ms(latencies, 95):.1f} ms",
        "",
        f"Measured on {machine()}.",
        "",
        f"Reproduce: `{command_line(MODULE, argv)}`",
    ]
    return "\n".join(lines)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}", description=__doc__.split("\n")[0])
    parser.add_argument("--conversations", type=int, default=None, help="first N (default all)")
    parser.add_argument("--k", default="1,5,10,20", help="comma-separated cut-offs")
    parser.add_argument("--data", default=None, help="path to locomo10.json")
    parser.add_argument(
        "--no-captions", action="store_true", help="leave shared-image captions out of turns"
    )
    parser.add_argument(
        "--no-ordering",
        action="store_true",
        help="pure score order (no newest-first ordering of same-question answers)",
    )
    return parser.parse_args(argv)


async def run(argv: Sequence[str]) -> str:
    args = parse_args(argv)
    ks = sorted({int(k) for k in args.k.split(",") if k.strip()})
    conversations = load_locomo(args.data, captions=not args.no_captions)
    conversations = conversations[: args.conversations]
    with tempfile.TemporaryDirectory(prefix="adkmem-locomo-") as tmp:
        config = EngineConfig(
            record_hits=False, ordering=OrderingConfig(enabled=not args.no_ordering)
        )
        results, stats, latencies, memories = await run_benchmark(
            conversations, ks, config=config, workdir=Path(tmp)
        )
    return render(results, stats, latencies, memories, ks, len(conversations), argv)


def main(argv: Sequence[str] | None = None) -> str:
    """Runs the benchmark, prints the markdown report and returns it."""
    report = asyncio.run(run(list(sys.argv[1:] if argv is None else argv)))
    print(report)
    return report


if __name__ == "__main__":
    main()
