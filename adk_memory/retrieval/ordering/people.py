"""Whom two statements are about: the same person, so one may change the other.

"Ravi left Google" is about "my best friend Ravi"; "my brother just moved to Cardiff" is not
about where the speaker lives.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from adk_memory.extraction.cues import (
    HEDGES,
    THIRD_PERSON,
    TRADES,
    content_words,
    includes,
    is_relation,
    opens_clause,
    person_words,
    reported_about,
    singular,
    subject_words,
)
from adk_memory.retrieval.ordering.reading import Reading, topic_words, value_clause


def _known_as(who: frozenset[str], aliases: Mapping[str, frozenset[str]]) -> frozenset[str]:
    """`who` with the names and relations the speaker gave them elsewhere: a named person
    gains their relation ("priya" → "sister"); a relation alone gains its names."""
    named = [w for w in who if w in aliases and not is_relation(w)]
    sources = named or [w for w in who if w in aliases]
    return who.union(*(aliases[w] for w in sources))


def same_person(
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

    `aliases` (`Reading.aliases`) join a name to the relation it was given elsewhere:
    "Priya moved to Leeds" is about "my sister" once "My sister Priya" was said."""
    who_old = subject_words(older)
    about = reported_about(newer)
    if not who_old and _moves_the_speakers_thing(newer, older):
        return True
    if about is not None:
        if not who_old and _reports_the_speakers_thing(about, older):
            # "optician says my eyes have got worse, it's -3.25 in both now" after "my
            # glasses prescription is -2.50 in both eyes": the speaker's news, told by
            # whoever found it out.
            return True
        if (
            not who_old
            and subject_words(newer, possessed=True) <= TRADES
            and _MOVED_TO_AN_AMOUNT.search(about) is not None
            and _ELSEWHERE.search(_CLAUSE_END.split(about, maxsplit=1)[0]) is None
            and _reports_the_speakers_thing(about, older, pattern=_TRADES_THING)
        ):
            # "landlord just emailed saying rent goes up to 1,040" after "rent is 950 a
            # month": one who serves the speaker tells of the speaker's thing, however it
            # names it.
            return True
        # A report is about whom it reports on, never the speaker: "Tom told me he's at
        # Google now" is Tom's news, "My sister said her friend just moved" the friend's.
        return _names(who_old, about)
    who_new = subject_words(newer, possessed=True)
    if _DESCRIBED.match(newer):
        who_new -= _common_nouns_of(older)
    if not who_new:
        return not who_old or (naming and _names(who_old, newer))
    if not who_old and who_new <= TRADES and _acts_on_the_speakers_thing(newer, older):
        # "The landlord put the rent up to £1,300" after "My rent is £1,200": what someone
        # who serves the speaker does to the speaker's own thing is the speaker's news.
        return True
    if who_old:
        if who_new == {THIRD_PERSON} or who_new <= who_old or includes(who_new, who_old):
            return True
        return aliases is not None and _known_as(who_new, aliases) <= _known_as(who_old, aliases)
    # Whom the speaker's state names as company is not its subject: "my flatmate just moved
    # to Leeds" does not move "I rent a flat in Manchester with one flatmate".
    return THIRD_PERSON not in who_new and who_new <= _people_named(_COMPANY.sub(" ", older))


def _people_named(text: str) -> frozenset[str]:
    """`person_words` of whom `text` names: its relations, its names as it writes them (with
    a capital where it capitalises any: "I will always live in York" names no Will, "there's
    a robin in the garden" no Robin; "i work with ravi" may name Ravi), and whoever or
    whatever it opens on or calls by a name, in any case ("The cat is on Hill's c/d" is the
    cat's, "our cat is called pepper" Pepper's)."""
    words = person_words(text)
    if not any(c.isupper() for c in text):
        return words
    named = person_words(
        " ".join(
            [
                *_CAPITALISED.findall(text),
                *(m.group("who") for m in _OPENS_ON.finditer(text)),
                *_CALLED.findall(text),
            ]
        )
    )
    return frozenset(w for w in words if w in named or is_relation(w))


#: A capitalised word.
_CAPITALISED = re.compile(r"\b[A-Z][\w'-]*")
#: What a statement opens on, up to two words after an optional determiner: "The cat",
#: "Our cat pepper", "Football training", "The baby's nursery".
_OPENS_ON = re.compile(
    r"^\W*(?:(?:the|my|our|a|an|his|her|their)\s+)?"
    r"(?!(?:i|i'm|i've|i'd|i'll|we|we're|you|he|she|they|it|it's|there|there's|this|that)\b)"
    r"(?P<who>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)",
    re.IGNORECASE,
)
#: Whom a statement calls by a name: "called pepper", "named biscuit".
_CALLED = re.compile(r"\b(?:called|named)\s+([\w-]+)", re.IGNORECASE)


def _common_nouns_of(older: str) -> frozenset[str]:
    """The nouns a statement that capitalises its names writes in lower case as things of the
    speaker's (`_MY_OR_FOR`): common nouns in the speaker's own usage, never a name,
    whatever capital opening a later sentence gives them ("Breakfast is porridge these days"
    after "I have toast for breakfast", "Piano's on Thursdays now" after "My piano lessons
    are on Tuesdays"). A word after anything else may be a name's word too ("the crack of
    dawn", "Dawn's working at Lidl now"); a text written without capitals tells nothing ("i
    work with ravi"), and relations are people however they are written ("my landlord")."""
    if not any(c.isupper() for c in older):
        return frozenset()
    written = _MY_OR_FOR.findall(older)
    lower = {*written, *map(singular, written)}
    return frozenset(w for w in lower if not (is_relation(w) or opens_clause(w)))


#: A statement opening on what something is, not on what someone does: "Breakfast is
#: porridge these days", "Piano's on Thursdays now"; not "Grace is working at Superdrug",
#: "Cat's moved to Cardiff" (what a name's word does is a person's news).
_DESCRIBED = re.compile(
    r"^\W*[\w-]+(?:'s|\s+(?:is|are))\s+(?!(?:\w+ing|\w+ed|got|gone|left|been|had|done|"
    r"made|taken|took|become)\b)",
    re.IGNORECASE,
)
#: A word in lower case after "my", "our" or "for": a thing of the speaker's or what they
#: have a thing for ("my piano lessons", "toast for breakfast"). After another word it may
#: be a name's word as easily ("a sandy beach", "the crack of dawn", "a cat").
_MY_OR_FOR = re.compile(r"\b(?i:my|our|for)\s+([a-z][a-z-]*)(?![\w'])")


#: A reported clause opening with a thing of the speaker's, in lower case (a capital may be a
#: name: "Apparently our Jess is moving to Leeds").
_SPEAKERS_THING = re.compile(
    r"^\W*(?:my|our)\s+(?:(?:new|old)\s+)?(?P<thing>(?-i:[a-z])[\w-]*)", re.I
)
#: What one who serves the speaker reports, opening with a thing however it is named and what
#: it does ("saying rent goes up", "yesterday to say the rent goes up"): the landlord's news
#: of the rent is the speaker's rent.
_TRADES_THING = re.compile(
    r"^\W*(?:(?:yesterday|today|this morning|last night)\s+)?"
    r"(?:(?:saying|to say|says|said|that)\s+)*(?:(?:the|my|our)\s+)?"
    # The thing itself, what it does next: not one somewhere else or someone's ("rents round
    # here are going up", "rent on the 2-bed upstairs is 1,400", "the car he's selling").
    r"(?P<thing>(?-i:[a-z])[\w-]*)(?=\s+(?:is|are|was|goes|went|will|has|have|had|'s)\b)",
    re.I,
)
#: An amount moved to a figure, and nothing after it but when: "goes up to 1,040 from next
#: month", "is going down to £30"; not "up to 1,100 for two-beds", "up to 1,400 in the city
#: centre".
_MOVED_TO_AN_AMOUNT = re.compile(
    r"\b(?:up|down)\s+to\s+[£$€]?\d[\d,.]*k?(?:\s+(?:a|per)\s+(?:month|year|week))?"
    r"(?:\s+from\s+(?:next\s+)?[\w']+)?(?:\s+(?:wtf|lol|ugh|smh))*\s*(?:[,.;!?]+(?=\s|$)|$)",
    re.IGNORECASE,
)
#: Where the reported clause ends: punctuation before a space ("1,300" is one figure).
_CLAUSE_END = re.compile(r"[,.;!?](?=\s|$)")
#: Someone else's or somewhere else's: "for the new tenants upstairs", "next door", "his son".
_ELSEWHERE = re.compile(
    r"\b(?:he|she|his|her|him|they|their|them|tenants?|upstairs|downstairs|next door|"
    r"round here|around here|new|"
    # Or not yet: "will probably go up to 1,100 next year".
    r"will|would|might|may|could|probably|maybe|possibly)\b",
    re.IGNORECASE,
)
#: A thing of the speaker's moved to a new amount or value by whoever does it: "they've
#: raised my limit to £6,500", "the clinic upped my dose to 100mg", "HR moved my start time
#: to 10". Not a thing the speaker had before ("sold my old flat").
_MOVES_MY_THING = re.compile(
    r"\b(?:raised|upped|increased|lowered|cut|reduced|dropped|bumped|moved|changed|switched|"
    r"extended|put)\s+(?:up\s+|down\s+)?(?:my|our)\s+(?!(?:old|former|previous|ex)\b)"
    r"(?P<thing>(?-i:[a-z])[\w-]*(?:\s+(?!(?:up|down|back)\b)(?-i:[a-z])[\w-]*)?)\s+"
    r"(?:up\s+|down\s+|back\s+)?"
    r"(?:to|from)\b",
    re.IGNORECASE,
)
#: The same, moved by one who serves the speaker by trade and said as "the": "landlord's
#: put the rent up to £1,240" (`_moves_the_speakers_thing`).
_MOVES_THE_THING = re.compile(
    _MOVES_MY_THING.pattern.replace(r"(?:my|our)\s+", r"(?:the|my|our)\s+", 1), re.IGNORECASE
)
#: A likeness, not a value: "my nephew says my phone is basically a Nokia 3310 lol".
_LIKENESS = re.compile(
    rf"\b(?:{HEDGES}|like|as good as)\s+(?:a|an|the)\b",
    re.IGNORECASE,
)


def _reports_the_speakers_thing(
    clause: str, older: str, *, pattern: re.Pattern[str] = _SPEAKERS_THING
) -> bool:
    """Whether a reported clause tells of the very thing of the speaker's that an earlier
    statement of theirs is about: "my eyes" after "-2.50 in both eyes". Whoever "my spouse",
    "our Jess" or "my landlady" is, an earlier fact of the speaker's does not name them; and
    "my phone is basically a Nokia 3310" is only a likeness."""
    found = pattern.match(clause)
    if found is None or _LIKENESS.search(clause) is not None:
        return False
    thing = person_words(found.group("thing"))
    return bool(thing) and not any(map(is_relation, thing)) and thing <= person_words(older)


def _moves_the_speakers_thing(newer: str, older: str) -> bool:
    """Whether someone moves a thing the speaker's earlier statement is about to a new value,
    naming it as the speaker's: "Amex wrote to say they've raised my limit to £6,500" after
    "My credit card limit is £3,000". Whoever does it, the thing is the speaker's; and one
    who serves the speaker by trade moves the speaker's thing however it names it
    ("landlord's put the rent up to £1,240" after "rent's £1,150")."""
    things = _things(_MOVES_MY_THING, newer)
    if not things and subject_words(newer, possessed=True) <= TRADES:
        things = _things(_MOVES_THE_THING, newer)
    return bool(things) and not any(map(is_relation, things)) and things <= content_words(older)


def _thing_after(determiners: str) -> re.Pattern[str]:
    """A thing named after one of `determiners`, and the word after it ("the rent up")."""
    return re.compile(rf"\b(?:{determiners})\s+(?P<thing>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)", re.I)


#: A thing named after "the", "my" or "our": "put the rent up", "moved my driving lessons".
_DETERMINED = _thing_after("the|my|our")
#: The same after "my" or "our" only: a thing the speaker calls theirs.
_OWNED = _thing_after("my|our")
#: A thing already spoken of, moved or changed: "moved it to the 19th", "pushed them back",
#: "upping it to £950" (not "loves it").
_ACTS_ON_IT = re.compile(
    r"\b(?:mov|push|put|chang|cut|bring|brought|reschedul|cancel|extend|upp|up|rais|dropp|"
    r"lower|switch|swapp|shift|bump)(?:e|ed|es|s|ing|ting|ped|ping|led|ling)?\s+(?:it|them)\b",
    re.IGNORECASE,
)
#: Someone else's own, however it is named: "the flat he had", "the bank she uses".
_THEIRS = re.compile(r"\b(?:he|she|his|her|him|they|their|them|themselves)\b", re.I)


def _acts_on_the_speakers_thing(newer: str, older: str) -> bool:
    """Whether a statement has its subject act on a thing the speaker's earlier statement
    calls theirs ("landlord put the rent up to 1,300" after "my rent is 1,200") or on "it"
    ("The plumber moved it to the 19th" after "My boiler service is booked for the 12th");
    not "the mechanic drives a Tesla" after "I drive a VW Golf", nor a thing named as theirs
    ("the van he had")."""
    if _ACTS_ON_IT.search(newer) is not None:
        return True
    if _THEIRS.search(newer) is not None:
        return False
    return bool(_things(_DETERMINED, newer) & (_things(_OWNED, older) - TRADES))


def _things(pattern: re.Pattern[str], text: str) -> set[str]:
    """The content words of the things `pattern` finds in `text`."""
    return content_words(" ".join(m.group("thing") for m in pattern.finditer(text)))


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


def answers_about_one_person(reading: Reading, n: int, o: int) -> bool:
    """Whether a later answer and an earlier one are about the same person, enough to order
    them (`same_person` with `naming`)."""
    if _fills_asked_role(reading, n, o) or _of_the_asked_role(reading, n, o):
        return True
    if reading.ranked[n].record.subject != reading.ranked[o].record.subject and not (
        subject_words(reading.bodies[o])
    ):
        # The extractor filed them apart and the earlier is the speaker's: trust it ("My
        # flatmate is learning Italian, keeps practising on me" is not "I'm learning German").
        return False
    return same_person(
        value_clause(reading, n, o), reading.bodies[o], naming=True, aliases=reading.aliases
    )


#: Whom the speaker answers to at work, named: "I now report to Marcus", "report to a guy
#: called Marcus", "working under Dana now"; not "I report to the board every quarter".
_ANSWERS_TO = re.compile(
    r"\b(?:report(?:s|ing)?|answer(?:s|ing)?)\s+(?:directly\s+)?to\s+"
    r"(?:a\s+(?:guy|woman|man|lady|bloke|girl)\b|(?-i:[A-Z])[a-z]+)"
    r"|\bwork(?:s|ing)?\s+(?:for|under)\s+(?-i:[A-Z])[a-z]+",
    re.IGNORECASE,
)


def _of_the_asked_role(reading: Reading, n: int, o: int) -> bool:
    """Whether the earlier answer is about the very role the query asks about and the later is
    the speaker's own statement: "Helena left for a startup, so I now report to Marcus" after
    "My manager, Helena, is great about flexible hours" for "Who is my manager?" tells who
    the speaker's manager is now."""
    who_old = subject_words(reading.bodies[o])
    if not reading.asked_about or not who_old & reading.asked_about:
        return False
    if not who_old - reading.values[o] <= reading.asked_about:
        return False
    clause = value_clause(reading, n, o)
    if subject_words(clause, possessed=True):
        return False
    # The speaker's own statement must be about the role: named ("my new manager is…") or
    # said as whom the speaker answers to ("I now report to Marcus"), not "I manage two
    # juniors now" or "I'm mentoring a new grad called Tom".
    return bool(topic_words(clause) & reading.asked_about) or _ANSWERS_TO.search(clause) is not None


def _fills_asked_role(reading: Reading, n: int, o: int) -> bool:
    """Whether the later answer's subject is the very role the query asks about, alone or
    with its holder's name, and the earlier answer is the speaker's: "the new manager Bartek
    wants daily standups at 8:30" after "manager's Olumide, pretty chill guy" for "Who's my
    manager?" names the speaker's manager, not someone else's news."""
    if not reading.asked_about or subject_words(reading.bodies[o]):
        return False
    who = subject_words(value_clause(reading, n, o), possessed=True)
    return bool(who & reading.asked_about) and who <= reading.asked_about | reading.values[n]
