"""`Reading`: what the ordering knows of one recall's memories, each read once.

The readings of a single statement (its names and numbers, the words that say what it is
about, its cues, its slot) and of the recall as a whole (which memories answer the query,
each one's nearest answer, the pairs any evidence could join). The pair readings build on it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

import numpy as np

from adk_memory.embedding.vocabulary import everyday_word
from adk_memory.extraction.cues import (
    RELATION_NOUNS,
    Cues,
    arrived,
    begins_lasting,
    cues,
    dated_event,
    dated_move,
    is_relation,
    lasting_change,
    measured_now,
    person_words,
    present_state,
    recipient,
    relation_names,
    reported_about,
    split_conjoined,
    strip_speaker,
    subject_words,
    told_as_over,
)
from adk_memory.extraction.cues.tense import WEEKDAYS
from adk_memory.extraction.sentences import mask, split_sentences, unmask
from adk_memory.extraction.slots import (
    ALSO_ORDINARY_WORDS,
    CATEGORY_OF,
    asked_category,
    categories_in,
    is_single_valued,
    related_categories,
)
from adk_memory.model import Kind, ScoredMemory
from adk_memory.retrieval.ordering.config import OrderingConfig
from adk_memory.retrieval.question import asks_an_amount, asks_for_one, asks_when
from adk_memory.text import as_typed


def _slot(memory: ScoredMemory) -> tuple[str, str] | None:
    """The one-at-a-time slot a memory fills, if any: "allergic to peanuts" and "allergic to
    cats" share a predicate but both hold, so a many-valued one is no slot here."""
    record = memory.record
    if record.kind in (Kind.EPISODIC, Kind.SUMMARY) or not record.predicate:
        return None
    if not is_single_valued(record.predicate):
        return None
    return record.subject, record.predicate


def _body(memory: ScoredMemory) -> str:
    # Memories stored before ingest typed their quotes, or by another extractor, are read
    # alike.
    return strip_speaker(as_typed(memory.record.text))


def _stated(memory: ScoredMemory) -> tuple[object, ...]:
    return (memory.record.stated_at, memory.record.created_at)


#: A name or a number inside a sentence: "MacBook Pro", "40 km", "the 19th".
_VALUE = re.compile(r"(?<![.!?:]\s)(?<!^)\b[A-Z][\w'-]*")


#: A name opening a sentence, told from a common word by its shape: a digit or a capital
#: inside it ("PS5 arrived yesterday", "MacBook died"); "Work issued me a laptop" names none.
_OPENING_VALUE = re.compile(
    r"(?:^|(?<=[.!?:]\s))\W*\b([A-Z][\w'-]*\d[\w'-]*|[A-Z][a-z]+[A-Z][\w'-]*)"
)


#: A name written in lower case after "called" or "named" that names something, as chat
#: writes them ("a guy called femi", "a fintech called brightledger", "my cat is called
#: mochi"); not a call made or someone named for something ("my landlord called yesterday",
#: "my manager called jess in", "named jess as the new team lead").
_CALLED_VALUE = re.compile(
    r"(?:\b(?:a|an|one|some)\s+(?:[\w-]+\s+){0,3}?|\b(?:is|'s|was|are|were)\s+)"
    r"(?:called|named)\s+(?!(?:it|that|this|me|us|him|her|them|the|a|an|my|our|his|their|"
    r"off|in|on|at|out|up|back|by|for|to|about|again|round|over)\b)(?-i:([a-z][\w'-]+))",
    re.IGNORECASE,
)


#: Words that go on about someone after "my manager", "dr" rather than name them ("my
#: manager just left", "my sister always says", "dr at the clinic").
_NOT_LOWER_NAMES = (
    "is|was|has|had|and|just|keeps|said|says|left|quit|retired|moved|who|which|that|at|from|"
    "always|never|really|also|still|now|then|literally|actually|basically|finally|recently|"
    "honestly|totally|the|a|an|of|to|in|on|for|with|as|but|or|so|too|lol|tbh|ngl|you|me|him|"
    "her|them|us|works|lives|thinks|wants|needs|loves|hates|got|gets|did|does|went|goes|can|"
    "will|would|should|could|might|isn't|wasn't|doesn't|didn't|won't|can't|dr|mr|mrs|ms|prof|"
    "sent|told|called|named|reckons|thought|gave|put|made|here|there|today|yesterday|tomorrow|"
    # Chat that trails off after whom it names: "late meeting with my boss again", "cos of
    # my boss tho", "my dad haha".
    "again|tho|though|haha|hahaha|lmao|omg|ugh|anyway|anymore|btw|rn|atm|innit|mate|lately|"
    "tonight|sometimes|either|instead|ever|yet|already|mostly|"
    # What belongs to them or is about them ("dr appointment", "my mentor scheme", "my
    # landlord insurance").
    "appointment|appointments|scheme|insurance|agency|account|office|contract|meeting|"
    "meetings|visit|review|check|letter|bill|bills|fees|rent|deposit|number|email|app|"
    "portal|surgery|practice|clinic|group|team|programme|program|course|session|sessions|"
    "call|calls|chat|card|car|house|flat|place|job|work|shift|shifts|birthday|wedding|"
    "party|stuff|thing|things|side|family|dog|cat"
)
#: A name written in lower case right after whose it is, as chat writes them: "my manager
#: sarah is micromanaging", "my fiance dami and i", "dr okafor at my practice". Only where
#: what follows goes on about them, so a word of the sentence is never taken for a name.
_LOWER_CASE_NAME = re.compile(
    r"\b(?:(?:my|our)\s+(?:(?:new|old|current|main|usual|regular|former|previous|best)\s+)?"
    rf"(?:{RELATION_NOUNS})|dr\.?|mr\.?|mrs\.?|ms\.?|prof\.?)\s+"
    rf"(?-i:(?!(?:{_NOT_LOWER_NAMES})\b)([a-z][a-z'-]{{2,}}))"
    r"(?=\s+(?:is|was|has|had|and|just|keeps|said|says|left|quit|retired|moved|who|at|from|"
    r"always|never|really|still)\b|'s\b|\s*[,.!?;:)]|\s*$)",
    re.IGNORECASE,
)


#: Where the name a change moves to ends, written in lower case: a preposition, a conjunction
#: or a word about the move rather than its value ("switched over to flogas for the
#: electric", "moved my salary over to capitec at the end of last month", "ported my number
#: to giffgaff yesterday").
_ARRIVAL_NAME_END = re.compile(
    r"\s(?:at|in|on|with|for|and|but|or|so|because|cos|since|after|from|as|to|now|then|"
    r"instead|too|already|finally|permanently|yesterday|today|last|this|next|which|who|that|"
    r"when|where|while|like|lol|haha|tbh|btw|innit)\b.*",
    re.IGNORECASE,
)
#: Words a change moves to that open no name: a pronoun, a determiner, a comparison, or a
#: way of doing things chat spells outside the dictionary ("moved it to the garage",
#: "switched to a better deal", "moved to flexi time", "switched over to paperless
#: billing").
_NOT_ARRIVAL_NAMES = frozenset(
    "it them him her me us you one ones this that these those something someone somewhere "
    "anything everything nothing the a an my our his their its same other another new old "
    "different better cheaper bigger smaller flexi flexible paperless esim e-sim contactless "
    "e-billing ebilling wfh".split()
)


def _lower_case_arrival(text: str) -> str | None:
    """The name a change moves to, when chat writes it in lower case ("switched over to
    flogas for the electric" → "flogas"): a word no everyday English holds whole, since
    a common one is a way of doing things more often than a name ("moved to part time",
    "switched to monthly payments"). Names written with a capital are read as such."""
    value = arrived(text, moves_only=True)
    if value is None or not value[:1].islower():
        return None
    head = _ARRIVAL_NAME_END.sub("", value).strip(" '-")
    words = head.split()
    if not words or len(words) > 3 or words[0].lower() in _NOT_ARRIVAL_NAMES:
        return None
    if not all(re.fullmatch(r"[a-z][a-z0-9'&-]*", w) for w in words):
        return None
    return None if all(map(everyday_word, words)) else head


#: Each count word's figure.
_FIGURE = {
    word: str(number)
    for number, word in enumerate(
        "two three four five six seven eight nine ten eleven twelve".split(), start=2
    )
}
#: A count written as a word, of what the speaker has ("three kids", "two rescue dogs") or
#: does as a rate ("four days a week", "two cups a day", "twelve hours a day"); not a
#: one-off ("worked seven days last week", "did nine miles on Saturday", "a courtesy car,
#: probably ten days"), "one day I'll…", nor "told him three times". Read as its figure, so
#: "four days a week" and "5 days a week" name two values of one kind.
_WORD_COUNT = re.compile(
    rf"\b({'|'.join(_FIGURE)})\s+"
    r"(?=(?:[\w-]+\s+)?(?:kids|children|dogs|cats|pets)\b"
    r"|(?:days|hours|nights|shifts|sessions|classes|lessons|miles|kilos|litres|cups|pints|"
    r"units|tablets|pills)\s+(?:a|an|per|each|every)\s+(?:day|night|week|fortnight|month)\b)",
    re.IGNORECASE,
)
#: A number, read on the unmasked text so a decimal stays whole ("36.5k", "-2.75").
_NUMBER_VALUE = re.compile(r"(?<!^)\b\d[\w.,:-]*")


#: Capitalised words that name no value: the speaker, and a day that dates a one-off event
#: ("I washed my car on Sunday"; "on Sundays" is a value of a schedule).
_NOT_VALUES = frozenset(
    "I I'm I've I'd I'll Monday Tuesday Wednesday Thursday Friday Saturday Sunday "
    # A title is no value of its own: "Dr Hughes" after "Dr Patel" names another GP.
    "Dr Mr Mrs Ms Miss Prof Sir Dame".split()
)


#: A day that names when something happens again and again, which a schedule holds ("on
#: Sundays", "Saturday mornings", "every tuesday", "moved my day off to Friday"), in any
#: case: a value of the kind "time", told apart from the day of a one-off ("I washed my car
#: on Sunday"), which names none.
_SCHEDULED_DAY = re.compile(
    rf"\b(?P<day>{WEEKDAYS})(?:s\b|\s+(?:mornings|afternoons|evenings|nights|lunchtimes)\b)"
    rf"|\bevery\s+(?P<every>{WEEKDAYS})\b"
    rf"|\b(?:moved|switched|changed|swapped|shifted)\b[^.,;!?]{{0,30}}?\b(?:to|onto)\s+"
    rf"(?P<moved>{WEEKDAYS})\b(?!\s+(?:only|this|next|just)\b)",
    re.IGNORECASE,
)


#: "Tom is my manager since the reorg", "Okafor's our GP now": a sentence that opens by
#: naming who fills a role of the speaker's. Elsewhere a capital opening a sentence says
#: nothing ("Work issued me a MacBook Pro").
_NAMES_ROLE = re.compile(
    r"^\W*(?P<name>[A-Z][a-z]+)(?:'s|\s+(?:is|was|has been|became))\s+(?:now\s+)?(?:my|our)\b"
)


def opens_with_state(body: str) -> bool:
    """Whether a memory states something that holds now, said first: one present state, or a
    message that opens with one and goes on about it ("I live on Albert Road in Southsea.
    Parking is a nightmare in summer."), asking nothing. What the later sentences add
    colours the state; they do not make it history."""
    sentences = split_sentences(body)
    if not sentences or body.rstrip().endswith("?"):
        return False
    return present_state(sentences[0], personal=False, plans=True)


def _names_nothing(word: str) -> bool:
    """Whether a capitalised word opening "X is my …" is a common word, not who fills the
    role ("Today is my first day", "Mum is my rock", "Work is my priority now")."""
    lowered = word.lower()
    return (
        lowered in _COMMON_OPENINGS
        or word in _NOT_VALUES
        or any(is_relation(w) for w in person_words(lowered))
    )


#: Capitalised words that open "X is my …" without naming anyone.
_COMMON_OPENINGS = frozenset(
    "today tonight tomorrow yesterday this that it everything nothing work home life family "
    "health money music food sport running football coffee tea".split()
)


@functools.lru_cache(maxsize=4096)
def values_in(text: str) -> frozenset[str]:
    """The names and numbers `text` states, in lower case; an abbreviation's full stop ends
    no sentence ("Dr. Okafor"). Remembered: recall reads the same memories query after
    query."""
    masked = mask(text)
    found = [unmask(v) for v in (*_VALUE.findall(masked), *_OPENING_VALUE.findall(masked))]
    found += _NUMBER_VALUE.findall(text)
    found += [_FIGURE[w.lower()] for w in _WORD_COUNT.findall(text)]
    found += _CALLED_VALUE.findall(text)
    found += _LOWER_CASE_NAME.findall(text)
    if (arrival := _lower_case_arrival(text)) is not None:
        found.append(arrival)
    role = _NAMES_ROLE.match(text)
    if role is not None and not _names_nothing(role.group("name")):
        found.append(role.group("name"))
    values = {
        v.lower().rstrip(".,:-").removesuffix("'s")
        for v in found
        if v.rstrip(".,:-") not in _NOT_VALUES
    }
    # One spelling per scheduled day ("Tuesday mornings" and "on Tuesdays" name one day).
    days = {
        f"{(day.group('day') or day.group('every') or day.group('moved')).lower()}s"
        for day in _SCHEDULED_DAY.finditer(text)
    }
    return frozenset(values | days)


#: A thing named only to compare with: "my Mini is more fun than my brother-in-law's Audi
#: A4", "unlike Tesco", "compared to Leeds": the words after the comparison, up to where its
#: noun phrase ends (a preposition, a conjunction, a punctuation mark). Not "rather than" or
#: "other than", which set aside ("the FT rather than the Guardian"); not an amount's bound
#: ("more than 40 km a week" is the speaker's own figure); and not a comparison with a time,
#: a feeling or a doing, after which the speaker's own value may follow ("busier than ever
#: at KPMG", "more than I expected here in York", "nothing better than commuting on my new
#: Brompton").
_COMPARED_WITH = re.compile(
    r"(?:(?<!\brather )(?<!\bother )\bthan|\bunlike|\bcompared (?:to|with)|\bversus|\bvs)\b\.?"
    r"(?!\s+(?:about\s+|around\s+)?[£$€]?\d)"
    r"(?!\s+(?:ever|before|usual|expected|anything|anyone|anybody|nothing|i|i'm|i've|i'd|we|"
    r"we've|you|it|that|this|what|when|my new|our new|[a-z]+ing)\b)"
    r"(?:\s+(?!(?:in|at|on|here|there|for|with|from|to|by|and|but|so|since|as|when|which|"
    r"now|because|after|where|who)\b)[\w'&-]+){1,5}",
    re.IGNORECASE,
)


#: A choice passed over, named as the one that would not match the one taken: "went with
#: Admiral in the end, £488, Aviva wouldn't budge", "remortgaged with Halifax, Nationwide
#: couldn't get near it".
_PASSED_OVER = re.compile(
    r"(?:^|(?<=[,;.!?])\s*|\b(?:and|but|as|because|since|cos)\s+)(?:the\s+)?"
    r"(?-i:[A-Z][\w'&-]*)(?:\s+(?-i:[A-Z])[\w'&-]*){0,2}\s+"
    r"(?:wouldn't|couldn't|won't|can't|didn't|would not|could not|did not)\s+"
    r"(?:budge|match|compete|beat|come close|get (?:near|close)|price match|move on price)\b",
)


@functools.lru_cache(maxsize=4096)
def compared_values(text: str) -> frozenset[str]:
    """The values `text` names only as what something is compared with ("my Mini is more
    fun than my brother-in-law's Audi A4" → {"audi", "a4"}), or as the choice passed over
    ("went with Admiral, Aviva wouldn't budge" → {"aviva"}): no value it states of its own.
    One it also states elsewhere stays its own ("Tesco's pricier than Aldi, so I switched
    to Aldi")."""
    if _COMPARED_WITH.search(text) is None and _PASSED_OVER.search(text) is None:
        return frozenset()
    rest = _PASSED_OVER.sub(" ", _COMPARED_WITH.sub(" ", text))
    return values_in(text) - values_in(rest)


def topic_words(text: str) -> frozenset[str]:
    """The words that name what `text` is about, kin terms folded ("Gran" is "grandmother"),
    pronoun contractions aside."""
    return frozenset(w for w in person_words(text) if "'" not in w and len(w) > 2)


#: How many of its closest memories a memory is compared with as nearly the same sentence.
_SIMILAR_NEIGHBOURS = 4


#: How many of the best answers to the query are compared with each other as rivals.
_RIVALS = 4


#: What a query asking for the speaker's own name names.
_OWN_NAMES = frozenset(
    {"name", "surname", "nickname", "first name", "last name", "full name", "real name"}
    | {"maiden name", "married name"}
)


_WHO = re.compile(r"^\W*(?:\w+[,:]?\s+){0,2}?who\b", re.IGNORECASE)


def reads_current(found: Cues, text: str) -> bool:
    """Whether `text` may stand in for an earlier answer: lasting (not a passing moment, a
    maybe or the past), hedged but about now ("pescatarian now, I guess"), the start of
    something lasting whatever time word dates it ("First day at St James's today"), an
    event or a move to a new value a day word dates ("Passed my B1 exam today", "They
    changed my title to UX Research Lead this week"), or the latest reading of an amount
    ("The scales said 84 kg this morning")."""
    return (
        found.lasting
        or found.hedged
        or begins_lasting(text)
        or dated_event(text)
        or dated_move(text)
        or measured_now(text)
    )


class Reading:
    """What the ordering needs to know of the recalled memories, each read once."""

    def __init__(
        self,
        ranked: Sequence[ScoredMemory],
        vectors: np.ndarray | None,
        config: OrderingConfig,
        query: str,
    ) -> None:
        self.ranked = ranked
        self.vectors = vectors
        self.bodies = [_body(m) for m in ranked]
        self.slots = [_slot(m) for m in ranked]
        #: When each was said; two clauses of one event were said at once, in no order.
        self.said = [m.record.stated_at for m in ranked]
        self.stated = [_stated(m) for m in ranked]
        read = [cues(body) for body in self.bodies]
        self.additive = [found.additive for found in read]
        #: May stand in for an earlier answer (`reads_current`).
        #: A plan may stand in for an earlier plan only (`planned`).
        self.current = [
            reads_current(found, body) for found, body in zip(read, self.bodies, strict=True)
        ]
        self.planned = [found.planned for found in read]
        self.temporary = [found.temporary for found in read]
        self.past = [found.past for found in read]
        #: Told as over ("My first car was a Fiat Panda"): history no later state stands in for.
        self.over = [told_as_over(body) for body in self.bodies]
        #: Worded as a change ("these days", "quit", "switched"), whatever else it says.
        self.change_worded = [found.change for found in read]
        #: The names the speaker gave their people in any recalled memory ("My sister Priya
        #: is a nurse": "priya" ↔ "sister").
        aliases: dict[str, set[str]] = {}
        for body in self.bodies:
            for name, relation in relation_names(body):
                aliases.setdefault(name, set()).add(relation)
                aliases.setdefault(relation, set()).add(name)
        self.aliases = {word: frozenset(known) for word, known in aliases.items()}
        self.says_change = [lasting_change(body) for body in self.bodies]
        #: Names and numbers each memory states ("MacBook", "40"), in lower case.
        self.values = [values_in(body) for body in self.bodies]
        #: Of those, the ones each names only to compare with (`compared_values`).
        self.compared = [compared_values(body) for body in self.bodies]
        #: The words that name what each memory is about (`topic_words`).
        self.words = [topic_words(body) for body in self.bodies]
        #: The query's own words: two answers sharing only those share the topic asked about
        #: ("Where do my parents live?": "My parents live in Lisbon", "My parents love their
        #: garden"), which says nothing of their answering it alike.
        self.query_words = topic_words(query)
        #: The query asks for one current value ("What car do I drive?").
        one = asks_for_one(query)
        self.asks_for_one = one is not None
        #: What it asks about ("manager"), and the names it says ("Spanish"), as words.
        self.asked_about = topic_words(one.about) if one is not None else frozenset()
        #: The same as it is worded ("GP", "piano lessons"), empty when none is named.
        self.asked_thing = one.about if one is not None else ""
        #: It asks what the speaker is called ("What's my surname?", not "What's my cat's
        #: name?", which asks about "cat").
        self.asks_own_name = one is not None and one.about in _OWN_NAMES
        #: It asks who holds a role ("Who's my GP?").
        self.asks_who = one is not None and _WHO.match(query) is not None
        #: It asks for an amount ("How much is my gym membership?", "How many days a week do
        #: I work?").
        self.asks_amount = asks_an_amount(query)
        #: It asks when ("When does my book club meet?", "What day are bins collected?").
        self.asks_time = asks_when(query)
        self.query_values = values_in(query)
        #: The category the query asks for ("What programming language do I use?", "What
        #: phone do I have?"); the categories of the known values and kinds of things each
        #: memory names ("My laptop's a Dell XPS 13": a laptop), and those of its known
        #: values alone ("…from Java to Go": programming languages), read only then.
        self.asked_category = asked_category(query)
        asked = self.asked_category is not None
        self.categories = [categories_in(body) if asked else frozenset() for body in self.bodies]
        self.value_categories = [
            categories_in(body, specific=True) if asked else frozenset() for body in self.bodies
        ]
        #: A present state that is not itself a change: what a change may displace.
        self.states = [
            opens_with_state(body) and not change
            for body, change in zip(self.bodies, self.says_change, strict=True)
        ]
        best = max((m.breakdown.cosine for m in ranked), default=0.0)
        #: Answers the query (`OrderingConfig.answer_share`); nothing does when no recalled
        #: memory is on the query's side at all.
        self.answers = [
            best > 0 and m.breakdown.cosine >= config.answer_share * best for m in ranked
        ]
        self.datable = [i for i, m in enumerate(ranked) if m.record.kind is not Kind.SUMMARY]
        #: Each memory's nearest recalled answer, summaries aside (they have no one date).
        self.nearest: list[int | None] = [None] * len(ranked)
        self.gram = np.zeros((0, 0), dtype=np.float32)
        if vectors is not None:
            self.gram = vectors @ vectors.T
            self._find_nearest()
        self.similar_cosine = config.same_question_cosine
        self.asked_word_margin = config.asked_word_margin

    def other_slots(self, i: int, j: int) -> bool:
        """Whether two memories fill two different one-at-a-time slots: they answer two
        questions ("I moved to Munich", "I work at BMW now")."""
        return None not in (self.slots[i], self.slots[j]) and self.slots[i] != self.slots[j]

    def new_values(self, n: int, o: int) -> frozenset[str]:
        """The values the later statement `n` states that the earlier `o` does not, less
        those it names only to compare with: "my Mini is more fun than my brother-in-law's
        Audi A4" names no new car. The earlier's comparisons still count as its values
        ("I shop at Aldi, much cheaper than Tesco" has said Tesco)."""
        return self.values[n] - self.values[o] - self.compared[n]

    def _find_nearest(self) -> None:
        answers = [i for i in self.datable if self.answers[i]]
        if not answers or len(self.datable) < 2:
            return
        among = self.gram[np.ix_(self.datable, answers)]
        column_of = {i: column for column, i in enumerate(answers)}
        for row, i in enumerate(self.datable):
            if i in column_of:
                among[row, column_of[i]] = -np.inf
        for row, column in enumerate(among.argmax(axis=1)):
            if np.isfinite(among[row, column]):
                self.nearest[self.datable[row]] = answers[int(column)]

    def cosine(self, i: int, j: int) -> float:
        return float(self.gram[i, j])

    @functools.cached_property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """The pairs (i < j) any evidence could join, found without reading every pair: a
        memory and its nearest answer (a change, two related answers), nearly the same
        sentence, the same slot. Recall may return a thousand memories; found once, read by
        the rules' grouping and by the learned weighings."""
        found: set[tuple[int, int]] = set()
        for i in self.datable:
            j = self.nearest[i]
            if j is not None:
                found.add((min(i, j), max(i, j)))
        if self.vectors is not None and len(self.datable) > 1:
            # Nearly the same sentence: each memory's few closest ones, so that a recall of
            # many near-identical memories stays linear in their number.
            among = self.gram[np.ix_(self.datable, self.datable)]
            np.fill_diagonal(among, -np.inf)
            width = min(_SIMILAR_NEIGHBOURS, len(self.datable) - 1)
            closest = np.argpartition(-among, width - 1, axis=1)[:, :width]
            for row, columns in enumerate(closest):
                for column in columns:
                    if among[row, column] >= self.similar_cosine:
                        i, j = self.datable[row], self.datable[int(column)]
                        found.add((min(i, j), max(i, j)))
        # The best few answers to the query, each with the others (`rival_answers`).
        best = sorted(
            (i for i in self.datable if self.answers[i]),
            key=lambda i: -self.ranked[i].breakdown.cosine,
        )[:_RIVALS]
        found.update((min(i, j), max(i, j)) for at, i in enumerate(best) for j in best[at + 1 :])
        by_slot: dict[tuple[str, str], list[int]] = {}
        for i in self.datable:
            slot = self.slots[i]
            if slot is not None:
                by_slot.setdefault(slot, []).append(i)
        for members in by_slot.values():
            found.update((i, j) for at, i in enumerate(members) for j in members[at + 1 :])
        return tuple(sorted(pair for pair in found if not self._answers_through_another(*pair)))

    def _answers_through_another(self, i: int, j: int) -> bool:
        """Whether the later of two memories was recalled only through the one it replaced,
        and fills no slot the earlier fills: it answers the question that one answered, which
        REPLACE tied it to, not the earlier memory's ("I moved to Munich", recalled through
        "I live in Berlin", is no later answer to "Where do I work?" than "My wife and I both
        work at Siemens")."""
        n = later_of(self, i, j)
        o = j if n == i else i
        return self.ranked[n].breakdown.matched_via is not None and (
            self.slots[n] is None or self.slots[n] != self.slots[o]
        )


def later_of(reading: Reading, i: int, j: int) -> int:
    return i if reading.stated[i] > reading.stated[j] else j


def value_clause(reading: Reading, n: int, o: int) -> str:
    """The clause of a later statement that names its new value, whose subject says whose
    change it is: "My girlfriend just started at Airbus" of "…, so we're both aerospace
    nerds now" is the girlfriend's news, whoever the rest is about; "I joined PureGym" of
    "The gym closed so I joined PureGym" the speaker's. A clause of the speaker's that names
    one goes first, as in REPLACE, so a side clause's date or place decides nothing ("My
    manager quit in January, and I left Deloitte for KPMG"). The whole statement when no
    clause names a new value, or when the clause naming it moves someone of the speaker's
    and another says the speaker moved too ("Work transferred my husband to Bristol, so
    we've all moved down there"): whose change it is, the whole says."""
    body = reading.bodies[n]
    new_values = reading.new_values(n, o)
    clauses = split_conjoined(body)
    naming = [c for c in clauses if values_in(c) & new_values] if new_values else []
    for clause in naming:
        if not subject_words(clause, possessed=True) and reported_about(clause) is None:
            return clause
    if (
        naming
        and recipient(naming[0]) is not None
        and any(cues(c).change and not subject_words(c) for c in clauses if c not in naming)
    ):
        return body
    return naming[0] if naming else body


_NUMBER = re.compile(r"[\d.,:]+")


_TIMES = frozenset(
    f"{day}{plural}"
    for day in (
        "monday tuesday wednesday thursday friday saturday sunday january february march "
        "april may june july august september october november december"
    ).split()
    for plural in ("", "s")
)


#: A day of the month: "the 9th", "3rd".
_ORDINAL = re.compile(r"\d{1,2}(?:st|nd|rd|th)")


def kind_of(value: str) -> str:
    """A value's kind by its shape: a number ("40", "6"), a day, a month or a day of the
    month ("9th"), or a name ("5k", "B1" and "MX-5" are names): "My birthday is on the 9th
    of November" names no value of the kind "I'm a Scorpio" does."""
    if _NUMBER.fullmatch(value):
        return "number"
    return "time" if value in _TIMES or _ORDINAL.fullmatch(value) else "name"


def _typed_kind(value: str) -> str:
    """`kind_of`, with a name of a known category typed by it ("iphone" → "name:phone",
    "azure" → "name:cloud"). A value that is also an everyday word or a person's name
    ("Go", "Ruby", "Julia") stays untyped."""
    kind = kind_of(value)
    category = CATEGORY_OF.get(value) if kind == "name" else None
    if category is None or value in ALSO_ORDINARY_WORDS:
        return kind
    return f"name:{category}"


def _category(kind: str) -> str | None:
    """The category of a typed name's kind (`_typed_kind`), else None."""
    return kind.partition(":")[2] or None


def shared_kinds(these: Iterable[str], those: Iterable[str]) -> frozenset[str]:
    """The kinds (`kind_of`) two sets of values have in common, known categories telling
    names apart: "Pixel" and "Azure" are names of two kinds (a phone, a cloud), so "We
    moved from AWS to Azure" names no other phone than "My phone is a Pixel 7". Names of
    related categories (`related_categories`) are of one kind, and a name the lexicon lacks
    ("Nokia", "Kona") may be of any kind."""
    mine = {_typed_kind(v) for v in these}
    theirs = {_typed_kind(v) for v in those}
    shared = {kind for kind in mine & theirs if _category(kind) is None}
    typed_mine = {c for c in map(_category, mine) if c is not None}
    typed_theirs = {c for c in map(_category, theirs) if c is not None}
    if (
        any(related_categories(a, b) for a in typed_mine for b in typed_theirs)
        or ("name" in mine and typed_theirs)
        or ("name" in theirs and typed_mine)
    ):
        shared.add("name")
    return frozenset(shared)


def of_another_category(values: Iterable[str], categories: Iterable[str], asked: str) -> bool:
    """Whether a statement names only things of another kind than the `asked` category: some
    of its known values' or things' `categories` are unrelated to it, and every name among
    its `values` is of such a category ("AWS" and "Azure" for a phone; "Spotify" of "we pay
    15 a month for Spotify", whose number prices it). An unknown name ("Nokia", "Rider")
    may be of any kind."""
    kinds = {_typed_kind(v) for v in values if kind_of(v) == "name"}
    unrelated = [category for category in map(_category, kinds) if category is not None]
    return (
        any(not related_categories(c, asked) for c in categories)
        and len(unrelated) == len(kinds)
        and not any(related_categories(c, asked) for c in unrelated)
    )
