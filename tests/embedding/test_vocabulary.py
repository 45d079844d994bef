"""The bundled model's vocabulary as a test of everyday words."""

from __future__ import annotations

import pytest

from adk_memory.embedding.vocabulary import everyday_word


@pytest.mark.parametrize("word", ["part", "time", "Weekends", "payments", "milk"])
def test_everyday_words_are_pieces_of_their_own(word: str) -> None:
    assert everyday_word(word)


@pytest.mark.parametrize("word", ["flogas", "capitec", "giffgaff"])
def test_rare_names_are_not(word: str) -> None:
    assert not everyday_word(word)


def test_a_piece_that_only_continues_a_word_is_no_word() -> None:
    assert everyday_word("gas")
    assert not everyday_word("##gas")
