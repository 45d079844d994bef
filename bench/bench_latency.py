"""Recall latency at 1k / 10k / 100k memories in one scope, beside the raw floor, and ingestion
throughput.

    .venv/bin/python -m bench.bench_latency [--sizes 1000,10000,100000] [--queries 200]

Stores are built by upserting `MemoryRecord`s directly (no extraction or reconciliation) with
templated, varied sentences (`bench.synthetic`). Every text is embedded for real with the
bundled model; the embedding matrix is cached in `bench/results/` keyed by seed and a digest
of the texts, so only the first run pays the ~4 minutes that 100k texts take on two cores
(and a cache for a large N serves every smaller N: the generator is prefix-stable).

Recall is timed end to end through `MemoryEngine.recall` (query embedding, dense and lexical
candidates, record fetch, decay rerank, hit bookkeeping). The floor is the least any exact
search can do in the same process: embed the query, one N×384 matrix-vector product and an
argpartition for the top k.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from adk_memory.embedding.local import LocalEmbedder
from adk_memory.engine import EngineConfig, MemoryEngine
from adk_memory.factory import build_engine
from adk_memory.model import InputEvent, Kind, MemoryRecord, Scope, Source, Status
from adk_memory.retrieval.ordering import current_first
from adk_memory.retrieval.scoring import rerank
from adk_memory.stores.sqlite.store import SqliteStore
from adk_memory.stores.sqlite.vector_index import ANN_MIN_ROWS, ScopeVectorIndex
from bench import synthetic
from bench.report import RESULTS_DIR, command_line, machine, percentile_ms, table

MODULE = "bench.bench_latency"
SCOPE = Scope(app_name="bench", user_id="latency")
NOW = datetime(2026, 5, 1, tzinfo=UTC)
TOP_K = 10
#: Records per upsert while building a store: bounds the Python lists an upsert holds.
BUILD_CHUNK = 5_000
TARGET_P95_MS = 25.0
TARGET_FLOOR_RATIO = 1.5


def cached_embeddings(texts: Sequence[str], seed: int, embedder: LocalEmbedder) -> np.ndarray:
    """Embeddings of `texts`, reusing (and extending) a cache under `bench/results/`."""
    digest = hashlib.sha1("\n".join(texts[:100]).encode()).hexdigest()[:10]
    prefix = f"latency-embeddings-seed{seed}-{digest}-n"
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    cached = sorted(
        (int(p.stem.removeprefix(prefix)), p) for p in RESULTS_DIR.glob(f"{prefix}*.npy")
    )
    for size, path in cached:
        if size >= len(texts):
            stored: np.ndarray = np.load(path, mmap_mode="r")
            return np.array(stored[: len(texts)], dtype=np.float32)
    head = np.load(cached[-1][1]) if cached else np.zeros((0, embedder.dimension), np.float32)
    print(f"embedding {len(texts) - len(head)} texts (cached afterwards)...", file=sys.stderr)
    started = time.perf_counter()
    tail = embedder.embed_sync(list(texts[len(head) :]))
    print(f"  done in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    matrix = np.concatenate([head, tail]).astype(np.float32)
    np.save(RESULTS_DIR / f"{prefix}{len(texts)}.npy", matrix)
    for _, path in cached:
        path.unlink()
    return matrix


async def build_store(path: Path, texts: Sequence[str], vectors: np.ndarray, seed: int) -> float:
    """Writes one record per text into a fresh store at `path`. Returns the seconds it took."""
    rng = random.Random(seed)
    store = await SqliteStore(path).open()
    started = time.perf_counter()
    for start in range(0, len(texts), BUILD_CHUNK):
        records = []
        for i in range(start, min(start + BUILD_CHUNK, len(texts))):
            at = NOW - timedelta(days=rng.uniform(0, 730))
            records.append(
                MemoryRecord(
                    scope=SCOPE,
                    text=texts[i],
                    kind=Kind.EPISODIC,
                    confidence=0.8,
                    valid_at=at,
                    created_at=at,
                    source=Source(session_id=f"s{i // 20}", event_ids=[f"e{i}"]),
                    embedding=vectors[i].tolist(),
                )
            )
        await store.upsert(records)
    elapsed = time.perf_counter() - started
    await store.close()
    return elapsed


@dataclass
class SizeResult:
    size: int
    build_s: float
    recall_p50: float
    recall_p95: float
    floor_p50: float
    floor_p95: float
    stages: dict[str, tuple[float, float]]
    #: Share of the exact dense top-10 that the store's vector index returns (1.0 = exact;
    #: below 1 only where the IVF index answers, from ANN_MIN_ROWS on, with faiss).
    dense_overlap: float


def floor_latencies(
    embedder: LocalEmbedder, matrix: np.ndarray, queries: Sequence[str]
) -> list[float]:
    """Per query: embed, matrix-vector product, argpartition + sort of the top k."""
    out: list[float] = []
    for query in queries:
        started = time.perf_counter()
        vector = embedder.embed_sync([query])[0]
        sims = matrix @ vector
        top = np.argpartition(-sims, TOP_K - 1)[:TOP_K]
        top[np.argsort(-sims[top])]
        out.append(time.perf_counter() - started)
    return out


def dense_overlap(matrix: np.ndarray, query_vectors: np.ndarray) -> float:
    """Mean |index top-10 ∩ exact top-10| / 10 for the store's in-memory vector index."""
    index = ScopeVectorIndex(matrix.shape[1])
    for row, vector in enumerate(matrix):
        index.put(row, vector, Status.ACTIVE)
    shares = []
    for query in query_vectors:
        exact = set(np.argpartition(-(matrix @ query), TOP_K - 1)[:TOP_K].tolist())
        found = {row for row, _ in index.search(query, TOP_K, [Status.ACTIVE])}
        shares.append(len(exact & found) / TOP_K)
    return float(np.mean(shares))


async def stage_latencies(
    engine: MemoryEngine, queries: Sequence[str]
) -> dict[str, tuple[float, float]]:
    """p50/p95 of each recall stage, timed separately (embed, store search, rerank, the
    same-question ordering of the reranked memories)."""
    store = engine.store
    fetch = min(TOP_K * engine.config.scoring.overfetch, store.max_search_k)
    times: dict[str, list[float]] = {"embed": [], "store.search": [], "rerank": [], "ordering": []}
    for query in queries:
        t0 = time.perf_counter()
        vector = (await engine.embedder.embed([query]))[0]
        t1 = time.perf_counter()
        hits = await store.search(SCOPE, vector=vector, query=query, k=fetch)
        t2 = time.perf_counter()
        ranked = rerank(hits, now=NOW, k=TOP_K, config=engine.config.scoring)
        t3 = time.perf_counter()
        times["embed"].append(t1 - t0)
        times["store.search"].append(t2 - t1)
        times["rerank"].append(t3 - t2)
        # The store returns each hit's vector, so ordering reads no embedding here.
        stored = {h.record.id: h.vector for h in hits if h.vector is not None}
        vectors = np.stack([stored[m.record.id] for m in ranked])
        t4 = time.perf_counter()
        current_first(ranked, vectors, engine.config.ordering)
        times["ordering"].append(time.perf_counter() - t4)
    return {k: (percentile_ms(v, 50), percentile_ms(v, 95)) for k, v in times.items()}


async def measure_size(
    size: int, seed: int, queries: Sequence[str], embedder: LocalEmbedder, workdir: Path
) -> SizeResult:
    texts = synthetic.facts(size, seed)
    vectors = cached_embeddings(texts, seed, embedder)
    path = workdir / f"latency-{size}.db"
    build_s = await build_store(path, texts, vectors, seed)
    store = await SqliteStore(path).open()
    engine = build_engine(store, embedder=embedder, config=EngineConfig())
    # Warm-up: the first search loads the scope's vectors into memory; later ones do not.
    for query in queries[:10]:
        await engine.recall(SCOPE, query, top_k=TOP_K, now=NOW)
    timed: list[float] = []
    for query in queries:
        started = time.perf_counter()
        await engine.recall(SCOPE, query, top_k=TOP_K, now=NOW)
        timed.append(time.perf_counter() - started)
    await engine.drain()
    stages = await stage_latencies(engine, queries)
    await engine.close()
    matrix = np.ascontiguousarray(vectors)
    floor = floor_latencies(embedder, matrix, queries)
    return SizeResult(
        dense_overlap=dense_overlap(matrix, embedder.embed_sync(list(queries))),
        size=size,
        build_s=build_s,
        recall_p50=percentile_ms(timed, 50),
        recall_p95=percentile_ms(timed, 95),
        floor_p50=percentile_ms(floor, 50),
        floor_p95=percentile_ms(floor, 95),
        stages=stages,
    )


async def measure_ingest(
    events: int, seed: int, embedder: LocalEmbedder, workdir: Path
) -> tuple[float, int, int]:
    """Events/s through `engine.ingest` on synthetic chat sessions of 20 turns into a fresh
    store. Returns (events per second, events, memories written)."""
    rng = random.Random(seed)
    store = await SqliteStore(workdir / "ingest.db").open()
    engine = build_engine(store, embedder=embedder)
    sessions: list[list[InputEvent]] = []
    start = NOW - timedelta(days=365)
    for s in range(max(1, events // 20)):
        at = start + timedelta(days=s)
        sessions.append(
            [
                InputEvent(
                    id=f"s{s}-e{i}",
                    author=author,
                    text=text,
                    session_id=f"s{s}",
                    timestamp=at + timedelta(seconds=30 * i),
                )
                for i, (author, text) in enumerate(synthetic.chat_session(rng, 20))
            ]
        )
    written = 0
    started = time.perf_counter()
    for session in sessions:
        result = await engine.ingest(SCOPE, session)
        written += len([o for o in result.outcomes if o.decision.value != "NOOP"])
    elapsed = time.perf_counter() - started
    await engine.close()
    total = sum(len(s) for s in sessions)
    return total / elapsed, total, written


def render(
    results: Sequence[SizeResult], ingest: tuple[float, int, int] | None, argv: Sequence[str]
) -> str:
    rows = []
    for r in results:
        ratio = r.recall_p95 / r.floor_p95 if r.floor_p95 else float("nan")
        rows.append(
            [
                f"{r.size:,}",
                f"{r.recall_p50:.1f}",
                f"{r.recall_p95:.1f}",
                f"{r.floor_p50:.1f}",
                f"{r.floor_p95:.1f}",
                f"{ratio:.2f}×",
                f"{r.dense_overlap:.3f}",
                f"{r.build_s:.1f}",
            ]
        )
    lines = [
        "## Recall latency (one scope, top-10, ms)",
        "",
        table(
            [
                "memories",
                "recall p50",
                "recall p95",
                "floor p50",
                "floor p95",
                "p95 / floor p95",
                "dense top-10 overlap with exact",
                "store build s",
            ],
            rows,
        ),
        "",
        f"Targets: recall p95 ≤ {TARGET_P95_MS:.0f} ms at 100k and ≤ {TARGET_FLOOR_RATIO}× the "
        "floor. Floor = embed the query + N×384 matrix-vector product + argpartition. From "
        f"{ANN_MIN_ROWS:,} memories the store's vectors are searched through an IVF index "
        "(faiss, `adk-memory[ann]`) instead of the full product; the overlap column shows "
        "what that costs in exactness.",
        "",
        "Recall stages timed separately (p50 / p95 ms):",
        "",
        table(
            ["memories", *results[0].stages] if results else ["memories"],
            [
                [f"{r.size:,}", *(f"{p50:.1f} / {p95:.1f}" for p50, p95 in r.stages.values())]
                for r in results
            ],
        ),
    ]
    if ingest is not None:
        rate, events, written = ingest
        lines += [
            "",
            "## Ingestion throughput",
            "",
            f"{rate:.0f} events/s through `MemoryEngine.ingest` (local extractor, local "
            f"classifier, sqlite): {events} chat events in sessions of 20, {written} memories "
            "written (ADD/REPLACE).",
        ]
    lines += ["", f"Measured on {machine()}.", "", f"Reproduce: `{command_line(MODULE, argv)}`"]
    return "\n".join(lines)


async def run(argv: Sequence[str]) -> str:
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}", description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="comma-separated store sizes")
    parser.add_argument("--queries", type=int, default=200, help="timed queries per size")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ingest-events", type=int, default=1000, help="0 skips ingestion")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    embedder = LocalEmbedder()
    queries = synthetic.queries(args.queries, args.seed)
    results: list[SizeResult] = []
    with tempfile.TemporaryDirectory(prefix="adkmem-latency-") as tmp:
        workdir = Path(tmp)
        for size in sizes:
            results.append(await measure_size(size, args.seed, queries, embedder, workdir))
            print(f"  {size:,}: p95 {results[-1].recall_p95:.1f} ms", file=sys.stderr)
        ingest = None
        if args.ingest_events > 0:
            ingest = await measure_ingest(args.ingest_events, args.seed, embedder, workdir)
    return render(results, ingest, argv)


def main(argv: Sequence[str] | None = None) -> str:
    """Runs the benchmark, prints the markdown report and returns it."""
    report = asyncio.run(run(list(sys.argv[1:] if argv is None else argv)))
    print(report)
    return report


if __name__ == "__main__":
    main()
