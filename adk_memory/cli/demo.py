"""`adk-memory demo`: an offline replay of a multi-session conversation through an ADK agent.

Part 1 replays three dated sessions through an ADK Runner (the memory plugin injects what is
known before every first model call) and ingests each session with its historical dates,
showing every ADD / REPLACE / NOOP. Part 2 shows the superseded history and a ranked recall
with the score breakdown. Part 3 is a live turn: the plugin prefetches and injects memories
and auto-saves the turn in the background, which supersedes a preference once more.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import click
from google.adk.agents.llm_agent import LlmAgent
from google.adk.apps.app import App
from google.adk.runners import Runner
from google.adk.sessions.in_memory_session_service import InMemorySessionService
from google.adk.sessions.session import Session
from google.adk.tools.load_memory_tool import load_memory_tool
from google.genai import types
from rich.console import Console
from rich.table import Table

from adk_memory.adk.events import content_text
from adk_memory.adk.plugin import MemoryPlugin
from adk_memory.adk.service import AdkMemoryService
from adk_memory.cli.errors import run
from adk_memory.cli.options import json_option
from adk_memory.cli.output import emit_json, print_recall, recalled_json, short_id
from adk_memory.model import IngestResult, Scope, Status
from adk_memory.testing.scripted_llm import ScriptedLlm

APP = "demo_agent"
USER = "sam"

#: (when the session happened, what Sam said). Dates make decay and supersession visible.
SESSIONS: list[tuple[datetime, list[str]]] = [
    (
        datetime(2025, 3, 3, 9, 0, tzinfo=UTC),
        [
            "Hi! I'm Sam. I live in Berlin and I mostly write Java at work.",
            "I like my whiskey neat.",
            "I'm allergic to peanuts.",
            "I like coffee in the morning.",
            "I drive a VW Golf to work.",
            "Our office is on the 4th floor, right by Alexanderplatz.",
        ],
    ),
    (
        datetime(2025, 7, 14, 18, 30, tzinfo=UTC),
        [
            "Big news: we migrated everything from Java to Go.",
            "I'm allergic to cats too.",
            "I like tea in the afternoon.",
            "Last weekend I ran my first half marathon in 1:52.",
        ],
    ),
    (
        datetime(2025, 11, 2, 20, 15, tzinfo=UTC),
        [
            "I moved to Munich last month.",
            "These days I take my whiskey with a splash of water.",
            "I live in Munich now and I love the beer gardens.",
            # An update in words no slot pattern knows: the change is what it displaces.
            "Traded in the Golf for an e-bike, best decision this year.",
            # An update no rule reads at all: nothing is superseded on such weak evidence,
            # and recall still answers with the new office first, the old one marked earlier.
            "The company moved our team to a new office by the Isar.",
        ],
    ),
]
QUERIES = [
    "What programming language does Sam use at work?",
    "How does Sam take his whiskey?",
    "Where does Sam live?",
    "What is Sam allergic to?",
    "What does Sam drive?",
    "Where is Sam's office?",
]
LIVE_TURNS = [
    "Any idea what I should drink tonight?",
    "Actually, I take my whiskey on the rocks now.",
]


async def _run_turns(runner: Runner, session: Session, turns: Sequence[str]) -> list[str]:
    replies: list[str] = []
    for text in turns:
        message = types.Content(role="user", parts=[types.Part(text=text)])
        reply = ""
        async for event in runner.run_async(
            user_id=USER, session_id=session.id, new_message=message
        ):
            reply += content_text(event.content, separator="")
        replies.append(reply)
    return replies


def _decisions_table(title: str, result: IngestResult) -> Table:
    table = Table(title=title)
    for column in ("decision", "memory", "supersedes"):
        table.add_column(column, overflow="fold")
    style = {"ADD": "green", "REPLACE": "yellow", "NOOP": "dim"}
    for o in result.outcomes:
        table.add_row(
            f"[{style[o.decision.value]}]{o.decision.value}[/]",
            o.text,
            ", ".join(short_id(s) for s in o.superseded),
        )
    return table


async def run_demo(store_dir: Path | None, *, console: Console) -> dict[str, Any]:
    """Runs the whole demo, printing to `console`. Returns what it showed, as JSON data."""
    directory = store_dir or Path(tempfile.mkdtemp(prefix="adk-memory-demo-"))
    directory.mkdir(parents=True, exist_ok=True)
    store_uri = f"adkmem+sqlite://{(directory / 'memory.db').resolve().as_posix()}"
    service = AdkMemoryService(store_uri=store_uri)
    sessions = InMemorySessionService()
    scope = Scope(app_name=APP, user_id=USER)
    console.rule("[bold]adk-memory demo[/bold]  (offline: local embeddings, local extractor)")
    console.print(f"store: {store_uri}\n")
    report: dict[str, Any] = {"store": store_uri, "sessions": [], "recall": {}, "live": []}
    try:
        # Replay: the plugin injects memories, but saving is done here with the sessions'
        # historical dates (a live agent's auto-save stamps events with the real time).
        replay = MemoryPlugin(service, auto_save=False)
        agent = LlmAgent(name="assistant", model=ScriptedLlm(), tools=[load_memory_tool])
        runner = Runner(
            app=App(name=APP, root_agent=agent, plugins=[replay]),
            session_service=sessions,
            memory_service=service,
        )
        for number, (when, turns) in enumerate(SESSIONS, start=1):
            session = await sessions.create_session(app_name=APP, user_id=USER)
            replies = await _run_turns(runner, session, turns)
            console.print(f"[bold]Session {number}[/bold] ({when:%d %b %Y})")
            console.print(f"  user: {turns[0]}\n  agent: {replies[0]}")
            stored = await sessions.get_session(app_name=APP, user_id=USER, session_id=session.id)
            assert stored is not None
            for offset, event in enumerate(stored.events):
                event.timestamp = (when + timedelta(seconds=30 * offset)).timestamp()
            result = await service.ingest_events(
                app_name=APP, user_id=USER, events=stored.events, session_id=stored.id
            )
            console.print(_decisions_table(f"session {number}: what memory decided", result))
            report["sessions"].append(
                {
                    "date": when.isoformat(),
                    "decisions": [o.model_dump(mode="json") for o in result.outcomes],
                }
            )
        await replay.close()

        engine = await service.engine()
        console.rule("What changed: superseded facts and their history")
        superseded = await engine.list(scope, statuses=[Status.SUPERSEDED])
        report["history"] = []
        for old in superseded.records:
            chain = await engine.history(old.id)
            report["history"].append([r.text for r in chain])
            console.print(
                " → ".join(
                    f"[strike]{r.text}[/strike]" if r.status is Status.SUPERSEDED else r.text
                    for r in chain
                )
            )

        now = SESSIONS[-1][0] + timedelta(days=1)
        console.rule(f"Ranked recall as of {now:%d %b %Y} (score = sim · decay · confidence)")
        for query in QUERIES:
            ranked = await engine.recall(scope, query, top_k=3, now=now)
            print_recall(query, ranked, out=console)
            report["recall"][query] = [recalled_json(m) for m in ranked]

        console.rule("A live turn: prefetch, injection and auto-save by the plugin")
        live = MemoryPlugin(service, debounce_s=0.0)
        live_runner = Runner(
            app=App(name=APP, root_agent=agent, plugins=[live]),
            session_service=sessions,
            memory_service=service,
        )
        session = await sessions.create_session(app_name=APP, user_id=USER)
        replies = await _run_turns(live_runner, session, LIVE_TURNS)
        for text, reply in zip(LIVE_TURNS, replies, strict=True):
            console.print(f"  user: {text}\n  agent: {reply}")
            report["live"].append({"user": text, "agent": reply})
        await live.flush()
        for m in live.metrics:
            console.print(
                f"  turn {m.invocation_id[-8:]}: {m.memories_injected} memories injected, "
                f"waited {m.prefetch_wait_ms:.1f} ms for the prefetch, "
                f"{m.saved_events} events auto-saved"
            )
        await live.close()
        whiskey = await engine.recall(scope, "How does Sam take his whiskey?", top_k=1)
        chain = await engine.history(whiskey[0].record.id)
        console.print("whiskey, oldest first: " + " → ".join(r.text for r in chain))
        report["whiskey"] = [r.text for r in chain]
    finally:
        await service.close()
    return report


@click.command()
@click.option(
    "--store-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the demo keeps its memory file (default: a fresh temporary directory).",
)
@json_option
def demo(store_dir: Path | None, as_json: bool) -> None:
    """Replay a multi-session conversation through an ADK agent with memory, offline.

    \b
    Example:
      adk-memory demo
      adk-memory demo --json > demo.json
    """
    console = Console(quiet=as_json)
    report = run(run_demo(store_dir, console=console))
    if as_json:
        emit_json(report)
