"""Memory-Bank-specific store behaviour beyond the shared contract suite."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from adk_memory.errors import ConfigError, InvalidInputError
from adk_memory.model import InputEvent, Scope, Status
from adk_memory.stores.memory_bank import codec
from adk_memory.stores.memory_bank.store import MemoryBankStore, is_loopback_url
from adk_memory.stores.uri import open_store
from adk_memory.testing.emulator import EmulatorServer
from tests.helpers import T0, make_record, vector
from tests.stores.memory_bank.support import PROJECT, client_factory, emulator_store, new_engine

ALICE = Scope(app_name="app", user_id="alice")


async def test_interrupted_replace_reads_as_replaced_and_is_repaired(
    mb_store: MemoryBankStore,
) -> None:
    old = make_record(ALICE, "User lives in Berlin.", predicate="lives_in")
    await mb_store.upsert([old])
    new = make_record(ALICE, "User lives in Munich.", predicate="lives_in", days=1)
    # Only the commit write happened (a crash right after step 1 of replace).
    await mb_store._write(new, supersedes=[old.id])
    q = "where does the user live"
    hits = await mb_store.search(ALICE, vector=vector(q), query=q, k=5)
    assert [h.record.id for h in hits] == [new.id]
    got = await mb_store.get(old.id)
    assert got is not None and got.status is Status.SUPERSEDED and got.superseded_by == new.id
    # The read repaired the store: the stored record itself is superseded now, the flag gone.
    raw_old = await mb_store._get_memory(codec.memory_id_for(old.id))
    raw_new = await mb_store._get_memory(codec.memory_id_for(new.id))
    assert codec.decode_record(raw_old).status is Status.SUPERSEDED  # type: ignore[union-attr]
    assert codec.supersedes_of(raw_new) == []
    assert await mb_store._pending(ALICE) == {}


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
    assert isinstance(store, MemoryBankStore) and store.consolidation == "server"
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


async def test_server_consolidation_generates_searchable_records(emulator: EmulatorServer) -> None:
    store = emulator_store(emulator, consolidation="server")
    events = [
        InputEvent(id="e1", author="user", text="I like green tea. Do you?", timestamp=T0),
        InputEvent(id="e2", author="model", text="I do not drink.", timestamp=T0),
    ]
    ids = await store.generate_from_events(ALICE, events)
    assert len(ids) == 1
    again = await store.generate_from_events(ALICE, events[:1])
    assert again == ids  # consolidated: updated, not duplicated
    hits = await store.search(ALICE, vector=vector("tea"), query="tea", k=5)
    assert [h.record.text for h in hits] == ["I like green tea."]
    record = make_record(ALICE, "User plays the violin.")
    await store.upsert([record])
    got = await store.get(record.id, ALICE)
    assert got is not None and got.text == "User plays the violin."
    await store.close()


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
