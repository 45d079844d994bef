"""Four processes state a new value of one slot at the same instant on one sqlite file:
`reconcile_lock` serialises their read-decide-write, so exactly one value stays active."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from adk_memory.errors import BackendError
from adk_memory.model import Scope, Status
from adk_memory.stores.base import ListFilter
from adk_memory.stores.sqlite.store import SqliteStore

PROCESSES = 4
ROUNDS = 6

# Each round: wait for "go", then read the active home and replace it (or add the first),
# holding the lock over the read and the write as the engine does. A small pause between
# read and write widens the window a missing lock would lose.
RACER = textwrap.dedent(
    """
    import asyncio, sys
    from datetime import UTC, datetime
    from adk_memory.model import MemoryRecord, Scope, Status
    from adk_memory.stores.base import ListFilter
    from adk_memory.stores.sqlite.store import SqliteStore

    T0 = datetime(2026, 1, 1, tzinfo=UTC)

    async def main() -> None:
        store = await SqliteStore(sys.argv[1]).open()
        name = "p" + sys.argv[2]
        print("ready", flush=True)
        for line in sys.stdin:
            scope = Scope(app_name="race", user_id=line.strip())
            async with store.reconcile_lock(scope):
                page = await store.list_page(
                    scope, filters=ListFilter(statuses=[Status.ACTIVE], predicate="lives_in")
                )
                await asyncio.sleep(0.02)
                new = MemoryRecord(
                    scope=scope, text=f"User lives in city {name}.", predicate="lives_in",
                    object=name, valid_at=T0, created_at=T0, embedding=[1.0] + [0.0] * 7,
                )
                if page.records:
                    await store.replace(new, [r.id for r in page.records])
                else:
                    await store.upsert([new])
            print("done", flush=True)
        await store.close()

    asyncio.run(main())
    """
)


def _racers(script: str, path: Path) -> list[subprocess.Popen[str]]:
    children = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(path), f"{i}"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        for i in range(PROCESSES)
    ]
    for child in children:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    return children


def _race(children: list[subprocess.Popen[str]], lines: list[str]) -> None:
    """Sends each line to every child at once (as close to one instant as pipes allow),
    waits for all to finish it, then lets them exit."""
    try:
        for line in lines:
            for child in children:
                assert child.stdin is not None
                child.stdin.write(f"{line}\n")
                child.stdin.flush()
            for child in children:
                assert child.stdout is not None and child.stdout.readline().strip() == "done"
    finally:
        for child in children:
            assert child.stdin is not None
            child.stdin.close()
        for child in children:
            assert child.wait(timeout=120) == 0


async def test_four_processes_replacing_one_slot_leave_exactly_one_active(
    tmp_path: Path,
) -> None:
    path = tmp_path / "race.db"
    _race(_racers(RACER, path), [f"round{r}" for r in range(ROUNDS)])
    store = await SqliteStore(path).open()
    try:
        for round_ in range(ROUNDS):
            scope = Scope(app_name="race", user_id=f"round{round_}")
            records = (await store.list_page(scope, limit=100)).records
            active = [r for r in records if r.status is Status.ACTIVE]
            assert len(records) == PROCESSES
            assert len(active) == 1, [r.text for r in active]
            # A single chain: each value superseded by the next one written.
            superseded = [r for r in records if r.status is Status.SUPERSEDED]
            assert len({r.superseded_by for r in superseded}) == PROCESSES - 1
        q = np.asarray([1.0] + [0.0] * 7, dtype=np.float32)
        for round_ in range(ROUNDS):
            scope = Scope(app_name="race", user_id=f"round{round_}")
            hits = await store.search(scope, vector=q, k=10)
            assert len(hits) == 1
            page = await store.list_page(scope, filters=ListFilter(statuses=[Status.ACTIVE]))
            assert [h.record.id for h in hits] == [r.id for r in page.records]
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()


HOLDER = textwrap.dedent(
    """
    import asyncio, sys
    from adk_memory.model import Scope
    from adk_memory.stores.sqlite.store import SqliteStore

    async def main() -> None:
        store = await SqliteStore(sys.argv[1]).open()
        async with store.reconcile_lock(Scope(app_name="race", user_id="u")):
            print("holding", flush=True)
            await asyncio.sleep(3600)

    asyncio.run(main())
    """
)


def _holder(path: Path) -> subprocess.Popen[str]:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
    return holder


async def test_a_killed_holder_releases_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "held.db"
    holder = _holder(path)
    store = await SqliteStore(path, lock_timeout_s=0.2).open()
    try:
        scope = Scope(app_name="race", user_id="u")
        with pytest.raises(BackendError, match=r"timed out .* reconcile lock"):
            async with store.reconcile_lock(scope):
                raise AssertionError("got a lock another process holds")
        # Another scope is free meanwhile.
        async with store.reconcile_lock(Scope(app_name="race", user_id="other")):
            pass
        holder.kill()
        holder.wait()
        async with store.reconcile_lock(scope):  # the kernel dropped the dead holder's lock
            pass
    finally:
        holder.kill()
        holder.wait()
        await store.close()


ENGINE_RACER = textwrap.dedent(
    """
    import asyncio, sys
    from adk_memory.factory import build_engine
    from adk_memory.model import Scope
    from adk_memory.stores.sqlite.store import SqliteStore

    CITIES = ["Lisbon", "Porto", "Braga", "Faro", "Coimbra", "Evora", "Aveiro", "Viseu"]

    async def main() -> None:
        engine = build_engine(await SqliteStore(sys.argv[1]).open())
        me = int(sys.argv[2])
        await engine.recall(Scope(app_name="warm", user_id="up"), "warm the embedder")
        print("ready", flush=True)
        for line in sys.stdin:
            round_ = int(line)
            scope = Scope(app_name="engine-race", user_id=f"round{round_}")
            await engine.remember(scope, f"I live in {CITIES[(me + round_) % len(CITIES)]}.")
            print("done", flush=True)
        await engine.close()

    asyncio.run(main())
    """
)


async def test_four_engines_stating_a_new_home_at_once_leave_one_home(tmp_path: Path) -> None:
    path = tmp_path / "engine-race.db"
    _race(_racers(ENGINE_RACER, path), [str(r) for r in range(ROUNDS)])
    store = await SqliteStore(path).open()
    try:
        for round_ in range(ROUNDS):
            scope = Scope(app_name="engine-race", user_id=f"round{round_}")
            records = (await store.list_page(scope, limit=100)).records
            homes = [r for r in records if r.predicate == "lives_in"]
            active = [r.object for r in homes if r.status is Status.ACTIVE]
            assert len(homes) == PROCESSES
            assert len(active) == 1, active
    finally:
        await store.close()


async def test_a_new_file_another_connection_is_writing_opens_once_it_is_free(
    tmp_path: Path,
) -> None:
    """Switching a new file to WAL needs an exclusive lock, and sqlite refuses it at once
    (no busy wait) while another connection writes: the open waits and retries instead of
    failing (what four processes opening one new file at the same instant ran into)."""
    path = tmp_path / "new.db"
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("CREATE TABLE other_tool (a)")
    opening = asyncio.create_task(SqliteStore(path).open())
    await asyncio.sleep(0.3)
    assert not opening.done()  # neither opened under the lock nor failed
    writer.execute("COMMIT")
    writer.close()
    store = await opening
    try:
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()
