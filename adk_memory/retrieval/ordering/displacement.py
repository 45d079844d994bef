"""`displaces`: a change and the present state it displaced (`Evidence.CHANGE`).

The strongest evidence: "Sold the Vespa" after "I ride a Vespa", "We're in Munich now" after
"I live in Berlin". The earlier state goes after every other recalled memory.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from adk_memory.extraction.cues import (
    content_words,
    ends,
    lasting_change,
    moved_thing,
    scoped,
    split_conjoined,
)
from adk_memory.model import Kind
from adk_memory.retrieval.ordering.config import OrderingConfig
from adk_memory.retrieval.ordering.people import same_person
from adk_memory.retrieval.ordering.reading import Reading, value_clause
from adk_memory.retrieval.ordering.stand_in import (
    ends_one_of_several,
    holds_beside,
    moves_another_kind,
)


def displaces(
    reading: Reading, i: int, j: int, config: OrderingConfig, settled: Collection[str]
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
    if not reading.states[o] or not same_person(
        value_clause(reading, n, o), old_text, aliases=reading.aliases
    ):
        return None
    if holds_beside(reading, n, o):
        return None
    if (
        reading.says_change[n]
        and _changes_of(reading, n, o)
        and not moves_another_kind(reading, n, o)
    ):
        return None if ends_one_of_several(new_text, old_text) else n
    return n if ends(new_text, old_text) else None


#: A change of how the speaker feels: "now I'm obsessed", "I'm hooked now", "honestly I'm a
#: Wrexham fan now". A new liking adds to what the speaker likes and changes no state of
#: theirs: "Saw the new Kia EV9, now I'm obsessed" leaves the Golf they drive, "Binged Welcome
#: to Wrexham, I'm a Wrexham fan now" the team they support.
_A_NEW_FEELING = re.compile(
    r"\b(?:i'm|i am|we're|we are)\s+(?:now\s+)?(?:(?:so|totally|completely|properly|kind of|"
    r"kinda|a bit|fully|absolutely|officially)\s+)?(?:(?:a|an|such a)\s+(?:(?:huge|big|massive|"
    r"proper|total|new)\s+)?(?:[\w'-]+\s+)?fan\b|(?:obsessed|hooked|addicted|smitten|in love)\b)",
    re.IGNORECASE,
)


def _changes_of(reading: Reading, n: int, o: int) -> bool:
    """Whether a clause of the later statement that says a change is about whom the earlier
    state is about: "…a picture book about a dog called Clifford, now she wants a giant red
    one" says the niece's news, not a change of "my dog's called Rolo"; and is more than a
    new feeling (`_A_NEW_FEELING`)."""
    clauses = split_conjoined(reading.bodies[n])
    if len(clauses) < 2:
        return _A_NEW_FEELING.search(reading.bodies[n]) is None
    old = reading.bodies[o]
    return any(
        lasting_change(clause)
        and _A_NEW_FEELING.search(clause) is None
        and (same_person(clause, old, aliases=reading.aliases) or _moves_its_thing(clause, old))
        for clause in clauses
    )


def _moves_its_thing(clause: str, old: str) -> bool:
    """Whether someone in `clause` moves the very thing `old` is about: "they've pushed
    standup to 10:45" changes "team standup is at 9:15"."""
    thing = moved_thing(clause)
    return thing is not None and content_words(thing) <= content_words(old)
