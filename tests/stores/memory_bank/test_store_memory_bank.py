"""Memory-Bank-specific store behaviour beyond the shared contract suite."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from adk_memory.errors import ConfigError, InvalidInputError
from adk_memory.model import MemoryRecord, Scope, Status
from adk_memory.stores.memory_bank import codec
from adk_memory.stores.memory_bank.generated import MemoryBankGeneratedStore
from adk_memory.stores.memory_bank.store import MemoryBankStore, is_loopback_url
from adk_memory.stores.uri import open_store
from adk_memory.testing.emulator import EmulatorServer
from tests.helpers import make_record, vector
from tests.stores.memory_bank.support import PROJECT, client_factory, new_engine

ALICE = Scope(app_name="app", user_id="alice")


async def test_interrupted_replace_reads_as_replaced_and_is_repaired(
    mb_store: MemoryBankStore,
) -> None:
    old = make_record(ALICE, "User lives in Berlin.", predicate="lives_in")
    await mb_store.upsert([old])
    new = make_record(ALICE, "User lives in Munich.", predicate="lives_in", days=1)
    # Only the commit write happened (a crash right after step 1 of replace).
    await _create_raw(mb_store, new, codec.encode_metadata(new, supersedes=[old.id]))
    q = "where does the user live"
    hits = await mb_store.search(ALICE, vector=vector(q), query=q, k=5)
    assert [h.record.id for h in hits] == [new.id]
    got = await mb_store.get(old.id)
    assert got is not None and got.status is Status.SUPERSEDED and got.superseded_by == new.id
    # The read repaired the store: the stored record itself is superseded now, the flag gone.
    raw_old = await mb_store.api.get_memory(codec.memory_id_for(old.id))
    raw_new = await mb_store.api.get_memory(codec.memory_id_for(new.id))
    assert codec.decode_record(raw_old).status is Status.SUPERSEDED  # type: ignore[union-attr]
    assert codec.supersedes_of(raw_new) == []


async def _create_raw(store: MemoryBankStore, record: MemoryRecord, metadata: Any) -> None:
    async def exists() -> None:
        raise AssertionError(f"{record.id} already exists")

    await store.api.create_memory(
        codec.memory_id_for(record.id),
        fact=record.text,
        scope=codec.scope_dict(record.scope),
        metadata=metadata,
        on_conflict=exists,
    )


async def test_search_needs_query_text(mb_store: MemoryBankStore) -> None:
    with pytest.raises(InvalidInputError):
        await mb_store.search(ALICE, vector=vector("x"), query=None, k=3)


async def test_search_caps_k_at_100(mb_store: MemoryBankStore) -> None:
    await mb_store.upsert([make_record(ALICE, f"Note {i} about the user.") for i in range(110)])
    hits = await mb_store.search(ALICE, vector=vector("note"), query="note", k=500)
    assert len(hits) == mb_store.max_search_k == 100


async def test_markers_stay_out_of_records_and_adk_retrievals(
    emulator: EmulatorServer, mb_store: MemoryBankStore
) -> None:
    await mb_store.upsert([make_record(ALICE, "User likes tea.")])
    await mb_store.mark_events_seen(ALICE, ["ev-1"])
    assert [r.text for r in (await mb_store.list_page(ALICE)).records] == ["User likes tea."]
    async with httpx.AsyncClient() as http:
        body = (
            await http.post(
                f"{emulator.base_url}/v1beta1/{mb_store.engine}/memories:retrieve",
                json={"scope": codec.scope_dict(ALICE), "simpleRetrievalParams": {"pageSize": 100}},
            )
        ).json()
    assert [m["memory"]["fact"] for m in body["retrievedMemories"]] == ["User likes tea."]


async def test_open_store_from_uri_with_emulator_env(
    emulator: EmulatorServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GOOGLE_VERTEX_BASE_URL", emulator.base_url)
    engine = new_engine(emulator)
    store = await open_store(f"adkmem+memorybank://{engine}?consolidation=server&timeout=5")
    assert isinstance(store, MemoryBankGeneratedStore) and store.consolidation == "server"
    await store.close()
    store = await open_store(f"adkmem+memorybank://{engine}?timeout=5")
    assert type(store) is MemoryBankStore and store.consolidation == "client"
    await store.close()
    missing = engine.rsplit("/", 1)[0] + "/777"
    with pytest.raises(ConfigError, match="not found"):
        await open_store(f"adkmem+memorybank://{missing}?retries=1")
    with pytest.raises(ConfigError):
        await open_store(f"adkmem+memorybank://{engine}?consolidation=maybe")
    with pytest.raises(ConfigError):
        await open_store("adkmem+memorybank://projects/p/reasoningEngines/1")


def test_loopback_detection() -> None:
    assert is_loopback_url("http://127.0.0.1:8080")
    assert is_loopback_url("http://127.1.2.3")
    assert is_loopback_url("http://localhost:1")
    assert is_loopback_url("http://[::1]:9")
    assert not is_loopback_url("https://us-central1-aiplatform.googleapis.com/")
    assert not is_loopback_url("http://10.0.0.1")


def test_emulator_data_survives_restart(tmp_path: Path) -> None:
    data = tmp_path / "emulator.json"
    with EmulatorServer(data_path=data) as first:
        engine = new_engine(first)
        httpx.post(
            f"{first.base_url}/v1beta1/{engine}/memories",
            json={"fact": "User likes tea.", "scope": {"app_name": "a", "user_id": "u"}},
        ).raise_for_status()
    with EmulatorServer(data_path=data) as second:
        body = httpx.post(
            f"{second.base_url}/v1beta1/{engine}/memories:retrieve",
            json={
                "scope": {"app_name": "a", "user_id": "u"},
                "similaritySearchParams": {"searchQuery": "tea"},
            },
        ).json()
        assert [m["memory"]["fact"] for m in body["retrievedMemories"]] == ["User likes tea."]
    assert PROJECT in engine


async def test_fault_admin_endpoint(emulator: EmulatorServer) -> None:
    async with httpx.AsyncClient() as http:
        state = (await http.get(f"{emulator.base_url}/emulator/faults")).json()
    assert state["config"]["error_rate"] == 0.0
    assert client_factory  # the SDK client builder is shared with the contract suite
