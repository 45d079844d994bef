"""The Vertex stores retry through the shared policy, so retry listeners hear their retries.

The store's client comes from the production `build_client` on a loopback base URL: the
emulator gets the shared fake-token credentials, with no ADC on the machine.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from adk_memory.errors import BackendError
from adk_memory.google_api.retry import RetryNotice, retry_listener
from adk_memory.model import Scope
from adk_memory.stores.memory_bank.store import MemoryBankStore, build_client
from adk_memory.testing.emulator import EmulatorServer, FaultConfig

PROJECT, LOCATION = "retry-project", "us-central1"


@pytest.fixture(scope="module")
def emulator() -> Iterator[EmulatorServer]:
    with EmulatorServer() as server:
        yield server


@pytest.fixture
def engine(emulator: EmulatorServer) -> str:
    response = httpx.post(
        f"{emulator.base_url}/emulator/engines",
        json={"project": PROJECT, "location": LOCATION, "engine_id": "777"},
    )
    response.raise_for_status()
    name: str = response.json()["name"]
    return name


def faults(server: EmulatorServer, **config: object) -> None:
    httpx.post(
        f"{server.base_url}/emulator/faults", json=FaultConfig(**config).model_dump()
    ).raise_for_status()


async def test_memory_bank_retries_are_reported(
    emulator: EmulatorServer, engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GOOGLE_VERTEX_BASE_URL", raising=False)
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", "/nonexistent/adc.json")
    store = MemoryBankStore(
        engine,
        client_factory=lambda: build_client(PROJECT, LOCATION, {"base_url": emulator.base_url}),
        retry_attempts=3,
        retry_initial=0.001,
        retry_max=0.002,
        call_timeout=5.0,
    )
    scope = Scope(app_name="app", user_id="u")
    notices: list[RetryNotice] = []
    try:
        assert (await store.list_page(scope, limit=5)).records == []  # healthy: no retries
        faults(emulator, outage_seconds=60, error_code=503)
        with retry_listener(notices.append), pytest.raises(BackendError):
            await store.list_page(scope, limit=5)
    finally:
        faults(emulator)
        await store.close()
    # A listing makes more than one call; each is retried twice, then gives up.
    progress = sorted((n.attempt, n.next_attempt, n.max_attempts) for n in notices)
    calls = len(progress) // 2
    assert calls >= 1 and progress == [(1, 2, 3)] * calls + [(2, 3, 3)] * calls
    assert all(n.what.startswith("Memory Bank") and "503" in n.error for n in notices)
