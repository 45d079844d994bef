"""What a recall query asks for: one current value, or possibly several."""

from __future__ import annotations

import pytest

from adk_memory.retrieval.question import OneValue, asks_an_amount, asks_for_one, asks_when


@pytest.mark.parametrize(
    ("query", "about"),
    [
        ("What car do I drive?", "car"),
        ("Which gym do I go to?", "gym"),
        ("Who is my manager?", "manager"),
        ("What's my glasses prescription?", "glasses prescription"),
        ("What dress size am I?", "dress size"),
        ("What headphones do I have?", "headphones"),
        ("so what phone have I got?", "phone"),
        ("Where do I live?", ""),
        ("When is my wedding?", "wedding"),
        # Asked by its wording, whatever it names: where, when, what time, how much, who.
        ("When is the product launch?", "product launch"),
        ("When does my contract end?", "contract end"),
        ("Where is my brother Tom based?", ""),
        ("Where are we going on holiday?", ""),
        ("What day are our bins collected?", ""),
        ("What hours do I work?", ""),
        ("How much does Bruno weigh?", ""),
        ("How much do I put into my pension?", ""),
        ("Who walks our dog?", ""),
        ("Who am I dating?", ""),
        ("What does my dad do?", ""),
        ("How do I get to work?", ""),
        ("What do we use to track tickets?", ""),
        # Of someone the speaker names, a habit's place, a length, what to call the speaker.
        ("Which club does Oscar play for?", "club"),
        # "The" opening a name is no one named: asked by its wording, about nothing.
        ("What time does The Gym open?", ""),
        ("Where do we do our weekly shop?", ""),
        ("Where do I get my hair cut?", ""),
        ("How long is my commute?", ""),
        ("What should you call me?", ""),
    ],
)
def test_a_question_for_one_value(query: str, about: str) -> None:
    assert asks_for_one(query) == OneValue(about)


@pytest.mark.parametrize(
    "query",
    [
        "What sports do I play?",
        "What are my hobbies?",
        "What food do I like?",
        "Where did I grow up?",
        "Where have I lived?",
        "When did I move?",
        "Who are my favourite authors?",
        "What do my parents do?",
        "What was my first car?",
        "Tell me about my week.",
        "recommend a podcast",
        "What sports does Oscar play?",
        "Where do I like to go on holiday?",
        "Where do I bank?",
        "How old am I?",
        "How long have I been vegan?",
    ],
)
def test_a_list_the_past_or_no_question_asks_for_no_one_value(query: str) -> None:
    assert asks_for_one(query) is None


@pytest.mark.parametrize(
    ("query", "amount", "when"),
    [
        ("How much is my gym membership?", True, False),
        ("so how many days a week do I work?", True, False),
        ("When does my book club meet?", False, True),
        ("What day are our bins collected?", False, True),
        ("Which gym do I go to?", False, False),
    ],
)
def test_asks_an_amount_or_when(query: str, amount: bool, when: bool) -> None:
    assert asks_an_amount(query) is amount
    assert asks_when(query) is when
