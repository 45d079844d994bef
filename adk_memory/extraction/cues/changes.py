"""What a change ends or moves to: a value displaced, taken back or arrived at."""

from __future__ import annotations

import re

from adk_memory.extraction.cues.items import one_of_several
from adk_memory.extraction.cues.lazy import LazyPattern, remembered
from adk_memory.extraction.cues.tense import (
    DAY_WORD,
    PAST_TENSE,
    SETS_NOW_AGAINST_BEFORE,
    begins_lasting,
    cues,
    lasting_but_for_its_day_word,
)
from adk_memory.extraction.cues.words import SPACES, content_words
from adk_memory.extraction.sentences import mask, unmask

_NP = r"(?:the |my |our |a |an |that |this )?(?P<x>[^.,;!?]+?)"
_NP_STOP = (
    r"\s+(?:for|with|to|in favou?r of|and|but|so|because|after|since|last|this|on|at|in|as|"
    r"over|during|when|before|was|is)\b|\s*[.,;!?\u2014\u2013]|\s+-\s|\s*$"
)
_NP_END = rf"(?={_NP_STOP})"
#: What a thing or person that ended did ("The SE finally died", "my old boss retired").
#: Leaving for good only where the clause ends: "Joanne's emigrated so they've booked me in
#: with Rhys", not "Mark resigned as chair of the social club", "Dave moved away to
#: Manchester but we still talk", "Priya resigned herself to it".
_CEASED = (
    r"(?: finally| sadly| just| officially)? (?:(?:retired|moved out|passed away|died|"
    r"got (?:totall?ed|stolen|wrecked|written off)|fell through|is history|are history|"
    r"is done|is over|went on (?:\w+ )?leave|shut down|closed|folded|went bust)\b|"
    r"(?:emigrated|resigned|moved away|moved abroad)"
    r"(?=\s*(?:[.,;!?\u2014\u2013]|$)|\s+(?:so|last|this|recently|yesterday)\b))"
)
#: What a giving names that is no thing of the speaker's given up for good: a former or a
#: spare one ("donated my old iPhone"), tickets or a pass for one event ("gave away my
#: Arsenal tickets, can't make the derby"), or an illness ("passed the Covid on to the kids").
_NOT_GIVEN = (
    r"(?:old|spare|other|extra|second)\b"
    r"|(?:[\w'-]+\s+){0,3}?(?:tickets?|passes|pass|covid|cold|flu|bug|virus|germs)\b"
)
#: A thing of the speaker's given, by its name: "the Golf", "my PS5" (a thing takes "the",
#: "my" or "our"; a person does not: "Gave Emma away on Saturday" was her wedding).
_GIVEN = r"(?:the|my|our) (?!(?:" + _NOT_GIVEN + r"))(?P<x>[^.,;!?]*?(?-i:[A-Z0-9])[^.,;!?]*?)"
#: Nothing later in the clause makes the giving a while or a purpose ("for the weekend",
#: "while I'm away", "to look after").
_FOR_GOOD = (
    r"(?![^.,;!?]*\b(?:for|while|till|until|to (?!(?:my|our|a|an|the|his|her|their)\b)\w+)\b)"
)
#: What follows "left" when a thing was left somewhere, not left for good: "left my pixel in
#: the taxi", "left the keys at Mum's" (not "left the Labour party in 2019").
_LEFT_SOMEWHERE = (
    r" (?:my|the|our|his|her|their) (?:(?!\b(?:and|but)\b)[^.,;!?]){1,30}? "
    r"(?:in|at|on|behind|outside|by|under|with) (?!\d)"
)
_LEFT_BEHIND = LazyPattern(rf"\bleft{_LEFT_SOMEWHERE}", re.IGNORECASE)


def left_behind(text: str) -> bool:
    """Whether `text` tells of a thing left somewhere ("Left my pixel in the taxi"): a thing
    mislaid, no change of what the speaker has or uses."""
    return _LEFT_BEHIND.search(text) is not None


#: Explicit displacement of a named value, the value as group `x`.
_DISPLACE = [
    LazyPattern(p, re.IGNORECASE)
    for p in (
        # Not a thing let fall: "Dropped my iPhone in the bath". An end denied is none
        # (`_DENIED_BEFORE`).
        rf"\b(?:traded(?: in)?|swapped|exchanged|replaced|ditched|"
        rf"dropped(?! (?:(?!\band\b)[^.,;!?]){{1,30}}? (?:in|into|on|onto|down|off|out of) "
        rf"(?:the|a|an|my|our)\b)|"
        # Not a thing left somewhere ("Left my pixel in the taxi", "left the keys at Mum's").
        rf"quit|left(?!{_LEFT_SOMEWHERE})|sold|"
        rf"cancell?ed|closed|gave up(?: on)?|given up(?: on)?|"
        rf"stopped(?: using| going to| playing| seeing)?|"
        rf"(?:got|get) rid of|"
        rf"finished(?: with)?|done with|pulled out of|moved (?:away )?from|moved out of|"
        rf"switched (?:away )?from|moved over from|migrated (?:away )?from|handed in my notice at|"
        rf"broke up with|lost|tapering off|tapered off|barely (?:touch|use)|no more|"
        rf"no longer (?:use|go to|play|drink|eat|see|have|work at|live in)) {_NP}{_NP_END}",
        rf"\b(?:my )?(?:final|last) day at {_NP}{_NP_END}",
        rf"\b(?:switched|moved|changed|migrated)(?: [\w-]+){{1,3}}? from {_NP}(?= to\b)",
        # What ended opens the sentence; one after a conjunction is read below, as a reason.
        r"^(?!(?:after|since|because|now that|when|once)\b)(?:the |my |our )?(?:old )?"
        r"(?P<x>[^.,;!?]+?)" + _CEASED,
        # An end given as the reason ("signed for Clapton Rovers after the Hawks folded",
        # "after Bulb went under we were moved to Octopus"): a short name after the
        # conjunction, and only an end for good ("After the pub closed we went to Tom's" is
        # an evening).
        r"\b(?:after|since|because|now that) (?:(?:the |my |our )(?:old )?|(?=(?-i:[A-Z])))"
        r"(?P<x>[\w'-]+(?: [\w'-]+){0,2}?)(?: finally| sadly| officially)? "
        r"(?:retired|passed away|died|folded|went (?:bust|under|out of business|into "
        r"administration)|shut down|closed down)\b",
        # Ends said as they happen, inside the frame of an outcome ("Ended up cancelling
        # PureGym and joining The Gym Group", "finally getting rid of the Volvo"); a gerund
        # alone is an activity or a subject ("Selling on eBay is my side hustle", "I'm not
        # quitting Google"). "dropping" is left out ("dropping the kids at school").
        r"\b(?:ended up|wound up|finally|went ahead and)\b"
        r"(?:(?!\b(?:not|never|no|against|without|avoid)\b|n't)[^.;!?]){0,80}?"
        r"\b(?:trading(?: in)?|swapping|replacing|ditching|quitting|selling|cancell?ing|closing|"
        rf"giving up(?: on)?|getting rid of) (?!(?:on|at|in|out|up|off|down)\b){_NP}{_NP_END}",
        r"^(?P<x>[^.,;!?]+?) and i (?:broke up|split up|separated)\b",
        # A thing of the speaker's given away for good, named (`_GIVEN`): "gave the Vespa
        # away", "donated my Kindle", "passed the Golf on to my son". Only in words that say
        # for good: handing something over ("gave my iPhone to the Apple store", "handed the
        # baby to my husband") is no end, nor is one given for a while or a purpose ("passed
        # the guitar on to Tom for the last song").
        rf"\b(?:(?:gave|given|giving) away|donated|donating) {_GIVEN}{_NP_END}{_FOR_GOOD}",
        rf"\b(?:gave|given|giving) {_GIVEN} away\b{_FOR_GOOD}",
        rf"\b(?:passed|handed|passing|handing) {_GIVEN} (?:on|down) to\b{_FOR_GOOD}",
        # An end said as a denial of the present, of holding or doing something ("I'm not
        # doing keto any more", "Leo doesn't go to Hillcrest anymore", "we're not with British
        # Gas any longer"). Not a feeling ("I don't trust Barclays any more"), a comparison
        # ("not staying at Google any longer than I have to") or less of it ("I don't drink
        # as much coffee any more").
        r"(?:\bnot|n't|\bnever)\s+(?:(?:really|even|actually|ever)\s+)?"
        r"(?:(?:do|doing|go|going|use|using|have|having|own|drive|driving|ride|riding|play|"
        r"playing|drink|drinking|eat|eating|take|taking|work|working|live|living|attend|"
        r"attending|wear|wearing|watch|watching|learn|learning|study|studying|train|training|"
        r"smoke|smoking|support|supporting|bank|banking|shop|shopping|listen|listening|"
        r"subscribe|subscribed)\s+(?:(?:to|at|in|on|with|into|for|from|by|of)\s+)?"
        # Or a place or company after a copula: "I'm not with Vodafone any more".
        r"|(?:at|in|on|with|into)\s+)"
        r"(?:the |my |our |a |an |that |this )?"
        r"(?!(?:there|here|it|them|him|her|one|any)\b)"
        r"(?P<x>(?:(?!\b(?:as|so|that|too|much|many|often|either|really)\b)[^.,;!?])+?)"
        r"\s+(?:any ?more|any longer)\b(?!\s+than\b)",
        rf"\b(?:instead of|rather than) {_NP}(?=\s*[.,;!?]|\s*$)",
        # A correction sets the right value against the wrong one: "actually it's the 14th,
        # not the 12th", "Small correction from yesterday: I'm a legal secretary, not a
        # paralegal", "oops, my birthday's the 14th, not the 12th". It opens the sentence and
        # its copula states the right value of the speaker's; without the copula it may end
        # only part of a value ("Actually I'm not into horror any more" after "I love horror
        # and sci-fi"), a cleft names someone else ("Sorry, it's Dr Shah who retired, not Dr
        # Patel"), and the value of something else is no correction of the speaker's ("Sorry,
        # the offsite is with Meta this year, not Google").
        rf"^\W*(?:(?:haha|oops|ah|oh|wait|small|quick|sorry|actually|correction|my mistake|"
        rf"my bad|i meant|typo)(?:\s+from (?:yesterday|earlier|before))?\W+){{1,3}}"
        rf"(?:it's|it is|that's|it was|its|i'm|i am|my\s+[\w-]+(?:\s+[\w-]+)?"
        rf"(?:'s|\s+is|\s+are|\s+was))\s+"
        rf"(?:(?!\b(?:who|that|which)\b)[^,.;!?]){{1,40}}?,?\s+not {_NP}{_NP_END}",
    )
]
#: Taking back what the speaker said: "Oops, I said ramipril yesterday — it's amlodipine, I
#: got them confused", "Did I tell you Verizon? Sorry, that was my old carrier". Read only
#: beside words that say it was wrong (`_RETRACTED`): "I said I'd try yoga, and I did".
_TAKEN_BACK = LazyPattern(
    rf"\b(?:i (?:said|told you|wrote|typed|mentioned)|did i (?:say|tell you|mention))"
    rf"(?:\s+(?:that\s+)?(?:i was|i'm|i am|it was|it's|i live in|i work at|i use))?\s+"
    rf"(?!about\b){_NP}(?=\s+(?:yesterday|earlier|before|last time)\b|{_NP_STOP})",
    re.IGNORECASE,
)
#: Words that take back what was said, after it: "I meant Bradford", "my mistake", "I got
#: them confused", "that was my old one". Not "actually" ("I told you cello, it's actually
#: harder than it looks"), and not "I meant his brother": a person taken back for another
#: would retire every memory naming them.
_RETRACTED = LazyPattern(
    # Not "I meant it when I said…", which only insists.
    r"\b(?:i (?:actually )?meant(?! to\b)(?! it\b(?!'))"
    r"(?!\s+(?:his|her|their|my|the other|someone)\b)|"
    # "my bad" as an apology, not "my bad knee".
    r"my mistake(?! was)|my bad(?=\s*(?:[,.;:!?\u2014\u2013-]|$)|\s+(?:lol|haha|sorry|again)\b)|"
    r"(?:got|had) (?:it|that|them) wrong|wrong one|"
    r"mixed (?:them |it |those )?up|muddled|got (?:them |it )?confused|misspoke|"
    r"(?:that was|that's|it was|it's) my old)\b",
    re.IGNORECASE,
)
#: What trails a displaced value without being part of it ("Python anymore").
_AFTER_VALUE = LazyPattern(
    r"\s+(?:any ?more|now|these days|for good|altogether|completely|entirely|again|"
    # Chat fillers: "gave up on Japanese tbh".
    r"tbh|tbf|ngl|honestly|to be honest|tho|though|lol|haha)$",
    re.I,
)
_PUT_DOWN = LazyPattern(r"\bput (?:the |my )?(?P<x>[\w -]+?) (?:down|away|aside)\b", re.I)
#: "switched to decaf", "moved over to VS Code", "upgraded to a Pixel 8": the new value.
_ARRIVE = LazyPattern(
    r"\b(?:switched|moved|changed|swapped|migrated|transitioned|converted|upgraded|downgraded|"
    r"transferred|ported|went|shifted|bumped|upped|hiked|raised|increased|lowered|reduced|slashed|"
    r"cut|pushed|put)"
    r"(?P<what>(?: [\w-]+){0,3}?) (?:over |up |down |back )?to (?:a |an |the |my )?"
    r"(?P<y>[^.,;!?]+?)(?=\s+(?:after|because|since|for|last|this|when|as|from|so)\b|\s*[.,;!?]|\s*$)",
    re.IGNORECASE,
)


@remembered
def lasting_change(text: str) -> bool:
    """Whether `text` says a value changed for good, in words that set a present against a
    past ("We're in Munich now", "Lately it's IPAs instead of stout") or as a move to a new
    value ("The company moved us to a co-working space", "The new contract bumped me to
    68k"); and nothing makes it a passing moment, a maybe, an addition or the past. A
    one-off event ("I stopped at the bakery", "Mia finally started school") is no change.
    """
    found = cues(text)
    if found.temporary or found.hypothetical or found.additive or found.past:
        return False
    return SETS_NOW_AGAINST_BEFORE.search(text) is not None or _moves_to_value(text)


#: Words that present a value as new, or an amount or a date as moved, beyond those that say a
#: change (`Cues.change`): "the new manager Bartek", "finally got the promotion", "upped it
#: to 40 km", "the launch slipped to May", "the mortgage offer came through", "Bruno's down
#: to 29kg".
_NEWNESS = LazyPattern(
    r"\b(?:new|newly|finally|since|upped|raised|bumped|push|pushed|lowered|increased|reduced|"
    r"cut|went (?:up|down)|came through|arrived|revised|extended|slipped|rescheduled|postponed|"
    r"started|joined|(?:got )?promoted|got (?:the|a|my) promotion|dropped)\b"
    # An amount said as moved ("Bruno's down to 29kg", "my rent went up to 1,400", "had to
    # go up to 34 waist"); not a bound ("I can go up to £300", "sessions are up to 90
    # minutes"). Whose amount it is, the ordering reads apart.
    r"|(?:'s|'re|'m|\b(?:im|went|gone|been|now|had to go)) (?:down|up) to (?=[\d£$€])",
    re.IGNORECASE,
)


#: Words that say the speaker had it wrong, wherever they stand: "I actually meant Limerick",
#: "Haha my mistake, the tortoise is Sheldon", "Correction, the flight is on the 5th", "sorry,
#: I told you wrong". Not "actually" alone ("it's actually harder than it looks").
_HAD_IT_WRONG = LazyPattern(
    r"\b(?:correction\b|i (?:told|gave) you (?:the )?wrong\b|(?:was|were) wrong\b(?! about\b)|"
    r"wrong (?:one|booking|date|day|name|number|address|postcode)\b|"
    # "I got Mum's birthday wrong", "I've been saying it wrong", "typo earlier", "need to
    # correct something", "not what I told you".
    # "wrong" closing the phrase: "I had the wrong size delivered" is no correction.
    r"\bi(?:'ve| have)? (?:got|had|been (?:saying|spelling|writing)) (?:[\w'-]+ ){0,3}wrong\b"
    r"(?!\s+(?!(?:for|all|again|before|earlier|and|but|so|the whole|this whole|in|on|at|last|"
    r"yesterday|when|then|lol|haha|sorry|oops|apparently|actually|though)\b)[a-z])|"
    r"typo (?:earlier|before|yesterday)\b|\bmy typo\b|"
    r"(?:need|have|want) to correct (?:something|that|myself|what i said|an earlier)\b|"
    r"correct(?:ing)? (?:myself|what i said)\b|"
    r"not what i (?:told you|said|wrote)\b|why i thought otherwise\b)",
    re.IGNORECASE,
)
#: "it's actually a Dell XPS 15, not the 13": what it actually is, set against what it is
#: not (a cleft names someone else: "it's actually Dr Shah who retired, not Dr Patel").
_ACTUALLY_NOT = LazyPattern(
    r"\b(?:it's|it is|that's|its) actually (?:(?!\b(?:who|that|which)\b)[^.;!?]){1,50}?,?\s+"
    r"not (?:the |a |an )?[\w'-]+",
    re.IGNORECASE,
)


@remembered
def corrects(text: str) -> bool:
    """Whether `text` says the speaker had something wrong: a correction, not a change. The
    value it gives was the right one all along, so what it corrects holds no more as an
    answer; read only of a rival answer already found to hold instead."""
    masked = mask(text)
    return any(
        pattern.search(masked) is not None for pattern in (_RETRACTED, _HAD_IT_WRONG, _ACTUALLY_NOT)
    )


def said_as_new(text: str) -> bool:
    """Whether `text` presents what it names as new rather than as what always held: a change
    ("it's Kyoto and Osaka now"), the start of something lasting ("my new boss Tom"), or a
    word of newness or of an amount or a date moved ("upped my pension to 8%", "the wedding
    slipped to October"). Read on the clause that names a rival answer's value, never alone
    as evidence that anything changed."""
    return (
        cues(text).change
        or lasting_change(text)
        or begins_lasting(text)
        or _NEWNESS.search(text) is not None
    )


#: What a move went to or a start began as: "promoted to senior analyst", "bumped me up to
#: band 6", "started as a paramedic". Not what the speaker set out to do ("started to feel
#: better", "finally decided to learn Spanish"). Verbs of change `Cues.change` reads wherever
#: they stand ("moved", "dropped", "rescheduled") are left to it.
_BEGUN_AS = LazyPattern(
    r"\b(?:(?:got\s+|been\s+)?promoted|bumped|upped|raised|lowered|increased|reduced|"
    r"cut|pushed|slipped|postponed|went (?:up|down))"
    r"(?:\s+[\w'-]+){0,2}?\s+(?:to|into)\s+(?!(?:be|me|us)\b)\w"
    r"|\b(?:started|starting|joined|qualified)\s+(?:[\w'-]+\s+){0,2}?as\s+\w"
    # Gone over to a way of eating or working: "we've both gone fully vegan", "went
    # part-time after the baby".
    r"|\b(?:gone|went)\s+(?:fully\s+|completely\s+|properly\s+)?(?:vegan|vegetarian|veggie|"
    r"pescatarian|plant-based|keto|paleo|teetotal|sober|dairy-free|gluten-free|part-time|"
    r"full-time|freelance|self-employed|remote|hybrid)\b"
    # Signed to a club or an agency, and a choice made in the end: "she's signed for
    # kingsway rovers", "went with direct line in the end".
    r"|\b(?:signed|signs)\s+(?:for|with)\s+(?!(?:a|the)\s+(?:parcel|package|delivery)\b)\w"
    r"|\b(?:went|gone|going)\s+with\s+\w[^.;!?]*\b(?:in the end|eventually|instead)\b",
    re.IGNORECASE,
)


def told_as_begun(text: str) -> bool:
    """Whether `text` tells in words that a value changed, began or moved and to what, whatever
    case it names it in ("Got promoted to senior analyst", "I've gone over to sparkling
    water", "we've gone fully vegan", "signed for kingsway rovers", "went with direct line in
    the end"): a change, though no name says what it changed to. Not a start alone ("I started
    a new project at work", "Got promoted today"), nor the adjective "new" ("needs new
    tyres")."""
    return cues(text).change or _BEGUN_AS.search(text) is not None


#: Verbs `arrived` reads that also tell a one-off trip or act ("went to the cinema", "put
#: the kids to bed"): with them, a move to a value is not evidence of a change.
_EVENT_VERBS = frozenset({"went", "put", "cut"})


def _arrival(text: str) -> re.Match[str] | None:
    """The move to a new value `text` states ("switched to decaf"), its abbreviations masked."""
    return _ARRIVE.search(mask(text))


def _moves_to_value(text: str) -> bool:
    match = _arrival(text)
    return match is not None and match.group(0).split()[0].lower() not in _EVENT_VERBS


#: A day word that bounds rather than dates: "for today", "until this evening".
_BOUNDED_TO_THE_DAY = LazyPattern(
    r"\b(?:for|until|till|just for) (?:today|tonight|this (?:morning|afternoon|evening|week))\b",
    re.IGNORECASE,
)


@remembered
def dated_move(text: str) -> bool:
    """Whether `text` tells a move to a new value that only a day word dates ("They changed
    my title to UX Research Lead this week", "Switched to oat milk today"): the start of what
    holds now, as an event a day word dates is (`dated_event`), not a passing state ("I'm at
    the library this afternoon")."""
    if DAY_WORD.search(text) is None or not _moves_to_value(text):
        return False
    if _BOUNDED_TO_THE_DAY.search(text):
        # "Switched to the late shift for today" holds for that day only.
        return False
    return lasting_but_for_its_day_word(text)


@remembered
def ends(text: str, state: str) -> bool:
    """Whether `text` says that what `state` names is gone, naming it ("Sold the Vespa" for
    "I ride a Vespa to work"; "Cancelled Spotify" for "I listen to music on Spotify"), and
    says it for good (not a passing moment, a maybe, an addition or the past). One item of
    several is not all of the state ("Sold the motorbike" for "I have a car and a
    motorbike")."""
    found = cues(text)
    if found.additive or found.past or (found.hypothetical and not _sure_where_it_ends(text)):
        return False
    words = content_words(state)
    parts = _asides(text)
    if any(cues(part).temporary and PAST_TENSE.search(part) is None for part in parts[1:]):
        # "This week only — no more coffee for me": the moment bounds the whole; "Read it in
        # the FT this morning — I get that instead of the Guardian" dates only its part.
        return False
    for part in parts:
        if cues(part).temporary:
            continue
        if any(
            gone <= words and not one_of_several(value, state)
            for value, gone in _displaced_values(part)
        ):
            return True
    return False


def _sure_where_it_ends(text: str) -> bool:
    """Whether the clause that names what ends, and every clause before it, says it without
    a maybe, however a later clause guesses at why ("gave up on Japanese tbh, Korean is
    clicking way more, probably the k-dramas")."""
    clauses = [c for c in re.split(r",\s+", text) if c.strip()]
    naming = [at for at, clause in enumerate(clauses) if _displaced_values(clause)]
    # A maybe before it colours what follows: "If the Leeds job comes through, I'd quit".
    return bool(naming) and not any(cues(c).hypothetical for c in clauses[: naming[-1] + 1])


#: Where an aside or a second thought begins: a dash or a semicolon between words.
_ASIDE = LazyPattern(r"(?<!\s)\s+[\u2014\u2013-]+\s+|;\s+")


@remembered
def _asides(text: str) -> tuple[str, ...]:
    """`text`, and its parts when a dash or semicolon sets a second thought apart ("Read it
    in the FT this morning — I get that now instead of the Guardian"): a passing moment in
    one part bounds nothing in the other (a maybe or the past still colours them all: "If
    the Leeds job comes through - I'd quit Google")."""
    parts = [p for p in _ASIDE.split(text) if p.strip()]
    return (text,) if len(parts) < 2 else (text, *parts)


@remembered
def _displaced_values(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """`displaced(text)` and `taken_back(text)`, each value with its content words: one
    pass over the text for both."""
    values = _values_of(text, [*_DISPLACE, _PUT_DOWN, _TAKEN_BACK])
    return tuple((value, frozenset(content_words(value))) for value in values)


def displaced(text: str) -> list[str]:
    """The values a statement explicitly displaces ("Traded in the Golf for an e-bike" →
    ["Golf"]; "My old boss retired" → ["boss"])."""
    return _values_of(text, [*_DISPLACE, _PUT_DOWN])


def taken_back(text: str) -> list[str]:
    """What the speaker takes back of what they said ("Oops, I said ramipril yesterday —
    it's amlodipine, I got them confused" → ["ramipril"]). Evidence for ordering only: "I
    mentioned Spotify — I got it confused with Tidal, which my wife uses" may take back
    nothing, so it never supersedes."""
    return _values_of(text, [_TAKEN_BACK])


#: A denial up to two words before an ending verb: "never given up on Leeds United", "haven't
#: completely given up on spanish", "never once sold it".
_DENIED_BEFORE = LazyPattern(r"(?:\bnever|\bnot|n't)(?:\s+[\w'-]+){0,2}\s*$", re.IGNORECASE)


def _values_of(text: str, patterns: list[LazyPattern]) -> list[str]:
    found: list[str] = []
    # Runs of white space cost the patterns' lazy values dear and say nothing.
    masked = mask(SPACES.sub(" ", text))
    for pattern in patterns:
        for match in pattern.finditer(masked):
            if pattern is _TAKEN_BACK and _RETRACTED.search(masked, match.end()) is None:
                continue
            if pattern is _DISPLACE[0] and _DENIED_BEFORE.search(masked[: match.start()]):
                continue
            value = unmask(match.group("x")).strip()
            value = _AFTER_VALUE.sub("", value)
            value = re.sub(
                r"^(?:(?:the|my|our|a|an|old|former|being|\w+ing (?:off|on|with))\s+)+",
                "",
                value,
                flags=re.I,
            )
            value = re.sub(
                r"\s+(?:account|membership|subscription|plan|one)$", "", value, flags=re.I
            )
            if value and len(value.split()) <= 5 and content_words(value):
                found.append(value)
    return list(dict.fromkeys(found))


def arrived(text: str, *, moves_only: bool = False) -> str | None:
    """The value a change moves to ("Switched to decaf after the doctor's visit" → "decaf").
    `moves_only`: not where the verb also tells a trip or an act ("went to the cinema", "put
    the kids to bed")."""
    match = _arrival(text)
    if match is None or (moves_only and match.group(0).split()[0].lower() in _EVENT_VERBS):
        return None
    value = unmask(match.group("y")).strip()
    return value if value and len(value.split()) <= 5 else None


def moved_thing(text: str) -> str | None:
    """What a change moves when it names it ("They moved our standup to 10:15" →
    "standup", "they've pushed standup to 10:45" → "standup"); None for "moved to", "moved
    everything to", "moved me to" or "bumped us to"."""
    match = _arrival(text)
    if match is None:
        return None
    what = re.fullmatch(
        r"\s*(?:(?:my|our|the)\s+)?(?!(?:me|us|it|them|him|her|you|everything|everyone|all|"
        r"things|stuff)\b)([\w-]+(?: [\w-]+)?)\s*",
        match.group("what"),
        flags=re.IGNORECASE,
    )
    return unmask(what.group(1)) if what else None
