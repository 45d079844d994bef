from __future__ import annotations

import pytest

from adk_memory.extraction.chunking import chunk_text
from adk_memory.extraction.sentences import split_clauses, split_sentences


def test_lines_are_kept_whole_and_in_order() -> None:
    lines = [f"line {i}: " + "x" * (i % 70) for i in range(400)]
    chunks = chunk_text("\n".join(lines), limit=500)
    assert all(len(c) <= 500 for c in chunks)
    assert "\n".join(chunks).splitlines() == lines


def test_one_long_line_is_cut_between_sentences_then_words() -> None:
    text = " ".join(f"Sentence number {i} says something." for i in range(200))
    chunks = chunk_text(text, limit=300)
    assert all(len(c) <= 300 for c in chunks)
    assert " ".join(chunks).split() == text.split()
    token = "a" * 1_000
    assert "".join(chunk_text(token, limit=300)) == token


def test_limit_must_be_sensible() -> None:
    with pytest.raises(ValueError):
        chunk_text("text", limit=10)


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("I live in St. Louis. It is hot.", ["I live in St. Louis.", "It is hot."]),
        ("My savings are with U.S. Bank.", ["My savings are with U.S. Bank."]),
        ("I report to Dr. Lee. She is kind.", ["I report to Dr. Lee.", "She is kind."]),
        ("We hiked Mt. Hood! Then we ate.", ["We hiked Mt. Hood!", "Then we ate."]),
        ("Rent is 1,200. Email a.b@c.com now.", ["Rent is 1,200.", "Email a.b@c.com now."]),
        ("Gym at 6 p.m. today, e.g. legs. ok", ["Gym at 6 p.m. today, e.g. legs.", "ok"]),
    ],
)
def test_abbreviations_do_not_end_sentences(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences


def test_a_sentence_written_in_lower_case_still_ends() -> None:
    text = "rent went up to 1,350. anyway can you help me with a letter?"
    assert split_sentences(text) == [
        "rent went up to 1,350.",
        "anyway can you help me with a letter?",
    ]


def test_an_emoji_ends_a_sentence_and_stays_with_it() -> None:
    text = "Tomasz got a puppy and named it Pretzel 😂😂 we're doing a playdate on saturday"
    assert split_sentences(text) == [
        "Tomasz got a puppy and named it Pretzel 😂😂",
        "we're doing a playdate on saturday",
    ]
    assert split_sentences("so proud ❤️ she passed") == ["so proud ❤️", "she passed"]


def test_clauses_split_on_a_new_first_person_subject_only() -> None:
    assert split_clauses("I live in Berlin and I love hiking") == [
        "I live in Berlin",
        "I love hiking",
    ]
    assert split_clauses("Alex and I broke up in the spring") == [
        "Alex and I broke up in the spring"
    ]
    assert split_clauses("My rent is 1,200 a month") == ["My rent is 1,200 a month"]


@pytest.mark.parametrize(
    ("sentence", "clauses"),
    [
        (
            "I live in Berlin and work at Siemens as an engineer",
            ["I live in Berlin", "work at Siemens as an engineer"],
        ),
        (
            "I work at Google and live in Zurich with my partner",
            ["I work at Google", "live in Zurich with my partner"],
        ),
        (
            "I mostly drive a Golf, and also ride a Vespa at weekends",
            ["I mostly drive a Golf", "also ride a Vespa at weekends"],
        ),
        (
            "I live in Leeds and work at Arup and play five-a-side on Tuesdays",
            ["I live in Leeds", "work at Arup", "play five-a-side on Tuesdays"],
        ),
        # Only the speaker's stated state shares its subject with the verb after "and": not
        # a plan, someone else's, an opening that says too much else, or a household's.
        ("I want to live in Berlin and work at Siemens", None),
        ("I work at Tesco but want to quit and work at Aldi", None),
        ("I have decided to quit and work at Aldi", None),
        ("I have friends who live in London and work at PwC", None),
        ("I work with people who live in Leeds and work at PwC", None),
        ("I go to the gym and drive home after", None),
        ("we have two kids and live in Leeds", None),
        ("My sister lives in Leeds and works at the NHS", None),
        ("I work nights and sleep all day", None),
    ],
)
def test_a_clause_goes_on_without_its_subject(sentence: str, clauses: list[str] | None) -> None:
    assert split_clauses(sentence) == (clauses or [sentence])
