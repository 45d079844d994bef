"""Recall through replacements: a superseded memory still matches its question, and the
memory that replaced it answers (its new value may share no word with the question)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import timedelta
from pathlib import Path

import pytest

from adk_memory.adk.service import to_memory_entry
from adk_memory.engine import EngineConfig, MemoryEngine
from adk_memory.factory import build_engine
from adk_memory.model import Decision, IngestResult, InputEvent, Scope, ScoredMemory, Status
from adk_memory.stores.sqlite.store import SqliteStore
from tests.helpers import T0, FixedClock, make_record

ALICE = Scope(app_name="app", user_id="alice")
UNRELATED = [
    "My shoe size is 42.",
    "I'm scared of heights.",
    "My birthday is on the 9th of November.",
    "I sleep with the window open, even in winter.",
]


async def _engine(store: SqliteStore, clock: FixedClock, *, through: bool) -> MemoryEngine:
    return build_engine(
        store, clock=clock, config=EngineConfig(recall_through_replacements=through)
    )


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    opened = await SqliteStore(tmp_path / "memory.db").open()
    yield opened
    await opened.close()


async def _replaced_notes_app(store: SqliteStore) -> tuple[str, str]:
    """Evernote superseded by a memory that never says "notes"; the ids of both."""
    old = make_record(ALICE, "User: I keep all my notes in Evernote.")
    new = make_record(ALICE, "User: migrated everything over to Obsidian last weekend.", days=40)
    await store.upsert([old, *(make_record(ALICE, f"User: {t}") for t in UNRELATED)])
    await store.replace(new, [old.id])
    return old.id, new.id


async def test_the_replacement_answers_the_question_its_predecessor_answered(
    store: SqliteStore,
) -> None:
    old, new = await _replaced_notes_app(store)
    clock = FixedClock(T0 + timedelta(days=50))
    engine = await _engine(store, clock, through=True)

    ranked = await engine.recall(ALICE, "What app do I keep my notes in?", top_k=5)

    assert ranked[0].record.id == new
    assert ranked[0].breakdown.matched_via == old  # the score says whose match it is
    assert ranked[0].breakdown.lexical > 0  # "notes" is the superseded memory's word
    assert old not in {m.record.id for m in ranked}  # history is never returned
    assert all(m.breakdown.matched_via is None for m in ranked[1:])


async def test_without_it_the_replacement_is_lost_among_unrelated_memories(
    store: SqliteStore,
) -> None:
    _, new = await _replaced_notes_app(store)
    clock = FixedClock(T0 + timedelta(days=50))
    engine = await _engine(store, clock, through=False)

    ranked = await engine.recall(ALICE, "What app do I keep my notes in?", top_k=5)

    assert ranked[0].record.id != new
    assert all(m.breakdown.matched_via is None for m in ranked)


async def test_a_forgotten_replacement_gives_its_predecessor_its_answer_back(
    store: SqliteStore,
) -> None:
    old, new = await _replaced_notes_app(store)
    engine = await _engine(store, FixedClock(T0 + timedelta(days=50)), through=True)
    await engine.forget(new, ALICE)

    ranked = await engine.recall(ALICE, "What app do I keep my notes in?", top_k=5)

    assert ranked[0].record.id == old and ranked[0].breakdown.matched_via is None
    assert new not in {m.record.id for m in ranked}


async def test_one_memory_per_record_when_several_predecessors_match(
    store: SqliteStore,
) -> None:
    first = make_record(ALICE, "User: I keep my notes in Evernote.")
    second = make_record(ALICE, "User: I keep my notes in Notion now.", days=20)
    current = make_record(ALICE, "User: migrated everything over to Obsidian.", days=40)
    await store.upsert([first])
    await store.replace(second, [first.id])
    await store.replace(current, [second.id])
    engine = await _engine(store, FixedClock(T0 + timedelta(days=50)), through=True)

    ranked = await engine.recall(ALICE, "Where do I keep my notes?", top_k=5)

    assert [m.record.id for m in ranked] == [current.id]


async def _said(engine: MemoryEngine, clock: FixedClock, session: str, *texts: str) -> IngestResult:
    """One session of user messages, ingested as an ADK app saves it."""
    events = []
    for i, text in enumerate(texts):
        clock.advance(0.01)
        events.append(
            InputEvent(
                id=f"{session}-{i}", author="user", text=text, timestamp=clock(), session_id=session
            )
        )
    return await engine.ingest(ALICE, events)


async def _sessions(
    store: SqliteStore, *sessions: Sequence[str]
) -> tuple[MemoryEngine, IngestResult]:
    """An engine recalling through replacements, told each session 30 days after the one
    before; what the last one saved."""
    clock = FixedClock()
    engine = await _engine(store, clock, through=True)
    saved = None
    for number, texts in enumerate(sessions):
        if number:
            clock.advance(30)
        saved = await _said(engine, clock, f"s{number}", *texts)
    assert saved is not None
    return engine, saved


@pytest.mark.parametrize(
    ("before", "after", "probe", "current"),
    [
        # The part of the message that retired the old memory only says it is gone; the
        # other part is the answer.
        (
            "I listen to music on Spotify.",
            "Cancelled Spotify, I'm on Apple Music since we got the family plan.",
            "What music service do I use?",
            "Apple Music",
        ),
        (
            "I work at Spotify as a backend engineer.",
            "Last Friday was my final day at Spotify. On Monday I start at Klarna.",
            "Where do I work?",
            "Klarna",
        ),
        # The ending names the old value, so it matches the question better than the new.
        (
            "My phone is an iPhone 12.",
            "Got rid of the iPhone. The Pixel 8 is brilliant.",
            "What phone do I have?",
            "Pixel 8",
        ),
        # The part that retired it is the answer; the ending beside it is not.
        (
            "My manager Priya is great about protecting our focus time.",
            "My old boss retired, so I report to Dana now.",
            "Who is my manager?",
            "Dana",
        ),
    ],
)
async def test_the_part_of_a_message_that_gives_the_new_value_answers(
    store: SqliteStore, before: str, after: str, probe: str, current: str
) -> None:
    engine, saved = await _sessions(store, [before, *UNRELATED[:2]], [*UNRELATED[2:], after])
    assert saved.count(Decision.REPLACE) >= 1  # the old memory is history now

    ranked = await engine.recall(ALICE, probe, top_k=5)

    assert current in ranked[0].record.text
    assert ranked[0].breakdown.matched_via is not None
    superseded = (await engine.list(ALICE, statuses=[Status.SUPERSEDED])).records
    assert {r.id for r in superseded}.isdisjoint(m.record.id for m in ranked)


@pytest.mark.parametrize(
    ("before", "after", "probe", "first"),
    [
        # Beside the ending: someone else's news, a reason. Neither answers in its place;
        # the ending itself answers a question asking for one value.
        (
            "I listen to music on Spotify.",
            "Cancelled Spotify. My sister just started working at Netflix.",
            "What music service do I use?",
            "Cancelled Spotify",
        ),
        (
            "I listen to music on Spotify.",
            "Cancelled Spotify. It got too expensive after the price rise.",
            "What music service do I use?",
            "Cancelled Spotify",
        ),
    ],
)
async def test_what_else_the_ending_message_says_does_not_answer_for_it(
    store: SqliteStore, before: str, after: str, probe: str, first: str
) -> None:
    engine, _ = await _sessions(store, [before, *UNRELATED[:2]], [*UNRELATED[2:], after])

    ranked = await engine.recall(ALICE, probe, top_k=5)

    assert ranked[0].record.text.startswith(f"User: {first}")


async def test_an_ending_does_not_answer_a_question_asking_for_a_list(
    store: SqliteStore,
) -> None:
    pets = [
        "I have a cat called Luna.",
        "We keep a goldfish in the kitchen.",
        "I have a tortoise called Shelly.",
        "My rabbit Clover lives in the garden.",
        "I have a parrot called Kiwi.",
        "I have a dog called Rex.",
    ]
    engine, saved = await _sessions(store, pets, ["Rex passed away in March, we're heartbroken."])
    assert saved.count(Decision.REPLACE) == 1

    ranked = await engine.recall(ALICE, "What pets do I have?", top_k=5)

    assert all(m.breakdown.matched_via is None for m in ranked)
    assert not any("passed away" in m.record.text for m in ranked)


@pytest.mark.parametrize("probe", ["Do I have a car?", "What do I drive?", "What car do I drive?"])
async def test_an_ending_answers_a_question_about_the_one_thing_it_ended(
    store: SqliteStore, probe: str
) -> None:
    engine, saved = await _sessions(
        store,
        ["I drive a VW Golf.", *UNRELATED[:2]],
        [*UNRELATED[2:], "My wife drives a Honda Jazz."],
        [ENDED.removeprefix("User: ")],
    )
    assert saved.count(Decision.REPLACE) == 1
    without = await _engine(store, FixedClock(engine.clock()), through=False)

    def rank(ranked: list[ScoredMemory]) -> int:
        texts = [m.record.text for m in ranked]
        return texts.index(ENDED) if ENDED in texts else len(texts)

    through = rank(await engine.recall(ALICE, probe, top_k=5))
    assert through <= 1  # beside the wife's car at most
    assert through < rank(await without.recall(ALICE, probe, top_k=5))


ENDED = "User: Sold the Golf last week."


async def test_a_chain_reads_the_last_replacement_against_what_it_replaced(
    store: SqliteStore,
) -> None:
    engine, saved = await _sessions(
        store,
        ["I use Spotify for music.", *UNRELATED[:2]],
        [*UNRELATED[2:], "Switched from Spotify to Tidal."],
        ["Cancelled Tidal. Apple Music now."],
    )
    assert saved.count(Decision.REPLACE) >= 1

    ranked = await engine.recall(ALICE, "What music streaming service do I use?", top_k=5)

    assert "Apple Music" in ranked[0].record.text


async def test_adk_metadata_names_the_memory_a_replacement_answers_through(
    store: SqliteStore,
) -> None:
    old, new = await _replaced_notes_app(store)
    engine = await _engine(store, FixedClock(T0 + timedelta(days=50)), through=True)

    first, *rest = await engine.recall(ALICE, "What app do I keep my notes in?", top_k=5)

    assert first.record.id == new
    assert to_memory_entry(first).custom_metadata["matched_via"] == old
    assert all("matched_via" not in to_memory_entry(m).custom_metadata for m in rest)


async def test_a_replacement_answers_no_other_question_than_its_predecessor(
    store: SqliteStore,
) -> None:
    # "I moved to Munich" replaces "I live in Berlin" and is recalled through its match for
    # "Where do I work?"; it is no later answer to that than the job said in between.
    clock = FixedClock(T0)
    engine = await _engine(store, clock, through=True)
    said: dict[str, str] = {}
    for days, text in [
        (0, "I live in Berlin."),
        (3, "My wife and I both work at Siemens."),
        (30, "I moved to Munich last week."),
    ]:
        clock.now = T0 + timedelta(days=days)
        event = InputEvent(author="user", text=text, timestamp=clock.now, session_id=f"s{days}")
        [outcome] = (await engine.ingest(ALICE, [event])).outcomes
        said[text] = outcome.id
    clock.now = T0 + timedelta(days=31)
    munich = said["I moved to Munich last week."]
    assert (await engine.get(said["I live in Berlin."])).status is Status.SUPERSEDED

    at_work = await engine.recall(ALICE, "Where do I work?", top_k=5)
    assert at_work[0].record.id == said["My wife and I both work at Siemens."]
    assert at_work[0].latest is None
    assert all(m.latest is None for m in at_work if m.record.id == munich)

    at_home = await engine.recall(ALICE, "Where do I live?", top_k=5)
    assert at_home[0].record.id == munich
