"""The `MemoryStore` seam: what every backend (sqlite, Memory Bank, Vector Search) provides.

Stores persist and search records; they never call models. Every method is scoped: a store
must never return, change or delete a record of another scope, whatever ids it is given.
The contract suite in `tests/stores/contract/` states this behaviour for every backend.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Protocol, runtime_checkable

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from adk_memory.model import MemoryRecord, Scope, Status


class SearchHit(BaseModel):
    """A candidate from a store search, before reranking."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    record: MemoryRecord
    #: Cosine similarity of the query and record embeddings, in [-1, 1].
    cosine: float
    #: Lexical relevance in [0, 1] (1 = the best lexical match of this search); 0 where the
    #: backend has no lexical index or the record shares no term with the query.
    lexical: float = 0.0
    #: The record's stored unit embedding where the backend has it at hand (sqlite); None
    #: otherwise. Lets recall compare results without embedding their texts again.
    vector: np.ndarray | None = Field(default=None, exclude=True, repr=False)
    #: Set by recall when the match is a retired memory's (an archived source of a summary,
    #: a superseded memory) and `record` is the active memory that took its place: its id.
    matched_via: str | None = None


class ListFilter(BaseModel):
    """Optional filters for `MemoryStore.list_page`; every set field must match."""

    statuses: list[Status] | None = None
    subject: str | None = None
    predicate: str | None = None
    superseded_by: str | None = None
    consolidated_into: str | None = None


class Page(BaseModel):
    """One page of a listing, oldest first; pass `next_cursor` back for the next page."""

    records: list[MemoryRecord] = Field(default_factory=list)
    next_cursor: str | None = None


@runtime_checkable
class MemoryStore(Protocol):
    """Async storage of `MemoryRecord`s with similarity search per scope."""

    #: The largest `k` a single `search` may ask for (a backend limit, e.g. 100).
    max_search_k: int

    async def upsert(self, records: Sequence[MemoryRecord]) -> None:
        """Inserts or fully replaces records (by id) in one write.

        A new record must carry its embedding; an update whose `embedding` is None keeps the
        stored vector (metadata-only changes such as reinforcement).
        """
        ...

    async def replace(self, new: MemoryRecord, superseded_ids: Sequence[str]) -> list[str]:
        """Atomically stores `new` and marks the given active records of its scope superseded.

        Either both happen or neither does. Ids that are not active records of `new.scope`
        are ignored. Returns the ids actually superseded.
        """
        ...

    async def get(self, memory_id: str, scope: Scope | None = None) -> MemoryRecord | None:
        """One record by id (any status), or None. With `scope`, only from that scope."""
        ...

    async def search(
        self,
        scope: Scope,
        *,
        vector: np.ndarray,
        query: str | None = None,
        k: int,
        statuses: Sequence[Status] = (Status.ACTIVE,),
    ) -> list[SearchHit]:
        """The up to `k` nearest records of `scope` with one of `statuses`, best first.

        Stores with a lexical index may add up to `k` lexical matches of `query` (so the
        result holds at most 2k hits); the reranker merges both signals.
        """
        ...

    async def list_page(
        self,
        scope: Scope,
        *,
        filters: ListFilter | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page:
        """Records of `scope` matching `filters`, oldest first, paged."""
        ...

    async def set_status(
        self,
        scope: Scope,
        ids: Sequence[str],
        status: Status,
        *,
        consolidated_into: str | None = None,
    ) -> list[str]:
        """Moves records of `scope` to `status` (archive, restore). Returns the ids changed.

        Restoring to `active` clears `superseded_by`; archiving keeps it, so history survives.
        """
        ...

    async def delete(self, scope: Scope, ids: Sequence[str]) -> list[str]:
        """Deletes records of `scope` for good. Returns the ids deleted."""
        ...

    async def record_hits(self, scope: Scope, ids: Sequence[str], at: datetime) -> None:
        """Counts one recall hit for each record and sets its `last_accessed_at`."""
        ...

    async def seen_events(self, scope: Scope, event_ids: Sequence[str]) -> set[str]:
        """Which of these event ids were already ingested into `scope`."""
        ...

    async def mark_events_seen(self, scope: Scope, event_ids: Sequence[str]) -> None:
        """Records event ids as ingested into `scope` (for idempotent re-ingest)."""
        ...

    async def erase(self, scope: Scope) -> int:
        """Removes every trace of `scope`: records of every status, event markers, lexical and
        vector index entries, and backend-side history (revisions). Idempotent.

        Returns:
            The number of records removed.
        """
        ...

    def reconcile_lock(self, scope: Scope) -> AbstractAsyncContextManager[None]:
        """Serialises reconciliation of `scope` across every process that uses this store.

        The engine holds it while it reads candidates and writes verdicts, so two processes
        stating a new value at once cannot both leave theirs active. A backend that cannot
        lock (Memory Bank) returns a no-op and re-checks after its write instead.
        """
        ...

    async def scopes(self) -> list[Scope]:
        """Every scope that holds at least one record."""
        ...

    async def close(self) -> None:
        """Releases connections; the store is unusable afterwards."""
        ...


@runtime_checkable
class RevisionStore(Protocol):
    """Optional: a store whose backend keeps a record's earlier values itself.

    Memory Bank updates a memory's fact in place when it consolidates and keeps each earlier
    value as a revision of the memory. Such a store shows those values in `history` as
    superseded records of their own (`is_revision` tells their ids apart) and restores one by
    rolling the memory back to it. Stores that keep earlier values as records of their own
    (sqlite, Vector Search) do not implement this.
    """

    def is_revision(self, memory_id: str) -> bool:
        """Whether an id names an earlier value kept as a backend revision."""
        ...

    async def revisions(self, record: MemoryRecord) -> list[MemoryRecord]:
        """The record's earlier values the backend keeps, oldest first, as superseded records
        (`superseded_by` = the record); values equal to the current text are left out."""
        ...

    async def rollback(self, scope: Scope, revision_id: str) -> MemoryRecord:
        """Makes an earlier value of `scope` current again. Returns the record as it is now.

        Raises:
            NotFoundError: if `revision_id` is no revision of a record of `scope`.
        """
        ...
