"""`GeminiSummarizer`: cluster summaries written by a model, the local summary as fallback.

Gemini through google-genai by default, or any `StructuredModel` (an ADK `BaseLlm` through
`AdkStructuredModel`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from google.genai import Client
from pydantic import BaseModel

from adk_memory.google_api.gemini import GeminiSettings, payload_prompt, structured_model
from adk_memory.lifecycle.summarizer import SUMMARY_MAX_CHARS, LocalSummarizer, subject_label
from adk_memory.llm.base import ModelCallError, StructuredModel
from adk_memory.model import MemoryRecord

if TYPE_CHECKING:
    from google.adk.models.base_llm import BaseLlm

logger = logging.getLogger(__name__)

SUMMARIZE_TASK = "summarize_memories"


class SummaryReply(BaseModel):
    """The model's structured reply."""

    text: str


_SYSTEM_INSTRUCTION = """\
You maintain the long-term memory of an assistant. You receive related facts about one person,
most central first, and write ONE summary that keeps every durable detail a later conversation
could need: names, places, dates, numbers, preferences. Write in the third person, start with
the person's name followed by a colon, do not invent anything, and stay within `max_chars`
characters. Facts never contradict each other here; keep each one.
"""


class GeminiSummarizer:
    """Summaries written by a model (structured output), with the local summary as fallback.

    Args:
        client: A google-genai client (default: built from the environment on first use,
            when no `model` is given).
        settings: Model and retry settings (default: from `ADK_MEMORY_GEMINI_*`).
        max_chars: Bound on the summary length; longer replies are retried, then cut.
        model: Another model instead of Gemini: a `StructuredModel`, or an ADK `BaseLlm`.
    """

    def __init__(
        self,
        client: Client | None = None,
        *,
        settings: GeminiSettings | None = None,
        max_chars: int = SUMMARY_MAX_CHARS,
        model: StructuredModel | BaseLlm | None = None,
    ) -> None:
        self._client = client
        self._given = model
        self._model: StructuredModel | None = None
        self.settings = settings or GeminiSettings.from_env()
        self.max_chars = max_chars
        self._fallback = LocalSummarizer(max_chars)

    @property
    def model(self) -> StructuredModel:
        """The model called; a default Gemini client is built here, on first use."""
        if self._model is None:
            self._model = structured_model(self._client, self.settings, self._given)
        return self._model

    async def summarize(self, subject: str, records: Sequence[MemoryRecord]) -> str:
        payload = {
            "task": SUMMARIZE_TASK,
            "subject": subject_label(subject),
            "max_chars": self.max_chars,
            "facts": [{"text": r.text, "valid_at": r.valid_at.date().isoformat()} for r in records],
        }

        def check(reply: SummaryReply) -> None:
            if not reply.text.strip():
                raise ValueError("text is empty")
            if len(reply.text) > self.max_chars * 2:
                raise ValueError(f"text is longer than {self.max_chars} characters")

        try:
            reply, _ = await self.model.generate_json(
                system_instruction=_SYSTEM_INSTRUCTION,
                prompt=payload_prompt("Summarise these facts.", payload),
                schema=SummaryReply,
                check=check,
            )
        except ModelCallError as exc:
            logger.warning("model summary failed, using the local summary: %s", exc)
            return self._fallback.summarize_sync(subject, records)
        text = " ".join(reply.text.split())
        return text if len(text) <= self.max_chars else text[: self.max_chars - 1] + "…"
