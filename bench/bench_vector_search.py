"""Recall latency: embedded sqlite vs Vector Search (gapic REST client -> emulator).

Both stores get the same ~1k facts in one scope (plus as many in a second scope, which the
Vector Search restricts must filter out server-side). Each query is embedded once up front;
what is timed is the store search with the engine's over-fetch (K' = k * overfetch) plus the
client-side rerank. For Vector Search that is one `findNeighbors` round trip (HTTP on
loopback, exact search in the emulator, optional injected latency) and one document-store
read. `overlap@k` is the share of sqlite's reranked top-k that Vector Search also returns:
both searches are exact here, so anything below 100 % is a bug, not ANN recall.

    python -m bench.bench_vector_search [--facts 1000] [--queries 200] [--latency-ms 0] [--k 10]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from adk_memory.embedding.local import LocalEmbedder
from adk_memory.model import MemoryRecord, Scope
from adk_memory.retrieval.scoring import ScoringConfig, rerank
from adk_memory.stores.base import MemoryStore
from adk_memory.stores.sqlite.store import SqliteStore
from adk_memory.stores.vector_search.documents import DocumentStore
from adk_memory.stores.vector_search.store import VectorSearchStore, build_clients
from adk_memory.testing.emulator import EmulatorServer, FaultConfig
from adk_memory.testing.emulator.vector_search import EnsureRequest, ensure_deployment
from bench import synthetic
from bench.report import command_line, machine, percentile_ms, table

MODULE = "bench.bench_vector_search"
SCOPE = Scope(app_name="bench", user_id="u1")
NOISE = Scope(app_name="bench", user_id="someone-else")
NOW = datetime(2026, 6, 1, tzinfo=UTC)


def _records(
    scope: Scope, texts: Sequence[str], vectors: np.ndarray, seed: int
) -> list[MemoryRecord]:
    rng = np.random.default_rng(seed)
    ages = rng.uniform(0, 400, len(texts))
    return [
        MemoryRecord(
            scope=scope,
            text=text,
            valid_at=NOW - timedelta(days=float(age)),
            created_at=NOW - timedelta(days=float(age)),
            embedding=vector.tolist(),
        )
        for text, vector, age in zip(texts, vectors, ages, strict=True)
    ]


async def _measure(
    store: MemoryStore, queries: Sequence[tuple[str, np.ndarray]], k: int
) -> tuple[list[float], list[list[str]]]:
    config = ScoringConfig()
    fetch = min(k * config.overfetch, store.max_search_k)
    times: list[float] = []
    tops: list[list[str]] = []
    for text, vector in queries:
        t0 = time.perf_counter()
        hits = await store.search(SCOPE, vector=vector, query=text, k=fetch)
        ranked = rerank(hits, now=NOW, k=k, config=config)
        times.append(time.perf_counter() - t0)
        tops.append([m.record.id for m in ranked])
    return times, tops


async def _main(args: argparse.Namespace, argv: Sequence[str]) -> None:
    embedder = LocalEmbedder()
    texts = synthetic.facts(2 * args.facts, seed=11)
    print(f"embedding {len(texts)} facts and {args.queries} queries locally ...", file=sys.stderr)
    vectors = embedder.embed_sync(texts)
    mine = _records(SCOPE, texts[: args.facts], vectors[: args.facts], seed=1)
    noise = _records(NOISE, texts[args.facts :], vectors[args.facts :], seed=2)
    query_texts = synthetic.queries(args.queries, seed=11)
    queries = list(zip(query_texts, embedder.embed_sync(query_texts), strict=True))
    rows: list[list[object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = await SqliteStore(Path(tmp) / "sqlite.db").open()
        await sqlite.upsert(mine + noise)
        await _measure(sqlite, queries[:5], args.k)  # warm caches
        sqlite_times, sqlite_tops = await _measure(sqlite, queries, args.k)
        await sqlite.close()
        rows.append(["sqlite (embedded)", *_figures(sqlite_times), "100.0%"])

        with EmulatorServer() as server:
            names = ensure_deployment(
                server.state, EnsureRequest(project="bench"), f"127.0.0.1:{server.port}"
            )
            store = VectorSearchStore(
                names["indexEndpoint"],
                index=names["index"],
                deployed_index_id=names["deployedIndexId"],
                docs=await DocumentStore(Path(tmp) / "vectorsearch-docs.db").open(),
                clients=build_clients("us-central1", base_url=server.base_url, match_host=None),
            )
            t0 = time.perf_counter()
            for start in range(0, len(mine + noise), 500):
                await store.upsert((mine + noise)[start : start + 500])
            print(f"  vectorsearch ingest: {time.perf_counter() - t0:.1f} s", file=sys.stderr)
            await _measure(store, queries[:5], args.k)
            server.set_faults(FaultConfig(latency_ms=args.latency_ms))
            vs_times, vs_tops = await _measure(store, queries, args.k)
            await store.close()
        overlap = np.mean(
            [
                len(set(a) & set(b)) / max(len(a), 1)
                for a, b in zip(sqlite_tops, vs_tops, strict=True)
            ]
        )
        label = "vectorsearch via emulator"
        if args.latency_ms:
            label += f" (+{args.latency_ms:g} ms per request)"
        rows.append([label, *_figures(vs_times), f"{overlap:.1%}"])
    print(
        f"\nRecall latency, {args.facts} facts in the scope (+{args.facts} in another), "
        f"{args.queries} queries, k={args.k}, over-fetch K'={args.k * ScoringConfig().overfetch}"
    )
    print(table(["backend", "p50 ms", "p95 ms", "mean ms", f"overlap@{args.k}"], rows))
    print(f"\n{machine()}")
    print(f"reproduce: {command_line(MODULE, argv)}")


def _figures(times: Sequence[float]) -> list[object]:
    return [
        percentile_ms(times, 50),
        percentile_ms(times, 95),
        float(np.mean(times) * 1000.0),
    ]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--facts", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--latency-ms", type=float, default=0.0)
    parser.add_argument("--k", type=int, default=10)
    args_list = list(sys.argv[1:] if argv is None else argv)
    asyncio.run(_main(parser.parse_args(args_list), args_list))


if __name__ == "__main__":
    main()
