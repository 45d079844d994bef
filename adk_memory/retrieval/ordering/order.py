"""`current_first`: each same-question group ordered newest statement first, marked where the
evidence says the newest replaced the others; then the learned weighings of rival and of
displaced answers."""

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
from adk_memory.retrieval.ordering.own_answer import own_answer_first
from adk_memory.retrieval.ordering.reading import Reading
from adk_memory.retrieval.ordering.rivals import (
    PairReadings,
    displaced_pairs_of,
    rival_pairs_of,
    send_displaced_last,
    send_rivals_last,
    weigh,
    weigh_rivals,
)
from adk_memory.retrieval.rival_model import RivalModel


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
    rivals: RivalModel | None = None,
    displacement: RivalModel | None = None,
) -> list[ScoredMemory]:
    """`ranked` with each same-question group ordered newest statement first; marked latest
    and earlier where the evidence says the newest replaced the others. `settled`: ids of
    memories that already superseded another. `grouping`: what `group_same_question`
    returned for the same recall, when the caller has it: its reading is used again, and its
    groups too unless `settled` differs from what they were formed with. `rivals` and
    `displacement`: the learned weighings (default: the bundled ones; the trainer passes its own).

    A group is reordered within the ranks its members hold, so no memory outside it moves:
    "My laptop is a ThinkPad X1" at rank 1 and "Work issued me a MacBook Pro" at rank 4 swap
    ranks, and ranks 2 and 3 stay. Earlier values a change displaced leave their ranks and go
    after every other memory.

    Then the learned weighings: a later answer likely to hold instead of an earlier one moves
    up to just before it (`OrderingConfig.rival_order`), and the earlier goes after every
    other memory where that is very likely and the query asks for one value
    (`OrderingConfig.rival_last`); an earlier answer likely displaced by a later one placed
    before it goes after every other memory (`OrderingConfig.displaced_order`)."""
    if not config.enabled:
        return list(ranked)
    placed: list[ScoredMemory | None] = [None] * len(ranked)
    earlier: list[ScoredMemory] = []
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
    if vectors is None or len(ranked) < 2:
        return ordered
    if config.own_answer_first:
        ordered = own_answer_first(ordered, reading, query)
    pairs = PairReadings(reading, config)
    if config.rival_order is not None:
        model = rivals or rival_model.bundled()
        weighed = weigh(rival_pairs_of(pairs), model)
        ordered = weigh_rivals(ordered, weighed, ranked, config.rival_order)
        if config.rival_last is not None:
            ordered = send_rivals_last(ordered, weighed, reading, config.rival_last)
    if config.displaced_order is not None:
        model = displacement or rival_model.bundled(rival_model.DISPLACED_FILE)
        found = displaced_pairs_of(pairs, ordered)
        ordered = send_displaced_last(ordered, found, ranked, config.displaced_order, model)
    return ordered
