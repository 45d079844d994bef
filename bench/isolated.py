"""Runs a benchmark's items one by one, each in a fresh temporary directory, sharing one
embedder (loading the model is the slow part; a store per item keeps items apart)."""

from __future__ import annotations

import tempfile
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TypeVar

from adk_memory.embedding.local import LocalEmbedder

Item = TypeVar("Item")
Result = TypeVar("Result")


async def each_in_a_fresh_directory(
    items: Sequence[Item],
    run: Callable[[Item, LocalEmbedder, Path], Awaitable[Result]],
    *,
    prefix: str,
) -> list[Result]:
    """`run(item, embedder, directory)` for each item, in order."""
    embedder = LocalEmbedder()
    results = []
    for item in items:
        with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
            results.append(await run(item, embedder, Path(tmp)))
    return results
