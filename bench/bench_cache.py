"""Context caching with memory: does injecting memories change ADK's cacheable prefix?

    .venv/bin/python -m bench.bench_cache [--turns 20]

One session of `--turns` turns through a real ADK `Runner` whose `App` has
`ContextCacheConfig`, a long fixed system instruction (a realistic agent prompt: caching only
pays above the model's minimum), and the real `AdkMemoryService` over a seeded sqlite store;
every turn asks about another topic, so the memories differ from turn to turn.

For each model call, ADK's own `GeminiContextCacheManager` fingerprints the request's
cacheable prefix (system instruction, tools, contents before the last user batch) and the
benchmark checks what ADK checks before it reuses or extends a cache: does this call's
prefix, cut at the previous call's cached length, still have the previous fingerprint? A
"fingerprint change" is a call whose cache would be invalidated (the whole prefix paid
again). "cacheable prefix tokens" is ADK's estimate (4 characters a token) of the prefix
that stays reusable on the last turn; "re-paid tokens" sums the prefix tokens of the calls
whose fingerprint changed.

Variants: `MemoryPlugin` (memories as a user content at the current turn), the same block
appended to the system instruction (the plugin's placement before this change), and ADK's
`PreloadMemoryTool`.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import tempfile
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from google.adk.agents import LlmAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.context_cache_config import ContextCacheConfig
from google.adk.apps import App
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.models.gemini_context_cache_manager import GeminiContextCacheManager
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.load_memory_tool import load_memory_tool
from google.adk.tools.preload_memory_tool import PreloadMemoryTool
from google.genai import Client, types

from adk_memory.adk.events import content_text
from adk_memory.adk.memory_block import format_memory_block
from adk_memory.adk.plugin import MemoryPlugin
from adk_memory.adk.service import AdkMemoryService
from adk_memory.testing.scripted_llm import ScriptedLlm
from bench.bench_plugin import APP, CHAT, FACTS, USER
from bench.report import command_line, machine, table

MODULE = "bench.bench_cache"
#: A long, fixed agent prompt (~2,500 tokens), as production agents have.
INSTRUCTION = " ".join(
    f"Rule {i}: be precise, cite the user's own words when you rely on them, and keep "
    "answers short unless the user asks for detail."
    for i in range(80)
)


class SystemInstructionMemory(BasePlugin):
    """The same memories and block, appended to the system instruction (the old placement)."""

    def __init__(self, service: AdkMemoryService) -> None:
        super().__init__(name="system_instruction_memory")
        self.service = service

    async def before_model_callback(
        self, *, callback_context: CallbackContext, llm_request: LlmRequest
    ) -> LlmResponse | None:
        query = content_text(callback_context.user_content, separator=" ")
        found = await self.service.search_memory(app_name=APP, user_id=USER, query=query)
        block = format_memory_block(found.memories[:5])
        if block is not None:
            llm_request.append_instructions([block])
        return None


@dataclass
class Result:
    name: str
    calls: int
    changes: int
    cacheable_tokens: int
    repaid_tokens: int
    memories_in_calls: int


# ADK marks its cache manager experimental; the benchmark uses it as ADK's Gemini model does.
warnings.filterwarnings("ignore", message=r"\[EXPERIMENTAL\] GeminiContextCacheManager")


def _tokens(request: LlmRequest, contents: int) -> int:
    """ADK's rough estimate: 4 characters a token, system instruction + tools + contents."""
    chars = len(str(request.config.system_instruction or "")) if request.config else 0
    for tool in (request.config.tools or []) if request.config else []:
        if isinstance(tool, types.Tool):
            chars += len(json.dumps(tool.model_dump(mode="json")))
    chars += sum(len(p.text or "") for c in request.contents[:contents] for p in c.parts or [])
    return chars // 4


async def _fingerprint(
    manager: GeminiContextCacheManager, request: LlmRequest, contents: int | None
) -> tuple[str, int]:
    if contents is None:
        metadata = await manager.handle_context_caching(
            request.model_copy(update={"cache_metadata": None})
        )
        assert metadata is not None
        contents = metadata.contents_count
    prefix = request.model_copy(
        update={"contents": request.contents[:contents], "cache_metadata": None}
    )
    metadata = await manager.handle_context_caching(prefix)
    assert metadata is not None
    return metadata.fingerprint, contents


async def _measure(name: str, requests: Sequence[LlmRequest], marker: str) -> Result:
    manager = GeminiContextCacheManager(Client(api_key="offline"))
    changes = repaid = 0
    for previous, current in itertools.pairwise(requests):
        expected, count = await _fingerprint(manager, previous, None)
        now, _ = await _fingerprint(manager, current, count)
        if now != expected:
            changes += 1
            repaid += _tokens(current, count)
    last = requests[-1]
    _, count = await _fingerprint(manager, last, None)
    with_memories = sum(
        1
        for r in requests
        if marker in str(r.config.system_instruction or "")
        or any(marker in content_text(c) for c in r.contents)
    )
    return Result(name, len(requests), changes, _tokens(last, count), repaid, with_memories)


async def _run_variant(
    name: str,
    service: AdkMemoryService,
    turns: int,
    *,
    plugins: Sequence[BasePlugin] = (),
    tools: Sequence[BaseTool] = (),
    marker: str,
) -> Result:
    llm = ScriptedLlm()
    agent = LlmAgent(
        name="assistant", model=llm, instruction=INSTRUCTION, tools=[*tools, load_memory_tool]
    )
    runner = Runner(
        app=App(
            name=APP,
            root_agent=agent,
            plugins=list(plugins),
            context_cache_config=ContextCacheConfig(cache_intervals=100),
        ),
        session_service=InMemorySessionService(),
        memory_service=service,
    )
    try:
        session = await runner.session_service.create_session(app_name=APP, user_id=USER)
        for i in range(turns):
            message = types.Content(role="user", parts=[types.Part(text=CHAT[i % len(CHAT)])])
            async for _ in runner.run_async(
                user_id=USER, session_id=session.id, new_message=message
            ):
                pass
    finally:
        await runner.close()
    return await _measure(name, llm.requests, marker)


async def run(turns: int) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        store_uri = f"adkmem+sqlite://{Path(tmp).as_posix()}/memory.db"
        service = AdkMemoryService(store_uri=store_uri)
        try:
            await service.add_memory(
                app_name=APP,
                user_id=USER,
                memories=[
                    MemoryEntry(content=types.Content(role="user", parts=[types.Part(text=f)]))
                    for f in FACTS
                ],
            )
            results = [
                await _run_variant(
                    "MemoryPlugin (block at the current turn)",
                    service,
                    turns,
                    plugins=[
                        MemoryPlugin(
                            service, auto_save=False, prefetch_deadline_s=5.0, outbox=False
                        )
                    ],
                    marker="<memories>",
                ),
                await _run_variant(
                    "block in the system instruction (before)",
                    service,
                    turns,
                    plugins=[SystemInstructionMemory(service)],
                    marker="<memories>",
                ),
                await _run_variant(
                    "PreloadMemoryTool",
                    service,
                    turns,
                    tools=[PreloadMemoryTool()],
                    marker="PAST_CONVERSATIONS",
                ),
            ]
        finally:
            await service.close()
    rows = [
        [
            r.name,
            r.calls,
            r.memories_in_calls,
            r.changes,
            r.cacheable_tokens,
            r.repaid_tokens,
        ]
        for r in results
    ]
    headers = [
        "variant",
        "model calls",
        "calls with memories",
        "fingerprint changes",
        "cacheable prefix tokens (last turn)",
        "re-paid prefix tokens",
    ]
    return "\n\n".join(
        [
            "## Context caching: prefix fingerprint changes caused by memory",
            f"{turns} turns of one session, `ContextCacheConfig`, a {len(INSTRUCTION) // 4}-token "
            f"system instruction, memories differing per turn; {machine()}.",
            table(headers, rows),
            f"Reproduce: `{command_line(MODULE, ['--turns', str(turns)])}`",
        ]
    )


def main(argv: Sequence[str] | None = None) -> str:
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}", description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=20, help="Turns of the session (default 20).")
    args = parser.parse_args(argv)
    if args.turns < 2:
        parser.error("--turns must be at least 2")
    report = asyncio.run(run(args.turns))
    print(report)
    return report


if __name__ == "__main__":
    main()
