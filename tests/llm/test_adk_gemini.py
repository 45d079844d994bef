"""ADK's own `Gemini` model, resolved from `ADK_MEMORY_LLM=gemini-2.5-flash`, runs the any-model
path against the emulator: structured output reaches the wire, the update replaces."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from adk_memory.config import GeminiSettings, Settings
from adk_memory.errors import ConfigError
from adk_memory.factory import open_engine, structured_model
from adk_memory.model import Decision
from adk_memory.testing.emulator import EmulatorServer
from tests.llm.conftest import INSTANT_RETRY
from tests.llm.test_adk import BERLIN, MUNICH, SCOPE
from tests.support.gemini import Admin

MODEL = "gemini-2.5-flash"


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer() as running:
        yield running


@pytest.fixture
def admin(server: EmulatorServer) -> Iterator[Admin]:
    api = Admin(server.base_url)
    api.http.post("/emulator/gemini/reset").raise_for_status()
    yield api
    api.http.close()


@pytest.fixture
def gemini_env(monkeypatch: pytest.MonkeyPatch, server: EmulatorServer) -> pytest.MonkeyPatch:
    for name in ("GOOGLE_GENAI_USE_VERTEXAI", "GEMINI_API_KEY", "GOOGLE_VERTEX_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GOOGLE_API_KEY", "test-key")
    monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", server.base_url)
    return monkeypatch


def settings_for(tmp_path: Path, **env: str) -> Settings:
    values = {
        "ADK_MEMORY_STORE": f"adkmem+sqlite:///{tmp_path / 'memory.db'}",
        "ADK_MEMORY_LLM": MODEL,
        **env,
    }
    settings = Settings.from_env(values)
    return settings.model_copy(update={"gemini": GeminiSettings(retry=INSTANT_RETRY)})


async def test_adks_gemini_extracts_and_replaces_with_structured_output(
    tmp_path: Path, gemini_env: pytest.MonkeyPatch, admin: Admin
) -> None:
    engine = await open_engine(settings=settings_for(tmp_path))
    try:
        first = await engine.ingest(SCOPE, [BERLIN])
        result = await engine.ingest(SCOPE, [MUNICH])
    finally:
        await engine.close()

    assert result.count(Decision.REPLACE) == 1
    stats = admin.stats()
    assert stats["calls_by_task"] == {"extract_facts": 2, "classify_facts": 1}
    # The tokens ADK's model reported are the ones the emulator billed.
    assert first.tokens + result.tokens == stats["total_tokens"] > 0
    [request, *_] = admin.requests()
    assert f"/models/{MODEL}:generateContent" in request["path"]
    config = request["body"]["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    assert config.get("responseSchema") or config.get("responseJsonSchema")
    assert config["temperature"] == 0.0
    # Gemini enforces the schema itself: no tokens spent stating it in the instruction.
    assert "JSON schema" not in str(request["body"]["systemInstruction"])


async def test_a_foreign_base_url_keeps_adks_gemini_from_getting_the_key(
    tmp_path: Path, gemini_env: pytest.MonkeyPatch
) -> None:
    gemini_env.setenv("GOOGLE_GEMINI_BASE_URL", "https://gateway.example.com")
    with pytest.raises(ConfigError, match="GOOGLE_GEMINI_BASE_URL"):
        structured_model(settings_for(tmp_path))
    trusted = settings_for(tmp_path, ADK_MEMORY_TRUST_BASE_URL="1")
    assert structured_model(trusted) is not None
