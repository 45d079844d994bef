"""The playground's "what the plugin injects" is what a real ADK turn with `MemoryPlugin`
sends to the model, character for character."""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest

from adk_memory.adk.plugin import MemoryPlugin
from adk_memory.adk.service import AdkMemoryService
from adk_memory.engine import MemoryEngine
from adk_memory.inspector import create_app
from adk_memory.model import Scope
from tests.adk.support import APP, USER, Harness, memory_block
from tests.inspector.conftest import TOKEN
from tests.inspector.support import T0

QUESTION = "Where do I live, and what should I avoid eating?"


@pytest.mark.parametrize("budget", [None, 60])
async def test_playground_block_is_the_block_a_turn_sends(
    engine: MemoryEngine, budget: int | None
) -> None:
    scope = Scope(app_name=APP, user_id=USER)
    for days, text in [
        (0, "I live in Berlin."),
        (1, "I am allergic to peanuts."),
        (2, "I love hiking in the mountains."),
        (40, "I moved to Munich last week."),
    ]:
        await engine.remember(scope, text, at=T0 + timedelta(days=days))
    service = AdkMemoryService(engine, warm_up=False)
    plugin = MemoryPlugin(
        service,
        auto_save=False,
        speculative_prefetch=False,
        prefetch_deadline_s=30.0,
        max_memory_chars=budget,
    )
    app = Harness(service, plugin)
    session = await app.new_session()
    await app.turn(session, QUESTION)
    await app.close()
    sent = {memory_block(r) for r in app.llm.requests}

    inspector = create_app(engine, token=TOKEN, protect_reads=False)
    transport = httpx.ASGITransport(app=inspector)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        params = {"app": APP, "user": USER, "q": QUESTION}
        if budget is not None:
            params["max_chars"] = str(budget)
        shown = (
            await http.get("/recall", params=params, headers={"accept": "application/json"})
        ).json()

    assert shown["block"] and shown["injected"] >= 1
    assert sent == {shown["block"]}
    assert shown["block_chars"] == len(shown["block"])
