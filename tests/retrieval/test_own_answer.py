"""The speaker's own answer before a later look-alike recall ranked above it: pure, on
hand-made scored memories and unit vectors."""

from __future__ import annotations

import numpy as np
import pytest

from adk_memory.retrieval.ordering import OrderingConfig, current_first
from tests.retrieval.test_ordering import scored, unit

FILLER = "My shoe size is 42."


def _order(fact: str, later: str, query: str, *, cosine: float = 0.5, on: bool = True) -> list[str]:
    """The fact said first, the later statement ranked above it for `query`, their
    embeddings `cosine` apart, and an unrelated memory below both."""
    own = scored(f"User: {fact}", 0.3, 1)
    look_alike = scored(f"User: {later}", 0.45, 60)
    other = scored(f"User: {FILLER}", 0.2, 10)
    angle = float(np.arccos(cosine))
    vectors = np.stack([unit(np.cos(angle), np.sin(angle), 0), unit(1, 0, 0), unit(0, 0, 1)])
    config = OrderingConfig(own_answer_first=on, rival_order=None, displaced_order=None)
    ordered = current_first([look_alike, own, other], vectors, config, query=query)
    return [m.record.text.removeprefix("User: ") for m in ordered]


@pytest.mark.parametrize(
    ("fact", "later", "query"),
    [
        # Someone in the speaker's life.
        (
            "help me prep for my 1:1 with my manager Rachel Obi tomorrow",
            "my wife's manager is now Priya something and apparently she's a nightmare lol.",
            "Who's my manager?",
        ),
        (
            "I'm an audit senior at KPMG and busy season is coming",
            "my sister just left her job to join Deloitte, she's so much happier",
            "Which firm do I work for?",
        ),
        # A child's own thing.
        (
            "My phone plan is with Jio, the 299 one",
            "got my son an Airtel SIM for his hostel, apparently the signal there is better",
            "Which mobile network am I on?",
        ),
        # A maybe said in so many words.
        (
            "what's a good winter jacket for winnipeg, I'm freezing at the bus stop",
            "so my company might transfer me to calgary next year, nothing's decided",
            "Which city do I live in?",
        ),
        (
            "My bank is Nedbank and the app is awful",
            "I'm thinking of moving to Discovery Bank because of the rewards",
            "Which bank am I with?",
        ),
    ],
)
def test_the_speakers_own_answer_goes_before_a_later_look_alike(
    fact: str, later: str, query: str
) -> None:
    assert _order(fact, later, query) == [fact, later, FILLER]
    # Recall's own order, with the pass off.
    assert _order(fact, later, query, on=False) == [later, fact, FILLER]


@pytest.mark.parametrize(
    ("fact", "later", "query"),
    [
        # The speaker's own change, told in any words, keeps its place.
        (
            "help me prep for my 1:1 with my manager Rachel Obi tomorrow",
            "Rachel left so my manager is now Priya, she seems nice",
            "Who's my manager?",
        ),
        # One who runs something of the speaker's changes it: "client", "council".
        (
            "launch is set for March 3rd and I'm already drowning",
            "client pushed launch back to April 20th, after all that panic",
            "When is the launch?",
        ),
        # A question about someone else asks for their answer.
        (
            "My wife works as a nurse at St James's",
            "my wife's retrained as a teacher and starts in September",
            "What does my wife do for work?",
        ),
        # What the household uses is told of the kids.
        (
            "Our childminder is Lucy, she's brilliant with the twins",
            "Lucy's retiring so the kids are with a new childminder called Fatima from Monday",
            "Who's our childminder?",
        ),
        # "might" of a judgement, or of an end to follow, is no maybe.
        (
            "My phone is a Pixel 6, the battery is tired",
            "got a Pixel 8a, might be the best phone I've had",
            "What phone do I have?",
        ),
        (
            "I work from home on Fridays",
            "new rota, I work from home one day a week now, Mondays",
            "Which day do I work from home?",
        ),
        # Someone else's maybe in a side remark after a comma, or what the change was for.
        (
            "I go to Anytime Fitness on the high street",
            "joined the Better gym at the leisure centre, my mate Joe might join too",
            "Which gym do I go to?",
        ),
        (
            "I'm on Vodafone for my phone",
            "moved to Three so I could get unlimited data",
            "Which mobile network am I on?",
        ),
        # "May" is a month, no maybe.
        (
            "We're going to Japan in April",
            "The Japan trip moved to May because of work",
            "When are we going to Japan?",
        ),
    ],
)
def test_a_later_answer_that_holds_for_the_speaker_keeps_its_place(
    fact: str, later: str, query: str
) -> None:
    assert _order(fact, later, query)[0] == later


def test_a_memory_about_something_else_is_never_moved_up() -> None:
    # Too far apart in meaning to be a look-alike of the fact.
    fact = "My bank is Nedbank and the app is awful"
    later = "I'm thinking of moving to Discovery Bank because of the rewards"
    assert _order(fact, later, "Which bank am I with?", cosine=0.1)[0] == later


def test_a_memory_that_barely_answers_the_query_is_no_rival_answer() -> None:
    fact = "I'm the oldest of four kids."
    later = "my wife's manager is now Priya something and apparently she's a nightmare lol."
    own = scored(f"User: {fact}", 0.1, 1)
    look_alike = scored(f"User: {later}", 0.45, 60)
    vectors = np.stack([unit(1, 0, 0), unit(0.6, 0.8, 0)])
    config = OrderingConfig(rival_order=None, displaced_order=None)
    ordered = current_first([look_alike, own], vectors, config, query="Who's my manager?")
    assert ordered[0].record.text == f"User: {later}"


def test_a_question_that_asks_for_no_one_value_is_left_alone() -> None:
    fact = "help me prep for my 1:1 with my manager Rachel Obi tomorrow"
    later = "my wife's manager is now Priya something and apparently she's a nightmare lol."
    assert _order(fact, later, "Tell me about work")[0] == later
