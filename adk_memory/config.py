"""Settings from the environment (and `.env` via ADK): the one module that reads `ADK_MEMORY_*`.

Every variable this module reads is listed in `ENV_VARS` and documented in `.env.example`
(a test keeps the two equal). Other modules get their settings from here: `Settings` for the
engine and the factory, `GeminiSettings` for the Gemini code paths. Google's own variables
(`GOOGLE_API_KEY`, `GOOGLE_CLOUD_PROJECT`, ...) are read by google-genai and the Vertex SDK.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import Any

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from adk_memory.errors import ConfigError
from adk_memory.google_api.endpoints import gemini_credentials_configured, truthy
from adk_memory.google_api.retry import RetryPolicy
from adk_memory.retrieval.scoring import ScoringConfig

ENV_STORE = "ADK_MEMORY_STORE"
ENV_LLM = "ADK_MEMORY_LLM"
ENV_HALF_LIFE = "ADK_MEMORY_HALF_LIFE_DAYS"
ENV_TOP_K = "ADK_MEMORY_TOP_K"
ENV_LEXICAL_WEIGHT = "ADK_MEMORY_LEXICAL_WEIGHT"
ENV_EMBEDDER = "ADK_MEMORY_EMBEDDER"
ENV_AGENT_MODEL = "ADK_MEMORY_AGENT_MODEL"
ENV_TRUST_BASE_URL = "ADK_MEMORY_TRUST_BASE_URL"
ENV_INSPECTOR_TOKEN = "ADK_MEMORY_INSPECTOR_TOKEN"
ENV_DEBUG = "ADK_MEMORY_DEBUG"
GEMINI_PREFIX = "ADK_MEMORY_GEMINI_"

DEFAULT_GEMINI_MODEL = "gemini-2.5-flash"
DEFAULT_EMBEDDING_MODEL = "gemini-embedding-001"
DEFAULT_EMBEDDING_DIMENSION = 768

#: `ADK_MEMORY_GEMINI_<suffix>` -> GeminiSettings field.
_GEMINI_FIELDS = {
    "MODEL": "model",
    "EMBEDDING_MODEL": "embedding_model",
    "EMBEDDING_DIMENSION": "embedding_dimension",
    "THINKING_BUDGET": "thinking_budget",
    "MAX_OUTPUT_TOKENS": "max_output_tokens",
    "MIN_SIMILARITY": "classifier_min_similarity",
}
#: `ADK_MEMORY_GEMINI_<suffix>` -> RetryPolicy field.
_RETRY_FIELDS = {
    "MAX_ATTEMPTS": "max_attempts",
    "RETRY_SECONDS": "max_total_seconds",
    "INITIAL_BACKOFF": "initial_backoff",
    "MAX_BACKOFF": "max_backoff",
    "TIMEOUT": "call_timeout",
}
#: Settings field -> variable.
_SETTINGS_FIELDS = {
    "store_uri": ENV_STORE,
    "llm": ENV_LLM,
    "half_life_days": ENV_HALF_LIFE,
    "top_k": ENV_TOP_K,
    "lexical_weight": ENV_LEXICAL_WEIGHT,
    "embedder": ENV_EMBEDDER,
    "agent_model": ENV_AGENT_MODEL,
    "trust_base_url": ENV_TRUST_BASE_URL,
    "inspector_token": ENV_INSPECTOR_TOKEN,
    "debug": ENV_DEBUG,
}

#: Every environment variable adk-memory reads.
ENV_VARS: frozenset[str] = frozenset(
    {
        *_SETTINGS_FIELDS.values(),
        *(GEMINI_PREFIX + suffix for suffix in (*_GEMINI_FIELDS, *_RETRY_FIELDS)),
    }
)

_FLAG_VALUES = frozenset({"1", "true", "yes", "on", "0", "false", "no", "off"})


class LlmBackend(StrEnum):
    """Which models extract, classify and summarise."""

    GEMINI = "gemini"
    LOCAL = "local"
    #: Any model ADK resolves from a model string (`Settings.llm_model`): ADK's own Gemini,
    #: LiteLLM's providers (`openai/gpt-4o`), or a `BaseLlm` registered with its registry.
    ADK = "adk"


class EmbedderBackend(StrEnum):
    """Which model embeds memories and queries."""

    LOCAL = "local"
    GEMINI = "gemini"


class GeminiSettings(BaseModel):
    """Everything the Gemini code paths need besides credentials (which google-genai reads)."""

    model_config = ConfigDict(frozen=True)

    model: str = DEFAULT_GEMINI_MODEL
    #: The `GeminiEmbedder`'s model and output size (with `ADK_MEMORY_EMBEDDER=gemini`).
    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    embedding_dimension: int = Field(default=DEFAULT_EMBEDDING_DIMENSION, ge=1)
    #: None leaves the model's default; 0 turns thinking off on models that allow it.
    thinking_budget: int | None = None
    max_output_tokens: int | None = Field(default=None, ge=1)
    #: Facts whose best candidate is below this cosine are ADDed without asking the model.
    #: Depends on the embedder: MiniLM puts unrelated "User ..." facts around 0.15-0.3.
    classifier_min_similarity: float = Field(default=0.3, ge=-1.0, le=1.0)
    retry: RetryPolicy = Field(default_factory=lambda: RetryPolicy(label="Gemini"))

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> GeminiSettings:
        """Reads `ADK_MEMORY_GEMINI_*` variables; unset or blank ones keep their defaults.

        Raises:
            ConfigError: naming the variable whose value is invalid.
        """
        source = os.environ if env is None else env
        fields = _present(source, {GEMINI_PREFIX + k: v for k, v in _GEMINI_FIELDS.items()})
        retry = _present(source, {GEMINI_PREFIX + k: v for k, v in _RETRY_FIELDS.items()})
        try:
            policy = RetryPolicy(label="Gemini", **retry)
        except ValidationError as exc:
            names = {v: GEMINI_PREFIX + k for k, v in _RETRY_FIELDS.items()}
            raise _config_error(exc, names) from exc
        try:
            return cls(**fields, retry=policy)
        except ValidationError as exc:
            names = {v: GEMINI_PREFIX + k for k, v in _GEMINI_FIELDS.items()}
            raise _config_error(exc, names) from exc


def default_store_uri() -> str:
    """`adkmem+sqlite:///` + a file under the user's data directory."""
    path = Path(platformdirs.user_data_dir("adk-memory", appauthor=False)) / "memory.db"
    return f"adkmem+sqlite://{path.as_posix()}"


class Settings(BaseModel):
    """Everything configurable from the environment."""

    store_uri: str = Field(default_factory=default_store_uri)
    #: `gemini`, `local`, or an ADK model string (`gemini-2.5-flash`, `openai/gpt-4o`);
    #: None chooses gemini when Gemini credentials are configured, else local.
    llm: LlmBackend | str | None = None
    half_life_days: float | None = Field(
        default=ScoringConfig.model_fields["half_life_days"].default, gt=0
    )
    top_k: int = Field(default=10, ge=1, le=1000)
    lexical_weight: float = Field(
        default=ScoringConfig.model_fields["lexical_weight"].default, ge=0.0, le=1.0
    )
    #: The embedder: always `local` unless chosen, never switched by credentials alone, since
    #: the vectors already stored only compare with vectors of the same model.
    embedder: EmbedderBackend = EmbedderBackend.LOCAL
    #: The sample agent's model (`agents/memory_agent`): a Gemini name, or `scripted`.
    agent_model: str | None = None
    #: Send Google credentials to a base URL override on any host, not only Google's
    #: API hosts and loopback (see `adk_memory.google_api.endpoints`).
    trust_base_url: bool = False
    #: The memory inspector's access token (`adk-memory inspect`); None: a new random one.
    inspector_token: str | None = None
    #: The CLI re-raises errors with their traceback instead of one line (for developers).
    debug: bool = False
    gemini: GeminiSettings = Field(default_factory=GeminiSettings)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Reads every `ADK_MEMORY_*` variable; unset or blank ones keep their defaults.

        Raises:
            ConfigError: naming the variable whose value is invalid.
        """
        env = os.environ if environ is None else environ
        values: dict[str, Any] = _present(env, {v: k for k, v in _SETTINGS_FIELDS.items()})
        if str(values.get("half_life_days", "")).lower() in ("none", "off"):
            values["half_life_days"] = None  # decay disabled
        if "embedder" in values:
            values["embedder"] = str(values["embedder"]).lower()
        if "trust_base_url" in values:
            values["trust_base_url"] = _flag(ENV_TRUST_BASE_URL, str(values["trust_base_url"]))
        if "debug" in values:
            values["debug"] = _flag(ENV_DEBUG, str(values["debug"]))
        try:
            return cls(**values, gemini=GeminiSettings.from_env(env))
        except ValidationError as exc:
            raise _config_error(exc, _SETTINGS_FIELDS) from exc

    @field_validator("llm", mode="before")
    @classmethod
    def _llm_choice(cls, value: object) -> object:
        return parse_llm(value) if isinstance(value, str) else value

    @property
    def llm_model(self) -> str | None:
        """The ADK model string `llm` names, if it names one (not `gemini` / `local`)."""
        return None if self.llm is None or isinstance(self.llm, LlmBackend) else self.llm

    def llm_backend(self, environ: Mapping[str, str] | None = None) -> LlmBackend:
        """`llm` when set (ADK for a model string); else Gemini when its credentials are
        configured, else local."""
        if self.llm_model is not None:
            return LlmBackend.ADK
        return _choose_backend(self.llm if isinstance(self.llm, LlmBackend) else None, environ)


def parse_llm(raw: str) -> LlmBackend | str | None:
    """Reads an `ADK_MEMORY_LLM` value: `gemini` / `local` (any case), an ADK model string
    (kept as written: model names are case-sensitive), or None when blank.

    Raises:
        ValueError: for `adk` without a model, or a value with spaces inside.
    """
    value = raw.strip()
    lowered = value.lower()
    if not value:
        return None
    if lowered in (LlmBackend.GEMINI, LlmBackend.LOCAL):
        return LlmBackend(lowered)
    if lowered == LlmBackend.ADK or any(c.isspace() for c in value):
        raise ValueError(
            "expected 'gemini', 'local' or an ADK model string such as 'gemini-2.5-flash' "
            "or 'openai/gpt-4o'"
        )
    return value


def llm_backend_from_env(env: Mapping[str, str] | None = None) -> LlmBackend:
    """The model backend for extraction, classification and summaries.

    `ADK_MEMORY_LLM` decides when set (ADK for a model string); otherwise Gemini when
    credentials are configured, else the offline local models.

    Raises:
        ConfigError: if `ADK_MEMORY_LLM` is not `gemini`, `local` or a model string.
    """
    source = os.environ if env is None else env
    raw = source.get(ENV_LLM) or ""
    try:
        chosen = parse_llm(raw)
    except ValueError as exc:
        raise ConfigError(f"{ENV_LLM}={raw.strip()!r}: {exc}") from None
    if isinstance(chosen, str) and not isinstance(chosen, LlmBackend):
        return LlmBackend.ADK
    return _choose_backend(chosen, source)


def _choose_backend(chosen: LlmBackend | None, env: Mapping[str, str] | None) -> LlmBackend:
    if chosen is not None:
        return chosen
    return LlmBackend.GEMINI if gemini_credentials_configured(env) else LlmBackend.LOCAL


def trust_base_url_from_env(env: Mapping[str, str] | None = None) -> bool:
    """`ADK_MEMORY_TRUST_BASE_URL`: whether base URL overrides may name any host.

    Raises:
        ConfigError: if the value is not a boolean word.
    """
    source = os.environ if env is None else env
    raw = (source.get(ENV_TRUST_BASE_URL) or "").strip()
    return _flag(ENV_TRUST_BASE_URL, raw) if raw else False


def _flag(name: str, raw: str) -> bool:
    if raw.strip().lower() not in _FLAG_VALUES:
        raise ConfigError(f"{name}={raw!r}: expected 1/true/yes/on or 0/false/no/off")
    return truthy(raw)


def _present(env: Mapping[str, str], names: Mapping[str, str]) -> dict[str, Any]:
    """{field: stripped value} for each variable in `names` (var -> field) set non-blank."""
    found: dict[str, Any] = {}
    for var, field in names.items():
        raw = (env.get(var) or "").strip()
        if raw:
            found[field] = raw
    return found


def _config_error(exc: ValidationError, variables: Mapping[str, str]) -> ConfigError:
    """A ConfigError naming the variable (field -> variable in `variables`) and the problem."""
    problem = exc.errors()[0]
    field = str(problem["loc"][0]) if problem["loc"] else ""
    name = variables.get(field, field or "setting")
    value = problem.get("input")
    shown = f"={value!r}" if isinstance(value, str) else ""
    return ConfigError(f"invalid {name}{shown}: {problem['msg']}")


__all__ = [
    "ENV_VARS",
    "EmbedderBackend",
    "GeminiSettings",
    "LlmBackend",
    "Settings",
    "default_store_uri",
    "llm_backend_from_env",
    "parse_llm",
    "trust_base_url_from_env",
]
