"""Whether a value is one item of a list the text names beside others, or one more of its
kind beside the usual one."""

from __future__ import annotations

import re

from adk_memory.extraction.cues.lazy import LazyPattern, remembered
from adk_memory.extraction.cues.words import content_words

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
_NEXT_ITEM = LazyPattern(
    rf"\s*(?:,?\s*{_LIST_SEPARATOR}\s*{_ITEM_OPENING}(?P<item>{_ITEM})\s*{_ITEM_END}"
    # Not an aside that picks out which one before the sentence goes on ("PureGym, the one
    # near Aldgate, and pay about £30"); "spin, the one on Mondays, and body pump" lists.
    r"|,\s*(?!(?:the\s+|that\s+|this\s+)?ones?\b[^,]*,\s*and\s+(?:i\s+|we\s+)?"
    r"(?:pay|paid|have|go|use|get|love|work|live|drive|take|train|do|play|ride|am|is|it's|"
    r"usually|mostly|always)\b)"
    rf"{_ITEM_OPENING}(?P<listed>{_ITEM})\s*(?=,|\s(?:and|or|plus)\b))",
    re.IGNORECASE,
)
#: An item before the value, joined by a separator ("tennis and golf").
_PREVIOUS_ITEM = LazyPattern(
    rf"(?<![\w+#.'-])(?P<item>[\w+#.'-]+)\s*,?\s*{_LIST_SEPARATOR}\s*{_ITEM_OPENING}$",
    re.IGNORECASE,
)
#: Two items before the value, joined by commas: a list of three or more without "and"
#: ("a car, a van, a motorbike"); one comma alone mostly opens an aside.
_PREVIOUS_LISTED = LazyPattern(
    rf"(?<![\w+#.'-])[\w+#.'-]+\s*,\s*{_ITEM_OPENING}(?:[\w+#.'-]+\s+)?"
    rf"(?P<item>[\w+#.'-]+)\s*,\s*{_ITEM_OPENING}$",
    re.IGNORECASE,
)
#: How far before a value its list may begin, and how many mentions of it are read: a
#: long pasted text must not cost time in proportion to its length squared.
_LIST_REACH = 120
_MENTIONS_READ = 20


@remembered
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


#: One more of a kind beside the usual one: "work laptop", "spare phone", "a separate work
#: phone", "holiday home": a qualifier, then the noun it qualifies. "A second-hand Skoda"
#: is a used one, not a second.
_QUALIFIER = (
    r"(?:work|spare|second|backup|side|extra|weekend|holiday|out-of-hours|emergency|"
    r"locum|separate)\s+(?!(?:place|one|of|in|at|for|to|and|is|was|hand)\b)[a-z]*(?:[^s\W]|ss)"
)
_ANOTHER_ONE = LazyPattern(
    rf"\b(?:my|our|a|an|the)\s+(?:(?:new|separate|little|cheap|proper)\s+)?(?P<which>{_QUALIFIER})\b"
    # Opening a sentence only as its subject: "Work laptop is a Dell XPS now" ("Work issued
    # me a MacBook" names who gave it).
    rf"|^\W*(?P<opening>{_QUALIFIER})(?:'s|\s+(?:is|was|are|has|had)\b)",
    re.IGNORECASE,
)


def another_of_its_kind(text: str) -> str | None:
    """The qualifier that makes what `text` names one more beside the usual one ("work" of
    "Work gave me a Samsung as a separate work phone", "spare" of "my spare phone is an old
    Nokia"), or None. Someone's "work laptop" is not their own laptop, so it displaces a
    laptop only where that one was a work laptop too."""
    found = _ANOTHER_ONE.search(text)
    if found is None:
        return None
    return str(found.group("which") or found.group("opening")).split()[0].lower()
