"""What a one-shot `adk-memory` process leaves out or tunes so that a sqlite `recall` stays
cheap: no retry machinery when no remote call is made, a garbage collector that does not
rescan start-up objects, no interpreter teardown once the output is written (checked on
`sys.modules`, `gc` and how the process ends, not on time)."""

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


#: Runs `main` as the console script does and reports the gc thresholds it leaves, and
#: whether it ended the process itself (`os._exit`) or returned / raised as usual.
MAIN_PROBE = """
import gc, os, sys
real_exit = os._exit
def reporting_exit(code):
    print("os._exit", code, *gc.get_threshold(), flush=True)
    real_exit(code)
os._exit = reporting_exit
sys.argv = ["adk-memory", *sys.argv[1:]]
from adk_memory.cli.main import main
try:
    main()
except SystemExit as exc:
    print("SystemExit", exc.code, *gc.get_threshold(), flush=True)
"""


def _run_main(tmp_path: Path, *args: str) -> tuple[list[str], subprocess.CompletedProcess[str]]:
    done = subprocess.run(
        [sys.executable, "-c", MAIN_PROBE, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={
            "HOME": str(tmp_path),
            "XDG_CACHE_HOME": str(tmp_path / "cache"),
            "ADK_MEMORY_LLM": "local",
            "ADK_DISABLE_LOAD_DOTENV": "1",
        },
    )
    return done.stdout.strip().splitlines()[-1].split(), done


def test_one_shot_commands_collect_garbage_less_often_and_skip_the_teardown(
    tmp_path: Path,
) -> None:
    default = [str(n) for n in gc.get_threshold()]
    store = f"adkmem+sqlite:///{tmp_path}/m.db"
    scope = ["--app", "a", "--user", "u"]
    report, done = _run_main(tmp_path, "--store", store, "remember", *scope, "I like tea.")
    assert report == ["os._exit", "0", str(cli_main.ONE_SHOT_GC_THRESHOLD), *default[1:]]
    assert done.returncode == 0
    assert done.stdout.startswith("ADD ")  # written out before the process ended
    report, done = _run_main(tmp_path, "--store", store, "recall", *scope, "--json", "tea?")
    assert report[:2] == ["os._exit", "0"]
    assert json.loads(done.stdout.rsplit("os._exit", 1)[0])[0]["text"] == "I like tea."


@pytest.mark.parametrize(
    ("args", "status"),
    [
        (["recall", "--app", "a", "tea?"], "2"),  # a usage error: click's status
        (["--store", "nope://x", "recall", "--app", "a", "--user", "u", "tea?"], "1"),
    ],
)
def test_one_shot_exit_status_and_message_are_click_s(
    tmp_path: Path, args: list[str], status: str
) -> None:
    report, done = _run_main(tmp_path, *args)
    assert report[:2] == ["os._exit", status]
    assert done.returncode == int(status)
    assert "Error" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("args", [["emulator", "--help"], ["--help"]])
def test_serving_commands_and_help_keep_the_default_collector_and_exit(
    tmp_path: Path, args: list[str]
) -> None:
    report, done = _run_main(tmp_path, *args)
    assert report == ["SystemExit", "0", *(str(n) for n in gc.get_threshold())]
    assert done.returncode == 0
