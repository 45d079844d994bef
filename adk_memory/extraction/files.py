"""Reading events to ingest from files: JSONL events or an ADK session JSON.

The whole file is parsed and validated before anything is written, so bad input loses
nothing and half-writes nothing: every problem is reported as one line naming the line
(and field) of the file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from adk_memory.errors import InvalidInputError
from adk_memory.model import InputEvent, clean_text

#: The string fields of a JSONL event; each must be encodable text (no lone surrogates).
_TEXT_FIELDS = ("id", "author", "text", "session_id", "role", "timestamp")


def _problem(exc: ValidationError) -> str:
    first = exc.errors()[0]
    field = ".".join(str(part) for part in first.get("loc", ())) or "event"
    message = str(first.get("msg", "")).removeprefix("Value error, ")
    return f"{field}: {message}"


def _loads(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"{where}: invalid JSON ({exc.msg})") from exc
    except RecursionError:
        raise InvalidInputError(f"{where}: JSON nested too deeply") from None


def _event_from_json(obj: Any, where: str) -> InputEvent:
    if not isinstance(obj, dict):
        raise InvalidInputError(f"{where}: expected a JSON object")
    missing = [k for k in ("author", "text", "timestamp") if k not in obj]
    if missing:
        raise InvalidInputError(f"{where}: missing {', '.join(missing)}")
    for field in _TEXT_FIELDS:
        value = obj.get(field)
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise InvalidInputError(
                    f"{where}: {field}: not valid Unicode text (a lone surrogate escape)"
                ) from None
    try:
        event = InputEvent.model_validate(obj)
    except ValidationError as exc:
        raise InvalidInputError(f"{where}: {_problem(exc)}") from exc
    except InvalidInputError as exc:
        raise InvalidInputError(f"{where}: {exc}") from exc
    clean_text(event.text, what=f"{where}: text")
    return event


def read_events(path: Path) -> list[InputEvent]:
    """Events from a JSONL file (`{"id","author","text","timestamp","session_id"?}` per line)
    or from an ADK session JSON (`Session.model_dump_json()`).

    Raises:
        InvalidInputError: naming the line and problem, before anything is ingested.
    """
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InvalidInputError(f"cannot read {path}: {exc.strerror}") from exc
    if b"\x00" in raw:
        raise InvalidInputError(f"{path} is binary, not JSON")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInputError(f"{path} is not UTF-8 text") from exc
    if not text.strip():
        raise InvalidInputError(f"{path} is empty")
    if text.lstrip().startswith("{"):
        try:
            whole = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            whole = None  # not one JSON document: read it line by line below
        if isinstance(whole, dict) and "events" in whole:
            return _session_events(whole, path)
    events: list[InputEvent] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path.name}:{number}"
        events.append(_event_from_json(_loads(line, where), where))
    if not events:
        raise InvalidInputError(f"{path} holds no events")
    return events


def _session_events(obj: dict[str, Any], path: Path) -> list[InputEvent]:
    # ADK's session model is heavy to import: only session files pay for it.
    from google.adk.sessions.session import Session

    from adk_memory.adk.events import to_input_events

    try:
        session = Session.model_validate(obj)
    except ValidationError as exc:
        raise InvalidInputError(f"{path}: not a valid ADK session: {_problem(exc)}") from exc
    events = to_input_events(session.events, session_id=session.id)
    if not events:
        raise InvalidInputError(f"{path}: the session has no text events")
    for event in events:
        try:
            event.text.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidInputError(
                f"{path}: event {event.id}: text is not valid Unicode (a lone surrogate escape)"
            ) from None
    return events
