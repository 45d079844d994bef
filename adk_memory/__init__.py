"""adk-memory: epistemic long-term memory for Google ADK agents.

Quick start::

    from adk_memory import AdkMemoryService
    runner = Runner(app=app, session_service=..., memory_service=AdkMemoryService())
"""

from adk_memory.adk import register_schemes
from adk_memory.embedding import Embedder, LocalEmbedder
from adk_memory.engine import EngineConfig, MemoryEngine
from adk_memory.errors import (
    AdkMemoryError,
    BackendError,
    ConfigError,
    ExtractionError,
    InvalidInputError,
    NotFoundError,
)
from adk_memory.extraction import FactExtractor
from adk_memory.factory import open_engine
from adk_memory.local_classifier import LocalClassifier
from adk_memory.local_extraction import LocalExtractor
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
from adk_memory.plugin import MemoryPlugin
from adk_memory.reconcile import ContradictionClassifier
from adk_memory.scoring import ScoringConfig
from adk_memory.service import AdkMemoryService
from adk_memory.stores.base import MemoryStore
from adk_memory.stores.sqlite import SqliteStore

__version__ = "0.1.0"

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
    "open_engine",
    "register_schemes",
]
