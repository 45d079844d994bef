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
    target degrade to ADD (nothing is superseded or dropped on a bad reference).

    Whatever classifier chose it, a REPLACE never supersedes a record that says more than
    one thing of its own (`says_several`: "I live in Berlin with my wife and we both work at
    Siemens"): a new value of one of them ("I moved to Munich") would hide all the rest.
    Such a target stays active beside the new fact, and recall orders the two."""
    # Imported here: the statement readers load the extractor, which recall never needs.
    from adk_memory.extraction.statements import says_several

    records = {c.record.id: c.record for c in item.candidates}
    targets = [t for t in dict.fromkeys(verdict.target_ids) if t in records]
    reason = verdict.reason
    if verdict.decision is Decision.REPLACE:
        whole = [t for t in targets if not says_several(records[t].text)]
        if len(whole) < len(targets):
            reason = f"{reason} (a record that says several things is kept)".strip()
        targets = whole
    if verdict.decision is not Decision.ADD and not targets:
        if reason == verdict.reason:
            reason = f"{reason} (no valid target)".strip()
        return Verdict(decision=Decision.ADD, reason=reason)
    return verdict.model_copy(update={"target_ids": targets, "reason": reason})
