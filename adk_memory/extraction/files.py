"""Reading events to ingest from files: JSONL events or an ADK session JSON.

The whole file is parsed and validated before anything is written, so bad input loses
nothing and half-writes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from google.adk.sessions.session import Session
from pydantic import ValidationError

from adk_memory.adk.events import to_input_events
from adk_memory.errors import InvalidInputError
from adk_memory.model import InputEvent, clean_text


def _event_from_json(obj: Any, where: str) -> InputEvent:
    if not isinstance(obj, dict):
        raise InvalidInputError(f"{where}: expected a JSON object")
    missing = [k for k in ("author", "text", "timestamp") if k not in obj]
    if missing:
        raise InvalidInputError(f"{where}: missing {', '.join(missing)}")
    try:
        event = InputEvent.model_validate(obj)
    except (ValidationError, InvalidInputError) as exc:
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
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            whole = json.loads(text)
        except json.JSONDecodeError:
            whole = None
        if isinstance(whole, dict) and "events" in whole:
            return _session_events(whole, path)
    events: list[InputEvent] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path.name}:{number}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInputError(f"{where}: invalid JSON ({exc.msg})") from exc
        events.append(_event_from_json(obj, where))
    if not events:
        raise InvalidInputError(f"{path} holds no events")
    return events


def _session_events(obj: dict[str, Any], path: Path) -> list[InputEvent]:
    try:
        session = Session.model_validate(obj)
    except ValidationError as exc:
        raise InvalidInputError(f"{path}: not a valid ADK session: {exc}") from exc
    events = to_input_events(session.events, session_id=session.id)
    if not events:
        raise InvalidInputError(f"{path}: the session has no text events")
    return events
