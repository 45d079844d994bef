"""The write path: new facts → candidates → the configured classifier → store mutations.

For a batch of facts (one session delta, or one remembered statement):
1. embed every fact;
2. gather candidates per fact: the top-k similar active records of the scope, every active
   record of the same slot, and the *earlier facts of the same batch* (shown under the ids
   their records will get), so a session that states and then updates a slot is decided by
   the classifier too: no local rule ever overrides a configured classifier;
3. classify the whole batch in one call;
4. apply the verdicts in conversation order: ADD upserts; NOOP reinforces the known record
   (once per source event, so re-running an interrupted batch changes nothing); REPLACE is
   one atomic `store.replace`.

Supersession follows the order in which things were *stated* (`recorded_at`), never the
order of `valid_at`: "I moved to Munich last week", said after "I live in Berlin", replaces
Berlin although Munich's `valid_at` resolves to before Berlin's statement. A statement older
than the record it would replace (a replayed or late-arriving conversation) is kept as
history behind it instead.

Record ids of facts that cite events are derived from the scope, the events and the fact,
so a batch re-run after a crash rewrites the same records instead of adding copies.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from adk_memory.embedding.base import Embedder
from adk_memory.errors import InvalidInputError
from adk_memory.extraction.base import Usage
from adk_memory.model import (
    Decision,
    Fact,
    Kind,
    MemoryRecord,
    Scope,
    Source,
    Status,
    Verdict,
    WriteOutcome,
)
from adk_memory.reconcile.base import (
    Candidate,
    ContradictionClassifier,
    ReconcileItem,
    sanitize_verdict,
)
from adk_memory.stores.base import ListFilter, MemoryStore

logger = logging.getLogger("adk_memory")

#: Source event ids kept per record; a fact restated a hundred times keeps the first few.
MAX_SOURCE_EVENTS = 8
#: Active records of one slot shown to the classifier beside the similar ones.
MAX_SLOT_CANDIDATES = 50


def record_id_for(scope: Scope, fact: Fact) -> str | None:
    """A stable id for a fact that cites events (None for one that cites none).

    The same fact extracted from the same events of the same scope always gets the same id,
    which makes re-processing a batch idempotent.
    """
    if not fact.source.event_ids:
        return None
    key = "\x1f".join(
        [
            scope.app_name,
            scope.user_id,
            *sorted(fact.source.event_ids),
            fact.subject,
            fact.predicate,
            fact.object,
            fact.text,
        ]
    )
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


@dataclass
class _Planned:
    """One fact of the batch with the record it would become."""

    fact: Fact
    record: MemoryRecord
    vector: np.ndarray
    candidates: list[Candidate] = field(default_factory=list)


class Reconciler:
    """Reconciles new facts into one store through the configured classifier.

    Args:
        store: Where records live.
        embedder: Embeds the new facts (their vectors are stored with them).
        classifier: Decides ADD / REPLACE / NOOP for each fact.
        clock: Returns "now" (the records' `created_at`).
        candidates: Similar active records shown to the classifier per fact.
    """

    def __init__(
        self,
        store: MemoryStore,
        *,
        embedder: Embedder,
        classifier: ContradictionClassifier,
        clock: Callable[[], datetime],
        candidates: int = 5,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.classifier = classifier
        self.clock = clock
        self.candidates = candidates

    async def reconcile(
        self, scope: Scope, facts: Sequence[Fact]
    ) -> tuple[list[WriteOutcome], Usage]:
        """Classifies and applies `facts` (in conversation order). The caller holds the
        scope's reconcile locks."""
        if not facts:
            return [], Usage()
        vectors = await self.embedder.embed([f.text for f in facts])
        now = self.clock()
        planned: list[_Planned] = []
        for fact, vector in zip(facts, vectors, strict=True):
            record = MemoryRecord.from_fact(
                fact, scope=scope, created_at=now, embedding=vector.tolist()
            )
            stable = record_id_for(scope, fact)
            if stable is not None:
                record = record.model_copy(update={"id": stable})
            planned.append(_Planned(fact=fact, record=record, vector=vector))
        # A fact whose record exists was applied by an earlier, interrupted run of this batch.
        done = {
            p.record.id
            for p in planned
            if p.fact.source.event_ids and await self.store.get(p.record.id, scope) is not None
        }
        todo = [p for p in planned if p.record.id not in done]
        for index, plan in enumerate(todo):
            plan.candidates = await self._candidates(scope, plan, todo[:index])
        items = [ReconcileItem(fact=p.fact, candidates=p.candidates) for p in todo]
        result = await self.classifier.classify(items) if items else None
        verdicts = result.verdicts if result is not None else []
        if len(verdicts) != len(items):
            raise InvalidInputError("classifier returned a verdict count unlike its input")
        batch = _Batch()
        decided = {
            plan.record.id: await self._apply(scope, plan, sanitize_verdict(verdict, item), batch)
            for plan, item, verdict in zip(todo, items, verdicts, strict=True)
        }
        outcomes = [
            decided.get(p.record.id)
            or WriteOutcome(
                decision=Decision.NOOP,
                id=p.record.id,
                text=p.fact.text,
                reason="already stored by an earlier run of this batch",
            )
            for p in planned
        ]
        return outcomes, result.usage if result is not None else Usage()

    async def _candidates(
        self, scope: Scope, plan: _Planned, earlier: Sequence[_Planned]
    ) -> list[Candidate]:
        """Similar active records, every active record of the same slot (a slot update must
        see the value it replaces even when the sentences embed far apart), and the earlier
        facts of this batch that are similar or share the slot."""
        fact = plan.fact
        hits = await self.store.search(
            scope, vector=plan.vector, query=fact.text, k=self.candidates
        )
        found = {h.record.id: Candidate(record=h.record, similarity=h.cosine) for h in hits}
        if fact.kind is not Kind.EPISODIC and fact.predicate:
            page = await self.store.list_page(
                scope,
                filters=ListFilter(
                    statuses=[Status.ACTIVE], subject=fact.subject, predicate=fact.predicate
                ),
                limit=MAX_SLOT_CANDIDATES,
            )
            for record in page.records:
                found.setdefault(record.id, Candidate(record=record, similarity=0.0))
        found.pop(plan.record.id, None)
        for other in earlier:
            if other.record.id == plan.record.id:
                continue
            similarity = float(np.dot(other.vector, plan.vector))
            same_slot = (
                fact.kind is not Kind.EPISODIC
                and bool(fact.predicate)
                and (other.fact.subject, other.fact.predicate) == (fact.subject, fact.predicate)
            )
            if same_slot or similarity >= _batch_similarity_floor(found, self.candidates):
                found[other.record.id] = Candidate(record=other.record, similarity=similarity)
        return list(found.values())

    async def _apply(
        self, scope: Scope, plan: _Planned, verdict: Verdict, batch: _Batch
    ) -> WriteOutcome:
        verdict = batch.resolve(verdict)
        record = plan.record
        fact = plan.fact
        if verdict.decision is Decision.NOOP:
            target = verdict.target_ids[0]
            await self._reinforce(scope, target, fact)
            batch.aliases[record.id] = target
            return WriteOutcome(
                decision=Decision.NOOP, id=target, text=fact.text, reason=verdict.reason
            )
        if verdict.decision is Decision.REPLACE:
            targets = [await self._target(scope, t, batch) for t in verdict.target_ids]
            live = [t for t in targets if t is not None and t.status is Status.ACTIVE]
            newer = [t for t in live if t.stated_at > record.stated_at]
            if newer:
                # Stated before what it would replace: history behind the current value.
                latest = max(newer, key=lambda t: (t.stated_at, t.created_at))
                known = await self._in_history(scope, latest, record)
                if known is not None:
                    # History holds each past value once (a replayed or re-run statement).
                    await self._reinforce(scope, known.id, fact)
                    batch.aliases[record.id] = known.id
                    return WriteOutcome(
                        decision=Decision.NOOP,
                        id=known.id,
                        text=fact.text,
                        reason=f"already in the history of memory {latest.id}",
                        status=known.status,
                    )
                record = record.model_copy(
                    update={"status": Status.SUPERSEDED, "superseded_by": latest.id}
                )
                await self.store.upsert([record])
                batch.written[record.id] = record
                return WriteOutcome(
                    decision=Decision.ADD,
                    id=record.id,
                    text=record.text,
                    reason=f"stated before memory {latest.id}: kept as its history",
                    status=Status.SUPERSEDED,
                )
            superseded = await self.store.replace(record, [t.id for t in live])
            batch.written[record.id] = record
            for old_id in superseded:
                old = batch.written.get(old_id)
                if old is not None:
                    batch.written[old_id] = old.model_copy(
                        update={"status": Status.SUPERSEDED, "superseded_by": record.id}
                    )
            if superseded:
                logger.info("memory %s supersedes %s in %s", record.id, superseded, scope)
                return WriteOutcome(
                    decision=Decision.REPLACE,
                    id=record.id,
                    superseded=superseded,
                    text=record.text,
                    reason=verdict.reason,
                )
            return WriteOutcome(
                decision=Decision.ADD,
                id=record.id,
                text=record.text,
                reason=f"{verdict.reason} (nothing left to replace)".strip(),
            )
        await self.store.upsert([record])
        batch.written[record.id] = record
        return WriteOutcome(
            decision=Decision.ADD, id=record.id, text=record.text, reason=verdict.reason
        )

    async def _in_history(
        self, scope: Scope, current: MemoryRecord, record: MemoryRecord
    ) -> MemoryRecord | None:
        """A record `current` superseded that states the same value as `record`, if any."""
        page = await self.store.list_page(
            scope, filters=ListFilter(superseded_by=current.id), limit=MAX_SLOT_CANDIDATES
        )
        for old in page.records:
            same_slot = bool(record.predicate) and (
                (old.subject, old.predicate, old.object.casefold(), old.polarity)
                == (record.subject, record.predicate, record.object.casefold(), record.polarity)
            )
            if same_slot or old.text.strip().casefold() == record.text.strip().casefold():
                return old
        return None

    async def _target(self, scope: Scope, target_id: str, batch: _Batch) -> MemoryRecord | None:
        """The current state of a REPLACE target: a record of this batch, or the store's."""
        if target_id in batch.written:
            return batch.written[target_id]
        return await self.store.get(target_id, scope)

    async def _reinforce(self, scope: Scope, memory_id: str, fact: Fact) -> None:
        """A restated fact nudges the known one's confidence up and cites the new source,
        once per source event: a statement the record already cites changes nothing."""
        record = await self.store.get(memory_id, scope)
        if record is None:
            return
        new_events = [e for e in fact.source.event_ids if e not in record.source.event_ids]
        if fact.source.event_ids and not new_events:
            return
        events = [*record.source.event_ids, *new_events]
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


@dataclass
class _Batch:
    """What this batch has written so far, for verdicts that name its earlier facts."""

    #: Records written by this batch, by id, in their current state.
    written: dict[str, MemoryRecord] = field(default_factory=dict)
    #: Ids of planned records that were never written (NOOPs) → the record they restate.
    aliases: dict[str, str] = field(default_factory=dict)

    def resolve(self, verdict: Verdict) -> Verdict:
        """Maps targets that are NOOPed facts of this batch onto the records they restate."""
        targets = [self.aliases.get(t, t) for t in verdict.target_ids]
        targets = list(dict.fromkeys(targets))
        if targets == verdict.target_ids:
            return verdict
        return verdict.model_copy(update={"target_ids": targets})


def _batch_similarity_floor(found: dict[str, Candidate], k: int) -> float:
    """An earlier fact of the batch is shown when it is as similar as the store's k-th best
    candidate (or when there are fewer than k): the batch competes on equal terms."""
    if len(found) < k:
        return -1.0
    sims = sorted((c.similarity for c in found.values()), reverse=True)
    return sims[k - 1]
