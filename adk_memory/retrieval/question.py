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
#: have I got?", and of someone the speaker names: "Which club does Oscar play for?".
_VERB_AFTER = r"(?:do|does|did|am|is|are|have|has)\b"
_WHAT_NOUN = re.compile(
    _OPENING + rf"(?:what|which)\s+(?P<noun>(?:(?!{_VERB_AFTER})[\w'-]+\s+){{0,2}}?"
    rf"(?!{_VERB_AFTER})[\w'-]+)\s+(?:do|does|am|is|have|has)\s+"
    r"(?:i|we|my|our|(?!(?:the|this|that|these|those|it|you|they)\b)(?-i:[A-Z])[a-z]+)(?!\w)",
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
#: Whom a question asks about: the speaker, their people or things, or someone named.
_SUBJECT = (
    r"(?:i|we|(?:my|our)\s+[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?|the\s+[\w'-]+|(?-i:[A-Z])[\w'-]+)"
)
#: Questions whose wording asks for one value, whatever they name: where someone lives, works
#: or is going ("Where is my brother Tom based?", "Where are we going on holiday?"), when
#: something is ("When is the product launch?", "When does my contract end?"), at what time
#: or on which days ("What day are our bins collected?"), how much or how many ("How much
#: does Bruno weigh?"), who does something for the speaker ("Who walks our dog?"), what
#: someone does for a living, how the speaker gets to work, what they use for a task. A
#: question about the past ("Where did I grow up?", "Where have I lived?") asks for history.
_ONE_BY_ASKING = re.compile(
    _OPENING + r"(?:"
    rf"where\s+(?:is|are|am|do|does)\s+{_SUBJECT}\s+(?:[\w'-]+\s+)?"
    r"(?:live|living|based|stay|staying|work|working|study|studying|doing|moving|going|headed)\b"
    # Where a habit of the speaker's own thing happens: "Where do we do our weekly shop?",
    # "Where do I get my hair cut?"; not where the speaker would like to be, and not a habit
    # alone ("Where do I bank?" may have two answers).
    rf"|where\s+(?:do|does)\s+{_SUBJECT}\s+(?:usually\s+)?"
    r"(?!(?:like|love|enjoy|want|wanna|hope|plan|dream|wish|fancy|prefer)\b)[a-z]+\s+(?:my|our)\b"
    r"|when(?:'s|\s+(?:is|are|do|does|am))\s+(?P<when>[^?]+)"
    r"|(?:what|which)\s+(?:time|day|days|date|hours|shifts?|year)\b(?:\s+[\w'-]+){0,3}?"
    r"\s+(?:is|are|do|does|am)\b"
    # How long or how far: "How long is my commute?". Not how old or tall, said of anyone
    # ("Tom's 36" answers no "How old am I?").
    r"|how\s+(?:much|many|long|far)\b(?:\s+[\w'-]+){0,3}?\s+(?:is|are|do|does|am)\b"
    rf"|who\s+(?:am\s+i|are\s+we|[a-z]+s\s+(?:my|our)|does\s+{_SUBJECT})\b"
    rf"|what\s+(?:do\s+(?:i|we)|does\s+{_SUBJECT})\s+do(?:\s+for\s+(?:a\s+living|work))?"
    r"(?:\s+(?:now|these days|at the moment))?\s*\?*\s*$"
    r"|how\s+do\s+(?:i|we)\s+(?:usually\s+)?(?:get\s+to|commute|travel\s+to)\b"
    r"|what\s+do\s+(?:i|we)\s+use\s+(?:for|to)\b"
    # What the speaker is called: "What should you call me?", "What name do you call me?".
    r"|what(?:\s+name)?\s+(?:should|do|can|will)\s+you\s+call\s+me\b"
    r")[^?]*\?*\s*$",
    re.IGNORECASE,
)
#: The groups of `_ONE_BY_WORDING` that name what it asks about.
_ABOUT_GROUPS = ("noun", "event", "priced", "paid", "paid_in")
#: Nouns that are singular in form but usually hold several things ("What food do I like?").
_MASS = frozenset(
    "food music exercise medication medicine stuff kind sort type genre art gear kit equipment "
    "software media content work sport fitness activity hobby interest".split()
)


#: "the", "my", "our" before what a when-question asks about.
_LEADING_DETERMINER = re.compile(r"^(?:the|my|our|i|we)\s+", re.IGNORECASE)


#: Nouns plural in form that name one thing ("What headphones do I have?").
_ONE_THING_PLURALS = frozenset(
    "headphones earphones earbuds glasses sunglasses spectacles jeans trousers pants shorts "
    "leggings pyjamas braces".split()
)


def _singular(noun: str) -> bool:
    word = noun.split()[-1].lower()
    if word in _MASS:
        return False
    if word in _ONE_THING_PLURALS:
        return True
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
    asking = _ONE_BY_ASKING.match(text)
    noun = _asked_noun(text)
    if noun is not None:
        if _singular(noun):
            return OneValue(noun.lower())
        # A plural asks for a list ("What sports do I play?"), unless it asks when ("What
        # days do I work?": one schedule).
        return OneValue() if asking is not None else None
    found = _ONE_BY_WORDING.match(text)
    if found is not None:
        about = next((found.group(g) for g in _ABOUT_GROUPS if found.group(g)), "")
        return OneValue(about.lower())
    if asking is None:
        return None
    when = asking.group("when") or ""
    return OneValue(_LEADING_DETERMINER.sub("", when).lower())


def asks_for_a_list(query: str) -> bool:
    """Whether `query` asks for the speaker's things of a kind, several at once ("What pets
    do I have?", "What sports do I play?"), rather than one value or a yes or no."""
    text = " ".join(query.split())
    if _ONE_BY_ASKING.match(text) is not None:
        return False
    noun = _asked_noun(text)
    return noun is not None and not _singular(noun)


#: "How much is my gym membership?", "How many days a week do I work?".
_AN_AMOUNT = re.compile(r"^\W*(?:\w+[,:]?\s+){0,2}?how (?:much|many)\b", re.IGNORECASE)
#: "When does my book club meet?", "What day are bins collected?", "How often do I swim?".
_WHEN = re.compile(
    r"\b(?:when|what (?:day|days|night|nights|time)|which (?:day|days|night|nights|evening)|"
    r"how often)\b",
    re.IGNORECASE,
)


def asks_an_amount(query: str) -> bool:
    """Whether `query` asks how much or how many ("How much is my gym membership?")."""
    return _AN_AMOUNT.match(query) is not None


def asks_when(query: str) -> bool:
    """Whether `query` asks when, on which day or how often ("When does my book club
    meet?")."""
    return _WHEN.search(query) is not None


def _asked_noun(text: str) -> str | None:
    """The noun a "What is my …?" or "What … do I …?" question names, if it is one."""
    for pattern in (_WHAT_IS_MY, _WHAT_NOUN):
        found = pattern.match(text)
        if found is not None:
            return found.group("noun")
    return None


__all__ = ["OneValue", "asks_an_amount", "asks_for_a_list", "asks_for_one", "asks_when"]
