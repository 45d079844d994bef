"""How many things a statement says of its own: what keeps a memory from being superseded
whole."""

from __future__ import annotations

import pytest

from adk_memory.extraction.statements import says_several


@pytest.mark.parametrize(
    "text",
    [
        "I live in Berlin and work at Siemens as an engineer.",
        "User: I live in Berlin with my wife and we both work at Siemens.",
        "Hi! I am Sam. I live in Berlin and I mostly write Java at work.",
        "I use IntelliJ and code in Kotlin at work",
        "I don't eat meat and I live in Leeds",
    ],
)
def test_a_statement_of_two_things_says_several(text: str) -> None:
    assert says_several(text)


@pytest.mark.parametrize(
    "text",
    [
        "I live in Berlin.",
        # A remark on the rest, more about the same thing, or what a change ended.
        "I work at Deloitte and I hate it",
        "I drive a VW Golf, it's ancient but reliable",
        "The Golf died so I'm driving a Polo now, I park it at Tesco",
        "These days I take my whiskey with a splash of water.",
        "I left Deloitte, I'm at KPMG now",
    ],
)
def test_one_thing_and_what_goes_with_it_is_one(text: str) -> None:
    assert not says_several(text)
