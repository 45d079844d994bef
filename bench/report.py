"""Small helpers the benchmarks share: result paths, percentiles and markdown tables."""

from __future__ import annotations

import platform
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

#: Where benchmarks write their outputs and caches (git-ignored).
RESULTS_DIR = Path(__file__).resolve().parent / "results"


def percentile_ms(samples_s: Sequence[float], q: float) -> float:
    """The q-th percentile of durations given in seconds, in milliseconds."""
    return float(np.percentile(np.asarray(samples_s, dtype=np.float64), q) * 1000.0)


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A GitHub markdown table; floats are printed with three decimals."""

    def cell(value: object) -> str:
        return f"{value:.3f}" if isinstance(value, float) else str(value)

    lines = [
        "| " + " | ".join(headers) + " |",
        "|" + "|".join("---" for _ in headers) + "|",
    ]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def command_line(module: str, argv: Sequence[str]) -> str:
    """The shell command that reproduces a run of `python -m module argv...`."""
    return " ".join([".venv/bin/python", "-m", module, *(shlex.quote(a) for a in argv)])


def machine() -> str:
    """One line describing where the figures were measured."""
    import os

    return (
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {sys.version.split()[0]}"
    )
