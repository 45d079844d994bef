"""When a statement holds and how sure it is: now, a passing moment, a maybe, a plan, an
addition, the past, or a one-off event."""

from __future__ import annotations

import re
from dataclasses import dataclass

from adk_memory.extraction.cues.lazy import LazyPattern, remembered
from adk_memory.extraction.sentences import split_sentences

#: The months, as a regular-expression alternation.
MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
#: A day of the week, as a regular-expression group.
WEEKDAYS = "(?:mon|tues|wednes|thurs|fri|satur|sun)day"
#: A statement bounded to a passing moment: it says nothing about the lasting value.
_TEMPORARY = LazyPattern(
    r"\b(?:this (?:morning|afternoon|evening|week|weekend|saturday|sunday|monday|tuesday|"
    r"wednesday|thursday|friday)|today|tonight|tomorrow|right now|for (?:the|this|a) "
    r"(?:day|night|weekend|week|trip|holiday|holidays|conference|summer|visit|meeting|wedding|"
    r"funeral|party|gig|festival|match)|"
    r"for a (?:few|couple of) (?:days|weeks|hours)|for (?:a|an|one|two|three) (?:days?|weeks?|"
    r"nights?|hours?)|(?:until|till|til) (?:monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday|tomorrow|next)|on (?:a |my )?(?:trip|holiday|vacation|business|a visit)|visiting|"
    # Until what is broken is mended or replaced: "till the boiler's fixed", "until the new
    # screen arrives".
    r"(?:until|till|til) [^,.;!?]{1,30}?(?:(?:'s| is| are| gets?) (?:fixed|repaired|back|sorted|"
    r"done)| arrives| comes(?: back)?| pays out)|"
    # A stand-in while the usual one is away or mended, or the speaker is: "While Sarah's
    # off, I report to Tom", "while mine's in the garage", "while I'm up in Scotland".
    r"while [^,.;!?]{1,40}?(?:'s|'re|'m| is| are| am| gets?) (?:off|away|abroad|overseas|"
    r"on (?:leave|holiday|tour)|"
    r"being|in for|in the garage|closed|shut|down|short-staffed|fixed|repaired|up in|over in|"
    r"visiting|staying)|"
    # A span of the speaker's own ("My usual is a mint tea while I'm pregnant", "whilst we're
    # renovating"), not "while I'm at it" or "while I'm enjoying it"; "while my husband
    # works at Meta" sets two people side by side and bounds nothing.
    r"(?:while|whilst) (?:i'm|i am|we're|we are) (?:pregnant|expecting|breastfeeding|nursing|"
    r"abroad|away|on|off|in|staying|living|recovering|between|waiting|studying|training|"
    r"visiting|travelling|traveling|sick|ill|injured|renovating|house-?sitting)\b|"
    # Placed at a client by the employer: "Working at the client site at Barclays".
    r"client (?:site|office|premises)|(?:at|with) (?:a|the|our) client\b(?!')|"
    # A stand-in or a fixed term: "maternity cover", "interim till the new head starts",
    # "6 month fixed-term contract", "on loan from Amazon", "uni placement till June".
    # Cover as a stand-in ("made me the cover for ward 7"), not the cover a policy gives for
    # a price ("matched the cover for £455", "same cover for about 80 quid less").
    r"(?:maternity|paternity|sick|holiday|leave) cover|"
    r"cover(?:ing)? for(?!\s+(?:(?:about|around|roughly|just|only|under|over)\s+)?"
    r"(?:[£$€]|\d[\d,.]*\s*(?:quid|pounds|dollars|euros|bucks)\b))|"
    r"interim|acting (?:manager|"
    r"head|lead|boss)|fixed[- ]term|temp (?:role|job|contract|work)|temping|internship|"
    r"placement|on loan|loaned|put(?:ting)? (?:me|us) up|"
    # Given up for a season of abstaining: "given up coffee for lent".
    r"for (?:lent|dry january|veganuary|sober october|stoptober)|"
    # A thing lent, not money: "the garage has lent me a Corsa", not "lent us part of the
    # deposit".
    r"(?:lent|lending) (?:me|us) (?:a|an|his|her|their)\b"
    r"(?!\s+(?:bit|loan|hand|deposit|few|little|couple)\b)|"
    r"being renovated|"
    # While the speaker's own is mended: "while the clutch gets replaced".
    r"while [^,.;!?]{1,40}?(?:'s| is| are| gets?) (?:being )?(?:replaced|fixed|repaired|mended|"
    r"serviced)|"
    r"(?:in|at) (?:a|an) (?:hotel|airbnb|b&b|travelodge|hostel)|(?:detox|trial) (?:week|month)|"
    # Until a day or a season ahead, or until something happens: "till March", "until the
    # sale goes through", "till they hire someone"; not a past one ("until last year").
    r"(?:until|till|til) (?!(?:now|recently|then|last|(?:19|20)\d\d)\b)"
    rf"(?:{MONTHS}|spring|summer|autumn|fall|winter|christmas|"
    r"easter|the end|the new|further notice|the \d{1,2}(?:st|nd|rd|th)\b|"
    r"the \w+ (?:starts|finishes|ends|wraps|"
    r"arrives|comes|goes|is|are|gets)|the (?:sale|project|contract|baby|move|keys))|"
    # A car or a job lent for a while: "a hire Corsa", "on secondment at HSBC".
    # (Not "bought on hire purchase".)
    r"(?:hire|hired|rental) (?!purchase\b)(?:car|van|bike|e-bike|(?-i:[A-Z])\w*)|"
    r"(?:on|during) (?:a |my )?secondment|secondment (?:from|to|at|with)\b|seconded|"
    r"contract (?:ends|runs out|is up|finishes)|"
    # Off or mended for a while, or someone standing in: "Sarah is off sick this month", "the
    # iPhone is being fixed", "he's covering this month".
    r"off sick|(?<!was )(?<!were )being (?:fixed|repaired|mended|serviced)|"
    r"(?:'s|'re|'m| is| are| am) covering|"
    r"at (?:a|the) (?:conference|meeting|workshop|airport|hotel)|(?:dog|house|baby|cat)-?sitting|"
    r"rented|borrowed|next (?:week|month|weekend)|"
    # A stand-in while the usual one is away, a trial, a go for fun: "I'm on my old Motorola
    # while it's in for repair", "signed up for the free trial", "test drove a Tesla".
    r"in for (?:a )?(?:repairs?|service|servicing|fixing|new \w+)|getting a new (?:screen|battery|"
    r"clutch|engine|gearbox|part)|sent off (?:to|for)\b|courtesy car|loan(?:er)? (?:car|phone|"
    r"laptop|bike)|(?:free )?trial|test[- ]?(?:drove|drive|driving|driven|rode|ride|riding|ridden)|"
    r"(?:just )?for fun|"
    r"just to (?:try|see|test|watch)|for the time being|temporarily|"
    # A holiday or a leave: "Staying at my parents' over Christmas", "on maternity leave".
    r"over (?:christmas|easter|the holidays|the bank holiday|new year|half term|the summer)|"
    r"(?:maternity|paternity|sick|compassionate) leave|"
    # The usual one out for a day, so another instead: "The gym was shut so I swam at
    # Ponds Forge instead", "Buses were on strike", "Maria is away so Sofia is cleaning for
    # us", "Jo was fully booked so I went to Supercuts".
    r"(?:was|were|is|are) (?:shut|closed|cancelled|full(?!-)|booked up|out of order|"
    r"on strike)|"
    # (Unless it is said to last: `LASTS`.)
    r"(?:was|were|is|are|'s) (?:away|off sick|on leave|fully booked),? so\b|"
    r"on strike|half the (?:week|time)|during term|in term time|"
    # A trip in another car, or a one-off in place of the usual: "Driving a Fiat Tipo around
    # Sicily", "so I did a class at Fitness First instead".
    r"(?:driving|riding|cycling|touring) [^.,;]{1,40}? around (?-i:[A-Z])\w*|"
    r"so (?:i|we) (?:did|went|swam|got|took|had|used|drove|walked|cycled)\b[^.]{0,60}\binstead)\b",
    re.IGNORECASE,
)
#: "as of this week", "since this morning": the start of a lasting change, not a moment.
_CHANGE_START = LazyPattern(
    r"\b(?:(?:as of|since|from|starting) (?:this|today|tomorrow|next)|"
    r"(?:started|began|begun|starts|start) (?:[\w-]+ )?(?:this|today|last))\b",
    re.IGNORECASE,
)
#: Words that say a change is for good, whatever passing moment or bound the statement also
#: tells ("Moved to Sheffield for good, the rental van was a nightmare", "moved to Leeds during
#: lockdown and never left").
LASTS = LazyPattern(
    # Not denied: "for the winter, it's not permanent".
    r"(?<!\bnot )(?<!n't )(?<!\bnever )"
    r"\b(?:for good|permanent|permanently|for the foreseeable(?: future)?|long[- ]term|"
    r"from now on|"
    r"never (?:left|went back|looked back)|and stayed)\b",
    re.IGNORECASE,
)
#: A plan: not a fact about the present, but a later plan stands in for an earlier one.
_PLAN = LazyPattern(r"\b(?:plan(?:ning)? to|planning on|going to|gonna)\b", re.IGNORECASE)
#: A hedge on a present statement ("It's pescatarian now, I guess"): still about now.
_HEDGE = LazyPattern(r"\b(?:i think|i guess|i suppose|probably)\b", re.IGNORECASE)
#: What says a plan the speaker had missed came about after all, or what holds instead: "…
#: and we did, finally", "I was supposed to start in May and finally did", "we were supposed
#: to pay 1100 but our rent is 1200 now", "I had intended to stay but I work at Google now".
_DID_AFTER_ALL = (
    r"[^.,;]*\band\s+(?:\w+\s+)?(?:did|do|does|have|has)\b"
    r"|[^.;?]*\b(?:finally|instead|in the end|ended up|still)\b|[^.;?]*(?<!\bfor )\bnow\b"
)
#: A possibility, a plan, a wish or a suggestion: not a fact about the present.
_HYPOTHETICAL = LazyPattern(
    r"\b(?:if|would|could|should|might|(?-i:may)|imagine|imagining|wonder|wondering|"
    r"thinking (?:about|of)|considering|consider|plan(?:ning)? to|planning on|"
    r"going to|gonna|want(?:s)? to|"
    # Taken back as a joke, standing alone: "I'm officially a Tottenham fan now. (Kidding
    # — I'd sooner take up cricket.)", "moving to Mars jk"; not "are you kidding me",
    # "everyone thought I was joking" or "joking aside", which insist.
    r"(?:^|(?<=[(.!?;\u2014\u2013])|(?<=[(.!?;\u2014\u2013]\s)|(?<=\blol\s)|(?<=\bhaha\s)|"
    r"(?<=\blmao\s))(?:just |only )?(?:kidding|joking)(?=\s*(?:[).!?,;\u2014\u2013]|$))|"
    r"(?-i:jk)(?=\s*(?:[).!?,;\u2014\u2013]|$))|"
    # "would" contracted, wishing for a change: "I'd love to drop to 30 hours"; not a
    # request of the listener ("I'd like you to remember", "id like to let you know").
    r"\b(?:i'd|we'd|id)\s+(?:love|like)\s+to\s+(?!(?:tell|let|say|add|mention|ask|share|"
    r"update|remind|know|note|point|check|confirm|correct|flag|clarify)\b)|"
    r"hope to|hoping to|wish|someday|one day|maybe|perhaps|probably|possibly|i think|i guess|"
    r"not sure|might be|dream(?:ing)? of|tempted to|interview(?:ed)? (?:at|with|for)|"
    r"fingers crossed|apply(?:ing)? (?:to|for)|applied (?:to|for)|"
    # The speaker's plan that did not happen: "we were meant to be moving to Lewes this month
    # but the sale collapsed", "I was supposed to start at Google"; not one that did ("we
    # were supposed to move last month and we did, finally"), nor what something is said to
    # be ("it's supposed to be cheaper"), nor a duty now ("I'm supposed to take 100mg now").
    rf"(?:i|we)\s+(?:was|were|had\s+been)\s+(?:meant|supposed)\s+to(?!{_DID_AFTER_ALL})|"
    rf"(?:i|we)\s+had\s+(?:planned|hoped|meant|intended)\s+to(?!{_DID_AFTER_ALL})|"
    # What the speaker first wanted, and an attempt that failed: "We'd originally wanted
    # Sardinia, but the flights were ridiculous", "tried to get a table at Hawksmoor but
    # it was fully booked" (what came about is something else, whatever follows).
    r"(?:i|we)(?:'d|\s+had)?\s+(?:originally|initially)\s+(?:wanted|planned|hoped|meant|"
    r"intended)|"
    # The attempt opens the statement: "My rent is 1,100 now, tried to negotiate but …"
    # states its rent, and so does "tried to negotiate but the rent is 1,100 now".
    r"^\W*(?:(?:i|we)\s+)?(?:tried|attempted)\s+to\s+(?=[^.;!?]*\bbut\b)"
    r"(?![^.;!?]*(?<!\bfor )\bnow\b)|"
    # Somewhere or something weighed up, opening the clause: "looking at Boise because
    # prices here are nuts", "we're looking at houses in Horsham"; not what the speaker
    # reads from before saying what holds ("Looking at my payslip, I'm on 45k now",
    # "looking at today's weigh-in I'm down to 80kg").
    r"^\W*(?:(?:i'm|we're|i am|we are|i've been|we've been)\s+)?(?:seriously\s+|also\s+|now\s+)?"
    r"looking (?:at|into)(?!\s+(?:my|our|the|it|this|that|his|her|their|him|them|you|your|"
    r"these|those|today's|yesterday's|last|both|everything|what|a|an)\b)"
    r"(?![^,.;]*,\s*(?:i|i'm|i've|my|we|we're|our)\b)"
    r"(?!\s+[\w'-]+(?:\s+[\w'-]+)?\s+(?:i|i'm|i've|my|we|we're|our)\b)|"
    # A wish, or someone's wrong belief: "Saving up for the Pixel 9", "Fancy the Galaxy
    # S24", "People always assume I drive a Tesla", "The pharmacy keeps thinking my GP is",
    # "my colleague keeps saying I'm from Aberdeen", "the groomer insisted she's a collie".
    r"saving (?:up )?for|lusting after|fancy|eyeing(?: up)?|obsessed with the new|"
    r"tempted by|(?:keep|kept|been|started) looking at|not for me|assumes?|assumed|"
    r"keeps? thinking|thinks? (?:i|my)|mistakes? me|"
    r"keeps? (?:saying|insisting|calling me)|keeps? telling (?!me\b)|insist(?:s|ed|ing)?|"
    r"swears?|(?:is|was|are|were) convinced|reckons? (?:i|my)|"
    # Advice, not what the speaker does: "everyone's telling me to watch Shogun next".
    r"(?:telling|told|tells|urging|urged) me to (?:watch|try|read|get|buy|switch|use|see)|"
    r"recommend(?:s|ed|ing)?|suggest(?:s|ed|ing)?|"
    # A comparison: "some days it feels like being managed by Michael Scott".
    r"like being|as if|as though)\b",
    re.IGNORECASE,
)
#: Context that scopes a statement: "For side projects I write Rust", "For anything
#: job-related please use my work address", "In winter I swim at the leisure centre", "For
#: long trips we take the Volvo", "In Football Manager I'm in charge of Wrexham". A value
#: beside others, never a one-at-a-time slot. A month or a year dates, it does not scope
#: ("In March I moved to Leeds"), and something new brings a change about ("With the new
#: express route my commute is down to 30 minutes").
_SCOPED = LazyPattern(
    r"^\W*(?:for|in|on|at|during|when|with(?! (?:the|my|our) new\b)|outside|besides|apart from)\b"
    rf"(?!\s+(?:{MONTHS}|(?:19|20)\d\d)\b)"
    r"[^,]*?\b(?:i|i'm|i've|we|we're|we've|it's|my|our)\b"
    # A request within a purpose: "For anything job-related please use my work address".
    r"|^\W*for\b[^,]*?\bplease\b",
    re.IGNORECASE,
)


def scoped(text: str) -> bool:
    """Whether a context opening `text` bounds what it says to that context (`_SCOPED`)."""
    return _SCOPED.search(text) is not None


#: Words before a "too" of degree, not of addition, when a word follows ("the lessons got
#: too pricey", "it was too itchy", "way too far"; "my Italian is too." adds).
_DEGREE_BEFORE_TOO = (
    "is was are were got get gets be been feel felt seem seems looks way far much 's 're 'm "
    "just bit all".split()
)
#: An addition beside what is known: never a displacement. "The other day", "each other",
#: a place ("the other side of Fratton", "the other end of town") and "second-hand" add
#: nothing, and "second" adds only as "a second" ("a second job";
#: "my second year" is a rank).
#: Having several at once: "so I've got both now", "I use both", "I'm carrying two phones
#: now", "so now i've got 2 phones". Not a value said of both ("-3.25 in both now"), and not
#: a count of people or pets said again, which changed ("We have three kids now" after "I
#: have two kids").
_SEVERAL = (
    r"\b(?:have|has|got|use|keep|kept|own) both(?= now\b| of them\b|\s*[.!?,]|\s*$)"
    r"|\bcarrying (?:both|two|three|2|3)\b"
    # The speaker holding them, not a thing ("it has two SIMs") nor a need ("didn't need to
    # own two laptops", "I can't use two laptops").
    r"|\b(?:i|we)(?:'ve|'m| have| am)?\s+(?:(?:now|also|still|just|actually)\s+)?"
    r"(?:(?:got|have|own|use|using|juggling|carry|drive|run)\s+)+(?:two|three|2|3)\s+"
    r"(?:[a-z]+\s+)?(?:phones|mobiles|laptops|computers|tablets|watches|cars|bikes|jobs|emails|"
    r"email addresses|numbers|sims|accounts|gyms|(?-i:[A-Z])\w+s)\b"
)
_HOLDS_SEVERAL = LazyPattern(_SEVERAL, re.IGNORECASE)
_ADDITIVE = LazyPattern(
    r"\b(?:also|too(?!\s+[a-z])|"
    + "".join(rf"(?<!{re.escape(word)} )" for word in _DEGREE_BEFORE_TOO)
    + r"too|as well|either|another|"
    r"(?<!each )(?<!every )other(?! (?:day|night|week|weekend|morning|evening|"
    r"afternoon|time|than|hand|side|end|way|direction)\b)|additionally|in addition|besides|added|"
    r"(?<!for )a second(?![- ]?hand)|extra)\b"
    rf"|{_SEVERAL}",
    re.IGNORECASE,
)
#: "Also," opening a sentence, set off by a comma, adds a piece of news to the conversation,
#: not a value beside another ("oh also, I swapped HelloFresh for Gousto", "Also, side note:
#: new email address is …"); "Also I use Tidal for podcasts", "I also play bass" and "the
#: bass too" still add.
_NEWS_ALSO = LazyPattern(
    r"(?:^|(?<=[.!?]\s))\W*(?:(?:oh|ah|and|ok|okay|btw|so|right)\W+){0,2}also\s*[,:\u2014\u2013-]+\s*",
    re.IGNORECASE,
)
#: A past state or event ("I lived in Tokyo for a year", "when I was a student").
_PAST = LazyPattern(
    # "getting used to", "what I'm used to" are no habit of the past ("I'm used to Vim"
    # may be either: read as the past, it orders nothing).
    r"\b(?:(?<!getting )(?<!get )(?<!got )(?<!what i'm )(?<!what we're )used to|"
    r"when i was|back when|back then|ago|"
    r"in (?:19|20)\d\d|as a (?:kid|child|student|teenager)|after college|"
    r"after school|growing up|grew up|years? back|"
    # A stage of life told in the past: "Rowing was my whole life at uni".
    r"(?:was|were|did|used to|(?:i|we) [a-z]+ed)\b[^.;!?]{0,60}\b(?:at|in|during|through) "
    r"(?:uni|university|college|high school|secondary school|sixth form|grad school|school)\b"
    r"(?! now\b))\b",
    re.IGNORECASE,
)
#: A stretch of life recalled ("it reminded me of the year I was doing 6:00 starts at the
#: depot"): the past, unless the statement also says what holds now ("I'm on earlies now,
#: the year I was doing nights nearly broke me", "Started at Primark, where I worked the
#: summer I was doing my A levels").
_RECALLED_STRETCH = LazyPattern(
    r"\bthe (?:year|years|summer|winter|spring|autumn|time|months?|weeks?|days|period) "
    r"(?:when |that )?(?:i|we) (?:was|were) [a-z]+ing\b",
    re.IGNORECASE,
)
#: A start, a move or a likeness said beside such a stretch: what holds now ("got a job at
#: Greggs, same as the summer I was doing my GCSEs", "green tea for me, like the time I was
#: living in Kyoto").
_STARTED_OR_MOVED = LazyPattern(
    r"\b(?:started|starting|began|begun|joined|moved|switched|relocated|transferred|got|took|"
    r"bought|back|same|like|since|reminds)\b",
    re.IGNORECASE,
)
#: Where someone grew up, as what names a thing of now ("the house I grew up in", "the
#: village where we grew up"): the past of the thing's name, not of the statement ("My
#: parents still live in the house I grew up in").
_GREW_UP_IN = LazyPattern(
    r"\b(?:the|a|an|my|our)\s+(?:[\w'-]+\s+){0,2}?(?:that\s+|which\s+|where\s+)?"
    r"(?:i|we)\s+grew up(?:\s+(?:in|on|at|near|with))?\b(?!\s+(?:the|a|an|my|our|in|[A-Z]))",
    re.IGNORECASE,
)
#: A state of the speaker's told as over: "My first car was a Fiat Panda", "Our old flat was
#: in Hove". Not a passive change ("My car was stolen"), nor a clause set against now ("My
#: rent was 1,200 but it's 1,350 now").
_PAST_STATE = LazyPattern(
    r"^\W*(?:my|our)\s+(?:[\w'-]+\s+){0,3}?(?:was|were)\s+(?:a|an|the|at|in|on|with|called|"
    r"named)\b(?!.*\b(?:now|but|these days|nowadays|any ?more|until|till)\b)",
    re.IGNORECASE,
)
#: "Started eating fish again a few weeks ago", "I moved to Munich three weeks ago": a
#: recent "ago" dates the start of what holds now. Years back it is history ("I moved to
#: London fifteen years ago"), and an ending is no start ("I sold my car a month ago" says
#: nothing of the car bought since).
#: How many days, weeks, months or years ("three", "a few", "12"), longest first.
COUNT = (
    r"\d+|a couple of|a few|several|an|a|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve"
)
_RECENTLY = rf"(?:{COUNT}) (?:days?|weeks?|months?) ago"
_STARTED_AGO = LazyPattern(
    r"\b(?:started|began|begun|took up|joined|moved|relocated|switched|changed|transferred|"
    rf"converted|became|got married|got engaged|married|adopted|signed up)\b"
    rf"[^.;!?]{{0,60}}?\b{_RECENTLY}\b",
    re.I,
)
_RECENT_AGO = LazyPattern(rf"\b{_RECENTLY}\b", re.I)
#: Words that set what holds now against what held before ("We're in Munich now", "it's
#: sparkling water with dinner these days", "no longer", "instead"). "now" opening what must
#: be done next sets nothing against before ("ASOS sent the wrong size, now I have to send it
#: back").
NOW_VERSUS_BEFORE = (
    r"now(?!,? (?:i|we)(?:['\u2019]ve)? (?:have to|need to|got to|gotta|must)\b)|these days|"
    r"nowadays|from now on|no longer|any longer|not any ?more|any ?more(?! than)|no more|instead|"
    r"change of plans?|plans? (?:have |has )?changed"
)
#: Those words, where they stand as words.
SETS_NOW_AGAINST_BEFORE = LazyPattern(rf"\b(?:{NOW_VERSUS_BEFORE})\b", re.IGNORECASE)
#: Wording that says a value changed (the update may name neither old nor new value).
_CHANGE = LazyPattern(
    rf"\b(?:{NOW_VERSUS_BEFORE}|"
    r"switched|switching|moved|changed|swapped|traded|replaced|upgraded|downgraded|converted|"
    r"transferred|ported|migrated|shifted|ditched|dropped|quit|cancell?ed|sold|gave up|"
    r"stopped|left|finished|done with|retired|took a job|relocated|gone over to|kicked the habit|"
    r"rebooked|rescheduled|"
    # Not where something is done ("work from home up to 3 days a week").
    r"from (?!home\b)\S+(?: \S+){0,3} to)\b",
    re.IGNORECASE,
)


#: A statement of a past event rather than a present state ("I went", "we bought").
IRREGULAR_PAST = (
    "went was were had got took made saw won bought sold did came met ate drove flew ran gave "
    "found told said lost paid spent left wrote read broke began quit put cut set kept sent "
    "brought thought felt heard held built".split()
)
IRREGULAR = "|".join(IRREGULAR_PAST)
_PAST_VERB = LazyPattern(
    rf"\b(?:i|we)\s+(?:\w+ed|{IRREGULAR})\b",
    re.IGNORECASE,
)
#: Said of the speaker or the speaker's people: a first-person word early on, or a gerund
#: subject ("Living in Austin means tacos every weekend").
_PERSONAL = LazyPattern(
    r"^(?:(?:\W*\w+\W+){0,3}?(?:i|i'm|i've|we|we're|our|my)\b|\W*[a-z]+ing\b)", re.IGNORECASE
)


@dataclass(frozen=True)
class Cues:
    """What the wording of one statement allows."""

    temporary: bool
    hypothetical: bool
    additive: bool
    past: bool
    change: bool
    #: A plan said as a plan ("We're going to Portugal in June"): no maybe, not the past,
    #: not bounded to a passing moment.
    planned: bool = False
    #: About now but hedged ("I'm mostly pescatarian now, I guess"): hypothetical only by
    #: its hedge, not the past, not bounded to a passing moment.
    hedged: bool = False

    @property
    def lasting(self) -> bool:
        """Whether the statement may fill a single-valued slot: about now, for good."""
        return not (self.temporary or self.hypothetical or self.past)


def holds_several(text: str) -> bool:
    """Whether `text` says the speaker has several of a thing at once, whichever clause says
    it ("Got my Irish passport, so I've got both now"): the earlier one still holds."""
    return _HOLDS_SEVERAL.search(text) is not None


@remembered
def cues(text: str) -> Cues:
    """What the wording of `text` allows."""
    temporary = (
        bool(_TEMPORARY.search(text)) and not _CHANGE_START.search(text) and not LASTS.search(text)
    )
    question = text.rstrip().endswith("?")
    hypothetical = bool(_HYPOTHETICAL.search(text)) or question
    # A recent start dated by "ago" is no past, unless the past is said otherwise too
    # ("when I was a student").
    started = _STARTED_AGO.search(text) is not None
    dated = _GREW_UP_IN.sub(" ", text)
    past = (
        _PAST.search(_RECENT_AGO.sub(" ", dated) if started else dated) is not None
        or _PAST_STATE.match(text) is not None
        or (
            _RECALLED_STRETCH.search(text) is not None
            and SETS_NOW_AGAINST_BEFORE.search(text) is None
            and _STARTED_OR_MOVED.search(text) is None
        )
    )

    def only_by(words: LazyPattern) -> bool:
        """Hypothetical through `words` alone, about no passing moment or the past."""
        return (
            hypothetical
            and not (question or temporary or past)
            and words.search(text) is not None
            and _HYPOTHETICAL.search(words.sub(" ", text)) is None
        )

    return Cues(
        temporary=temporary,
        hypothetical=hypothetical,
        additive=bool(_ADDITIVE.search(_NEWS_ALSO.sub("", text))),
        past=past,
        change=bool(_CHANGE.search(text)),
        planned=only_by(_PLAN),
        hedged=only_by(_HEDGE),
    )


#: The start of something lasting ("first day at St James's", "my new cardiologist", "Ben
#: started at Kingsway"): a time word beside it dates the start, it bounds no passing moment.
_BEGINNING = LazyPattern(
    r"\b(?:first (?:day|week|month|shift|standup|stand-up|lesson|class|session|meeting|"
    r"practice|rehearsal|appointment|morning)|(?:my|our) (?:brand[- ])?new|"
    r"(?:start|starts|started|starting|began|begun|joined|joining) at\b|"
    # A move said ahead of it ("We're moving to Leeds next month").
    r"(?:moving|relocating|switching) (?:over )?to\b)",
    re.IGNORECASE,
)


#: A day word that dates an event said in the past tense ("Passed my B1 exam today",
#: "Completed on the house this morning"): it bounds no passing state.
DAY_WORD = LazyPattern(r"\b(?:earlier )?(?:today|this (?:morning|afternoon|evening|week))\b", re.I)
#: A clause told in the past tense ("Read a piece in the FT this morning").
PAST_TENSE = LazyPattern(
    rf"^\W*(?:[a-z]+ed|{IRREGULAR})\b|\b(?:i|we)\s+(?:just\s+)?(?:[a-z]+ed|{IRREGULAR})\b",
    re.IGNORECASE,
)
#: What frames a past event as how things turned out ("Ended up relocating to Tucson").
_OUTCOME = LazyPattern(r"\b(?:ended up|wound up|finally|in the end)\b", re.IGNORECASE)


@remembered
def one_off_past(text: str) -> bool:
    """Whether `text` tells a one-off event of the past ("went to the Rangers game with a
    mate", "Took the Golf to Halfords"), not how things turned out ("Ended up relocating to
    Tucson") nor an event whose outcome lasts ("Joined Riverside Striders")."""
    return (
        PAST_TENSE.search(text) is not None
        and _OUTCOME.search(text) is None
        and _OUTCOME_EVENT.search(text) is None
    )


#: Events whose outcome lasts ("passed", "signed", "moved in"); "Took the train to work
#: today" or "Used Bing today" is a moment.
_LASTING_EVENT = (
    r"(?:passed|completed|graduated|qualified|signed|bought|adopted|moved|started|joined|"
    r"registered|enrolled|switched|upgraded|married|got (?:married|engaged|promoted|the keys)|"
    r"picked up (?:the keys|my new)|handed in|resigned|retired|accepted|"
    # A change of what is had or done ("Swapped the iPhone for a Pixel today").
    # "Changed trains at Crewe", "transferred £50 to Tom": moments.
    r"swapped|traded|replaced|changed (?:over|jobs|careers|to)|converted|transferred to|"
    r"relocated|emigrated|quit|"
    r"cancell?ed|sold|gave up|took up|got (?:a|my) new)"
)
_OUTCOME_EVENT = LazyPattern(
    rf"^\W*(?:just\s+|finally\s+|officially\s+)?{_LASTING_EVENT}\b|"
    rf"\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|officially\s+)?{_LASTING_EVENT}\b",
    re.IGNORECASE,
)


def lasting_event(text: str) -> bool:
    """Whether `text` tells an event of the speaker's whose outcome lasts ("Joined Riverside
    Striders", "We've sold the Golf"), however it is dated."""
    return _OUTCOME_EVENT.search(text) is not None


#: "I used to live in Cork": a habit or a state of the speaker's that is over.
_USED_TO = LazyPattern(r"\b(?:i|we)\s+(?:only\s+)?used to\b", re.IGNORECASE)


@remembered
def told_as_over(text: str) -> bool:
    """Whether `text` tells a state of the speaker's as over ("My first car was a Fiat
    Panda", "I used to live in Cork"): history, which no later state stands in for, since
    it answers what was, not what is."""
    return _PAST_STATE.match(text) is not None or _USED_TO.search(text) is not None


@remembered
def dated_event(text: str) -> bool:
    """Whether `text` tells an event of the speaker's in the past tense that only a day word
    dates ("Passed my B1 German exam today!!", "We completed on the house this morning"): what
    it brought about may last, unlike "I'm working at the library this afternoon"."""
    if _OUTCOME_EVENT.search(text) is None or DAY_WORD.search(text) is None:
        return False
    return lasting_but_for_its_day_word(text)


def lasting_but_for_its_day_word(text: str) -> bool:
    """Whether `text` reads as lasting once its day words are set aside: no passing moment, no
    maybe, not the past ("Passed my B1 exam today" reads so; "I'm at the library this
    afternoon, just for the day" does not)."""
    found = cues(DAY_WORD.sub(" ", text))
    return not (found.temporary or found.hypothetical or found.past)


#: A reading of an amount: "The scales said 84 kg", "hit 140kg on deadlift", "New 5k PB:
#: 25:12", "Weigh-in at the vet: Biscuit's down to 11.5 kg".
_READING = LazyPattern(
    r"\b(?:scales?|weigh(?:ed|s|-in|ing)?|measured|clocked|hit|pb|pr|personal best|"
    r"(?:new )?record|reading|came (?:in|out) at|(?:down|up) to)\b",
    re.IGNORECASE,
)
#: An amount with its unit, or a time ("84 kg", "140kg", "25:12", "11.5 stone").
_AMOUNT = LazyPattern(
    r"\b\d+(?:[.,]\d+)?\s?(?:kg|kgs|kilos?|lbs?|pounds|stone|st|km|k|miles?|mi|m|cm|mm|"
    r"minutes?|mins?|hours?|hrs?|seconds?|secs?|%)\b|\b\d{1,2}:\d{2}\b",
    re.IGNORECASE,
)


@remembered
def measured_now(text: str) -> bool:
    """Whether `text` reads off an amount that a day word dates ("The scales said 84 kg this
    morning", "hit 140kg on deadlift today!!! new pr"): the latest reading of a quantity is
    its current value, unlike "I'm working at the library this afternoon". No maybe and not
    the past."""
    if DAY_WORD.search(text) is None or _AMOUNT.search(text) is None:
        return False
    if _READING.search(text) is None:
        return False
    found = cues(DAY_WORD.sub(" ", text))
    return not (found.hypothetical or found.past)


@remembered
def begins_lasting(text: str) -> bool:
    """Whether `text` reads as the start of something lasting, however a time word dates it
    ("First standup with the search team today", "Saw my new GP Dr Lindqvist today"): no
    maybe, not the past. Not used to fill a slot, whose evidence must be explicit ("I'm
    starting at the library this afternoon" may be one shift)."""
    found = cues(text)
    return not (found.hypothetical or found.past) and _BEGINNING.search(text) is not None


@remembered
def present_state(text: str, *, personal: bool = True, plans: bool = False) -> bool:
    """Whether `text` reads as one present state ("I drive a VW Golf, it's ancient but
    reliable", "My sister lives in Oslo", "The launch is scheduled for May 3rd"): not a past
    event, a maybe or a question, and one sentence; with `personal`, said of the speaker or
    the speaker's people; with `plans`, a plan counts ("We're planning to marry in June")."""
    if len(split_sentences(text)) != 1 or text.rstrip().endswith("?"):
        return False
    found = cues(text)
    return (
        not found.past
        and (plans or not found.hypothetical)
        and (not personal or _PERSONAL.match(text) is not None)
        and _PAST_VERB.search(text) is None
    )
