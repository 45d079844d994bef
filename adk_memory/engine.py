"""`MemoryEngine`: the facade over the memory operations, on any `MemoryStore`.

remember / ingest: events → extraction (`FactExtractor`) → the write path
(`reconcile.apply.Reconciler`: embedding, candidates, `ContradictionClassifier`, atomic store
mutations). recall: the read path (`retrieval.recall.Retriever`: embedding, candidates,
decay rerank, current values first). list / get / history / forget / erase work on the store.

The engine depends on the seams only; `adk_memory.factory` wires the default implementations
(`build_engine` for a store in hand, `open_engine` for a URI and the environment's settings).
"""

from __future__ import annotations

import asyncio
import builtins
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime

from pydantic import BaseModel, Field

from adk_memory.embedding.base import Embedder
from adk_memory.errors import InvalidInputError, NotFoundError
from adk_memory.extraction.base import FactExtractor, Usage
from adk_memory.model import (
    MAX_EVENT_CHARS,
    Fact,
    IngestResult,
    InputEvent,
    Kind,
    MemoryRecord,
    RejectedEvent,
    Scope,
    ScoredMemory,
    Source,
    Status,
    WriteOutcome,
    clean_text,
    parse_timestamp,
    utcnow,
)
from adk_memory.reconcile.apply import Reconciler
from adk_memory.reconcile.base import ContradictionClassifier
from adk_memory.retrieval.ordering import OrderingConfig
from adk_memory.retrieval.recall import Retriever
from adk_memory.retrieval.scoring import ScoringConfig
from adk_memory.stores.base import ListFilter, MemoryStore, Page, RevisionStore
from adk_memory.text import as_typed

logger = logging.getLogger("adk_memory")

#: Records per page while walking a scope (erase counts, forget's relinking).
_PAGE = 1000


class EngineConfig(BaseModel):
    """Tunables of the engine (retrieval and reconciliation)."""

    scoring: ScoringConfig = Field(default_factory=ScoringConfig)
    #: How recalled answers to the same question are ordered (newest statement first).
    ordering: OrderingConfig = Field(default_factory=OrderingConfig)
    #: Results per recall when the caller does not say.
    top_k: int = Field(default=10, ge=1, le=1000)
    #: Similar active facts shown to the classifier per new fact.
    reconcile_candidates: int = Field(default=8, ge=1, le=50)
    #: Count a hit on every recalled record (feeds garbage collection).
    record_hits: bool = True
    #: Match queries against the sources of consolidation summaries too and answer with the
    #: (active) summary: a summary's own embedding blurs the details it stands for.
    recall_through_summaries: bool = True
    #: Match queries against superseded memories too and answer with the memory that replaced
    #: them: the new value answers the question the old one did, however it is worded.
    recall_through_replacements: bool = True


class MemoryEngine:
    """Remember, recall, ingest, list, history, forget and erase over any `MemoryStore`.

    Args:
        store: Where records live.
        embedder: Text → vectors.
        extractor: Events → facts.
        classifier: ADD / REPLACE / NOOP for each new fact.
        config: Retrieval and reconciliation settings.
        clock: Returns "now"; injected so tests and replays are deterministic.

    `adk_memory.factory.build_engine(store)` fills in the bundled local models.
    """

    def __init__(
        self,
        store: MemoryStore,
        *,
        embedder: Embedder,
        extractor: FactExtractor,
        classifier: ContradictionClassifier,
        config: EngineConfig | None = None,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.extractor = extractor
        self.classifier = classifier
        self.config = config or EngineConfig()
        self.clock = clock
        self._scope_locks: dict[Scope, asyncio.Lock] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._writer = Reconciler(
            store,
            embedder=embedder,
            classifier=classifier,
            clock=lambda: self.clock(),
            candidates=self.config.reconcile_candidates,
        )
        self._reader = Retriever(
            store,
            embedder=embedder,
            scoring=self.config.scoring,
            ordering=self.config.ordering,
            through_summaries=self.config.recall_through_summaries,
            through_replacements=self.config.recall_through_replacements,
        )

    # -- writing ----------------------------------------------------------------------------

    async def remember(
        self,
        scope: Scope,
        text: str,
        *,
        at: datetime | None = None,
        author: str = "user",
        confidence: float | None = None,
        source: Source | None = None,
    ) -> WriteOutcome:
        """Stores one explicit memory, reconciled against what is known.

        The text is kept as given, its apostrophes as typed (`text.as_typed`: "I’ve",
        "ive" → "I've", as ingest keeps them); when it states one known slot ("I moved to
        Munich"), the slot is attached so later updates can supersede it. A text that says
        more than one thing of its own is never superseded whole (`extraction.statements`).

        Args:
            scope: Whose memory.
            text: The statement, in the person's words.
            at: When it was stated (default: now); "last week" in the text resolves from it.
            author: Who stated it.
            confidence: Overrides the extractor's confidence (0..1).
            source: The session and events it came from.

        Returns:
            The decision (ADD / REPLACE / NOOP) as stored, the id written or reinforced, and
            the ids superseded.
        """
        text = as_typed(clean_text(text))
        stated_at = parse_timestamp(at) if at is not None else self.clock()
        if confidence is not None and not 0.0 <= confidence <= 1.0:
            raise InvalidInputError("confidence must be between 0 and 1")
        event = InputEvent(author=author, text=text, timestamp=stated_at, role="user")
        extracted = await self.extractor.extract([event])
        # Imported here: it reads with the local rules, which recall never loads.
        from adk_memory.extraction.statements import says_several

        # A text that says more than one thing of its own ("Hi! I'm Sam. I live in Berlin
        # and I write Java") is no one slot's statement: filed under the first, it would
        # read as a name alone. "I work at Google now, but I'm on holiday till Monday" says
        # one.
        slot = next((f for f in extracted.facts if f.kind is not Kind.EPISODIC), None)
        if says_several(text):
            slot = None
        base = slot or Fact(
            subject=author.lower(),
            predicate="said",
            object="",
            text=text,
            valid_at=stated_at,
            recorded_at=stated_at,
            confidence=0.9,
        )
        fact = base.model_copy(
            update={
                "text": text,
                "confidence": confidence if confidence is not None else base.confidence,
                "source": source or Source(),
                "author": author,
            }
        )
        outcomes, _ = await self._reconcile(scope, [fact])
        return outcomes[0]

    async def ingest(self, scope: Scope, events: Sequence[InputEvent]) -> IngestResult:
        """Extracts facts from conversation events and reconciles them into the store.

        Events already ingested into this scope (by id) are skipped, so re-ingesting a
        session is safe. An invalid event (empty, binary, over `MAX_EVENT_CHARS`) is left
        out and reported in `rejected`; the rest of the batch is ingested.
        """
        unique = list({e.id: e for e in events}.values())
        valid: builtins.list[InputEvent] = []
        rejected: builtins.list[RejectedEvent] = []
        for event in unique:
            try:
                clean_text(event.text, what=f"event {event.id} text", limit=MAX_EVENT_CHARS)
            except InvalidInputError as exc:
                rejected.append(RejectedEvent(event_id=event.id, reason=str(exc)))
                logger.warning("ingest leaves out event %s in %s: %s", event.id, scope, exc)
            else:
                valid.append(event)
        seen = await self.store.seen_events(scope, [e.id for e in valid])
        fresh = [e for e in valid if e.id not in seen]
        result = IngestResult(events_skipped=len(events) - len(fresh), rejected=rejected)
        if not fresh:
            return result
        extracted = await self.extractor.extract(fresh)
        outcomes, usage = await self._reconcile(scope, extracted.facts)
        await self.store.mark_events_seen(scope, [e.id for e in fresh])
        total = extracted.usage + usage
        result.outcomes = outcomes
        result.events_ingested = len(fresh)
        result.model_calls = total.calls
        result.tokens = total.tokens
        return result

    @asynccontextmanager
    async def scope_lock(self, scope: Scope) -> AsyncIterator[None]:
        """Serialises every write that reads before it writes (reconciliation, forget, erase,
        lifecycle jobs) for one scope: across this process's tasks, then across processes
        through the store's `reconcile_lock`. Not re-entrant."""
        async with (
            self._scope_locks.setdefault(scope, asyncio.Lock()),
            self.store.reconcile_lock(scope),
        ):
            yield

    async def _reconcile(
        self, scope: Scope, facts: Sequence[Fact]
    ) -> tuple[builtins.list[WriteOutcome], Usage]:
        if not facts:
            return [], Usage()
        async with self.scope_lock(scope):
            outcomes, usage = await self._writer.reconcile(scope, facts)
        if any(f.predicate == "name" for f in facts):
            self._reader.forget_names(scope)
        return outcomes, usage

    # -- reading ----------------------------------------------------------------------------

    async def recall(
        self,
        scope: Scope,
        query: str,
        *,
        top_k: int | None = None,
        now: datetime | None = None,
    ) -> builtins.list[ScoredMemory]:
        """The top-k active memories for a query, best first, with score components.

        Memories that answer the same question come newest statement first, marked
        `latest` / earlier (`ScoredMemory.latest`).
        """
        return (await self.recall_many(scope, [query], top_k=top_k, now=now))[0]

    async def recall_many(
        self,
        scope: Scope,
        queries: Sequence[str],
        *,
        top_k: int | None = None,
        now: datetime | None = None,
    ) -> builtins.list[list[ScoredMemory]]:
        """Recall for several queries, embedded in one batch."""
        # Read with typed quotes, as ingest stores text: "Where’s my car?".
        texts = [as_typed(clean_text(q, what="query")) for q in queries]
        k = self.config.top_k if top_k is None else top_k
        if k < 1:
            raise InvalidInputError("top_k must be at least 1")
        at = parse_timestamp(now) if now is not None else self.clock()
        results = await self._reader.recall_many(scope, texts, k=k, now=at)
        if self.config.record_hits:
            ids = list(dict.fromkeys(m.record.id for ranked in results for m in ranked))
            if ids:
                self._spawn(self.store.record_hits(scope, ids, self.clock()))
        return results

    def _spawn(self, work: Awaitable[None]) -> None:
        async def runner() -> None:
            try:
                await work
            except Exception:  # bookkeeping must never fail a recall
                logger.warning("recording recall hits failed", exc_info=True)

        task = asyncio.get_running_loop().create_task(runner())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def get(self, memory_id: str, scope: Scope | None = None) -> MemoryRecord:
        """One memory by id (any status).

        Raises:
            NotFoundError: if there is no such memory (in `scope`, when given).
        """
        record = await self.store.get(memory_id, scope)
        if record is None:
            raise NotFoundError(f"no memory with id {memory_id!r}")
        return record

    async def list(
        self,
        scope: Scope,
        *,
        statuses: Sequence[Status] | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page:
        """Memories of a scope, oldest first, paged (pass `next_cursor` back)."""
        filters = ListFilter(statuses=list(statuses) if statuses else None)
        return await self.store.list_page(scope, filters=filters, limit=limit, cursor=cursor)

    async def scopes(self) -> builtins.list[Scope]:
        """Every scope that holds memories, in a stable order."""
        found = await self.store.scopes()
        return sorted(found, key=lambda s: (s.app_name, s.user_id))

    async def history(self, memory_id: str) -> builtins.list[MemoryRecord]:
        """The supersession chain through a memory, oldest statement first: what it replaced
        (and what that replaced), the memory itself, and whatever replaced it since. On a
        store that keeps earlier values itself (`RevisionStore`: Memory Bank's revisions), the
        values each of them had before are in the chain too, as superseded records."""
        record = await self.get(memory_id)
        chain = [record]
        seen = {record.id}
        frontier = [record]
        while frontier:
            older: builtins.list[MemoryRecord] = []
            for item in frontier:
                older += [
                    r for r in await self._superseded_by(item.scope, item.id) if r.id not in seen
                ]
            seen.update(r.id for r in older)
            chain = older + chain
            frontier = older
        current = record
        while current.superseded_by and current.superseded_by not in seen:
            newer = await self.store.get(current.superseded_by, current.scope)
            if newer is None:
                break
            chain.append(newer)
            seen.add(newer.id)
            current = newer
        if isinstance(self.store, RevisionStore):
            for item in builtins.list(chain):
                chain += [r for r in await self.store.revisions(item) if r.id not in seen]
        return sorted(chain, key=lambda r: (r.stated_at, r.created_at))

    async def _superseded_by(self, scope: Scope, memory_id: str) -> builtins.list[MemoryRecord]:
        records: builtins.list[MemoryRecord] = []
        cursor: str | None = None
        while True:
            page = await self.store.list_page(
                scope, filters=ListFilter(superseded_by=memory_id), limit=_PAGE, cursor=cursor
            )
            records += page.records
            cursor = page.next_cursor
            if cursor is None:
                return records

    # -- deleting ---------------------------------------------------------------------------

    async def forget(self, memory_id: str, scope: Scope | None = None) -> MemoryRecord:
        """Deletes a memory for good and keeps its history consistent. Returns what was
        deleted.

        What the forgotten memory had superseded takes its place: if it was the current value,
        the value it replaced becomes active again (the update is withdrawn); if it was itself
        history, its predecessors now point at its successor. Sources consolidated into a
        forgotten summary become active again.

        Raises:
            NotFoundError: if there is no such memory (in `scope`, when given).
        """
        record = await self.get(memory_id, scope)
        async with self.scope_lock(record.scope):
            record = await self.get(memory_id, record.scope)
            predecessors = await self._superseded_by(record.scope, record.id)
            successor = record.superseded_by if record.status is Status.SUPERSEDED else None
            relinked = [
                p.model_copy(
                    update={
                        "superseded_by": successor,
                        "status": _relinked_status(p, successor),
                        "embedding": None,
                    }
                )
                for p in predecessors
            ]
            if record.kind is Kind.SUMMARY:
                relinked += [
                    s.model_copy(
                        update={
                            "consolidated_into": None,
                            "status": Status.SUPERSEDED if s.superseded_by else Status.ACTIVE,
                            "embedding": None,
                        }
                    )
                    for s in await self._consolidated_into(record.scope, record.id)
                ]
            if relinked:
                await self.store.upsert(relinked)
            await self.store.delete(record.scope, [record.id])
        if record.predicate == "name":
            self._reader.forget_names(record.scope)
        return record

    async def _consolidated_into(
        self, scope: Scope, summary_id: str
    ) -> builtins.list[MemoryRecord]:
        page = await self.store.list_page(
            scope, filters=ListFilter(consolidated_into=summary_id), limit=_PAGE
        )
        return page.records

    async def erase(self, scope: Scope) -> int:
        """Removes every trace of a user's scope from the store: records of every status,
        history, event markers and index entries. Returns the number of records removed."""
        async with self.scope_lock(scope):
            erased = await self.store.erase(scope)
        self._reader.forget_names(scope)
        logger.info("erased %d memories of %s", erased, scope)
        return erased

    async def drain(self) -> None:
        """Waits for background bookkeeping (recall hits) to finish."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    async def close(self) -> None:
        await self.drain()
        await self.store.close()


def _relinked_status(record: MemoryRecord, successor: str | None) -> Status:
    """A forgotten memory's predecessor: history behind the successor when there is one,
    else the current value again; an archived one stays archived (restorable)."""
    if record.status is Status.ARCHIVED:
        return Status.ARCHIVED
    return Status.SUPERSEDED if successor else Status.ACTIVE
