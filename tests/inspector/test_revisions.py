"""The inspector over Memory Bank's revisions (server consolidation, real SDK, the emulator):
the history page labels each earlier value for what happened to it and offers to restore it;
restoring one rolls the memory back, behind the same token as every action."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from adk_memory.engine import MemoryEngine
from adk_memory.factory import build_engine
from adk_memory.inspector import create_app
from adk_memory.model import MemoryRecord, Scope
from adk_memory.stores.memory_bank.generated import MemoryBankGeneratedStore
from adk_memory.testing.emulator import EmulatorServer
from tests.inspector.conftest import TOKEN
from tests.stores.memory_bank.support import emulator_store, shared_emulator

ALICE = Scope(app_name="shop", user_id="alice")
BOB = Scope(app_name="shop", user_id="bob")
T0 = datetime(2026, 1, 5, 10, 0, tzinfo=UTC)
BEFORE, AFTER = "I have two cats.", "I have three cats."
JSON = {"accept": "application/json"}


def params(scope: Scope) -> dict[str, str]:
    return {"app": scope.app_name, "user": scope.user_id}


@pytest.fixture
def emulator() -> EmulatorServer:
    return shared_emulator()


@pytest.fixture
async def engine(emulator: EmulatorServer) -> AsyncIterator[MemoryEngine]:
    built = build_engine(emulator_store(emulator, store_class=MemoryBankGeneratedStore))
    yield built
    await built.close()


@pytest.fixture
async def http(engine: MemoryEngine) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(engine, token=TOKEN, protect_reads=False)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        yield client


async def updated_in_place(engine: MemoryEngine) -> MemoryRecord:
    """A fact and its update, which Memory Bank merges into the same memory."""
    await engine.remember(ALICE, BEFORE, at=T0)
    await engine.remember(ALICE, AFTER, at=T0 + timedelta(days=30))
    (current,) = (await engine.list(ALICE)).records
    assert current.text == AFTER
    return current


async def timeline(http: httpx.AsyncClient, memory_id: str) -> list[dict[str, Any]]:
    response = await http.get(f"/memory/{memory_id}", params=params(ALICE), headers=JSON)
    assert response.status_code == 200, response.text
    entries: list[dict[str, Any]] = response.json()["timeline"]
    return entries


def restore_buttons(page: str) -> int:
    return page.count('data-action="restore"')


async def test_history_labels_the_earlier_value_and_offers_to_restore_it(
    http: httpx.AsyncClient, engine: MemoryEngine
) -> None:
    current = await updated_in_place(engine)
    earlier, now = await timeline(http, current.id)
    assert (earlier["record"]["text"], earlier["record"]["status"]) == (BEFORE, "superseded")
    assert earlier["revision"] and not now["revision"]
    assert earlier["successor"]["id"] == current.id
    assert "updated in place by Memory Bank" in earlier["change"]

    # The current memory's page: Forget for it, Restore for the earlier value in its timeline.
    page = (await http.get(f"/memory/{current.id}", params=params(ALICE))).text
    assert restore_buttons(page) == 1 and page.count('data-action="forget"') == 1
    assert f'name="id" value="{earlier["record"]["id"]}"' in page
    # The earlier value's own page: Restore only (it is forgotten with its memory).
    own = await http.get(f"/memory/{earlier['record']['id']}", params=params(ALICE))
    assert own.status_code == 200
    assert restore_buttons(own.text) == 1 and 'data-action="forget"' not in own.text


async def test_restoring_an_earlier_value_rolls_the_memory_back(
    http: httpx.AsyncClient, engine: MemoryEngine
) -> None:
    current = await updated_in_place(engine)
    earlier = (await timeline(http, current.id))[0]["record"]["id"]

    # Without the token nothing changes.
    refused = await http.post("/actions/restore", data={**params(ALICE), "id": earlier})
    assert refused.status_code == 403 and "nothing was changed" in refused.text
    assert (await engine.get(current.id, ALICE)).text == AFTER

    restored = await http.post(
        "/actions/restore", data={**params(ALICE), "id": earlier, "token": TOKEN}
    )
    assert restored.status_code == 303
    location = restored.headers["location"]
    assert location.startswith(f"/memory/{current.id}?") and "earlier+value" in location
    assert (await engine.get(current.id, ALICE)).text == BEFORE
    landing = await http.get(location)
    assert landing.status_code == 200 and "Rolled" in landing.text

    # The value the rollback replaced: a revision stated after the current value. Its server
    # time is later than the memory's own (engine clock), which must not read as "never
    # became current".
    now, replaced = await timeline(http, current.id)
    assert (now["record"]["text"], now["record"]["status"]) == (BEFORE, "active")
    assert (replaced["record"]["text"], replaced["record"]["status"]) == (AFTER, "superseded")
    assert replaced["revision"]
    assert "rolled back" in replaced["change"]
    assert "never became current" not in replaced["change"]

    # ... and it can be restored in turn, as JSON.
    again = await http.post(
        "/actions/restore",
        data={**params(ALICE), "id": replaced["record"]["id"], "token": TOKEN},
        headers=JSON,
    )
    assert again.json() == {
        "restored": replaced["record"]["id"],
        "memory": current.id,
        "status": "active",
    }
    assert (await engine.get(current.id, ALICE)).text == AFTER


async def test_restore_refuses_another_scopes_revision_and_a_current_memory(
    http: httpx.AsyncClient, engine: MemoryEngine
) -> None:
    current = await updated_in_place(engine)
    await engine.remember(BOB, "I have a dog.", at=T0)
    earlier = (await timeline(http, current.id))[0]["record"]["id"]

    for scope, memory_id, status, message in [
        (BOB, earlier, 404, "no memory"),
        (ALICE, current.id, 400, "only archived memories"),
    ]:
        response = await http.post(
            "/actions/restore",
            data={**params(scope), "id": memory_id, "token": TOKEN},
            headers=JSON,
        )
        assert response.status_code == status
        assert message in response.json()["error"]
    assert (await engine.get(current.id, ALICE)).text == AFTER
