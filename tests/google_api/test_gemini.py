"""Backend selection, client construction (and where its credentials may go), prompt payloads."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from google import genai

from adk_memory.errors import ConfigError
from adk_memory.extraction.gemini import GeminiExtractor
from adk_memory.google_api.gemini import (
    GeminiSettings,
    LlmBackend,
    build_client,
    find_payload,
    llm_backend_from_env,
    payload_prompt,
)
from adk_memory.model import InputEvent
from adk_memory.testing.emulator import EmulatorServer
from tests.support.gemini import Admin

_CREDENTIAL_VARS = (
    "GOOGLE_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_GENAI_USE_VERTEXAI",
    "GOOGLE_CLOUD_PROJECT",
    "GOOGLE_CLOUD_LOCATION",
    "GOOGLE_GEMINI_BASE_URL",
    "GOOGLE_VERTEX_BASE_URL",
)


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in (*_CREDENTIAL_VARS, "ADK_MEMORY_LLM", "ADK_MEMORY_TRUST_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, LlmBackend.LOCAL),
        ({"GOOGLE_API_KEY": "k"}, LlmBackend.GEMINI),
        ({"GEMINI_API_KEY": "k"}, LlmBackend.GEMINI),
        ({"GOOGLE_GENAI_USE_VERTEXAI": "1"}, LlmBackend.LOCAL),
        ({"GOOGLE_GENAI_USE_VERTEXAI": "TRUE", "GOOGLE_CLOUD_PROJECT": "p"}, LlmBackend.GEMINI),
        ({"GOOGLE_API_KEY": "k", "ADK_MEMORY_LLM": "local"}, LlmBackend.LOCAL),
        ({"ADK_MEMORY_LLM": " Gemini "}, LlmBackend.GEMINI),
    ],
)
def test_llm_backend_from_env(env: dict[str, str], expected: LlmBackend) -> None:
    assert llm_backend_from_env(env) is expected


def test_a_malformed_backend_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="ADK_MEMORY_LLM"):
        llm_backend_from_env({"ADK_MEMORY_LLM": "open ai"})


def test_a_model_string_selects_the_adk_backend() -> None:
    assert llm_backend_from_env({"ADK_MEMORY_LLM": "openai/gpt-4o"}) is LlmBackend.ADK


def test_build_client_without_credentials(clean_env: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match="GOOGLE_API_KEY"):
        build_client()


async def test_sdk_reads_the_gemini_base_url_from_env(
    clean_env: pytest.MonkeyPatch, server: EmulatorServer, admin: Admin
) -> None:
    clean_env.setenv("GOOGLE_API_KEY", "test-key")
    clean_env.setenv("GOOGLE_GEMINI_BASE_URL", server.base_url)
    client = build_client()
    assert isinstance(client, genai.Client) and not client.vertexai

    event = InputEvent(
        id="e1", author="user", text="I live in Berlin.", timestamp=datetime(2026, 1, 1, tzinfo=UTC)
    )
    result = await GeminiExtractor(client, settings=GeminiSettings()).extract([event])
    assert [f.object for f in result.facts] == ["Berlin"]
    assert admin.stats()["generate_calls"] == 1


async def test_vertex_from_env_uses_the_publisher_path(
    clean_env: pytest.MonkeyPatch, server: EmulatorServer, admin: Admin
) -> None:
    clean_env.setenv("GOOGLE_GENAI_USE_VERTEXAI", "1")
    clean_env.setenv("GOOGLE_CLOUD_PROJECT", "emulator-project")
    clean_env.setenv("GOOGLE_CLOUD_LOCATION", "us-central1")
    clean_env.setenv("GOOGLE_VERTEX_BASE_URL", server.base_url)
    client = build_client()
    assert client.vertexai

    event = InputEvent(
        id="e1", author="user", text="I live in Berlin.", timestamp=datetime(2026, 1, 1, tzinfo=UTC)
    )
    result = await GeminiExtractor(client, settings=GeminiSettings()).extract([event])
    assert [f.object for f in result.facts] == ["Berlin"]
    assert admin.requests()[0]["path"] == (
        "/v1beta1/projects/emulator-project/locations/us-central1/publishers/google/models/"
        "gemini-2.5-flash:generateContent"
    )


@pytest.mark.parametrize(
    ("vertex", "url_var"),
    [(False, "GOOGLE_GEMINI_BASE_URL"), (True, "GOOGLE_VERTEX_BASE_URL")],
)
def test_build_client_refuses_a_base_url_on_a_foreign_host(
    clean_env: pytest.MonkeyPatch, vertex: bool, url_var: str
) -> None:
    clean_env.setenv("GOOGLE_API_KEY", "real-key")
    if vertex:
        clean_env.setenv("GOOGLE_GENAI_USE_VERTEXAI", "1")
        clean_env.setenv("GOOGLE_CLOUD_PROJECT", "p")
    clean_env.setenv(url_var, "https://collector.example.com")
    with pytest.raises(ConfigError, match=f"{url_var}=.*ADK_MEMORY_TRUST_BASE_URL=1"):
        build_client()


def test_build_client_accepts_a_foreign_host_when_trusted(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("GOOGLE_API_KEY", "real-key")
    clean_env.setenv("GOOGLE_GEMINI_BASE_URL", "https://gateway.example.com")
    clean_env.setenv("ADK_MEMORY_TRUST_BASE_URL", "1")
    assert not build_client().vertexai
    clean_env.delenv("ADK_MEMORY_TRUST_BASE_URL")
    assert not build_client(trust_base_url=True).vertexai
    with pytest.raises(ConfigError):
        build_client()


def test_build_client_accepts_google_hosts(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("GOOGLE_API_KEY", "real-key")
    clean_env.setenv("GOOGLE_GEMINI_BASE_URL", "https://generativelanguage.googleapis.com")
    assert not build_client().vertexai


async def test_vertex_on_an_ipv4_mapped_loopback_gets_the_fake_token(
    clean_env: pytest.MonkeyPatch, server: EmulatorServer, admin: Admin
) -> None:
    # No ADC exists here: the client works only because the emulator gets the fake token.
    port = server.base_url.rsplit(":", 1)[1]
    clean_env.setenv("GOOGLE_GENAI_USE_VERTEXAI", "1")
    clean_env.setenv("GOOGLE_CLOUD_PROJECT", "emulator-project")
    clean_env.setenv("GOOGLE_CLOUD_LOCATION", "us-central1")
    clean_env.setenv("GOOGLE_VERTEX_BASE_URL", f"http://[::ffff:127.0.0.1]:{port}")
    clean_env.setenv("GOOGLE_APPLICATION_CREDENTIALS", "/nonexistent/adc.json")
    client = build_client()
    event = InputEvent(
        id="e1", author="user", text="I live in Berlin.", timestamp=datetime(2026, 1, 1, tzinfo=UTC)
    )
    result = await GeminiExtractor(client, settings=GeminiSettings()).extract([event])
    assert [f.object for f in result.facts] == ["Berlin"]
    assert admin.stats()["generate_calls"] == 1


def test_payload_round_trip() -> None:
    prompt = payload_prompt("Do it.", {"task": "t", "x": ["a`b", "ü"]})
    assert prompt.startswith("Do it.\n\n```json\n")
    assert find_payload(prompt) == {"task": "t", "x": ["a`b", "ü"]}
    assert find_payload('```json\n[1]\n```\n```json\n{"no_task": 1}\n```') is None
