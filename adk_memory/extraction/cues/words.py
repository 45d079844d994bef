"""The words of a statement: its content words, its items, its negation, its speaker label."""

from __future__ import annotations

import re

from adk_memory.extraction.cues.lazy import LazyPattern

_STOP = frozenset(
    "the a an my our your his her their this that these those old new of in at on for to with "
    "and or i we me it its is are was be been by account club shift class lesson job habit "
    "membership subscription plan".split()
)


#: Forms of address before a name, lower case: "Dr Okafor", "Mrs Patel", "Sir Alex". They name
#: no one in particular ("Dr Shah" and "Dr Okafor" share no one) and are no job title.
TITLES: tuple[str, ...] = tuple("dr mr mrs ms miss mx prof sir dame lady lord rev".split())
#: Any of `TITLES`, a full stop allowed after it ("Dr. Hassan"), in any case.
TITLE = rf"(?i:{'|'.join(TITLES)})\.?"
#: Words that say a thing is nearly so, not that it is: "I basically live at the office", "my
#: phone is practically a Nokia 3310". Read with what they qualify.
HEDGES = r"basically|practically|virtually|pretty much|more or less|literally"
#: A hedge said after a statement, taking nothing from what it states: "my rent is 1200 now
#: apparently", "pescatarian now I guess".
TRAILING_HEDGES = r"apparently|i (?:guess|suppose|think|reckon)"
#: Any of `TITLES` capitalised, as a name's first word: "Dr Okafor left", not "dr".
CAPITALISED_TITLE = rf"(?:{'|'.join(t.capitalize() for t in TITLES)})\.?"


def content_words(text: str) -> set[str]:
    """The words that identify a value, plurals folded ("the U.S. Bank accounts" →
    {"u.s", "bank"})."""
    # A possessive is no plural: "my brother's" names the brother, not "brother'".
    words = (w.strip(".'").removesuffix("'s") for w in re.findall(r"[\w][\w.'+#-]*", text.lower()))
    return {singular(w) for w in words if w and w not in _STOP} - _STOP


#: Endings whose "s" is the word's own (`singular`).
_OWN_S = ("ss", "us", "sis", "itis", "nnis")


def singular(word: str) -> str:
    """`word` without a plural's "s" ("cats" → "cat", "taxis" → "taxi"); short words keep
    theirs, and so do words whose "s" is their own: "glass", nearly every word in "-us"
    ("Octopus", "bonus", "campus"; "menus" read apart is the lesser harm), and the nouns in
    "-sis", "-itis" and "-nnis" ("thesis", "arthritis", "tennis")."""
    if len(word) > 3 and word.endswith("s") and not word.endswith(_OWN_S):
        return word[:-1]
    return word


#: The label the local extractor puts before a statement ("User: ", 'User (asked "…"): ').
_SPEAKER_LABEL = LazyPattern(r"^[^:]{1,80}?(?: \(asked \"[^\"]*\"\))?:\s+")


#: A run of white space: readers collapse it first, since the patterns' lazy parts cost time
#: in proportion to its length squared and it says nothing.
SPACES = LazyPattern(r"\s+")
#: Separators of a compound value ("horror and sci-fi", "jazz, soul or funk").
_ITEM_SPLIT = LazyPattern(r"\s*(?:,|&|/|\band\b|\bor\b|\bplus\b)\s*", re.IGNORECASE)
_WORD_ITEM_SPLIT = LazyPattern(r"\s*(?:&|/|\band\b|\bor\b|\bplus\b)\s*", re.IGNORECASE)
#: Wording that says something no longer holds (or never did).
_NEGATION = LazyPattern(
    r"\b(?:not|no longer|no more|never|stopped|quit|gave up)\b|n't\b", re.IGNORECASE
)


def split_items(text: str, *, commas: bool = True) -> list[str]:
    """The parts of a compound value or statement ("horror and sci-fi" → horror, sci-fi);
    without `commas`, a comma does not split (in a sentence it mostly joins clauses)."""
    pattern = _ITEM_SPLIT if commas else _WORD_ITEM_SPLIT
    return [part for part in pattern.split(SPACES.sub(" ", text)) if part.strip()]


def negates(text: str) -> bool:
    """Whether `text` says that something does not (or no longer) hold."""
    return _NEGATION.search(text) is not None


def strip_speaker(text: str) -> str:
    """A stored statement's own words, without the "<Speaker>: " label."""
    return _SPEAKER_LABEL.sub("", text.strip(), count=1)
