"""A fast CLI: each command imports only what it needs (checked on `sys.modules`, not time)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HEAVY = ("google.adk", "google.genai", "fastapi", "uvicorn", "adk_memory.testing", "rich")

PROBE = """
import json, sys
from click.testing import CliRunner
from adk_memory.cli.main import cli
result = CliRunner().invoke(cli, sys.argv[1:])
assert result.exit_code == 0, result.output
print(json.dumps(sorted(sys.modules)))
"""


def _modules_after(*args: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def _loaded(modules: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if m.startswith(prefixes))


def test_help_imports_neither_the_library_nor_pydantic() -> None:
    modules = _modules_after("--help")
    assert _loaded(modules, (*HEAVY, "numpy", "pydantic", "adk_memory.engine")) == []


def test_sqlite_remember_and_recall_import_no_adk_genai_or_emulator(tmp_path: Path) -> None:
    store = f"adkmem+sqlite:///{tmp_path}/fast.db"
    scope = ["--app", "a", "--user", "u", "--json"]
    remembered = _modules_after("--store", store, "remember", *scope, "I like tea.")
    assert _loaded(remembered, HEAVY) == []
    recalled = _modules_after("--store", store, "recall", *scope, "tea?")
    assert _loaded(recalled, HEAVY) == []


def test_recall_does_not_load_the_extractor_or_classifier(tmp_path: Path) -> None:
    store = f"adkmem+sqlite:///{tmp_path}/m.db"
    scope = ("--app", "a", "--user", "u")
    _modules_after("--store", store, "remember", *scope, "I like tea.")
    recalled = _modules_after("--store", store, "recall", *scope, "tea?")
    rules = (
        "adk_memory.extraction.local",
        "adk_memory.reconcile.local",
        "adk_memory.reconcile.rules",
    )
    assert _loaded(recalled, rules) == []


def test_human_remember_prints_its_line_without_rich(tmp_path: Path) -> None:
    store = f"adkmem+sqlite:///{tmp_path}/m.db"
    probe = PROBE.replace("print(json.dumps", "print(result.output, end='')\nprint(json.dumps")
    done = subprocess.run(
        [sys.executable, "-c", probe, "--store", store, "remember", "--app", "a", "--user", "u",
         "I like\u202e green\n\ntea."],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    *printed, modules = done.stdout.strip().splitlines()
    assert _loaded(set(json.loads(modules)), ("rich",)) == []
    decision, memory_id, text = printed[-1].split(" ", 2)
    assert (decision, len(memory_id), text) == ("ADD", 32, " I like green tea.")
