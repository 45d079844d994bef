from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

import pytest

from adk_memory.engine import EngineConfig, MemoryEngine
from adk_memory.errors import InvalidInputError, NotFoundError
from adk_memory.factory import build_engine
from adk_memory.model import Decision, InputEvent, Scope, ScoredMemory, Status
from adk_memory.retrieval.ordering import OrderingConfig
from adk_memory.stores.sqlite.store import SqliteStore
from tests.helpers import T0, FixedClock

ALICE = Scope(app_name="app", user_id="alice")
BOB = Scope(app_name="app", user_id="bob")


async def _say(engine: MemoryEngine, clock: FixedClock, text: str, days: float = 1):
    clock.advance(days)
    return await engine.remember(ALICE, text)


async def _later(
    engine: MemoryEngine, clock: FixedClock, before: str, after: str, probe: str, days: float = 40
) -> tuple[list[ScoredMemory], str, str]:
    """`before`, an unrelated fact, `after` `days` later; the top 5 for `probe` and the ids
    of `before` and `after`."""
    first = await _say(engine, clock, before)
    await _say(engine, clock, "My shoe size is 42.", days=1)
    second = await _say(engine, clock, after, days=days)
    return await engine.recall(ALICE, probe, top_k=5), first.id, second.id


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("I live in Berlin.", "I moved to Munich."),
        ("I mostly write Java at work.", "We switched from Java to Go."),
        ("I like my whiskey neat.", "I take my whiskey with a splash of water now."),
        ("I work at Google.", "I quit my job at Google for Stripe."),
        ("I like coffee in the morning.", "I don't like coffee anymore."),
        ("My favorite color is blue.", "My favorite color is green."),
        ("I work as a nurse.", "I work as a software engineer."),
        ("I use Vim.", "I switched from Vim to VS Code."),
        # Someone else moving a thing of the speaker's changes the speaker's fact.
        ("My rent is 1,200 a month.", "Landlord put the rent up to 1,350 from next month, ugh."),
        # A capital opening the change that is the new value, the slot or an actor on the
        # speaker's thing is no one else's news.
        ("I use Spotify.", "Tidal replaced Spotify last month."),
        ("I use Spotify.", "Switched over, Tidal replaced Spotify."),
        ("My laptop is a Dell XPS.", "Work replaced it with a MacBook Pro."),
        ("I earn 45k.", "Salary went up to 50k."),
        # A parent's news, named as the speaker calls them.
        ("My mum lives in Leeds.", "Mum moved to York."),
        # Something else happened first; the clause naming the value is the speaker's.
        ("I drive a Golf.", "Wife sold the Golf, we drive a Tesla now."),
        ("My train to work is the 7:40.", "Southern cancelled the 7:40 so I get the 8:10 now."),
        ("I drive a Golf.", "tesla arrived. sold the golf"),
        ("I use an iPhone 12.", "pixel arrived, sold the iphone"),
        ("I work at Google.", "Decision made. Left Google."),
        # Chat words and stretched words are no names.
        ("I work at Google.", "tbh left google last week"),
        ("I use Spotify.", "sooo switched to tidal"),
        # A passing moment beside a lasting change bounds only its own clause, a secondment
        # that became a job is the job, and "my flat" is the speaker's own place.
        ("I work at Deloitte.", "I work at Google now, but I'm on holiday till Monday."),
        ("I live in Leeds.", "I live in Bristol now, renting for now until we buy."),
        ("My rent is £1,200 a month.", "Rent on my flat went up to £1,300."),
        ("I work at Deloitte.", "I work at Airbus now, they hired me after my secondment."),
        ("I live in Leeds.", "Moved to Sheffield for good, the rental van was a nightmare."),
        ("I live in Leeds.", "Moved to Bristol while the kids were off school, it's home now."),
        # An ordinary word is a value of a slot whose values are words ("red", "sparkling
        # water"); a bound the sentence says is over, or a passing moment that caused the
        # change, bounds nothing.
        ("My hair is black.", "my hair is red now, went for it at last 🔥"),
        ("My go-to drink is a Negroni.", "My go-to drink is sparkling water now."),
        ("I live in Nottingham.", "moved to Leeds during lockdown and never left"),
        ("I work at Unilever.", "I work at Arup now on a permanent contract 🎉"),
        (
            "I drive a Honda Civic.",
            "The Civic died on holiday in Wales, so I drive a Kia Picanto now.",
        ),
        # A title is a name, a team is part of a job, an ending after "and" is still one.
        ("My favourite book is Dune.", "My favourite book is Life of Pi now."),
        ("I work at Deloitte.", "Just started a new job at Google on the Maps team."),
        ("I live in Nottingham.", "Living in Leeds now and it is lovely."),
        ("I use Sky.", "Dropped Sky and went onto the Virgin deal."),
        ("I drink coffee every morning.", "Matcha is my morning drink now."),
        ("I drive a VW Golf.", "My car is a Tesla now, bought on Hire Purchase."),
        ("My salary is £40k.", "My salary is £46k now, the rise came through while I was away."),
        # A passing moment in an aside that tells how the value came dates it, one told in
        # the past says how things were, and a person's own passing moment bounds nothing.
        ("I drive a VW Golf.", "I drive a Tesla now, got it on a trip to Manchester."),
        ("My hair is long.", "My hair is short now, cut it while on holiday."),
        ("I live in Leeds.", "I live in Bristol now, my parents are visiting this weekend."),
        ("I live in Leeds.", "I live in Sheffield now. Off to Spain next week for a break."),
        (
            "My manager is Fiona.",
            "My new boss is Dominic. While he's off next week, Anjali is covering.",
        ),
        ("My manager is Sarah.", "My manager is Tom now, Sarah moved to the Paris office."),
        ("My salary is $85,000.", "My salary is $94,000 this year, got the raise in January."),
        ("My manager is Priya.", "my line manager is Grace now after the restructure"),
        ("My GP is Dr Okafor.", "My GP is Dr McKenzie at Parkside now."),
        (
            "I drive a Honda Civic.",
            "I drive a Kia Sportage now. The dealer lent me a courtesy car until it was ready.",
        ),
        # A more closely named value is still the value that holds.
        ("I use Spotify.", "Upgraded to Spotify Premium Family."),
        ("My broadband is Virgin Media.", "Moved my broadband to the BT Full Fibre 900 package."),
        ("My broadband is BT.", "switched broadband to a virgin package"),
        ("I drive a VW Golf.", "Swapped the Golf for my dad's old Volvo."),
        ("My rent is £1,200 a month.", "Rent at my place went up to £1,300."),
        ("I work at Deloitte.", "I work at Accenture now, mostly at the client's office in Leeds."),
        # Still a move of the speaker's own thing, or to a value of the slot.
        ("I bank with Barclays.", "Moved my current account to Monzo."),
        ("My laptop is a ThinkPad.", "Work upgraded my laptop to a MacBook Pro."),
        ("My rent is £1,200 a month.", "Landlord put the rent up to £1,350."),
        ("My phone is an iPhone 15.", "Switched my phone to a Pixel 8."),
        ("I drink oat lattes.", "Switched my morning coffee to decaf."),
        ("I ride a Vespa.", "I ride a Honda CB500 now."),
        ("I work at the Manchester branch.", "I work at the Leeds branch now."),
        ("I use Chrome at work.", "I use Firefox at work now."),
        ("I drink tea at work.", "I drink coffee at work now, tea's rubbish here"),
        # A name that ends in a site's word is an employer; work said as why is no context.
        ("I work at Deloitte.", "I work at Home Depot now"),
        ("I drive a VW Golf.", "I drive a Tesla now since we get free charging at work"),
        (
            "I work at Deloitte.",
            "I work at KPMG now, I'm in the Audit team till next year at least",
        ),
        # A site's word in a name of what is done there; a routine or a life is no stay.
        ("I work at Asda.", "I work at the post office now"),
        ("I work at Accenture.", "I work at the Met Office now"),
        ("I work at Deloitte.", "I work at KPMG's Leeds office now"),
        # Names that end in a site's word are employers, whoever writes them capitalised.
        ("I work at Tesco.", "I work at the Home Depot now"),
        ("I work at Greggs.", "I work at the Cheesecake Factory now, the tips are way better"),
        # A household member acts on the speaker's own things; a value beside a change of
        # something else is the speaker's.
        ("Our broadband is with Virgin.", "the wife switched the broadband to BT"),
        ("I'm vegetarian.", "the dietitian switched the diet to low FODMAP"),
        ("I'm vegetarian.", "I'm keto now since I got put on it by the dietitian"),
        # A list that shares a word with the old value, not the value, replaces it.
        ("I work at the Leeds office.", "I work at the York office and the Bradford site now"),
        ("I drink flat whites.", "I drink black coffee now, I'm at Pret till lunch most days"),
        (
            "My laptop is a MacBook Air.",
            "My laptop is a Dell XPS now, I'm at Durham until I graduate",
        ),
        # What is ridden, not how the rest of the way goes.
        (
            "I ride a Trek.",
            "I ride a Specialized Turbo Vado to the station now and get the train in",
        ),
        # Described, the one the speaker has; a thing that holds two, or a need, is no pair.
        ("I drive a VW Touran.", "traded the family car in for a Kia Sorento"),
        ("My phone is an iPhone 14.", "got a Pixel 8 now, it has two SIMs which is handy"),
        ("I drink flat whites.", "I drink oat lattes at work and at home now"),
        # The noun of what is ridden ends the one ridden, whatever it was called.
        ("I ride a Honda CBR to work.", "Swapped the motorbike for an electric scooter, a Vespa."),
        # A make or a kind of ride is ridden, a make in lower case too where nothing is
        # capitalised; a day or a condition elsewhere in the sentence bounds nothing.
        ("I ride a Trek.", "i ride a canyon now"),
        ("I ride a Trek.", "I ride an e-bike now, I got it for my birthday"),
        ("I work at Tesco.", "I work at Aldi now, started on Monday"),
        ("I drive a VW Golf.", "I'm driving a Kia now, the garage said the Golf was a write-off."),
        # A car at the garage bounds no new job; where the speaker is not bounds no home.
        (
            "I work at KPMG.",
            "I work at Deloitte now. The garage has my car till next week so it's the train.",
        ),
        ("I live in Leeds.", "I live in Manchester now when I'm not at my boyfriend's"),
        # Any ride said as "a" or "an" in chat: a push bike, a make in lower case, a 125.
        ("I ride a Vespa.", "I ride a pushbike now"),
        ("I ride a Vespa.", "I ride a ducati now"),
        ("I ride a Vespa.", "I ride a 125 now, passed my CBT"),
        ("I ride a Trek.", "I ride a fatbike now, mostly on the beach at Bamburgh"),
        ("i ride a trek", "i'm riding my old raleigh now, the trek got nicked"),
        # Another's car, or any other work at a garage, bounds no new one of the speaker's.
        (
            "I drive a VW Golf.",
            "I drive a Kia now. My husband's Passat is at the garage till next week",
        ),
        ("I drive a VW Golf.", "Traded in my old car for a Kia Niro."),
        ("My email is sam@gmail.com.", "Changed my email address to sam@outlook.com."),
        ("I live in Leeds.", "Moved to Bristol, my hometown."),
        # "My X's" before a name or an amount said as what holds now is "My X is".
        ("My car is a Ford Fiesta.", "My car's a Kia Niro now."),
        ("My GP is Dr Patel.", "my GP's Dr Okafor now, Patel retired"),
        ("My rent is £950.", "My rent's £1,050 these days."),
        ("My dentist is Dr Kaur.", "My dentist's Dr Mensah-Boateng now."),
        # Typographic apostrophes, as phones type them, read as typed ones.
        ("I live in Leeds.", "I\u2019ve moved to York."),
        ("My laptop is a MacBook Air.", "My laptop\u2019s a Dell XPS now."),
        # And as chat types them without one.
        ("I live in Leeds.", "ive moved to york lol"),
        # Another acting on the speaker's own thing, or the speaker on theirs.
        ("I'm vegetarian.", "the doctor switched my diet to low FODMAP"),
        ("I drink coffee.", "The GP switched the coffee to decaf for my heart"),
        ("I drink semi-skimmed milk.", "A while back I switched the milk to oat"),
    ],
)
async def test_classic_updates_replace(
    engine: MemoryEngine, clock: FixedClock, before: str, after: str
) -> None:
    first = await _say(engine, clock, before)
    second = await _say(engine, clock, after, days=30)
    assert first.decision is Decision.ADD
    assert second.decision is Decision.REPLACE
    assert second.superseded == [first.id]
    old = await engine.get(first.id)
    assert old.status is Status.SUPERSEDED and old.superseded_by == second.id
    ranked = await engine.recall(ALICE, before, top_k=10)
    assert first.id not in {m.record.id for m in ranked}


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("I like coffee in the morning.", "I like tea in the afternoon."),
        ("I'm allergic to peanuts.", "I'm allergic to cats."),
        ("I speak German.", "I speak Spanish."),
        ("I live in Berlin.", "I like my whiskey neat."),
        # Two people of the same kind are two subjects, not one slot.
        ("My friend Nadia is an architect in Leeds.", "My friend Tariq is a chef in Manchester."),
    ],
)
async def test_compatible_facts_are_both_kept(
    engine: MemoryEngine, clock: FixedClock, first: str, second: str
) -> None:
    a = await _say(engine, clock, first)
    b = await _say(engine, clock, second)
    assert (a.decision, b.decision) == (Decision.ADD, Decision.ADD)
    assert (await engine.get(a.id)).status is Status.ACTIVE


@pytest.mark.parametrize(
    ("said", "probe", "kept"),
    [
        (
            [(0, "I work at Deloitte"), (20, "I have friends who live in London and work at PwC")],
            "Where do I work?",
            "I work at Deloitte",
        ),
        (
            [(0, "I drive a Golf"), (10, "I go to the gym and drive home after")],
            "What car do I drive?",
            "I drive a Golf",
        ),
        (
            [(0, "I work at Tesco"), (10, "I have decided to quit and work at Aldi")],
            "Where do I work?",
            "I work at Tesco",
        ),
    ],
)
async def test_what_follows_and_is_the_speakers_state_only_after_one(
    engine: MemoryEngine, said: list[tuple[int, str]], probe: str, kept: str
) -> None:
    """Someone else's state, a one-off or a plan after "and" supersedes nothing."""
    ranked = await _conversation(engine, said, probe)
    assert any(m.record.text.endswith(kept) for m in ranked)
    active = (await engine.list(ALICE, statuses=[Status.ACTIVE])).records
    assert any(r.text.endswith(kept) for r in active)


@pytest.mark.parametrize(
    ("probe", "answer"),
    [("Where do I live?", "I moved to Munich"), ("Where do I work?", "I work at BMW now")],
)
async def test_updates_of_two_things_one_memory_says_each_answer_their_own_question(
    engine: MemoryEngine, clock: FixedClock, probe: str, answer: str
) -> None:
    """Each pairs with the memory that says both, not with each other."""
    for text in ("I live in Berlin and work at Siemens", "I moved to Munich", "I work at BMW now"):
        await _say(engine, clock, text, days=30)
    ranked = await engine.recall(ALICE, probe, top_k=5)
    assert ranked[0].record.text == answer and ranked[0].latest is not False


async def test_a_move_leaves_the_job_said_in_the_same_sentence(engine: MemoryEngine) -> None:
    """ "I live in Berlin and work at Siemens" is two facts: a move supersedes one."""
    said = [(0, "I live in Berlin and work at Siemens as an engineer."), (30, "I moved to Munich.")]
    work = await _conversation(engine, said, "Where do I work?")
    assert any("Siemens" in m.record.text for m in work)
    active = (await engine.list(ALICE, statuses=[Status.ACTIVE])).records
    assert {r.predicate: r.object for r in active}.items() >= {
        "works_at": "Siemens",
        "lives_in": "Munich",
    }.items()


async def test_restated_fact_is_noop_and_reinforces(
    engine: MemoryEngine, clock: FixedClock
) -> None:
    a = await _say(engine, clock, "I live in Berlin.")
    b = await _say(engine, clock, "I'm living in Berlin.")
    assert b.decision is Decision.NOOP and b.id == a.id
    page = await engine.list(ALICE)
    assert len(page.records) == 1
    assert page.records[0].confidence > 0.9


async def test_late_arriving_older_update_stays_history(engine: MemoryEngine) -> None:
    current = await engine.remember(ALICE, "I live in Munich.", at=T0 + timedelta(days=100))
    older = await engine.remember(ALICE, "I live in Berlin.", at=T0)
    assert older.decision is Decision.ADD and older.superseded == []
    assert (await engine.get(older.id)).status is Status.SUPERSEDED
    assert (await engine.get(current.id)).status is Status.ACTIVE


async def test_recall_ranks_with_breakdown_and_records_hits(
    engine: MemoryEngine, clock: FixedClock
) -> None:
    await _say(engine, clock, "I live in Berlin.")
    await _say(engine, clock, "I'm allergic to peanuts.")
    await _say(engine, clock, "I play the cello in an orchestra.")
    ranked = await engine.recall(ALICE, "Which instrument does the user play?", top_k=2)
    assert "cello" in ranked[0].record.text
    b = ranked[0].breakdown
    assert b.score == pytest.approx(max(b.similarity, 0) * b.decay * b.confidence)
    await engine.drain()
    assert (await engine.get(ranked[0].record.id)).hits == 1


async def test_now_is_injectable_for_replay(engine: MemoryEngine) -> None:
    await engine.remember(ALICE, "I went to a jazz concert.", at=T0)
    [early] = await engine.recall(ALICE, "jazz concert", top_k=1, now=T0)
    half_life = engine.config.scoring.half_life_days
    assert half_life is not None
    [late] = await engine.recall(ALICE, "jazz concert", top_k=1, now=T0 + timedelta(days=half_life))
    assert early.breakdown.decay == pytest.approx(1.0)
    assert late.breakdown.decay == pytest.approx(0.5)


async def test_ingest_is_idempotent_and_cites_events(engine: MemoryEngine) -> None:
    events = [
        InputEvent(
            id="e1",
            author="user",
            text="I live in Berlin and I love hiking.",
            timestamp=T0,
            session_id="s1",
        ),
        InputEvent(
            id="e2", author="user", text="I'm allergic to peanuts.", timestamp=T0, session_id="s1"
        ),
    ]
    first = await engine.ingest(ALICE, events)
    assert first.events_ingested == 2 and first.count(Decision.ADD) >= 2
    again = await engine.ingest(ALICE, events)
    assert again.events_ingested == 0 and again.events_skipped == 2 and again.outcomes == []
    records = (await engine.list(ALICE)).records
    assert {tuple(r.source.event_ids) for r in records} <= {("e1",), ("e2",)}
    assert all(r.source.session_id == "s1" for r in records)


async def test_update_within_one_batch(engine: MemoryEngine) -> None:
    events = [
        InputEvent(id="e1", author="user", text="I live in Berlin.", timestamp=T0),
        InputEvent(
            id="e2",
            author="user",
            text="Actually I just moved to Hamburg.",
            timestamp=T0 + timedelta(minutes=5),
        ),
    ]
    result = await engine.ingest(ALICE, events)
    assert [o.decision for o in result.outcomes] == [Decision.ADD, Decision.REPLACE]
    active = (await engine.list(ALICE, statuses=[Status.ACTIVE])).records
    assert [r.object for r in active] == ["Hamburg"]


async def test_history_shows_the_chain(engine: MemoryEngine, clock: FixedClock) -> None:
    a = await _say(engine, clock, "I live in Berlin.")
    b = await _say(engine, clock, "I moved to Munich.")
    c = await _say(engine, clock, "I moved to Vienna.")
    for memory_id in (a.id, b.id, c.id):
        chain = await engine.history(memory_id)
        assert [r.id for r in chain] == [a.id, b.id, c.id]


async def test_forget_is_scoped(engine: MemoryEngine) -> None:
    a = await engine.remember(ALICE, "My passport number is X123.")
    with pytest.raises(NotFoundError):
        await engine.forget(a.id, BOB)
    await engine.forget(a.id, ALICE)
    with pytest.raises(NotFoundError):
        await engine.get(a.id)


async def test_scopes_never_mix(engine: MemoryEngine) -> None:
    await engine.remember(ALICE, "I live in Berlin.")
    b = await engine.remember(BOB, "I moved to Munich.")
    assert b.decision is Decision.ADD  # Alice's home is not Bob's to supersede
    ranked = await engine.recall(BOB, "where does the user live", top_k=10)
    assert {m.record.scope for m in ranked} == {BOB}


@pytest.mark.parametrize(
    "bad",
    ["", "   ", "x" * 20_001, "binary\x00data", "bell\x07", "lone \ud800 surrogate"],
)
async def test_bad_text_is_refused_and_nothing_written(engine: MemoryEngine, bad: str) -> None:
    with pytest.raises(InvalidInputError):
        await engine.remember(ALICE, bad)
    assert (await engine.list(ALICE)).records == []


@pytest.mark.parametrize(
    "bad", ["", "   ", "binary\x00data", "bell\x07", "lone \ud800 surrogate", "x" * 1_000_001]
)
async def test_a_bad_event_costs_its_neighbours_nothing(engine: MemoryEngine, bad: str) -> None:
    result = await engine.ingest(
        ALICE,
        [
            InputEvent(id="ok", author="user", text="I live in Rome.", timestamp=T0),
            InputEvent(id="bad", author="user", text=bad or " ", timestamp=T0),
        ],
    )
    assert [r.event_id for r in result.rejected] == ["bad"]
    assert ["Rome" in r.text for r in (await engine.list(ALICE)).records] == [True]


@pytest.mark.parametrize("stamp", ["yesterday", "2026-13-45", "", True, None])
def test_invalid_timestamps_are_refused(stamp: object) -> None:
    with pytest.raises((InvalidInputError, ValueError)):
        InputEvent(author="user", text="hi", timestamp=stamp)  # type: ignore[arg-type]


async def test_bad_query_and_top_k(engine: MemoryEngine) -> None:
    with pytest.raises(InvalidInputError):
        await engine.recall(ALICE, "  ")
    with pytest.raises(InvalidInputError):
        await engine.recall(ALICE, "x", top_k=0)


async def test_queries_about_the_user_by_name_find_the_users_facts(
    engine: MemoryEngine, clock: FixedClock
) -> None:
    await _say(engine, clock, "Hi, I'm Sam.")
    await _say(engine, clock, "I'm allergic to peanuts.")
    await _say(engine, clock, "I play the cello.")
    [top] = await engine.recall(ALICE, "What is Sam allergic to?", top_k=1)
    assert top.record.object == "peanuts"
    await _say(engine, clock, "Please call me Samantha.")
    [top] = await engine.recall(ALICE, "Which instrument does Samantha play?", top_k=1)
    assert "cello" in top.record.text


async def test_the_like_of_what_is_x_like_matches_nothing(
    engine: MemoryEngine, clock: FixedClock
) -> None:
    await _say(engine, clock, "I eat pretty much everything, I'm a big meat eater.")
    await _say(engine, clock, "I can't stand coriander, it tastes like soap to me.")
    await _say(engine, clock, "I've got a freckle shaped like a heart on my wrist.")
    [top] = await engine.recall(ALICE, "What's my diet like?", top_k=1)
    assert "meat eater" in top.record.text
    # "like" as a verb is still a query word.
    await _say(engine, clock, "I like jazz, mostly Coltrane.")
    [top] = await engine.recall(ALICE, "What music do I like?", top_k=1)
    assert "jazz" in top.record.text


async def test_recall_matches_summary_sources_and_returns_the_summary(
    engine: MemoryEngine,
) -> None:
    from adk_memory.model import Kind
    from tests.helpers import make_record

    sources = [
        make_record(ALICE, "User: we hiked the Zugspitze in a storm."),
        make_record(ALICE, "User: my sister Jana visited from Prague."),
        make_record(ALICE, "User: the bakery on Hauptstrasse closed."),
    ]
    summary = make_record(
        ALICE,
        "User talked about weekend trips, family and the neighbourhood.",
        kind=Kind.SUMMARY,
    )
    forgotten = make_record(ALICE, "User: the Zugspitze cable car was closed.")
    await engine.store.upsert([*sources, summary, forgotten])
    await engine.store.set_status(
        ALICE, [s.id for s in sources], Status.ARCHIVED, consolidated_into=summary.id
    )
    await engine.store.set_status(ALICE, [forgotten.id], Status.ARCHIVED)  # GC, no summary

    ranked = await engine.recall(ALICE, "Zugspitze storm hike", top_k=3)
    assert ranked[0].record.id == summary.id
    assert ranked[0].breakdown.cosine > 0.5  # the source's match, not the summary's
    returned = {m.record.id for m in ranked}
    assert not returned & {s.id for s in sources} and forgotten.id not in returned
    assert len(returned) == len(ranked)  # one entry per summary


@pytest.mark.parametrize(
    ("before", "after", "probe"),
    [
        (
            "Our office is on the 4th floor of the Shard.",
            "The company moved us to a co-working space in Shoreditch.",
            "Where is my office?",
        ),
        (
            "The product launch is scheduled for May 3rd.",
            "Launch slipped again, now targeting the 20th of May.",
            "When is the product launch?",
        ),
        (
            "My mum is a head teacher.",
            "Mum retired from teaching at Easter.",
            "What does my mum do?",
        ),
        # Where the speaker grew up names the house; the parents live there now.
        (
            "My parents still live in the house I grew up in, in Cork.",
            "Mum and Dad sold the Cork house and bought a bungalow in Kinsale.",
            "Where do my parents live?",
        ),
    ],
)
async def test_a_change_no_rule_understands_still_puts_the_current_value_first(
    engine: MemoryEngine, clock: FixedClock, before: str, after: str, probe: str
) -> None:
    first = await _say(engine, clock, before)
    second = await _say(engine, clock, after, days=40)
    # Nothing is superseded on such weak evidence: both stay active.
    assert (await engine.get(first.id)).status is Status.ACTIVE
    await _say(engine, clock, "My shoe size is 42.", days=1)
    ranked = await engine.recall(ALICE, probe, top_k=5)
    ids = [m.record.id for m in ranked]
    assert ids[0] == second.id and ranked[0].latest is True
    # The earlier value is still recalled, marked, after every other memory.
    assert ids[-1] == first.id and ranked[-1].latest is False


@pytest.mark.parametrize(
    ("state", "later", "probe"),
    [
        # One-off events and other people's news are no changes of the user's facts.
        (
            "I'm allergic to penicillin.",
            "I stopped taking the antibiotics the doctor gave me.",
            "What am I allergic to?",
        ),
        ("My wife works at Google.", "Google announced new layoffs.", "Where does my wife work?"),
        ("My sister lives in Oslo.", "Tom moved to Bergen.", "Where does my sister live?"),
        (
            "I drive a Tesla Model 3.",
            "The mechanic fixed the car's brakes.",
            "What car do I drive?",
        ),
        (
            "I work at Siemens as an engineer.",
            "I started a new project at work, it's exciting.",
            "Where do I work?",
        ),
        ("I live in Berlin.", "I went to the cinema with friends.", "Where do I live?"),
        ("I have two kids, Mia and Leo.", "Mia finally started school.", "Tell me about my kids."),
        # A later remark about the same thing that answers a different question.
        (
            "My dog is a border collie named Bella.",
            "My dog hates the vacuum cleaner.",
            "What breed is my dog?",
        ),
        (
            "I ride a Yamaha motorbike.",
            "The motorbike needs new tyres.",
            "What motorbike do I ride?",
        ),
        ("I speak fluent Japanese.", "I love Japanese food.", "What languages do I speak?"),
        (
            "My parents live in Lisbon.",
            "My parents love their garden.",
            "Where do my parents live?",
        ),
        # The new value is someone else's, whoever the rest of the sentence is about.
        (
            "I work at Arup in Leeds.",
            "My wife just started at Mott MacDonald, so we're both engineers now.",
            "Where do I work?",
        ),
        (
            "My phone is a Pixel 7.",
            "Bought my dad an iPhone 15 for his birthday, now I'm his tech support.",
            "What phone do I have?",
        ),
        # A state told as over is history, not what a present state displaces.
        (
            "My first job was at Tesco.",
            "I work at Sainsbury's now, on the tills.",
            "Where was my first job?",
        ),
        # Someone named, doing or moving something of theirs.
        ("I drive a VW Golf.", "Tom's driving a Tesla Model 3 now.", "What car do I drive?"),
        ("I weigh 80kg.", "Bruno's down to 29kg after the diet.", "How much do I weigh?"),
        ("I weigh 80kg.", "The dog's down to 29kg now.", "How much do I weigh?"),
        # Values of another known kind: clouds are no phone.
        (
            "My phone is an iPhone 13.",
            "We moved from AWS to Azure at work.",
            "What phone do I have?",
        ),
        # A passing moment says nothing about the lasting answer.
        (
            "I have a golden retriever called Max.",
            "I'm dog-sitting my neighbour's beagle this weekend.",
            "What pet do I have?",
        ),
    ],
)
async def test_everyday_remarks_never_push_a_true_fact_down(
    engine: MemoryEngine, clock: FixedClock, state: str, later: str, probe: str
) -> None:
    first = await _say(engine, clock, state)
    await _say(engine, clock, later, days=30)
    ranked = await engine.recall(ALICE, probe, top_k=5)
    [kept] = [m for m in ranked if m.record.id == first.id]
    assert kept.latest is not False
    assert ranked[0].record.id == first.id


async def _conversation(
    engine: MemoryEngine, said: Sequence[tuple[int, str]], probe: str
) -> list[ScoredMemory]:
    """Ingests what the user said, (day, text) each, and recalls `probe` the day after."""
    events = [
        InputEvent(
            id=f"e{i}",
            author="user",
            text=text,
            timestamp=T0 + timedelta(days=days, minutes=i),
            session_id=f"s{days}",
        )
        for i, (days, text) in enumerate(said)
    ]
    await engine.ingest(ALICE, events)
    last = max(days for days, _ in said)
    return await engine.recall(ALICE, probe, top_k=5, now=T0 + timedelta(days=last + 1))


_BACKGROUND = ("My shoe size is 42.", "I'm left-handed.", "I've been to eleven countries so far.")


@pytest.mark.parametrize(
    ("fact", "look_alike", "probe"),
    [
        # A plan that did not happen.
        (
            "we live in Sheffield, near Ecclesall Road, and the hills are destroying my calves",
            "we were meant to be moving to Leeds in June but our buyer pulled out, so it's all "
            "on hold indefinitely. how do I get the removal van deposit back?",
            "Where do we live?",
        ),
        (
            "we live in Brighton, kemptown, any good dog walks nearby?",
            "we were meant to be moving to Lewes this month but the sale collapsed at the last "
            "minute so we're stuck here for now. how do i stay positive?",
            "Where do we live?",
        ),
        # A place weighed up.
        (
            "we're in Denver, just outside Wash Park",
            "how do people actually decide to move cities? looking at Boise because prices "
            "here are nuts but all our friends are here.",
            "Where do I live?",
        ),
        # A stand-in while the speaker's own is mended.
        (
            "My daily driver is a Mazda MX-5, which is absurd in winter but joyous in summer.",
            "The garage has lent me a Vauxhall Corsa while the clutch gets replaced. It's fine, "
            "just soulless; I should have mine back by Friday.",
            "What car do I drive?",
        ),
        # An attempt that failed, and what was first wanted.
        (
            "our anniversary dinner is booked at dishoom for friday, whats good to order",
            "tried to get a table at hawksmoor instead but fully booked so sticking with the "
            "original plan. is it ok to bring a cake",
            "where's our anniversary dinner?",
        ),
        (
            "We've booked ten days in Crete for late August, in a villa with a pool for the kids.",
            "We'd originally wanted Sardinia, but the flights were ridiculous, so honestly we're "
            "glad with what we ended up booking. What should we pack for a toddler in that heat?",
            "Where are we going on holiday?",
        ),
        # A change that moves a value of another kind than the fact names.
        (
            "I go to the Gym Group in Crawley, it's open 24/7 which is handy.",
            "Switched my spin class to Thursdays.",
            "Which gym do I go to?",
        ),
        (
            "I work 4 days a week at the council. It's flexible, which helps with the kids.",
            "They moved my day off to Friday.",
            "How many days a week do I work?",
        ),
        # A stretch of life recalled.
        (
            "I start work at 9:15 most days, which fits around the nursery drop-off.",
            "Clearing the loft I found my old rota from the year I was doing 5:30 starts at the "
            "bakery, which nearly broke me. What paperwork should I keep?",
            "What time do I start work?",
        ),
    ],
)
async def test_what_did_not_come_about_or_stands_in_leaves_the_fact_in_sight(
    engine: MemoryEngine, fact: str, look_alike: str, probe: str
) -> None:
    """A move that fell through or is weighed up, a car lent while one's own is mended, a
    table tried for and not got, a holiday first wanted: none displaces the fact."""
    said = [(0, fact), *((0, text) for text in _BACKGROUND), (90, look_alike)]
    ranked = await _conversation(engine, said, probe)
    [kept] = [m for m in ranked if fact.split(",")[0] in m.record.text]
    assert kept.latest is not False
    assert ranked.index(kept) <= 1


@pytest.mark.parametrize(
    ("earlier", "later", "probe", "new", "old"),
    [
        # A state told over several sentences is still a state a move displaces.
        (
            "I live on Mill Lane in Headingley, a short walk from the cricket ground. Parking "
            "is a nightmare on match days.",
            "Got the keys on Saturday, we're on Cardigan Road now, round the other side of the "
            "park.",
            "What street do I live on?",
            "Cardigan Road",
            "Mill Lane",
        ),
        # Someone of the speaker's moved, and the speaker with them.
        (
            "We live in London, in Ealing, near the Broadway.",
            "Work transferred my husband to Bristol, so we've all moved down there.",
            "Where do I live?",
            "Bristol",
            "Ealing",
        ),
        # One thing given up for another, whatever the query's words.
        (
            "I'm a member at Gymbox, the one near Farringdon, and pay about £60 a month.",
            "I've swapped Gymbox for Third Space in Moorgate, pricier but work chips in half.",
            "Which gym am I a member of?",
            "Third Space",
            "Farringdon",
        ),
    ],
)
async def test_a_change_displaces_a_state_told_at_length_or_given_up_for_another(
    engine: MemoryEngine, earlier: str, later: str, probe: str, new: str, old: str
) -> None:
    said = [(0, earlier), *((0, text) for text in _BACKGROUND), (60, later)]
    ranked = await _conversation(engine, said, probe)
    assert new in ranked[0].record.text
    # Superseded, or shown after everything else.
    assert all(old not in m.record.text for m in ranked[:-1])


@pytest.mark.parametrize(
    ("earlier", "later", "probe", "first"),
    [
        # A landlord's news of the rent is the speaker's rent.
        (
            "rent is 950 a month for a 1 bed which feels insane",
            "landlord just emailed saying rent goes up to 1,040 from next month wtf.",
            "how much is my rent?",
            "1,040",
        ),
        # Asked about a role, the speaker's own word of whom they report to now.
        (
            "My manager, Helena, is great about flexible hours.",
            "Helena left for a startup, so I now report to a guy called Marcus.",
            "Who is my manager?",
            "Marcus",
        ),
        # Whoever moves the speaker's own thing to a new value, the thing is the speaker's.
        (
            "My credit card limit is £3,000, and I'm usually sitting at about half of that.",
            "Barclaycard wrote to say they've raised my limit to £5,000, I didn't even ask.",
            "What's my credit card limit?",
            "5,000",
        ),
        (
            "My credit card limit is £3,000, and I'm usually sitting at about half of that.",
            "my sister says Barclaycard raised her limit to £5,000 without asking",
            "What's my credit card limit?",
            "3,000",
        ),
        # Someone else's rent, or the speaker's reporting to a board, changes nothing.
        (
            "rent is 950 a month for a 1 bed which feels insane",
            "landlord said rent is going up to 1,300 for the new tenants upstairs",
            "how much is my rent?",
            "950",
        ),
        (
            "My manager, Helena, is great about flexible hours.",
            "I report to the board on the budget every quarter now",
            "Who is my manager?",
            "Helena",
        ),
    ],
)
async def test_news_told_by_whoever_serves_the_speaker_or_of_an_asked_role_orders_by_whose_it_is(
    engine: MemoryEngine, earlier: str, later: str, probe: str, first: str
) -> None:
    said = [(0, earlier), *((0, text) for text in _BACKGROUND), (40, later)]
    ranked = await _conversation(engine, said, probe)
    assert first in ranked[0].record.text


@pytest.mark.parametrize(
    ("said", "probe", "answer"),
    [
        # A query naming a closed kind ("programming language") is not answered by a later
        # statement naming no value of it, filed under another slot or naming another kind.
        (
            [
                (0, "I live in Berlin and I mostly write Java at work."),
                (0, "I drive a VW Golf to work."),
                (0, "Our office is on the 4th floor, right by Alexanderplatz."),
                (130, "Big news: we migrated everything from Java to Go."),
                (240, "Traded in the Golf for an e-bike, best decision this year."),
                (240, "The company moved our team to a new office by the Isar."),
            ],
            "What programming language do I use at work?",
            "from Java to Go.",
        ),
        # Values of another known kind: clouds are no phone, a phone is no laptop, a music
        # service is no cloud.
        (
            [(0, "My phone is an iPhone 13."), (60, "We moved from AWS to Azure at work.")],
            "What phone do I have?",
            "an iPhone 13.",
        ),
        (
            [
                (0, "My laptop's a Dell XPS 13"),
                (60, "switched my phone to an iPhone, android was doing my head in"),
            ],
            "What laptop do I have?",
            "a Dell XPS 13",
        ),
        (
            [
                (0, "Our whole stack at work is on Azure"),
                (60, "switched to Deezer, spotify's price hike was the last straw"),
            ],
            "What cloud provider do we use at work?",
            "is on Azure",
        ),
    ],
)
async def test_a_later_statement_naming_values_of_another_kind_is_no_answer(
    engine: MemoryEngine, said: list[tuple[int, str]], probe: str, answer: str
) -> None:
    ranked = await _conversation(engine, said, probe)
    assert ranked[0].record.text.endswith(answer)
    assert all(m.latest is not False for m in ranked if m.record.text.endswith(answer))


@pytest.mark.parametrize(
    ("said", "probe", "answer"),
    [
        (
            [(0, "I mostly write Java at work."), (60, "We're all on Gleam at work now.")],
            "What programming language do I use at work?",
            "on Gleam at work now.",
        ),
        (
            [(0, "My phone is an iPhone 13."), (60, "Got a Nokia 3310 now, loving the battery.")],
            "What phone do I have?",
            "loving the battery.",
        ),
        # Beside a name the lexicon lacks, a value of another kind is the reason given.
        (
            [
                (0, "I use VS Code for everything"),
                (60, "switched to Rider cos everything at work is C# now"),
            ],
            "What editor do I use?",
            "is C# now",
        ),
        (
            [
                (0, "firefox is my browser, been loyal for years"),
                (60, "gave up and use Samsung Internet on my Galaxy now, it's just there"),
            ],
            "What web browser do I use?",
            "it's just there",
        ),
        # A laptop says which system it runs.
        (
            [
                (0, "I run Windows 11 on my desktop"),
                (60, "switched to a MacBook last month, never going back"),
            ],
            "What operating system do I use?",
            "never going back",
        ),
    ],
)
async def test_a_later_value_the_lexicon_lacks_still_answers_the_kind_asked_for(
    engine: MemoryEngine, said: list[tuple[int, str]], probe: str, answer: str
) -> None:
    """A value no lexicon knows may be of any kind: it still comes first."""
    ranked = await _conversation(engine, said, probe)
    assert ranked[0].record.text.endswith(answer)


@pytest.mark.parametrize(
    ("before", "after", "probe"),
    [
        # Neither says the old value is gone nor names it, so both stay unmarked: only the
        # order tells ("…, the ThinkPad is in a drawer" sets it aside: marked earlier).
        (
            "My laptop is a ThinkPad X1.",
            "Work issued me a MacBook Pro for the new project.",
            "What laptop do I use?",
        ),
        # Getting one more says nothing of the first one going.
        (
            "I drive a Honda Civic.",
            "Picked up my new Tesla Model 3, love it.",
            "What car do I drive?",
        ),
    ],
)
async def test_a_later_answer_to_the_same_question_comes_first_unmarked(
    engine: MemoryEngine, clock: FixedClock, before: str, after: str, probe: str
) -> None:
    ranked, first, second = await _later(engine, clock, before, after, probe)
    assert ranked[0].record.id == second
    [kept] = [m for m in ranked if m.record.id == first]
    assert kept.latest is None and ranked[0].latest is None
    assert ranked.index(kept) == 1


async def test_a_correction_marks_the_answer_it_takes_back_whatever_the_question(
    engine: MemoryEngine, clock: FixedClock
) -> None:
    """A question that may have several answers keeps two rival answers unmarked, but not
    one the speaker took back: that one never held."""
    ranked, first, second = await _later(
        engine,
        clock,
        "My carrier is Verizon.",
        "Sorry, that was my old carrier, I've been on T-Mobile since last year.",
        "Which carriers am I with?",
    )
    assert ranked[0].record.id == second and ranked[0].latest is True
    [kept] = [m for m in ranked if m.record.id == first]
    assert kept.latest is False


@pytest.mark.parametrize(
    ("before", "after", "probe", "kept"),
    [
        ("I have a car and a motorbike.", "Sold the motorbike.", "What vehicles do I have?", "car"),
        ("I have two cats, Milo and Luna.", "Milo passed away.", "What pets do I have?", "Luna"),
        (
            "I play tennis and golf.",
            "I stopped playing golf, my back can't take it.",
            "What sports do I play?",
            "tennis",
        ),
        (
            "I subscribe to Netflix and Disney+.",
            "Cancelled Disney+ last week.",
            "Which streaming services do I have?",
            "Netflix",
        ),
        (
            "I work part-time at Tesco and at a pub.",
            "I quit the pub job.",
            "Where do I work?",
            "Tesco",
        ),
        (
            "I'm learning Japanese and Korean.",
            "I've stopped the Korean lessons.",
            "What languages am I learning?",
            "Japanese",
        ),
    ],
)
async def test_ending_one_item_of_several_keeps_the_others(
    engine: MemoryEngine, clock: FixedClock, before: str, after: str, probe: str, kept: str
) -> None:
    first = await _say(engine, clock, before)
    await _say(engine, clock, "My shoe size is 42.", days=1)
    await _say(engine, clock, "I was born in Cork.", days=1)
    second = await _say(engine, clock, after, days=20)
    # The other items are still true: nothing is superseded, and recall keeps them in view.
    assert first.id not in second.superseded
    assert (await engine.get(first.id)).status is Status.ACTIVE
    ranked = await engine.recall(ALICE, probe, top_k=5)
    [still] = [m for m in ranked if m.record.id == first.id]
    assert kept in still.record.text and still.latest is not False


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("I play piano, guitar, and drums.", "I stopped playing drums."),
        ("I have a car, a van, a motorbike.", "Sold the motorbike."),
        ("I play tennis and squash at the club every week.", "I stopped playing tennis."),
    ],
)
async def test_longer_lists_keep_their_other_items(
    engine: MemoryEngine, clock: FixedClock, before: str, after: str
) -> None:
    first = await _say(engine, clock, before)
    second = await _say(engine, clock, after, days=20)
    assert first.id not in second.superseded
    assert (await engine.get(first.id)).status is Status.ACTIVE


@pytest.mark.parametrize(
    ("state", "later"),
    [
        # What follows "not" is not what the sentence corrects.
        ("My dentist is Dr Patel.", "Sorry, it's Dr Shah who retired, not Dr Patel."),
        ("I work at Google.", "Sorry, the offsite is with Meta this year, not Google."),
        # A move years back is history.
        ("I live in Berlin.", "I moved to London fifteen years ago."),
        ("I live in Berlin.", "I moved to London as a student about fifteen years ago."),
        # Leaving a post, or moving away and staying on, is no end of the role.
        ("My boss is Mark.", "Mark resigned as chair of the social club."),
        ("My landlord is Mr Grant.", "Mr Grant moved abroad but still owns the flat."),
        # Someone of a relation's is not the relation.
        ("My brother works at Google.", "And my brother's wife left Google."),
        # Someone else's change is not the speaker's.
        ("I work at Google.", "Ravi left Google last month."),
        ("I use Spotify.", "So Tom cancelled Spotify."),
        ("I use Spotify.", "Tom switched to Tidal."),
        ("I use Spotify.", "Apparently Tom switched to Tidal."),
        ("I work at Google.", "Ravi told me he left Google."),
        ("I work at Google.", "Dr Ravi Shah left Google last month."),
        ("I work at Google.", "A colleague left Google for Meta."),
        ("I drive a Golf.", "Her husband sold the Golf."),
        ("I drink four espressos a day.", "Dana switched to decaf."),
        ("I work at the BBC.", "Sara's dad left the BBC last year."),
        ("My wife Sara works at the BBC.", "Sara's dad left the BBC last year."),
        # The speaker named inside someone else's phrase is still someone else's news.
        ("I work at Google.", "Ravi from my team left Google."),
        ("I work at Google.", "Ravi who sits next to me left Google."),
        ("I use Spotify.", "Tom, who I live with, switched to Tidal."),
        ("I use Spotify.", "Tom (from work) switched to Tidal."),
        ("I work at Google.", "One of my friends left Google."),
        ("I use Spotify.", "Everyone I know switched to Tidal."),
        ("I use Spotify.", "The whole office switched to Tidal."),
        ("I work at Google.", "The new guy left Google."),
        # After a longer lead-in, a short sentence, or as heard from someone.
        ("I work at Google.", "By the way, Ravi left Google."),
        ("I work at Google.", "Crazy week. Ravi left Google."),
        ("I work at Google.", "Heard from Ravi that he left Google."),
        # The speaker's reaction to someone else's change is no change of the speaker's.
        ("I work at Google.", "Ravi left Google, I'm so jealous."),
        ("My gym is PureGym.", "Sara quit PureGym, I might too."),
        ("I work at Google.", "Ravi left Google. I'm still there though."),
        ("I work at Deloitte.", "Tom left Deloitte for KPMG and I took over his clients."),
        ("I work at Tesco.", "Heard Marcus left Tesco and I'm next in line for his role."),
        # Asides, places and groups around someone else; hearsay in more words.
        ("I work at Google.", "Ravi, bless him, left Google."),
        ("I use Spotify.", "The lads next door switched to Tidal."),
        ("I use Spotify.", "Most people I know switched to Tidal."),
        ("I work at Google.", "Heard Ravi left Google."),
        ("I work at Google.", "Looks like Ravi left Google."),
        ("I work at Google.", "lol ravi left google"),
        ("I work at Google.", "Mary-Jane left Google."),
        ("I use Spotify.", "My bf switched to Tidal."),
        # A named person's thing is theirs.
        ("My rent is 1200 a month.", "Emma's rent went up to 1500 this month."),
        ("I drive a Golf.", "Tom's car got written off, he drives a Kia now."),
        # What the speaker got someone else.
        ("I drive a Golf.", "Bought a Polo for my daughter, she passed her test."),
        ("My phone is a Pixel 7.", "Got my mum an iPhone 15 for her birthday."),
        # Written without capitals, a name is still a name.
        ("I work at Google.", "ravi left google last week"),
        ("I use Spotify.", "tom cancelled spotify"),
        ("I work at Google.", "RAVI LEFT GOOGLE"),
        # A stand-in while the usual one is away or mended, wherever the sentence bounds it.
        ("I drive a VW Golf.", "car's in the garage till Friday, so I'm driving a hire Corsa."),
        ("I drive a VW Golf.", "Golf's at the mechanic until Thursday so I'm driving my Astra."),
        ("My manager is Sarah.", "While Sarah's off, I report to Tom."),
        (
            "I work at Deloitte.",
            "Deloitte's seconded me to the client in Bristol, so I'm working at Airbus.",
        ),
        # A hedge on how long it lasts is no evidence the usual value is gone.
        (
            "I live in Leeds.",
            "The flat's being fumigated, so I'm living at Tom's in Harrogate for now.",
        ),
        # A thing of a place is not the speaker's own.
        ("I drink oat lattes.", "coffee at work is Nescafé now, grim."),
        ("My rent is £1,200 a month.", "rents in Leeds went up to £1,400 on average."),
        # A phone or a laptop that "died" ran flat; it is gone only with a replacement.
        ("My phone is an iPhone 15.", "My phone died at the gig so I couldn't text you back."),
        # What a thing of the speaker's is like or where it is, not which one it is.
        ("My phone is an iPhone 15.", "My phone is at 2%."),
        ("My car is a Ford Focus.", "My car is at the garage."),
        ("My salary is £40k.", "My salary is a joke."),
        ("My dentist is Dr Patel.", "My dentist is lovely."),
        ("My name is Sam.", "My name is mud after forgetting the anniversary."),
        # A change of a thing that goes with the slot's thing, not of the thing itself.
        ("I drive a VW Golf.", "Switched my car insurance to Admiral."),
        ("My dentist is Dr Patel.", "Moved my dentist appointment to Friday."),
        ("My phone is an iPhone 15.", "Switched my phone contract to Giffgaff."),
        ("I use Spotify.", "Upgraded my Spotify to the family plan."),
        # A value bounded to a span or a context, or a thing moved to where or how it is.
        ("I live in Leeds.", "I'm living in Lisbon for the winter."),
        ("My manager is Sarah.", "I report to Tom during the reorg."),
        (
            "My dentist is Dr Patel.",
            "My dentist is Dr Shah for the root canal, specialist referral.",
        ),
        ("I drink oat lattes.", "Switched to herbal tea for Lent."),
        ("My browser is Firefox.", "Switched to Chrome for work only."),
        ("I drive a VW Golf.", "Moved my car to the multi-storey."),
        ("My phone is an iPhone 15.", "Switched my phone to dark mode."),
        # A club, a gym or a choir joined is no employer; a thing doing something is no value.
        ("I work at Unilever.", "Joined a running club, the Hackney Harriers, last month."),
        ("I work at Unilever.", "joined Third Space, the gym by the office, finally 💪"),
        ("My GP is Dr Okafor.", "My GP is running 40 mins late, sat in the waiting room forever"),
        ("I work at Deloitte.", "I work at the kitchen table most days."),
        # A change inside a bound, a hire car by its model, a bound denied to last.
        (
            "My phone is an iPhone 15.",
            "While my iPhone is in for repair, I've switched to a Pixel 8.",
        ),
        ("I drive a VW Golf.", "I'm driving a hire Corsa this fortnight."),
        ("I live in Leeds.", "I'm living in Lisbon for the winter, it's not permanent."),
        ("I drive a VW Golf.", "At the Red Lion till Monday, so I'm driving a Kia Picanto."),
        # The thing a statement is about is not the value it says holds.
        ("I drink oat lattes.", "Office coffee is Nescafé now, grim."),
        ("I drink oat lattes.", "The coffee machine at work only does Nescafé now."),
        # A thing let fall is no thing given up.
        (
            "My phone is an iPhone 15.",
            "Dropped my iPhone in the bath, on my old Nokia until the new screen arrives.",
        ),
        # An organisation's own thing, someone else's thing, people moved.
        ("My energy supplier is Octopus.", "The office switched energy supplier to EDF."),
        ("My email is sam@gmail.com.", "The company moved email to Outlook."),
        ("I drive a VW Golf.", "Swapped the kids' car seats to Maxi-Cosi."),
        ("I use Spotify.", "Switched the kids to Spotify Kids."),
        ("I live in Leeds.", "Moved to Bristol, my best mate. Gutted."),
        # Another one of its kind: a named service's, a shared one, a plan or a variant.
        ("My email is sam@gmail.com.", "Changed my Netflix email to sam.j@outlook.com."),
        ("I bank with Barclays.", "Switched the joint account to Nationwide, my own stays."),
        ("My phone is an iPhone 15.", "Upgraded my phone to the 5G plan."),
        ("My broadband is BT.", "Upgraded my broadband to the 900Mb package, same provider."),
        ("I drive a VW Golf.", "Switched my bike to an e-bike."),
        ("My laptop is a MacBook Air.", "upgraded the macbook to sonoma finally"),
        # What moved is what the sentence opens with, not a noun inside it.
        ("My dentist is Dr Marsh.", "my dentist appointment got moved to 9am"),
        ("I drive a VW Golf.", "My car insurance moved to Admiral this year."),
        ("My usual is a flat white.", "changed my coffee beans to Origin's Colombian, lovely"),
        ("I'm vegan.", "the canteen menu is all vegetarian now, fewer vegan options annoyingly"),
        # A way of speaking, a placement at a client, a span of the speaker's own.
        ("I live in Leeds.", "I basically live at the office these days, ha."),
        ("I work at Deloitte.", "Working at the client site at Barclays in Canary Wharf."),
        ("I drink oat lattes.", "My usual is a mint tea while I'm pregnant."),
        # A thing at the menders is not gone.
        ("My laptop is a MacBook Air.", "Laptop died, it's at the Apple store being repaired."),
        # An everyday word that is also a value's name.
        ("My main language is Java.", "I go to David Lloyd now, for the foreseeable."),
        # Someone of a relation's thing, moved; an organisation's things, not the speaker's.
        ("I drink oat lattes.", "Switched my husband's coffee to decaf."),
        ("My phone is an iPhone 15.", "Got the kids' phones switched to Pixels."),
        ("I use Spotify.", "The gym switched their music to Apple Music."),
        ("My rent is £1,200 a month.", "The office rent got put up to £5,000."),
        ("My rent is £1,200 a month.", "My parking space rent went up to £80."),
        ("I drive a VW Golf.", "Traded my scooter in for a Vespa."),
        ("My laptop is a MacBook Air.", "New laptop is a Dell for my daughter."),
        ("My phone is an iPhone 15.", "My new phone is a Pixel, for work only."),
        ("My manager is Sarah.", "My new manager is starting Monday."),
        ("My manager is Sarah.", "My boss's wife is Jane."),
        ("My hair is short.", "My hair's grey now, gave up dyeing it."),
        ("I use an iPhone 15 Pro.", "my phone's 256GB and somehow it's full AGAIN"),
        # A person's slot takes a name, not what they are or do.
        ("My manager is Priya.", "My manager is Head of Ops now"),
        ("My manager is Priya.", "My boss is OOO again"),
        ("My wife is Anna.", "My wife is Head of Science now"),
        ("My husband is Tom.", "my husband is Dr Who obsessed"),
        ("My therapist is Dr Lewis.", "My therapist is CBT-trained"),
        # "'s" is a possessive more often than "is", so "My X's …" fills no slot.
        ("I drive a VW Golf.", "My car's Bluetooth stopped working."),
        ("My manager is Sarah.", "My boss's OK with me leaving early on Fridays."),
        ("My manager is Sarah.", "My manager's Australian, so the jokes are relentless."),
        ("My partner is Alex.", "My wife is an NHS nurse."),
        ("I work at Barclays.", "My company's a Google partner so we get free training."),
        ("My laptop is a MacBook Air.", "My laptop's Windows 11 now, don't ask."),
        ("My car is a Ford Focus.", "My car's a 2015 model, 1.6 diesel."),
        # "New X is Y" fills no slot (whose new one is unsaid); "My new X is Y" not when it
        # is still to come, undecided, someone's, or not a value of the slot's kind.
        ("I have an iPhone 13.", "Gran got a new phone. New phone is a Doro, big buttons."),
        ("I have an iPhone 13.", "Helped Mum set up her phone. New phone is a Samsung A15."),
        ("I have an iPhone 13.", "My new phone is an iPhone 16 in September, hopefully."),
        ("I have an iPhone 13.", "My new phone is an iPhone 16 or a Pixel 9, can't decide."),
        ("I drive a VW Golf.", "My new car is Dad's, he's lending it while he's away."),
        ("My email is jo.smith@gmail.com.", "My new email is Amazon again, ugh, spam."),
        ("My email is jo@gmail.com.", "My new email is jo@company.com, for work stuff."),
        ("I use Neovim.", "My new editor is Hannah, the old one left the publisher."),
        ("I live in Leeds.", "My new flat is in Harrogate, we move in June."),
        ("My main language is Java.", "My main language is English, obviously."),
        ("My job title is Senior Analyst.", "My title is Mrs now, got married!"),
        ("I drive a VW Golf.", "My bike's a Brompton, folds right up."),
        ("I drink oat lattes.", "My usual is a mint tea for work meetings."),
        # Whose new one and whether it is here yet are unsaid: weak evidence.
        ("I drive a VW Golf.", "new car is a Tesla Model 3, delivery is the 28th"),
        (
            "My laptop is a MacBook Air.",
            "sorted out Priya's laptop this morning. new laptop is a Lenovo Yoga",
        ),
        ("I drive a VW Golf.", "my car's a 65 plate"),
        ("I drive a VW Golf.", "I drive a Kia now, the Golf was in for a service."),
        ("I drive a VW Golf.", "I'm driving a Fiat Panda now, picked it up on a trip to Sardinia"),
        ("My salary is £45k.", "moved my salary over to Monzo"),
        ("My rent is £1,200 a month.", "my monthly rent got moved to the 1st"),
        ("I drive a VW Golf.", "my car got moved to the multi-storey car park"),
        ("My GP is Dr Patel.", "My GP got moved to the new surgery on Elm St"),
        ("My usual is a latte.", "switched my drink to a large"),
        ("I'm pescatarian.", "switched the dog to a vegan diet"),
        ("My laptop is a MacBook Air.", "switched Tom's laptop to a ThinkPad, he hated the Mac"),
        ("I drink flat whites.", "the canteen switched to oat milk lattes"),
        ("I'm vegetarian.", "everything at the canteen is vegan now"),
        ("My hair is long.", "my hair is short in my passport photo lol"),
        ("My hair is blonde.", "my hair is green from the chlorine lol"),
        ("I mainly code in Python.", "Go to the gym before work now, feel great"),
        ("I code in Kotlin.", "honestly I only listen to Taylor Swift now"),
        ("I live in London.", "I live in Leeds now, I'm only here till the project wraps"),
        (
            "My laptop is a MacBook Pro.",
            "I'm on a ThinkPad now. It's a loaner till the Mac comes back",
        ),
        (
            "I drive a VW Golf.",
            "I'm driving a Kia Picanto now. Golf's in the body shop till the 20th",
        ),
        # A stand-in told in the past, a term, a bound said by someone.
        ("I drive a VW Golf.", "I drive a Corsa now, it was the only hire car left."),
        ("I work at HSBC.", "I work at Barclays now, the agency said it was a 3 month contract."),
        (
            "I live in Leeds.",
            "I live in Bristol now, we were told it's only till the house is finished.",
        ),
        ("My car is a Ford Focus.", "My car is 12 years old now."),
        # A stand-in whose reason or bound follows it, in the sentence or the next.
        ("I drive a VW Golf.", "I drive a Kia now 🚗 mine's in the body shop till next week"),
        ("I drive a VW Golf.", "I drive a Kia now, borrowed from my brother."),
        ("I drive a VW Golf.", "I drive a Kia now, temporarily."),
        ("I work at Amazon.", "I work at Google now, 6 month fixed-term contract."),
        ("I work at Amazon.", "I work at Google now, on loan from Amazon for six months."),
        ("My manager is Sarah.", "My manager's Priya now, acting manager till they hire someone."),
        ("My manager is Sarah.", "I report to Priya now, my usual boss is off sick."),
        ("I live in Leeds.", "living in london now lol, uni placement till june"),
        ("I drive a VW Golf.", "I drive a Ford Mustang now at weekends, my uncle's."),
        ("I drive a VW Golf.", "I drive a Corsa now, my car's in the garage this week."),
        ("I drive a VW Golf.", "I drive a Corsa now, the Golf's in the garage till Friday."),
        ("I drive a VW Golf.", "I drive a Kia now, got it on loan till Friday."),
        ("My manager is Sarah.", "I report to Tom now, Sarah's on maternity leave."),
        ("My manager is Sarah.", "My manager is Tom now, Sarah is off sick this month."),
        ("My manager is Sarah.", "My manager is Tom now, he's covering this month."),
        ("My phone is an iPhone 15.", "I use a Pixel now, the iPhone is being fixed."),
        ("I work at Deloitte.", "I work at Airbus now, seconded there for a year."),
        # The speaker's own stay in a named place, bounded: what they use there stands in.
        (
            "My gym is PureGym Camden.",
            "My gym is Anytime Fitness now, I'm in Leeds for work till March",
        ),
        # What is ridden is no car; an office or a team moved is where, not whom for; what a
        # place serves is not the speaker's.
        ("I drive a VW Golf.", "I ride a Brompton to work now"),
        ("I ride a Brompton to work.", "Sold my old car, getting a Kia Niro next week."),
        ("I drive a VW Golf.", "I'm riding an e-bike now"),
        ("I work at Deloitte.", "my company moved our whole team to the Birmingham office"),
        ("I work at Deloitte.", "I work at the Leeds branch now."),
        ("My usual is a flat white.", "switched the office coffee to decaf"),
        # A value for work or study beside the speaker's own.
        ("My laptop is a MacBook Air.", "I use a ThinkPad at work now."),
        ("I drink flat whites.", "I drink green tea at work now."),
        (
            "My personal phone is a Pixel 8.",
            "work gave me a galaxy s23, so now i've got 2 phones lol",
        ),
        # A thing's noun ends only the one of its own slot and kind.
        ("I use Spotify.", "swapped my phone for a Pixel 8"),
        ("My phone is an iPhone 14.", "swapped my work phone for a Samsung"),
        ("My bike is a Trek.", "swapped the motorbike for a Ducati Monster"),
        ("My motorbike is a Honda CBR.", "swapped my road bike for a Canyon"),
        # Where or with whom the speaker rides, or a bike that is not theirs.
        ("I ride a Brompton.", "I ride with the Saturday club in Richmond now"),
        ("I ride a Trek.", "I'm riding an exercise bike at physio for my knee"),
        ("I use a ThinkPad at work.", "I use a MacBook Pro at home now"),
        # Ridden as a way about, a routine or someone else's, not the speaker's own.
        ("I ride a Trek.", "I ride the Northern line every day, it's grim"),
        ("I ride a Honda CBR.", "I ride my brother's KTM when he's away"),
        ("I ride a Brompton.", "I ride a Lime bike home from the pub sometimes"),
        ("I ride a Honda CBR.", "I ride my motorbike to work now, parking's a nightmare"),
        # Another one beside the speaker's, named by what makes it so.
        ("I drive a VW Golf.", "swapped the weekend car for a Mazda MX-5"),
        ("I ride a Trek.", "swapped my winter bike for a Ribble"),
        ("I drive a VW Golf.", "I now drive two cars, the Golf and a Transit for work"),
        # A site named by its place, however the sentence ends.
        ("I work at Tesco.", "I work at the Hatfield store now, much closer"),
        ("I work at Deloitte.", "I work at the Leeds office now 😊"),
        # Where the speaker is: a context of study, a stay for a span.
        ("My laptop is a MacBook Air.", "I use a ThinkPad when I'm at uni"),
        ("I drink flat whites.", "I drink chai now, I'm in Mumbai for the month"),
        # What holds only on some days or under a condition is no new usual one.
        ("I work at Tesco.", "I work at the SU bar at uni on Fridays"),
        ("I ride a Trek.", "I ride an old Raleigh when it's icy out"),
        ("My laptop is a MacBook Air.", "I use a ThinkPad while I'm at the office"),
        # The usual one at the menders for a while: what stands in is no new one.
        ("I drive a VW Golf.", "I'm driving a Kia now. The garage has the Golf till next week"),
        ("I drive a VW Golf.", "I'm driving a Kia now. The garage says two more weeks on it."),
        # An idiom rides nothing.
        ("I ride a Trek.", "I'm riding my luck with this knee tbh"),
        ("I ride a Trek.", "i'm riding my luck with this knee tbh"),
        (
            "My gym is PureGym.",
            "My gym is Anytime Fitness now, I'm down in Cornwall for the summer",
        ),
        # "My X's" before anything but a name or an amount of the slot's kind said as
        # holding now is a possessive or a description.
        ("My car is a Ford Fiesta.", "My car's SORN now while I fix the clutch"),
        ("My gym is PureGym.", "My gym's £35 now, they put it up again"),
        ("I'm a nurse.", "My job's WFH now"),
        ("I live in Leeds.", "My home's EPC C now"),
        ("My car is a VW Golf.", "MY CAR'S A WRECK NOW"),
        ("My car is a VW Golf.", "My car's MOT'd, now just need to tax it"),
        # Where "'s" may be "is in", "is at" or "has": a person or a place by name alone.
        ("My manager is Tom.", "My manager's Leeds now, I'm still in London"),
        ("My GP is Dr Patel.", "my GP's Headingley now, they moved surgeries"),
        ("My car is a VW Golf.", "my ride's an Uber now"),
        ("My car is a VW Golf.", "my car's a PCP now"),
        ("My car is a Ford Fiesta.", "My car's a Cat S now, insurance wrote it off"),
        ("My car is a VW Golf.", "My car's Bluetooth stopped working"),
        ("My phone is a Pixel 7.", "My phone's Bluetooth keeps dropping now"),
        ("My laptop is a MacBook Air.", "My laptop's M1, still flies."),
        ("I'm a nurse.", "My job's NHS-funded, so the pension's good."),
        ("My boss is Tom.", "My boss's Leeds-based but I'm in London."),
        ("My manager is Tom.", "My manager's Cambridge-educated now apparently"),
        # A site whose word is capitalised too, after "the", is where, not whom for.
        ("I work at Deloitte.", "I work at the Manchester Branch now"),
        ("I work at Aviva.", "I work at the Norwich HQ now"),
        ("I work at Leeds Beckett.", "I work at the Headingley Campus now"),
        # A site said for some days of each week is no new usual one.
        ("I work at the Leeds office.", "I work at the London HQ two days a week now"),
        ("I work at the Leeds office.", "I work at the Salford site every other Friday now"),
        # Something else moved to a value, or someone else changing what they serve.
        ("I drink flat whites.", "switched the staff room coffee to Kenco, grim"),
        ("I drink tea.", "the hotel manager switched the breakfast tea to Earl Grey"),
        ("My usual is a flat white.", "switched the team coffee order to oat lattes"),
        ("I'm pescatarian.", "moved the toddler onto a vegetarian diet"),
        ("I'm vegetarian.", "put the dog onto a raw food diet"),
        # A new value that lists the old one beside another keeps it.
        (
            "I work at the Leeds office.",
            "I work at the Leeds office and the Bradford site alternate weeks",
        ),
        # A remembered text that says more than one thing of its own: a new value of one
        # slot it states would hide the rest of what it says.
        ("I live in Berlin with my wife and we both work at Siemens.", "I moved to Munich."),
        ("I live in Berlin and work at Siemens as an engineer.", "I moved to Munich."),
        (
            "Hi! I am Sam. I live in Berlin and I mostly write Java at work.",
            "Please call me Samuel from now on.",
        ),
        ("I use VS Code and write Python at work", "I switched to PyCharm"),
    ],
)
async def test_look_alikes_and_texts_saying_more_supersede_nothing(
    engine: MemoryEngine, clock: FixedClock, state: str, later: str
) -> None:
    first = await _say(engine, clock, state)
    second = await _say(engine, clock, later, days=20)
    assert second.decision is not Decision.REPLACE
    assert (await engine.get(first.id)).status is Status.ACTIVE


async def test_ending_the_only_value_still_supersedes_it(
    engine: MemoryEngine, clock: FixedClock
) -> None:
    # A clause after the value is no second item: the Golf was all of it.
    first = await _say(engine, clock, "I drive a VW Golf, it's ancient but reliable.")
    second = await _say(engine, clock, "Sold the Golf last week.", days=20)
    assert second.superseded == [first.id]


@pytest.mark.parametrize(
    ("before", "after", "probe"),
    [
        # Named as who fills the role, at the start of the sentence.
        ("My manager is Sarah.", "Tom is my manager since the reorg.", "Who is my manager?"),
        # A later plan stands in for an earlier one.
        (
            "We're going to Portugal in June.",
            "changed plans, we're going to Greece in June instead",
            "Where are we going on holiday in June?",
        ),
        # "today" dates the start of what holds now; it bounds no passing moment.
        (
            "My cardiologist is Dr Evans.",
            "Saw my new cardiologist Dr Lindqvist today since Evans retired.",
            "Who is my cardiologist?",
        ),
        # Another of the speaker's people in the predicate leaves the subject who it is.
        (
            "My grandfather lives with my aunt in Derby.",
            "Grandpa moved into sheltered housing in Leeds in May.",
            "Where does my grandfather live?",
        ),
        # A side clause's date names nothing of the speaker's change.
        (
            "I work at Deloitte.",
            "My manager quit in January, and I left Deloitte for KPMG a month later.",
            "Where do I work?",
        ),
        # A rival answer to the query, however differently worded.
        (
            "I live in Leicester, near the university, so parking is always a nightmare.",
            "Ended up relocating to Nottingham last month, still got boxes everywhere honestly.",
            "Which city do I live in?",
        ),
        # Someone who left for good is gone from the role they held.
        (
            "I see a physio called Joanne for my back.",
            "Joanne's emigrated so they've booked me in with Rhys at the same clinic.",
            "Who's my physio?",
        ),
        # A household thing named without "my" is the speaker's, not someone called so.
        (
            "My savings are in a Marcus account.",
            "Savings are in Chip now.",
            "Where are my savings?",
        ),
        ("I weigh 92 kg.", "Weight is down to 85 kg now!", "How much do I weigh?"),
        # One thing of the speaker's, however chat names it.
        ("My car is a Ford Fiesta.", "My ride's a Kia Niro now.", "What car do I drive?"),
        ("My car is a Ford Fiesta.", "My motor is a Kia Niro now.", "What car do I drive?"),
        ("My salary is 41k.", "My pay is 47k now.", "What's my salary?"),
        (
            "My piano lessons are on Wednesdays.",
            "Lessons are on Fridays now.",
            "When are my piano lessons?",
        ),
        # A word the speaker writes in lower case is no name, capitalised at the start.
        (
            "I have toast for breakfast every day.",
            "Breakfast is porridge with honey these days.",
            "What do I have for breakfast?",
        ),
        # What a statement opens on, or calls by a name, is its subject in any case.
        ("The cat is on Hill's c/d.", "Cat's on Royal Canin Urinary now.", "What does my cat eat?"),
        (
            "Our cat is called pepper, she eats Whiskas.",
            "Pepper's on Felix now.",
            "What does my cat eat?",
        ),
        # Whose news follows an opening phrase, the clause after it says.
        (
            "My cat Miso only eats Felix pouches, she's unbelievably fussy.",
            "Because of Miso's kidney results the vet has her on Royal Canin renal food now.",
            "What does my cat eat?",
        ),
        # A time word in a clause after the one naming the value says nothing of when it holds.
        (
            "Our broadband is with Virgin Media, it's fine most of the time.",
            "We've gone over to BT Full Fibre, the speed test this morning said 900 Mbps!",
            "Who's our broadband provider?",
        ),
        (
            "I work weekends as a barista at Caffè Nero.",
            "Handed in my apron last week and started at Waterstones, the staff discount is "
            "going to bankrupt me.",
            "Where's my weekend job?",
        ),
    ],
)
async def test_later_answers_in_more_phrasings_come_first(
    engine: MemoryEngine, clock: FixedClock, before: str, after: str, probe: str
) -> None:
    ranked, first, second = await _later(engine, clock, before, after, probe)
    assert ranked[0].record.id == second
    assert first in {m.record.id for m in ranked}


@pytest.mark.parametrize(
    ("before", "after", "probe"),
    [
        (
            "My carrier is Verizon.",
            "Sorry, that was my old carrier, I've been on T-Mobile since last year.",
            "Which carrier am I with?",
        ),
        (
            "My vet is Castle Vets on the high street.",
            "Our vet's Meadowbank Veterinary, they're open Saturdays.",
            "Which vet do I use?",
        ),
        (
            "I live in Leicester, near the university, so parking is always a nightmare.",
            "Ended up relocating to Nottingham last month, still got boxes everywhere honestly.",
            "Which city do I live in?",
        ),
        # A name both say is whom they are about, not the earlier value said again.
        (
            "My daughter Ava is at Oakfield Primary.",
            "Ava's loving Greenbank Academy, her form tutor is great.",
            "Which school does my daughter go to?",
        ),
        # Naming the earlier value is talking about what the query asks, without its noun.
        (
            "I'm a physio at Queen Elizabeth Hospital.",
            "After six years at Queen Elizabeth I've taken a post at the Royal Infirmary.",
            "Which hospital do I work at?",
        ),
        (
            "My laptop is a ThinkPad X1.",
            "Work issued me a MacBook Pro, the ThinkPad is in a drawer.",
            "What laptop do I use?",
        ),
        # A passing moment in another clause bounds nothing of the one naming the value.
        (
            "My physio is Rachel Moss.",
            "ugh, the bus was late this morning. Anyway the new physio, Priya Kaur, is "
            "brilliant with my shoulder",
            "Who's my physio?",
        ),
        # A day that recurs is a value of a schedule, in any case and shape ("Monday
        # evenings", "on Mondays", "every monday").
        (
            "Swimming club is Monday evenings for me.",
            "Switched my swimming club sessions over to Wednesday evenings.",
            "When is my swimming club?",
        ),
        # A question typed on a phone ("’") asks the same.
        (
            "My physio is Rachel Moss.",
            "ugh, the bus was late this morning. Anyway the new physio, Priya Kaur, is "
            "brilliant with my shoulder",
            "Who\u2019s my physio?",
        ),
    ],
)
async def test_of_answers_to_a_question_asking_for_one_value_the_earlier_is_history(
    engine: MemoryEngine, clock: FixedClock, before: str, after: str, probe: str
) -> None:
    """A question that asks for one value holds one answer now: the later rival answer comes
    first, marked latest; the earlier is marked earlier."""
    ranked, first, second = await _later(engine, clock, before, after, probe)
    assert ranked[0].record.id == second and ranked[0].latest is True
    [earlier] = [m for m in ranked if m.record.id == first]
    assert earlier.latest is False


@pytest.mark.parametrize(
    ("before", "after", "probe"),
    [
        (
            "My line manager is Siobhan.",
            "Had my first one-to-one with Kwame, my new manager.",
            "Who is my line manager?",
        ),
        # The role asked about, named with its new holder, is the speaker's.
        (
            "Manager's Olumide, pretty chill guy.",
            "Ugh, the new manager Bartek wants daily standups at 8:30.",
            "Who's my manager?",
        ),
        # "too" in a clause beside the value adds nothing beside the earlier one.
        (
            "I stream music on Spotify.",
            "I'm on Tidal now, and it's cheaper too.",
            "Which streaming service do I use?",
        ),
        (
            "I put 5% of my salary into my pension.",
            "Upped my pension contribution to 8% this month.",
            "How much do I put into my pension?",
        ),
        (
            "I run about 20 km a week.",
            "After the half marathon I upped it to around 40 km a week.",
            "How much do I run per week?",
        ),
        (
            "The product launch is on March 3rd.",
            "The product launch slipped to April 14th.",
            "When is the product launch?",
        ),
        # What someone can say is no report of someone else's news.
        (
            "I put 5% into my pension at the moment.",
            "Bumped my pension to 8% this tax year, future me can say thanks.",
            "How much do I put into my pension?",
        ),
        # A correction: the earlier answer was never right.
        (
            "I go to PureGym on Mill Road.",
            "Sorry, wrong name earlier - my gym is The Gym Group on Mill Road.",
            "Which gym do I go to?",
        ),
        (
            "My dentist appointment is on the 8th.",
            "Correction, the dentist appointment is on the 11th, I misread the letter.",
            "When is my dentist appointment?",
        ),
    ],
)
async def test_a_rival_answer_said_as_new_sends_the_earlier_one_last(
    engine: MemoryEngine, clock: FixedClock, before: str, after: str, probe: str
) -> None:
    """Newness in the clause that names the rival value ("my new manager", "upped to",
    "slipped to") tells an update from a look-alike: the earlier answer is still recalled,
    marked earlier, after every other memory."""
    ranked, first, second = await _later(engine, clock, before, after, probe)
    assert ranked[0].record.id == second and ranked[0].latest is True
    assert ranked[-1].record.id == first and ranked[-1].latest is False
    assert len(ranked) == 3


@pytest.mark.parametrize(
    ("before", "after", "probe"),
    [
        # Another of the speaker's people, not the one asked about.
        (
            "My manager is Laura.",
            "My mentor is Ibrahim from the platform team.",
            "Who is my manager?",
        ),
        # Someone else's, by name or relation.
        (
            "My cat is called Pickle.",
            "My neighbour's cat, Duchess, keeps sneaking in.",
            "What's my cat called?",
        ),
        (
            "I drive a Skoda Octavia.",
            "Priya's new Audi is gorgeous, she gave me a lift.",
            "What car do I drive?",
        ),
        # A stand-in, a go for fun, some of the time, later on.
        (
            "My phone's a Samsung Galaxy S23.",
            "I'm on my ancient Motorola while it's in for repair.",
            "What phone do I have?",
        ),
        (
            "I ride a Brompton.",
            "Test rode a Cannondale at the bike shop yesterday, very tempting.",
            "What bike do I ride?",
        ),
        (
            "I get the tube to work.",
            "On Fridays I cycle in along the Embankment.",
            "How do I get to work?",
        ),
        (
            "I work at Siemens.",
            "I'll be joining Bosch in the spring, fingers crossed.",
            "Where do I work?",
        ),
        # One more, not one instead.
        (
            "I ride a Triumph Bonneville.",
            "Bought a Specialized gravel bike for the canal paths.",
            "What motorbike do I ride?",
        ),
        # Whom the speaker lives with is no subject of the speaker's home.
        (
            "I rent a flat in Manchester with one flatmate.",
            "My flatmate just moved to Leeds.",
            "Which city do I live in?",
        ),
        # A different thing the query names.
        (
            "I have Spanish class on Mondays.",
            "Choir practice is Wednesdays.",
            "When's my Spanish class?",
        ),
        # A wish.
        (
            "I drive a VW Golf.",
            "The Golf is getting old, I keep looking at Teslas.",
            "What car do I drive?",
        ),
        # Another thing of the speaker's, or another than the query asks about.
        ("My broadband is with BT.", "My bank is Monzo now.", "Who is my broadband with?"),
        (
            "My bank is Barclays and my broadband is with BT.",
            "broadband is Virgin Media now",
            "Which bank am I with?",
        ),
        ("My flatmate is Jess.", "Bills are split with Tom now.", "Who is my flatmate?"),
    ],
)
async def test_a_look_alike_never_buries_the_answer_to_a_one_value_question(
    engine: MemoryEngine, clock: FixedClock, before: str, after: str, probe: str
) -> None:
    ranked, first, _ = await _later(engine, clock, before, after, probe)
    assert (await engine.get(first)).status is Status.ACTIVE
    [kept] = [m for m in ranked if m.record.id == first]
    assert kept.latest is not False
    assert ranked.index(kept) <= 1


@pytest.mark.parametrize(
    ("before", "after", "probe"),
    [
        # One more of its kind, not one instead.
        (
            "My personal phone is an iPhone 15.",
            "Work handed me a Samsung Galaxy A54 as a separate work phone, so now I carry two.",
            "What's my personal phone?",
        ),
        (
            "My own laptop is a Framework 13.",
            "The office issued me an HP EliteBook for work, locked down to hell.",
            "What's my personal laptop?",
        ),
        # Within a context.
        (
            "I support Brentford, season ticket and all.",
            "On FIFA I always play as Real Madrid though.",
            "Which football team do I support?",
        ),
        (
            "My mobile is 07911 204887.",
            "For the etsy shop I use a virtual number, 0161 496 0732.",
            "What's my mobile number?",
        ),
        # Denied.
        (
            "My manager is Ngozi Eze.",
            "Just to be clear, Martin Holloway is not my manager, he just acts like it.",
            "Who is my manager?",
        ),
        (
            "I live in Harrogate.",
            "For the record I am NOT moving to Leeds, whatever my mum says.",
            "Where do I live?",
        ),
        # What the speaker had before.
        (
            "I use a Pixel 7a.",
            "Found my old BlackBerry Bold in a drawer, it still turns on!",
            "What phone do I use?",
        ),
        # Someone else's thing, someone's belief, someone else's news after an emoji.
        (
            "My broadband's with Zen Internet.",
            "Set my gran's broadband up with Plusnet, she's finally online!",
            "Who's my broadband provider?",
        ),
        (
            "I live in Dundee.",
            "My new colleague keeps saying I'm from Aberdeen, I've corrected him three times now.",
            "Where do I live?",
        ),
        (
            "My rent is 820 a month.",
            "My dad keeps telling people I pay 1,000 for this place, he's miles off.",
            "How much is my rent?",
        ),
        (
            "Our dog is called Biscuit, he's a beagle.",
            "Tomasz got a puppy and named it Pretzel 😂 we're doing a playdate on saturday",
            "What's my dog called?",
        ),
        # What a story is about.
        (
            "My cat's called Mochi.",
            "reading my nephew a story about a cat called Garfield, now he wants a fat orange one",
            "What's my cat called?",
        ),
        # A sentence run on after a comma is still about whom the first one named, and a
        # time word, a plan or a stand-in there still bounds it (a review found each lost
        # or buried with a draft that read the run-on sentence on its own).
        (
            "I work at Google.",
            "Ravi left Google, the leaving drinks were on Friday.",
            "Where do I work?",
        ),
        (
            "My gym is PureGym.",
            "Sara quit PureGym for Nuffield, the membership was 70 a month.",
            "Which gym do I go to?",
        ),
        (
            "I live in Leeds.",
            "My sister moved to Glasgow, the flat in Headingley is so quiet now.",
            "Where do I live?",
        ),
        (
            "I drive a Golf.",
            "Going to buy a Tesla in the spring, the Golf has done 120k miles.",
            "What car do I drive?",
        ),
        # Someone named by what they do, a pet, a project and a former pet are no news of
        # the speaker's own, with "my" or without (a review found each put first by a draft
        # that read a subject written in lower case as a thing of the speaker's).
        ("I live in Manchester.", "My trainer moved to Leeds, she loves it.", "Where do I live?"),
        (
            "I go to Park Surgery.",
            "nurse moved to Riverside Practice.",
            "Which surgery do I go to?",
        ),
        ("I use Slack at work.", "project uses Teams now.", "What chat app do I use at work?"),
        (
            "I sleep in the big bedroom.",
            "ferret lives in the big bedroom now.",
            "Which room do I sleep in?",
        ),
        (
            "I have a ginger cat named Marmalade.",
            "my first cat Socks lived to 19, which is wild for a moggy",
            "What's my cat's name?",
        ),
        # Someone who serves the speaker by trade has a life of their own.
        ("I drive a VW Golf.", "The mechanic drives a Tesla.", "What car do I drive?"),
        ("I live in Manchester.", "The landlord is moving to Spain.", "Where do I live?"),
        # Someone else acting on a thing like the speaker's: theirs.
        (
            "My energy supplier is Octopus.",
            "My sister switched the energy to EDF.",
            "Who is my energy supplier?",
        ),
        # A passing moment said before the clause naming a value bounds it.
        (
            "My dentist is Dr Shah at Smile Clinic.",
            "Holiday emergency today, the dentist in Faro is Dr Lopes and he was lovely.",
            "Who is my dentist?",
        ),
        # A name that is also a word names someone however the speaker's fact uses the word.
        (
            "I will always live in York, I love it.",
            "Will moved to Leeds last month.",
            "Where do I live?",
        ),
        (
            "I work at Aldi, stacking the shelves at the crack of dawn.",
            "Dawn's working at Lidl now.",
            "Where do I work?",
        ),
        (
            "I live in Bristol with my partner and a cat.",
            "Cat's moved to Cardiff.",
            "Where do I live?",
        ),
        (
            "I live in Hexham, there's a robin in the garden every morning.",
            "Robin's moved to Durham now.",
            "Where do I live?",
        ),
        # A clause after a change about the earlier value tells why the change is for now.
        (
            "I park at the Woodhouse Lane car park.",
            "Switched to the Merrion Centre car park, the Woodhouse Lane one this week is shut.",
            "Where do I park?",
        ),
        # A clause after a passing moment tells why it passes.
        (
            "I drive a Golf.",
            "Borrowing Dad's Volvo, the Golf is at the garage this week.",
            "What car do I drive?",
        ),
        (
            "My dentist is Dr Patel.",
            "Seeing Dr Lopes in Faro, the filling came out today.",
            "Who is my dentist?",
        ),
    ],
)
async def test_a_look_alike_never_goes_above_the_answer_to_a_one_value_question(
    engine: MemoryEngine, clock: FixedClock, before: str, after: str, probe: str
) -> None:
    ranked, first, _ = await _later(engine, clock, before, after, probe)
    assert (await engine.get(first)).status is Status.ACTIVE
    assert ranked[0].record.id == first
    assert ranked[0].latest is not False


@pytest.mark.parametrize(
    ("before", "after", "probe"),
    [
        # A name written in lower case inside the speaker's fact is still a name when it acts.
        (
            "I work at Boots, I often cover for grace on her days off.",
            "Grace is working at Superdrug now.",
            "Where do I work?",
        ),
        (
            "I work at Greggs, I do the early shift with a lot of hope of promotion.",
            "Hope's working at Costa now.",
            "Where do I work?",
        ),
    ],
)
async def test_someone_elses_news_never_marks_the_speakers_fact_earlier(
    engine: MemoryEngine, clock: FixedClock, before: str, after: str, probe: str
) -> None:
    ranked, first, _ = await _later(engine, clock, before, after, probe)
    assert {m.record.id: m.latest for m in ranked}[first] is not False


async def test_what_someone_who_serves_the_speaker_does_to_their_thing_is_their_news(
    engine: MemoryEngine, clock: FixedClock
) -> None:
    ranked, rent, raised = await _later(
        engine,
        clock,
        "My rent is £1,200 a month.",
        "My landlord put the rent up to £1,300 a month.",
        "How much is my rent?",
    )
    # The landlord is someone, yet raising the speaker's rent is the speaker's news: the
    # raise answers first, the old rent is kept and marked earlier.
    assert ranked[0].record.id == raised and ranked[0].latest is True
    assert {m.record.id: m.latest for m in ranked}[rent] is False
    assert (await engine.get(rent)).status is Status.ACTIVE


async def test_a_change_said_of_someone_else_displaces_nothing(
    engine: MemoryEngine, clock: FixedClock
) -> None:
    ranked, first, _ = await _later(
        engine,
        clock,
        "My dog's called Rolo.",
        "Reading my niece a picture book about a dog called Clifford, now she wants one.",
        "What's my dog called?",
    )
    assert (await engine.get(first)).status is Status.ACTIVE
    assert first in [m.record.id for m in ranked[:2]]


@pytest.mark.parametrize(
    ("state", "later", "probe"),
    [
        # Someone else's news, reported.
        (
            "My sister lives in Dublin.",
            "My sister said her friend just moved to Galway.",
            "Where does my sister live?",
        ),
        ("I work at Siemens.", "Tom told me he's at Bosch now.", "Where do I work?"),
        # What a review or a show is about is not the speaker's.
        (
            "I drive a VW Golf.",
            "Saw a review of the new Kia EV9 on YouTube, now I'm obsessed.",
            "What car do I drive?",
        ),
        # A change of feeling changes no state.
        (
            "I drive a VW Golf.",
            "Went to the Kia dealership on Saturday, now I'm hooked.",
            "What car do I drive?",
        ),
        (
            "I support Arsenal.",
            "Went to a Wrexham game with my cousin, now I'm obsessed with them.",
            "Which football team do I support?",
        ),
        (
            "I support Arsenal.",
            "Binged the Welcome to Wrexham series, honestly I'm a Wrexham fan now lol.",
            "Which football team do I support?",
        ),
    ],
)
async def test_reported_news_something_seen_or_a_new_feeling_changes_nothing(
    engine: MemoryEngine, clock: FixedClock, state: str, later: str, probe: str
) -> None:
    ranked, first, _ = await _later(engine, clock, state, later, probe, days=30)
    assert (await engine.get(first)).status is Status.ACTIVE
    [kept] = [m for m in ranked if m.record.id == first]
    assert kept.latest is not False
    assert first in [m.record.id for m in ranked[:2]]


async def test_a_name_given_elsewhere_ties_an_update_to_its_relation(
    engine: MemoryEngine, clock: FixedClock
) -> None:
    await _say(engine, clock, "My sister Priya is a nurse.")
    oslo = await _say(engine, clock, "My sister lives in Oslo.")
    await _say(engine, clock, "My shoe size is 42.")
    bergen = await _say(engine, clock, "Priya moved to Bergen last month.", days=30)
    ranked = await engine.recall(ALICE, "Where does my sister live?", top_k=5)
    assert ranked[0].record.id == bergen.id
    # Still recalled, never deleted: marked as the earlier value.
    [earlier] = [m for m in ranked if m.record.id == oslo.id]
    assert earlier.latest is False


async def test_someone_elses_news_filed_apart_by_the_extractor_stays_below(
    engine: MemoryEngine, clock: FixedClock
) -> None:
    first = await _say(engine, clock, "I'm learning German.")
    await _say(engine, clock, "My flatmate is learning Italian, keeps practising on me.", 40)
    ranked = await engine.recall(ALICE, "What language am I learning?", top_k=5)
    assert ranked[0].record.id == first.id


async def test_a_change_settled_by_replace_leaves_other_memories_alone(
    engine: MemoryEngine, clock: FixedClock
) -> None:
    garden = await _say(engine, clock, "I love the beer gardens.")
    neat = await _say(engine, clock, "I like my whiskey neat.")
    update = await _say(engine, clock, "These days I take my whiskey with a splash of water.", 30)
    assert update.decision is Decision.REPLACE and update.superseded == [neat.id]
    ranked = await engine.recall(ALICE, "What do I like to drink?", top_k=5)
    marks = {m.record.id: m.latest for m in ranked}
    assert marks.get(garden.id) is None


async def test_a_later_answer_the_rules_leave_apart_is_weighed_by_the_learned_model(
    tmp_path: Path, clock: FixedClock
) -> None:
    """The learned weighing of rival answers (`ordering.rival_order`) puts a later answer
    the rules found no evidence for before the earlier one, unmarked; off, the rules alone
    leave the earlier first."""

    async def ranked_with(ordering: OrderingConfig, name: str) -> list[str]:
        store = await SqliteStore(tmp_path / f"{name}.db").open()
        engine = build_engine(store, clock=clock, config=EngineConfig(ordering=ordering))
        try:
            ranked, _, _ = await _later(
                engine,
                clock,
                "I use LastPass for all my passwords.",
                "after all the breach stuff I'm on Bitwarden now, and it's cheaper too",
                "Which password manager do I use?",
            )
        finally:
            await engine.close()
        assert all(m.latest is None for m in ranked)
        return [m.record.text for m in ranked]

    learned = await ranked_with(OrderingConfig(), "learned")
    rules = await ranked_with(OrderingConfig(rival_order=None), "rules")
    assert learned[0].startswith("after all the breach stuff")
    assert rules[0] == "I use LastPass for all my passwords."
    assert set(learned) == set(rules)


async def _ranked_texts(
    tmp_path: Path,
    clock: FixedClock,
    ordering: OrderingConfig,
    name: str,
    said: list[tuple[str, float]],
    probe: str,
) -> list[ScoredMemory]:
    """What `probe` recalls (top 5) after each of `said` (text, days after the previous),
    in a fresh store with `ordering`."""
    store = await SqliteStore(tmp_path / f"{name}.db").open()
    engine = build_engine(store, clock=clock, config=EngineConfig(ordering=ordering))
    try:
        for text, days in said:
            await _say(engine, clock, text, days=days)
        return await engine.recall(ALICE, probe, top_k=5)
    finally:
        await engine.close()


@pytest.mark.parametrize("gap", [40, 365, 730])
@pytest.mark.parametrize(
    ("before", "after", "probe"),
    [
        # One more of a kind, beside the first.
        ("I have a Kindle for reading.", "I bought an iPad for drawing.", "What devices do I own?"),
        # A second account beside the first.
        (
            "My current account is with Nationwide.",
            "I keep my savings in a Marcus account for the interest.",
            "Where do I bank?",
        ),
        # A name given to something else.
        (
            "My daughter is called Seren.",
            "Named my new sourdough starter Gwen, it just felt right.",
            "What's my daughter called?",
        ),
        # A stand-in while the usual one is away.
        (
            "My cleaner is Maria.",
            "Maria is away so a woman called Sofia is cleaning for us this month.",
            "Who's my cleaner?",
        ),
        (
            "My personal trainer is Dave.",
            "Dave's away so I'm training with Lucy this month.",
            "Who's my personal trainer?",
        ),
        # A relative's second pet, for a question with room for both.
        (
            "My sister has a dog called Max.",
            "My sister got a kitten called Luna.",
            "What pets does my sister have?",
        ),
    ],
)
async def test_the_learned_model_keeps_a_fact_a_later_look_alike_leaves_true(
    tmp_path: Path, clock: FixedClock, before: str, after: str, probe: str, gap: int
) -> None:
    """Each later statement leaves the earlier fact true, however long after it comes: the
    fact stays above the unrelated ones, wherever the later one ranks."""
    filler = ["My shoe size is 42.", "I'm scared of heights.", "I was born in a leap year."]
    said = [(before, 1), *((text, 1) for text in filler), (after, gap)]
    ranked = await _ranked_texts(tmp_path, clock, OrderingConfig(), "kept", said, probe)
    texts = [m.record.text for m in ranked]
    assert texts.index(before) < min(texts.index(text) for text in filler if text in texts)


async def test_a_stand_in_said_to_be_for_good_is_the_current_answer(
    tmp_path: Path, clock: FixedClock
) -> None:
    """ "On leave, so …" reads as a passing stand-in unless the sentence says it is for good."""
    said = [
        ("My dentist is Dr Patel.", 1),
        ("My shoe size is 42.", 1),
        ("Dr Patel's on leave, so I've switched to Dr Khan permanently.", 40),
    ]
    ranked = await _ranked_texts(
        tmp_path, clock, OrderingConfig(), "for-good", said, "Who's my dentist?"
    )
    assert ranked[0].record.text == said[2][0]
