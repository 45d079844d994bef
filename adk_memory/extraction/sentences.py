"""Sentence and clause boundaries that survive abbreviations ("Mt. Hood", "U.S. Bank").

A full stop after a known abbreviation or inside an initialism is not a boundary; the text is
split with those stops masked, then restored, so neither a sentence nor a slot value is cut
at "St." or "Dr.".
"""

from __future__ import annotations

import re

#: Stand-in for a full stop that does not end a sentence (a private-use character, never in
#: real input; restored before any text leaves this module).
_MASK = "\ue000"

_ABBREVIATIONS = (
    "mt|dr|mr|mrs|ms|mx|st|jr|sr|prof|rev|gen|col|capt|lt|sgt|hon|ave|rd|blvd|ln|hwy|ft|"
    "vs|etc|approx|dept|est|inc|ltd|co|corp|no|nos|vol|fig|ca|cf|al|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun"
)
#: "Dr." "St." "etc." as a word of its own.
_ABBREVIATION = re.compile(rf"\b(?:{_ABBREVIATIONS})\.", re.IGNORECASE)
#: Initialisms and dotted forms: "U.S.", "e.g.", "a.m.", "J. R. R.".
_INITIALISM = re.compile(r"\b(?:[A-Za-z]\.){2,}|\b[A-Z]\.(?=\s+[A-Z])")
#: A decimal point or a dot inside a token ("3.5", "sam.reyes@hotmail.com", "reyes.studio").
_INNER_DOT = re.compile(r"(?<=\w)\.(?=\w)")
#: A thousands separator ("1,200"): not a clause boundary, not the end of a value.
_NUMBER_COMMA = re.compile(r"(?<=\d),(?=\d{3}\b)")
_COMMA_MASK = "\ue001"

#: A sentence ends at a stop, "!" or "?" before the next word, capitalised or not: chat is
#: often written in lower case ("rent went up to 1,350. anyway can you help me?"), and read
#: as one sentence the question at its end would make the statement before it a question.
#: Stops that end no sentence ("Dr.", "e.g.", "3.5") are masked first. In chat an emoji ends
#: one too ("Tomasz got a puppy and named it Pretzel 😂 we're doing a playdate").
_EMOJI = "\u2600-\u27bf\U0001f300-\U0001faff"
_SENTENCE = re.compile(rf"(?:(?<=[.!?])[\"')\]]*|(?<=[{_EMOJI}\ufe0f]))\s+(?=[\"'(\[]?\w)|\n+")
# A new clause with its own first-person subject: "..., and I ...", "... but we ...",
# "...; my ...", "..., so I ...", "..., I'm ...".
_CLAUSE = re.compile(
    r"\s*(?:;|\s-|,?\s+(?:and|but|so|while|although|because|though)|,)\s+"
    r"(?=(?:i|i'm|i've|i'd|i'll|we|we're|we've|my|our)\b)",
    re.IGNORECASE,
)


def mask(text: str) -> str:
    """The text with non-terminal full stops masked."""

    def hide(match: re.Match[str]) -> str:
        return match.group(0).replace(".", _MASK)

    text = _NUMBER_COMMA.sub(_COMMA_MASK, text)
    # Initialisms first: an inner dot masked first would leave "p.m." ending in a bare stop.
    text = _INITIALISM.sub(hide, text)
    text = _INNER_DOT.sub(_MASK, text)
    return _ABBREVIATION.sub(hide, text)


def unmask(text: str) -> str:
    return text.replace(_MASK, ".").replace(_COMMA_MASK, ",")


def split_sentences(text: str) -> list[str]:
    """The sentences of a text, abbreviations and initialisms kept inside their sentence."""
    parts = _SENTENCE.split(mask(text))
    return [unmask(s).strip() for s in parts if s and s.strip()]


#: A coordinated subject before "and I" ("Alex and I broke up", "my wife and I"): one clause.
_CO_SUBJECT = re.compile(r"^(?:(?:my|our)\s+\w+(?:\s+(?-i:[A-Z])\w*)?|(?-i:[A-Z])\w+)$", re.I)


#: Verbs of a lasting state or habit that fill a slot of the speaker's: a clause that opens
#: with one ("I live in Berlin") may go on with another, its subject left out ("and work at
#: Siemens"). "I have", "I go" or "I like" open too much else: "I have friends who live in
#: Leeds and work at PwC", "I go to the gym and drive home after".
_SLOT_VERBS = (
    r"(?:live|work|drive|ride|write|code|program|use|speak|study|teach|own|rent|bank|commute|"
    r"cycle|play|support|train|volunteer|attend)"
)
_ADVERB = r"(?:(?:also|still|now|currently|mostly|mainly|usually|actually)\s+)?"
#: A clause that opens with the speaker doing one of those, in the present: "I live in…", "I
#: mostly work…". A household's "we" is left whole: its second half read alone is the
#: speaker's, not the household's.
_FIRST_PERSON_STATE = re.compile(rf"^i\s+{_ADVERB}{_SLOT_VERBS}\b", re.IGNORECASE)
#: "and" before another state verb: where the second clause with the same subject begins.
_AND_STATE = re.compile(
    rf",?\s+and\s+(?={_ADVERB}(?:{_SLOT_VERBS}|have|love|like|prefer|go)\b)", re.IGNORECASE
)
#: Words before the "and" that make what follows someone else's, a plan or a condition: "I
#: work with people who live in Leeds and work at PwC", "I work at Tesco but want to quit and
#: work at Aldi".
_NOT_THE_SAME_STATE = re.compile(
    r"\b(?:who|whom|whose|that|which|where|when|if|will|would|might|could|should|must|gonna|"
    r"wanna|(?:want|wants|plan|planning|hope|hoping|going|decided|trying|need|have|has|had|"
    r"got|used) to)\b|'ll\b|'d\b",
    re.IGNORECASE,
)


def split_clauses(sentence: str) -> list[str]:
    """First-person clauses of a sentence ("I live in Berlin and I write Java" → two), and
    those that go on without repeating the subject ("I live in Berlin and work at Siemens"
    → "I live in Berlin", "work at Siemens")."""
    masked = mask(sentence)
    clauses: list[str] = []
    at = 0
    for match in _CLAUSE.finditer(masked):
        left = masked[at : match.start()].strip(" ,")
        joined = re.fullmatch(r"\s+and\s+", match.group(0), re.IGNORECASE)
        if joined and _CO_SUBJECT.match(left) and left.lower() != "i":
            continue
        if left:
            clauses.append(left)
        at = match.end()
    tail = masked[at:].strip(" ,")
    if tail:
        clauses.append(tail)
    return [unmask(part) for clause in clauses for part in _same_subject_clauses(clause)]


def _same_subject_clauses(clause: str) -> list[str]:
    """A first-person clause of a state split where "and" goes on with another state of the
    same subject; any other clause whole."""
    if _FIRST_PERSON_STATE.match(clause) is None:
        return [clause]
    parts, at = [], 0
    for found in _AND_STATE.finditer(clause):
        if _NOT_THE_SAME_STATE.search(clause, 0, found.start()) is not None:
            break
        parts.append(clause[at : found.start()])
        at = found.end()
    parts.append(clause[at:])
    return [part.strip(" ,") for part in parts if part.strip(" ,")]


__all__ = ["mask", "split_clauses", "split_sentences", "unmask"]
