"""Same-question ordering: pure, on hand-made scored memories and unit vectors."""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest

from adk_memory.model import Kind, Scope, ScoreBreakdown, ScoredMemory
from adk_memory.retrieval.ordering import (
    DISPLACED_FEATURES,
    RIVAL_FEATURES,
    OrderingConfig,
    current_first,
)
from adk_memory.retrieval.ordering.people import same_person
from adk_memory.retrieval.ordering.reading import compared_values, values_in
from adk_memory.retrieval.rival_model import RivalModel
from tests.helpers import T0, make_record

SCOPE = Scope(app_name="a", user_id="u")


def scored(text: str, score: float, day: int, **fields: object) -> ScoredMemory:
    record = make_record(SCOPE, text, days=day, **fields)  # type: ignore[arg-type]
    record = record.model_copy(update={"recorded_at": T0 + timedelta(days=day)})
    b = ScoreBreakdown(
        score=score, similarity=score, cosine=score, lexical=0, decay=1, confidence=1, age_days=0
    )
    return ScoredMemory(record=record, breakdown=b)


def unit(*values: float) -> np.ndarray:
    v = np.array(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_same_slot_answers_come_newest_first_and_are_marked() -> None:
    old = scored("User lives in Berlin.", 0.9, 1, predicate="lives_in", kind=Kind.PROFILE)
    other = scored("User likes tea.", 0.7, 5)
    new = scored("User lives in Munich.", 0.8, 9, predicate="lives_in", kind=Kind.PROFILE)
    after = scored("User plays chess.", 0.6, 3)
    vectors = np.stack([unit(1, 0, 0), unit(0, 1, 0), unit(1, 1, 0), unit(0, 0, 1)])
    ranked = [old, other, new, after]
    # The rules alone: the learned weighing of displaced answers may send Berlin last.
    ordered = current_first(ranked, vectors, OrderingConfig(displaced_order=None))
    # The group swaps the ranks it holds; the memory between keeps its rank.
    assert [m.record.text for m in ordered] == [
        "User lives in Munich.",
        "User likes tea.",
        "User lives in Berlin.",
        "User plays chess.",
    ]
    assert [m.latest for m in ordered] == [True, None, False, None]
    last = current_first(ranked, vectors, OrderingConfig(earlier_last=True))
    assert [m.record.text for m in last] == [
        "User lives in Munich.",
        "User likes tea.",
        "User plays chess.",
        "User lives in Berlin.",
    ]


def test_near_identical_episodes_group_by_embedding() -> None:
    a = scored("I drive a Golf.", 0.9, 1)
    b = scored("I drive an e-bike now.", 0.85, 30)
    vectors = np.stack([unit(1, 0.2), unit(1, 0.3)])
    ordered = current_first([a, b], vectors, OrderingConfig())
    assert [m.record.text for m in ordered] == ["I drive an e-bike now.", "I drive a Golf."]


def test_unrelated_or_weak_memories_keep_their_rank() -> None:
    a = scored("I drive a Golf.", 0.9, 1)
    weak = scored("I drive to work on Mondays.", 0.3, 30)  # similar, but barely answers
    far = scored("My cat is Luna.", 0.8, 40)
    vectors = np.stack([unit(1, 0.2), unit(0, 1), unit(1, 0.25)])
    ordered = current_first([a, far, weak], vectors, OrderingConfig())
    assert [m.record.text for m in ordered] == [a.record.text, far.record.text, weak.record.text]
    assert all(m.latest is None for m in ordered)


def test_summaries_never_group() -> None:
    fact = scored("I moved to Munich.", 0.9, 1)
    summary = scored("Alice: lives in Munich; likes tea.", 0.85, 50, kind=Kind.SUMMARY)
    vectors = np.stack([unit(1, 0), unit(1, 0)])
    ordered = current_first([fact, summary], vectors, OrderingConfig())
    assert [m.record.text for m in ordered] == [fact.record.text, summary.record.text]


def test_grouping_can_be_turned_off() -> None:
    a, b = scored("I drive a Golf.", 0.9, 1), scored("I drive a bike.", 0.85, 30)
    vectors = np.stack([unit(1, 0), unit(1, 0)])
    assert current_first([a, b], vectors, OrderingConfig(enabled=False)) == [a, b]


def test_a_change_displaces_the_state_it_is_closest_to_even_when_it_matches_less() -> None:
    # "Where is my office?" matches the old sentence's words far better than the change.
    old = scored("User: Our office is on the 4th floor of the Shard.", 0.8, 1)
    other = scored("User: I'm left-handed.", 0.3, 5)
    new = scored("User: The company moved us to a co-working space in Shoreditch.", 0.2, 30)
    vectors = np.stack([unit(1, 0.3, 0), unit(0, 0, 1), unit(0.6, 1, 0)])
    ordered = current_first([old, other, new], vectors, OrderingConfig())
    assert [m.record.text for m in ordered] == [new.record.text, other.record.text, old.record.text]
    assert [m.latest for m in ordered] == [True, None, False]
    # Shown last, never dropped: the earlier value is still recalled and marked.
    kept = current_first([old, other, new], vectors, OrderingConfig(displaced_last=False))
    assert [m.record.text for m in kept] == [new.record.text, other.record.text, old.record.text]
    assert [m.latest for m in kept] == [True, None, False]


def test_a_change_displaces_only_its_nearest_state() -> None:
    home = scored("User: I live in Berlin.", 0.7, 1)
    car = scored("User: I drive a VW Golf.", 0.6, 2)
    move = scored("User: We're in Munich now, still unpacking.", 0.5, 40)
    vectors = np.stack([unit(1, 0.2, 0), unit(0.5, 1, 0), unit(1, 0, 0.3)])
    ordered = current_first([home, car, move], vectors, OrderingConfig())
    assert [m.record.text for m in ordered] == [move.record.text, car.record.text, home.record.text]
    assert [m.latest for m in ordered] == [True, None, False]


def _pair_order(
    before: str, after: str, cosine: float = 0.8, config: OrderingConfig | None = None
) -> list[str]:
    old = scored(f"User: {before}", 0.8, 1)
    new = scored(f"User: {after}", 0.5, 30)
    other = scored("User: My shoe size is 42.", 0.4, 10)
    angle = float(np.arccos(cosine))
    vectors = np.stack([unit(1, 0, 0), unit(np.cos(angle), np.sin(angle), 0), unit(0, 0, 1)])
    # Only a change may reorder them here: the two are set too far apart to be read as
    # answers to one question, and the learned weighing of rival answers is off.
    config = config or OrderingConfig(
        same_question_cosine=0.99, answer_cosine=0.99, rival_order=None
    )
    ordered = current_first([old, new, other], vectors, config)
    return [m.record.text.removeprefix("User: ") for m in ordered]


def test_what_is_not_a_lasting_change_of_the_same_state_displaces_nothing() -> None:
    cases = [
        # A passing moment, a maybe, an addition, a plan in progress.
        ("I live in Berlin.", "I'm at a conference in Vienna this week."),
        ("I live in Milan.", "I'm thinking of moving to Rome."),
        ("I play tennis.", "I also started playing squash."),
        ("I bank with Nationwide.", "ugh, my internet keeps dropping"),
        # One item of a compound ended: the other still holds.
        ("I love jazz and classical.", "I don't really listen to classical any more."),
        # The past is history, not a displaced present.
        ("I grew up in Glasgow.", "I live in Bristol these days."),
        ("I worked at IBM for ten years.", "I work at Red Hat now."),
        # Someone else changed, not the speaker.
        ("I live in Oslo.", "My sister moved to Bergen."),
        ("I report to Dr. Weiss.", "My team just hired two interns."),
        ("I work at Google.", "Ravi left Google last month."),
        ("My sister lives in Oslo.", "We moved to Munich."),
        # Someone else, named after what brought the change about.
        (
            "My manager is Deirdre Walsh, she's great.",
            "since the reorg my teammate Kofi reports to Hamish Grant now",
        ),
        # A stage of life told in the past, one item of several, a context.
        ("Rowing was my whole life at uni.", "nowadays it's mostly bouldering for me"),
        ("I'm into thrillers and historical fiction.", "honestly I'm over thrillers now."),
        (
            "My personal email is jess88@gmail.com.",
            "For anything job-related please use j.ortega@brightlane.co.uk instead.",
        ),
    ]
    for before, after in cases:
        assert _pair_order(before, after) == [before, after, "My shoe size is 42."], after


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # A passing moment, a maybe, an addition, a plan in progress.
        ("I live in Berlin.", "I'm at a conference in Vienna this week."),
        ("I live in Milan.", "I'm thinking of moving to Rome."),
        ("I play tennis.", "I also started playing squash."),
        ("I have a British passport.", "Got my Irish one through my gran, so I've got both now."),
        # One item of a compound ended: the other still holds.
        ("I love jazz and classical.", "I don't really listen to classical any more."),
        # Someone else's news or thing.
        ("I live in Oslo.", "My sister moved to Bergen."),
        ("I work at Google.", "Ravi left Google last month."),
        ("I drive a VW Golf.", "Tom's driving a Tesla Model 3 now."),
        ("I weigh 80kg.", "Bruno's down to 29kg after the diet."),
        ("My phone is a Pixel 7.", "Got my mum an iPhone 15 for her birthday."),
        # More about the earlier value itself, or nothing that could be a new answer.
        ("I drive a VW Golf.", "Took the Golf to Halfords, new tyres, 400 quid."),
        ("I ride a Yamaha motorbike.", "The motorbike needs new tyres."),
        # A report of someone of the speaker's, whatever the word for them.
        ("I live in Manchester.", "Apparently our Jess is moving to Leeds."),
        ("I drive a Honda Civic.", "Dad says my landlady drives a Tesla now."),
        ("I've still got a Huawei P30.", "my nephew says my phone is basically a Nokia 3310 lol"),
    ],
)
def test_the_learned_weighing_never_reads_a_look_alike_whatever_its_weights(
    before: str, after: str
) -> None:
    """With `rival_order=0.0` every pair the vetoes let through would move: these must not
    reach the model at all, however it is fitted."""
    config = OrderingConfig(same_question_cosine=0.99, answer_cosine=0.99, rival_order=0.0)
    assert _pair_order(before, after, config=config) == [before, after, "My shoe size is 42."]


def test_lasting_changes_of_the_same_state_displace_it() -> None:
    cases = [
        ("I'm with Vodafone for my mobile.", "Ported my number to giffgaff last week."),
        ("The product launch is scheduled for May 3rd.", "Launch slipped again, now the 20th."),
        ("We're planning to get married in June.", "We pushed the wedding back to October."),
        ("My mum is a head teacher.", "Mum retired from teaching at Easter."),
        ("My parents live in Cork.", "Mum and Dad sold the house and moved to Kinsale."),
        ("My best friend Ravi works at Google.", "Ravi left Google to start a company."),
        ("My knee is still bad, I'm on ibuprofen.", "My knee is fine now, no more painkillers."),
        ("I ride a Vespa to work.", "Sold the Vespa and got a Yamaha."),
        # An end said as a present denied; a report that is an aside of the one who changed.
        ("I'm doing keto at the moment.", "I'm not doing keto anymore, it's Mediterranean now."),
        (
            "My dad drives an old Land Rover Defender.",
            "Dad finally gave up on the Defender and bought a Toyota RAV4, says his back is "
            "thanking him.",
        ),
        # "Also" opening a message adds news, not a value beside the earlier one.
        ("I get a HelloFresh box every week.", "oh also, I swapped HelloFresh for Gousto."),
    ]
    for before, after in cases:
        assert _pair_order(before, after) == [after, "My shoe size is 42.", before], after


def test_a_correction_sends_the_answer_it_corrects_last() -> None:
    """The later answer says the earlier was wrong and gives its own value: marked, and the
    earlier never held, so it goes after every other memory."""
    config = OrderingConfig(rival_order=None)
    for before, after in (
        ("My postcode is LS6 2QT.", "Wait, I gave you the wrong postcode before, it's LS6 3QT."),
        ("my laptop's a Dell XPS 13", "Just checked, it's actually a Dell XPS 15, not the 13."),
        ("Our flight is BA 287.", "Sorry, typo earlier, the flight number is BA 297."),
    ):
        ordered = _pair_order(before, after, cosine=0.8, config=config)
        assert ordered == [after, "My shoe size is 42.", before], after


def test_a_later_reading_of_an_amount_comes_first() -> None:
    """A reading a day word dates ("this morning") is the current value of what it measures,
    not a passing moment."""
    config = OrderingConfig(rival_order=None)
    before, after = "I'm currently 92 kg.", "The scales said 84 kg this morning!"
    assert _pair_order(before, after, cosine=0.8, config=config)[0] == after


def test_a_change_far_from_every_state_displaces_nothing() -> None:
    before, after = "I drink four espressos a day.", "Switched to decaf."
    assert _pair_order(before, after, cosine=0.1) == [before, after, "My shoe size is 42."]


def test_a_pronoun_continues_a_state_about_someone_else_and_a_new_name_does_not() -> None:
    assert _pair_order("My sister lives in Oslo.", "She moved to Bergen.") == [
        "She moved to Bergen.",
        "My shoe size is 42.",
        "My sister lives in Oslo.",
    ]
    # A name the state does not hold may be anyone: nothing is displaced.
    for before, after in (
        ("My daughter is in year 6 at Hillside.", "Maya moved to Oakwood Secondary now."),
        ("My sister lives in Oslo.", "Tom moved to Bergen."),
        ("My best friend Ravi works at Google.", "Tom left Google, he's at Meta now."),
    ):
        assert _pair_order(before, after)[0] == before, after
    # A pronoun never continues a state of the speaker's.
    assert _pair_order("I live in Oslo.", "She moved to Bergen.")[0] == "I live in Oslo."


def test_many_valued_slots_never_group() -> None:
    peanuts = scored(
        "User is allergic to peanuts.", 0.9, 1, predicate="allergic_to", kind=Kind.PROFILE
    )
    cats = scored("User is allergic to cats.", 0.8, 9, predicate="allergic_to", kind=Kind.PROFILE)
    vectors = np.stack([unit(1, 0), unit(0, 1)])
    ordered = current_first([peanuts, cats], vectors, OrderingConfig())
    assert [m.record.text for m in ordered] == [peanuts.record.text, cats.record.text]
    assert [m.latest for m in ordered] == [None, None]


def test_an_addition_never_groups_with_what_it_adds_to() -> None:
    peanuts = scored("User: I'm allergic to peanuts.", 0.9, 1)
    cats = scored("User: I'm allergic to cats too.", 0.85, 9)
    vectors = np.stack([unit(1, 0.1), unit(1, 0.12)])  # nearly the same sentence
    ordered = current_first([peanuts, cats], vectors, OrderingConfig())
    assert [m.latest for m in ordered] == [None, None]


def test_a_change_never_displaces_a_different_slot_or_a_name() -> None:
    name = scored("User: I'm Sam.", 0.6, 1, predicate="name", kind=Kind.PROFILE)
    home = scored("User: I live in Berlin.", 0.55, 2, predicate="lives_in", kind=Kind.PROFILE)
    whiskey = scored(
        "User: I take my whiskey on the rocks now.",
        0.5,
        40,
        predicate="prefers:whiskey",
        kind=Kind.PROFILE,
    )
    fragment = scored("User: Chopped it all off now, new look.", 0.4, 41)
    for state, change in ((home, whiskey), (name, whiskey), (name, fragment)):
        vectors = np.stack([unit(1, 0.1), unit(1, 0.12)])
        ordered = current_first([state, change], vectors, OrderingConfig())
        assert [m.latest for m in ordered] == [None, None], change.record.text


def test_a_change_that_already_superseded_its_value_displaces_nothing_else() -> None:
    # "splash of water" replaced "neat" by REPLACE; the beer gardens are another matter.
    garden = scored("User: I love the beer gardens.", 0.6, 1)
    whiskey = scored("User: These days I take my whiskey with a splash of water.", 0.5, 40)
    vectors = np.stack([unit(1, 0.5), unit(1, 0.4)])
    displaced = current_first([garden, whiskey], vectors, OrderingConfig())
    assert [m.latest for m in displaced] == [True, False]
    settled = current_first([garden, whiskey], vectors, OrderingConfig(), {whiskey.record.id})
    assert [m.latest for m in settled] == [None, None]


def test_a_group_holds_one_kind_of_evidence() -> None:
    # Coffee and tea are near-identical sentences (both may hold); decaf changes coffee.
    coffee = scored("User: I like coffee in the morning.", 0.9, 1)
    decaf = scored("User: I drink decaf instead now.", 0.8, 30)
    tea = scored("User: I like tea in the afternoon.", 0.85, 60)
    vectors = np.stack([unit(1, 0.2, 0), unit(1, 0.3, 0.5), unit(1, 0.25, -0.6)])
    ordered = current_first([coffee, decaf, tea], vectors, OrderingConfig())
    marks = {m.record.text: m.latest for m in ordered}
    assert marks[tea.record.text] is None  # never marked because a change joined its group
    assert marks[decaf.record.text] is True and marks[coffee.record.text] is False


def _answer_order(
    before: str,
    after: str,
    *,
    after_score: float = 0.5,
    query: str = "",
    subjects: tuple[str, str] = ("user", "user"),
    config: OrderingConfig | None = None,
) -> list[str]:
    """Two memories recalled for one query whose embeddings are related (cosine 0.5), with
    an unrelated one ranked between them; `subjects` are what the extractor filed them under."""
    old = scored(f"User: {before}", 0.8, 1, subject=subjects[0])
    between = scored("User: My shoe size is 42.", 0.6, 10)
    new = scored(f"User: {after}", after_score, 30, subject=subjects[1])
    angle = float(np.arccos(0.5))
    vectors = np.stack([unit(1, 0, 0), unit(0, 0, 1), unit(np.cos(angle), np.sin(angle), 0)])
    ordered = current_first([old, between, new], vectors, config or OrderingConfig(), query=query)
    assert all(m.latest is None for m in ordered)
    return [m.record.text.removeprefix("User: ") for m in ordered]


def test_a_later_answer_to_the_same_question_takes_the_earlier_ones_rank() -> None:
    before, after = (
        "My laptop is a ThinkPad X1.",
        "Work issued me a MacBook Pro, the ThinkPad is old.",
    )
    # The two swap ranks; the memory between them keeps its own.
    assert _answer_order(before, after) == [after, "My shoe size is 42.", before]


def test_what_does_not_answer_the_same_question_keeps_its_rank() -> None:
    cases = [
        # A passing moment says nothing about the lasting answer.
        ("I have a beagle called Max.", "I'm looking after my neighbour's beagle this weekend."),
        # No word in common: near in meaning, but not about the same thing.
        ("I'm allergic to penicillin.", "I stopped taking the antibiotics the doctor gave me."),
        # About someone else.
        ("I drink my coffee with oat milk.", "My wife drinks her coffee black."),
        # A remark on the same thing that names no new value and matches the query less.
        ("My dog is a border collie.", "My dog hates the vacuum cleaner."),
    ]
    for before, after in cases:
        assert _answer_order(before, after) == [before, "My shoe size is 42.", after], after
    # A name in a one-off remark that matches the query far less is no new value of it.
    party = ("My partner is Alex.", "Met Alex's old friend Jordan at the party.")
    assert _answer_order(*party, after_score=0.35)[0] == party[0]
    assert _answer_order(*party, after_score=0.5)[0] == party[1]
    # Barely relevant to the query: no answer at all.
    laptop = ("My laptop is a ThinkPad X1.", "Work issued me a MacBook Pro, the ThinkPad is old.")
    assert _answer_order(*laptop, after_score=0.2)[0] == laptop[0]


def test_an_update_close_to_an_answer_answers_it_however_little_it_matches_the_query() -> None:
    # The update says nothing of "What city am I in?" but is close to its answer.
    before, after = "I live in Phoenix.", "Ended up relocating to Tucson in the spring."
    assert _answer_order(before, after, after_score=0.2)[0] == after
    # A value of another kind answers another question.
    kept = "I drive a VW Golf."
    assert _answer_order(kept, "I drive to work on Mondays.", after_score=0.2)[0] == kept
    # Going on about the earlier value is a remark on it; a number said again is no value.
    remark = "Took the Golf to Halfords, new tyres, 400 quid."
    assert _answer_order(kept, remark, after_score=0.2)[0] == kept
    for earlier, remark in (
        # Named again anywhere, a name or a name with digits ("5k").
        ("My partner is called Alex.", "Alex's ex Jordan turned up at the party, awkward."),
        ("I'm doing the couch to 5k programme.", "week 6 of couch to 5k done, legs are dead"),
        # A one-off of the past answers nothing lasting.
        ("I support Celtic.", "went to the Rangers game with a mate, don't tell anyone"),
    ):
        assert _answer_order(earlier, remark, after_score=0.2)[0] == earlier, remark
    shift = "They've put me on lates for the foreseeable, 2 till 10."
    assert _answer_order("I work the early shift, 6 till 2.", shift, after_score=0.2)[0] == shift


def test_a_later_answer_said_as_a_change_needs_to_match_the_query_a_little_less() -> None:
    before, query = "My sister works as an accountant.", "What does my sister do?"
    change = "My sister quit accountancy and is retraining as a midwife."
    rules = OrderingConfig(rival_order=None, displaced_order=None)
    assert _answer_order(before, change, after_score=0.6, query=query, config=rules)[0] == change
    assert _answer_order(before, change, after_score=0.5, query=query, config=rules)[0] == before
    remark = "My sister is retraining as a midwife."
    assert _answer_order(before, remark, after_score=0.6, query=query)[0] == before


def test_a_later_answer_without_a_new_value_must_match_the_query_nearly_as_well() -> None:
    before, after = "My knee is still bad.", "Physio fixed my knee completely."
    assert _answer_order(before, after, after_score=0.7)[0] == after
    assert _answer_order(before, after, after_score=0.5)[0] == before


def test_statements_said_at_once_are_not_ordered() -> None:
    # Two clauses of one message: nothing says which holds after the other.
    a = scored("User: I play guitar in a band called The Foxes.", 0.8, 5)
    b = scored("User: I play bass in a jazz trio called Blue Hour.", 0.7, 5)
    # Written a moment later, as the second clause of the message is.
    later = b.record.model_copy(update={"created_at": b.record.created_at + timedelta(seconds=1)})
    b = b.model_copy(update={"record": later})
    vectors = np.stack([unit(1, 0.1), unit(1, 0.2)])
    assert current_first([a, b], vectors, OrderingConfig()) == [a, b]


def test_nothing_groups_when_no_memory_matches_the_query() -> None:
    a = scored("User: I live in Berlin.", -0.05, 1)
    b = scored("User: I live in Munich now.", -0.1, 30)
    vectors = np.stack([unit(1, 0.1), unit(1, 0.2)])
    assert [m.record.id for m in current_first([a, b], vectors, OrderingConfig())] == [
        a.record.id,
        b.record.id,
    ]


def test_many_near_identical_memories_are_each_placed_once() -> None:
    memories = [scored(f"User: I like thing number {i}.", 0.9 - i * 0.001, i) for i in range(300)]
    vectors = np.stack([unit(1, 0.01 * (i % 7)) for i in range(300)])
    ordered = current_first(memories, vectors, OrderingConfig())
    assert sorted(m.record.id for m in ordered) == sorted(m.record.id for m in memories)


def test_sharing_only_the_words_of_the_query_is_no_evidence() -> None:
    before, after = "My parents live in Lisbon.", "My parents love their garden."
    # "parents" is what the query asks about, not a sign that both answer it alike.
    assert (
        _answer_order(before, after, after_score=0.65, query="Where do my parents live?")[0]
        == before
    )
    assert _answer_order(before, after, after_score=0.65, query="Tell me something.")[0] == after


def test_new_values_are_read_past_abbreviations_and_in_a_named_role() -> None:
    cases = [
        # An abbreviation's full stop opens no sentence: "Okafor" is a new value.
        ("My GP is Dr. Patel.", "I registered with Dr. Okafor at the new surgery."),
        # Opening the sentence, but naming who fills the role.
        ("My manager is Sarah.", "Tom is my manager since the reorg."),
    ]
    for before, after in cases:
        assert _answer_order(before, after)[0] == after, after
    # A capital that only opens the sentence names nothing.
    assert _answer_order("My manager is Sarah.", "Lunch with the manager was long.")[0] == (
        "My manager is Sarah."
    )


def test_what_the_speaker_just_got_is_the_speakers() -> None:
    before, after = "I have a MacBook Air.", "my new ThinkPad arrived, loving the keyboard"
    assert _answer_order(before, after)[0] == after
    # A thing of the speaker's that acts is its own subject.
    kept = "I drive a Honda Civic."
    assert _answer_order(kept, "My neighbour bought a Tesla Model 3.")[0] == kept


def test_a_later_plan_stands_in_for_an_earlier_plan_and_a_maybe_does_not() -> None:
    before = "We're going to Portugal in June."
    after = "changed plans, we're going to Greece in June instead"
    assert _answer_order(before, after)[0] == after
    assert _answer_order(before, "We might go to Greece in June instead.")[0] == before
    # A plan says nothing of what holds now.
    assert _answer_order("I live in Berlin.", "We're going to Lisbon in June.")[0] == (
        "I live in Berlin."
    )


def test_a_time_word_dates_a_start_and_bounds_a_moment() -> None:
    before = "I'm on the payments team."
    assert _answer_order(before, "First standup with the Search team today.")[0] != before
    kept = "I live in Berlin."
    assert _answer_order(kept, "I'm at a conference in Vienna this week.")[0] == kept


def test_a_day_word_dates_an_event_and_the_sentence_naming_the_value_decides() -> None:
    # An event in the past tense that "today" dates may last.
    before = "I'm at A2 level in German."
    assert _answer_order(before, "Passed my B1 German exam today!!")[0] != before
    # A passing moment elsewhere in the message says nothing of the value's sentence.
    before = "My dentist is Dr Lindqvist."
    after = "ugh, traffic this morning was unreal. Anyway the new dentist, Dr Ferreira, is great."
    assert _answer_order(before, after)[0] == after
    # ... when that sentence presents something new: a one-off names a value too.
    one_off = "Had an emergency filling this morning. Dr Ferreira did it, she was great."
    assert _answer_order(before, one_off)[0] == before
    # ... but the value's own sentence bounded by a moment is no answer for good.
    kept = "I live in Leeds."
    lure = "I'm in Lisbon for a conference this week. The food is amazing."
    assert _answer_order(kept, lure)[0] == kept
    # Being used to something is no habit of the past.
    before = "My phone's a Samsung Galaxy S21."
    after = "Still figuring out this Nothing Phone, it's so different to what I'm used to."
    assert _answer_order(before, after)[0] == after


def test_who_the_words_name_outweighs_the_extractors_subject_only_for_a_third_person() -> None:
    sister = (
        "My sister lives in Toronto.",
        "My sister and her husband bought a house in Vancouver.",
    )
    filed = ("user's sister", "user")
    assert _answer_order(*sister, subjects=filed)[0] == sister[1]
    # The earlier is the speaker's: the extractor filing the later apart is trusted.
    mine = ("I'm learning German.", "My flatmate is learning Italian, keeps practising on me.")
    assert _answer_order(*mine, subjects=("user", "user's flatmate"))[0] == mine[0]


def test_a_later_answer_sharing_nothing_must_match_the_query_as_well() -> None:
    before, after = "I'm vegetarian.", "I've started eating fish again."
    assert _answer_order(before, after, after_score=0.7)[0] == after
    assert _answer_order(before, after, after_score=0.6)[0] == before


def test_a_later_answer_naming_the_person_by_the_name_they_were_given_is_about_them() -> None:
    sister = (
        "My sister Priya lives in Oslo.",
        "We flew out to see Priya at her new flat in Bergen.",
    )
    assert _answer_order(*sister, subjects=("user's sister", "user"))[0] == sister[1]
    # The name in the speaker's own news is no news of them.
    told = ("My sister Priya lives in Oslo.", "Told Priya I moved to Bergen.")
    assert _answer_order(*told, subjects=("user's sister", "user"))[0] == told[0]
    # A relation alone may be anyone's: "my sister" is not in "a friend's sister".
    friend = ("My sister lives in Oslo.", "We flew out to see a friend at her new flat in Bergen.")
    assert _answer_order(*friend, subjects=("user's sister", "user"))[0] == friend[0]


def test_a_discourse_marker_before_the_subject_keeps_whose_news_it_is() -> None:
    assert _pair_order("My sister lives in Oslo.", "So she moved to Bergen.")[0] == (
        "So she moved to Bergen."
    )
    # "Anyway Tom left Google" is Tom's news, not the speaker's.
    assert _pair_order("I work at Google.", "Anyway Tom left Google.")[0] == "I work at Google."


def test_news_of_the_kids_is_news_of_a_son_or_a_daughter() -> None:
    school = ("My son goes to Oakfield Primary.", "We've moved the kids to St Mary's.")
    assert _answer_order(*school, subjects=("user's son", "user"))[0] == school[1]


def _rival_order(
    before: str, after: str, *, after_score: float = 0.45, config: OrderingConfig | None = None
) -> list[str]:
    """Two of the best answers to a query (cosine 0.5 and `after_score`) whose embeddings
    are too far apart (cosine 0.22) to be read as a change, with an unrelated memory
    between them."""
    old = scored(f"User: {before}", 0.5, 1)
    between = scored("User: My shoe size is 42.", 0.48, 10)
    new = scored(f"User: {after}", after_score, 30)
    angle = float(np.arccos(0.22))
    vectors = np.stack([unit(1, 0, 0), unit(0, 0, 1), unit(np.cos(angle), np.sin(angle), 0)])
    ordered = current_first([old, between, new], vectors, config or OrderingConfig())
    return [m.record.text.removeprefix("User: ") for m in ordered]


def test_rival_answers_the_query_finds_alike_are_ordered_however_far_apart() -> None:
    home = "I live in Leicester, near the university, so parking is a nightmare."
    for update in (
        "Moved to Nottingham last month, still got boxes everywhere.",
        "The new place in Nottingham is lovely.",
        "Since the move I've joined the Nottingham Harriers.",
    ):
        assert _rival_order(home, update)[0] == update, update
    for remark in (
        # A remark, a one-off and a much weaker match are no rival answers.
        "Nottingham has the best curry houses.",
        "Went to Nottingham for a gig with Sam.",
        "I'm moving the sofa to the other wall.",
    ):
        assert _rival_order(home, remark)[0] == home, remark
    weak = "Moved to Nottingham last month, still got boxes everywhere."
    rules_only = OrderingConfig(rival_order=None)
    assert _rival_order(home, weak, after_score=0.3, config=rules_only)[0] == home
    # The learned weighing of rival answers still reads the move as the later answer.
    assert _rival_order(home, weak, after_score=0.3)[0] == weak
    # Naming the earlier value again goes on about it.
    assert _rival_order(home, "Moved my Leicester gym membership to Nottingham.")[0] == home


def test_only_saying_so_answers_what_the_speaker_is_called() -> None:
    """Two statements of the speaker's, nearly alike, the later naming another name: it
    answers "What is my name?" only when it says that is what the speaker is called."""
    angle = float(np.arccos(0.7))
    vectors = np.stack([unit(1, 0, 0), unit(np.cos(angle), np.sin(angle), 0)])

    def first_for(later: str) -> str:
        old = scored("User: I'm Ana.", 0.8, 1)
        new = scored(f"User: {later}", 0.75, 30)
        ordered = current_first([old, new], vectors, OrderingConfig(), query="What is my name?")
        assert ordered[0].latest is not False
        return ordered[0].record.text.removeprefix("User: ")

    assert first_for("I'm a Scorpio, for what it's worth.") == "I'm Ana."
    assert first_for("I'm Brazilian but I grew up in Portugal.") == "I'm Ana."
    married = "Just got married so I'm Ana Achterberg now."
    assert first_for(married) == married


def test_a_day_of_the_month_and_a_name_answer_no_one_value_question_as_rivals() -> None:
    # Two near sentences about the speaker, neither about the GP: a date ("the 9th") is no
    # value of the kind a star sign is, so neither is marked the latest answer.
    birthday = scored("User: My birthday is on the 9th of November.", 0.32, 1)
    sign = scored("User: I'm a Scorpio, for what it's worth.", 0.25, 5)
    vectors = np.stack([unit(1, 0.2), unit(1, 0.3)])
    ordered = current_first([birthday, sign], vectors, OrderingConfig(), query="Who's my GP?")
    assert all(m.latest is None for m in ordered)


def _rival_marks(before: str, after: str, query: str) -> list[tuple[str, bool | None]]:
    old = scored(f"User: {before}", 0.8, 1)
    new = scored(f"User: {after}", 0.5, 30)
    angle = float(np.arccos(0.5))
    vectors = np.stack([unit(1, 0), unit(np.cos(angle), np.sin(angle))])
    ordered = current_first([old, new], vectors, OrderingConfig(), query=query)
    return [(m.record.text.removeprefix("User: "), m.latest) for m in ordered]


def test_days_that_time_different_things_are_no_rival_answers() -> None:
    # Only days differ, and nothing else is shared: two things of the week, both hold.
    for before, after, query in (
        (
            "On Tuesdays I have band rehearsal.",
            "Fridays are my climbing session.",
            "What's my weekly schedule?",
        ),
        ("On Mondays I have yoga.", "Thursdays are my piano lesson.", "When are my classes?"),
    ):
        assert all(latest is None for _, latest in _rival_marks(before, after, query)), after
    # Another day or date for the same thing is its latest answer.
    for before, after, query in (
        (
            "The dentist appointment is on the 8th.",
            "The dentist moved my appointment to the 11th.",
            "When is my dentist appointment?",
        ),
        (
            "My swimming club meets on Monday evenings.",
            "The swimming club has moved to Wednesday evenings.",
            "When does my swimming club meet?",
        ),
    ):
        assert _rival_marks(before, after, query) == [(after, True), (before, False)], after


def test_an_earlier_answer_goes_last_when_the_latest_matches_the_query_as_well() -> None:
    before, after = (
        "My GP is Dr Patel at the Elm surgery.",
        "My GP is Dr Okafor at the Elm surgery.",
    )
    angle = float(np.arccos(0.5))

    def order(after_score: float, config: OrderingConfig) -> list[str]:
        old = scored(f"User: {before}", 0.8, 1)
        new = scored(f"User: {after}", after_score, 30)
        others = [
            scored("User: My shoe size is 42.", 0.6, 10),
            scored("User: I like jazz.", 0.4, 12),
        ]
        ranked = sorted([old, new, *others], key=lambda m: -m.breakdown.score)
        by_text = {
            old.record.text: unit(1, 0, 0, 0),
            new.record.text: unit(np.cos(angle), np.sin(angle), 0, 0),
            others[0].record.text: unit(0, 0, 1, 0),
            others[1].record.text: unit(0, 0, 0, 1),
        }
        vectors = np.stack([by_text[m.record.text] for m in ranked])
        ordered = current_first(ranked, vectors, config, query="Who is my GP?")
        assert [
            m.latest for m in ordered if m.record.text in (old.record.text, new.record.text)
        ] == [
            True,
            False,
        ]
        return [m.record.text.removeprefix("User: ") for m in ordered]

    shoe, jazz = "My shoe size is 42.", "I like jazz."
    # The latest matches better: the earlier answer goes after everything else.
    assert order(0.85, OrderingConfig()) == [after, shoe, jazz, before]
    # Without the rule (and the learned weighing of displaced answers, which may send it last
    # on its own), the earlier answer keeps its rank.
    no_rule = OrderingConfig(as_good_answer_last=False, displaced_order=None)
    assert order(0.85, no_rule) == [after, before, shoe, jazz]
    # The earlier matches better: it may be a look-alike, so the rules only swap ranks (the
    # learned weighing of displaced answers may still send it last).
    assert order(0.5, OrderingConfig(displaced_order=None)) == [after, shoe, before, jazz]


def test_a_later_answer_in_other_words_holds_instead_when_it_matches_the_query_better() -> None:
    before = "I see a therapist called Joanne every other week."
    after = "Started with a new counsellor, Meera, she's great."
    angle = float(np.arccos(0.45))
    vectors = np.stack([unit(1, 0), unit(np.cos(angle), np.sin(angle))])

    def marks(before_score: float, after_score: float) -> list[bool | None]:
        old = scored(f"User: {before}", before_score, 1)
        new = scored(f"User: {after}", after_score, 30)
        ordered = current_first(
            [new, old], vectors[::-1], OrderingConfig(), query="Who is my therapist?"
        )
        return [m.latest for m in ordered]

    # "counsellor" never says "therapist"; the embedding finds it answers the query better.
    assert marks(0.3, 0.45) == [True, False]
    # Barely better, or worse: the words decide, and they name no therapist.
    assert marks(0.3, 0.35) == [None, None]


def _always(verdict: bool) -> RivalModel:
    """A displacement model that finds every pair it reads displaced (or none)."""
    return RivalModel(
        features=DISPLACED_FEATURES,
        weights=(0.0,) * len(DISPLACED_FEATURES),
        intercept=20.0 if verdict else -20.0,
    )


def _displaced_order(later_text: str, query: str, *, verdict: bool = True) -> list[str]:
    """A later statement ranked first, the earlier answer second and an unrelated memory
    third, ordered with a displacement model that says `verdict` of every pair it reads
    (no rule sends anything last and the rival model is off, so only the displacement stage
    can)."""
    later = scored(later_text, 0.9, 40)
    earlier = scored("My personal trainer is Dave.", 0.8, 1)
    other = scored("My shoe size is 42.", 0.3, 2)
    vectors = np.stack([unit(1, 0.3, 0), unit(1, 0, 0), unit(0, 0, 1)])
    config = OrderingConfig(
        displaced_last=False,
        as_good_answer_last=False,
        new_answer_last=False,
        corrected_last=False,
        rival_order=None,
    )
    ordered = current_first(
        [later, earlier, other], vectors, config, query=query, displacement=_always(verdict)
    )
    return [m.record.text for m in ordered]


def test_an_answer_the_displacement_model_finds_displaced_goes_last_unmarked() -> None:
    later = "I train with Lucy now."
    query = "Who's my personal trainer?"
    assert _displaced_order(later, query) == [
        later,
        "My shoe size is 42.",
        "My personal trainer is Dave.",
    ]
    # Nothing moves when the model finds nothing displaced.
    assert _displaced_order(later, query, verdict=False) == [
        later,
        "My personal trainer is Dave.",
        "My shoe size is 42.",
    ]


@pytest.mark.parametrize(
    ("later", "query"),
    [
        # A question with room for more than one answer.
        ("I train with Lucy now.", "Who are my personal trainers?"),
        # A passing moment.
        ("Dave's away so I'm training with Lucy this week.", "Who's my personal trainer?"),
        # Someone else's news.
        ("My sister trains with Lucy now.", "Who's my personal trainer?"),
    ],
)
def test_the_displacement_model_never_reads_what_cannot_displace(later: str, query: str) -> None:
    # Not sent after the unrelated memory (someone else's news may even go after the
    # speaker's own answer: `own_answer_first`).
    assert "My personal trainer is Dave." in _displaced_order(later, query)[:2]


def _very_likely_order(
    query: str,
    *,
    likelihood: float,
    rival_last: float | None = 0.9,
    said: tuple[str, str] = ("My personal trainer is Dave.", "I train with Lucy now."),
) -> list[str]:
    """The earlier answer ranked first, a later rival second and an unrelated memory third,
    ordered by a rival model that finds every pair it reads `likelihood` likely (the rules
    are set to group nothing and the displacement model is off, so only the rival stage
    moves anything)."""
    earlier = scored(said[0], 0.9, 1)
    later = scored(said[1], 0.8, 40)
    other = scored("My shoe size is 42.", 0.3, 2)
    vectors = np.stack([unit(1, 0, 0), unit(1, 0.3, 0), unit(0, 0, 1)])
    config = OrderingConfig(
        same_question_cosine=0.99,
        answer_cosine=0.99,
        change_cosine=1.0,
        rival_relative=1.0,
        related_answer_cosine=1.0,
        new_value_relative=1.0,
        displaced_order=None,
        rival_last=rival_last,
    )
    z = float(np.log(likelihood / (1 - likelihood)))
    model = RivalModel(features=RIVAL_FEATURES, weights=(0.0,) * len(RIVAL_FEATURES), intercept=z)
    ordered = current_first([earlier, later, other], vectors, config, query=query, rivals=model)
    return [m.record.text for m in ordered]


def test_an_answer_a_later_one_very_likely_holds_instead_of_goes_last_unmarked() -> None:
    query = "Who's my personal trainer?"
    assert _very_likely_order(query, likelihood=0.95) == [
        "I train with Lucy now.",
        "My shoe size is 42.",
        "My personal trainer is Dave.",
    ]
    # Likely, not very likely: the later answer only moves up, the earlier stays in sight.
    assert _very_likely_order(query, likelihood=0.7) == [
        "I train with Lucy now.",
        "My personal trainer is Dave.",
        "My shoe size is 42.",
    ]
    # Off, or a question with room for more than one answer: it stays in sight.
    assert _very_likely_order(query, likelihood=0.95, rival_last=None)[1] == (
        "My personal trainer is Dave."
    )
    assert _very_likely_order("Who are my personal trainers?", likelihood=0.95)[1] == (
        "My personal trainer is Dave."
    )


@pytest.mark.parametrize(
    ("before", "after", "query"),
    [
        (
            "I'm a junior data analyst.",
            "Got promoted to senior analyst last week!!",
            "What's my job title?",
        ),
        (
            "My go-to drink is a Diet Coke.",
            "I've gone over to sparkling water with lime, finally kicked the habit.",
            "What's my go-to drink?",
        ),
        (
            "My sister works as an accountant.",
            "My sister quit accountancy and is retraining as a midwife.",
            "What does my sister do?",
        ),
        # Reported by whoever found it out, the speaker's own thing is the speaker's news.
        (
            "My glasses prescription is -2.50 in both eyes.",
            "optician says my eyes have got worse, it's -3.25 in both now",
            "What's my glasses prescription?",
        ),
    ],
)
def test_a_change_told_in_words_reaches_the_learned_weighing_whatever_case_its_value_is_in(
    before: str, after: str, query: str
) -> None:
    """Chat names a new value in lower case as often as not: worded as a change, or a move
    or a start and what it went to, the statement still names an answer, so the weighing may
    find it holds instead."""
    ordered = _very_likely_order(query, likelihood=0.95, said=(before, after))
    assert ordered == [after, "My shoe size is 42.", before]


def test_a_value_named_only_to_compare_with_is_no_new_answer() -> None:
    car = scored("I drive a Mini Cooper.", 0.8, 1)
    boast = scored(
        "my Mini is so much more fun than my brother-in-law's Audi A4, fight me", 0.75, 60
    )
    weather = scored("I love thunderstorms.", 0.2, 5)
    vectors = np.stack([unit(1, 0.3, 0), unit(1, 0.5, 0.1), unit(0, 0, 1)])
    ordered = current_first(
        [car, boast, weather],
        vectors,
        OrderingConfig(rival_order=None, displaced_order=None),
        query="What car do I drive?",
    )
    # The Audi is the brother-in-law's, named to compare: the Mini is no earlier answer.
    assert [m.record.text for m in ordered][:2] == [boast.record.text, car.record.text]
    assert all(m.latest is not False for m in ordered)


@pytest.mark.parametrize(
    ("text", "compared"),
    [
        ("my Mini is more fun than my brother-in-law's Audi A4, fight me", {"audi", "a4"}),
        ("Unlike Tesco, Aldi never runs out of oat milk", {"tesco"}),
        ("Leeds is cheap compared to London and the people are nicer", {"london"}),
        # Said as the speaker's own elsewhere, or set aside rather than compared.
        ("Tesco is pricier than Aldi, so I switched to Aldi", set()),
        ("I get the FT rather than the Guardian", set()),
        ("I moved to Leeds", set()),
        # An amount's bound is the speaker's own figure; since when is no comparison.
        ("I run more than 40 km a week now", set()),
        ("happier than I've been in years since joining KPMG in March", set()),
        # Compared with a time, a feeling or a doing: the speaker's own value may follow.
        ("New job! I'm busier than ever at KPMG.", set()),
        ("Nothing better than commuting on my new Brompton.", set()),
        # The comparison's noun phrase ends where a preposition begins.
        ("Moved out last month, life is slower than London in Norwich.", {"london"}),
        # The choice passed over, as the one that would not match.
        ("went with Admiral in the end, £488, Aviva wouldn't budge.", {"aviva"}),
        ("remortgaged with Halifax, Nationwide couldn't get near it", {"nationwide"}),
        ("Tom couldn't make it to the party", set()),
        ("Sarah won't move to Leeds", set()),
    ],
)
def test_compared_values_are_those_named_only_to_compare_with(
    text: str, compared: set[str]
) -> None:
    assert compared_values(text) == compared


@pytest.mark.parametrize(
    ("text", "named"),
    [
        # Chat writes a name after "called" in lower case as often as not.
        ("gemma left!! new manager is a guy called femi", {"femi"}),
        ("my cat is called mochi", {"mochi"}),
        # A call made names no one.
        ("we called it off", set()),
        ("I called in sick", set()),
        ("my landlord called yesterday about the damp", set()),
        ("my manager named jess as the new team lead", set()),
    ],
)
def test_a_name_after_called_is_a_value_in_any_case(text: str, named: set[str]) -> None:
    assert values_in(text) == named


@pytest.mark.parametrize(
    ("text", "named"),
    [
        # Chat writes whose someone is, then their name in lower case.
        ("my manager sarah is micromanaging everything", {"sarah"}),
        ("my fiance dami and i are still arguing about the guest list", {"dami"}),
        ("dr okafor at my practice is lovely", {"okafor"}),
        ("my gp dr okafor is great", {"okafor"}),
        ("my mate dave", {"dave"}),
        # Words that go on about them name no one.
        ("my manager just left", set()),
        ("my sister always says that", set()),
        ("my dentist said i need a filling", set()),
        ("my partner works at the council", set()),
    ],
)
def test_a_lower_case_name_after_whose_it_is_is_a_value(text: str, named: set[str]) -> None:
    assert values_in(text) == named


@pytest.mark.parametrize(
    ("text", "named"),
    [
        # A day that a schedule holds: again and again, or what something was moved to.
        ("Switched my spin class to Thursdays.", {"thursdays"}),
        ("yoga is every tuesday", {"tuesdays"}),
        ("They moved my day off to Friday.", {"fridays"}),
        # The day of a one-off names none.
        ("I washed my car on Sunday.", set()),
        ("they moved my appointment to Friday this week only", set()),
    ],
)
def test_a_scheduled_day_is_a_value(text: str, named: set[str]) -> None:
    assert values_in(text) == named


@pytest.mark.parametrize(
    ("text", "named"),
    [
        # What a change moves to, written in lower case, up to where its name ends.
        ("so i switched over to flogas for the electric", {"flogas"}),
        ("moved my salary over to capitec at the end of last month", {"capitec"}),
        ("ported my number to giffgaff yesterday", {"giffgaff"}),
        ("switched to oat milk", {"oat milk"}),
        # A trip or an act, a pronoun, a way of doing things in everyday words: no name.
        ("moved to part time so I can do my course", set()),
        ("switched over to monthly payments, easier on the budget", set()),
        ("moved to flexi time, finish at 3 on fridays", {"3", "fridays"}),
        ("switched to nights permanently", set()),
        ("went to the cinema with the kids", set()),
        ("put the kids to bed early", set()),
        ("moved it to the other shelf", set()),
        ("we moved to a bigger place", set()),
    ],
)
def test_what_a_change_moves_to_is_a_value_in_any_case(text: str, named: set[str]) -> None:
    assert values_in(text) == named


@pytest.mark.parametrize(
    ("text", "named"),
    [
        # A count in words is its figure: one kind of value with "5 days a week".
        ("gone down to four days a week", {"4"}),
        ("we have two rescue dogs", {"2"}),
        # Not a count of things: a stretch of time alone, "one day", an age, a share of a
        # group, how often something happened.
        ("they gave me a courtesy car, probably ten days", set()),
        ("worked seven days last week cos of the stocktake", set()),
        ("did nine miles on Saturday for the charity walk", set()),
        ("cut down to two cups a day", {"2"}),
        ("I've told him three times now", set()),
        ("one day I'll learn to sail", set()),
        ("the kids are two and four", set()),
        ("two of my friends came", set()),
    ],
)
def test_a_count_in_words_is_a_value(text: str, named: set[str]) -> None:
    assert values_in(text) == named


@pytest.mark.parametrize(
    ("newer", "older", "same"),
    [
        # One who serves the speaker by trade moves the speaker's thing, however named.
        ("landlord's put the rent up to £1,240 from this month", "rent's £1,150 a month", True),
        ("so the landlord put the rent up to $1975", "my rent is $1850 a month", True),
        # Someone else's landlord, or someone the speaker relates to, is other news.
        ("my sister's landlord put the rent up to £900", "rent's £1,150 a month", False),
        ("my brother put the rent up to £900 for his lodger", "rent's £1,150 a month", False),
    ],
)
def test_a_thing_moved_by_one_who_serves_the_speaker_is_the_speakers_news(
    newer: str, older: str, same: bool
) -> None:
    assert same_person(newer, older) is same


@pytest.mark.parametrize(
    ("newer", "same"),
    [
        # Whoever moves the speaker's own thing to a new value, it is the speaker's news.
        ("Amex wrote to say they've raised my limit to £6,500", True),
        ("the bank lowered my credit limit to £2,000 after I missed a payment", True),
        # Someone else's limit, or a thing the speaker had before, is not.
        ("my sister says Amex raised her limit to £6,500", False),
        ("Amex wrote to say they've raised my sister's limit to £6,500", False),
    ],
)
def test_a_thing_of_the_speakers_moved_by_whoever_is_the_speakers_news(
    newer: str, same: bool
) -> None:
    older = "My credit card limit is £3,000, and I'm usually sitting at about half of that."
    assert same_person(newer, older) is same
