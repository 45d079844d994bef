"""The console script starts lean (`main.one_shot`): the bundled embedding model comes from an
optimised copy in the user cache dir. What it stores and what it ranks must be exactly what
a long-lived engine (the model built in memory) stores and ranks: same decisions, same
memories in the same order, same scores to the last printed digit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from adk_memory.cli.main import COMMANDS, LONG_RUNNING, command_name, one_shot
from adk_memory.config import Settings
from adk_memory.factory import open_engine
from adk_memory.model import Scope

SCOPE = Scope(app_name="shop", user_id="alice")
FACTS = [
    ("2026-01-05T09:00:00+00:00", "I live in Berlin."),
    ("2026-02-01T09:00:00+00:00", "I like green tea, not coffee."),
    ("2026-02-10T09:00:00+00:00", "My sister Anna works as a nurse in Hamburg."),
    ("2026-03-01T09:00:00+00:00", "I moved to Munich."),
    ("2026-03-02T09:00:00+00:00", "I have visited 12 countries."),
]
QUERIES = ["where do I live?", "which tea do I like?", "what does Anna do?", "travel"]
NOW = "2026-04-01T00:00:00+00:00"
#: The fields a CLI `recall --json` prints, rounded as it rounds them.
SCORES = ("score", "similarity", "cosine", "lexical", "decay", "confidence")


def _console_script(tmp_path: Path, *args: str) -> Any:
    """`adk-memory ARGS` as a user runs it: a fresh process through `main`."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path / "home"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "ADK_MEMORY_LLM": "local",
        "ADK_DISABLE_LOAD_DOTENV": "1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "adk_memory.cli.main", *args],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


async def test_console_script_stores_and_ranks_as_a_long_lived_engine(tmp_path: Path) -> None:
    cli_store = f"adkmem+sqlite:///{tmp_path}/cli.db"
    scope = ["--app", SCOPE.app_name, "--user", SCOPE.user_id]
    cli_decisions = [
        _console_script(tmp_path, "--store", cli_store, "remember", *scope, "--at", at, "--json", t)
        for at, t in FACTS
    ]
    queries = tmp_path / "queries.txt"
    queries.write_text("\n".join(QUERIES) + "\n", encoding="utf-8")
    cli_ranked = _console_script(
        tmp_path, "--store", cli_store, "recall", *scope, "--now", NOW, "--queries", str(queries),
        "--top-k", "10", "--json",
    )  # fmt: skip

    # The one-shot mode was on: the first command saved the model copy, the others read it.
    models = tmp_path / "cache" / "adk-memory" / "models"
    assert len([p for p in models.iterdir() if not p.name.startswith(".")]) == 1

    engine = await open_engine(
        f"adkmem+sqlite:///{tmp_path}/engine.db",
        settings=Settings.from_env({"ADK_MEMORY_LLM": "local"}),
    )
    try:
        decisions = [
            (await engine.remember(SCOPE, t, at=datetime.fromisoformat(at))).decision.value
            for at, t in FACTS
        ]
        now = datetime.fromisoformat(NOW)
        ranked = await engine.recall_many(SCOPE, QUERIES, top_k=10, now=now)
    finally:
        await engine.close()

    assert [d["decision"] for d in cli_decisions] == decisions
    expected = [
        [
            {"text": m.record.text, **{k: round(getattr(m.breakdown, k), 6) for k in SCORES}}
            for m in one
            if round(m.breakdown.score, 6) > 0
        ]
        for one in ranked
    ]
    got = [[{k: row[k] for k in ("text", *SCORES)} for row in one] for one in cli_ranked]
    assert got == expected
    assert all(got)  # every query found something: the comparison is not vacuous


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (["recall", "--app", "a"], "recall"),
        (["--store", "adkmem+sqlite:///x.db", "remember"], "remember"),
        (["--store=adkmem+sqlite:///x.db", "list"], "list"),
        (["--help"], None),
        ([], None),
    ],
)
def test_command_name_skips_the_group_options(args: list[str], name: str | None) -> None:
    assert command_name(args) == name


def test_commands_that_serve_keep_the_defaults() -> None:
    for name in LONG_RUNNING:
        assert name in COMMANDS
        assert one_shot([name]) is None
    assert one_shot(["--help"]) is None
    assert one_shot(["no-such-command"]) is None


def test_one_shot_commands_use_the_user_cache_dir_and_one_blas_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "")  # recorded, so the test leaves none behind
    monkeypatch.delenv("OPENBLAS_NUM_THREADS")
    mode = one_shot(["--store", "adkmem+sqlite:///x.db", "recall", "tea?"])
    assert mode is not None and mode.model_cache == tmp_path / "adk-memory" / "models"
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"

    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")  # the user's own setting wins
    assert one_shot(["remember"]) is not None
    assert os.environ["OPENBLAS_NUM_THREADS"] == "4"
