"""ADK `Content` / `Event` → text and `InputEvent` conversion (text parts only; thoughts,
function calls and responses carry no statement by a person)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from google.adk.events.event import Event
from google.genai import types

from adk_memory.errors import InvalidInputError
from adk_memory.model import InputEvent


def content_text(content: types.Content | None, *, separator: str = "\n") -> str:
    """The text of an ADK `Content`: its text parts (thoughts left out), each stripped,
    joined by `separator` ("" when there is none)."""
    if content is None or not content.parts:
        return ""
    texts = [p.text.strip() for p in content.parts if p.text and not p.thought]
    return separator.join(t for t in texts if t)


def event_text(event: Event) -> str:
    """The text a person or the agent said in an event ("" when there is none)."""
    return content_text(event.content)


@dataclass
class Conversion:
    """Events converted for ingestion, and those that could not be, with the reason."""

    events: list[InputEvent] = field(default_factory=list)
    #: (event id, reason) of each event left out because it cannot be stored.
    skipped: list[tuple[str, str]] = field(default_factory=list)


def to_input_events(events: Iterable[Event], *, session_id: str | None) -> list[InputEvent]:
    """Converts ADK events with text into `InputEvent`s, keeping ids and timestamps.

    Raises:
        InvalidInputError: on the first event that cannot be converted (a whole file is
            validated before anything is written).
    """
    return [_convert(event, text, session_id) for event, text in _with_text(events)]


def convert_events(events: Iterable[Event], *, session_id: str | None) -> Conversion:
    """Like `to_input_events`, but an event that cannot be converted (e.g. a timestamp
    outside the supported range) is left out with its reason, so one bad event never costs
    its neighbours. Over-long texts are passed on: bounding them is the extractor's job."""
    converted = Conversion()
    for event, text in _with_text(events):
        try:
            converted.events.append(_convert(event, text, session_id))
        except (ValueError, OverflowError, OSError) as exc:
            converted.skipped.append((event.id, f"{type(exc).__name__}: {exc}"))
    return converted


def _with_text(events: Iterable[Event]) -> Iterable[tuple[Event, str]]:
    # Events without text state nothing and are passed over silently.
    for event in events:
        text = event_text(event)
        if text:
            yield event, text


def _convert(event: Event, text: str, session_id: str | None) -> InputEvent:
    role = event.content.role if event.content is not None else None
    human = role == "user" or event.author == "user"
    try:
        timestamp = datetime.fromtimestamp(event.timestamp, UTC)
    except (ValueError, OverflowError, OSError) as exc:
        raise InvalidInputError(f"event {event.id} has an invalid timestamp: {exc}") from exc
    return InputEvent(
        id=event.id,
        author=event.author,
        text=text,
        timestamp=timestamp,
        session_id=session_id,
        role="user" if human else "agent",
    )
