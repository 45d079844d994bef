"""CLI start-up cost: CPU seconds of `adk-memory --help`, `remember` and `recall` on a small
sqlite store, beside ADK's own `adk --help` measured in the same run.

    .venv/bin/python -m bench.bench_cli [--runs 5] [--memories 20]

Each command runs as a fresh process, as a user types it; its CPU time (user + system, of the
child and everything it started) is read with `resource.getrusage(RUSAGE_CHILDREN)` around the
call, so the figure does not depend on how busy the machine's other cores are the way wall
time does. The median of `--runs` runs is reported. The store is seeded with `--memories`
facts through the CLI itself before timing starts. Targets (issue 14): `--help` <= 0.3 s,
`remember` and `recall` <= 1.0 s.

Seeding also leaves the optimised copy of the embedding model in the (temporary) user cache
dir, as a user's first command does; the "first run" row times `recall` with an empty cache
dir each time, i.e. the one command that builds and saves that copy.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from bench.report import command_line, machine, table

MODULE = "bench.bench_cli"
TARGETS = {"adk-memory --help": 0.3, "adk-memory remember": 1.0, "adk-memory recall": 1.0}
FIRST_RUN = "adk-memory recall, first run (no model copy cached yet)"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_seconds(args: Sequence[str], env: Mapping[str, str]) -> float:
    """CPU seconds one run of `args` took (it must succeed)."""
    before = _children_cpu()
    done = subprocess.run(list(args), env=dict(env), capture_output=True, timeout=300)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{done.stderr.decode(errors='replace')}")
    return _children_cpu() - before


def _script(name: str) -> str:
    """A console script of this venv (beside the interpreter), else one on PATH."""
    local = Path(sys.executable).with_name(name)
    found = str(local) if local.exists() else shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} is not installed")
    return found


def run(argv: Sequence[str]) -> str:
    parser = argparse.ArgumentParser(prog=MODULE, description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="Runs per command (median).")
    parser.add_argument("--memories", type=int, default=20, help="Facts in the store.")
    args = parser.parse_args(argv)
    cli, adk = _script("adk-memory"), _script("adk")
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        store = f"adkmem+sqlite:///{tmp}/memory.db"
        # No .env, no Gemini: the offline sqlite path a newcomer starts on.
        env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": tmp,
            "ADK_MEMORY_STORE": store,
            "ADK_MEMORY_LLM": "local",
            "ADK_DISABLE_LOAD_DOTENV": "1",
        }
        scope = ["--app", "bench", "--user", "u"]
        for n in range(args.memories):
            subprocess.run(
                [cli, "remember", *scope, "--json", f"I have visited {n + 1} countries."],
                env=env,
                capture_output=True,
                check=True,
            )
        commands = {
            "adk --help": [adk, "--help"],
            "adk-memory --help": [cli, "--help"],
            "adk-memory remember": [cli, "remember", *scope, "I like green tea."],
            "adk-memory recall": [cli, "recall", *scope, "which tea do I like?"],
            "adk-memory recall --json": [cli, "recall", *scope, "--json", "tea?"],
            FIRST_RUN: [cli, "recall", *scope, "which tea do I like?"],
        }
        rows = []
        for label, command in commands.items():
            samples = []
            for n in range(args.runs):
                cache = Path(tmp, f"empty-cache-{n}")
                cold = {"XDG_CACHE_HOME": str(cache)} if label == FIRST_RUN else {}
                samples.append(cpu_seconds(command, {**env, **cold}))
                shutil.rmtree(cache, ignore_errors=True)  # ~90 MB each
            target = TARGETS.get(label)
            median = statistics.median(samples)
            verdict = "" if target is None else ("ok" if median <= target else "over")
            rows.append(
                [
                    label,
                    median,
                    min(samples),
                    max(samples),
                    f"{target:.1f}" if target else "",
                    verdict,
                ]
            )
    return "\n".join(
        [
            f"## CLI start-up (CPU seconds per process, median of {args.runs})",
            "",
            table(["command", "median s", "min s", "max s", "target s", ""], rows),
            "",
            f"{machine()}; load average {os.getloadavg()[0]:.2f} at the end (other work on "
            f"the machine inflates CPU seconds too); store: sqlite with {args.memories} memories; "
            f"reproduce: `{command_line(MODULE, argv)}`",
        ]
    )


def main(argv: Sequence[str] | None = None) -> str:
    """Runs the benchmark, prints the markdown report and returns it."""
    report = run(list(sys.argv[1:] if argv is None else argv))
    print(report)
    return report


if __name__ == "__main__":
    main()
