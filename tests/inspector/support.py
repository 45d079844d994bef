"""Seeded stores, a running `adk-memory inspect` and a headless Chromium for the inspector tests.

The seed goes through the engine's public API: two sessions that state and then update where
the user lives (a REPLACE), a third whose hiking anecdotes consolidation merges into a summary.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from click.testing import CliRunner
from pydantic import BaseModel

from adk_memory.cli.main import cli
from adk_memory.factory import build_engine
from adk_memory.lifecycle import ConsolidationConfig, consolidate
from adk_memory.model import InputEvent, Scope
from adk_memory.stores.base import MemoryStore

T = TypeVar("T")
SCOPE = Scope(app_name="shop", user_id="alice")
OTHER = Scope(app_name="shop", user_id="bob")
T0 = datetime(2026, 1, 5, 10, 0, tzinfo=UTC)
#: The seed's "now": after every statement.
NOW = T0 + timedelta(days=90)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_MISSING = (
    "no Chromium on this machine: install Debian's chromium package "
    "(apt-get install -y chromium chromium-driver; .ci/run does) to run the browser tests"
)
#: Flags that keep Chromium off the network it cannot reach here.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HIKING = [
    "I went hiking in the mountains last weekend.",
    "I love hiking in the mountains.",
    "We hiked up a mountain trail on Saturday.",
    "Hiking in the mountains is my favourite weekend activity.",
]


class Seeded(BaseModel):
    """The ids the seed wrote."""

    berlin: str
    munich: str
    peanuts: str
    #: The texts the extractor stored for the old and the new home.
    berlin_text: str
    munich_text: str
    summary: str
    sources: list[str]


def _event(n: int, text: str, days: float, session: str) -> InputEvent:
    return InputEvent(
        id=f"e{n}",
        author="alice",
        text=text,
        timestamp=T0 + timedelta(days=days),
        session_id=session,
        role="user",
    )


async def seed(store: MemoryStore) -> Seeded:
    """Seeds SCOPE (an update and a consolidation) and OTHER (one fact); closes the store."""
    engine = build_engine(store, clock=lambda: NOW)
    try:
        first = await engine.ingest(
            SCOPE,
            [
                _event(1, "I live in Berlin.", 0, "s1"),
                _event(2, "I am allergic to peanuts.", 0, "s1"),
            ],
        )
        update = await engine.ingest(SCOPE, [_event(3, "I moved to Munich last week.", 30, "s2")])
        await engine.ingest(
            SCOPE, [_event(4 + i, text, 40 + i, "s3") for i, text in enumerate(HIKING)]
        )
        await engine.ingest(OTHER, [_event(20, "I live in Paris.", 10, "b1")])
        report = await consolidate(
            engine, SCOPE, ConsolidationConfig(similarity=0.45, min_cluster_size=3), now=NOW
        )
        (cluster,) = report.scopes[0].clusters
        munich = update.outcomes[0]
        return Seeded(
            berlin=munich.superseded[0],
            munich=munich.id,
            berlin_text=first.outcomes[0].text,
            munich_text=munich.text,
            peanuts=first.outcomes[1].id,
            summary=cluster.summary_id,
            sources=cluster.source_ids,
        )
    finally:
        await engine.close()


def in_thread(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Calls `fn` on a thread of its own. What starts an event loop (the CLI, a seed) must:
    Playwright's sync API keeps one running on the test's thread."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(fn, *args, **kwargs).result()


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    return in_thread(asyncio.run, coro)


def run_cli(env: dict[str, str], *args: str) -> Any:
    """Runs the CLI in-process with `--json` and returns its parsed output."""
    result = in_thread(CliRunner().invoke, cli, [*args, "--json"], env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def cli_statuses(env: dict[str, str], store: str, scope: Scope = SCOPE) -> dict[str, str]:
    """Every memory of a scope as the CLI lists it: id -> status."""
    rows = run_cli(env, "--store", store, "list", "--app", scope.app_name, "--user", scope.user_id)
    return {row["id"]: row["status"] for row in rows}


@contextmanager
def serving(store: str, env: dict[str, str], *args: str) -> Iterator[str]:
    """Runs `adk-memory --store STORE inspect --port 0 ARGS` and yields the URL it prints."""
    command = [
        str(Path(sys.executable).with_name("adk-memory")),
        "--store",
        store,
        "inspect",
        "--port",
        "0",
        *args,
    ]
    process = subprocess.Popen(
        command,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        if not url.startswith("http://"):
            process.kill()
            _, err = process.communicate(timeout=30)
            raise AssertionError(f"inspect printed {url!r}; stderr: {err}")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


def local_env(tmp: Path) -> dict[str, str]:
    """Environment of a CLI run that uses only the local models and no user config."""
    return {"ADK_MEMORY_LLM": "local", "HOME": str(tmp), "ADK_MEMORY_DEBUG": ""}
