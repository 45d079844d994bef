"""A backend outage in the middle of a conversation loses no fact, also across a restart.

Through the real plugin, service and stores, with the emulator serving Memory Bank and
Vector Search on their real wire formats and failing every request (503) while the outage
lasts. A fact is stored when a search for it finds it afterwards.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from adk_memory.adk.plugin import MemoryPlugin
from adk_memory.adk.service import AdkMemoryService
from adk_memory.factory import build_engine
from adk_memory.model import Scope
from adk_memory.stores.memory_bank.store import MemoryBankStore
from adk_memory.testing.emulator import EmulatorServer
from tests.adk.support import APP, USER, Harness, until
from tests.stores.memory_bank.support import client_factory, new_engine, set_faults
from tests.stores.vector_search.support import emulator_store, new_deployment

FACTS = [
    ("I live in Lisbon.", "Where do I live?", "Lisbon"),
    ("I work at Acme.", "Where do I work?", "Acme"),
    ("I am allergic to peanuts.", "What am I allergic to?", "peanuts"),
    ("My dog is called Pixel.", "What is my dog called?", "Pixel"),
    ("I play the cello on weekends.", "Which instrument do I play?", "cello"),
    ("I drive a blue Volvo.", "Which car do I drive?", "Volvo"),
]
OUTAGE = range(2, 4)  # the third and fourth facts are stated while the backend is down
#: Store retries short enough that a save fails fast during the outage.
FAST_FAIL = {"retry_initial": 0.01, "retry_max": 0.02, "retry_deadline": 0.3, "retry_attempts": 2}

OpenService = Callable[[], Awaitable[AdkMemoryService]]


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    # Its own emulator: the faults injected here must not reach other tests.
    emulator = EmulatorServer().start()
    yield emulator
    emulator.stop()


@pytest.fixture(autouse=True)
def healthy(server: EmulatorServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    set_faults(server)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))


@pytest.fixture(params=["memory_bank", "vector_search"])
def open_service(
    request: pytest.FixtureRequest, server: EmulatorServer, tmp_path: Path
) -> OpenService:
    """Opens a new service (as a new process would) on one backend deployment."""
    if request.param == "memory_bank":
        engine_name = new_engine(server)

        async def memory_bank() -> AdkMemoryService:
            store = MemoryBankStore(
                engine_name,
                client_factory=client_factory(server.base_url),
                call_timeout=2.0,
                poll_interval=0.01,
                **FAST_FAIL,
            )
            return AdkMemoryService(build_engine(store))

        return memory_bank
    names = new_deployment(server)

    async def vector_search() -> AdkMemoryService:
        store = await emulator_store(server, tmp_path / "docs.db", names, **FAST_FAIL)
        return AdkMemoryService(build_engine(store))

    return vector_search


def plugin_for(service: AdkMemoryService, outbox: Path) -> MemoryPlugin:
    return MemoryPlugin(
        service, debounce_s=0, outbox=outbox, close_timeout_s=2.0, speculative_prefetch=False
    )


async def state(app: Harness, session: str, server: EmulatorServer, index: int) -> None:
    """States fact `index`, with the backend down for the outage turns."""
    set_faults(server, error_rate=1.0, error_code=503) if index in OUTAGE else set_faults(server)
    failures = app.plugin.saves.stats.failures
    await app.turn(session, FACTS[index][0])
    if index in OUTAGE:  # the save really was tried, and failed, during the outage
        await until(lambda: app.plugin.saves.stats.failures > failures, timeout_s=60)


async def missing(service: AdkMemoryService, user: str = USER) -> list[str]:
    """The facts a search does not find in the user's memory."""
    engine = await service.engine()
    lost = []
    for _, question, word in FACTS:
        found = await engine.recall(Scope(app_name=APP, user_id=user), question, top_k=10)
        if not any(word in m.record.text for m in found):
            lost.append(word)
    return lost


async def test_facts_stated_during_an_outage_are_stored_after_it(
    open_service: OpenService, server: EmulatorServer, tmp_path: Path
) -> None:
    service = await open_service()
    app = Harness(service, plugin_for(service, tmp_path / "outbox.db"))
    try:
        session = await app.new_session()
        for index in range(len(FACTS)):
            await state(app, session, server, index)
        await app.plugin.flush()
        lost = await missing(service)
        leaked = await missing(service, user="bob")
    finally:
        await app.close()
        await service.close()

    assert app.plugin.saves.stats.failures >= len(OUTAGE)
    assert app.plugin.saves.stats.replayed >= len(OUTAGE)
    assert app.plugin.saves.stats.given_up == 0
    assert lost == []
    assert len(leaked) == len(FACTS)  # nothing of alice's appears under another user


async def test_facts_stated_during_an_outage_survive_a_restart(
    open_service: OpenService, server: EmulatorServer, tmp_path: Path
) -> None:
    outbox = tmp_path / "outbox.db"
    service = await open_service()
    app = Harness(service, plugin_for(service, outbox))
    try:
        session = await app.new_session()
        for index in range(OUTAGE.stop):
            await state(app, session, server, index)
    finally:
        await app.close()  # stops while the backend is still down
        await service.close()

    set_faults(server)  # the backend recovers; a new process starts on the same outbox
    service = await open_service()
    plugin = plugin_for(service, outbox)
    app = Harness(service, plugin)
    try:
        session = await app.new_session()
        for index in range(OUTAGE.stop, len(FACTS)):
            await state(app, session, server, index)
        await plugin.flush()
        lost = await missing(service)
    finally:
        await app.close()
        await service.close()

    assert plugin.saves.stats.replayed >= len(OUTAGE)
    assert lost == []
