"""`GeminiExtractor`: one structured-output model call turns a batch of events into facts.

The model is Gemini through google-genai by default, or any `StructuredModel` (an ADK
`BaseLlm` such as `LiteLlm(model="openai/gpt-4o")` through `AdkStructuredModel`); prompts,
schema, checks and fallback are the same for every model.

The prompt carries every event's id, author and timestamp as JSON, so the model can resolve
relative dates ("last month") against the right day and cite its sources. Whatever the model
returns is checked here again: citations of unknown or agent events are dropped, dates after
the statement are pulled back to it. If the model stays unavailable or keeps answering off
schema, the batch goes to the offline `LocalExtractor` and is reported in
`ExtractionResult.fallback_event_ids`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from google.genai import Client
from pydantic import BaseModel

from adk_memory.errors import InvalidInputError
from adk_memory.extraction.base import ExtractionResult, FactExtractor
from adk_memory.extraction.local import normalize_value
from adk_memory.google_api.gemini import GeminiSettings, payload_prompt, structured_model
from adk_memory.llm.base import ModelCallError, StructuredModel
from adk_memory.model import Fact, InputEvent, Kind, Source, parse_timestamp

if TYPE_CHECKING:
    from google.adk.models.base_llm import BaseLlm

logger = logging.getLogger(__name__)

EXTRACT_TASK = "extract_facts"

SYSTEM_INSTRUCTION = """\
You maintain the long-term memory of an assistant. From a conversation you extract the durable
facts that human participants state about themselves or about other people.

The input is a JSON document whose `events` are in conversation order. Each event has an `id`,
an `author`, a `speaker` ("human" or "agent"), an ISO-8601 UTC `timestamp` and a `text`.

Rules:
- Facts come only from human speakers. Agent events are context: use them to understand what a
  human is answering (a "yes" to "Do you still live in Berlin?"), never as a source of facts.
- One fact per atomic statement, with:
  - subject: who the fact is about, lower-case. The author for first-person statements
    ("user" when the author is "user", "caroline" for "Caroline"), or the name of the third
    person it is about.
  - predicate: a snake_case attribute. Use these when they fit, so that a later value can be
    matched to an earlier one: name, age, lives_in, works_at, job_title, primary_language
    (main programming language), diet, relationship_status, allergic_to, speaks, learning,
    has_pet, likes (polarity false for dislikes), uses, uses:editor, uses:os, uses:browser,
    uses:cloud, uses:phone, prefers:<item> (how they take an item, e.g. prefers:coffee),
    favorite:<item>. Otherwise a short verb phrase such as visited or plans_to.
  - object: the value, as short as possible ("Munich", "Go", "peanuts").
  - replaces: the earlier value this statement explicitly displaces ("switched from Java to
    Go" replaces "Java"; "moved from Berlin to Munich" replaces "Berlin"), else "".
  - text: one self-contained sentence in the third person that names the subject.
  - kind: "profile" for stable facts (home, job, family, health), "preference" for likes,
    dislikes, habits and chosen tools, "episodic" for things that happened once.
  - polarity: false when the statement negates the relation ("no longer eats meat").
  - confidence: 0 to 1, how explicitly the fact was stated.
  - valid_at: when the fact became true, as an ISO-8601 date or date-time. Resolve relative
    expressions against the timestamp of the event that contains them ("last month" in an
    event of 2026-05-10 is 2026-04-10; "yesterday" is the day before). Without a time
    expression, use that event's timestamp.
  - event_ids: the ids of the events that state the fact, copied exactly from the input.
- Skip greetings, questions, pleasantries and anything that will not matter in a later
  conversation.
- Reply with {"facts": []} when nothing is worth remembering.
"""

_INSTRUCTIONS = "Extract the facts stated by human speakers in these events."
_SPACES = re.compile(r"\s+")
_YEAR_MONTH = re.compile(r"^\d{4}-\d{2}$")
_YEAR = re.compile(r"^\d{4}$")


class ExtractedFact(BaseModel):
    """One fact as the model returns it (the response schema)."""

    subject: str
    predicate: str
    object: str
    replaces: str = ""
    text: str
    kind: Literal["profile", "preference", "episodic"]
    polarity: bool
    confidence: float
    valid_at: str
    event_ids: list[str]


class ExtractionReply(BaseModel):
    """The whole reply of an extraction call (the response schema)."""

    facts: list[ExtractedFact]


def extraction_payload(events: Sequence[InputEvent]) -> dict[str, object]:
    """The JSON document an extraction prompt carries (the emulator parses it back)."""
    return {
        "task": EXTRACT_TASK,
        "events": [
            {
                "id": e.id,
                "author": e.author,
                "speaker": "human" if e.is_human else "agent",
                "timestamp": e.timestamp.isoformat(),
                "text": e.text,
            }
            for e in events
        ],
    }


def _parse_date(value: str) -> datetime | None:
    text = value.strip()
    # Models sometimes answer "last month" with just the month or the year.
    if _YEAR_MONTH.match(text):
        text += "-01"
    elif _YEAR.match(text):
        text += "-01-01"
    try:
        return parse_timestamp(text)
    except InvalidInputError:
        return None


def reply_to_facts(reply: ExtractionReply, events: Sequence[InputEvent]) -> list[Fact]:
    """Turns a model reply into facts, trusting only citations of the batch's human events.

    A fact citing no such event is dropped. `valid_at` falls back to the latest cited event's
    timestamp, and is never later than it: a plan ("I move next month") is recorded as of
    when it was said, so decay and ordering never see facts from the future.
    """
    by_id = {e.id: e for e in events}
    facts: list[Fact] = []
    for item in reply.facts:
        cited = [by_id[i] for i in dict.fromkeys(item.event_ids) if i in by_id]
        if not cited or not item.text.strip() or not item.subject.strip():
            logger.debug("dropping extracted fact without a valid source: %r", item.text)
            continue
        anchor = max(e.timestamp for e in cited)
        valid_at = _parse_date(item.valid_at)
        if valid_at is None or valid_at > anchor:
            valid_at = anchor
        facts.append(
            Fact(
                subject=item.subject.strip().lower(),
                predicate=_SPACES.sub("_", item.predicate.strip().lower()),
                object=item.object.strip(),
                replaces=normalize_value(item.replaces) or None,
                text=item.text.strip(),
                confidence=min(max(item.confidence, 0.0), 1.0),
                valid_at=valid_at,
                recorded_at=anchor,
                kind=Kind(item.kind),
                polarity=item.polarity,
                author=cited[0].author,
                source=Source(session_id=cited[0].session_id, event_ids=[e.id for e in cited]),
            )
        )
    return facts


class GeminiExtractor:
    """Extracts facts with one structured-output model call per batch of events.

    Args:
        client: A google-genai client; default: built from the environment (when no
            `model` is given).
        settings: Model name, retry policy...; default: from `ADK_MEMORY_GEMINI_*`.
        fallback: Used when the model fails; default: `LocalExtractor()` (created on first use).
        model: Another model instead of Gemini: a `StructuredModel`, or an ADK `BaseLlm`
            (run with the settings' retry policy and output cap).
    """

    def __init__(
        self,
        client: Client | None = None,
        *,
        settings: GeminiSettings | None = None,
        fallback: FactExtractor | None = None,
        model: StructuredModel | BaseLlm | None = None,
    ) -> None:
        self._settings = settings if settings is not None else GeminiSettings.from_env()
        self._model = structured_model(client, self._settings, model)
        self._fallback = fallback

    async def extract(self, events: Sequence[InputEvent]) -> ExtractionResult:
        """Extracts facts from what human participants said in `events`.

        Args:
            events: One batch, in conversation order.

        Returns:
            The facts, each citing its source events, plus the model usage. If the model failed,
            the facts come from the fallback and every event id is in `fallback_event_ids`.
        """
        humans = [e for e in events if e.is_human]
        if not humans:
            return ExtractionResult()
        prompt = payload_prompt(_INSTRUCTIONS, extraction_payload(events))
        try:
            reply, usage = await self._model.generate_json(
                system_instruction=SYSTEM_INSTRUCTION,
                prompt=prompt,
                schema=ExtractionReply,
            )
        except ModelCallError as exc:
            logger.warning("model extraction failed, using the local extractor: %s", exc)
            local = await self._fallback_extractor().extract(events)
            return ExtractionResult(
                facts=local.facts,
                usage=exc.usage + local.usage,
                fallback_event_ids=[e.id for e in events],
            )
        return ExtractionResult(facts=reply_to_facts(reply, humans), usage=usage)

    def _fallback_extractor(self) -> FactExtractor:
        if self._fallback is None:
            # Imported here: the local model is only loaded when the model actually fails.
            from adk_memory.extraction.local import LocalExtractor

            self._fallback = LocalExtractor()
        return self._fallback
