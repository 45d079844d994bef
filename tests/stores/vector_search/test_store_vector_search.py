"""`VectorSearchStore` specifics: what reaches the index, lag tolerance, opening by URI."""

from __future__ import annotations

from pathlib import Path

import pytest

from adk_memory.errors import ConfigError
from adk_memory.model import Scope, Status
from adk_memory.stores.uri import open_store
from adk_memory.stores.vector_search.store import VectorSearchStore
from adk_memory.testing.emulator import EmulatorServer
from adk_memory.testing.emulator.vector_search import provision_default
from tests.helpers import make_record, vector
from tests.stores.vector_search.support import datapoints, new_deployment, store_uri

ALICE = Scope(app_name="app", user_id="alice")
BOB = Scope(app_name="app", user_id="bob")


def tokens(point: object) -> dict[str, set[str]]:
    return {ns: set(allow) for ns, (allow, _) in point.restricts.items()}  # type: ignore[attr-defined]


async def test_records_become_datapoints_with_scope_and_status_restricts(
    emulator: EmulatorServer, deployment: dict[str, str], vs_store: VectorSearchStore
) -> None:
    old = make_record(ALICE, "User lives in Berlin.")
    await vs_store.upsert([old, make_record(BOB, "Bob lives in Berlin.")])
    new = make_record(ALICE, "User lives in Munich.")
    await vs_store.replace(new, [old.id])
    points = datapoints(emulator, deployment)
    assert tokens(points[old.id]) == {"app": {"app"}, "user": {"alice"}, "status": {"superseded"}}
    assert tokens(points[new.id])["status"] == {"active"}
    await vs_store.delete(ALICE, [new.id])
    assert new.id not in datapoints(emulator, deployment)
    assert not await vs_store.docs.has_pending()


async def test_search_filters_scope_server_side(
    emulator: EmulatorServer, deployment: dict[str, str], vs_store: VectorSearchStore
) -> None:
    await vs_store.upsert([make_record(BOB, f"Bob fact {i} about Berlin.") for i in range(20)])
    mine = make_record(ALICE, "User lives in Berlin.")
    await vs_store.upsert([mine])
    q = "Berlin"
    # k=1: if the index did not filter by scope, Bob's nearer facts would take the only slot.
    hits = await vs_store.search(ALICE, vector=vector(q), k=1)
    assert [h.record.id for h in hits] == [mine.id]


async def test_a_lagging_index_never_returns_a_superseded_record(
    emulator: EmulatorServer, deployment: dict[str, str], vs_store: VectorSearchStore
) -> None:
    old = make_record(ALICE, "User lives in Berlin.")
    await vs_store.upsert([old])
    stale = datapoints(emulator, deployment)[old.id]
    await vs_store.set_status(ALICE, [old.id], Status.ARCHIVED)
    datapoints(emulator, deployment)[old.id] = stale  # the index missed the update
    q = "where does the user live"
    assert await vs_store.search(ALICE, vector=vector(q), k=5) == []
    every = await vs_store.search(ALICE, vector=vector(q), k=5, statuses=list(Status))
    assert [h.record.status for h in every] == [Status.ARCHIVED]


async def test_cosines_are_exact_and_lexical_matches_join(vs_store: VectorSearchStore) -> None:
    records = [make_record(ALICE, t) for t in ("User plays the violin.", "User likes tea.")]
    await vs_store.upsert(records)
    q = "violin"
    hits = await vs_store.search(ALICE, vector=vector(q), query=q, k=1)
    assert hits[0].record.text == "User plays the violin."
    assert hits[0].lexical == pytest.approx(1.0)
    expected = float(vector(q) @ vector("User plays the violin."))
    assert hits[0].cosine == pytest.approx(expected, abs=1e-4)


async def test_open_by_uri_reopens_the_same_records(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    names = new_deployment(emulator)
    uri = store_uri(emulator, names, tmp_path / "records.db")
    store = await open_store(uri)
    record = make_record(ALICE, "User speaks Italian.")
    await store.upsert([record])
    await store.close()
    again = await open_store(uri)
    try:
        q = "which languages does the user speak"
        hits = await again.search(ALICE, vector=vector(q), k=3)
        assert [h.record.id for h in hits] == [record.id]
    finally:
        await again.close()


async def test_deployed_index_is_found_when_the_endpoint_serves_one(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    names = new_deployment(emulator)
    uri = f"adkmem+vectorsearch://{names['indexEndpoint']}?base_url={emulator.base_url}"
    store = await open_store(f"{uri}&docs={tmp_path / 'd.db'}")
    assert isinstance(store, VectorSearchStore)
    assert store.deployed_index_id == names["deployedIndexId"]
    assert store.index == names["index"]
    await store.close()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"indexEndpoint": "projects/test-project/locations/us-central1/indexEndpoints/404"},
            "not found",
        ),
        ({"deployedIndexId": "nope"}, "no deployed index 'nope'"),
        ({"index": "projects/test-project/locations/us-central1/indexes/77"}, "not projects"),
    ],
)
async def test_wrong_resources_are_config_errors(
    emulator: EmulatorServer, tmp_path: Path, change: dict[str, str], message: str
) -> None:
    names = {**new_deployment(emulator), **change}
    with pytest.raises(ConfigError, match=message):
        await open_store(store_uri(emulator, names, tmp_path / "d.db"))


async def test_bad_uris_are_config_errors(emulator: EmulatorServer, tmp_path: Path) -> None:
    names = new_deployment(emulator)
    with pytest.raises(ConfigError, match="bad index"):
        await open_store(
            f"adkmem+vectorsearch://{names['indexEndpoint']}?index=projects/p/indexes/i"
            f"&base_url={emulator.base_url}"
        )
    with pytest.raises(ConfigError, match="verify=false needs"):
        await open_store(f"adkmem+vectorsearch://{names['indexEndpoint']}?verify=false&deployed=x")
    with pytest.raises(ConfigError, match="retries"):
        await open_store(store_uri(emulator, names, tmp_path / "d.db", retries="0"))
    with pytest.raises(ConfigError, match="bad vectorsearch URI location"):
        await open_store("adkmem+vectorsearch://projects/p/locations/l/indexes/i")


async def test_the_cli_default_deployment_opens_by_its_printed_uri(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    uri = provision_default(emulator.state, "cli-project", "us-central1", "unused")
    assert uri.startswith("adkmem+vectorsearch://projects/cli-project/locations/us-central1/")
    store = await open_store(f"{uri}&base_url={emulator.base_url}&docs={tmp_path / 'd.db'}")
    await store.close()
