"""`group_same_question`: recalled memories grouped by the question they answer, each group
with the strongest evidence that joins it."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from adk_memory.model import ScoredMemory
from adk_memory.retrieval.ordering.answers import (
    answer_pair,
    comparably_relevant,
    corrected,
    new_rival,
    one_answer,
    presented_as_new,
    rival_answers,
)
from adk_memory.retrieval.ordering.config import OrderingConfig
from adk_memory.retrieval.ordering.displacement import displaces
from adk_memory.retrieval.ordering.reading import Reading
from adk_memory.retrieval.ordering.stand_in import adds, may_stand_in


class Evidence(IntEnum):
    """How a group of recalled memories is known to answer one question, weakest first."""

    #: Two answers to the query about the same thing ("I like coffee in the morning", "I
    #: like tea in the afternoon"): ordered newest first, not marked (both may hold).
    SIMILAR = 1
    #: The same one-at-a-time slot of the same subject: marked latest and earlier. The rules
    #: never show it last: REPLACE would have superseded the earlier one unless something
    #: (someone else named, a passing moment) held it back. The learned weighing of
    #: displaced answers may (`OrderingConfig.displaced_order`).
    SLOT = 2
    #: Two answers to a query that asks for one value ("What car do I drive?"), the later
    #: naming a new value of the earlier's kind: marked (the earlier ones shown last only
    #: with `OrderingConfig.one_answer_last`).
    ONE_ANSWER = 3
    #: Such a rival answer that the clause naming its value presents as new ("the new
    #: manager Bartek", "upped my pension to 8%", "it's Kyoto and Osaka now"): marked, the
    #: earlier ones shown last (`OrderingConfig.new_answer_last`).
    NEW_ANSWER = 4
    #: Two answers to the same question, the later saying the earlier was wrong ("I gave
    #: you the wrong postcode before, it's LS6 3QT", "it's actually a Dell XPS 15, not the
    #: 13"): marked, the earlier ones shown last (`OrderingConfig.corrected_last`).
    CORRECTION = 5
    #: A change and the state it displaced: marked, the earlier ones shown last.
    CHANGE = 6


@dataclass(frozen=True)
class Group:
    """Indices into the ranked list, best first, and how they are known to belong together.

    `changes` holds the index of each member that is a change displacing another member.
    """

    members: list[int]
    evidence: Evidence | None = None
    changes: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Grouping:
    """What `group_same_question` found: the groups, and the reading of the recall they came
    from (`current_first` orders with the same reading instead of reading the recall again).
    `settled` is what the groups were formed with."""

    groups: list[Group]
    reading: Reading
    settled: frozenset[str] = frozenset()


def group_same_question(
    ranked: Sequence[ScoredMemory],
    vectors: np.ndarray | None,
    config: OrderingConfig,
    settled: Collection[str] = (),
    *,
    query: str = "",
) -> Grouping:
    """`ranked` (best first) grouped by the question its memories answer, in the order of
    each group's best member; each group holds one kind of evidence. `vectors` holds unit
    embeddings of the memories' texts, row i for ranked[i] (None: slots alone decide).
    `settled` holds ids of memories that already superseded another; `query` is what they
    were recalled for.

    The strongest evidence groups first: a change claims the state it displaced before a
    weaker reading could pair that state with some other memory. A group's members each
    have the evidence with its best-ranked member (the head)."""
    reading = Reading(ranked, vectors, config, query)
    return Grouping(group_reading(reading, config, settled), reading, frozenset(settled))


def group_reading(
    reading: Reading, config: OrderingConfig, settled: Collection[str]
) -> list[Group]:
    found: list[tuple[Evidence, int, int, int | None]] = []
    for i, j in reading.pairs:
        evidence, change = _evidence(reading, i, j, config, settled)
        if evidence is not None:
            found.append((evidence, i, j, change))
    found.sort(key=lambda pair: (-pair[0], pair[1], pair[2]))
    members: dict[int, list[int]] = {}
    kinds: dict[int, Evidence] = {}
    changes: dict[int, set[int]] = {}
    grouped: set[int] = set()
    for evidence, head, j, change in found:
        if j in grouped or j in members or (head in grouped and head not in members):
            # Each memory is in one group, and a group's members pair with its head.
            continue
        if kinds.setdefault(head, evidence) is not evidence:
            continue
        if reading.slots[head] is None and any(
            reading.other_slots(j, m) for m in members.get(head, [])
        ):
            # Each pairs with a head that fills no one slot, not with each other: "I moved to
            # Munich" and "I work at BMW now" both answer parts of "I live in Berlin and work
            # at Siemens", and neither stands in for the other.
            continue
        members.setdefault(head, [head]).append(j)
        grouped.update((head, j))
        if change is not None:
            changes.setdefault(head, set()).add(change)
    return [
        Group(members[i], kinds[i], frozenset(changes.get(i, ()))) if i in members else Group([i])
        for i in range(len(reading.ranked))
        if i in members or i not in grouped
    ]


def _evidence(
    reading: Reading, i: int, j: int, config: OrderingConfig, settled: Collection[str]
) -> tuple[Evidence | None, int | None]:
    """The strongest evidence that ranked[i] (a group's head) and ranked[j] answer the same
    question, and the index of the change when it is a change."""
    head, other = reading.ranked[i], reading.ranked[j]
    if reading.said[i] == reading.said[j]:
        # Said at once (two clauses of one message): no order between them to go by.
        return None, None
    if reading.vectors is not None:
        change = displaces(reading, i, j, config, settled)
        if change is not None:
            # A change is evidence of its own: it may match the query's words less than the
            # state it displaced ("moved us to a co-working space" for "where is my office?").
            return Evidence.CHANGE, change
    if adds(reading, i, j):
        # "I'm allergic to cats too": the later statement says both hold.
        return None, None
    # The extractor's subjects decide the near-identical readings; related answers read who
    # each is about in their words (`same_person`), since the extractor may file "My sister
    # and her husband bought a house in Vancouver" under the speaker.
    same_subject = head.record.subject == other.record.subject
    relevant = comparably_relevant(head, other, config)
    if (
        same_subject
        and relevant
        and reading.slots[i] is not None
        and reading.slots[i] == reading.slots[j]
    ):
        return (Evidence.CORRECTION if corrected(reading, i, j) else Evidence.SLOT), None
    if reading.vectors is None or not may_stand_in(reading, i, j):
        # "I'm dog-sitting a beagle this weekend" says nothing about the lasting answer.
        return None, None
    cosine = reading.cosine(i, j)
    if (
        (same_subject and relevant and cosine >= config.same_question_cosine)
        or (cosine >= config.answer_cosine and answer_pair(reading, i, j, config))
        or rival_answers(reading, i, j, config)
        or new_rival(reading, i, j, config)
    ):
        if corrected(reading, i, j):
            return Evidence.CORRECTION, None
        if reading.asks_for_one and one_answer(reading, i, j):
            if presented_as_new(reading, i, j):
                return Evidence.NEW_ANSWER, None
            return Evidence.ONE_ANSWER, None
        return Evidence.SIMILAR, None
    return None, None


def changes_in(grouping: Grouping) -> set[str]:
    """Ids of the recalled changes that displace another memory in `grouping`: the ones
    recall must ask about (has it already superseded something?) before ordering."""
    ranked = grouping.reading.ranked
    return {ranked[c].record.id for group in grouping.groups for c in group.changes}
