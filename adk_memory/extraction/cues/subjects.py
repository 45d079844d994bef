"""Who a statement is about: the speaker, someone the speaker names, or whose news it reports."""

from __future__ import annotations

import re

from adk_memory.extraction.cues.lazy import LazyPattern, remembered
from adk_memory.extraction.cues.tense import IRREGULAR, IRREGULAR_PAST, MONTHS
from adk_memory.extraction.cues.words import CAPITALISED_TITLE, TITLE, content_words, singular
from adk_memory.extraction.sentences import mask, split_sentences, unmask
from adk_memory.extraction.slots import GENERIC_VALUES, HEAD_ATTRIBUTE

#: People who serve the speaker by trade: relations like a neighbour ("The mechanic drives
#: a Tesla" is no news of the speaker's car), whose dealings with the speaker's own things
#: are the speaker's news all the same ("The plumber moved it to the 19th").
TRADES = frozenset(
    "landlord landlady mechanic plumber builder electrician cleaner nanny childminder "
    "instructor headteacher receptionist optician pharmacist gardener carer".split()
)
#: Nouns naming a person the speaker relates to (a subject of its own, not an attribute).
RELATION_NOUNS = (
    r"sister|brother|sibling|mum|mom|mother|dad|father|parents|wife|husband|partner|boyfriend|"
    r"girlfriend|fiance|fiancee|son|daughter|kids|children|child|friend|flatmate|roommate|"
    r"housemate|neighbou?r|aunt|uncle|cousin|niece|nephew|grandmother|grandfather|gran|grandma|"
    r"grandpa|grandparents|colleague|coworker|co-worker|boss|manager|team lead|mentor|mates?|"
    r"pal|bestie|bf|gf|bro|sis|hubby|teammate|classmate|client|therapist|coach|tutor|intern|"
    r"trainee|apprentice|"
    # Who serves someone by trade is someone too (`TRADES`).
    rf"{'|'.join(sorted(TRADES))}|"
    # A child by their place among siblings ("My eldest switched courses").
    r"eldest|youngest|oldest|twins?|stepson|stepdaughter|stepmum|stepmom|stepdad|in-laws"
)


#: Kin named without "my" ("Mum moved to York", "a Pixel for Dad's birthday").
KIN_WITHOUT_MY = r"mum|mom|mam|dad|gran|grandma|grandpa|nan"


#: The speaker as a subject or an object.
_SPEAKER = r"i|i'm|i've|i'd|i'll|me|mine|we|we're|we've|us"
#: Words that open a clause or phrase before the main one ("Because of Mum's health I've
#: moved back to Nottingham", "Though Ravi left Barclays, he still lives in Dublin"). Where
#: no comma closes it (`_MARKERS` reads past one that does), one counts as no name only when
#: the speaker is a subject after it: "Because Tom needed a car he bought a Tesla" is still
#: not the speaker's news. A few more are read past only where a comma closes them
#: (`_COMMA_CLAUSE_OPENERS`).
_CLAUSE_OPENERS = frozenset(
    "because although though unless until till whereas whenever despite during within "
    "through throughout across without".split()
)
_COMMA_CLAUSE_OPENERS = _CLAUSE_OPENERS | {"even though", "as", "while", "if", "once", "about"}


def opens_clause(word: str) -> bool:
    """Whether `word` opens a clause or phrase before the main one ("because", "although"):
    `subject_words` returns one as a mark that a statement is not the speaker's news."""
    return word in _CLAUSE_OPENERS


_ADJECTIVES = (
    r"(?:(?:best|old|new|older|oldest|younger|little|big|other|eldest|youngest|twin|ex-?|"
    # Which of them, not who: "my main client", "my current manager", "my usual barber".
    r"main|current|usual|regular|biggest|favou?rite|closest|previous|former)\s+)*"
)
#: Words of chat that open a message and name no one ("tbh left google", "lol ravi left").
_INTERJECTIONS = (
    "lol lmao omg omfg wow whoa ugh argh ooh ah ahh aah welp tbh ngl fwiw imo imho idk smh gah "
    "phew meh nah yup yep yeah yay yo hey hi hiya hello ok okay alright erm er um uh hmm haha "
    "hehe psa ofc obvs def kinda sorta"
).split()
#: "My (best) friend (Ravi) …", "Mum retired …": a statement whose subject is someone else.
#: A short lead-in before a sentence's subject: "Big news, my sister's moved to Glasgow",
#: "In March, Tom left Google", "Update: she's in Bergen now".
#: Or a discourse marker or two without punctuation: "So my sister moved to Bergen",
#: "Anyway Tom left Google", "And then she quit".
_MARKERS = (
    r"(?i:(?:" + "|".join(_INTERJECTIONS) + r"|"
    r"so|and|but|then|now|anyway|anyways|well|oh|also|plus|meanwhile|turns out|"
    r"guess what|btw|fyi|by the way|in other news|on another note|long story short|"
    r"to be honest|believe it or not|[a-z]+ly|yesterday|today|last (?:week|month|year|night)|"
    r"(?:over|at) the weekend|this (?:morning|week|weekend)|"
    rf"in (?:{MONTHS})|"
    # What a change came after: "since the reorg my teammate Kofi reports to Hamish",
    # "Because of Mum's health I've moved back", "because of his knee, Tom quit".
    r"(?:since|after|following|as of|thanks to|because of|due to) "
    r"(?:the|a|an|this|that|my|our|his|her|their|(?-i:[A-Z][a-z]+)'s) "
    r"(?-i:[a-z]+)(?: (?!(?:my|our|his|her|their|i|we)\b)(?-i:[a-z]+))?|"
    # A clause or phrase before the main one, its comma closing it: "Though Ravi left
    # Barclays, he still lives in Dublin" is news of "he", "Because Tom moved out, I have
    # the flat to myself" the speaker's. Not one that names the speaker: "Although I left
    # Barclays, Tom still works there" is the speaker's news too, and "Though Ravi, who I
    # work with, left" closes at no aside.
    r"(?:" + "|".join(sorted(_COMMA_CLAUSE_OPENERS)) + r")"
    rf"\s(?![^,.;:!?()]{{0,60}}?\b(?:{_SPEAKER}|my|our)\b)"
    r"[^,.;:!?()]{1,60},"
    r")[,:]?\s+){1,2}"
)
#: A short sentence before the one that says who: "Crazy week. Ravi left Google", "Guess
#: what? Tom moved to Leeds". Never one that is itself the speaker's news: no first-person
#: word, and no verb opening it ("Sold the Golf. Ravi bought it").
_NOT_THE_SPEAKER = r"(?!(?i:i|i'm|my|me|we|we're|our|us)\b)"
_FRAGMENT = (
    r"(?:(?!(?i:[a-z]+(?:ed|ing)|" + IRREGULAR + r")\b)"
    # Each word starts with a letter, so no two parts of the pattern can take the same
    # apostrophes (a run of them would otherwise be tried every way it splits).
    rf"(?:{_NOT_THE_SPEAKER}[A-Za-z][A-Za-z']*\s+){{0,3}}"
    rf"{_NOT_THE_SPEAKER}[A-Za-z][A-Za-z']*[.!?]+\s+)"
)
_LEAD_IN = (
    rf"^\W*+{_FRAGMENT}?(?:[A-Za-z]+(?:\s+[A-Za-z]+)?\s*(?:[,:!\u2014\u2013]+|\s-)\s+"
    # A heading the colon closes: "Weigh-in at the vet today: Biscuit's down to 11.5 kg".
    r"|[A-Za-z][\w'-]*(?:\s+[\w'-]+){1,5}:\s+)?"
    rf"(?:{_MARKERS})?"
)
#: Someone of a person's, after that person: "'s friend", "'s new boyfriend", "'s ex".
_THEIR_RELATION = rf"'s\s+{_ADJECTIVES}(?P<of>{RELATION_NOUNS}|ex)\b"
#: A verb after a subject, maybe after an adverb.
_VERB = (
    r"(?:(?:[a-z]+ly|just|now|still|also|finally|never|always|already)\s+)?"
    r"(?:is|was|are|were|has|had|have|got|gets|will|would|can|could|does|did|doesn't|didn't|"
    rf"isn't|wasn't|hasn't|won't|can't|[a-z]+(?:s|ed)|{IRREGULAR})\b"
)
#: What may stand between a subject and its verb, the speaker named inside it or not: "Tom
#: (from work) switched", "Tom, who I live with, switched", "Ravi who sits next to me left",
#: "Everyone I know switched", "Ravi from my team left". Its end is where the predicate
#: starts, and only the predicate can make the statement the speaker's own news.
_MODIFIER = (
    r"(?:\s*\([^()]{1,40}\)"
    # An aside between commas: "Tom, who I live with,", "Ravi, bless him,".
    r"|\s*,\s*[^,.;!?]{1,80},(?=\s+" + _VERB + r")"
    r"|\s+(?:who|that)\s+(?:[\w']+\s+){0,5}?[\w']+(?=\s+" + _VERB + r")"
    r"|\s+(?:i|we)\s+(?:know|knew|met|work with|worked with|live with|lived with)\b"
    r"|\s+(?:next door|upstairs|downstairs|down the road|over the road|across the street)"
    r"|\s+(?:(?:over|up|down|out|back)\s+)?(?:from|at|in|on|of|with)\s+(?:[\w']+\s+){0,4}?"
    r"[\w']+(?=\s+" + _VERB + r"))?"
)
#: How many, before people: "Most people I know", "Two people I work with".
_COUNTS = r"one|two|three|four|some|most|many|all|several|a few"
_HOW_MANY = rf"(?:{_COUNTS}|a couple of|lots of|loads of)"
#: Some of a group: "One of my friends", "Most of the team", "Half my mates".
_QUANTIFIER = (
    rf"(?:{_COUNTS}|both|half|a couple|none|a lot|lots|loads)\s+(?:of\s+)?"
    r"(?:my|our|the|his|her|their)"
)
_RELATION_SUBJECT = LazyPattern(
    rf"{_LEAD_IN}(?:(?:my|our|the|(?P<whose>a|an|his|her|their|{_QUANTIFIER}))\s+)?"
    rf"{_ADJECTIVES}(?P<who>{RELATION_NOUNS})(?:s|es)?\b"
    # Someone of theirs: "my sister's friend moved" is neither the sister's news nor a friend's.
    rf"(?:{_THEIR_RELATION})?"
    rf"(?:\s+(?P<name>(?-i:[A-Z][a-z]+)))?(?:\s+and\s+(?:my\s+)?(?P<also>{RELATION_NOUNS})\b)?"
    rf"{_MODIFIER}",
    re.IGNORECASE,
)
#: People the speaker does not relate to, or a group: "The new guy left Google", "Everyone
#: I know switched to Tidal", "The whole office switched", "Some bloke at work sold it".
_PEOPLE_SUBJECT = LazyPattern(
    rf"{_LEAD_IN}(?:{_QUANTIFIER}\s+|{_HOW_MANY}\s+|(?:the|a|an|this|that|some|his|her|their)\s+)?"
    r"(?:(?:whole|entire|new|other|old|same)\s+)*"
    r"(?:(?P<someone>guys?|girls?|lads?|blokes?|m[ae]n|wom[ae]n|lady|ladies|dudes?|people|"
    r"folks|person|everyone|everybody|someone|somebody|nobody|no one|couples?)"
    # A group is also a thing ("Office moved to Leeds" is news of "the Manchester office").
    # A group may be named by what it does: "Half the bridges team moved to Atkins".
    r"|(?:[a-z]+\s+)?(?P<group>office|team|family|department|company|class))\b"
    rf"{_MODIFIER}(?P<predicate>\s+{_VERB})",
    re.IGNORECASE,
)
#: "My team just hired two interns", "Our landlord sold the building": someone or something
#: of the speaker's is the subject, and the speaker is not named again.
_POSSESSED_SUBJECT = LazyPattern(
    rf"^\W*+(?:my|our)\s+{_ADJECTIVES}(?P<what>[a-z][\w-]*)\b(?P<rest>.*)$", re.IGNORECASE
)
#: "My new job is at Stripe", "My rent went up": a thing of the speaker's described, not
#: acting ("My landlord is selling the flat" acts).
_DESCRIBED = LazyPattern(
    r"^(?:\s*(?:'s|'re)|\s+(?:is|are|was|were|has been|have been|became|went|got|feels|looks))\b"
    r"(?!\s+\w+ing\b)",
    re.IGNORECASE,
)
#: "My new ThinkPad arrived": something the speaker just got, a fact of the speaker's ("My
#: new landlord moved to Spain" is the landlord's).
_ACQUIRED = LazyPattern(
    r"^\W*+(?:my|our)\s+(?:brand[- ])?new\s+[\w-]+(?:\s+[\w-]+)?\s+(?:just\s+|finally\s+)?"
    r"(?:arrived|came|turned up|showed up|got delivered|was delivered|is here)\b",
    re.IGNORECASE,
)
#: "My manager is Laura", "My girlfriend's called Chloe": the relation named, not described.
_NAMES_RELATION = LazyPattern(
    r"\s*(?:(?:these days|nowadays|now|at the moment)\s+)?(?:is|'s|was)\s+"
    # "My main client these days is a fintech called Brightledger".
    r"(?:(?:a|an)\s+(?:[\w-]+\s+){0,3}?(?:called|named)\s+|called\s+|named\s+)?(?-i:[A-Z])",
    re.I,
)
#: "She moved to Bergen": someone already spoken of.
_PRONOUN_SUBJECT = LazyPattern(rf"{_LEAD_IN}(?:he|she|they)(?:'s|'re|'ve|'d|'ll)?\b", re.IGNORECASE)
#: What `subject_words` says of a statement whose subject is a third-person pronoun.
THIRD_PERSON = "(someone)"
#: A given name: "Ravi", "Zoë", "Mary-Jane", "O'Brien", "McKenzie", or initials ("JJ").
_NAME = r"(?-i:(?:Mc|Mac|O')?[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+(?:-[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+)?|[A-Z]{2}(?=\s))"
#: "Ravi left Google", "Dana just runs the team", "Tom is at Bosch": a capitalised first word,
#: then a verb or a phrase about it. A capital opening a sentence before anything else names
#: no one: "Officially a Londoner now", "New job at Deloitte", "Imagine living in Hawaii".
#: What follows "'s" (is) when it says what someone or something is: where they are
#: ("Chloe's up in Glasgow now", "Tom's back in Leeds"), what they are doing ("Tom's driving
#: a Tesla now", "Emma's moving to Leeds", "Ava's loving Greenbank Academy"; not "Monday's
#: meeting moved"), an amount of theirs moved ("Bruno's down to 29kg").
_AFTER_IS = (
    r"(?:(?:up|down|over|out|back|away)\s+(?:in|at|with|north|south|there|here)\b"
    r"|off\s+to\b|back\b|home\b|(?:up|down)\s+to\b"
    r"|[a-z]+ing\s+(?:a|an|the|to|for|at|in|on|with|from|his|her|their|back|home|now|out)\b"
    # Or doing something with a name: "Ava's loving Greenbank Academy".
    r"|[a-z]+ing\s+(?-i:[A-Z]))"
)
_NAME_SUBJECT = LazyPattern(
    rf"{_LEAD_IN}(?:(?-i:{CAPITALISED_TITLE})\s+)?(?P<name>{_NAME})"
    # A surname: "Ravi Shah left Google".
    r"(?:\s+(?-i:[A-Z][a-z]+))?"
    rf"{_MODIFIER}(?P<predicate>(?:'s|'ve|'d|'ll)?\s+(?:{_VERB}"
    # Or a phrase about it: "Tom and Ravi moved", "Rent in Leeds is crazy now" (not the
    # speaker's news either way; "Tom and I moved" is).
    r"|(?:from|at|in|on|of|for|and|with)\s"
    # Or, after "'s", what they are (`_AFTER_IS`).
    rf"|(?<='s\s){_AFTER_IS}))"
)
#: "The dog's down to 29kg now", "the cat's back home": a thing or an animal the subject of
#: what it is or does, which is no news of the speaker's own.
_THING_SUBJECT = LazyPattern(
    rf"{_LEAD_IN}(?:the|our|a|an)\s+(?P<thing>[a-z]+)'s\s+{_AFTER_IS}", re.IGNORECASE
)
#: What the speaker got someone: "Got my mum a Samsung A54 for her birthday", "Bought a
#: Polo for my daughter", "Gave my old Golf to my son". The thing is theirs, not the
#: speaker's news (unless the speaker is among them: "Got my wife and me new phones").
_GOT_SOMEONE = LazyPattern(
    rf"{_LEAD_IN}(?:(?:i|we)\s+)?(?:just\s+|finally\s+)?"
    r"(?:got|bought|gave|ordered|sent|gifted|found|picked up|handed down|passed on)\s+"
    rf"(?:(?:my|our)\s+{_ADJECTIVES}(?P<who>{RELATION_NOUNS})\s+(?:a|an|the|some|two|new)\b"
    rf"|(?:[\w'-]+\s+){{1,5}}?(?:for|to)\s+(?:(?:my|our)\s+{_ADJECTIVES}(?P<for>{RELATION_NOUNS})"
    # A parent without "my": "Ordered a Pixel 8 for Dad's birthday".
    rf"|(?P<kin>{KIN_WITHOUT_MY})(?:'s)?)\b)"
    r"(?!.*\b(?:me|myself|us|ourselves|and i)\b)",
    re.IGNORECASE,
)
#: Someone of the speaker's moved by a third party: "The surgery has just moved my husband
#: onto Dr Mensah's list", "school put my son in the top set", "work transferred my wife to
#: Leeds". Their news, not the speaker's (unless the speaker is moved too: "moved my wife
#: and me to Leeds", "transferred my husband to Bristol, so we've all moved down").
_MOVED_SOMEONE = LazyPattern(
    rf"{_LEAD_IN}(?:[\w'-]+\s+){{0,4}}?(?:(?:has|have|had|just|finally|now)\s+|'s\s+)*"
    r"(?:moved|switched|transferred|put|registered|enrolled|signed|upgraded|swapped|changed)\s+"
    rf"(?:my|our)\s+{_ADJECTIVES}(?P<who>{RELATION_NOUNS})\s+"
    r"(?:to|onto|into|on|in|over|up|with|from|across)\b"
    r"(?!.*\b(?:me|myself|us|ourselves|and i)\b)"
    r"(?!.*\b(?:we|we've|we're|we have|all of us)\b[^.;!?]{0,20}?\b(?:moved|relocated|went|"
    r"gone|followed|came|switched|joined)\b)",
    re.IGNORECASE,
)
#: "Sara's dad left the BBC", "Ana's brother moved to Lisbon": someone of a named person's.
_NAMED_KIN_SUBJECT = LazyPattern(
    rf"{_LEAD_IN}(?P<name>(?-i:[A-Z][a-z]+)){_THEIR_RELATION}",
    re.IGNORECASE,
)
#: "Priya's new Audi is gorgeous", "Dan's flight is on the 21st": a thing of a named
#: person's, theirs whoever else the sentence names.
_NAMED_THING_SUBJECT = LazyPattern(
    rf"{_LEAD_IN}(?P<name>{_NAME})'s\s+{_ADJECTIVES}(?:[\w-]+\s+){{1,2}}?{_VERB}",
    re.IGNORECASE,
)
_FIRST_PERSON = LazyPattern(rf"\b(?:{_SPEAKER}|my|our)\b", re.I)
#: The speaker in a predicate: as its subject or object, or what it names as theirs ("Tom gave
#: me his bike", "Ravi sold my car", "Tom is my manager now"); another of the speaker's people
#: after a preposition is someone else again ("My grandmother lives with my uncle in
#: Leicester" is the grandmother's), and so is a place of the speaker's ("my partner's a
#: Newcastle fan, which makes derby day tense in our house").
_SPEAKER_IN_PREDICATE = LazyPattern(
    # Not where the speaker only locates them ("Ellie's back in London, three stops from me").
    rf"(?<!\bfrom )(?<!\bnear )(?<!\bby )\b(?:{_SPEAKER})\b"
    rf"|(?<!\bin )(?<!\bat )\b(?:my|our)\b(?!\s+{_ADJECTIVES}(?:{RELATION_NOUNS})(?:s|es)?\b)"
    r"|(?<!with )(?<!near )(?<!to )(?<!for )(?<!from )(?<!and )(?<!by )(?<!at )(?<!in )(?<!of )"
    r"\b(?:my|our)\b",
    re.IGNORECASE,
)
#: Where a second verb phrase of the same subject begins that only talks to the speaker:
#: "dad finally upgraded to a Pixel 8 and keeps ringing me about it", "Tom switched to Tidal
#: and says I should too" are dad's and Tom's news, though the speaker is the object of the
#: second. Any other verb may act on the speaker ("the company restructured and moved me to
#: Leeds", "my brother got a Tesla and sold his Golf to me"), "and gave me…" hands them
#: something, and "and told me I'm…" tells their news: they go on with the speaker's.
_NEXT_PREDICATE = LazyPattern(
    r",?\s+(?:and|but)\s+(?:(?:then|now|still|also|always|keeps?|kept|won't stop|wont stop)\s+)*"
    r"(?!(?:sent|sends)\s+(?:me|us)\b)"
    r"(?:ring|call|phon|text|messag|email|whatsapp|tell|told|ask|nag|bug|pester|send|sent|"
    r"say|said|reckon|think|thought|want|invit|remind|quiz|beg|warn|urge|moan|brag|boast)"
    r"[a-z]*\b"
    # What it tells of the speaker is the speaker's news ("emailed and told me I'm moving to
    # the Leeds office"); only advice is not ("says I should too").
    r"(?!(?:\s+(?:me|us))?(?:\s+that)?\s+(?:i|i'm|i've|i'll|we|we're|we've|we'll|my|our)\b"
    r"(?!\s+(?:should|could|ought|must|might|need|have to|'d)\b))",
    re.IGNORECASE,
)

#: A clause after a comma with a subject of its own, other than the speaker: what it says of
#: the speaker is no part of the first subject's news ("My sister Carys is a vet, so she's my
#: first call", "Mum moved to Leeds, which is nearer to me").
_OWN_SUBJECT_CLAUSE = LazyPattern(
    r",\s*(?:(?:so|and|but|because|cos|as|though)\s+)?(?:she|he|they|it|that|this|which|who)"
    r"(?:'s|'re|'ve|'d|'ll)?\b",
    re.IGNORECASE,
)


def _speaker_in_predicate(text: str, start: int) -> bool:
    """Whether the speaker is in the predicate that begins at `start`
    (`_SPEAKER_IN_PREDICATE`), read up to a second verb phrase that only talks to them
    (`_NEXT_PREDICATE`) or a clause with a subject of its own (`_OWN_SUBJECT_CLAUSE`)."""
    end = len(text)
    for bound in (_NEXT_PREDICATE, _OWN_SUBJECT_CLAUSE):
        found = bound.search(text, start)
        if found is not None:
            end = min(end, found.start())
    return _SPEAKER_IN_PREDICATE.search(text, start, end) is not None


#: Verb forms that open chat without a subject, never a name: irregular pasts ("went to
#: Leeds"), and past participles where "I'm" or "I've" is dropped ("done with 5-a-side after
#: the ankle", "gone vegan since January").
_VERB_FORMS = frozenset(IRREGULAR_PAST) | frozenset(
    "done gone been seen taken given known gotten begun eaten driven flown written broken "
    "chosen forgotten spoken stolen worn grown thrown shown fallen ridden become swum".split()
)
#: Words that open a sentence without naming anyone ("Finally upgraded", "Sorry I went quiet").
_OPENERS = frozenset(
    "the a an this that these those it its there here so and but or then now just finally "
    "actually honestly lately recently sorry quick big good bad great turns yes no well oh "
    "after before since when while once every today yesterday last next first got caved "
    "monday tuesday wednesday thursday friday saturday sunday "
    # Negations, quantifiers and interjections ("Not with Virgin anymore", "All sorted").
    "not never nothing none all some most both each also still even only anyway ugh wow "
    "hmm um omg lol oops yeah yep nope one two three several many few half "
    # Pronouns, possessives and question words: "We have a hamster", "My savings are with
    # U.S. Bank" are the speaker's; "where does alice live" asks.
    "we you he she they my our me us mine your his her their any what where which who whom "
    "whose how why "
    # Times and greetings never act: "Lunchtime swims at Nuffield are a game changer",
    # "Greetings from rainy Manchester".
    "greetings lunchtime lunchtimes weekends mornings evenings nights "
    # Test results, the speaker's own, opening chat without "my": "bloods came back and hba1c
    # is down to 39".
    "bloods results".split()
    + _INTERJECTIONS
)
#: The speaker's own days, said with what they are about rather than as someone named:
#: "Work at Accenture is hectic", "Life in Austin is great", "Home in Leeds is cosy"; acting,
#: work is the employer ("Work moved everyone to Android").
_THE_SPEAKERS_DAYS = frozenset("work life home school uni".split())


#: The speaker as the subject of a clause.
_SPEAKER_SUBJECT = LazyPattern(r"\b(?:(?-i:I)|i'm|i've|i'd|i'll|we|we're|we've)\b", re.I)


def _speaker_after_opener(text: str, start: int) -> bool:
    """Whether the speaker is the subject of the clause an opening word leads to, not of an
    aside before it: "Because of Mum's health I've moved", not "Though Ravi, who I work
    with, left Barclays" or "Though Tom (whom I miss) left"."""
    found = _SPEAKER_SUBJECT.search(text, start)
    return found is not None and not any(c in ",()" for c in text[start : found.start()])


#: A letter three times over: a word stretched in chat ("sooo", "annnd"), never a name.
_STRETCHED = LazyPattern(r"(\w)\1\1", re.IGNORECASE)
#: How much of a statement `subject_words` reads.
_SUBJECT_READ_CHARS = 1000
#: Where one clause of a sentence ends and another begins, whoever its subject: "My
#: girlfriend just started at Airbus, so we're both aerospace nerds now", "The gym closed so
#: I joined PureGym", "Ravi left Google, I'm so jealous".
_CONJOINED = LazyPattern(
    r",\s+(?=(?:so|and|but|now|then|because|cos|which|i|i'm|i've|we|we're|we've)\b)"
    r"|\s+(?:because|cos)\s+|;\s*|\s+[\u2013\u2014-]\s+"
    # "and then" goes on with what happened next ("My dad reads the Telegraph and then rings
    # me about it").
    r"|,?\s+and\s+then\s+"
    # "and" or "but" before a pronoun subject ("Tom left Deloitte and I took over his
    # clients", "Sara switched to Tidal but I'm sticking with Spotify").
    r"|\s+(?:and|but)\s+(?=(?:i|i'm|i've|i'd|we|we're|we've|he|she|they)\b)"
    # "so" before a subject or a verb, not before what it intensifies ("I'm so jealous").
    r"|\s+so\s+(?=(?:i|i'm|i've|we|we're|he|she|they|my|our|the|it|[a-z]+ed|" + IRREGULAR + r")\b)"
    # A sentence's end before one written without a capital ("tesla arrived. sold the golf").
    r"|(?<=[.!?])\s+(?=[a-z])",
    re.IGNORECASE,
)


#: A first comma before a verb in the past: "pixel arrived, sold the iphone", "offer accepted,
#: left google" open with what happened and go on with what the speaker did. A later comma
#: closes an aside ("Tom, who I live with, switched to Tidal").
_THEN_THE_SPEAKER = LazyPattern(rf"^([^,]+),\s+(?=(?:[a-z]+ed|{IRREGULAR})\b)", re.IGNORECASE)


@remembered
def split_conjoined(text: str) -> tuple[str, ...]:
    """The clauses of a text whose subjects may differ: its sentences, each split where a
    conjunction, a first-person clause after a comma, a semicolon or a dash starts another,
    or a first comma goes on with a verb in the past ("Tesla arrived. Sold the Golf" and "The
    gym closed so I joined PureGym" are two each; "Tom, who I live with, switched" one)."""
    found: list[str] = []
    for sentence in split_sentences(text):
        for part in _CONJOINED.split(mask(sentence)):
            part = unmask(part).strip()
            then = _THEN_THE_SPEAKER.match(part)
            found.extend((then.group(1), part[then.end() :]) if then else (part,))
    return tuple(part for part in found if part)


#: A comma before a clause with a subject of its own and no comma inside it: "We've gone
#: over to BT, the speed test this morning said 900 Mbps". Not an aside ("Tom, the guy from
#: work, moved", "Ravi, the one who sits next to me, left Google") nor a noun phrase ("moved
#: to Leeds, the city of my birth").
_COMMA_CLAUSE = LazyPattern(
    r",\s+(?![^,.;!?]*,\s+" + _VERB + r")"
    r"(?=(?:the|a|an|this|that|these|those|his|her|their|its)\s+(?:[\w'-]+\s+){1,4}?"
    + _VERB
    + r")",
    re.IGNORECASE,
)


@remembered
def comma_clauses(clause: str) -> tuple[str, ...]:
    """A clause of `split_conjoined` split again where a comma starts a clause with a subject
    of its own: "Started at Waterstones on Saturday, the staff discount is going to bankrupt
    me" → ("Started at Waterstones on Saturday", "the staff discount is going to bankrupt
    me."). When each part holds is its own; whose news a part is may be the clause's before
    it ("Sara quit PureGym for Nuffield, the membership was 70 a month"), so read subjects on
    `split_conjoined`'s clauses."""
    parts = (unmask(part).strip() for part in _COMMA_CLAUSE.split(mask(clause)))
    return tuple(part for part in parts if part)


#: Words that open a lead-in or a fragment without naming anyone, beside `_OPENERS`: "Update
#: - moved to Leeds", "Correction: it's the 5th".
_LEAD_NOUNS = frozenset(
    "update news correction edit reminder confession warning note heads fyi psa plot twist "
    "congrats cheers thanks sorry oops".split()
)
#: Someone named alone, before what they did: "Ravi? Left Google.", "Big Dave - left
#: Google", "My sister: moved to Leeds", "Mum -".
_SOMEONE_ALONE = LazyPattern(
    rf"^\W*+(?:(?:my|our)\s+{_ADJECTIVES}(?P<who>{RELATION_NOUNS})(?:s|es)?"
    rf"|(?P<kin>{KIN_WITHOUT_MY})"
    # A name is no verb: "Finished Middlemarch!" is the speaker's news.
    r"|(?:(?i:big|little|old|young)\s+)?(?!(?i:[a-z]+(?:ed|ing)|" + IRREGULAR + r")\b)"
    rf"(?P<name>{_NAME})(?:\s+(?-i:[A-Z][a-z]+))?)"
    r"\s*[?!.:,\u2013\u2014-]*\s*$",
    re.IGNORECASE,
)


@remembered
def names_someone_alone(text: str) -> bool:
    """Whether `text` only names someone, as a fragment or a lead-in of its own ("Ravi?",
    "Big Dave -", "My sister:"): what follows without a subject is theirs, not the
    speaker's ("Ravi? Left Google.")."""
    found = _SOMEONE_ALONE.match(text)
    if found is None:
        return False
    name = found.group("name")
    if name is None:
        return True
    word = name.lower()
    return not (word in _OPENERS or word in _LEAD_NOUNS or _STRETCHED.search(word))


@remembered
def recipient(text: str) -> str | None:
    """Whom the speaker got the thing a statement names, or whom someone moved to it, when not
    the speaker: "Got my mum a Samsung A54 for her birthday" → "mum"; "Bought a Polo for my
    daughter" → "daughter"; "The surgery moved my husband onto Dr Mensah's list" →
    "husband"."""
    got = _GOT_SOMEONE.match(text)
    if got is None:
        moved = _MOVED_SOMEONE.match(text)
        return None if moved is None else moved.group("who").lower()
    return str(got.group("who") or got.group("for") or got.group("kin")).lower()


#: Where the subject of a sentence written without capitals starts: after a short sentence
#: or a discourse marker ("crazy week. ravi left google", "so tom cancelled spotify").
_SUBJECT_START = LazyPattern(rf"^\W*+{_FRAGMENT}?(?:{_MARKERS})?")


def _capitalised(text: str) -> str:
    """`text` with its subject capitalised where a lower-case word may still be a name: at
    the start of a text written without capitals ("ravi left google", "RAVI LEFT GOOGLE"),
    and after a short sentence or a marker in any text ("Crazy week. ravi left google").
    Reading it as no name would file someone else's news as the speaker's."""
    letters = [c for c in text if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        text = text.lower()
    first = next((i for i, c in enumerate(text) if c.isalpha()), None)
    if first is None:
        return text
    # After a short sentence or a marker the subject may be lower-case in any text ("Crazy
    # week. ravi left google", "By the way, ravi left"); at the start only in text written
    # without capitals.
    start = _SUBJECT_START.match(text)
    at = start.end() if start is not None else 0
    if at > first:
        text = text[:at] + text[at : at + 1].upper() + text[at + 1 :]
    return text[:first] + text[first].upper() + text[first + 1 :]


#: The household's accounts, services and routines, which chat names without "my" as often as
#: with it ("broadband is Virgin Media", "bins go out Tuesdays", "mortgage is with Nationwide"):
#: no slot's head noun, and never anyone's name.
_HOUSEHOLD_NOUNS = frozenset(
    "broadband internet wifi insurance mortgage bank energy electricity gas water bills bins "
    "commute pension savings tariff contract membership subscription lessons appointment "
    "weight".split()
)
#: Nouns of the speaker's things that open a chat statement without "my" and are no one's
#: name: "Rent went up to 1,400", "broadband is Virgin Media", "Phone died yesterday".
#: People of the speaker's among the slots' head nouns are subjects of their own.
_SLOT_THINGS = frozenset(n for n in (*HEAD_ATTRIBUTE, *GENERIC_VALUES) if " " not in n)
_THING_NOUNS = (_SLOT_THINGS - {"boss", "manager", "supervisor"}) | _HOUSEHOLD_NOUNS
#: The first word, unless a phrase about it follows ("Rent in Leeds is crazy now" is about
#: rents anywhere).
_OPENING_WORD = LazyPattern(
    r"^\W*(?P<word>[A-Za-z]+)\b(?!'|\s+(?:in|at|of|for|from|on|around|near|these|nowadays)\b)"
    r"|^\W*(?P<owned>[A-Za-z]+)(?='s\b)"
)
#: What follows a household noun that is the thing itself, not a word of a longer noun
#: ("Savings are in Chip now", not "Savings rates at Marcus are 5%").
_THE_THING_GOES_ON = LazyPattern(
    r"\s*(?:'s|'re|'ve|'ll)\b|\s+(?:is|are|was|were|has|have|had|will|won't|now|still)\b",
    re.IGNORECASE,
)


def _as_possessed(text: str) -> str:
    """`text` with a thing noun that opens it read as the speaker's ("Rent went up to 1,400"
    as "My rent went up to 1,400"), so it is never taken for a name."""
    found = _OPENING_WORD.match(text)
    if found is None:
        return text
    group = "word" if found.group("word") else "owned"
    word = found.group(group)
    if word.lower() not in _THING_NOUNS or (
        word.lower() in _HOUSEHOLD_NOUNS
        and _THE_THING_GOES_ON.match(text, found.end(group)) is None
    ):
        return text
    return f"{text[: found.start(group)]}My {word.lower()}{text[found.end(group) :]}"


#: A thing of the speaker's whose value a clause states: "my broadband is with BT", "our
#: energy supplier's Octopus", "my car insurance was with Admiral".
_STATED_THING = LazyPattern(
    rf"\b(?:my|our)\s+{_ADJECTIVES}(?P<what>(?:[a-z][\w-]*\s+){{0,2}}?[a-z][\w-]*)"
    # "'s" as "is", not a possessive ("my sister's kid is called Oliver").
    r"(?:'s\b(?!\s+(?:[\w-]+\s+){0,2}?(?:is|are|was|were|has|have|'s)\b)(?!\s*[\w-]+'s\b)"
    r"|\s+(?:is|are|was|were|has been|have been)\b)",
    re.IGNORECASE,
)
#: Groups the speaker belongs to: where "our team" sits is where the speaker works, so their
#: values are the speaker's own, whichever noun states them.
_THE_SPEAKERS_GROUPS = frozenset("team department group squad company firm office".split())


@remembered
def stated_things(text: str) -> tuple[tuple[str, str], ...]:
    """The speaker's things whose values `text` states, each as its noun in lower case and
    what the text says of it, up to the next such thing or the sentence's end; a household
    noun that opens a sentence reads as the speaker's (`_as_possessed`): "My bank is
    Barclays and my broadband is with BT." → (("bank", " Barclays and "), ("broadband",
    " with BT.")). Empty when it states no such value ("Tom is my manager", "I bank with
    Monzo"), and for a group the speaker belongs to ("our team's on the 7th floor")."""
    found: list[tuple[str, str]] = []
    for sentence in split_sentences(text):
        sentence = _as_possessed(sentence)
        matches = list(_STATED_THING.finditer(sentence))
        for at, match in enumerate(matches):
            what = match.group("what").lower()
            if what.split()[-1] in _THE_SPEAKERS_GROUPS:
                continue
            stop = matches[at + 1].start() if at + 1 < len(matches) else len(sentence)
            found.append((what, sentence[match.end() : stop]))
    return tuple(found)


def named_owner(text: str) -> str | None:
    """Whose thing a statement opens with when a named person owns it, in lower case:
    "Emma's rent went up to 1500" → "emma", "Priya's new Audi is gorgeous" → "priya"; None
    for the speaker's things and for no one's."""
    return _named_owner(_as_possessed(_capitalised(text[:_SUBJECT_READ_CHARS])))


def _named_owner(text: str) -> str | None:
    thing = _NAMED_THING_SUBJECT.match(text)
    if thing is None or thing.group("name").lower() in _OPENERS:
        return None
    return thing.group("name").lower()


@remembered
def subject_words(text: str, *, possessed: bool = False) -> frozenset[str]:
    """Who a statement is about when that is not the speaker, as lower-case words, kin
    terms folded ("My best friend Ravi works at Google" → {"friend", "ravi"}; "Ravi left
    Google" → {"ravi"}; "Mum and Dad sold the house" → {"mother", "father"}); empty when it
    is about the speaker, alone or too ("Sold the Vespa", "We're in Munich", "My partner
    converted me").

    With `possessed`, a thing of the speaker's that acts counts as the subject ("My team
    just hired two interns" → {"team"}); one described is the speaker's ("My new job is at
    Stripe"), and without `possessed` so is "My team just hired two interns".
    """
    # Who a statement is about is said at its start; a pasted page reads no further.
    text = _as_possessed(_capitalised(text[:_SUBJECT_READ_CHARS]))
    given_to = recipient(text)
    if given_to is not None:
        return person_words(given_to)
    relation = _RELATION_SUBJECT.match(text)
    if relation is not None and _NAMES_RELATION.match(text, relation.end()):
        # "My manager is Laura": who the speaker's manager is, a fact of the speaker's.
        return frozenset()
    if relation is not None and not _speaker_in_predicate(text, relation.end()):
        who = {relation.group("who")}
        if relation.group("of"):
            who.add(relation.group("of"))
        if relation.group("name"):
            who.add(relation.group("name"))
        if relation.group("also"):
            who.add(relation.group("also"))
        if relation.group("whose"):
            # "Her husband", "a colleague": someone's, not the speaker's own "my husband".
            return person_words(" ".join(who)) | {THIRD_PERSON}
        return person_words(" ".join(who))
    match = _POSSESSED_SUBJECT.match(text)
    if match is not None:
        rest = match.group("rest")
        if (
            possessed
            and _FIRST_PERSON.search(rest) is None
            and not _DESCRIBED.match(rest)
            and not _ACQUIRED.match(text)
        ):
            return frozenset({singular(match.group("what").lower())})
        return frozenset()
    kin = _NAMED_KIN_SUBJECT.match(text)
    if kin is not None and not _speaker_in_predicate(text, kin.end()):
        return person_words(f"{kin.group('name')} {kin.group('of')}")
    owner = _named_owner(text) if possessed else None
    if owner is not None:
        # Asked for a thing that acts, a named person's thing is theirs: "Priya's new Audi
        # is gorgeous" is no news of the speaker's car.
        return frozenset({owner})
    thing_subject = _THING_SUBJECT.match(text)
    if thing_subject is not None and not _speaker_in_predicate(text, thing_subject.end()):
        return frozenset({singular(thing_subject.group("thing").lower())})
    if _PRONOUN_SUBJECT.match(text) and _FIRST_PERSON.search(text) is None:
        return frozenset({THIRD_PERSON})
    people = _PEOPLE_SUBJECT.match(text)
    if people is not None and not _speaker_in_predicate(text, people.start("predicate")):
        return frozenset({people.group("group").lower() if people.group("group") else THIRD_PERSON})
    named = _NAME_SUBJECT.match(text)
    if (
        named is not None
        and named.group("name").lower() not in _OPENERS
        and not (
            named.group("name").lower() in _THE_SPEAKERS_DAYS
            and re.match(r"\s+(?:from|at|in|on|of|for|with)\s", text[named.end("name") :])
        )
        # "Because of Mum's health I've moved back": the speaker's own news, after a phrase.
        and not (
            named.group("name").lower() in _CLAUSE_OPENERS
            and _speaker_after_opener(text, named.end("name"))
        )
        and named.group("name").lower() not in _VERB_FORMS
        and not named.group("name").endswith(("ed", "ing", "ly"))
        # A word stretched in chat is no name: "sooo left google", "annnd switched".
        and _STRETCHED.search(named.group("name")) is None
        and not _speaker_in_predicate(text, named.start("predicate"))
    ):
        word = named.group("name").lower()
        if word in _CLAUSE_OPENERS:
            # Not the speaker's news after an opening phrase or clause: whose it is, the
            # clause says ("Because of Miso's kidney results the vet has her on renal food"
            # is Miso's, "Because Tom needed a car he bought a Tesla" Tom's). The opening
            # word itself still says "not the speaker" where the clause names no one.
            rest = _OPENER_OF.sub("", text[named.end("name") :], count=1)
            return subject_words(rest, possessed=possessed) or frozenset({word})
        return frozenset({word})
    return frozenset()


#: What may follow an opening word before its phrase: "because of", "due to", "thanks to".
_OPENER_OF = LazyPattern(r"^\s*(?:(?:of|to)\b\s*)?", re.IGNORECASE)


_RELATION_WORD = LazyPattern(rf"(?:{RELATION_NOUNS})", re.IGNORECASE)
#: Capitalised words that open or greet, never a name ("Hi, my brother Tom").
_NOT_NAMES = ("hi", "hey", "hello", "thanks", "yes", "no", "ok", "okay", "dear")
#: "my sister Priya", "my son, Ben,", "my boss is called Kenji", "Priya, my sister",
#: "my colleague Dr Shah". "My mum is French" names no one.
_TITLE = rf"(?:{TITLE}\s+)?"
_NAMED_RELATION = LazyPattern(
    rf"\b(?:my|our)\s+{_ADJECTIVES}(?P<who>{RELATION_NOUNS})"
    rf"(?:'s name is\s+|\s+(?:is called|is named|called|named)\s+|\s+|,\s+(?=\S+,))"
    rf"{_TITLE}(?P<name>(?-i:[A-Z][a-z]+))\b(?!')"
    rf"|\b(?!(?:{'|'.join(_NOT_NAMES)})\b)(?P<name2>(?-i:[A-Z][a-z]+)),\s+"
    rf"(?:my|our)\s+{_ADJECTIVES}(?P<who2>{RELATION_NOUNS})\b",
    re.IGNORECASE,
)


@remembered
def relation_names(text: str) -> tuple[tuple[str, str], ...]:
    """Who the speaker names and how they relate, as (name, relation) in lower case, kin
    terms folded and a relation of several words read by its head ("My sister Priya is a
    nurse" → ("priya", "sister"); "Ben, my son, starts school" → ("ben", "son"); "my team
    lead Kenji" → ("kenji", "lead"))."""
    found = []
    for match in _NAMED_RELATION.finditer(text):
        name = (match.group("name") or match.group("name2")).lower()
        head = (match.group("who") or match.group("who2")).split()[-1].lower()
        if name in _OPENERS or name in _NOT_NAMES:
            continue
        found.append((name, _KIN.get(head, head)))
    return tuple(dict.fromkeys(found))


def is_relation(word: str) -> bool:
    """Whether `word` names a relation ("sister", "mother") rather than a person's name."""
    # Words come plural-folded ("parents" → "parent").
    return word in _KIN.values() or any(
        _RELATION_WORD.fullmatch(form) is not None for form in (word, f"{word}s")
    )


#: Kin terms that name the same person ("Mum", "my mother"), and the groups they make up.
_KIN = {
    **dict.fromkeys(("mum", "mom", "mam", "mother"), "mother"),
    **dict.fromkeys(("dad", "father"), "father"),
    **dict.fromkeys(("gran", "grandma", "nan", "nana", "grandmother"), "grandmother"),
    **dict.fromkeys(("grandpa", "granddad", "grandfather"), "grandfather"),
    # Chat's short forms: "hubby left St Mary's" is news of "my husband".
    **dict.fromkeys(("hubby", "husband"), "husband"),
    **dict.fromkeys(("bf", "boyfriend"), "boyfriend"),
    **dict.fromkeys(("gf", "girlfriend"), "girlfriend"),
    **dict.fromkeys(("bro", "brother"), "brother"),
    **dict.fromkeys(("sis", "sister"), "sister"),
}
_KIN_GROUPS = {
    "parent": ("mother", "father"),
    # "We've moved the kids to St Mary's" is news of "my son" too.
    "kid": ("son", "daughter"),
    "children": ("son", "daughter"),
    "child": ("son", "daughter"),
    "grandparent": ("grandmother", "grandfather"),
}


def includes(group: frozenset[str], who: frozenset[str]) -> bool:
    """Whether the people `group` names include `who` ("the kids" → {"kid", "son",
    "daughter"} include {"son"}; "my sister's friend" does not include "my sister")."""
    if not who <= group:
        return False
    members = {m for word in group if word in _KIN_GROUPS for m in _KIN_GROUPS[word]}
    return all(w in who or w in _KIN_GROUPS or w in members for w in group)


@remembered
def person_words(text: str) -> frozenset[str]:
    """The content words of `text` with kin terms folded, groups spelled out ("my parents"
    → {"parent", "mother", "father"})."""
    words = {_KIN.get(w, w) for w in content_words(text)}
    for group, members in _KIN_GROUPS.items():
        if group in words:
            words.update(members)
    return frozenset(words)


#: "My sister said her friend just moved to Galway": someone's report, and what it reports.
#: What someone can or will say is no report ("future me can say thanks"); a one-word one
#: is ("the pharmacy label said 100mcg").
_REPORTED = LazyPattern(
    r"^(?P<reporter>.*?)\b(?<!can )(?<!could )(?<!will )(?<!would )(?<!'ll )"
    r"(?:said|says|say|told (?:me|us)|tells (?:me|us)|"
    r"(?:was|is|were|are|keeps?|kept) (?:saying|telling (?:me|us))|mentioned|mentions|"
    r"reckons|thinks|claims|insists|swears|announced|texted(?: me)?(?: to say)?|"
    r"messaged(?: me)?|emailed(?: me)?|heard)(?:\s+that)?[,:]?\s+(?P<clause>\w.*)$",
    re.IGNORECASE,
)
#: Hearsay without a reporter ("Apparently Tom moved to Leeds", "I heard Dana got the
#: job", "According to Mum, the house sold"): the clause says whose news it is.
_HEARSAY = LazyPattern(
    r"^\W*(?:apparently|according to [^,]+,|(?:(?:i|we)\s+)?(?:just\s+)?heard(?: that)?|"
    r"(?:it\s+)?(?:looks|seems|sounds) like|can'?t believe|did you (?:know|hear)|"
    r"(?:heard\s+)?through the grapevine)[,:]?\s+"
    r"(?=(?-i:[A-Z])|(?:my|our|the|his|her|their)\b)(?P<clause>\w.*)$",
    re.IGNORECASE,
)
#: News the speaker heard from someone: "Heard from Ravi that he left Google", "I found out
#: from my sister that she's moving". The speaker only hears it; the clause says whose it is.
_HEARD_FROM = LazyPattern(
    r"^\W*(?:(?:i|we)\s+)?(?:just\s+)?(?:heard|found out|learn[te]d|got word)\s+"
    r"(?:from|through|via)\s+(?P<reporter>(?:my\s+|our\s+)?[\w']+(?:\s+(?-i:[A-Z])[\w']+)?)"
    r"\s*(?:that\s+|,\s*|(?=(?:he|she|they)\b))(?P<clause>\w.*)$",
    re.IGNORECASE,
)
#: The speaker in the reporter's part or the reported clause ("As I said", "Everyone says
#: Berlin is great but I moved to Munich", "Google announced layoffs, so I'm at Meta now"):
#: the speaker's own news.
_SPEAKER_SAYS = LazyPattern(r"\b(?:i|i'm|i've|i'd|i'll|we|we're|we've)\b", re.IGNORECASE)
#: A reporter that is a pronoun after a clause ("…, she reckons"): the sentence's own subject.
_ASIDE_REPORTER = LazyPattern(r"[,;\u2014\u2013]\s*(?:he|she|they)\s*$", re.IGNORECASE)
#: A relative clause inside a reporter ("Tom's wife, who retired last year, says …"): the
#: reporter is a person described, not a clause of its own.
_RELATIVE = LazyPattern(r",\s*(?:who|which|whose)\b", re.IGNORECASE)
#: A reporter part that is a clause of its own, cut off by a comma ("Dad gave up on the
#: Defender and bought a RAV4, says his back is thanking him"): the report that follows has
#: no subject of its own, so it is an aside of the one the clause is about.
_CLAUSE_THEN_REPORT = LazyPattern(
    rf"\b(?:[a-z]{{3,}}ed|{IRREGULAR})\b[^,;\u2014\u2013]*[,;\u2014\u2013]\s*$", re.IGNORECASE
)
#: Relations by gender, so "My sister said he moved" reports someone else.
_FEMALE = frozenset("sister mother wife girlfriend daughter aunt niece grandmother fiancee".split())
_MALE = frozenset("brother father husband boyfriend son uncle nephew grandfather fiance".split())


@remembered
def reported_about(text: str) -> str | None:
    """Whose news `text` reports when it reports someone else's: the reporter when the
    report goes on about them ("Tom told me he's at Google now" → "Tom"), else the clause's
    own subject ("My sister said her friend just moved to Galway" → "her friend just moved
    to Galway"). None when `text` reports nothing, or the speaker's own news ("The doctor
    said I'm no longer diabetic")."""
    hearsay = _HEARSAY.match(text)
    if hearsay is not None:
        clause = hearsay.group("clause")
        return None if _SPEAKER_SAYS.search(clause) else clause
    heard = _HEARD_FROM.match(text)
    found = heard or _REPORTED.search(text)
    if found is None or not found.group("reporter").strip():
        return None
    reporter, clause = found.group("reporter").strip(), found.group("clause")
    if (heard is None and _SPEAKER_SAYS.search(reporter)) or _SPEAKER_SAYS.search(clause):
        return None
    if _ASIDE_REPORTER.search(reporter) or (
        _CLAUSE_THEN_REPORT.search(reporter) and not _RELATIVE.search(reporter)
    ):
        # "My eldest switched courses, she reckons it suits her better": the report is an
        # aside of the one the sentence is about.
        return reporter
    # A clause that goes on with "he", "she" or "they" is about the reporter.
    again = _PRONOUN_SUBJECT.match(clause)
    if again is not None:
        pronoun, who = again.group(0).lower(), person_words(reporter)
        if (pronoun.startswith("he") and who & _FEMALE) or (
            pronoun.startswith("she") and who & _MALE
        ):
            # "My sister said he moved to Bergen": someone else again.
            return clause
        return reporter
    return clause
