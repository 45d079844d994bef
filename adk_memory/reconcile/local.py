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

from adk_memory.extraction.base import Usage
from adk_memory.model import Decision, Fact, MemoryRecord, Verdict
from adk_memory.reconcile.base import ClassificationResult, ReconcileItem
from adk_memory.reconcile.rules import relate


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
