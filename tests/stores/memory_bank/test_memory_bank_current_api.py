"""Memory Bank's current API through the real SDK and the emulator: IngestEvents for generated
memories, purge for erase, the single-valued slot re-check, and the upgrade from ADK's own
`agentengine://` service."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from google.adk.events.event import Event
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.memory.vertex_ai_memory_bank_service import VertexAiMemoryBankService
from google.genai import types
from google.oauth2.credentials import Credentials

from adk_memory.model import Scope, Status
from adk_memory.stores.memory_bank import codec
from adk_memory.stores.memory_bank.generated import MemoryBankGeneratedStore
from adk_memory.stores.memory_bank.store import MemoryBankStore
from adk_memory.stores.uri import open_store
from adk_memory.testing.emulator import EmulatorServer
from tests.helpers import make_record, vector
from tests.stores.memory_bank.support import (
    LOCATION,
    PROJECT,
    client_factory,
    emulator_store,
    new_engine,
)

ALICE = Scope(app_name="app", user_id="alice")
BOB = Scope(app_name="app", user_id="bob")


async def _raw_memories(server: EmulatorServer, engine: str, scope: dict[str, str]) -> list[Any]:
    async with httpx.AsyncClient() as http:
        body = (
            await http.post(
                f"{server.base_url}/v1beta1/{engine}/memories:retrieve",
                json={"scope": scope, "simpleRetrievalParams": {"pageSize": 100}},
            )
        ).json()
    return [m["memory"] for m in body.get("retrievedMemories", [])]


async def test_generated_store_writes_through_ingest_events(emulator: EmulatorServer) -> None:
    generated = emulator_store(emulator, store_class=MemoryBankGeneratedStore)
    try:
        record = make_record(ALICE, "User plays the violin.")
        await generated.upsert([record])
        got = await generated.get(record.id, ALICE)
        assert got is not None and got.text == "User plays the violin."
        assert got.status is Status.ACTIVE
        raw = await _raw_memories(emulator, generated.engine, codec.scope_dict(ALICE))
        # Memory Bank named the memory; our record id travels in its metadata.
        assert len(raw) == 1 and not raw[0]["name"].endswith(codec.memory_id_for(record.id))
        # Writing the same record again updates it; it is not generated a second time.
        await generated.upsert([record.model_copy(update={"hits": 3})])
        raw = await _raw_memories(emulator, generated.engine, codec.scope_dict(ALICE))
        assert len(raw) == 1
        assert (await generated.get(record.id, ALICE)).hits == 3  # type: ignore[union-attr]
        q = "which instrument"
        hits = await generated.search(ALICE, vector=vector(q), query=q, k=5)
        assert [h.record.id for h in hits] == [record.id]
    finally:
        await generated.close()


async def test_generated_store_replace_supersedes_the_old_value(emulator: EmulatorServer) -> None:
    generated = emulator_store(emulator, store_class=MemoryBankGeneratedStore)
    try:
        old = make_record(ALICE, "User lives in Berlin.", predicate="lives_in", obj="Berlin")
        await generated.upsert([old])
        new = make_record(
            ALICE, "User moved to Munich.", predicate="lives_in", obj="Munich", days=1
        )
        assert await generated.replace(new, [old.id]) == [old.id]
        q = "where does the user live"
        hits = await generated.search(ALICE, vector=vector(q), query=q, k=5)
        assert [h.record.id for h in hits] == [new.id]
        got = await generated.get(old.id, ALICE)
        assert got is not None and got.status is Status.SUPERSEDED and got.superseded_by == new.id
    finally:
        await generated.close()


async def test_ingest_events_dedupes_event_ids_and_honours_event_count(
    emulator: EmulatorServer,
) -> None:
    engine = new_engine(emulator)
    client = client_factory(emulator.base_url)()
    scope = codec.scope_dict(ALICE)

    def event(event_id: str, text: str) -> dict[str, Any]:
        return {"event_id": event_id, "content": {"role": "user", "parts": [{"text": text}]}}

    try:
        rule = {"generation_rule": {"event_count": 2}}
        await client.memory_banks.ingest_events(
            name=engine,
            scope=scope,
            stream_id="s1",
            direct_contents_source={"events": [event("e1", "I like green tea.")]},
            generation_trigger_config=rule,
        )
        assert await _raw_memories(emulator, engine, scope) == []  # one of two events
        # A retry of e1 is dropped; e2 reaches the count and the stream generates.
        await client.memory_banks.ingest_events(
            name=engine,
            scope=scope,
            stream_id="s1",
            direct_contents_source={
                "events": [event("e1", "I like green tea."), event("e2", "I own a cat.")]
            },
        )
        facts = sorted(m["fact"] for m in await _raw_memories(emulator, engine, scope))
        assert facts == ["I like green tea.", "I own a cat."]
        await client.memory_banks.ingest_events(
            name=engine,
            scope=scope,
            stream_id="s1",
            direct_contents_source={"events": [event("e2", "I own a cat.")]},
            config={"force_flush": True},
        )
        assert len(await _raw_memories(emulator, engine, scope)) == 2
    finally:
        await client.aclose()


async def test_erase_purges_records_markers_and_revisions(emulator: EmulatorServer) -> None:
    store = emulator_store(emulator)
    try:
        records = [
            make_record(ALICE, "User likes tea."),
            make_record(ALICE, "User lived in Paris.", status=Status.ARCHIVED),
            make_record(ALICE, "User lives in Rome.", status=Status.SUPERSEDED),
        ]
        await store.upsert(records)
        await store.mark_events_seen(ALICE, ["ev-1"])
        await store.upsert([make_record(BOB, "Bob likes coffee.")])
        name = store.api.name(codec.memory_id_for(records[0].id))
        async with httpx.AsyncClient() as http:
            revisions = await http.get(f"{emulator.base_url}/v1beta1/{name}/revisions")
        assert revisions.json()["memoryRevisions"]

        assert await store.erase(ALICE) == 3
        assert (await store.list_page(ALICE)).records == []
        assert await store.seen_events(ALICE, ["ev-1"]) == set()
        assert await _raw_memories(emulator, store.engine, codec.marker_scope_dict(ALICE)) == []
        async with httpx.AsyncClient() as http:
            revisions = await http.get(f"{emulator.base_url}/v1beta1/{name}/revisions")
        assert revisions.status_code == 404
        assert [r.text for r in (await store.list_page(BOB)).records] == ["Bob likes coffee."]
        assert await store.erase(ALICE) == 0  # idempotent
    finally:
        await store.close()


async def test_concurrent_writers_of_one_slot_converge_on_the_last_stated(
    emulator: EmulatorServer,
) -> None:
    """Two processes each REPLACE the home they saw with their own: no lock, one winner."""
    first = emulator_store(emulator)
    second = MemoryBankStore(first.engine, client_factory=client_factory(emulator.base_url))
    try:
        async with first.reconcile_lock(ALICE), second.reconcile_lock(ALICE):
            pass  # a no-op on Memory Bank: nothing to hold across processes
        home = make_record(ALICE, "User lives in Berlin.", predicate="lives_in", obj="Berlin")
        await first.upsert([home])
        munich = make_record(ALICE, "User lives in Munich.", predicate="lives_in", days=2)
        lisbon = make_record(ALICE, "User lives in Lisbon.", predicate="lives_in", days=1)
        # Both read Berlin as the only candidate, so each supersedes Berlin alone.
        await asyncio.gather(first.replace(munich, [home.id]), second.replace(lisbon, [home.id]))
        for store in (first, second):
            active = (await store.list_page(ALICE, filters=_active())).records
            assert [r.id for r in active] == [munich.id]  # stated last
        got = await first.get(lisbon.id, ALICE)
        assert got is not None and got.status is Status.SUPERSEDED
        assert got.superseded_by == munich.id
        # Two ADDs of one slot (neither writer saw the other's value) converge the same way.
        initech = make_record(ALICE, "User works at Initech.", predicate="works_at", days=3)
        acme = make_record(ALICE, "User works at Acme.", predicate="works_at", days=1)
        await asyncio.gather(first.upsert([initech]), second.upsert([acme]))
        jobs = (await second.list_page(ALICE, filters=_active(predicate="works_at"))).records
        assert [r.id for r in jobs] == [initech.id]
        # Multi-valued predicates are left alone.
        tea = make_record(ALICE, "User likes tea.", predicate="likes", obj="tea")
        coffee = make_record(ALICE, "User likes coffee.", predicate="likes", obj="coffee")
        await asyncio.gather(first.upsert([tea]), second.upsert([coffee]))
        likes = (await first.list_page(ALICE, filters=_active(predicate="likes"))).records
        assert {r.id for r in likes} == {tea.id, coffee.id}
    finally:
        await first.close()
        await second.close()


def _active(**filters: Any) -> Any:
    from adk_memory.stores.base import ListFilter

    return ListFilter(statuses=[Status.ACTIVE], **filters)


class _EmulatorMemoryBankService(VertexAiMemoryBankService):
    """ADK's own service, pointed at the emulator the way ADK documents (an overridden client)."""

    def __init__(self, base_url: str, engine_id: str) -> None:
        super().__init__(
            project=PROJECT,
            location=LOCATION,
            agent_engine_id=engine_id,
            credentials=Credentials(token="fake"),  # type: ignore[no-untyped-call]
        )
        self._base_url = base_url

    def _build_api_client(self) -> Any:
        return client_factory(self._base_url)()


async def test_upgrade_from_adk_agentengine_service_keeps_recalling(
    emulator: EmulatorServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = new_engine(emulator)
    adk = _EmulatorMemoryBankService(emulator.base_url, engine.rsplit("/", 1)[-1])
    await adk.add_memory(
        app_name=ALICE.app_name,
        user_id=ALICE.user_id,
        memories=[
            MemoryEntry(
                content=types.Content(
                    role="user", parts=[types.Part(text="I am allergic to peanuts.")]
                )
            )
        ],
    )
    # Memory Bank's own generation from events: ADK sends them with ingest_events, in a
    # background task it does not await.
    await adk.add_events_to_memory(
        app_name=ALICE.app_name,
        user_id=ALICE.user_id,
        events=[
            Event(
                author="user",
                content=types.Content(role="user", parts=[types.Part(text="I work at Acme.")]),
            )
        ],
    )
    for _ in range(200):
        if len(await _raw_memories(emulator, engine, codec.scope_dict(ALICE))) == 2:
            break
        await asyncio.sleep(0.05)
    before = await adk.search_memory(app_name="app", user_id="alice", query="allergies")
    assert before.memories

    monkeypatch.setenv("GOOGLE_VERTEX_BASE_URL", emulator.base_url)
    store = await open_store(f"adkmem+memorybank://{engine}?timeout=5")
    try:
        listed = (await store.list_page(ALICE)).records
        assert sorted(r.text for r in listed) == ["I am allergic to peanuts.", "I work at Acme."]
        assert {r.status for r in listed} == {Status.ACTIVE}
        q = "is the user allergic to anything"
        hits = await store.search(ALICE, vector=vector(q), query=q, k=3)
        assert hits[0].record.text == "I am allergic to peanuts."
        # Such a memory is a record like any other: archive it, it keeps its id.
        peanut = hits[0].record
        assert await store.set_status(ALICE, [peanut.id], Status.ARCHIVED) == [peanut.id]
        got = await store.get(peanut.id, ALICE)
        assert got is not None and got.status is Status.ARCHIVED
        assert [
            h.record.text for h in await store.search(ALICE, vector=vector(q), query=q, k=3)
        ] == ["I work at Acme."]
    finally:
        await store.close()


def _requests(server: EmulatorServer) -> int:
    count: int = httpx.get(f"{server.base_url}/emulator/faults").json()["requests"]
    return count


async def test_a_write_costs_one_request_unless_its_slot_is_re_checked(
    emulator: EmulatorServer,
) -> None:
    store = emulator_store(emulator)
    try:
        await store.upsert([make_record(ALICE, "User likes tea.", predicate="likes")])
        before = _requests(emulator)
        await store.upsert([make_record(ALICE, "User likes jazz.", predicate="likes")])
        assert _requests(emulator) - before == 1  # one create, nothing read back
        before = _requests(emulator)
        await store.upsert([make_record(ALICE, "User lives in Rome.", predicate="lives_in")])
        # A single-valued slot is re-read (its records and the pending REPLACEs).
        assert _requests(emulator) - before == 3
    finally:
        await store.close()
