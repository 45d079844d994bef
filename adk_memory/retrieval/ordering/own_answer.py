"""`own_answer_first`: for a question that asks for one value of the speaker's, the speaker's
own standing answer goes before a later look-alike that recall ranked above it.

Recall ranks by how well each memory matches the query's words, and a look-alike often
matches them better than the fact: "my wife's manager is now Priya" beats "my 1:1 with my
manager Rachel Obi" for "Who's my manager?", and "thinking of moving to Discovery Bank"
beats "my Nedbank card got declined" for "Which bank am I with?". The grouping never joins
such a pair (a maybe, a stand-in or someone else's news answers nothing for the speaker
now), so nothing else orders them. What the look-alike's own clause says decides, in words
too plain to be a change misread: a maybe said in so many words, or news of someone in the
speaker's life.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from adk_memory.extraction.cues import TRADES, is_relation, person_words, subject_words
from adk_memory.model import ScoredMemory
from adk_memory.retrieval.ordering.people import answers_about_one_person
from adk_memory.retrieval.ordering.reading import Reading, value_clause, values_in

#: A maybe said in so many words: "thinking of moving to Discovery Bank", "might transfer
#: me to Calgary", "someday I want a Fortuner". The statement-wide readings of a maybe
#: (`Cues.hypothetical`) also hear the questions a message goes on to ask, which a change
#: often does ("Swapped the violin for a cello, my teacher reckons…"): too loose to demote
#: by.
_MAYBE = re.compile(
    r"\b(?:thinking (?:of|about)|considering|if i (?:ever|do|did)|someday|some day|"
    r"one day (?:i(?:'ll| will| want| wanna)|we(?:'ll| will))|"
    r"i wish|daydreaming|dreaming of|tempted to|toying with|"
    # "might" of a move not made, not a judgement ("might be the best phone I've had") nor
    # an end to follow the change ("opened my new account there, might close Barclays");
    # "could" is as often what a change was for ("moved to Three so I could get unlimited
    # data").
    r"might\s+(?:\w+\s+)?(?:move|moving|switch|switching|go|going|get|getting|"
    r"transfer|transferring|change|changing|join|joining|buy|buying|start|starting|"
    r"end up))\b",
    re.IGNORECASE,
)


#: Those who run something of the speaker's and may change it: "client pushed launch back to
#: April 20th", "my boss moved my shift to Fridays".
_IN_CHARGE = frozenset(
    "client boss manager lead mentor coach tutor therapist teacher instructor supervisor".split()
)
#: The speaker's children: what the household uses is told of them ("the kids are with a new
#: childminder called Fatima", "the kids love the new dog walker") and asked as "our".
_HOUSEHOLD = frozenset("kid kids child children son daughter baby boys girls".split())
#: A child's own thing: "for his hostel", "my daughter's phone", "got my son an Airtel SIM".
_THEIR_OWN = re.compile(
    r"\b(?:his|her|their)\b|\b(?:son|daughter|kid|child|baby)'s\b"
    r"|\b(?:got|bought|gave|for)\s+(?:my|our|the)\s+(?:son|daughter|kids?|children|baby)\b",
    re.IGNORECASE,
)
#: Cosine a look-alike needs with the fact it sits above: below it, the two are about
#: different things ("I'm a Scorpio" is no rival answer to the new childminder).
_RELATED = 0.3
#: Share of the look-alike's match with the query the fact needs: less is no rival answer
#: ("I'm the oldest of four kids" for "Which mobile network am I on?").
_AS_GOOD = 0.5


def _stands_for_now(reading: Reading, later: int, earlier: int) -> bool:
    """Whether the later answer, in the clause that names its value, may hold instead of the
    earlier one for the speaker now: no maybe said in so many words, and not news of someone
    in the speaker's life ("my wife's manager is now Priya"). One who serves the speaker or
    runs something of theirs may tell the speaker's own change ("client pushed launch back
    to April 20th"), so only people the speaker relates to count as someone else here."""
    clause = _naming_part(reading, later, earlier)
    if _MAYBE.search(clause):
        return False
    people = subject_words(clause, possessed=True) - TRADES - _IN_CHARGE
    if people <= _HOUSEHOLD and not _THEIR_OWN.search(clause):
        # The speaker's own; or the kids' carer, school or dog walker, the household's ("the
        # kids are with a new childminder called Fatima"); what is theirs alone is not ("got
        # my son an Airtel SIM for his hostel").
        return True
    return not any(map(is_relation, people)) or answers_about_one_person(reading, later, earlier)


#: Where a clause's parts divide: a comma, a semicolon or a dash. Every one, not only those
#: before a subject of its own (`cues.comma_clauses`, which keeps "…, my mate Joe might join
#: too" whole with the change before it).
_PARTS = re.compile(r"\s*[,;]\s+|\s+[-\u2013\u2014]\s+")


def _naming_part(reading: Reading, later: int, earlier: int) -> str:
    """The part of the later answer's value clause that names its new value: a side remark
    after a comma is someone else's ("joined the Better gym at the leisure centre, my mate
    Joe might join too", "Signed up with Three, my wife might go with them too")."""
    clause = value_clause(reading, later, earlier)
    new = reading.new_values(later, earlier)
    for part in _PARTS.split(clause):
        if new & values_in(part):
            return part
    return clause


def own_answer_first(
    ordered: list[ScoredMemory], reading: Reading, query: str
) -> list[ScoredMemory]:
    """`ordered` with the speaker's own present answer moved just before the first answer
    above it that was said later but holds nothing for the speaker now (`_stands_for_now`),
    where the query asks for one value of the speaker's own ("Who's my manager?", not "What
    does my husband do?"). A memory the rules marked latest keeps its place (their evidence
    decides it)."""
    others = {w for w in person_words(query) if is_relation(w)} - reading.asked_about
    if not reading.asks_for_one or others:
        return ordered
    index = {m.record.id: i for i, m in enumerate(reading.ranked)}
    top = _first_answer(ordered, reading, index)
    if top is None or ordered[top].latest:
        return ordered
    lure = index[ordered[top].record.id]
    for position in range(top + 1, len(ordered)):
        own = index[ordered[position].record.id]
        if (
            reading.answers[own]
            # The look-alike and the fact answer alike: one is the other's nearest answer.
            and (reading.nearest[own] == lure or reading.nearest[lure] == own)
            and reading.cosine(own, lure) >= _RELATED
            and reading.ranked[own].breakdown.cosine
            >= _AS_GOOD * reading.ranked[lure].breakdown.cosine
            and reading.states[own]
            and not subject_words(reading.bodies[own])
            and reading.stated[lure] > reading.stated[own]
            and not _stands_for_now(reading, lure, own)
        ):
            moved = ordered[position]
            rest = ordered[:position] + ordered[position + 1 :]
            return [*rest[:top], moved, *rest[top:]]
    return ordered


def _first_answer(
    ordered: Sequence[ScoredMemory], reading: Reading, index: dict[str, int]
) -> int | None:
    for position, memory in enumerate(ordered):
        if reading.answers[index[memory.record.id]]:
            return position
    return None
