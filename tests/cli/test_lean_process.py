"""What a one-shot `adk-memory` process leaves out or tunes so that a sqlite `recall` stays
cheap: no retry machinery when no remote call is made, and a garbage collector that does not
rescan start-up objects (checked on `sys.modules` and `gc`, not on time)."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest

from adk_memory.cli import main as cli_main

PROBE = """
import json, sys
from click.testing import CliRunner
from adk_memory.cli.main import cli
result = CliRunner().invoke(cli, sys.argv[1:])
assert result.exit_code == 0, result.output
print(json.dumps(sorted(sys.modules)))
"""


def _modules_after(tmp_path: Path, *args: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"HOME": str(tmp_path), "ADK_MEMORY_LLM": "local", "ADK_DISABLE_LOAD_DOTENV": "1"},
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_sqlite_recall_loads_no_retry_library(tmp_path: Path) -> None:
    store = f"adkmem+sqlite:///{tmp_path}/m.db"
    scope = ("--app", "a", "--user", "u")
    remembered = _modules_after(tmp_path, "--store", store, "remember", *scope, "I like tea.")
    recalled = _modules_after(tmp_path, "--store", store, "recall", *scope, "tea?")
    # The retry module is loaded (the CLI listens for retries), tenacity only for a call.
    assert "adk_memory.google_api.retry" in recalled
    assert sorted(m for m in remembered | recalled if m.split(".")[0] == "tenacity") == []


def _run_main(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *args: str) -> tuple[int, ...]:
    """`main` as the console script runs it; returns the gc thresholds it left."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # recorded: one_shot may set it
    monkeypatch.setattr(sys, "argv", ["adk-memory", *args])
    before = gc.get_threshold()
    try:
        with pytest.raises(SystemExit) as exited:
            cli_main.main()
        assert exited.value.code == 0
        return gc.get_threshold()
    finally:
        gc.set_threshold(*before)


def test_one_shot_commands_collect_garbage_less_often(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    default = gc.get_threshold()
    after = _run_main(monkeypatch, tmp_path, "recall", "--help")
    assert after == (cli_main.ONE_SHOT_GC_THRESHOLD, *default[1:])
    assert after[0] > default[0]


@pytest.mark.parametrize("args", [["emulator", "--help"], ["--help"]])
def test_serving_commands_and_help_keep_the_default_collector(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, args: list[str]
) -> None:
    default = gc.get_threshold()
    assert _run_main(monkeypatch, tmp_path, *args) == default
