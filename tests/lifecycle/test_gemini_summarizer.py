"""GeminiSummarizer through the real google-genai client against the emulator."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import httpx
import pytest
from google import genai
from google.genai import types

from adk_memory.google_api.gemini import GeminiSettings, RetryPolicy
from adk_memory.lifecycle.gemini_summarizer import GeminiSummarizer
from adk_memory.lifecycle.summarizer import LocalSummarizer, Summarizer
from adk_memory.testing.emulator import EmulatorServer
from tests.lifecycle.support import fact

RECORDS = [fact("I went hiking in the mountains last weekend"), fact("I love hiking")]
FAST = GeminiSettings(
    retry=RetryPolicy(
        max_attempts=2,
        max_total_seconds=2,
        initial_backoff=0.01,
        max_backoff=0.02,
        jitter=0.0,
        call_timeout=5,
    )
)


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer() as running:
        yield running


@pytest.fixture
def admin(server: EmulatorServer) -> Iterator[httpx.Client]:
    http = httpx.Client(base_url=server.base_url, timeout=10)
    http.post("/emulator/gemini/reset").raise_for_status()
    yield http
    http.close()


def script(admin: httpx.Client, reply: Mapping[str, object]) -> None:
    """Queues the emulator's next generateContent reply (setup, before the async code)."""
    admin.post("/emulator/gemini/script", json={"replies": [reply]}).raise_for_status()


def client_for(server: EmulatorServer) -> genai.Client:
    return genai.Client(
        api_key="test-key", http_options=types.HttpOptions(base_url=server.base_url)
    )


async def test_uses_the_structured_reply(server: EmulatorServer, admin: httpx.Client) -> None:
    reply = {"json": {"text": "User: enjoys hiking in the mountains."}}
    script(admin, reply)
    summarizer = GeminiSummarizer(client_for(server), settings=FAST)

    assert isinstance(summarizer, Summarizer)
    assert await summarizer.summarize("user", RECORDS) == "User: enjoys hiking in the mountains."


async def test_falls_back_to_the_local_summary(server: EmulatorServer, admin: httpx.Client) -> None:
    failure = {"status": 400, "message": "bad request"}
    script(admin, failure)
    summarizer = GeminiSummarizer(client_for(server), settings=FAST)

    text = await summarizer.summarize("user", RECORDS)

    assert text == await LocalSummarizer().summarize("user", RECORDS)
