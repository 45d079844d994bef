"""The real GenAI SDK against the emulator: the wire surface the store relies on."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from google.genai import errors as genai_errors

from adk_memory.testing.emulator import EmulatorServer
from tests.stores.memory_bank.support import LOCATION, PROJECT, client_factory, new_engine

ALICE = {"app_name": "app", "user_id": "alice"}
BOB = {"app_name": "app", "user_id": "bob"}


@pytest.fixture
async def sdk(emulator: EmulatorServer) -> Any:
    client = client_factory(emulator.base_url)()
    yield client.memory_banks.memories
    await client.aclose()


async def test_create_get_list_retrieve_round_trip(emulator: EmulatorServer, sdk: Any) -> None:
    engine = new_engine(emulator)
    op = await sdk.create(
        name=engine,
        fact="Alice likes green tea.",
        scope=ALICE,
        config={"memory_id": "m-tea", "metadata": {"status": {"string_value": "active"}}},
    )
    assert op.response.name == f"{engine}/memories/m-tea"
    got = await sdk.get(name=f"{engine}/memories/m-tea")
    assert got.fact == "Alice likes green tea." and got.scope == ALICE
    assert got.metadata["status"].string_value == "active"
    listed = await sdk.list(name=engine)
    assert [m.name for m in listed.page] == [got.name]
    pager = await sdk.retrieve(
        name=engine, scope=ALICE, similarity_search_params={"search_query": "tea", "top_k": 5}
    )
    assert [r.memory.fact for r in pager.page] == ["Alice likes green tea."]
    assert 0.0 <= pager.page[0].distance < 1.0


async def test_retrieve_matches_scope_exactly(emulator: EmulatorServer, sdk: Any) -> None:
    engine = new_engine(emulator)
    await sdk.create(name=engine, fact="Alice lives in Berlin.", scope=ALICE)
    await sdk.create(name=engine, fact="Bob lives in Berlin.", scope=BOB)
    await sdk.create(name=engine, fact="Alice again.", scope={**ALICE, "extra": "x"})
    params = {"search_query": "Berlin", "top_k": 10}
    facts = [
        r.memory.fact
        for r in (await sdk.retrieve(name=engine, scope=ALICE, similarity_search_params=params))
    ]
    assert facts == ["Alice lives in Berlin."]


async def test_metadata_filter_groups_are_or_of_ands(emulator: EmulatorServer, sdk: Any) -> None:
    engine = new_engine(emulator)
    for fact, status, conf in [
        ("a", "active", 0.9),
        ("b", "superseded", 0.5),
        ("c", "active", 0.2),
    ]:
        await sdk.create(
            name=engine,
            fact=f"fact {fact}",
            scope=ALICE,
            config={
                "metadata": {
                    "status": {"string_value": status},
                    "confidence": {"double_value": conf},
                }
            },
        )

    async def facts(groups: list[dict[str, Any]]) -> set[str]:
        pager = await sdk.retrieve(
            name=engine,
            scope=ALICE,
            simple_retrieval_params={"page_size": 100},
            config={"filter_groups": groups},
        )
        return {r.memory.fact for r in pager.page}

    active = {"key": "status", "value": {"string_value": "active"}}
    confident = {"key": "confidence", "value": {"double_value": 0.5}, "op": "GREATER_THAN"}
    assert await facts([{"filters": [active]}]) == {"fact a", "fact c"}
    assert await facts([{"filters": [active, confident]}]) == {"fact a"}
    assert await facts([{"filters": [{**active, "negate": True}]}]) == {"fact b"}
    superseded = {"key": "status", "value": {"string_value": "superseded"}}
    assert await facts([{"filters": [active, confident]}, {"filters": [superseded]}]) == {
        "fact a",
        "fact b",
    }


async def test_top_k_defaults_to_3_and_caps_at_100(emulator: EmulatorServer, sdk: Any) -> None:
    engine = new_engine(emulator)
    base = f"{emulator.base_url}/v1beta1/{engine}/memories"
    async with httpx.AsyncClient() as http:
        for i in range(105):
            created = await http.post(base, json={"fact": f"note {i}", "scope": ALICE})
            created.raise_for_status()
    default = await sdk.retrieve(
        name=engine, scope=ALICE, similarity_search_params={"search_query": "note"}
    )
    assert len(default.page) == 3
    capped = await sdk.retrieve(
        name=engine, scope=ALICE, similarity_search_params={"search_query": "note", "top_k": 500}
    )
    assert len(capped.page) == 100


async def test_express_mode_paths_and_v1(emulator: EmulatorServer) -> None:
    import agentplatform

    engine = new_engine(emulator)
    engine_id = engine.rsplit("/", 1)[-1]
    express = agentplatform.Client(
        api_key="fake", http_options={"base_url": emulator.base_url, "api_version": "v1"}
    ).aio
    try:
        op = await express.memory_banks.memories.create(
            name=f"reasoningEngines/{engine_id}", fact="express fact", scope=ALICE
        )
        assert op.response.name.startswith(f"projects/{PROJECT}/locations/{LOCATION}/")
        got = await express.memory_banks.memories.get(name=op.response.name)
        assert got.fact == "express fact"
    finally:
        await express.aclose()


async def test_snake_and_camel_bodies_are_both_accepted(emulator: EmulatorServer) -> None:
    engine = new_engine(emulator)
    url = f"{emulator.base_url}/v1beta1/{engine}/memories"
    async with httpx.AsyncClient() as http:
        for metadata in ({"k": {"string_value": "x"}}, {"k": {"stringValue": "x"}}):
            created = await http.post(url, json={"fact": "f", "scope": ALICE, "metadata": metadata})
            created.raise_for_status()
            body = created.json()
            assert body["done"] is True
            assert body["response"]["metadata"] == {"k": {"stringValue": "x"}}
        retrieved = await http.post(
            f"{url}:retrieve",
            json={"scope": ALICE, "similarity_search_params": {"searchQuery": "f", "top_k": 1}},
        )
        assert len(retrieved.json()["retrievedMemories"]) == 1


async def test_missing_engine_and_memory_are_404(emulator: EmulatorServer, sdk: Any) -> None:
    engine = new_engine(emulator)
    with pytest.raises(genai_errors.ClientError) as info:
        await sdk.get(name=f"{engine}/memories/nope")
    assert info.value.code == 404
    with pytest.raises(genai_errors.ClientError) as info:
        await sdk.create(
            name=f"projects/{PROJECT}/locations/{LOCATION}/reasoningEngines/404",
            fact="x",
            scope=ALICE,
        )
    assert info.value.code == 404


async def test_generate_consolidates_and_revisions_track_it(
    emulator: EmulatorServer, sdk: Any
) -> None:
    engine = new_engine(emulator)
    first = await sdk.generate(
        name=engine,
        direct_contents_source={
            "events": [{"content": {"role": "user", "parts": [{"text": "I like green tea."}]}}]
        },
        scope=ALICE,
    )
    created = first.response.generated_memories
    assert [g.action.value for g in created] == ["CREATED"]
    again = await sdk.generate(
        name=engine,
        direct_memories_source={"direct_memories": [{"fact": "I like green tea!"}]},
        scope=ALICE,
    )
    updated = again.response.generated_memories
    assert [g.action.value for g in updated] == ["UPDATED"]
    assert updated[0].memory.name == created[0].memory.name
    revisions = sdk.revisions
    pager = await revisions.list(name=created[0].memory.name)
    assert [r.fact for r in pager.page] == ["I like green tea!", "I like green tea."]


async def test_engine_lifecycle_through_the_sdk(emulator: EmulatorServer) -> None:
    import agentplatform
    from google.oauth2.credentials import Credentials

    client = agentplatform.Client(
        project=PROJECT,
        location=LOCATION,
        credentials=Credentials(token="fake"),
        http_options={"base_url": emulator.base_url},
    )
    bank = client.memory_banks.create(config={"display_name": "lifecycle"})
    assert client.memory_banks.get(name=bank.name).name == bank.name
