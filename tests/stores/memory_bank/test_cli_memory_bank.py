"""The CLI, unchanged, against a running `adk-memory emulator` process: the store URI and
GOOGLE_VERTEX_BASE_URL are all it is given."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

CLI = [sys.executable, "-m", "adk_memory.cli.main"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def running_emulator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    port = _free_port()
    data = tmp_path_factory.mktemp("emu") / "emulator.json"
    proc = subprocess.Popen(
        [*CLI, "emulator", "--port", str(port), "--data", str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        store = ""
        deadline = time.monotonic() + 60
        while not store and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if line.startswith("export ADK_MEMORY_STORE="):
                store = line.strip().split("=", 1)[1]
        assert store.startswith("adkmem+memorybank://projects/")
        base = f"http://127.0.0.1:{port}"
        while True:  # the env lines are printed before the server accepts connections
            try:
                httpx.get(f"{base}/emulator/health", timeout=5).raise_for_status()
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "emulator did not start"
                time.sleep(0.1)
        yield base, store
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _cli(base: str, store: str, *args: str) -> object:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", "/tmp"),
        "GOOGLE_VERTEX_BASE_URL": base,
    }
    done = subprocess.run(
        [*CLI, "--store", store, *args, "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_remember_recall_list_history_forget(running_emulator: tuple[str, str]) -> None:
    base, store = running_emulator
    scope = ["--app", "shop", "--user", "alice"]
    first = _cli(
        base,
        store,
        "remember",
        *scope,
        "--at",
        "2026-01-05T10:00:00Z",
        "I mostly write Java at work.",
    )
    assert first["decision"] == "ADD"
    second = _cli(
        base,
        store,
        "remember",
        *scope,
        "--at",
        "2026-04-01T10:00:00Z",
        "We switched from Java to Go.",
    )
    assert second["decision"] == "REPLACE" and second["superseded"] == [first["id"]]
    recalled = _cli(base, store, "recall", *scope, "which programming language?")
    assert recalled[0]["id"] == second["id"]
    assert all(r["id"] != first["id"] for r in recalled)
    superseded = _cli(base, store, "list", *scope, "--status", "superseded")
    assert [r["id"] for r in superseded] == [first["id"]]
    chain = _cli(base, store, "history", first["id"])
    assert [r["id"] for r in chain] == [first["id"], second["id"]]
    assert _cli(base, store, "forget", second["id"]) == {"deleted": second["id"]}
