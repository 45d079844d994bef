"""Reliability soak: a conversation through the plugin while the backend fails, and a restart.

    .venv/bin/python -m bench.bench_soak [--turns 100] [--backends memory_bank,vector_search]
        [--outage 30:50] [--restart-at 40] [--error-rate 0.05] [--seed 0]

Per backend, the emulator serves Memory Bank or Vector Search on their real wire formats
through the real SDK clients. One user states a new fact every turn through a real ADK
`Runner` with `MemoryPlugin` (background saves through the durable outbox); every fifth turn
another user of the same app states one of their own. Faults: every request fails (503)
during the outage turns, and outside them a share `--error-rate` of requests fails at
random. At `--restart-at` (inside the outage) the app stops and a new service and plugin
start on the same outbox, as after a process restart.

Figures: turns, faults injected (requests the emulator failed), facts stated, facts stored
(listed in their user's memory after the run), facts findable (a search with the fact's own
text returns it), leaks (a fact found in the other user's memory), turn errors (a turn that
raised) and tracebacks (ERROR log records, e.g. an exception nothing retrieved), plus what
the outbox replayed and gave up.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import tempfile
import warnings
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from google.adk.agents import LlmAgent
from google.adk.apps import App
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types

from adk_memory.adk.plugin import MemoryPlugin
from adk_memory.adk.service import AdkMemoryService
from adk_memory.factory import build_engine
from adk_memory.model import Scope, Status
from adk_memory.stores.memory_bank.store import MemoryBankStore
from adk_memory.stores.vector_search.documents import DocumentStore
from adk_memory.stores.vector_search.store import VectorSearchStore, build_clients
from adk_memory.testing.emulator import EmulatorServer, FaultConfig
from adk_memory.testing.scripted_llm import ScriptedLlm
from bench.report import command_line, machine, table

MODULE = "bench.bench_soak"
APP = "soak"
USERS = ("alice", "bob")
PROJECT, LOCATION = "soak-project", "us-central1"
ITEMS = ["passport", "bike lock", "umbrella", "camera", "notebook", "headphones", "charger"]
PLACES = ["hall cupboard", "blue drawer", "garage", "attic", "car boot", "desk", "shed"]
#: Store retries kept short so a failing save gives up its attempt quickly.
FAST_FAIL: dict[str, Any] = {
    "retry_initial": 0.01,
    "retry_max": 0.05,
    "retry_deadline": 0.5,
    "retry_attempts": 3,
}


def fact(user: str, i: int) -> tuple[str, str]:
    """A statement and the unique token that identifies it."""
    token = f"{user[:2]}{i:04d}tag"
    return f"Reminder {token}: I keep the {ITEMS[i % 7]} in the {PLACES[(i // 7) % 7]}.", token


class ErrorCounter(logging.Handler):
    """Counts ERROR records: exceptions that escaped into logs as failures."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


@dataclass
class Figures:
    backend: str
    turns: int = 0
    faults: int = 0
    stated: int = 0
    stored: int = 0
    findable: int = 0
    leaks: int = 0
    turn_errors: int = 0
    tracebacks: int = 0
    replayed: int = 0
    given_up: int = 0
    tokens: dict[str, set[str]] = field(default_factory=dict)


class Faults:
    """Switches the emulator's faults and keeps count of the requests it failed."""

    def __init__(self, server: EmulatorServer) -> None:
        self.server = server
        self.injected = 0

    def set(self, **config: Any) -> None:
        state = httpx.get(f"{self.server.base_url}/emulator/faults").json()
        self.injected += int(state["injected"])
        httpx.post(
            f"{self.server.base_url}/emulator/faults", json=FaultConfig(**config).model_dump()
        ).raise_for_status()


def _deployment(
    server: EmulatorServer, backend: str, tmp: Path
) -> Callable[[], Awaitable[AdkMemoryService]]:
    """A backend deployment; returns how to open a new service on it (a new process)."""
    if backend == "memory_bank":
        engine = httpx.post(
            f"{server.base_url}/emulator/engines",
            json={"project": PROJECT, "location": LOCATION, "engine_id": "700000001"},
        ).json()["name"]

        def client() -> Any:
            import agentplatform
            from google.oauth2.credentials import Credentials

            return agentplatform.Client(
                project=PROJECT,
                location=LOCATION,
                credentials=Credentials(token="fake"),
                http_options={"base_url": server.base_url},
            ).aio

        async def memory_bank() -> AdkMemoryService:
            store = MemoryBankStore(
                engine, client_factory=client, call_timeout=2.0, poll_interval=0.01, **FAST_FAIL
            )
            return AdkMemoryService(build_engine(store))

        return memory_bank
    names = httpx.post(
        f"{server.base_url}/emulator/vectorsearch",
        json={
            "project": PROJECT,
            "location": LOCATION,
            "index_id": "500000001",
            "endpoint_id": "600000001",
            "deployed_index_id": "deployed_soak",
            "dimensions": 384,
        },
    ).json()

    async def vector_search() -> AdkMemoryService:
        store = VectorSearchStore(
            names["indexEndpoint"],
            index=names["index"],
            deployed_index_id=names["deployedIndexId"],
            docs=await DocumentStore(tmp / "docs.db").open(),
            clients=build_clients(LOCATION, base_url=server.base_url, match_host=None),
            call_timeout=2.0,
            **FAST_FAIL,
        )
        return AdkMemoryService(build_engine(store))

    return vector_search


class RunningApp:
    """One running app: service, plugin, runner and a session per user."""

    def __init__(self, service: AdkMemoryService, outbox: Path) -> None:
        self.service = service
        self.plugin = MemoryPlugin(
            service, debounce_s=0, outbox=outbox, close_timeout_s=3.0, speculative_prefetch=False
        )
        agent = LlmAgent(name="assistant", model=ScriptedLlm(), instruction="Be helpful.")
        self.runner = Runner(
            app=App(name=APP, root_agent=agent, plugins=[self.plugin]),
            session_service=InMemorySessionService(),
            memory_service=service,
        )
        self.sessions: dict[str, str] = {}

    async def say(self, user: str, text: str) -> None:
        if user not in self.sessions:
            session = await self.runner.session_service.create_session(app_name=APP, user_id=user)
            self.sessions[user] = session.id
        message = types.Content(role="user", parts=[types.Part(text=text)])
        async for _ in self.runner.run_async(
            user_id=user, session_id=self.sessions[user], new_message=message
        ):
            pass

    async def close(self) -> tuple[int, int]:
        stats = self.plugin.saves.stats
        await self.runner.close()
        await self.service.close()
        return stats.replayed, stats.given_up


async def soak(
    backend: str,
    turns: int,
    outage: range,
    restart_at: int | None,
    error_rate: float,
    seed: int,
) -> Figures:
    rng = random.Random(seed)
    figures = Figures(backend, tokens={u: set() for u in USERS})
    errors = ErrorCounter()
    logging.getLogger().addHandler(errors)
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        server = EmulatorServer().start()
        faults = Faults(server)
        try:
            open_service = _deployment(server, backend, tmp)
            outbox = tmp / "outbox.db"
            app = RunningApp(await open_service(), outbox)
            for turn in range(turns):
                if turn == restart_at:
                    replayed, given_up = await app.close()
                    figures.replayed += replayed
                    figures.given_up += given_up
                    app = RunningApp(await open_service(), outbox)
                if turn in outage:
                    faults.set(error_rate=1.0, error_code=503)
                else:
                    faults.set(error_rate=error_rate, error_code=503, seed=rng.randrange(1 << 30))
                speakers = [USERS[0]] + ([USERS[1]] if turn % 5 == 0 else [])
                for user in speakers:
                    text, token = fact(user, turn)
                    try:
                        await app.say(user, text)
                    except Exception:
                        figures.turn_errors += 1
                    figures.stated += 1
                    figures.tokens[user].add(token)
                figures.turns += 1
            faults.set()
            await app.plugin.flush()
            await _verify(app.service, figures)
            replayed, given_up = await app.close()
            figures.replayed += replayed
            figures.given_up += given_up
            faults.set()
            figures.faults = faults.injected
        finally:
            server.stop()
            logging.getLogger().removeHandler(errors)
    figures.tracebacks = errors.count
    return figures


async def _verify(service: AdkMemoryService, figures: Figures) -> None:
    engine = await service.engine()
    for user in USERS:
        scope = Scope(app_name=APP, user_id=user)
        texts: list[str] = []
        cursor = None
        while True:
            page = await engine.list(scope, statuses=list(Status), limit=100, cursor=cursor)
            texts += [r.text for r in page.records]
            cursor = page.next_cursor
            if not cursor:
                break
        joined = " ".join(texts)
        figures.stored += sum(1 for t in figures.tokens[user] if t in joined)
        others = [o for o in USERS if o != user]
        figures.leaks += sum(1 for o in others for t in figures.tokens[o] if t in joined)
        for token in sorted(figures.tokens[user]):
            index = int(token[2:6])
            found = await engine.recall(scope, fact(user, index)[0], top_k=10)
            figures.findable += any(token in m.record.text for m in found)


def main(argv: Sequence[str] | None = None) -> str:
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}", description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--backends", default="memory_bank,vector_search")
    parser.add_argument(
        "--outage", default="30:50", help="Turns START:END with every request failing."
    )
    parser.add_argument(
        "--restart-at", type=int, default=40, help="Restart the app at this turn (-1: never)."
    )
    parser.add_argument("--error-rate", type=float, default=0.05, help="Random failures elsewhere.")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    start, _, end = args.outage.partition(":")
    outage = range(int(start), int(end))
    restart = None if args.restart_at < 0 else args.restart_at
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    if not set(backends) <= {"memory_bank", "vector_search"}:
        parser.error("--backends: memory_bank and/or vector_search")
    warnings.filterwarnings("ignore")
    # The outage makes every failed save log a warning with its traceback: expected, and
    # counted by the outbox instead; only ERROR records count as tracebacks here.
    logging.getLogger("adk_memory").setLevel(logging.ERROR)
    results = [
        asyncio.run(soak(b, args.turns, outage, restart, args.error_rate, args.seed))
        for b in backends
    ]
    rows = [
        [
            f.backend,
            f.turns,
            f.faults,
            f.stated,
            f.stored,
            f.findable,
            f.leaks,
            f.turn_errors,
            f.tracebacks,
            f.replayed,
            f.given_up,
        ]
        for f in results
    ]
    headers = [
        "backend",
        "turns",
        "faults injected",
        "facts stated",
        "facts stored",
        "facts findable",
        "leaks",
        "turn errors",
        "tracebacks",
        "saves replayed",
        "saves given up",
    ]
    argv_out = [
        "--turns",
        str(args.turns),
        "--backends",
        ",".join(backends),
        "--outage",
        args.outage,
        "--restart-at",
        str(args.restart_at),
        "--error-rate",
        f"{args.error_rate:g}",
        "--seed",
        str(args.seed),
    ]
    report = "\n\n".join(
        [
            "## Reliability soak: outage, random faults and a restart through the plugin",
            f"Every request failing during turns {outage.start}–{outage.stop - 1}, "
            f"{args.error_rate:.0%} failing at random elsewhere, restart at turn "
            f"{args.restart_at}; "
            f"{machine()}.",
            table(headers, rows),
            f"Reproduce: `{command_line(MODULE, argv_out)}`",
        ]
    )
    print(report)
    return report


if __name__ == "__main__":
    main()
