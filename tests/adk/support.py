"""A real ADK app (Runner + App + ScriptedLlm + MemoryPlugin) to drive turns through."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass

from google.adk.agents import LlmAgent
from google.adk.apps import App
from google.adk.events.event import Event
from google.adk.memory.base_memory_service import BaseMemoryService, SearchMemoryResponse
from google.adk.models.llm_request import LlmRequest
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.adk.tools.load_memory_tool import load_memory_tool
from google.genai import types

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
        plugin: MemoryPlugin,
        *,
        llm: ScriptedLlm | None = None,
    ) -> None:
        self.llm = llm or ScriptedLlm()
        self.plugin = plugin
        agent = LlmAgent(
            name="assistant",
            model=self.llm,
            instruction="You are a helpful assistant.",
            tools=[load_memory_tool],
        )
        self.runner = Runner(
            app=App(name=APP, root_agent=agent, plugins=[plugin]),
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


class SlowSearchService(AdkMemoryService):
    """The real service with `search_memory` delayed (a slow backend)."""

    def __init__(self, *, store_uri: str, delay_s: float) -> None:
        super().__init__(store_uri=store_uri)
        self.delay_s = delay_s
        self.searches = 0

    async def search_memory(
        self, *, app_name: str, user_id: str, query: str
    ) -> SearchMemoryResponse:
        self.searches += 1
        await asyncio.sleep(self.delay_s)
        return await super().search_memory(app_name=app_name, user_id=user_id, query=query)


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
