from __future__ import annotations

from datetime import timedelta

import pytest

from adk_memory.extraction.local import LocalExtractor, match_slot
from adk_memory.model import InputEvent, Kind
from tests.helpers import T0


@pytest.mark.parametrize(
    ("sentence", "predicate", "obj", "polarity"),
    [
        ("I live in Berlin.", "lives_in", "Berlin", True),
        ("I moved to Munich last month.", "lives_in", "Munich", True),
        ("We migrated everything from Java to Go.", "primary_language", "Go", True),
        ("I mostly write Java at work.", "primary_language", "Java", True),
        ("I like my whiskey neat.", "prefers:whiskey", "neat", True),
        (
            "Actually, I now take my whiskey with a splash of water.",
            "prefers:whiskey",
            "with a splash of water",
            True,
        ),
        ("I'm allergic to peanuts.", "allergic_to", "peanuts", True),
        ("I don't like coffee anymore.", "likes", "coffee", False),
        ("I quit my job at Google for Stripe.", "works_at", "Stripe", True),
        ("I'm vegetarian now.", "diet", "vegetarian", True),
        ("My favorite color is green.", "favorite:color", "green", True),
        ("I use Neovim these days.", "uses:editor", "Neovim", True),
    ],
)
def test_slot_sentences(sentence: str, predicate: str, obj: str, polarity: bool) -> None:
    slot = match_slot(sentence)
    assert slot is not None
    assert (slot.predicate, slot.object, slot.polarity) == (predicate, obj, polarity)


def test_transition_names_what_it_replaces() -> None:
    slot = match_slot("I switched from Java to Go")
    assert slot is not None and slot.replaces == "java"


@pytest.mark.parametrize("sentence", ["Where do you live?", "The weather was lovely.", "Hi!"])
def test_non_slot_sentences(sentence: str) -> None:
    assert match_slot(sentence) is None


async def test_every_human_sentence_is_kept_and_agent_turns_are_context() -> None:
    events = [
        InputEvent(
            id="e1",
            author="user",
            text="I live in Berlin. I went hiking yesterday.",
            timestamp=T0,
            session_id="s",
        ),
        InputEvent(
            id="e2",
            author="memory_agent",
            text="Lovely! Where did you go?",
            timestamp=T0,
            session_id="s",
        ),
        InputEvent(
            id="e3", author="user", text="The Harz mountains.", timestamp=T0, session_id="s"
        ),
    ]
    facts = (await LocalExtractor().extract(events)).facts
    texts = [f.text for f in facts]
    assert texts[0] == "User lives in Berlin."
    assert facts[0].kind is Kind.PROFILE and facts[0].source.event_ids == ["e1"]
    assert texts[1] == "User: I went hiking yesterday."
    assert facts[1].valid_at == T0 - timedelta(days=1)
    assert "Where did you go?" in texts[2] and "Harz" in texts[2]
    assert facts[2].source.event_ids == ["e2", "e3"]
    assert not any("Lovely" in t and "asked" not in t for t in texts)


async def test_named_speakers_are_subjects() -> None:
    events = [InputEvent(id="d1", author="Caroline", text="I'm allergic to cats.", timestamp=T0)]
    [fact] = (await LocalExtractor().extract(events)).facts
    assert fact.subject == "caroline" and fact.text == "Caroline is allergic to cats."
    assert fact.valid_at == T0
