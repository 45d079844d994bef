"""Destroyed facts: does an everyday statement that only looks like an update supersede the
earlier fact it resembles, and does a real update still supersede it?

Each pair is an earlier fact and a later statement 40 days on, both user messages in sessions
of their own, ingested through `MemoryEngine.ingest` as an ADK app saves them (local extractor
and classifier, sqlite, the bundled embeddings), in a fresh store. A look-alike that
supersedes the fact destroys a true fact (REPLACE keeps it only as history, never returned);
a real update that does not leaves the stale value active beside the new one, for recall's
ordering to put second. The pairs are `bench/supersede/pairs.json`, grouped by who wrote them
and when (its "about" says which were used to build the code).

    python -m bench.bench_supersede [--set NAME] [--verbose]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from adk_memory.embedding.local import LocalEmbedder
from adk_memory.engine import EngineConfig
from adk_memory.factory import build_engine
from adk_memory.model import InputEvent, Scope, Status
from adk_memory.stores.sqlite.store import SqliteStore
from bench.isolated import each_in_a_fresh_directory
from bench.report import command_line, machine, table

MODULE = "bench.bench_supersede"
PAIRS = Path(__file__).parent / "supersede" / "pairs.json"
SCOPE = Scope(app_name="supersede", user_id="u1")
_T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
GAP = timedelta(days=40)


@dataclass(frozen=True)
class Pair:
    set_name: str
    kind: str  # "lookalikes" or "updates"
    before: str
    after: str


def load(path: Path = PAIRS) -> list[Pair]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    return [
        Pair(name, kind, before, after)
        for name, sets in raw["sets"].items()
        for kind in ("lookalikes", "updates")
        for before, after in sets[kind]
    ]


async def superseded(pair: Pair, embedder: LocalEmbedder, workdir: Path) -> bool:
    """Whether ingesting `pair.after` superseded what `pair.before` was stored as."""
    store = await SqliteStore(workdir / "pair.db").open()
    now = [_T0]
    engine = build_engine(
        store, embedder=embedder, config=EngineConfig(record_hits=False), clock=lambda: now[0]
    )
    try:
        earlier: list[str] = []
        for n, text in enumerate((pair.before, pair.after)):
            now[0] = _T0 + GAP * n
            event = InputEvent(
                author="user", role="user", text=text, timestamp=now[0], session_id=f"s{n}"
            )
            result = await engine.ingest(SCOPE, [event])
            if n == 0:
                earlier = [o.id for o in result.outcomes]
        if not earlier:
            # A pair whose fact is never stored would count as kept and as not updated.
            raise ValueError(f"nothing was stored of {pair.before!r}")
        statuses = [(await engine.get(i)).status for i in earlier]
        return any(status is not Status.ACTIVE for status in statuses)
    finally:
        await engine.close()


async def run_all(pairs: Sequence[Pair]) -> list[bool]:
    return await each_in_a_fresh_directory(pairs, superseded, prefix="adkmem-supersede-")


def render(
    pairs: Sequence[Pair], results: Sequence[bool], argv: Sequence[str], *, verbose: bool
) -> str:
    def share(name: str, kind: str) -> str:
        hits = [
            r for p, r in zip(pairs, results, strict=True) if (p.set_name, p.kind) == (name, kind)
        ]
        return f"{sum(hits)}/{len(hits)} ({100 * sum(hits) / max(1, len(hits)):.1f} %)"

    names = dict.fromkeys(p.set_name for p in pairs)
    rows = [[name, share(name, "lookalikes"), share(name, "updates")] for name in names]
    lines = [
        "## Destroyed facts: look-alikes and real updates",
        "",
        table(["pairs", "look-alike superseded the true fact", "real update superseded it"], rows),
    ]
    if verbose:
        lines += ["", "Look-alikes that superseded the true fact:"]
        lines += [
            f"- [{p.set_name}] {p.before} || {p.after}"
            for p, r in zip(pairs, results, strict=True)
            if p.kind == "lookalikes" and r
        ]
        lines += ["", "Real updates that left the earlier fact active:"]
        lines += [
            f"- [{p.set_name}] {p.before} || {p.after}"
            for p, r in zip(pairs, results, strict=True)
            if p.kind == "updates" and not r
        ]
    lines += ["", f"`{command_line(MODULE, argv)}` · {machine()}"]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> str:
    """Runs the pairs, prints the markdown report and returns it."""
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}", description=__doc__)
    parser.add_argument("--set", default=None, help="only the pairs of this set")
    parser.add_argument("--verbose", action="store_true", help="list each failing pair")
    args = parser.parse_args(argv)
    pairs = [p for p in load() if args.set is None or p.set_name == args.set]
    if not pairs:
        sys.exit(f"no pairs in set {args.set!r}")
    results = asyncio.run(run_all(pairs))
    report = render(pairs, results, sys.argv[1:] if argv is None else argv, verbose=args.verbose)
    print(report)
    return report


if __name__ == "__main__":
    main()
