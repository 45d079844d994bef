"""The question's frame is no query word."""

from __future__ import annotations

from adk_memory.retrieval.recall import without_question_frame


def test_the_like_of_what_is_x_like_is_dropped_and_the_verb_kept() -> None:
    assert without_question_frame("What's my diet like?") == "What's my diet?"
    assert without_question_frame("What is the weather like in Leeds?") == (
        "What is the weather in Leeds?"
    )
    for query in ("What music do I like?", "What are some foods Tom would like?", "Who do I like?"):
        assert without_question_frame(query) == query
