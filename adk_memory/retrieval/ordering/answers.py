"""Two answers to one question: related answers, rival answers, and whether the later holds
instead of the earlier when the query asks for one value (`Evidence.SIMILAR`, `ONE_ANSWER`,
`NEW_ANSWER`).
"""

from __future__ import annotations

import re

from adk_memory.extraction.cues import (
    MONTHS,
    RELATION_NOUNS,
    begins_lasting,
    content_words,
    corrects,
    cues,
    ends,
    lasting_change,
    lasting_event,
    one_off_past,
    said_as_new,
    scoped,
    subject_words,
)
from adk_memory.model import ScoredMemory
from adk_memory.retrieval.ordering.config import OrderingConfig
from adk_memory.retrieval.ordering.people import answers_about_one_person
from adk_memory.retrieval.ordering.reading import (
    Reading,
    kind_of,
    later_of,
    reads_current,
    shared_kinds,
    value_clause,
)
from adk_memory.retrieval.ordering.stand_in import (
    earlier_names_said,
    names_another_value,
)

#: A time still to come: "in the spring", "after the new year", "from next year", "come
#: autumn".
_FUTURE = re.compile(
    r"\b(?:(?:in|come|this|by|after|from|next)\s+(?:the\s+)?(?:spring|summer|autumn|fall|winter|"
    rf"new year)|from next|next year|come (?:{MONTHS}))\b",
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


#: A sentence that presents something new of the speaker's ("Anyway the new dentist, Dr
#: Ferreira, is great"), not a one-off ("Dr Ferreira did the filling, she was great") or
#: someone else's ("His Audi A3 is so smooth").
_NEW_ONE = re.compile(r"\b(?:the|my|our) (?:brand[- ])?new\b", re.IGNORECASE)


def one_answer(reading: Reading, i: int, j: int) -> bool:
    """Whether of two answers to the same question, asked for one value, the later holds
    instead of the earlier: it says something current, names a new value of the earlier's
    kind ("Had my first one-to-one with Kwame, my new manager" after "My line manager is
    Siobhan"), and is about the same person.

    Naming the earlier value too is no bar: of two answers already found alike, a statement
    naming both mostly says what replaced what ("…a MacBook Air, so the XPS is going to my
    nephew", "the tortoise is Sheldon, not Shelly"), and a name both say may be whom they
    are about ("Jacob's settling in at Westfield Juniors"). Rivals worded far apart still
    need it (`names_another_value`)."""
    n = later_of(reading, i, j)
    o = j if n == i else i
    clause = value_clause(reading, n, o)
    said = cues(clause)
    if (
        said.hypothetical
        # Read on the clause too: "…a MacBook Air, so the XPS is going to my nephew" plans
        # only what becomes of the earlier one.
        or said.planned != reading.planned[o]
        or not reads_current(said, clause)
        or (
            one_off_past(clause)
            and not (said.change or lasting_change(clause) or begins_lasting(clause))
            and _NEW_ONE.search(clause) is None
        )
    ):
        # A maybe or a one-off holds nothing instead; the clause naming the value says so
        # ("had my eye test, prescription went up to -2.75" says what holds now).
        return False
    if reading.other_slots(n, o):
        # Two different slots answer two questions (a name was read by `may_stand_in`).
        return False
    if not _holds_instead(reading, n, o, clause):
        return False
    # What the query itself names ("GP" of "Who's my GP?") is no value of either answer.
    old_values = reading.values[o] - reading.query_values
    new_values = reading.new_values(n, o) - reading.query_values
    shared = shared_kinds(new_values, old_values)
    if not shared or (shared == {"time"} and not _times_of_one_thing(reading, n, o)):
        return False
    return answers_about_one_person(reading, n, o)


#: Words that say when, not what: days, parts of the day, weeks.
_WHEN_WORDS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday morning afternoon evening night "
    "lunchtime weekend weekday week day month year".split()
)


def _times_of_one_thing(reading: Reading, n: int, o: int) -> bool:
    """Whether two statements that name only times as rival values time one thing: "Thursdays
    are my pottery class" gives no other day for "On Mondays I have choir practice", however
    the query asks ("What's my weekly schedule?"); "the bins go out tuesday night" does for
    "bin collection is on Fridays"."""

    def what(i: int) -> set[str]:
        return {
            w
            for w in content_words(reading.bodies[i])
            if w not in _WHEN_WORDS and kind_of(w) == "name" and not w[:1].isdigit()
        }

    return bool(what(n) & what(o))


def presented_as_new(reading: Reading, i: int, j: int) -> bool:
    """Whether the later of two rival answers to a one-value question presents its value as
    new, in the clause that names it (`cues.said_as_new`), or says the earlier one is gone
    (`cues.ends`). Said in another clause, newness is that clause's news: "…a book about a
    dog called Clifford, now she wants one" presents no new dog of the speaker's."""
    n = later_of(reading, i, j)
    o = j if n == i else i
    return (
        said_as_new(value_clause(reading, n, o))
        or ends(reading.bodies[n], reading.bodies[o])
        # A correction: the earlier answer was never right ("I actually meant Limerick").
        or corrects(reading.bodies[n])
    )


def _holds_instead(reading: Reading, n: int, o: int, clause: str) -> bool:
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
        and not earlier_names_said(reading, n, o) - reading.query_values
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


def _matches_query_better(reading: Reading, n: int, o: int) -> bool:
    """Whether the later answer matches the query clearly better than the earlier, on the
    dense cosine: synonyms the words miss ("boss" for "manager", "kitten" for "cat")."""
    later, earlier = reading.ranked[n].breakdown.cosine, reading.ranked[o].breakdown.cosine
    return later >= earlier + reading.asked_word_margin


def comparably_relevant(head: ScoredMemory, other: ScoredMemory, config: OrderingConfig) -> bool:
    """Whether `other` matters to the query about as much as the group's head. Read on the
    dense cosine: the lexical part of the score rewards the query's exact words, which an
    update often does not repeat ("Work issued me a MacBook Pro" for "What laptop do I
    use?"), so the blended score would keep the stale value first."""
    best = head.breakdown.cosine
    return best > 0 and other.breakdown.cosine >= config.min_relative_cosine * best


def answer_pair(reading: Reading, i: int, j: int, config: OrderingConfig) -> bool:
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
    n = later_of(reading, i, j)
    o = j if n == i else i
    # "I stopped taking the antibiotics" is near "I'm allergic to penicillin" but shares no
    # word with it and names no value: it answers nothing about the allergy.
    names_new = bool(reading.new_values(n, o) - reading.words[o])
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
    return answers_about_one_person(reading, n, o)


def _stands_near(reading: Reading, n: int, o: int, config: OrderingConfig) -> bool:
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
    return names_another_value(reading, n, o)


def rival_answers(reading: Reading, i: int, j: int, config: OrderingConfig) -> bool:
    """Whether two answers the query finds alike answer it as rivals, however far apart
    their wording: "Moved to Nottingham last month" after "I live in Leicester, near the
    university" for "Which city do I live in?". The later matches the query nearly as well
    (`OrderingConfig.rival_relative`), names a new value of the earlier's kind, and is said
    as a change or a start ("moved", "joined", "the new Subaru"), never as a one-off ("Went
    to Nottingham for a gig") or a remark ("Nottingham has the best curry")."""
    n = later_of(reading, i, j)
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
    if not starts or one_off_past(body) or not names_another_value(reading, n, o):
        return False
    return answers_about_one_person(reading, n, o)


def new_rival(reading: Reading, i: int, j: int, config: OrderingConfig) -> bool:
    """Whether of two answers to a question that asks for one value, the later presents a
    new value of the earlier's kind as new, however differently the query matches them:
    "new boss Tom Achebe already booked me in for a 1:1" after "my manager is Sandra
    Kowalski", "after all the breach stuff I'm on Bitwarden now" after "I use LastPass for
    all my passwords". Chat rarely repeats the query's words, so the share of the query's
    cosine rival answers need (`OrderingConfig.rival_relative`) is waived when the clause
    naming the value says it is new; it must still hold instead (`one_answer`)."""
    if not reading.asks_for_one or reading.cosine(i, j) < config.rival_cosine:
        return False
    n = later_of(reading, i, j)
    o = j if n == i else i
    if not (reading.answers[n] and reading.answers[o]):
        return False
    if not presented_as_new(reading, i, j) or not names_another_value(reading, n, o):
        return False
    return one_answer(reading, i, j)


def corrected(reading: Reading, i: int, j: int) -> bool:
    """Whether the later of two answers to the same question says the earlier was wrong
    (`cues.corrects`) and gives another value of its own, about the same person: "Wait, I
    gave you the wrong postcode before, it's LS6 3QT" after "My postcode is LS6 2QT". The
    earlier one never held, so it answers nothing now."""
    n = later_of(reading, i, j)
    o = j if n == i else i
    if not corrects(reading.bodies[n]) or not reading.new_values(n, o):
        return False
    return answers_about_one_person(reading, n, o)
