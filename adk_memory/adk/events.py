"""ADK `Event` / `Session` → `InputEvent` conversion (text parts only; thoughts, function
calls and responses carry no statement by a person)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from google.adk.events.event import Event

from adk_memory.model import InputEvent


def event_text(event: Event) -> str:
    """The text a person or the agent said in an event ("" when there is none)."""
    content = event.content
    if content is None or not content.parts:
        return ""
    texts = [p.text for p in content.parts if p.text and not getattr(p, "thought", False)]
    return "\n".join(t.strip() for t in texts if t.strip())


def to_input_events(events: Iterable[Event], *, session_id: str | None) -> list[InputEvent]:
    """Converts ADK events with text into `InputEvent`s, keeping ids and timestamps."""
    converted: list[InputEvent] = []
    for event in events:
        text = event_text(event)
        if not text:
            continue
        role = event.content.role if event.content is not None else None
        human = role == "user" or event.author == "user"
        converted.append(
            InputEvent(
                id=event.id,
                author=event.author,
                text=text,
                timestamp=datetime.fromtimestamp(event.timestamp, UTC),
                session_id=session_id,
                role="user" if human else "agent",
            )
        )
    return converted
