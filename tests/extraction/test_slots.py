"""The slot vocabulary: which known values a text names, and which category a question
asks for."""

from __future__ import annotations

import pytest

from adk_memory.extraction.slots import asked_category, categories_in, category_match


@pytest.mark.parametrize(
    ("query", "category"),
    [
        ("What programming language do I use at work?", "programming_language"),
        ("Which coding language is my team on?", "programming_language"),
        ("What's my main language these days?", "programming_language"),
        ("What editor do I use?", "editor"),
        ("Which IDE am I on?", "editor"),
        ("What browser do I use?", "browser"),
        ("What operating system is on my laptop?", "os"),
        ("Which cloud provider do we deploy to?", "cloud"),
        ("What music streaming service do I pay for?", "music_service"),
        # By a word or a value of it.
        ("What phone do I have?", "phone"),
        ("What car do I drive?", "vehicle"),
        ("Do I still pay for Spotify?", "music_service"),
        # A bare "language" may be a spoken one.
        ("What language do I speak at home?", None),
        ("Where do I live?", None),
        ("Who is my manager?", None),
    ],
)
def test_the_category_a_question_asks_for(query: str, category: str | None) -> None:
    assert asked_category(query) == category


@pytest.mark.parametrize(
    ("text", "categories"),
    [
        ("Big news: we migrated everything from Java to Go.", {"programming_language"}),
        ("Traded in the Golf for an e-bike, best decision this year.", {"vehicle"}),
        ("We moved from AWS to Azure at work.", {"cloud"}),
        ("I write Python in VS Code on my MacBook.", {"programming_language", "editor", "laptop"}),
        # Everyday words name no value unless written as a name.
        ("I go to the gym before work now.", set()),
        ("The company moved our team to a new office by the Isar.", set()),
    ],
)
def test_the_known_values_a_text_names(text: str, categories: set[str]) -> None:
    assert categories_in(text) == categories == categories_in(text, specific=True)


def test_generic_words_name_a_kind_of_thing_but_no_value() -> None:
    assert categories_in("My laptop's a Dell XPS 13, my phone is in the car.") == {
        "laptop",
        "phone",
        "vehicle",
    }
    assert categories_in("My laptop's a Dell XPS 13, my phone is in the car.", specific=True) == (
        frozenset()
    )


def test_the_first_known_value_is_the_longest_phrase_first() -> None:
    assert category_match("four espressos a day") == ("espressos", "drink")
    assert category_match("I switched to Visual Studio Code") == ("visual studio code", "editor")
    assert category_match("Taylor Swift is on repeat") is None
