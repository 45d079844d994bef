"""The composition root: builds ready `MemoryEngine`s.

`build_engine(store)` wires the engine's seams with the bundled local models wherever the
caller gives none; `open_engine(uri)` opens the store from its URI and picks the models the
settings select (`ADK_MEMORY_LLM`: Gemini when credentials are configured, else local; or
any model ADK resolves from a model string, or a `BaseLlm` given in code).
This is the one module that knows every stage, so the stages never import each other's
defaults.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from adk_memory.config import EmbedderBackend, LlmBackend, Settings
from adk_memory.embedding.base import Embedder
from adk_memory.engine import EngineConfig, MemoryEngine
from adk_memory.extraction.base import ExtractionResult, FactExtractor
from adk_memory.model import InputEvent, utcnow
from adk_memory.reconcile.base import (
    ClassificationResult,
    ContradictionClassifier,
    ReconcileItem,
)
from adk_memory.retrieval.scoring import ScoringConfig
from adk_memory.stores.base import MemoryStore
from adk_memory.stores.uri import open_store

if TYPE_CHECKING:
    from google.adk.models.base_llm import BaseLlm

    from adk_memory.lifecycle.summarizer import Summarizer
    from adk_memory.llm.base import StructuredModel


def build_engine(
    store: MemoryStore,
    *,
    embedder: Embedder | None = None,
    extractor: FactExtractor | None = None,
    classifier: ContradictionClassifier | None = None,
    config: EngineConfig | None = None,
    clock: Callable[[], datetime] = utcnow,
) -> MemoryEngine:
    """An engine on `store`, with the bundled local models for every seam not given.

    Args:
        store: An opened store.
        embedder: Default: `LocalEmbedder` (all-MiniLM-L6-v2, bundled).
        extractor: Default: `LocalExtractor` (offline, deterministic).
        classifier: Default: `LocalClassifier` (offline, precision-first).
        config: Retrieval and reconciliation settings.
        clock: Returns "now".
    """
    if embedder is None:
        from adk_memory.embedding.local import LocalEmbedder

        embedder = LocalEmbedder()
    return MemoryEngine(
        store,
        embedder=embedder,
        extractor=_LocalExtractorOnFirstUse() if extractor is None else extractor,
        classifier=_LocalClassifierOnFirstUse() if classifier is None else classifier,
        config=config,
        clock=clock,
    )


class _LocalExtractorOnFirstUse:
    """`LocalExtractor`, loaded on the first extraction: its rules take a few hundred ms of
    CPU to compile, which a process that only recalls (a CLI `recall`) need not pay."""

    def __init__(self) -> None:
        self._inner: FactExtractor | None = None

    async def extract(self, events: Sequence[InputEvent]) -> ExtractionResult:
        if self._inner is None:
            from adk_memory.extraction.local import LocalExtractor

            self._inner = LocalExtractor()
        return await self._inner.extract(events)


class _LocalClassifierOnFirstUse:
    """`LocalClassifier`, loaded on the first classification (see the extractor's)."""

    def __init__(self) -> None:
        self._inner: ContradictionClassifier | None = None

    async def classify(self, items: Sequence[ReconcileItem]) -> ClassificationResult:
        if self._inner is None:
            from adk_memory.reconcile.local import LocalClassifier

            self._inner = LocalClassifier()
        return await self._inner.classify(items)


def engine_config(settings: Settings) -> EngineConfig:
    return EngineConfig(
        scoring=ScoringConfig(
            half_life_days=settings.half_life_days, lexical_weight=settings.lexical_weight
        ),
        top_k=settings.top_k,
    )


def llm_backend(settings: Settings) -> LlmBackend:
    return settings.llm_backend()


def models(
    settings: Settings, *, llm: BaseLlm | str | None = None
) -> tuple[FactExtractor | None, ContradictionClassifier | None]:
    """The extractor and classifier the settings select (None: the local default).

    Args:
        settings: `llm` picks Gemini, local, or an ADK model string.
        llm: Overrides `settings.llm`: an ADK `BaseLlm` instance or model string.

    Raises:
        ConfigError: if Gemini is chosen and not configured, or ADK cannot resolve the model.
    """
    model = structured_model(settings, llm=llm)
    if model is None:
        return None, None
    from adk_memory.extraction.gemini import GeminiExtractor
    from adk_memory.reconcile.gemini import GeminiClassifier

    return (
        GeminiExtractor(settings=settings.gemini, model=model),
        GeminiClassifier(settings=settings.gemini, model=model),
    )


def structured_model(
    settings: Settings, *, llm: BaseLlm | str | None = None
) -> StructuredModel | None:
    """The one model the extractor, classifier and summariser share (None: local models).

    Gemini goes through google-genai (`GeminiStructuredModel`); a model string or a
    `BaseLlm` goes through ADK (`AdkStructuredModel`), with the same retry policy and
    output cap (`ADK_MEMORY_GEMINI_MAX_ATTEMPTS`, ... apply to every model).

    Raises:
        ConfigError: if Gemini is chosen and not configured, or ADK cannot resolve the model.
    """
    if llm is None:
        if llm_backend(settings) is LlmBackend.GEMINI:
            from adk_memory.google_api.gemini import GeminiStructuredModel, build_client

            client = build_client(trust_base_url=settings.trust_base_url)
            return GeminiStructuredModel(client, settings.gemini)
        llm = settings.llm_model
        if llm is None:  # the local backend: only a model string selects ADK
            return None
    from adk_memory.google_api.gemini import check_adk_gemini
    from adk_memory.llm.adk import AdkStructuredModel, resolve_llm

    base = resolve_llm(llm) if isinstance(llm, str) else llm
    check_adk_gemini(base, trust_base_url=settings.trust_base_url)
    return AdkStructuredModel(
        base,
        retry=settings.gemini.retry,
        max_output_tokens=settings.gemini.max_output_tokens,
    )


def summarizer(
    settings: Settings, *, max_chars: int | None = None, llm: BaseLlm | str | None = None
) -> Summarizer:
    """The summariser the settings select: the model's (local summary as its fallback), or
    the local one.

    Raises:
        ConfigError: as `structured_model`.
    """
    from adk_memory.lifecycle.summarizer import SUMMARY_MAX_CHARS, LocalSummarizer

    chars = SUMMARY_MAX_CHARS if max_chars is None else max_chars
    model = structured_model(settings, llm=llm)
    if model is None:
        return LocalSummarizer(chars)
    from adk_memory.lifecycle.gemini_summarizer import GeminiSummarizer

    return GeminiSummarizer(settings=settings.gemini, max_chars=chars, model=model)


def embedder(settings: Settings) -> Embedder | None:
    """The embedder `ADK_MEMORY_EMBEDDER` selects (None: the local default).

    Raises:
        ConfigError: if `gemini` is chosen and Gemini is not configured.
    """
    if settings.embedder is not EmbedderBackend.GEMINI:
        return None
    from adk_memory.embedding.gemini import GeminiEmbedder
    from adk_memory.google_api.gemini import build_client

    client = build_client(trust_base_url=settings.trust_base_url)
    return GeminiEmbedder(client, settings=settings.gemini)


async def open_engine(
    store_uri: str | None = None,
    *,
    settings: Settings | None = None,
    llm: BaseLlm | str | None = None,
) -> MemoryEngine:
    """Opens the store and wires the engine the settings describe.

    Args:
        store_uri: Overrides `settings.store_uri`.
        settings: Defaults to `Settings.from_env()`.
        llm: Extracts and classifies instead of the model `ADK_MEMORY_LLM` selects: an ADK
            `BaseLlm` (e.g. `LiteLlm(model="openai/gpt-4o")`) or model string.

    Raises:
        ConfigError: if the settings are invalid, or the model cannot be set up.
    """
    settings = settings or Settings.from_env()
    extractor, classifier = models(settings, llm=llm)
    store = await open_store(store_uri or settings.store_uri)
    return build_engine(
        store,
        config=engine_config(settings),
        embedder=embedder(settings),
        extractor=extractor,
        classifier=classifier,
    )
