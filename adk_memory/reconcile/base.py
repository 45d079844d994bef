"""The `ContradictionClassifier` seam: ADD / REPLACE / NOOP for each new fact.

Each new fact is shown with its top-k similar *active* facts of the same scope as numbered
candidates; a classifier may only refer to those candidates, so it cannot invent ids.
The engine turns verdicts into store mutations (`MemoryEngine`); REPLACE is one atomic
store call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, Field

from adk_memory.extraction.base import Usage
from adk_memory.model import Decision, Fact, MemoryRecord, Verdict


class Candidate(BaseModel):
    """An existing active record similar to a new fact."""

    record: MemoryRecord
    similarity: float


class ReconcileItem(BaseModel):
    """A new fact with the candidates it may duplicate or contradict."""

    fact: Fact
    candidates: list[Candidate] = Field(default_factory=list)


class ClassificationResult(BaseModel):
    #: One verdict per item, in the items' order.
    verdicts: list[Verdict]
    usage: Usage = Field(default_factory=Usage)


@runtime_checkable
class ContradictionClassifier(Protocol):
    """Decides, per new fact, whether it is new, a restatement, or an update."""

    async def classify(self, items: Sequence[ReconcileItem]) -> ClassificationResult:
        """Classifies every item, batched where the implementation allows.

        Returns:
            Verdicts aligned with `items`; `target_ids` only ever name ids of that item's
            candidates.
        """
        ...


def sanitize_verdict(verdict: Verdict, item: ReconcileItem) -> Verdict:
    """Drops target ids that are not candidates of the item; REPLACE/NOOP without a valid
    target degrade to ADD (nothing is superseded or dropped on a bad reference)."""
    allowed = {c.record.id for c in item.candidates}
    targets = [t for t in dict.fromkeys(verdict.target_ids) if t in allowed]
    if verdict.decision is not Decision.ADD and not targets:
        return Verdict(decision=Decision.ADD, reason=f"{verdict.reason} (no valid target)".strip())
    return verdict.model_copy(update={"target_ids": targets})
