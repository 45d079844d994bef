"""The per-scope vector index: exact below the ANN threshold, IVF (faiss) above it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from adk_memory.model import Status
from adk_memory.stores.sqlite.schema import MIGRATIONS, SCHEMA_VERSION
from adk_memory.stores.sqlite.store import SqliteStore
from adk_memory.stores.sqlite.vector_index import ANN_MIN_ROWS, ScopeVectorIndex


def _unit(rng: np.random.Generator, n: int, d: int = 64) -> np.ndarray:
    # Clustered like real embeddings: 50 topics with noise around each.
    centers = rng.standard_normal((50, d)).astype(np.float32)
    x = centers[rng.integers(0, 50, n)] + 0.3 * rng.standard_normal((n, d)).astype(np.float32)
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


@pytest.fixture(scope="module")
def large() -> tuple[ScopeVectorIndex, np.ndarray]:
    pytest.importorskip("faiss", reason="faiss is in the dev extra")
    vectors = _unit(np.random.default_rng(0), ANN_MIN_ROWS + 500)
    index = ScopeVectorIndex(vectors.shape[1])
    for row, vector in enumerate(vectors):
        index.put(row, vector, Status.ACTIVE)
    return index, vectors


def test_ann_search_finds_nearly_all_exact_neighbours(
    large: tuple[ScopeVectorIndex, np.ndarray],
) -> None:
    index, vectors = large
    queries = _unit(np.random.default_rng(1), 50)
    overlap = []
    for q in queries:
        exact = set(np.argsort(-(vectors @ q))[:10].tolist())
        found = [row for row, _ in index.search(q, 10, [Status.ACTIVE])]
        assert len(found) == 10
        overlap.append(len(exact & set(found)) / 10)
    assert np.mean(overlap) >= 0.95


def test_ann_search_respects_statuses_and_updates(
    large: tuple[ScopeVectorIndex, np.ndarray],
) -> None:
    index, vectors = large
    index.search(vectors[0], 1, [Status.ACTIVE])  # builds the IVF index
    assert index.search(vectors[7], 1, [Status.ACTIVE])[0][0] == 7
    index.put(7, None, Status.SUPERSEDED)
    assert 7 not in [r for r, _ in index.search(vectors[7], 5, [Status.ACTIVE])]
    assert index.search(vectors[7], 1, [Status.SUPERSEDED])[0][0] == 7  # exact fallback
    moved = -vectors[7]
    index.put(7, moved, Status.ACTIVE)
    [(row, cosine)] = index.search(moved, 1, [Status.ACTIVE])
    assert row == 7 and cosine == pytest.approx(1.0, abs=1e-5)
    index.remove([7])
    assert 7 not in [r for r, _ in index.search(moved, 10, list(Status))]


async def test_old_schema_is_migrated_on_open(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:  # a file as the first release wrote it
        conn.executescript(MIGRATIONS[0])
        conn.execute("PRAGMA user_version = 1")
        conn.execute(
            "INSERT INTO memories (id, app_name, user_id, text, confidence, kind, valid_at, "
            "created_at, status, seq) VALUES ('m1', 'a', 'u', 'User likes tea.', 0.9, "
            "'episodic', 1700000000, 1700000000, 'active', 1)"
        )
    store = await SqliteStore(path).open()
    record = await store.get("m1")
    await store.close()
    assert record is not None and record.recorded_at == record.valid_at
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        conn.execute("SELECT count(*) FROM memories_vocab").fetchone()


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    from adk_memory.errors import ConfigError

    path = tmp_path / "new.db"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(ConfigError, match="upgrade adk-memory"):
        await SqliteStore(path).open()
