"""Cues in a statement's wording that decide how much it may change: is it about now, about a
passing moment, about a maybe, an addition, or a change from one value to another?

The offline path supersedes only on explicit evidence, so these cues gate slot filling
(a temporary, hypothetical or additive statement fills no single-valued slot) and name what a
change displaces ("traded in the Golf for an e-bike" displaces "Golf").

One job a module, each importing only those above it:

- `lazy`: regular expressions compiled on first use, and readers of a text remembered.
- `words`: content words, the items of a compound value, negation, the speaker label.
- `items`: whether a value is one item of a list beside others, or one more of its kind.
- `tense`: when a statement holds and how sure it is (`cues`, `present_state`, ...).
- `subjects`: who a statement is about, whom the speaker names, whose news it reports.
- `changes`: what a change ends, displaces, takes back or moves to.

Import from this package: the names below are its interface; the modules share a few more
among themselves (`LazyPattern`, `remembered`, `IRREGULAR`, `PAST_TENSE`).
"""

from adk_memory.extraction.cues.changes import (
    arrived,
    corrects,
    dated_move,
    displaced,
    ends,
    lasting_change,
    left_behind,
    moved_thing,
    said_as_new,
    taken_back,
    told_as_begun,
)
from adk_memory.extraction.cues.items import another_of_its_kind, one_of_several
from adk_memory.extraction.cues.subjects import (
    KIN_WITHOUT_MY,
    RELATION_NOUNS,
    THIRD_PERSON,
    TRADES,
    comma_clauses,
    includes,
    is_relation,
    named_owner,
    names_someone_alone,
    opens_clause,
    person_words,
    recipient,
    relation_names,
    reported_about,
    split_conjoined,
    stated_things,
    subject_words,
)
from adk_memory.extraction.cues.tense import (
    COUNT,
    MONTHS,
    Cues,
    begins_lasting,
    cues,
    dated_event,
    holds_several,
    lasting_event,
    measured_now,
    one_off_past,
    present_state,
    scoped,
    told_as_over,
)
from adk_memory.extraction.cues.words import (
    CAPITALISED_TITLE,
    HEDGES,
    TITLE,
    TITLES,
    TRAILING_HEDGES,
    content_words,
    negates,
    singular,
    split_items,
    strip_speaker,
)

__all__ = [
    "CAPITALISED_TITLE",
    "COUNT",
    "HEDGES",
    "KIN_WITHOUT_MY",
    "MONTHS",
    "RELATION_NOUNS",
    "THIRD_PERSON",
    "TITLE",
    "TITLES",
    "TRADES",
    "TRAILING_HEDGES",
    "Cues",
    "another_of_its_kind",
    "arrived",
    "begins_lasting",
    "comma_clauses",
    "content_words",
    "corrects",
    "cues",
    "dated_event",
    "dated_move",
    "displaced",
    "ends",
    "holds_several",
    "includes",
    "is_relation",
    "lasting_change",
    "lasting_event",
    "left_behind",
    "measured_now",
    "moved_thing",
    "named_owner",
    "names_someone_alone",
    "negates",
    "one_of_several",
    "one_off_past",
    "opens_clause",
    "person_words",
    "present_state",
    "recipient",
    "relation_names",
    "reported_about",
    "said_as_new",
    "scoped",
    "singular",
    "split_conjoined",
    "split_items",
    "stated_things",
    "strip_speaker",
    "subject_words",
    "taken_back",
    "told_as_begun",
    "told_as_over",
]
