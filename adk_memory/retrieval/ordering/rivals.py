"""The learned weighings of rival answers: which pairs each reads, what it reads of them,
and what its verdicts do.

- The rival model (`RIVAL_FEATURES`) moves a later answer it finds likely to hold instead
  of an earlier one up to just before it (`weigh_rivals`), and where it finds that very
  likely and the query asks for one value, sends the earlier after every other recalled
  memory (`send_rivals_last`); the rules' look-alike readings stay vetoes it cannot
  outweigh (`PairReadings.may_be_rivals`).
- The displacement model (`DISPLACED_FEATURES`, `DISPLACED_SIGNS`) reads the pairs the
  order then puts later first, those readings as features, and sends an earlier answer it
  finds likely displaced after every other recalled memory (`send_displaced_last`).

The weights come from `rival_model` (fitted by `bench/train_rival_model.py`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from adk_memory.extraction.cues import (
    another_of_its_kind,
    begins_lasting,
    corrects,
    cues,
    ends,
    lasting_event,
    negates,
    one_of_several,
    one_off_past,
    reported_about,
    said_as_new,
    subject_words,
    told_as_begun,
)
from adk_memory.model import ScoredMemory
from adk_memory.retrieval.ordering.config import OrderingConfig
from adk_memory.retrieval.ordering.people import answers_about_one_person
from adk_memory.retrieval.ordering.reading import Reading, later_of, shared_kinds, value_clause
from adk_memory.retrieval.ordering.stand_in import (
    adds,
    earlier_names_said,
    ends_one_of_several,
    may_stand_in,
    moves_another_kind,
)
from adk_memory.retrieval.rival_model import RivalModel

#: What the learned weighing of rival answers reads of a pair (earlier, later), in the order
#: of `rival_model.RivalModel.features`: how each matches the query, how they relate, and the
#: cues in each one's words. No rule's verdict is among them: those were fitted to the dev
#: examples, and the model fitted on them carried over worse to the held-out splits. Nor is a
#: cue the vetoes (`PairReadings.may_be_rivals`) make constant: a later statement about the
#: past, told as over or within a context never reaches the model.
RIVAL_FEATURES: tuple[str, ...] = (
    "later_query_share",
    "earlier_query_share",
    "later_query_cosine",
    "earlier_query_cosine",
    "later_matches_as_well",
    "later_lexical",
    "earlier_lexical",
    "pair_cosine",
    "later_nearest_is_earlier",
    "earlier_nearest_is_later",
    "later_answers",
    "earlier_answers",
    "asks_for_one",
    "later_change_worded",
    "later_said_as_new",
    "later_temporary",
    "later_hypothetical",
    "later_additive",
    "later_planned",
    "later_lasting_change",
    "later_begins_lasting",
    "later_lasting_event",
    "later_one_off_past",
    "later_negates",
    "later_reported",
    "later_someone_else",
    "later_another_of_its_kind",
    "later_corrects",
    "later_reads_current",
    "earlier_present_state",
    "earlier_temporary",
    "earlier_hypothetical",
    "earlier_past",
    "earlier_someone_else",
    "later_ends_earlier",
    "later_names_new_value",
    "later_names_earlier_value",
    "values_of_one_kind",
    "same_subject",
    "shares_words",
)


@dataclass(frozen=True)
class RivalPair:
    """Two recalled memories that may answer the query as rivals: indices into the ranked
    list, and what the learned weighing reads of them (`RIVAL_FEATURES`)."""

    earlier: int
    later: int
    features: Mapping[str, float]


def _own_features(reading: Reading, i: int) -> dict[str, float]:
    """What the learned weighing reads of one memory's own words, as the later ("later_…")
    and as the earlier ("earlier_…") of a pair; read once per memory, not once per pair."""
    body = reading.bodies[i]
    found = cues(body)
    someone_else = bool(subject_words(body))
    values = {
        "later_change_worded": found.change,
        "later_temporary": found.temporary,
        "later_hypothetical": found.hypothetical,
        "later_additive": found.additive,
        "later_planned": found.planned,
        "later_lasting_change": reading.says_change[i],
        "later_begins_lasting": begins_lasting(body),
        "later_lasting_event": lasting_event(body),
        "later_one_off_past": one_off_past(body),
        "later_negates": negates(body),
        "later_reported": reported_about(body) is not None,
        "later_someone_else": someone_else,
        "later_another_of_its_kind": another_of_its_kind(body) is not None,
        "later_corrects": corrects(body),
        "later_reads_current": reading.current[i],
        "earlier_present_state": reading.states[i],
        "earlier_temporary": found.temporary,
        "earlier_hypothetical": found.hypothetical,
        "earlier_past": found.past,
        "earlier_someone_else": someone_else,
    }
    return {name: float(value) for name, value in values.items()}


def _rival_features(
    reading: Reading, o: int, n: int, own: Mapping[int, Mapping[str, float]]
) -> dict[str, float]:
    """`RIVAL_FEATURES` of the pair (earlier `o`, later `n`); `own` holds `_own_features`
    by index."""
    old, new = reading.ranked[o], reading.ranked[n]
    best = max((m.breakdown.cosine for m in reading.ranked), default=0.0)
    scale = best if best > 0 else 1.0
    new_values = reading.new_values(n, o)
    values = {
        "later_query_share": new.breakdown.cosine / scale,
        "earlier_query_share": old.breakdown.cosine / scale,
        "later_query_cosine": new.breakdown.cosine,
        "earlier_query_cosine": old.breakdown.cosine,
        "later_matches_as_well": new.breakdown.cosine >= old.breakdown.cosine,
        "later_lexical": new.breakdown.lexical,
        "earlier_lexical": old.breakdown.lexical,
        "pair_cosine": reading.cosine(o, n),
        "later_nearest_is_earlier": reading.nearest[n] == o,
        "earlier_nearest_is_later": reading.nearest[o] == n,
        "later_answers": reading.answers[n],
        "earlier_answers": reading.answers[o],
        "asks_for_one": reading.asks_for_one,
        # Newness said of the new value itself: "Google announced new layoffs" and "the
        # motorbike needs new tyres" present nothing the query asks for as new.
        "later_said_as_new": bool(new_values) and said_as_new(value_clause(reading, n, o)),
        "later_ends_earlier": ends(reading.bodies[n], reading.bodies[o]),
        "later_names_new_value": bool(new_values),
        "later_names_earlier_value": bool(earlier_names_said(reading, n, o)),
        "values_of_one_kind": bool(shared_kinds(new_values, reading.values[o])),
        "same_subject": new.record.subject == old.record.subject,
        "shares_words": bool((reading.words[n] & reading.words[o]) - reading.query_words),
    }
    later = {k: v for k, v in own[n].items() if k.startswith("later_")}
    earlier = {k: v for k, v in own[o].items() if k.startswith("earlier_")}
    return {**{name: float(value) for name, value in values.items()}, **later, **earlier}


def rival_pairs_of(pairs: PairReadings) -> list[RivalPair]:
    """The candidate pairs (`Reading.pairs`) whose later statement may stand in for the
    earlier at all, with the features of each (`PairReadings.may_be_rivals`)."""
    found = []
    for n, o in pairs.candidates:
        if pairs.may_be_rivals(n, o):
            found.append(RivalPair(earlier=o, later=n, features=pairs.features(n, o)))
    return found


def _ends_one_item(reading: Reading, n: int, o: int) -> bool:
    return ends_one_of_several(reading.bodies[n], reading.bodies[o])


def _changes(reading: Reading, n: int, o: int) -> bool:
    return reading.says_change[n] or ends(reading.bodies[n], reading.bodies[o])


def _names_no_answer(reading: Reading, n: int, o: int) -> bool:
    # A change told in words names its value in lower case as often as not ("Got promoted to
    # senior analyst", "I've gone over to sparkling water"): read as naming an answer.
    return not (
        reading.new_values(n, o) or _changes(reading, n, o) or told_as_begun(reading.bodies[n])
    )


def _earlier_value_again(reading: Reading, n: int, o: int) -> bool:
    said_again = earlier_names_said(reading, n, o)
    return bool(said_again) and (
        not _changes(reading, n, o) or any(one_of_several(v, reading.bodies[o]) for v in said_again)
    )


def _adds(reading: Reading, n: int, o: int) -> bool:
    return adds(reading, n, o)


def _cannot_stand_in(reading: Reading, n: int, o: int) -> bool:
    return not may_stand_in(reading, n, o)


def _about_someone_else(reading: Reading, n: int, o: int) -> bool:
    return not answers_about_one_person(reading, n, o)


def _moves_another_kind(reading: Reading, n: int, o: int) -> bool:
    return moves_another_kind(reading, n, o) and not ends(reading.bodies[n], reading.bodies[o])


#: The rules' look-alike readings of a pair (later `n`, earlier `o`), cheapest first: the
#: later ends one item of several the earlier named ("I don't listen to classical any more"
#: after "I love jazz and classical"); it names no new value, no lasting change, no end of
#: the earlier and no change told in words (`told_as_begun`) ("The motorbike needs new
#: tyres");
#: it says more about the earlier value itself ("Took the Golf to Halfords, new tyres"); it
#: adds a value beside the earlier; it is a passing moment, a maybe, one more of its kind
#: (`may_stand_in`); it is someone else's thing or news; it moves a value of another kind
#: than the earlier names, and does not end it by name ("Switched my spin class to
#: Thursdays" beside "I go to the Gym Group in Crawley"). Each vetoes the rival model; the
#: displacement model reads them as features (`DISPLACED_FEATURES`).
_VETOES: Mapping[str, Callable[[Reading, int, int], bool]] = {
    "veto_ends_one_item": _ends_one_item,
    "veto_names_no_answer": _names_no_answer,
    "veto_earlier_value_again": _earlier_value_again,
    "veto_adds": _adds,
    "veto_cannot_stand_in": _cannot_stand_in,
    "veto_about_someone_else": _about_someone_else,
    "veto_moves_another_kind": _moves_another_kind,
}

#: Look-alike readings that keep the learned weighing of displaced answers from reading a
#: pair at all, as they keep the rival model: someone else's news never sends the speaker's
#: own fact away ("My flatmate just moved to Leeds" beside "I rent a flat in Manchester"),
#: nor does a value of another kind ("They moved my day off to Friday" beside "I work 4
#: days a week").
_DISPLACEMENT_GATES = frozenset({"veto_about_someone_else", "veto_moves_another_kind"})

#: The look-alike readings the learned weighing of displaced answers reads as features.
_READ_LOOK_ALIKES: tuple[str, ...] = tuple(
    name for name in _VETOES if name not in _DISPLACEMENT_GATES
)

#: Rival features the learned weighing of displaced answers does not read. Whether the
#: earlier is about someone else and whether the extractor filed both under one subject
#: describe how the dev splits were written (their updates have more relatives than their
#: look-alikes), not what displaces a fact: read, they sent a relative's second pet out of
#: sight. The earlier one always answers the query here, and the query always asks for one
#: value (`displaced_pairs_of`). Neither model reads how many days lie between the two
#: statements: the splits' updates have longer gaps than their look-alikes, and read, the
#: gap sent a two-year-old fact beside a passing stand-in, and "My daughter is called Seren"
#: two years before "Named my new sourdough starter Gwen", out of sight.
_NOT_READ_FOR_DISPLACEMENT = frozenset(
    {"earlier_someone_else", "same_subject", "earlier_answers", "asks_for_one"}
)

#: What the learned weighing of displaced answers reads of a pair (later, earlier) that the
#: ordering already placed later first: the rival features it can trust, and each look-alike
#: reading (`_VETOES`) as a feature rather than a veto. An update in chat often trips one
#: ("I started eating fish again, so pescatarian I guess" names no capitalised value), and
#: how much each says against an update is what the model learns.
DISPLACED_FEATURES: tuple[str, ...] = (
    tuple(name for name in RIVAL_FEATURES if name not in _NOT_READ_FOR_DISPLACEMENT)
    + _READ_LOOK_ALIKES
)
_DISPLACED = frozenset(DISPLACED_FEATURES)

#: The direction each reading may push the learned weighing of displaced answers, known
#: before any example (`rival_model.fit`'s `signs`): a look-alike reading (a passing moment,
#: a maybe, an addition, a plan, one more of its kind, someone else's news, more about the
#: earlier value) only ever counts against displacement, a reading of change, newness, an
#: end or a correction only for it. Fitted freely, "on holiday this week" counted for it,
#: because the dev splits' updates happen to say "this week" more than their look-alikes.
DISPLACED_SIGNS: Mapping[str, int] = {
    **dict.fromkeys(_READ_LOOK_ALIKES, -1),
    **dict.fromkeys(
        (
            "later_temporary",
            "later_hypothetical",
            "later_additive",
            "later_planned",
            "later_one_off_past",
            "later_lasting_event",
            "later_reported",
            "later_someone_else",
            "later_another_of_its_kind",
            "later_names_earlier_value",
            "earlier_past",
        ),
        -1,
    ),
    **dict.fromkeys(
        (
            "later_change_worded",
            "later_said_as_new",
            "later_lasting_change",
            "later_begins_lasting",
            "later_ends_earlier",
            "later_corrects",
            "later_reads_current",
            "later_names_new_value",
            "values_of_one_kind",
            "earlier_present_state",
        ),
        1,
    ),
}


class PairReadings:
    """What the learned weighings read of the candidate pairs of one recall, each reading
    made once: the rival model and then the displacement model read many of the same pairs.
    """

    def __init__(self, reading: Reading, config: OrderingConfig) -> None:
        self.reading = reading
        self.config = config
        self._own: dict[int, dict[str, float]] = {}
        self._features: dict[tuple[int, int], dict[str, float]] = {}
        self._vetoes: dict[tuple[str, int, int], bool] = {}

    @functools.cached_property
    def candidates(self) -> list[tuple[int, int]]:
        """Each candidate pair (`Reading.pairs`) as (later, earlier), but two clauses of one
        message (said at once, in no order); found once, read by both weighings."""
        reading = self.reading
        found = []
        for i, j in reading.pairs:
            if reading.said[i] != reading.said[j]:
                n = later_of(reading, i, j)
                found.append((n, j if n == i else i))
        return found

    def related(self, n: int, o: int) -> bool:
        """Whether the two are about the same thing at all (`OrderingConfig.rival_cosine`)."""
        return self.reading.cosine(n, o) >= self.config.rival_cosine

    def vetoed(self, name: str, n: int, o: int) -> bool:
        """Whether the look-alike reading `name` (of `_VETOES`) holds of the pair."""
        key = (name, n, o)
        if key not in self._vetoes:
            self._vetoes[key] = _VETOES[name](self.reading, n, o)
        return self._vetoes[key]

    def may_be_rivals(self, n: int, o: int) -> bool:
        """Whether the rival model may weigh a later statement against an earlier one: the
        two are related and no look-alike reading (`_VETOES`) holds."""
        return self.related(n, o) and not any(self.vetoed(name, n, o) for name in _VETOES)

    def features(self, n: int, o: int) -> dict[str, float]:
        """`RIVAL_FEATURES` of the pair."""
        if (n, o) not in self._features:
            for index in (n, o):
                if index not in self._own:
                    self._own[index] = _own_features(self.reading, index)
            self._features[n, o] = _rival_features(self.reading, o, n, self._own)
        return self._features[n, o]

    def displaced_features(self, n: int, o: int) -> dict[str, float]:
        """`DISPLACED_FEATURES` of the pair."""
        read = {k: v for k, v in self.features(n, o).items() if k in _DISPLACED}
        return read | {name: float(self.vetoed(name, n, o)) for name in _READ_LOOK_ALIKES}


def passing(reading: Reading, n: int) -> bool:
    """Whether a statement tells of a passing moment and no change ("Dave's away so I'm
    training with Lucy this month", "the gym was shut so I swam at Ponds Forge"): whatever
    it resembles, the lasting answer beside it still holds. "I moved to Leeds this week"
    is a change, however recent."""
    return reading.temporary[n] and not (reading.change_worded[n] or reading.says_change[n])


def displaced_pairs_of(pairs: PairReadings, ordered: Sequence[ScoredMemory]) -> list[RivalPair]:
    """The candidate pairs whose later memory `ordered` places before the earlier, with
    `DISPLACED_FEATURES`: only where the query asks for one value (`question.asks_for_one`:
    "What pets does my sister have?" has room for a kitten beside the dog), the earlier
    memory answers it (a later statement displaces only an answer) and the two are related;
    not from a passing moment (`passing`) nor someone else's news (`_DISPLACEMENT_GATES`);
    and not where the rules marked the later one earlier or the earlier one latest (their
    evidence says otherwise)."""
    if not pairs.reading.asks_for_one:
        return []
    at = {m.record.id: m for m in ordered}
    rank = {m.record.id: place for place, m in enumerate(ordered)}
    ids = [m.record.id for m in pairs.reading.ranked]
    found = []
    for n, o in pairs.candidates:
        later, earlier = at[ids[n]], at[ids[o]]
        if (
            passing(pairs.reading, n)
            or not pairs.reading.answers[o]
            or rank[ids[n]] > rank[ids[o]]
            or later.latest is False
            or earlier.latest is True
            or not pairs.related(n, o)
            or any(pairs.vetoed(name, n, o) for name in _DISPLACEMENT_GATES)
        ):
            continue
        found.append(RivalPair(earlier=o, later=n, features=pairs.displaced_features(n, o)))
    return found


def rival_pairs(
    ranked: Sequence[ScoredMemory],
    vectors: np.ndarray,
    config: OrderingConfig,
    *,
    query: str,
) -> list[RivalPair]:
    """The pairs of `ranked` the learned weighing of rival answers reads, with their
    features: what `bench/train_rival_model.py` fits the model on, and what
    `current_first` asks it about."""
    return rival_pairs_of(PairReadings(Reading(ranked, vectors, config, query), config))


def weigh(pairs: Sequence[RivalPair], model: RivalModel) -> list[tuple[float, RivalPair]]:
    """Each pair with how likely `model` finds its later answer to hold instead of the
    earlier, the likeliest first: read once, by `weigh_rivals` and `send_rivals_last`."""
    return sorted(
        ((model.probability(pair.features), pair) for pair in pairs), key=lambda found: -found[0]
    )


def weigh_rivals(
    ordered: list[ScoredMemory],
    weighed: Sequence[tuple[float, RivalPair]],
    ranked: Sequence[ScoredMemory],
    threshold: float,
) -> list[ScoredMemory]:
    """`ordered` with each later rival answer found at least `threshold` likely to hold
    instead (`weigh`) moved up to just before the earlier one, the likeliest first; the
    memories between slide down one rank. Unmarked, like answers the rules find alike: the
    model weighs cues, it reads no explicit evidence that the earlier value is gone. A memory
    the rules marked is left where their evidence put it."""
    order = [m.record.id for m in ordered]
    marked = {m.record.id for m in ordered if m.latest is not None}
    for probability, pair in weighed:
        if probability < threshold:
            break
        earlier, later = ranked[pair.earlier].record.id, ranked[pair.later].record.id
        if earlier in marked or later in marked:
            continue
        if order.index(earlier) < order.index(later):
            order.remove(later)
            order.insert(order.index(earlier), later)
    at = {m.record.id: m for m in ordered}
    return [at[i] for i in order]


def send_rivals_last(
    ordered: list[ScoredMemory],
    weighed: Sequence[tuple[float, RivalPair]],
    reading: Reading,
    threshold: float,
) -> list[ScoredMemory]:
    """`ordered` with the earlier answer of each pair found at least `threshold` likely to be
    held instead by the later one (`weigh`) sent after every other recalled memory,
    unmarked, where the query asks for one value and the earlier answers it; never a memory
    the rules marked (their evidence decides it)."""
    if not reading.asks_for_one:
        return ordered
    marked = {m.record.id for m in ordered if m.latest is not None}
    gone = {
        reading.ranked[pair.earlier].record.id
        for probability, pair in weighed
        if reading.answers[pair.earlier] and probability >= threshold
    } - marked
    if not gone:
        return ordered
    return [m for m in ordered if m.record.id not in gone] + [
        m for m in ordered if m.record.id in gone
    ]


def send_displaced_last(
    ordered: list[ScoredMemory],
    pairs: Sequence[RivalPair],
    ranked: Sequence[ScoredMemory],
    threshold: float,
    model: RivalModel,
) -> list[ScoredMemory]:
    """`ordered` with each earlier memory of `pairs` (`displaced_pairs_of`) that the model
    finds at least `threshold` likely to be displaced by the later one sent after every other
    recalled memory, unmarked: still returned, never superseded."""
    displaced = {
        ranked[pair.earlier].record.id
        for pair in pairs
        if model.probability(pair.features) >= threshold
    }
    if not displaced:
        return ordered
    return [m for m in ordered if m.record.id not in displaced] + [
        m for m in ordered if m.record.id in displaced
    ]
