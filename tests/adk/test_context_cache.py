"""Memory injection keeps ADK's context cache: the cacheable prefix never changes with the
memories, through a real `Runner`/`App` with `ContextCacheConfig`."""

from __future__ import annotations

from google.adk.agents.context_cache_config import ContextCacheConfig
from google.adk.models.llm_request import LlmRequest

from adk_memory.adk.events import content_text
from adk_memory.adk.memory_block import parse_memory_block
from adk_memory.adk.plugin import MemoryPlugin
from adk_memory.adk.service import AdkMemoryService
from tests.adk.support import Harness, cache_misses, memory_block, system_instruction
from tests.adk.test_plugin_flow import remember

QUESTIONS = ["Where do I live?", "What car do I drive?", "Which pet do I have?", "Where do I live?"]


def memories(request: LlmRequest) -> list[str]:
    return parse_memory_block(memory_block(request))


async def test_system_instruction_and_prefix_stay_identical_while_memories_change(
    service: AdkMemoryService,
) -> None:
    await remember(service, "I live in Berlin.", "I drive a blue Volvo.", "My dog is Pixel.")
    plugin = MemoryPlugin(service, auto_save=False, top_k=1, speculative_prefetch=False)
    app = Harness(service, plugin, context_cache_config=ContextCacheConfig(cache_intervals=20))
    try:
        session = await app.new_session()
        for question in QUESTIONS:
            await app.turn(session, question)
    finally:
        await app.close()

    requests = app.llm.requests
    assert len(requests) == len(QUESTIONS)
    assert all(r.cache_config is not None for r in requests)  # caching is on for the app
    # Memories differ from turn to turn and are in every request...
    carried = [memories(r) for r in requests]
    assert all(len(m) == 1 for m in carried)
    assert len({m[0] for m in carried}) == 3
    assert "Berlin" in carried[0][0] and "Volvo" in carried[1][0]
    # ...while what ADK's cache fingerprints does not change.
    assert len({system_instruction(r) for r in requests}) == 1
    assert await cache_misses(requests) == []
    # The block sits at the current turn: right before the user's message.
    for request in requests:
        assert memory_block(request) == content_text(request.contents[-2])
        assert request.contents[-1].role == "user"


async def test_a_block_in_the_system_instruction_would_miss_the_cache(
    service: AdkMemoryService,
) -> None:
    """The measurement itself: the old placement changes the prefix on every turn."""
    from google.adk.plugins.base_plugin import BasePlugin

    from adk_memory.adk.memory_block import format_memory_block

    class SystemInstructionPlugin(BasePlugin):
        async def before_model_callback(self, *, callback_context, llm_request):  # type: ignore[no-untyped-def]
            query = callback_context.user_content.parts[0].text
            found = await service.search_memory(app_name="memtest", user_id="alice", query=query)
            block = format_memory_block(found.memories[:1])
            llm_request.append_instructions([block or ""])

    await remember(service, "I live in Berlin.", "I drive a blue Volvo.", "My dog is Pixel.")
    app = Harness(
        service,
        SystemInstructionPlugin(name="old"),  # type: ignore[arg-type]
        context_cache_config=ContextCacheConfig(cache_intervals=20),
    )
    try:
        session = await app.new_session()
        for question in QUESTIONS:
            await app.turn(session, question)
    finally:
        await app.close()

    assert len(await cache_misses(app.llm.requests)) == len(QUESTIONS) - 1
