"""The slot rule: how one new fact bears on one stored record (NOOP, REPLACE or unrelated).

It reasons over the (subject, predicate, object, polarity) slots the local extractor fills.
`LocalClassifier` decides with it; nothing else applies it behind a configured classifier.
"""

from __future__ import annotations

from adk_memory.extraction.local import normalize_value
from adk_memory.extraction.slots import is_single_valued
from adk_memory.model import Decision, Fact, Kind, MemoryRecord

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
