"""The `Embedder` seam: texts in, unit-length float32 vectors of a fixed dimension out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension."""

    #: Identifies the vector space; stores refuse to mix vectors of different models.
    model_id: str
    dimension: int

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embeds a batch. Returns an array of shape (len(texts), dimension), rows unit length."""
        ...


def normalize_rows(matrix: np.ndarray) -> np.ndarray:
    """Scales each row to unit length (zero rows stay zero)."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    normalized: np.ndarray = (matrix / norms).astype(np.float32, copy=False)
    return normalized
