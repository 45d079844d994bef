"""Wording cues: who a statement is about."""

from __future__ import annotations

import pytest

from adk_memory.extraction.cues import (
    THIRD_PERSON,
    comma_clauses,
    includes,
    is_relation,
    named_owner,
    names_someone_alone,
    opens_clause,
    person_words,
    relation_names,
    reported_about,
    split_conjoined,
    stated_things,
    subject_words,
)


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
        # A negation or a quantifier opening a sentence is no one.
        "Not with Virgin anymore, went with a local fibre company called Zzoomm.",
        "All sorted with the new flat now.",
        # The speaker's own days: a time, a greeting, their work or life and where it is.
        "Lunchtime swims at Nuffield Health are a game changer.",
        "Greetings from rainy Manchester, as usual.",
        "Work at Accenture is hectic this quarter.",
        "Life in Austin is great, breakfast tacos every morning.",
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
        # Work acting is the employer.
        ("Work moved everyone to Android.", "work"),
        # A name's "has"/"is" contracted, and a short lead-in before the subject.
        ("Callum's joined the police now.", "callum"),
        ("Big news, my sister's moved up to Glasgow!", "sister"),
        ("In March, Tom left Google.", "tom"),
        ("Update: she's in Bergen now.", THIRD_PERSON),
        # A child by their place among siblings.
        ("My eldest switched courses.", "eldest"),
    ):
        assert subject_words(text) == {who}, text
    # Someone of a relation's is neither the relation nor the speaker's own relation.
    assert subject_words("So my sister's friend moved to Bergen.") == {"sister", "friend"}
    assert subject_words("My brother's wife left Google.") == {"brother", "wife"}
    assert subject_words("My sister's ex moved to Leeds.") == {"sister", "ex"}
    assert subject_words("My sister's moved to Glasgow.") == {"sister"}
    assert subject_words("Sara's dad left the BBC last year.") == {"sara", "father"}
    assert subject_words("Sara's dad and I went fishing.") == frozenset()
    # A title, a surname, an adverb or a date before the name; someone's or anyone's relation.
    for text in (
        "Dr Ravi Shah left Google.",
        "Ravi Shah left Google.",
        "Sadly Ravi left Google.",
        "In March Ravi left Google.",
        "By the way Ravi left Google.",
    ):
        assert subject_words(text) == {"ravi"}, text
    assert subject_words("Her husband sold the Golf.") == {"husband", THIRD_PERSON}
    assert subject_words("A colleague left Google for Meta.") == {"colleague", THIRD_PERSON}
    assert subject_words("The boss left Google.") == {"boss"}
    assert subject_words("My mates switched to Tidal.") == {"mate"}
    assert subject_words("Finally upgraded to a Pixel.") == frozenset()
    # A name's possession is no subject, and a lead-in is no longer than two words.
    assert subject_words("Callum's car is a Fiat.") == frozenset()
    # Asked for a thing that acts, it is theirs.
    assert subject_words("Priya's new Audi is gorgeous.", possessed=True) == {"priya"}
    assert subject_words("Maisie's quit dance, she's into gymnastics now.") == {"maisie"}
    # A thing of the speaker's acts only when asked for, and never when the speaker is named.
    assert subject_words("My team just hired two interns.", possessed=True) == {"team"}
    assert subject_words("My team just hired two interns.") == frozenset()
    assert subject_words("My partner converted me to matcha.", possessed=True) == frozenset()
    assert subject_words("My landlord is selling the flat.", possessed=True) == {"landlord"}
    # A thing of the speaker's described, not acting, is the speaker's.
    for text in ("My new job is at Stripe.", "My rent's gone up to 1,400.", "My car got stolen."):
        assert subject_words(text, possessed=True) == frozenset(), text


@pytest.mark.parametrize(
    ("text", "who"),
    [
        # The speaker named inside the subject's phrase: the subject is still someone else.
        ("Ravi from my team left Google.", {"ravi"}),
        ("Ravi who sits next to me left Google.", {"ravi"}),
        ("Tom, who I live with, switched to Tidal.", {"tom"}),
        ("Jo (my flatmate) switched to Monzo.", {"jo"}),
        ("My colleague who sits next to me left Google.", {"colleague"}),
        # Another of the speaker's people after a preposition is not the speaker.
        ("My grandmother lives with my uncle in Leicester.", {"grandmother"}),
        # Some of a group, people the speaker does not relate to, and a group.
        ("One of my friends left Google.", {"friend", THIRD_PERSON}),
        ("Most of my mates switched to Tidal.", {"mate", THIRD_PERSON}),
        ("Everyone I know switched to Tidal.", {THIRD_PERSON}),
        ("The new guy left Google.", {THIRD_PERSON}),
        ("The whole office switched to Tidal.", {"office"}),
        # A short sentence or a longer marker before the subject.
        ("Crazy week. Ravi left Google.", {"ravi"}),
        ("Guess what? Tom moved to Leeds.", {"tom"}),
        ("By the way, Ravi left Google.", {"ravi"}),
        # After an interjection, a lower-case name; asides, places and counts of people.
        ("lol ravi left google", {"ravi"}),
        ("Crazy week. ravi left google", {"ravi"}),
        ("Ravi, bless him, left Google.", {"ravi"}),
        ("Ravi over in accounts left Google.", {"ravi"}),
        ("The lads next door switched to Tidal.", {THIRD_PERSON}),
        ("Two people I work with left Google.", {THIRD_PERSON}),
        # Names of more shapes, and relations as people write them.
        ("Mary-Jane left Google.", {"mary-jane"}),
        ("O'Brien left Google.", {"o'brien"}),
        ("Zoë left Google.", {"zoë"}),
        ("JJ left Google.", {"jj"}),
        ("My bf switched to Tidal.", {"boyfriend"}),
        # What the speaker got someone is theirs.
        ("Got my mum a Samsung A54 for her birthday.", {"mother"}),
        ("Bought a Polo for my daughter.", {"daughter"}),
        # Someone of the speaker's moved by a third party is the news of theirs.
        ("The surgery has just moved my husband onto Dr Mensah's list.", {"husband"}),
        ("work transferred my wife to Leeds", {"wife"}),
        ("they moved my wife and me to Leeds", set()),
        ("Work transferred my husband to Bristol, so we've all moved down there.", set()),
        ("The surgery moved me onto Dr Khan's list.", set()),
        # Written without capitals or all in capitals.
        ("ravi left google last week", {"ravi"}),
        ("so tom cancelled spotify", {"tom"}),
        ("sara's dad left the BBC", {"sara", "father"}),
        ("RAVI LEFT GOOGLE", {"ravi"}),
        # A twin is a relation; where someone is now, after "'s".
        ("My twin gets called Bea by everyone.", {"twin"}),
        ("Chloe's up in Glasgow now, she got the lecturer job.", {"chloe"}),
        # Where they are from the speaker makes it no news of the speaker's.
        ("Ellie's back in London now, three stops from me.", {"ellie"}),
        ("Tom's back in Leeds.", {"tom"}),
        ("Mum's off to Spain for good.", {"mother"}),
        # What someone or something is doing or how much of theirs moved, after "'s".
        ("Tom's driving a Tesla Model 3 now.", {"tom"}),
        ("Bruno's down to 29kg after the diet.", {"bruno"}),
        ("The dog's down to 29kg now.", {"dog"}),
        ("the cat's back home", {"cat"}),
        # A clause or phrase before the main one, closed by a comma: the main one's subject.
        ("Because of his knee, Tom quit tennis.", {"tom"}),
        ("Though Ravi left Barclays, he still lives in Dublin.", {THIRD_PERSON}),
        ("Although Sara hated it, she moved to York.", {THIRD_PERSON}),
        ("Until March, my brother lived in Leeds.", {"brother"}),
        ("Despite the weather, Mum drove to York.", {"mother"}),
        ("Within a week, Priya had moved to Bergen.", {"priya"}),
        # The speaker only in a second verb phrase of the same subject: still theirs.
        ("dad finally upgraded to a Pixel 8 and keeps ringing me about it", {"father"}),
        ("My friend lives in Oslo and keeps telling me to visit.", {"friend"}),
        ("Tom switched to Tidal and says I should too", {"tom"}),
        ("my sister moved to Leeds and asked me to feed her cat", {"sister"}),
    ],
)
def test_someone_else_is_the_subject_whatever_stands_around_them(text: str, who: set[str]) -> None:
    assert subject_words(text) == who


@pytest.mark.parametrize(
    "text",
    [
        # The speaker in the predicate, or among the subjects: the speaker's news.
        "Ravi sold me his old bike.",
        "Tom and I moved to Leeds.",
        # "and" going on with the speaker, a thing of theirs, a gift to them, or a second verb
        # that acts on them rather than only talking to them.
        "My partner and I moved to Leeds.",
        "Tom sold his car and my bike.",
        "Mum got a new iPhone and gave me her old Pixel.",
        "the company restructured and moved me to the Leeds office",
        "my brother got a Tesla and sold his Golf to me for a grand",
        "my wife got a job in Bristol and moved us all down there in May",
        "My boss emailed and told me I'm moving to the Leeds office from Monday",
        "weekend was lovely, fish and chips after. back to reality though - I'm deputy head now",
        # Naming who fills a role of the speaker's.
        "Tom is my manager since the reorg.",
        "The company moved me to the Leeds office.",
        "Everyone left, so I'm at Meta now.",
        # What the speaker got for themselves, or for themselves and someone else.
        "Got a new phone for my birthday.",
        "Got my wife and me new phones.",
        # A sentence of the speaker's before someone else's.
        "Sold the Golf. Ravi bought it.",
        # Pronouns, possessives and question words are no names.
        "We have a hamster.",
        "My savings are with U.S. Bank.",
        "Where does Ravi work?",
        # Chat words and stretched words are no names.
        "tbh left google",
        "ngl switched to tidal",
        "sooo left google",
        # Written without capitals, the speaker's own news.
        "just moved to munich",
        "i left google last week",
        "work moved me to leeds",
        # A thing of the speaker's opening a chat message is nobody's name.
        "rent is 950 a month for the two bed",
        "Rent went up to 1,400.",
        "Salary is 50k now.",
        "Rent's up to 1,400.",
        # A clause or phrase before the speaker's own: "Because of Mum's health" names no one.
        "Because of Mum's health I've moved back to Nottingham.",
        "Because Tom moved out, I have the flat to myself.",
        "Because Tom moved out I have the flat to myself.",
        "Because my wife got a job in Leeds we moved there.",
        # A clause of the speaker's own before someone else's: the speaker's news too.
        "Although I left Barclays, Tom still works there.",
    ],
)
def test_the_speakers_own_news_has_no_other_subject(text: str) -> None:
    assert subject_words(text) == frozenset()


def test_someone_who_serves_the_speaker_by_trade_is_someone() -> None:
    assert subject_words("The mechanic drives a Tesla.") == frozenset({"mechanic"})
    assert subject_words("landlord is moving to Spain") == frozenset({"landlord"})
    assert subject_words("Our cleaner retired last month.") == frozenset({"cleaner"})


def test_person_words_fold_kin_terms_and_spell_out_groups() -> None:
    assert {"mother", "father"} <= person_words("My parents live in Cork.")
    assert "grandmother" in person_words("My gran lives with my uncle.")
    # News of the kids is news of a son or a daughter.
    assert {"son", "daughter"} <= person_words("We've moved the kids to St Mary's.")
    assert "son" in person_words("Our children love it there.")


def test_a_group_includes_its_members_and_no_one_else() -> None:
    assert includes(subject_words("The kids love it there."), frozenset({"son"}))
    assert not includes(subject_words("My sister's friend moved."), frozenset({"sister"}))


def test_is_relation() -> None:
    assert is_relation("sister") and is_relation("mother") and is_relation("parent")
    assert not is_relation("ravi") and not is_relation("team")


def test_what_the_speaker_just_got_is_the_speakers() -> None:
    assert subject_words("my new ThinkPad arrived, loving the keyboard", possessed=True) == set()
    # What a thing of the speaker's does is its own news.
    assert subject_words("My new landlord moved to Spain.", possessed=True) == {"landlord"}
    assert subject_words("My GP moved to Leeds.", possessed=True) == {"gp"}


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
        # A pronoun reporting after a clause is an aside of the sentence's own subject.
        (
            "My eldest switched courses, she's doing pharmacology now, she reckons it suits her.",
            "My eldest switched courses, she's doing pharmacology now, she",
        ),
        ("Saw Tom yesterday, he said he's at Google now.", "Saw Tom yesterday, he"),
        # Heard from someone: the clause says whose news it is.
        ("Heard from Ravi that he left Google.", "Ravi"),
        ("I heard from my sister that Tom moved to Leeds.", "Tom moved to Leeds."),
        ("Heard from Bosch, I start there in May.", None),
        ("Heard from Ravi he left Google.", "Ravi"),
        ("Heard Ravi left Google.", "Ravi left Google."),
        ("Looks like Ravi left Google.", "Ravi left Google."),
        ("Can't believe I got the job.", None),
        # The speaker's own news, or the speaker's own words: no one else's.
        ("The doctor said I'm no longer diabetic.", None),
        ("As I said, I live in Leeds now.", None),
        ("I live in Leeds.", None),
        ("I read a lot of sci-fi now.", None),
        ("I heard back from Bosch, I start there in May.", None),
        ("Google announced layoffs, so I'm at Meta now.", None),
        ("Everyone says Berlin is great but I moved to Munich.", None),
        # What someone can or will say reports no news; what a label said does.
        ("Bumped my pension to 8% this year, future me can say thanks.", None),
        ("Switched to Octopus, my bank balance will say thanks.", None),
        ("The pharmacy label said 100mcg.", "100mcg."),
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


def test_split_conjoined_parts_clauses_whose_subjects_may_differ() -> None:
    assert split_conjoined("The gym closed so I joined PureGym.") == (
        "The gym closed",
        "I joined PureGym.",
    )
    assert split_conjoined("Ravi left Google, I'm so jealous.") == (
        "Ravi left Google",
        "I'm so jealous.",
    )
    assert split_conjoined("Tom left Deloitte and I took over his clients.") == (
        "Tom left Deloitte",
        "I took over his clients.",
    )
    # "so" intensifying is no conjunction.
    assert split_conjoined("I'm so jealous.") == ("I'm so jealous.",)
    assert split_conjoined("tesla arrived. sold the golf") == ("tesla arrived.", "sold the golf")
    assert split_conjoined("pixel arrived, sold the iphone") == ("pixel arrived", "sold the iphone")
    # An aside is no clause of its own.
    assert split_conjoined("Tom, who I live with, switched to Tidal.") == (
        "Tom, who I live with, switched to Tidal.",
    )
    # "and then" goes on with what happened next.
    assert split_conjoined("My dad reads the Telegraph and then rings me about it.") == (
        "My dad reads the Telegraph",
        "rings me about it.",
    )


@pytest.mark.parametrize(
    ("text", "alone"),
    [
        ("Ravi?", True),
        ("Big Dave -", True),
        ("My sister:", True),
        ("Mum -", True),
        ("Tom Jones?", True),
        ("Update -", False),
        ("Big news:", False),
        ("Crazy week.", False),
        ("Finished Middlemarch!", False),
        ("Sooo", False),
        ("Ravi left Google.", False),
    ],
)
def test_someone_named_alone_before_their_news(text: str, alone: bool) -> None:
    assert names_someone_alone(text) is alone


@pytest.mark.parametrize(
    ("text", "owner"),
    [
        ("Emma's rent went up to 1500 this month.", "emma"),
        ("Priya's new Audi is gorgeous.", "priya"),
        ("My rent went up to 1500.", None),
        ("The rent went up to 1500.", None),
        ("Sorry's not enough.", None),
    ],
)
def test_a_named_persons_thing_is_theirs(text: str, owner: str | None) -> None:
    assert named_owner(text) == owner


def test_a_clause_before_someone_elses_news_leaves_it_someone_elses() -> None:
    # No comma closes the clause and the speaker is no subject after it.
    assert subject_words("Because Tom needed a car he bought a Tesla.") != frozenset()
    # The speaker named in an aside of someone else's clause makes it no less theirs.
    said = "Though Ravi, who I work with, left Barclays, he still lives in Dublin."
    assert subject_words(said) != frozenset()
    said = "Though Tom (my flatmate) left Barclays, he still lives in Dublin."
    assert subject_words(said) != frozenset()


def test_after_an_opening_phrase_its_clause_says_whose_news_it_is() -> None:
    assert subject_words("Because Tom needed a car he bought a Tesla.") == {"tom"}
    said = "Because of Miso's kidney results the vet has her on Royal Canin renal food now."
    assert subject_words(said, possessed=True) == {"miso"}
    # Where the clause names no one, the opening word still marks it as no one's own.
    assert subject_words("Because of it prices went up.") == {"because"}
    assert opens_clause("because")
    assert not opens_clause("ravi")
    # The speaker after it: the speaker's news.
    assert subject_words("Because of Mum's health I've moved back to Nottingham.") == frozenset()


def test_someone_doing_something_with_a_name_is_the_subject() -> None:
    assert subject_words("Ava's loving Greenbank Academy") == {"ava"}
    assert subject_words("Monday's meeting moved to Tuesday.") == frozenset()


def test_comma_clauses_split_where_a_clause_with_a_subject_of_its_own_starts() -> None:
    said = "We've gone over to BT Full Fibre, the speed test this morning said 900 Mbps!"
    assert comma_clauses(said) == (
        "We've gone over to BT Full Fibre",
        "the speed test this morning said 900 Mbps!",
    )
    # An aside and a noun phrase are no clauses of their own.
    for said in (
        "Tom, the guy from work, moved to Leeds.",
        "Ravi, the one who sits next to me, left Google.",
        "I moved to Leeds, the city of my birth.",
    ):
        assert comma_clauses(said) == (said,)


def test_what_brought_a_change_about_is_no_subject() -> None:
    said = "since the reorg my teammate Kofi reports to Hamish Grant now"
    assert subject_words(said) == {"teammate", "kofi"}
    assert subject_words("After the move my wife started at Google.") == {"wife"}
    assert subject_words("After my wife left, I moved to Leeds.") == frozenset()
    assert subject_words("Since the accident Dad can't drive, so Mum does.") == {"father"}


def test_a_report_after_a_clause_is_an_aside_of_its_subject() -> None:
    said = "Dad finally gave up on the Defender and bought a RAV4, says his back is thanking him."
    about = reported_about(said)
    assert about is not None and subject_words(about) == {"father"}
    assert reported_about("My sister said her friend just moved to Galway") == (
        "her friend just moved to Galway"
    )
    # A reporter described by a relative clause is a person, not a clause of its own.
    said = "Tom's wife, who retired last year, says he's moving to Leeds"
    assert reported_about(said) == "he's moving to Leeds"


@pytest.mark.parametrize(
    ("text", "things"),
    [
        ("My bank is Barclays and my broadband is with BT.", ("bank", "broadband")),
        ("broadband is Virgin Media now", ("broadband",)),
        ("Savings are in Chip now", ("savings",)),
        ("My new phone's a Pixel 8", ("phone",)),
        ("Our energy supplier is Octopus", ("energy supplier",)),
        ("My flatmate is Jess.", ("flatmate",)),
        # A household noun that only starts a longer one states no value of it.
        ("Savings rates at Marcus are 5% now.", ()),
        ("Tom is my manager", ()),
        ("I bank with Monzo", ()),
        ("My sister's kid is called Oliver", ()),
        ("my nephew's name is Oscar, not Oliver", ()),
        # Where the speaker's own team sits is where the speaker works.
        ("Our team's been on the 7th floor of the Halcyon Building since the move", ()),
    ],
)
def test_the_things_whose_values_a_statement_states(text: str, things: tuple[str, ...]) -> None:
    assert tuple(thing for thing, _ in stated_things(text)) == things


def test_each_thing_comes_with_what_is_said_of_it() -> None:
    assert stated_things("My bank is Barclays and my broadband is with BT.") == (
        ("bank", " Barclays and "),
        ("broadband", " with BT."),
    )


@pytest.mark.parametrize(
    "text",
    ["broadband is Virgin Media, 350 meg", "Weight is down to 85 kg now!", "bins are Fridays"],
)
def test_a_household_noun_opening_chat_names_no_one(text: str) -> None:
    assert subject_words(text) == frozenset()


@pytest.mark.parametrize(
    ("text", "who"),
    [
        # What a later clause with its own subject says of the speaker is no part of it.
        (
            "My sister Carys is a vet, so she's my first call when the cat is ill.",
            {"sister", "cary"},
        ),
        ("Mum moved to Leeds, which is nearer to me.", {"mother"}),
        # Which of them, not who: the speaker's own relation, named.
        ("My main client these days is a fintech called Brightledger.", set()),
        # A participle or the speaker's results opening chat name no one.
        ("done with 5-a-side after the ankle, joined a padel league", set()),
        ("bloods came back and hba1c is down to 39!!", set()),
    ],
)
def test_whose_news_a_chat_statement_is(text: str, who: set[str]) -> None:
    assert subject_words(text) == who
