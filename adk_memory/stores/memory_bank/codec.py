"""How a `MemoryRecord` is laid out in a Vertex AI Memory Bank memory.

The fact sentence is the memory's `fact` (Memory Bank embeds it server-side); the scope is
`{"app_name", "user_id"}` exactly as ADK's `VertexAiMemoryBankService` writes it; every other
field goes in `metadata`, whose values are typed scalars on the wire
(`stringValue | doubleValue | boolValue | timestampValue`). Lists (source event ids, the ids a
pending REPLACE supersedes) have no metadata type, so they travel as JSON strings.
Empty and unset fields are left out rather than written as empty strings.

Memories without our metadata (written by ADK's own `VertexAiMemoryBankService`, or generated
by Memory Bank before an app switched to adk-memory) are read as active facts of the scope,
stated and valid when their fact was last written (the server update time: Memory Bank
rewrites a fact when it consolidates, and keeps the earlier one as a revision), so an app
that upgrades keeps its memories. Their record id is their memory id; the first status change
writes our metadata onto them.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import UTC, datetime
from typing import Any

from adk_memory.model import Kind, MemoryRecord, Scope, Source, Status, as_utc, utcnow

# Metadata keys. `status` also tells our records apart from memories other writers (ADK's own
# service, server-side generation without our metadata) put in the same scope.
RID = "rid"
STATUS = "status"
PENDING = "pending_replace"
SUPERSEDES = "supersedes"
KIND_MARKER = "_ingest_marker"

#: The scope keys of a record, as ADK's Memory Bank service uses them.
SCOPE_KEYS = ("app_name", "user_id")
#: Extra scope key of ingest markers: exact scope matching keeps them out of every retrieval of
#: the user's real scope, ADK's own included.
MARKER_SCOPE_KEY = "adk_memory"
MARKER_SCOPE_VALUE = "ingest-markers"

_PLAIN_ID = re.compile(r"^[a-z0-9-]{1,61}$")
#: What a memory id of another writer may look like (server ids are long decimal numbers).
_FOREIGN_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")
_OWN_ID = re.compile(r"^[0-9a-f]{32}$")
#: Confidence of a memory that carries none (another writer's): a stated fact.
FOREIGN_CONFIDENCE = 0.9


def memory_id_for(record_id: str) -> str:
    """The Memory Bank memory id of a record id.

    Memory ids must look like `[a-z][a-z0-9-]{0,62}`; uuid hex ids may start with a digit, so
    every id gets a prefix (`r-` for ids used verbatim, `h-` for a hash of any other id). The
    prefixes keep the two forms from ever colliding.
    """
    if _PLAIN_ID.match(record_id):
        return "r-" + record_id
    return "h-" + hashlib.sha256(record_id.encode("utf-8")).hexdigest()[:60]


def foreign_memory_id(record_id: str) -> str | None:
    """The memory id a record id names when the memory is another writer's, else None.

    Such a memory keeps the id Memory Bank gave it, and its record id is that id.
    """
    return record_id if _FOREIGN_ID.match(record_id) else None


def is_own_id(record_id: str) -> bool:
    """Whether an id has the shape of ours (`new_id`: uuid4 hex), which no memory of
    another writer has (Memory Bank names memories with decimal numbers)."""
    return bool(_OWN_ID.match(record_id)) and not record_id.isdigit()


def marker_id_for(scope: Scope, event_id: str) -> str:
    """The memory id of the ingest marker of one event in one scope."""
    key = f"{scope.app_name}\x00{scope.user_id}\x00{event_id}".encode()
    return "e-" + hashlib.sha256(key).hexdigest()[:60]


#: Revision labels of a generated write: the record that stated the value, and when (µs since
#: the epoch). Memory Bank's revisions carry no metadata; these tell an earlier value's time.
LABEL_RID = "rid"
LABEL_STATED = "stated_at_us"
#: What a label value may look like (Google Cloud label rules).
_LABEL_VALUE = re.compile(r"^[a-z0-9_-]{1,63}$")
#: The record id of an earlier value kept as a revision: `rev~{revision id}~{memory id}`.
_REVISION_RECORD_ID = re.compile(r"^rev~([A-Za-z0-9_-]{1,64})~([a-z0-9][a-z0-9-]{0,62})$")


def revision_labels(record: MemoryRecord) -> dict[str, str]:
    """The `revisionLabels` of a write of `record` (its id only where it is a valid label)."""
    stated = as_utc(record.stated_at)
    labels = {LABEL_STATED: str(round(stated.timestamp() * 1_000_000))}
    if _LABEL_VALUE.match(record.id):
        labels[LABEL_RID] = record.id
    return labels


def revision_record_id(memory_id: str, revision_id: str) -> str:
    """The record id of one revision of a memory (revision first, so short ids differ)."""
    return f"rev~{revision_id}~{memory_id}"


def parse_revision_record_id(record_id: str) -> tuple[str, str] | None:
    """`(memory id, revision id)` of a revision's record id, or None for any other id."""
    match = _REVISION_RECORD_ID.match(record_id)
    return (match.group(2), match.group(1)) if match else None


def revision_id_of(revision: Any) -> str:
    """The last segment of a revision's resource name."""
    return str(revision.name).rsplit("/", 1)[-1]


def decode_revision(revision: Any, current: MemoryRecord, memory_id: str) -> MemoryRecord:
    """An earlier value of `current` (its memory's revision) as a superseded record.

    Its text is the revision's fact and its times the revision's: the statement time from our
    labels where the write carried them, else the revision's create time. The slot is the
    current record's (Memory Bank merged the value into this memory because it is about the
    same thing); the object is left empty, since only the text of an earlier value is kept.
    """
    created_raw = getattr(revision, "create_time", None)
    created = as_utc(created_raw) if isinstance(created_raw, datetime) else current.created_at
    labels = getattr(revision, "labels", None) or {}
    stated = created
    raw_stated = labels.get(LABEL_STATED) if isinstance(labels, dict) else None
    if isinstance(raw_stated, str) and raw_stated.lstrip("-").isdigit():
        try:
            stated = datetime.fromtimestamp(int(raw_stated) / 1_000_000, tz=UTC)
        except (OverflowError, OSError, ValueError):
            stated = created
    return current.model_copy(
        update={
            "id": revision_record_id(memory_id, revision_id_of(revision)),
            "text": revision.fact or "",
            "object": "",
            "status": Status.SUPERSEDED,
            "superseded_by": current.id,
            "consolidated_into": None,
            "valid_at": stated,
            "recorded_at": stated,
            "created_at": created,
            "source": Source(),
            "hits": 0,
            "last_accessed_at": None,
            "embedding": None,
        }
    )


def scope_dict(scope: Scope) -> dict[str, str]:
    return {"app_name": scope.app_name, "user_id": scope.user_id}


def marker_scope_dict(scope: Scope) -> dict[str, str]:
    return {**scope_dict(scope), MARKER_SCOPE_KEY: MARKER_SCOPE_VALUE}


def record_scope(raw: dict[str, str] | None) -> Scope | None:
    """The record scope of a memory scope, or None for scopes that are not ours."""
    if not raw or set(raw) != set(SCOPE_KEYS):
        return None
    return Scope(app_name=raw["app_name"], user_id=raw["user_id"])


def _s(value: str) -> dict[str, Any]:
    return {"string_value": value}


def _t(value: datetime) -> dict[str, Any]:
    return {"timestamp_value": as_utc(value)}


def encode_metadata(
    record: MemoryRecord, *, supersedes: list[str] | None = None
) -> dict[str, dict[str, Any]]:
    """The metadata map (SDK `MemoryMetadataValue` dicts) of a record.

    Args:
        record: The record.
        supersedes: Set while a REPLACE is in flight: the ids this record supersedes. The
            record is then marked pending until every one of them is marked superseded.
    """
    md: dict[str, dict[str, Any]] = {
        RID: _s(record.id),
        STATUS: _s(record.status.value),
        "kind": _s(record.kind.value),
        "polarity": {"bool_value": record.polarity},
        "confidence": {"double_value": float(record.confidence)},
        "valid_at": _t(record.valid_at),
        "recorded_at": _t(record.stated_at),
        "created_at": _t(record.created_at),
        "hits": {"double_value": float(record.hits)},
    }
    for key in ("subject", "predicate", "object", "author", "superseded_by", "consolidated_into"):
        value = getattr(record, key)
        if value:
            md[key] = _s(value)
    if record.last_accessed_at is not None:
        md["last_accessed_at"] = _t(record.last_accessed_at)
    if record.source.session_id:
        md["source_session"] = _s(record.source.session_id)
    if record.source.event_ids:
        md["source_events"] = _s(json.dumps(record.source.event_ids))
    if supersedes:
        md[PENDING] = {"bool_value": True}
        md[SUPERSEDES] = _s(json.dumps(supersedes))
    return md


def _value(metadata: Any, key: str) -> Any:
    """The scalar of one metadata entry (SDK `MemoryMetadataValue`), or None."""
    if not metadata or key not in metadata:
        return None
    entry = metadata[key]
    for kind in ("string_value", "double_value", "bool_value", "timestamp_value"):
        value = getattr(entry, kind, None)
        if value is not None:
            return value
    return None


def is_record(memory: Any) -> bool:
    """Whether a memory carries our record metadata."""
    return _value(getattr(memory, "metadata", None), STATUS) is not None


def record_id_of(memory: Any) -> str:
    rid = _value(getattr(memory, "metadata", None), RID)
    if isinstance(rid, str) and rid:
        return rid
    memory_id = str(memory.name).rsplit("/", 1)[-1]
    return memory_id[2:] if memory_id.startswith("r-") else memory_id


def supersedes_of(memory: Any) -> list[str]:
    """The ids a pending REPLACE record supersedes ([] once the REPLACE completed)."""
    metadata = getattr(memory, "metadata", None)
    if not _value(metadata, PENDING):
        return []
    raw = _value(metadata, SUPERSEDES)
    try:
        ids = json.loads(raw) if isinstance(raw, str) else []
    except ValueError:
        return []
    return [str(i) for i in ids] if isinstance(ids, list) else []


def _time(value: Any, fallback: datetime) -> datetime:
    return as_utc(value) if isinstance(value, datetime) else fallback


def memory_id_of(memory: Any) -> str:
    """The last segment of a memory's resource name."""
    return str(memory.name).rsplit("/", 1)[-1]


def decode_record(memory: Any) -> MemoryRecord | None:
    """The record a memory holds, or None if it is not in a record scope (e.g. a marker).

    A memory without our metadata reads as an active fact (see the module docstring).
    """
    scope = record_scope(getattr(memory, "scope", None))
    metadata = getattr(memory, "metadata", None)
    if scope is None:
        return None
    created = memory.create_time or memory.update_time
    server_time = as_utc(created) if isinstance(created, datetime) else None
    created_at = _time(_value(metadata, "created_at"), server_time or utcnow())
    written = memory.update_time
    written_at = max(created_at, as_utc(written)) if isinstance(written, datetime) else created_at
    events_raw = _value(metadata, "source_events")
    try:
        event_ids = json.loads(events_raw) if isinstance(events_raw, str) else []
    except ValueError:
        event_ids = []
    try:
        status = Status(str(_value(metadata, STATUS) or Status.ACTIVE.value))
    except ValueError:
        status = Status.ACTIVE
    try:
        kind = Kind(str(_value(metadata, "kind") or Kind.EPISODIC.value))
    except ValueError:
        kind = Kind.EPISODIC
    confidence = _value(metadata, "confidence")
    polarity = _value(metadata, "polarity")
    hits = _value(metadata, "hits")
    return MemoryRecord(
        id=record_id_of(memory),
        scope=scope,
        text=memory.fact or "",
        subject=_value(metadata, "subject") or "",
        predicate=_value(metadata, "predicate") or "",
        object=_value(metadata, "object") or "",
        polarity=True if polarity is None else bool(polarity),
        confidence=(
            FOREIGN_CONFIDENCE if confidence is None else min(1.0, max(0.0, float(confidence)))
        ),
        kind=kind,
        author=_value(metadata, "author"),
        valid_at=_time(_value(metadata, "valid_at"), written_at),
        recorded_at=_time(
            _value(metadata, "recorded_at"), _time(_value(metadata, "valid_at"), written_at)
        ),
        created_at=created_at,
        status=status,
        superseded_by=_value(metadata, "superseded_by"),
        consolidated_into=_value(metadata, "consolidated_into"),
        source=Source(
            session_id=_value(metadata, "source_session"),
            event_ids=[str(e) for e in event_ids] if isinstance(event_ids, list) else [],
        ),
        hits=int(hits or 0),
        last_accessed_at=_value(metadata, "last_accessed_at"),
    )


def status_filter_groups(wanted: set[Status]) -> list[dict[str, Any]] | None:
    """Metadata `filterGroups` (OR of ANDs) matching records with one of `wanted` statuses.

    Memories without a status read as active, so when `active` is wanted the filter excludes
    the other statuses (a negated filter matches a missing key) instead of naming `active`.
    None means no filter (every status wanted).
    """
    unwanted = sorted(set(Status) - wanted)
    if not unwanted:
        return None
    if Status.ACTIVE in wanted:
        return [
            {"filters": [{"key": STATUS, "value": _s(s.value), "negate": True} for s in unwanted]}
        ]
    return [{"filters": [{"key": STATUS, "value": _s(s.value)}]} for s in sorted(wanted)]


def slot_filter_groups(subject: str, predicate: str) -> list[dict[str, Any]]:
    """`filterGroups` matching the active records of one (subject, predicate) slot."""
    filters = [
        {"key": "predicate", "value": _s(predicate)},
        *status_filter_groups({Status.ACTIVE})[0]["filters"],  # type: ignore[index]
    ]
    if subject:
        filters.append({"key": "subject", "value": _s(subject)})
    return [{"filters": filters}]


def rid_filter_groups(record_id: str) -> list[dict[str, Any]]:
    """`filterGroups` matching the memories that carry one record id."""
    return [{"filters": [{"key": RID, "value": _s(record_id)}]}]


def scope_filter(scope: Scope) -> str:
    """An AIP-160 `filter` matching every memory of a user, markers included."""
    return f"scope.app_name={_quote(scope.app_name)} AND scope.user_id={_quote(scope.user_id)}"


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def distance_to_cosine(distance: float | None, metric: str) -> float:
    """Memory Bank's retrieval `distance` (smaller = closer) as a cosine similarity.

    The service does not document its metric. With `cosine` (the default, and what the
    emulator returns) `distance = 1 - cos`; with `euclidean` it is the L2 distance of unit
    vectors, so `cos = 1 - d^2 / 2`. The result is clamped to [-1, 1].
    """
    if distance is None:
        return 0.0
    cos = 1.0 - distance * distance / 2.0 if metric == "euclidean" else 1.0 - distance
    return max(-1.0, min(1.0, cos))
