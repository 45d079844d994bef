"""`GeminiSummarizer`: cluster summaries written by Gemini, the local summary as fallback."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from google.genai import Client
from pydantic import BaseModel

from adk_memory.google_api.gemini import (
    GeminiCallError,
    GeminiSettings,
    build_client,
    generate_json,
    payload_prompt,
)
from adk_memory.lifecycle.summarizer import SUMMARY_MAX_CHARS, LocalSummarizer, subject_label
from adk_memory.model import MemoryRecord

logger = logging.getLogger(__name__)

SUMMARIZE_TASK = "summarize_memories"


class SummaryReply(BaseModel):
    """Gemini's structured reply."""

    text: str


_SYSTEM_INSTRUCTION = """\
You maintain the long-term memory of an assistant. You receive related facts about one person,
most central first, and write ONE summary that keeps every durable detail a later conversation
could need: names, places, dates, numbers, preferences. Write in the third person, start with
the person's name followed by a colon, do not invent anything, and stay within `max_chars`
characters. Facts never contradict each other here; keep each one.
"""


class GeminiSummarizer:
    """Summaries written by Gemini (structured output), with the local summary as fallback.

    Args:
        client: A google-genai client (default: built from the environment on first use).
        settings: Model and retry settings (default: from `ADK_MEMORY_GEMINI_*`).
        max_chars: Bound on the summary length; longer replies are retried, then cut.
    """

    def __init__(
        self,
        client: Client | None = None,
        *,
        settings: GeminiSettings | None = None,
        max_chars: int = SUMMARY_MAX_CHARS,
    ) -> None:
        self._client = client
        self.settings = settings or GeminiSettings.from_env()
        self.max_chars = max_chars
        self._fallback = LocalSummarizer(max_chars)

    @property
    def client(self) -> Client:
        if self._client is None:
            self._client = build_client()
        return self._client

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
            reply, _ = await generate_json(
                self.client,
                settings=self.settings,
                system_instruction=_SYSTEM_INSTRUCTION,
                prompt=payload_prompt("Summarise these facts.", payload),
                schema=SummaryReply,
                check=check,
            )
        except GeminiCallError as exc:
            logger.warning("Gemini summary failed, using the local summary: %s", exc)
            return self._fallback.summarize_sync(subject, records)
        text = " ".join(reply.text.split())
        return text if len(text) <= self.max_chars else text[: self.max_chars - 1] + "…"
