"""`adk_memory.config`: the one reader of `ADK_MEMORY_*`, and `.env.example` documenting it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adk_memory.config import (
    ENV_VARS,
    EmbedderBackend,
    GeminiSettings,
    LlmBackend,
    Settings,
    llm_backend_from_env,
    trust_base_url_from_env,
)
from adk_memory.errors import ConfigError

ENV_EXAMPLE = Path(__file__).resolve().parents[1] / ".env.example"

#: A value for each variable that differs from its default.
PROBES = {
    "ADK_MEMORY_STORE": "adkmem+sqlite:///./probe.db",
    "ADK_MEMORY_LLM": "local",
    "ADK_MEMORY_EMBEDDER": "gemini",
    "ADK_MEMORY_HALF_LIFE_DAYS": "30",
    "ADK_MEMORY_TOP_K": "3",
    "ADK_MEMORY_LEXICAL_WEIGHT": "0.1",
    "ADK_MEMORY_AGENT_MODEL": "scripted",
    "ADK_MEMORY_TRUST_BASE_URL": "1",
    "ADK_MEMORY_INSPECTOR_TOKEN": "a-token-of-sixteen-chars",
    "ADK_MEMORY_DEBUG": "1",
    "ADK_MEMORY_GEMINI_MODEL": "gemini-2.5-pro",
    "ADK_MEMORY_GEMINI_EMBEDDING_MODEL": "text-embedding-005",
    "ADK_MEMORY_GEMINI_EMBEDDING_DIMENSION": "256",
    "ADK_MEMORY_GEMINI_THINKING_BUDGET": "0",
    "ADK_MEMORY_GEMINI_MAX_OUTPUT_TOKENS": "512",
    "ADK_MEMORY_GEMINI_MIN_SIMILARITY": "0.5",
    "ADK_MEMORY_GEMINI_MAX_ATTEMPTS": "2",
    "ADK_MEMORY_GEMINI_RETRY_SECONDS": "5",
    "ADK_MEMORY_GEMINI_INITIAL_BACKOFF": "0.5",
    "ADK_MEMORY_GEMINI_MAX_BACKOFF": "2",
    "ADK_MEMORY_GEMINI_TIMEOUT": "3.5",
}


def example_variables() -> set[str]:
    """Every `ADK_MEMORY_*` variable `.env.example` sets (commented out or not)."""
    text = ENV_EXAMPLE.read_text(encoding="utf-8")
    return set(re.findall(r"^#?\s*(ADK_MEMORY_[A-Z0-9_]+)=", text, flags=re.MULTILINE))


def test_env_example_lists_exactly_what_config_reads() -> None:
    documented = example_variables()
    assert documented, ".env.example sets no ADK_MEMORY_* variable"
    assert documented - ENV_VARS == set(), "documented but read by nothing"
    assert ENV_VARS - documented == set(), "read but not documented in .env.example"


@pytest.mark.parametrize("name", sorted(PROBES))
def test_every_variable_changes_the_settings(name: str) -> None:
    assert set(PROBES) == ENV_VARS
    assert Settings.from_env({name: PROBES[name]}) != Settings.from_env({})


def test_values_are_parsed() -> None:
    settings = Settings.from_env(
        {
            "ADK_MEMORY_LLM": " Gemini ",
            "ADK_MEMORY_EMBEDDER": "GEMINI",
            "ADK_MEMORY_HALF_LIFE_DAYS": "none",
            "ADK_MEMORY_TOP_K": "3",
            "ADK_MEMORY_TRUST_BASE_URL": "yes",
            "ADK_MEMORY_GEMINI_MODEL": "gemini-2.5-pro",
            "ADK_MEMORY_GEMINI_MIN_SIMILARITY": "0.5",
            "ADK_MEMORY_GEMINI_MAX_ATTEMPTS": "2",
            "ADK_MEMORY_GEMINI_TIMEOUT": "3.5",
            "ADK_MEMORY_GEMINI_THINKING_BUDGET": "0",
            "ADK_MEMORY_GEMINI_EMBEDDING_DIMENSION": " ",
        }
    )
    assert settings.llm is LlmBackend.GEMINI
    assert settings.embedder is EmbedderBackend.GEMINI
    assert settings.half_life_days is None
    assert settings.top_k == 3
    assert settings.trust_base_url is True
    gemini = settings.gemini
    assert gemini.model == "gemini-2.5-pro"
    assert gemini.classifier_min_similarity == 0.5
    assert (gemini.retry.max_attempts, gemini.retry.call_timeout) == (2, 3.5)
    assert gemini.retry.label == "Gemini"
    assert gemini.thinking_budget == 0
    assert gemini.embedding_dimension == 768  # blank keeps the default


def test_defaults() -> None:
    settings = Settings.from_env({})
    assert settings.llm is None
    assert settings.embedder is EmbedderBackend.LOCAL
    assert settings.trust_base_url is False
    assert settings.gemini == GeminiSettings.from_env({})
    assert settings.store_uri.startswith("adkmem+sqlite://")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("ADK_MEMORY_TOP_K", "0"),
        ("ADK_MEMORY_TOP_K", "many"),
        ("ADK_MEMORY_LLM", "adk"),
        ("ADK_MEMORY_LLM", "open ai"),
        ("ADK_MEMORY_EMBEDDER", "openai"),
        ("ADK_MEMORY_HALF_LIFE_DAYS", "-1"),
        ("ADK_MEMORY_TRUST_BASE_URL", "maybe"),
        ("ADK_MEMORY_GEMINI_MAX_ATTEMPTS", "zero"),
        ("ADK_MEMORY_GEMINI_TIMEOUT", "0"),
        ("ADK_MEMORY_GEMINI_MIN_SIMILARITY", "2"),
        ("ADK_MEMORY_GEMINI_EMBEDDING_DIMENSION", "0"),
    ],
)
def test_an_invalid_value_names_its_variable(name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        Settings.from_env({name: value})


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, LlmBackend.LOCAL),
        ({"GOOGLE_API_KEY": "k"}, LlmBackend.GEMINI),
        ({"GOOGLE_GENAI_USE_VERTEXAI": "TRUE", "GOOGLE_CLOUD_PROJECT": "p"}, LlmBackend.GEMINI),
        ({"GOOGLE_API_KEY": "k", "ADK_MEMORY_LLM": "local"}, LlmBackend.LOCAL),
        ({"ADK_MEMORY_LLM": " Gemini "}, LlmBackend.GEMINI),
        ({"GOOGLE_API_KEY": "k", "ADK_MEMORY_LLM": "openai/gpt-4o"}, LlmBackend.ADK),
    ],
)
def test_llm_backend(env: dict[str, str], expected: LlmBackend) -> None:
    assert llm_backend_from_env(env) is expected
    assert Settings.from_env(env).llm_backend(env) is expected


def test_the_embedder_never_follows_credentials_alone() -> None:
    # Vectors already stored only compare with the same model's: switching is explicit.
    assert Settings.from_env({"GOOGLE_API_KEY": "k"}).embedder is EmbedderBackend.LOCAL


def test_trust_base_url_flag() -> None:
    assert trust_base_url_from_env({}) is False
    assert trust_base_url_from_env({"ADK_MEMORY_TRUST_BASE_URL": "on"}) is True
    assert trust_base_url_from_env({"ADK_MEMORY_TRUST_BASE_URL": "0"}) is False
    with pytest.raises(ConfigError, match="ADK_MEMORY_TRUST_BASE_URL"):
        trust_base_url_from_env({"ADK_MEMORY_TRUST_BASE_URL": "sure"})


def test_a_model_string_is_kept_as_written() -> None:
    settings = Settings.from_env({"ADK_MEMORY_LLM": " openai/GPT-4o "})
    assert settings.llm_model == "openai/GPT-4o"
    assert Settings.from_env({"ADK_MEMORY_LLM": "LOCAL"}).llm_model is None
