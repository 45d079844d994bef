"""Cues in a statement's wording that decide how much it may change: is it about now, about a
passing moment, about a maybe, an addition, or a change from one value to another?

The offline path supersedes only on explicit evidence, so these cues gate slot filling
(a temporary, hypothetical or additive statement fills no single-valued slot) and name what a
change displaces ("traded in the Golf for an e-bike" displaces "Golf").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adk_memory.extraction.sentences import mask, unmask

#: A statement bounded to a passing moment: it says nothing about the lasting value.
_TEMPORARY = re.compile(
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
_CHANGE_START = re.compile(
    r"\b(?:as of|since|from|starting) (?:this|today|tomorrow|next)\b", re.IGNORECASE
)
#: A possibility, a plan, a wish or a suggestion: not a fact about the present.
_HYPOTHETICAL = re.compile(
    r"\b(?:if|would|could|should|might|(?-i:may)|imagine|imagining|wonder|wondering|"
    r"thinking (?:about|of)|considering|consider|plan(?:ning)? to|planning on|"
    r"going to|gonna|want(?:s)? to|"
    r"hope to|hoping to|wish|someday|one day|maybe|perhaps|probably|possibly|i think|i guess|"
    r"not sure|might be|dream(?:ing)? of|tempted to|interview(?:ed)? (?:at|with|for)|"
    r"fingers crossed|apply(?:ing)? (?:to|for)|applied (?:to|for))\b",
    re.IGNORECASE,
)
#: An addition beside what is known: never a displacement.
_ADDITIVE = re.compile(
    r"\b(?:also|too|as well|either|another|other|additionally|in addition|besides|added|"
    r"second|extra)\b",
    re.IGNORECASE,
)
#: A past state or event ("I lived in Tokyo for a year", "when I was a student").
_PAST = re.compile(
    r"\b(?:(?<!getting )(?<!get )(?<!got )used to|when i was|back when|back then|ago|"
    r"in (?:19|20)\d\d|as a (?:kid|child|student|teenager)|after college|"
    r"after school|growing up|grew up|years? back)\b",
    re.IGNORECASE,
)
#: Wording that says a value changed (the update may name neither old nor new value).
_CHANGE = re.compile(
    r"\b(?:now|these days|nowadays|no longer|not any ?more|any ?more|no more|instead|"
    r"switched|switching|moved|changed|swapped|traded|replaced|upgraded|downgraded|converted|"
    r"transferred|ported|migrated|shifted|ditched|dropped|quit|cancell?ed|sold|gave up|"
    r"stopped|left|finished|done with|retired|took a job|relocated|from \S+(?: \S+){0,3} to)\b",
    re.IGNORECASE,
)

_NP = r"(?:the |my |our |a |an |that |this )?(?P<x>[^.,;!?]+?)"
_NP_END = (
    r"(?=\s+(?:for|with|to|in favou?r of|and|but|so|because|after|since|last|this|on|at|in|as|"
    r"over|during|when|before)\b|\s*[.,;!?]|\s*$)"
)
#: Explicit displacement of a named value, the value as group `x`.
_DISPLACE = [
    re.compile(p, re.IGNORECASE)
    for p in (
        rf"\b(?:traded(?: in)?|swapped|exchanged|replaced|ditched|dropped|quit|left|sold|"
        rf"cancell?ed|closed|gave up(?: on)?|stopped(?: using| going to| playing| seeing)?|"
        rf"finished(?: with)?|done with|pulled out of|moved (?:away )?from|moved out of|"
        rf"switched (?:away )?from|moved over from|migrated (?:away )?from|handed in my notice at|"
        rf"broke up with|lost|tapering off|tapered off|barely (?:touch|use)|no more|"
        rf"no longer (?:use|go to|play|drink|eat|see|have|work at|live in)) {_NP}{_NP_END}",
        rf"\b(?:my )?(?:final|last) day at {_NP}{_NP_END}",
        rf"\b(?:switched|moved|changed|migrated)(?: [\w-]+){{1,3}}? from {_NP}(?= to\b)",
        r"^(?:the |my |our )?(?:old )?(?P<x>[^.,;!?]+?) (?:retired|moved out|passed away|died|"
        r"got (?:totall?ed|stolen|wrecked|written off)|fell through|is history|are history|"
        r"is done|is over|went on (?:\w+ )?leave|shut down|closed)\b",
        r"^(?P<x>[^.,;!?]+?) and i (?:broke up|split up|separated)\b",
        rf"\b(?:instead of|rather than) {_NP}(?=\s*[.,;!?]|\s*$)",
    )
]
#: What trails a displaced value without being part of it ("Python anymore").
_AFTER_VALUE = re.compile(
    r"\s+(?:any ?more|now|these days|for good|altogether|completely|entirely|again)$", re.I
)
_PUT_DOWN = re.compile(r"\bput (?:the |my )?(?P<x>[\w -]+?) (?:down|away|aside)\b", re.I)
#: "switched to decaf", "moved over to VS Code", "upgraded to a Pixel 8": the new value.
_ARRIVE = re.compile(
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


@dataclass(frozen=True)
class Cues:
    """What the wording of one statement allows."""

    temporary: bool
    hypothetical: bool
    additive: bool
    past: bool
    change: bool

    @property
    def lasting(self) -> bool:
        """Whether the statement may fill a single-valued slot: about now, for good."""
        return not (self.temporary or self.hypothetical or self.past)


def cues(text: str) -> Cues:
    temporary = bool(_TEMPORARY.search(text)) and not _CHANGE_START.search(text)
    return Cues(
        temporary=temporary,
        hypothetical=bool(_HYPOTHETICAL.search(text)) or text.rstrip().endswith("?"),
        additive=bool(_ADDITIVE.search(text)),
        past=bool(_PAST.search(text)),
        change=bool(_CHANGE.search(text)),
    )


def signals_change(text: str) -> bool:
    """Whether the wording says a value changed ("now", "switched", "no longer", …)."""
    return bool(_CHANGE.search(text))


def content_words(text: str) -> set[str]:
    """The words that identify a value, plurals folded ("the U.S. Bank accounts" →
    {"u.s", "bank"})."""
    words = (w.strip(".'") for w in re.findall(r"[\w][\w.'+#-]*", text.lower()))
    return {_singular(w) for w in words if w and w not in _STOP} - _STOP


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def displaced(text: str) -> list[str]:
    """The values a statement explicitly displaces ("Traded in the Golf for an e-bike" →
    ["Golf"]; "My old boss retired" → ["boss"])."""
    found: list[str] = []
    masked = mask(text)
    for pattern in [*_DISPLACE, _PUT_DOWN]:
        for match in pattern.finditer(masked):
            value = unmask(match.group("x")).strip()
            value = _AFTER_VALUE.sub("", value)
            value = re.sub(
                r"^(?:(?:the|my|our|a|an|old|former|being|\w+ing (?:off|on|with))\s+)+",
                "",
                value,
                flags=re.I,
            )
            value = re.sub(r"\s+(?:account|membership|subscription|plan)$", "", value, flags=re.I)
            if value and len(value.split()) <= 5 and content_words(value):
                found.append(value)
    return list(dict.fromkeys(found))


def arrived(text: str) -> str | None:
    """The value a change moves to ("Switched to decaf after the doctor's visit" → "decaf")."""
    match = _ARRIVE.search(mask(text))
    if match is None:
        return None
    value = unmask(match.group("y")).strip()
    return value if value and len(value.split()) <= 5 else None


def moved_thing(text: str) -> str | None:
    """What a change moves when it names it ("They moved our standup to 10:15" →
    "standup"); None for "moved to", "moved everything to" or "moved me to"."""
    match = _ARRIVE.search(mask(text))
    if match is None:
        return None
    what = re.fullmatch(r"\s*(?:my|our|the) ([\w-]+(?: [\w-]+)?)\s*", match.group("what"))
    return unmask(what.group(1)) if what else None


__all__ = [
    "Cues",
    "arrived",
    "content_words",
    "cues",
    "displaced",
    "moved_thing",
    "signals_change",
]
