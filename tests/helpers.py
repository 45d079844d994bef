"""Shared test helpers: a fixed clock and record builders (real embeddings, no fakes)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np

from adk_memory.embedding.local import LocalEmbedder
from adk_memory.model import Kind, MemoryRecord, Scope, Source, Status

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
EMBEDDER = LocalEmbedder()


class FixedClock:
    """A settable clock for deterministic engines."""

    def __init__(self, now: datetime = T0) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, days: float) -> None:
        self.now += timedelta(days=days)


def vector(text: str) -> np.ndarray:
    return EMBEDDER.embed_sync([text])[0]


def make_record(
    scope: Scope,
    text: str,
    *,
    days: float = 0,
    status: Status = Status.ACTIVE,
    subject: str = "user",
    predicate: str = "said",
    obj: str = "",
    kind: Kind = Kind.EPISODIC,
    confidence: float = 0.9,
    event_ids: list[str] | None = None,
) -> MemoryRecord:
    return MemoryRecord(
        scope=scope,
        text=text,
        subject=subject,
        predicate=predicate,
        object=obj,
        kind=kind,
        confidence=confidence,
        valid_at=T0 + timedelta(days=days),
        created_at=T0 + timedelta(days=days),
        status=status,
        source=Source(session_id="s1", event_ids=event_ids or ["e1"]),
        embedding=vector(text).tolist(),
    )
