"""`LocalExtractor`: offline, deterministic fact extraction from what people said.

Precision first: a statement fills a slot ("I moved to Munich", "switched from Java to Go",
"my car is a Civic") only on explicit wording, and never when it is temporary ("this week"),
hypothetical ("if I moved"), a plan, a question, past, or an addition ("I also..."). Every
memory keeps the person's own words as its text (the clause they said); the slot only
annotates it, so a misparse cannot corrupt what is stored, and a later update supersedes the
one memory that holds both the words and the slot. Greetings, thanks, requests to the agent
and questions are not stored (a statement inside a question frame is). A long event (a pasted
log or document) becomes bounded excerpts that cite it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal

from adk_memory.extraction.base import ExtractionResult
from adk_memory.extraction.bounds import (
    ASIDE_BREAK,
    FIXED_TERM,
    NOT_YET_HERE,
    an_event,
    bounded_by_its_sentence,
    bounds_value,
    hedged_value,
    passing_only_in_how_it_came,
)
from adk_memory.extraction.chunking import LONG_TEXT_CHARS, chunk_text
from adk_memory.extraction.cues import (
    COUNT,
    HEDGES,
    KIN_WITHOUT_MY,
    RELATION_NOUNS,
    TRAILING_HEDGES,
    arrived,
    cues,
    displaced,
    left_behind,
    moved_thing,
    named_owner,
    names_someone_alone,
    recipient,
    scoped,
    subject_words,
)
from adk_memory.extraction.cues.tense import LASTS, SETS_NOW_AGAINST_BEFORE
from adk_memory.extraction.salience import is_small_talk, salient_part
from adk_memory.extraction.sentences import mask, split_clauses, split_sentences, unmask
from adk_memory.extraction.slots import (
    CATEGORY_OF,
    HEAD_ATTRIBUTE,
    OWN_ONES_QUALIFIERS,
    RIDDEN,
    SCOPE_MARK,
    another_ones_thing,
    before_why,
    category_match,
    category_of,
    category_predicate,
    head_attribute,
    is_single_valued,
    predicate_for_category,
    scoped_slot,
    slot_as_said,
    work_slot,
)
from adk_memory.extraction.values import (
    AMOUNT_SLOTS,
    IDENTITIES,
    NAMED_SLOTS,
    SAYS_WHAT_MINE_IS,
    hair_aspect,
    is_the_subject,
    names_a_value,
)
from adk_memory.model import Fact, InputEvent, Kind, Source
from adk_memory.text import as_typed

# A short lead-in before a colon: "Big news: we migrated ...", "Update - I moved ...". Words
# of the speaker's before a dash are the statement ("I moved to Leeds - still unpacking").
_LEAD_IN = re.compile(
    r"^(?:(?:[\w'!]+\s+){0,4}[\w'!]+\s*:"
    r"|(?!(?:i|i'm|i've|we|we're|we've|my|our)\b)(?:[\w'!]+\s+){0,4}[\w'!]+\s+-)\s+(?=\S)",
    re.IGNORECASE,
)
_HEDGE = re.compile(r"\b(i think|maybe|probably|perhaps|might|not sure|i guess)\b", re.I)
_FILLER = re.compile(
    r"^(?:(?:oh|well|so|yeah|yes|ok|okay|actually|btw|by the way|also|and|but|anyway|"
    r"honestly|now|these days|lately|recently|just so you know|fyi|hey|hi|um)[,!]?\s+)+",
    re.I,
)
_TRAILING = re.compile(
    # Whole words only: "Dr Okafor now" keeps its "for".
    r"\s*(?:,?\s*(?<!\w)(?:(?:as of|since|from|starting) )?(?:now(?: on)?|these days|"
    r"nowadays|anymore|any more|lately|recently|at the moment|currently|for now|though|too|"
    r"by the way|btw|going forward|in future|"
    # A hedge said after the value: "my rent is 1200 now apparently", "leeds now i suppose".
    rf"{TRAILING_HEDGES}|"
    r"as well|instead|at work|full[- ]time|yesterday|today|"
    r"last (?:week|month|year|weekend|night)|this (?:week|month|year)|"
    rf"(?:{COUNT}) (?:days?|weeks?|months?|years?) ago|"
    r"in (?:19|20)\d\d)\b)+\s*[.!]*$",
    re.I,
)
_ADVERBS = (
    r"now|still|usually|always|really|also|just|currently|actually|definitely|totally|"
    r"absolutely|generally|normally|typically|honestly|officially|finally|basically"
)
_ADVERB = re.compile(rf"^i (?:(?:{_ADVERBS}) )+", re.I)
_ADVERB_AFTER_BE = re.compile(rf"^(i'm|i am|we're|we are) (?:(?:{_ADVERBS}) )+", re.I)
# A value ends at a stop, a comma or a dash ("Moved to Nottingham - still got boxes"); a
# hyphen inside a word ("MX-5", "Mary-Jane") is part of it.
_OBJ = r"(?P<obj>(?:(?!\s-\s)[^.,;!?\u2013\u2014])+?)"
_END = r"\s*(?:[.,;!?\u2013\u2014]|-\s|$)"
_NEG_ADV = r"(?:no longer|not anymore|don'?t|do not|never|stopped|quit|gave up)"

#: A capitalised first name and maybe a surname, as the object group ("I'm Sam").
_NAME_OBJ = r"(?P<obj>(?-i:[A-Z][a-z]+(?: [A-Z][a-z]+)?))"

#: What is ridden as the speaker's own thing: one of a kind ("a Brompton", "an e-bike", "my
#: Vespa"), not the way ("the 73 bus", "the Northern line", "the same loop"), how ("a bit
#: slower", "a lot more"), whose ("my brother's KTM") or a ride of a moment.
_RIDDEN_THING = r"(?:an? |my )(?!(?:bit|lot|little|few|couple|fair bit)\b)(?![\w-]+'s?\b)"
#: What no one owns as their way about, or rides somewhere else's or on a screen: "an Uber
#: home", "a Lime bike", "a pony at the trekking centre", "an exercise bike at physio", "a
#: Harley in GTA".
_NOT_ONES_OWN_RIDE = re.compile(
    r"\b(?:bus|buses|train|tube|tram|metro\w*|subway|line|overground|underground|uber|lyft|"
    r"taxi|cab|lime|boris|santander|peloton|exercise bike|spin bike|wattbike|desk|horse|pony|"
    r"mare|donkey|camel|tandem|hired?|rented|borrowed|lift|elevator|escalator|rollercoaster|"
    r"at (?:the|a|an)|in (?:gta|mario|fortnite|the game)|on (?:shift|the track))\b",
    re.IGNORECASE,
)


def _named_in_lower_case(sentence: str, ridden: str) -> bool:
    """Whether what `ridden` (a statement of riding) rides may be a name written in lower
    case: in a text that capitalises no name ("i ride a trek fx 3", "I ride a ducati now"),
    a ride not said as one's own or as the thing ("riding my luck", "riding the wave") nor
    a way of speaking ("riding a wave of good luck", "riding high")."""
    return _CAPITALISED_NAME.search(sentence, 1) is None and _NOT_A_RIDE.search(ridden) is None


#: A capitalised word that is no pronoun "I": a name, where a text writes them so.
_CAPITALISED_NAME = re.compile(r"\b(?!I\b|I'(?:m|ve|d|ll)\b)[A-Z]")
#: Riding as a way of speaking, or a thing said as one's own or as the thing: "riding my
#: luck", "riding the wave", "riding a wave of relief", "riding high", "riding it out".
_NOT_A_RIDE = re.compile(
    r"\brid(?:e|es|ing)\s+(?:(?:my|our|the|this|that)(?!\s+(?:old|new)\b)|it|high|out|"
    r"a\s+wave|a\s+high)\b",
    re.IGNORECASE,
)
#: A kind of thing one rides, anywhere in the value: "a red e-bike with a basket", a dirt
#: bike, an MTB, a 125.
_A_RIDE = re.compile(
    r"\b(?:[\w-]*bikes?|bicycles?|motorcycles?|scooters?|mopeds?|fixies?|fixie|trikes?|"
    r"tricycles?|unicycles?|skateboards?|longboards?|hybrids?|hardtails?|tourers?|cruisers?|"
    r"mtb|bmx|\d{2,4}(?:\s?cc)?)\b",
    re.IGNORECASE,
)
#: A kind of thing one rides, said as the value: "an e-bike", "a Vespa scooter".
_RIDDEN_KIND = re.compile(
    r"\b(?:e-?bike|bike|bicycle|motorbike|motorcycle|scooter|moped)s?\W*$", re.IGNORECASE
)

# (pattern, predicate, polarity, kind). `{obj}` is the object group; patterns run on a
# sentence with leading filler removed, in order; the first match wins.
_RAW_PATTERNS: list[tuple[str, str, bool, Kind]] = [
    (r"^my name is {obj}$", "name", True, Kind.PROFILE),
    (r"^(?:my )?name's {obj}$", "name", True, Kind.PROFILE),
    (r"^(?:please )?call me {obj}$", "name", True, Kind.PROFILE),
    (r"^(?:everyone|people|friends) calls? me {obj}$", "name", True, Kind.PROFILE),
    (r"^i go by {obj}$", "name", True, Kind.PROFILE),
    # "I'm Sam" names the speaker only inside an introduction ("name?" is resolved by
    # `match_slot`): elsewhere a capitalised word after "I'm" is as often a nationality.
    (
        rf"^i(?:'m| am) {_NAME_OBJ}"
        # What follows a comma goes on about them: "I'm Priyanka by the way, most people
        # just say Priya".
        r"(?:,? (?:by the way|btw))?(?:,\s.*)?$",
        "name?",
        True,
        Kind.PROFILE,
    ),
    (r"^i(?:'m| am) (?P<obj>\d{1,3}) years? old$", "age", True, Kind.PROFILE),
    (r"^i (?:just )?turned (?P<obj>\d{1,3})$", "age", True, Kind.PROFILE),
    (
        r"^i(?:'ve| have)? ?(?:just |recently |finally )?(?:moved|relocated) "
        r"(?:from (?P<old>[^.,;!?]+?) )?(?:to|into) {obj}$",
        "lives_in",
        True,
        Kind.PROFILE,
    ),
    (
        r"^i(?:'m| am)? ?(?:now |currently )?(?:live|living|reside|residing|based) "
        r"(?:in|at) {obj}$",
        "lives_in",
        True,
        Kind.PROFILE,
    ),
    (r"^i (?:don'?t|do not|no longer) live in {obj}$", "lives_in", False, Kind.PROFILE),
    (r"^my (?:home|house|apartment|flat) is in {obj}$", "lives_in", True, Kind.PROFILE),
    (
        r"^i(?:'ve| have)? ?(?:just |recently )?(?:quit|left) (?:my job at |my role at |)"
        r"(?P<old>[^.,;!?]+?) (?:for|to join) (?:a (?:new )?(?:job|role|position) at )?{obj}$",
        "works_at",
        True,
        Kind.PROFILE,
    ),
    (
        r"^i(?:'m| am)? ?(?:now |currently |just )?(?:work|working|employed|started working) "
        r"(?:at|for) {obj}(?: as [^.,;!?]+)?$",
        "works_at",
        True,
        Kind.PROFILE,
    ),
    (
        r"^i(?:'ve| have)? ?(?:just |recently )?(?:joined|started (?:a (?:new )?job|working) at) "
        # Not a club, a gym, a choir or a class: "joined a running club" is no employer.
        # What the sentence goes on to call it counts ("joined Third Space, the gym by the
        # office"); "a new job at Google on the Maps team" is still a job.
        r"(?![^.;!?]*?\b(?:club|gym|choir|society|harriers|league|waitlist|waiting list)\b)"
        r"{obj}$",
        "works_at",
        True,
        Kind.PROFILE,
    ),
    (r"^i (?:no longer|don'?t) work (?:at|for) {obj}$", "works_at", False, Kind.PROFILE),
    (
        # Without "my job at", a name ("quit Google", "quit mcdonald's"), not a habit or a
        # place left for the day: "I quit smoking", "I left the gym early" and "quit the
        # sugary stuff" leave no employer.
        r"^i(?:'ve| have)? (?:quit|left) (?:my job at |my role at |"
        r"(?!(?:the|a|an|my|our|his|her|their|this|that|it|them|work|home|school|uni|"
        r"college|class|early|[a-z]+ing)\b)){obj}$",
        "works_at",
        False,
        Kind.PROFILE,
    ),
    (r"^i(?:'m| am)? ?(?:work|working) as (?:an? )?{obj}$", "job_title", True, Kind.PROFILE),
    (
        r"^i (?:took|got|accepted|started|landed) (?:a|the) (?:new )?(?:job|position|role) "
        r"(?:at|with) {obj}$",
        "works_at",
        True,
        Kind.PROFILE,
    ),
    (
        r"^(?:i'm|i am|we're|we are) (?:now )?(?:living |based |settled )?in (?:the |our |a )?"
        r"(?:new )?(?:(?:place|flat|house|apartment|home) in )?"
        r"(?P<obj>(?-i:[A-Z][\w-]+(?: [A-Z][\w-]+)?)) (?:now|these days|for good)\b",
        "lives_in",
        True,
        Kind.PROFILE,
    ),
    (
        r"^my (?:job|role|position|title|occupation) is (?:an? )?{obj}$",
        "job_title",
        True,
        Kind.PROFILE,
    ),
    (
        r"^i(?:'m| am) (?:now )?an? (?P<obj>[\w -]*?(?:engineer|developer|designer|manager|"
        r"teacher|nurse|doctor|student|scientist|analyst|consultant|architect|researcher|writer|"
        r"lawyer|accountant|programmer|artist|chef|counselor|counsellor|barista|technician|planner|"
        r"pilot|pharmacist|dentist|vet|electrician|plumber|freelancer|officer|librarian))"
        r"(?: (?:at|for|in) [^.,;!?]+)?$",
        "job_title",
        True,
        Kind.PROFILE,
    ),
    (
        r"^(?:i|we)(?:'ve| have)? ?(?:just |recently |finally |fully )?(?:switched|migrated|"
        r"moved|changed|transitioned|went) (?:over )?(?:everything |(?:my|our|the) [\w-]+ )?from "
        r"(?P<old>[^.,;!?]+?) "
        r"(?:to|over to) {obj}$",
        "uses",
        True,
        Kind.PREFERENCE,
    ),
    (
        r"^i(?:'ve| have)? ?(?:quit|dropped|ditched|gave up|stopped using) (?P<old>[^.,;!?]+?) "
        r"(?:for|in favou?r of) {obj}$",
        "uses",
        True,
        Kind.PREFERENCE,
    ),
    (r"^i(?:'ve| have)? replaced (?P<old>[^.,;!?]+?) with {obj}$", "uses", True, Kind.PREFERENCE),
    (
        r"^i (?:mostly |mainly |primarily |usually )?(?:write|code|program|develop) "
        r"(?:mostly |mainly |primarily )?(?:in )?{obj}$",
        "primary_language",
        True,
        Kind.PREFERENCE,
    ),
    (
        r"^my (?:main |primary |favou?rite )?(?:programming )?language is {obj}$",
        "primary_language",
        True,
        Kind.PREFERENCE,
    ),
    (
        r"^i (?:like|prefer|take|drink|have|want|enjoy|order) my (?P<item>[a-z][\w -]*?) "
        r"(?P<obj>(?:neat|straight|black|white|strong|weak|hot|cold|iced|rare|medium|well[- ]done"
        r"|on the rocks|with [^.,;!?]+|without [^.,;!?]+|[a-z]+ly|[^.,;!?]+))$",
        "prefers",
        True,
        Kind.PREFERENCE,
    ),
    (r"^my favou?rite (?P<item>[a-z][\w -]*?) is {obj}$", "favorite", True, Kind.PREFERENCE),
    (
        r"^i(?:'m| am) (?:severely |very |mildly )?allergic to {obj}$",
        "allergic_to",
        True,
        Kind.PROFILE,
    ),
    (r"^i(?:'m| am) (?:not|no longer) allergic to {obj}$", "allergic_to", False, Kind.PROFILE),
    (
        r"^i(?:'m| am) (?:not|no longer) (?:really |that )?(?:into|a (?:big |huge )?fan of) {obj}$",
        "likes",
        False,
        Kind.PREFERENCE,
    ),
    (r"^i bank with {obj}$", "bank", True, Kind.PROFILE),
    (
        r"^i(?:'m| am) (?:now )?(?:a )?"
        r"(?P<obj>vegetarian|vegan|pescatarian|keto|gluten[- ]free)$",
        "diet",
        True,
        Kind.PROFILE,
    ),
    (
        r"^i(?:'m| am) (?:now )?"
        r"(?P<obj>married|single|engaged|divorced|widowed|in a relationship)$",
        "relationship_status",
        True,
        Kind.PROFILE,
    ),
    (r"^i (?:speak|am fluent in) {obj}$", "speaks", True, Kind.PROFILE),
    (r"^i(?:'m| am) (?:currently |now )?learning {obj}$", "learning", True, Kind.PREFERENCE),
    (
        r"^i (?:have|own) an? (?P<obj>(?:dog|cat|parrot|rabbit|hamster|horse|fish|puppy|kitten)"
        r"[^.,;!?]*)$",
        "has_pet",
        True,
        Kind.PROFILE,
    ),
    (
        r"^i(?:'m| am) (?:a (?:big |huge )?fan of|into|obsessed with|passionate about) {obj}$",
        "likes",
        True,
        Kind.PREFERENCE,
    ),
    (
        r"^i (?:really |absolutely |also |still )?(?:like|love|enjoy|adore|prefer) {obj}$",
        "likes",
        True,
        Kind.PREFERENCE,
    ),
    (
        r"^i (?:really |absolutely |also |still |now |kind of )?(?:" + _NEG_ADV + " "
        r"(?:really )?(?:like|love|enjoy|want|drink|eat)|hate|dislike|can'?t stand|detest) {obj}$",
        "likes",
        False,
        Kind.PREFERENCE,
    ),
    (r"^i (?:mostly |mainly |usually )?use {obj}$", "uses", True, Kind.PREFERENCE),
    (r"^i(?:'m| am) (?:now )?using (?:an? |the |my )?{obj}$", "uses", True, Kind.PREFERENCE),
    (r"^i (?:earn|make) (?:about |around |roughly )?{obj}$", "salary", True, Kind.PROFILE),
    (r"^i drive (?:an? |the |my )?{obj}$", "vehicle", True, Kind.PROFILE),
    (r"^i(?:'m| am)? ?(?:now )?driving (?:an? |the |my )?{obj}$", "vehicle", True, Kind.PROFILE),
    # What one rides is no car: "I ride a Brompton to work now" leaves "I drive a VW Golf".
    # A thing, not where or with whom ("I ride with the Saturday club", "I ride to work").
    (r"^i ride " + _RIDDEN_THING + "{obj}$", RIDDEN, True, Kind.PROFILE),
    (r"^i(?:'m| am)? ?(?:now )?riding " + _RIDDEN_THING + "{obj}$", RIDDEN, True, Kind.PROFILE),
    (r"^i (?:now )?report (?:directly )?to {obj}$", "manager", True, Kind.PROFILE),
    (
        r"^my (?:manager|boss|line manager|team lead|supervisor) (?P<obj>(?-i:[A-Z][a-z]+))"
        r"(?= (?:is|was|has|does|says|and|just)\b)",
        "manager",
        True,
        Kind.PROFILE,
    ),
    (
        rf"^{_NAME_OBJ} is (?:now )?my (?:new )?(?P<head>"
        + "|".join(sorted((re.escape(h) for h in HEAD_ATTRIBUTE), key=len, reverse=True))
        + r")(?: now)?$",
        "head",
        True,
        Kind.PROFILE,
    ),
    (
        # Not "New gym is …" without "my": whose new one, and whether it is here yet ("New
        # car is a Tesla, delivery is the 28th", "sorted out Priya's laptop. New laptop is a
        # Lenovo") were weak evidence in two reviews (round 33). "my X's" is "is" only where
        # the value can say nothing else (`_contraction_says_is`): "My car's Bluetooth
        # stopped working" is a possessive.
        r"^my (?:current |new |main |primary |usual |regular )?(?P<head>"
        + "|".join(sorted((re.escape(h) for h in HEAD_ATTRIBUTE), key=len, reverse=True))
        + r")(?: there| here)?(?P<be> is|'s) (?:now |currently )?"
        r"(?P<article>an? |the |called |named )?{obj}$",
        "head",
        True,
        Kind.PROFILE,
    ),
    (r"^i (?:" + _NEG_ADV + r") (?:use|using) {obj}$", "uses", False, Kind.PREFERENCE),
]
_PATTERNS = [
    (
        re.compile(p.replace("{obj}", _OBJ).rstrip("$") + _END if p.endswith("$") else p, re.I),
        pred,
        pol,
        kind,
    )
    for p, pred, pol, kind in _RAW_PATTERNS
]

_RELATIVE = re.compile(
    r"\b(?:(?P<yesterday>yesterday)|last (?P<unit1>week|month|year|weekend)|"
    rf"(?P<n>{COUNT}) (?P<unit2>day|week|month|year)s? ago)\b",
    re.I,
)
_NUM = {
    **{"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6},
    **{"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12},
    # Vague counts, read as their usual size ("a few weeks ago": about three).
    **{"a couple of": 2, "a few": 3, "several": 3},
}
_DAYS = {"day": 1, "week": 7, "weekend": 7, "month": 30, "year": 365}


def resolve_relative_time(text: str, at: datetime) -> datetime:
    """When the text says something happened relative to `at` ("last month"), that moment."""
    match = _RELATIVE.search(text)
    if match is None:
        return at
    if match.group("yesterday"):
        return at - timedelta(days=1)
    if match.group("unit1"):
        return at - timedelta(days=_DAYS[match.group("unit1").lower()])
    raw = match.group("n").lower()
    count = _NUM.get(raw) or int(raw)
    return at - timedelta(days=count * _DAYS[match.group("unit2").lower()])


#: A value that is a name or an amount and nothing else: every word capitalised or a figure
#: ("Dr Ahmed", "Pixel 9", "£1,050", "Vets4Pets"), joined at most by "of", "and" or "&".
_NAME_OR_AMOUNT = re.compile(
    # Not a word made an adjective by a hyphen ("UK-wide", "NHS-funded", "Leeds-based") nor
    # a verb ("MOT'd").
    r"(?![\w'.,+]*(?:-[a-z]+|'d)\b)[A-Z0-9£$€][\w'.,+-]*"
    r"(?:\s+(?:(?![\w'.,+]*(?:-[a-z]+|'d)\b)[A-Z0-9£$€][\w'.,+-]*|of|and|&))*"
)
#: Said as what holds now: "My GP's Dr Ahmed now", "My laptop's a Dell XPS these days".
_NOW = r"(?:now|these days|nowadays|currently)\b"
#: The slots "my <head>'s <value> now" may fill, and what their value must look like there,
#: where "'s" may as well be "has", "is in" or "is at" ("my manager's Leeds now", "my
#: partner's Deloitte now", "my ride's an Uber now"): an amount of an amount ("my rent's
#: £1,050 now", not "my gym's £35 now"), a carer named with a title ("my GP's Dr Ahmed now",
#: not "my GP's Headingley now"), a thing the speaker has said as "a" or "the" one ("my
#: car's a Kia now", not "my car's SORN now", "my car's a PCP now"). No other slot: a job, a
#: home, an employer, a diet or a drink ("my job's WFH now", "my company's PLC now") says
#: what it is like, and a person or a gym named bare is as often a place or a firm.
_THINGS_HAD = frozenset({"vehicle", "vehicle:bike", "vehicle:motorbike", "laptop", "uses:phone"})
_CARERS = re.compile(r"(?:Dr|Doctor|Mr|Mrs|Ms|Miss|Prof)\.?\s+[A-Z]")
#: An acronym alone is no make ("a PCP", "an EV"), nor a write-off category ("a Cat S").
_AN_ACRONYM = re.compile(r"[A-Z]{2,4}|(?:Cat|Category) [A-Z]")


def _contraction_says_is(obj: str, slot: str, head: str, clause: str, *, article: bool) -> bool:
    """Whether "my <head>'s <obj>" in `clause` says what the head is (`AMOUNT_SLOTS`,
    `_CARERS`, `_THINGS_HAD`), said as what holds now right after it, in a clause not all in
    capitals (where a capital tells nothing): not "My car's Bluetooth stopped working", "My
    laptop's M1, still flies", "My car's MOT'd, now just need to tax it"."""
    if not _NAME_OR_AMOUNT.fullmatch(obj) or not re.search(r"[a-z]", clause):
        return False
    if not re.search(rf"'s\s+{_NOW}|{re.escape(obj)}\s+{_NOW}", clause, re.IGNORECASE):
        return False
    an_amount = re.match(r"[0-9£$€]", obj) is not None
    if slot in AMOUNT_SLOTS:
        return an_amount
    if slot.startswith("care:"):
        return _CARERS.match(obj) is not None
    return (
        slot in _THINGS_HAD
        and article
        and head.lower() != "ride"
        and not _AN_ACRONYM.fullmatch(obj)
        and not an_amount
    )


def _clean_object(value: str) -> str:
    value = _TRAILING.sub("", value.strip()).strip(" \"'")
    value = re.sub(r"^(?:the|my|a|an)\s+", "", value, flags=re.I)
    return value


def normalize_value(value: str) -> str:
    """Canonical form of an object for comparisons (case, articles, punctuation)."""
    value = re.sub(r"[^\w\s+#-]", " ", value.lower())
    value = re.sub(r"\b(the|a|an|my|our)\b", " ", value)
    return " ".join(value.split())


def display_name(author: str) -> str:
    return "User" if author.strip().lower() == "user" else author.strip()


def names_no_one(value: str) -> bool:
    """Whether a capitalised value after "I'm" says what someone is rather than what they
    are called: a nationality, a people or a faith."""
    return any(word.lower() in IDENTITIES for word in value.split())


#: "My (best) friend (Ravi) works at ...": a statement about someone else, its subject named.
#: A parent or grandparent goes without "my" too ("Mum moved to York").
_THIRD_PERSON = re.compile(
    rf"^(?:(?:my|our) (?P<np>(?:(?:best|old|new|older|younger|little|big|other|eldest|youngest|"
    rf"twin|ex-?)\s+)*(?:{RELATION_NOUNS}))|(?P<kin>{KIN_WITHOUT_MY}))"
    # The verb may be contracted onto the subject: "my husband's doing keto now".
    rf"(?:\s+(?P<name>(?-i:[A-Z][a-z]+)))?(?:\s+|(?='))"
    r"(?P<verb>[a-z']+)\b(?P<rest>.*)$",
    re.IGNORECASE,
)
_IRREGULAR = {"is": "am", "'s": "'m", "has": "have", "does": "do", "doesn't": "don't", "goes": "go"}
_INTRODUCTION = re.compile(
    r"^\W*(?:hi|hello|hey|hiya)\b|\bnice to meet\b|\bmy name\b|"
    r"\bintroduce\b|\bi'?m (?-i:[A-Z])[a-z]+,? (?:by the way|btw)\b",
    re.IGNORECASE,
)
#: A progressive verb ("I'm drinking tea now"): what is happening, not what holds.
_PROGRESSIVE = re.compile(
    r"\b(?:i'm|i am|we're|we are|i've been|we've been)\s+(?:\w+\s+)?\w+ing\b", re.I
)
_ASKS_NAME = re.compile(r"\b(?:your name|call you|who (?:are|is) (?:you|this|speaking))\b", re.I)


def _third_person(core: str) -> tuple[str, str] | None:
    """A statement about a named relation rewritten in the first person, with its subject:
    "my sister lives in Oslo" → ("sister", "i live in Oslo")."""
    match = _THIRD_PERSON.match(core)
    if match is None:
        return None
    verb = match.group("verb").lower()
    if verb == "'s" and re.match(r"\s+(?:just\s+|finally\s+)?\w+(?:ed|en)\b", match.group("rest")):
        # "my sister's moved to Leeds": has, not is.
        verb = "'ve"
    elif verb in _IRREGULAR:
        verb = _IRREGULAR[verb]
    elif verb.endswith("ies"):
        verb = verb[:-3] + "y"
    elif re.search(r"(?:ss|sh|ch|x|z)es$", verb):
        verb = verb[:-2]
    elif verb.endswith("s") and not verb.endswith("ss"):
        verb = verb[:-1]
    subject = " ".join((match.group("np") or match.group("kin")).lower().split())
    # A contracted verb joins its subject: "i've moved", "i'm doing".
    joiner = "" if verb.startswith("'") else " "
    return subject, f"i{joiner}{verb}{match.group('rest')}"


@dataclass(frozen=True)
class SlotMatch:
    """The slot a statement fills: `subject` is None for the speaker, else the relation the
    statement is about ("sister")."""

    predicate: str
    object: str
    polarity: bool
    kind: Kind
    replaces: str | None
    hedged: bool
    subject: str | None = None


def _core(sentence: str) -> str:
    core = _LEAD_IN.sub("", sentence.strip())
    core = _FILLER.sub("", core).strip()
    core = _ADVERB.sub("i ", core)
    core = _ADVERB_AFTER_BE.sub(r"\1 ", core)
    return _TRAILING.sub("", core)


def _matches(
    readings: Sequence[tuple[str | None, str]],
) -> list[tuple[str | None, re.Pattern[str], str, bool, Kind, re.Match[str]]]:
    """Every pattern match of every reading of a clause, in reading then pattern order."""
    found = []
    for subject, core in readings:
        for pattern, predicate, polarity, kind in _PATTERNS:
            m = pattern.match(core)
            if m is not None:
                found.append((subject, pattern, predicate, polarity, kind, m))
    return found


#: Whose a clause without a subject is ("Moved to Nottingham last month"): the speaker's,
#: as chat drops "I"; unknown after a sentence about someone else ("My brother's in a mess.
#: Moved back in with mum"); someone else's after they were named alone ("Ravi? Left Google").
DroppedSubject = Literal["speaker", "unknown", "someone"]
#: A clause opening with a verb a slot pattern reads after "I": its subject was dropped.
_DROPPED_SUBJECT = re.compile(
    r"^(?:(?:just|recently|finally|now|also|officially|actually|currently)\s+)*"
    r"(?:moved|relocated|live|living|based|work|working|started|joined|quit|left|took|got|"
    r"accepted|landed|switched|migrated|changed|transitioned|dropped|ditched|gave up|"
    r"stopped using|replaced|drive|ride|use|using|report|speak|bank|earn|make|turned)\b",
    re.IGNORECASE,
)
_SPEAKER_FIRST = re.compile(r"^\W*(?:i|i'm|i've|i'd|we|we're|we've|my|our)\b", re.IGNORECASE)


#: A thing of a place rather than the speaker's own: "coffee at work is Nescafé now", "rents
#: in Leeds went up to 1,400". Not of the speaker's place ("Rent on my flat went up to
#: 1,300", "Coffee at home is black now") nor the speaker's work ("Work at Google is great").
_A_PLACES_THING = re.compile(
    # A noun, not a verb: "Living in Leeds now and it is lovely" is the speaker's.
    r"^\W*(?:the\s+)?(?!(?:work|job)\b)(?![a-z]+(?:ing|ed)\b)[a-z]+\s+"
    r"(?:at|in|around|across|near|on)\s+"
    r"(?:(?!\b(?:my|our|mine|home|now|and)\b)[^,.;!?]){1,40}?"
    r"(?:'s|\s+(?:is|are|was|were|went|goes|go|has|have|had|got|gets|will|costs?|rose|fell))\b"
    r"(?!.*\bmine\b)",
    re.IGNORECASE,
)


#: The speaker, or a group of people the speaker belongs to, as what was moved.
_THE_SPEAKERS_GROUP = re.compile(
    r"^\W*(?:me|us|(?:(?:my|our|the) )?(?:whole )?(?:team|department|group|office|squad|unit))"
    r"\W*$",
    re.IGNORECASE,
)
#: A capitalised word: a name, so a value of its own rather than a thing moved.
_NAMED = re.compile(r"\b[A-Z]")


#: A way of speaking, not where the speaker lives or works: "I basically live at the office
#: these days", "I practically live at the gym".
_FIGURATIVE = re.compile(
    rf"\b(?:{HEDGES}|all but)\s+"
    r"(?:live|living|lives|work|working)\b",
    re.IGNORECASE,
)
#: An organisation changing a thing of its own ("The office switched energy supplier to EDF",
#: "The company moved email to Outlook"): the speaker's own supplier or address stays. Not
#: when it moves the speaker or a thing of theirs ("The company moved our team to a new
#: office", "Work upgraded my laptop to an M3"), nor the landlord, who acts on the speaker's
#: tenancy ("The landlord put the rent up to 1,350").
_AN_ORGANISATIONS_OWN = re.compile(
    r"^\W*(?:the\s+|our\s+|my\s+)?(?:office|company|firm|employer|work|school|uni|university|"
    r"college|council|hospital|building|business|organi[sz]ation|it department|club|church|"
    r"library|nursery|gym|caf[eé]|shop|store|restaurant|pub|bar|hotel|salon|supermarket|"
    r"venue|canteen|cafeteria)(?:\s+(?:at|in|near|by)\s+[\w-]+)?\s+"
    r"(?:(?:has|have|just|finally|recently|now)\s+)*"
    r"(?:switched|moved|changed|swapped|migrated|upgraded|downgraded|transferred|shifted)\s+"
    # Not the speaker or the speaker's things or group: "swapped all our laptops to MacBooks",
    # "switched the team to Pixels".
    r"(?!(?:(?:all|both|each|every one)\s+(?:of\s+)?)?(?:me|us|my|our|it|them|everyone|"
    r"everybody|all of us|the (?:whole )?team|staff|all staff)\b)",
    re.IGNORECASE,
)
#: Someone named by a noun changing what they serve: "the Airbnb host switched the coffee to
#: decaf".
_ANOTHER_MOVES_A_THING = re.compile(
    r"^\W*(?:the|a|an)\s+"
    # Not the landlord or the agent, who act on the speaker's tenancy, nor the household
    # ("the wife switched the broadband to BT", "the two of us changed the car").
    rf"(?!(?:landlord|landlady|letting agen\w*|estate agen\w*|missus|hubby|other half|"
    rf"two of us|{RELATION_NOUNS})\b)(?![^,.;]*\b(?:and|&) (?:me|i)\b)"
    # Nor a carer, who changes what the speaker has ("The GP switched the coffee to decaf"),
    # nor a time before the speaker ("A while back I switched the milk to oat").
    r"(?!(?:[\w'-]+\s+){0,2}?(?:doctor|gp|nurse|nutritionist|dietitian|dietician|consultant|"
    r"physio|trainer|coach|i|we)\b)"
    r"(?:[\w'-]+\s+){0,2}?[\w'-]+\s+(?:(?:has|have|just|finally|recently)\s+)*"
    r"(?:switched|moved|changed|swapped|upgraded|downgraded|transferred)\s+"
    # What a host serves, not the speaker's own things another acts on for them ("the
    # doctor switched the diet to low FODMAP", "the network upgraded the phone", "The
    # office swapped all our laptops to MacBooks").
    r"(?:the|a|an|their|his|her|its)\s+(?:[\w'-]+\s+){0,2}?"
    r"(?:coffee|tea|milk|drinks?|menu|breakfast|lunch|dinner|food|beans)\b",
    re.IGNORECASE,
)
#: A change that moves something other than the speaker to a value: "moved the toddler onto
#: a vegetarian diet", "switched the team coffee order to oat lattes"; not "switched to
#: decaf", "switched over to decaf" nor "put myself on a vegan diet".
_MOVES_SOMETHING_ELSE = re.compile(
    # A thing or a person named with "the", "a" or whose, not "got really into matcha".
    r"\b(?:switched|moved|changed|swapped|put|transferred|converted|got)\s+"
    r"(?:the|a|an|his|her|their|its|all|both)\s+"
    r"(?P<what>(?:[\w'-]+\s+){1,3}?)(?:to|onto|into|on)\b",
    re.IGNORECASE,
)
#: A thing of someone else's, by a possessive ("the kids' car seats", "Mum's Corsa"), or
#: people moved ("Switched the kids to Spotify Kids"): theirs, not the speaker's.
_ANOTHERS_POSSESSIVE = re.compile(r"\b(?!(?:it|that|what|there|here)'s\b)[\w-]+(?:'s|s')(?=\s|$)")
#: A thing of someone of the speaker's, before what it moved to: "Switched my husband's
#: coffee to decaf", "Got the kids' phones switched to Pixels".
_SOMEONES_THING_MOVED = re.compile(
    # A name's only past the first word: "Music's on Apple Music now" is no one's.
    rf"\b(?:(?i:{RELATION_NOUNS}|{KIN_WITHOUT_MY})|(?<=\s)[A-Z][a-z]+)(?:'s|s'|')\s"
)
#: People or animals of the speaker's moved: "Switched the kids to Spotify Kids", "switched
#: the dog to a vegan diet", "moved the toddler onto a vegetarian diet".
_PEOPLE = re.compile(
    rf"(?:{RELATION_NOUNS}|{KIN_WITHOUT_MY}|family|everyone|dogs?|cats?|pupp(?:y|ies)|"
    r"kittens?|toddlers?|bab(?:y|ies)|pets?|household)",
    re.IGNORECASE,
)
#: A plan or a tier of the same thing, not another one: "Upgraded my phone to the 5G plan",
#: "the family plan"; not another provider's ("a virgin package").
_A_TIER = re.compile(
    r"(?:\d|\b(?:unlimited|family|premium|basic|standard|pro|plus|student|duo|individual|"
    r"annual|monthly|yearly|cheaper|bigger|faster|slower|higher|lower|top|bottom|lite|"
    r"essential|starter)\b)[^,.;]*?\b(?:plan|package|tier|bundle|deal|contract|subscription|"
    r"membership|option|edition|level)s?\W*$",
    re.IGNORECASE,
)
#: A thing at the menders: whatever "died" or broke, it is not gone ("Laptop died, it's at
#: the Apple store being repaired").
_IN_REPAIR = re.compile(
    r"\b(?:(?<!was )(?<!were )being (?:repaired|fixed|mended|looked at)|"
    r"in for (?:a )?(?:repairs?|fixing|mending)|"
    r"(?:gone|sent|went) (?:off )?(?:for|to) (?:repair|be (?:repaired|fixed)))\b",
    re.IGNORECASE,
)


#: A move told of the thing moved: "my dentist appointment got moved to 9am", "My car
#: insurance moved to Admiral this year".
_PASSIVE_MOVE = re.compile(
    r"^\W*(?P<what>(?:[\w'-]+\s+){0,3}?[\w'-]+)\s+(?:(?:got|gets|was|were|has been|have been|"
    r"is being|'s been|been)\s+(?:switched|moved|changed|swapped|upgraded|transferred|"
    r"shifted|pushed|put|bumped)"
    r"|(?:has\s+)?(?:moved|switched|changed|went|transferred)(?=\s+(?:(?:over|up|down)\s+)?to\b))"
    r"\b",
    re.IGNORECASE,
)
#: What a thing that is not the speaker's is like: "the canteen menu is all vegetarian now".
_ANOTHER_THINGS_STATE = re.compile(
    r"^\W*(?:the|a|an|this|that|their|his|her|its|everything|everyone|(?:the\s+)?whole)\s+"
    r"(?!usual\b|regular\b)(?:[\w'-]+\s+){0,3}?"
    r"(?:is|are|was|were|'s|'re|has|have|went|goes)\b",
    re.IGNORECASE,
)


def _moved_something_else_to(text: str, value: str) -> bool:
    """Whether `value` is what a change moved other than the speaker's own, or where it
    moved it: a person or a pet ("moved the toddler onto a vegetarian diet"), or a thing
    named by whose or where it is ("switched the staff room coffee to Kenco", "the team
    coffee order"). Not the speaker's own thing ("switched the milk to oat", "the usual
    tea"), nor a value beside such a change ("I'm a green tea person now that I've got used
    to it")."""
    for m in _MOVES_SOMETHING_ELSE.finditer(text):
        what = m.group("what").split()
        anothers = any(_PEOPLE.fullmatch(w) for w in what) or (
            len(what) > 1 and what[0].lower() not in OWN_ONES_QUALIFIERS
        )
        near = f"{text[m.start() : m.end()]} {' '.join(text[m.end() :].split()[:4])}"
        if anothers and re.search(rf"\b{re.escape(value)}\b", near, re.IGNORECASE):
            return True
    return False


def _category_of_thing(thing: str) -> str | None:
    """The category of a thing by its name or by the noun it ends with: "the Golf" and "my
    old car" are vehicles, "coffee beans" no drink."""
    words = thing.split()
    if not words or _NAMED.search(thing):
        return category_of(thing)
    return category_of(words[-1])


#: A thing of the speaker's for work or study: "the work laptop", "my uni email".
_FOR_WORK = re.compile(
    r"^\W*(?:(?:my|our|the)\s+)?(?:work|office|company|uni|school|college)\s+[\w-]+\W*$",
    re.IGNORECASE,
)


def _a_places_value(text: str, thing: str) -> bool:
    """Whether the moved `thing` is a place's or a group's, a value word after another noun,
    not the speaker's: "switched the office coffee to decaf" changes what the office serves;
    not "the green tea" (a value itself) nor "my morning coffee"."""
    whose, _, value = thing.partition(" ")
    return (
        whose.islower()
        and whose not in OWN_ONES_QUALIFIERS
        and " " not in value
        and category_of(value) is not None
        and thing.lower() not in CATEGORY_OF
        and re.search(rf"\bthe\s+{re.escape(thing)}\b", text, re.IGNORECASE) is not None
    )


def _a_variant_of(thing: str, value: str) -> bool:
    """Whether `value` is a kind of the very thing moved, named by its noun: "Switched my bike
    to an e-bike" changes the bike, not the car the speaker drives."""
    nouns = {w for w in re.split(r"[\s-]+", thing.lower()) if category_of(w) is not None}
    return bool(nouns & set(re.split(r"[\s-]+", value.lower())))


def match_slot(
    sentence: str, *, introduction: bool = False, dropped: DroppedSubject = "speaker"
) -> SlotMatch | None:
    """The slot a first-person statement (or one about a named relation) fills, if its
    wording is explicit and lasting.

    Args:
        sentence: One clause a person said.
        introduction: Whether the clause is part of an introduction (a greeting, an answer
            to "what's your name?"): only then does "I'm Sam" name the speaker; elsewhere
            "I'm Dutch" or "I'm Tired" is not a name.
        dropped: Whose the clause is when it has no subject (`DroppedSubject`): only the
            speaker's fills a slot of the speaker's.
    """
    said = cues(sentence)
    if not said.lasting and not passing_only_in_how_it_came(sentence):
        return None
    if FIXED_TERM.search(sentence) and LASTS.search(sentence) is None:
        # "I work at Barclays now, the agency said it was a 3 month contract".
        return None
    if _FIGURATIVE.search(sentence):
        return None
    core = mask(_core(sentence))
    if scoped(core) or _A_PLACES_THING.match(core):
        return None
    readings: list[tuple[str | None, str]] = [(None, core)]
    if dropped == "speaker" and _DROPPED_SUBJECT.match(core):
        readings.append((None, f"i {core}"))
    third = _third_person(core)
    if third is not None:
        readings.append(third)
    for subject, _pattern, predicate, polarity, kind, m in _matches(readings):
        if predicate == "name?":
            if not introduction or subject is not None or names_no_one(m.group("obj")):
                continue
            predicate = "name"
        obj = _clean_object(unmask(m.group("obj")))
        if predicate == RIDDEN:
            # What is ridden, not why or since when: "a Cube e-bike now since it beats the
            # train", "an e-bike to work now".
            ridden = re.split(r"\s+and\s+", before_why(obj), maxsplit=1)[0]
            if _NOT_ONES_OWN_RIDE.search(ridden):
                continue
            obj = _clean_object(re.sub(r"\s+to (?:work|school|uni)\b.*$", "", ridden))
            if re.search(r"\b(?:ride|riding) my\b", m.group(0)) and _RIDDEN_KIND.fullmatch(obj):
                # "I ride my motorbike to work now": the one the speaker has, no new value.
                continue
            if not (
                _NAMED.search(obj)
                or _A_RIDE.search(obj)
                or _named_in_lower_case(sentence, unmask(m.group(0)))
            ):
                # What is ridden is a make or a kind of ride: "I'm riding my luck with this
                # knee" and "riding the wave" ride nothing.
                continue
        if not obj or len(obj) > 80 or len(obj.split()) > 8 or hedged_value(sentence, obj):
            continue
        groups = m.groupdict()
        slot = (
            HEAD_ATTRIBUTE[" ".join(groups["head"].lower().split())]
            if groups.get("head")
            else predicate
        )
        if (groups.get("be") or "").lower() == "'s" and not _contraction_says_is(
            obj, slot, groups["head"], sentence, article=bool(groups.get("article"))
        ):
            continue
        said_as = m.group(0).lower()
        says_mine = SAYS_WHAT_MINE_IS.match(said_as) is not None
        if (
            says_mine
            and re.search(r"(?: is|'s) (?:now )?an? ", said_as)
            and slot.split(":", 1)[0] in NAMED_SLOTS
        ):
            # "My company is a Google partner", "My manager is a nightmare": what kind, not
            # which.
            continue
        if says_mine and any(
            NOT_YET_HERE.search(part) and not an_event(part) for part in ASIDE_BREAK.split(sentence)
        ):
            # "My new phone is an iPhone 16 in September", "My new flat is in Harrogate, we
            # move in June".
            continue
        if says_mine and not names_a_value(obj, slot):
            # "My phone is at 2%", "My salary is a joke", "My name is mud after…": what the
            # thing is like or where it is, not which one it is.
            continue
        old = _clean_object(unmask(groups["old"])) if groups.get("old") else None
        pred = slot
        if groups.get("item"):
            pred = f"{predicate}:{normalize_value(_clean_object(groups['item']))}"
        elif predicate == "uses":
            pred = category_predicate(normalize_value(obj), normalize_value(old or ""))
        if pred == "hair":
            pred = hair_aspect(obj)
        pred = slot_as_said(pred, obj, ASIDE_BREAK.split(sentence)[0])
        if said.additive and is_single_valued(pred) and old is None:
            # "I also work at X" adds a value beside the known one; it displaces nothing.
            return None
        return SlotMatch(
            predicate=pred,
            object=obj,
            polarity=polarity,
            kind=kind,
            replaces=normalize_value(old) if old else None,
            hedged=False,
            subject=subject,
        )
    return None


def match_change(sentence: str, *, dropped: DroppedSubject = "speaker") -> SlotMatch | None:
    """A change stated in words no slot pattern knows ("Traded in the Golf for an e-bike",
    "Switched to decaf after the doctor's visit"): what it displaces, explicitly named, and
    what it moves to, with the slot inferred from the values' category. None when the
    statement names neither, or is temporary, hypothetical, past or additive, or has no
    subject after someone else was named alone (`dropped`)."""
    said = cues(sentence)
    if not said.lasting or said.additive:
        return None
    text = unmask(_core(sentence))
    if dropped == "someone" and not _SPEAKER_FIRST.match(text):
        return None
    if (
        _A_PLACES_THING.match(mask(text))
        or _AN_ORGANISATIONS_OWN.match(text)
        or _ANOTHER_MOVES_A_THING.match(text)
        # A thing mislaid: "Left my pixel in the taxi".
        or left_behind(text)
    ):
        return None
    if _third_person(mask(text)) is not None:
        return None
    if recipient(text) is not None:
        # What the speaker got someone else is theirs: "Bought my dad an iPhone 15".
        return None
    if named_owner(text) is not None:
        # A named person's thing is theirs: "Emma's rent went up to 1500" is no change of
        # the speaker's rent.
        return None
    old = displaced(text)
    new = arrived(text)
    thing = moved_thing(text)
    if (
        any(_ANOTHERS_POSSESSIVE.search(v) for v in old)
        or (thing is not None and (_PEOPLE.fullmatch(thing) or _a_places_value(text, thing)))
        or _SOMEONES_THING_MOVED.search(re.split(r"\b(?:to|for|with|into)\b", text, maxsplit=1)[0])
    ):
        # "Swapped the kids' car seats to Maxi-Cosi", "Switched the kids to Spotify Kids".
        return None
    if (
        thing is not None
        and new is not None
        and _a_variant_of(thing, new)
        and not _NAMED.search(text[text.find(new) :])
    ):
        # "Switched my bike to an e-bike"; not "Upgraded my MacBook Air to a MacBook Pro".
        return None
    moved_kind = head_attribute(thing, ending=True) if thing else None
    new_kind = predicate_for_category(category_of(new)) if new else None
    if moved_kind and new_kind and moved_kind.split(":")[0] != new_kind.split(":")[0]:
        # Moved into a thing of another slot: "moved my salary over to Monzo" is where it is
        # paid, no new salary and no new bank of the speaker's.
        return None
    if thing is not None and new is not None and _A_TIER.search(new) and not _NAMED.search(new):
        # A plan or a tier of the same thing: "Upgraded my broadband to the 900Mb package".
        return None
    if (
        not old
        and thing
        and head_attribute(thing) is None
        and not _NAMED.search(thing)
        and not (
            category_of(thing, specific=True) is not None
            and not (new and (re.search(r"[A-Z0-9@£$€]", new) or category_of(new)))
        )
    ):
        # "moved our standup to 10:15" displaces what was said of the standup, "switched
        # broadband to a virgin package" what was said of the broadband; "Upgraded my Spotify
        # to the family plan" keeps Spotify, and "upgraded the macbook to sonoma" names no
        # value the macbook gave way to.
        old = [thing]
    category = category_of(new) if new else None
    # Whether the value must be checked to name one (`names_a_value`): a slot from a noun of
    # the statement, or from a plain word inside the value ("the multi-storey car park").
    named_by_noun = bool(new and category and category_of(new, specific=True) is None)
    category = category or (_category_of_thing(" ".join(old)) if old else None)
    predicate = predicate_for_category(category)
    if predicate == "vehicle" and new and _RIDDEN_KIND.search(new):
        # "Switched to an e-bike": what is ridden, not the car.
        predicate = RIDDEN
    if predicate is not None and any(_FOR_WORK.match(t) for t in [*old, thing or ""]):
        # "swapped my work laptop for a Dell", "IT moved the work laptop to a MacBook": the
        # laptop at work.
        predicate = scoped_slot(predicate, "at work")
    if predicate is None and new:
        passive = _PASSIVE_MOVE.match(text)
        if (
            passive is not None
            and not _THE_SPEAKERS_GROUP.match(passive.group("what"))
            and not re.fullmatch(r"(?:i|we|we've|i've)", passive.group("what"), re.IGNORECASE)
        ):
            # What "got moved" ends with is what moved: "my dentist appointment got moved to
            # 9am" moves the appointment, "I got moved to the Leeds office" the speaker, "The
            # office rent got put up" the office's rent.
            # "Rent at my place went up to £1,300": the rent, not the place.
            what = re.split(r"\s+(?:at|on|in|for|of)\s+", passive.group("what"))[0]
            predicate = None if another_ones_thing(what) else head_attribute(what, ending=True)
        elif thing is None or _THE_SPEAKERS_GROUP.match(thing) is not None:
            # The speaker or the speaker's team moved is the speaker's place moved: "The
            # company moved our team to a new office by the Isar"; a team's is where they
            # work, not whom for.
            predicate = head_attribute(text)
            if predicate is not None and thing is not None:
                predicate = work_slot(predicate, new, a_group_moved=True)
        else:
            # The slot whose noun the moved thing ends with: "Switched my car insurance to
            # Admiral" moves the insurance, not the car; "Moved my dentist appointment to
            # Friday" the appointment, not the dentist; "Changed my Netflix email to…" the
            # service's login, not the speaker's address; "Upgraded my phone to the 5G plan"
            # the plan, not the phone.
            if not another_ones_thing(thing):
                predicate = head_attribute(thing, ending=True)
            elif _FOR_WORK.match(thing):
                # "IT swapped the work laptop for a MacBook Pro": the laptop at work.
                predicate = scoped_slot(head_attribute(thing, ending=True) or "", "at work")
                predicate = predicate if SCOPE_MARK in predicate else None
        named_by_noun = True
    if predicate is None and not old and not new and said.change and not _PROGRESSIVE.search(text):
        # "I'm an oat latte person now", "it's matcha every morning now": a specific value of
        # a one-at-a-time category, said as a lasting change, moves that slot ("I'm drinking
        # tea now" is a moment, "my bike" names no value).
        found = category_match(text, specific=True)
        if (
            found is not None
            # Not the value something else was moved to: "moved the toddler onto a
            # vegetarian diet", "switched the staff room coffee to Kenco".
            and not _moved_something_else_to(text, found[0])
            and predicate_for_category(found[1]) is not None
            and not is_the_subject(found[0], text)
            and not _ANOTHER_THINGS_STATE.match(text)
        ):
            new, predicate = found[0], predicate_for_category(found[1])
    if not old and predicate is None:
        return None
    if new and (
        hedged_value(text, new)
        or (predicate is not None and named_by_noun and not names_a_value(new, predicate))
    ):
        # "Switched to herbal tea for Lent" is a bound; "Moved my car to the multi-storey" or
        # "Switched my phone to dark mode" names where or how the thing is, not which it is.
        return None
    return SlotMatch(
        predicate=(
            slot_as_said(predicate, new or "", ASIDE_BREAK.split(sentence)[0])
            if predicate
            else "change"
        ),
        object=_clean_object(new) if new else "",
        polarity=True,
        kind=Kind.PREFERENCE,
        replaces=normalize_value(old[0]) if old else None,
        hedged=False,
    )


#: Who did it, named after what they did ("Moved to Bristol, my best mate. Gutted.").
_NAMED_AFTER = re.compile(
    rf",\s*(?:my|our)\s+(?:[\w-]+\s+){{0,2}}?(?:{RELATION_NOUNS})\W*$", re.IGNORECASE
)


def _dropped_subject(before: str, sentence: str) -> DroppedSubject:
    """Whose `sentence` is if it has no subject, given the sentence `before` it in the same
    message (`DroppedSubject`)."""
    lead = _LEAD_IN.match(sentence.strip())
    if (
        names_someone_alone(before)
        or (lead is not None and names_someone_alone(lead.group(0)))
        or _NAMED_AFTER.search(sentence)
    ):
        return "someone"
    if before and subject_words(before):
        return "unknown"
    return "speaker"


#: A short statement that names its thing only by pointing back: "mines a 2017", "learning
#: it on duolingo". The thing is named in the question before it. Not "one", which names
#: another of a kind ("is the iphone 15 worth it? I have an old one").
_POINTS_BACK = re.compile(
    r"^(?=(?:\W*[\w'-]+){1,12}\W*$)(?:.*\b(?:it|mine|mines|mine's|them)\b)",
    re.IGNORECASE,
)


def _points_into_question(before: str, kept: str) -> bool:
    """Whether `kept`, said right after the question `before` (dropped as asking), names
    what it is about only by pointing back into that question, and is the speaker's own:
    "my partner's doing it" after "is italian hard to learn?" says nothing of the
    speaker's, and "just bought a Hilux, mine's a 2019" names its own thing. A question
    that weighs or plans ("how often should a ute be serviced?") would make the statement
    read as a maybe, and one about now elsewhere ("how's the rent in Bristol these days?
    mine's gone up again") as the speaker's change, so they are left out."""
    return (
        before.rstrip().endswith("?")
        and _POINTS_BACK.match(kept) is not None
        and not subject_words(kept)
        and _CAPITALISED_NAME.search(kept, 1) is None
        and not cues(before.rstrip(" ?")).hypothetical
        and SETS_NOW_AGAINST_BEFORE.search(before) is None
    )


#: The longest event a displacement-only change absorbs into its memory.
_ABSORB_CHARS = 400


def _merge_change(slots: Sequence[SlotMatch | None]) -> SlotMatch | None:
    """One slot for a sentence whose clauses name a displaced value and at most one new slot
    ("My old boss retired, so I report to Dana now"); None when there is no displacement or
    several slots to keep apart."""
    found = [slot for slot in slots if slot is not None]
    changes = [slot for slot in found if slot.predicate == "change"]
    others = [slot for slot in found if slot.predicate != "change"]
    if not changes or len(others) > 1 or (len(found) == 1 and len(slots) == 1):
        return None
    if not others:
        return changes[0]
    slot = others[0]
    if slot.replaces is None:
        slot = replace(slot, replaces=changes[0].replaces)
    return slot


class LocalExtractor:
    """Deterministic offline extractor (the embedded default).

    Args:
        slot_confidence: Confidence of an explicit slot statement.
        episodic_confidence: Confidence of an episodic memory (verbatim words).
        hedge_factor: Multiplier for hedged statements ("I think", "maybe").
    """

    def __init__(
        self,
        *,
        slot_confidence: float = 0.9,
        episodic_confidence: float = 0.8,
        hedge_factor: float = 0.85,
    ) -> None:
        self.slot_confidence = slot_confidence
        self.episodic_confidence = episodic_confidence
        self.hedge_factor = hedge_factor

    async def extract(self, events: Sequence[InputEvent]) -> ExtractionResult:
        return ExtractionResult(facts=self.extract_sync(events))

    def extract_sync(self, events: Sequence[InputEvent]) -> list[Fact]:
        """The facts of a batch, in order; agent turns are context only."""
        with_agent = any(not e.is_human for e in events)
        facts: list[Fact] = []
        previous: InputEvent | None = None
        # Read (and kept) with typed apostrophes: "I’ve moved to York" is "I've moved to York".
        for event in (e.model_copy(update={"text": as_typed(e.text)}) for e in events):
            if event.is_human:
                facts.extend(self._from_event(event, previous, with_agent=with_agent))
            previous = event
        return facts

    def _from_event(
        self, event: InputEvent, previous: InputEvent | None, *, with_agent: bool
    ) -> list[Fact]:
        speaker = display_name(event.author)
        if len(event.text) > LONG_TEXT_CHARS:
            return self._excerpts(event, speaker)
        source = Source(session_id=event.session_id, event_ids=[event.id])
        introduction = bool(_INTRODUCTION.search(event.text)) or (
            previous is not None
            and not previous.is_human
            and bool(_ASKS_NAME.search(previous.text))
        )
        facts: list[Fact] = []
        remainder: list[str] = []
        #: Every kept piece of the event in order, with the fact it became (None: episodic).
        pieces: list[tuple[str, Fact | None]] = []
        before, before_kept = "", True
        in_repair = _IN_REPAIR.search(event.text) is not None
        sentences = split_sentences(event.text)
        for at, sentence in enumerate(sentences):
            # The sentence after may bound what this one says ("I drive a Kia now 🚗 mine's
            # in the body shop till next week").
            following = split_clauses(sentences[at + 1]) if at + 1 < len(sentences) else []
            dropped = _dropped_subject(before, sentence)
            kept = salient_part(sentence, addressed_to_agent=with_agent)
            if (
                kept is not None
                and not before_kept
                and (dropped == "someone" or _points_into_question(before, kept))
            ):
                # "Ravi? Left Google.": the name asked alone stays with what they did; and
                # "service interval on a vw golf? mines a 2017" keeps the question that names
                # what "mine" is.
                kept = f"{before} {kept}"
            before, before_kept = sentence, kept is not None
            if kept is None:
                continue
            clauses = split_clauses(kept)
            slots = [
                None
                if bounded_by_its_sentence(kept, clauses, i)
                else match_slot(c, introduction=introduction, dropped=dropped)
                or match_change(c, dropped=dropped)
                for i, c in enumerate(clauses)
            ]
            slots = [
                None
                if slot is not None
                and slot.object
                and LASTS.search(kept) is None
                and (
                    any(
                        bounds_value(later, slot.object, slot.predicate, same_sentence=True)
                        for later in clauses[i + 1 :]
                    )
                    or any(
                        bounds_value(later, slot.object, slot.predicate, same_sentence=False)
                        for later in following
                    )
                )
                else slot
                for i, slot in enumerate(slots)
            ]
            if in_repair:
                # A thing at the menders is not gone, only out of use for a while.
                slots = [None if slot is not None and not slot.object else slot for slot in slots]
            if not any(slots):
                remainder.append(kept)
                pieces.append((kept, None))
                continue
            merged = _merge_change(slots)
            if merged is not None:
                # "The Civic got totalled, so I'm driving a Mazda 3 now": one memory holds
                # what was displaced and what replaced it, in the person's words.
                fact = self._slot_fact(event, speaker, kept, merged, source)
                facts.append(fact)
                pieces.append((kept, fact))
                continue
            for clause, slot in zip(clauses, slots, strict=True):
                if slot is None:
                    if not is_small_talk(clause):
                        remainder.append(clause)
                        pieces.append((clause, None))
                else:
                    fact = self._slot_fact(event, speaker, clause, slot, source)
                    facts.append(fact)
                    pieces.append((clause, fact))
        changes = [f for f in facts if f.predicate == "change"]
        if remainder and len(changes) == 1 and len(facts) == 1:
            # A change that names only what it displaces ("We lost Biscuit in May.") keeps
            # the rest of a short event ("We adopted a greyhound named Pepper.") in the same
            # memory: the words that say what holds now stay beside what ended.
            text = " ".join(piece for piece, _ in pieces)
            if len(text) <= _ABSORB_CHARS:
                return [changes[0].model_copy(update={"text": f"{speaker}: {text}"})]
        if remainder:
            facts.append(self._episodic(event, speaker, " ".join(remainder), previous))
        return facts

    def _slot_fact(
        self, event: InputEvent, speaker: str, clause: str, slot: SlotMatch, source: Source
    ) -> Fact:
        subject = speaker.lower() if slot.subject is None else f"{speaker.lower()}'s {slot.subject}"
        return Fact(
            subject=subject,
            predicate=slot.predicate,
            object=slot.object,
            text=f"{speaker}: {clause}",
            confidence=self.slot_confidence,
            valid_at=resolve_relative_time(clause, event.timestamp),
            recorded_at=event.timestamp,
            kind=slot.kind,
            polarity=slot.polarity,
            replaces=slot.replaces,
            author=event.author,
            source=source,
        )

    def _episodic(
        self, event: InputEvent, speaker: str, text: str, previous: InputEvent | None
    ) -> Fact:
        source = Source(session_id=event.session_id, event_ids=[event.id])
        body = f"{speaker}: {text}"
        # A short reply means little without the agent's question ("Berlin." to "Where do
        # you live?"); keep the question as context and cite it.
        if (
            previous is not None
            and not previous.is_human
            and len(text.split()) <= 6
            and previous.text.strip().endswith("?")
        ):
            question = split_sentences(previous.text)[-1]
            body = f'{speaker} (asked "{question}"): {text}'
            source = Source(session_id=event.session_id, event_ids=[previous.id, event.id])
        hedged = bool(_HEDGE.search(text))
        return Fact(
            subject=speaker.lower(),
            predicate="said",
            object="",
            text=body,
            confidence=round(self.episodic_confidence * (self.hedge_factor if hedged else 1.0), 4),
            valid_at=resolve_relative_time(text, event.timestamp),
            recorded_at=event.timestamp,
            kind=Kind.EPISODIC,
            author=event.author,
            source=source,
        )

    def _excerpts(self, event: InputEvent, speaker: str) -> list[Fact]:
        """A long event as bounded excerpts, each citing the event."""
        source = Source(session_id=event.session_id, event_ids=[event.id])
        chunks = chunk_text(event.text)
        return [
            Fact(
                subject=speaker.lower(),
                predicate="excerpt",
                object="",
                text=f"{speaker} (excerpt {i} of {len(chunks)}): {chunk}",
                confidence=self.episodic_confidence,
                valid_at=event.timestamp,
                recorded_at=event.timestamp,
                kind=Kind.EPISODIC,
                author=event.author,
                source=source,
            )
            for i, chunk in enumerate(chunks, start=1)
        ]


__all__ = [
    "DroppedSubject",
    "LocalExtractor",
    "SlotMatch",
    "display_name",
    "match_change",
    "match_slot",
    "names_no_one",
    "normalize_value",
    "resolve_relative_time",
    "split_clauses",
    "split_sentences",
]
