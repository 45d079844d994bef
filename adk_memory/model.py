"""The data model shared by every layer: facts, stored records, scored results, decisions.

These pydantic models are the boundary types; stores, extractors, classifiers and the ADK
adapters exchange nothing else.
"""

from __future__ import annotations

import math
import re
import uuid
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

from adk_memory.errors import InvalidInputError

#: Longest text accepted for one memory, query or remembered statement. Longer input is an
#: error, not silently cut.
MAX_TEXT_CHARS = 20_000
#: Longest conversation event ingest accepts (a pasted log or document). The extractor keeps
#: such an event as bounded excerpts that cite it; beyond this it is rejected alone.
MAX_EVENT_CHARS = 1_000_000

_NAME = Annotated[str, StringConstraints(min_length=1, max_length=256)]
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def utcnow() -> datetime:
    """The current time, timezone-aware UTC (the default clock)."""
    return datetime.now(UTC)


#: Earliest accepted timestamp (inclusive). Nothing a conversation states about its user
#: is dated earlier; such a value is a parse error, e.g. a year-1 placeholder.
MIN_TIMESTAMP = datetime(1900, 1, 1, tzinfo=UTC)
#: Latest accepted timestamp (exclusive). Far enough below `datetime.max` that a stored POSIX
#: float (whose rounding grows with magnitude) and any UTC offset always decode again.
MAX_TIMESTAMP = datetime(9000, 1, 1, tzinfo=UTC)
_RANGE = f"{MIN_TIMESTAMP:%Y-%m-%d} to {MAX_TIMESTAMP:%Y-%m-%d} UTC"


def as_utc(value: datetime) -> datetime:
    """Naive datetimes are taken as UTC; aware ones are converted to UTC.

    Raises:
        InvalidInputError: if the instant cannot be expressed in UTC (e.g. year 1 at +01:00).
    """
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except (OverflowError, ValueError) as exc:
        raise InvalidInputError(f"invalid timestamp {value.isoformat()}: out of range") from exc


def check_timestamp(value: datetime) -> datetime:
    """`value` in aware UTC, if it lies in the accepted range [`MIN_TIMESTAMP`, `MAX_TIMESTAMP`).

    Every datetime a model holds passes here, so a record can always be stored as a POSIX
    float and read back.

    Raises:
        InvalidInputError: if the value is outside the accepted range.
    """
    utc = as_utc(value)
    if not MIN_TIMESTAMP <= utc < MAX_TIMESTAMP:
        raise InvalidInputError(
            f"timestamp {utc.isoformat()} is out of range: accepted are {_RANGE}"
        )
    return utc


def timestamp_from_epoch(seconds: float) -> datetime:
    """The aware UTC datetime of a POSIX timestamp, if it lies in the accepted range.

    Raises:
        InvalidInputError: on NaN, infinities and values outside the accepted range.
    """
    if not math.isfinite(seconds) or not (
        MIN_TIMESTAMP.timestamp() <= seconds < MAX_TIMESTAMP.timestamp()
    ):
        raise InvalidInputError(
            f"invalid timestamp {seconds!r}: accepted are POSIX seconds from "
            f"{MIN_TIMESTAMP.timestamp():.0f} to {MAX_TIMESTAMP.timestamp():.0f} ({_RANGE})"
        )
    # Adding to the epoch (not fromtimestamp) works for negative values on every platform.
    return check_timestamp(_EPOCH + timedelta(seconds=seconds))


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def parse_timestamp(value: str | float | int | datetime) -> datetime:
    """Parses an ISO-8601 string, a POSIX timestamp or a datetime into aware UTC.

    Accepted are instants from `MIN_TIMESTAMP` (1900-01-01) up to, not including,
    `MAX_TIMESTAMP` (9000-01-01).

    Raises:
        InvalidInputError: if the value is not a valid timestamp or is out of range.
    """
    if isinstance(value, datetime):
        return check_timestamp(value)
    if isinstance(value, bool):
        raise InvalidInputError(f"invalid timestamp: {value!r}")
    if isinstance(value, int | float):
        try:
            seconds = float(value)
        except OverflowError as exc:  # an int beyond float range
            raise InvalidInputError(
                f"invalid timestamp {str(value)[:24]}...: out of range"
            ) from exc
        return timestamp_from_epoch(seconds)
    if isinstance(value, str):
        text = value.strip()
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        try:
            parsed = datetime.fromisoformat(text)
        except ValueError as exc:
            raise InvalidInputError(
                f"invalid timestamp {value[:64]!r}: expected ISO-8601, e.g. 2026-05-01T12:00:00Z"
            ) from exc
        return check_timestamp(parsed)
    raise InvalidInputError(f"invalid timestamp: {type(value).__name__}")


def _checked(value: datetime | None) -> datetime | None:
    return None if value is None else check_timestamp(value)


def clean_text(value: str, *, what: str = "text", limit: int = MAX_TEXT_CHARS) -> str:
    """Validates user-supplied text: non-empty, not binary, not huge. Returns it stripped.

    Raises:
        InvalidInputError: on empty, binary (NUL / control bytes), unencodable (a lone
            surrogate) or over-long text.
    """
    if not isinstance(value, str):
        raise InvalidInputError(f"{what} must be a string, got {type(value).__name__}")
    text = value.strip()
    if not text:
        raise InvalidInputError(f"{what} is empty")
    if len(text) > limit:
        raise InvalidInputError(f"{what} is {len(text)} characters; the limit is {limit}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInputError(f"{what} holds a lone surrogate (not valid Unicode)") from None
    if "\x00" in text or len(_CONTROL.findall(text)) > 0:
        raise InvalidInputError(f"{what} contains binary or control characters")
    return text


_AGENT_AUTHORS = frozenset({"model", "agent", "assistant", "system", "tool", "bot"})


def is_agent_author(author: str) -> bool:
    """Whether an event author names the agent side (model, tools) rather than a person."""
    name = author.strip().lower()
    return name in _AGENT_AUTHORS or name.endswith(("_agent", "-agent", " agent", "_bot"))


def new_id() -> str:
    """A fresh memory id (uuid4 hex: URL- and Memory-Bank-id-safe)."""
    return uuid.uuid4().hex


#: For the models a `recall` never builds (facts, verdicts, write and ingest results): their
#: validators are built on first use instead of at import, which every CLI command pays.
#: Validation is the same either way.
_BUILT_ON_FIRST_USE = ConfigDict(defer_build=True)


class Scope(BaseModel):
    """Whose memory: facts never cross scopes."""

    model_config = ConfigDict(frozen=True)

    app_name: _NAME
    user_id: _NAME

    def __str__(self) -> str:
        return f"{self.app_name}/{self.user_id}"


class Status(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    ARCHIVED = "archived"


class Decision(StrEnum):
    ADD = "ADD"
    REPLACE = "REPLACE"
    NOOP = "NOOP"


class Kind(StrEnum):
    """What sort of memory a record is; decay may differ per kind."""

    PROFILE = "profile"  # stable facts about a person: home, job, allergies
    PREFERENCE = "preference"  # likes, dislikes, habits, chosen tools
    EPISODIC = "episodic"  # something that happened or was said once
    SUMMARY = "summary"  # produced by consolidation


class Source(BaseModel):
    """Where a memory came from: the session and the events that state it."""

    session_id: str | None = None
    event_ids: list[str] = Field(default_factory=list)


class Fact(BaseModel):
    """A fact as extracted, before it is stored."""

    model_config = _BUILT_ON_FIRST_USE

    subject: str
    predicate: str
    object: str
    text: str
    confidence: float = Field(default=0.9, ge=0.0, le=1.0)
    #: When it became true ("I moved last week" resolves against the statement's time).
    valid_at: datetime
    #: When it was stated (the source event's timestamp); None = `valid_at`. Supersession
    #: follows the order of statements, not of `valid_at`.
    recorded_at: datetime | None = None
    kind: Kind = Kind.EPISODIC
    #: False when the statement negates the relation ("no longer eats meat").
    polarity: bool = True
    #: An object value this fact explicitly displaces ("switched from Java to Go": "java").
    replaces: str | None = None
    author: str | None = None
    source: Source = Field(default_factory=Source)

    @field_validator("valid_at", "recorded_at")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return _checked(value)

    @model_validator(mode="after")
    def _recorded_defaults_to_valid(self) -> Fact:
        if self.recorded_at is None:
            self.recorded_at = self.valid_at
        return self

    @property
    def stated_at(self) -> datetime:
        """When the fact was stated (`recorded_at`, always set after validation)."""
        return self.recorded_at or self.valid_at


class MemoryRecord(BaseModel):
    """A stored memory. `embedding` is kept by stores but never returned to callers."""

    id: str = Field(default_factory=new_id)
    scope: Scope
    text: str
    subject: str = ""
    predicate: str = ""
    object: str = ""
    polarity: bool = True
    confidence: float = Field(default=0.9, ge=0.0, le=1.0)
    kind: Kind = Kind.EPISODIC
    author: str | None = None
    #: When it became true.
    valid_at: datetime
    #: When it was stated (the source event's time); None = `valid_at` (older records).
    recorded_at: datetime | None = None
    #: When it was ingested.
    created_at: datetime
    status: Status = Status.ACTIVE
    superseded_by: str | None = None
    consolidated_into: str | None = None
    source: Source = Field(default_factory=Source)
    hits: int = 0
    last_accessed_at: datetime | None = None
    embedding: list[float] | None = Field(default=None, exclude=True, repr=False)

    @field_validator("valid_at", "recorded_at", "created_at", "last_accessed_at")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return _checked(value)

    @model_validator(mode="after")
    def _recorded_defaults_to_valid(self) -> MemoryRecord:
        if self.recorded_at is None:
            self.recorded_at = self.valid_at
        return self

    @property
    def stated_at(self) -> datetime:
        """When the memory was stated (`recorded_at`, always set after validation)."""
        return self.recorded_at or self.valid_at

    @classmethod
    def from_fact(
        cls, fact: Fact, *, scope: Scope, created_at: datetime, embedding: list[float] | None
    ) -> MemoryRecord:
        return cls(
            scope=scope,
            text=fact.text,
            subject=fact.subject,
            predicate=fact.predicate,
            object=fact.object,
            polarity=fact.polarity,
            confidence=fact.confidence,
            kind=fact.kind,
            author=fact.author,
            valid_at=fact.valid_at,
            recorded_at=fact.recorded_at,
            created_at=created_at,
            source=fact.source,
            embedding=embedding,
        )


class ScoreBreakdown(BaseModel):
    """Every component of a ranking, so callers can explain it."""

    score: float
    similarity: float
    cosine: float
    lexical: float
    decay: float
    confidence: float
    age_days: float
    #: The retired memory whose match this one inherited, when it did: an archived source of
    #: this summary, or a memory this one superseded (it answers what that one answered).
    #: `similarity`, `cosine` and `lexical` are then that memory's.
    matched_via: str | None = None


class ScoredMemory(BaseModel):
    """A recalled memory with the components of its score."""

    record: MemoryRecord
    breakdown: ScoreBreakdown
    #: Set when recalled memories answer the same question and the newest replaced the
    #: others (the same one-at-a-time slot, or a lasting change and the state it displaced):
    #: True for the one stated last, False for the earlier ones, which follow it (after
    #: every other memory when a change displaced them). None otherwise.
    latest: bool | None = None

    @property
    def score(self) -> float:
        return self.breakdown.score


class Verdict(BaseModel):
    """A classifier's decision for one new fact against its candidates."""

    model_config = _BUILT_ON_FIRST_USE

    decision: Decision
    #: Ids of the candidate records this verdict refers to (superseded on REPLACE,
    #: reinforced on NOOP). Always a subset of the candidates shown to the classifier.
    target_ids: list[str] = Field(default_factory=list)
    reason: str = ""


class WriteOutcome(BaseModel):
    """What reconciling one fact did to the store: exactly what was stored."""

    model_config = _BUILT_ON_FIRST_USE

    decision: Decision
    id: str
    superseded: list[str] = Field(default_factory=list)
    text: str
    reason: str = ""
    #: The status the written record has: `superseded` when the statement was older than
    #: what it would have replaced (a late-arriving conversation), so it went into history.
    status: Status = Status.ACTIVE


class InputEvent(BaseModel):
    """One conversation event to ingest (an ADK event, a JSONL line, a transcript turn)."""

    model_config = _BUILT_ON_FIRST_USE

    id: str = Field(default_factory=new_id)
    author: str
    text: str
    timestamp: datetime
    session_id: str | None = None
    #: "user" for a human participant, "agent" for the model/tools; None = infer from author.
    role: Literal["user", "agent"] | None = None

    @property
    def is_human(self) -> bool:
        if self.role is not None:
            return self.role == "user"
        return not is_agent_author(self.author)

    @field_validator("timestamp", mode="before")
    @classmethod
    def _timestamp(cls, value: object) -> datetime:
        if not isinstance(value, str | int | float | datetime):
            raise InvalidInputError(f"invalid timestamp: {value!r}")
        return parse_timestamp(value)


class RejectedEvent(BaseModel):
    """An event an ingest left out, and why (the rest of its batch was ingested)."""

    model_config = _BUILT_ON_FIRST_USE

    event_id: str
    reason: str


class IngestResult(BaseModel):
    """What one ingest did: per-fact outcomes plus the events it skipped as already seen."""

    model_config = _BUILT_ON_FIRST_USE

    outcomes: list[WriteOutcome] = Field(default_factory=list)
    events_ingested: int = 0
    events_skipped: int = 0
    #: Events left out as invalid (empty, binary, over the hard size limit).
    rejected: list[RejectedEvent] = Field(default_factory=list)
    model_calls: int = 0
    tokens: int = 0

    def count(self, decision: Decision) -> int:
        return sum(1 for o in self.outcomes if o.decision is decision)
