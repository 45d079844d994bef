"""Wording cues: whether a value is one item of a list beside others."""

from __future__ import annotations

import pytest

from adk_memory.extraction.cues import another_of_its_kind, one_of_several


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("Milo", "I have two cats, Milo and Luna."),
        ("golf", "I play tennis and golf."),
        ("Netflix", "I subscribe to Netflix and Disney+."),
        ("Disney+", "I subscribe to Netflix and Disney+."),
        ("chess", "My hobbies are climbing, chess and baking."),
        ("climbing", "My hobbies are climbing, chess and baking."),
        ("pub job", "I work part-time at Tesco and at a pub."),
        ("Korean lessons", "I'm learning Japanese and Korean."),
        ("drums", "I play piano, guitar, and drums."),
        ("motorbike", "I have a car, a van, a motorbike."),
        ("German", "I speak English, French, German."),
        ("tennis", "I play tennis and squash at the club every week."),
        ("cats", "I have a dog and two cats."),
        ("Netflix", "Netflix and Hulu are my streaming services."),
    ],
)
def test_one_of_several_items(value: str, text: str) -> None:
    assert one_of_several(value, text)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        # A clause or an aside after the value is no second item.
        ("Golf", "I drive a VW Golf, it's ancient but reliable."),
        ("VW Golf", "I drive a VW Golf and love it."),
        ("Berlin", "I live in Berlin, in a flat near Görlitzer Park."),
        ("Java", "I mainly program in Java, mostly Spring."),
        ("Vespa", "I ride a Vespa to work."),
        ("cats", "I'm allergic to cats."),
        ("PureGym", "I'm a member at PureGym, the one near Aldgate, and pay about £30 a month."),
    ],
)
def test_the_only_value_is_not_one_of_several(value: str, text: str) -> None:
    assert not one_of_several(value, text)


@pytest.mark.parametrize(
    ("text", "which"),
    [
        ("Work gave me a Samsung Galaxy A54 as a separate work phone.", "work"),
        ("My spare phone is an old Nokia.", "spare"),
        ("Work laptop is a Dell XPS now.", "work"),
        ("We finally bought a holiday home in Cornwall.", "holiday"),
        ("I picked up a second job at the pub.", "second"),
        # The thing as people use it, and who gave it, are no second one.
        ("I work at Google.", None),
        ("Work issued me a MacBook Pro.", None),
        ("My work place is in Leeds.", None),
        ("My phone is a Pixel 8.", None),
        # A used one is no second one.
        ("The Fiesta died, picked up a second hand Skoda Fabia.", None),
    ],
)
def test_another_of_its_kind_names_its_qualifier(text: str, which: str | None) -> None:
    assert another_of_its_kind(text) == which
