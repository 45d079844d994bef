"""The sqlite store under crashes, concurrent writers and arbitrary scopes."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adk_memory.model import Scope, Status
from adk_memory.stores.base import ListFilter
from adk_memory.stores.sqlite.store import SqliteStore
from tests.helpers import make_record, vector

REPLACE_LOOP = textwrap.dedent(
    """
    import asyncio, sys
    from adk_memory.model import Scope
    from adk_memory.stores.sqlite.store import SqliteStore
    from tests.helpers import make_record

    async def main() -> None:
        store = await SqliteStore(sys.argv[1]).open()
        scope = Scope(app_name="crash", user_id="u")
        prev = make_record(scope, "User lives in city 0.", predicate="lives_in", obj="0")
        await store.upsert([prev])
        print("ready", flush=True)
        i = 1
        while True:
            new = make_record(scope, f"User lives in city {i}.", predicate="lives_in", obj=str(i))
            await store.replace(new, [prev.id])
            prev, i = new, i + 1

    asyncio.run(main())
    """
)


def _child(script: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", script, *args],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
    )


async def test_replace_is_atomic_when_the_process_is_killed(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    for round_ in range(3):
        child = _child(REPLACE_LOOP, str(path))
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        await asyncio.sleep(0.3 + 0.2 * round_)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        store = await SqliteStore(path).open()
        try:
            assert await store.integrity_check() == "ok"
            scope = Scope(app_name="crash", user_id="u")
            records = (await store.list_page(scope, limit=100_000)).records
            active = [r for r in records if r.status is Status.ACTIVE]
            ids = {r.id for r in records}
            # Exactly one current value, and every superseded one links to a stored record:
            # no new fact without the old one superseded, nor the reverse.
            assert len(active) == 1 or round_ > 0
            assert all(r.superseded_by in ids for r in records if r.status is Status.SUPERSEDED)
            if round_ == 0:
                assert len(records) > 1
        finally:
            await store.close()


WRITER = textwrap.dedent(
    """
    import asyncio, sys
    from adk_memory.factory import build_engine
    from adk_memory.model import Scope
    from adk_memory.stores.sqlite.store import SqliteStore

    async def main() -> None:
        engine = build_engine(await SqliteStore(sys.argv[1]).open())
        scope = Scope(app_name="shared", user_id=sys.argv[2])
        for i in range(25):
            await engine.remember(scope, f"Note {i} from writer {sys.argv[2]} about topic {i}.")
        await engine.close()

    asyncio.run(main())
    """
)


async def test_concurrent_writer_processes_share_one_file(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    reader = await SqliteStore(path).open()
    try:
        q = "note about topic"
        scope_a = Scope(app_name="shared", user_id="a")
        assert await reader.search(scope_a, vector=vector(q), query=q, k=5) == []
        children = [_child(WRITER, str(path), name) for name in ("a", "b", "a2")]
        for child in children:
            assert child.wait(timeout=120) == 0
        for user in ("a", "b", "a2"):
            page = await reader.list_page(Scope(app_name="shared", user_id=user), limit=1000)
            assert len(page.records) == 25
        # The reader's in-memory index follows writes made by other processes.
        hits = await reader.search(scope_a, vector=vector(q), query=q, k=100)
        assert len(hits) == 25 and {h.record.scope for h in hits} == {scope_a}
        assert await reader.integrity_check() == "ok"
    finally:
        await reader.close()


_names = st.sampled_from(["app", "app2", "x"])
_users = st.sampled_from(["alice", "bob", "carol", "Alice"])
_ops = st.lists(
    st.tuples(_names, _users, st.sampled_from(["add", "delete", "archive", "supersede"])),
    min_size=1,
    max_size=12,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=_ops)
def test_scope_isolation_holds_for_any_sequence_of_writes(tmp_path: Path, ops) -> None:
    async def scenario() -> None:
        path = tmp_path / f"iso-{time.monotonic_ns()}.db"
        store = await SqliteStore(path).open()
        owned: dict[Scope, set[str]] = {}
        try:
            for i, (app, user, op) in enumerate(ops):
                scope = Scope(app_name=app, user_id=user)
                mine = owned.setdefault(scope, set())
                others = [x for s, ids in owned.items() if s != scope for x in ids]
                if op == "add" or not mine:
                    record = make_record(scope, f"fact {i} of {scope}")
                    await store.upsert([record])
                    mine.add(record.id)
                elif op == "delete":
                    # Aiming at another scope's ids must never touch them.
                    assert await store.delete(scope, others) == []
                elif op == "archive":
                    assert await store.set_status(scope, others, Status.ARCHIVED) == []
                else:
                    new = make_record(scope, f"update {i} of {scope}")
                    assert await store.replace(new, others) == []
                    mine.add(new.id)
            q = "fact"
            for scope, ids in owned.items():
                listed = {r.id for r in (await store.list_page(scope, limit=1000)).records}
                assert listed == ids
                found = await store.search(
                    scope, vector=vector(q), query=q, k=100, statuses=list(Status)
                )
                assert {h.record.id for h in found} <= ids
                filtered = await store.list_page(
                    scope, filters=ListFilter(statuses=[Status.ACTIVE])
                )
                assert {r.id for r in filtered.records} == ids
        finally:
            await store.close()

    asyncio.run(scenario())


async def test_paths_with_spaces_and_uri_characters(tmp_path: Path) -> None:
    path = tmp_path / "my memories ?#%" / "memory.db"
    store = await SqliteStore(path).open()
    try:
        scope = Scope(app_name="a", user_id="u")
        await store.upsert([make_record(scope, "User plays the cello.")])
        q = "cello"
        [hit] = await store.search(scope, vector=vector(q), query=q, k=5)
        assert hit.lexical == 1.0  # the lexical reader connection opened the same file
    finally:
        await store.close()
