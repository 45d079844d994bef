"""A shared in-process emulator and stores on fresh engines, for the Memory Bank tests.

The real SDK (`agentplatform`) talks HTTP to the emulator; only the base URL and fake token
credentials differ from production.
"""

from __future__ import annotations

import atexit
import itertools
import threading
from typing import Any

import httpx

from adk_memory.stores.memory_bank.store import MemoryBankStore
from adk_memory.testing.emulator import EmulatorServer, FaultConfig

PROJECT = "test-project"
LOCATION = "us-central1"

_lock = threading.Lock()
_server: EmulatorServer | None = None
_engine_ids = itertools.count(1)


def shared_emulator() -> EmulatorServer:
    """One emulator per test session, started on first use."""
    global _server
    with _lock:
        if _server is None:
            _server = EmulatorServer().start()
            atexit.register(_server.stop)
        return _server


def new_engine(server: EmulatorServer) -> str:
    """Creates an empty reasoning engine; returns its resource name."""
    engine_id = f"9{next(_engine_ids):09d}"
    response = httpx.post(
        f"{server.base_url}/emulator/engines",
        json={"project": PROJECT, "location": LOCATION, "engine_id": engine_id},
    )
    response.raise_for_status()
    name: str = response.json()["name"]
    return name


def set_faults(server: EmulatorServer, **faults: Any) -> None:
    httpx.post(
        f"{server.base_url}/emulator/faults", json=FaultConfig(**faults).model_dump()
    ).raise_for_status()


def client_factory(base_url: str) -> Any:
    def build() -> Any:
        import agentplatform
        from google.oauth2.credentials import Credentials

        return agentplatform.Client(
            project=PROJECT,
            location=LOCATION,
            credentials=Credentials(token="fake"),
            http_options={"base_url": base_url},
        ).aio

    return build


def emulator_store(
    server: EmulatorServer, *, store_class: type[MemoryBankStore] = MemoryBankStore, **options: Any
) -> MemoryBankStore:
    """A store (of `store_class`) on a new, empty engine; short retry waits keep tests fast."""
    settings: dict[str, Any] = {
        "retry_initial": 0.01,
        "retry_max": 0.05,
        "retry_deadline": 5.0,
        "call_timeout": 5.0,
        "poll_interval": 0.01,
    }
    settings.update(options)
    return store_class(
        new_engine(server), client_factory=client_factory(server.base_url), **settings
    )
