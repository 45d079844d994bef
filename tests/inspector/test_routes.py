"""The inspector's routes over HTTP (in-process): what each page shows, the token rules, and
a clear error for every kind of bad input."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from adk_memory import inspector_router
from adk_memory.engine import MemoryEngine
from adk_memory.inspector import create_app
from adk_memory.inspector.auth import COOKIE
from adk_memory.model import MAX_TEXT_CHARS, Status
from tests.inspector.conftest import TOKEN
from tests.inspector.support import OTHER, SCOPE, Seeded

ALICE = {"app": SCOPE.app_name, "user": SCOPE.user_id}
JSON = {"accept": "application/json"}


def client(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1")


@pytest.fixture
async def http(engine: MemoryEngine) -> AsyncIterator[httpx.AsyncClient]:
    async with client(create_app(engine, token=TOKEN, protect_reads=False)) as c:
        yield c


async def statuses(engine: MemoryEngine) -> dict[str, Status]:
    page = await engine.list(SCOPE, limit=1000)
    return {r.id: r.status for r in page.records}


def no_traceback(response: httpx.Response) -> None:
    assert "Traceback" not in response.text and 'File "' not in response.text


async def test_scopes_page_counts_each_status(http: httpx.AsyncClient) -> None:
    page = await http.get("/")
    assert page.status_code == 200
    assert 'data-app="shop" data-user="alice"' in page.text

    listed = (await http.get("/", headers=JSON)).json()
    assert listed == [
        {
            "app_name": "shop",
            "user_id": "alice",
            "counts": {"active": 4, "superseded": 1, "archived": 3},
        },
        {
            "app_name": "shop",
            "user_id": "bob",
            "counts": {"active": 1, "superseded": 0, "archived": 0},
        },
    ]


async def test_memories_filter_by_status_kind_and_text(
    http: httpx.AsyncClient, seeded: Seeded
) -> None:
    async def ids(**query: str) -> set[str]:
        response = await http.get("/scope", params={**ALICE, **query}, headers=JSON)
        assert response.status_code == 200
        return {row["id"] for row in response.json()}

    assert await ids(status="archived") == set(seeded.sources)
    assert await ids(status="superseded") == {seeded.berlin}
    assert await ids(kind="summary") == {seeded.summary}
    assert await ids(q="MUNICH") == {seeded.munich}
    assert await ids(kind="profile", q="lives") == {seeded.berlin, seeded.munich}
    page = await http.get("/scope", params={**ALICE, "q": "peanuts"})
    assert "allergic to peanuts." in page.text and "Munich" not in page.text
    assert "s1" in page.text and "e2" in page.text  # source session and event


async def test_history_shows_what_superseded_what(http: httpx.AsyncClient, seeded: Seeded) -> None:
    history = (await http.get(f"/memory/{seeded.berlin}", params=ALICE, headers=JSON)).json()
    chain = [(e["record"]["id"], e["record"]["status"]) for e in history["timeline"]]
    assert chain == [(seeded.berlin, "superseded"), (seeded.munich, "active")]
    assert history["timeline"][0]["successor"]["id"] == seeded.munich
    assert "REPLACE" in history["timeline"][0]["change"]

    page = await http.get(f"/memory/{seeded.munich}", params=ALICE)
    assert page.text.index(seeded.berlin_text) < page.text.index("replaced by")


async def test_summary_page_lists_its_sources(http: httpx.AsyncClient, seeded: Seeded) -> None:
    summary = (await http.get(f"/memory/{seeded.summary}", params=ALICE, headers=JSON)).json()
    assert [s["id"] for s in summary["sources"]] == seeded.sources
    assert {s["status"] for s in summary["sources"]} == {"archived"}
    assert set(summary["event_ids"]) >= {"e4", "e6", "e7"}
    source = (await http.get(f"/memory/{seeded.sources[0]}", params=ALICE, headers=JSON)).json()
    assert source["timeline"][0]["summary"]["id"] == seeded.summary
    assert "consolidation" in source["timeline"][0]["change"]


async def test_playground_ranks_with_components_and_counts_no_hits(
    http: httpx.AsyncClient, engine: MemoryEngine, seeded: Seeded
) -> None:
    before = {r.id: r.hits for r in (await engine.list(SCOPE, limit=1000)).records}
    query = {**ALICE, "q": "Where do I live?", "now": "2026-04-05T10:00:00Z"}
    result = (await http.get("/recall", params=query, headers=JSON)).json()

    assert result["ranked"][0]["record"]["id"] == seeded.munich
    assert seeded.berlin not in {m["record"]["id"] for m in result["ranked"]}
    first = result["ranked"][0]["breakdown"]
    assert set(first) >= {"similarity", "lexical", "decay", "confidence", "score"}
    assert result["block"].count("\n- [") == result["injected"] == len(result["ranked"]) == 4
    assert result["block_chars"] == len(result["block"])
    page = await http.get("/recall", params=query)
    assert page.text.count('data-component="decay"') == len(result["ranked"])
    assert f'<span class="chars">{result["block_chars"]}</span>' in page.text

    await engine.drain()
    after = {r.id: r.hits for r in (await engine.list(SCOPE, limit=1000)).records}
    assert after == before


async def test_playground_applies_the_plugins_top_k_and_budget(http: httpx.AsyncClient) -> None:
    query = {**ALICE, "q": "Where do I live?", "top_k": "2", "max_chars": "30"}
    result = (await http.get("/recall", params=query, headers=JSON)).json()
    assert result["injected"] == 1
    assert result["block"].count("\n- [") == 1


async def test_lifecycle_dry_run_reports_and_changes_nothing(
    http: httpx.AsyncClient, engine: MemoryEngine, seeded: Seeded
) -> None:
    before = await statuses(engine)
    query = {**ALICE, "now": "2026-12-01T00:00:00Z", "similarity": "0.3"}
    report = (await http.get("/lifecycle", params=query, headers=JSON)).json()
    assert report["gc"]["dry_run"] and report["consolidation"]["dry_run"]
    assert report["gc"]["scopes"][0]["expired"] == [seeded.berlin]
    page = await http.get("/lifecycle", params=query)
    assert "Would archive as expired history (1)" in page.text
    assert await statuses(engine) == before


@pytest.mark.parametrize(
    ("method", "path", "params", "status", "message"),
    [
        ("get", "/scope", {"app": "shop", "user": "nobody"}, 404, "no memories for app 'shop'"),
        ("get", "/scope", {"app": "shop"}, 400, "both app and user are required"),
        ("get", "/scope", {**ALICE, "status": "deleted"}, 400, "unknown status 'deleted'"),
        ("get", "/scope", {**ALICE, "kind": "x"}, 400, "unknown kind 'x'"),
        ("get", "/scope", {"app": "a" * 300, "user": "u"}, 400, "app is 300 characters"),
        ("get", "/memory/0123456789abcdef", ALICE, 404, "no memory with id"),
        ("get", "/memory/" + "f" * 400, {}, 404, "no memory with id"),
        ("get", "/recall", {"app": "x", "user": "y", "q": "hi"}, 404, "no memories for app 'x'"),
        ("get", "/recall", {**ALICE, "q": "q" * (MAX_TEXT_CHARS + 1)}, 413, "the query is"),
        ("get", "/recall", {**ALICE, "q": "hi\x00there"}, 400, "binary or control characters"),
        ("get", "/recall", {**ALICE, "q": "hi", "now": "yesterday"}, 400, "invalid timestamp"),
        ("get", "/recall", {**ALICE, "q": "hi", "top_k": "many"}, 400, "top_k must be a whole"),
        ("get", "/recall", {**ALICE, "q": "hi", "top_k": "0"}, 400, "between 1 and 100"),
        ("get", "/lifecycle", {**ALICE, "similarity": "2"}, 400, "similarity must be between"),
        ("get", "/lifecycle", {"app": "x", "user": "y"}, 404, "no memories for app 'x'"),
        ("get", "/static/../../etc/passwd", {}, 404, ""),
        ("get", "/static/secrets.txt", {}, 404, "no static file"),
        ("post", "/actions/forget", {**ALICE, "id": "nope", "token": TOKEN}, 404, "no memory"),
        ("post", "/actions/restore", {**ALICE, "id": "nope", "token": TOKEN}, 404, "no memory"),
        (
            "post",
            "/actions/erase",
            {"app": "x", "user": "y", "confirm": "y", "token": TOKEN},
            404,
            "no memories",
        ),
        ("post", "/actions/forget", {"id": "nope", "token": TOKEN}, 400, "app and user"),
    ],
)
async def test_bad_input_gives_a_clear_error_page_or_json(
    http: httpx.AsyncClient,
    method: str,
    path: str,
    params: dict[str, str],
    status: int,
    message: str,
) -> None:
    async def send(headers: dict[str, str]) -> httpx.Response:
        if method == "get":
            return await http.get(path, params=params, headers=headers)
        return await http.post(path, data=params, headers=headers)

    page = await send({})
    assert page.status_code == status
    no_traceback(page)
    if message:
        assert message in page.text.replace("&#x27;", "'")
        as_json = (await send(JSON)).json()
        assert as_json["status"] == status and message in as_json["error"]


async def test_actions_without_the_token_change_nothing(
    http: httpx.AsyncClient, engine: MemoryEngine, seeded: Seeded
) -> None:
    before = await statuses(engine)
    http.cookies.set(COOKIE, TOKEN)  # the cookie alone must not authorise a POST
    attempts = [
        ("/actions/forget", {**ALICE, "id": seeded.munich}),
        ("/actions/forget", {**ALICE, "id": seeded.munich, "token": "wrong-token-0123456789"}),
        ("/actions/restore", {**ALICE, "id": seeded.sources[0]}),
        ("/actions/erase", {**ALICE, "confirm": "alice"}),
    ]
    for path, form in attempts:
        response = await http.post(path, data=form)
        assert response.status_code == 403, path
        assert "nothing was changed" in response.text
    assert await statuses(engine) == before
    assert len((await engine.list(OTHER)).records) == 1


async def test_an_oversized_form_is_refused_unread(
    http: httpx.AsyncClient, engine: MemoryEngine, seeded: Seeded
) -> None:
    form = {**ALICE, "id": seeded.munich, "token": TOKEN, "padding": "x" * 20_000}
    response = await http.post("/actions/forget", data=form)
    assert response.status_code == 413 and "too large" in response.text
    assert seeded.munich in await statuses(engine)


async def test_forget_and_restore_with_the_token(
    http: httpx.AsyncClient, engine: MemoryEngine, seeded: Seeded
) -> None:
    forgot = await http.post(
        "/actions/forget", data={**ALICE, "id": seeded.peanuts, "token": TOKEN}
    )
    assert forgot.status_code == 303
    assert forgot.headers["location"].startswith("/scope?app=shop&user=alice&notice=Forgot")
    assert seeded.peanuts not in await statuses(engine)

    restored = await http.post(
        "/actions/restore",
        data={**ALICE, "id": seeded.sources[0]},
        headers={"x-inspector-token": TOKEN},
    )
    assert restored.status_code == 303
    assert (await statuses(engine))[seeded.sources[0]] is Status.ACTIVE
    again = await http.post(
        "/actions/restore", data={**ALICE, "id": seeded.sources[0], "token": TOKEN}
    )
    assert again.status_code == 400 and "only archived memories" in again.text


async def test_forget_refuses_an_id_of_another_scope(
    http: httpx.AsyncClient, engine: MemoryEngine, seeded: Seeded
) -> None:
    bob = {"app": OTHER.app_name, "user": OTHER.user_id}
    response = await http.post("/actions/forget", data={**bob, "id": seeded.munich, "token": TOKEN})
    assert response.status_code == 404
    assert seeded.munich in await statuses(engine)


async def test_erase_needs_the_user_id_typed_exactly(
    http: httpx.AsyncClient, engine: MemoryEngine
) -> None:
    bob = {"app": OTHER.app_name, "user": OTHER.user_id, "token": TOKEN}
    wrong = await http.post("/actions/erase", data={**bob, "confirm": "Bob"})
    assert wrong.status_code == 400 and "nothing was erased" in wrong.text
    assert len((await engine.list(OTHER)).records) == 1

    erased = await http.post("/actions/erase", data={**bob, "confirm": "bob"}, headers=JSON)
    assert erased.json() == {"erased": 1}
    assert (await engine.list(OTHER)).records == []
    assert len((await engine.list(SCOPE, limit=1000)).records) == 8


async def test_protected_reads_need_the_token_then_keep_it_in_a_cookie(
    engine: MemoryEngine,
) -> None:
    async with client(create_app(engine, token=TOKEN, protect_reads=True)) as http:
        refused = await http.get("/scope", params=ALICE)
        assert refused.status_code == 403 and "access token" in refused.text
        opened = await http.get("/", params={"token": TOKEN})
        assert opened.status_code == 200 and opened.cookies.get(COOKIE) == TOKEN
        follow = await http.get("/scope", params=ALICE)  # the client now sends the cookie
        assert follow.status_code == 200
        assert f'name="token" value="{TOKEN}"' in follow.text


async def test_open_reads_without_the_token_show_no_token_in_forms(http: httpx.AsyncClient) -> None:
    page = await http.get("/scope", params=ALICE)
    assert page.status_code == 200
    assert TOKEN not in page.text and "Read-only view" in page.text


async def test_router_mounts_under_a_prefix_beside_other_routes(
    engine: MemoryEngine, seeded: Seeded
) -> None:
    app = FastAPI()

    @app.get("/list-apps")
    async def other() -> list[str]:
        return ["assistant"]

    app.include_router(inspector_router(engine, token=TOKEN, protect_reads=False), prefix="/memory")
    async with client(app) as http:
        assert (await http.get("/list-apps")).json() == ["assistant"]
        page = await http.get("/memory/")
        assert 'href="/memory/scope?app=shop&amp;user=alice"' in page.text
        assert 'href="/memory/static/inspector.css"' in page.text
        css = await http.get("/memory/static/inspector.css")
        assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
        history = await http.get(f"/memory/memory/{seeded.munich}", params=ALICE)
        assert history.status_code == 200


async def test_read_only_router_refuses_every_action(engine: MemoryEngine, seeded: Seeded) -> None:
    async with client(create_app(engine, token=None, protect_reads=False)) as http:
        response = await http.post("/actions/forget", data={**ALICE, "id": seeded.munich})
        assert response.status_code == 403 and "read-only" in response.text
    assert seeded.munich in await statuses(engine)


async def test_memory_text_is_escaped(http: httpx.AsyncClient, engine: MemoryEngine) -> None:
    await engine.remember(SCOPE, "<script>alert('x')</script> is my motto")
    page = await http.get("/scope", params={**ALICE, "q": "motto"})
    assert "<script>alert" not in page.text and "&lt;script&gt;alert" in page.text


async def test_lazy_engine_factory_is_opened_once(engine: MemoryEngine) -> None:
    calls: list[int] = []

    async def factory() -> MemoryEngine:
        calls.append(1)
        return engine

    app: Any = create_app(factory, token=TOKEN, protect_reads=False)
    async with client(app) as http:
        assert (await http.get("/")).status_code == 200
        assert (await http.get("/scope", params=ALICE)).status_code == 200
    assert calls == [1]
