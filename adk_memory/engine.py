"""`MemoryEngine`: the backend-agnostic memory operations.

ingest: events → extract → embed → candidates → classify → apply (one atomic store call
per REPLACE). recall: query → embed → over-fetch candidates → decay rerank → top-k.
"""

from __future__ import annotations

import asyncio
import builtins
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime

import numpy as np
from pydantic import BaseModel, Field

from adk_memory.embedding.base import Embedder
from adk_memory.embedding.local import LocalEmbedder
from adk_memory.errors import InvalidInputError, NotFoundError
from adk_memory.extraction.base import FactExtractor, Usage
from adk_memory.extraction.local import LocalExtractor
from adk_memory.model import (
    Decision,
    Fact,
    IngestResult,
    InputEvent,
    Kind,
    MemoryRecord,
    Scope,
    ScoredMemory,
    Source,
    Status,
    Verdict,
    WriteOutcome,
    as_utc,
    clean_text,
    utcnow,
)
from adk_memory.reconcile.base import (
    Candidate,
    ContradictionClassifier,
    ReconcileItem,
    sanitize_verdict,
)
from adk_memory.reconcile.local import LocalClassifier
from adk_memory.reconcile.rules import relate
from adk_memory.retrieval.scoring import ScoringConfig, rerank
from adk_memory.stores.base import ListFilter, MemoryStore, Page, SearchHit

logger = logging.getLogger("adk_memory")

#: Source event ids kept per record; a fact restated a hundred times keeps the first few.
MAX_SOURCE_EVENTS = 8


def _match(hit: SearchHit) -> float:
    return hit.cosine + hit.lexical


def as_user_query(query: str, names: Sequence[str]) -> str:
    """A query about the user by name ("What is Sam allergic to?") phrased the way facts
    about the user are stored ("What is the user allergic to?"), so neither the embedding nor
    the lexical match is pulled towards the one fact that holds the name."""
    for name in names:
        pattern = rf"\b{re.escape(name)}\b"
        query = re.sub(pattern + "'s", "the user's", query, flags=re.IGNORECASE)
        query = re.sub(pattern, "the user", query, flags=re.IGNORECASE)
    return query


class EngineConfig(BaseModel):
    """Tunables of the engine (retrieval and reconciliation)."""

    scoring: ScoringConfig = Field(default_factory=ScoringConfig)
    #: Results per recall when the caller does not say.
    top_k: int = Field(default=10, ge=1, le=1000)
    #: Similar active facts shown to the classifier per new fact.
    reconcile_candidates: int = Field(default=5, ge=1, le=50)
    #: Count a hit on every recalled record (feeds garbage collection).
    record_hits: bool = True
    #: Match queries against the sources of consolidation summaries too and answer with the
    #: (active) summary: a summary's own embedding blurs the details it stands for.
    recall_through_summaries: bool = True


class MemoryEngine:
    """Remember, recall, ingest, list, history and forget over any `MemoryStore`.

    Args:
        store: Where records live.
        embedder: Text → vectors (default: the bundled local model).
        extractor: Events → facts (default: `LocalExtractor`).
        classifier: ADD / REPLACE / NOOP (default: `LocalClassifier`).
        config: Retrieval and reconciliation settings.
        clock: Returns "now"; injected so tests and replays are deterministic.
    """

    def __init__(
        self,
        store: MemoryStore,
        *,
        embedder: Embedder | None = None,
        extractor: FactExtractor | None = None,
        classifier: ContradictionClassifier | None = None,
        config: EngineConfig | None = None,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.store = store
        self.embedder: Embedder = embedder or LocalEmbedder()
        self.extractor: FactExtractor = extractor or LocalExtractor()
        self.classifier: ContradictionClassifier = classifier or LocalClassifier()
        self.config = config or EngineConfig()
        self.clock = clock
        self._scope_locks: dict[Scope, asyncio.Lock] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._names: dict[Scope, list[str]] = {}

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

        The text is kept as given; when it states a known slot ("I moved to Munich"), the
        slot is attached so later updates can supersede it.

        Returns:
            The decision (ADD / REPLACE / NOOP), the id written or reinforced, and the ids
            superseded.
        """
        text = clean_text(text)
        valid_at = as_utc(at) if at is not None else self.clock()
        if confidence is not None and not 0.0 <= confidence <= 1.0:
            raise InvalidInputError("confidence must be between 0 and 1")
        event = InputEvent(author=author, text=text, timestamp=valid_at, role="user")
        extracted = await self.extractor.extract([event])
        slot = next((f for f in extracted.facts if f.kind is not Kind.EPISODIC), None)
        base = slot or Fact(
            subject=author.lower(),
            predicate="said",
            object="",
            text=text,
            valid_at=valid_at,
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
        session is safe. Event text is validated before anything is written.
        """
        for event in events:
            clean_text(event.text, what=f"event {event.id} text")
        unique = list({e.id: e for e in events}.values())
        seen = await self.store.seen_events(scope, [e.id for e in unique])
        fresh = [e for e in unique if e.id not in seen]
        result = IngestResult(events_skipped=len(events) - len(fresh))
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

    def scope_lock(self, scope: Scope) -> asyncio.Lock:
        """The lock that serialises reconciliation (and lifecycle jobs) within one scope."""
        return self._scope_locks.setdefault(scope, asyncio.Lock())

    async def _reconcile(
        self, scope: Scope, facts: Sequence[Fact]
    ) -> tuple[list[WriteOutcome], Usage]:
        if not facts:
            return [], Usage()
        vectors = await self.embedder.embed([f.text for f in facts])
        async with self.scope_lock(scope):
            items = [
                ReconcileItem(fact=fact, candidates=await self._candidates(scope, fact, vector))
                for fact, vector in zip(facts, vectors, strict=True)
            ]
            result = await self.classifier.classify(items)
            if len(result.verdicts) != len(items):
                raise InvalidInputError("classifier returned a verdict count unlike its input")
            outcomes: list[WriteOutcome] = []
            written: list[tuple[Fact, MemoryRecord]] = []
            for item, verdict, vector in zip(items, result.verdicts, vectors, strict=True):
                verdict = self._within_batch(item.fact, sanitize_verdict(verdict, item), written)
                # Targets are candidates or records of this batch: their valid_at is known.
                known = {c.record.id: c.record for c in item.candidates}
                known.update((r.id, r) for _, r in written)
                outcome, record = await self._apply(scope, item.fact, verdict, vector, known)
                outcomes.append(outcome)
                if record is not None:
                    written.append((item.fact, record))
        return outcomes, result.usage

    async def _candidates(self, scope: Scope, fact: Fact, vector: np.ndarray) -> list[Candidate]:
        """Top-k similar active records, plus every active record of the same slot (a slot
        update must see the value it replaces even when the sentences embed far apart)."""
        hits = await self.store.search(
            scope, vector=vector, query=fact.text, k=self.config.reconcile_candidates
        )
        found = {h.record.id: Candidate(record=h.record, similarity=h.cosine) for h in hits}
        if fact.kind is not Kind.EPISODIC and fact.predicate:
            page = await self.store.list_page(
                scope,
                filters=ListFilter(
                    statuses=[Status.ACTIVE], subject=fact.subject, predicate=fact.predicate
                ),
                limit=50,
            )
            for record in page.records:
                found.setdefault(record.id, Candidate(record=record, similarity=0.0))
        return list(found.values())

    @staticmethod
    def _within_batch(
        fact: Fact, verdict: Verdict, written: Sequence[tuple[Fact, MemoryRecord]]
    ) -> Verdict:
        """Facts of one batch were classified against the store only; relate them to the
        earlier facts of the same batch too (a session that states and then updates a slot)."""
        if verdict.decision is Decision.NOOP:
            return verdict
        noop: list[str] = []
        replace: list[str] = []
        for _, record in written:
            if record.status is not Status.ACTIVE:
                continue
            relation = relate(fact, record, 0.0)
            if relation is Decision.NOOP:
                noop.append(record.id)
            elif relation is Decision.REPLACE:
                replace.append(record.id)
        if noop:
            return Verdict(decision=Decision.NOOP, target_ids=noop[:1], reason="stated earlier")
        if replace:
            targets = list(dict.fromkeys([*verdict.target_ids, *replace]))
            return Verdict(decision=Decision.REPLACE, target_ids=targets, reason=verdict.reason)
        return verdict

    async def _apply(
        self,
        scope: Scope,
        fact: Fact,
        verdict: Verdict,
        vector: np.ndarray,
        known: dict[str, MemoryRecord],
    ) -> tuple[WriteOutcome, MemoryRecord | None]:
        if verdict.decision is Decision.NOOP:
            target = verdict.target_ids[0]
            await self._reinforce(scope, target, fact)
            return (
                WriteOutcome(
                    decision=Decision.NOOP, id=target, text=fact.text, reason=verdict.reason
                ),
                None,
            )
        record = MemoryRecord.from_fact(
            fact, scope=scope, created_at=self.clock(), embedding=vector.tolist()
        )
        superseded: list[str] = []
        newer = await self._newer_targets(scope, record, verdict, known)
        if newer is not None:
            # The "update" is older than what is known (a replayed or late-arriving
            # conversation): keep it as history behind the current value, never above it.
            record = record.model_copy(
                update={"status": Status.SUPERSEDED, "superseded_by": newer.id}
            )
            await self.store.upsert([record])
        elif verdict.decision is Decision.REPLACE:
            superseded = await self.store.replace(record, verdict.target_ids)
        else:
            await self.store.upsert([record])
        decision = Decision.REPLACE if superseded else Decision.ADD
        if superseded:
            logger.info("memory %s supersedes %s in %s", record.id, superseded, scope)
        if record.predicate == "name":
            self._names.pop(scope, None)
        return (
            WriteOutcome(
                decision=decision,
                id=record.id,
                superseded=superseded,
                text=record.text,
                reason=verdict.reason,
            ),
            record,
        )

    async def _newer_targets(
        self,
        scope: Scope,
        record: MemoryRecord,
        verdict: Verdict,
        known: dict[str, MemoryRecord],
    ) -> MemoryRecord | None:
        """The newest REPLACE target that became true after the new fact, if any."""
        if verdict.decision is not Decision.REPLACE:
            return None
        newest: MemoryRecord | None = None
        for target_id in verdict.target_ids:
            target = known.get(target_id) or await self.store.get(target_id, scope)
            if (
                target is not None
                and target.valid_at > record.valid_at
                and (newest is None or target.valid_at > newest.valid_at)
            ):
                newest = target
        return newest

    async def _reinforce(self, scope: Scope, memory_id: str, fact: Fact) -> None:
        """A restated fact nudges the known one's confidence up and cites the new source."""
        record = await self.store.get(memory_id, scope)
        if record is None:
            return
        events = list(dict.fromkeys([*record.source.event_ids, *fact.source.event_ids]))
        updated = record.model_copy(
            update={
                "confidence": round(min(1.0, record.confidence + 0.1 * (1 - record.confidence)), 4),
                "source": Source(
                    session_id=record.source.session_id or fact.source.session_id,
                    event_ids=events[:MAX_SOURCE_EVENTS],
                ),
            }
        )
        if updated != record:
            await self.store.upsert([updated.model_copy(update={"embedding": None})])

    # -- reading ----------------------------------------------------------------------------

    async def recall(
        self,
        scope: Scope,
        query: str,
        *,
        top_k: int | None = None,
        now: datetime | None = None,
    ) -> list[ScoredMemory]:
        """The top-k active memories for a query, best first, with score components."""
        return (await self.recall_many(scope, [query], top_k=top_k, now=now))[0]

    async def recall_many(
        self,
        scope: Scope,
        queries: Sequence[str],
        *,
        top_k: int | None = None,
        now: datetime | None = None,
    ) -> list[list[ScoredMemory]]:
        """Recall for several queries, embedded in one batch."""
        texts = [clean_text(q, what="query") for q in queries]
        k = self.config.top_k if top_k is None else top_k
        if k < 1:
            raise InvalidInputError("top_k must be at least 1")
        at = as_utc(now) if now is not None else self.clock()
        names = await self._user_names(scope)
        texts = [as_user_query(text, names) for text in texts]
        vectors = await self.embedder.embed(texts)
        fetch = min(k * self.config.scoring.overfetch, self.store.max_search_k)
        results: list[list[ScoredMemory]] = []
        statuses = (
            (Status.ACTIVE, Status.ARCHIVED)
            if self.config.recall_through_summaries
            else (Status.ACTIVE,)
        )
        for text, vector in zip(texts, vectors, strict=True):
            hits = await self.store.search(
                scope, vector=vector, query=text, k=fetch, statuses=statuses
            )
            hits = await self._lift_to_summaries(scope, hits)
            results.append(rerank(hits, now=at, k=k, config=self.config.scoring))
        if self.config.record_hits:
            ids = list(dict.fromkeys(m.record.id for ranked in results for m in ranked))
            if ids:
                self._spawn(self.store.record_hits(scope, ids, self.clock()))
        return results

    async def _lift_to_summaries(self, scope: Scope, hits: Sequence[SearchHit]) -> list[SearchHit]:
        """Active hits as they are; an archived source of a summary stands for its active
        summary (with the source's match); other archived records are dropped. One hit per
        record, the best match kept."""
        best: dict[str, SearchHit] = {}
        summaries: dict[str, MemoryRecord | None] = {}
        for hit in hits:
            record: MemoryRecord | None = hit.record
            hops = 0
            while record is not None and record.status is not Status.ACTIVE:
                parent = record.consolidated_into
                if record.status is not Status.ARCHIVED or parent is None or hops > 8:
                    record = None
                    break
                if parent not in summaries:
                    summaries[parent] = await self.store.get(parent, scope)
                record, hops = summaries[parent], hops + 1
            if record is None:
                continue
            lifted = hit if record is hit.record else hit.model_copy(update={"record": record})
            known = best.get(record.id)
            if known is None or _match(lifted) > _match(known):
                best[record.id] = lifted
        return list(best.values())

    async def _user_names(self, scope: Scope) -> list[str]:
        """What the user is called ("User is called Sam"), cached per scope until this engine
        writes a new name."""
        names = self._names.get(scope)
        if names is None:
            page = await self.store.list_page(
                scope,
                filters=ListFilter(statuses=[Status.ACTIVE], subject="user", predicate="name"),
                limit=10,
            )
            names = self._names[scope] = [r.object for r in page.records if r.object]
        return names

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
        filters = ListFilter(statuses=list(statuses) if statuses else None)
        return await self.store.list_page(scope, filters=filters, limit=limit, cursor=cursor)

    async def history(self, memory_id: str) -> builtins.list[MemoryRecord]:
        """The supersession chain through a memory, oldest first: what it replaced (and what
        that replaced), the memory itself, and whatever replaced it since."""
        record = await self.get(memory_id)
        chain = [record]
        seen = {record.id}
        frontier = [record]
        while frontier:
            older: builtins.list[MemoryRecord] = []
            for item in frontier:
                page = await self.store.list_page(
                    item.scope, filters=ListFilter(superseded_by=item.id), limit=1000
                )
                older += [r for r in page.records if r.id not in seen]
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
        return sorted(chain, key=lambda r: (r.valid_at, r.created_at))

    async def forget(self, memory_id: str, scope: Scope | None = None) -> MemoryRecord:
        """Deletes a memory for good. Returns what was deleted.

        Raises:
            NotFoundError: if there is no such memory (in `scope`, when given).
        """
        record = await self.get(memory_id, scope)
        await self.store.delete(record.scope, [record.id])
        return record

    async def drain(self) -> None:
        """Waits for background bookkeeping (recall hits) to finish."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    async def close(self) -> None:
        await self.drain()
        await self.store.close()
