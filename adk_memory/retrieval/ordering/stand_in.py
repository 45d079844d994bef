"""Whether a later statement may stand in for an earlier answer, or holds beside it.

The look-alike readings every kind of evidence shares: one more of its kind, a context,
someone else's thing, a denial, an addition, the end of one item of several, more about the
earlier value itself.
"""

from __future__ import annotations

import re

from adk_memory.extraction.cues import (
    RELATION_NOUNS,
    another_of_its_kind,
    begins_lasting,
    comma_clauses,
    content_words,
    cues,
    displaced,
    holds_several,
    negates,
    one_of_several,
    scoped,
    singular,
    split_conjoined,
    split_items,
    stated_things,
    told_as_begun,
)
from adk_memory.extraction.cues.lazy import remembered
from adk_memory.extraction.slots import CLOSED_CATEGORIES, HEAD_ATTRIBUTE, WORK_SITE
from adk_memory.retrieval.ordering.reading import (
    Reading,
    kind_of,
    later_of,
    of_another_category,
    reads_current,
    shared_kinds,
    topic_words,
    value_clause,
    values_in,
)


def ends_one_of_several(new_text: str, old_text: str) -> bool:
    """Whether a later statement is about one item of an earlier one that lists several, so
    the others still hold: a denial ("I don't listen to classical any more" of "jazz and
    classical", "I don't speak German any more" of "English, French, German"), or any word
    on some items and not the rest ("honestly I'm over thrillers" of "I'm into thrillers and
    historical fiction")."""
    denies = negates(new_text)
    if denies and len(split_items(old_text, commas=False)) > 1:
        return True
    said = _content(new_text)
    # Only a word the earlier statement says can be one of its items.
    if not any(one_of_several(word, old_text) for word in said & _content(old_text)):
        return False
    return denies or not all(_content(item) & said for item in split_items(old_text, commas=False))


@remembered
def _content(text: str) -> frozenset[str]:
    """`content_words`, remembered: recall reads the same memories pair after pair."""
    return frozenset(content_words(text))


def adds(reading: Reading, i: int, j: int) -> bool:
    """Whether the later of two statements says it holds beside the other ("also", "too"),
    in the clause that names its new value: "I'm on Bitwarden now, and it's cheaper too"
    adds nothing beside LastPass."""
    n = later_of(reading, i, j)
    if not reading.additive[n]:
        return False
    if holds_several(reading.bodies[n]):
        # Said in any clause: "Got my Irish one through my gran, so I've got both now".
        return True
    o = j if n == i else i
    return cues(value_clause(reading, n, o)).additive


#: A statement that says what the speaker is called.
_NAMING = re.compile(
    r"\b(?:my (?:name|surname|first name|last name|nickname)(?:'s|\s+is)|call(?:s|ed)? me|"
    r"go(?:es)? by|(?:i'm|i am) (?:called|known as)|known as|changed my (?:name|surname)|"
    r"took (?:his|her|their|my) (?:name|surname)|"
    r"(?:i'm|i am) (?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)? now)\b",
    re.IGNORECASE,
)


def may_stand_in(reading: Reading, i: int, j: int) -> bool:
    """Whether the later of two statements may stand in for the earlier: it says something
    current ("First day at St James's went fine"), or a clause naming its new value does
    ("ugh, traffic this morning. Anyway the new dentist, Dr Ferreira, is great"; "finished
    the Murakami at last. side note, the Paperwhite went in the bath so it's a Kobo Clara
    now"), or both are plans ("We're going to Portugal in June", then "we're going to Greece
    in June instead"); never what holds beside it (`holds_beside`)."""
    n = later_of(reading, i, j)
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
    if holds_beside(reading, n, o):
        return False
    if reading.current[n] or (reading.planned[n] and reading.planned[o]):
        return True
    new_values = reading.new_values(n, o)
    if not new_values:
        return False
    for conjoined in split_conjoined(reading.bodies[n]):
        if values_in(conjoined) & new_values and reads_current(cues(conjoined), conjoined):
            return True
        # A time word in a clause after one that tells a change or a start does not say when
        # the change holds ("We've gone over to BT Full Fibre, the speed test this morning
        # said 900 Mbps"), where it names a value of the earlier answer's kind. After
        # anything else, it may ("Borrowing Dad's Volvo, the Golf is at the garage this
        # week"), and so does one before it ("Holiday emergency today, the dentist in Faro
        # is Dr Lopes"). No part may name the earlier value: the change goes on about it
        # ("the Golf has done 120k miles" after "I drive a Golf") or says why it is for now
        # ("Switched to the Merrion Centre car park, the Woodhouse Lane one this week is
        # shut").
        parts = comma_clauses(conjoined)
        first = parts[0]
        if (
            len(parts) > 1
            and not any(values_in(part) & reading.values[o] for part in parts)
            and (told_as_begun(first) or begins_lasting(first))
            and shared_kinds(values_in(first) & new_values, reading.values[o])
            and reads_current(cues(first), first)
        ):
            return True
    return False


def _of_another_kind(reading: Reading, n: int, o: int) -> bool:
    """Whether the query asks for a category, the earlier answer names a value of it, and the
    later names none but only things of another kind: values of another category and no
    name the lexicon lacks, beside what it lets go ("We moved from AWS to Azure at work"
    for "What phone do I have?" after "My phone is an iPhone 13"; "Traded in the Golf for
    an e-bike" for "What programming language do I use at work?"), or, asked for a closed
    category, a place of work ("The company moved our team to a new office by the Isar").
    A name the lexicon lacks may be the new answer: "switched to Rider cos it's all C# now"
    still stands in for "I use VS Code"."""
    asked = reading.asked_category
    if asked is None or asked not in reading.categories[o] or asked in reading.categories[n]:
        return False
    slot = reading.slots[n]
    if asked in CLOSED_CATEGORIES and slot is not None and slot[1] == WORK_SITE:
        return True
    let_go = {word for value in displaced(reading.bodies[n]) for word in _named(value)}
    new_values = reading.new_values(n, o) - let_go
    return of_another_category(new_values, reading.value_categories[n], asked)


def moves_another_kind(reading: Reading, n: int, o: int) -> bool:
    """Whether a change moves something the state does not give: only to days of the week
    where the state names no day and the query asks no when ("Switched my spin class to
    Thursdays" beside "I go to the Gym Group in Crawley"), or to no amount where the query
    asks for one and the state gives it ("They moved my day off to Friday" beside "I work 4
    days a week" for "How many days a week do I work?"; "They moved my membership to the
    Bracknell branch" beside "My gym membership is £35 a month"). Only an end that names
    the state's value then displaces it. Other kinds are not compared: a name, a clock time
    and a figure are read too loosely ("2am", "9:30") to tell one question's answers from
    another's."""
    new_values = reading.new_values(n, o)
    if not (new_values and reading.values[o]):
        return False
    if reading.asks_amount and not _amounts(new_values) and _amounts(reading.values[o]):
        return True
    return (
        not reading.asks_time
        and all(kind_of(v) == "time" for v in new_values)
        and not any(kind_of(v) == "time" for v in reading.values[o])
    )


def _amounts(values: frozenset[str]) -> frozenset[str]:
    """The values that give a figure ("35", "82kg", "£6,500")."""
    return frozenset(v for v in values if any(c.isdigit() for c in v))


def _named(value: str) -> list[str]:
    """The words of a thing let go when they are a name ("Golf", "the old Golf"), in lower
    case; none when the reading caught a clause ("gave up and use Samsung Internet")."""
    words = [w for w in value.split() if w.lower() not in ("the", "my", "our", "old")]
    return [w.lower() for w in words] if all(w[:1].isupper() for w in words) else []


def _of_another_thing(reading: Reading, clause: str, n: int, o: int) -> bool:
    """Whether the clause naming a later value states it of another thing of the speaker's
    than the earlier statement states its value of, or than the query asks about
    (`stated_things`): "My bank is Monzo now" beside "My broadband is with BT";
    "broadband is Virgin Media now" for "Which bank am I with?" after "My bank is Barclays
    and my broadband is with BT". Nouns of one slot family name one thing ("my ride", "my
    car"; "my GP", "my doctor"), and so do nouns with one head or a word in common ("my
    piano lessons", "lessons")."""
    later = _things_of(clause, reading.new_values(n, o))
    if not later:
        return False
    earlier = _things_of(reading.bodies[o], reading.values[o])
    if earlier and not any(_one_thing(a, b) for a in later for b in earlier):
        return True
    asked = reading.asked_thing
    return (
        bool(asked)
        and any(_one_thing(asked, thing) for thing in earlier)
        and not any(_one_thing(asked, thing) for thing in later)
    )


def _things_of(text: str, values: frozenset[str]) -> list[str]:
    """The things `text` states one of `values` of (`stated_things`)."""
    return [thing for thing, said in stated_things(text) if values_in(said) & values]


#: Nouns that name one thing of the speaker's outside the slots' nouns (`HEAD_ATTRIBUTE`),
#: as chat words it: "my motor", "my pay", "my wifi", "my roommate".
_ONE_THING = tuple(
    frozenset(group.split(","))
    for group in (
        "car,motor,ride,vehicle,wheels",
        "salary,pay,wage,wages,income,earnings,pay packet",
        "broadband,internet,wifi,fibre,internet provider,broadband provider",
        "flatmate,roommate,housemate,room-mate,flat-mate",
        "phone number,mobile number,number,mobile,phone",
        "energy,gas,electricity,energy supplier,gas and electricity,power",
        "bank,current account,account,main account",
    )
)


def _one_thing(one: str, other: str) -> bool:
    """Whether two nouns of the speaker's things may name one thing: of one slot family when
    both are slots' nouns, named alike in chat (`_ONE_THING`), else with one head or a word
    in common."""
    if any(one in group and other in group for group in _ONE_THING):
        return True
    families = [_slot_family(one), _slot_family(other)]
    if None not in families:
        return families[0] == families[1]
    heads = {singular(one.split()[-1]), singular(other.split()[-1])}
    return len(heads) == 1 or bool(content_words(one) & content_words(other))


def _slot_family(thing: str) -> str | None:
    """The family of the slot a thing's noun names ("vehicle" of "bike", "care" of "GP")."""
    slot = HEAD_ATTRIBUTE.get(thing) or HEAD_ATTRIBUTE.get(thing.split()[-1])
    return None if slot is None else slot.split(":", 1)[0]


def holds_beside(reading: Reading, n: int, o: int) -> bool:
    """Whether the clause of a later statement that names its new value says it holds beside
    the earlier answer, whatever else it says: one more of its kind ("work gave me a Samsung
    as a separate work phone" beside "my personal phone is an iPhone 15"), within a context
    ("On FIFA I always play as Real Madrid", "for the etsy shop I use a virtual number"), or
    denied ("Martin Holloway is not my manager", "I am NOT moving to Leeds"; "Never going
    back to Vim, VS Code all the way" denies the earlier value, which it names), or one the
    speaker had before ("found my old BlackBerry Bold in a drawer", "someone texted my old
    number, 07700 118456"), or someone else's ("set my gran's broadband up with Plusnet",
    "grabbed some Whiskas for the neighbour's cat"), of another kind than the query asks
    for (`_of_another_kind`), or of another thing of the speaker's ("My bank is Monzo now"
    beside "My broadband is with BT": `_of_another_thing`)."""
    if _of_another_kind(reading, n, o):
        return True
    clause = value_clause(reading, n, o)
    if _of_another_thing(reading, clause, n, o):
        return True
    which = another_of_its_kind(clause)
    if which is not None and which not in reading.words[o]:
        return True
    if scoped(clause):
        return True
    theirs = [t.group("thing") for t in _THEIR_THING.finditer(clause)]
    if any(topic_words(t) & (reading.query_words | reading.values[n]) for t in theirs):
        # What the query asks about, or the new value, of someone else's: "set my gran's
        # broadband up with Plusnet" for "Who's my broadband provider?", "drove a friend's
        # Porsche 911" ("into my boyfriend's flat in Leeds" still says where the speaker
        # lives).
        return True
    new_values = reading.new_values(n, o)
    told_of = [
        m.group("content")
        for m in _MEDIA_CONTENT.finditer(clause)
        if not topic_words(m.group("medium")) & reading.query_words
    ]
    if new_values and all(any(v in values_in(t) for t in told_of) for v in new_values):
        # Every new name is what a book, a film or a song is about, which the speaker does
        # not have: "reading my niece a picture book about a dog called Clifford" for
        # "What's my dog called?" ("What book am I reading?" asks for just that).
        return True
    formers = _FORMER.finditer(reading.bodies[n])
    if any(v in values_in(former.group(0)) for former in formers for v in new_values):
        return True
    if reading.values[o] & (reading.values[n] | reading.words[n]):
        return False
    # The denial is said of a new name itself, not in an aside beside it ("Ended up
    # transferring to Manchester Met, it just wasn't working where I was") nor of a date
    # ("I haven't had any alcohol since January, it's sparkling water now").
    names = {v for v in new_values if kind_of(v) == "name"}
    return any(
        values_in(part) & names and _DENIED.search(part) is not None
        for part in _ASIDES.split(clause)
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


#: What a work tells of: "a picture book about a dog called Clifford", "a film set in Lisbon",
#: "a review of the new Kia EV9".
_MEDIA_CONTENT = re.compile(
    r"\b(?P<medium>(?:picture |story |comic |audio)?books?|novels?|films?|movies?|shows?|series|"
    r"cartoons?|songs?|stor(?:y|ies)|games?|articles?|videos?|podcasts?|documentar(?:y|ies)|"
    r"episodes?|plays?|musicals?|reviews?|ads?|adverts?|trailers?|unboxings?|posts?|threads?|"
    r"reels?|interviews?)\s+(?P<content>(?:about|called|named|titled|set in|featuring|where|"
    r"in which|of|for)\b[^,.;!?]*)",
    re.IGNORECASE,
)


#: Where an aside starts inside a clause.
_ASIDES = re.compile(r",|\s[\u2013\u2014-]\s")


#: A plain denial: "is not my manager", "NOT moving", "never had one". An end ("no longer",
#: "any more", "quit") is a change, read as one.
_DENIED = re.compile(r"(?:\b(?:not|never)\b|n't\b)(?!.*\bany ?more\b)", re.IGNORECASE)


def names_another_value(reading: Reading, n: int, o: int) -> bool:
    """Whether the later statement names a value of a kind the earlier names, and does not
    go on about the earlier's."""
    if not shared_kinds(reading.new_values(n, o), reading.values[o]):
        # A value of another kind answers another question: "I drive to work on Mondays"
        # says when, not what "I drive a VW Golf" says.
        return False
    # Naming the earlier value again, anywhere, goes on about it ("Took the Golf to
    # Halfords", "Alex's ex Jordan turned up"); a change that ends it is read as a change
    # (`displaces`). A number said again is no such name ("6 till 2", then "lates now, 2
    # till 10").
    return not earlier_names_said(reading, n, o)


def earlier_names_said(reading: Reading, n: int, o: int) -> frozenset[str]:
    """The names (not numbers or times) of the earlier statement's values that the later
    one says again, other than only to compare with ("Aviva wouldn't budge")."""
    said = (reading.values[n] | reading.words[n]) - reading.compared[n]
    return frozenset(v for v in reading.values[o] & said if kind_of(v) == "name")
