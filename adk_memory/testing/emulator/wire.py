"""Wire-format helpers shared by the emulator surfaces.

The Google SDKs camelCase only the top-level request keys; nested objects go out in snake_case
(see research/memory_bank_wire.jsonl). Google's JSON parser accepts both spellings, so the
emulator does too. Only known field names are translated: scope and metadata keys are user
data and must stay exactly as sent.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from starlette.requests import Request

_CAMEL_BOUNDARY = re.compile(r"_([a-z])")
_DURATION = re.compile(r"^\s*(-?\d+(?:\.\d+)?)s\s*$")


class ApiError(Exception):
    """An error the emulator answers with a Google error envelope."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def snake(name: str) -> str:
    return re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def camel(name: str) -> str:
    return _CAMEL_BOUNDARY.sub(lambda m: m.group(1).upper(), name)


def pick(obj: Any, name: str, default: Any = None) -> Any:
    """`obj[name]` under its camelCase or snake_case spelling (`name` is camelCase)."""
    if not isinstance(obj, dict):
        return default
    if name in obj:
        return obj[name]
    return obj.get(snake(name), default)


def format_time(value: datetime) -> str:
    """RFC 3339 UTC with microseconds, as Google APIs print timestamps."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_time(value: Any) -> datetime:
    """Parses an RFC 3339 timestamp (any fractional precision, `Z` or an offset).

    Raises:
        ApiError: 400 if the value is not a timestamp.
    """
    if not isinstance(value, str):
        raise ApiError(400, f"invalid timestamp {value!r}")
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    # Python parses at most microseconds; protobuf JSON may carry nanoseconds.
    text = re.sub(r"(\.\d{6})\d+", r"\1", text)
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError as exc:
        raise ApiError(400, f"invalid timestamp {value!r}") from exc
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


def parse_duration(value: Any) -> timedelta:
    """Parses a protobuf JSON duration such as `"3600s"` or `"1.5s"`."""
    match = _DURATION.match(value) if isinstance(value, str) else None
    if match is None:
        raise ApiError(400, f"invalid duration {value!r}: expected e.g. '3600s'")
    return timedelta(seconds=float(match.group(1)))


_VALUE_KINDS = ("stringValue", "doubleValue", "boolValue", "timestampValue")


def metadata_value(raw: Any) -> dict[str, Any]:
    """Normalises one `MemoryMetadataValue` to its camelCase form with exactly one kind set.

    Raises:
        ApiError: 400 on a value with no (or an unknown) kind.
    """
    if not isinstance(raw, dict):
        raise ApiError(400, f"metadata value must be an object, got {raw!r}")
    present = [(kind, pick(raw, kind)) for kind in _VALUE_KINDS if pick(raw, kind) is not None]
    if len(present) != 1:
        raise ApiError(400, f"metadata value must set exactly one of {_VALUE_KINDS}: {raw!r}")
    kind, value = present[0]
    if kind == "timestampValue":
        return {kind: format_time(parse_time(value))}
    if kind == "doubleValue":
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise ApiError(400, f"doubleValue must be a number: {value!r}")
        return {kind: float(value)}
    if kind == "boolValue":
        if not isinstance(value, bool):
            raise ApiError(400, f"boolValue must be a boolean: {value!r}")
        return {kind: value}
    if not isinstance(value, str):
        raise ApiError(400, f"stringValue must be a string: {value!r}")
    return {kind: value}


def metadata_map(raw: Any) -> dict[str, dict[str, Any]]:
    """Normalises a whole `metadata` map."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ApiError(400, "metadata must be an object")
    return {str(key): metadata_value(value) for key, value in raw.items()}


async def read_json_object(request: Request) -> dict[str, Any]:
    """A request's JSON body as an object ({} when empty).

    Raises:
        ApiError: 400 when the body is not a JSON object.
    """
    raw = await request.body()
    if not raw:
        return {}
    try:
        body = json.loads(raw)
    except ValueError as exc:
        raise ApiError(400, f"invalid JSON body: {exc}") from exc
    if not isinstance(body, dict):
        raise ApiError(400, "request body must be a JSON object")
    return body
