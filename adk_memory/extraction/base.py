"""The `FactExtractor` seam: conversation events in, discrete facts out.

Implementations: `adk_memory.extraction.local.LocalExtractor` (offline, deterministic) and the
Gemini extractor. Every fact cites the events it came from (`Fact.source`) and takes its
`valid_at` from their timestamps, never from ingestion time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, Field

from adk_memory.model import Fact, InputEvent


class Usage(BaseModel):
    """Model cost of one step: calls made and tokens spent (0 for local models)."""

    calls: int = 0
    tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(calls=self.calls + other.calls, tokens=self.tokens + other.tokens)


class ExtractionResult(BaseModel):
    facts: list[Fact] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    #: Events a model path could not process and that were handled by a fallback instead.
    fallback_event_ids: list[str] = Field(default_factory=list)


@runtime_checkable
class FactExtractor(Protocol):
    """Turns a batch of events (one session delta) into facts."""

    async def extract(self, events: Sequence[InputEvent]) -> ExtractionResult:
        """Extracts facts from what human participants said in `events`.

        Args:
            events: The events of one batch, in conversation order. Agent turns may be used
                as context but are not themselves a source of facts about a person.

        Returns:
            The facts, each citing its source events, plus the model usage.
        """
        ...
