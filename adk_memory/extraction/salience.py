"""Which sentences carry something worth remembering about a person.

Greetings, thanks, acknowledgements, requests to the agent and questions are conversation
management, not facts: stored, they outrank the facts they ask about ("Where do I live?" is
closer to the probe than "I live in Berlin"). A question can still carry a fact ("Did you know
I adopted a cat?", "My sister lives in Oslo, have you been?"): the statement inside a question
frame is kept, and only the asking is dropped.
"""

from __future__ import annotations

import re

from adk_memory.extraction.cues.tense import MONTHS, WEEKDAYS
from adk_memory.extraction.cues.words import TRAILING_HEDGES

_GREETING = re.compile(
    r"^(?:(?:hi|hello|hey|hiya|howdy|yo|morning|evening|afternoon|good (?:morning|afternoon|"
    r"evening|night)|greetings|ok i'm back|i'm back|back again|bye|goodbye|see you|see ya|"
    r"take care|good night|night)(?:\s+(?:there|again|hello|all|everyone|you|hi|hey|"
    r"again|later|soon|tomorrow))*)(?:[\s,]+(?-i:[A-Z])[a-z]+)?\W*$",
    re.IGNORECASE,
)
_ACK_WORDS = (
    "thanks|thank you|thx|ty|cheers|great|cool|nice|ok|okay|k|sure|haha|hah|lol|lmao|fair enough|"
    "got it|gotcha|sounds good|perfect|awesome|amazing|no worries|yes|yeah|yep|yup|no|nope|"
    "right|true|wow|oh|ah|hmm|interesting|brilliant|lovely|good|wonderful|excellent|noted|"
    "makes sense|that makes sense|fair|indeed|exactly|of course|alright|all right|sweet|neat|"
    # Discourse markers left alone by a clause split ("Actually, I take it on the rocks now").
    "actually|honestly|anyway|anyways|so|well|um|uh|er|ugh|btw|by the way|fyi|basically|"
    "seriously|frankly|big news|news|quick update|update|guess what|oh well"
)
#: A reply that only acknowledges: "Thanks, that's really helpful.", "haha fair enough".
_ACK = re.compile(
    rf"^(?:(?:{_ACK_WORDS})(?:\s+(?:so much|a lot|a bunch|again|very much|for that|mate|man|"
    r"buddy))*[\s,.!]*)+(?:(?:that's|that is|that was|this is|it's|you're|very|so|really)\s+"
    r"(?:really\s+|very\s+|so\s+|super\s+)?(?:helpful|useful|great|good|perfect|funny|"
    r"interesting|kind|clear|nice|cool|awesome|brilliant|it|all|fine|enough)\s*)?\W*$",
    re.IGNORECASE,
)
#: Small talk that asks for attention: "Got a minute?", "You there?".
_ATTENTION = re.compile(
    r"^(?:got a (?:minute|sec|second)|you there|are you there|quick question|can i ask you "
    r"something)\W*$",
    re.IGNORECASE,
)
#: A request addressed to the agent: "Can you explain ...", "Give me a fun fact.".
_REQUEST = re.compile(
    r"^(?:(?:please|pls|hey|ok|okay|so)[,\s]+)?(?:(?:can|could|would|will) you|"
    r"(?:tell|give|show|help|remind|teach|send|get|find|write|make|draft) me\b|"
    r"(?:explain|suggest|recommend|list|summari[sz]e|translate|describe|define|write|draft|"
    r"compare|calculate|convert|generate|name|check|look up|search|fix|debug|rewrite)\b|"
    r"let's\b|i (?:need|want|would like|'d like) (?:you|some help|help|a (?:recipe|list|summary|"
    r"poem|idea|suggestion))|how (?:do|can|should|would) (?:i|you|we)\b|what's the best way)",
    re.IGNORECASE,
)
#: A question frame around a statement: "Did you know I adopted a cat?".
_FRAME = re.compile(
    r"^(?:(?:so|ok|okay|oh|and|honestly)\W+)?"
    r"(?:(?:did|do) (?:you|u) know|guess what|have i (?:told|mentioned)(?: to)?(?: (?:you|u))?|"
    r"did i (?:tell|mention)(?: to)?(?: (?:you|u))?|you know what|remember|"
    # Asking how the agent takes a fact of the speaker's: "is it weird that i'm vegan now and
    # still crave bacon", "honestly, can you believe we finally bought a house".
    r"(?:can|could|would) (?:you|u) believe|"
    r"is it (?:weird|normal|bad|ok|okay|strange|wrong|silly|odd|mad|crazy|stupid|dumb|sad)"
    r"(?= (?:that )?(?:i|i'm|im|i've|we|we're|we've|my|our)\b))"
    r"\b[,:\s]*(?:that\s+)?",
    re.IGNORECASE,
)
#: A request to keep something about the speaker: "could you call me Natalia from now on?",
#: "can you remember that I'm vegan now?". What it asks to keep is a statement of the
#: speaker's, the very thing a memory is for.
_KEEP_REQUEST = re.compile(
    r"^(?:(?:please|pls|hey|ok|okay|so|actually|oh|also)[,\s]+)*"
    r"(?:(?:can|could|would|will) you\s+(?:please\s+|pls\s+|just\s+)*|please\s+|pls\s+)"
    r"(?:(?:remember|note|make a note|keep in mind|bear in mind)(?:\s+(?:of|down))?"
    r"(?:\s+that)?[,:\s]+(?P<statement>.+)"
    # A name and nothing more, not a taxi, a day or a part: "call me Natalia from now on",
    # not "call me a taxi", "call me Monday", "call me Captain in this story".
    r"|(?P<ask>(?:call|address) me|refer to me as)\s+(?P<name>(?-i:[A-Z])[\w'-]*"
    # Said as lasting: "call me Uber", "call me Weds" name no one.
    r"(?:\s+(?-i:[A-Z])[\w'-]*)?)\s+(?:from now on|instead|going forward|in future)"
    r"(?:\s+(?:please|pls))?)$",
    re.IGNORECASE,
)
#: What a statement the speaker asks the agent to keep opens with: its own subject and verb
#: ("I'm vegan now", "my sister lives in Oslo"), not a question inside it ("whether I'm
#: vegan", "my GP's name").
_OWN_STATEMENT = re.compile(
    r"^(?:i|we|i'm|i've|i'd|we're|we've)\b"
    r"|^(?:my|our)\s+(?:[\w-]+\s+){1,2}?(?:is|are|was|were|has|have|had|lives?|works?|"
    r"went|got|moved|changed|started|left)\b",
    re.IGNORECASE,
)
#: Not a statement to keep: unsure ("I work at Tesco now or did I tell you Asda?", "I'm vegan
#: if I told you", "I drive something German, which one was it?"), or about the
#: conversation ("I told you about my sister", "we discussed my rent").
_NOT_KEPT = re.compile(
    r"\b(?:or|if|whether|something|somewhere|someone)\b|,\s*(?:which|what|where|who|when|how)\b|"
    r"\b(?:told|asked|mentioned|said to|gave|sent|showed) you\b|"
    r"\b(?:talked|spoke|chatted) about\b|\bdiscussed\b",
    re.IGNORECASE,
)
#: Not a name: a day, a month or a time to call ("can you call me Monday?", "call me ASAP").
_A_TIME = re.compile(
    rf"^{WEEKDAYS}|^(?:{MONTHS}|tonight|tomorrow|today|later|asap|soon|back|now)$",
    re.IGNORECASE,
)
#: Whether a question asks about the speaker's own facts ("Where do I live?") rather than
#: stating one.
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|my|me|we|our|us|mine)\b", re.IGNORECASE)


#: The other person, in a question: asked of them, it may be the only record of their fact.
_YOU = re.compile(r"\b(?:you|your|yours)\b", re.IGNORECASE)


def is_question(sentence: str) -> bool:
    return sentence.rstrip().endswith("?")


#: Words that open the asking part of a sentence after a statement.
_QUESTION_WORDS = (
    r"what|what's|whats|where|who|whose|how|why|when|which|any|anything|anyone|thoughts|"
    r"ideas|tips|advice|recommendations?|suggestions?|remind|tell|help|let|please|pls|"
    r"got(?=\s+(?:any|anything|time|a (?:minute|min|sec|second))\b)"
)
#: Auxiliaries that open a question after a statement.
_AUXILIARIES = r"can|could|would|should|shall|do|does|did|is|are|was|were|will|have|has"
#: Where a question starts after a statement in one sentence: "Moved to Leeds last month,
#: any tips for meeting people?", "so I'm vegan now - what should I cook?", "dentist is Dr.
#: Haddad on Mill Lane, remind me?", "Biscuit's been scratching his ears, does a spaniel need
#: ear cleaner?". After a bare "and", "so" or "but" an auxiliary asks only before its
#: subject ("and is it worth it"): chat drops the "I" or "we" before one that states ("so um
#: we went and got a kitten as well, …, any tips").
_QUESTION_TAIL = re.compile(
    r"(?:,|;|\s[-\u2013\u2014]|\u2014)\s+(?=(?:so\s+|but\s+|and\s+|anyway\s+)?"
    rf"(?:{_QUESTION_WORDS}|{_AUXILIARIES})\b"
    # Or asked with its "is it" left out: "I take omeprazole every morning, fine to have
    # with coffee?", "I'm on sertraline, safe to drink on it?".
    r"|(?:is it |it's |its )?(?:ok|okay|fine|safe|alright|normal|bad|wise) to\b)"
    rf"|\s+(?:so|but|and)\s+(?=(?:{_QUESTION_WORDS})\b|(?:{_AUXILIARIES})\s+"
    r"(?:i|you|u|we|it|this|that|there|they|he|she|my|our|anyone|any)\b)",
    re.IGNORECASE,
)
#: Where the asking starts when no asking word after a comma opens it (`_QUESTION_TAIL`
#: first):
#: - after a full stop inside one sentence, which the split read as an abbreviation's ("gp
#:   upped me to 100mg last tues. is feeling jittery normal?"), before an asking word only
#:   ("I moved here on Tues. have no furniture" goes on), never after a title, "a.m." or
#:   "Jr.";
#: - at a request for the agent's work or a bid for advice after a comma, when it runs to
#:   the question mark ("bumped my savings to £750 a month, redo the timeline?", "i play
#:   netball on wednesdays, best trainers for court?"), not the speaker's own doing ("I sell
#:   candles and make about £500 a month, do I need to declare it?").
#: Words that open a bid for advice without a verb ("best trainers for court?").
_ADVICE_WORDS = "best|good|decent|cheapest|easiest|quickest|recommended"
_ASKING_STARTS = re.compile(
    r"(?<!\bdr)(?<!\bmr)(?<!\bmrs)(?<!\bms)(?<!\bst)(?<!\bmt)(?<!\bprof)(?<!\bvs)(?<!\bjr)"
    r"(?<!\bsr)(?<!\bco)(?<!\binc)(?<!\betc)(?<!\ba\.m)(?<!\bp\.m)(?<!\be\.g)(?<!\bi\.e)\.\s+"
    r"(?=(?:is|are|was|were|does|did|can|could|should|would|what|what's|where|who|how|why|"
    r"when|which|any)\b)"
    r"|[,;]\s+(?=(?:redo|rework|recalculate|update|give|recommend|suggest|send|write|draft|"
    r"make|check|explain|find|list|show|work out|sort out|plan|"
    # A bid for advice without a verb: "i play netball on wednesdays, best trainers for
    # court?", "moved to leeds, good areas for a first flat?".
    rf"{_ADVICE_WORDS})\b(?!-)[^,;]*\?+\s*$)",
    re.IGNORECASE,
)
#: A bid for advice without a verb, after a comma ("…, best trainers for court?").
_ADVICE_TAIL = re.compile(rf"[,;]\s+(?:{_ADVICE_WORDS})\b", re.IGNORECASE)
#: A lead that opens with a bare verb: an option weighed ("move to Brighton", "port to
#: Airtel"), not a change told ("moved to leeds").
_OPTION = re.compile(
    r"^\W*(?:quit|go|move|port|switch|get|buy|take|join|sell|try|leave|start|change|rent|book|"
    r"pick|choose|use|transfer|swap|sign up)\b",
    re.IGNORECASE,
)
#: A request about the agent's own work, whose lead is feedback on it: "the link doesn't
#: work, send another?", "I wrote a poem, check it?", "it's still too formal, make it more
#: casual?", "the numbers look off, recalculate?".
_ON_THE_WORK = re.compile(
    r"\b(?:it|this|that|these|those|them|another|again|instead)\b|^\W*\w+\W*$", re.IGNORECASE
)
#: A lead that sets the request's terms rather than stating anything: "for my cv, make it
#: punchier?", "in simple terms, explain it?", "sorry to bother you again, check this?".
_TERMS = re.compile(
    r"^\W*(?:(?:ok|okay|so|and|also|right|oh)\W+)*"
    r"(?:for|in|with|as|like|based|before|after|to|on|using|going|following|sorry|same|"
    r"last|one)\b",
    re.IGNORECASE,
)
#: A statement of two words, the speaker's own lasting state: "I'm vegan, what are good
#: sources of omega 3?", "I'm 34, is it too late to start gymnastics?", "I'm Dutch, …"; not
#: a frame for the question or a passing mood ("I'm curious, …", "I'm back, …", "I'm torn,
#: …", "I'm Done, …"), which no list of words can close, so only an age or a measure, a
#: nationality or a faith, or a state that lasts; or a thing's amount ("rent's 950, is that a
#: lot?").
_SHORT_STATEMENT = re.compile(
    r"^(?:i'm|im|i am|we're|we are)\s+(?:\d{2,3}|\d[\d.,]*\s?(?:kg|lbs?|st|stone|cm|ft)|"
    r"(?-i:[A-Z])[a-z]+(?:ish|sh|ch|ese|an|i|u|ic|im)|vegan|vegetarian|"
    r"pescatarian|veggie|diabetic|coeliac|celiac|pregnant|retired|single|married|divorced|"
    r"separated|engaged|widowed|unemployed|self-employed|freelance|left-handed|right-handed|"
    r"deaf|autistic|disabled|teetotal|sober|epileptic|asthmatic|lactose-intolerant|"
    r"gluten-free|dairy-free|vegans|vegetarians|homeowners|renters)$"
    # Or an amount of a thing or a person's age: "rent's 950", "salary's 45k", "Ben's 4".
    r"|^[a-z]+'s\s+[£$€]?\d[\d.,]*k?$",
    re.IGNORECASE,
)
#: A question written without its question mark: chat drops the mark as often as it keeps
#: it, so the asking is read by its shape, an auxiliary before a pronoun subject (after a
#: question word or not) or a bid for advice, at the end of a statement ("my easy runs are
#: around 5:45 now lol, should i redo my zones", "she does ballet, how do i do a proper bun,
#: mine always fall out": it runs to the end, as a marked one does) or as the whole sentence
#: ("how do i not arrive sweaty"; "have you got tips for Leeds, we just moved" may state after
#: it). Chat that drops "I" or "we" before an auxiliary states ("did my first marathon in
#: 3:58", "are moving to bristol in march", "have my first day at Arup on Monday"), and so do
#: "…, which is nice", "…, who is the CEO", "…, so am i", "…, have the tesla now".
_PRONOUN_SUBJECT = r"(?:i|we|you|u|it|that|this|they|he|she|there)\b"
_ASKING_SHAPE = (
    r"(?:(?:but|and|anyway|also|ok|okay)\W+)?"
    r"(?:(?:(?:what|what's|whats|where|how|why|when)\s+)?"
    r"(?:(?:should|shall|can|could|would|will|is|are|am|was|were)\s+"
    rf"{_PRONOUN_SUBJECT}"
    # "did it for 10 years", "do it myself": chat drops the "I" before "do" and "did".
    r"|(?:do|does|did)\s+(?:i|we|you|u|they|he|she)\b)"
    r"|(?:who|which)\s+(?:should|shall|can|could|would|will|do|does|did)\s+"
    rf"{_PRONOUN_SUBJECT}"
    r"|(?:have|has)\s+(?:i|we|you|u|they|he|she)\b"
    r"|any\s+(?:[\w-]+\s+){0,2}?(?:tips|ideas|advice|recs|recommendations|suggestions|thoughts)\b)"
)
#: Agreement said after a statement, no question: "my wife is vegan, so am i", "so did we".
_SO_AM_I = r"(?!so\s+(?:am|is|are|do|does|did|have|has|was|were|will|can)\s+\w+(?:\s+\w+){0,2}\W*$)"
_UNMARKED_QUESTION = re.compile(
    rf"(?:,|;|\s[-\u2013\u2014]|\u2014)\s+{_SO_AM_I}(?:so\s+)?{_ASKING_SHAPE}[^.!?]*$"
    rf"|^\W*(?:so\W+)?{_ASKING_SHAPE}"
    # A whole sentence asks only where it states nothing of the speaker's inside ("should i
    # mention to the bank we moved to york", "am i glad we moved to york" state a move).
    r"(?![^.!?;,]*\b(?:i'm|im|i've|ive|we're|we've|my|our|(?:i|we)\s+(?:\w+ly\s+)?"
    r"(?:am|was|were|had|have|\w+ed|left|got|went|bought|sold|quit|started)\b))"
    r"[^.!?;,]*$",
    re.IGNORECASE,
)
#: A tag question after a statement that asks how the agent judges it, or the agent's own:
#: "my galaxy s23 keeps overheating when i use maps, normal?", "I'm on 62k, good or bad?",
#: "my rent is 1200, too much?", "I live in Leeds, you?". The statement before it is what the
#: asking is about. Not one the speaker asks to have confirmed ("my rent's 950, isn't it?",
#: "my sister still lives in Oslo, yeah?", "I work at Tesco, or Asda?"), which may be wrong,
#: nor an option weighed ("amazon offered me 60k, enough?", "the 2-bed is 1,200, worth it?").
_TAG_QUESTION = re.compile(
    r"[,;]\s*(?:is (?:that|this|it)\s+)?(?:normal|ok|okay|alright|fine|a lot|good|bad|"
    r"good or bad|healthy|safe|weird|common|reasonable|average|too (?:much|high|low|little|"
    r"many|long|short|old|young|expensive|cheap)|you|u|and you|hbu|wbu)\s*\?+\s*$",
    re.IGNORECASE,
)
#: A segment that asks rather than states ("where do I live, again?").
_ASKS = re.compile(
    r"^\W*(?:what|what's|whats|where|who|whose|how|why|when|which|can|could|would|should|"
    r"shall|do|does|did|is|are|was|were|will|am|have|has)\b",
    re.IGNORECASE,
)


#: A lead about the exchange itself, not the speaker: "that's too long, make it shorter?",
#: "you got that wrong, check again?", "here's my code, check it?", "I was wondering, …".
_ABOUT_THE_EXCHANGE = re.compile(
    r"^\W*(?:that|this|here|you|your|that's|thats|here's|heres|you're|youre)\b|"
    r"\b(?:wondering|curious|my question|quick question|confusing|too long|too short)\b",
    re.IGNORECASE,
)


def statement_before_question(sentence: str) -> str | None:
    """The statement a question is appended to in one sentence ("My sister lives in Oslo,
    have you been?" → "My sister lives in Oslo"), or None when the sentence only asks."""
    match = _QUESTION_TAIL.search(sentence)
    by_asking_word = match is not None
    if match is None:
        match = _ASKING_STARTS.search(sentence)
    if match is None:
        match = _TAG_QUESTION.search(sentence)
        by_asking_word = match is not None
    if match is None:
        return None
    lead = sentence[: match.start()].strip(" ,;.-\u2013\u2014")
    if _ADVICE_TAIL.match(sentence, match.start()) and _OPTION.match(lead):
        # An option weighed, not done: "move my savings to ING, best rates atm?", "quit
        # deloitte and go to a startup, best move for my career?".
        return None
    short = len(lead.split()) < 3
    if short and not _SHORT_STATEMENT.match(lead):
        return None
    if _ASKS.match(lead) or is_request(lead):
        return None
    if (short or not by_asking_word) and _ABOUT_THE_EXCHANGE.search(lead):
        # Long leads before an asking word keep their facts whatever they open with: "this
        # year I started at Google, any tips?", "my commute is too long, 90 mins, any tips?".
        return None
    if not by_asking_word and (_TERMS.match(lead) or _ON_THE_WORK.search(sentence[match.end() :])):
        return None
    return lead


#: A statement given as the reason for a question, after it: "What should I cook now that
#: I'm vegan?", "Any recommendations for Leeds, since we just moved here?". Only the
#: speaker's own state or change ("now that I'm", "since we moved"), not a time asked about
#: ("since I last asked", "since I was a kid").
_REASON_AFTER_QUESTION = re.compile(
    r"(?:,\s*|\s+)(?P<why>(?:now that|since|because|seeing as|given that)\s+"
    r"(?:i|we|i'm|i've|we're|we've|my|our)\b(?![^?]*\b(?:last|ago|was a|were|asked|said|"
    r"told|mentioned|talked|spoke|chatted|discussed)\b)[^?]*?)\s*\?+\s*$",
    re.IGNORECASE,
)


#: A statement said with a question mark for a shrug: "so... pescatarian now I guess??",
#: "we're homeowners now apparently?". Asking nothing, it states what it hedges.
_SHRUGGED = re.compile(rf"\bnow\b[^?]*\b(?:{TRAILING_HEDGES})\W*\?+\s*$", re.IGNORECASE)
#: Words that make a shrug a question after all: asking what to do or whether something
#: follows ("so I should sell my shares now I guess?", "that means I'm free now I think?").
_STILL_ASKS = re.compile(
    r"\b(?:should|would|could|need to|means?|meaning|answer|right|correct)\b|=", re.IGNORECASE
)
#: Discourse markers before a question word: "so what now I guess?", "idk what to do now?".
_MARKERS = re.compile(
    r"^\W*(?:(?:so|anyway|um|uh|ok|okay|wait|then|idk|dunno|and|but)\b\W*)+", re.IGNORECASE
)


#: A shrug about something else than the speaker: "the server's down now i think", "it's
#: 3am now i guess", "they're closed now i guess".
_NOT_THE_SPEAKERS = re.compile(
    r"(?:it|it's|its|the|they|they're|theyre|there|there's|that|that's|this|he|he's|she|"
    r"she's|his|her|their)\b",
    re.IGNORECASE,
)


def shrugged_statement(sentence: str) -> str | None:
    """A statement of what holds now, hedged with a question mark and asking nothing
    ("pescatarian now I guess??" → "pescatarian now I guess"), or None."""
    text = sentence.strip()
    if _SHRUGGED.search(text) is None or _YOU.search(text) or _STILL_ASKS.search(text):
        return None
    if _QUESTION_TAIL.search(text) or _ASKING_STARTS.search(text):
        # A statement, then a question that shrugs: "i moved to leeds last month, where do i
        # register with a gp now i guess?" keeps the statement alone.
        return None
    opening = _MARKERS.sub("", text)
    if _ASKS.match(opening) or _NOT_THE_SPEAKERS.match(opening):
        return None
    return text.rstrip(" ?")


def statement_after_question(sentence: str) -> str | None:
    """The statement a question gives as its reason, after it ("What should I cook now that
    I'm vegan?" → "now that I'm vegan"), or None."""
    match = _REASON_AFTER_QUESTION.search(sentence)
    if match is None or len(match.group("why").split()) < 3:
        return None
    return match.group("why").strip()


def framed_statement(sentence: str) -> str | None:
    """The statement inside a question frame ("Did you know I adopted a cat?" → "I adopted a
    cat"), or None when the question frames none."""
    match = _FRAME.match(sentence.strip())
    if match is None:
        return None
    rest = sentence.strip()[match.end() :].rstrip(" ?!.")
    return rest if len(rest.split()) >= 2 else None


def kept_on_request(sentence: str) -> str | None:
    """What a request asks the agent to keep about the speaker ("can you remember that I'm
    vegan now?" → "I'm vegan now", "could you call me Natalia from now on?" → "call me
    Natalia from now on"), or None when it asks for no such thing ("can you remember what I
    said about my sister?", "can you remember whether I'm vegan?", "can you call me
    Monday?")."""
    match = _KEEP_REQUEST.match(sentence.strip().rstrip(" ?!."))
    if match is None:
        return None
    if match.group("statement") is not None:
        statement = match.group("statement").strip()
        if _NOT_KEPT.search(statement):
            return None
        return statement if _OWN_STATEMENT.match(statement) else None
    if _A_TIME.match(match.group("name").split()[0]):
        return None
    return match.group(0)[match.start("ask") :].strip()


def is_small_talk(sentence: str) -> bool:
    """Greetings, thanks, acknowledgements and bids for attention."""
    text = sentence.strip()
    return bool(_GREETING.match(text) or _ACK.match(text) or _ATTENTION.match(text))


def is_request(sentence: str) -> bool:
    """A request to the agent ("Can you give me a recipe?", "Remind me, what's HTTP 418?")."""
    text = sentence.strip()
    return bool(_REQUEST.match(text)) or bool(re.match(r"^remind me\b", text, re.IGNORECASE))


def salient_part(sentence: str, *, addressed_to_agent: bool) -> str | None:
    """What of a sentence is worth keeping: the sentence, the statement inside a question
    frame, or None for conversation management.

    Args:
        sentence: One sentence a person said.
        addressed_to_agent: Whether the conversation is with an agent (questions are then
            asked of the agent); between people, a question about the other person ("How
            was the pottery class you took the kids to?") can be the only record of a fact,
            so only greetings, thanks and self-questions are dropped there.
    """
    text = sentence.strip()
    if not text or is_small_talk(text):
        return None
    kept = kept_on_request(text)
    if kept is not None:
        return kept
    framed = framed_statement(text)
    if framed is not None:
        return framed
    unmarked = None if is_question(text) else _UNMARKED_QUESTION.search(text)
    if unmarked is not None and (
        unmarked.start() == 0 or statement_before_question(f"{text}?") is not None
    ):
        # Asked without its mark: read as the question it is, unless the statement before it
        # is too short to keep ("Left Google, should i tell recruiters" stays whole).
        text += "?"
    if is_question(text):
        shrugged = shrugged_statement(text)
        if shrugged is not None:
            return shrugged
        if addressed_to_agent or not _YOU.search(text):
            # The asking is dropped; a statement it follows, or gives as its reason, is kept.
            lead = statement_before_question(text) or statement_after_question(text)
            return None if lead is None else salient_part(lead, addressed_to_agent=True)
        return text
    if addressed_to_agent and is_request(text) and not _FIRST_PERSON.search(_tail(text)):
        return None
    return text


def _tail(text: str) -> str:
    """A request's content after its opening ("give me a recipe for my mum" → "a recipe for
    my mum"): a request that also says something about the person is kept."""
    return re.sub(r"^\W*\w+(?:\s+(?:me|you))?\b", "", text, count=1)


__all__ = [
    "framed_statement",
    "is_question",
    "is_request",
    "is_small_talk",
    "kept_on_request",
    "salient_part",
    "shrugged_statement",
    "statement_after_question",
    "statement_before_question",
]
