"""The `Summarizer` seam: a cluster of related facts → one higher-level sentence.

`LocalSummarizer` is deterministic and offline: it keeps the cluster's most central distinct
statements, within a length bound. `GeminiSummarizer` (`gemini_summarizer`) asks a model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from adk_memory.extraction.local import normalize_value, split_sentences
from adk_memory.extraction.slots import phrase_for
from adk_memory.model import Kind, MemoryRecord

#: Default bound on a summary's length, in characters: long enough for several statements,
#: short enough to embed well and to read at a glance.
SUMMARY_MAX_CHARS = 1200


@runtime_checkable
class Summarizer(Protocol):
    """Writes one summary for a cluster of facts about one subject."""

    #: Bound on the summary's length. Consolidation only forms clusters whose statements
    #: all fit in it (`full_summary_length`), so a summary can carry every source.
    max_chars: int

    async def summarize(self, subject: str, records: Sequence[MemoryRecord]) -> str:
        """Summarises `records`, given most central first. Returns non-empty text."""
        ...


def subject_label(subject: str) -> str:
    """How a summary names its subject: "user" → "User", "caroline" → "Caroline"."""
    return subject.strip().title() or "User"


def _statements(record: MemoryRecord, label: str) -> list[str]:
    """The statements a record contributes: a slot as its phrase, a summary as its parts, an
    episode as its text without the subject's own "<Subject>: " prefix (the summary's label
    already names the subject)."""
    if record.kind is Kind.SUMMARY:
        _, _, body = record.text.partition(": ")
        return [p.strip() for p in (body or record.text).rstrip(".").split("; ") if p.strip()]
    if record.kind is not Kind.EPISODIC and record.predicate and record.object:
        return [f"{phrase_for(record.predicate, record.polarity)} {record.object}"]
    text = record.text.strip()
    if text.lower().startswith(f"{label.lower()}: "):
        text = text[len(label) + 2 :]
    return [text.rstrip(".!")]


def distinct_statements(subject: str, records: Sequence[MemoryRecord]) -> list[str]:
    """The statements of `records` in order, each sentence once (compared normalised): a
    sentence repeated across the cluster ("Thanks, Mel!") is kept at its first occurrence,
    and a statement whose every sentence came earlier adds nothing."""
    label = subject_label(subject)
    seen: set[str] = set()
    statements: list[str] = []
    for record in records:
        for statement in _statements(record, label):
            kept = []
            for sentence in split_sentences(statement):
                key = normalize_value(sentence)
                if key and key not in seen:
                    seen.add(key)
                    kept.append(sentence)
            if kept:
                statements.append(" ".join(kept))
    return statements


def compose_summary(subject: str, statements: Sequence[str]) -> str:
    """The local summary's form: "<Subject>: <statement>; <statement>."."""
    return f"{subject_label(subject)}: " + "; ".join(statements) + "."


def full_summary_length(subject: str, records: Sequence[MemoryRecord]) -> int:
    """The length of the local summary that keeps every statement of `records`: what a
    summary must hold to carry all of them."""
    return len(compose_summary(subject, distinct_statements(subject, records)))


class LocalSummarizer:
    """Deterministic summaries: "<Subject>: <statement>; <statement>; …".

    Statements are taken most central first, duplicates dropped, until `max_chars`; the
    first statement is always kept (cut with an ellipsis if it alone is too long).
    Consolidation only forms clusters whose statements all fit (`full_summary_length`), so
    in practice nothing is dropped; the bound guards direct callers.
    """

    def __init__(self, max_chars: int = SUMMARY_MAX_CHARS) -> None:
        if max_chars < 40:
            raise ValueError("max_chars must be at least 40")
        self.max_chars = max_chars

    async def summarize(self, subject: str, records: Sequence[MemoryRecord]) -> str:
        return self.summarize_sync(subject, records)

    def summarize_sync(self, subject: str, records: Sequence[MemoryRecord]) -> str:
        budget = self.max_chars - len(compose_summary(subject, []))
        chosen: list[str] = []
        used = 0
        for statement in distinct_statements(subject, records):
            cost = len(statement) + (2 if chosen else 0)
            if not chosen and cost > budget:
                statement = statement[: budget - 1].rstrip() + "…"
                cost = len(statement)
            if used + cost > budget:
                continue
            chosen.append(statement)
            used += cost
        return compose_summary(subject, chosen)
