"""Wording cues: what a statement's words allow it to change."""

from __future__ import annotations

import pytest

from adk_memory.extraction.cues import (
    THIRD_PERSON,
    begins_lasting,
    content_words,
    cues,
    dated_event,
    displaced,
    ends,
    is_relation,
    lasting_change,
    negates,
    one_of_several,
    one_off_past,
    person_words,
    present_state,
    relation_names,
    reported_about,
    split_items,
    strip_speaker,
    subject_words,
    taken_back,
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
    ],
)
def test_not_lasting_changes(text: str) -> None:
    assert not lasting_change(text)


def test_ends_names_what_is_gone() -> None:
    assert ends("Sold the Vespa and got a Yamaha.", "I ride a Vespa to work.")
    assert ends("Cancelled Spotify, I'm on Apple Music.", "I listen to music on Spotify.")
    assert not ends("Sold the Vespa.", "I drive a Golf.")  # names nothing the state holds
    assert not ends("I might sell the Vespa.", "I ride a Vespa to work.")  # a maybe


def test_subject_words_name_who_a_statement_is_about() -> None:
    assert subject_words("My best friend Ravi works at Google.") == {"friend", "ravi"}
    assert subject_words("Ravi left Google to start a company.") == {"ravi"}
    assert subject_words("Mum and Dad sold the Cork house.") == {"mother", "father"}
    assert subject_words("Gran moved into a care home.") == {"grandmother"}
    # About the speaker: no subject word.
    for text in (
        "Sold the Vespa.",
        "We're in Munich now.",
        "Finally upgraded to a Pixel.",
        "Monday was a disaster at work.",  # a day, not a person
        # A capital opening a sentence names someone only before a verb.
        "Officially a Londoner now.",
        "New job at Deloitte, starting in March.",
        "Mostly tea these days.",
        "Imagine living in Hawaii.",
    ):
        assert subject_words(text) == frozenset(), text
    for text, who in (
        ("Dana just runs the whole team now.", "dana"),
        ("Tom is at Bosch these days.", "tom"),
        ("Priya finally moved to Bergen.", "priya"),
        ("Kenji went on leave.", "kenji"),
        # Or before a phrase about it: not the speaker's news.
        ("Tom from work moved to Leeds.", "tom"),
        ("Rent in Leeds is crazy now.", "rent"),
        # A name's "has"/"is" contracted, and a short lead-in before the subject.
        ("Callum's joined the police now.", "callum"),
        ("Big news, my sister's moved up to Glasgow!", "sister"),
        ("In March, Tom left Google.", "tom"),
        ("Update: she's in Bergen now.", THIRD_PERSON),
        # A child by their place among siblings.
        ("My eldest switched courses.", "eldest"),
    ):
        assert subject_words(text) == {who}, text
    # A name's possession is no subject, and a lead-in is no longer than two words.
    assert subject_words("Callum's car is a Fiat.") == frozenset()
    assert subject_words("Maisie's quit dance, she's into gymnastics now.") == {"maisie"}
    # A thing of the speaker's acts only when asked for, and never when the speaker is named.
    assert subject_words("My team just hired two interns.", possessed=True) == {"team"}
    assert subject_words("My team just hired two interns.") == frozenset()
    assert subject_words("My partner converted me to matcha.", possessed=True) == frozenset()
    assert subject_words("My landlord is selling the flat.", possessed=True) == {"landlord"}
    # A thing of the speaker's described, not acting, is the speaker's.
    for text in ("My new job is at Stripe.", "My rent's gone up to 1,400.", "My car got stolen."):
        assert subject_words(text, possessed=True) == frozenset(), text


def test_a_possessive_is_no_plural() -> None:
    assert "brother" in content_words("My brother's back from Oz.")
    assert content_words("I shop at Sainsbury's.") == {"shop", "sainsbury"}
    assert content_words("two cats") == {"two", "cat"}


def test_a_one_off_of_the_past_is_not_how_things_turned_out() -> None:
    assert one_off_past("went to the Rangers game with a mate")
    assert one_off_past("Took the Golf to Halfords.")
    assert not one_off_past("Ended up relocating to Tucson in the spring.")
    assert not one_off_past("Since the move I've joined Riverside Striders.")
    assert not one_off_past("They've put me on lates for the foreseeable.")


def test_too_of_degree_adds_nothing() -> None:
    assert not cues("These days I just do Pimsleur, the lessons got too pricey.").additive
    assert not cues("The beard was too itchy in summer.").additive
    assert cues("I'm allergic to cats too.").additive
    assert cues("I have a cat too, called Tom.").additive
    assert cues("My Spanish is decent now, my Italian is too.").additive


def test_a_day_word_dates_a_past_event_and_bounds_a_present_state() -> None:
    assert dated_event("Passed my B1 German exam today!!")
    assert dated_event("We've moved in this morning.")
    assert not dated_event("I'm working at the library this afternoon.")
    assert not dated_event("I'm in Vienna this week.")
    assert not dated_event("I might have passed the exam today.")
    # A moment told in the past is no outcome that lasts.
    assert not dated_event("Took the train to work today.")
    assert not dated_event("Used Bing today, Google was down.")
    assert not cues("It's so different to what I'm used to.").past
    assert cues("I'm used to Vim.").past  # may be either: read as the past, it orders nothing
    assert cues("I used to live in Cork.").past


def test_ago_dates_the_start_of_what_holds_now_or_a_past() -> None:
    assert cues("I lived in Tokyo five years ago.").past
    assert not cues("I started eating fish again a few weeks ago.").past
    assert not cues("Took up bouldering a month ago and I'm hooked.").past


def test_person_words_fold_kin_terms_and_spell_out_groups() -> None:
    assert {"mother", "father"} <= person_words("My parents live in Cork.")
    assert "grandmother" in person_words("My gran lives with my uncle.")


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


def test_items_negation_and_speaker_label() -> None:
    assert split_items("horror and sci-fi") == ["horror", "sci-fi"]
    assert split_items("My knee is bad, I'm on ibuprofen", commas=False) == [
        "My knee is bad, I'm on ibuprofen"
    ]
    assert negates("I don't eat meat") and negates("I no longer drive")
    assert not negates("I drive a Golf")
    assert strip_speaker('User (asked "How are you?"): Fine.') == "Fine."
    assert strip_speaker("User: I live in Berlin.") == "I live in Berlin."


def test_is_relation() -> None:
    assert is_relation("sister") and is_relation("mother") and is_relation("parent")
    assert not is_relation("ravi") and not is_relation("team")


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("Milo", "I have two cats, Milo and Luna."),
        ("golf", "I play tennis and golf."),
        ("Netflix", "I subscribe to Netflix and Disney+."),
        ("Disney+", "I subscribe to Netflix and Disney+."),
        ("chess", "My hobbies are climbing, chess and baking."),
        ("climbing", "My hobbies are climbing, chess and baking."),
        ("pub job", "I work part-time at Tesco and at a pub."),
        ("Korean lessons", "I'm learning Japanese and Korean."),
        ("drums", "I play piano, guitar, and drums."),
        ("motorbike", "I have a car, a van, a motorbike."),
        ("German", "I speak English, French, German."),
        ("tennis", "I play tennis and squash at the club every week."),
        ("cats", "I have a dog and two cats."),
        ("Netflix", "Netflix and Hulu are my streaming services."),
    ],
)
def test_one_of_several_items(value: str, text: str) -> None:
    assert one_of_several(value, text)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        # A clause or an aside after the value is no second item.
        ("Golf", "I drive a VW Golf, it's ancient but reliable."),
        ("VW Golf", "I drive a VW Golf and love it."),
        ("Berlin", "I live in Berlin, in a flat near Görlitzer Park."),
        ("Java", "I mainly program in Java, mostly Spring."),
        ("Vespa", "I ride a Vespa to work."),
        ("cats", "I'm allergic to cats."),
    ],
)
def test_the_only_value_is_not_one_of_several(value: str, text: str) -> None:
    assert not one_of_several(value, text)


def test_ending_one_item_does_not_end_the_state() -> None:
    assert not ends("Sold the motorbike.", "I have a car and a motorbike.")
    assert ends("Sold the Golf.", "I drive a VW Golf, it's ancient but reliable.")


def test_a_correction_names_the_value_it_corrects() -> None:
    assert displaced("actually it's the 14th not the 12th, I misread the letter") == ["12th"]
    for correction, value in (
        ("Small correction from yesterday: I'm a legal secretary, not a paralegal.", "paralegal"),
        ("Actually sorry, it's 1Password I use, not LastPass — I get them muddled.", "LastPass"),
        ("oops, my birthday's the 14th, not the 12th - I typed it wrong.", "12th"),
    ):
        assert displaced(correction) == [value], correction
    for not_a_correction in (
        # Without "it's" it may end only part of a value.
        "Actually I'm not into horror any more.",
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
    ):
        assert begins_lasting(start) and not cues(start).lasting, start
    for moment in ("I'm at a conference in Vienna this week.", "Started a puzzle this afternoon."):
        assert not begins_lasting(moment), moment


def test_what_the_speaker_just_got_is_the_speakers() -> None:
    assert subject_words("my new ThinkPad arrived, loving the keyboard", possessed=True) == set()
    # What a thing of the speaker's does is its own news.
    assert subject_words("My new landlord moved to Spain.", possessed=True) == {"landlord"}
    assert subject_words("My GP moved to Leeds.", possessed=True) == {"gp"}


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


@pytest.mark.parametrize(
    ("text", "about"),
    [
        ("Tom told me he's at Google now.", "Tom"),
        ("My boss was telling me she's leaving in May.", "My boss"),
        ("My sister said her friend just moved to Galway.", "her friend just moved to Galway."),
        ("Apparently Tom moved to Leeds.", "Tom moved to Leeds."),
        ("I heard Dana got the job at Stripe.", "Dana got the job at Stripe."),
        # "he" is not the sister.
        ("My sister said he moved to Bergen.", "he moved to Bergen."),
        ("My sister said she moved to Bergen.", "My sister"),
        # The speaker's own news, or the speaker's own words: no one else's.
        ("The doctor said I'm no longer diabetic.", None),
        ("As I said, I live in Leeds now.", None),
        ("I live in Leeds.", None),
        ("I read a lot of sci-fi now.", None),
        ("I heard back from Bosch, I start there in May.", None),
        ("Google announced layoffs, so I'm at Meta now.", None),
        ("Everyone says Berlin is great but I moved to Munich.", None),
    ],
)
def test_reported_news_is_about_whom_it_reports(text: str, about: str | None) -> None:
    assert reported_about(text) == about


def test_relation_names_are_who_the_speaker_names_and_how_they_relate() -> None:
    assert relation_names("My sister Priya is a nurse.") == (("priya", "sister"),)
    assert relation_names("Ben, my son, starts school.") == (("ben", "son"),)
    assert relation_names("My mum's name is Ann.") == (("ann", "mother"),)
    # Someone else's relation is not the speaker's.
    assert relation_names("I met my friend Tom and his wife Ana.") == (("tom", "friend"),)
    assert relation_names("My mum is great.") == ()
    # A nationality, a title, a greeting or a company is no name.
    assert relation_names("My mum is French.") == ()
    assert relation_names("my colleague Dr Shah") == (("shah", "colleague"),)
    assert relation_names("Hi, my brother Tom.") == (("tom", "brother"),)
    assert relation_names("My boss, Google's CTO, quit.") == ()
    # A relation of several words is read by its head.
    assert relation_names("My team lead Kenji") == (("kenji", "lead"),)
