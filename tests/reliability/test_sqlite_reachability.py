"""Forget / insert / restart: every stored memory stays findable by search after a reopen."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from adk_memory.factory import build_engine
from adk_memory.model import Scope, Status
from adk_memory.stores.sqlite.store import SqliteStore
from tests.helpers import make_record, vector

SCOPE = Scope(app_name="reach", user_id="u")


async def _searchable_ids(path: Path, scope: Scope = SCOPE) -> set[str]:
    store = await SqliteStore(path).open()
    try:
        q = "user fact"
        hits = await store.search(scope, vector=vector(q), k=1000, statuses=list(Status))
        return {h.record.id for h in hits}
    finally:
        await store.close()


async def test_memories_written_right_after_a_forget_are_searchable_after_reopening(
    tmp_path: Path,
) -> None:
    path = tmp_path / "reach.db"
    store = await SqliteStore(path).open()
    kept: set[str] = set()
    try:
        for i in range(40):
            doomed = make_record(SCOPE, f"User fact {i} to be forgotten.")
            await store.upsert([doomed])
            assert await store.delete(SCOPE, [doomed.id]) == [doomed.id]
            # Written right after a delete of the newest row: the row id sqlite would reuse.
            survivor = make_record(SCOPE, f"User fact {i} that stays.")
            await store.upsert([survivor])
            kept.add(survivor.id)
    finally:
        await store.close()
    assert await _searchable_ids(path) == kept


async def test_an_open_reader_follows_deletes_and_inserts_of_another_connection(
    tmp_path: Path,
) -> None:
    path = tmp_path / "reader.db"
    reader = await SqliteStore(path).open()
    writer = await SqliteStore(path).open()
    kept: set[str] = set()
    q = "user fact"
    try:
        for i in range(20):
            doomed = make_record(SCOPE, f"User fact {i} to be forgotten.")
            await writer.upsert([doomed])
            # The reader indexes the doomed row before it is deleted.
            await reader.search(SCOPE, vector=vector(q), k=1000)
            await writer.delete(SCOPE, [doomed.id])
            survivor = make_record(SCOPE, f"User fact {i} that stays.")
            await writer.upsert([survivor])
            kept.add(survivor.id)
            hits = await reader.search(SCOPE, vector=vector(q), k=1000)
            assert {h.record.id for h in hits} == kept
    finally:
        await reader.close()
        await writer.close()


async def test_remember_forget_remember_then_recall_in_a_new_engine(tmp_path: Path) -> None:
    path = tmp_path / "engine.db"
    engine = build_engine(await SqliteStore(path).open())
    try:
        await engine.remember(SCOPE, "My cat is called Miso.")
        b = await engine.remember(SCOPE, "My favourite tea is genmaicha.")
        await engine.forget(b.id, SCOPE)
        c = await engine.remember(SCOPE, "I play the bassoon on Sundays.")
    finally:
        await engine.close()
    engine = build_engine(await SqliteStore(path).open())
    try:
        listed = {r.id for r in (await engine.list(SCOPE)).records}
        assert c.id in listed
        recalled = await engine.recall(SCOPE, "Which instrument do I play?")
        assert c.id in {m.record.id for m in recalled}
    finally:
        await engine.close()


def _legacy_file(path: Path) -> None:
    """A schema-3 file in the state the rowid-reuse bug left behind: a tombstone naming the
    rowid that a live row of the scope now holds."""
    from adk_memory.stores.sqlite.schema import MIGRATIONS, _statements

    conn = sqlite3.connect(path, isolation_level=None)
    for version, script in enumerate(MIGRATIONS[:3]):
        for statement in _statements(script):
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {version + 1}")
    conn.close()


async def test_migration_keeps_rows_reachable_and_never_reuses_a_tombstoned_rowid(
    tmp_path: Path,
) -> None:
    path = tmp_path / "legacy.db"
    _legacy_file(path)
    first = make_record(SCOPE, "User fact one.")
    reused = make_record(SCOPE, "User fact reusing a row.")
    conn = sqlite3.connect(path, isolation_level=None)
    columns = (
        "rowid, id, app_name, user_id, text, confidence, kind, valid_at, created_at, status, "
        "embedding, seq"
    )
    for rowid, record, seq in ((1, first, 1), (2, reused, 3)):
        conn.execute(
            f"INSERT INTO memories ({columns}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                rowid,
                record.id,
                SCOPE.app_name,
                SCOPE.user_id,
                record.text,
                0.9,
                "episodic",
                record.valid_at.timestamp(),
                record.created_at.timestamp(),
                "active",
                vector(record.text).tobytes(),
                seq,
            ),
        )
    # Row 2 once held a record deleted at seq 2, and a third row (3) was deleted too.
    conn.executemany(
        "INSERT INTO tombstones (app_name, user_id, id, row, seq) VALUES (?,?,?,?,?)",
        [(SCOPE.app_name, SCOPE.user_id, "gone", 2, 2), (SCOPE.app_name, SCOPE.user_id, "x", 3, 2)],
    )
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('dimension', '384')")
    conn.execute("UPDATE meta SET value = '3' WHERE key = 'seq'")
    conn.close()

    assert await _searchable_ids(path) == {first.id, reused.id}
    store = await SqliteStore(path).open()
    try:
        fresh = make_record(SCOPE, "User fact written after the upgrade.")
        await store.upsert([fresh])
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()
    assert await _searchable_ids(path) == {first.id, reused.id, fresh.id}
    conn = sqlite3.connect(path)
    [(rowid,)] = conn.execute("SELECT rowid FROM memories WHERE id = ?", (fresh.id,)).fetchall()
    conn.close()
    assert rowid > 3  # never a rowid a tombstone names
