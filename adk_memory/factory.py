"""Builds a ready `MemoryEngine` from settings: the store from its URI, the models from the
LLM selection (`ADK_MEMORY_LLM`: Gemini when credentials are configured, else local)."""

from __future__ import annotations

from adk_memory.config import Settings
from adk_memory.engine import EngineConfig, MemoryEngine
from adk_memory.extraction.base import FactExtractor
from adk_memory.google_api.gemini import LlmBackend, llm_backend_from_env
from adk_memory.reconcile.base import ContradictionClassifier
from adk_memory.retrieval.scoring import ScoringConfig
from adk_memory.stores.uri import open_store


def engine_config(settings: Settings) -> EngineConfig:
    return EngineConfig(
        scoring=ScoringConfig(
            half_life_days=settings.half_life_days, lexical_weight=settings.lexical_weight
        ),
        top_k=settings.top_k,
    )


def llm_backend(settings: Settings) -> LlmBackend:
    return LlmBackend(settings.llm) if settings.llm else llm_backend_from_env()


def models(settings: Settings) -> tuple[FactExtractor | None, ContradictionClassifier | None]:
    """The extractor and classifier the settings select (None: the engine's local default)."""
    if llm_backend(settings) is not LlmBackend.GEMINI:
        return None, None
    from adk_memory.extraction.gemini import GeminiExtractor
    from adk_memory.google_api.gemini import GeminiSettings, build_client
    from adk_memory.reconcile.gemini import GeminiClassifier

    client, gemini = build_client(), GeminiSettings.from_env()
    return GeminiExtractor(client, settings=gemini), GeminiClassifier(client, settings=gemini)


async def open_engine(
    store_uri: str | None = None, *, settings: Settings | None = None
) -> MemoryEngine:
    """Opens the store and wires the engine the settings describe.

    Args:
        store_uri: Overrides `settings.store_uri`.
        settings: Defaults to `Settings.from_env()`.
    """
    settings = settings or Settings.from_env()
    extractor, classifier = models(settings)
    store = await open_store(store_uri or settings.store_uri)
    return MemoryEngine(
        store, config=engine_config(settings), extractor=extractor, classifier=classifier
    )
