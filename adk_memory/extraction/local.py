"""`LocalExtractor`: offline, deterministic fact extraction from what people said.

First-person statements that fit a known slot ("I moved to Munich", "I switched from Java to
Go", "I take my whiskey with a splash of water", "I'm allergic to peanuts") become slot facts
with a normalised (subject, predicate, object). Every other sentence a person said is kept,
verbatim, as an episodic memory, so nothing is silently dropped; a sentence that became a
slot fact is not repeated in the episodic memory, so a later update leaves no stale copy.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from adk_memory.extraction.base import ExtractionResult
from adk_memory.extraction.slots import category_predicate, phrase_for
from adk_memory.model import Fact, InputEvent, Kind, Source

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])|\n+")
# A new first-person clause: "..., and I ...", "... but we ...", "...; my ...".
_CLAUSE = re.compile(r"\s*(?:;|,?\s+(?:and|but|so|while|although)\s+)(?=(?:i|we|my|our)\b)", re.I)
# A short lead-in before a colon: "Big news: we migrated ...", "Update - I moved ...".
_LEAD_IN = re.compile(r"^(?:[\w'!]+\s+){0,3}[\w'!]+\s*(?::|\s-)\s+(?=\S)")
_HEDGE = re.compile(r"\b(i think|maybe|probably|perhaps|might|not sure|i guess)\b", re.I)
_QUESTION = re.compile(r"\?\s*$")
_FILLER = re.compile(
    r"^(?:(?:oh|well|so|yeah|yes|ok|okay|actually|btw|by the way|also|and|but|anyway|"
    r"honestly|now|these days|lately|recently|just so you know|fyi|hey|hi|um)[,!]?\s+)+",
    re.I,
)
_TRAILING = re.compile(
    r"\s*(?:,?\s*(?:now|these days|nowadays|anymore|any more|lately|recently|at the moment|"
    r"currently|for now|though|too|as well|instead|at work|full[- ]time|yesterday|today|"
    r"last (?:week|month|year|weekend|night)|this (?:week|month|year)|"
    r"(?:\d+|a|an|one|two|three|four|five|six) (?:days?|weeks?|months?|years?) ago|"
    r"in (?:19|20)\d\d)\b)+\s*[.!]*$",
    re.I,
)
_ADVERB = re.compile(
    r"^i (?:(?:now|still|usually|always|really|also|just|currently|actually|definitely|totally|"
    r"absolutely|generally|normally|typically|honestly) )+",
    re.I,
)
_OBJ = r"(?P<obj>[^.,;!?]+?)"
_END = r"\s*(?:[.,;!?]|$)"
_NEG_ADV = r"(?:no longer|not anymore|don'?t|do not|never|stopped|quit|gave up)"

# (pattern, predicate, polarity, kind). `{obj}` is the object group; patterns run on a
# sentence with leading filler removed, in order; the first match wins.
_RAW_PATTERNS: list[tuple[str, str, bool, Kind]] = [
    (r"^my name is {obj}$", "name", True, Kind.PROFILE),
    (r"^(?:please )?call me {obj}$", "name", True, Kind.PROFILE),
    # Only a capitalised name: "I'm Sam", not "I'm tired".
    (r"^i(?:'m| am) (?P<obj>(?-i:[A-Z][a-z]+(?: [A-Z][a-z]+)?))$", "name", True, Kind.PROFILE),
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
        r"^i(?:'m| am)? ?(?:now |currently )?(?:live|living|reside|residing|based|staying) "
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
        r"(?:at|for) {obj}$",
        "works_at",
        True,
        Kind.PROFILE,
    ),
    (
        r"^i(?:'ve| have)? ?(?:just |recently )?(?:joined|started (?:a (?:new )?job|working) at) "
        r"{obj}$",
        "works_at",
        True,
        Kind.PROFILE,
    ),
    (r"^i (?:no longer|don'?t) work (?:at|for) {obj}$", "works_at", False, Kind.PROFILE),
    (
        r"^i(?:'ve| have)? (?:quit|left) (?:my job at |my role at )?{obj}$",
        "works_at",
        False,
        Kind.PROFILE,
    ),
    (r"^i (?:work|am working) as (?:an? )?{obj}$", "job_title", True, Kind.PROFILE),
    (
        r"^my (?:job|role|position|title|occupation) is (?:an? )?{obj}$",
        "job_title",
        True,
        Kind.PROFILE,
    ),
    (
        r"^i(?:'m| am) (?:now )?an? (?P<obj>[\w -]*?(?:engineer|developer|designer|manager|"
        r"teacher|nurse|doctor|student|scientist|analyst|consultant|architect|researcher|writer|"
        r"lawyer|accountant|programmer|artist|chef|counselor|counsellor))$",
        "job_title",
        True,
        Kind.PROFILE,
    ),
    (
        r"^(?:i|we)(?:'ve| have)? ?(?:just |recently |finally |fully )?(?:switched|migrated|"
        r"moved|changed|transitioned|went) (?:over )?(?:everything )?from (?P<old>[^.,;!?]+?) "
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
    (
        r"^i (?:prefer|like) (?P<obj>[^.,;!?]+?) (?:over|to|more than) (?P<old>[^.,;!?]+?)$",
        "likes",
        True,
        Kind.PREFERENCE,
    ),
    (r"^i (?:mostly |mainly |usually )?use {obj}$", "uses", True, Kind.PREFERENCE),
    (r"^i (?:" + _NEG_ADV + r") (?:use|using) {obj}$", "uses", False, Kind.PREFERENCE),
]
_PATTERNS = [
    (re.compile(p.replace("{obj}", _OBJ).rstrip("$") + _END, re.I), pred, pol, kind)
    for p, pred, pol, kind in _RAW_PATTERNS
]

_RELATIVE = re.compile(
    r"\b(?:(?P<yesterday>yesterday)|last (?P<unit1>week|month|year|weekend)|"
    r"(?P<n>\d+|a|an|one|two|three|four|five|six) (?P<unit2>day|week|month|year)s? ago)\b",
    re.I,
)
_NUM = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
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


def split_sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


def split_clauses(sentence: str) -> list[str]:
    """First-person clauses of a sentence ("I live in Berlin and I write Java" → two)."""
    return [c.strip() for c in _CLAUSE.split(sentence) if c and c.strip()]


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


@dataclass(frozen=True)
class SlotMatch:
    predicate: str
    object: str
    polarity: bool
    kind: Kind
    replaces: str | None
    hedged: bool


def match_slot(sentence: str) -> SlotMatch | None:
    """The slot a first-person sentence states, if it states one."""
    if _QUESTION.search(sentence):
        return None
    core = _LEAD_IN.sub("", sentence.strip())
    core = _FILLER.sub("", core).strip()
    core = re.sub(r"^(?:i think|i guess|maybe|probably|honestly),?\s+", "", core, flags=re.I)
    core = _ADVERB.sub("i ", core)
    core = _TRAILING.sub("", core)
    for pattern, predicate, polarity, kind in _PATTERNS:
        m = pattern.match(core)
        if m is None:
            continue
        obj = _clean_object(m.group("obj"))
        if not obj or len(obj) > 80 or len(obj.split()) > 8:
            continue
        groups = m.groupdict()
        old = _clean_object(groups["old"]) if groups.get("old") else None
        pred = predicate
        if groups.get("item"):
            pred = f"{predicate}:{normalize_value(_clean_object(groups['item']))}"
        elif predicate == "uses":
            pred = category_predicate(normalize_value(obj), normalize_value(old or ""))
        return SlotMatch(
            predicate=pred,
            object=obj,
            polarity=polarity,
            kind=kind,
            replaces=normalize_value(old) if old else None,
            hedged=bool(_HEDGE.search(sentence)),
        )
    return None


def fact_sentence(subject: str, slot: SlotMatch) -> str:
    """A third-person sentence for a slot fact ("User lives in Munich.")."""
    return f"{subject} {phrase_for(slot.predicate, slot.polarity)} {slot.object}."


class LocalExtractor:
    """Deterministic offline extractor (the embedded default).

    Args:
        slot_confidence: Confidence of an explicit first-person slot statement.
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
        facts: list[Fact] = []
        previous: InputEvent | None = None
        for event in events:
            if event.is_human:
                facts.extend(self._from_event(event, previous))
            previous = event
        return facts

    def _from_event(self, event: InputEvent, previous: InputEvent | None) -> list[Fact]:
        speaker = display_name(event.author)
        source = Source(session_id=event.session_id, event_ids=[event.id])
        facts: list[Fact] = []
        remainder: list[str] = []
        for sentence in split_sentences(event.text):
            clauses = split_clauses(sentence)
            slots = [match_slot(c) for c in clauses]
            if not any(slots):
                remainder.append(sentence)
                continue
            remainder += [c for c, slot in zip(clauses, slots, strict=True) if slot is None]
            for clause, slot in zip(clauses, slots, strict=True):
                if slot is not None:
                    facts.append(self._slot_fact(event, speaker, clause, slot, source))
        if remainder:
            facts.append(self._episodic(event, speaker, " ".join(remainder), previous))
        return facts

    def _slot_fact(
        self, event: InputEvent, speaker: str, clause: str, slot: SlotMatch, source: Source
    ) -> Fact:
        confidence = self.slot_confidence * (self.hedge_factor if slot.hedged else 1.0)
        return Fact(
            subject=speaker.lower(),
            predicate=slot.predicate,
            object=slot.object,
            text=fact_sentence(speaker, slot),
            confidence=round(confidence, 4),
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
            and _QUESTION.search(previous.text.strip())
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


__all__ = [
    "LocalExtractor",
    "SlotMatch",
    "fact_sentence",
    "match_slot",
    "normalize_value",
    "resolve_relative_time",
    "split_sentences",
]
