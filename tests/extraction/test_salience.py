from __future__ import annotations

import pytest

from adk_memory.extraction.salience import salient_part


@pytest.mark.parametrize(
    "sentence",
    [
        "Hey!",
        "Morning.",
        "hi again",
        "Hey Mel!",
        "Thanks, that's really helpful.",
        "haha fair enough",
        "Got a minute?",
        "Where do I live?",
        "What's the capital of Australia?",
        "Can you explain compound interest like I'm five?",
        "Give me a fun fact.",
        "Remind me, what does HTTP 418 mean?",
        "remind me what HTTP 418 means",
        # Requests to keep nothing of the speaker's.
        "Can you remember what I said about my sister?",
        "Could you update the spreadsheet?",
        "Can you call me a taxi?",
        "can you note down the recipe?",
        "Can you call me Monday?",
        "can you call me Captain in this story?",
        "Can you remember whether I'm vegan?",
        "Can you remember my GP's name?",
        "can you change my password?",
        "can you remember I work at Tesco now or did I tell you Asda?",
        "Can you remember I told you about my sister?",
        "can you call me Weds?",
        "Can you remember I'm allergic to something, what was it?",
        # A time asked about is no reason given.
        "What has changed since I last asked?",
        "How long has it been since I was a kid?",
        "Can you remember what I said since we talked?",
    ],
)
def test_conversation_management_is_dropped(sentence: str) -> None:
    assert salient_part(sentence, addressed_to_agent=True) is None


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        ("Did you know I adopted a cat?", "I adopted a cat"),
        ("Guess what, I got the job!", "I got the job"),
        ("I live in Berlin.", "I live in Berlin."),
        ("Long day today, honestly.", "Long day today, honestly."),
        (
            "Help me plan my sister's birthday in Oslo.",
            "Help me plan my sister's birthday in Oslo.",
        ),
        # What a request asks the agent to keep about the speaker is a statement.
        ("actually could you call me Natalia from now on?", "call me Natalia from now on"),
        ("Can you remember that I'm vegan now?", "I'm vegan now"),
        ("Could you note that my sister lives in Oslo?", "my sister lives in Oslo"),
        ("Can you remember my manager is Tom now?", "my manager is Tom now"),
        ("Could you call me Sam instead?", "call me Sam instead"),
        # The reason a question gives, after it.
        ("What should I cook now that I'm vegan?", "now that I'm vegan"),
        ("Any recommendations for Leeds, since we just moved here?", "since we just moved here"),
    ],
)
def test_statements_are_kept(sentence: str, kept: str) -> None:
    assert salient_part(sentence, addressed_to_agent=True) == kept


def test_between_people_questions_about_the_other_are_kept() -> None:
    question = "What made you pick counseling as a career?"
    assert salient_part(question, addressed_to_agent=False) == question
    assert salient_part(question, addressed_to_agent=True) is None
    assert salient_part("Where do I live?", addressed_to_agent=False) is None


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        ("My sister lives in Oslo, have you been?", "My sister lives in Oslo"),
        # Asked with its "is it" left out.
        (
            "I take omeprazole 20mg every morning for reflux, fine to have with coffee?",
            "I take omeprazole 20mg every morning for reflux",
        ),
        ("I'm on sertraline, safe to drink on it?", "I'm on sertraline"),
        # An auxiliary after a comma asks whatever its subject; after a bare "and" only
        # before one, so a statement that drops its "we" goes on.
        (
            "Biscuit's been scratching his ears loads, does a spaniel need ear cleaner?",
            "Biscuit's been scratching his ears loads",
        ),
        (
            "so um we went and got a kitten as well, the kids named her nala, any tips on "
            "letting them meet without drama",
            "so um we went and got a kitten as well, the kids named her nala",
        ),
        ("I started at Google and is it normal to feel lost?", "I started at Google"),
        ("Moved to Leeds last month, any tips for meeting people?", "Moved to Leeds last month"),
        (
            "spin got cancelled so I do boxercise now, what should I eat after?",
            "spin got cancelled so I do boxercise now",
        ),
        # A request in a question's place.
        (
            "dentist is Dr. Haddad on Mill Lane, my checkup's due in march, remind me?",
            "dentist is Dr. Haddad on Mill Lane, my checkup's due in march",
        ),
        ("I moved to Leeds, please tell me about good pubs?", "I moved to Leeds"),
        # Two words are enough for the speaker's own state.
        ("I'm vegan, what are good sources of omega 3?", "I'm vegan"),
        ("I'm 34, is it too late to start gymnastics as an adult?", "I'm 34"),
        # A request for the agent's work in a question's place.
        (
            "bumped my savings to £750 a month since the pay rise, redo the timeline?",
            "bumped my savings to £750 a month since the pay rise",
        ),
        # A bid for advice without a verb.
        ("i play netball on wednesdays, best trainers for court?", "i play netball on wednesdays"),
        ("moved to leeds, good areas for a first flat?", "moved to leeds"),
        # A full stop the sentence split read as an abbreviation's.
        (
            "gp upped me to 100mg of the sertraline last tues. is feeling jittery normal?",
            "gp upped me to 100mg of the sertraline last tues",
        ),
        # A title's full stop ends nothing, nor one before a word that asks nothing.
        ("Dr. Who is on tonight, is it good?", "Dr. Who is on tonight"),
        ("my brother Jr. has autism, any tips?", "my brother Jr. has autism"),
        (
            "I moved here on Tues. have no furniture yet, where can I get cheap stuff?",
            "I moved here on Tues. have no furniture yet",
        ),
        # The speaker's own doing is no request to the agent.
        (
            "I sell candles on etsy and make about £500 a month, do I need to declare it?",
            "I sell candles on etsy and make about £500 a month",
        ),
        # A lead before an asking word keeps its fact whatever it opens with.
        (
            "this year I started at Google as a data analyst, any tips?",
            "this year I started at Google as a data analyst",
        ),
        (
            "my commute is too long, 90 mins each way from Horsham, any tips?",
            "my commute is too long, 90 mins each way from Horsham",
        ),
        # A word that asks comes first, however a request verb reads before it.
        (
            "i'm a pharmacist, check prescriptions all day so how do i stay focused?",
            "i'm a pharmacist, check prescriptions all day",
        ),
        # A shrug after a question is the question's.
        (
            "i moved to leeds last month, where do i register with a gp now i guess?",
            "i moved to leeds last month",
        ),
        # A correction before a request.
        (
            "sorry I told you wrong, it's Thursday not Tuesday, can you update the plan?",
            "sorry I told you wrong, it's Thursday not Tuesday",
        ),
    ],
)
def test_a_statement_before_a_question_is_kept(sentence: str, kept: str) -> None:
    assert salient_part(sentence, addressed_to_agent=True) == kept


@pytest.mark.parametrize(
    "sentence",
    [
        "Where do I live, again?",
        "Should I switch to EE, my contract is up?",
        "Quick one, what time is it?",
        # Two words that frame the question, not the speaker's state.
        "I'm curious, what's the capital of Peru?",
        "I'm back, can you help?",
        "I'm done, what next?",
        "I'm confused, why is my code failing?",
        "I'm torn, which should I pick?",
        "I'm Done, what next?",
        # The terms of a request.
        "for my cv, make it punchier?",
        "sorry to bother you again, check this?",
        "ok last one, draft an email to my boss?",
        # Feedback on the agent's work before a request about it.
        "the link doesn't work, send another?",
        "I wrote a poem, check it?",
        "the numbers look off, recalculate?",
        # About the exchange, not the speaker.
        "that's too long, make it shorter?",
        "I was wondering, find me a hotel in Rome?",
        "here's my code, check it?",
        # A shrug that asks, is about the agent or states nothing that holds now.
        "what is it I suppose?",
        "you're a robot I guess?",
        "so what now I guess?",
        "so I should sell my shares now I guess?",
        "so, it's fine to mix bleach and vinegar I think?",
        "the server's down now i think?",
    ],
)
def test_a_question_that_only_asks_is_dropped(sentence: str) -> None:
    assert salient_part(sentence, addressed_to_agent=True) is None


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        ("so... pescatarian now I guess??", "so... pescatarian now I guess"),
        ("we're homeowners now apparently?", "we're homeowners now apparently"),
    ],
)
def test_a_statement_shrugged_with_a_question_mark_is_kept(sentence: str, kept: str) -> None:
    assert salient_part(sentence, addressed_to_agent=True) == kept


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        # Asked without the question mark chat so often leaves off.
        (
            "my easy runs are sitting around 5:45 per km now lol, should i redo my hr zones",
            "my easy runs are sitting around 5:45 per km now lol",
        ),
        (
            "my daughter does ballet on saturday mornings, how do i do a proper bun, mine fall out",
            "my daughter does ballet on saturday mornings",
        ),
        (
            "i get the 43 bus to work, takes like 50 mins, any podcast recs for that length",
            "i get the 43 bus to work, takes like 50 mins",
        ),
        # A tag question of a few words.
        ("my galaxy s23 keeps overheating when i use maps, normal?", None),
        ("my rent is 1200, too much?", "my rent is 1200"),
        ("I'm on 62k, good or bad?", "I'm on 62k"),
        # A thing's amount is statement enough.
        ("rent's 950, is that a lot", "rent's 950"),
    ],
)
def test_a_statement_before_an_unmarked_or_tag_question_is_kept(
    sentence: str, kept: str | None
) -> None:
    expected = kept if kept is not None else sentence.rsplit(",", 1)[0]
    assert salient_part(sentence, addressed_to_agent=True) == expected


@pytest.mark.parametrize(
    "sentence",
    [
        # A question however it is punctuated, with nothing stated before it.
        "how do i not arrive sweaty",
        "should i switch to a sim only deal",
        # A statement the speaker asks to have confirmed may be wrong.
        "wait my rent's 950, isn't it?",
        "my sister still lives in Oslo, yeah?",
        "I work at Tesco, or Asda?",
        # An option weighed is no statement of what holds.
        "amazon offered me 60k, enough?",
    ],
)
def test_an_unmarked_question_alone_is_dropped(sentence: str) -> None:
    assert salient_part(sentence, addressed_to_agent=True) is None


@pytest.mark.parametrize(
    "sentence",
    [
        # No subject after the auxiliary, or a statement after the asking.
        "I moved to Leeds, which is nice",
        "I'm at KPMG now, should be fun",
        "have you got tips for Leeds, we just moved",
        "Would love a trip to Rome",
        # Chat that drops "I" or "we" before an auxiliary, agreement, a relative clause.
        "did my first marathon last sunday in 3:58",
        "are moving to bristol in march",
        "have my first day at Arup on Monday",
        "Do have a peanut allergy too btw",
        "my wife is vegan, so am i",
        "sold the golf, have the tesla now",
        "my daughter's 19, has her own flat in york now",
        "I work for Sarah, who is the CEO",
        "my wife went vegan in january, so did i lol",
        "left teaching, did it for 10 years, now i work at the council in planning",
        # A question that states something of the speaker's inside, or after a statement too
        # short to keep alone, stays whole.
        "should i mention to the bank we moved to york in march",
        "Am I glad we moved to York",
        "Left Google, should i tell recruiters",
        "pregnant, can i eat brie",
    ],
)
def test_statements_shaped_like_unmarked_questions_are_kept_whole(sentence: str) -> None:
    assert salient_part(sentence, addressed_to_agent=True) == sentence


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        (
            "is it weird that i'm vegan now and still crave bacon",
            "i'm vegan now and still crave bacon",
        ),
        (
            "honestly, can you believe we finally bought a house in Leeds",
            "we finally bought a house in Leeds",
        ),
        ("so, would you believe i'm engaged now", "i'm engaged now"),
        ("did i mention i started at arup last week", "i started at arup last week"),
        ("did u know we moved to york in march", "we moved to york in march"),
        ("is it weird i'm vegan now", "i'm vegan now"),
    ],
)
def test_a_fact_framed_by_asking_how_the_agent_takes_it_is_kept(sentence: str, kept: str) -> None:
    assert salient_part(sentence, addressed_to_agent=True) == kept
