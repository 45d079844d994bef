"""Faults: bounded retries, clear errors, and an index that catches up after an outage."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from adk_memory.errors import BackendError
from adk_memory.model import Scope
from adk_memory.testing.emulator import EmulatorServer
from tests.helpers import make_record, vector
from tests.stores.vector_search.support import (
    datapoints,
    emulator_store,
    new_deployment,
    set_faults,
)

ALICE = Scope(app_name="app", user_id="alice")


@pytest.fixture
def server(faulty_emulator: EmulatorServer) -> Iterator[EmulatorServer]:
    yield faulty_emulator
    set_faults(faulty_emulator)


async def test_transient_errors_are_retried(server: EmulatorServer, tmp_path: Path) -> None:
    store = await emulator_store(server, tmp_path / "d.db")
    try:
        set_faults(server, error_rate=0.5, error_code=503, seed=7)
        records = [make_record(ALICE, f"User fact number {i}.") for i in range(5)]
        for record in records:
            await store.upsert([record])
        q = "fact"
        for _ in range(5):
            hits = await store.search(ALICE, vector=vector(q), k=10)
            assert {h.record.id for h in hits} == {r.id for r in records}
        assert server.state.faults.injected > 0
    finally:
        await store.close()


async def test_hung_requests_time_out_and_are_retried(
    server: EmulatorServer, tmp_path: Path
) -> None:
    store = await emulator_store(server, tmp_path / "d.db", call_timeout=0.2)
    try:
        record = make_record(ALICE, "User likes jazz.")
        await store.upsert([record])
        set_faults(server, timeout_rate=0.5, timeout_ms=1_000, seed=3)
        q = "music"
        for _ in range(3):
            hits = await store.search(ALICE, vector=vector(q), k=3)
            assert [h.record.id for h in hits] == [record.id]
    finally:
        await store.close()


async def test_permission_denied_is_a_clear_backend_error(
    server: EmulatorServer, tmp_path: Path
) -> None:
    store = await emulator_store(server, tmp_path / "d.db")
    try:
        await store.upsert([make_record(ALICE, "User likes jazz.")])
        set_faults(server, outage_seconds=60, error_code=403)
        with pytest.raises(BackendError, match=r"roles/aiplatform\.user"):
            await store.search(ALICE, vector=vector("jazz"), k=3)
    finally:
        await store.close()


async def test_writes_survive_an_outage_and_the_index_catches_up(
    server: EmulatorServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    names = new_deployment(server)
    store = await emulator_store(server, tmp_path / "d.db", names, retry_attempts=2)
    try:
        set_faults(server, outage_seconds=60, error_code=503)
        record = make_record(ALICE, "User moved to Lisbon.")
        with caplog.at_level(logging.WARNING, "adk_memory.stores.vector_search.store"):
            await store.upsert([record])  # stored; the index update is queued
        assert "queued for retry" in caplog.text
        assert await store.get(record.id) is not None
        with pytest.raises(BackendError, match="after retries"):
            await store.search(ALICE, vector=vector("Lisbon"), k=3)
        set_faults(server)
        hits = await store.search(ALICE, vector=vector("where does the user live"), k=3)
        assert [h.record.id for h in hits] == [record.id]
        assert record.id in datapoints(server, names)
    finally:
        await store.close()


async def test_a_reopened_store_sends_what_a_crash_left_queued(
    server: EmulatorServer, tmp_path: Path
) -> None:
    names = new_deployment(server)
    store = await emulator_store(server, tmp_path / "d.db", names, retry_attempts=1)
    set_faults(server, outage_seconds=60, error_code=503)
    record = make_record(ALICE, "User has a cat named Miso.")
    await store.upsert([record])
    await store.close()
    set_faults(server)
    again = await emulator_store(server, tmp_path / "d.db", names)
    try:
        hits = await again.search(ALICE, vector=vector("pets"), k=3)
        assert [h.record.id for h in hits] == [record.id]
    finally:
        await again.close()
