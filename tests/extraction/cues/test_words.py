"""Wording cues: the words of a statement (content words, items, negation, speaker label)."""

from __future__ import annotations

from adk_memory.extraction.cues import content_words, negates, split_items, strip_speaker


def test_a_possessive_is_no_plural() -> None:
    assert "brother" in content_words("My brother's back from Oz.")
    assert content_words("I shop at Sainsbury's.") == {"shop", "sainsbury"}
    assert content_words("two cats") == {"two", "cat"}


def test_a_word_whose_s_is_its_own_keeps_it() -> None:
    assert content_words("my thesis deadline") == {"thesis", "deadline"}
    assert content_words("tennis with Marcus for my arthritis") >= {"tennis", "marcus", "arthritis"}
    assert content_words("our energy is with Octopus") >= {"octopus"}
    # A plural of a word in "-i" is still a plural.
    assert content_words("no more taxis") >= {"taxi"}
    assert content_words("three dogs and a glass") >= {"dog", "glass"}


def test_items_negation_and_speaker_label() -> None:
    assert split_items("horror and sci-fi") == ["horror", "sci-fi"]
    assert split_items("My knee is bad, I'm on ibuprofen", commas=False) == [
        "My knee is bad, I'm on ibuprofen"
    ]
    assert negates("I don't eat meat") and negates("I no longer drive")
    assert not negates("I drive a Golf")
    assert strip_speaker('User (asked "How are you?"): Fine.') == "Fine."
    assert strip_speaker("User: I live in Berlin.") == "I live in Berlin."


def test_split_items_reads_a_long_run_of_white_space_in_one_pass() -> None:
    # Quadratic before: 40 s for this pasted-text shape, which a message may hold.
    assert split_items("a" + " " * 19_998 + "b") == ["a b"]
