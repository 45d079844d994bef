"""What every `MemoryStore` must do. Runs against every backend in STORE_FACTORIES."""

from __future__ import annotations

from datetime import timedelta

from adk_memory.model import Scope, Status
from adk_memory.stores.base import ListFilter, MemoryStore
from tests.helpers import T0, make_record, vector

ALICE = Scope(app_name="app", user_id="alice")
BOB = Scope(app_name="app", user_id="bob")
OTHER_APP = Scope(app_name="other", user_id="alice")


async def test_upsert_then_get_round_trips_every_field(store: MemoryStore) -> None:
    record = make_record(ALICE, "User lives in Berlin.", predicate="lives_in", obj="Berlin")
    await store.upsert([record])
    got = await store.get(record.id)
    assert got is not None
    assert got.model_dump(exclude={"embedding"}) == record.model_dump(exclude={"embedding"})
    assert got.embedding is None  # vectors never leave the store


async def test_get_is_scoped(store: MemoryStore) -> None:
    record = make_record(ALICE, "Alice likes tea.")
    await store.upsert([record])
    assert await store.get(record.id, ALICE) is not None
    assert await store.get(record.id, BOB) is None
    assert await store.get(record.id, OTHER_APP) is None
    assert await store.get("no-such-id") is None


async def test_search_returns_nearest_first_within_scope_only(store: MemoryStore) -> None:
    texts = ["User lives in Berlin.", "User likes green tea.", "User plays the violin."]
    await store.upsert([make_record(ALICE, t) for t in texts])
    await store.upsert([make_record(BOB, "Bob lives in Berlin too.")])
    query = "Where does the user live?"
    hits = await store.search(ALICE, vector=vector(query), query=query, k=3)
    assert hits[0].record.text == "User lives in Berlin."
    assert {h.record.scope for h in hits} == {ALICE}
    assert all(-1.0 <= h.cosine <= 1.0 for h in hits)
    cosines = [h.cosine for h in hits]
    assert cosines == sorted(cosines, reverse=True)
    assert await store.search(OTHER_APP, vector=vector(query), query=query, k=3) == []


async def test_search_filters_statuses(store: MemoryStore) -> None:
    active = make_record(ALICE, "User lives in Munich.")
    old = make_record(ALICE, "User lives in Berlin.", status=Status.SUPERSEDED)
    archived = make_record(ALICE, "User lived in Paris.", status=Status.ARCHIVED)
    await store.upsert([active, old, archived])
    q = "where does the user live"
    ids = {h.record.id for h in await store.search(ALICE, vector=vector(q), query=q, k=10)}
    assert ids == {active.id}
    every = await store.search(ALICE, vector=vector(q), query=q, k=10, statuses=list(Status))
    assert {h.record.id for h in every} == {active.id, old.id, archived.id}


async def test_replace_supersedes_and_links_atomically(store: MemoryStore) -> None:
    old = make_record(ALICE, "User lives in Berlin.", predicate="lives_in", obj="Berlin")
    await store.upsert([old])
    new = make_record(ALICE, "User lives in Munich.", days=30, predicate="lives_in", obj="Munich")
    superseded = await store.replace(new, [old.id])
    assert superseded == [old.id]
    got_old, got_new = await store.get(old.id), await store.get(new.id)
    assert got_old is not None and got_new is not None
    assert got_old.status is Status.SUPERSEDED and got_old.superseded_by == new.id
    assert got_new.status is Status.ACTIVE
    q = "where does the user live"
    hits = await store.search(ALICE, vector=vector(q), query=q, k=5)
    assert [h.record.id for h in hits] == [new.id]


async def test_replace_never_touches_another_scope(store: MemoryStore) -> None:
    bobs = make_record(BOB, "Bob lives in Berlin.")
    await store.upsert([bobs])
    new = make_record(ALICE, "Alice lives in Munich.")
    assert await store.replace(new, [bobs.id]) == []
    got = await store.get(bobs.id)
    assert got is not None and got.status is Status.ACTIVE


async def test_list_pages_cover_everything_once_in_order(store: MemoryStore) -> None:
    records = [make_record(ALICE, f"Fact number {i} about the user.", days=i) for i in range(7)]
    await store.upsert(records)
    await store.upsert([make_record(BOB, "Bob's fact.")])
    seen: list[str] = []
    cursor = None
    while True:
        page = await store.list_page(ALICE, limit=3, cursor=cursor)
        assert len(page.records) <= 3
        seen += [r.id for r in page.records]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert seen == [r.id for r in records]


async def test_list_filters(store: MemoryStore) -> None:
    a = make_record(ALICE, "User lives in Berlin.", predicate="lives_in", obj="Berlin")
    b = make_record(ALICE, "User likes tea.", predicate="likes", obj="tea")
    await store.upsert([a, b])
    new = make_record(ALICE, "User lives in Munich.", predicate="lives_in", obj="Munich")
    await store.replace(new, [a.id])
    by_slot = await store.list_page(
        ALICE, filters=ListFilter(subject="user", predicate="lives_in", statuses=[Status.ACTIVE])
    )
    assert [r.id for r in by_slot.records] == [new.id]
    by_link = await store.list_page(ALICE, filters=ListFilter(superseded_by=new.id))
    assert [r.id for r in by_link.records] == [a.id]


async def test_set_status_archives_and_restores(store: MemoryStore) -> None:
    record = make_record(ALICE, "User collects stamps.")
    summary = make_record(ALICE, "User has many hobbies.")
    await store.upsert([record, summary])
    changed = await store.set_status(
        ALICE, [record.id], Status.ARCHIVED, consolidated_into=summary.id
    )
    assert changed == [record.id]
    got = await store.get(record.id)
    assert got is not None and got.status is Status.ARCHIVED
    assert got.consolidated_into == summary.id
    q = "stamps"
    assert record.id not in {
        h.record.id for h in await store.search(ALICE, vector=vector(q), query=q, k=5)
    }
    assert await store.set_status(BOB, [record.id], Status.ACTIVE) == []
    assert await store.set_status(ALICE, [record.id], Status.ACTIVE) == [record.id]
    hits = await store.search(ALICE, vector=vector(q), query=q, k=5)
    assert record.id in {h.record.id for h in hits}


async def test_delete_is_scoped_and_final(store: MemoryStore) -> None:
    record = make_record(ALICE, "User's passport number is secret.")
    await store.upsert([record])
    assert await store.delete(BOB, [record.id]) == []
    assert await store.delete(ALICE, [record.id]) == [record.id]
    assert await store.get(record.id) is None
    q = "passport"
    assert await store.search(ALICE, vector=vector(q), query=q, k=5) == []


async def test_record_hits_counts_and_stamps(store: MemoryStore) -> None:
    record = make_record(ALICE, "User likes jazz.")
    await store.upsert([record])
    at = T0 + timedelta(days=3)
    await store.record_hits(ALICE, [record.id], at)
    await store.record_hits(ALICE, [record.id], at)
    await store.record_hits(BOB, [record.id], at)
    got = await store.get(record.id)
    assert got is not None and got.hits == 2 and got.last_accessed_at == at


async def test_seen_events_are_per_scope(store: MemoryStore) -> None:
    await store.mark_events_seen(ALICE, ["e1", "e2"])
    assert await store.seen_events(ALICE, ["e1", "e3"]) == {"e1"}
    assert await store.seen_events(BOB, ["e1"]) == set()


async def test_scopes_lists_scopes_with_records(store: MemoryStore) -> None:
    await store.upsert([make_record(ALICE, "a"), make_record(BOB, "b")])
    assert set(await store.scopes()) == {ALICE, BOB}


async def test_update_without_embedding_keeps_vector(store: MemoryStore) -> None:
    record = make_record(ALICE, "User likes hiking in the Alps.")
    await store.upsert([record])
    await store.upsert([record.model_copy(update={"confidence": 0.99, "embedding": None})])
    q = "hiking"
    hits = await store.search(ALICE, vector=vector(q), query=q, k=1)
    assert hits[0].record.id == record.id and hits[0].record.confidence == 0.99
    assert hits[0].cosine > 0.3
