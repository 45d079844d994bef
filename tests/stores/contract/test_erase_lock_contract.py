"""`erase` and `reconcile_lock`: what every `MemoryStore` must do (every backend in
STORE_FACTORIES)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adk_memory.model import Scope, Status
from adk_memory.stores.base import MemoryStore
from tests.helpers import make_record, vector
from tests.stores.contract.conftest import STORE_FACTORIES

ALICE = Scope(app_name="erase-app", user_id="alice")
BOB = Scope(app_name="erase-app", user_id="bob")
ALICE_ELSEWHERE = Scope(app_name="erase-other", user_id="alice")

#: Backends whose `reconcile_lock` excludes other holders (Memory Bank cannot lock: its
#: lock is a no-op and its writers re-check after writing instead).
LOCKING = sorted(name for name in STORE_FACTORIES if name != "memorybank")


async def _all_ids(store: MemoryStore, scope: Scope) -> set[str]:
    return {r.id for r in (await store.list_page(scope, limit=1000)).records}


async def test_erase_removes_every_status_marker_and_index_entry_of_the_scope_only(
    store: MemoryStore,
) -> None:
    active = make_record(ALICE, "Alice lives in Porto.", predicate="lives_in", obj="porto")
    old = make_record(ALICE, "Alice lived in Faro.", status=Status.SUPERSEDED, event_ids=["e2"])
    archived = make_record(ALICE, "Alice went hiking once.", status=Status.ARCHIVED)
    bobs = make_record(BOB, "Bob lives in Porto.")
    elsewhere = make_record(ALICE_ELSEWHERE, "Alice lives in Porto, says the other app.")
    await store.upsert([active, old, archived])
    await store.upsert([bobs])
    await store.upsert([elsewhere])
    await store.mark_events_seen(ALICE, ["e1", "e2"])
    await store.mark_events_seen(BOB, ["e1"])
    q = "Where does Alice live? Porto"
    # The in-memory / lexical indexes hold the scope before the erase.
    assert await store.search(ALICE, vector=vector(q), query=q, k=10, statuses=list(Status))

    assert await store.erase(ALICE) == 3

    assert await _all_ids(store, ALICE) == set()
    assert await store.search(ALICE, vector=vector(q), query=q, k=10, statuses=list(Status)) == []
    for record in (active, old, archived):
        assert await store.get(record.id) is None
    assert await store.seen_events(ALICE, ["e1", "e2"]) == set()
    assert ALICE not in await store.scopes()
    # Nothing of the other scopes moved.
    assert await _all_ids(store, BOB) == {bobs.id}
    assert await _all_ids(store, ALICE_ELSEWHERE) == {elsewhere.id}
    assert await store.seen_events(BOB, ["e1"]) == {"e1"}
    hits = await store.search(BOB, vector=vector(q), query=q, k=10)
    assert [h.record.id for h in hits] == [bobs.id]


async def test_erase_is_idempotent_and_the_scope_is_usable_afterwards(store: MemoryStore) -> None:
    await store.upsert([make_record(ALICE, "Alice keeps bees.")])
    assert await store.erase(ALICE) == 1
    assert await store.erase(ALICE) == 0
    assert await store.erase(Scope(app_name="never", user_id="seen")) == 0
    again = make_record(ALICE, "Alice keeps bees again.")
    await store.upsert([again])
    q = "bees"
    hits = await store.search(ALICE, vector=vector(q), query=q, k=10)
    assert [h.record.id for h in hits] == [again.id]
    assert await _all_ids(store, ALICE) == {again.id}


async def test_reconcile_lock_is_reentrant_for_its_holder_and_per_scope(
    store: MemoryStore,
) -> None:
    async with store.reconcile_lock(ALICE), store.reconcile_lock(ALICE):
        # Another scope is never held up by this one.
        async def other_scope() -> None:
            async with store.reconcile_lock(BOB):
                pass

        await asyncio.wait_for(other_scope(), timeout=30)
    # Released: it can be taken again.
    async with store.reconcile_lock(ALICE):
        pass


async def test_reconcile_lock_is_released_when_the_body_raises(store: MemoryStore) -> None:
    with pytest.raises(RuntimeError):
        async with store.reconcile_lock(ALICE):
            raise RuntimeError("classifier failed")
    async with store.reconcile_lock(ALICE):
        pass


@pytest.fixture(params=LOCKING)
async def locking_store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[MemoryStore]:
    async with STORE_FACTORIES[request.param](tmp_path) as opened:
        yield opened


async def test_reconcile_lock_excludes_a_second_holder_until_released(
    locking_store: MemoryStore,
) -> None:
    order: list[str] = []
    first_in = asyncio.Event()
    release_first = asyncio.Event()

    async def first() -> None:
        async with locking_store.reconcile_lock(ALICE):
            order.append("first in")
            first_in.set()
            await release_first.wait()
            order.append("first out")

    async def second() -> None:
        await first_in.wait()
        async with locking_store.reconcile_lock(ALICE):
            order.append("second in")

    tasks = [asyncio.create_task(first()), asyncio.create_task(second())]
    entered = asyncio.create_task(first_in.wait())
    await asyncio.wait([tasks[0], entered], return_when=asyncio.FIRST_COMPLETED)
    if tasks[0].done():  # it failed before it got in: report why instead of hanging
        entered.cancel()
        tasks[1].cancel()
        tasks[0].result()
    for _ in range(20):  # give the second task every chance to (wrongly) get in
        await asyncio.sleep(0)
    assert order == ["first in"]
    release_first.set()
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=30)
    assert order == ["first in", "first out", "second in"]
