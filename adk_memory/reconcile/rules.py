"""The slot rule: how one new fact bears on one stored record (NOOP, REPLACE or unrelated).

Precision first: a wrong REPLACE destroys a true fact, a missed one leaves a dated duplicate
that recall orders newest first. So a record is superseded only on explicit evidence:
- the new fact names the value it displaces ("switched from Java to Go", "traded in the Golf
  for an e-bike") and the record states that value as a present state of the same subject;
- or both fill the same one-at-a-time slot of the same subject with different values
  ("lives in Munich" over "lives in Berlin"), or the new one moves to a value of the same
  category ("switched to decaf" over "I drink four espressos a day");
- or the new fact negates every item of the record ("I don't like coffee any more" over "I
  like coffee in the morning"; "not into horror" over "horror and sci-fi" negates one item
  of two and supersedes nothing). A displaced value is one item too: "Sold the motorbike"
  supersedes nothing of "I have a car and a motorbike".
Whatever the evidence, a record that says more than one thing of its own ("I live in Berlin
and work at Siemens", a remembered text kept whole) is never superseded: all of it would go.
`LocalClassifier` decides with it; nothing else applies it behind a configured classifier.
"""

from __future__ import annotations

import functools
import re

from adk_memory.extraction.cues import RELATION_NOUNS as _RELATION
from adk_memory.extraction.cues import (
    THIRD_PERSON,
    another_of_its_kind,
    arrived,
    content_words,
    cues,
    is_relation,
    moved_thing,
    one_of_several,
    person_words,
    present_state,
    reported_about,
    split_conjoined,
    split_items,
    strip_speaker,
    subject_words,
)
from adk_memory.extraction.local import normalize_value
from adk_memory.extraction.slots import (
    RIDDEN,
    category_of,
    head_attribute,
    is_single_valued,
    predicate_for_category,
    scoped_slot,
)
from adk_memory.model import Decision, Fact, Kind, MemoryRecord

#: Cosine above which two sentences with the same content words say the same thing.
DUPLICATE_COSINE = 0.96


def _words(value: str) -> set[str]:
    return set(normalize_value(value).split())


def _items(value: str) -> list[set[str]]:
    """The items of a compound object ("horror and sci-fi" → {horror}, {sci-fi})."""
    return [_words(part) for part in split_items(value) if _words(part)]


def _lists_whole(value: str, listed: str) -> bool:
    """Whether `listed` names all of `value` as one item beside another ("the Leeds office"
    in "the Leeds office and the Bradford site"), not one word of it ("York office and the
    Bradford site" shares only "office" with "Leeds office")."""
    item = normalize_value(value)
    return (
        bool(item)
        and re.search(rf"(?<!\w){re.escape(item)}(?!\w)", normalize_value(listed)) is not None
        and one_of_several(value, listed)
    )


def _body(record: MemoryRecord) -> str:
    """A record's words without the "<Speaker>: " label."""
    return strip_speaker(record.text)


def _states(record: MemoryRecord) -> bool:
    """Whether a record without a slot reads as one present, personal state ("I drive a VW
    Golf, it's ancient but reliable"): only such a record may be displaced by name. A
    record of several sentences, a past event, a plan or a question is history to keep."""
    return record.predicate != "excerpt" and present_state(_body(record))


def _names(value: str, text: str) -> bool:
    """Whether `text` names `value`: every content word of it, as whole words, plurals
    folded ("night shifts" in "I work nights at the warehouse")."""
    wanted = content_words(value)
    return bool(wanted) and wanted <= content_words(text)


def _names_all_of(value: str, text: str) -> bool:
    """Whether `text` names `value` and nothing beside it in a list: "Sold the motorbike"
    ends "I have a car and a motorbike" only in part, and the car is still true."""
    return _names(value, text) and not one_of_several(value, text)


def _category(record: MemoryRecord) -> str | None:
    return predicate_for_category(category_of(record.object or _body(record), specific=True))


#: Where the speaker lives, said in passing ("Living in Austin means tacos", "My apartment
#: in Leeds is tiny", "I rent a room in Lyon"); not said of someone else ("my sister's flat").
_RESIDENCE = re.compile(
    r"\b(?:live|living|based|been|rent|renting|apartment|flat|house|place|room|home)\b[^.;]{0,30}?"
    r"\bin (?-i:[A-Z])",
    re.IGNORECASE,
)
#: A record that mentions someone of the speaker's or anyone's place ("my sister's flat"):
#: a residence in it may be theirs. Broader than who the record is about (`_someone_else`),
#: since "I stayed at my sister's flat in Leeds" is the speaker's sentence.
_MENTIONS_ANOTHER = re.compile(rf"(?:\b(?:my|our) (?:{_RELATION})\b|\w's\b)", re.IGNORECASE)


def _attribute(record: MemoryRecord) -> str | None:
    """The one-at-a-time slot a record without one states in passing, if recognisable: a
    value of a known category ("four espressos a day": drink) or the speaker's residence."""
    body = _body(record)
    category = _category(record)
    if category is not None:
        return category
    if _RESIDENCE.search(body) and not _MENTIONS_ANOTHER.search(body) and not cues(body).temporary:
        return "lives_in"
    return None


#: The subject acts on the speaker's thing, named as "it" ("Apple replaced it with an iPhone
#: 13", "They upgraded it to fibre").
_ACTS_ON_IT = re.compile(r"\b\w+\s+(?:it|them)\s+(?:with|for|to|up|down|over)\b", re.IGNORECASE)


#: What opens "X replaced Y" is what took Y's place, not someone else acting ("Tidal
#: replaced Spotify", "Switched over, Tidal replaced Spotify", "Priya replaced Laura as
#: manager").
_TOOK_THE_PLACE = re.compile(
    r"^\W*(?:[A-Za-z]+(?:\s+[A-Za-z]+)?\s*[,:!\u2014\u2013]+\s+)?"
    r"(?:[A-Z][\w'-]*\s+){1,3}(?:has\s+|have\s+|finally\s+)?"
    r"(?:replaced|took over from|took the place of)\b"
)


def _ends_the_one_before(fact: Fact, record: MemoryRecord) -> bool:
    """Whether a change ends the speaker's one thing of a slot named only by the slot's noun
    ("selling my old car", "got rid of the phone") and names what took its place ("and
    getting a second-hand Kia Niro"). Without a new value, "my old phone" may be one before
    the current one ("Sold my old phone to a mate")."""
    gone = fact.replaces or ""
    if category_of(gone) is None or category_of(gone, specific=True) is not None:
        # A value ("the Golf") is matched by name; only a bare slot noun names any value.
        return False
    kind = head_attribute(gone, ending=True) or ""
    if kind.split(":", 1)[0] != fact.predicate.split(":", 1)[0] or _ANOTHER_ONE.search(gone):
        return False
    if not _of_its_kind(kind, record):
        return False
    body = strip_speaker(fact.text)
    named = {m.group(0).lower() for m in _STATES_A_VALUE.finditer(body)}
    return bool(fact.object) or bool(named - content_words(gone))


#: Words that make a thing one more beside the speaker's one: "swapped the weekend car for a
#: Mazda", "the second car", "my winter bike", "my racing car on Gran Turismo" (not "the
#: family car", "the knackered laptop", "the gaming laptop": the one they have, described).
_ANOTHER_ONE = re.compile(
    r"\b(?:second|2nd|spare|other|extra|backup|weekend|work|company|racing|toy|track|project|"
    r"winter|summer|spin|exercise|indoor|turbo)\b",
    re.IGNORECASE,
)


def _of_its_kind(kind: str, record: MemoryRecord) -> bool:
    """Whether a thing named by the noun of `kind` may be the one `record` states. A noun of
    one kind of the slot's values is no name for its one thing: "Traded my scooter in for a
    Vespa" and "Sold my old bike" leave the car the speaker drives, "Sold my old car" the
    Brompton they ride, "swapped the motorbike for…" the bike, "swapped my work phone for a
    Samsung" the speaker's own phone; "Swapped the motorbike for an electric scooter" ends
    the Honda they ride."""
    held = record.predicate
    ridden = held == RIDDEN or bool(_RIDES.search(_body(record)))
    if held.startswith("vehicle:") and held != RIDDEN:
        return kind == held
    if kind.startswith("vehicle:"):
        return ridden
    return ":" not in kind and not (kind == "vehicle" and ridden)


#: A statement of a bike or a motorbike the speaker rides.
_RIDES = re.compile(r"\b(?:ride|rides|riding|rode|bike|motorbike|scooter|moped)\b(?!-)", re.I)


#: A name or a number after a clause's first word ("we drive a Tesla now", "I get the 8:10").
_STATES_A_VALUE = re.compile(r"(?<!^)\b(?!I\b|I'[a-z]+\b)(?:[A-Z][\w'-]*|\d[\w.,:-]*)")


def _someone_else(fact: Fact) -> frozenset[str]:
    """Who the fact's words make its subject when that is not the speaker ("Ravi left
    Google" → {"ravi"}; "Sara's dad left the BBC" → {"sara", "father"}; "She sold the Golf"
    → {THIRD_PERSON}; reported news, "Ravi told me he left Google" → {"ravi"}). Empty for
    the speaker's own news, and when the capital that opens it is the new value or the
    slot ("Tidal replaced Spotify", "Salary went up to 50k"), or the subject acts on the
    speaker's thing ("Work replaced it with a MacBook Pro")."""
    return _someone_else_in(
        strip_speaker(fact.text), fact.object, fact.replaces or "", fact.predicate
    )


@functools.lru_cache(maxsize=4096)
def _someone_else_in(body: str, value: str, replaced: str, predicate: str) -> frozenset[str]:
    """`_someone_else` of a fact's words, value, displaced value and slot; remembered, since
    one fact is related to each of its candidates in turn. In a statement of several
    clauses, the clauses that name a value decide: "Ravi left Google, I'm so jealous" is
    Ravi's news, "Tesla arrived. Sold the Golf" and "The gym closed so I joined PureGym" the
    speaker's."""
    parts = split_conjoined(body)
    named = [
        part
        for part in parts
        if any(content_words(v) & content_words(part) for v in (value, replaced) if v)
    ]
    if len(parts) < 2 or not named:
        return _someone_else_said(body, value, predicate)
    readings = [_someone_else_said(part, value, predicate) for part in named]
    slot = content_words(predicate.replace("_", " "))
    if not all(readings) or any(
        (_STATES_A_VALUE.search(part) is not None or slot & content_words(part))
        and not _someone_else_said(part, value, predicate)
        for part in parts
        if part not in named
    ):
        # The speaker's clause says what holds now: "Wife sold the Golf, we drive a Tesla
        # now", "Southern cancelled the 7:40 so I get the 8:10". A reaction says nothing
        # ("Ravi left Google, I'm so jealous").
        return frozenset()
    return readings[0]


def _someone_else_said(body: str, value: str, predicate: str) -> frozenset[str]:
    """Who one statement's words make its subject when not the speaker (`_someone_else`)."""
    about = reported_about(body)
    if about is not None:
        # The reporter ("Tom" of "Tom told me he…"), or whom the clause is about; a clause
        # about no one ("My GP says the new dose is 20mg") is news of the speaker's.
        return subject_words(about) or (
            frozenset(content_words(about)) if len(about.split()) <= 3 else frozenset()
        )
    who = subject_words(body)
    if not who or _ACTS_ON_IT.search(body) or _TOOK_THE_PLACE.search(body):
        return frozenset()
    itself = content_words(value) | content_words(predicate.replace("_", " "))
    return who if who - itself else frozenset()


def _actor(fact: Fact) -> set[str]:
    """Who a statement is about when it is not the speaker, by name or relation (a pronoun
    names no one in particular)."""
    return set(_someone_else(fact)) - {THIRD_PERSON}


def _named(text: str) -> set[str]:
    """The names of whom a statement is about ("My friend Tariq is a chef" → {"tariq"})."""
    return {w for w in subject_words(strip_speaker(text)) if not is_relation(w)}


def _different_people(fact: Fact, record: MemoryRecord) -> bool:
    """Two statements filed under one subject that are about two people: they name two
    ("My friend Tariq is a chef", "My friend Nadia is an architect"), or the new one's words
    make someone its subject whom the record does not name ("Ravi left Google", "She sold
    the Golf", "Sara's dad left the BBC" are not the speaker's news of "I work at Google"),
    unless they moved the very thing the record is about."""
    new, old = _named(fact.text), _named(record.text)
    if new and old:
        return new != old
    who = _someone_else(fact)
    if not who:
        return False
    thing = moved_thing(strip_speaker(fact.text))
    if thing and content_words(thing) <= content_words(record.text):
        # Someone moved a thing the record is about: "Landlord put the rent up to 1,350"
        # changes "My rent is 1,200 a month".
        return False
    # Compared as words of the record's text, folded alike ("Nibbles" is "nibble"); all of
    # them ("Sara's dad" is not Sara).
    named = content_words(" ".join(who - {THIRD_PERSON}))
    return THIRD_PERSON in who or not named or not named <= person_words(record.text)


def relate(fact: Fact, record: MemoryRecord, similarity: float) -> Decision | None:
    """How a new fact bears on one existing record: NOOP, REPLACE, or None (unrelated).
    Whether a REPLACE may supersede the record whole is decided for every classifier alike
    (`reconcile.base.sanitize_verdict`)."""
    same_subject = fact.subject == record.subject and not _different_people(fact, record)
    if not fact.predicate or fact.kind is Kind.EPISODIC:
        # Episodic memories have no slot: only a restatement with the same content words is
        # a duplicate (embeddings barely separate "topic 1" from "topic 11").
        if (
            same_subject
            and _words(fact.text) == _words(record.text)
            and (similarity >= DUPLICATE_COSINE or fact.text.strip() == record.text.strip())
        ):
            return Decision.NOOP
        return None
    if not same_subject:
        if (
            fact.replaces
            and record.subject.startswith(f"{fact.subject}'s ")
            and _names_all_of(fact.replaces, record.object or _body(record))
            and (actor := _actor(fact))
            and actor <= content_words(record.text)
        ):
            # "Ravi left Google" over "my best friend Ravi works at Google".
            return Decision.REPLACE
        return None
    which = another_of_its_kind(strip_speaker(fact.text))
    if which is not None and not fact.replaces and which not in content_words(record.text):
        # One more of its kind holds beside the usual one: "work gave me a Samsung as a
        # separate work phone" leaves "my personal phone is an iPhone 15" true.
        return None
    if record.kind is Kind.EPISODIC or not record.predicate:
        return _displaces_episode(fact, record)
    new_obj, old_obj = normalize_value(fact.object), normalize_value(record.object)
    if (
        fact.replaces
        and record.polarity
        and (old_obj == fact.replaces or _words(fact.replaces) <= _words(record.object))
        and not one_of_several(fact.replaces, record.object)
    ):
        return Decision.REPLACE
    if (
        fact.replaces
        and (
            fact.predicate == record.predicate
            # The noun of what the speaker drives or rides ends it, whichever slot took its
            # place ("Swapped the motorbike for an electric scooter, a Vespa" over "I ride a
            # Honda CBR"; `_of_its_kind` says which nouns name which).
            or fact.predicate.split(":", 1)[0] == record.predicate.split(":", 1)[0] == "vehicle"
        )
        and is_single_valued(fact.predicate)
        and record.polarity
        and _ends_the_one_before(fact, record)
    ):
        # "Ended up selling my old car and getting a Kia Niro" ends the one car the speaker
        # drives, whatever it was called ("I drive a Ford Fiesta").
        return Decision.REPLACE
    if fact.predicate != record.predicate:
        if (
            fact.polarity
            and new_obj
            and is_single_valued(fact.predicate)
            and scoped_slot(_category(record) or "", _body(record)) == fact.predicate
            and record.polarity
        ):
            # "Switched to decaf" (drink) over "I drink four espressos a day" (drink).
            return Decision.REPLACE
        return None
    if new_obj == old_obj:
        if not new_obj:
            return None
        return Decision.NOOP if fact.polarity == record.polarity else Decision.REPLACE
    if not fact.polarity and record.polarity and new_obj:
        negated = _items(fact.object)
        kept = [item for item in _items(record.object) if not any(n <= item for n in negated)]
        # "doesn't like coffee" negates "likes coffee in the morning"; "not into horror"
        # leaves "sci-fi" of "horror and sci-fi" standing, so the record stays.
        return Decision.REPLACE if not kept else None
    if fact.polarity and not record.polarity and _words(record.object) <= _words(fact.object):
        return Decision.REPLACE
    # One value at a time, or an explicit move to a new value ("moved my current account
    # over to Monzo" over "I bank with Barclays").
    moved = is_single_valued(fact.predicate) or arrived(strip_speaker(fact.text)) is not None
    if fact.polarity and record.polarity and new_obj and moved:
        if _lists_whole(record.object, fact.object):
            # The new value lists the old one beside another: "I work at the Leeds office
            # and the Bradford site alternate weeks" keeps the Leeds office.
            return None
        return Decision.REPLACE
    return None


def _displaces_episode(fact: Fact, record: MemoryRecord) -> Decision | None:
    """A slot fact against a record that holds only words: REPLACE when the fact names what
    it displaces and the record states exactly that, or moves to a value of the category the
    record states ("moved over to VS Code" over "I use Vim for all my editing")."""
    if not _states(record):
        return None
    body = _body(record)
    gone = fact.replaces or (fact.object if not fact.polarity else None)
    if gone and _names_all_of(gone, body):
        return Decision.REPLACE
    if (
        fact.polarity
        and fact.object
        and is_single_valued(fact.predicate)
        and scoped_slot(_attribute(record) or "", body) == fact.predicate
        and not _names(fact.object, body)
    ):
        return Decision.REPLACE
    return None


__all__ = ["DUPLICATE_COSINE", "relate"]
