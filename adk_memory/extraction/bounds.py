"""Whether a passing moment, a span or a context bounds what a clause says: "car's in the
garage till Friday, so I'm driving a hire Corsa", "I'm living in Lisbon for the winter",
"I drive a Kia now, mine's in the body shop till next week". A bounded value is no evidence
that the usual one is gone, so it fills no slot; a passing moment that is the speaker's own
("I work at Google now, I'm on holiday till Monday") or tells how the value came ("got it on a
trip to Manchester") bounds nothing.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from adk_memory.extraction.cues import (
    KIN_WITHOUT_MY,
    RELATION_NOUNS,
    TITLES,
    content_words,
    cues,
)
from adk_memory.extraction.cues.tense import IRREGULAR, LASTS, MONTHS, WEEKDAYS
from adk_memory.extraction.slots import category_of, head_attribute, predicate_for_category
from adk_memory.extraction.values import PEOPLE_SLOTS

#: Words that open a span a state holds for ("while Sarah's off", "until the baby's born").
_BOUND_WORDS = "during|until|till|til|while|whilst"
#: A condition a value holds under, said in the present: "when it's icy out", "whenever I'm
#: in London", "if I'm at the office". Not a time told in the past ("when I got the job"),
#: nor where the speaker is not ("when I'm not at my boyfriend's").
_CONDITION = (
    r"(?:when|whenever|if|unless)\s+(?:it|i|we|there|the\s+\w+)"
    r"(?:'s|'m|'re|\s+(?:is|am|are|gets?|needs?|have|has|feel|go|goes|can't|don't|doesn't))\b"
    # Not where the speaker is not: "I live in Manchester now when I'm not at my
    # boyfriend's" says where they live.
    r"(?!\s+not\b)"
)
#: A hedge on how long the value itself lasts, or a bound on where it holds ("I'm living at
#: Tom's in Harrogate for now", "I'm living in Lisbon for the winter"): it may hold, but it is
#: no evidence that the usual value is gone, so it fills no slot. Not a hedge on something
#: else ("I work at Google now, loving it for the moment").
_TENTATIVE = re.compile(
    r"\b(?:for (?:now|the moment|the time being)"
    # A span or a context that bounds the value: "in Lisbon for the winter", "Dr Shah for the
    # root canal", "Tom during the reorg", "Dubai on a six-month contract", "decaf until the
    # baby's born", "halls this term", "at my boyfriend's most nights", "Chrome for work only".
    rf"|{_BOUND_WORDS}"
    r"|this (?:term|semester|season|winter|summer|spring|autumn|month|year)"
    r"|most nights|most (?:days|weekends)(?!\s+now)"
    r"|for (?:a |an |the |this |my )?(?:[\w-]+ ){0,2}(?:project|contract|reorg|winter|summer|"
    r"spring|autumn|term|semester|season|trip|holiday|treatment|procedure|root canal|charity|"
    r"lent|ramadan|pregnancy|audit|handover|transition|launch|migration|crunch|half[- ]term)"
    r"|at (?:the )?weekends?"
    # Days of the week it holds on, or a condition it holds under: "the SU bar on Fridays",
    # "an old Raleigh when it's icy out", "a ThinkPad if I'm in the office".
    rf"|on (?:{WEEKDAYS}s|weekdays|weekends|alternate \w+)"
    # Some days of each week only: "the London HQ two days a week", "every other Friday".
    r"|(?:one|two|three|four|[1-4]) (?:days?|mornings?|evenings?|nights?) a week"
    r"|(?:once|twice) a (?:week|fortnight|month)|every other \w+"
    rf"|{_CONDITION}"
    # What a photo or a pool shows, not the hair: "short in my passport photo", "green from
    # the chlorine", "grey underneath the dye".
    r"|in (?:my|the|all the|all my|these|those) (?:[\w-]+ ){0,2}"
    r"(?:photos?|pics?|pictures?|selfies?)"
    r"|from the (?:chlorine|sun|pool|sea)|underneath|it was spray|wash-in"
    r"|on (?:a |an |the |this )(?:[\w-]+ ){0,2}(?:project|contract|secondment|placement|"
    r"assignment)"
    r"|for \w+ only|only for|for (?:quick|some|certain|special|occasional)\b)\b",
    re.IGNORECASE,
)
_WAS = re.compile(r"\b(?:was|were)\b", re.IGNORECASE)
#: A clause told as an event ("The Civic died on holiday in Wales", "Met the founders at a
#: conference"): what it says happened, not a state that lasts only a while.
_TOLD_AS_EVENT = re.compile(
    rf"\b(?!(?:need|speed|bed|shed|feed|seed|red)\b)(?-i:[a-z]{{2,}}ed)\b|\b(?:{IRREGULAR})\b",
    re.IGNORECASE,
)
_PRESENT_COPULA = re.compile(r"(?:'s|'re|'m)\b|\b(?:is|are|am|has|have)\b", re.IGNORECASE)


#: An aside that goes on about the value just said: "My new phone is a Pixel, for work only".
_ABOUT_THE_VALUE = re.compile(r"^(?:(?:just|only|but|and)\s+)*for\b", re.IGNORECASE)
#: A clause's own subject: "for now that's the only one I check" goes on about more than
#: the value.
_OWN_SUBJECT = re.compile(r"\b(?:that's|it's|i|i'm|we|we're|they|they're|he|she)\b", re.I)


def _about_the_value(aside: str) -> bool:
    return _ABOUT_THE_VALUE.match(aside) is not None and _OWN_SUBJECT.search(aside) is None


#: The value given to someone else: "My new laptop is a Dell for my daughter".
_FOR_SOMEONE_ELSE = re.compile(
    rf"\bfor (?:my|our|his|her|the) (?:[\w-]+ )?(?:{RELATION_NOUNS}|{KIN_WITHOUT_MY})\b"
    # Or for one part of life: "a Samsung for work", "jo@acme.com for work stuff" (not "I
    # mostly write Java at work").
    r"|\bfor (?:work|home|school|uni)\b",
    re.IGNORECASE,
)


#: A value not settled yet: "My new phone is an iPhone 16, hopefully", "£45k from
#: April", "iPhone 16 or Pixel 9, can't decide", "TBC".
_NOT_YET = re.compile(
    r"\b(?:hopefully|fingers crossed|can'?t decide|undecided|tbc|tbd|not decided|"
    rf"from (?:next|{MONTHS}|monday|tuesday|wednesday|thursday|friday|the new year)|"
    r"or (?:a |an |the )?(?-i:[A-Z]))",
    re.IGNORECASE,
)


def hedged_value(sentence: str, value: str) -> bool:
    """Whether the part of `sentence` that states `value`, with the asides that go on about
    it, hedges how long or where it holds, or gives it to someone else."""
    at = sentence.lower().find(value.lower())
    if at < 0:
        return False
    # A full stop ends a sentence, not an address ("jo@company.com, for work stuff").
    first, *rest = re.split(r"\s*[,;\u2013\u2014]\s*|[.!?](?=\s|$)", sentence[at:])
    part = " ".join([first, *itertools.takewhile(_about_the_value, rest)])
    if _FOR_SOMEONE_ELSE.search(part) or _NOT_YET.search(part):
        return True
    # A bound told in the past dates the move ("Moved to Bristol while the kids were off"),
    # and words that say the value lasts outweigh it ("on a permanent contract", "never
    # left").
    return (
        _TENTATIVE.search(part) is not None
        and _WAS.search(part) is None
        and LASTS.search(sentence) is None
    )


#: What opens the clause that follows from one before it ("…, so I'm driving a hire Corsa").
_SO = re.compile(r"\bso\W*$", re.IGNORECASE)
#: What opens a clause that bounds the one before it ("…while I'm up in Scotland").
_BOUNDING = re.compile(rf"^\W*(?:{_BOUND_WORDS})\b", re.IGNORECASE)


def an_event(clause: str) -> bool:
    """Whether `clause` tells what happened rather than a passing state: "The Civic died on
    holiday in Wales, so I drive a Kia Picanto now" is a cause, not a bound ("The car's in the
    garage till Friday, so…" is one, and so is "Deloitte's seconded me…")."""
    return _TOLD_AS_EVENT.search(clause) is not None and _PRESENT_COPULA.search(clause) is None


def bounded_by_its_sentence(sentence: str, clauses: Sequence[str], i: int) -> bool:
    """Whether clause `i` of `sentence` holds only for a passing moment another clause
    states: it follows from it ("The car's in the garage till Friday, so I'm driving a hire
    Corsa") or is bounded by it ("I'm driving my mum's Micra while I'm up in Scotland").
    A passing moment beside a lasting change bounds nothing ("I work at Google now, I'm on
    holiday till Monday")."""
    clause = clauses[i]
    at = sentence.find(clause)
    if at < 0:
        return False
    before, after = sentence[:at], sentence[at + len(clause) :]
    # It follows from a passing moment ("…, so I'm driving a hire Corsa"), or one opens the
    # sentence ("While Sarah's off, I report to Tom").
    if (
        i > 0
        and any(cues(c).temporary and not an_event(c) for c in clauses[:i])
        and (_SO.search(before) or _BOUNDING.match(clauses[0]))
    ):
        return True
    # A bound told in the past dates an event, not the state: "My salary is £46k now, the
    # rise came through while I was on holiday".
    if _WAS.search(after):
        return False
    # A condition bounds it whether or not it is itself a passing moment: "I use a ThinkPad
    # while I'm at the office".
    return (bool(_BOUNDING.match(after)) and cues(after).temporary) or bool(
        _CONDITION_OPENS.match(after)
    )


#: A clause that opens with a condition said in the present (`_CONDITION`), or with where
#: the speaker is meanwhile ("while I'm at the office", "whilst we're in Spain"); not "while"
#: of a concession ("while I'm enjoying it, the commute is brutal") nor of someone else's
#: span ("while my wife does her PhD").
_CONDITION_OPENS = re.compile(
    rf"^\W*(?:{_CONDITION}"
    r"|(?:while|whilst)\s+(?:i'm|i am|we're|we are)\s+(?:at|in|on|away|abroad|out|over)\b)",
    re.IGNORECASE,
)


#: A thing said of now that is still to come: "in September", "arriving in March", "we move
#: in June".
NOT_YET_HERE = re.compile(
    rf"\b(?:in|by|from) (?:{MONTHS})\b|\b(?:arriving|arrives|coming|due|on (?:its|the) way|ordered|"
    r"(?:we|i) (?:move|'re moving|are moving|'m moving|am moving)|moving in)\b",
    re.IGNORECASE,
)

#: Where a sentence sets a second thought apart: a comma, a semicolon, a dash.
ASIDE_BREAK = re.compile(r"\s*[,;]\s+|\s+[\u2013\u2014-]+\s+")
#: "it", however it is said ("It's a loaner", "it's only till…").
_IT = re.compile(r"\bit\b", re.IGNORECASE)
#: Words that point back at what came before ("…, got it on loan", "…, which is temporary",
#: "…, he's covering this month", "…, seconded there for a year").
_POINTS_BACK = re.compile(
    # Not the "it" of "it's been a lot of omelettes".
    r"\b(?:it(?!')|its|them|they're|this one|that one|which|there|mine|usual|old one|"
    r"other one)\b",
    re.I,
)
#: Where or when an event happened, which bounds nothing of what it brought: "got it on a
#: trip to Manchester", "cut it while on holiday". A stand-in word left beside it still
#: bounds ("borrowed it on holiday").
_WHERE_IT_HAPPENED = re.compile(
    r"\b(?:on (?:a |an |my |our |the )?(?:\w+ )?(?:trip|holiday|holidays|vacation|visit)|"
    r"while (?:on|away|i was|we were)\b(?: (?:holiday|a trip|business))?)",
    re.IGNORECASE,
)
#: A bound that has passed: "until it was ready last week".
_BOUND_PASSED = re.compile(r"\b(?:till|until|til)\b[^,.;!?]*\b(?:was|were|last)\b", re.I)
#: A bound still ahead: "till Friday", "for now", "next week".
_BOUND_AHEAD = re.compile(
    r"\b(?:till|until|til|for now|for the (?:time being|moment|week|weekend|month|summer)|next|"
    r"temporar\w*|fortnight|back (?:on|by|in|next)|washes out|wash-in|in a week)\b",
    re.I,
)


def passing_only_in_how_it_came(sentence: str) -> bool:
    """Whether the only passing moment of `sentence` is in an aside, after a lasting change,
    that tells where or when the value was bought or got: "I drive a Tesla now, got it on a
    trip to Manchester", "My hair is short now, cut it while on holiday". Any other passing
    aside may bound the value ("I drive a Kia now, mine's in the shop till Friday", "…,
    borrowed from my brother", "…, the Golf was in for a service", "…, picked it up on a trip
    to Sardinia"), so it still does."""
    first, *rest = ASIDE_BREAK.split(sentence)
    opening = cues(first)
    if not rest or not opening.lasting or not opening.change:
        return False
    asides = [part for part in rest if cues(part).temporary]
    return (
        bool(asides)
        and all(_tells_how_it_came(part) for part in asides)
        and not any(_BOUND_AHEAD.search(part) for part in rest)
        and cues(" ".join([first, *(p for p in rest if p not in asides)])).lasting
    )


#: How the speaker came to own it: "got it", "bought it", "cut it"; not "picked it up" (a
#: hire car is collected too) or "had it every night" (a holiday drink).
_GOT_IT = re.compile(
    r"^\W*(?:(?:i|we)\s+)?(?:got|bought|purchased|ordered|adopted|cut|dyed|had it (?:cut|dyed))\b",
    re.IGNORECASE,
)


def _tells_how_it_came(aside: str) -> bool:
    """Whether a passing `aside` is an event that happened on a trip or a holiday and no more:
    what it brought lasts ("got it on a trip to Manchester"); a stand-in word or a bound
    ahead still bounds ("borrowed it on holiday", "got it on loan till Friday")."""
    return (
        an_event(aside)
        and _GOT_IT.search(aside) is not None
        and _WHERE_IT_HAPPENED.search(aside) is not None
        and not _BOUND_AHEAD.search(aside)
        and not cues(_WHERE_IT_HAPPENED.sub(" ", aside)).temporary
    )


#: Where the speaker is or whose they use, pointed at: "here", "down here", "with him",
#: "sharing his", "staying at my sister's".
_WHERE_IT_IS = re.compile(
    r"\b(?:here|there|with (?:him|her|them)|his|hers|ours|theirs|sharing|staying)\b", re.I
)


#: The speaker staying in a named place: "I'm in Leeds for work", "we're staying at the
#: Hilton"; with a bound ahead, what they use there stands in ("My gym is Anytime Fitness
#: now, I'm in Leeds for work till March").
_STAYING_IN_A_PLACE = re.compile(
    r"^\W*(?:(?:but|and|so|though)\s+)?(?:i'm|i am|we're|we are)\s+"
    r"(?:[\w'-]+\s+){0,5}?(?:in|at|from|to)\s+(?:the\s+)?(?-i:[A-Z])[\w'-]*+"
    # A group is no place: "I'm in the Audit team till next year".
    r"(?!\s+(?:team|department|group|squad|unit|class|division|contract|plan)\b)",
    re.IGNORECASE,
)
#: How long such a stay lasts, from now: "till March", "for the next 3 months", "for the
#: summer", "this term"; not when it begins ("I'm in Barcelona next week").
_STAY_BOUND = re.compile(
    # Not a time of day: "I'm at Pret till lunch most days" is a routine.
    r"\b(?:(?:till|until|til)(?!\s+(?:late|lunch|close|closing|midnight|about|around|\d{1,2}\b|"
    r"\d{1,2}(?::\d\d)?\s*(?:am|pm)))|through|for now|for the (?:next|time being|moment)|"
    r"for (?:the|a|one|two|three|four|six|a few|a couple of|\d+)\s+"
    r"(?:weeks?|months?|term|semester|summer|winter|spring|autumn|year)|this (?:term|semester))\b",
    re.I,
)
#: What the speaker uses where they are, so a stay elsewhere may bound it: a gym, a home, a
#: drink, a diet, a GP; not what they own or do wherever they are ("My laptop is a Dell XPS
#: now, I'm at Durham until I graduate").
_WHERE_ONE_IS = frozenset({"gym", "lives_in", "drink", "diet", "care", "prefers"})


#: A named thing as a sentence's subject: "Golf's in the body shop", "The iPhone is with
#: Apple".
_A_NAMED_THING = re.compile(r"^\W*(?:(?:the|my)\s+)?(?-i:[A-Z])[\w-]*(?:'s|\s+is)\b", re.I)


def _points_at(later: str, value: str, predicate: str) -> bool:
    """Whether a sentence after a slot's value points at the value or its slot's thing:
    "Mine's in the body shop till next week", "It's on loan", "The car's at the garage"."""
    return (
        bool(_POINTS_BACK.search(later))
        or _names_its_thing(later, value, predicate)
        # A thing named as what the sentence is about: "Golf's in the body shop till the
        # 20th" (of people, someone else: "Dr Okafor is on secondment").
        or (
            predicate.split(":", 1)[0] not in PEOPLE_SLOTS
            and _A_NAMED_THING.match(later) is not None
        )
    )


def _names_its_thing(later: str, value: str, predicate: str) -> bool:
    """Whether `later` names the slot's value or its thing: "the Kia", "my usual boss", "my
    car's in the garage"."""
    # "my car's in the garage": the thing's noun read without the "'s".
    plain = re.sub(r"'s\b", " is", later)
    return bool(
        (content_words(value) - set(TITLES)) & content_words(later)
        or any(head_attribute(word) == predicate for word in plain.split())
        or predicate_for_category(category_of(plain)) == predicate
    )


#: A clause with a person as its subject: a statement of its own, not a bound on the one
#: before ("I work at Google now, I'm on holiday till Monday").
_A_PERSON_OPENS = re.compile(
    rf"^\W*(?:(?:but|and|though|so|also|plus)\s+)?(?:i|i'm|i've|i'll|we|we're|we've|he|he's|"
    rf"she|she's|they|they're|(?:my|our)\s+(?:[\w-]+\s+)?(?:{RELATION_NOUNS}|{KIN_WITHOUT_MY})"
    r"(?:'s)?)(?=\s|$)",
    re.IGNORECASE,
)
#: A fixed term or a placement: "a 3 month contract", "seconded there by Deloitte",
#: "gardening leave".
FIXED_TERM = re.compile(
    # In months: "on a two-year contract" is an ordinary job.
    r"\b(?:\d+|one|two|three|four|five|six|nine|twelve|18)[- ]months?"
    r"[- ](?:contract|placement|secondment|role|gig|job|stint|posting|assignment)\b"
    r"|\b(?:seconded|gardening leave|fixed[- ]term)\b",
    re.IGNORECASE,
)
#: Words of a stand-in: lent, hired, covering ("my wife's borrowing it this week", "he's
#: covering this month").
_STAND_IN = re.compile(
    # Not "I'm covering the whole of the north".
    r"\b(?:borrow\w*|lend\w*|lent|loan\w*|hire[ds]?|hiring|rent(?:ed|al|ing)|sharing|"
    r"covering(?!\s+(?:the|a|an|all|most|both|every)\b)|cover|"
    r"acting|interim|standing in|filling in|temporar\w*|put(?:ting)? (?:me|us) up|courtesy|"
    r"sent off|sublet\w*|placed)\b",
    re.IGNORECASE,
)


#: A thing of the speaker's at the menders: "the garage has the Golf", "the garage says two
#: more weeks", "mine's in the body shop", "the car is being repaired"; not someone else's
#: ("My husband's Passat is at the garage"), nor anything done at a garage ("fitting a
#: charger in the garage", "working at the garage on Fore Street").
_MENDERS = r"(?:garage|body ?shop|mechanics?|menders|repair shop|repairers?)"
_AT_THE_MENDERS = re.compile(
    rf"\b(?:the|my|our)\s+{_MENDERS}\s+(?:has|have|has got|says|said|reckons)\b"
    rf"|(?:\b(?:my|our|the)\s+(?!\w+'s\b)[\w-]+(?:\s+[\w-]+)?|\b(?:mine|it))"
    rf"(?:'s|\s+is|\s+are)\s+(?:still\s+)?(?:at|in|with)\s+(?:the\s+)?{_MENDERS}\b"
    r"|\bbeing (?:fixed|repaired|serviced|mended)\b",
    re.IGNORECASE,
)
#: More time still to come: "two more weeks on the Golf", "another few days".
_MORE_TIME = re.compile(
    r"\b(?:(?:a|one|two|three|four|few|couple of|\d+)\s+more|another(?:\s+(?:few|couple of|"
    r"two|three|\d+))?)\s+(?:days?|weeks?|months?)\b",
    re.IGNORECASE,
)


def bounds_value(later: str, value: str, predicate: str, *, same_sentence: bool) -> bool:
    """Whether a later clause bounds the value the slot was filled with. In the same sentence,
    one that says the value is still to come does ("…, we move in June"); otherwise it tells
    a passing moment or a fixed term, not how the value came ("…, got it on a trip to
    Manchester") nor, in the past, how things were ("…, the MacBook was on loan from work"),
    and:
    - in the same sentence, tells a stand-in ("…, he's covering this month"), names the value
      or its thing ("…, my usual boss is off sick"), points back with a bound ahead ("…, we
      were told it's only till the house is finished"), tells the speaker's own stay with one
      ("…, I'm only here till the project wraps", "…, I'm in Leeds for work till March"),
      or has no person as its subject, so it is about the value or its stand-in ("…, mine's
      in the shop till Friday", "…, 6 month fixed-term contract"); a person's own passing
      moment bounds nothing ("…, I'm on holiday till Monday", "…, my parents are visiting
      this weekend");
    - in the sentence after, points at the value or its thing ("Mine's in the body shop till
      next week", "It's a loaner till the Mac comes back"); not "Off to Spain next week",
      "The case is temporary until the nice one arrives"."""
    said = cues(later)
    if (
        predicate.split(":", 1)[0] == "vehicle"
        and _AT_THE_MENDERS.search(later)
        and (_BOUND_AHEAD.search(later) or _MORE_TIME.search(later))
        and not _WAS.search(later)
    ):
        # The speaker's vehicle is at the menders for a while: whatever stands in meanwhile
        # is no new one ("I'm driving a Kia now. The garage has the Golf till next week"). A
        # car at the garage bounds no new job or home.
        return True
    if same_sentence and NOT_YET_HERE.search(later) and not an_event(later):
        # Still to come: "My new flat is in Harrogate, we move in June".
        return True
    if (
        same_sentence
        and predicate.split(":", 1)[0] in _WHERE_ONE_IS
        and _STAY_BOUND.search(later)
        and _STAYING_IN_A_PLACE.match(later)
    ):
        # The speaker's own stay in a place, for a span from now: "…, I'm in Leeds for work
        # till March", "…, I'm in Mumbai for the month".
        return True
    fixed_term = FIXED_TERM.search(later)
    if not (said.temporary or fixed_term) or _tells_how_it_came(later):
        return False
    if (
        (said.past or _WAS.search(later))
        and not _PRESENT_COPULA.search(later)
        and not (_BOUND_AHEAD.search(later) and not _BOUND_PASSED.search(later))
        and not fixed_term
    ):
        # Told in the past, it says how things were: "the MacBook was on loan from work".
        # Not a bound told as said ("we were told it's only till the house is finished") or
        # a term ("the agency said it was a 3 month contract").
        return False
    if not same_sentence:
        # "It's a loaner till the Mac comes back".
        return _points_at(later, value, predicate) or bool(
            _STAND_IN.search(later) and _IT.search(later)
        )
    if (
        _STAND_IN.search(later)
        or _names_its_thing(later, value, predicate)
        or (_IT.search(later) and _BOUND_AHEAD.search(later))
    ):
        # "…, he's covering this month", "…, my usual boss is off sick", "…, we were told
        # it's only till the house is finished".
        return True
    if _BOUND_AHEAD.search(later) and _WHERE_IT_IS.search(later):
        # The speaker's own stay, bounded: "…, I'm only here till the project wraps", "…,
        # we're sharing his till ours is fixed".
        return True
    return not _A_PERSON_OPENS.match(later)
