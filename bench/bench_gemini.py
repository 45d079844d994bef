"""Gemini cost per ingested turn on LoCoMo: model calls and tokens, through the emulator.

    python -m bench.bench_gemini [--conversations N] [--live]

Without `--live` an in-process emulator serves generateContent (its token counts are
estimates: characters / 4). With `--live` the same script uses the real Gemini API from the
environment (GOOGLE_API_KEY or Vertex settings) and reports the API's own token counts.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from adk_memory.config import Settings
from adk_memory.factory import build_engine, engine_config, models
from adk_memory.stores.sqlite.store import SqliteStore
from adk_memory.testing.emulator import EmulatorServer
from bench.bench_locomo import scope_for, session_events
from bench.locomo import load_locomo

COMMAND = "python -m bench.bench_gemini"


@contextmanager
def gemini_endpoint(live: bool) -> Iterator[str]:
    """Points google-genai at the emulator (or leaves the real endpoint for --live)."""
    if live:
        yield "Gemini API (live)"
        return
    saved = {k: os.environ.get(k) for k in ("GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL")}
    with EmulatorServer() as server:
        os.environ["GOOGLE_API_KEY"] = "emulator"
        os.environ["GOOGLE_GEMINI_BASE_URL"] = server.base_url
        try:
            yield f"emulator at {server.base_url}"
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


async def run(conversations: int, live: bool) -> str:
    data = load_locomo()[:conversations]
    with gemini_endpoint(live) as where, tempfile.TemporaryDirectory() as tmp:
        settings = Settings(llm="gemini")
        extractor, classifier = models(settings)
        store = await SqliteStore(Path(tmp) / "gemini.db").open()
        engine = build_engine(
            store, extractor=extractor, classifier=classifier, config=engine_config(settings)
        )
        turns = batches = calls = tokens = facts = 0
        started = time.perf_counter()
        try:
            for conversation in data:
                for events in session_events(conversation):
                    result = await engine.ingest(scope_for(conversation), events)
                    turns += result.events_ingested
                    batches += 1
                    calls += result.model_calls
                    tokens += result.tokens
                    facts += len(result.outcomes)
        finally:
            await engine.close()
        seconds = time.perf_counter() - started
    lines = [
        f"## Gemini cost per ingested turn ({where})",
        "",
        "| conversations | sessions (batches) | turns | generateContent calls | calls/turn "
        "| tokens/turn | facts/turn | seconds |",
        "|---|---|---|---|---|---|---|---|",
        f"| {len(data)} | {batches} | {turns} | {calls} | {calls / max(turns, 1):.3f} "
        f"| {tokens / max(turns, 1):.0f} | {facts / max(turns, 1):.2f} | {seconds:.1f} |",
        "",
        f"Calls per batch: {calls / max(batches, 1):.2f} (at most 2: one extraction, one "
        "classification when any new fact has a candidate).",
        "",
        f"Reproduce: `{COMMAND} --conversations {conversations}{' --live' if live else ''}`",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=10)
    parser.add_argument("--live", action="store_true", help="use the real Gemini API")
    args = parser.parse_args(argv)
    report = asyncio.run(run(args.conversations, args.live))
    print(report)
    return report


if __name__ == "__main__":
    main()
