"""History and restore backed by Memory Bank's revisions, with the real SDK against the emulator.

In server-consolidation mode Memory Bank merges an update into the memory it updates and keeps
the earlier fact as a revision: `engine.history` shows it, `restore` rolls the memory back to it
(`memories.rollback`), and erase purges the revisions with the memories.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from adk_memory.cli.main import cli
from adk_memory.engine import MemoryEngine
from adk_memory.errors import InvalidInputError, NotFoundError
from adk_memory.factory import build_engine
from adk_memory.lifecycle.restore import restore
from adk_memory.model import MemoryRecord, Scope, Status
from adk_memory.stores.base import RevisionStore
from adk_memory.stores.memory_bank import codec
from adk_memory.stores.memory_bank.generated import MemoryBankGeneratedStore
from adk_memory.stores.memory_bank.store import MemoryBankStore
from adk_memory.testing.emulator import EmulatorServer
from tests.helpers import make_record
from tests.stores.memory_bank.support import client_factory, emulator_store

ALICE = Scope(app_name="app", user_id="alice")
BOB = Scope(app_name="app", user_id="bob")
T0 = datetime(2025, 1, 1, tzinfo=UTC)
BEFORE, AFTER = "I have two cats.", "I have three cats."


@pytest.fixture
async def engine(emulator: EmulatorServer) -> AsyncIterator[MemoryEngine]:
    built = build_engine(emulator_store(emulator, store_class=MemoryBankGeneratedStore))
    yield built
    await built.close()


async def _updated_in_place(engine: MemoryEngine, scope: Scope = ALICE) -> MemoryRecord:
    """States a fact, then an update Memory Bank merges into the same memory; returns it."""
    await engine.remember(scope, BEFORE, at=T0)
    await engine.remember(scope, AFTER, at=T0 + timedelta(days=30))
    records = (await engine.list(scope)).records
    assert [r.text for r in records] == [AFTER], "the emulator consolidates in place"
    return records[0]


async def _revisions_wire(server: EmulatorServer, memory_name: str) -> httpx.Response:
    async with httpx.AsyncClient() as http:
        return await http.get(f"{server.base_url}/v1beta1/{memory_name}/revisions")


async def test_history_shows_the_value_memory_bank_updated_in_place(
    engine: MemoryEngine,
) -> None:
    current = await _updated_in_place(engine)
    chain = await engine.history(current.id)
    # Oldest statement first, as for every store: the earlier value, then the current one.
    assert [(r.text, r.status) for r in chain] == [
        (BEFORE, Status.SUPERSEDED),
        (AFTER, Status.ACTIVE),
    ]
    earlier = chain[0]
    assert earlier.superseded_by == current.id and earlier.scope == ALICE
    # The revision labels keep when the earlier value was stated.
    assert earlier.stated_at == T0
    assert isinstance(engine.store, RevisionStore) and engine.store.is_revision(earlier.id)
    # The id names the revision: it reads back by itself, in its scope only.
    assert (await engine.get(earlier.id, ALICE)).text == BEFORE
    assert await engine.store.get(earlier.id, BOB) is None
    # The history of the earlier value is the same chain.
    assert [r.id for r in await engine.history(earlier.id)] == [r.id for r in chain]


async def test_restore_rolls_the_memory_back_to_the_earlier_value(
    engine: MemoryEngine, emulator: EmulatorServer
) -> None:
    current = await _updated_in_place(engine)
    earlier = (await engine.history(current.id))[0]

    assert await restore(engine, ALICE, [earlier.id]) == [earlier.id]

    now = await engine.get(current.id, ALICE)
    assert now.text == BEFORE and now.status is Status.ACTIVE
    assert now.stated_at == T0 and now.object == ""
    ranked = await engine.recall(ALICE, "how many cats do I have")
    assert [m.record.text for m in ranked] == [BEFORE]
    # Memory Bank itself holds the earlier fact again (a rollback, not a rewrite of ours) and
    # recorded the rollback as its newest revision.
    store = engine.store
    assert isinstance(store, MemoryBankStore)
    memory_id = codec.parse_revision_record_id(earlier.id)
    assert memory_id is not None
    body = (await _revisions_wire(emulator, store.api.name(memory_id[0]))).json()
    assert [r["fact"] for r in body["memoryRevisions"]] == [BEFORE, AFTER, BEFORE]
    # The value it replaced is history now, and can be restored in turn.
    chain = await engine.history(current.id)
    assert [(r.text, r.status) for r in chain] == [
        (BEFORE, Status.ACTIVE),
        (AFTER, Status.SUPERSEDED),
    ]
    assert await restore(engine, ALICE, [chain[1].id]) == [chain[1].id]
    assert (await engine.get(current.id, ALICE)).text == AFTER


async def test_restoring_an_unknown_revision_is_a_clear_error(engine: MemoryEngine) -> None:
    current = await _updated_in_place(engine)
    earlier = (await engine.history(current.id))[0]
    memory_id, _ = codec.parse_revision_record_id(earlier.id) or ("", "")
    for unknown in (codec.revision_record_id(memory_id, "999"), "rev~1~1000000000000000000"):
        with pytest.raises(NotFoundError, match="no memory revision"):
            await restore(engine, ALICE, [unknown])
    # Another user's revision is unknown in this scope, and nothing changed.
    with pytest.raises(NotFoundError):
        await restore(engine, BOB, [earlier.id])
    assert (await engine.get(current.id, ALICE)).text == AFTER
    # An earlier value is read-only: it is not forgotten or written on its own.
    with pytest.raises(InvalidInputError, match="revision"):
        await engine.forget(earlier.id, ALICE)
    with pytest.raises(InvalidInputError, match="revision"):
        await engine.store.upsert([earlier])
    assert [r.text for r in await engine.history(current.id)] == [BEFORE, AFTER]


async def test_erase_removes_the_revisions_too(
    engine: MemoryEngine, emulator: EmulatorServer
) -> None:
    current = await _updated_in_place(engine)
    await engine.remember(BOB, "I have a dog.", at=T0)
    earlier = (await engine.history(current.id))[0]
    parsed = codec.parse_revision_record_id(earlier.id)
    assert parsed is not None
    store = engine.store
    assert isinstance(store, MemoryBankStore)
    name = store.api.name(parsed[0])
    assert (await _revisions_wire(emulator, name)).status_code == 200

    assert await engine.erase(ALICE) == 1
    assert (await _revisions_wire(emulator, name)).status_code == 404
    assert await engine.store.get(earlier.id, ALICE) is None
    with pytest.raises(NotFoundError):
        await restore(engine, ALICE, [earlier.id])
    assert [r.text for r in (await engine.list(BOB)).records] == ["I have a dog."]


async def test_direct_store_history_is_its_own_records_and_reads_foreign_revisions(
    emulator: EmulatorServer,
) -> None:
    """Our own consolidation never rewrites a memory's fact, so a direct-mode record has no
    earlier values in revisions; a memory Memory Bank consolidated before (another writer's)
    has, and history shows them there too."""
    engine = build_engine(emulator_store(emulator))
    client = client_factory(emulator.base_url)()
    try:
        old = make_record(ALICE, "User lives in Berlin.", predicate="lives_in", obj="berlin")
        new = make_record(ALICE, "User lives in Munich.", predicate="lives_in", obj="munich")
        await engine.store.upsert([old])
        await engine.store.replace(new, [old.id])
        assert [r.id for r in await engine.history(new.id)] == [old.id, new.id]

        store = engine.store
        assert isinstance(store, MemoryBankStore)
        for text in (BEFORE, AFTER):  # what ADK's own service sends: Memory Bank generates
            await client.memory_banks.memories.generate(
                name=store.engine,
                scope=codec.scope_dict(BOB),
                direct_contents_source={
                    "events": [{"content": {"role": "user", "parts": [{"text": text}]}}]
                },
            )
        (foreign,) = (await engine.list(BOB)).records
        chain = await engine.history(foreign.id)
        assert [(r.text, r.status) for r in chain] == [
            (BEFORE, Status.SUPERSEDED),
            (AFTER, Status.ACTIVE),
        ]
        assert await restore(engine, BOB, [chain[0].id]) == [chain[0].id]
        assert (await engine.get(foreign.id, BOB)).text == BEFORE
    finally:
        await client.aclose()
        await engine.close()


async def test_revisions_list_pages_and_filters_like_the_service(
    engine: MemoryEngine, emulator: EmulatorServer
) -> None:
    """The emulator's `revisions.list`: newest first, paged, AIP-160 `filter`; each revision
    has a numeric id, an expire time (default TTL) and, for a consolidation, the extracted
    fact; the SDK's pager reads every page."""
    current = await _updated_in_place(engine)
    earlier = (await engine.history(current.id))[0]
    parsed = codec.parse_revision_record_id(earlier.id)
    assert parsed is not None
    store = engine.store
    assert isinstance(store, MemoryBankStore)
    name = store.api.name(parsed[0])
    async with httpx.AsyncClient() as http:
        first = (await http.get(f"{emulator.base_url}/v1beta1/{name}/revisions?pageSize=1")).json()
        assert [r["fact"] for r in first["memoryRevisions"]] == [AFTER]
        rest = (
            await http.get(
                f"{emulator.base_url}/v1beta1/{name}/revisions",
                params={"pageSize": 1, "pageToken": first["nextPageToken"]},
            )
        ).json()
        assert [r["fact"] for r in rest["memoryRevisions"]] == [BEFORE]
        assert "nextPageToken" not in rest
        filtered = (
            await http.get(
                f"{emulator.base_url}/v1beta1/{name}/revisions",
                params={"filter": f'fact="{BEFORE}"'},
            )
        ).json()
        assert [r["fact"] for r in filtered["memoryRevisions"]] == [BEFORE]
        missing = await http.post(
            f"{emulator.base_url}/v1beta1/{name}:rollback", json={"targetRevisionId": ""}
        )
        assert missing.status_code == 400
    newest: Any = first["memoryRevisions"][0]
    assert newest["name"].rsplit("/", 1)[-1].isdigit()
    assert newest["extractedMemories"] == [{"fact": AFTER}]
    created = datetime.fromisoformat(newest["createTime"].replace("Z", "+00:00"))
    expires = datetime.fromisoformat(newest["expireTime"].replace("Z", "+00:00"))
    assert expires - created == timedelta(days=365)
    assert newest["labels"][codec.LABEL_RID] == current.id
    # Through the SDK's own pager, one revision per page.
    client = client_factory(emulator.base_url)()
    try:
        pager = await client.memory_banks.memories.revisions.list(
            name=name, config={"page_size": 1}
        )
        facts = [r.fact async for r in pager]
    finally:
        await client.aclose()
    assert facts == [AFTER, BEFORE]


def test_cli_history_prints_the_earlier_value_and_restore_rolls_back(
    emulator: EmulatorServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = emulator_store(emulator, store_class=MemoryBankGeneratedStore)
    uri = f"adkmem+memorybank://{store.engine}?consolidation=server"
    monkeypatch.setenv("GOOGLE_VERTEX_BASE_URL", emulator.base_url)
    runner = CliRunner()

    def run(*args: str) -> Any:
        result = runner.invoke(cli, ["--store", uri, *args])
        assert result.exit_code == 0, result.output
        return result

    scope = ["--app", ALICE.app_name, "--user", ALICE.user_id]
    run("remember", *scope, BEFORE, "--at", T0.isoformat())
    run("remember", *scope, AFTER, "--at", (T0 + timedelta(days=30)).isoformat())
    (current,) = json.loads(run("list", *scope, "--json").output)

    table = run("history", current["id"]).output
    assert BEFORE in table and AFTER in table and "superseded" in table
    chain = json.loads(run("history", current["id"], "--json").output)
    assert [r["text"] for r in chain] == [BEFORE, AFTER]

    restored = json.loads(run("restore", *scope, chain[0]["id"], "--json").output)
    assert restored == {"restored": [chain[0]["id"]]}
    (now,) = json.loads(run("list", *scope, "--json").output)
    assert now["id"] == current["id"] and now["text"] == BEFORE
    recalled = json.loads(run("recall", *scope, "how many cats", "--json").output)
    assert recalled[0]["text"] == BEFORE

    unknown = runner.invoke(
        cli, ["--store", uri, "restore", *scope, codec.revision_record_id("1234", "77")]
    )
    assert unknown.exit_code != 0 and "no memory" in unknown.output


def test_revision_labels_and_ids_stay_within_what_the_service_accepts() -> None:
    record = make_record(ALICE, BEFORE)
    labels = codec.revision_labels(record)
    assert labels[codec.LABEL_RID] == record.id
    assert all(
        len(v) <= 63 and v.replace("-", "").replace("_", "").isalnum() for v in labels.values()
    )
    # An id that is no valid label value is left out; the statement time is always there.
    odd = record.model_copy(update={"id": "Not A Label!"})
    assert set(codec.revision_labels(odd)) == {codec.LABEL_STATED}
    # Revision ids round-trip; anything else (or a path in disguise) is no revision id.
    assert codec.parse_revision_record_id(codec.revision_record_id("123", "4")) == ("123", "4")
    for other in (record.id, "rev~4", "rev~4~../x", "rev~~123", "rev~4~123/revisions/5"):
        assert codec.parse_revision_record_id(other) is None
