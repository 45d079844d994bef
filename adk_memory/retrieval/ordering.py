"""Current values first: recalled memories that answer the same question, newest statement first.

REPLACE is precision-first, so an update phrased in a way the classifier does not recognise
leaves the old value active beside the new one. Decay alone cannot order them (a five-year
half-life barely separates January from April). So after scoring, memories that answer the
same question are grouped and ordered by when they were stated, newest first, at the rank of
the group's best member. What is said about them depends on the evidence (`Evidence`):

- nearly the same sentence about the same subject, both mattering to the query ("I like coffee
  in the morning", "I like tea in the afternoon"): only ordered, since both may hold;
- the same one-at-a-time slot of the same subject: marked latest and earlier;
- a change and a present state of the same person stated before it, one the other's nearest
  recalled neighbour, the change not already settled by a REPLACE. A change either names
  what the state holds as gone ("Sold the Vespa" for "I ride a Vespa") or sets a present
  against a past in words ("We're in Munich now", "it's IPAs instead of stout") or as a move
  to a value ("The company moved us to a co-working space"). Recall has chosen both as
  answers to this query, so the change most likely displaced that state. Marked, and the
  earlier value goes after every other recalled memory: still shown, never deleted (that
  needs REPLACE's explicit evidence). One-off events ("I stopped at the bakery", "the
  mechanic fixed the brakes") are no changes.

A group holds one kind of evidence, so a near-identical sentence is never marked because a
change joined its group.

The memory block shows every memory's date and these marks, so the agent's model can tell
which one holds now. Pure functions: no I/O.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import IntEnum

import numpy as np
from pydantic import BaseModel, Field

from adk_memory.extraction.cues import (
    THIRD_PERSON,
    cues,
    ends,
    lasting_change,
    negates,
    person_words,
    present_state,
    split_items,
    strip_speaker,
    subject_words,
)
from adk_memory.extraction.slots import is_single_valued
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
    #: Cosine a change statement needs with the state it displaces (both already recalled
    #: for the query, and that state its nearest recalled neighbour). Below it, recalled
    #: memories are unrelated however they are worded.
    change_cosine: float = Field(default=0.25, ge=0.0, le=1.0)
    #: Earlier answers displaced by a change statement go after every other recalled memory.
    displaced_last: bool = True
    #: Off turns the grouping off (pure score order).
    enabled: bool = True


def _slot(memory: ScoredMemory) -> tuple[str, str] | None:
    """The one-at-a-time slot a memory fills, if any: "allergic to peanuts" and "allergic to
    cats" share a predicate but both hold, so a many-valued one is no slot here."""
    record = memory.record
    if record.kind in (Kind.EPISODIC, Kind.SUMMARY) or not record.predicate:
        return None
    if not is_single_valued(record.predicate):
        return None
    return record.subject, record.predicate


def _body(memory: ScoredMemory) -> str:
    return strip_speaker(memory.record.text)


def _stated(memory: ScoredMemory) -> tuple[object, ...]:
    return (memory.record.stated_at, memory.record.created_at)


def _same_person(newer: str, older: str) -> bool:
    """Whether a change statement and a state are about the same person: both about the
    speaker; or the state is about someone and the change names them or says "she", "he",
    "they" ("Ravi left Google" after "My best friend Ravi works at Google"; "She moved to
    Bergen" after "My sister lives in Oslo"); or the state is the speaker's and names whom
    the change is about ("Kenji went on leave, so Sofia leads the team now" after "My team
    lead is Kenji"). "Google announced layoffs" is not about "my wife", who works there."""
    who_new, who_old = subject_words(newer, possessed=True), subject_words(older)
    if not who_new:
        return not who_old
    if who_old:
        return who_new == {THIRD_PERSON} or who_new <= who_old
    return THIRD_PERSON not in who_new and who_new <= person_words(older)


class _Reading:
    """What the ordering needs to know of the recalled memories, each read once."""

    def __init__(self, ranked: Sequence[ScoredMemory], vectors: np.ndarray | None) -> None:
        self.ranked = ranked
        self.vectors = vectors
        self.bodies = [_body(m) for m in ranked]
        self.stated = [_stated(m) for m in ranked]
        self.additive = [cues(body).additive for body in self.bodies]
        self.says_change = [lasting_change(body) for body in self.bodies]
        #: A present state that is not itself a change: what a change may displace.
        self.states = [
            present_state(body, personal=False, plans=True) and not change
            for body, change in zip(self.bodies, self.says_change, strict=True)
        ]
        self.nearest: list[int | None] = [None] * len(ranked)
        self._gram: list[list[float]] = []
        if vectors is not None:
            gram = vectors @ vectors.T
            self._gram = gram.tolist()
            datable = [i for i, m in enumerate(ranked) if m.record.kind is not Kind.SUMMARY]
            if len(datable) > 1:
                among = gram[np.ix_(datable, datable)]
                np.fill_diagonal(among, -np.inf)
                for row, column in enumerate(among.argmax(axis=1)):
                    self.nearest[datable[row]] = datable[int(column)]

    def cosine(self, i: int, j: int) -> float:
        return self._gram[i][j]


def _displaces(
    reading: _Reading, i: int, j: int, config: OrderingConfig, settled: Collection[str]
) -> int | None:
    """The index of the change when one of ranked[i], ranked[j] changes the other, a present
    state stated before it, by the evidence recall has; else None."""
    a, b = reading.ranked[i], reading.ranked[j]
    if reading.stated[i] == reading.stated[j] or Kind.SUMMARY in (a.record.kind, b.record.kind):
        return None
    n, o = (i, j) if reading.stated[i] > reading.stated[j] else (j, i)
    new, old = reading.ranked[n], reading.ranked[o]
    if new.record.id in settled or reading.cosine(n, o) < config.change_cosine:
        # A settled change already superseded what it changed (REPLACE).
        return None
    if reading.nearest[n] != o and reading.nearest[o] != n:
        return None
    if old.record.predicate == "name":
        # What someone is called changes only by saying so ("call me Kit"), which is a slot.
        return None
    if None not in (_slot(new), _slot(old)) and new.record.predicate != old.record.predicate:
        # Two different one-at-a-time slots answer two questions.
        return None
    new_text, old_text = reading.bodies[n], reading.bodies[o]
    if not reading.states[o] or not _same_person(new_text, old_text):
        return None
    if reading.says_change[n]:
        if negates(new_text) and len(split_items(old_text, commas=False)) > 1:
            # "I don't listen to classical any more" ends one of "jazz and classical".
            return None
        return n
    return n if ends(new_text, old_text) else None


def _adds(reading: _Reading, i: int, j: int) -> bool:
    """Whether the later of two statements says it holds beside the other ("also", "too")."""
    later = i if reading.stated[i] > reading.stated[j] else j
    return reading.additive[later]


class Evidence(IntEnum):
    """How a group of recalled memories is known to answer one question, weakest first."""

    #: Nearly the same sentence ("I like coffee in the morning", "I like tea in the
    #: afternoon"): ordered newest first, not marked (both may hold).
    SIMILAR = 1
    #: The same one-at-a-time slot of the same subject: marked latest and earlier.
    SLOT = 2
    #: A change and the state it displaced: marked, the earlier ones shown last.
    CHANGE = 3


@dataclass(frozen=True)
class Group:
    """Indices into the ranked list, best first, and how they are known to belong together.

    `changes` holds the index of each member that is a change displacing another member.
    """

    members: list[int]
    evidence: Evidence | None = None
    changes: frozenset[int] = frozenset()


def group_same_question(
    ranked: Sequence[ScoredMemory],
    vectors: np.ndarray | None,
    config: OrderingConfig,
    settled: Collection[str] = (),
) -> list[Group]:
    """`ranked` (best first) grouped by the question its memories answer, in the order of
    each group's best member; each group holds one kind of evidence. `vectors` holds unit
    embeddings of the memories' texts, row i for ranked[i] (None: slots alone decide).
    `settled` holds ids of memories that already superseded another."""
    reading = _Reading(ranked, vectors)
    groups: list[Group] = []
    owner: set[int] = set()
    for i, memory in enumerate(ranked):
        if i in owner:
            continue
        owner.add(i)
        if memory.record.kind is Kind.SUMMARY:
            # A summary stands for many statements of different dates: it has no one time.
            groups.append(Group([i]))
            continue
        members, evidence, changes = [i], None, set()
        for j in range(i + 1, len(ranked)):
            if j in owner or ranked[j].record.kind is Kind.SUMMARY:
                continue
            found, change = _evidence(reading, i, j, config, settled)
            if found is None or (evidence is not None and found is not evidence):
                continue
            members.append(j)
            owner.add(j)
            evidence = found
            if change is not None:
                changes.add(change)
        groups.append(Group(members, evidence, frozenset(changes)))
    return groups


def _evidence(
    reading: _Reading, i: int, j: int, config: OrderingConfig, settled: Collection[str]
) -> tuple[Evidence | None, int | None]:
    """The strongest evidence that ranked[i] (a group's head) and ranked[j] answer the same
    question, and the index of the change when it is a change."""
    head, other = reading.ranked[i], reading.ranked[j]
    if reading.vectors is not None:
        change = _displaces(reading, i, j, config, settled)
        if change is not None:
            # A change is evidence of its own: it may match the query's words less than the
            # state it displaced ("moved us to a co-working space" for "where is my office?").
            return Evidence.CHANGE, change
    # "I'm allergic to cats too": the later statement says both hold.
    if head.record.subject != other.record.subject or _adds(reading, i, j):
        return None, None
    if head.score > 0 and other.score < config.min_relative_score * head.score:
        return None, None
    if _slot(head) is not None and _slot(head) == _slot(other):
        return Evidence.SLOT, None
    if reading.vectors is not None and reading.cosine(i, j) >= config.same_question_cosine:
        return Evidence.SIMILAR, None
    return None, None


def changes_in(ranked: Sequence[ScoredMemory], groups: Sequence[Group]) -> set[str]:
    """Ids of the recalled changes that displace another memory in `groups`: the ones recall
    must ask about (has it already superseded something?) before ordering."""
    return {ranked[c].record.id for group in groups for c in group.changes}


def current_first(
    ranked: Sequence[ScoredMemory],
    vectors: np.ndarray | None,
    config: OrderingConfig,
    settled: Collection[str] = (),
    *,
    groups: Sequence[Group] | None = None,
) -> list[ScoredMemory]:
    """`ranked` with each same-question group ordered newest statement first; marked latest
    and earlier where the evidence says the newest replaced the others. `settled`: ids of
    memories that already superseded another. `groups`: what `group_same_question` returned
    for the same arguments, when the caller has it (saves grouping twice)."""
    if not config.enabled:
        return list(ranked)
    ordered: list[ScoredMemory] = []
    earlier: list[ScoredMemory] = []
    if groups is None:
        groups = group_same_question(ranked, vectors, config, settled)
    for group in groups:
        members = sorted(
            (ranked[i] for i in group.members),
            key=lambda m: (m.record.stated_at, m.record.created_at, m.score),
            reverse=True,
        )
        if group.evidence is None or group.evidence is Evidence.SIMILAR:
            ordered += [m.model_copy(update={"latest": None}) for m in members]
            continue
        ordered.append(members[0].model_copy(update={"latest": True}))
        older = [m.model_copy(update={"latest": False}) for m in members[1:]]
        if config.earlier_last or (group.evidence is Evidence.CHANGE and config.displaced_last):
            earlier += older
        else:
            ordered += older
    return ordered + earlier
