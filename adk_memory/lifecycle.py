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

from __future__ import annotations

from collections.abc import Sequence

from adk_memory.consolidation import (
    ClusterReport,
    ConsolidationConfig,
    ConsolidationReport,
    ScopeConsolidationReport,
    consolidate,
    detach_sources,
    source_event_ids,
)
from adk_memory.engine import MemoryEngine
from adk_memory.lifecycle_gc import GcConfig, GcReport, ScopeGcReport, collect_garbage
from adk_memory.model import Scope, Status
from adk_memory.summarizer import GeminiSummarizer, LocalSummarizer, Summarizer

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


async def restore(engine: MemoryEngine, scope: Scope, ids: Sequence[str]) -> list[str]:
    """Brings archived facts of `scope` back. Returns the ids restored; ids that are not
    archived facts of the scope are ignored.

    A fact archived while superseded returns to `superseded` (its successor still holds);
    any other returns to `active`. A consolidated source is detached from its summary, so a
    later consolidation does not archive it again; the summary stays until every one of its
    sources is restored, then it is archived (the consolidation is undone).
    """
    wanted = list(dict.fromkeys(ids))
    async with engine.scope_lock(scope):
        found = [await engine.store.get(i, scope) for i in wanted]
        archived = [r for r in found if r is not None and r.status is Status.ARCHIVED]
        history = [r for r in archived if r.superseded_by]
        if history:
            await engine.store.upsert(
                [
                    r.model_copy(
                        update={
                            "status": Status.SUPERSEDED,
                            "consolidated_into": None,
                            "embedding": None,
                        }
                    )
                    for r in history
                ]
            )
        plain = [r.id for r in archived if not r.superseded_by]
        done = {r.id for r in history} | set(
            await engine.store.set_status(scope, plain, Status.ACTIVE)
        )
        await detach_sources(engine, scope, [r for r in archived if r.id in done])
    return [i for i in wanted if i in done]
