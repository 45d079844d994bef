"""Timestamp bounds at both ends: out-of-range input is a typed error and never stored, and a
bad value already on disk never makes a user's memory unreadable."""

from __future__ import annotations

import math
import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from adk_memory.errors import InvalidInputError
from adk_memory.factory import build_engine
from adk_memory.model import (
    MAX_TIMESTAMP,
    MIN_TIMESTAMP,
    Fact,
    InputEvent,
    MemoryRecord,
    Scope,
    Status,
    parse_timestamp,
)
from adk_memory.stores.sqlite.store import SqliteStore
from tests.helpers import T0, make_record, vector

SCOPE = Scope(app_name="ts", user_id="u")
LAST = MAX_TIMESTAMP - timedelta(microseconds=1)

ACCEPTED = {
    "1900-01-01T00:00:00Z": MIN_TIMESTAMP,
    "8999-12-31T23:59:59.999999Z": LAST,
    "1900-01-01T05:00:00+05:00": MIN_TIMESTAMP,
    "8999-12-31T23:59:59.999999+00:00": LAST,
    "2026-01-01T00:00:00-23:59": datetime(2026, 1, 1, 23, 59, tzinfo=UTC),
    "2026-01-01T00:00:00.123456+05:45": datetime(2025, 12, 31, 18, 15, 0, 123456, tzinfo=UTC),
    "2026-01-01": datetime(2026, 1, 1, tzinfo=UTC),
}
REJECTED: list[object] = [
    "9999-12-31T23:59:59.999999Z",
    "9000-01-01T00:00:00Z",
    "8999-12-31T23:59:59-00:01",  # 9000-01-01T00:00:59 in UTC
    "1899-12-31T23:59:59.999999Z",
    "1900-01-01T00:00:00+00:01",  # 1899-12-31T23:59 in UTC
    "0001-01-01T00:00:00+01:00",  # not representable in UTC at all
    "0001-01-01T00:00:00-23:59",
    "9999-12-31T23:59:59-23:59",
    "2026-01-01T00:00:00+24:00",
    "2026-01-01T00:00:00+99:99",
    "2026-13-01T00:00:00Z",
    "",
    "now",
    "1e20",
    math.nan,
    math.inf,
    -math.inf,
    1e20,
    -1e20,
    10**400,
    -(10**400),
    MAX_TIMESTAMP.timestamp(),
    MIN_TIMESTAMP.timestamp() - 1e-3,
    253402300799.999999,  # the float of 9999-12-31T23:59:59.999999Z
    True,
    None,
    datetime.max,
    datetime.min,
    datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=1))),
    datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
]


@pytest.mark.parametrize(("text", "expected"), sorted(ACCEPTED.items()))
def test_accepted_strings_at_both_ends(text: str, expected: datetime) -> None:
    assert parse_timestamp(text) == expected


def test_accepted_numbers_at_both_ends_and_negative() -> None:
    assert parse_timestamp(MIN_TIMESTAMP.timestamp()) == MIN_TIMESTAMP
    assert parse_timestamp(-1_000_000_000) == datetime(1938, 4, 24, 22, 13, 20, tzinfo=UTC)
    assert parse_timestamp(0) == datetime(1970, 1, 1, tzinfo=UTC)
    assert parse_timestamp(MAX_TIMESTAMP.timestamp() - 1) == MAX_TIMESTAMP - timedelta(seconds=1)


@pytest.mark.parametrize("value", REJECTED, ids=repr)
def test_rejected_values_are_a_typed_error_naming_the_problem(value: object) -> None:
    with pytest.raises(InvalidInputError) as caught:
        parse_timestamp(value)  # type: ignore[arg-type]
    assert "timestamp" in str(caught.value)
    assert len(str(caught.value)) < 300  # a huge input is not echoed whole


def test_the_range_is_stated_in_the_error() -> None:
    with pytest.raises(InvalidInputError, match="1900-01-01 to 9000-01-01 UTC"):
        parse_timestamp("9999-12-31T23:59:59.999999Z")
    with pytest.raises(InvalidInputError, match="1900-01-01 to 9000-01-01 UTC"):
        parse_timestamp(1e20)


_anything = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.text(max_size=40),
    st.datetimes(timezones=st.one_of(st.none(), st.timezones())),
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)).map(
        lambda d: d.isoformat()
    ),
)


@settings(max_examples=400, deadline=None)
@given(value=_anything)
def test_any_value_parses_in_range_or_is_invalid_input(value: object) -> None:
    try:
        parsed = parse_timestamp(value)  # type: ignore[arg-type]
    except InvalidInputError:
        return
    assert parsed.tzinfo is not None
    assert MIN_TIMESTAMP <= parsed < MAX_TIMESTAMP
    # Whatever is accepted can be stored as a POSIX float and read back.
    assert abs(parse_timestamp(parsed.timestamp()) - parsed) < timedelta(milliseconds=1)


@pytest.mark.parametrize(
    "bad",
    [
        datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        datetime(1, 1, 1, tzinfo=UTC),
        datetime(1899, 12, 31, tzinfo=UTC),
        "9999-12-31T23:59:59.999999Z",
    ],
    ids=repr,
)
def test_every_model_datetime_field_rejects_out_of_range(bad: object) -> None:
    with pytest.raises(ValidationError):
        InputEvent(author="user", text="hi", timestamp=bad)  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        Fact(subject="user", predicate="said", object="", text="hi", valid_at=bad)  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        Fact(subject="user", predicate="said", object="", text="hi", valid_at=T0, recorded_at=bad)  # type: ignore[arg-type]
    for field in ("valid_at", "recorded_at", "created_at", "last_accessed_at"):
        fields: dict[str, object] = {"valid_at": T0, "created_at": T0, field: bad}
        with pytest.raises(ValidationError):
            MemoryRecord(scope=SCOPE, text="hi", **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [math.nan, math.inf, 1e20, -1e20], ids=repr)
def test_input_events_reject_non_finite_and_huge_epochs(bad: float) -> None:
    with pytest.raises(ValidationError, match="timestamp"):
        InputEvent(author="user", text="hi", timestamp=bad)


async def test_the_store_refuses_a_record_changed_out_of_range_after_validation(
    tmp_path: Path,
) -> None:
    store = await SqliteStore(tmp_path / "m.db").open()
    try:
        good = make_record(SCOPE, "User likes tea.")
        # model_copy(update=...) skips validation: the store is the last line.
        bad = good.model_copy(update={"valid_at": datetime(9999, 12, 31, 23, 59, 59, 999999)})
        with pytest.raises(InvalidInputError, match="out of range"):
            await store.upsert([make_record(SCOPE, "User likes coffee."), bad])
        assert (await store.list_page(SCOPE)).records == []  # the whole write rolled back
        with pytest.raises(InvalidInputError):
            await store.record_hits(SCOPE, [good.id], datetime(1, 1, 1, tzinfo=UTC))
    finally:
        await store.close()


async def test_the_last_accepted_instant_round_trips_through_the_store(tmp_path: Path) -> None:
    store = await SqliteStore(tmp_path / "m.db").open()
    try:
        late = make_record(SCOPE, "User's far-future reminder.").model_copy(
            update={"valid_at": LAST, "recorded_at": MIN_TIMESTAMP}
        )
        await store.upsert([late])
        got = await store.get(late.id)
        assert got is not None
        assert MIN_TIMESTAMP <= got.valid_at <= LAST
        assert abs(got.valid_at - LAST) < timedelta(milliseconds=1)
        assert got.recorded_at == MIN_TIMESTAMP
    finally:
        await store.close()


@pytest.mark.parametrize(
    "stored",
    [253402300800.0, 1e300, -1e20, -62135596800.0 - 86400, float("inf"), "garbage"],
    ids=repr,
)
async def test_a_bad_value_on_disk_never_bricks_the_scope(tmp_path: Path, stored: object) -> None:
    path = tmp_path / "old.db"
    engine = build_engine(await SqliteStore(path).open())
    try:
        await engine.remember(SCOPE, "I live in Lisbon.")
        poisoned = await engine.remember(SCOPE, "My sister is called Ana.")
    finally:
        await engine.close()
    # As an older version (which accepted any date) could have left it.
    conn = sqlite3.connect(path)
    conn.execute(
        "UPDATE memories SET valid_at = ?, last_accessed_at = ? WHERE id = ?",
        (stored, stored, poisoned.id),
    )
    conn.commit()
    conn.close()

    engine = build_engine(await SqliteStore(path).open())
    try:
        listed = (await engine.list(SCOPE)).records
        assert {r.text for r in listed} == {"I live in Lisbon.", "My sister is called Ana."}
        for record in listed:
            assert MIN_TIMESTAMP <= record.valid_at < MAX_TIMESTAMP
        recalled = await engine.recall(SCOPE, "What is my sister called?")
        assert poisoned.id in {m.record.id for m in recalled}
        hits = await engine.store.search(
            SCOPE, vector=vector("sister"), query="sister", k=5, statuses=list(Status)
        )
        assert poisoned.id in {h.record.id for h in hits}
        assert (await engine.get(poisoned.id)).id == poisoned.id
        await engine.remember(SCOPE, "I work as a nurse.")
        await engine.forget(poisoned.id, SCOPE)
        assert len((await engine.list(SCOPE)).records) == 2
    finally:
        await engine.close()


async def test_the_engine_rejects_an_out_of_range_date_and_keeps_working(tmp_path: Path) -> None:
    engine = build_engine(await SqliteStore(tmp_path / "m.db").open())
    try:
        await engine.remember(SCOPE, "I live in Lisbon.")
        for bad in (datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC), datetime(1, 1, 1)):
            # InputEvent's validator rejects it (pydantic wraps the InvalidInputError).
            with pytest.raises((InvalidInputError, ValidationError), match="out of range"):
                await engine.remember(SCOPE, "I live in Porto.", at=bad)
        with pytest.raises((InvalidInputError, ValidationError)):
            event = InputEvent.model_construct(
                id="e1", author="user", text="I live in Porto.", timestamp=datetime(9999, 12, 31)
            )
            await engine.ingest(SCOPE, [event])
        listed = (await engine.list(SCOPE)).records
        assert [r.text for r in listed] == ["I live in Lisbon."]
        assert await engine.recall(SCOPE, "Where do I live?")
    finally:
        await engine.close()
