"""Wording cues: what a change ends or moves to."""

from __future__ import annotations

import pytest

from adk_memory.extraction.cues import (
    corrects,
    dated_move,
    displaced,
    ends,
    lasting_change,
    moved_thing,
    said_as_new,
    taken_back,
    told_as_begun,
)


@pytest.mark.parametrize(
    "text",
    [
        "We're in Munich now, still unpacking boxes.",
        "Launch slipped again, now targeting the 20th of May.",
        "Lately I've been ordering IPAs instead of stout.",
        "I don't drink coffee any more.",
        "The company moved us to a co-working space in Shoreditch.",
        "We pushed the wedding back to October.",
        "The new contract bumped me to 68k.",
        "After eight years at St. Mary's I switched to the Royal Infirmary, started this week.",
    ],
)
def test_lasting_changes(text: str) -> None:
    assert lasting_change(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm at a conference in Vienna this week.",  # a passing moment
        "I'm moving to Rome next month.",  # a plan: not yet true
        "I might switch to Linux.",  # a maybe
        "I also started playing squash.",  # an addition
        "I moved to Tokyo when I was a student.",  # the past
        "ugh, my internet keeps dropping",  # no change of a value
        "I live in Berlin.",  # a state, no change
        # One-off events use the verbs of change without changing a value.
        "I stopped taking the antibiotics the doctor gave me.",
        "I finally watched the new Dune movie.",
        "I left the party early.",
        "The mechanic fixed the car's brakes.",
        "I started a new project at work, it's exciting.",
        "I went to the cinema with friends.",
        "I put the kids to bed.",
        "I drove from Berlin to Hamburg.",
        "I don't like horror movies any more than my wife does.",
        "I'm currently reading Dune.",
        "I got a new phone case.",
        # Holding several at once adds, it replaces nothing.
        "got my Irish passport through my grandma finally, so I've got both now",
        "work have given me a Samsung for on-call, so I'm carrying two phones now ugh",
        # What must be done next sets nothing against before.
        "now I have to send it back.",
    ],
)
def test_not_lasting_changes(text: str) -> None:
    assert not lasting_change(text)


def test_ends_names_what_is_gone() -> None:
    assert ends("Sold the Vespa and got a Yamaha.", "I ride a Vespa to work.")
    assert ends("Cancelled Spotify, I'm on Apple Music.", "I listen to music on Spotify.")
    assert not ends("Sold the Vespa.", "I drive a Golf.")  # names nothing the state holds
    assert not ends("I might sell the Vespa.", "I ride a Vespa to work.")  # a maybe
    # An aside that says which one is no second item of a list.
    assert ends(
        "I've swapped PureGym for Third Space in Moorgate, pricier but work chips in half.",
        "I'm a member at PureGym, the one near Aldgate, and pay about £30 a month.",
    )
    # Someone who left for good is gone from the role they held.
    joanne = "I see a physio called Joanne for my back."
    assert ends("Joanne's emigrated so they've booked me in with Rhys.", joanne)
    assert not ends("Joanne's away this week so I'm seeing Rhys.", joanne)
    # Only where the clause ends: resigning from something, or moving away but staying on.
    for text, state in (
        ("Mark resigned as chair of the social club.", "My boss is Mark."),
        ("Dr Jones resigned from the practice committee.", "My GP is Dr Jones."),
        ("Priya resigned herself to doing my taxes by hand.", "My accountant is Priya."),
        ("Dave moved away to Manchester but we still talk every day.", "My best mate is Dave."),
        ("Mr Grant moved abroad but still owns the flat.", "My landlord is Mr Grant."),
    ):
        assert not ends(text, state), text


def test_a_thing_given_away_for_good_is_gone() -> None:
    phone = "My phone is a Pixel 6, the battery is getting tired."
    assert ends("Got an iPhone 15 and gave the Pixel away.", phone)
    assert ends("Donated my Pixel to the charity shop.", phone)
    assert ends("Passed the Pixel on to Dad.", phone)
    # Handed over, given for a while or a purpose, someone else's giving, or what it was
    # given: no end.
    assert not ends("Gave my Pixel to the Apple store for a screen repair.", phone)
    assert not ends("Gave the Pixel to my nephew.", phone)
    assert not ends("Passed the Pixel on to Mum for the weekend.", phone)
    assert not ends("Handed the Pixel down to my son to try out.", phone)
    assert not ends("My sister gave her Pixel away.", phone)
    assert not ends("Gave the Pixel a factory reset.", phone)
    assert not ends("Gave it away.", phone)
    # A former or spare one, tickets for one event, an illness, a person: no end.
    assert not ends("Finally donated my old Pixel, it was sitting in a drawer.", phone)
    assert not ends("gave away my Arsenal tickets, can't make the derby", "I have Arsenal tickets.")
    assert not ends("passed the Covid on to the kids", "I've got Covid.")
    assert not ends("Gave Emma away on Saturday, proudest day of my life.", "My daughter is Emma.")
    assert not ends("donated to Oxfam", "I give to Oxfam monthly.")


def test_a_thing_left_somewhere_is_not_ended() -> None:
    phone = "My phone is a Google Pixel 7a."
    assert not ends("Left my pixel in the taxi, using a spare until it turns up", phone)
    assert not ends("left the keys at mum's", "My keys are on the hook.")
    # Leaving a place or a group is still an end.
    assert ends("I left Google last month", "I work at Google.")


def test_ending_one_item_does_not_end_the_state() -> None:
    assert not ends("Sold the motorbike.", "I have a car and a motorbike.")
    assert ends("Sold the Golf.", "I drive a VW Golf, it's ancient but reliable.")


def test_a_present_denied_for_good_ends_what_it_names() -> None:
    for text, value in (
        ("I'm not doing keto anymore, it's the Mediterranean diet now.", "keto"),
        ("Leo doesn't go to Hillcrest anymore — he's at Oakfield Academy now.", "Hillcrest"),
        ("we're not with British Gas any longer", "British Gas"),
        ("Actually I'm not into horror any more.", "horror"),
    ):
        assert displaced(text) == [value], text
    # Less of something, a comparison, a feeling, or a word that names nothing, ends nothing.
    for text in (
        "I don't drink as much coffee anymore.",
        "I don't see Tom much anymore.",
        "I don't work there anymore.",
        "I'm not staying at Google any longer than I have to.",
        "I don't like Leeds any more than London.",
        "I don't trust Barclays any more.",
        "I can't stay with Vodafone any longer.",
        "I'm not worried about my thesis anymore.",
    ):
        assert displaced(text) == [], text
    assert ends("I'm not doing keto anymore.", "I'm doing keto at the moment, no bread for me.")
    # One item of several is not the state.
    assert not ends("Actually I'm not into horror any more.", "I love horror and sci-fi.")


def test_a_correction_names_the_value_it_corrects() -> None:
    assert displaced("actually it's the 14th not the 12th, I misread the letter") == ["12th"]
    for correction, value in (
        ("Small correction from yesterday: I'm a legal secretary, not a paralegal.", "paralegal"),
        ("Actually sorry, it's 1Password I use, not LastPass — I get them muddled.", "LastPass"),
        ("oops, my birthday's the 14th, not the 12th - I typed it wrong.", "12th"),
    ):
        assert displaced(correction) == [value], correction
    for not_a_correction in (
        # What follows "not" is not what the sentence corrects.
        "Sorry, it's Dr Shah who retired, not Dr Patel.",
        "Sorry, the offsite is with Meta this year, not Google.",
        "Actually the problem was the router, not the laptop.",
        "I mean, it is what it is, not my problem.",
    ):
        assert displaced(not_a_correction) == [], not_a_correction


def test_taking_back_what_was_said_names_it() -> None:
    for text, value in (
        ("Oops, I said ramipril yesterday — it's amlodipine, I got them confused.", "ramipril"),
        ("Did I tell you Verizon? Sorry, that was my old carrier.", "Verizon"),
        ("I said Leeds but I meant Bradford.", "Leeds"),
    ):
        assert taken_back(text) == [value], text
        # Evidence for ordering only: a take-back never supersedes.
        assert displaced(text) == [], text
    assert ends("I said ramipril yesterday - I got them confused.", "I take ramipril daily.")
    # Only beside words that say it was wrong.
    for text in (
        "I said I'd try yoga, and I did!",
        "I told you Leeds was great and it is.",
        # "actually" takes nothing back, and the words must come after what was said.
        "I told you cello, it's actually harder than it looks.",
        "I said I'm a nurse and that's actually correct.",
        "My mistake was telling you. I said Leeds and I live in Leeds.",
        # A person taken back for another would retire every memory naming them.
        "I said Tom earlier — I meant his brother Mark.",
        "I told you about Sam - I meant to call him.",
        "I mentioned Tom, my brother - he is wrong about everything.",
        "I said Google, and my mistake was not mentioning it's part time.",
    ):
        assert taken_back(text) == [], text


_STATES = (
    "I work at Google.",
    "I drive a VW Golf.",
    "I sell vintage clothes on eBay.",
    "I own a house in Leeds.",
    "I have a cat called Luna.",
    "I go to the pub on Fridays.",
)


def test_an_end_said_as_it_happens_names_what_ended() -> None:
    for text, value in (
        ("Ended up cancelling PureGym and joining The Gym Group.", "PureGym"),
        ("Ended up opening an account with Ally and closing the Wells Fargo one.", "Wells Fargo"),
        ("Dad finally got rid of the estate and bought a Skoda.", "estate"),
        ("The SE finally died on me, so I got a Motorola.", "SE"),
        ("Wound up signing for Clapton Rovers after the Hawks folded.", "Hawks"),
        # A name that ceased, given as the reason, needs no article before it.
        ("Since Zenith went under we've been moved over to Lumen Energy.", "Zenith"),
        ("After Castle Vets shut down we registered with Parkside.", "Castle Vets"),
    ):
        assert displaced(text) == [value], text
    # Named, but not for good: a maybe.
    assert not ends("I'm thinking of selling the Golf.", "I drive a Golf.")
    # A gerund outside the frame of an outcome is an activity or a subject, or negated.
    for text in (
        "I'm not quitting Google, don't worry.",
        "No way I'm selling the Golf.",
        "Selling on eBay is my side hustle.",
        "Closing on the house in Leeds took forever but it's ours now.",
        "I finally decided against selling the Golf.",
        # Going under something, closing for the night: no end.
        "Luna went under the bed and won't come out.",
        "After the pub closed we went to Tom's.",
    ):
        assert not any(ends(text, state) for state in _STATES), text
    # A passing moment in an aside bounds nothing in the other part; a maybe colours both.
    guardian = "My news subscription is the Guardian."
    assert ends("Read it in the FT this morning — I get that instead of the Guardian.", guardian)
    assert not ends("Read it in the FT this morning, instead of the Guardian.", guardian)
    assert not ends("If the Leeds job comes through - I'd quit Google.", "I work at Google.")
    assert not ends("This week only — no more coffee for me.", "I drink coffee every morning.")


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("They moved our standup to 10:15.", "standup"),
        ("They've pushed standup to 10:45 so the US folks can join.", "standup"),
        ("Landlord put the rent up to 1,350.", "rent"),
        # Whom or what else a change moves is no thing of a state.
        ("The landlord's bumped us to 1,100.", None),
        ("They moved me to Leeds.", None),
        ("Moved everything to Obsidian.", None),
        ("I moved to Leeds.", None),
    ],
)
def test_moved_thing_is_what_a_change_moves(text: str, thing: str | None) -> None:
    assert moved_thing(text) == thing


@pytest.mark.parametrize(
    "text",
    [
        "new boss Tom Achebe already booked me in for a 1:1",
        "I'm on Bitwarden now",
        "Upped my pension contribution to 8% this month",
        "The product launch slipped to April 14th",
        "got the promotion, Senior Data Analyst as of monday",
        # An amount said as moved.
        "Bruno's down to 29kg after the diet",
        "had to go up to 34 waist",
        "yall im down to 196 this mornin!!",
    ],
)
def test_said_as_new(text: str) -> None:
    assert said_as_new(text)


@pytest.mark.parametrize(
    "text",
    [
        "I use LastPass for all my passwords",
        "My manager is Sandra Kowalski",
        "I drive a Golf",
        # A bound, not a move.
        "I can work from home up to 3 days a week",
        "I can go up to £300 for a good one",
        "Sessions are up to 90 minutes",
        "Up to 90 minutes per session",
        "it goes down to 3 degrees tonight",
        # A passing reading said first is no new value.
        "down to 2 bars of battery, gotta go",
    ],
)
def test_what_always_held_is_not_said_as_new(text: str) -> None:
    assert not said_as_new(text)


@pytest.mark.parametrize(
    "text",
    [
        "Got promoted to senior analyst last week!!",
        "My sister quit accountancy and is retraining as a midwife.",
        "I've gone over to sparkling water with lime, finally kicked the habit.",
        "The launch slipped to May.",
        "Since that documentary we've both gone fully vegan: no dairy, no eggs, the lot.",
        "she's signed for kingsway rovers for next season!!",
        "went with direct line in the end, was way cheaper.",
    ],
)
def test_a_change_or_a_start_told_in_words_is_told_as_begun(text: str) -> None:
    assert told_as_begun(text)


@pytest.mark.parametrize(
    "text",
    [
        # The adjective "new" may be of anything.
        "The motorbike needs new tyres.",
        "My wife loves gardening.",
        # A start alone names nothing it began as.
        "I started a new project at work, it's exciting.",
        "Got promoted today, still can't believe it!",
        "The dentist pushed my appointment back again.",
        "I drive a Golf.",
        "I signed for a parcel from Amazon.",
        "went with my mum to the shops",
        "gone quiet lately",
    ],
)
def test_what_begins_nothing_is_not_told_as_begun(text: str) -> None:
    assert not told_as_begun(text)


def test_upping_an_amount_to_a_value_is_a_lasting_change() -> None:
    assert lasting_change("After the half marathon I upped it to around 40 km a week.")


def test_a_correction_says_the_speaker_had_it_wrong() -> None:
    for text in (
        "I actually meant Harrogate, not that it matters.",
        "Correction, the flight is on the 5th.",
        "Sorry, I told you wrong, it's Wednesdays.",
        "I was looking at the wrong booking, it's the 9th.",
        "Ah my mistake, she's called Bramble.",
        "Wait, I gave you the wrong postcode before, it's LS6 3QT.",
        "Just checked the sticker, it's actually a Dell XPS 15, not the 13.",
        "I got Mum's birthday wrong, it's the 13th of March.",
        "Sorry, typo earlier, the flight number is BA 297.",
        "the landlord is actually Mr. Hughson, I've been saying it wrong for months.",
        "Looked at the frame properly, it's a Trek FX 3. No idea why I thought otherwise.",
    ):
        assert corrects(text), text
    for text in (
        "The cello is actually harder than it looks.",
        "I was wrong about the film, it was great.",
        "Something went wrong with the boiler again.",
        "It's actually Dr Shah who retired, not Dr Patel.",
        # Someone else's mistake, or another sense of the words.
        "The receptionist at Dr. Patel's got my name wrong again.",
        "I had the wrong size delivered, so it's going back.",
        "My son got three answers wrong on his spelling test.",
        "I have to correct 30 exam papers tonight.",
        "Found a typo in the Python docs.",
        "The best thing about Leeds is actually the food, not the nightlife.",
    ):
        assert not corrects(text), text
    # Insisting and apologising for something else are no corrections.
    assert not corrects("I meant it when I said the sound is better on Tidal.")
    assert not corrects("Was on a borrowed iPhone all weekend, my bad for the slow replies.")
    assert not corrects("my bad knee made the stairs a nightmare")
    assert corrects("my bad, the flight is on the 5th")
    assert corrects("I actually meant it's the 5th")


def test_a_guess_after_an_end_leaves_it_an_end() -> None:
    state = "I'm learning Japanese on Duolingo, 200 day streak."
    said = "gave up on Japanese tbh, Korean is clicking way more, probably the k-dramas"
    assert ends(said, state)
    # A maybe before it, or in it, still makes it no end.
    assert not ends("If the Leeds job comes through, I'd quit Google.", "I work at Google.")
    assert not ends("I might quit Google, not sure.", "I work at Google.")


def test_a_change_of_plans_says_a_change() -> None:
    assert lasting_change("Change of plans, I rebooked Tokyo for the 19th because of the strike.")


def test_a_move_to_a_value_a_day_word_dates_is_current_unless_the_day_bounds_it() -> None:
    assert dated_move("They changed my title to Research Lead this week")
    assert dated_move("Switched to oat milk today")
    assert not dated_move("Switched to the late shift for today")
    assert not dated_move("I'm at the library this afternoon")
    assert not dated_move("Went to the cinema today")


def test_an_end_given_up_names_what_it_ends_unless_it_is_denied() -> None:
    assert displaced("I've given up on Duolingo; a tutor works far better.") == ["Duolingo"]
    # An end denied, up to two words before it, ends nothing.
    assert not displaced("never given up on leeds united and never will")
    assert not displaced("never once given up on leeds united")
    assert not displaced("haven't completely given up on spanish, just busy")
    assert not displaced("not given up on spanish, 200 day streak")
    # A decision to be rid of something is no end yet, nor a thing dropped off.
    assert not displaced("we haven't yet decided to cancel netflix")
    assert not displaced("we agreed to drop the golf at the garage on monday for its MOT")
