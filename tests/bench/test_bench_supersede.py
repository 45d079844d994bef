"""Smoke test of the destroyed-facts benchmark: the pairs load, and one look-alike and one
real update run through the engine with the outcome the bench counts."""

from __future__ import annotations

from pathlib import Path

from adk_memory.embedding.local import LocalEmbedder
from bench.bench_supersede import Pair, load, render, superseded


def test_the_pairs_load_as_look_alikes_and_updates() -> None:
    pairs = load()
    assert {p.kind for p in pairs} == {"lookalikes", "updates"}
    assert all(p.before and p.after and p.set_name for p in pairs)


async def test_a_look_alike_keeps_the_fact_and_an_update_supersedes_it(tmp_path: Path) -> None:
    embedder = LocalEmbedder()
    look_alike = Pair("t", "lookalikes", "I drive a VW Golf.", "My car is at the garage.")
    update = Pair("t", "updates", "I drive a VW Golf.", "Sold the Golf, I drive a Tesla now.")
    results = []
    for n, pair in enumerate((look_alike, update)):
        folder = tmp_path / str(n)
        folder.mkdir()
        results.append(await superseded(pair, embedder, folder))
    assert results == [False, True]
    report = render([look_alike, update], results, [], verbose=True)
    assert "| t | 0/1 (0.0 %) | 1/1 (100.0 %) |" in report
