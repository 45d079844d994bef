"""SIGKILL in the middle of an ingest (between any two of its store writes, REPLACE
included), then the same batch again: the state must equal one clean run's, with no double
reinforcement, no duplicate record or history entry, and a sound file."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from datetime import timedelta
from pathlib import Path
from typing import Any

from adk_memory.factory import build_engine
from adk_memory.model import InputEvent, Scope, Status
from adk_memory.stores.sqlite.store import SqliteStore
from tests.helpers import T0, FixedClock

SCOPE = Scope(app_name="crash", user_id="u")
BEFORE = [
    ("s1-e1", "I live in Lisbon."),
    ("s1-e2", "I work as a nurse."),
    ("s1-e3", "My sister is called Ana."),
]
# The batch that is killed: a REPLACE, a restatement (reinforcement), new facts, and a
# second REPLACE of the value this same batch wrote.
BATCH = [
    ("s2-e1", "I moved to Porto last month."),
    ("s2-e2", "I work as a nurse."),
    ("s2-e3", "I'm allergic to peanuts."),
    ("s2-e4", "My favourite colour is green."),
    ("s2-e5", "Actually, I now live in Braga."),
]

CHILD = textwrap.dedent(
    """
    import asyncio, os, signal, sys
    from adk_memory.factory import build_engine
    from adk_memory.stores.sqlite.store import SqliteStore
    from tests.reliability.test_crash_rerun import SCOPE, BEFORE, BATCH, events
    from tests.helpers import FixedClock, T0

    class KillAfter:
        \"\"\"A store that SIGKILLs its own process right after its n-th write.\"\"\"

        def __init__(self, inner, n):
            self.inner, self.n, self.writes = inner, n, 0

        def __getattr__(self, name):
            return getattr(self.inner, name)

        async def _write(self, name, *args, **kwargs):
            result = await getattr(self.inner, name)(*args, **kwargs)
            self.writes += 1
            if self.n and self.writes >= self.n:
                os.kill(os.getpid(), signal.SIGKILL)
            return result

        async def upsert(self, *a, **k): return await self._write("upsert", *a, **k)
        async def replace(self, *a, **k): return await self._write("replace", *a, **k)
        async def set_status(self, *a, **k): return await self._write("set_status", *a, **k)
        async def delete(self, *a, **k): return await self._write("delete", *a, **k)
        async def mark_events_seen(self, *a, **k):
            return await self._write("mark_events_seen", *a, **k)

    async def main() -> None:
        store = await SqliteStore(sys.argv[1]).open()
        engine = build_engine(store, clock=FixedClock(T0))
        await engine.ingest(SCOPE, events(BEFORE, 0))
        killer = KillAfter(store, int(sys.argv[2]))
        engine = build_engine(killer, clock=FixedClock(T0))
        await engine.ingest(SCOPE, events(BATCH, 1))
        print(f"writes {killer.writes}", flush=True)
        await store.close()

    asyncio.run(main())
    """
)


def events(lines: list[tuple[str, str]], session: int) -> list[InputEvent]:
    return [
        InputEvent(
            id=event_id,
            author="user",
            text=text,
            timestamp=T0 + timedelta(days=session, minutes=i),
            session_id=f"s{session + 1}",
        )
        for i, (event_id, text) in enumerate(lines)
    ]


def _child(path: Path, kill_after: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), str(kill_after)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )


async def _state(path: Path) -> tuple[list[dict[str, Any]], set[str], str]:
    store = await SqliteStore(path).open()
    try:
        records = (await store.list_page(SCOPE, limit=1000)).records
        seen = await store.seen_events(SCOPE, [e for e, _ in BEFORE + BATCH])
        integrity = await store.integrity_check()
    finally:
        await store.close()
    dumped = sorted(
        (r.model_dump(mode="json", exclude={"embedding"}) for r in records),
        key=lambda d: str(d["id"]),
    )
    return dumped, seen, integrity


async def _rerun(path: Path) -> None:
    engine = build_engine(await SqliteStore(path).open(), clock=FixedClock(T0))
    try:
        await engine.ingest(SCOPE, events(BEFORE, 0))  # already done: must change nothing
        await engine.ingest(SCOPE, events(BATCH, 1))
    finally:
        await engine.close()


async def test_a_batch_killed_after_any_write_and_run_again_equals_one_clean_run(
    tmp_path: Path,
) -> None:
    counting = _child(tmp_path / "clean.db", 0)
    assert counting.stdout is not None
    out, _ = counting.communicate(timeout=300)
    assert counting.returncode == 0, out
    writes = int(out.split()[-1])
    assert writes >= 3  # the batch writes several times: there is a middle to kill in
    clean, clean_seen, _ = await _state(tmp_path / "clean.db")
    assert clean_seen == {e for e, _ in BEFORE + BATCH}
    assert [r for r in clean if r["status"] == "active" and r["predicate"] == "lives_in"]

    # Kill after every write of the batch but the last (after the last, nothing is left).
    paths = {n: tmp_path / f"killed-{n}.db" for n in range(1, writes)}
    children = {n: _child(path, n) for n, path in paths.items()}
    for n, child in children.items():
        child.communicate(timeout=300)
        assert child.returncode == -9, f"the child killed after write {n} was not killed"
    for n, path in paths.items():
        _, seen, integrity = await _state(path)
        assert integrity == "ok"
        assert seen != clean_seen, f"killed after write {n} yet the batch is marked done"
        await _rerun(path)
        state, seen, integrity = await _state(path)
        assert integrity == "ok"
        assert seen == clean_seen
        assert state == clean, f"killed after write {n} of {writes}, then re-run"

    # Running the finished batch once more changes nothing either.
    await _rerun(tmp_path / "clean.db")
    assert (await _state(tmp_path / "clean.db"))[0] == clean


async def test_history_of_the_slot_has_each_value_once_after_a_rerun(tmp_path: Path) -> None:
    path = tmp_path / "history.db"
    child = _child(path, 2)
    child.communicate(timeout=300)
    assert child.returncode == -9
    await _rerun(path)
    engine = build_engine(await SqliteStore(path).open(), clock=FixedClock(T0))
    try:
        active = (await engine.list(SCOPE, statuses=[Status.ACTIVE])).records
        homes = [r for r in active if r.predicate == "lives_in"]
        assert len(homes) == 1
        chain = await engine.history(homes[0].id)
        assert len({r.id for r in chain}) == len(chain)
        assert len({r.text for r in chain}) == len(chain)
    finally:
        await engine.close()
