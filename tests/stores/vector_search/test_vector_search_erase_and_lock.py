"""Vector Search: erasing a user removes documents and datapoints; the reconcile lock crosses
stores (processes) that share the document file."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from adk_memory.errors import BackendError
from adk_memory.model import Scope, Status
from adk_memory.stores.vector_search.store import VectorSearchStore
from adk_memory.testing.emulator import EmulatorServer
from tests.helpers import make_record, vector
from tests.stores.vector_search.support import (
    datapoints,
    emulator_store,
    new_deployment,
    set_faults,
)

ALICE = Scope(app_name="app", user_id="alice")
BOB = Scope(app_name="app", user_id="bob")


async def test_erase_removes_documents_markers_and_datapoints(
    emulator: EmulatorServer, deployment: dict[str, str], vs_store: VectorSearchStore
) -> None:
    alice = [
        make_record(ALICE, "User likes tea."),
        make_record(ALICE, "User lived in Paris.", status=Status.ARCHIVED),
        make_record(ALICE, "User lives in Rome.", status=Status.SUPERSEDED),
    ]
    bob = make_record(BOB, "Bob likes tea.")
    await vs_store.upsert([*alice, bob])
    await vs_store.mark_events_seen(ALICE, ["ev-1"])
    assert set(datapoints(emulator, deployment)) == {r.id for r in [*alice, bob]}

    assert await vs_store.erase(ALICE) == 3
    assert set(datapoints(emulator, deployment)) == {bob.id}
    assert (await vs_store.list_page(ALICE)).records == []
    assert await vs_store.seen_events(ALICE, ["ev-1"]) == set()
    q = "tea"
    assert await vs_store.search(ALICE, vector=vector(q), query=q, k=5) == []
    assert [h.record.id for h in await vs_store.search(BOB, vector=vector(q), query=q, k=5)] == [
        bob.id
    ]
    assert await vs_store.erase(ALICE) == 0


async def test_erase_during_an_index_outage_fails_loudly_and_finishes_later(
    faulty_emulator: EmulatorServer, tmp_path: Path
) -> None:
    names = new_deployment(faulty_emulator)
    store = await emulator_store(faulty_emulator, tmp_path / "docs.db", names, retry_attempts=2)
    try:
        record = make_record(ALICE, "User likes tea.")
        await store.upsert([record])
        set_faults(faulty_emulator, error_rate=1.0, error_code=503)
        try:
            with pytest.raises(BackendError, match="queued for retry"):
                await store.erase(ALICE)
        finally:
            set_faults(faulty_emulator)
        assert await store.get(record.id) is None  # the documents went first
        assert record.id in datapoints(faulty_emulator, names)
        await store.flush()
        assert record.id not in datapoints(faulty_emulator, names)
    finally:
        await store.close()


async def test_reconcile_lock_excludes_another_store_on_the_same_documents(
    emulator: EmulatorServer, deployment: dict[str, str], tmp_path: Path
) -> None:
    docs = tmp_path / "shared-docs.db"
    first = await emulator_store(emulator, docs, deployment)
    second = await emulator_store(emulator, docs, deployment)
    acquired = asyncio.Event()

    async def take_second() -> None:
        async with second.reconcile_lock(ALICE):
            acquired.set()

    try:
        async with first.reconcile_lock(ALICE):
            waiter = asyncio.ensure_future(take_second())
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(asyncio.shield(acquired.wait()), timeout=0.3)
            async with second.reconcile_lock(BOB):
                pass  # another scope is not blocked
        await waiter
        assert acquired.is_set()
    finally:
        await first.close()
        await second.close()
