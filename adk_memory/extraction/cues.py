"""Cues in a statement's wording that decide how much it may change: is it about now, about a
passing moment, about a maybe, an addition, or a change from one value to another?

The offline path supersedes only on explicit evidence, so these cues gate slot filling
(a temporary, hypothetical or additive statement fills no single-valued slot) and name what a
change displaces ("traded in the Golf for an e-bike" displaces "Golf").
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec, TypeVar

from adk_memory.extraction.sentences import mask, split_sentences, unmask


class _Lazy:
    """A regular expression compiled on its first use, then kept.

    Every `recall` imports this module (to order its answers) but needs few of these
    patterns; compiling all of them at import cost ~25 ms of CPU per CLI command. The
    methods are those of `re.Pattern`, with the same results.
    """

    __slots__ = ("_compiled", "_flags", "_pattern")

    def __init__(self, pattern: str, flags: re.RegexFlag | int = 0) -> None:
        self._pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        # Two threads may both compile it first: the same pattern either way.
        if self._compiled is None:
            self._compiled = re.compile(self._pattern, self._flags)
        return self._compiled

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.match(string, pos, endpos)

    def fullmatch(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> re.Match[str] | None:
        return self.compiled.fullmatch(string, pos, endpos)

    def finditer(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string, pos, endpos)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        return self.compiled.split(string, maxsplit)

    def sub(self, repl: str, string: str, count: int = 0) -> str:
        return self.compiled.sub(repl, string, count)


#: Nouns naming a person the speaker relates to (a subject of its own, not an attribute).
RELATION_NOUNS = (
    r"sister|brother|sibling|mum|mom|mother|dad|father|parents|wife|husband|partner|boyfriend|"
    r"girlfriend|fiance|fiancee|son|daughter|kids|children|child|friend|flatmate|roommate|"
    r"housemate|neighbou?r|aunt|uncle|cousin|niece|nephew|grandmother|grandfather|gran|grandma|"
    r"grandpa|grandparents|colleague|coworker|co-worker|boss|manager|team lead|mentor|"
    # A child by their place among siblings ("My eldest switched courses").
    r"eldest|youngest|oldest|twins|stepson|stepdaughter|stepmum|stepmom|stepdad|in-laws"
)
#: A statement bounded to a passing moment: it says nothing about the lasting value.
_TEMPORARY = _Lazy(
    r"\b(?:this (?:morning|afternoon|evening|week|weekend|saturday|sunday|monday|tuesday|"
    r"wednesday|thursday|friday)|today|tonight|tomorrow|right now|for (?:the|this|a) "
    r"(?:day|night|weekend|week|trip|holiday|holidays|conference|summer|visit|meeting)|"
    r"for a (?:few|couple of) (?:days|weeks|hours)|for (?:a|an|one|two|three) (?:days?|weeks?|"
    r"nights?|hours?)|until (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"tomorrow|next)|on (?:a |my )?(?:trip|holiday|vacation|business|a visit)|visiting|"
    r"at (?:a|the) (?:conference|meeting|workshop|airport|hotel)|(?:dog|house|baby|cat)-?sitting|"
    r"rented|borrowed|next (?:week|month|weekend))\b",
    re.IGNORECASE,
)
#: "as of this week", "since this morning": the start of a lasting change, not a moment.
_CHANGE_START = _Lazy(
    r"\b(?:(?:as of|since|from|starting) (?:this|today|tomorrow|next)|"
    r"(?:started|began|begun|starts|start) (?:[\w-]+ )?(?:this|today|last))\b",
    re.IGNORECASE,
)
#: A plan: not a fact about the present, but a later plan stands in for an earlier one.
_PLAN = _Lazy(r"\b(?:plan(?:ning)? to|planning on|going to|gonna)\b", re.IGNORECASE)
#: A hedge on a present statement ("It's pescatarian now, I guess"): still about now.
_HEDGE = _Lazy(r"\b(?:i think|i guess|i suppose|probably)\b", re.IGNORECASE)
#: A possibility, a plan, a wish or a suggestion: not a fact about the present.
_HYPOTHETICAL = _Lazy(
    r"\b(?:if|would|could|should|might|(?-i:may)|imagine|imagining|wonder|wondering|"
    r"thinking (?:about|of)|considering|consider|plan(?:ning)? to|planning on|"
    r"going to|gonna|want(?:s)? to|"
    r"hope to|hoping to|wish|someday|one day|maybe|perhaps|probably|possibly|i think|i guess|"
    r"not sure|might be|dream(?:ing)? of|tempted to|interview(?:ed)? (?:at|with|for)|"
    r"fingers crossed|apply(?:ing)? (?:to|for)|applied (?:to|for))\b",
    re.IGNORECASE,
)
#: Words before a "too" of degree, not of addition, when a word follows ("the lessons got
#: too pricey", "it was too itchy", "way too far"; "my Italian is too." adds).
_DEGREE_BEFORE_TOO = (
    "is was are were got get gets be been feel felt seem seems looks way far much 's 're 'm "
    "just bit all".split()
)
#: An addition beside what is known: never a displacement. "The other day", "each other"
#: and "second-hand" add nothing.
_ADDITIVE = _Lazy(
    r"\b(?:also|too(?!\s+[a-z])|"
    + "".join(rf"(?<!{re.escape(word)} )" for word in _DEGREE_BEFORE_TOO)
    + r"too|as well|either|another|"
    r"(?<!each )(?<!every )other(?! (?:day|night|week|weekend|morning|evening|"
    r"afternoon|time|than|hand)\b)|additionally|in addition|besides|added|"
    r"(?<!for a )second(?![- ]?hand)|extra)\b",
    re.IGNORECASE,
)
#: A past state or event ("I lived in Tokyo for a year", "when I was a student").
_PAST = _Lazy(
    # "getting used to", "what I'm used to" are no habit of the past ("I'm used to Vim"
    # may be either: read as the past, it orders nothing).
    r"\b(?:(?<!getting )(?<!get )(?<!got )(?<!what i'm )(?<!what we're )used to|"
    r"when i was|back when|back then|ago|"
    r"in (?:19|20)\d\d|as a (?:kid|child|student|teenager)|after college|"
    r"after school|growing up|grew up|years? back)\b",
    re.IGNORECASE,
)
#: "Started eating fish again a few weeks ago", "I moved to Munich three weeks ago": a
#: recent "ago" dates the start of what holds now. Years back it is history ("I moved to
#: London fifteen years ago"), and an ending is no start ("I sold my car a month ago" says
#: nothing of the car bought since).
#: How many days, weeks, months or years ("three", "a few", "12"), longest first.
COUNT = (
    r"\d+|a couple of|a few|several|an|a|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve"
)
_RECENTLY = rf"(?:{COUNT}) (?:days?|weeks?|months?) ago"
_STARTED_AGO = _Lazy(
    r"\b(?:started|began|begun|took up|joined|moved|relocated|switched|changed|transferred|"
    rf"converted|became|got married|got engaged|married|adopted|signed up)\b"
    rf"[^.;!?]{{0,60}}?\b{_RECENTLY}\b",
    re.I,
)
_RECENT_AGO = _Lazy(rf"\b{_RECENTLY}\b", re.I)
#: Wording that says a value changed (the update may name neither old nor new value).
_CHANGE = _Lazy(
    r"\b(?:now|these days|nowadays|no longer|not any ?more|any ?more|no more|instead|"
    r"switched|switching|moved|changed|swapped|traded|replaced|upgraded|downgraded|converted|"
    r"transferred|ported|migrated|shifted|ditched|dropped|quit|cancell?ed|sold|gave up|"
    r"stopped|left|finished|done with|retired|took a job|relocated|from \S+(?: \S+){0,3} to)\b",
    re.IGNORECASE,
)
#: Words that set what holds now against what held before ("We're in Munich now", "it's
#: sparkling water with dinner these days", "no longer", "instead"). Event verbs ("left",
#: "fixed", "started") are not among them: "I left the party early" changes no value.
_NOW_VERSUS_BEFORE = _Lazy(
    r"\b(?:now|these days|nowadays|from now on|no longer|any longer|not any ?more|"
    r"any ?more(?! than)|no more|instead)\b",
    re.IGNORECASE,
)

_NP = r"(?:the |my |our |a |an |that |this )?(?P<x>[^.,;!?]+?)"
_NP_STOP = (
    r"\s+(?:for|with|to|in favou?r of|and|but|so|because|after|since|last|this|on|at|in|as|"
    r"over|during|when|before|was|is)\b|\s*[.,;!?\u2014\u2013]|\s+-\s|\s*$"
)
_NP_END = rf"(?={_NP_STOP})"
#: What a thing or person that ended did ("The SE finally died", "my old boss retired").
_CEASED = (
    r"(?: finally| sadly| just| officially)? (?:retired|moved out|passed away|died|"
    r"got (?:totall?ed|stolen|wrecked|written off)|fell through|is history|are history|"
    r"is done|is over|went on (?:\w+ )?leave|shut down|closed|folded|went bust)\b"
)
_SPACES = _Lazy(r"\s+")
#: Explicit displacement of a named value, the value as group `x`.
_DISPLACE = [
    _Lazy(p, re.IGNORECASE)
    for p in (
        rf"\b(?:traded(?: in)?|swapped|exchanged|replaced|ditched|dropped|quit|left|sold|"
        rf"cancell?ed|closed|gave up(?: on)?|stopped(?: using| going to| playing| seeing)?|"
        rf"(?:got|get) rid of|"
        rf"finished(?: with)?|done with|pulled out of|moved (?:away )?from|moved out of|"
        rf"switched (?:away )?from|moved over from|migrated (?:away )?from|handed in my notice at|"
        rf"broke up with|lost|tapering off|tapered off|barely (?:touch|use)|no more|"
        rf"no longer (?:use|go to|play|drink|eat|see|have|work at|live in)) {_NP}{_NP_END}",
        rf"\b(?:my )?(?:final|last) day at {_NP}{_NP_END}",
        rf"\b(?:switched|moved|changed|migrated)(?: [\w-]+){{1,3}}? from {_NP}(?= to\b)",
        r"^(?:the |my |our )?(?:old )?(?P<x>[^.,;!?]+?)" + _CEASED,
        # An end given as the reason ("signed for Clapton Rovers after the Hawks folded"): a
        # short name after the conjunction, and only an end for good ("After the pub closed
        # we went to Tom's" is an evening).
        r"\b(?:after|since|because|now that) (?:the |my |our )(?:old )?"
        r"(?P<x>[\w'-]+(?: [\w'-]+){0,2}?)(?: finally| sadly| officially)? "
        r"(?:retired|passed away|died|folded|went bust)\b",
        # Ends said as they happen, inside the frame of an outcome ("Ended up cancelling
        # PureGym and joining The Gym Group", "finally getting rid of the Volvo"); a gerund
        # alone is an activity or a subject ("Selling on eBay is my side hustle", "I'm not
        # quitting Google"). "dropping" is left out ("dropping the kids at school").
        r"\b(?:ended up|wound up|finally|went ahead and)\b"
        r"(?:(?!\b(?:not|never|no|against|without|avoid)\b|n't)[^.;!?]){0,80}?"
        r"\b(?:trading(?: in)?|swapping|replacing|ditching|quitting|selling|cancell?ing|closing|"
        rf"giving up(?: on)?|getting rid of) (?!(?:on|at|in|out|up|off|down)\b){_NP}{_NP_END}",
        r"^(?P<x>[^.,;!?]+?) and i (?:broke up|split up|separated)\b",
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
_TAKEN_BACK = _Lazy(
    rf"\b(?:i (?:said|told you|wrote|typed|mentioned)|did i (?:say|tell you|mention))"
    rf"(?:\s+(?:that\s+)?(?:i was|i'm|i am|it was|it's|i live in|i work at|i use))?\s+"
    rf"(?!about\b){_NP}(?=\s+(?:yesterday|earlier|before|last time)\b|{_NP_STOP})",
    re.IGNORECASE,
)
#: Words that take back what was said, after it: "I meant Bradford", "my mistake", "I got
#: them confused", "that was my old one". Not "actually" ("I told you cello, it's actually
#: harder than it looks"), and not "I meant his brother": a person taken back for another
#: would retire every memory naming them.
_RETRACTED = _Lazy(
    r"\b(?:i (?:actually )?meant(?! to\b)(?!\s+(?:his|her|their|my|the other|someone)\b)|"
    r"my mistake(?! was)|my bad|(?:got|had) (?:it|that|them) wrong|wrong one|"
    r"mixed (?:them |it |those )?up|muddled|got (?:them |it )?confused|misspoke|"
    r"(?:that was|that's|it was|it's) my old)\b",
    re.IGNORECASE,
)
#: What trails a displaced value without being part of it ("Python anymore").
_AFTER_VALUE = _Lazy(
    r"\s+(?:any ?more|now|these days|for good|altogether|completely|entirely|again)$", re.I
)
_PUT_DOWN = _Lazy(r"\bput (?:the |my )?(?P<x>[\w -]+?) (?:down|away|aside)\b", re.I)
#: "switched to decaf", "moved over to VS Code", "upgraded to a Pixel 8": the new value.
_ARRIVE = _Lazy(
    r"\b(?:switched|moved|changed|swapped|migrated|transitioned|converted|upgraded|downgraded|"
    r"transferred|ported|went|shifted|bumped|raised|increased|lowered|reduced|cut|pushed|put)"
    r"(?P<what>(?: [\w-]+){0,3}?) (?:over |up |down |back )?to (?:a |an |the |my )?"
    r"(?P<y>[^.,;!?]+?)(?=\s+(?:after|because|since|for|last|this|when|as|from|so)\b|\s*[.,;!?]|\s*$)",
    re.IGNORECASE,
)

_STOP = frozenset(
    "the a an my our your his her their this that these those old new of in at on for to with "
    "and or i we me it its is are was be been by account club shift class lesson job habit "
    "membership subscription plan".split()
)


#: A statement of a past event rather than a present state ("I went", "we bought").
_IRREGULAR_PAST = (
    "went was were had got took made saw won bought sold did came met ate drove flew ran gave "
    "found told said lost paid spent left wrote read broke began quit put cut set kept sent "
    "brought thought felt heard held built".split()
)
_IRREGULAR = "|".join(_IRREGULAR_PAST)
_PAST_VERB = _Lazy(
    rf"\b(?:i|we)\s+(?:\w+ed|{_IRREGULAR})\b",
    re.IGNORECASE,
)
#: Said of the speaker or the speaker's people: a first-person word early on, or a gerund
#: subject ("Living in Austin means tacos every weekend").
_PERSONAL = _Lazy(
    r"^(?:(?:\W*\w+\W+){0,3}?(?:i|i'm|i've|we|we're|our|my)\b|\W*[a-z]+ing\b)", re.IGNORECASE
)
_ADJECTIVES = (
    r"(?:(?:best|old|new|older|oldest|younger|little|big|other|eldest|youngest|twin|ex-?)\s+)*"
)
#: "My (best) friend (Ravi) …", "Mum retired …": a statement whose subject is someone else.
#: A short lead-in before a sentence's subject: "Big news, my sister's moved to Glasgow",
#: "In March, Tom left Google", "Update: she's in Bergen now".
_LEAD_IN = r"^\W*(?:[A-Za-z]+(?:\s+[A-Za-z]+)?\s*(?:[,:!\u2014\u2013]+|\s-)\s+)?"
_RELATION_SUBJECT = _Lazy(
    rf"{_LEAD_IN}(?:(?:my|our)\s+)?{_ADJECTIVES}(?P<who>{RELATION_NOUNS})\b"
    rf"(?:\s+(?P<name>(?-i:[A-Z][a-z]+)))?(?:\s+and\s+(?:my\s+)?(?P<also>{RELATION_NOUNS})\b)?",
    re.IGNORECASE,
)
#: "My team just hired two interns", "Our landlord sold the building": someone or something
#: of the speaker's is the subject, and the speaker is not named again.
_POSSESSED_SUBJECT = _Lazy(
    rf"^\W*(?:my|our)\s+{_ADJECTIVES}(?P<what>[a-z][\w-]*)\b(?P<rest>.*)$", re.IGNORECASE
)
#: "My new job is at Stripe", "My rent went up": a thing of the speaker's described, not
#: acting ("My landlord is selling the flat" acts).
_DESCRIBED = _Lazy(
    r"^\s*(?:'s|'re|\s+(?:is|are|was|were|has been|have been|became|went|got|feels|looks))\b"
    r"(?!\s+\w+ing\b)",
    re.IGNORECASE,
)
#: "My new ThinkPad arrived": something the speaker just got, a fact of the speaker's ("My
#: new landlord moved to Spain" is the landlord's).
_ACQUIRED = _Lazy(
    r"^\W*(?:my|our)\s+(?:brand[- ])?new\s+[\w-]+(?:\s+[\w-]+)?\s+(?:just\s+|finally\s+)?"
    r"(?:arrived|came|turned up|showed up|got delivered|was delivered|is here)\b",
    re.IGNORECASE,
)
#: "My manager is Laura", "My girlfriend's called Chloe": the relation named, not described.
_NAMES_RELATION = _Lazy(r"\s*(?:is|'s|was)\s+(?:called\s+|named\s+)?(?-i:[A-Z])", re.I)
#: "She moved to Bergen": someone already spoken of.
_PRONOUN_SUBJECT = _Lazy(rf"{_LEAD_IN}(?:he|she|they)(?:'s|'re|'ve|'d|'ll)?\b", re.IGNORECASE)
#: What `subject_words` says of a statement whose subject is a third-person pronoun.
THIRD_PERSON = "(someone)"
#: "Ravi left Google", "Dana just runs the team", "Tom is at Bosch": a capitalised first word,
#: then a verb or a phrase about it. A capital opening a sentence before anything else names
#: no one: "Officially a Londoner now", "New job at Deloitte", "Imagine living in Hawaii".
_NAME_SUBJECT = _Lazy(
    rf"{_LEAD_IN}(?P<name>(?-i:[A-Z][a-z]+))(?:'s|'ve|'d|'ll)?\s+"
    r"(?:(?:(?:[a-z]+ly|just|now|still|also|finally|never|always|already)\s+)?"
    r"(?:is|was|are|were|has|had|have|got|gets|will|would|can|could|does|did|doesn't|didn't|"
    rf"isn't|wasn't|hasn't|won't|can't|[a-z]+(?:s|ed)|{_IRREGULAR})"
    # Or a phrase about it: "Tom from work moved", "Rent in Leeds is crazy now" (not the
    # speaker's news either way).
    r"|(?:from|at|in|on|of|for|and|with)\s)\b"
)
_FIRST_PERSON = _Lazy(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|we|we're|we've|us|our)\b", re.I)
#: Words that open a sentence without naming anyone ("Finally upgraded", "Sorry I went quiet").
_OPENERS = frozenset(
    "the a an this that these those it its there here so and but or then now just finally "
    "actually honestly lately recently sorry quick big good bad great turns yes no well oh "
    "after before since when while once every today yesterday last next first got caved "
    "monday tuesday wednesday thursday friday saturday sunday".split()
)


@dataclass(frozen=True)
class Cues:
    """What the wording of one statement allows."""

    temporary: bool
    hypothetical: bool
    additive: bool
    past: bool
    change: bool
    #: A plan said as a plan ("We're going to Portugal in June"): no maybe, not the past,
    #: not bounded to a passing moment.
    planned: bool = False
    #: About now but hedged ("I'm mostly pescatarian now, I guess"): hypothetical only by
    #: its hedge, not the past, not bounded to a passing moment.
    hedged: bool = False

    @property
    def lasting(self) -> bool:
        """Whether the statement may fill a single-valued slot: about now, for good."""
        return not (self.temporary or self.hypothetical or self.past)


#: Statements up to this long have what their wording says remembered: recall reads the same
#: memories' wording query after query, and a short text's entry costs little.
_CACHED_CHARS = 600
_P = ParamSpec("_P")
_R = TypeVar("_R")


def _remembered(read: Callable[Concatenate[str, _P], _R]) -> Callable[Concatenate[str, _P], _R]:
    """`read` of a text, remembered (4,096 entries) for texts up to `_CACHED_CHARS` long."""
    cached = functools.lru_cache(maxsize=4096)(read)

    @functools.wraps(read)
    def remembered(text: str, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        if len(text) <= _CACHED_CHARS:
            # Every remembered reader takes only a string and flags: all hashable.
            return cached(text, *args, **kwargs)  # type: ignore[arg-type]
        return read(text, *args, **kwargs)

    return remembered


@_remembered
def cues(text: str) -> Cues:
    """What the wording of `text` allows."""
    temporary = bool(_TEMPORARY.search(text)) and not _CHANGE_START.search(text)
    question = text.rstrip().endswith("?")
    hypothetical = bool(_HYPOTHETICAL.search(text)) or question
    # A recent start dated by "ago" is no past, unless the past is said otherwise too
    # ("when I was a student").
    started = _STARTED_AGO.search(text) is not None
    past = _PAST.search(_RECENT_AGO.sub(" ", text) if started else text) is not None

    def only_by(words: _Lazy) -> bool:
        """Hypothetical through `words` alone, about no passing moment or the past."""
        return (
            hypothetical
            and not (question or temporary or past)
            and words.search(text) is not None
            and _HYPOTHETICAL.search(words.sub(" ", text)) is None
        )

    return Cues(
        temporary=temporary,
        hypothetical=hypothetical,
        additive=bool(_ADDITIVE.search(text)),
        past=past,
        change=bool(_CHANGE.search(text)),
        planned=only_by(_PLAN),
        hedged=only_by(_HEDGE),
    )


#: The start of something lasting ("first day at St James's", "my new cardiologist", "Ben
#: started at Kingsway"): a time word beside it dates the start, it bounds no passing moment.
_BEGINNING = _Lazy(
    r"\b(?:first (?:day|week|month|shift|standup|stand-up|lesson|class|session|meeting|"
    r"practice|rehearsal|appointment|morning)|(?:my|our) (?:brand[- ])?new|"
    r"(?:start|starts|started|starting|began|begun|joined|joining) at\b)",
    re.IGNORECASE,
)


#: A day word that dates an event said in the past tense ("Passed my B1 exam today",
#: "Completed on the house this morning"): it bounds no passing state.
_DAY_WORD = _Lazy(r"\b(?:earlier )?(?:today|this (?:morning|afternoon|evening|week))\b", re.I)
#: A clause told in the past tense ("Read a piece in the FT this morning").
_PAST_TENSE = _Lazy(
    rf"^\W*(?:[a-z]+ed|{_IRREGULAR})\b|\b(?:i|we)\s+(?:just\s+)?(?:[a-z]+ed|{_IRREGULAR})\b",
    re.IGNORECASE,
)
#: What frames a past event as how things turned out ("Ended up relocating to Tucson").
_OUTCOME = _Lazy(r"\b(?:ended up|wound up|finally|in the end)\b", re.IGNORECASE)


@_remembered
def one_off_past(text: str) -> bool:
    """Whether `text` tells a one-off event of the past ("went to the Rangers game with a
    mate", "Took the Golf to Halfords"), not how things turned out ("Ended up relocating to
    Tucson") nor an event whose outcome lasts ("Joined Riverside Striders")."""
    return (
        _PAST_TENSE.search(text) is not None
        and _OUTCOME.search(text) is None
        and _OUTCOME_EVENT.search(text) is None
    )


#: Events whose outcome lasts ("passed", "signed", "moved in"); "Took the train to work
#: today" or "Used Bing today" is a moment.
_LASTING_EVENT = (
    r"(?:passed|completed|graduated|qualified|signed|bought|adopted|moved|started|joined|"
    r"registered|enrolled|switched|upgraded|married|got (?:married|engaged|promoted|the keys)|"
    r"picked up (?:the keys|my new)|handed in|resigned|retired|accepted)"
)
_OUTCOME_EVENT = _Lazy(
    rf"^\W*(?:just\s+|finally\s+|officially\s+)?{_LASTING_EVENT}\b|"
    rf"\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|officially\s+)?{_LASTING_EVENT}\b",
    re.IGNORECASE,
)


@_remembered
def dated_event(text: str) -> bool:
    """Whether `text` tells an event of the speaker's in the past tense that only a day word
    dates ("Passed my B1 German exam today!!", "We completed on the house this morning"): what
    it brought about may last, unlike "I'm working at the library this afternoon"."""
    if _OUTCOME_EVENT.search(text) is None or _DAY_WORD.search(text) is None:
        return False
    found = cues(_DAY_WORD.sub(" ", text))
    return not (found.temporary or found.hypothetical or found.past)


@_remembered
def begins_lasting(text: str) -> bool:
    """Whether `text` reads as the start of something lasting, however a time word dates it
    ("First standup with the search team today", "Saw my new GP Dr Lindqvist today"): no
    maybe, not the past. Not used to fill a slot, whose evidence must be explicit ("I'm
    starting at the library this afternoon" may be one shift)."""
    found = cues(text)
    return not (found.hypothetical or found.past) and _BEGINNING.search(text) is not None


#: "My sister said her friend just moved to Galway": someone's report, and what it reports.
_REPORTED = _Lazy(
    r"^(?P<reporter>.*?)\b(?:said|says|say|told (?:me|us)|tells (?:me|us)|"
    r"(?:was|is|were|are|keeps?|kept) (?:saying|telling (?:me|us))|mentioned|mentions|"
    r"reckons|thinks|claims|insists|swears|announced|texted(?: me)?(?: to say)?|"
    r"messaged(?: me)?|emailed(?: me)?|heard)(?:\s+that)?[,:]?\s+(?P<clause>\w.*)$",
    re.IGNORECASE,
)
#: Hearsay without a reporter ("Apparently Tom moved to Leeds", "I heard Dana got the
#: job", "According to Mum, the house sold"): the clause says whose news it is.
_HEARSAY = _Lazy(
    r"^\W*(?:apparently|according to [^,]+,|(?:i|we) heard(?: that)?)[,:]?\s+"
    r"(?=(?-i:[A-Z])|(?:my|our|the|his|her|their)\b)(?P<clause>\w.*)$",
    re.IGNORECASE,
)
#: The speaker in the reporter's part or the reported clause ("As I said", "Everyone says
#: Berlin is great but I moved to Munich", "Google announced layoffs, so I'm at Meta now"):
#: the speaker's own news.
_SPEAKER_SAYS = _Lazy(r"\b(?:i|i'm|i've|i'd|i'll|we|we're|we've)\b", re.IGNORECASE)
#: Relations by gender, so "My sister said he moved" reports someone else.
_FEMALE = frozenset("sister mother wife girlfriend daughter aunt niece grandmother fiancee".split())
_MALE = frozenset("brother father husband boyfriend son uncle nephew grandfather fiance".split())


@_remembered
def reported_about(text: str) -> str | None:
    """Whose news `text` reports when it reports someone else's: the reporter when the
    report goes on about them ("Tom told me he's at Google now" → "Tom"), else the clause's
    own subject ("My sister said her friend just moved to Galway" → "her friend just moved
    to Galway"). None when `text` reports nothing, or the speaker's own news ("The doctor
    said I'm no longer diabetic")."""
    hearsay = _HEARSAY.match(text)
    if hearsay is not None:
        clause = hearsay.group("clause")
        return None if _SPEAKER_SAYS.search(clause) else clause
    found = _REPORTED.search(text)
    if found is None or not found.group("reporter").strip():
        return None
    reporter, clause = found.group("reporter").strip(), found.group("clause")
    if _SPEAKER_SAYS.search(reporter) or _SPEAKER_SAYS.search(clause):
        return None
    # A clause that goes on with "he", "she" or "they" is about the reporter.
    again = _PRONOUN_SUBJECT.match(clause)
    if again is not None:
        pronoun, who = again.group(0).lower(), person_words(reporter)
        if (pronoun.startswith("he") and who & _FEMALE) or (
            pronoun.startswith("she") and who & _MALE
        ):
            # "My sister said he moved to Bergen": someone else again.
            return clause
        return reporter
    return clause


#: The label the local extractor puts before a statement ("User: ", 'User (asked "…"): ').
_SPEAKER_LABEL = _Lazy(r"^[^:]{1,80}?(?: \(asked \"[^\"]*\"\))?:\s+")


#: Separators of a compound value ("horror and sci-fi", "jazz, soul or funk").
_ITEM_SPLIT = _Lazy(r"\s*(?:,|&|/|\band\b|\bor\b|\bplus\b)\s*", re.IGNORECASE)
_WORD_ITEM_SPLIT = _Lazy(r"\s*(?:&|/|\band\b|\bor\b|\bplus\b)\s*", re.IGNORECASE)
#: Wording that says something no longer holds (or never did).
_NEGATION = _Lazy(r"\b(?:not|no longer|no more|never|stopped|quit|gave up)\b|n't\b", re.IGNORECASE)


def split_items(text: str, *, commas: bool = True) -> list[str]:
    """The parts of a compound value or statement ("horror and sci-fi" → horror, sci-fi);
    without `commas`, a comma does not split (in a sentence it mostly joins clauses)."""
    pattern = _ITEM_SPLIT if commas else _WORD_ITEM_SPLIT
    return [part for part in pattern.split(text) if part.strip()]


def negates(text: str) -> bool:
    """Whether `text` says that something does not (or no longer) hold."""
    return _NEGATION.search(text) is not None


def strip_speaker(text: str) -> str:
    """A stored statement's own words, without the "<Speaker>: " label."""
    return _SPEAKER_LABEL.sub("", text.strip(), count=1)


@_remembered
def present_state(text: str, *, personal: bool = True, plans: bool = False) -> bool:
    """Whether `text` reads as one present state ("I drive a VW Golf, it's ancient but
    reliable", "My sister lives in Oslo", "The launch is scheduled for May 3rd"): not a past
    event, a maybe or a question, and one sentence; with `personal`, said of the speaker or
    the speaker's people; with `plans`, a plan counts ("We're planning to marry in June")."""
    if len(split_sentences(text)) != 1 or text.rstrip().endswith("?"):
        return False
    found = cues(text)
    return (
        not found.past
        and (plans or not found.hypothetical)
        and (not personal or _PERSONAL.match(text) is not None)
        and _PAST_VERB.search(text) is None
    )


@_remembered
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
    return _NOW_VERSUS_BEFORE.search(text) is not None or _moves_to_value(text)


#: Verbs `arrived` reads that also tell a one-off trip or act ("went to the cinema", "put
#: the kids to bed"): with them, a move to a value is not evidence of a change.
_EVENT_VERBS = frozenset({"went", "put", "cut"})


def _arrival(text: str) -> re.Match[str] | None:
    """The move to a new value `text` states ("switched to decaf"), its abbreviations masked."""
    return _ARRIVE.search(mask(text))


def _moves_to_value(text: str) -> bool:
    match = _arrival(text)
    return match is not None and match.group(0).split()[0].lower() not in _EVENT_VERBS


def ends(text: str, state: str) -> bool:
    """Whether `text` says that what `state` names is gone, naming it ("Sold the Vespa" for
    "I ride a Vespa to work"; "Cancelled Spotify" for "I listen to music on Spotify"), and
    says it for good (not a passing moment, a maybe, an addition or the past). One item of
    several is not all of the state ("Sold the motorbike" for "I have a car and a
    motorbike")."""
    found = cues(text)
    if found.hypothetical or found.additive or found.past:
        return False
    words = content_words(state)
    parts = _asides(text)
    if any(cues(part).temporary and _PAST_TENSE.search(part) is None for part in parts[1:]):
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


#: Where an aside or a second thought begins: a dash or a semicolon between words.
_ASIDE = _Lazy(r"(?<!\s)\s+[\u2014\u2013-]+\s+|;\s+")


@_remembered
def _asides(text: str) -> tuple[str, ...]:
    """`text`, and its parts when a dash or semicolon sets a second thought apart ("Read it
    in the FT this morning — I get that now instead of the Guardian"): a passing moment in
    one part bounds nothing in the other (a maybe or the past still colours them all: "If
    the Leeds job comes through - I'd quit Google")."""
    parts = [p for p in _ASIDE.split(text) if p.strip()]
    return (text,) if len(parts) < 2 else (text, *parts)


@_remembered
def _displaced_values(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """`displaced(text)` and `taken_back(text)`, each value with its content words: one
    pass over the text for both."""
    values = _values_of(text, [*_DISPLACE, _PUT_DOWN, _TAKEN_BACK])
    return tuple((value, frozenset(content_words(value))) for value in values)


#: What joins two items of a list; a comma does only inside a list that "and" or "or"
#: closes ("climbing, chess and baking"), since in a sentence it mostly opens a clause or
#: an aside ("I live in Berlin, in a flat near the park").
_LIST_SEPARATOR = r"(?:&|/|\+|\band\b|\bor\b|\bplus\b|\bas well as\b)"
#: A conjunct opening with one of these is a clause about the value ("the Golf and love
#: it"), not another item beside it.
_CLAUSE_WORDS = frozenset(
    "i i'm i've i'd it it's its we we're they they're she she's he he's me us them him her "
    "is am are was were has have had that which who this there so but".split()
)
#: What may open an item of a list ("and at a pub", "and an iPad", "and two cats").
_ITEM_OPENING = (
    r"(?:(?:at|in|on|with|for|from|to)\s+)?"
    r"(?:(?:a|an|the|my|our|some|two|three|four|five|\d+)\s+)?"
)
_ITEM = r"[\w+#.'-]+(?:\s+[\w+#.'-]+){0,3}?"
#: Where an item ends: a separator, the sentence's end, or a phrase about it ("tennis and
#: squash at the club every week").
_ITEM_END = (
    r"(?=$|[,.;:!?&/)]|\s(?:and|or|plus)\b|"
    r"\s(?:at|in|on|for|with|from|every|each|most|when|since|too|as well|is|are|was|were)\b)"
)
#: An item after the value: up to four words to the next separator or the sentence's end.
_NEXT_ITEM = _Lazy(
    rf"\s*(?:,?\s*{_LIST_SEPARATOR}\s*{_ITEM_OPENING}(?P<item>{_ITEM})\s*{_ITEM_END}"
    rf"|,\s*{_ITEM_OPENING}(?P<listed>{_ITEM})\s*(?=,|\s(?:and|or|plus)\b))",
    re.IGNORECASE,
)
#: An item before the value, joined by a separator ("tennis and golf").
_PREVIOUS_ITEM = _Lazy(
    rf"(?<![\w+#.'-])(?P<item>[\w+#.'-]+)\s*,?\s*{_LIST_SEPARATOR}\s*{_ITEM_OPENING}$",
    re.IGNORECASE,
)
#: Two items before the value, joined by commas: a list of three or more without "and"
#: ("a car, a van, a motorbike"); one comma alone mostly opens an aside.
_PREVIOUS_LISTED = _Lazy(
    rf"(?<![\w+#.'-])[\w+#.'-]+\s*,\s*{_ITEM_OPENING}(?:[\w+#.'-]+\s+)?"
    rf"(?P<item>[\w+#.'-]+)\s*,\s*{_ITEM_OPENING}$",
    re.IGNORECASE,
)
#: How far before a value its list may begin, and how many mentions of it are read: a
#: long pasted text must not cost time in proportion to its length squared.
_LIST_REACH = 120
_MENTIONS_READ = 20


def one_of_several(value: str, text: str) -> bool:
    """Whether `text` lists `value` beside other items ("Milo" in "two cats, Milo and Luna";
    "golf" in "I play tennis and golf"; "the pub job" in "at Tesco and at a pub"), so that
    the end of `value` leaves the others standing. A clause after it is no item ("I drive a
    VW Golf, it's ancient"). Read on the value's content words, as `ends` names it."""
    for word in content_words(value):
        mentions = re.finditer(
            rf"(?<![\w+#]){re.escape(word)}(?:e?s)?(?![\w+#])", text, re.IGNORECASE
        )
        for _, found in zip(range(_MENTIONS_READ), mentions, strict=False):
            if _listed(text, found.start(), found.end()):
                return True
    return False


def _listed(text: str, start: int, end: int) -> bool:
    """Whether the words at text[start:end] are one item of a list."""
    after = _NEXT_ITEM.match(text, end, min(len(text), end + _LIST_REACH))
    if after is not None:
        item = after.group("item") or after.group("listed")
        if not _CLAUSE_WORDS & {word.strip(".") for word in item.lower().split()}:
            return True
    reach = max(0, start - _LIST_REACH)
    before = _PREVIOUS_ITEM.search(text, reach, start) or _PREVIOUS_LISTED.search(
        text, reach, start
    )
    return before is not None and before.group("item").lower() not in _CLAUSE_WORDS


@_remembered
def subject_words(text: str, *, possessed: bool = False) -> frozenset[str]:
    """Who a statement is about when that is not the speaker, as lower-case words, kin
    terms folded ("My best friend Ravi works at Google" → {"friend", "ravi"}; "Ravi left
    Google" → {"ravi"}; "Mum and Dad sold the house" → {"mother", "father"}); empty when it
    is about the speaker, alone or too ("Sold the Vespa", "We're in Munich", "My partner
    converted me").

    With `possessed`, a thing of the speaker's that acts counts as the subject ("My team
    just hired two interns" → {"team"}); one described is the speaker's ("My new job is at
    Stripe"), and without `possessed` so is "My team just hired two interns".
    """
    relation = _RELATION_SUBJECT.match(text)
    if relation is not None and _NAMES_RELATION.match(text, relation.end()):
        # "My manager is Laura": who the speaker's manager is, a fact of the speaker's.
        return frozenset()
    if relation is not None and _FIRST_PERSON.search(text, relation.end()) is None:
        who = {relation.group("who")}
        if relation.group("name"):
            who.add(relation.group("name"))
        if relation.group("also"):
            who.add(relation.group("also"))
        return person_words(" ".join(who))
    match = _POSSESSED_SUBJECT.match(text)
    if match is not None:
        rest = match.group("rest")
        if (
            possessed
            and _FIRST_PERSON.search(rest) is None
            and not _DESCRIBED.match(rest)
            and not _ACQUIRED.match(text)
        ):
            return frozenset({_singular(match.group("what").lower())})
        return frozenset()
    if _PRONOUN_SUBJECT.match(text) and _FIRST_PERSON.search(text) is None:
        return frozenset({THIRD_PERSON})
    named = _NAME_SUBJECT.match(text)
    if (
        named is not None
        and named.group("name").lower() not in _OPENERS
        and named.group("name").lower() not in _IRREGULAR_PAST
        and not named.group("name").endswith(("ed", "ing", "ly"))
        and _FIRST_PERSON.search(text) is None
    ):
        return frozenset({named.group("name").lower()})
    return frozenset()


_RELATION_WORD = _Lazy(rf"(?:{RELATION_NOUNS})", re.IGNORECASE)
#: Capitalised words that open or greet, never a name ("Hi, my brother Tom").
_NOT_NAMES = ("hi", "hey", "hello", "thanks", "yes", "no", "ok", "okay", "dear")
#: "my sister Priya", "my son, Ben,", "my boss is called Kenji", "Priya, my sister",
#: "my colleague Dr Shah". "My mum is French" names no one.
_TITLE = r"(?:(?:dr|mr|mrs|ms|miss|prof)\.?\s+)?"
_NAMED_RELATION = _Lazy(
    rf"\b(?:my|our)\s+{_ADJECTIVES}(?P<who>{RELATION_NOUNS})"
    rf"(?:'s name is\s+|\s+(?:is called|is named|called|named)\s+|\s+|,\s+(?=\S+,))"
    rf"{_TITLE}(?P<name>(?-i:[A-Z][a-z]+))\b(?!')"
    rf"|\b(?!(?:{'|'.join(_NOT_NAMES)})\b)(?P<name2>(?-i:[A-Z][a-z]+)),\s+"
    rf"(?:my|our)\s+{_ADJECTIVES}(?P<who2>{RELATION_NOUNS})\b",
    re.IGNORECASE,
)


@_remembered
def relation_names(text: str) -> tuple[tuple[str, str], ...]:
    """Who the speaker names and how they relate, as (name, relation) in lower case, kin
    terms folded and a relation of several words read by its head ("My sister Priya is a
    nurse" → ("priya", "sister"); "Ben, my son, starts school" → ("ben", "son"); "my team
    lead Kenji" → ("kenji", "lead"))."""
    found = []
    for match in _NAMED_RELATION.finditer(text):
        name = (match.group("name") or match.group("name2")).lower()
        head = (match.group("who") or match.group("who2")).split()[-1].lower()
        if name in _OPENERS or name in _NOT_NAMES:
            continue
        found.append((name, _KIN.get(head, head)))
    return tuple(dict.fromkeys(found))


def is_relation(word: str) -> bool:
    """Whether `word` names a relation ("sister", "mother") rather than a person's name."""
    # Words come plural-folded ("parents" → "parent").
    return word in _KIN.values() or any(
        _RELATION_WORD.fullmatch(form) is not None for form in (word, f"{word}s")
    )


#: Kin terms that name the same person ("Mum", "my mother"), and the groups they make up.
_KIN = {
    **dict.fromkeys(("mum", "mom", "mam", "mother"), "mother"),
    **dict.fromkeys(("dad", "father"), "father"),
    **dict.fromkeys(("gran", "grandma", "nan", "nana", "grandmother"), "grandmother"),
    **dict.fromkeys(("grandpa", "granddad", "grandfather"), "grandfather"),
}
_KIN_GROUPS = {
    "parent": ("mother", "father"),
    "grandparent": ("grandmother", "grandfather"),
}


@_remembered
def person_words(text: str) -> frozenset[str]:
    """The content words of `text` with kin terms folded, groups spelled out ("my parents"
    → {"parent", "mother", "father"})."""
    words = {_KIN.get(w, w) for w in content_words(text)}
    for group, members in _KIN_GROUPS.items():
        if group in words:
            words.update(members)
    return frozenset(words)


def content_words(text: str) -> set[str]:
    """The words that identify a value, plurals folded ("the U.S. Bank accounts" →
    {"u.s", "bank"})."""
    # A possessive is no plural: "my brother's" names the brother, not "brother'".
    words = (w.strip(".'").removesuffix("'s") for w in re.findall(r"[\w][\w.'+#-]*", text.lower()))
    return {_singular(w) for w in words if w and w not in _STOP} - _STOP


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


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


def _values_of(text: str, patterns: list[_Lazy]) -> list[str]:
    found: list[str] = []
    # Runs of white space cost the patterns' lazy values dear and say nothing.
    masked = mask(_SPACES.sub(" ", text))
    for pattern in patterns:
        for match in pattern.finditer(masked):
            if pattern is _TAKEN_BACK and _RETRACTED.search(masked, match.end()) is None:
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


def arrived(text: str) -> str | None:
    """The value a change moves to ("Switched to decaf after the doctor's visit" → "decaf")."""
    match = _arrival(text)
    if match is None:
        return None
    value = unmask(match.group("y")).strip()
    return value if value and len(value.split()) <= 5 else None


def moved_thing(text: str) -> str | None:
    """What a change moves when it names it ("They moved our standup to 10:15" →
    "standup"); None for "moved to", "moved everything to" or "moved me to"."""
    match = _arrival(text)
    if match is None:
        return None
    what = re.fullmatch(r"\s*(?:my|our|the) ([\w-]+(?: [\w-]+)?)\s*", match.group("what"))
    return unmask(what.group(1)) if what else None


__all__ = [
    "COUNT",
    "RELATION_NOUNS",
    "THIRD_PERSON",
    "Cues",
    "arrived",
    "begins_lasting",
    "content_words",
    "cues",
    "displaced",
    "ends",
    "is_relation",
    "lasting_change",
    "moved_thing",
    "negates",
    "one_of_several",
    "person_words",
    "present_state",
    "relation_names",
    "reported_about",
    "split_items",
    "strip_speaker",
    "subject_words",
]
