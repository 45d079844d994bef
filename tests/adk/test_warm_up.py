"""Warm-up: the store opens and the embedder loads in the background at start-up, so the
first turn of a fresh app has its memories in its first model call."""

from __future__ import annotations

import asyncio
from pathlib import Path

from adk_memory.adk.plugin import MemoryPlugin
from adk_memory.adk.service import AdkMemoryService
from adk_memory.engine import MemoryEngine
from tests.adk.support import Harness, memory_block
from tests.adk.test_plugin_flow import remember


class SlowOpeningService(AdkMemoryService):
    """The real service whose store takes 0.6 s to open (a remote backend's first call)."""

    def __init__(self, *, store_uri: str) -> None:
        super().__init__(store_uri=store_uri)
        self.opened = False

    async def engine(self) -> MemoryEngine:
        if not self.opened:
            await asyncio.sleep(0.6)
            self.opened = True
        return await super().engine()


async def test_a_service_opens_its_store_in_the_background(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    service = AdkMemoryService(store_uri=f"adkmem+sqlite://{db.as_posix()}")
    assert not db.exists()  # construction itself does no I/O on the loop
    await service.wait_until_warm()
    assert db.exists()
    await service.close()


async def test_first_turn_of_a_fresh_app_has_memories_in_its_first_call(tmp_path: Path) -> None:
    store_uri = f"adkmem+sqlite://{tmp_path.as_posix()}/m.db"
    seed = AdkMemoryService(store_uri=store_uri, warm_up=False)
    await remember(seed, "I live in Berlin.")
    await seed.close()
    # ADK's own first-use costs (imports, first run) off the clock: they would hide the wait.
    other = Harness(None, None)
    await other.turn(await other.new_session(), "hello")
    await other.close()

    # A fresh start: the plugin is built with the app and warms up while nobody writes.
    service = SlowOpeningService(store_uri=store_uri)
    plugin = MemoryPlugin(service, auto_save=False, prefetch_deadline_s=0.3, warm_up_wait_s=0)
    app = Harness(service, plugin)
    try:
        session = await app.new_session()
        await service.wait_until_warm()  # the app's start-up time, before the first message
        await app.turn(session, "Where do I live?")
    finally:
        await app.close()
        await service.close()

    first_call = app.llm.requests[0]
    assert "Berlin" in memory_block(first_call)
    assert plugin.metrics[0].injected_from == "fresh" and not plugin.metrics[0].timed_out


async def test_a_message_right_at_start_up_waits_for_the_warm_up_not_without_memories(
    tmp_path: Path,
) -> None:
    store_uri = f"adkmem+sqlite://{tmp_path.as_posix()}/m.db"
    seed = AdkMemoryService(store_uri=store_uri, warm_up=False)
    await remember(seed, "I live in Berlin.")
    await seed.close()
    other = Harness(None, None)
    await other.turn(await other.new_session(), "hello")
    await other.close()

    service = SlowOpeningService(store_uri=store_uri)
    plugin = MemoryPlugin(service, auto_save=False, prefetch_deadline_s=0.3)
    app = Harness(service, plugin)
    try:
        session = await app.new_session()
        await app.turn(session, "Where do I live?")  # while the store is still opening
    finally:
        await app.close()
        await service.close()

    assert "Berlin" in memory_block(app.llm.requests[0])
    assert not plugin.metrics[0].timed_out
