"""Store size and LoCoMo evidence recall before and after garbage collection + consolidation.

    .venv/bin/python -m bench.bench_lifecycle [--conversations N]

Each conversation is ingested into its own scope as in `bench.bench_locomo` (one `InputEvent`
per turn: id = dialog id, author = speaker, timestamp = session date), with the engine clock
set to each session's date so records carry when they were seen. Recall hits are not
recorded: the benchmark's own questions must not protect the facts they ask about from GC.

Before and after `collect_garbage` + `consolidate` (now = the last session's date), it counts
the active records (and their characters) and measures evidence recall@k on categories 1–4.
A recalled record counts the dialog ids of its `source.event_ids`; a summary counts those of
every source it links (recursively), i.e. recall through the summaries' source links.

Two stricter readings keep that honest, since a summary stands for several turns:
- "only evidence the returned text shows": a summary is credited with a source only if every
  sentence of the source appears in the summary's text;
- "within the characters the top 10 had before": each question may read, after the jobs, only
  as many characters of ranked memory text as its top 10 held before (a plain memory counts if
  it fits whole, a summary for the sources whose sentences fit). This prices the longer texts
  of summaries.

Target: active records ≤ 50 % of before, recall@10 down by ≤ 2 points.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from adk_memory.engine import EngineConfig, MemoryEngine
from adk_memory.extraction.local import normalize_value, split_sentences
from adk_memory.factory import build_engine
from adk_memory.lifecycle.consolidation import (
    ConsolidationConfig,
    consolidate,
    source_event_ids,
    summary_sources,
)
from adk_memory.lifecycle.gc import GcConfig, collect_garbage
from adk_memory.lifecycle.paging import list_all
from adk_memory.lifecycle.summarizer import SUMMARY_MAX_CHARS, LocalSummarizer
from adk_memory.model import Kind, MemoryRecord, Status
from adk_memory.retrieval.scoring import ScoringConfig
from adk_memory.stores.sqlite.store import SqliteStore
from bench.bench_locomo import scope_for, session_events
from bench.locomo import Conversation, evaluable, load_locomo, recall_at_k
from bench.report import command_line, machine, table

MODULE = "bench.bench_lifecycle"
TARGET_SIZE_RATIO = 0.5
TARGET_RECALL_DROP = 0.02


class SessionClock:
    """The engine clock during replay: the date of the session being ingested."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@dataclass
class Phase:
    """Figures of one measurement (before or after the lifecycle jobs)."""

    active: int = 0
    active_chars: int = 0
    recalls: dict[int, list[float]] = field(default_factory=dict)
    #: Source events cited by each of the top-10 memories (a summary cites its sources').
    cited_per_memory: list[int] = field(default_factory=list)
    #: Recall@k counting only events whose words the returned text itself carries.
    visible: dict[int, list[float]] = field(default_factory=dict)
    #: Characters of memory text in each question's top 10 (what a prompt would carry).
    context_chars: list[int] = field(default_factory=list)
    #: Recall when each question may read only as many characters as its top 10 had before.
    equal_context: list[float] = field(default_factory=list)

    def mean_visible(self, k: int) -> float:
        return statistics.fmean(self.visible[k]) if self.visible.get(k) else 0.0

    def mean(self, k: int) -> float:
        return statistics.fmean(self.recalls[k]) if self.recalls.get(k) else 0.0


@dataclass
class Totals:
    before: Phase = field(default_factory=Phase)
    after: Phase = field(default_factory=Phase)
    gc_archived: int = 0
    summaries: int = 0
    consolidated: int = 0
    seconds_ingest: float = 0.0
    seconds_lifecycle: float = 0.0


async def active_size(engine: MemoryEngine, conversation: Conversation) -> tuple[int, int]:
    """Active records of the conversation's scope, and the characters of their text."""
    active = await list_all(engine, scope_for(conversation), [Status.ACTIVE])
    return len(active), sum(len(r.text) for r in active)


async def measure(
    engine: MemoryEngine,
    conversation: Conversation,
    ks: Sequence[int],
    phase: Phase,
    budgets: Sequence[int] | None = None,
) -> None:
    """Adds one conversation's figures to `phase`. With `budgets` (the character counts of
    each question's top 10 before), it also measures recall at that equal context."""
    scope = scope_for(conversation)
    active, chars = await active_size(engine, conversation)
    phase.active += active
    phase.active_chars += chars
    for index, question in enumerate(evaluable(conversation.questions)):
        ranked = await engine.recall(
            scope, question.question, top_k=max(ks), now=conversation.last_date
        )
        cited = [await source_event_ids(engine, m.record) for m in ranked]
        shown = [await visible_event_ids(engine, m.record) for m in ranked]
        phase.cited_per_memory += [len(c) for c in cited[:10]]
        phase.context_chars.append(sum(len(m.record.text) for m in ranked[:10]))
        for k in ks:
            phase.recalls.setdefault(k, []).append(recall_at_k(question.evidence, cited, k))
            phase.visible.setdefault(k, []).append(recall_at_k(question.evidence, shown, k))
        if budgets is not None:
            within = await events_within(engine, [m.record for m in ranked], budgets[index])
            phase.equal_context.append(recall_at_k(question.evidence, [within], 1))


async def events_within(
    engine: MemoryEngine, ranked: Sequence[MemoryRecord], budget: int
) -> list[str]:
    """The events a reader sees in the first `budget` characters of the ranked texts: a
    plain memory counts only if it fits whole, a summary for the statements that fit."""
    events: list[str] = []
    for record in ranked:
        if budget <= 0:
            break
        text = record.text[:budget]
        budget -= len(record.text)
        if record.kind is Kind.SUMMARY:
            events += await visible_event_ids(engine, record, text)
        elif len(text) == len(record.text):
            events += record.source.event_ids
    return list(dict.fromkeys(events))


async def visible_event_ids(
    engine: MemoryEngine, record: MemoryRecord, shown: str | None = None
) -> list[str]:
    """The events a returned record really shows: its own, and for a summary those of the
    sources whose statement its text (or the `shown` part of it) contains."""
    text = f" {normalize_value(record.text if shown is None else shown)} "
    events = list(record.source.event_ids) if record.kind is not Kind.SUMMARY else []
    frontier = list(summary_sources(record))
    seen = {record.id}
    while frontier:
        source_id = frontier.pop(0)
        if source_id in seen:
            continue
        seen.add(source_id)
        source = await engine.store.get(source_id, record.scope)
        if source is None:
            continue
        if source.kind is Kind.SUMMARY:
            frontier += summary_sources(source)
            continue
        statement = source.text.partition(": ")[2] or source.text
        sentences = [normalize_value(s) for s in split_sentences(statement)]
        if sentences and all(f" {s} " in text for s in sentences):
            events += source.source.event_ids
    return list(dict.fromkeys(events))


async def run_conversation(
    engine: MemoryEngine,
    clock: SessionClock,
    conversation: Conversation,
    args: argparse.Namespace,
    ks: Sequence[int],
    totals: Totals,
) -> None:
    scope = scope_for(conversation)
    started = time.perf_counter()
    for session, events in zip(conversation.sessions, session_events(conversation), strict=True):
        clock.now = session.date
        await engine.ingest(scope, events)
    totals.seconds_ingest += time.perf_counter() - started
    now = conversation.last_date
    clock.now = now
    await measure(engine, conversation, ks, totals.before)

    started = time.perf_counter()
    gc = await collect_garbage(
        engine,
        scope,
        GcConfig(
            s_min=args.s_min,
            sessions_without_hit=args.sessions,
            scoring=ScoringConfig(half_life_days=args.half_life_days),
        ),
        now,
    )
    merged = await consolidate(
        engine,
        scope,
        ConsolidationConfig(
            similarity=args.similarity,
            min_cluster_size=args.min_size,
            max_cluster_size=args.max_size,
        ),
        now,
        summarizer=LocalSummarizer(args.max_chars),
    )
    totals.seconds_lifecycle += time.perf_counter() - started
    totals.gc_archived += gc.archived_count
    totals.summaries += len(merged.summary_ids)
    totals.consolidated += merged.archived_count
    budgets = totals.before.context_chars[-len(evaluable(conversation.questions)) :]
    await measure(engine, conversation, ks, totals.after, budgets)
    print(
        f"  {conversation.sample_id}: active {totals.before.active} → {totals.after.active} so "
        f"far, R@10 {totals.before.mean(10):.3f} → {totals.after.mean(10):.3f}",
        file=sys.stderr,
    )


async def run_benchmark(
    conversations: Sequence[Conversation], args: argparse.Namespace, ks: Sequence[int]
) -> Totals:
    totals = Totals()
    with tempfile.TemporaryDirectory(prefix="adkmem-lifecycle-") as tmp:
        store = await SqliteStore(Path(tmp) / "locomo.db").open()
        clock = SessionClock(conversations[0].sessions[0].date)
        config = EngineConfig(record_hits=False, recall_through_summaries=not args.active_only)
        engine = build_engine(store, config=config, clock=clock)
        try:
            for conversation in conversations:
                await run_conversation(engine, clock, conversation, args, ks, totals)
        finally:
            await engine.close()
    return totals


def render(totals: Totals, ks: Sequence[int], conversations: int, argv: Sequence[str]) -> str:
    before, after = totals.before, totals.after
    ratio = after.active / max(before.active, 1)
    drop = before.mean(10) - after.mean(10)
    shown_drop = before.mean_visible(10) - after.mean_visible(10)
    equal = statistics.fmean(after.equal_context or [0])
    rows: list[list[object]] = [
        ["active records", before.active, after.active, f"{ratio:.1%} of before"],
        [
            "characters of active memory text",
            before.active_chars,
            after.active_chars,
            f"{after.active_chars / max(before.active_chars, 1):.1%} of before",
        ],
        [
            "source events per returned memory (top 10)",
            f"{statistics.fmean(before.cited_per_memory or [0]):.2f}",
            f"{statistics.fmean(after.cited_per_memory or [0]):.2f}",
            "a summary is credited with every event its sources cite",
        ],
        [
            "characters of memory text in the top 10",
            f"{statistics.fmean(before.context_chars or [0]):.0f}",
            f"{statistics.fmean(after.context_chars or [0]):.0f}",
            "what a prompt carries",
        ],
        *(
            [f"R@{k}", before.mean(k), after.mean(k), f"{after.mean(k) - before.mean(k):+.3f}"]
            for k in ks
        ),
        *(
            [
                f"R@{k}, only evidence the returned text shows",
                before.mean_visible(k),
                after.mean_visible(k),
                f"{after.mean_visible(k) - before.mean_visible(k):+.3f}",
            ]
            for k in ks
        ),
        [
            "recall within the characters the top 10 had before",
            before.mean(10),
            f"{equal:.3f}",
            f"{equal - before.mean(10):+.3f}",
        ],
    ]
    size_ok = ratio <= TARGET_SIZE_RATIO
    recall_ok = drop <= TARGET_RECALL_DROP
    shown_ok = shown_drop <= TARGET_RECALL_DROP
    questions = len(before.recalls.get(ks[0], []))
    lines = [
        f"## Lifecycle on LoCoMo ({conversations} conversations, {questions} questions)",
        "",
        table(["", "before", "after GC + consolidation", "change"], rows),
        "",
        f"- gc archived {totals.gc_archived}; consolidation wrote {totals.summaries} summaries "
        f"over {totals.consolidated} archived sources",
        f"- ingest {totals.seconds_ingest:.1f} s; gc + consolidation "
        f"{totals.seconds_lifecycle:.1f} s",
        f"- target store ≤ {TARGET_SIZE_RATIO:.0%}: {'met' if size_ok else 'missed'}; "
        f"R@10 drop ≤ {TARGET_RECALL_DROP * 100:.0f} points: "
        f"{'met' if recall_ok else 'missed'} through source links (R@10 changed by "
        f"{-drop * 100:+.1f} points), {'met' if shown_ok else 'missed'} counting only evidence "
        f"the returned text shows ({-shown_drop * 100:+.1f} points)",
        f"- not a target, the price: within the characters its top 10 had before, recall "
        f"changed by {(equal - before.mean(10)) * 100:+.1f} points",
        "",
        f"Measured on {machine()}.",
        "",
        f"Reproduce: `{command_line(MODULE, argv)}`",
    ]
    return "\n".join(lines)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    gc, merge = GcConfig(), ConsolidationConfig()
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}", description=__doc__.split("\n")[0])
    parser.add_argument("--conversations", type=int, default=None, help="first N (default all)")
    parser.add_argument("--k", default="1,5,10", help="comma-separated cut-offs")
    parser.add_argument("--data", default=None, help="path to locomo10.json")
    parser.add_argument("--s-min", type=float, default=gc.s_min)
    parser.add_argument("--sessions", type=int, default=gc.sessions_without_hit)
    parser.add_argument("--half-life-days", type=float, default=ScoringConfig().half_life_days)
    parser.add_argument("--similarity", type=float, default=merge.similarity)
    parser.add_argument("--min-size", type=int, default=merge.min_cluster_size)
    parser.add_argument("--max-size", type=int, default=merge.max_cluster_size)
    parser.add_argument("--max-chars", type=int, default=SUMMARY_MAX_CHARS)
    parser.add_argument(
        "--active-only",
        action="store_true",
        help="match queries against active records only "
        "(EngineConfig.recall_through_summaries=False): summaries must be found by their own "
        "text, archived sources take no part in recall",
    )
    return parser.parse_args(argv)


async def run(argv: Sequence[str]) -> str:
    args = parse_args(argv)
    ks = sorted({int(k) for k in args.k.split(",") if k.strip()} | {10})
    conversations = load_locomo(args.data)[: args.conversations]
    totals = await run_benchmark(conversations, args, ks)
    return render(totals, ks, len(conversations), argv)


def main(argv: Sequence[str] | None = None) -> str:
    """Runs the benchmark, prints the markdown report and returns it."""
    report = asyncio.run(run(list(sys.argv[1:] if argv is None else argv)))
    print(report)
    return report


if __name__ == "__main__":
    main()
