"""Smoke test of the review-probe benchmark: the probes load and one of each kind runs."""

from __future__ import annotations

from pathlib import Path

from adk_memory.embedding.local import LocalEmbedder
from bench.bench_probes import CONFIGS, KINDS, load, render, run_probe


def test_the_probes_load_in_four_kinds() -> None:
    probes = load()
    kinds = {p.kind for p in probes}
    assert kinds == {"updates", "remarks", "compatible", "others"}
    assert all(p.fact and p.later and p.query for p in probes)


async def test_one_probe_of_each_kind_runs_in_both_configurations(tmp_path: Path) -> None:
    probes = load()
    picked = [next(p for p in probes if p.kind == k) for k in KINDS]
    embedder = LocalEmbedder()
    outcomes = []
    for n, probe in enumerate(picked):
        folder = tmp_path / str(n)
        folder.mkdir()
        outcomes.append(await run_probe(probe, embedder, folder))
    for outcome in outcomes:
        assert set(outcome.ranks) == set(CONFIGS)
        # The fact is in the top 5 unless REPLACE superseded it.
        assert outcome.replaced or all(rank[0] is not None for rank in outcome.ranks.values())
    report = render(outcomes, [])
    assert "update first" in report and "remark ranked above" in report
    assert "someone else's news: the speaker's fact superseded" in report
