"""Scope isolation at the store level under concurrent writers.

A child process churns two scopes of the same sqlite file (insert and delete the newest row of
one, then insert into the other: the pattern that once handed a deleted row's id to another
scope's insert),
while hypothesis drives two more connections writing example scopes and a third connection
searches, lists and gets after every write. Every read must return records of the asked scope
only, and every live record of an example scope must be found.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adk_memory.model import Scope, Status
from adk_memory.stores.base import ListFilter
from adk_memory.stores.sqlite.store import SqliteStore
from tests.helpers import make_record, vector

CHURN_SCOPES = (Scope(app_name="churn", user_id="x"), Scope(app_name="churn", user_id="y"))
#: Searches of each churned scope after every write of an example.
CHURN_SEARCHES = 12

CHURNER = textwrap.dedent(
    """
    import asyncio, sys
    from datetime import UTC, datetime
    import numpy as np
    from adk_memory.model import MemoryRecord, Scope
    from adk_memory.stores.sqlite.store import SqliteStore

    SCOPES = (Scope(app_name="churn", user_id="x"), Scope(app_name="churn", user_id="y"))
    T0 = datetime(2026, 1, 1, tzinfo=UTC)

    def record(scope, i, rng):
        v = rng.standard_normal(384).astype(np.float32)
        return MemoryRecord(
            scope=scope, text=f"churn {i} of {scope}", valid_at=T0, created_at=T0,
            embedding=(v / np.linalg.norm(v)).tolist(),
        )

    async def main() -> None:
        store = await SqliteStore(sys.argv[1]).open()
        rng = np.random.default_rng(7)
        kept = {scope: [] for scope in SCOPES}
        i = 0
        while True:
            scope = SCOPES[i % 2]
            keep = record(scope, i, rng)
            await store.upsert([keep])
            kept[scope].append(keep.id)
            # Insert and delete the newest row: before schema 4 sqlite handed its rowid to
            # the next insert, which goes to the other scope.
            temp = record(scope, i, rng)
            await store.upsert([temp])
            await store.delete(scope, [temp.id])
            if len(kept[scope]) > 20:
                await store.delete(scope, [kept[scope].pop(0)])
            if i == 0:
                print("ready", flush=True)
            i += 1

    asyncio.run(main())
    """
)


@dataclass
class Tally:
    searches: int = 0
    lists: int = 0
    gets: int = 0
    foreign: int = 0
    unreachable: int = 0
    examples: int = 0
    churn_hits: int = 0
    ops: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def shared_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("isolation") / "shared.db"
    child = subprocess.Popen(
        [sys.executable, "-c", CHURNER, str(path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        yield path
    finally:
        child.kill()
        child.wait()


TALLY = Tally()

_ops = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "c"]),  # example scope
        st.sampled_from([0, 1]),  # which writer connection
        st.sampled_from(["add", "add", "delete", "replace", "archive", "erase", "foreign"]),
    ),
    min_size=2,
    max_size=8,
)


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ops=_ops)
def test_reads_never_cross_scopes_under_concurrent_writers(shared_file: Path, ops) -> None:
    TALLY.examples += 1
    example = TALLY.examples

    async def scenario() -> None:
        writers = [await SqliteStore(shared_file).open() for _ in range(2)]
        reader = await SqliteStore(shared_file).open()
        live: dict[Scope, set[str]] = {}
        every_id: dict[str, Scope] = {}
        rng = np.random.default_rng(example)
        try:
            for i, (name, w, op) in enumerate(ops):
                scope = Scope(app_name=f"iso-{example}", user_id=name)
                mine = live.setdefault(scope, set())
                writer = writers[w]
                others = [x for s, ids in live.items() if s != scope for x in ids]
                if op == "add" or not mine:
                    record = make_record(scope, f"user fact {i} of {scope}")
                    await writer.upsert([record])
                    mine.add(record.id)
                    every_id[record.id] = scope
                elif op == "delete":
                    victim = sorted(mine)[0]
                    assert await writer.delete(scope, [victim, *others]) == [victim]
                    mine.discard(victim)
                elif op == "replace":
                    new = make_record(scope, f"user fact {i} replaces one of {scope}")
                    target = sorted(mine)[0]
                    superseded = await writer.replace(new, [target, *others])
                    assert set(superseded) <= {target}
                    mine.add(new.id)
                    every_id[new.id] = scope
                elif op == "archive":
                    assert await writer.set_status(scope, others, Status.ARCHIVED) == []
                elif op == "erase":
                    assert await writer.erase(scope) == len(mine)
                    mine.clear()
                else:  # aim writes of this scope at another scope's ids
                    assert await writer.delete(scope, others) == []
                await _check_reads(reader, live, every_id, rng)
        finally:
            for store in (*writers, reader):
                await store.close()

    asyncio.run(scenario())


async def _check_reads(
    reader: SqliteStore,
    live: dict[Scope, set[str]],
    every_id: dict[str, Scope],
    rng: np.random.Generator,
) -> None:
    q = "user fact"
    for scope, ids in live.items():
        hits = await reader.search(scope, vector=vector(q), query=q, k=50, statuses=list(Status))
        TALLY.searches += 1
        found = {h.record.id for h in hits}
        TALLY.foreign += sum(h.record.scope != scope for h in hits)
        TALLY.unreachable += len(ids - found)
        assert {h.record.scope for h in hits} <= {scope}
        assert found == ids  # every live record reachable, nothing else
        page = await reader.list_page(scope, filters=ListFilter(statuses=list(Status)))
        TALLY.lists += 1
        assert {r.id for r in page.records} == ids
    for memory_id, owner in list(every_id.items())[-6:]:
        for scope in live:
            got = await reader.get(memory_id, scope)
            TALLY.gets += 1
            if scope != owner:
                assert got is None
    # Bursts of searches of the churned scopes: a leak needs a write to land between a
    # search's index sync and its record fetch.
    for scope in CHURN_SCOPES * CHURN_SEARCHES:
        v = rng.standard_normal(384).astype(np.float32)
        hits = await reader.search(scope, vector=v / np.linalg.norm(v), k=20)
        TALLY.searches += 1
        TALLY.churn_hits += len(hits)
        TALLY.foreign += sum(h.record.scope != scope for h in hits)
        assert {h.record.scope for h in hits} <= {scope}


def test_tally_of_the_isolation_run(capsys: pytest.CaptureFixture[str]) -> None:
    """Reports the property test's counts (run with -s to see them)."""
    with capsys.disabled():
        print(
            f"\nscope isolation: {TALLY.examples} examples, {TALLY.searches} searches "
            f"({TALLY.churn_hits} hits in churned scopes), {TALLY.lists} lists, "
            f"{TALLY.gets} scoped gets, {TALLY.foreign} foreign records, "
            f"{TALLY.unreachable} unreachable"
        )
    assert TALLY.foreign == 0 and TALLY.unreachable == 0
