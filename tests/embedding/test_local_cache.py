"""The local model's cache (`LocalEmbedder(model_cache=...)`, what the CLI uses): vectors are
bit-for-bit those of the in-memory build whether the cache is written, read, damaged or
unusable. A fresh process reads the cache (the process that writes it keeps its session)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from adk_memory.embedding.local import LocalEmbedder, cache_key

TEXTS = [
    "tea?",
    "which tea do I like?",
    "My sister Anna moved to Berlin in 2021 and works as a nurse at the Charité.",
    "Ich trinke am liebsten grünen Tee, 緑茶 — oder Kaffee ☕ nach 22:00?",
    *(f"I have visited {n} countries." for n in range(1, 70)),  # more than one batch of 64
]

EMBED_IN_A_FRESH_PROCESS = """
import sys
import numpy as np
from adk_memory.embedding.local import LocalEmbedder
texts = sys.argv[3:]
embedder = LocalEmbedder(model_cache=sys.argv[1])
singles = np.vstack([embedder.embed_sync([t]) for t in texts[:4]])
np.save(sys.argv[2], np.vstack([singles, embedder.embed_sync(texts)]))
"""


def _vectors(embedder: LocalEmbedder) -> np.ndarray:
    # Queries are embedded one at a time (no padding), writes in batches: check both.
    singles = np.vstack([embedder.embed_sync([t]) for t in TEXTS[:4]])
    return np.vstack([singles, embedder.embed_sync(TEXTS)])


def _fresh_process(cache: Path, out: Path) -> np.ndarray:
    done = subprocess.run(
        [sys.executable, "-c", EMBED_IN_A_FRESH_PROCESS, str(cache), str(out), *TEXTS],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    loaded: np.ndarray = np.load(out)
    return loaded


@pytest.fixture(scope="module")
def reference() -> np.ndarray:
    """The vectors of the in-memory build, as long-lived processes load the model."""
    return _vectors(LocalEmbedder())


def _entry(cache: Path) -> Path:
    return cache / cache_key()


def test_writing_then_reading_the_cache_gives_the_in_memory_vectors(
    tmp_path: Path, reference: np.ndarray
) -> None:
    cache = tmp_path / "models"
    assert np.array_equal(_vectors(LocalEmbedder(model_cache=cache)), reference)
    entry = _entry(cache)
    assert sorted(p.name for p in cache.iterdir()) == [entry.name]
    written = {p.name: p.stat().st_mtime_ns for p in entry.iterdir()}

    assert np.array_equal(_fresh_process(cache, tmp_path / "read.npy"), reference)
    assert {p.name: p.stat().st_mtime_ns for p in entry.iterdir()} == written  # read, not redone


def test_a_damaged_entry_is_rebuilt_and_vectors_stay_exact(
    tmp_path: Path, reference: np.ndarray
) -> None:
    cache = tmp_path / "models"
    LocalEmbedder(model_cache=cache).embed_sync(["warm up"])
    files = {p.name: p.read_bytes() for p in _entry(cache).iterdir()}
    biggest = max(files, key=lambda name: len(files[name]))
    probe = min(files, key=lambda name: len(files[name]))
    (_entry(cache) / biggest).write_bytes(files[biggest][: len(files[biggest]) // 2])
    (_entry(cache) / probe).write_bytes(bytes(len(files[probe])))

    assert np.array_equal(_fresh_process(cache, tmp_path / "a.npy"), reference)
    assert {p.name: p.read_bytes() for p in _entry(cache).iterdir()} == files  # rewritten

    # A probe that no longer matches (the weights changed under it) is caught the same way.
    (_entry(cache) / probe).write_bytes(files[probe][::-1])
    assert np.array_equal(_fresh_process(cache, tmp_path / "b.npy"), reference)
    assert (_entry(cache) / probe).read_bytes() == files[probe]


def test_an_unusable_cache_folder_only_costs_the_cache(
    tmp_path: Path, reference: np.ndarray
) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("in the way")
    assert np.array_equal(_vectors(LocalEmbedder(model_cache=not_a_folder / "models")), reference)
    assert not_a_folder.read_text() == "in the way"


def test_writing_an_entry_removes_only_unused_entries_and_dead_writers(tmp_path: Path) -> None:
    cache = tmp_path / "models"
    names = ("0123456789abcdef0123", "fedcba9876543210fedc", ".tmp-dead", ".tmp-busy")
    unused, in_use, dead, busy = (cache / name for name in names)
    for folder in (unused, in_use, dead, busy):
        folder.mkdir(parents=True)
        (folder / "weights.bin").write_bytes(b"old")
    for folder, days in ((unused, 31), (in_use, 29), (dead, 1 / 24)):
        then = folder.stat().st_mtime - days * 86400
        os.utime(folder, (then, then))

    LocalEmbedder(model_cache=cache).embed_sync(["warm up"])
    # Another install may still use the entry of its versions, another writer may still be
    # filling .tmp-busy: only what nobody used for a month and a long-dead writer go.
    left = sorted(p.name for p in cache.iterdir())
    assert left == sorted([_entry(cache).name, in_use.name, busy.name])


def test_reading_an_entry_marks_it_in_use(tmp_path: Path) -> None:
    cache = tmp_path / "models"
    LocalEmbedder(model_cache=cache).embed_sync(["warm up"])
    entry = _entry(cache)
    then = entry.stat().st_mtime - 40 * 86400
    os.utime(entry, (then, then))
    _fresh_process(cache, tmp_path / "v.npy")
    assert entry.stat().st_mtime > then + 39 * 86400
