"""Wording cues: when a statement holds and how sure it is."""

from __future__ import annotations

import pytest

from adk_memory.extraction.cues import (
    begins_lasting,
    cues,
    dated_event,
    holds_several,
    measured_now,
    one_off_past,
    present_state,
    scoped,
    told_as_over,
)


def test_a_one_off_of_the_past_is_not_how_things_turned_out() -> None:
    assert one_off_past("went to the Rangers game with a mate")
    assert one_off_past("Took the Golf to Halfords.")
    assert not one_off_past("Ended up relocating to Tucson in the spring.")
    assert not one_off_past("Since the move I've joined Riverside Striders.")
    assert not one_off_past("They've put me on lates for the foreseeable.")
    # A change of what is had or done lasts; a moment told with the same verb does not.
    assert not one_off_past("Swapped the iPhone for a Pixel.")
    assert not one_off_past("Took up bouldering, I'm hooked.")
    assert not one_off_past("Changed jobs in the spring.")
    assert one_off_past("Changed trains at Crewe.")
    assert one_off_past("Transferred 50 quid to Tom.")


def test_too_of_degree_adds_nothing() -> None:
    assert not cues("These days I just do Pimsleur, the lessons got too pricey.").additive
    assert not cues("The beard was too itchy in summer.").additive
    assert cues("I'm allergic to cats too.").additive
    assert cues("I have a cat too, called Tom.").additive
    assert cues("My Spanish is decent now, my Italian is too.").additive


def test_holding_several_at_once_is_an_addition() -> None:
    assert holds_several("Got my Irish passport through my gran, so I've got both now")
    assert cues("so I've got both now").additive
    assert cues("I kept both of them.").additive
    assert cues("I'm carrying two phones now").additive
    # A count said again changed: "three kids now" after "two kids" holds instead.
    assert not cues("We have three kids now, little Sam arrived in May.").additive
    # Neither a subject of two nor an amount moved.
    assert not cues("We both moved to Leeds.").additive
    assert not cues("I'm down to two coffees now.").additive
    assert not cues("it's -3.25 in both now").additive


def test_a_day_word_dates_a_past_event_and_bounds_a_present_state() -> None:
    assert dated_event("Passed my B1 German exam today!!")
    assert dated_event("We've moved in this morning.")
    assert dated_event("Cancelled my gym membership today.")
    assert not dated_event("I'm working at the library this afternoon.")
    assert not dated_event("I'm in Vienna this week.")
    assert not dated_event("I might have passed the exam today.")
    # A moment told in the past is no outcome that lasts.
    assert not dated_event("Took the train to work today.")
    assert not dated_event("Used Bing today, Google was down.")
    assert not cues("It's so different to what I'm used to.").past
    assert cues("I'm used to Vim.").past  # may be either: read as the past, it orders nothing
    assert cues("I used to live in Cork.").past


def test_where_someone_grew_up_names_a_thing_of_now() -> None:
    """What "the house I grew up in" names is a house; the statement about it is about now."""
    assert present_state("My parents still live in the house I grew up in, in Cork.")
    assert not cues("My mum still lives in the village where I grew up.").past
    assert not cues("I still see the friends I grew up with.").past
    assert cues("I grew up in Leeds.").past
    assert cues("When I was growing up we had a dog.").past


def test_a_state_told_as_over_is_the_past() -> None:
    assert cues("My first car was a Fiat Panda.").past
    assert cues("Our old flat was in Hove.").past
    assert not present_state("My first job was at Tesco.")
    # A passive change, or a past set against now, is no state told as over.
    assert not cues("My car was stolen last night.").past
    assert not cues("My rent was 1,200 but it's 1,350 now.").past
    assert present_state("My phone is an iPhone 14.")
    assert told_as_over("My first car was a Fiat Panda.")
    assert told_as_over("I used to live in Cork.")
    assert not told_as_over("I'm used to Vim.") and not told_as_over("I moved to Berlin in 2019.")


def test_an_occasion_bounds_a_stay_to_a_passing_moment() -> None:
    assert cues("Ravi is in Mumbai for a wedding.").temporary
    assert cues("I'm in Leeds for the festival.").temporary


@pytest.mark.parametrize(
    "text",
    [
        "I'm on my old Motorola while it's in for repair.",
        "Signed up for the Disney free trial to watch one show.",
        "Test drove a Tesla Model 3 just for fun.",
        "They gave me a courtesy car.",
        # The usual one away or unavailable, so another for now.
        "Maria is away so a woman called Sofia is cleaning for us this month.",
        "Dave's away, so I'm training with Lucy.",
        "I'm doing cover for Mr Patel's Year 9 class.",
        "they've made me the cover for ward 7 nights, ugh",
        "Jo was fully booked so I got my hair cut at Supercuts.",
        "Our childminder is off sick, so my mum has the kids.",
    ],
)
def test_a_stand_in_or_a_trial_is_temporary(text: str) -> None:
    assert cues(text).temporary


@pytest.mark.parametrize(
    "text",
    [
        "My brother is away at university in Leeds.",
        "Maria moved away so we found a new cleaner, Sofia.",
        "Dr Patel's on leave, so I've switched to Dr Khan permanently.",
        "My dentist is off sick long-term, so I've moved to a new practice.",
        "The gym's closed down so I switched to PureGym.",
        "My job's full-time now.",
        "I work full-time at Tesco.",
        "Mum is unwell so we moved to Bristol to be near her.",
        # The cover a policy gives for a price is no one covering.
        "Direct Line matched the cover for £455 including protected no-claims.",
        "Switched to Aviva, same cover for about 80 quid less.",
    ],
)
def test_a_lasting_change_or_state_is_no_stand_in(text: str) -> None:
    assert not cues(text).temporary


@pytest.mark.parametrize(
    "text",
    [
        # Someone else's belief the speaker disputes, or advice the speaker was given.
        "My new colleague keeps saying I'm from Aberdeen, I've corrected him three times.",
        "The groomer insisted she's an Australian shepherd.",
        "My dad keeps telling people I pay 1,000 for this place.",
        "Everyone's telling me to watch Shogun next.",
        "My GP recommended I switch to decaf.",
    ],
)
def test_a_belief_or_advice_of_someone_else_is_no_fact(text: str) -> None:
    assert cues(text).hypothetical


def test_an_invitation_in_another_clause_keeps_the_fact() -> None:
    assert not cues("My friend lives in Oslo and keeps telling me to visit.").hypothetical


def test_change_wording() -> None:
    assert cues("I've gone over to sparkling water with lime.").change
    assert cues("Finally kicked the habit, it's nicotine gum for me.").change
    assert not cues("I went over to Tom's for dinner.").change
    # Where something is done is no change from it.
    assert not cues("I can work from home up to 3 days a week.").change
    assert cues("I switched from Vim to VS Code.").change


def test_ago_dates_the_start_of_what_holds_now_or_a_past() -> None:
    assert cues("I lived in Tokyo five years ago.").past
    assert not cues("I started eating fish again a few weeks ago.").past
    assert not cues("Took up bouldering a month ago and I'm hooked.").past


def test_present_state() -> None:
    assert present_state("I drive a VW Golf, it's ancient but reliable.")
    assert present_state("My sister lives in Oslo.")
    assert not present_state("I used to live in Madrid.")
    assert not present_state("Where do I live?")
    assert not present_state("I live in Lyon. I love it.")  # two statements
    assert not present_state("The launch is on May 3rd.")  # not said of the speaker
    assert present_state("The launch is on May 3rd.", personal=False)
    assert not present_state("We're planning to marry in June.")
    assert present_state("We're planning to marry in June.", plans=True)


def test_plans_said_as_plans() -> None:
    assert cues("We're going to Portugal in June.").planned
    assert cues("changed plans, we're going to Greece in June instead").planned
    for maybe in ("We might go to Greece instead.", "Are we going to Greece?"):
        assert not cues(maybe).planned, maybe
    assert not cues("I live in Berlin.").planned


def test_a_start_dated_by_a_time_word_is_lasting_for_ordering_only() -> None:
    for start in (
        "First standup with the search team today.",
        "Saw my new cardiologist Dr Lindqvist today.",
        "Ben started at Kingsway Secondary this week.",
        # A move said ahead of it.
        "We're moving to Leeds next month.",
    ):
        assert begins_lasting(start) and not cues(start).lasting, start
    for moment in ("I'm at a conference in Vienna this week.", "Started a puzzle this afternoon."):
        assert not begins_lasting(moment), moment


def test_ago_after_a_recent_start_or_move_dates_what_holds_now() -> None:
    for start in ("I moved to Munich three weeks ago.", "Switched to decaf a few weeks ago."):
        assert cues(start).lasting, start
    for past in (
        "I lived in Munich two years ago.",
        "I sold my car a month ago.",
        # Years back, or said of the past in other words too: history.
        "I moved to London fifteen years ago.",
        "I moved to London as a student about fifteen years ago.",
        "We moved to Lyon when I was five, a few months after the wedding.",
    ):
        assert cues(past).past, past


def test_set_phrases_with_other_or_second_add_nothing() -> None:
    for phrase in (
        "I switched to Bosch the other day.",
        "We met each other at uni.",
        "I bought a second-hand Golf.",
        "Hold on for a second.",
        "Oh I said second year, I'm actually in third year.",
        "We're on the second floor now.",
        # A place or a partner, not one more of a kind.
        "We're on Elmhurst Avenue now, over on the other side of Fratton.",
        "Our new flat is at the other end of town.",
    ):
        assert not cues(phrase).additive, phrase
    for addition in (
        "I got another cat.",
        "I have a second job at a pub.",
        "I also play squash.",
        "I have one other dog, a beagle.",
    ):
        assert cues(addition).additive, addition


def test_a_hedge_keeps_a_statement_about_now() -> None:
    assert cues("so pescatarian now I guess").hedged
    for maybe in ("I think I might move.", "Probably moving to Leeds?"):
        assert not cues(maybe).hedged, maybe


def test_also_opening_a_message_adds_news_not_a_value() -> None:
    for news in (
        "oh also, I swapped HelloFresh for Gousto, cheaper.",
        "Also, side note: new email address is jamie@proton.me.",
    ):
        assert not cues(news).additive, news
    for addition in (
        "I also play bass.",
        "We got a cat. Also a dog.",
        "Got a second phone.",
        "Also I use Tidal for podcasts.",
        "Also my favourite band is Muse.",
    ):
        assert cues(addition).additive, addition


def test_a_stage_of_life_told_in_the_past_is_the_past() -> None:
    assert cues("Rowing was my whole life at uni, 5am outings every day.").past
    for recalled in (
        "It reminded me of the year I was doing 6:00 starts at the depot. Glad those days are "
        "over!",
        "the summer we were living in Crete was the best",
    ):
        assert cues(recalled).past, recalled
    for now in (
        "I'm on 9 to 5 at the office now, glad those days are over",
        "Days are long at the depot.",
        # What holds now, said beside a stretch recalled.
        "I'm on the early shift now, the year I was doing nights nearly broke me.",
        "Started at Primark last week, where I worked the summer I was doing my A levels.",
        "Started at Accenture on Monday, still in my first days so it's all inductions.",
    ):
        assert not cues(now).past, now
    assert not cues("I'm at uni in Leeds, second year.").past
    assert not cues("I'm enrolled at university in Leeds.").past


def test_a_context_scopes_and_a_cause_does_not() -> None:
    assert scoped("For anything job-related please use my work address instead.")
    assert scoped("With kids in the back we take the Volvo.")
    assert not scoped("With the new express route my commute is down to 30 minutes.")
    assert not scoped("In future please call me Kit.")


def test_a_dated_reading_of_an_amount_is_its_current_value() -> None:
    for reading in (
        "The scales said 84 kg this morning, can't quite believe it.",
        "hit 140kg on deadlift today!!! new pr",
        "New 5k PB this morning: 25:12!!",
    ):
        assert measured_now(reading), reading
    for not_a_reading in (
        "I ran 10k today.",
        "I'm at the gym this morning.",
        "If I hit 80 kg this week I'll celebrate.",
        "Heart rate hit 170 bpm on my run today.",
    ):
        assert not measured_now(not_a_reading), not_a_reading


@pytest.mark.parametrize(
    "text",
    [
        # A plan that did not happen, or a duty.
        "we were meant to be moving to Leeds in June but our buyer pulled out",
        "I was supposed to start at Google this month",
        "We had planned to move to Lewes this spring.",
        # A place or a thing weighed up.
        "looking at Boise because prices here are nuts but all our friends are here.",
        "we're looking at houses in Horsham",
        # What was first wanted, or an attempt that failed, whatever came about instead.
        "We'd originally wanted Sardinia, but the flights were ridiculous, so we're glad with "
        "what we ended up booking.",
        "tried to get a table at hawksmoor instead but fully booked so sticking with the plan",
        # A wish with "would" contracted.
        "I'd love to drop to 30 hours a week once the baby arrives, but we can't afford it.",
        "id love to go part time tbh",
        # Taken back as a joke.
        "I'm officially a Spurs fan now. (Kidding, I'd sooner take up cricket.)",
        "moving to mars jk",
    ],
)
def test_a_plan_that_did_not_happen_or_a_place_weighed_up_is_no_fact(text: str) -> None:
    assert cues(text).hypothetical


@pytest.mark.parametrize(
    "text",
    [
        "Looking at my payslip, I'm on 45k now.",
        "Looking at LinkedIn, I started at Aldi in March.",
        "looking at today's weigh-in I'm down to 80kg now",
        "I moved to Leeds last month.",
        # What something is said to be, a duty now, a plan that happened.
        "Moved to Giffgaff, it's supposed to be way cheaper.",
        "I'm supposed to take 100mg of sertraline now, doctor upped it.",
        "we were supposed to move to Leeds last month and we did, finally",
        "I was supposed to start at Google in May and I finally did, I'm a data analyst there",
        "we were supposed to pay 1100 but our rent is 1200 now",
        "looking at LinkedIn i'm at Sky now",
        "I like to run along the canal before work.",
        "I'd moved to Leeds by then.",
        "I'm not kidding, we moved to Leeds.",
        "joking aside, I left Google last month",
        "Are you kidding me, they've put my rent up to £1,250.",
        "Everyone thought I was joking about Cornwall but here we are, living in Falmouth now.",
        # A request of the listener, or a preference given as the reason for a change.
        "I'd like you to remember I've moved my banking to Monzo.",
        "I cycle to work now, I'd rather get soaked than be packed on that bus.",
        "I tried Oatly and switched to it",
        "My rent is 1,100 now, tried to negotiate but the landlord wouldn't budge",
        "tried to negotiate but the rent is 1,100 now",
    ],
)
def test_what_the_speaker_reads_from_or_a_plan_that_happened_is_a_fact(text: str) -> None:
    assert not cues(text).hypothetical


def test_a_car_lent_while_the_speakers_own_is_mended_is_a_passing_moment() -> None:
    assert cues("The garage has lent me a Vauxhall Corsa while the clutch gets replaced.").temporary
    assert cues("my dad's lending us his Volvo for now").temporary
    assert not cues("The garage replaced the clutch on my MX-5.").temporary
    assert not cues("bought a house in Leeds, my parents lent us part of the deposit").temporary
    assert cues("given up coffee for lent, day 3 and dying").temporary
    assert not cues("moved to York in March while the Leeds house gets sorted for sale").temporary
