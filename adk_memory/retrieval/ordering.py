"""Current values first: recalled memories that answer the same question, newest statement first.

REPLACE is precision-first, so an update phrased in a way the classifier does not recognise
leaves the old value active beside the new one. Decay alone cannot order them (a five-year
half-life barely separates January from April). So after scoring, memories that answer the
same question are grouped and ordered by when they were stated, newest first, at the rank of
the group's best member. What is said about them depends on the evidence (`Evidence`):

- nearly the same sentence about the same subject, both mattering to the query ("I like coffee
  in the morning", "I like tea in the afternoon"): only ordered, since both may hold;
- the same one-at-a-time slot of the same subject: marked latest and earlier;
- a lasting change ("We're in Munich now", "Cancelled Spotify, I'm on Apple Music") and a
  present state of the same person stated before it, one the other's nearest recalled
  neighbour, the change not already settled by a REPLACE: recall has chosen both as answers
  to this query, so the change most likely displaced that state. Marked, and the earlier
  value goes after every other recalled memory: still shown, never deleted (that needs
  REPLACE's explicit evidence).

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
    content_words,
    cues,
    is_relation,
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
    speaker, or the state names whoever the change is about ("Ravi left Google" and "My
    best friend Ravi works at Google"; "Gran moved" and "My grandmother lives …"); a
    pronoun or a name the state does not contradict continues a state about someone else
    ("She moved to Bergen" after "My sister lives in Oslo"; "Maya started at Oakwood"
    after "My daughter is at Hillside")."""
    who_new, who_old = subject_words(newer, possessed=True), subject_words(older)
    if not who_new:
        return not who_old
    if not who_old:
        return who_new <= person_words(older)
    if who_new <= person_words(older) | who_old:
        return True
    old_names = {w for w in who_old if not is_relation(w)}
    new_names = {w for w in who_new if not is_relation(w)}
    return who_new == {THIRD_PERSON} or (bool(new_names) and not old_names and new_names == who_new)


def _adds(a: ScoredMemory, b: ScoredMemory) -> bool:
    """Whether the later of two statements says it holds beside the other ("also", "too")."""
    later = a if _stated(a) > _stated(b) else b
    return cues(_body(later)).additive


def may_displace(memory: ScoredMemory) -> bool:
    """Whether a recalled memory reads as a lasting change, so recall asks whether it
    already superseded another (then it displaces nothing more)."""
    return lasting_change(_body(memory))


def _nearest(vectors: np.ndarray, i: int, members: Sequence[int]) -> int | None:
    others = [j for j in members if j != i]
    if not others:
        return None
    return max(others, key=lambda j: float(np.dot(vectors[i], vectors[j])))


def _displaces(
    ranked: Sequence[ScoredMemory],
    vectors: np.ndarray,
    i: int,
    j: int,
    candidates: Sequence[int],
    config: OrderingConfig,
    settled: Collection[str],
) -> bool:
    """Whether one of ranked[i], ranked[j] is a lasting change that displaces the other, a
    present state stated before it, by the evidence recall has: the state is the change's
    nearest neighbour among the `candidates` (or the other way round) and close enough."""
    a, b = ranked[i], ranked[j]
    if _stated(a) == _stated(b):
        return False
    (new, n), (old, o) = ((a, i), (b, j)) if _stated(a) > _stated(b) else ((b, j), (a, i))
    if float(np.dot(vectors[n], vectors[o])) < config.change_cosine:
        return False
    if new.record.id in settled:
        # The change already superseded what it changed (REPLACE): nothing else to displace.
        return False
    if o != _nearest(vectors, n, candidates) and n != _nearest(vectors, o, candidates):
        return False
    if old.record.predicate == "name":
        # What someone is called changes only by saying so ("call me Kit"), which is a slot.
        return False
    if None not in (_slot(new), _slot(old)) and new.record.predicate != old.record.predicate:
        # Two different one-at-a-time slots answer two questions ("I take my whiskey on the
        # rocks now" does not displace "I'm Sam").
        return False
    new_text, old_text = _body(new), _body(old)
    if len(content_words(new_text)) < 2:
        # A fragment ("Actually") says that something changed, not what.
        return False
    if negates(new_text) and len(split_items(old_text, commas=False)) > 1:
        # "I don't listen to classical any more" ends one of "I love jazz and classical".
        return False
    return (
        lasting_change(new_text)
        and present_state(old_text, personal=False, plans=True)
        and not lasting_change(old_text)
        and _same_person(new_text, old_text)
    )


class Evidence(IntEnum):
    """How a group of recalled memories is known to answer one question, weakest first."""

    #: Nearly the same sentence ("I like coffee in the morning", "I like tea in the
    #: afternoon"): ordered newest first, not marked (both may hold).
    SIMILAR = 1
    #: The same one-at-a-time slot of the same subject: marked latest and earlier.
    SLOT = 2
    #: A lasting change and the state it displaced: marked, the earlier ones shown last.
    CHANGE = 3


@dataclass(frozen=True)
class Group:
    """Indices into the ranked list, best first, and how they are known to belong together."""

    members: list[int]
    evidence: Evidence | None = None


def group_same_question(
    ranked: Sequence[ScoredMemory],
    vectors: np.ndarray | None,
    config: OrderingConfig,
    settled: Collection[str] = (),
) -> list[Group]:
    """`ranked` (best first) grouped by the question its memories answer, in the order of
    each group's best member. `vectors` holds unit embeddings of the memories' texts, row i
    for ranked[i] (None: slots alone decide)."""
    groups: list[Group] = []
    owner: set[int] = set()
    datable = [i for i, m in enumerate(ranked) if m.record.kind is not Kind.SUMMARY]
    for i, memory in enumerate(ranked):
        if i in owner:
            continue
        owner.add(i)
        if memory.record.kind is Kind.SUMMARY:
            # A summary stands for many statements of different dates: it has no one time.
            groups.append(Group([i]))
            continue
        members = [i]
        evidence: Evidence | None = None
        for j in range(i + 1, len(ranked)):
            if j in owner or ranked[j].record.kind is Kind.SUMMARY:
                continue
            found = _evidence(ranked, vectors, i, j, datable, config, settled)
            if found is not None:
                members.append(j)
                owner.add(j)
                evidence = max(found, evidence or found)
        groups.append(Group(members, evidence))
    return groups


def _evidence(
    ranked: Sequence[ScoredMemory],
    vectors: np.ndarray | None,
    i: int,
    j: int,
    datable: Sequence[int],
    config: OrderingConfig,
    settled: Collection[str],
) -> Evidence | None:
    """The strongest evidence that ranked[i] (a group's head) and ranked[j] answer the same
    question, if any."""
    head, other = ranked[i], ranked[j]
    if vectors is not None and _displaces(ranked, vectors, i, j, datable, config, settled):
        # A change is evidence of its own: it may match the query's words less than the
        # state it displaced ("moved us to a co-working space" for "where is my office?").
        # Who changed is read from its words (an extractor may leave a statement about
        # "my mum" with the speaker as subject).
        return Evidence.CHANGE
    # "I'm allergic to cats too": the later statement says both hold.
    if head.record.subject != other.record.subject or _adds(head, other):
        return None
    if head.score > 0 and other.score < config.min_relative_score * head.score:
        return None
    if _slot(head) is not None and _slot(head) == _slot(other):
        return Evidence.SLOT
    if vectors is not None and float(np.dot(vectors[i], vectors[j])) >= config.same_question_cosine:
        return Evidence.SIMILAR
    return None


def current_first(
    ranked: Sequence[ScoredMemory],
    vectors: np.ndarray | None,
    config: OrderingConfig,
    settled: Collection[str] = (),
) -> list[ScoredMemory]:
    """`ranked` with each same-question group ordered newest statement first; marked latest
    and earlier where the evidence says the newest replaced the others. `settled`: ids of
    memories that already superseded another."""
    if not config.enabled:
        return list(ranked)
    ordered: list[ScoredMemory] = []
    earlier: list[ScoredMemory] = []
    for group in group_same_question(ranked, vectors, config, settled):
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
