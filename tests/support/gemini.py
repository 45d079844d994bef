"""Fixtures: the emulator on an ephemeral port and the real google-genai client pointed at it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from google import genai
from google.genai import types

from adk_memory.google_api.gemini import GeminiSettings, RetryPolicy
from adk_memory.testing.emulator import EmulatorServer

#: Retries fast enough for tests, still exponential and bounded.
FAST_RETRY = RetryPolicy(
    max_attempts=4,
    max_total_seconds=5.0,
    initial_backoff=0.01,
    max_backoff=0.05,
    jitter=0.01,
    call_timeout=5.0,
)


class Admin:
    """The emulator's Gemini admin endpoints, over HTTP as a test client would use them."""

    def __init__(self, base_url: str) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=10)

    def script(self, *replies: dict[str, Any]) -> None:
        self.http.post(
            "/emulator/gemini/script", json={"replies": list(replies)}
        ).raise_for_status()

    def faults(self, **faults: Any) -> None:
        self.http.post("/emulator/gemini/faults", json=faults).raise_for_status()

    def stats(self) -> dict[str, Any]:
        response = self.http.get("/emulator/gemini/stats")
        response.raise_for_status()
        stats: dict[str, Any] = response.json()
        return stats

    def requests(self) -> list[dict[str, Any]]:
        response = self.http.get("/emulator/gemini/requests")
        response.raise_for_status()
        logged: list[dict[str, Any]] = response.json()
        return logged


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer() as running:
        yield running


@pytest.fixture(scope="module")
def admin_api(server: EmulatorServer) -> Iterator[Admin]:
    # One HTTP client (and one genai client below) per module: building their SSL contexts
    # costs ~0.2 s each, which would dominate these tests.
    api = Admin(server.base_url)
    yield api
    api.http.close()


@pytest.fixture
def admin(admin_api: Admin) -> Admin:
    """The admin API, with the Gemini surface reset (scripts, faults, counters, log)."""
    admin_api.http.post("/emulator/gemini/reset").raise_for_status()
    return admin_api


@pytest.fixture(scope="module")
def module_client(server: EmulatorServer) -> genai.Client:
    return genai.Client(
        api_key="test-key", http_options=types.HttpOptions(base_url=server.base_url)
    )


@pytest.fixture
def client(module_client: genai.Client, admin: Admin) -> genai.Client:
    """The real google-genai client on the emulator, after a reset of the Gemini surface."""
    return module_client


@pytest.fixture
def settings() -> GeminiSettings:
    return GeminiSettings(retry=FAST_RETRY)
