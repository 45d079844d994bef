"""The offline classifier, precision first: REPLACE only on explicit evidence."""

from __future__ import annotations

from datetime import timedelta

import pytest

from adk_memory.engine import MemoryEngine
from adk_memory.extraction.local import LocalExtractor
from adk_memory.model import Decision, Fact, InputEvent, MemoryRecord, Scope, Status
from adk_memory.reconcile.base import Candidate, ReconcileItem
from adk_memory.reconcile.local import LocalClassifier
from tests.helpers import T0, FixedClock

SCOPE = Scope(app_name="app", user_id="alice")


def _facts(text: str, days: float = 0) -> list[Fact]:
    event = InputEvent(author="user", text=text, timestamp=T0 + timedelta(days=days))
    return LocalExtractor().extract_sync([event])


async def _decide(before: str, after: str) -> Decision | None:
    """The verdict for what `after` says, shown every memory `before` produced (None when
    `after` states nothing to store)."""
    records = [
        MemoryRecord.from_fact(f, scope=SCOPE, created_at=T0, embedding=None)
        for f in _facts(before)
    ]
    items = [
        ReconcileItem(fact=f, candidates=[Candidate(record=r, similarity=0.5) for r in records])
        for f in _facts(after, days=30)
    ]
    verdicts = (await LocalClassifier().classify(items)).verdicts
    if not verdicts:
        return None
    decisions = {v.decision for v in verdicts}
    return Decision.REPLACE if Decision.REPLACE in decisions else verdicts[0].decision


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("I drive a VW Golf, it's ancient but reliable.", "Traded in the Golf for an e-bike."),
        ("I drink about four espressos a day.", "Switched to decaf after the doctor's visit."),
        ("I use Vim for all my editing.", "Caved and moved over to VS Code last month."),
        ("I bank with Barclays.", "Moved my current account over to Monzo, the app is better."),
        ("My sister lives in Oslo.", "My sister moved to Bergen for her new job."),
        ("My best friend Ravi works at Google.", "Ravi left Google to start his own company."),
        ("My best friend Ravi works at Google.", "Ravi told me he left Google."),
        # A report about no one else is the speaker's news.
        (
            "My gym is PureGym.",
            "The manager said PureGym closed, so my gym is The Gym Group now.",
        ),
        ("My hamster is called Nibbles.", "Nibbles passed away, so no pets at the moment."),
        ("My dentist is Dr. Okafor on Main Street.", "Dr. Okafor retired, so I see Dr. Lee now."),
        ("My standup is at 9:30 every morning.", "They moved our standup to 10:15."),
        ("Living in Austin means tacos every weekend.", "These days I'm based in Denver."),
        ("My manager is Marcus.", "Reorg happened. Elena is my manager now."),
        ("I'm on an iPhone 12.", "Finally upgraded, I'm using a Pixel 8 now."),
        (
            "Every Sunday I play chess at the club.",
            "I quit the chess club, Sundays are for climbing.",
        ),
        ("I love horror films.", "I don't love horror films any more."),
        # The slot's noun names the one the speaker had, beside what took its place.
        ("I drive a Ford Fiesta.", "Ended up selling my old car and getting a Kia Niro."),
        # Said without "I", as chat drops it.
        ("I live in Leicester.", "Moved to Nottingham last month, boxes everywhere."),
    ],
)
async def test_updates_in_free_wording_replace(before: str, after: str) -> None:
    assert await _decide(before, after) is Decision.REPLACE


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("Hi, I'm Sam.", "I'm Dutch, by the way, so forgive my English."),
        ("I live in Berlin.", "I'm at a conference in Vienna this week, the food is amazing."),
        ("I work at the city council.", "I'm working at the library this afternoon."),
        ("I love horror and sci-fi.", "I'm not into horror any more, too many jump scares."),
        ("I'm allergic to peanuts and shellfish.", "I'm not allergic to shellfish after all."),
        ("I live in Lisbon.", "If I moved to Paris, would I need to learn French first?"),
        ("I live in Milan.", "Do you think I should move to Rome?"),
        ("I live in Stockholm.", "My friend lives in Oslo and keeps telling me to visit."),
        ("I live in Denver.", "My parents moved to Phoenix."),
        ("I write C++ at work.", "I'm thinking about switching to Rust for the next project."),
        ("I drive a Tesla Model 3.", "I rented a Fiat 500 for the trip to Sicily."),
        ("I live in Seattle.", "I lived in Tokyo for a year after college."),
        ("I work at Airbus.", "I'm at the Boeing plant in Seattle for an audit this week."),
        ("I use Python at work.", "For side projects I write Rust."),
        ("My car is a Toyota Prius.", "I also drive an old Land Rover on the farm."),
        ("I took my Golf to the garage last week.", "Traded in the Golf for an e-bike."),
        ("I work at Siemens.", "My husband works at Bosch."),
        ("I have a dog called Rex.", "I lost my keys yesterday, what a day."),
        ("My manager is Grace.", "Grace's manager retired last month."),
        ("I live in Boston.", "Imagine living in Hawaii, no snow ever."),
        ("I'm vegetarian.", "I don't eat mushrooms either, can't stand them."),
        # "My old phone" with nothing in its place may be one before the current one.
        ("My phone is an iPhone 15.", "Sold my old phone to a mate."),
        # Someone named alone, then what they did.
        ("I work at Google.", "Ravi? Left Google."),
        ("I work at Google.", "Big Dave - left Google last week."),
        ("I'm vegetarian.", "my husband's doing keto now, the house smells of bacon."),
    ],
)
async def test_look_alikes_never_replace(before: str, after: str) -> None:
    assert await _decide(before, after) is not Decision.REPLACE


async def test_a_restated_slot_is_noop() -> None:
    assert await _decide("I live in Berlin.", "I'm living in Berlin.") is Decision.NOOP


async def _say(engine: MemoryEngine, clock: FixedClock, text: str, days: float = 1) -> None:
    clock.advance(days)
    await engine.ingest(
        SCOPE, [InputEvent(author="user", text=text, timestamp=clock.now, session_id="s")]
    )


async def _active(engine: MemoryEngine) -> list[str]:
    return [r.text for r in (await engine.list(SCOPE, statuses=[Status.ACTIVE])).records]


async def test_a_nationality_does_not_supersede_a_name(
    engine: MemoryEngine, clock: FixedClock
) -> None:
    await _say(engine, clock, "Hi, I'm Sam.")
    await _say(engine, clock, "I'm Dutch, by the way, so forgive my English.", days=7)
    active = await _active(engine)
    assert "User: I'm Sam." in active
    ranked = await engine.recall(SCOPE, "What is my name?", top_k=5)
    assert any("Sam" in m.record.text for m in ranked)


async def test_negating_one_item_keeps_the_other(engine: MemoryEngine, clock: FixedClock) -> None:
    await _say(engine, clock, "I love horror and sci-fi.")
    await _say(engine, clock, "I'm not into horror any more, too many jump scares.", days=20)
    active = await _active(engine)
    assert "User: I love horror and sci-fi." in active
    ranked = await engine.recall(SCOPE, "What genres do I like?", top_k=5)
    assert any("sci-fi" in m.record.text for m in ranked)


async def test_a_question_is_not_returned_as_a_fact(
    engine: MemoryEngine, clock: FixedClock
) -> None:
    await _say(engine, clock, "I live in Berlin.")
    clock.advance(3)
    await engine.ingest(
        SCOPE,
        [
            InputEvent(author="user", text="Where do I live?", timestamp=clock.now),
            InputEvent(author="model", text="In Berlin, you said.", timestamp=clock.now),
            InputEvent(author="user", text="Thanks!", timestamp=clock.now),
        ],
    )
    assert await _active(engine) == ["User: I live in Berlin."]
    [top] = await engine.recall(SCOPE, "Where do I live?", top_k=1)
    assert top.record.text == "User: I live in Berlin."


async def test_a_free_wording_update_supersedes_the_one_memory_with_the_words(
    engine: MemoryEngine, clock: FixedClock
) -> None:
    await _say(engine, clock, "I drive a VW Golf, it's ancient but reliable.")
    await _say(engine, clock, "Traded in the Golf for an e-bike.", days=40)
    assert await _active(engine) == ["User: Traded in the Golf for an e-bike."]
    [old] = (await engine.list(SCOPE, statuses=[Status.SUPERSEDED])).records
    assert old.text == "User: I drive a VW Golf, it's ancient but reliable."


async def test_a_negated_habit_retires_the_episode_that_states_it(
    engine: MemoryEngine, clock: FixedClock
) -> None:
    await _say(engine, clock, "I work nights at the warehouse.")
    await _say(engine, clock, "No more night shifts, I'm on days at the warehouse now.", days=30)
    superseded = (await engine.list(SCOPE, statuses=[Status.SUPERSEDED])).records
    assert [r.text for r in superseded] == ["User: I work nights at the warehouse."]
