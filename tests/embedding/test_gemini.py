"""GeminiEmbedder against the emulator, on the Gemini API and the Vertex AI wire shapes."""

from __future__ import annotations

import numpy as np
import pytest
from google import genai

from adk_memory.embedding.base import Embedder
from adk_memory.embedding.gemini import GeminiEmbedder, default_batch_size
from adk_memory.embedding.local import LocalEmbedder
from adk_memory.google_api.gemini import GeminiCallError, GeminiSettings, build_client
from adk_memory.testing.emulator import EmulatorServer
from tests.support.gemini import Admin

TEXTS = ["User lives in Berlin.", "User moved to Munich.", "User is allergic to peanuts."]


async def test_gemini_api_vectors_are_unit_float32(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    embedder = GeminiEmbedder(client, settings=settings)
    assert isinstance(embedder, Embedder)
    vectors = await embedder.embed(TEXTS)

    assert vectors.shape == (3, 768) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    # Zero padding in the emulator keeps the local model's cosines.
    local = LocalEmbedder().embed_sync(TEXTS)
    assert np.allclose(vectors @ vectors.T, local @ local.T, atol=1e-4)
    assert embedder.model_id == "gemini-embedding-001@768"
    assert admin.stats()["embed_requests"] == 1


async def test_batches_and_smaller_dimensions(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    embedder = GeminiEmbedder(
        client, settings=settings.model_copy(update={"embedding_dimension": 128}), batch_size=2
    )
    vectors = await embedder.embed([*TEXTS, "one more", "and another"])

    assert vectors.shape == (5, 128)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    stats = admin.stats()
    assert (stats["embed_requests"], stats["embedded_texts"]) == (3, 5)
    assert (await embedder.embed([])).shape == (0, 128)


async def test_embedding_retries_transient_errors(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    admin.faults(fail_statuses=[503], methods=["embedContent"])
    vectors = await GeminiEmbedder(client, settings=settings).embed(TEXTS[:1])
    assert vectors.shape == (1, 768)
    assert admin.stats()["embed_requests"] == 2


async def test_embedding_failure_raises(
    client: genai.Client, settings: GeminiSettings, admin: Admin
) -> None:
    admin.faults(fail_statuses=[400], methods=["embedContent"])
    with pytest.raises(GeminiCallError):
        await GeminiEmbedder(client, settings=settings).embed(TEXTS)


@pytest.mark.parametrize(
    ("model", "requests"),
    [("text-embedding-005", 1), ("gemini-embedding-001", 3)],
)
async def test_vertex_predict_through_env_configuration(
    server: EmulatorServer,
    admin: Admin,
    monkeypatch: pytest.MonkeyPatch,
    model: str,
    requests: int,
) -> None:
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.setenv("GOOGLE_GENAI_USE_VERTEXAI", "true")
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "emulator-project")
    monkeypatch.setenv("GOOGLE_CLOUD_LOCATION", "us-central1")
    monkeypatch.setenv("GOOGLE_VERTEX_BASE_URL", server.base_url)
    monkeypatch.setenv("ADK_MEMORY_GEMINI_EMBEDDING_MODEL", model)
    monkeypatch.setenv("ADK_MEMORY_GEMINI_EMBEDDING_DIMENSION", "256")

    embedder = GeminiEmbedder(build_client(), settings=GeminiSettings.from_env())
    vectors = await embedder.embed(TEXTS)

    assert vectors.shape == (3, 256)
    assert admin.stats()["embed_requests"] == requests


def test_default_batch_sizes() -> None:
    assert default_batch_size("gemini-embedding-001", vertexai=False) == 100
    assert default_batch_size("gemini-embedding-001", vertexai=True) == 1
    assert default_batch_size("text-embedding-005", vertexai=True) == 250
