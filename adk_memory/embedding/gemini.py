"""`GeminiEmbedder`: Gemini / Vertex AI text embeddings behind the `Embedder` seam.

Works with `gemini-embedding-001` (both APIs) and `text-embedding-005` (Vertex AI). Texts are
sent in batches, batches run concurrently up to a bound, and every vector is L2-normalised:
gemini-embedding-001 only returns unit vectors at its full 3072 dimensions.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Sequence

import numpy as np
from google.genai import Client, types

from adk_memory.embedding.base import normalize_rows
from adk_memory.google_api.gemini import (
    CALL_ERRORS,
    GeminiCallError,
    GeminiSettings,
    build_client,
    call_with_retries,
)

#: Texts per request on the Gemini API (`batchEmbedContents` accepts up to 100).
GEMINI_API_BATCH = 100
#: Instances per Vertex `predict` request for text-embedding-* models.
VERTEX_PREDICT_BATCH = 250


def default_batch_size(model: str, *, vertexai: bool) -> int:
    """How many texts one request may carry for `model` on the chosen API.

    On Vertex AI, Gemini embedding models take a single text per request.
    """
    if not vertexai:
        return GEMINI_API_BATCH
    return 1 if "gemini" in model else VERTEX_PREDICT_BATCH


class GeminiEmbedder:
    """Embeds texts with a Gemini embedding model.

    Args:
        client: A google-genai client; default: built from the environment.
        settings: `embedding_model`, `embedding_dimension` and the retry policy; default: env.
        task_type: Optional embedding task type (e.g. "SEMANTIC_SIMILARITY"); None leaves the
            model default, so stored facts and queries share one vector space.
        batch_size: Texts per request; default: the largest the model accepts.
        concurrency: Requests in flight at once.
    """

    def __init__(
        self,
        client: Client | None = None,
        *,
        settings: GeminiSettings | None = None,
        task_type: str | None = None,
        batch_size: int | None = None,
        concurrency: int = 4,
    ) -> None:
        self._client = client if client is not None else build_client()
        self._settings = settings if settings is not None else GeminiSettings.from_env()
        self.model = self._settings.embedding_model
        self.dimension = self._settings.embedding_dimension
        # The dimension is part of the id: truncated vectors live in a different space.
        self.model_id = f"{self.model}@{self.dimension}"
        self._task_type = task_type
        vertexai = bool(self._client.vertexai)
        self._batch = batch_size or default_batch_size(self.model, vertexai=vertexai)
        self._gate = asyncio.Semaphore(max(1, concurrency))

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embeds a batch. Returns an array of shape (len(texts), dimension), rows unit length.

        Raises:
            GeminiCallError: if a request fails after its retries or returns malformed vectors.
        """
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        chunks = [list(texts[i : i + self._batch]) for i in range(0, len(texts), self._batch)]
        parts = await asyncio.gather(*(self._embed_chunk(chunk) for chunk in chunks))
        return normalize_rows(np.vstack(parts).astype(np.float32, copy=False))

    async def _embed_chunk(self, chunk: list[str]) -> np.ndarray:
        config = types.EmbedContentConfig(
            output_dimensionality=self.dimension, task_type=self._task_type
        )
        call = functools.partial(
            self._client.aio.models.embed_content,
            model=self.model,
            contents=list(chunk),
            config=config,
        )
        async with self._gate:
            try:
                response = await call_with_retries(call, self._settings.retry)
            except CALL_ERRORS as exc:
                raise GeminiCallError(f"Gemini embedding {self.model} failed: {exc}") from exc
        vectors = [e.values or [] for e in response.embeddings or []]
        if len(vectors) != len(chunk) or any(len(v) != self.dimension for v in vectors):
            shapes = [len(v) for v in vectors]
            raise GeminiCallError(
                f"Gemini embedding {self.model} returned {len(vectors)} vectors of sizes "
                f"{shapes[:5]} for {len(chunk)} texts of dimension {self.dimension}"
            )
        return np.asarray(vectors, dtype=np.float32)
