"""adk-memory: epistemic long-term memory for Google ADK agents.

Quick start::

    from adk_memory import AdkMemoryService
    runner = Runner(app=app, session_service=..., memory_service=AdkMemoryService())

Names are imported on first use (as `google.adk.memory` does), so `import adk_memory` stays
cheap: ADK, google-genai and the emulator load only when something that needs them is used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from adk_memory.errors import (
    AdkMemoryError,
    BackendError,
    ConfigError,
    ExtractionError,
    InvalidInputError,
    NotFoundError,
)

if TYPE_CHECKING:
    from adk_memory.adk.plugin import MemoryPlugin
    from adk_memory.adk.registry import register_schemes
    from adk_memory.adk.service import AdkMemoryService
    from adk_memory.embedding.base import Embedder
    from adk_memory.embedding.local import LocalEmbedder
    from adk_memory.engine import EngineConfig, MemoryEngine
    from adk_memory.extraction.base import FactExtractor
    from adk_memory.extraction.local import LocalExtractor
    from adk_memory.factory import open_engine
    from adk_memory.inspector.routes import inspector_router
    from adk_memory.model import (
        Decision,
        Fact,
        IngestResult,
        InputEvent,
        Kind,
        MemoryRecord,
        Scope,
        ScoredMemory,
        Status,
        WriteOutcome,
    )
    from adk_memory.reconcile.base import ContradictionClassifier
    from adk_memory.reconcile.local import LocalClassifier
    from adk_memory.retrieval.scoring import ScoringConfig
    from adk_memory.stores.base import MemoryStore
    from adk_memory.stores.sqlite.store import SqliteStore

__version__ = "0.1.0"

_LAZY = {
    "AdkMemoryService": "adk_memory.adk.service",
    "ContradictionClassifier": "adk_memory.reconcile.base",
    "Decision": "adk_memory.model",
    "Embedder": "adk_memory.embedding.base",
    "EngineConfig": "adk_memory.engine",
    "Fact": "adk_memory.model",
    "FactExtractor": "adk_memory.extraction.base",
    "IngestResult": "adk_memory.model",
    "InputEvent": "adk_memory.model",
    "Kind": "adk_memory.model",
    "LocalClassifier": "adk_memory.reconcile.local",
    "LocalEmbedder": "adk_memory.embedding.local",
    "LocalExtractor": "adk_memory.extraction.local",
    "MemoryEngine": "adk_memory.engine",
    "MemoryPlugin": "adk_memory.adk.plugin",
    "MemoryRecord": "adk_memory.model",
    "MemoryStore": "adk_memory.stores.base",
    "Scope": "adk_memory.model",
    "ScoredMemory": "adk_memory.model",
    "ScoringConfig": "adk_memory.retrieval.scoring",
    "SqliteStore": "adk_memory.stores.sqlite.store",
    "Status": "adk_memory.model",
    "WriteOutcome": "adk_memory.model",
    "inspector_router": "adk_memory.inspector.routes",
    "open_engine": "adk_memory.factory",
    "register_schemes": "adk_memory.adk.registry",
}

__all__ = [
    "AdkMemoryError",
    "AdkMemoryService",
    "BackendError",
    "ConfigError",
    "ContradictionClassifier",
    "Decision",
    "Embedder",
    "EngineConfig",
    "ExtractionError",
    "Fact",
    "FactExtractor",
    "IngestResult",
    "InputEvent",
    "InvalidInputError",
    "Kind",
    "LocalClassifier",
    "LocalEmbedder",
    "LocalExtractor",
    "MemoryEngine",
    "MemoryPlugin",
    "MemoryRecord",
    "MemoryStore",
    "NotFoundError",
    "Scope",
    "ScoredMemory",
    "ScoringConfig",
    "SqliteStore",
    "Status",
    "WriteOutcome",
    "__version__",
    "inspector_router",
    "open_engine",
    "register_schemes",
]


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
