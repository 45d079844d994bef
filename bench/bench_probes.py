"""Review probes for recall's same-question ordering: does a later update come first, and does a
later remark that changes nothing stay below the fact?

Each probe is a fact, a later statement 40 days on, and a query about the fact
(`bench/probes/probes.json`, written by reviewers). Five unrelated facts of the same user
surround the fact; every statement is a user message in its own session, ingested through
`MemoryEngine.ingest` (local extractor and classifier, sqlite, the bundled embeddings), and the
query recalls the top 5. Each probe runs twice on the same store: with the shipped ordering, and
with the reading of two related answers turned off (`answer_cosine=1.0`; changes, slots and
near-identical sentences still order), which shows what that reading adds and costs.

- updates: the later statement ranks above the fact, or REPLACE superseded the fact;
- remarks: the later statement ranks above the fact it does not change (a wrong order), or the
  fact is marked earlier or missing from the top 5 (worse);
- compatible: either fact is missing from the top 5 or marked;
- others (someone else's news after a fact of the speaker's: "Ravi left Google" after "I work
  at Google"): REPLACE superseded the fact (a true fact destroyed), or the fact is marked
  earlier or missing from the top 5.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from adk_memory.embedding.local import LocalEmbedder
from adk_memory.engine import EngineConfig, MemoryEngine
from adk_memory.factory import build_engine
from adk_memory.model import InputEvent, Scope, ScoredMemory
from adk_memory.retrieval.ordering import OrderingConfig
from adk_memory.stores.sqlite.store import SqliteStore
from bench.isolated import each_in_a_fresh_directory
from bench.report import command_line, machine, table

MODULE = "bench.bench_probes"
#: The kinds of probe, in the order the report shows them.
KINDS = ("updates", "remarks", "compatible", "others")
PROBES = Path(__file__).parent / "probes" / "probes.json"
SCOPE = Scope(app_name="probes", user_id="u1")
_T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
#: Unrelated facts of the same user, three before the fact and two after it.
FILLERS = (
    "My shoe size is 42.",
    "I was born in Cork.",
    "I enjoy crossword puzzles.",
    "My favourite season is autumn.",
    "I prefer window seats on flights.",
)
RETURNED = 5
#: The two configurations each probe is recalled with.
CONFIGS = {
    "shipped": EngineConfig(record_hits=False),
    "without related answers": EngineConfig(
        record_hits=False, ordering=OrderingConfig(answer_cosine=1.0)
    ),
}


@dataclass
class Probe:
    kind: str
    fact: str
    later: str
    query: str


@dataclass
class Outcome:
    """Where the fact and the later statement landed, per configuration."""

    probe: Probe
    #: REPLACE superseded the fact when the later statement was ingested.
    replaced: bool
    #: Per configuration: (rank of the fact or None, its mark, rank of the later or None).
    ranks: dict[str, tuple[int | None, bool | None, int | None]] = field(default_factory=dict)

    def later_first(self, config: str) -> bool:
        fact, _, later = self.ranks[config]
        return later is not None and (fact is None or later < fact)


def load(path: Path = PROBES) -> list[Probe]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    return [Probe(kind, p["fact"], p["later"], p["query"]) for kind in KINDS for p in raw[kind]]


def _position(ranked: Sequence[ScoredMemory], ids: set[str]) -> tuple[int | None, bool | None]:
    for rank, memory in enumerate(ranked[:RETURNED]):
        if memory.record.id in ids:
            return rank, memory.latest
    return None, None


async def run_probe(probe: Probe, embedder: LocalEmbedder, workdir: Path) -> Outcome:
    store = await SqliteStore(workdir / "probe.db").open()
    now = [_T0]
    engines: dict[str, MemoryEngine] = {
        name: build_engine(store, embedder=embedder, config=config, clock=lambda: now[0])
        for name, config in CONFIGS.items()
    }
    writer = engines["shipped"]
    said = [*FILLERS[:3], probe.fact, *FILLERS[3:], probe.later]
    written: dict[str, set[str]] = {}
    replaced = False
    days = 0
    for n, text in enumerate(said):
        days += 40 if n == len(said) - 1 else 2
        now[0] = _T0 + timedelta(days=days)
        event = InputEvent(
            author="user", role="user", text=text, timestamp=now[0], session_id=f"s{n}"
        )
        result = await writer.ingest(SCOPE, [event])
        written[text] = {o.id for o in result.outcomes}
        if text == probe.later:
            replaced = any(
                set(o.superseded) & written[probe.fact] for o in result.outcomes if o.superseded
            )
    now[0] += timedelta(days=1)
    outcome = Outcome(probe, replaced)
    for name, engine in engines.items():
        ranked = await engine.recall(SCOPE, probe.query, top_k=RETURNED)
        fact, mark = _position(ranked, written[probe.fact])
        later, _ = _position(ranked, written[probe.later])
        outcome.ranks[name] = (fact, mark, later)
    await writer.close()
    return outcome


async def run_all(probes: Sequence[Probe]) -> list[Outcome]:
    return await each_in_a_fresh_directory(probes, run_probe, prefix="adkmem-probes-")


def _count(outcomes: Sequence[Outcome], kind: str, config: str) -> tuple[int, int, int]:
    """(good or wrong order, worse, total) for one kind of probe and configuration."""
    mine = [o for o in outcomes if o.probe.kind == kind]
    if kind == "updates":
        first = sum(1 for o in mine if o.replaced or o.later_first(config))
        return first, 0, len(mine)
    if kind == "remarks":
        above = sum(1 for o in mine if o.later_first(config))
        worse = sum(1 for o in mine if o.ranks[config][0] is None or o.ranks[config][1] is False)
        return above, worse, len(mine)
    if kind == "others":
        superseded = sum(1 for o in mine if o.replaced)
        pushed = sum(
            1
            for o in mine
            if not o.replaced and (o.ranks[config][0] is None or o.ranks[config][1] is False)
        )
        return superseded, pushed, len(mine)
    broken = sum(
        1
        for o in mine
        if o.ranks[config][0] is None
        or o.ranks[config][2] is None
        or o.ranks[config][1] is not None
    )
    return broken, 0, len(mine)


def render(outcomes: Sequence[Outcome], argv: Sequence[str]) -> str:
    names = list(CONFIGS)
    rows = []
    for label, kind, part in (
        ("update first (or the fact superseded)", "updates", 0),
        ("remark ranked above the fact it does not change", "remarks", 0),
        ("remark: the fact marked earlier or out of the top 5", "remarks", 1),
        ("compatible: a fact out of the top 5, or marked", "compatible", 0),
        ("someone else's news: the speaker's fact superseded", "others", 0),
        ("someone else's news: the fact marked earlier or out of the top 5", "others", 1),
    ):
        cells = []
        for name in names:
            counts = _count(outcomes, kind, name)
            cells.append(f"{counts[part]}/{counts[2]}")
        rows.append([label, *cells])
    wrong = [o.probe for o in outcomes if o.probe.kind == "remarks" and o.later_first("shipped")]
    destroyed = [o.probe for o in outcomes if o.probe.kind == "others" and o.replaced]
    lines = [
        "## Review probes: same-question ordering",
        "",
        table(["probe", *names], rows),
        "",
        "Remarks the shipped ordering puts above the fact:",
        *(f"- {p.fact} / {p.later} / {p.query}" for p in wrong),
        "",
        "Someone else's news that superseded the speaker's fact:",
        *(f"- {p.fact} / {p.later}" for p in destroyed),
        "",
        f"Measured on {machine()}.",
        "",
        f"Reproduce: `{command_line(MODULE, argv)}`",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> str:
    """Runs the probes, prints the markdown report and returns it."""
    args = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog=MODULE, description=__doc__.split("\n")[0])
    parser.add_argument("--probes", type=int, default=None, help="first N of each kind")
    parsed = parser.parse_args(args)
    probes = load()
    if parsed.probes is not None:
        probes = [
            p for kind in KINDS for p in [q for q in probes if q.kind == kind][: parsed.probes]
        ]
    report = render(asyncio.run(run_all(probes)), args)
    print(report)
    return report


if __name__ == "__main__":
    main()
