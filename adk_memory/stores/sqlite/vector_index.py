"""An in-memory vector index for one scope: a growable float32 matrix plus status codes.

Search is exact (one matrix-vector product) below `ANN_MIN_ROWS`. Above it, when faiss is
installed (`pip install 'adk-memory[ann]'`), an IVF index over the same vectors proposes
candidates: at 100k × 384 the exact product reads 150 MB per query (~12 ms on two cores,
bandwidth-bound, and it evicts the embedding model from the caches), while IVF with
√N lists and 32 probes answers in about a millisecond with nearly all of the exact top-10
(bench/bench_latency.py reports the overlap). Candidates are re-scored exactly and filtered
by status here; when too few survive the filter, the search falls back to exact.
"""

from __future__ import annotations

import importlib.util
import logging
import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from adk_memory.model import Status

logger = logging.getLogger("adk_memory")

#: Live rows from which the IVF index is used (when faiss is installed).
ANN_MIN_ROWS = 20_000
#: Inverted lists probed per query.
ANN_PROBES = 32
#: Candidates asked of the IVF index per wanted result (status filtering drops some).
ANN_OVERFETCH = 4
#: Retrain when the scope has grown this many times past the rows the lists were trained on.
ANN_RETRAIN_GROWTH = 4
_FAISS_AVAILABLE = importlib.util.find_spec("faiss") is not None

_STATUS_CODES = {Status.ACTIVE: 0, Status.SUPERSEDED: 1, Status.ARCHIVED: 2}
_DEAD = -1


class ScopeVectorIndex:
    """Vectors of one scope keyed by row id, with the status of each row."""

    def __init__(self, dimension: int) -> None:
        self.dimension = dimension
        self.seq = 0
        self._rowids = np.zeros(0, dtype=np.int64)
        self._codes = np.zeros(0, dtype=np.int8)
        self._matrix = np.zeros((0, dimension), dtype=np.float32)
        self._size = 0
        self._dead = 0
        self._slot_of: dict[int, int] = {}
        self._ann: Any = None
        self._ann_trained_rows = 0

    def __len__(self) -> int:
        return self._size - self._dead

    def put(self, rowid: int, vector: np.ndarray | None, status: Status) -> None:
        """Inserts or updates a row; `vector` None keeps the stored one (status-only change)."""
        slot = self._slot_of.get(rowid)
        if slot is None:
            if vector is None:
                return
            slot = self._append_slot(rowid)
        if vector is not None:
            self._matrix[slot] = vector
            if self._ann is not None:
                ids = np.asarray([slot], dtype=np.int64)
                self._ann.remove_ids(ids)
                self._ann.add_with_ids(self._matrix[slot : slot + 1], ids)
        self._codes[slot] = _STATUS_CODES[status]

    def remove(self, rowids: Iterable[int]) -> None:
        for rowid in rowids:
            slot = self._slot_of.pop(rowid, None)
            if slot is not None and self._codes[slot] != _DEAD:
                self._codes[slot] = _DEAD
                self._dead += 1
        if self._dead > 1024 and self._dead * 2 > self._size:
            self._compact()

    def search(
        self, query: np.ndarray, k: int, statuses: Sequence[Status]
    ) -> list[tuple[int, float]]:
        """The `k` most similar live rows with one of `statuses`: (rowid, cosine), best first."""
        if self._size == 0 or k <= 0:
            return []
        query = query.astype(np.float32, copy=False)
        approximate = self._ann_search(query, k, statuses)
        if approximate is not None:
            return approximate
        sims = self._matrix[: self._size] @ query
        codes = self._codes[: self._size]
        wanted = np.isin(codes, [_STATUS_CODES[s] for s in statuses])
        candidates = np.flatnonzero(wanted)
        if candidates.size == 0:
            return []
        cand_sims = sims[candidates]
        if candidates.size > k:
            top = np.argpartition(-cand_sims, k - 1)[:k]
            candidates, cand_sims = candidates[top], cand_sims[top]
        order = np.argsort(-cand_sims, kind="stable")
        return [(int(self._rowids[candidates[i]]), float(cand_sims[i])) for i in order]

    def _ann_search(
        self, query: np.ndarray, k: int, statuses: Sequence[Status]
    ) -> list[tuple[int, float]] | None:
        """Top-k through the IVF index, or None when exact search should answer."""
        if not self._ann_ready():
            return None
        _, ids = self._ann.search(query.reshape(1, -1), max(k * ANN_OVERFETCH, k + 32))
        slots = ids[0][ids[0] >= 0]
        wanted = np.isin(self._codes[slots], [_STATUS_CODES[s] for s in statuses])
        slots = slots[wanted]
        if slots.size < k:
            return None  # most neighbours filtered out (e.g. superseded): be exact
        sims = self._matrix[slots] @ query
        order = np.argsort(-sims, kind="stable")[:k]
        return [(int(self._rowids[slots[i]]), float(sims[i])) for i in order]

    def _ann_ready(self) -> bool:
        live = len(self)
        if not _FAISS_AVAILABLE or live < ANN_MIN_ROWS:
            return False
        if self._ann is None or live > ANN_RETRAIN_GROWTH * self._ann_trained_rows:
            self._build_ann()
        return True

    def _build_ann(self) -> None:
        import faiss

        live = np.flatnonzero(self._codes[: self._size] != _DEAD)
        lists = max(1, int(math.sqrt(len(live))))
        quantizer = faiss.IndexFlatIP(self.dimension)
        index = faiss.IndexIVFFlat(quantizer, self.dimension, lists, faiss.METRIC_INNER_PRODUCT)
        # A fixed sample keeps training deterministic and bounded (40 points per list).
        sample = np.random.default_rng(0).choice(live, min(len(live), 40 * lists), replace=False)
        index.train(np.ascontiguousarray(self._matrix[np.sort(sample)]))
        index.add_with_ids(np.ascontiguousarray(self._matrix[live]), live.astype(np.int64))
        index.nprobe = min(ANN_PROBES, lists)
        self._ann, self._ann_trained_rows = index, len(live)
        logger.info("built an IVF index of %d lists over %d vectors", lists, len(live))

    def cosines(self, query: np.ndarray, rowids: Iterable[int]) -> dict[int, float]:
        """Cosine of the query with specific rows (for lexical-only candidates)."""
        out: dict[int, float] = {}
        for rowid in rowids:
            slot = self._slot_of.get(rowid)
            if slot is not None:
                out[rowid] = float(self._matrix[slot] @ query)
        return out

    def vector(self, rowid: int) -> np.ndarray | None:
        """The stored vector of a row (a view, not a copy), or None."""
        slot = self._slot_of.get(rowid)
        return None if slot is None else self._matrix[slot]

    def _append_slot(self, rowid: int) -> int:
        if self._size == len(self._rowids):
            capacity = max(64, 2 * len(self._rowids))
            self._rowids = np.resize(self._rowids, capacity)
            self._codes = np.resize(self._codes, capacity)
            matrix = np.zeros((capacity, self.dimension), dtype=np.float32)
            matrix[: self._size] = self._matrix[: self._size]
            self._matrix = matrix
        slot = self._size
        self._rowids[slot] = rowid
        self._size += 1
        self._slot_of[rowid] = slot
        return slot

    def _compact(self) -> None:
        live = np.flatnonzero(self._codes[: self._size] != _DEAD)
        self._rowids = self._rowids[live].copy()
        self._codes = self._codes[live].copy()
        self._matrix = self._matrix[live].copy()
        self._size = len(live)
        self._dead = 0
        self._slot_of = {int(r): i for i, r in enumerate(self._rowids)}
        self._ann = None  # slots were renumbered; rebuilt on the next search
