"""Runs every benchmark present and writes one markdown summary.

    .venv/bin/python -m bench.run_all [--skip NAME,...]

A benchmark module takes part by exposing `main(argv: list[str] | None = None)` (or a `main()`
that parses `sys.argv`, which then holds no arguments); when `main` returns a string, that
markdown is the module's section of the summary, otherwise what it printed is. Modules not
(yet) in the tree are skipped, so this runner never needs editing when one is added to
`BENCHES`. The summary goes to stdout and `bench/results/latest.md`.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import inspect
import io
import sys
import time
import traceback
from collections.abc import Sequence
from datetime import UTC, datetime

from bench.report import RESULTS_DIR, command_line, machine

MODULE = "bench.run_all"
#: Benchmark modules in the order they run (cheap and self-contained first).
BENCHES = (
    "bench_cli",
    "bench_latency",
    "bench_locomo",
    "bench_updates",
    "bench_probes",
    "bench_supersede",
    "bench_plugin",
    "bench_cache",
    "bench_soak",
    "bench_memory_bank",
    "bench_vector_search",
    "bench_lifecycle",
    "bench_gemini",
)


def _run_one(name: str) -> str:
    """One module's section; absent modules and failures become a one-line note."""
    try:
        module = importlib.import_module(f"bench.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"bench.{name}":
            return f"_{name}: not present, skipped._"
        raise
    entry = getattr(module, "main", None)
    if not callable(entry):
        return f"_{name}: has no `main(argv)`, skipped._"
    printed = io.StringIO()
    started = time.perf_counter()
    takes_argv = bool(inspect.signature(entry).parameters)
    saved_argv = sys.argv
    try:
        # A `main()` without parameters parses sys.argv: give it none of the runner's flags.
        sys.argv = [f"bench.{name}"]
        with contextlib.redirect_stdout(printed):
            returned = entry([]) if takes_argv else entry()
    except Exception:
        # One broken benchmark must not cost the figures of the others.
        traceback.print_exc(file=sys.stderr)
        return f"_{name}: failed (traceback on stderr)._"
    finally:
        sys.argv = saved_argv
    elapsed = time.perf_counter() - started
    body = returned if isinstance(returned, str) else printed.getvalue().strip()
    return f"{body}\n\n_{name} took {elapsed:.0f} s._"


def main(argv: Sequence[str] | None = None) -> str:
    """Runs the benchmarks, prints the combined summary and writes `bench/results/latest.md`."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}", description=__doc__.split("\n")[0])
    parser.add_argument("--skip", default="", help="comma-separated module names to leave out")
    args = parser.parse_args(args_list)
    skipped = {s.strip() for s in args.skip.split(",") if s.strip()}
    sections = []
    for name in BENCHES:
        if name in skipped:
            continue
        print(f"running {name}...", file=sys.stderr)
        sections.append(_run_one(name))
    summary = "\n\n".join(
        [
            "# adk-memory benchmarks",
            f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {machine()}. "
            f"Reproduce all: `{command_line(MODULE, args_list)}`",
            *sections,
        ]
    )
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    (RESULTS_DIR / "latest.md").write_text(summary + "\n", encoding="utf-8")
    print(summary)
    return summary


if __name__ == "__main__":
    main()
