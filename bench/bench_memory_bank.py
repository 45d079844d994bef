"""Recall latency: embedded sqlite vs Memory Bank (real SDK -> emulator with injected latency).

For each backend it times, per query: the query embedding, the store search with the engine's
over-fetch (K' = k * overfetch, capped by the backend), and the client-side rerank, and prints
p50 / p95 of each. Memory Bank embeds server-side, so its search is one network round trip
(two in parallel: candidates and the pending-REPLACE check) plus the emulator's own embedding.

    python -m bench.bench_memory_bank [--facts 1000] [--queries 60] [--latency-ms 50]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from adk_memory.embedding.local import LocalEmbedder
from adk_memory.model import MemoryRecord, Scope
from adk_memory.retrieval.scoring import ScoringConfig, rerank
from adk_memory.stores.base import MemoryStore
from adk_memory.stores.memory_bank.store import MemoryBankStore
from adk_memory.stores.sqlite.store import SqliteStore
from adk_memory.testing.emulator import EmulatorServer, FaultConfig

SCOPE = Scope(app_name="bench", user_id="u1")
NOW = datetime(2026, 6, 1, tzinfo=UTC)
_SUBJECTS = [
    "tea",
    "coffee",
    "jazz",
    "hiking",
    "Berlin",
    "Python",
    "chess",
    "sushi",
    "cats",
    "the violin",
    "running",
    "Lisbon",
    "photography",
    "Rust",
    "gardening",
    "opera",
]
_TEMPLATES = [
    "The user likes {s}.",
    "The user mentioned {s} on trip {i}.",
    "The user's friend {i} talked about {s}.",
    "The user plans to try {s} in week {i}.",
    "The user read article {i} about {s}.",
]
_QUERIES = [
    "What does the user like to drink?",
    "Which city does the user live in?",
    "What music does the user enjoy?",
    "What programming language does the user use?",
    "What are the user's hobbies?",
    "What food does the user like?",
]


def _facts(n: int, rng: random.Random) -> list[str]:
    return [rng.choice(_TEMPLATES).format(s=rng.choice(_SUBJECTS), i=i) for i in range(n)]


def _records(texts: list[str], embedder: LocalEmbedder, rng: random.Random) -> list[MemoryRecord]:
    vectors = embedder.embed_sync(texts)
    out = []
    for text, vec in zip(texts, vectors, strict=True):
        at = NOW - timedelta(days=rng.uniform(0, 400))
        out.append(
            MemoryRecord(scope=SCOPE, text=text, valid_at=at, created_at=at, embedding=vec.tolist())
        )
    return out


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def _measure(
    name: str, store: MemoryStore, embedder: LocalEmbedder, queries: list[str], k: int
) -> dict[str, list[float]]:
    config = ScoringConfig()
    fetch = min(k * config.overfetch, store.max_search_k)
    times: dict[str, list[float]] = {"embed": [], "search": [], "rerank": [], "total": []}
    for query in queries:
        t0 = time.perf_counter()
        vector = (await embedder.embed([query]))[0]
        t1 = time.perf_counter()
        hits = await store.search(SCOPE, vector=vector, query=query, k=fetch)
        t2 = time.perf_counter()
        rerank(hits, now=NOW, k=k, config=config)
        t3 = time.perf_counter()
        for key, value in (
            ("embed", t1 - t0),
            ("search", t2 - t1),
            ("rerank", t3 - t2),
            ("total", t3 - t0),
        ):
            times[key].append(value * 1000)
    print(f"\n{name}  (k={k}, over-fetch K'={fetch}, {len(queries)} queries)")
    print(f"  {'step':<8}{'p50 ms':>10}{'p95 ms':>10}{'mean ms':>10}")
    for key, values in times.items():
        print(
            f"  {key:<8}{_pct(values, 0.5):>10.2f}{_pct(values, 0.95):>10.2f}"
            f"{statistics.fmean(values):>10.2f}"
        )
    rerank_share = statistics.fmean(times["rerank"]) / statistics.fmean(times["total"])
    print(f"  client-side rerank share of recall time: {rerank_share:.1%}")
    return times


async def _main(args: argparse.Namespace) -> None:
    rng = random.Random(7)
    embedder = LocalEmbedder()
    texts = _facts(args.facts, rng)
    print(f"embedding {len(texts)} facts locally ...")
    records = _records(texts, embedder, rng)
    queries = [_QUERIES[i % len(_QUERIES)] for i in range(args.queries)]
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = await SqliteStore(Path(tmp) / "bench.db").open()
        await sqlite.upsert(records)
        await _measure("sqlite (embedded)", sqlite, embedder, queries, args.k)
        await sqlite.close()
    with EmulatorServer() as server:
        async with httpx.AsyncClient() as http:
            created = await http.post(
                f"{server.base_url}/emulator/engines",
                json={"project": "bench", "location": "us-central1", "engine_id": "1"},
            )
        engine = created.json()["name"]
        os.environ["GOOGLE_VERTEX_BASE_URL"] = server.base_url
        from adk_memory.stores.memory_bank.store import build_client

        store = MemoryBankStore(
            engine,
            client_factory=lambda: build_client("bench", "us-central1"),
            max_concurrency=16,
        )
        print(f"ingesting {len(records)} facts into the emulator (it embeds each one) ...")
        requests = server.state.faults.requests
        t0 = time.perf_counter()
        await store.upsert(records)
        print(f"  ingest: {time.perf_counter() - t0:.1f} s")
        written = server.state.faults.requests - requests
        print(f"  HTTP requests per fact written: {written / len(records):.2f}")
        server.set_faults(FaultConfig(latency_ms=args.latency_ms))
        requests = server.state.faults.requests
        await _measure(
            f"memorybank via emulator (+{args.latency_ms:.0f} ms injected latency per request)",
            store,
            embedder,
            queries,
            args.k,
        )
        searched = server.state.faults.requests - requests
        print(f"  HTTP requests per recall: {searched / len(queries):.2f}")
        await store.close()
    print(
        "\nreproduce: python -m bench.bench_memory_bank "
        f"--facts {args.facts} --queries {args.queries} "
        f"--latency-ms {args.latency_ms:g} --k {args.k}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--facts", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--latency-ms", type=float, default=50.0)
    parser.add_argument("--k", type=int, default=5)
    asyncio.run(_main(parser.parse_args()))


if __name__ == "__main__":
    main()
