"""Acceptance: `adk api_server agents --memory_service_uri=adkmem+sqlite:///...` offline.

The real ADK server loads `agents/services.py` (our schemes), the sample agent with
`ADK_MEMORY_AGENT_MODEL=scripted`, and `MemoryPlugin`. A turn in one session is saved in the
background; a second session recalls it (prefetched into the prompt and via `load_memory`).
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from adk_memory.model import Scope
from adk_memory.stores.uri import open_store

REPO = Path(__file__).resolve().parents[2]
ADK = Path(sys.executable).with_name("adk")
APP = "memory_agent"
USER = "u1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[httpx.Client, str, Path]]:
    store_uri = f"adkmem+sqlite://{tmp_path.as_posix()}/m.db"
    port = free_port()
    log = tmp_path / "server.log"
    env = {**os.environ, "ADK_MEMORY_AGENT_MODEL": "scripted", "PYTHONUNBUFFERED": "1"}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                str(ADK),
                "api_server",
                str(REPO / "agents"),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                f"--memory_service_uri={store_uri}",
                "--session_service_uri=memory://",
                "--artifact_service_uri=memory://",
            ],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                if client.get("/health").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"adk api_server did not start:\n{log.read_text()}")
            time.sleep(0.1)
        yield client, store_uri, log
    finally:
        client.close()
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def new_session(client: httpx.Client) -> str:
    response = client.post(f"/apps/{APP}/users/{USER}/sessions", json={})
    response.raise_for_status()
    session_id: str = response.json()["id"]
    return session_id


def run(client: httpx.Client, session_id: str, text: str) -> list[dict[str, Any]]:
    response = client.post(
        "/run",
        json={
            "app_name": APP,
            "user_id": USER,
            "session_id": session_id,
            "new_message": {"role": "user", "parts": [{"text": text}]},
        },
    )
    response.raise_for_status()
    events: list[dict[str, Any]] = response.json()
    return events


def texts(events: list[dict[str, Any]]) -> list[str]:
    return [p["text"] for e in events for p in e["content"]["parts"] if p.get("text")]


async def stored_texts(store_uri: str) -> list[str]:
    store = await open_store(store_uri)
    try:
        page = await store.list_page(Scope(app_name=APP, user_id=USER), limit=100)
        return [r.text for r in page.records]
    finally:
        await store.close()


async def test_memories_are_stored_and_recalled_through_adk_api_server(
    server: tuple[httpx.Client, str, Path],
) -> None:
    client, store_uri, log = server
    first = new_session(client)
    assert texts(run(client, first, "I live in Berlin.")) == [
        "Noted: I live in Berlin. No memories in context."
    ]

    # Saved in the background after the turn (debounced): wait for it to land in the file.
    deadline = time.monotonic() + 10
    while not (stored := await stored_texts(store_uri)):
        assert time.monotonic() < deadline, log.read_text()
        await asyncio.sleep(0.1)
    [fact] = stored  # one memory, in whatever words the extractor keeps it
    assert "Berlin" in fact

    second = new_session(client)
    events = run(client, second, "What do you remember about where I live?")
    assert any("functionCall" in p for e in events for p in e["content"]["parts"])
    assert texts(events)[-1] == f"From memory: {fact}"
    injected = [int(n) for n in re.findall(r"(\d+) memories injected", log.read_text())]
    assert injected == [0, 1]  # nothing known in session 1; prefetched into session 2
