"""Knowledge updates inside real conversation: is the current value first, is a true fact kept?

    .venv/bin/python -m bench.bench_updates
        [--split dev|dev2|dev3|dev4|dev5|dev6|dev7|dev8|heldout|blind|heldout3|all]
        [--path local|gemini|both]
        [--live] [--skip-locomo] [--json] [--verbose]

The suite (`bench/updates/<split>.json`, written for this benchmark: `dev` to `dev8` were
tuned against; `heldout`, `blind` and `heldout3` give the held-out figures, and `blind` and
`heldout3` were scored but never read while the code was tuned; every split but `dev` and
`heldout` comes from authors who had seen no other split) holds three kinds of case,
each two or three dated sessions of one user with an agent:

- **update**: a first session states a value ("I drive a VW Golf"), a later one changes it in
  any phrasing ("Traded in the Golf for an e-bike"); the probe ("What do I use to get
  around?") should rank the new value first and not return the old one.
- **compatible**: a later statement that must not displace the first ("I also play squash").
- **keep**: a later sentence that looks like a slot update but is not ("I'm at a conference in
  Vienna this week" after "I live in Berlin"); the original must stay active and recalled.

Each statement sits among unrelated turns (small talk, questions to the agent, agent replies)
drawn deterministically from the split's own filler; every session is one `ingest` call, as an
ADK app saves a session. The engine's clock reads the session's time, so what was recorded
when is realistic. Values are scored by the strings that identify them in a memory's text.
Candidate recall is observed through the public `classifier=` seam: a recording
`ContradictionClassifier` delegates to the real one and keeps the `ReconcileItem`s it is shown.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import functools
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from adk_memory.engine import EngineConfig, MemoryEngine
from adk_memory.extraction.base import FactExtractor
from adk_memory.factory import build_engine
from adk_memory.model import InputEvent, MemoryRecord, Scope, ScoredMemory, Status
from adk_memory.reconcile.base import (
    ClassificationResult,
    ContradictionClassifier,
    ReconcileItem,
)
from adk_memory.reconcile.local import LocalClassifier
from adk_memory.stores.uri import open_store
from bench.report import command_line, machine, table

MODULE = "bench.bench_updates"
DATA_DIR = Path(__file__).resolve().parent / "updates"
SPLITS = (
    "dev",
    "dev2",
    "dev3",
    "dev4",
    "dev5",
    "dev6",
    "dev7",
    "dev8",
    "heldout",
    "blind",
    "heldout3",
)
#: The splits nothing was fitted or tuned on: together, the figures that say how the offline
#: path does on conversation it has not seen.
HELD_OUT = ("heldout", "blind", "heldout3")
#: What `--split all` reports: each split, the held-out ones together, and everything.
GROUPS: dict[str, tuple[str, ...]] = {
    **{name: (name,) for name in SPLITS},
    "held-out": HELD_OUT,
    "all": SPLITS,
}
CaseKind = Literal["update", "compatible", "keep"]
PathName = Literal["local", "gemini"]

#: Targets of issue 13 for the embedded default: (metric key, comparison, bound).
TARGETS: dict[str, tuple[str, float]] = {
    "current_first": (">=", 0.90),
    "stale_returned": ("<=", 0.20),
    "compatible_kept": (">=", 0.95),
    "facts_lost": ("<=", 0.01),
    "candidate_recall": (">=", 0.98),
    "locomo_r10": (">=", 0.632),
}
METRIC_NAMES = {
    "current_first": "current value ranked first",
    "stale_returned": "stale value in top 5",
    "compatible_kept": "compatible pairs both in top 5",
    "facts_lost": "true facts lost",
    "candidate_recall": "candidate recall (old memory shown to the classifier)",
    "lure_first": "keep cases: the look-alike ranked first",
    "noise_top5": "filler-derived memories among the top 5 (mean per probe)",
    "locomo_r10": "LoCoMo evidence recall@10",
}
#: How many results count as "returned" for stale, compatible and kept facts.
RETURNED = 5
#: How deep each probe recalls (failure details show the top of this list).
PROBE_K = 10
_BASE_DATE = datetime(2025, 1, 6, tzinfo=UTC)


class SuiteError(ValueError):
    """The suite's data is malformed (a value not in its statement, filler naming a value)."""


# -- data -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One scenario: `before` is stated first, `after` `gap_days` later, then `probe` asked.

    Value lists are alternatives that identify a value in a memory's text: `old`/`new` for an
    update, `first`/`second` for a compatible pair, `keep` (and the look-alike's `lure`) for
    a must-not-destroy case.
    """

    id: str
    kind: CaseKind
    domain: str
    form: str
    gap_days: int
    before: str
    after: str
    probe: str
    split: str = ""
    old: tuple[str, ...] = ()
    new: tuple[str, ...] = ()
    first: tuple[str, ...] = ()
    second: tuple[str, ...] = ()
    probe_second: str | None = None
    keep: tuple[str, ...] = ()
    lure: tuple[str, ...] = ()

    def values(self) -> tuple[str, ...]:
        return self.old + self.new + self.first + self.second + self.keep + self.lure


@dataclass(frozen=True)
class Filler:
    """What surrounds a case's statements in a split: the user's other facts (`background`,
    about things no probe asks), openers, (user, agent) exchanges and replies."""

    background: tuple[str, ...]
    openers: tuple[str, ...]
    opener_replies: tuple[str, ...]
    exchanges: tuple[tuple[str, str], ...]
    acks: tuple[str, ...]
    answers: tuple[str, ...]

    def texts(self) -> list[str]:
        pairs = [t for pair in self.exchanges for t in pair]
        return [
            *self.background,
            *self.openers,
            *self.opener_replies,
            *pairs,
            *self.acks,
            *self.answers,
        ]


@dataclass(frozen=True)
class Suite:
    cases: tuple[Case, ...]
    filler: dict[str, Filler]


@functools.cache
def _pattern(value: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(value)}(?!\w)", flags=re.IGNORECASE)


def mentions(text: str, values: Sequence[str]) -> bool:
    """Whether `text` names any of `values` as a whole word or phrase, ignoring case."""
    return any(_pattern(v).search(text) for v in values)


def _case(raw: dict[str, Any], split: str) -> Case:
    def values(key: str) -> tuple[str, ...]:
        return tuple(str(v) for v in raw.get(key, ()))

    return Case(
        id=str(raw["id"]),
        kind=raw["kind"],
        domain=str(raw["domain"]),
        form=str(raw["form"]),
        gap_days=int(raw["gap_days"]),
        before=str(raw["before"]),
        after=str(raw["after"]),
        probe=str(raw["probe"]),
        split=split,
        old=values("old"),
        new=values("new"),
        first=values("first"),
        second=values("second"),
        probe_second=raw.get("probe_second"),
        keep=values("keep"),
        lure=values("lure"),
    )


def validate(cases: Sequence[Case], filler: Filler) -> None:
    """Checks that the data scores what it claims to.

    Raises:
        SuiteError: listing every problem (unknown kind, a value not in its statement, filler
            that names a case's value, duplicate ids).
    """
    problems: list[str] = []
    seen: set[str] = set()
    required: dict[str, list[tuple[str, str]]] = {
        "update": [("old", "before"), ("new", "after")],
        "compatible": [("first", "before"), ("second", "after")],
        "keep": [("keep", "before")],
    }
    for case in cases:
        if case.id in seen:
            problems.append(f"{case.id}: duplicate id")
        seen.add(case.id)
        if case.kind not in required:
            problems.append(f"{case.id}: unknown kind {case.kind!r}")
            continue
        if case.gap_days < 1:
            problems.append(f"{case.id}: gap_days must be at least 1")
        for values_name, text_name in required[case.kind]:
            values = getattr(case, values_name)
            if not values or not mentions(getattr(case, text_name), values):
                problems.append(f"{case.id}: no {values_name} value in {text_name!r}")
        if case.lure and not mentions(case.after, case.lure):
            problems.append(f"{case.id}: lure not in 'after'")
        for text in filler.texts():
            if mentions(text, case.values()):
                problems.append(f"{case.id}: filler {text!r} names one of its values")
    if problems:
        raise SuiteError("bench/updates data is malformed:\n  " + "\n  ".join(problems))


def load_split(split: str, data_dir: Path = DATA_DIR) -> Suite:
    """Reads and validates one split file (one of `SPLITS`)."""
    raw = json.loads((data_dir / f"{split}.json").read_text(encoding="utf-8"))
    f = raw["filler"]
    filler = Filler(
        background=tuple(f["background"]),
        openers=tuple(f["openers"]),
        opener_replies=tuple(f["opener_replies"]),
        exchanges=tuple((str(u), str(a)) for u, a in f["exchanges"]),
        acks=tuple(f["acks"]),
        answers=tuple(f["answers"]),
    )
    cases = tuple(_case(c, split) for c in raw["cases"])
    validate(cases, filler)
    return Suite(cases=cases, filler={split: filler})


def load_suite(split: str = "dev", data_dir: Path = DATA_DIR) -> Suite:
    """One split, or `all` of them (ids are unique across splits)."""
    names = SPLITS if split == "all" else (split,)
    if any(n not in SPLITS for n in names):
        raise SuiteError(f"unknown split {split!r}: choose one of {', '.join(SPLITS)} or all")
    suites = [load_split(n, data_dir) for n in names]
    cases = tuple(c for s in suites for c in s.cases)
    ids = Counter(c.id for c in cases)
    if dup := [i for i, n in ids.items() if n > 1]:
        raise SuiteError(f"ids repeated across splits: {dup}")
    return Suite(cases=cases, filler={k: v for s in suites for k, v in s.filler.items()})


# -- conversations --------------------------------------------------------------------------


@dataclass(frozen=True)
class Conversation:
    """A case as ingest batches, with the ids of its two statements and of the user's
    background facts; `now` is when the probe is asked."""

    sessions: tuple[tuple[InputEvent, ...], ...]
    first_id: str
    second_id: str
    background_ids: frozenset[str]
    now: datetime

    def filler_ids(self) -> set[str]:
        """Events that state nothing about the user (small talk, questions, agent turns)."""
        ids = {e.id for s in self.sessions for e in s}
        return ids - {self.first_id, self.second_id} - self.background_ids


def _session(
    case: Case,
    number: int,
    start: datetime,
    filler: Filler,
    rng: random.Random,
    statement: str | None,
    facts: Sequence[str] = (),
) -> tuple[tuple[InputEvent, ...], str | None]:
    turns: list[tuple[str, str]] = []
    if rng.random() < 0.5:
        turns += [
            ("user", rng.choice(filler.openers)),
            ("model", rng.choice(filler.opener_replies)),
        ]
    exchanges = rng.sample(filler.exchanges, rng.choice((1, 2, 3)))
    at = rng.randrange(len(exchanges) + 1) if statement is not None else -1
    statement_index: int | None = None
    for i in range(len(exchanges) + 1):
        if i == at and statement is not None:
            replies = filler.answers if statement.rstrip().endswith("?") else filler.acks
            statement_index = len(turns)
            turns += [("user", statement), ("model", rng.choice(replies))]
        if i < len(exchanges):
            turns += [("user", exchanges[i][0]), ("model", exchanges[i][1])]
    for fact in facts:
        turns += [("user", fact), ("model", rng.choice(filler.acks))]
    events: list[InputEvent] = []
    clock = start
    for i, (author, text) in enumerate(turns):
        clock += timedelta(seconds=rng.randrange(20, 150))
        events.append(
            InputEvent(
                id=f"{case.id}/s{number}/{i}",
                author=author,
                text=text,
                timestamp=clock,
                session_id=f"{case.id}/s{number}",
            )
        )
    statement_id = events[statement_index].id if statement_index is not None else None
    return tuple(events), statement_id


def conversation(case: Case, filler: Filler) -> Conversation:
    """The case's sessions, deterministic per case id (dates, filler, positions).

    Two earlier sessions tell the user's background facts, so the store holds other memories
    about the person (what the classifier's candidates are chosen among, and what a probe
    must rank above); then the first statement's session, sometimes a session of small talk
    only, and `gap_days` after the first the session with the second statement.
    """
    rng = random.Random(zlib.crc32(case.id.encode()))
    start = _BASE_DATE + timedelta(
        days=60 + rng.randrange(500), hours=7 + rng.randrange(14), minutes=rng.randrange(60)
    )
    background = list(filler.background)
    rng.shuffle(background)
    half = len(background) // 2
    sessions: list[tuple[InputEvent, ...]] = []
    for days, facts in ((-45, background[:half]), (-20, background[half:])):
        at = start + timedelta(days=days + rng.randrange(-5, 6), hours=rng.randrange(-3, 4))
        sessions.append(_session(case, len(sessions) + 1, at, filler, rng, None, facts)[0])
    background_ids = frozenset(
        e.id for s in sessions for e in s if e.author == "user" and e.text in filler.background
    )
    first, first_id = _session(case, len(sessions) + 1, start, filler, rng, case.before)
    sessions.append(first)
    if case.gap_days >= 4 and rng.random() < 0.35:
        middle_at = start + timedelta(days=case.gap_days // 2, hours=rng.randrange(-3, 4))
        sessions.append(_session(case, len(sessions) + 1, middle_at, filler, rng, None)[0])
    later = start + timedelta(days=case.gap_days, hours=rng.randrange(-4, 5))
    second, second_id = _session(case, len(sessions) + 1, later, filler, rng, case.after)
    sessions.append(second)
    assert first_id is not None and second_id is not None
    now = second[-1].timestamp + timedelta(days=1)
    return Conversation(tuple(sessions), first_id, second_id, background_ids, now)


# -- running --------------------------------------------------------------------------------

_NOW: contextvars.ContextVar[datetime] = contextvars.ContextVar("bench_updates_now")


def session_clock() -> datetime:
    """The engine's clock: the time of the session being saved (per asyncio task)."""
    return _NOW.get()


async def ingest_sessions(
    engine: MemoryEngine, scope: Scope, sessions: Sequence[Sequence[InputEvent]]
) -> None:
    """Saves each session with one `ingest`, as an ADK app does, the engine's clock (when
    built with `session_clock`) reading the session's last event time."""
    for events in sessions:
        _NOW.set(events[-1].timestamp)
        await engine.ingest(scope, list(events))


class RecordingClassifier:
    """A `ContradictionClassifier` that delegates and keeps every item it was shown."""

    def __init__(self, inner: ContradictionClassifier) -> None:
        self.inner = inner
        self.items: list[ReconcileItem] = []

    async def classify(self, items: Sequence[ReconcileItem]) -> ClassificationResult:
        self.items.extend(items)
        return await self.inner.classify(items)

    def shown(self, event_id: str) -> list[ReconcileItem]:
        """Items whose fact cites the event (every extractor cites its source events)."""
        return [i for i in self.items if event_id in i.fact.source.event_ids]


@dataclass
class CaseResult:
    id: str
    split: str
    kind: str
    domain: str
    form: str
    probe: str
    #: A failure class ("stale ranked first", ...) or None when the case passed.
    failure: str | None = None
    current_first: bool | None = None
    stale_returned: bool | None = None
    compatible_kept: bool | None = None
    fact_lost: bool | None = None
    lure_first: bool | None = None
    #: None when the old value was never stored (nothing to show the classifier).
    candidate_hit: bool | None = None
    noise_top5: int = 0
    returned: list[str] = field(default_factory=list)


def _texts(ranked: Sequence[ScoredMemory], k: int) -> list[str]:
    return [m.record.text for m in ranked[:k]]


async def _active_with(engine: MemoryEngine, scope: Scope, values: Sequence[str]) -> list[str]:
    page = await engine.list(scope, statuses=[Status.ACTIVE], limit=1000)
    return [r.id for r in page.records if mentions(r.text, values)]


async def _all_with(
    engine: MemoryEngine, scope: Scope, values: Sequence[str]
) -> list[MemoryRecord]:
    page = await engine.list(scope, limit=1000)
    return [r for r in page.records if mentions(r.text, values)]


async def _still_active(engine: MemoryEngine, scope: Scope, ids: Sequence[str]) -> bool:
    for memory_id in ids:
        if (await engine.get(memory_id, scope)).status is Status.ACTIVE:
            return True
    return False


async def run_case(
    engine: MemoryEngine, recorder: RecordingClassifier, case: Case, filler: Filler
) -> CaseResult:
    """Ingests the case's sessions one `ingest` each, probes, and scores."""
    _NOW.set(_BASE_DATE)
    scope = Scope(app_name="bench_updates", user_id=case.id)
    convo = conversation(case, filler)
    originals_values = {"update": case.old, "compatible": case.first, "keep": case.keep}[case.kind]
    await ingest_sessions(engine, scope, convo.sessions[:-1])
    originals = await _active_with(engine, scope, originals_values)
    await ingest_sessions(engine, scope, convo.sessions[-1:])
    ranked = await engine.recall(scope, case.probe, top_k=PROBE_K, now=convo.now)
    top = ranked[:RETURNED]
    noise = convo.filler_ids()
    result = CaseResult(
        id=case.id,
        split=case.split,
        kind=case.kind,
        domain=case.domain,
        form=case.form,
        probe=case.probe,
        noise_top5=sum(
            1 for m in top if m.record.source.event_ids and set(m.record.source.event_ids) <= noise
        ),
        returned=_texts(ranked, RETURNED),
    )
    texts = _texts(ranked, RETURNED)
    if case.kind == "update":
        await _score_update(engine, scope, recorder, case, convo, ranked, originals, result)
    elif case.kind == "compatible":
        second = ranked
        if case.probe_second:
            second = await engine.recall(scope, case.probe_second, top_k=PROBE_K, now=convo.now)
            result.returned += ["-- " + case.probe_second, *_texts(second, RETURNED)]
        first_in = any(mentions(t, case.first) for t in texts)
        second_in = any(mentions(t, case.second) for t in _texts(second, RETURNED))
        result.compatible_kept = first_in and second_in
        if not originals:
            result.failure = "first fact never stored intact"
        elif not await _still_active(engine, scope, originals):
            result.failure = "first fact superseded"
        elif not await _active_with(engine, scope, case.second):
            result.failure = "second fact never stored intact"
        elif not first_in:
            result.failure = "first fact not in top 5"
        elif not second_in:
            result.failure = "second fact not in top 5"
    else:
        kept_in = any(mentions(t, case.keep) for t in texts)
        result.lure_first = bool(
            case.lure
            and texts
            and mentions(texts[0], case.lure)
            and not mentions(texts[0], case.keep)
        )
        result.fact_lost = True
        if not originals:
            result.failure = "original never stored intact"
        elif not await _still_active(engine, scope, originals):
            result.failure = "original superseded"
        elif not kept_in:
            result.failure = "original not in top 5"
        else:
            result.fact_lost = False
        if result.failure is None and result.lure_first:
            result.failure = "look-alike ranked first (fact kept)"
    return result


async def _score_update(
    engine: MemoryEngine,
    scope: Scope,
    recorder: RecordingClassifier,
    case: Case,
    convo: Conversation,
    ranked: Sequence[ScoredMemory],
    originals: Sequence[str],
    result: CaseResult,
) -> None:
    texts = _texts(ranked, RETURNED)

    def stale(text: str) -> bool:
        return mentions(text, case.old) and not mentions(text, case.new)

    result.current_first = bool(texts) and mentions(texts[0], case.new)
    result.stale_returned = any(stale(t) for t in texts)
    if originals:
        shown = recorder.shown(convo.second_id)
        result.candidate_hit = any(
            c.record.id in originals for item in shown for c in item.candidates
        )
    if result.current_first and not result.stale_returned:
        return
    new_records = await _all_with(engine, scope, case.new)
    new_active = [r for r in new_records if r.status is Status.ACTIVE]
    if not new_records:
        result.failure = "new value never stored"
    elif not new_active:
        result.failure = "new value stored as superseded"
    elif not any(mentions(t, case.new) for t in texts):
        result.failure = "new value not in top 5"
    elif texts and stale(texts[0]):
        result.failure = "stale ranked first"
    elif not result.current_first:
        result.failure = "other memory ranked first"
    else:
        result.failure = "current first, stale also returned"


@dataclass
class PathRun:
    path: str
    where: str
    results: list[CaseResult]
    seconds: float
    locomo_r10: float | None = None


async def run_cases(
    cases: Sequence[Case],
    filler: dict[str, Filler],
    *,
    workdir: Path,
    extractor: FactExtractor | None = None,
    classifier: ContradictionClassifier | None = None,
    concurrency: int = 1,
) -> list[CaseResult]:
    """Runs cases in one fresh sqlite store, one scope per case, `concurrency` at a time."""
    recorder = RecordingClassifier(classifier or LocalClassifier())
    store = await open_store(f"adkmem+sqlite://{workdir / 'updates.db'}")
    engine = build_engine(
        store,
        extractor=extractor,
        classifier=recorder,
        config=EngineConfig(record_hits=False),
        clock=session_clock,
    )
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(case: Case) -> CaseResult:
        async with gate:
            return await run_case(engine, recorder, case, filler[case.split])

    try:
        if concurrency <= 1:
            return [await one(c) for c in cases]
        # Each case runs in its own task, so the clock's context variable stays per case.
        return list(await asyncio.gather(*(asyncio.create_task(one(c)) for c in cases)))
    finally:
        await engine.close()


async def locomo_r10(
    workdir: Path,
    *,
    extractor: FactExtractor | None,
    classifier: ContradictionClassifier | None,
    conversations: int | None,
) -> float:
    """LoCoMo evidence recall@10 through bench_locomo's protocol with this path's models."""
    from bench.bench_locomo import IngestStats, evaluate_conversation, ingest_conversation
    from bench.locomo import load_locomo

    data = load_locomo()[:conversations]
    store = await open_store(f"adkmem+sqlite://{workdir / 'locomo.db'}")
    engine = build_engine(
        store, extractor=extractor, classifier=classifier, config=EngineConfig(record_hits=False)
    )
    recalls: list[float] = []
    try:
        for convo in data:
            await ingest_conversation(engine, convo, IngestStats())
            results = await evaluate_conversation(engine, convo, [10])
            recalls += [r.recalls[10] for r in results]
            print(
                f"  locomo {convo.sample_id}: R@10 so far {statistics.fmean(recalls):.3f}",
                file=sys.stderr,
            )
    finally:
        await engine.close()
    return statistics.fmean(recalls)


@contextmanager
def _models(
    path: PathName, live: bool
) -> Iterator[tuple[str, FactExtractor | None, ContradictionClassifier | None]]:
    if path == "local":
        yield "LocalExtractor + LocalClassifier", None, None
        return
    from adk_memory.config import LlmBackend, Settings
    from adk_memory.factory import models
    from bench.bench_gemini import gemini_endpoint

    if live and not (os.environ.get("GOOGLE_API_KEY") or os.environ.get("GOOGLE_CLOUD_PROJECT")):
        raise SystemExit("--live needs GOOGLE_API_KEY (or Vertex settings) in the environment")
    with gemini_endpoint(live) as where:
        extractor, classifier = models(Settings(llm=LlmBackend.GEMINI))
        yield f"Gemini extractor + classifier, {where}", extractor, classifier


async def run_path(
    path: PathName,
    cases: Sequence[Case],
    filler: dict[str, Filler],
    *,
    live: bool,
    skip_locomo: bool,
    locomo_conversations: int | None,
    concurrency: int,
) -> PathRun:
    with (
        _models(path, live) as (where, extractor, classifier),
        tempfile.TemporaryDirectory(prefix="adkmem-updates-") as tmp,
    ):
        started = time.perf_counter()
        results = await run_cases(
            cases,
            filler,
            workdir=Path(tmp),
            extractor=extractor,
            classifier=classifier,
            concurrency=concurrency,
        )
        seconds = time.perf_counter() - started
        print(f"  {path}: {len(results)} cases in {seconds:.0f} s", file=sys.stderr)
        r10 = None
        if not skip_locomo:
            r10 = await locomo_r10(
                Path(tmp),
                extractor=extractor,
                classifier=classifier,
                conversations=locomo_conversations,
            )
    return PathRun(path=path, where=where, results=results, seconds=seconds, locomo_r10=r10)


# -- reporting ------------------------------------------------------------------------------


def _share(flags: Sequence[bool | None]) -> tuple[float | None, int, int]:
    known = [f for f in flags if f is not None]
    return (sum(known) / len(known) if known else None, sum(known), len(known))


def metrics(results: Sequence[CaseResult]) -> dict[str, dict[str, float | int | None]]:
    """Each metric as {value, hits, n}."""
    by_kind = {k: [r for r in results if r.kind == k] for k in ("update", "compatible", "keep")}
    out: dict[str, dict[str, float | int | None]] = {}
    for key, kind, attr in (
        ("current_first", "update", "current_first"),
        ("stale_returned", "update", "stale_returned"),
        ("compatible_kept", "compatible", "compatible_kept"),
        ("facts_lost", "keep", "fact_lost"),
        ("candidate_recall", "update", "candidate_hit"),
        ("lure_first", "keep", "lure_first"),
    ):
        value, hits, n = _share([getattr(r, attr) for r in by_kind[kind]])
        out[key] = {"value": value, "hits": hits, "n": n}
    noise = [r.noise_top5 for r in results]
    out["noise_top5"] = {
        "value": statistics.fmean(noise) if noise else None,
        "hits": sum(noise),
        "n": len(noise),
    }
    return out


def _meets(key: str, value: float | None) -> str:
    if key not in TARGETS or value is None:
        return ""
    op, bound = TARGETS[key]
    ok = value >= bound if op == ">=" else value <= bound
    return " ✓" if ok else " ✗"


def _cell(key: str, m: dict[str, float | int | None]) -> str:
    value = m["value"]
    if value is None:
        return "—"
    if key == "noise_top5":
        return f"{value:.2f}"
    return f"{value:.1%} ({m['hits']}/{m['n']}){_meets(key, float(value))}"


def _target(key: str) -> str:
    if key not in TARGETS:
        return ""
    op, bound = TARGETS[key]
    return (
        f"{'≥' if op == '>=' else '≤'} {bound:.3f}"
        if key == "locomo_r10"
        else f"{op.replace('>=', '≥').replace('<=', '≤')} {bound:.0%}"
    )


def render_split(name: str, runs: Sequence[PathRun], splits: Sequence[str]) -> str:
    def pick(run: PathRun) -> list[CaseResult]:
        return [r for r in run.results if r.split in splits]

    picked = [pick(r) for r in runs]
    counts = Counter(r.kind for r in picked[0]) if picked else Counter()
    per_path = [metrics(p) for p in picked]
    headers = ["metric", "target", *(f"{r.path}" for r in runs)]
    rows: list[list[object]] = []
    for key in METRIC_NAMES:
        if key == "locomo_r10":
            cells = [
                "—" if r.locomo_r10 is None else f"{r.locomo_r10:.3f}{_meets(key, r.locomo_r10)}"
                for r in runs
            ]
        else:
            cells = [_cell(key, m[key]) for m in per_path]
        rows.append([METRIC_NAMES[key], _target(key), *cells])
    failures: Counter[tuple[str, str]] = Counter()
    for p in picked:
        failures.update((r.kind, r.failure) for r in p if r.failure)
    classes = sorted({k for k in failures}, key=lambda kf: (kf[0], kf[1]))
    failure_rows = [
        [
            kind,
            failure,
            *(sum(1 for r in p if (r.kind, r.failure) == (kind, failure)) for p in picked),
        ]
        for kind, failure in classes
    ]
    forms = sorted({r.form for r in picked[0] if r.kind == "update"}) if picked else []
    form_rows = []
    for form in forms:
        cells = []
        for p in picked:
            group = [r for r in p if r.kind == "update" and r.form == form]
            first = sum(1 for r in group if r.current_first)
            stale = sum(1 for r in group if r.stale_returned)
            cells.append(f"{first}/{len(group)} first, {stale} stale")
        form_rows.append([form, *cells])
    traps = sorted({r.form for r in picked[0] if r.kind == "keep"}) if picked else []
    trap_rows = []
    for trap in traps:
        cells = []
        for p in picked:
            group = [r for r in p if r.kind == "keep" and r.form == trap]
            cells.append(f"{sum(1 for r in group if r.fact_lost)}/{len(group)} lost")
        trap_rows.append([trap, *cells])
    lines = [
        f"### split {name}: {counts['update']} updates, {counts['compatible']} compatible pairs, "
        f"{counts['keep']} must-not-destroy cases",
        "",
        table(headers, rows),
        "",
        "Failures by class (cases):",
        "",
        table(["kind", "failure", *(r.path for r in runs)], failure_rows)
        if failure_rows
        else "none",
        "",
        "Updates by phrasing:",
        "",
        table(["form", *(r.path for r in runs)], form_rows),
        "",
        "Must-not-destroy cases by trap:",
        "",
        table(["trap", *(r.path for r in runs)], trap_rows),
    ]
    return "\n".join(lines)


def code_version() -> str:
    """The commit measured, marked when the working tree has uncommitted changes."""
    import subprocess

    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "adk_memory"],
            cwd=root,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "unknown"
    return f"{head or 'unknown'}{' + uncommitted changes to adk_memory/' if dirty else ''}"


def render(runs: Sequence[PathRun], split: str, argv: Sequence[str]) -> str:
    names = list(GROUPS) if split == "all" else [split]
    paths = "; ".join(f"**{r.path}**: {r.where}, {r.seconds:.0f} s" for r in runs)
    sections = [render_split(n, runs, GROUPS[n]) for n in names]
    return "\n".join(
        [
            "## Knowledge updates in conversation (bench/updates)",
            "",
            paths + ".",
            "",
            "\n\n".join(sections),
            "",
            f"Current first: the probe's top result names the new value. Stale: a top-{RETURNED} "
            "result names the old value and not the new. Lost: the original is superseded, was "
            f"never stored with its value intact, or is not in the top {RETURNED}. Candidate "
            "recall: the old memory is among the candidates shown to the classifier for the "
            "new statement (updates whose old value was stored). ✓/✗: the issue-13 target for "
            "the embedded default.",
            "",
            f"Measured on {machine()}, code at {code_version()}.",
            "",
            f"Reproduce: `{command_line(MODULE, argv)}`",
        ]
    )


def as_json(runs: Sequence[PathRun], split: str, argv: Sequence[str]) -> dict[str, Any]:
    names = list(GROUPS) if split == "all" else [split]
    return {
        "command": command_line(MODULE, argv),
        "code": code_version(),
        "targets": {k: {"op": op, "bound": b} for k, (op, b) in TARGETS.items()},
        "paths": {
            r.path: {
                "where": r.where,
                "seconds": r.seconds,
                "locomo_r10": r.locomo_r10,
                "splits": {
                    n: metrics([c for c in r.results if c.split in GROUPS[n]]) for n in names
                },
                "failures": [asdict(c) for c in r.results if c.failure],
            }
            for r in runs
        },
    }


def render_failures(runs: Sequence[PathRun]) -> str:
    lines = []
    for run in runs:
        failed = [r for r in run.results if r.failure]
        lines += ["", f"### failing cases, {run.path} ({len(failed)})", ""]
        for r in failed:
            lines.append(f"- `{r.id}` [{r.split}, {r.form}] {r.failure} — probe {r.probe!r}")
            lines += [f"    {i + 1}. {t[:140]}" for i, t in enumerate(r.returned)]
    return "\n".join(lines)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}", description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=[*SPLITS, "all"], default="dev")
    parser.add_argument("--path", choices=["local", "gemini", "both"], default="both")
    parser.add_argument("--live", action="store_true", help="gemini path against real Gemini")
    parser.add_argument("--skip-locomo", action="store_true", help="leave LoCoMo R@10 out")
    parser.add_argument("--locomo-conversations", type=int, default=None, help="first N")
    parser.add_argument("--cases", type=int, default=None, help="first N cases (smoke runs)")
    parser.add_argument("--concurrency", type=int, default=None, help="cases in flight")
    parser.add_argument("--json", action="store_true", help="print JSON instead of markdown")
    parser.add_argument("--verbose", action="store_true", help="list each failing case")
    return parser.parse_args(argv)


async def run(argv: Sequence[str]) -> tuple[str, list[PathRun], argparse.Namespace]:
    args = parse_args(argv)
    suite = load_suite(args.split)
    cases = suite.cases[: args.cases]
    paths: list[PathName] = ["local", "gemini"] if args.path == "both" else [args.path]
    concurrency = args.concurrency or (8 if args.live else 1)
    runs = [
        await run_path(
            p,
            cases,
            suite.filler,
            live=args.live,
            skip_locomo=args.skip_locomo,
            locomo_conversations=args.locomo_conversations,
            concurrency=concurrency,
        )
        for p in paths
    ]
    if args.json:
        return json.dumps(as_json(runs, args.split, argv), indent=2, default=str), runs, args
    report = render(runs, args.split, argv)
    if args.verbose:
        report += "\n" + render_failures(runs)
    return report, runs, args


def main(argv: Sequence[str] | None = None) -> str:
    """Runs the suite, prints the markdown (or JSON) report and returns it."""
    report, _, _ = asyncio.run(run(list(sys.argv[1:] if argv is None else argv)))
    print(report)
    return report


if __name__ == "__main__":
    main()
