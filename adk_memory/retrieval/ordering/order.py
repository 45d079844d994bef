"""`current_first`: each same-question group ordered newest statement first, marked where the
evidence says the newest replaced the others, then the learned weighing of rivals."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

from adk_memory.model import ScoredMemory
from adk_memory.retrieval import rival_model
from adk_memory.retrieval.ordering.config import OrderingConfig
from adk_memory.retrieval.ordering.grouping import (
    Evidence,
    Grouping,
    group_reading,
)
from adk_memory.retrieval.ordering.reading import Reading
from adk_memory.retrieval.ordering.rivals import rival_pairs_of, weigh_rivals


def _answers_as_well(members: Sequence[ScoredMemory]) -> bool:
    """Whether the newest of a group (first) matches the query at least as well as each
    earlier member, on the dense cosine."""
    latest, *earlier = members
    return all(latest.breakdown.cosine >= m.breakdown.cosine for m in earlier)


def current_first(
    ranked: Sequence[ScoredMemory],
    vectors: np.ndarray | None,
    config: OrderingConfig,
    settled: Collection[str] = (),
    *,
    query: str = "",
    grouping: Grouping | None = None,
) -> list[ScoredMemory]:
    """`ranked` with each same-question group ordered newest statement first; marked latest
    and earlier where the evidence says the newest replaced the others. `settled`: ids of
    memories that already superseded another. `grouping`: what `group_same_question`
    returned for the same recall, when the caller has it: its reading is used again, and its
    groups too unless `settled` differs from what they were formed with.

    A group is reordered within the ranks its members hold, so no memory outside it moves:
    "My laptop is a ThinkPad X1" at rank 1 and "Work issued me a MacBook Pro" at rank 4 swap
    ranks, and ranks 2 and 3 stay. Earlier values a change displaced leave their ranks and go
    after every other memory."""
    if not config.enabled:
        return list(ranked)
    placed: list[ScoredMemory | None] = [None] * len(ranked)
    earlier: list[ScoredMemory] = []
    weighs = vectors is not None and config.rival_order is not None and len(ranked) > 1
    if grouping is None:
        reading = Reading(ranked, vectors, config, query)
        groups = group_reading(reading, config, settled)
    else:
        reading = grouping.reading
        groups = grouping.groups
        if frozenset(settled) != grouping.settled:
            # A change REPLACE already accounted for displaces nothing: group again.
            groups = group_reading(reading, config, settled)
    for group in groups:
        ranks = sorted(group.members)
        members = sorted(
            (ranked[i] for i in group.members),
            key=lambda m: (m.record.stated_at, m.record.created_at, m.score),
            reverse=True,
        )
        if group.evidence is None or group.evidence is Evidence.SIMILAR:
            marked = [m.model_copy(update={"latest": None}) for m in members]
        else:
            marked = [members[0].model_copy(update={"latest": True})]
            older = [m.model_copy(update={"latest": False}) for m in members[1:]]
            if (
                config.earlier_last
                or (group.evidence is Evidence.CHANGE and config.displaced_last)
                or (
                    group.evidence is Evidence.ONE_ANSWER
                    and (
                        config.one_answer_last
                        or (config.as_good_answer_last and _answers_as_well(members))
                    )
                )
                or (group.evidence is Evidence.NEW_ANSWER and config.new_answer_last)
                or (group.evidence is Evidence.CORRECTION and config.corrected_last)
            ):
                earlier += older
            else:
                marked += older
        # Displaced earlier values left `marked`: the group's last ranks stay empty and close up.
        for rank, memory in zip(ranks, marked, strict=False):
            placed[rank] = memory
    ordered = [m for m in placed if m is not None] + earlier
    if not weighs or config.rival_order is None:
        return ordered
    pairs = rival_pairs_of(reading, config)
    return weigh_rivals(ordered, pairs, ranked, config.rival_order, rival_model.bundled())
