"""`LocalClassifier`: deterministic ADD / REPLACE / NOOP from slots and embeddings.

No small local model judges contradiction reliably (see the research notes), so the offline
classifier reasons over the (subject, predicate, object, polarity) slots the extractor fills:
- NOOP: the same slot restated, or a near-identical sentence.
- REPLACE: a new value for a single-valued slot ("lives in Munich" over "lives in Berlin"),
  an explicit transition ("switched from Java to Go"), or a negation of a held slot
  ("doesn't like coffee anymore" over "likes coffee in the morning").
- ADD: anything else, including compatible values of many-valued slots ("allergic to
  peanuts" beside "allergic to cats").
"""

from __future__ import annotations

from collections.abc import Sequence

from adk_memory.extraction import Usage
from adk_memory.local_extraction import normalize_value
from adk_memory.model import Decision, Fact, Kind, MemoryRecord, Verdict
from adk_memory.reconcile import ClassificationResult, ReconcileItem
from adk_memory.slots import is_single_valued

#: Cosine above which two sentences with the same content words say the same thing.
DUPLICATE_COSINE = 0.96


def _words(value: str) -> set[str]:
    return set(normalize_value(value).split())


def relate(fact: Fact, record: MemoryRecord, similarity: float) -> Decision | None:
    """How a new fact bears on one existing record: NOOP, REPLACE, or None (unrelated)."""
    same_subject = fact.subject == record.subject
    new_obj, old_obj = normalize_value(fact.object), normalize_value(record.object)
    if not fact.predicate or fact.kind is Kind.EPISODIC or not record.predicate:
        # Episodic memories have no slot: only a restatement with the same content words is
        # a duplicate (embeddings barely separate "topic 1" from "topic 11").
        if (
            same_subject
            and _words(fact.text) == _words(record.text)
            and (similarity >= DUPLICATE_COSINE or fact.text.strip() == record.text.strip())
        ):
            return Decision.NOOP
        return None
    if not same_subject:
        return None
    if (
        fact.replaces
        and record.polarity
        and (old_obj == fact.replaces or _words(fact.replaces) <= _words(record.object))
    ):
        return Decision.REPLACE
    if fact.predicate != record.predicate:
        return None
    if new_obj == old_obj:
        return Decision.NOOP if fact.polarity == record.polarity else Decision.REPLACE
    if (
        not fact.polarity
        and record.polarity
        and new_obj
        and _words(fact.object) <= _words(record.object)
    ):
        # "doesn't like coffee" negates "likes coffee in the morning" too.
        return Decision.REPLACE
    if fact.polarity and not record.polarity and _words(record.object) <= _words(fact.object):
        return Decision.REPLACE
    if is_single_valued(fact.predicate) and fact.polarity and record.polarity:
        return Decision.REPLACE
    return None


def decide(fact: Fact, candidates: Sequence[tuple[MemoryRecord, float]]) -> Verdict:
    """The verdict for one fact: NOOP beats REPLACE (a restated fact changes nothing)."""
    relations = [(record, relate(fact, record, sim)) for record, sim in candidates]
    noop = [r.id for r, d in relations if d is Decision.NOOP]
    if noop:
        return Verdict(decision=Decision.NOOP, target_ids=noop[:1], reason="already known")
    replaced = [r.id for r, d in relations if d is Decision.REPLACE]
    if replaced:
        return Verdict(
            decision=Decision.REPLACE, target_ids=replaced, reason=f"updates {fact.predicate}"
        )
    return Verdict(decision=Decision.ADD, reason="new fact")


class LocalClassifier:
    """Deterministic offline classifier (the embedded default)."""

    async def classify(self, items: Sequence[ReconcileItem]) -> ClassificationResult:
        verdicts = [
            decide(item.fact, [(c.record, c.similarity) for c in item.candidates]) for item in items
        ]
        return ClassificationResult(verdicts=verdicts, usage=Usage())
