"""`gc`, `consolidate` and `restore` through click's CliRunner."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

from adk_memory.cli.lifecycle import LIFECYCLE_COMMANDS
from adk_memory.cli.main import cli

Invoke = Callable[..., Result]
SCOPE = ["--app", "shop", "--user", "alice"]


#: The lifecycle commands as users reach them: through the main group.
group = cli
assert all(cli.get_command(click.Context(cli), c.name or "") is c for c in LIFECYCLE_COMMANDS)


@pytest.fixture
def run(tmp_path: Path) -> Invoke:
    store = f"adkmem+sqlite:///{tmp_path}/cli.db"
    runner = CliRunner()

    def invoke(*args: str, main: bool = False) -> Result:
        result = runner.invoke(cli if main else group, ["--store", store, *args])
        assert result.exit_code == 0, result.output
        return result

    return invoke


def _json(result: Result) -> Any:
    return json.loads(result.stdout)


def test_gc_dry_run_then_archive_then_restore(run: Invoke) -> None:
    run("remember", *SCOPE, "--at", "2025-01-01", "I live in Berlin.", main=True)
    run("remember", *SCOPE, "--at", "2025-02-01", "I moved to Munich.", main=True)
    now = ["--now", "2026-01-01T00:00:00Z"]

    planned = _json(run("gc", *now, "--dry-run", "--json"))
    done = _json(run("gc", *SCOPE, *now, "--retention-days", "90", "--json"))
    again = _json(run("gc", *now, "--json"))

    assert planned["dry_run"] and planned["archived_count"] == 1
    [old] = planned["scopes"][0]["expired"]
    assert done["scopes"][0]["expired"] == [old] and again["archived_count"] == 0
    listed = _json(run("list", *SCOPE, "--status", "archived", "--json", main=True))
    assert [r["id"] for r in listed] == [old]
    assert _json(run("restore", *SCOPE, "--json", old)) == {"restored": [old]}
    assert "not archived" in run("restore", *SCOPE, old).output


def test_consolidate_human_and_json_output(run: Invoke) -> None:
    for text in (
        "I went hiking in the mountains last weekend",
        "I love hiking in the mountains",
        "Hiking in the mountains is my favourite weekend activity",
    ):
        run("remember", *SCOPE, "--at", "2025-05-01", text, main=True)

    options = ["--similarity", "0.5", "--summarizer", "local", "--include-slots"]
    table = run("consolidate", "--dry-run", *options)
    report = _json(run("consolidate", *SCOPE, *options, "--json"))

    assert "would write 1 summaries" in table.output
    assert report["summary_count"] == 1 and report["archived_count"] == 3
    active = _json(run("list", *SCOPE, "--status", "active", "--json", main=True))
    assert [r["kind"] for r in active] == ["summary"]


def test_help_has_examples_and_scope_needs_both(run: Invoke) -> None:
    for name in ("gc", "consolidate", "restore"):
        assert "Example:" in run(name, "--help").output
    result = CliRunner().invoke(group, ["gc", "--app", "shop"])
    assert result.exit_code != 0 and "--app and --user" in result.output
