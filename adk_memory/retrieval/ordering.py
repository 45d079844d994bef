"""Current values first: recalled memories that answer the same question, newest statement first.

REPLACE is precision-first, so an update phrased in a way the classifier does not recognise
leaves the old value active beside the new one. Decay alone cannot order them (a five-year
half-life barely separates January from April). So after scoring, memories that answer the
same question are grouped and ordered by when they were stated, newest first, within the
ranks the group holds: no memory outside a group moves, except that the ranks of displaced
values (below) close up. What is said about them depends on the evidence (`Evidence`):

- two answers to the query about the same thing, the later one lasting: only ordered, never
  marked, since both may hold. Either nearly the same sentence ("I like coffee in the
  morning", "I like tea in the afternoon"), or related sentences about the same person, one
  the other's nearest answer, where the later one names a value the earlier does not ("My
  laptop is a ThinkPad X1", "Work issued me a MacBook Pro"; "I run about 20 km a week",
  "I upped it to around 40 km") and matches the query at least half as well, or shares a
  word with it that the query does not say and matches the query nearly as well, or matches
  the query as well and is closer to it still ("I've started eating fish again" after "I'm
  vegetarian"), or names a new value of the answer's kind and is close to it however little
  it matches the query ("Ended up relocating to Tucson" for "What city am I in?"); or two of
  the best answers that the query matches alike however far apart their wording, the later
  naming a new value of the earlier's kind and said as a change or a start ("Moved to
  Nottingham last month" after "I live in Leicester, near the university"). A remark on
  the same thing answers another question ("My dog is a border collie", "My dog hates the
  vacuum cleaner" for "What breed is my dog?"): it names no new value and matches the query
  less. An update rarely repeats the query's words, so "answers the query" is read on the
  dense cosine, not on the lexical half of the score;
- the same one-at-a-time slot of the same subject: marked latest and earlier;
- two rival answers to a query that asks for one value (`question.asks_for_one`), the later
  holding instead of the earlier: marked latest and earlier; and when the clause naming the
  later value presents it as new ("new boss Tom Achebe already booked me in", "I'm on
  Bitwarden now", "upped my pension contribution to 8%"), the earlier goes after every other
  recalled memory, however differently the query matches the two: chat rarely repeats the
  query's words, and newness said of the value itself is what tells an update from a
  look-alike;
- a change and a present state of the same person stated before it, the state an answer and
  one the other's nearest answer, the change not already settled by a REPLACE. A change
  either names what the state holds as gone ("Sold the Vespa" for "I ride a Vespa") or sets
  a present against a past in words ("We're in Munich now", "it's IPAs instead of stout")
  or as a move to a value ("The company moved us to a co-working space"). Recall has chosen
  both as answers to this query, so the change most likely displaced that state. Marked,
  and the earlier value goes after every other recalled memory: still shown, never deleted
  (that needs REPLACE's explicit evidence). One-off events ("I stopped at the bakery", "the
  mechanic fixed the brakes") are no changes.

A group holds one kind of evidence, so a near-identical sentence is never marked because a
change joined its group; and the strongest evidence groups first, so a weaker reading never
takes the state a change displaced.

Then a learned weighing of the same readings (`rival_model`, `OrderingConfig.rival_order`)
orders what the rules left apart: a later answer the model finds likely to hold instead of an
earlier one moves up to just before it, unmarked. The rules' look-alike readings stay vetoes
it cannot outweigh (`_may_be_rivals`), and it only reorders: it never marks, never sends a
memory last, never supersedes.

The memory block shows every memory's date and these marks, so the agent's model can tell
which one holds now. Pure functions: no I/O.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum

import numpy as np
from pydantic import BaseModel, Field

from adk_memory.extraction.cues import (
    RELATION_NOUNS,
    THIRD_PERSON,
    Cues,
    another_of_its_kind,
    begins_lasting,
    content_words,
    corrects,
    cues,
    dated_event,
    ends,
    holds_several,
    includes,
    is_relation,
    lasting_change,
    lasting_event,
    moved_thing,
    negates,
    one_of_several,
    one_off_past,
    person_words,
    present_state,
    relation_names,
    reported_about,
    said_as_new,
    scoped,
    split_conjoined,
    split_items,
    strip_speaker,
    subject_words,
    told_as_over,
)
from adk_memory.extraction.sentences import mask, unmask
from adk_memory.extraction.slots import is_single_valued
from adk_memory.model import Kind, ScoredMemory
from adk_memory.retrieval import rival_model
from adk_memory.retrieval.question import asks_for_one
from adk_memory.retrieval.rival_model import RivalModel


class OrderingConfig(BaseModel):
    """When recalled memories count as answers to the same question."""

    #: Cosine between two memories' embeddings above which they say nearly the same thing.
    same_question_cosine: float = Field(default=0.62, ge=0.0, le=1.0)
    #: A nearly identical sentence or a slot joins a group only with at least this share of
    #: the group head's dense query cosine, so a newer but barely relevant memory never
    #: jumps ahead of the answer.
    min_relative_cosine: float = Field(default=0.6, ge=0.0, le=1.0)
    #: Earlier answers of a slot go after every other recalled memory instead of keeping
    #: their ranks. Off by default: when two memories are wrongly taken for answers to one
    #: question (both true: "I play tennis", "I play squash"), it would push a true fact
    #: out of the top ranks.
    earlier_last: bool = False
    #: Cosine a change statement needs with the state it displaces (both already recalled
    #: for the query, and that state its nearest recalled neighbour). Below it, recalled
    #: memories are unrelated however they are worded.
    change_cosine: float = Field(default=0.25, ge=0.0, le=1.0)
    #: Earlier answers displaced by a change statement go after every other recalled memory.
    displaced_last: bool = True
    #: Earlier rival answers to a question that asks for one value (`Evidence.ONE_ANSWER`)
    #: go after every other recalled memory. Off by default: on the held-out splits it
    #: pushed two true facts of 40 out of the top 5 (look-alikes read as rivals), while
    #: cutting stale values returned by about 7 points; marked either way.
    one_answer_last: bool = False
    #: Such earlier rival answers go after every other recalled memory when the latest
    #: answers the query at least as well as each of them (dense cosine): a look-alike
    #: read as a rival mostly matches the question less than the answer it sits beside.
    #: Measured on the six splits: stale values returned 236 -> 232 of 604, no fact lost.
    as_good_answer_last: bool = True
    #: Earlier rival answers to a one-value question whose later answer is said as new
    #: (`Evidence.NEW_ANSWER`) go after every other recalled memory: newness in the very
    #: clause that names the rival value is what tells an update from a look-alike.
    new_answer_last: bool = True
    #: A recalled memory answers the query when its dense cosine with the query is at least
    #: this share of the best one's; the rest are only the least unrelated of what was
    #: recalled. A change displaces only an answer, and is read against its nearest answer.
    answer_share: float = Field(default=0.4, ge=0.0, le=1.0)
    #: Cosine above which two answers about the same person, one the other's nearest, may
    #: answer the same question ("My laptop is a ThinkPad X1", "Work issued me a MacBook
    #: Pro"): ordered newest first, unmarked.
    answer_cosine: float = Field(default=0.35, ge=0.0, le=1.0)
    #: Such a later answer that names no new value must match the query at least this share
    #: of the earlier one's dense cosine ("My dog hates the vacuum cleaner" matches "What
    #: breed is my dog?" far less than "My dog is a border collie").
    answer_relative: float = Field(default=0.7, ge=0.0, le=1.0)
    #: A later answer that names no new value and shares no word with the earlier one still
    #: answers the same question when it matches the query at least this share of the
    #: earlier one's and the two are at least `equal_answer_cosine` alike ("I take the train
    #: to work since my knee surgery" after "I cycle to work" for "How do I get to work?").
    equal_answer_relative: float = Field(default=0.85, ge=0.0, le=1.0)
    equal_answer_cosine: float = Field(default=0.45, ge=0.0, le=1.0)
    #: A later answer that names a new value needs less: this share of the earlier one's
    #: ("Work issued me a MacBook Pro" for "What laptop do I use?"), yet not so little that
    #: any name in a one-off remark counts ("Met Alex's old friend Jordan at the party").
    new_value_relative: float = Field(default=0.5, ge=0.0, le=1.0)
    #: A later statement that does not itself answer the query, names a new value and is
    #: nearest to an answer at least this close answers the same question.
    related_answer_cosine: float = Field(default=0.4, ge=0.0, le=1.0)
    #: A later answer that never names what the query asks about may still hold instead of
    #: an earlier one that does when it matches the query by this much more (dense cosine):
    #: the embedding reads "new boss Tom Achebe" as an answer to "Who's my manager?" where
    #: the words miss it, and "My mentor is Ibrahim" as a worse one than "My manager is
    #: Siobhan".
    asked_word_margin: float = Field(default=0.1, ge=0.0, le=1.0)
    #: Two of the best answers to the query answer it as rivals, however far apart their
    #: wording ("I live in Leicester, near the university", "Moved to Nottingham last month"),
    #: when the later matches the query at least this share of the earlier's, names a new
    #: value of its kind and is said as a change or a start.
    rival_relative: float = Field(default=0.7, ge=0.0, le=1.0)
    #: Below this cosine two memories are about different things, however they match.
    rival_cosine: float = Field(default=0.2, ge=0.0, le=1.0)
    #: The learned weighing of rival answers (`rival_model`): a later answer the model
    #: finds at least this likely to hold instead of an earlier one goes just before it,
    #: unmarked; None leaves ordering to the rules alone.
    rival_order: float | None = Field(default=0.5, ge=0.0, le=1.0)
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


#: A name or a number inside a sentence: "MacBook Pro", "40 km", "the 19th".
_VALUE = re.compile(r"(?<![.!?:]\s)(?<!^)\b[A-Z][\w'-]*")
#: A name opening a sentence, told from a common word by its shape: a digit or a capital
#: inside it ("PS5 arrived yesterday", "MacBook died"); "Work issued me a laptop" names none.
_OPENING_VALUE = re.compile(
    r"(?:^|(?<=[.!?:]\s))\W*\b([A-Z][\w'-]*\d[\w'-]*|[A-Z][a-z]+[A-Z][\w'-]*)"
)
#: A number, read on the unmasked text so a decimal stays whole ("36.5k", "-2.75").
_NUMBER_VALUE = re.compile(r"(?<!^)\b\d[\w.,:-]*")


#: Capitalised words that name no value: the speaker, and a day that dates a one-off event
#: ("I washed my car on Sunday"; "on Sundays" is a value of a schedule).
_NOT_VALUES = frozenset(
    "I I'm I've I'd I'll Monday Tuesday Wednesday Thursday Friday Saturday Sunday "
    # A title is no value of its own: "Dr Hughes" after "Dr Patel" names another GP.
    "Dr Mr Mrs Ms Miss Prof Sir Dame".split()
)


#: A day that names when something happens again and again, which a schedule holds ("on
#: Sundays", "Saturday mornings", "every tuesday"), in any case: a value of the kind "time",
#: told apart from the day of a one-off ("I washed my car on Sunday"), which names none.
_DAY_NAMES = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_SCHEDULED_DAY = re.compile(
    rf"\b(?P<day>{_DAY_NAMES})(?:s\b|\s+(?:mornings|afternoons|evenings|nights|lunchtimes)\b)"
    rf"|\bevery\s+(?P<every>{_DAY_NAMES})\b",
    re.IGNORECASE,
)


#: "Tom is my manager since the reorg", "Okafor's our GP now": a sentence that opens by
#: naming who fills a role of the speaker's. Elsewhere a capital opening a sentence says
#: nothing ("Work issued me a MacBook Pro").
_NAMES_ROLE = re.compile(
    r"^\W*(?P<name>[A-Z][a-z]+)(?:'s|\s+(?:is|was|has been|became))\s+(?:now\s+)?(?:my|our)\b"
)


def _names_nothing(word: str) -> bool:
    """Whether a capitalised word opening "X is my …" is a common word, not who fills the
    role ("Today is my first day", "Mum is my rock", "Work is my priority now")."""
    lowered = word.lower()
    return (
        lowered in _COMMON_OPENINGS
        or word in _NOT_VALUES
        or any(is_relation(w) for w in person_words(lowered))
    )


#: Capitalised words that open "X is my …" without naming anyone.
_COMMON_OPENINGS = frozenset(
    "today tonight tomorrow yesterday this that it everything nothing work home life family "
    "health money music food sport running football coffee tea".split()
)


@functools.lru_cache(maxsize=4096)
def _values(text: str) -> frozenset[str]:
    """The names and numbers `text` states, in lower case; an abbreviation's full stop ends
    no sentence ("Dr. Okafor"). Remembered: recall reads the same memories query after
    query."""
    masked = mask(text)
    found = [unmask(v) for v in (*_VALUE.findall(masked), *_OPENING_VALUE.findall(masked))]
    found += _NUMBER_VALUE.findall(text)
    role = _NAMES_ROLE.match(text)
    if role is not None and not _names_nothing(role.group("name")):
        found.append(role.group("name"))
    values = {
        v.lower().rstrip(".,:-").removesuffix("'s")
        for v in found
        if v.rstrip(".,:-") not in _NOT_VALUES
    }
    # One spelling per scheduled day ("Tuesday mornings" and "on Tuesdays" name one day).
    days = {
        f"{(day.group('day') or day.group('every')).lower()}s"
        for day in _SCHEDULED_DAY.finditer(text)
    }
    return frozenset(values | days)


def _words(text: str) -> frozenset[str]:
    """The words that name what `text` is about, kin terms folded ("Gran" is "grandmother"),
    pronoun contractions aside."""
    return frozenset(w for w in person_words(text) if "'" not in w and len(w) > 2)


def _known_as(who: frozenset[str], aliases: Mapping[str, frozenset[str]]) -> frozenset[str]:
    """`who` with the names and relations the speaker gave them elsewhere: a named person
    gains their relation ("priya" → "sister"); a relation alone gains its names."""
    named = [w for w in who if w in aliases and not is_relation(w)]
    sources = named or [w for w in who if w in aliases]
    return who.union(*(aliases[w] for w in sources))


def _same_person(
    newer: str,
    older: str,
    *,
    naming: bool = False,
    aliases: Mapping[str, frozenset[str]] | None = None,
) -> bool:
    """Whether a change statement and a state are about the same person: both about the
    speaker; or the state is about someone and the change names them or says "she", "he",
    "they" ("Ravi left Google" after "My best friend Ravi works at Google"; "She moved to
    Bergen" after "My sister lives in Oslo"); or the state is the speaker's and names whom
    the change is about ("Kenji went on leave, so Sofia leads the team now" after "My team
    lead is Kenji"). "Google announced layoffs" is not about "my wife", who works there.

    With `naming`, a statement of the speaker's that names the state's person is about them
    too ("Helped mum unpack at her new bungalow" after "My mum lives in Swansea"): enough to
    order two answers, not to displace one ("I moved out, mum stayed in Swansea").

    `aliases` (`_Reading.aliases`) join a name to the relation it was given elsewhere:
    "Priya moved to Leeds" is about "my sister" once "My sister Priya" was said."""
    who_old = subject_words(older)
    about = reported_about(newer)
    if about is not None:
        # A report is about whom it reports on, never the speaker: "Tom told me he's at
        # Google now" is Tom's news, "My sister said her friend just moved" the friend's.
        return _names(who_old, about)
    who_new = subject_words(newer, possessed=True)
    if not who_new:
        return not who_old or (naming and _names(who_old, newer))
    if who_old:
        if who_new == {THIRD_PERSON} or who_new <= who_old or includes(who_new, who_old):
            return True
        return aliases is not None and _known_as(who_new, aliases) <= _known_as(who_old, aliases)
    # Whom the speaker's state names as company is not its subject: "my flatmate just moved
    # to Leeds" does not move "I rent a flat in Manchester with one flatmate".
    return THIRD_PERSON not in who_new and who_new <= person_words(_COMPANY.sub(" ", older))


#: Someone named beside the speaker or as where the speaker is ("with one flatmate", "and my
#: boyfriend", "near Ravi", "in the bridges team").
_COMPANY_WORDS = r"with|alongside|beside|near|next to|and|in|at|for|from|of"
_COMPANY = re.compile(
    rf"\b(?:{_COMPANY_WORDS})\s+(?:(?:my|our|a|an|one|two|the|his|her)\s+)?"
    rf"(?:(?!(?:{_COMPANY_WORDS})\b)[\w'-]+\s+)?(?!(?:{_COMPANY_WORDS})\b)[\w'-]+",
    re.IGNORECASE,
)


#: A word that goes on about someone already named ("…Priya at her new flat").
_THIRD_PERSON_WORD = re.compile(r"\b(?:he|she|they|him|her|them|his|hers|their)\b", re.I)


def _names(who: frozenset[str], text: str) -> bool:
    """Whether `text` names the person `who` holds: all of it ("my sister" in "Helped my
    sister move"), or the name it was given as its subject ("Mum said Priya's moved to
    Bergen") or going on about them ("We flew out to see Priya at her new flat"). "Told
    Priya I moved to Bergen" is the speaker's news, and a relation alone may be anyone's."""
    if not who or THIRD_PERSON in who:
        return False
    words = person_words(text)
    given = {w for w in who if not is_relation(w)}
    if who <= words:
        return True
    return bool(given) and (
        given <= subject_words(text)
        or (given <= words and _THIRD_PERSON_WORD.search(text) is not None)
    )


#: How many of its closest memories a memory is compared with as nearly the same sentence.
_SIMILAR_NEIGHBOURS = 4
#: How many of the best answers to the query are compared with each other as rivals.
_RIVALS = 4


class _Reading:
    """What the ordering needs to know of the recalled memories, each read once."""

    def __init__(
        self,
        ranked: Sequence[ScoredMemory],
        vectors: np.ndarray | None,
        config: OrderingConfig,
        query: str,
    ) -> None:
        self.ranked = ranked
        self.vectors = vectors
        self.bodies = [_body(m) for m in ranked]
        self.slots = [_slot(m) for m in ranked]
        #: When each was said; two clauses of one event were said at once, in no order.
        self.said = [m.record.stated_at for m in ranked]
        self.stated = [_stated(m) for m in ranked]
        read = [cues(body) for body in self.bodies]
        self.additive = [found.additive for found in read]
        #: May stand in for an earlier answer (`_reads_current`).
        #: A plan may stand in for an earlier plan only (`planned`).
        self.current = [
            _reads_current(found, body) for found, body in zip(read, self.bodies, strict=True)
        ]
        self.planned = [found.planned for found in read]
        self.temporary = [found.temporary for found in read]
        self.past = [found.past for found in read]
        #: Told as over ("My first car was a Fiat Panda"): history no later state stands in for.
        self.over = [told_as_over(body) for body in self.bodies]
        #: Worded as a change ("these days", "quit", "switched"), whatever else it says.
        self.change_worded = [found.change for found in read]
        #: The names the speaker gave their people in any recalled memory ("My sister Priya
        #: is a nurse": "priya" ↔ "sister").
        aliases: dict[str, set[str]] = {}
        for body in self.bodies:
            for name, relation in relation_names(body):
                aliases.setdefault(name, set()).add(relation)
                aliases.setdefault(relation, set()).add(name)
        self.aliases = {word: frozenset(known) for word, known in aliases.items()}
        self.says_change = [lasting_change(body) for body in self.bodies]
        #: Names and numbers each memory states ("MacBook", "40"), in lower case.
        self.values = [_values(body) for body in self.bodies]
        #: The words that name what each memory is about (`_words`).
        self.words = [_words(body) for body in self.bodies]
        #: The query's own words: two answers sharing only those share the topic asked about
        #: ("Where do my parents live?": "My parents live in Lisbon", "My parents love their
        #: garden"), which says nothing of their answering it alike.
        self.query_words = _words(query)
        #: The query asks for one current value ("What car do I drive?").
        one = asks_for_one(query)
        self.asks_for_one = one is not None
        #: What it asks about ("manager"), and the names it says ("Spanish"), as words.
        self.asked_about = _words(one.about) if one is not None else frozenset()
        #: It asks what the speaker is called ("What's my surname?", not "What's my cat's
        #: name?", which asks about "cat").
        self.asks_own_name = one is not None and one.about in _OWN_NAMES
        #: It asks who holds a role ("Who's my GP?").
        self.asks_who = one is not None and _WHO.match(query) is not None
        self.query_values = _values(query)
        #: A present state that is not itself a change: what a change may displace.
        self.states = [
            present_state(body, personal=False, plans=True) and not change
            for body, change in zip(self.bodies, self.says_change, strict=True)
        ]
        best = max((m.breakdown.cosine for m in ranked), default=0.0)
        #: Answers the query (`OrderingConfig.answer_share`); nothing does when no recalled
        #: memory is on the query's side at all.
        self.answers = [
            best > 0 and m.breakdown.cosine >= config.answer_share * best for m in ranked
        ]
        self.datable = [i for i, m in enumerate(ranked) if m.record.kind is not Kind.SUMMARY]
        #: Each memory's nearest recalled answer, summaries aside (they have no one date).
        self.nearest: list[int | None] = [None] * len(ranked)
        self.gram = np.zeros((0, 0), dtype=np.float32)
        if vectors is not None:
            self.gram = vectors @ vectors.T
            self._find_nearest()
        self.similar_cosine = config.same_question_cosine
        self.asked_word_margin = config.asked_word_margin

    def _find_nearest(self) -> None:
        answers = [i for i in self.datable if self.answers[i]]
        if not answers or len(self.datable) < 2:
            return
        among = self.gram[np.ix_(self.datable, answers)]
        column_of = {i: column for column, i in enumerate(answers)}
        for row, i in enumerate(self.datable):
            if i in column_of:
                among[row, column_of[i]] = -np.inf
        for row, column in enumerate(among.argmax(axis=1)):
            if np.isfinite(among[row, column]):
                self.nearest[self.datable[row]] = answers[int(column)]

    def cosine(self, i: int, j: int) -> float:
        return float(self.gram[i, j])

    def pairs(self) -> list[tuple[int, int]]:
        """The pairs (i < j) any evidence could join, found without reading every pair: a
        memory and its nearest answer (a change, two related answers), nearly the same
        sentence, the same slot. Recall may return a thousand memories."""
        found: set[tuple[int, int]] = set()
        for i in self.datable:
            j = self.nearest[i]
            if j is not None:
                found.add((min(i, j), max(i, j)))
        if self.vectors is not None and len(self.datable) > 1:
            # Nearly the same sentence: each memory's few closest ones, so that a recall of
            # many near-identical memories stays linear in their number.
            among = self.gram[np.ix_(self.datable, self.datable)]
            np.fill_diagonal(among, -np.inf)
            width = min(_SIMILAR_NEIGHBOURS, len(self.datable) - 1)
            closest = np.argpartition(-among, width - 1, axis=1)[:, :width]
            for row, columns in enumerate(closest):
                for column in columns:
                    if among[row, column] >= self.similar_cosine:
                        i, j = self.datable[row], self.datable[int(column)]
                        found.add((min(i, j), max(i, j)))
        # The best few answers to the query, each with the others (`_rival_answers`).
        best = sorted(
            (i for i in self.datable if self.answers[i]),
            key=lambda i: -self.ranked[i].breakdown.cosine,
        )[:_RIVALS]
        found.update((min(i, j), max(i, j)) for at, i in enumerate(best) for j in best[at + 1 :])
        by_slot: dict[tuple[str, str], list[int]] = {}
        for i in self.datable:
            slot = self.slots[i]
            if slot is not None:
                by_slot.setdefault(slot, []).append(i)
        for members in by_slot.values():
            found.update((i, j) for at, i in enumerate(members) for j in members[at + 1 :])
        return sorted(found)


def _displaces(
    reading: _Reading, i: int, j: int, config: OrderingConfig, settled: Collection[str]
) -> int | None:
    """The index of the change when one of ranked[i], ranked[j] changes the other, a present
    state stated before it, by the evidence recall has; else None."""
    a, b = reading.ranked[i], reading.ranked[j]
    if reading.said[i] == reading.said[j] or Kind.SUMMARY in (a.record.kind, b.record.kind):
        return None
    n, o = (i, j) if reading.stated[i] > reading.stated[j] else (j, i)
    new, old = reading.ranked[n], reading.ranked[o]
    if new.record.id in settled or reading.cosine(n, o) < config.change_cosine:
        # A settled change already superseded what it changed (REPLACE).
        return None
    if not reading.answers[o] or (reading.nearest[n] != o and reading.nearest[o] != n):
        # What a change displaces answers the query, and it is the change's nearest answer
        # (or the other way round): "Chopped it all off, I've got a pixie cut now" does not
        # displace "I'm left-handed" however near their wording.
        return None
    if old.record.predicate == "name":
        # What someone is called changes only by saying so ("call me Kit"), which is a slot.
        return None
    if (
        None not in (reading.slots[n], reading.slots[o])
        and new.record.predicate != old.record.predicate
    ):
        # Two different one-at-a-time slots answer two questions.
        return None
    new_text, old_text = reading.bodies[n], reading.bodies[o]
    if scoped(new_text):
        # Within a context: "For commuting it's a Brompton now", "In Football Manager I'm in
        # charge of Wrexham now".
        return None
    if not reading.states[o] or not _same_person(
        _value_clause(reading, n, o), old_text, aliases=reading.aliases
    ):
        return None
    if _holds_beside(reading, n, o):
        return None
    if reading.says_change[n] and _changes_of(reading, n, o):
        return None if _ends_one_of_several(new_text, old_text) else n
    return n if ends(new_text, old_text) else None


def _ends_one_of_several(new_text: str, old_text: str) -> bool:
    """Whether a later statement denies one item of an earlier one that lists several: "I
    don't listen to classical any more" ends one of "jazz and classical"; "I don't speak
    German any more" one of "English, French, German". The others still hold."""
    return negates(new_text) and (
        len(split_items(old_text, commas=False)) > 1
        or any(one_of_several(word, old_text) for word in content_words(new_text))
    )


def _changes_of(reading: _Reading, n: int, o: int) -> bool:
    """Whether a clause of the later statement that says a change is about whom the earlier
    state is about: "…a picture book about a dog called Clifford, now she wants a giant red
    one" says the niece's news, not a change of "my dog's called Rolo"."""
    clauses = split_conjoined(reading.bodies[n])
    if len(clauses) < 2:
        return True
    old = reading.bodies[o]
    return any(
        lasting_change(clause)
        and (_same_person(clause, old, aliases=reading.aliases) or _moves_its_thing(clause, old))
        for clause in clauses
    )


def _moves_its_thing(clause: str, old: str) -> bool:
    """Whether someone in `clause` moves the very thing `old` is about: "they've pushed
    standup to 10:45" changes "team standup is at 9:15"."""
    thing = moved_thing(clause)
    return thing is not None and content_words(thing) <= content_words(old)


def _adds(reading: _Reading, i: int, j: int) -> bool:
    """Whether the later of two statements says it holds beside the other ("also", "too"),
    in the clause that names its new value: "I'm on Bitwarden now, and it's cheaper too"
    adds nothing beside LastPass."""
    n = _later(reading, i, j)
    if not reading.additive[n]:
        return False
    if holds_several(reading.bodies[n]):
        # Said in any clause: "Got my Irish one through my gran, so I've got both now".
        return True
    o = j if n == i else i
    return cues(_value_clause(reading, n, o)).additive


class Evidence(IntEnum):
    """How a group of recalled memories is known to answer one question, weakest first."""

    #: Two answers to the query about the same thing ("I like coffee in the morning", "I
    #: like tea in the afternoon"): ordered newest first, not marked (both may hold).
    SIMILAR = 1
    #: The same one-at-a-time slot of the same subject: marked latest and earlier. Never
    #: shown last: REPLACE would have superseded the earlier one unless something (someone
    #: else named, a passing moment) held it back.
    SLOT = 2
    #: Two answers to a query that asks for one value ("What car do I drive?"), the later
    #: naming a new value of the earlier's kind: marked (the earlier ones shown last only
    #: with `OrderingConfig.one_answer_last`).
    ONE_ANSWER = 3
    #: Such a rival answer that the clause naming its value presents as new ("the new
    #: manager Bartek", "upped my pension to 8%", "it's Kyoto and Osaka now"): marked, the
    #: earlier ones shown last (`OrderingConfig.new_answer_last`).
    NEW_ANSWER = 4
    #: A change and the state it displaced: marked, the earlier ones shown last.
    CHANGE = 5


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
    *,
    query: str = "",
) -> list[Group]:
    """`ranked` (best first) grouped by the question its memories answer, in the order of
    each group's best member; each group holds one kind of evidence. `vectors` holds unit
    embeddings of the memories' texts, row i for ranked[i] (None: slots alone decide).
    `settled` holds ids of memories that already superseded another; `query` is what they
    were recalled for.

    The strongest evidence groups first: a change claims the state it displaced before a
    weaker reading could pair that state with some other memory. A group's members each
    have the evidence with its best-ranked member (the head)."""
    return _group(_Reading(ranked, vectors, config, query), config, settled)


def _group(reading: _Reading, config: OrderingConfig, settled: Collection[str]) -> list[Group]:
    found: list[tuple[Evidence, int, int, int | None]] = []
    for i, j in reading.pairs():
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
    reading: _Reading, i: int, j: int, config: OrderingConfig, settled: Collection[str]
) -> tuple[Evidence | None, int | None]:
    """The strongest evidence that ranked[i] (a group's head) and ranked[j] answer the same
    question, and the index of the change when it is a change."""
    head, other = reading.ranked[i], reading.ranked[j]
    if reading.said[i] == reading.said[j]:
        # Said at once (two clauses of one message): no order between them to go by.
        return None, None
    if reading.vectors is not None:
        change = _displaces(reading, i, j, config, settled)
        if change is not None:
            # A change is evidence of its own: it may match the query's words less than the
            # state it displaced ("moved us to a co-working space" for "where is my office?").
            return Evidence.CHANGE, change
    if _adds(reading, i, j):
        # "I'm allergic to cats too": the later statement says both hold.
        return None, None
    # The extractor's subjects decide the near-identical readings; related answers read who
    # each is about in their words (`_same_person`), since the extractor may file "My sister
    # and her husband bought a house in Vancouver" under the speaker.
    same_subject = head.record.subject == other.record.subject
    relevant = _comparably_relevant(head, other, config)
    if (
        same_subject
        and relevant
        and reading.slots[i] is not None
        and reading.slots[i] == reading.slots[j]
    ):
        return Evidence.SLOT, None
    if reading.vectors is None or not _may_stand_in(reading, i, j):
        # "I'm dog-sitting a beagle this weekend" says nothing about the lasting answer.
        return None, None
    cosine = reading.cosine(i, j)
    if (
        (same_subject and relevant and cosine >= config.same_question_cosine)
        or (cosine >= config.answer_cosine and _answer_pair(reading, i, j, config))
        or _rival_answers(reading, i, j, config)
        or _new_rival(reading, i, j, config)
    ):
        if reading.asks_for_one and _one_answer(reading, i, j):
            if _said_as_new(reading, i, j):
                return Evidence.NEW_ANSWER, None
            return Evidence.ONE_ANSWER, None
        return Evidence.SIMILAR, None
    return None, None


#: What a query asking for the speaker's own name names.
_OWN_NAMES = frozenset(
    {"name", "surname", "nickname", "first name", "last name", "full name", "real name"}
    | {"maiden name", "married name"}
)
#: A statement that says what the speaker is called.
_NAMING = re.compile(
    r"\b(?:my (?:name|surname|first name|last name|nickname)(?:'s|\s+is)|call(?:s|ed)? me|"
    r"go(?:es)? by|(?:i'm|i am) (?:called|known as)|known as|changed my (?:name|surname)|"
    r"took (?:his|her|their|my) (?:name|surname)|"
    r"(?:i'm|i am) (?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)? now)\b",
    re.IGNORECASE,
)
_WHO = re.compile(r"^\W*(?:\w+[,:]?\s+){0,2}?who\b", re.IGNORECASE)
#: A time still to come: "in the spring", "after the new year", "from next year", "come
#: autumn".
_FUTURE = re.compile(
    r"\b(?:(?:in|come|this|by|after|from|next)\s+(?:the\s+)?(?:spring|summer|autumn|fall|winter|"
    r"new year)|from next|next year|come (?:january|february|march|april|may|june|july|august|"
    r"september|october|november|december))\b",
    re.IGNORECASE,
)
#: A verb in the past: "relocating to Tucson in the spring" was, once "Ended up" says so.
_PAST_VERB = re.compile(r"\b(?:[a-z]+ed|went|got|took|made|was|were|had|did)\b", re.IGNORECASE)
#: A value that holds some of the time or from later on, beside the earlier one: "On
#: Fridays I get the bus", "sometimes I work from Leeds", "I'll be at Bosch from June".
_NOT_INSTEAD = re.compile(
    r"\b(?:on|at|most|some|other)\s+(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|"
    r"sundays|weekends|days|nights|weeks)\b|\b(?:sometimes|occasionally|now and then|once in a "
    r"while|some of the time|when it rains|will|shall|won't)\b|'ll\b",
    re.IGNORECASE,
)
#: Getting something, which may be one more beside the earlier.
_ACQUIRED = re.compile(
    r"\b(?:bought|buying|picked up|ordered|purchased|grabbed|adopted|treated (?:myself|"
    r"ourselves) to|(?<!'ve )(?<!have )(?<!has )(?<!'s )got (?:a|an|myself|ourselves|another|"
    r"a second)\b)",
    re.IGNORECASE,
)
#: Words that say the earlier one went: "sold the Golf and bought a Tesla".
_LET_GO = re.compile(
    r"\b(?:sold|selling|traded|trade[ds]? in|replaced|replacing|instead|got rid|gone|gave up|"
    r"swapped|switched|returned|upgraded|old|totalled|written off|stolen|died|broke|scrapped|"
    r"no longer|any ?more)\b",
    re.IGNORECASE,
)
#: A thing of someone else's: "my neighbour's cat", "her new car".
_THEIRS = re.compile(rf"\b(?:{RELATION_NOUNS})'s\b|\b(?:his|her)\b", re.IGNORECASE)


def _one_answer(reading: _Reading, i: int, j: int) -> bool:
    """Whether of two answers to the same question, asked for one value, the later holds
    instead of the earlier: it says something current, names a new value of the earlier's
    kind ("Had my first one-to-one with Kwame, my new manager" after "My line manager is
    Siobhan"), and is about the same person.

    Naming the earlier value too is no bar: of two answers already found alike, a statement
    naming both mostly says what replaced what ("…a MacBook Air, so the XPS is going to my
    nephew", "the tortoise is Sheldon, not Shelly"), and a name both say may be whom they
    are about ("Jacob's settling in at Westfield Juniors"). Rivals worded far apart still
    need it (`_names_another_value`)."""
    n = _later(reading, i, j)
    o = j if n == i else i
    clause = _value_clause(reading, n, o)
    said = cues(clause)
    if (
        said.hypothetical
        # Read on the clause too: "…a MacBook Air, so the XPS is going to my nephew" plans
        # only what becomes of the earlier one.
        or said.planned != reading.planned[o]
        or not _reads_current(said, clause)
        or (
            one_off_past(clause)
            and not (said.change or lasting_change(clause) or begins_lasting(clause))
            and _NEW_ONE.search(clause) is None
        )
    ):
        # A maybe or a one-off holds nothing instead; the clause naming the value says so
        # ("had my eye test, prescription went up to -2.75" says what holds now).
        return False
    if None not in (reading.slots[n], reading.slots[o]) and reading.slots[n] != reading.slots[o]:
        # Two different slots answer two questions (a name was read by `_may_stand_in`).
        return False
    if not _holds_instead(reading, n, o, clause):
        return False
    # What the query itself names ("GP" of "Who's my GP?") is no value of either answer.
    old_values = reading.values[o] - reading.query_values
    new_values = reading.values[n] - reading.values[o] - reading.query_values
    shared = {_kind_of(v) for v in new_values} & {_kind_of(v) for v in old_values}
    if not shared or (shared == {"time"} and not _times_of_one_thing(reading, n, o)):
        return False
    return _answers_about_one_person(reading, n, o)


#: Words that say when, not what: days, parts of the day, weeks.
_WHEN_WORDS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday morning afternoon evening night "
    "lunchtime weekend weekday week day month year".split()
)


def _times_of_one_thing(reading: _Reading, n: int, o: int) -> bool:
    """Whether two statements that name only times as rival values time one thing: "Thursdays
    are my pottery class" gives no other day for "On Mondays I have choir practice", however
    the query asks ("What's my weekly schedule?"); "the bins go out tuesday night" does for
    "bin collection is on Fridays"."""

    def what(i: int) -> set[str]:
        return {
            w
            for w in content_words(reading.bodies[i])
            if w not in _WHEN_WORDS and _kind_of(w) == "name" and not w[:1].isdigit()
        }

    return bool(what(n) & what(o))


def _said_as_new(reading: _Reading, i: int, j: int) -> bool:
    """Whether the later of two rival answers to a one-value question presents its value as
    new, in the clause that names it (`cues.said_as_new`), or says the earlier one is gone
    (`cues.ends`). Said in another clause, newness is that clause's news: "…a book about a
    dog called Clifford, now she wants one" presents no new dog of the speaker's."""
    n = _later(reading, i, j)
    o = j if n == i else i
    return (
        said_as_new(_value_clause(reading, n, o))
        or ends(reading.bodies[n], reading.bodies[o])
        # A correction: the earlier answer was never right ("I actually meant Limerick").
        or corrects(reading.bodies[n])
    )


def _holds_instead(reading: _Reading, n: int, o: int, clause: str) -> bool:
    """Whether what a later statement says may hold instead of an earlier state, rather
    than beside it, for the query: the earlier holds now, and the later is no stand-in, no
    context, nothing still to come, no second one of the kind, nobody else's, and about
    what the query asks. A rival answer that fails this still comes first; it only does
    not send the earlier one to the end."""
    if cues(clause).temporary or reading.over[o] or reading.past[o]:
        # A stand-in ("while it's in for repair") holds nothing instead; only what holds
        # now is displaced ("I grew up in Glasgow" still holds). Passing is read on the
        # clause naming the value: "ugh, traffic this morning. Anyway the new dentist, Dr
        # Ferreira, is great" names a lasting one.
        return False
    if reading.query_values & reading.values[o] and not reading.query_values & reading.values[n]:
        # The query names what the earlier answer is about and the later does not: "When's
        # my Spanish class?" is not answered by "Choir practice is Wednesdays".
        return False
    asked = reading.asked_about
    if (
        asked
        and not asked & reading.words[n]
        # Naming the earlier answer's value is talking about what the query asks, in other
        # words: "After six years at Queen Elizabeth I've taken a post at the Royal
        # Infirmary" answers "Which hospital do I work at?" as "I'm a physio at Queen
        # Elizabeth Hospital" did.
        and not _earlier_names_said(reading, n, o) - reading.query_values
        and (reading.asks_who or asked & reading.words[o])
        and not _matches_query_better(reading, n, o)
    ):
        # The earlier one names what the query asks about and the later does not, or the
        # query asks who holds a role the later never names: "Who is my manager?" is not
        # answered by "My mentor is Ibrahim" nor by "I'm managing Dev and Ines now", "How
        # much is my rent?" not by "Bills come to about 180 a month now".
        return False
    future = _FUTURE.search(clause)
    if scoped(clause) or (future and not _PAST_VERB.search(clause, 0, future.start())):
        # Within a context, or from later on: "For long trips we take the Volvo now",
        # "We're relocating to Glasgow after the new year" ("Ended up relocating to
        # Tucson in the spring" was).
        return False
    theirs = _THEIRS.search(clause) is not None and not subject_words(reading.bodies[o])
    if _NOT_INSTEAD.search(clause) or theirs:
        # Some of the time or later ("On Fridays I cycle in", "I'll be at Bosch"), or
        # someone else's ("My neighbour's cat, Duchess, keeps sneaking in").
        return False
    # Getting one more is no sign the earlier one went: "bought a Specialized gravel bike"
    # beside "I ride a Triumph Bonneville".
    return not (_ACQUIRED.search(clause) and _LET_GO.search(reading.bodies[n]) is None)


def _matches_query_better(reading: _Reading, n: int, o: int) -> bool:
    """Whether the later answer matches the query clearly better than the earlier, on the
    dense cosine: synonyms the words miss ("boss" for "manager", "kitten" for "cat")."""
    later, earlier = reading.ranked[n].breakdown.cosine, reading.ranked[o].breakdown.cosine
    return later >= earlier + reading.asked_word_margin


def _reads_current(found: Cues, text: str) -> bool:
    """Whether `text` may stand in for an earlier answer: lasting (not a passing moment, a
    maybe or the past), hedged but about now ("pescatarian now, I guess"), the start of
    something lasting whatever time word dates it ("First day at St James's today"), or an
    event a day word dates ("Passed my B1 exam today")."""
    return found.lasting or found.hedged or begins_lasting(text) or dated_event(text)


def _may_stand_in(reading: _Reading, i: int, j: int) -> bool:
    """Whether the later of two statements may stand in for the earlier: it says something
    current ("First day at St James's went fine"), or a clause naming its new value does
    ("ugh, traffic this morning. Anyway the new dentist, Dr Ferreira, is great"; "finished
    the Murakami at last. side note, the Paperwhite went in the bath so it's a Kobo Clara
    now"), or both are plans ("We're going to Portugal in June", then "we're going to Greece
    in June instead"); never what holds beside it (`_holds_beside`)."""
    n = _later(reading, i, j)
    o = j if n == i else i
    if reading.over[o] and not reading.over[n]:
        # "My first car was a Fiat Panda" answers what was; "I drive a Kona now" what is.
        return False
    named = reading.ranked[o].record.predicate == "name" or reading.asks_own_name
    if (
        named
        and reading.ranked[n].record.predicate != "name"
        and not _NAMING.search(reading.bodies[n])
    ):
        # What someone is called changes only by saying so ("call me Kit", "I'm Rebecca
        # Achterberg now"): "I'm Brazilian but I grew up in Portugal" and "I'm a Scorpio"
        # answer no "What is my name?".
        return False
    if _holds_beside(reading, n, o):
        return False
    if reading.current[n] or (reading.planned[n] and reading.planned[o]):
        return True
    new_values = reading.values[n] - reading.values[o]
    return bool(new_values) and any(
        _values(clause) & new_values and _reads_current(cues(clause), clause)
        for clause in split_conjoined(reading.bodies[n])
    )


def _holds_beside(reading: _Reading, n: int, o: int) -> bool:
    """Whether the clause of a later statement that names its new value says it holds beside
    the earlier answer, whatever else it says: one more of its kind ("work gave me a Samsung
    as a separate work phone" beside "my personal phone is an iPhone 15"), within a context
    ("On FIFA I always play as Real Madrid", "for the etsy shop I use a virtual number"), or
    denied ("Martin Holloway is not my manager", "I am NOT moving to Leeds"; "Never going
    back to Vim, VS Code all the way" denies the earlier value, which it names), or one the
    speaker had before ("found my old BlackBerry Bold in a drawer", "someone texted my old
    number, 07700 118456"), or someone else's ("set my gran's broadband up with Plusnet",
    "grabbed some Whiskas for the neighbour's cat")."""
    clause = _value_clause(reading, n, o)
    which = another_of_its_kind(clause)
    if which is not None and which not in reading.words[o]:
        return True
    if scoped(clause):
        return True
    theirs = [t.group("thing") for t in _THEIR_THING.finditer(clause)]
    if any(_words(t) & (reading.query_words | reading.values[n]) for t in theirs):
        # What the query asks about, or the new value, of someone else's: "set my gran's
        # broadband up with Plusnet" for "Who's my broadband provider?", "drove a friend's
        # Porsche 911" ("into my boyfriend's flat in Leeds" still says where the speaker
        # lives).
        return True
    new_values = reading.values[n] - reading.values[o]
    told_of = [
        m.group("content")
        for m in _MEDIA_CONTENT.finditer(clause)
        if not _words(m.group("medium")) & reading.query_words
    ]
    if new_values and all(any(v in _values(t) for t in told_of) for v in new_values):
        # Every new name is what a book, a film or a song is about, which the speaker does
        # not have: "reading my niece a picture book about a dog called Clifford" for
        # "What's my dog called?" ("What book am I reading?" asks for just that).
        return True
    formers = _FORMER.finditer(reading.bodies[n])
    if any(v in _values(former.group(0)) for former in formers for v in new_values):
        return True
    if reading.values[o] & (reading.values[n] | reading.words[n]):
        return False
    # The denial is said of a new name itself, not in an aside beside it ("Ended up
    # transferring to Manchester Met, it just wasn't working where I was") nor of a date
    # ("I haven't had any alcohol since January, it's sparkling water now").
    names = {v for v in new_values if _kind_of(v) == "name"}
    return any(
        _values(part) & names and _DENIED.search(part) is not None for part in _ASIDES.split(clause)
    )


#: A thing of someone of the speaker's: "my gran's broadband", "the neighbour's cat".
_THEIR_THING = re.compile(
    rf"\b(?:my|our|the|a)\s+(?:{RELATION_NOUNS})'s\s+(?:new\s+|old\s+)?(?P<thing>[\w-]+)",
    re.IGNORECASE,
)
#: What the speaker had before, and the words that name it: "my old BlackBerry Bold", "my
#: previous number, 07700 118456".
_FORMER = re.compile(
    r"\b(?:my|our)\s+(?:old|former|previous|ex-?)\s+(?:[\w-]+\s+){0,2}?[\w-]+(?:,\s*)?"
    r"(?:\s*[\w'+.-]+){1,3}",
    re.IGNORECASE,
)
#: What a work tells of: "a picture book about a dog called Clifford", "a film set in Lisbon".
_MEDIA_CONTENT = re.compile(
    r"\b(?P<medium>(?:picture |story |comic |audio)?books?|novels?|films?|movies?|shows?|series|"
    r"cartoons?|songs?|stor(?:y|ies)|games?|articles?|videos?|podcasts?|documentar(?:y|ies)|"
    r"episodes?|plays?|musicals?)\s+(?P<content>(?:about|called|named|titled|set in|featuring|"
    r"where|in which)\b[^,.;!?]*)",
    re.IGNORECASE,
)
#: Where an aside starts inside a clause.
_ASIDES = re.compile(r",|\s[\u2013\u2014-]\s")
#: A plain denial: "is not my manager", "NOT moving", "never had one". An end ("no longer",
#: "any more", "quit") is a change, read as one.
_DENIED = re.compile(r"(?:\b(?:not|never)\b|n't\b)(?!.*\bany ?more\b)", re.IGNORECASE)


#: A sentence that presents something new of the speaker's ("Anyway the new dentist, Dr
#: Ferreira, is great"), not a one-off ("Dr Ferreira did the filling, she was great") or
#: someone else's ("His Audi A3 is so smooth").
_NEW_ONE = re.compile(r"\b(?:the|my|our) (?:brand[- ])?new\b", re.IGNORECASE)


def _later(reading: _Reading, i: int, j: int) -> int:
    return i if reading.stated[i] > reading.stated[j] else j


def _comparably_relevant(head: ScoredMemory, other: ScoredMemory, config: OrderingConfig) -> bool:
    """Whether `other` matters to the query about as much as the group's head. Read on the
    dense cosine: the lexical part of the score rewards the query's exact words, which an
    update often does not repeat ("Work issued me a MacBook Pro" for "What laptop do I
    use?"), so the blended score would keep the stale value first."""
    best = head.breakdown.cosine
    return best > 0 and other.breakdown.cosine >= config.min_relative_cosine * best


def _answer_pair(reading: _Reading, i: int, j: int, config: OrderingConfig) -> bool:
    """Whether two recalled memories that are not nearly the same sentence still answer one
    question: both answers to the query, one the other's nearest answer, about the same
    person, and the later one either names a value the earlier does not ("Picked up my new
    Tesla Model 3" after "I drive a Honda Civic") and still matches the query half as well,
    or shares a word with it and matches the query nearly as well, or matches the query as
    well as the earlier and is closer to it still. An update often shares
    few words with the query ("Work issued me a MacBook Pro" for "What laptop do I use?"),
    so a new value counts for more than the query's words."""
    if reading.nearest[i] != j and reading.nearest[j] != i:
        return False
    n = _later(reading, i, j)
    o = j if n == i else i
    # "I stopped taking the antibiotics" is near "I'm allergic to penicillin" but shares no
    # word with it and names no value: it answers nothing about the allergy.
    names_new = bool(reading.values[n] - reading.values[o] - reading.words[o])
    later, earlier = reading.ranked[n].breakdown.cosine, reading.ranked[o].breakdown.cosine
    if not reading.answers[o]:
        return False
    if names_new and _stands_near(reading, n, o, config):
        pass
    elif not reading.answers[n]:
        return False
    elif names_new:
        if later < config.new_value_relative * earlier:
            return False
    elif (
        later >= config.equal_answer_relative * earlier
        and reading.cosine(i, j) >= config.equal_answer_cosine
    ):
        # Closer still, and as good an answer: "I've started eating fish again" after "I'm
        # vegetarian" for "What's my diet?".
        pass
    elif (
        reading.change_worded[n]
        and later >= config.answer_relative * earlier
        and reading.cosine(i, j) >= config.equal_answer_cosine
    ):
        # Said as a change, a nearly as good answer is enough: "These days I'm clean-shaven"
        # after "I've got a full beard" for "Do I have a beard?".
        pass
    elif (
        not (reading.words[i] & reading.words[j]) - reading.query_words
        or later < config.answer_relative * earlier
    ):
        return False
    return _answers_about_one_person(reading, n, o)


def _answers_about_one_person(reading: _Reading, n: int, o: int) -> bool:
    """Whether a later answer and an earlier one are about the same person, enough to order
    them (`_same_person` with `naming`)."""
    if _fills_asked_role(reading, n, o):
        return True
    if reading.ranked[n].record.subject != reading.ranked[o].record.subject and not (
        subject_words(reading.bodies[o])
    ):
        # The extractor filed them apart and the earlier is the speaker's: trust it ("My
        # flatmate is learning Italian, keeps practising on me" is not "I'm learning German").
        return False
    return _same_person(
        _value_clause(reading, n, o), reading.bodies[o], naming=True, aliases=reading.aliases
    )


def _fills_asked_role(reading: _Reading, n: int, o: int) -> bool:
    """Whether the later answer's subject is the very role the query asks about, alone or
    with its holder's name, and the earlier answer is the speaker's: "the new manager Bartek
    wants daily standups at 8:30" after "manager's Olumide, pretty chill guy" for "Who's my
    manager?" names the speaker's manager, not someone else's news."""
    if not reading.asked_about or subject_words(reading.bodies[o]):
        return False
    who = subject_words(_value_clause(reading, n, o), possessed=True)
    return bool(who & reading.asked_about) and who <= reading.asked_about | reading.values[n]


def _value_clause(reading: _Reading, n: int, o: int) -> str:
    """The clause of a later statement that names its new value, whose subject says whose
    change it is: "My girlfriend just started at Airbus" of "…, so we're both aerospace
    nerds now" is the girlfriend's news, whoever the rest is about; "I joined PureGym" of
    "The gym closed so I joined PureGym" the speaker's. A clause of the speaker's that names
    one goes first, as in REPLACE, so a side clause's date or place decides nothing ("My
    manager quit in January, and I left Deloitte for KPMG"). The whole statement when no
    clause names a new value."""
    body = reading.bodies[n]
    new_values = reading.values[n] - reading.values[o]
    naming = [c for c in split_conjoined(body) if _values(c) & new_values] if new_values else []
    for clause in naming:
        if not subject_words(clause, possessed=True) and reported_about(clause) is None:
            return clause
    return naming[0] if naming else body


_NUMBER = re.compile(r"[\d.,:]+")
_TIMES = frozenset(
    f"{day}{plural}"
    for day in (
        "monday tuesday wednesday thursday friday saturday sunday january february march "
        "april may june july august september october november december"
    ).split()
    for plural in ("", "s")
)


#: A day of the month: "the 9th", "3rd".
_ORDINAL = re.compile(r"\d{1,2}(?:st|nd|rd|th)")


def _kind_of(value: str) -> str:
    """A value's kind by its shape: a number ("40", "6"), a day, a month or a day of the
    month ("9th"), or a name ("5k", "B1" and "MX-5" are names): "My birthday is on the 9th
    of November" names no value of the kind "I'm a Scorpio" does."""
    if _NUMBER.fullmatch(value):
        return "number"
    return "time" if value in _TIMES or _ORDINAL.fullmatch(value) else "name"


def _stands_near(reading: _Reading, n: int, o: int, config: OrderingConfig) -> bool:
    """Whether a later statement naming a new value answers what the earlier answer does
    however little it matches the query: an update rarely says what it answers ("Ended up
    relocating to Tucson" for "What city am I in?"). It is nearest to that answer and close
    to it, no one-off of the past, names a value of a kind the answer names, and does not go
    on about the earlier value ("Took the Golf to Halfords for its MOT")."""
    if reading.nearest[n] != o or reading.cosine(n, o) < config.related_answer_cosine:
        return False
    if one_off_past(reading.bodies[n]):
        # A one-off answers nothing lasting: "went to the Rangers game with a mate" for
        # "Which football team do I support?".
        return False
    return _names_another_value(reading, n, o)


def _names_another_value(reading: _Reading, n: int, o: int) -> bool:
    """Whether the later statement names a value of a kind the earlier names, and does not
    go on about the earlier's."""
    if not {_kind_of(v) for v in reading.values[n] - reading.values[o]} & {
        _kind_of(v) for v in reading.values[o]
    }:
        # A value of another kind answers another question: "I drive to work on Mondays"
        # says when, not what "I drive a VW Golf" says.
        return False
    # Naming the earlier value again, anywhere, goes on about it ("Took the Golf to
    # Halfords", "Alex's ex Jordan turned up"); a change that ends it is read as a change
    # (`_displaces`). A number said again is no such name ("6 till 2", then "lates now, 2
    # till 10").
    return not _earlier_names_said(reading, n, o)


def _earlier_names_said(reading: _Reading, n: int, o: int) -> frozenset[str]:
    """The names (not numbers or times) of the earlier statement's values that the later
    one says again."""
    said = reading.values[n] | reading.words[n]
    return frozenset(v for v in reading.values[o] & said if _kind_of(v) == "name")


def _rival_answers(reading: _Reading, i: int, j: int, config: OrderingConfig) -> bool:
    """Whether two answers the query finds alike answer it as rivals, however far apart
    their wording: "Moved to Nottingham last month" after "I live in Leicester, near the
    university" for "Which city do I live in?". The later matches the query nearly as well
    (`OrderingConfig.rival_relative`), names a new value of the earlier's kind, and is said
    as a change or a start ("moved", "joined", "the new Subaru"), never as a one-off ("Went
    to Nottingham for a gig") or a remark ("Nottingham has the best curry")."""
    n = _later(reading, i, j)
    o = j if n == i else i
    if not (reading.answers[n] and reading.answers[o]):
        return False
    if reading.cosine(i, j) < config.rival_cosine:
        return False
    later, earlier = reading.ranked[n].breakdown.cosine, reading.ranked[o].breakdown.cosine
    if later < config.rival_relative * earlier:
        return False
    body = reading.bodies[n]
    starts = (
        reading.change_worded[n]
        or begins_lasting(body)
        or lasting_event(body)
        or _NEW_ONE.search(body) is not None
    )
    if not starts or one_off_past(body) or not _names_another_value(reading, n, o):
        return False
    return _answers_about_one_person(reading, n, o)


def _new_rival(reading: _Reading, i: int, j: int, config: OrderingConfig) -> bool:
    """Whether of two answers to a question that asks for one value, the later presents a
    new value of the earlier's kind as new, however differently the query matches them:
    "new boss Tom Achebe already booked me in for a 1:1" after "my manager is Sandra
    Kowalski", "after all the breach stuff I'm on Bitwarden now" after "I use LastPass for
    all my passwords". Chat rarely repeats the query's words, so the share of the query's
    cosine rival answers need (`OrderingConfig.rival_relative`) is waived when the clause
    naming the value says it is new; it must still hold instead (`_one_answer`)."""
    if not reading.asks_for_one or reading.cosine(i, j) < config.rival_cosine:
        return False
    n = _later(reading, i, j)
    o = j if n == i else i
    if not (reading.answers[n] and reading.answers[o]):
        return False
    if not _said_as_new(reading, i, j) or not _names_another_value(reading, n, o):
        return False
    return _one_answer(reading, i, j)


def _answers_as_well(members: Sequence[ScoredMemory]) -> bool:
    """Whether the newest of a group (first) matches the query at least as well as each
    earlier member, on the dense cosine."""
    latest, *earlier = members
    return all(latest.breakdown.cosine >= m.breakdown.cosine for m in earlier)


#: What the learned weighing of rival answers reads of a pair (earlier, later), in the order
#: of `rival_model.RivalModel.features`: how each matches the query, how they relate, and the
#: cues in each one's words. No rule's verdict is among them: those were fitted to the dev
#: examples, and the model fitted on them carried over worse to the held-out splits. Nor is a
#: cue the vetoes (`_may_be_rivals`) make constant: a later statement about the past, told as
#: over or within a context never reaches the model.
RIVAL_FEATURES: tuple[str, ...] = (
    "later_query_share",
    "earlier_query_share",
    "later_query_cosine",
    "earlier_query_cosine",
    "later_matches_as_well",
    "later_lexical",
    "earlier_lexical",
    "pair_cosine",
    "later_nearest_is_earlier",
    "earlier_nearest_is_later",
    "later_answers",
    "earlier_answers",
    "asks_for_one",
    "later_change_worded",
    "later_said_as_new",
    "later_temporary",
    "later_hypothetical",
    "later_additive",
    "later_planned",
    "later_lasting_change",
    "later_begins_lasting",
    "later_lasting_event",
    "later_one_off_past",
    "later_negates",
    "later_reported",
    "later_someone_else",
    "later_another_of_its_kind",
    "later_corrects",
    "later_reads_current",
    "earlier_present_state",
    "earlier_temporary",
    "earlier_hypothetical",
    "earlier_past",
    "earlier_someone_else",
    "later_ends_earlier",
    "later_names_new_value",
    "later_names_earlier_value",
    "values_of_one_kind",
    "same_subject",
    "shares_words",
    "log_days_between",
)


@dataclass(frozen=True)
class RivalPair:
    """Two recalled memories that may answer the query as rivals: indices into the ranked
    list, and what the learned weighing reads of them (`RIVAL_FEATURES`)."""

    earlier: int
    later: int
    features: Mapping[str, float]


def _own_features(reading: _Reading, i: int) -> dict[str, float]:
    """What the learned weighing reads of one memory's own words, as the later ("later_…")
    and as the earlier ("earlier_…") of a pair; read once per memory, not once per pair."""
    body = reading.bodies[i]
    found = cues(body)
    someone_else = bool(subject_words(body))
    values = {
        "later_change_worded": found.change,
        "later_temporary": found.temporary,
        "later_hypothetical": found.hypothetical,
        "later_additive": found.additive,
        "later_planned": found.planned,
        "later_lasting_change": reading.says_change[i],
        "later_begins_lasting": begins_lasting(body),
        "later_lasting_event": lasting_event(body),
        "later_one_off_past": one_off_past(body),
        "later_negates": negates(body),
        "later_reported": reported_about(body) is not None,
        "later_someone_else": someone_else,
        "later_another_of_its_kind": another_of_its_kind(body) is not None,
        "later_corrects": corrects(body),
        "later_reads_current": reading.current[i],
        "earlier_present_state": reading.states[i],
        "earlier_temporary": found.temporary,
        "earlier_hypothetical": found.hypothetical,
        "earlier_past": found.past,
        "earlier_someone_else": someone_else,
    }
    return {name: float(value) for name, value in values.items()}


def _rival_features(
    reading: _Reading, o: int, n: int, own: Mapping[int, Mapping[str, float]]
) -> dict[str, float]:
    """`RIVAL_FEATURES` of the pair (earlier `o`, later `n`); `own` holds `_own_features`
    by index."""
    old, new = reading.ranked[o], reading.ranked[n]
    best = max((m.breakdown.cosine for m in reading.ranked), default=0.0)
    scale = best if best > 0 else 1.0
    new_values = reading.values[n] - reading.values[o]
    days = (new.record.stated_at - old.record.stated_at).total_seconds() / 86_400
    values = {
        "later_query_share": new.breakdown.cosine / scale,
        "earlier_query_share": old.breakdown.cosine / scale,
        "later_query_cosine": new.breakdown.cosine,
        "earlier_query_cosine": old.breakdown.cosine,
        "later_matches_as_well": new.breakdown.cosine >= old.breakdown.cosine,
        "later_lexical": new.breakdown.lexical,
        "earlier_lexical": old.breakdown.lexical,
        "pair_cosine": reading.cosine(o, n),
        "later_nearest_is_earlier": reading.nearest[n] == o,
        "earlier_nearest_is_later": reading.nearest[o] == n,
        "later_answers": reading.answers[n],
        "earlier_answers": reading.answers[o],
        "asks_for_one": reading.asks_for_one,
        # Newness said of the new value itself: "Google announced new layoffs" and "the
        # motorbike needs new tyres" present nothing the query asks for as new.
        "later_said_as_new": bool(new_values) and said_as_new(_value_clause(reading, n, o)),
        "later_ends_earlier": ends(reading.bodies[n], reading.bodies[o]),
        "later_names_new_value": bool(new_values),
        "later_names_earlier_value": bool(_earlier_names_said(reading, n, o)),
        "values_of_one_kind": bool(
            {_kind_of(v) for v in new_values} & {_kind_of(v) for v in reading.values[o]}
        ),
        "same_subject": new.record.subject == old.record.subject,
        "shares_words": bool((reading.words[n] & reading.words[o]) - reading.query_words),
        "log_days_between": math.log1p(max(0.0, days)),
    }
    later = {k: v for k, v in own[n].items() if k.startswith("later_")}
    earlier = {k: v for k, v in own[o].items() if k.startswith("earlier_")}
    return {**{name: float(value) for name, value in values.items()}, **later, **earlier}


def _rival_pairs(reading: _Reading, config: OrderingConfig) -> list[RivalPair]:
    """The candidate pairs (`_Reading.pairs`) whose later statement may stand in for the
    earlier at all, with the features of each (`_may_be_rivals`)."""
    found = []
    own: dict[int, dict[str, float]] = {}
    for i, j in reading.pairs():
        if reading.said[i] == reading.said[j]:
            continue
        n = _later(reading, i, j)
        o = j if n == i else i
        if not _may_be_rivals(reading, n, o, config):
            continue
        for index in (n, o):
            if index not in own:
                own[index] = _own_features(reading, index)
        features = _rival_features(reading, o, n, own)
        found.append(RivalPair(earlier=o, later=n, features=features))
    return found


def _may_be_rivals(reading: _Reading, n: int, o: int, config: OrderingConfig) -> bool:
    """Whether the model may weigh a later statement against an earlier one.

    What the rules read as a look-alike stays a veto the model cannot outweigh: a passing
    moment, a maybe, one more of its kind, someone else's thing or news, an addition, the end
    of one item of several ("I don't listen to classical any more" after "I love jazz and
    classical"), or more about the earlier value itself ("Took the Golf to Halfords, new
    tyres"). And the later statement must say what could be the new answer: a new value, a
    lasting change or the end of the earlier value ("The motorbike needs new tyres" names no
    new motorbike). The cheap readings go first: most candidate pairs fail one of them."""
    if reading.cosine(n, o) < config.rival_cosine:
        return False
    body, old_body = reading.bodies[n], reading.bodies[o]
    if _ends_one_of_several(body, old_body):
        return False
    changes = reading.says_change[n] or ends(body, old_body)
    if not (reading.values[n] - reading.values[o] or changes):
        return False
    said_again = _earlier_names_said(reading, n, o)
    if said_again and (not changes or any(one_of_several(v, old_body) for v in said_again)):
        return False
    if _adds(reading, n, o) or not _may_stand_in(reading, n, o):
        return False
    return _answers_about_one_person(reading, n, o)


def rival_pairs(
    ranked: Sequence[ScoredMemory],
    vectors: np.ndarray,
    config: OrderingConfig,
    *,
    query: str,
) -> list[RivalPair]:
    """The pairs of `ranked` the learned weighing of rival answers reads, with their
    features: what `bench/train_rival_model.py` fits the model on, and what
    `current_first` asks it about."""
    return _rival_pairs(_Reading(ranked, vectors, config, query), config)


def _weigh_rivals(
    ordered: list[ScoredMemory],
    pairs: Sequence[RivalPair],
    ranked: Sequence[ScoredMemory],
    threshold: float,
    model: RivalModel,
) -> list[ScoredMemory]:
    """`ordered` with each later rival answer the model finds at least `threshold` likely
    to hold instead moved up to just before the earlier one, the likeliest first; the
    memories between slide down one rank. Unmarked, like answers the rules find alike: the
    model weighs cues, it reads no explicit evidence that the earlier value is gone. A memory
    the rules marked is left where their evidence put it."""
    order = [m.record.id for m in ordered]
    marked = {m.record.id for m in ordered if m.latest is not None}
    weighed = sorted(
        ((model.probability(pair.features), pair) for pair in pairs), key=lambda found: -found[0]
    )
    for probability, pair in weighed:
        if probability < threshold:
            break
        earlier, later = ranked[pair.earlier].record.id, ranked[pair.later].record.id
        if earlier in marked or later in marked:
            continue
        if order.index(earlier) < order.index(later):
            order.remove(later)
            order.insert(order.index(earlier), later)
    at = {m.record.id: m for m in ordered}
    return [at[i] for i in order]


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
    query: str = "",
    groups: Sequence[Group] | None = None,
) -> list[ScoredMemory]:
    """`ranked` with each same-question group ordered newest statement first; marked latest
    and earlier where the evidence says the newest replaced the others. `settled`: ids of
    memories that already superseded another. `groups`: what `group_same_question` returned
    for the same arguments, when the caller has it (saves grouping twice).

    A group is reordered within the ranks its members hold, so no memory outside it moves:
    "My laptop is a ThinkPad X1" at rank 1 and "Work issued me a MacBook Pro" at rank 4 swap
    ranks, and ranks 2 and 3 stay. Earlier values a change displaced leave their ranks and go
    after every other memory."""
    if not config.enabled:
        return list(ranked)
    placed: list[ScoredMemory | None] = [None] * len(ranked)
    earlier: list[ScoredMemory] = []
    weighs = vectors is not None and config.rival_order is not None and len(ranked) > 1
    reading: _Reading | None = None
    if groups is None:
        reading = _Reading(ranked, vectors, config, query)
        groups = _group(reading, config, settled)
    elif weighs:
        reading = _Reading(ranked, vectors, config, query)
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
            ):
                earlier += older
            else:
                marked += older
        # Displaced earlier values left `marked`: the group's last ranks stay empty and close up.
        for rank, memory in zip(ranks, marked, strict=False):
            placed[rank] = memory
    ordered = [m for m in placed if m is not None] + earlier
    if reading is None or not weighs or config.rival_order is None:
        return ordered
    pairs = _rival_pairs(reading, config)
    return _weigh_rivals(ordered, pairs, ranked, config.rival_order, rival_model.bundled())
