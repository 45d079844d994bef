"""Memory lifecycle: garbage collection, consolidation and restore, as library calls.

- `collect_garbage` archives facts that have faded (low decayed score) and were not recalled
  in the scope's last N sessions, and superseded facts past their retention period.
- `consolidate` merges clusters of related facts into summaries that link their sources,
  and archives the sources.
- `restore` brings archived facts back.

All three work through the `MemoryStore` protocol only (so every backend supports them), are
idempotent, and (but `restore`) dry-runnable. Archiving never deletes: history and summaries
keep their links, and search never returns an archived fact.
"""

from adk_memory.lifecycle.consolidation import (
    ClusterReport,
    ConsolidationConfig,
    ConsolidationReport,
    ScopeConsolidationReport,
    consolidate,
    source_event_ids,
)
from adk_memory.lifecycle.gc import GcConfig, GcReport, ScopeGcReport, collect_garbage
from adk_memory.lifecycle.restore import restore
from adk_memory.lifecycle.summarizer import LocalSummarizer, Summarizer

__all__ = [
    "ClusterReport",
    "ConsolidationConfig",
    "ConsolidationReport",
    "GcConfig",
    "GcReport",
    "GeminiSummarizer",
    "LocalSummarizer",
    "ScopeConsolidationReport",
    "ScopeGcReport",
    "Summarizer",
    "collect_garbage",
    "consolidate",
    "restore",
    "source_event_ids",
]


def __getattr__(name: str) -> object:
    # The Gemini summariser pulls in google-genai; only those who ask for it pay the import.
    if name == "GeminiSummarizer":
        from adk_memory.lifecycle.gemini_summarizer import GeminiSummarizer

        return GeminiSummarizer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
