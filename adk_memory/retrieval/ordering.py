"""Current values first: recalled memories that answer the same question, newest statement first.

REPLACE is precision-first, so an update phrased in a way the classifier does not recognise
leaves the old value active beside the new one. Decay alone cannot order them (a five-year
half-life barely separates January from April). So after scoring, memories that answer the
same question are grouped and ordered by when they were stated, newest first, at the rank of
the group's best member; each is marked latest or earlier, and the memory block shows the
dates, so the agent's model can tell which one holds now.

Two recalled memories answer the same question when they fill the same slot (subject and
attribute), or when they say nearly the same thing about the same subject (their embeddings
are close) and both matter to the query. Pure functions: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel, Field

from adk_memory.model import Kind, ScoredMemory


class OrderingConfig(BaseModel):
    """When recalled memories count as answers to the same question."""

    #: Cosine between two memories' embeddings above which they say nearly the same thing.
    same_question_cosine: float = Field(default=0.62, ge=0.0, le=1.0)
    #: A memory joins a group only with at least this share of the group head's score, so a
    #: newer but barely relevant memory never jumps ahead of the answer.
    min_relative_score: float = Field(default=0.6, ge=0.0, le=1.0)
    #: Earlier answers go after every other recalled memory instead of right after the
    #: latest. Off by default: when two memories are wrongly taken for answers to one
    #: question (both true: "I play tennis", "I play squash"), it would push a true fact
    #: out of the top ranks.
    earlier_last: bool = False
    #: Off turns the grouping off (pure score order).
    enabled: bool = True


def _slot(memory: ScoredMemory) -> tuple[str, str] | None:
    record = memory.record
    if record.kind in (Kind.EPISODIC, Kind.SUMMARY) or not record.predicate:
        return None
    return record.subject, record.predicate


def group_same_question(
    ranked: Sequence[ScoredMemory], vectors: np.ndarray | None, config: OrderingConfig
) -> list[list[int]]:
    """Indices of `ranked` (best first) grouped by the question they answer, in the order of
    each group's best member. `vectors` holds unit embeddings of the memories' texts, row i
    for ranked[i] (None: slots alone decide)."""
    groups: list[list[int]] = []
    owner: dict[int, int] = {}
    for i, memory in enumerate(ranked):
        if i in owner:
            continue
        if memory.record.kind is Kind.SUMMARY:
            # A summary stands for many statements of different dates: it has no one time.
            owner[i] = len(groups)
            groups.append([i])
            continue
        group = [i]
        owner[i] = len(groups)
        head_score = memory.score
        for j in range(i + 1, len(ranked)):
            if j in owner:
                continue
            other = ranked[j]
            if other.record.kind is Kind.SUMMARY:
                continue
            if head_score > 0 and other.score < config.min_relative_score * head_score:
                continue
            if memory.record.subject != other.record.subject:
                continue
            same = _slot(memory) is not None and _slot(memory) == _slot(other)
            if not same and vectors is not None:
                same = float(np.dot(vectors[i], vectors[j])) >= config.same_question_cosine
            if same:
                group.append(j)
                owner[j] = len(groups)
        groups.append(group)
    return groups


def current_first(
    ranked: Sequence[ScoredMemory], vectors: np.ndarray | None, config: OrderingConfig
) -> list[ScoredMemory]:
    """`ranked` with each same-question group ordered newest statement first, marked."""
    if not config.enabled:
        return list(ranked)
    ordered: list[ScoredMemory] = []
    earlier: list[ScoredMemory] = []
    for group in group_same_question(ranked, vectors, config):
        if len(group) == 1:
            ordered.append(ranked[group[0]].model_copy(update={"latest": None}))
            continue
        members = sorted(
            (ranked[i] for i in group),
            key=lambda m: (m.record.stated_at, m.record.created_at, m.score),
            reverse=True,
        )
        ordered.append(members[0].model_copy(update={"latest": True}))
        older = [m.model_copy(update={"latest": False}) for m in members[1:]]
        if config.earlier_last:
            earlier += older
        else:
            ordered += older
    return ordered + earlier
