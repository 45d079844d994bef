from __future__ import annotations

from datetime import timedelta

import pytest

from adk_memory.extraction.local import LocalExtractor, match_change, match_slot
from adk_memory.model import Fact, InputEvent, Kind
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
        ("I quit Google.", "works_at", "Google", False),
        ("quit mcdonald's", "works_at", "mcdonald's", False),
        ("I've left my job at the council.", "works_at", "council", False),
        ("I'm vegetarian now.", "diet", "vegetarian", True),
        ("My favorite color is green.", "favorite:color", "green", True),
        ("I use Neovim these days.", "uses:editor", "Neovim", True),
        ("I live in St. Louis.", "lives_in", "St. Louis", True),
        ("I report to Dr. Weiss.", "manager", "Dr. Weiss", True),
        ("My car is a 2015 Honda Civic.", "vehicle", "2015 Honda Civic", True),
        ("My rent is 1,200 a month.", "rent", "1,200 a month", True),
        ("My email is sam.reyes@hotmail.com.", "email", "sam.reyes@hotmail.com", True),
        ("I'm not into horror any more, too many jump scares.", "likes", "horror", False),
        ("Elena is my manager now.", "manager", "Elena", True),
        # A hedge after the value is no part of it.
        ("my rent is 1200 now apparently", "rent", "1200", True),
        ("i live in leeds now i suppose", "lives_in", "leeds", True),
    ],
)
def test_slot_sentences(sentence: str, predicate: str, obj: str, polarity: bool) -> None:
    slot = match_slot(sentence)
    assert slot is not None
    assert (slot.predicate, slot.object, slot.polarity) == (predicate, obj, polarity)


@pytest.mark.parametrize(
    "sentence", ["I quit smoking last year.", "I left the gym early.", "I left work early."]
)
def test_quitting_a_habit_or_leaving_a_place_leaves_no_employer(sentence: str) -> None:
    assert match_slot(sentence) is None


def test_transition_names_what_it_replaces() -> None:
    slot = match_slot("I switched from Java to Go")
    assert slot is not None and slot.replaces == "java"


@pytest.mark.parametrize(
    "sentence",
    [
        "Where do you live?",
        "The weather was lovely.",
        "Hi!",
        # A capitalised word after "I'm" is a name only in an introduction.
        "I'm Dutch, by the way, so forgive my English.",
        "I'm Brazilian",
        # Bounded to a passing moment.
        "I'm working at the library this afternoon because the office wifi is down.",
        "I'm at a conference in Vienna this week, the food is amazing.",
        "I'm in Galway for the weekend visiting friends.",
        # Hypotheticals, plans, questions.
        "If I moved to Paris, would I need to learn French first?",
        "I'm thinking about switching to Rust for the next project.",
        "Should I switch to a credit union?",
        # Past, additive and scoped statements fill no one-at-a-time slot.
        "I lived in Tokyo for a year after college.",
        "I also work at Bosch on weekends.",
        "For side projects I write Rust.",
        # A state told as over.
        "My first car was a Fiat Panda.",
        # What the speaker got someone else.
        "Bought my dad an iPhone 15 for his birthday.",
    ],
)
def test_weak_evidence_fills_no_slot(sentence: str) -> None:
    assert match_slot(sentence) is None
    assert match_change(sentence) is None


def test_statements_about_someone_else_have_their_own_subject() -> None:
    slot = match_slot("My sister moved to Bergen for her new job.")
    assert slot is not None and slot.subject == "sister" and slot.predicate == "lives_in"
    assert match_slot("My friend lives in Oslo and keeps telling me to visit.") is not None
    assert match_slot("My friend lives in Oslo.").subject == "friend"  # type: ignore[union-attr]
    # A parent named as one calls them, without "my".
    slot = match_slot("Mum moved to York.")
    assert slot is not None and slot.subject == "mum" and slot.predicate == "lives_in"


@pytest.mark.parametrize(
    ("sentence", "predicate", "replaces"),
    [
        ("Traded in the Golf for an e-bike.", "change", "golf"),
        ("Switched to decaf after the doctor's visit.", "drink", None),
        ("Caved and moved over to VS Code, the extensions won me over.", "uses:editor", None),
        ("Moved my current account over to Monzo, the app is so much better.", "bank", None),
        (
            "Dr. Okafor retired, so I'm seeing Dr. Lindqvist for my teeth now.",
            "change",
            "dr okafor",
        ),
        ("I closed the U.S. Bank account and opened one with Ally.", "change", "u s bank"),
        ("They moved our standup to 10:15 so the US folks can join.", "change", "standup"),
    ],
)
def test_changes_in_free_wording_name_what_they_displace(
    sentence: str, predicate: str, replaces: str | None
) -> None:
    slot = match_change(sentence)
    assert slot is not None
    assert (slot.predicate, slot.replaces) == (predicate, replaces)


def _event(text: str, *, id: str = "e1", author: str = "user") -> InputEvent:
    return InputEvent(id=id, author=author, text=text, timestamp=T0, session_id="s")


async def _facts(*events: InputEvent) -> list[Fact]:
    return (await LocalExtractor().extract(list(events))).facts


async def test_every_human_sentence_is_kept_and_agent_turns_are_context() -> None:
    facts = await _facts(
        _event("I live in Berlin. I went hiking yesterday."),
        _event("Lovely! Where did you go?", id="e2", author="memory_agent"),
        _event("The Harz mountains.", id="e3"),
    )
    texts = [f.text for f in facts]
    assert texts[0] == "User: I live in Berlin."
    assert (facts[0].predicate, facts[0].object) == ("lives_in", "Berlin")
    assert facts[0].kind is Kind.PROFILE and facts[0].source.event_ids == ["e1"]
    assert texts[1] == "User: I went hiking yesterday."
    assert facts[1].valid_at == T0 - timedelta(days=1)
    assert "Where did you go?" in texts[2] and "Harz" in texts[2]
    assert facts[2].source.event_ids == ["e2", "e3"]
    assert not any("Lovely" in t and "asked" not in t for t in texts)


async def test_slot_facts_keep_the_persons_own_words() -> None:
    [fact] = await _facts(_event("I live in Berlin, in a flat near Görlitzer Park."))
    assert fact.text == "User: I live in Berlin, in a flat near Görlitzer Park."
    assert (fact.predicate, fact.object) == ("lives_in", "Berlin")
    [named] = await _facts(_event("I'm allergic to cats.", author="Caroline"))
    assert named.subject == "caroline" and named.text == "Caroline: I'm allergic to cats."


async def test_abbreviations_split_neither_sentences_nor_values() -> None:
    facts = await _facts(_event("My savings are with U.S. Bank. We hiked Mt. Hood last May."))
    assert [f.text for f in facts] == [
        "User: My savings are with U.S. Bank. We hiked Mt. Hood last May."
    ]
    [st_louis] = await _facts(_event("I live in St. Louis."))
    assert st_louis.object == "St. Louis" and st_louis.text == "User: I live in St. Louis."


async def test_introduction_names_the_speaker_but_nationality_does_not() -> None:
    [intro] = await _facts(_event("Hi, I'm Sam."))
    assert (intro.predicate, intro.object) == ("name", "Sam")
    asked = await _facts(
        _event("What should I call you?", id="a1", author="model"), _event("I'm Ana.", id="e2")
    )
    assert [(f.predicate, f.object) for f in asked] == [("name", "Ana")]
    [dutch] = await _facts(_event("I'm Dutch, by the way, so forgive my English."))
    assert dutch.kind is Kind.EPISODIC and dutch.predicate != "name"
    # Inside a greeting too: a nationality, a people or a faith is what someone is.
    for greeting in ("Hi! I'm Dutch.", "Hello, I'm Brazilian.", "Hey, I'm Catholic."):
        facts = await _facts(_event(greeting))
        assert all(f.predicate != "name" for f in facts), greeting
    # Names that are also words elsewhere stay names.
    for name in ("Leo", "Sri", "Jordan"):
        [named] = await _facts(_event(f"Hi, I'm {name}."))
        assert (named.predicate, named.object) == ("name", name)
    # The other ways people introduce themselves.
    for intro_text, name in (
        ("I'm Priyanka by the way, most people just say Priya.", "Priyanka"),
        ("Name's Kofi, nice to meet you.", "Kofi"),
    ):
        named_facts = await _facts(_event(intro_text))
        assert ("name", name) in [(f.predicate, f.object) for f in named_facts], intro_text
    # Whom or what the speaker presents is not the speaker.
    for not_a_name in (
        "Meet my new puppy. This is Biscuit. Biscuit says hi!",
        "Hey! Greetings from Leeds. Leeds here, it's raining.",
    ):
        facts = await _facts(_event(not_a_name))
        assert all(f.predicate != "name" for f in facts), not_a_name


async def test_compound_objects_keep_their_items() -> None:
    [fact] = await _facts(_event("I love horror and sci-fi."))
    assert (fact.predicate, fact.object) == ("likes", "horror and sci-fi")


async def test_a_third_persons_fact_is_about_them() -> None:
    [fact] = await _facts(_event("My sister moved to Bergen for her new job."))
    assert fact.subject == "user's sister" and fact.predicate == "lives_in"
    assert fact.text == "User: My sister moved to Bergen for her new job."


async def test_questions_greetings_and_requests_to_the_agent_are_not_stored() -> None:
    events = [
        _event("Hey!", id="u1"),
        _event("Hi! What can I do for you today?", id="a1", author="model"),
        _event("Where do I live?", id="u2"),
        _event("Can you give me a quick recipe for banana bread?", id="u3"),
        _event("Thanks, that's really helpful.", id="u4"),
        _event("haha fair enough", id="u5"),
        _event("Give me a fun fact.", id="u6"),
    ]
    assert await _facts(*events) == []


async def test_a_request_to_keep_a_fact_keeps_it() -> None:
    events = [
        _event("Hi! What can I do for you today?", id="a1", author="model"),
        _event("actually could you call me Natalia from now on?", id="u1"),
        _event("Sure, Natalia!", id="a2", author="model"),
        _event("Can you remember that I'm vegan now?", id="u2"),
    ]
    facts = await _facts(*events)
    assert [(f.predicate, f.object) for f in facts] == [("name", "Natalia"), ("diet", "vegan")]


async def test_the_reason_a_question_gives_is_kept() -> None:
    events = [
        _event("Hi! What can I do for you today?", id="a1", author="model"),
        _event("What should I cook tonight now that I'm vegan?", id="u1"),
    ]
    [fact] = await _facts(*events)
    assert (fact.predicate, fact.object) == ("diet", "vegan")


async def test_apostrophes_read_alike_however_typed() -> None:
    # Phones type "’", and chat drops the apostrophe: the same small talk is dropped, the
    # same slot filled.
    events = [
        _event("Thanks, that\u2019s really helpful.", id="u1"),
        _event("What\u2019s the capital of Australia?", id="u2"),
        _event("thanks, thats really helpful", id="u3"),
        _event("whats the capital of australia?", id="u4"),
    ]
    assert await _facts(*events) == []
    [fact] = await _facts(_event("I\u2019ve moved to York."))
    assert (fact.predicate, fact.object) == ("lives_in", "York")
    assert fact.text == "User: I've moved to York."
    [fact] = await _facts(_event("Im living in Leeds now"))
    assert (fact.predicate, fact.object) == ("lives_in", "Leeds")
    assert fact.text == "User: I'm living in Leeds now"
    # A word of its own is left as typed: "were" is no "we're", and a name is a name.
    [fact] = await _facts(_event("We were in Leeds for the weekend."))
    assert fact.text == "User: We were in Leeds for the weekend."
    [fact] = await _facts(_event("My manager is Im Ji-woo now."))
    assert (fact.predicate, fact.object) == ("manager", "Im Ji-woo")


async def test_a_question_that_carries_a_fact_keeps_the_fact() -> None:
    facts = await _facts(
        _event("Did you know I adopted a cat?"),
        _event("Nice!", id="a1", author="model"),
        _event("Have you ever been to Oslo? My sister lives there.", id="u2"),
    )
    texts = [f.text for f in facts]
    assert texts == ["User: I adopted a cat", "User: My sister lives there."]


async def test_between_people_a_question_about_the_other_is_kept() -> None:
    events = [
        InputEvent(
            id="d1",
            author="Mel",
            text="How was the pottery class you took?",
            timestamp=T0,
            role="user",
        ),
        InputEvent(id="d2", author="Caroline", text="Hey Mel!", timestamp=T0, role="user"),
    ]
    facts = await _facts(*events)
    assert [f.text for f in facts] == ["Mel: How was the pottery class you took?"]


async def test_a_long_pasted_log_becomes_bounded_excerpts_citing_the_event() -> None:
    lines = [
        f"2026-01-01T00:00:{i % 60:02d} worker-{i} INFO request handled in {i} ms"
        for i in range(900)
    ]
    lines[612] = "2026-01-01T00:10:12 worker-612 ERROR disk quota exceeded on /var/data"
    log = "\n".join(lines)
    assert len(log) > 50_000
    facts = await _facts(_event(log, id="log"))
    assert len(facts) > 1
    assert all(len(f.text) <= 1_600 for f in facts)
    assert all(f.source.event_ids == ["log"] and f.predicate == "excerpt" for f in facts)
    assert sum("disk quota exceeded" in f.text for f in facts) == 1
    kept = "\n".join(f.text.split(": ", 1)[1] for f in facts)
    assert kept.splitlines() == lines


async def test_a_change_and_its_new_value_are_one_memory_in_the_persons_words() -> None:
    [fact] = await _facts(
        _event("The Civic got totalled in that hailstorm, so I'm driving a Mazda 3 now.")
    )
    assert (fact.predicate, fact.object, fact.replaces) == ("vehicle", "Mazda 3", "civic")
    assert (
        fact.text == "User: The Civic got totalled in that hailstorm, so I'm driving a Mazda 3 now."
    )
    [absorbed] = await _facts(
        _event("We lost Biscuit in May. We adopted a greyhound named Pepper.")
    )
    assert absorbed.replaces == "biscuit"
    assert absorbed.text == "User: We lost Biscuit in May. We adopted a greyhound named Pepper."


@pytest.mark.parametrize(
    ("said", "days_before"),
    [
        ("I moved to Munich a few weeks ago.", 21),
        ("I relocated to Munich a couple of months ago.", 60),
        ("I moved to Munich ten days ago.", 10),
    ],
)
def test_a_move_dated_in_words_is_dated_and_its_value_kept_clean(
    said: str, days_before: int
) -> None:
    event = InputEvent(author="user", text=said, timestamp=T0, session_id="s1")
    [fact] = [f for f in LocalExtractor().extract_sync([event]) if f.predicate == "lives_in"]
    assert fact.object == "Munich"
    assert fact.valid_at == T0 - timedelta(days=days_before)


@pytest.mark.parametrize(
    ("sentence", "obj"),
    [
        ("Moved to Nottingham last month, still got boxes everywhere.", "Nottingham"),
        ("I moved to Nottingham last month \u2014 still got boxes everywhere.", "Nottingham"),
        ("I moved to Nottingham - still got boxes everywhere.", "Nottingham"),
        ("Update - moved to Leeds", "Leeds"),
    ],
)
async def test_a_dropped_subject_or_a_dash_still_gives_the_slot(sentence: str, obj: str) -> None:
    [fact] = await _facts(_event(sentence))
    assert (fact.subject, fact.predicate, fact.object) == ("user", "lives_in", obj)


@pytest.mark.parametrize(
    "text",
    [
        "Ravi? Left Google.",
        "Big Dave - left Google last week",
        "My brother is in a mess. Moved back in with mum.",
    ],
)
async def test_a_clause_without_subject_after_someone_else_fills_no_slot_of_the_speakers(
    text: str,
) -> None:
    facts = await _facts(_event(text))
    assert [(f.kind, f.predicate) for f in facts] == [(Kind.EPISODIC, "said")]
    assert facts[0].text == f"User: {text}"


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "whats the service interval on a vw golf? mines a 2017",
            "what's the service interval on a vw golf? mines a 2017",
        ),
        (
            "can u quiz me on spanish verbs? learning it on duolingo, 40 day streak lol",
            "can u quiz me on spanish verbs? learning it on duolingo, 40 day streak lol",
        ),
        # "one" names another of a kind: the question's thing is not the speaker's.
        ("is the iphone 15 worth it? I have an old one", "I have an old one"),
        ("Where do I live? I live in Leeds.", "I live in Leeds."),
        # Someone else's doing points back at nothing of the speaker's; a statement that
        # names its own thing, or a question that weighs or asks about now elsewhere, is
        # kept apart.
        ("is italian hard to learn? my partner's doing it", "my partner's doing it"),
        (
            "how often should a ute be serviced? just bought a Hilux, mine's a 2019",
            "just bought a Hilux, mine's a 2019",
        ),
        (
            "how's the rent in Bristol these days? mine's gone up again",
            "mine's gone up again",
        ),
    ],
)
async def test_a_question_stays_only_with_a_statement_that_points_back_into_it(
    text: str, kept: str
) -> None:
    facts = await _facts(_event(text))
    assert [f.text for f in facts] == [f"User: {kept}"]


async def test_a_lower_case_message_keeps_its_statement_before_the_question() -> None:
    facts = await _facts(
        _event("Hi! What can I do for you?", id="a1", author="model"),
        _event("ugh the landlord put the rent up to 1,350. anyway can you help me tidy a letter?"),
    )
    assert [f.text for f in facts] == ["User: ugh the landlord put the rent up to 1,350."]
