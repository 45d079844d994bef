"""Personal data on disk: private file modes, and erase leaves no recoverable text."""

from __future__ import annotations

import asyncio
import stat
from pathlib import Path

from adk_memory.model import Scope, Status
from adk_memory.stores.sqlite.store import SqliteStore
from tests.helpers import make_record, vector

ALICE = Scope(app_name="app", user_id="alice")
BOB = Scope(app_name="app", user_id="bob")
PHRASE = "Quokkazanzibar Vexillology Plumtree"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _file_bytes(path: Path) -> bytes:
    out = b""
    for suffix in ("", "-wal", "-journal"):
        candidate = path.with_name(path.name + suffix)
        if candidate.exists():
            out += candidate.read_bytes()
    return out


async def test_database_wal_shm_and_lock_files_are_private(tmp_path: Path) -> None:
    path = tmp_path / "new" / "nested" / "memory.db"
    store = await SqliteStore(path).open()
    try:
        await store.upsert([make_record(ALICE, "Alice keeps bees.")])
        async with store.reconcile_lock(ALICE):
            pass
        files = [path, path.with_name("memory.db-wal"), path.with_name("memory.db-shm")]
        locks = path.with_name("memory.db-locks")
        files += list(locks.iterdir())
        assert len(files) == 4
        for file in files:
            assert _mode(file) == 0o600, file
        for folder in (tmp_path / "new", path.parent, locks):
            assert _mode(folder) == 0o700, folder
    finally:
        await store.close()


async def test_an_existing_file_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    store = await SqliteStore(path).open()
    await store.close()
    path.chmod(0o640)
    store = await SqliteStore(path).open()
    await store.close()
    assert _mode(path) == 0o640


async def test_erased_text_is_not_in_the_database_or_wal_bytes(tmp_path: Path) -> None:
    path = tmp_path / "erase.db"
    store = await SqliteStore(path).open()
    try:
        # Enough rows that the text spans pages, FTS segments and WAL frames.
        records = [
            make_record(ALICE, f"{PHRASE} number {i}: Alice's secret {i}.") for i in range(60)
        ]
        records[0] = make_record(ALICE, f"{PHRASE} " + "long text " * 600)  # overflow pages
        await store.upsert(records[:30])
        await store.upsert(records[30:])
        await store.set_status(ALICE, [records[1].id], Status.ARCHIVED)
        await store.delete(ALICE, [records[2].id])
        await store.upsert([make_record(BOB, "Bob keeps a Plumtree diary.")])
        q = PHRASE
        assert await store.search(ALICE, vector=vector(q), query=q, k=5)
        haystack = _file_bytes(path)
        for needle in (PHRASE.encode(), b"quokkazanzibar"):  # the FTS term, lower-cased
            assert needle in haystack  # the scan can see the text while it is stored

        assert await store.erase(ALICE) == 59

        haystack = _file_bytes(path)
        for needle in (PHRASE.encode(), b"Quokkazanzibar", b"quokkazanzibar", b"vexillologi"):
            assert needle not in haystack, needle
        # The other user's text is still there and still found.
        assert b"Bob keeps a Plumtree diary." in haystack
        hits = await store.search(BOB, vector=vector("diary"), query="diary", k=5)
        assert len(hits) == 1
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()


async def test_other_connections_drop_the_erased_scope_from_their_index(tmp_path: Path) -> None:
    path = tmp_path / "two.db"
    eraser = await SqliteStore(path).open()
    reader = await SqliteStore(path).open()
    try:
        old = [make_record(ALICE, f"Alice fact {i}.") for i in range(5)]
        await eraser.upsert(old)
        q = "Alice fact"
        assert len(await reader.search(ALICE, vector=vector(q), k=5)) == 5
        await eraser.erase(ALICE)
        fresh = [make_record(ALICE, f"Alice new fact {i}.") for i in range(5)]
        await eraser.upsert(fresh)
        # The reader's index must not keep the erased rows in its top k.
        hits = await reader.search(ALICE, vector=vector(q), k=5)
        assert {h.record.id for h in hits} == {r.id for r in fresh}
    finally:
        await eraser.close()
        await reader.close()


async def test_erase_under_the_lock_removes_the_scope_lock_file_and_waiters_stay_exclusive(
    tmp_path: Path,
) -> None:
    path = tmp_path / "locks.db"
    stores = [await SqliteStore(path).open() for _ in range(3)]
    first, second, third = stores
    locks = path.with_name("locks.db-locks")
    inside: list[str] = []
    overlaps: list[list[str]] = []
    try:
        await first.upsert([make_record(ALICE, "Alice keeps bees.")])

        async def hold(store: SqliteStore, name: str) -> None:
            async with store.reconcile_lock(ALICE):
                inside.append(name)
                if len(inside) > 1:
                    overlaps.append(list(inside))
                for _ in range(5):
                    await asyncio.sleep(0.01)
                inside.remove(name)

        async with first.reconcile_lock(ALICE):
            # The second store opens the lock file and waits on it.
            waiter = asyncio.create_task(hold(second, "second"))
            for _ in range(10):
                await asyncio.sleep(0.005)
            assert await first.erase(ALICE) == 1
            assert list(locks.iterdir()) == []  # the hashed scope name is gone too
        # The waiter got the orphaned file's lock: it must re-lock the current file, and so
        # exclude (or be excluded by) a third store arriving now.
        await asyncio.gather(waiter, hold(third, "third"))
        assert overlaps == []
        # Without holding the lock, erase leaves the lock file alone (another process may
        # hold it).
        async with first.reconcile_lock(ALICE):
            pass
        assert len(list(locks.iterdir())) == 1
        await first.erase(ALICE)
        assert len(list(locks.iterdir())) == 1
    finally:
        for store in stores:
            await store.close()
