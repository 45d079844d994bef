"""The inspector's pages in a real headless Chromium, on sqlite and on Memory Bank (emulator).

`adk-memory inspect` serves a seeded store from a subprocess; the browser opens each page,
checks what it shows against the CLI, and forgets, restores and erases from the page.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.inspector.support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    CHROMIUM_MISSING,
    OTHER,
    SCOPE,
    Seeded,
    cli_statuses,
    local_env,
    run_async,
    run_cli,
    seed,
    serving,
)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=CHROMIUM_MISSING)
playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="the playwright package drives Chromium (pip install -e .[dev])"
)

NOW = "2026-04-05T10:00:00Z"


@dataclass
class Site:
    url: str  # as printed: with the token
    base: str  # without it
    store: str
    env: dict[str, str]
    ids: Seeded

    def cli(self, *args: str) -> Any:
        return run_cli(self.env, "--store", self.store, *args)

    def statuses(self, scope: Any = SCOPE) -> dict[str, str]:
        return cli_statuses(self.env, self.store, scope)


def _sqlite(tmp: Path) -> tuple[str, dict[str, str], Seeded]:
    from adk_memory.stores.sqlite.store import SqliteStore

    path = tmp / "memory.db"

    async def build() -> Seeded:
        return await seed(await SqliteStore(path).open())

    return f"adkmem+sqlite://{path.as_posix()}", local_env(tmp), run_async(build())


def _memory_bank(tmp: Path) -> tuple[str, dict[str, str], Seeded]:
    from tests.stores.memory_bank.support import LOCATION, PROJECT, emulator_store, shared_emulator

    server = shared_emulator()
    store = emulator_store(server)
    name = store.engine

    async def build() -> Seeded:
        return await seed(store)

    env = {
        **local_env(tmp),
        "GOOGLE_VERTEX_BASE_URL": server.base_url,
        "GOOGLE_CLOUD_PROJECT": PROJECT,
        "GOOGLE_CLOUD_LOCATION": LOCATION,
    }
    return f"adkmem+memorybank://{name}", env, run_async(build())


@pytest.fixture(scope="module", params=["sqlite", "memory_bank"])
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    tmp = tmp_path_factory.mktemp(request.param)
    store, env, ids = (_sqlite if request.param == "sqlite" else _memory_bank)(tmp)
    with serving(store, env) as url:
        yield Site(url=url, base=url.split("?")[0], store=store, env=env, ids=ids)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context()
    tab = context.new_page()
    tab.set_default_timeout(10_000)
    tab.on("dialog", lambda dialog: dialog.accept())
    yield tab
    context.close()


def row_ids(page: Any) -> set[str]:
    return set(page.locator("tr.memory").evaluate_all("rows => rows.map(r => r.dataset.id)"))


def open_scope(page: Any, site: Site, scope: Any = SCOPE) -> None:
    page.goto(site.url)
    row = page.locator(f'tr.scope[data-app="{scope.app_name}"][data-user="{scope.user_id}"]')
    # Wait for the memories page itself: the scopes page has an h1 too, and on a loaded
    # machine a bare wait for one returns before the click has navigated.
    with page.expect_navigation():
        row.get_by_role("link", name="memories").click()
    page.wait_for_selector("h1")


def test_scopes_page_shows_counts_by_status(site: Site, page: Any) -> None:
    page.goto(site.url)
    row = page.locator('tr.scope[data-app="shop"][data-user="alice"]')
    shown = {
        status: int(row.locator(f'td[data-status="{status}"]').inner_text())
        for status in ("active", "superseded", "archived")
    }
    assert shown == dict(Counter(site.statuses().values()))
    assert shown == {"active": 4, "superseded": 1, "archived": 3}
    assert page.locator('tr.scope[data-user="bob"]').count() == 1


def test_memories_page_lists_and_filters(site: Site, page: Any) -> None:
    open_scope(page, site)
    assert row_ids(page) == set(site.statuses())
    munich = page.locator(f'tr.memory[data-id="{site.ids.munich}"]')
    assert site.ids.munich_text in munich.inner_text()
    assert "s2" in munich.inner_text() and "e3" in munich.inner_text()
    assert "2026-02-04" in munich.inner_text()  # stated; valid is "last week" before it

    with page.expect_navigation():
        page.select_option('select[name="status"]', "archived")  # the page's JS submits
    assert row_ids(page) == set(site.ids.sources)

    with page.expect_navigation():
        page.select_option('select[name="status"]', "")
    page.fill('input[name="q"]', "munich")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_selector("p.shown")
    assert row_ids(page) == {site.ids.munich}


def test_history_is_a_timeline_of_supersession_and_consolidation(site: Site, page: Any) -> None:
    open_scope(page, site)
    with page.expect_navigation():
        page.locator(f'tr.memory[data-id="{site.ids.munich}"] a.text').click()
    steps = page.locator("ol.timeline li.step")
    assert steps.count() == 2
    assert site.ids.berlin_text in steps.nth(0).inner_text()
    assert "superseded" in (steps.nth(0).get_attribute("class") or "")
    assert "replaced by" in steps.nth(0).locator(".change").inner_text()
    history = site.cli("history", site.ids.munich)
    assert [h["id"] for h in history] == [site.ids.berlin, site.ids.munich]

    open_scope(page, site)
    with page.expect_navigation():
        page.locator(f'tr.memory[data-id="{site.ids.summary}"] a.text').click()
    cards = page.locator("section.sources .card")
    ids = cards.evaluate_all("cards => cards.map(c => c.dataset.id)")
    assert ids == site.ids.sources
    assert "Consolidation summary of 3 memories" in page.locator("section.sources h2").inner_text()


def test_recall_playground_draws_components_and_the_injected_block(site: Site, page: Any) -> None:
    open_scope(page, site)
    page.get_by_role("link", name="Recall playground").click()
    page.fill('input[name="q"]', "Where do I live?")
    page.fill('input[name="now"]', NOW)
    page.get_by_role("button", name="Recall").click()
    page.wait_for_selector("ol.ranked")

    ranked = page.locator("ol.ranked > li").evaluate_all("items => items.map(i => i.dataset.id)")
    cli_ranked = site.cli(
        "recall", "--app", "shop", "--user", "alice", "--now", NOW, "Where do I live?"
    )
    assert ranked == [m["id"] for m in cli_ranked]
    assert ranked[0] == site.ids.munich
    first = page.locator("ol.ranked > li").first
    for component in ("similarity", "lexical", "decay", "confidence"):
        bar = first.locator(f'[data-component="{component}"]')
        value = float(bar.locator(".value").inner_text())
        width = bar.locator(".fill").evaluate("e => e.style.width")
        assert float(width.rstrip("%")) == pytest.approx(min(1.0, max(0.0, value)) * 100, abs=0.1)
    block = page.locator("pre.block").inner_text()
    assert block.splitlines()[1] == "<memories>"
    assert site.ids.munich_text in block and site.ids.berlin_text not in block
    assert int(page.locator(".chars").inner_text()) == len(block)


def test_lifecycle_dry_run_shows_what_would_change(site: Site, page: Any) -> None:
    before = site.statuses()
    open_scope(page, site)
    page.get_by_role("link", name="GC and consolidation dry run").click()
    page.fill('input[name="now"]', "2026-12-01T00:00:00Z")
    page.get_by_role("button", name="Dry run").click()
    page.wait_for_selector("section.gc")
    expired = page.locator(".expired li").evaluate_all("items => items.map(i => i.dataset.id)")
    assert expired == [site.ids.berlin]
    assert site.statuses() == before


def test_without_the_token_the_page_changes_nothing(site: Site, page: Any) -> None:
    before = site.statuses()
    page.goto(f"{site.base}scope?app=shop&user=alice")
    assert "Read-only view" in page.inner_text("main")
    page.locator(f'tr.memory[data-id="{site.ids.munich}"] button[data-action="forget"]').click()
    page.wait_for_selector("p.error")
    assert "nothing was changed" in page.inner_text("p.error")
    assert site.statuses() == before


def test_forget_and_restore_from_the_page_match_the_cli(site: Site, page: Any) -> None:
    source = site.ids.sources[0]
    open_scope(page, site)
    page.locator(f'tr.memory[data-id="{source}"] button[data-action="restore"]').click()
    page.wait_for_selector("p.notice")
    assert "Restored" in page.inner_text("p.notice")
    assert page.locator("dl.facts .badge").inner_text() == "active"
    assert site.statuses()[source] == "active"

    open_scope(page, site)
    page.locator(f'tr.memory[data-id="{site.ids.peanuts}"] button[data-action="forget"]').click()
    page.wait_for_selector("p.notice")
    assert "Forgot" in page.inner_text("p.notice")
    assert site.ids.peanuts not in row_ids(page)
    assert site.ids.peanuts not in site.statuses()
    assert row_ids(page) == set(site.statuses())


def test_erase_from_the_page_after_typed_confirmation(site: Site, page: Any) -> None:
    open_scope(page, site, OTHER)
    erase = page.locator("form.erase button")
    page.fill('form.erase input[name="confirm"]', "bo")
    assert erase.is_disabled()
    page.fill('form.erase input[name="confirm"]', "bob")
    assert erase.is_enabled()
    erase.click()
    page.wait_for_selector("p.notice, p.error")
    assert page.locator("p.error").count() == 0, page.inner_text("p.error")
    assert "Erased 1 memories of shop/bob" in page.inner_text("p.notice")
    assert page.locator('tr.scope[data-user="bob"]').count() == 0
    assert site.statuses(OTHER) == {}
