"""Builds a ready `MemoryEngine` from settings: the store from its URI, the models from the
LLM selection."""

from __future__ import annotations

from adk_memory.config import Settings
from adk_memory.engine import EngineConfig, MemoryEngine
from adk_memory.scoring import ScoringConfig
from adk_memory.uri import open_store


def engine_config(settings: Settings) -> EngineConfig:
    return EngineConfig(
        scoring=ScoringConfig(
            half_life_days=settings.half_life_days, lexical_weight=settings.lexical_weight
        ),
        top_k=settings.top_k,
    )


async def open_engine(
    store_uri: str | None = None, *, settings: Settings | None = None
) -> MemoryEngine:
    """Opens the store and wires the engine the settings describe.

    Args:
        store_uri: Overrides `settings.store_uri`.
        settings: Defaults to `Settings.from_env()`.
    """
    settings = settings or Settings.from_env()
    store = await open_store(store_uri or settings.store_uri)
    return MemoryEngine(store, config=engine_config(settings))
