"""Settings from the environment (and `.env` via ADK): one place that reads `ADK_MEMORY_*`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

import platformdirs
from pydantic import BaseModel, Field, ValidationError

from adk_memory.errors import ConfigError
from adk_memory.retrieval.scoring import ScoringConfig

ENV_STORE = "ADK_MEMORY_STORE"
ENV_LLM = "ADK_MEMORY_LLM"
ENV_HALF_LIFE = "ADK_MEMORY_HALF_LIFE_DAYS"
ENV_TOP_K = "ADK_MEMORY_TOP_K"
ENV_LEXICAL_WEIGHT = "ADK_MEMORY_LEXICAL_WEIGHT"


def default_store_uri() -> str:
    """`adkmem+sqlite:///` + a file under the user's data directory."""
    path = Path(platformdirs.user_data_dir("adk-memory", appauthor=False)) / "memory.db"
    return f"adkmem+sqlite://{path.as_posix()}"


class Settings(BaseModel):
    """Everything configurable from the environment."""

    store_uri: str = Field(default_factory=default_store_uri)
    #: "gemini" or "local"; None chooses gemini when Gemini credentials are configured.
    llm: Literal["gemini", "local"] | None = None
    half_life_days: float | None = Field(
        default=ScoringConfig.model_fields["half_life_days"].default, gt=0
    )
    top_k: int = Field(default=10, ge=1, le=1000)
    lexical_weight: float = Field(
        default=ScoringConfig.model_fields["lexical_weight"].default, ge=0.0, le=1.0
    )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Reads `ADK_MEMORY_*` variables; unset ones keep their defaults.

        Raises:
            ConfigError: naming the variable whose value is invalid.
        """
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        for field, var in (
            ("store_uri", ENV_STORE),
            ("llm", ENV_LLM),
            ("half_life_days", ENV_HALF_LIFE),
            ("top_k", ENV_TOP_K),
            ("lexical_weight", ENV_LEXICAL_WEIGHT),
        ):
            raw = env.get(var, "").strip()
            if not raw:
                continue
            if field == "half_life_days" and raw.lower() in ("none", "off"):
                values[field] = None  # decay disabled
            elif field == "llm":
                values[field] = raw.lower()
            else:
                values[field] = raw
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            problem = exc.errors()[0]
            field = str(problem["loc"][0]) if problem["loc"] else "?"
            raise ConfigError(f"invalid setting {field}: {problem['msg']}") from exc
