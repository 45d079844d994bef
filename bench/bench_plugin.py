"""Turn latency that memory adds: `MemoryPlugin` against ADK's `PreloadMemoryTool`.

    .venv/bin/python -m bench.bench_plugin [--turns 200] [--recall-ms 80] [--model-ms 300]

Every variant runs the same agent through a real ADK `Runner`: a model that answers after a
fixed delay (`ScriptedLlm(latency_s=...)`, standing in for a remote model's time to first
token) and the real `AdkMemoryService` over a seeded sqlite store whose `search_memory` is
slowed by a fixed delay (a slow backend). Turns of the variants are interleaved, and each
turn's overhead is its latency minus that of the same turn without memory, so drift cancels.

Variants:

* `plugin` — `MemoryPlugin` with its default 300 ms deadline: the search starts when the
  message arrives and runs while ADK appends it to the session and prepares the request;
  the first model call waits for the rest.
* `plugin, 10 ms deadline` — the model call never waits more than 10 ms; memories then
  reach later model calls of the turn (after tool calls) rather than the first.
* `plugin, standby always` — the default before relevance was measured: a ready standby
  result (searched for the previous turn's exchange) is injected whenever it exists.
* `PreloadMemoryTool` — ADK's built-in: searches, blocking, inside every model request.

"hidden" is the share of retrieval time that did not add to the turn (1 − overhead / search
time, and as the plugin's own `hidden_latency_ms` metrics report it); "memories in 1st /
any call" is the share of turns whose first (any) model request carried memories; "right
memories in 1st call" is the mean share of the turn's own top 5 (an unslowed search for the
turn's message on the same store) that the first model request carried. The chat turns
change topic every turn, so memories searched for the previous turn are mostly wrong ones.

`--first-turn N` measures instead the first turn of N fresh processes each, per start-up
mode: the message arriving right at start-up or once the app is warm, with and without the
background warm-up.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from google.adk.agents import LlmAgent
from google.adk.apps import App
from google.adk.memory.base_memory_service import BaseMemoryService, SearchMemoryResponse
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.models.llm_request import LlmRequest
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.load_memory_tool import load_memory_tool
from google.adk.tools.preload_memory_tool import PreloadMemoryTool
from google.genai import types

from adk_memory.adk.events import content_text
from adk_memory.adk.memory_block import BLOCK_OPEN, memory_text
from adk_memory.adk.plugin import MemoryPlugin
from adk_memory.adk.service import AdkMemoryService
from adk_memory.testing.scripted_llm import ScriptedLlm
from adk_memory.text import display_safe
from bench.report import command_line, machine, percentile_ms, table

MODULE = "bench.bench_plugin"
APP = "bench"
USER = "user"
FACTS = [
    "I live in Berlin.",
    "I work at Acme as a data engineer.",
    "I am allergic to peanuts.",
    "I prefer window seats on flights.",
    "My sister Anna lives in Vienna.",
    "I am vegetarian.",
    "I play the cello on weekends.",
    "I drive a blue Volvo.",
    "My favourite cuisine is Japanese.",
    "I am learning Spanish.",
    "I run a half marathon every spring.",
    "My dog is called Pixel.",
]
#: Chat turns: one model call each.
CHAT = [
    "Can you suggest a restaurant for tonight?",
    "Book me a flight to Madrid next month.",
    "What should I cook for my sister's visit?",
    "Plan a weekend that fits my hobbies.",
    "Which car service do I need before winter?",
    "Help me practise some phrases for my trip.",
    "What snacks can I bring to the office party?",
    "Suggest a training plan for this spring.",
]
#: Tool turns: the model calls `load_memory`, then answers (two model calls).
TOOL = [
    "What do you remember about my food allergies?",
    "What do you remember about my family?",
    "What do you remember about my hobbies?",
    "What do you remember about my car?",
]


class SlowRecallService(AdkMemoryService):
    """The real service with every search delayed by a fixed time (a slow backend)."""

    def __init__(self, *, store_uri: str, delay_s: float, warm_up: bool = True) -> None:
        super().__init__(store_uri=store_uri, warm_up=warm_up)
        self.delay_s = delay_s
        self.search_s: list[float] = []

    async def search_memory(
        self, *, app_name: str, user_id: str, query: str
    ) -> SearchMemoryResponse:
        started = time.perf_counter()
        await asyncio.sleep(self.delay_s)
        response = await super().search_memory(app_name=app_name, user_id=user_id, query=query)
        self.search_s.append(time.perf_counter() - started)
        return response


@dataclass
class Variant:
    name: str
    runner: Runner
    llm: ScriptedLlm
    service: SlowRecallService | None
    plugin: MemoryPlugin | None = None
    turns_s: list[float] = field(default_factory=list)
    first_call: int = 0
    any_call: int = 0
    #: Per turn: share of the turn's own top 5 that its first model call carried.
    relevance: list[float] = field(default_factory=list)

    async def turn(self, session_id: str, text: str, reference: Sequence[str] = ()) -> None:
        message = types.Content(role="user", parts=[types.Part(text=text)])
        seen = len(self.llm.requests)
        started = time.perf_counter()
        async for _ in self.runner.run_async(
            user_id=USER, session_id=session_id, new_message=message
        ):
            pass
        self.turns_s.append(time.perf_counter() - started)
        requests = self.llm.requests[seen:]
        carried = [bool(_memories_text(r)) for r in requests]
        self.first_call += bool(carried and carried[0])
        self.any_call += any(carried)
        if reference and requests:
            first = _memories_text(requests[0])
            self.relevance.append(sum(t in first for t in reference) / len(reference))


def _memories_text(request: LlmRequest) -> str:
    """The memory text a model request carries (unescaped), "" when none."""
    instruction = request.config.system_instruction if request.config else None
    texts = [instruction] if isinstance(instruction, str) and BLOCK_OPEN in instruction else []
    # The plugin's block and PreloadMemoryTool's travel as user contents at the current turn.
    texts += [
        content_text(c)
        for c in request.contents
        if any(m in content_text(c) for m in (BLOCK_OPEN, "PAST_CONVERSATIONS"))
    ]
    return html.unescape("\n".join(texts))


async def _reference(service: AdkMemoryService, query: str) -> list[str]:
    """The turn's own top 5, as the texts a model request shows."""
    found = await service.search_memory(app_name=APP, user_id=USER, query=query)
    return [display_safe(memory_text(m)) for m in found.memories[:5]]


def _variant(
    name: str,
    *,
    model_s: float,
    service: SlowRecallService | None,
    plugin: MemoryPlugin | None = None,
    tools: Sequence[BaseTool] = (),
) -> Variant:
    llm = ScriptedLlm(latency_s=model_s)
    plugins: list[BasePlugin] = [plugin] if plugin is not None else []
    agent = LlmAgent(
        name="assistant", model=llm, instruction="Be helpful.", tools=[*tools, load_memory_tool]
    )
    memory: BaseMemoryService | None = service
    runner = Runner(
        app=App(name=APP, root_agent=agent, plugins=plugins),
        session_service=InMemorySessionService(),
        memory_service=memory,
    )
    return Variant(name, runner, llm, service, plugin)


async def _seed(store_uri: str) -> None:
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
    finally:
        await service.close()


async def run(
    turns: int, recall_s: float, model_s: float, turns_per_session: int, scenario: str
) -> str:
    queries = TOOL if scenario == "tool" else CHAT
    with tempfile.TemporaryDirectory() as tmp:
        store_uri = f"adkmem+sqlite://{Path(tmp).as_posix()}/memory.db"
        await _seed(store_uri)

        def slow() -> SlowRecallService:
            return SlowRecallService(store_uri=store_uri, delay_s=recall_s)

        # Tool turns need a memory service for load_memory even without prefetching.
        baseline = _variant(
            "no prefetch" if scenario == "tool" else "no memory",
            model_s=model_s,
            service=slow() if scenario == "tool" else None,
        )
        plugin_service, short_service, preload_service = slow(), slow(), slow()
        always_service, reference = slow(), AdkMemoryService(store_uri=store_uri)
        variants = [
            baseline,
            _variant(
                "MemoryPlugin (300 ms deadline)",
                model_s=model_s,
                service=plugin_service,
                plugin=MemoryPlugin(plugin_service, auto_save=False),
            ),
            _variant(
                "MemoryPlugin (10 ms deadline)",
                model_s=model_s,
                service=short_service,
                plugin=MemoryPlugin(short_service, auto_save=False, prefetch_deadline_s=0.01),
            ),
            _variant(
                "MemoryPlugin (standby always)",
                model_s=model_s,
                service=always_service,
                plugin=MemoryPlugin(always_service, auto_save=False, standby_reuse="always"),
            ),
            _variant(
                "PreloadMemoryTool",
                model_s=model_s,
                service=preload_service,
                tools=[PreloadMemoryTool()],
            ),
        ]
        try:
            for variant in variants:  # warm-up: model load, first-use costs
                session = await variant.runner.session_service.create_session(
                    app_name=APP, user_id=USER
                )
                await variant.turn(session.id, queries[0])
                variant.turns_s.clear()
                variant.relevance.clear()
                variant.first_call = variant.any_call = 0
                if variant.service is not None:
                    variant.service.search_s.clear()
                if variant.plugin is not None:
                    variant.plugin.metrics.clear()
            sessions: dict[str, str] = {}
            for i in range(turns):
                if i % turns_per_session == 0:
                    for variant in variants:
                        session = await variant.runner.session_service.create_session(
                            app_name=APP, user_id=USER
                        )
                        sessions[variant.name] = session.id
                # Rotate the order so no variant always runs right after another.
                query = queries[i % len(queries)]
                expected = await _reference(reference, query)
                shift = i % len(variants)
                for variant in variants[shift:] + variants[:shift]:
                    await variant.turn(sessions[variant.name], query, expected)
        finally:
            await reference.close()
            for variant in variants:
                await variant.runner.close()
                if variant.service is not None:
                    await variant.service.close()
        return _report(variants, turns, recall_s, model_s, turns_per_session, scenario)


def _report(
    variants: Sequence[Variant],
    turns: int,
    recall_s: float,
    model_s: float,
    per_session: int,
    scenario: str,
) -> str:
    baseline, *others = variants
    rows: list[list[object]] = [
        [
            baseline.name,
            f"{statistics.median(baseline.turns_s) * 1000:.1f}",
            "—",
            "—",
            "—",
            "—",
            "—",
            "—",
            "—",
            "—",
        ]
    ]
    for variant in others:
        overhead = [m - b for m, b in zip(variant.turns_s, baseline.turns_s, strict=True)]
        assert variant.service is not None
        # The plugin's own searches only; load_memory's (tool scenario) are everyone's cost.
        searches = (
            [m.search_ms / 1000 for m in variant.plugin.metrics if m.search_ms is not None]
            if variant.plugin is not None
            else variant.service.search_s
        )
        search_median = statistics.median(searches) if searches else float("nan")
        hidden = min(1.0, max(0.0, 1.0 - statistics.median(overhead) / search_median))
        rows.append(
            [
                variant.name,
                f"{statistics.median(variant.turns_s) * 1000:.1f}",
                f"{percentile_ms(overhead, 50):.1f}",
                f"{percentile_ms(overhead, 95):.1f}",
                f"{search_median * 1000:.1f}",
                f"{hidden:.0%}",
                _plugin_hidden(variant),
                f"{variant.first_call / turns:.0%}",
                f"{variant.any_call / turns:.0%}",
                f"{statistics.mean(variant.relevance):.0%}" if variant.relevance else "—",
            ]
        )
    argv = [
        "--turns",
        str(turns),
        "--recall-ms",
        f"{recall_s * 1000:g}",
        "--model-ms",
        f"{model_s * 1000:g}",
        "--turns-per-session",
        str(per_session),
        "--scenario",
        scenario,
    ]
    headers = [
        "variant",
        "turn median ms",
        "overhead median ms",
        "overhead p95 ms",
        "search median ms",
        "hidden",
        "hidden (plugin metric)",
        "memories in 1st call",
        "in any call",
        "right memories in 1st call",
    ]
    return "\n\n".join(
        [
            f"## Memory plugin: latency added per turn ({scenario} turns)",
            f"{turns} turns per variant, search slowed by {recall_s * 1000:g} ms, model "
            f"answering after {model_s * 1000:g} ms; {machine()}.",
            table(headers, rows),
            f"Reproduce: `{command_line(MODULE, argv)}`",
        ]
    )


def _plugin_hidden(variant: Variant) -> str:
    """Share of search time overlapped with other work, from the plugin's turn metrics."""
    if variant.plugin is None:
        return "—"
    done = [m for m in variant.plugin.metrics if m.search_ms and m.hidden_latency_ms is not None]
    total = sum(m.search_ms or 0.0 for m in done)
    return f"{sum(m.hidden_latency_ms or 0.0 for m in done) / total:.0%}" if total else "—"


#: (name, background warm-up, the message waits until the app is warm)
START_UPS = [
    ("message right at start-up, warm-up on", True, False),
    ("message right at start-up, warm-up off", False, False),
    ("message once the app is warm, warm-up on", True, True),
]
FIRST_QUESTION = "What snacks can I bring to the office party?"


async def _first_turn(
    store_uri: str, recall_s: float, model_s: float, warm: bool, wait: bool
) -> dict[str, object]:
    """One fresh process's first turn (run in a child process)."""
    started = time.perf_counter()
    service = SlowRecallService(store_uri=store_uri, delay_s=recall_s, warm_up=warm)
    plugin = MemoryPlugin(service, auto_save=False, warm_up=warm, outbox=False)
    variant = _variant("first turn", model_s=model_s, service=service, plugin=plugin)
    try:
        session = await variant.runner.session_service.create_session(app_name=APP, user_id=USER)
        if wait:
            await service.wait_until_warm()
        ready = time.perf_counter()
        await variant.turn(session.id, FIRST_QUESTION)
    finally:
        await variant.runner.close()
        await service.close()
    return {
        "ready_ms": (ready - started) * 1000,
        "turn_ms": variant.turns_s[0] * 1000,
        "first_call": variant.first_call,
        "metrics": [m.model_dump() for m in plugin.metrics],
    }


def run_first_turns(processes: int, recall_s: float, model_s: float) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        store_uri = f"adkmem+sqlite://{Path(tmp).as_posix()}/memory.db"
        asyncio.run(_seed(store_uri))
        rows: list[list[object]] = []
        for name, warm, wait in START_UPS:
            runs = []
            for _ in range(processes):
                child = subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        MODULE,
                        "--child",
                        json.dumps([store_uri, recall_s, model_s, warm, wait]),
                    ],
                    capture_output=True,
                    text=True,
                    check=True,
                    env={**os.environ, "XDG_DATA_HOME": tmp},
                )
                runs.append(json.loads(child.stdout.strip().splitlines()[-1]))
            rows.append(
                [
                    name,
                    processes,
                    f"{statistics.median(float(r['ready_ms']) for r in runs):.0f}",
                    f"{statistics.median(float(r['turn_ms']) for r in runs):.0f}",
                    f"{sum(int(r['first_call']) for r in runs) / processes:.0%}",
                ]
            )
    headers = [
        "start-up",
        "processes",
        "start to message ms",
        "first turn ms",
        "memories in 1st call",
    ]
    argv = [
        "--first-turn",
        str(processes),
        "--recall-ms",
        f"{recall_s * 1000:g}",
        "--model-ms",
        f"{model_s * 1000:g}",
    ]
    return "\n\n".join(
        [
            "## Memory plugin: the first turn of a fresh process",
            f"Each row: {processes} fresh processes, one turn each, search slowed by "
            f"{recall_s * 1000:g} ms, model answering after {model_s * 1000:g} ms; {machine()}.",
            table(headers, rows),
            f"Reproduce: `{command_line(MODULE, argv)}`",
        ]
    )


def main(argv: Sequence[str] | None = None) -> str:
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}", description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=200, help="Turns per variant (default 200).")
    parser.add_argument("--recall-ms", type=float, default=80.0, help="Added search delay.")
    parser.add_argument("--model-ms", type=float, default=300.0, help="Model response delay.")
    parser.add_argument("--turns-per-session", type=int, default=10)
    parser.add_argument(
        "--scenario",
        choices=["chat", "tool"],
        default="chat",
        help="chat: one model call per turn; tool: load_memory, then an answer.",
    )
    parser.add_argument(
        "--first-turn",
        type=int,
        default=0,
        metavar="N",
        help="Measure the first turn of N fresh processes per start-up mode instead.",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        store_uri, recall_s, model_s, warm, wait = json.loads(args.child)
        result = asyncio.run(_first_turn(store_uri, recall_s, model_s, warm, wait))
        print(json.dumps(result))
        return json.dumps(result)
    if args.turns < 1 or args.turns_per_session < 1:
        parser.error("--turns and --turns-per-session must be at least 1")
    if args.first_turn:
        report = run_first_turns(args.first_turn, args.recall_ms / 1000, args.model_ms / 1000)
        print(report)
        return report
    report = asyncio.run(
        run(
            args.turns,
            args.recall_ms / 1000,
            args.model_ms / 1000,
            args.turns_per_session,
            args.scenario,
        )
    )
    print(report)
    return report


if __name__ == "__main__":
    main()
