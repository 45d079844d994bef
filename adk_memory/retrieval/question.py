"""What a recall query asks for: one current value, or possibly several.

"What car do I drive?", "Who's my GP?", "Where do I live?" ask for one value: of two rival
answers about the same thing, the later one holds and the earlier is history. "What sports
do I play?", "What are my hobbies?" ask for a list, so a later answer may stand beside the
earlier one. A query that is not a question, or whose number its words do not show, asks
for neither, and recall treats it as it always did. Pure functions: no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: What may open a question before it asks: "so", "remind me,", "quick q:".
_OPENING = r"^\W*(?:(?:so|and|ok|okay|hey|also|remind me|quick q(?:uestion)?|sorry)[,:]?\s+)*"
#: "What's my dentist's name?", "What is our broadband provider?": what of the speaker's
#: it asks about (the last word before the end or a preposition).
_WHAT_IS_MY = re.compile(
    _OPENING + r"(?:what|which)(?:'s|\s+is)\s+(?:my|our)\s+(?P<noun>(?:[\w'-]+\s+){0,3}?[\w'-]+?)"
    r"(?:'s\s+name|\s+(?:called|named|now|these days|at the moment|currently|again)|\s+(?:of|for|"
    r"with|at|in|on)\b[^?]*)?\s*\?*\s*$",
    re.IGNORECASE,
)
#: "What car do I drive?", "Which gym do I go to?", "Which network am I on?", "What phone
#: have I got?".
_VERB_AFTER = r"(?:do|does|did|am|is|are|have|has)\b"
_WHAT_NOUN = re.compile(
    _OPENING + rf"(?:what|which)\s+(?P<noun>(?:(?!{_VERB_AFTER})[\w'-]+\s+){{0,2}}?"
    rf"(?!{_VERB_AFTER})[\w'-]+)\s+(?:do|does|am|is|have|has)\s+(?:i|we|my|our)\b",
    re.IGNORECASE,
)
#: "Who's my manager?", "Where do I live?", "Where is my office?", "When's my wedding?".
_ONE_BY_WORDING = re.compile(
    _OPENING + r"(?:who(?:'s|\s+is)\s+(?:my|our)\s+(?P<noun>(?:[\w'-]+\s+){0,2}?[\w'-]+?)"
    r"(?:\s+(?:with|at|for|from|through))?\s*\?*\s*$"
    r"|where\s+(?:do|does)\s+(?:i|we)\s+(?:live|work|stay)(?:\s+now|\s+these days)?\s*\?*\s*$"
    r"|who\s+do\s+(?:i|we)\s+(?:report to|work for|bank with)\s*\?*\s*$"
    r"|(?:where|when)(?:'s|\s+is)\s+(?:my|our)\s+(?P<event>[\w'-]+(?:\s+[\w'-]+)?)\s*\?*\s*$"
    r"|how much\s+(?:is|are)\s+(?:my|our)\s+(?P<priced>(?:[\w'-]+\s+)?[\w'-]+?)\s*\?*\s*$"
    r"|how much\s+(?:(?P<paid>[\w'-]+)\s+)?do\s+(?:i|we)\s+pay"
    r"(?:\s+(?:in|for)\s+(?P<paid_in>[\w'-]+))?\b)",
    re.IGNORECASE,
)
#: The groups of `_ONE_BY_WORDING` that name what it asks about.
_ABOUT_GROUPS = ("noun", "event", "priced", "paid", "paid_in")
#: Nouns that are singular in form but usually hold several things ("What food do I like?").
_MASS = frozenset(
    "food music exercise medication medicine stuff kind sort type genre art gear kit equipment "
    "software media content work sport fitness activity hobby interest".split()
)


def _singular(noun: str) -> bool:
    word = noun.split()[-1].lower()
    if word in _MASS:
        return False
    return not (word.endswith("s") and not word.endswith(("ss", "us", "is")))


@dataclass(frozen=True)
class OneValue:
    """A query that asks for one current value; `about` is the noun it names for the value
    ("manager" of "Who is my manager?", "glasses prescription" of "What's my glasses
    prescription?"), empty when its
    wording alone asks ("Where do I live?")."""

    about: str = ""


def asks_for_one(query: str) -> OneValue | None:
    """Whether `query` asks for one current value of the speaker's ("What car do I drive?",
    "Who's my GP?", "Where do I live?") rather than a list ("What sports do I play?") or
    anything else; None when it does not."""
    text = " ".join(query.split())
    for pattern in (_WHAT_IS_MY, _WHAT_NOUN):
        found = pattern.match(text)
        if found is not None:
            noun = found.group("noun")
            return OneValue(noun.lower()) if _singular(noun) else None
    found = _ONE_BY_WORDING.match(text)
    if found is None:
        return None
    about = next((found.group(g) for g in _ABOUT_GROUPS if found.group(g)), "")
    return OneValue(about.lower())


__all__ = ["OneValue", "asks_for_one"]
