"""Whether what a statement says a slot holds names which one it is: "My car is a Ford
Focus" does, "My car is at the garage", "My salary is a joke", "my phone's 256GB" and "My
partner is Irish" do not. The offline REPLACE trusts a filled slot, so a value that only says
what a thing is like, where it is or how big fills none.
"""

from __future__ import annotations

import re

from adk_memory.extraction.cues import TITLE, TITLES
from adk_memory.extraction.slots import category_of, predicate_for_category

#: Capitalised words that say what someone is, not what they are called: nationalities,
#: peoples and faiths ("Hi! I'm Dutch", "Hello, I'm Catholic").
IDENTITIES = frozenset(
    """
    afghan albanian algerian american andorran angolan argentine argentinian armenian
    australian austrian azerbaijani bahraini bangladeshi belarusian belgian beninese bolivian
    bosnian brazilian british bulgarian burmese cambodian cameroonian canadian chilean chinese
    colombian congolese croatian cuban cypriot czech danish dominican dutch ecuadorian egyptian
    emirati english eritrean estonian ethiopian fijian filipino filipina finnish french
    georgian german ghanaian greek guatemalan haitian honduran hungarian icelandic indian
    indonesian iranian iraqi irish israeli italian ivorian jamaican japanese jordanian kazakh
    kenyan korean kosovar kuwaiti kyrgyz lao latvian lebanese libyan lithuanian luxembourgish
    malagasy malaysian maltese mexican moldovan mongolian montenegrin moroccan mozambican
    namibian nepali nepalese nigerian nicaraguan norwegian omani pakistani palestinian
    panamanian paraguayan persian peruvian polish portuguese qatari romanian russian rwandan
    salvadoran saudi scottish senegalese serbian singaporean slovak slovenian somali
    african asian european arab latino latina hispanic caribbean scandinavian nordic
    spanish lankan sudanese swedish swiss syrian taiwanese tajik tanzanian thai tibetan
    tunisian turkish turkmen ugandan ukrainian uruguayan uzbek venezuelan vietnamese welsh
    yemeni zambian zimbabwean kiwi aussie brit scots catalan basque flemish
    catholic protestant muslim jewish buddhist hindu sikh mormon orthodox anglican atheist
    agnostic quaker
    """.split()
)


def is_the_subject(value: str, text: str) -> bool:
    """Whether `value` is the subject of `text`'s verb, not what it says holds: "Office coffee
    is Nescafé now", "The coffee machine at work only does Nescafé now", "the Mac died";
    not "Matcha is my morning drink now"."""
    subject = re.compile(
        rf"\b{re.escape(value)}s?\b(?:\s+[\w-]+){{0,4}}?"
        # Not the value named as the speaker's: "Matcha is my morning drink now".
        rf"(?:\s+(?:is|are|was|were)|'s)\b(?!\s+(?:my|our)\b)"
        rf"|\b{re.escape(value)}s?\b(?:\s+[\w-]+){{0,4}}?\s+(?:only|does|do)\b"
        # What happened to it: "the Mac died", "the Pixel broke".
        rf"|\b{re.escape(value)}s?\s+(?:(?:just|finally|has|had)\s+)?"
        r"(?:died|broke|broken|packed in|gave up|stopped|failed|crashed)\b",
        re.IGNORECASE,
    )
    return subject.search(text) is not None


#: How an object that says where a thing is, what it is like or what happens to it opens
#: ("at the garage", "due on Friday", "basically a brick", "paid on the 28th").
_NOT_A_VALUE_START = re.compile(
    r"^(?:at|on|in|with|by|under|off|out|up|down|due|from|for|to|into|my|your|his|her|their|"
    r"our|its|so|too|very|really|basically|literally|just|still|always|never|kind of|sort of|"
    r"such|quite|pretty|totally|absolutely|not|paid|parked|stuck|booked|covered|sorted|being|"
    r"getting|going"
    # Doing something rather than being something: "making a horrible noise", "running 40
    # mins late" (not "sparkling water", "nursing lecturer").
    r"|(?-i:[a-z]+ing)\s+(?:a|an|the|me|my|\d+|up|down|out|late|slow|fine|well|badly|really)"
    r")\b",
    re.IGNORECASE,
)
#: Words that judge a thing rather than name which one it is ("My salary is a joke", "My
#: dentist is lovely", "My hair is a mess").
_JUDGEMENTS = frozenset(
    "nightmare mess joke disaster tip pain shambles brick lifesaver life rubbish awful "
    "terrible great fine ok okay good bad lovely amazing brilliant boring stressful busy "
    "hectic dead broken packed full crap useless slow fast expensive cheap mud gorgeous nice "
    "perfect weird".split()
)
#: A statement of what a thing of the speaker's is ("My car is …", "My name is …").
SAYS_WHAT_MINE_IS = re.compile(r"^\W*(?:my|name's)\b", re.IGNORECASE)
#: Slots whose values are ordinary words ("vegan", "brown", "nurse", "oat latte").
_WORDED_SLOTS = frozenset({"job_title", "hair", "diet", "drink", "favorite", "relationship_status"})
#: Words a name never holds in lower case ("My name is on the list", "mud after…").
_NOT_IN_A_NAME = re.compile(r"\b(?:after|the|on|for|in|at|with|to|of|is|was|when)\b")


#: Words of a hair colour, and of a length or a cut: "My hair is grey now" says nothing of
#: "My hair is short".
_HAIR_COLOURS = frozenset(
    "black brown blonde blond brunette red ginger auburn grey gray white silver pink blue "
    "purple green copper dyed".split()
)
_HAIR_CUTS = frozenset(
    "long short shoulder-length bob pixie shaved buzz cropped curly straight wavy bald "
    "fringe bangs".split()
)


def hair_aspect(value: str) -> str:
    """The slot of a hair value: its colour ("hair:colour"), its cut ("hair:cut"), or both
    ("hair", "long blonde")."""
    words = set(re.findall(r"[\w-]+", value.lower()))
    colour, cut = bool(words & _HAIR_COLOURS), bool(words & _HAIR_CUTS)
    if colour and not cut:
        return "hair:colour"
    if cut and not colour:
        return "hair:cut"
    return "hair"


#: A number with a unit: "256GB", "15 inches", "3 years old", "90%".
_A_MEASURE = re.compile(
    r"(?:about |around |only |nearly |almost )?(?:(?:19|20)\d\d (?:model|reg|plate)|"
    r"\d[\d.,]*\s*(?:gb|tb|mb|gig|gigs|mah|inch|inches|"
    r"in\b|\"|%|mp|megapixels?|hz|ghz|w\b|watts?|kg|kilos?|lbs?|mph|cc\b|litres?|liters?|"
    r"years? old|months? old|miles|km|k miles|owners?))",
    re.IGNORECASE,
)
#: Slots whose values are amounts.
#: Slots whose values are amounts: "£1,050", "48k", "34".
AMOUNT_SLOTS = frozenset({"rent", "salary", "age"})
#: Slots whose values are people, named.
PEOPLE_SLOTS = frozenset({"manager", "partner", "care", "name"})
#: Slots whose values are names, never a kind of thing after "a" or "an".
NAMED_SLOTS = PEOPLE_SLOTS | {"works_at", "lives_in", "email", "bank", "gym"}
#: Languages people speak: no programming language ("My main language is English").
_SPOKEN_LANGUAGES = frozenset(
    "english spanish french german italian portuguese polish mandarin chinese cantonese "
    "japanese korean hindi urdu bengali punjabi arabic turkish greek dutch swedish russian "
    "welsh irish gaelic".split()
)
_A_VERB_INSIDE = re.compile(r"\b(?:is|are|was|were|has|have|had)\b", re.IGNORECASE)


#: Words of a role, not of a name: "Head of Ops", "Deputy Head at St Mary's".
_ROLE_WORDS = (
    r"head|deputy|director|chief|officer|chair|chairman|chairwoman|vp|ceo|cfo|cto|coo|"
    r"principal|manager|lead|supervisor|president|partner|assistant|acting|interim"
)
#: One word of a name: "Tom", "O'Brien", "McKenzie", "Patel-Smith".
_A_NAME_WORD = r"(?-i:[A-Z](?:[a-z]+|'[A-Z][a-z]+)(?:[A-Z][a-z]+)?(?:[-'’][A-Z]?[a-z]+)*)"
#: A person's or a practice's name: capitalised words, after a title, with "at" or "from" a
#: named place ("Dr Okafor at Parkside", "Dr. Hassan at the Parkside surgery", "Hollybank
#: Vets") and when it began; no role word, no word in capitals ("OOO", "CBT-trained"),
#: nothing else in lower case.
_A_PERSONS_NAME = re.compile(
    rf"^(?:{TITLE}\s+)?(?!(?:{_ROLE_WORDS})\b)"
    rf"{_A_NAME_WORD}(?:\s+(?!(?:{_ROLE_WORDS})\b){_A_NAME_WORD}){{0,2}}"
    r"(?:\s+(?:at|from)\s+(?:the\s+)?(?-i:[A-Z])[\w'’-]*(?:\s+[\w'’-]+){0,3})?"
    # When it began: "Grace now after the restructure", "Tom since the reorg".
    r"(?:\s+(?:now|after|since|following|as of)\b.*)?$",
    re.IGNORECASE,
)
#: A date or a time of day: "the 1st", "the 28th", "6am", "10:15".
_A_TIME = re.compile(
    r"^(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\b|^\d{1,2}(?::\d\d)?\s*(?:am|pm)\b|^\d{1,2}:\d\d\b",
    re.IGNORECASE,
)
#: Sizes of a thing: "a large", "a medium".
_SIZES = frozenset("small medium large regular tall grande venti pint half xl".split())


def names_a_value(obj: str, predicate: str) -> bool:
    """Whether `obj`, said as what the speaker's `predicate` is ("My car is a Ford Focus"),
    names which one it is rather than what it is like or where it is ("My car is at the
    garage", "My dentist is lovely"): a name, a number, an address or a known value, or an
    ordinary word for a slot whose values are ordinary words ("My diet is vegan")."""
    if predicate == "name":
        return _NOT_IN_A_NAME.search(obj) is None and not _NOT_A_VALUE_START.match(obj)
    base = predicate.split(":", 1)[0]
    if base in AMOUNT_SLOTS and not re.search(r"\d", obj):
        # An amount has a number: "moved my salary over to Monzo" names where it is paid.
        return False
    if _A_MEASURE.match(obj) and base not in AMOUNT_SLOTS:
        # How big or how old a thing is, not which one: "my phone's 256GB".
        return False
    if re.match(r"^[\w-]+'s?(?:\s|$)", obj):
        # Someone's: "My new car is Dad's", "my new phone is Mum's birthday present".
        return False
    first = obj.split()[0].strip(".,!?").lower() if obj.split() else ""
    if (
        (base in PEOPLE_SLOTS and first in IDENTITIES)
        or (base == "primary_language" and first in _SPOKEN_LANGUAGES)
        # "My title's Mrs now": a form of address, no job title.
        or (base == "job_title" and first in TITLES)
    ):
        # What someone is ("My partner is Irish"), a spoken language, a form of address.
        return False
    named_as = predicate_for_category(category_of(obj, specific=True))
    if named_as is not None and named_as.split(":", 1)[0] != base:
        # A value of another slot's: "My laptop is Windows 11" names the system it runs.
        return False
    if (base == "email" and "@" not in obj) or (base == "diet" and re.search(r"\d", obj)):
        # "My new email is Amazon again, ugh, spam", "My new diet is day 3".
        return False
    if base == "uses" and named_as is None:
        # A tool is one the slot knows: "My new editor is Hannah" is a person.
        return False
    if _A_VERB_INSIDE.search(obj):
        # A clause of its own, not a value: "My car is what Dad had".
        return False
    if _A_TIME.match(obj) or set(re.findall(r"[\w-]+", obj.lower())) & _SIZES:
        # When or how big, not which one: "my monthly rent got moved to the 1st", "switched
        # my drink to a large".
        return False
    if base in PEOPLE_SLOTS and not _A_PERSONS_NAME.match(obj):
        # A person is named: "My GP got moved to the new surgery on Elm St" names a place,
        # "My manager is Head of Ops now", "My boss is OOO again", "my husband is Dr Who
        # obsessed" say what they are or do.
        return False
    if obj[:1].isupper() or obj[:1].isdigit():
        # A name or a number: "Life of Pi", "Our Lady's Hospital", "2 Elm Road".
        return True
    if _NOT_A_VALUE_START.match(obj) or (
        # Doing something, not which one it is: "My new manager is starting Monday".
        re.match(r"(?-i:[a-z]+ing)\b", obj) and base not in _WORDED_SLOTS
    ):
        return False
    words = [w.strip(".,;:!?\"'()").lower() for w in obj.split()]
    if any(w in _JUDGEMENTS for w in words[:2]):
        return False
    if re.search(r"[A-Z0-9@£$€]", obj) or category_of(obj, specific=True) is not None:
        return True
    return base in _WORDED_SLOTS
