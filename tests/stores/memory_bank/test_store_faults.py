"""The Memory Bank store under injected faults: bounded retries, bounded failure time."""

from __future__ import annotations

import time

import pytest

from adk_memory.errors import BackendError, ConfigError
from adk_memory.factory import build_engine
from adk_memory.model import Scope
from adk_memory.stores.memory_bank.store import MemoryBankStore
from adk_memory.testing.emulator import EmulatorServer
from tests.helpers import make_record, vector
from tests.stores.memory_bank.support import client_factory, emulator_store, set_faults

ALICE = Scope(app_name="app", user_id="alice")


@pytest.fixture(autouse=True)
def healthy_after(faulty_emulator: EmulatorServer) -> object:
    yield None
    set_faults(faulty_emulator)


async def test_ingest_under_20_percent_503s_loses_nothing(faulty_emulator: EmulatorServer) -> None:
    # Sequential writes make the seeded fault sequence reproducible; 10 attempts at 20 %
    # leave a 1e-7 chance per write of giving up.
    store = emulator_store(faulty_emulator, retry_attempts=10, max_concurrency=1)
    records = [make_record(ALICE, f"Fact {i}: the user owns item number {i}.") for i in range(200)]
    before = faulty_emulator.state.faults.injected
    set_faults(faulty_emulator, error_rate=0.2, error_code=503, seed=1)
    try:
        await store.upsert(records)
        await store.mark_events_seen(ALICE, [f"e{i}" for i in range(20)])
    finally:
        set_faults(faulty_emulator)
    assert faulty_emulator.state.faults.injected - before >= 20  # faults really happened
    page = await store.list_page(ALICE, limit=500)
    assert sorted(r.id for r in page.records) == sorted(r.id for r in records)
    assert await store.seen_events(ALICE, [f"e{i}" for i in range(20)]) == {
        f"e{i}" for i in range(20)
    }
    await store.close()


async def test_outage_makes_search_fail_fast_not_hang(faulty_emulator: EmulatorServer) -> None:
    store = emulator_store(faulty_emulator, retry_deadline=1.0, call_timeout=0.5)
    await store.upsert([make_record(ALICE, "User likes tea.")])
    set_faults(faulty_emulator, outage_seconds=5, error_code=503)
    start = time.monotonic()
    with pytest.raises(BackendError, match="after retries"):
        await store.search(ALICE, vector=vector("tea"), query="tea", k=3)
    assert time.monotonic() - start < 3.0
    await store.close()


async def test_hung_requests_time_out(faulty_emulator: EmulatorServer) -> None:
    store = emulator_store(faulty_emulator, retry_attempts=2, call_timeout=0.2)
    set_faults(faulty_emulator, timeout_rate=1.0, timeout_ms=2_000)
    start = time.monotonic()
    with pytest.raises(BackendError):
        await store.get("anything")
    assert time.monotonic() - start < 1.5
    await store.close()


async def test_permission_denied_is_a_clear_backend_error(faulty_emulator: EmulatorServer) -> None:
    store = emulator_store(faulty_emulator)
    set_faults(faulty_emulator, error_rate=1.0, error_code=403)
    with pytest.raises(BackendError, match=r"roles/aiplatform.user"):
        await store.search(ALICE, vector=vector("x"), query="x", k=3)
    await store.close()


async def test_missing_engine_is_a_config_error(faulty_emulator: EmulatorServer) -> None:
    store = MemoryBankStore(
        "projects/test-project/locations/us-central1/reasoningEngines/4040",
        client_factory=client_factory(faulty_emulator.base_url),
        retry_initial=0.01,
    )
    with pytest.raises(ConfigError, match="not found"):
        await store.verify()
    with pytest.raises(ConfigError, match="not found"):
        await store.upsert([make_record(ALICE, "x")])
    await store.close()


async def test_outage_makes_recall_return_empty_within_its_deadline(
    faulty_emulator: EmulatorServer,
) -> None:
    from adk_memory.adk.service import AdkMemoryService

    # The store alone would keep retrying for up to 30 s; the service's deadline bounds the
    # turn instead, and an agent gets "no memories", never an exception or a hang.
    store = emulator_store(faulty_emulator, retry_deadline=30.0, call_timeout=2.0)
    service = AdkMemoryService(build_engine(store), search_timeout_s=1.0)
    await store.upsert([make_record(ALICE, "User likes tea.")])
    set_faults(faulty_emulator, outage_seconds=5, error_code=503)
    start = time.monotonic()
    response = await service.search_memory(app_name="app", user_id="alice", query="tea")
    assert response.memories == []
    assert time.monotonic() - start < 2.0
    await service.close()
