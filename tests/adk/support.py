"""A real ADK app (Runner + App + ScriptedLlm + MemoryPlugin) to drive turns through."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from google.adk.agents import LlmAgent
from google.adk.agents.context_cache_config import ContextCacheConfig
from google.adk.apps import App
from google.adk.events.event import Event
from google.adk.memory.base_memory_service import BaseMemoryService, SearchMemoryResponse
from google.adk.models.gemini_context_cache_manager import GeminiContextCacheManager
from google.adk.models.llm_request import LlmRequest
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.load_memory_tool import load_memory_tool
from google.genai import Client, types

from adk_memory.adk.events import content_text
from adk_memory.adk.memory_block import is_memory_content
from adk_memory.adk.plugin import MemoryPlugin
from adk_memory.adk.service import AdkMemoryService
from adk_memory.model import IngestResult
from adk_memory.testing.scripted_llm import ScriptedLlm

APP = "memtest"
USER = "alice"


@dataclass
class Turn:
    events: list[Event]
    seconds: float

    @property
    def reply(self) -> str:
        texts = [
            p.text
            for e in self.events
            if e.author != "user" and e.content and e.content.parts
            for p in e.content.parts
            if p.text
        ]
        return texts[-1] if texts else ""


class Harness:
    """One app with the plugin, an in-memory session service and the given memory service."""

    def __init__(
        self,
        service: BaseMemoryService | None,
        plugin: MemoryPlugin | None,
        *,
        llm: ScriptedLlm | None = None,
        context_cache_config: ContextCacheConfig | None = None,
        tools: Sequence[BaseTool] = (),
    ) -> None:
        self.llm = llm or ScriptedLlm()
        self.plugin = plugin
        agent = LlmAgent(
            name="assistant",
            model=self.llm,
            instruction="You are a helpful assistant.",
            tools=[*tools, load_memory_tool],
        )
        plugins: list[BasePlugin] = [plugin] if plugin is not None else []
        self.runner = Runner(
            app=App(
                name=APP,
                root_agent=agent,
                plugins=plugins,
                context_cache_config=context_cache_config,
            ),
            session_service=InMemorySessionService(),
            memory_service=service,
        )

    async def new_session(self) -> str:
        session = await self.runner.session_service.create_session(app_name=APP, user_id=USER)
        return session.id

    async def turn(self, session_id: str, text: str) -> Turn:
        message = types.Content(role="user", parts=[types.Part(text=text)])
        started = time.perf_counter()
        events = [
            e
            async for e in self.runner.run_async(
                user_id=USER, session_id=session_id, new_message=message
            )
        ]
        return Turn(events=events, seconds=time.perf_counter() - started)

    async def session_events(self, session_id: str) -> list[Event]:
        session = await self.runner.session_service.get_session(
            app_name=APP, user_id=USER, session_id=session_id
        )
        assert session is not None
        return list(session.events)

    def requests_with_memories(self) -> list[LlmRequest]:
        return [r for r in self.llm.requests if memory_block(r)]

    async def close(self) -> None:
        await self.runner.close()


def system_instruction(request: LlmRequest) -> str:
    instruction = request.config.system_instruction if request.config else None
    return instruction if isinstance(instruction, str) else ""


def memory_block(request: LlmRequest) -> str:
    """The text of the memory content a request carries ("" when it carries none)."""
    blocks = [content_text(c) for c in request.contents if is_memory_content(c)]
    assert len(blocks) <= 1, "one memory block per model call"
    return blocks[0] if blocks else ""


async def until(condition: Callable[[], bool], timeout_s: float = 10.0) -> None:
    """Waits until `condition()` holds (polling; the timeout only bounds a broken test)."""
    async with asyncio.timeout(timeout_s):
        while True:  # polls state it cannot subscribe to
            if condition():
                return
            await asyncio.sleep(0.01)


async def prefix_fingerprint(request: LlmRequest, contents: int | None = None) -> str:
    """ADK's context-cache fingerprint of a request's cacheable prefix: system instruction,
    tools and the first `contents` contents (default: all before the last user batch, the
    count ADK caches), computed by ADK's own `GeminiContextCacheManager`."""
    manager = GeminiContextCacheManager(Client(api_key="offline"))
    if contents is None:
        metadata = await manager.handle_context_caching(
            request.model_copy(update={"cache_metadata": None})
        )
        assert metadata is not None
        contents = metadata.contents_count
    # Cut after the prefix, whose last content is never a user's: ADK then fingerprints
    # exactly these contents (no cache exists yet, so nothing is created or sent).
    prefix = request.model_copy(
        update={"contents": request.contents[:contents], "cache_metadata": None}
    )
    metadata = await manager.handle_context_caching(prefix)
    assert metadata is not None and metadata.contents_count == contents
    return metadata.fingerprint


async def cache_misses(requests: Sequence[LlmRequest]) -> list[int]:
    """Indexes of the requests whose prefix no longer matches the previous request's
    cacheable prefix (what ADK checks before it reuses or extends a cache)."""
    misses = []
    for i in range(1, len(requests)):
        manager = GeminiContextCacheManager(Client(api_key="offline"))
        previous = await manager.handle_context_caching(
            requests[i - 1].model_copy(update={"cache_metadata": None})
        )
        assert previous is not None
        count = previous.contents_count
        if await prefix_fingerprint(requests[i], count) != previous.fingerprint:
            misses.append(i)
    return misses


class SlowSearchService(AdkMemoryService):
    """The real service with `search_memory` delayed (a slow backend)."""

    def __init__(self, *, store_uri: str, delay_s: float) -> None:
        super().__init__(store_uri=store_uri)
        self.delay_s = delay_s
        self.searches = 0
        self.finished = 0

    async def search_memory(
        self, *, app_name: str, user_id: str, query: str
    ) -> SearchMemoryResponse:
        self.searches += 1
        await asyncio.sleep(self.delay_s)
        response = await super().search_memory(app_name=app_name, user_id=user_id, query=query)
        self.finished += 1
        return response


class CountingService(AdkMemoryService):
    """A real service that counts its searches and their queries."""

    def __init__(self, *, store_uri: str) -> None:
        super().__init__(store_uri=store_uri)
        self.queries: list[str] = []

    async def search_memory(
        self, *, app_name: str, user_id: str, query: str
    ) -> SearchMemoryResponse:
        self.queries.append(query)
        return await super().search_memory(app_name=app_name, user_id=user_id, query=query)


class BrokenService(AdkMemoryService):
    """The real service whose backend fails on every search and save."""

    async def search_memory(
        self, *, app_name: str, user_id: str, query: str
    ) -> SearchMemoryResponse:
        raise ConnectionError("backend unavailable")

    async def add_events_to_memory(self, **kwargs: object) -> None:
        raise ConnectionError("backend unavailable")


@dataclass
class Save:
    session_id: str | None
    event_ids: list[str]
    result: IngestResult


class RecordingService(AdkMemoryService):
    """The real service, keeping what each save sent and what the engine did with it."""

    def __init__(self, *, store_uri: str) -> None:
        super().__init__(store_uri=store_uri)
        self.saves: list[Save] = []

    async def add_events_to_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        events: Sequence[Event],
        session_id: str | None = None,
        custom_metadata: object = None,
    ) -> None:
        result = await self.ingest_events(
            app_name=app_name, user_id=user_id, events=events, session_id=session_id
        )
        self.saves.append(Save(session_id, [e.id for e in events], result))
