"""The slot vocabulary the local extractor and classifier share: which predicates hold one
value at a time, how values group into categories, and how a slot reads as a sentence."""

from __future__ import annotations

import re
from collections.abc import Iterator

#: Predicates that hold one value at a time per subject: a new value supersedes the old.
#: Keyed predicates ("prefers:whiskey", "favorite:color") are single-valued per key.
SINGLE_VALUED = frozenset(
    {
        "name",
        "age",
        "lives_in",
        "works_at",
        "job_title",
        "primary_language",
        "diet",
        "relationship_status",
        "prefers",
        "favorite",
        "vehicle",
        "manager",
        "email",
        "laptop",
        "partner",
        "rent",
        "salary",
        "gym",
        "hair",
        "care",
        "drink",
    }
    | {f"uses:{c}" for c in ("editor", "os", "browser", "cloud", "phone")}
)

_CATEGORIES: dict[str, tuple[str, ...]] = {
    "programming_language": (
        "java",
        "go",
        "golang",
        "python",
        "rust",
        "c",
        "c++",
        "c#",
        "javascript",
        "typescript",
        "kotlin",
        "scala",
        "ruby",
        "php",
        "swift",
        "elixir",
        "haskell",
        "clojure",
        "perl",
        "r",
        "julia",
        "dart",
        "lua",
        "zig",
        "ocaml",
        "erlang",
        "f#",
        "objective-c",
        "fortran",
        "cobol",
    ),
    "editor": (
        "vim",
        "neovim",
        "emacs",
        "vscode",
        "vs code",
        "visual studio code",
        "intellij",
        "pycharm",
        "sublime",
        "sublime text",
        "atom",
        "zed",
        "cursor",
        "eclipse",
        "xcode",
    ),
    "os": ("linux", "windows", "macos", "mac", "ubuntu", "fedora", "arch", "debian"),
    "browser": ("chrome", "firefox", "safari", "edge", "brave", "opera", "arc"),
    "cloud": ("aws", "gcp", "google cloud", "azure"),
    "phone": ("iphone", "android", "pixel", "galaxy", "phone"),
    "drink": (
        "coffee",
        "espresso",
        "decaf",
        "latte",
        "cappuccino",
        "americano",
        "flat white",
        "mocha",
        "macchiato",
        "cold brew",
        "tea",
        "matcha",
        "chai",
        "green tea",
        "english breakfast",
        "earl grey",
    ),
    "diet": (
        "vegetarian",
        "vegan",
        "pescatarian",
        "keto",
        "paleo",
        "carnivore",
        "mediterranean diet",
        "intermittent fasting",
        "gluten-free",
    ),
    "vehicle": (
        "car",
        "e-bike",
        "ebike",
        "bike",
        "bicycle",
        "motorbike",
        "motorcycle",
        "scooter",
        "moped",
        "van",
        "truck",
    ),
    "music_service": ("spotify", "apple music", "tidal", "deezer", "youtube music"),
    "laptop": ("laptop", "macbook", "thinkpad", "chromebook"),
}
CATEGORY_OF: dict[str, str] = {
    value: category for category, values in _CATEGORIES.items() for value in values
}

#: Where the speaker works rather than whom for: an office, a branch, a site ("I work at the
#: Leeds branch now", "they moved my whole team to the Leeds office"). Never the employer:
#: "I work at Deloitte" holds through an office move.
WORK_SITE = "works_at:site"
#: A site named by its place: "the Leeds branch", "our Canary Wharf office", "the Hatfield
#: store now, much closer". The place is capitalised and the site's word in lower case, as a
#: capital makes it part of a name ("Home Depot", "the Met Office"); named by what is done
#: there it is an employer ("the post office", "a dental office", "the bus depot"), and so it
#: is named by whose it is ("KPMG's Leeds office").
_A_SITE = re.compile(
    r"^(?:(?:the|our|my)\s+)?(?:(?-i:[A-Z])[\w&-]*\s+){1,3}"
    r"(?:office|branch|site|campus|depot|HQ|headquarters|store|superstore|shop|warehouse|plant|"
    r"factory|centre|center|building|location|studio)s?\b"
)
#: A site whose word is capitalised too, after "the": "the Manchester Branch", "the Derby
#: Site", "the Leeds HQ". Only the words an employer's name seldom ends with: "the Met
#: Office", "the Home Depot", "the Cheesecake Factory", "the Nissan Plant" and "the Amazon
#: Warehouse" are employers as often as sites.
_A_CAPITALISED_SITE = re.compile(
    r"^(?:[A-Z][\w&-]*\s+){1,3}(?:Branch|Site|Campus|HQ|Headquarters)$"
)


def work_slot(predicate: str, value: str, *, a_group_moved: bool = False, clause: str = "") -> str:
    """`predicate`, or `WORK_SITE` when a place of work is an office or a site (as `clause`
    says it), or where the speaker's team was moved."""
    if predicate != "works_at":
        return predicate
    if a_group_moved or _A_SITE.match(value):
        return WORK_SITE
    if _A_CAPITALISED_SITE.match(value) and re.search(
        rf"\bthe\s+{re.escape(value)}", clause, re.IGNORECASE
    ):
        return WORK_SITE
    return predicate


#: Slots about the work itself: "at work" is where their value lives anyway ("I mostly write
#: Java at work" is the speaker's language).
_OF_WORK = frozenset({"works_at", "job_title", "manager", "primary_language", "salary"})
#: A trailing context of work or study: "I use a ThinkPad at work now", "for uni".
_AT_WORK = re.compile(
    r"\b(?:at|for|in)\s+(?:work|the office|my job|uni|university|school|college|lectures|class|"
    r"the library)\b"
    # Or a thing that comes with the job: "I drive a company Passat", "my work phone".
    r"|\b(?:a|an|my|the|our)\s+(?:company|work)\s+"
    r"(?:car|van|phone|mobile|laptop|email|bike|(?-i:[A-Z])[\w-]*)\b",
    re.IGNORECASE,
)


#: What keys a slot to a context (`scoped_slot`): "laptop@work".
SCOPE_MARK = "@"


#: Where a clause goes on to why: "I drive a Tesla now since we get free charging at work",
#: "My laptop is a ThinkPad now that I'm back at uni". "When" or "while" says where it holds
#: ("I use a ThinkPad when I'm at uni").
_GOES_ON = re.compile(
    r"\b(?:since|because|cos|as|now that|so|after|but|though|although|instead|until|till)\b",
    re.IGNORECASE,
)


#: Home beside work: "I drink oat lattes at work and at home now".
_AND_HOME = re.compile(r"\b(?:and|or|&)\s+(?:at\s+)?home\b|\bhome\s+(?:and|or|&)\b", re.I)


def before_why(clause: str) -> str:
    """The words of `clause` before it goes on to why (`_GOES_ON`)."""
    return _GOES_ON.split(clause, maxsplit=1)[0]


def scoped_slot(predicate: str, clause: str) -> str:
    """`predicate` keyed by a context of work or study the clause names, for a thing the
    speaker may have one of there and another elsewhere: "I use a ThinkPad at work now" is a
    laptop at work ("laptop@work"), which leaves "My laptop is a MacBook Air"; not work said
    as why ("I drive a Tesla now since we get free charging at work")."""
    said = before_why(clause)
    if _AND_HOME.search(clause) or SCOPE_MARK in predicate:
        # "at work and at home": the speaker's own everywhere.
        return predicate
    if (
        predicate.split(":", 1)[0] in _OF_WORK
        or not is_single_valued(predicate)
        or not _AT_WORK.search(said)
    ):
        return predicate
    return f"{predicate}{SCOPE_MARK}work"


def slot_as_said(predicate: str, value: str, clause: str) -> str:
    """`predicate` as `clause` says it of `value`: a site rather than the employer
    (`work_slot`), keyed to a context of work or study (`scoped_slot`)."""
    return scoped_slot(work_slot(predicate, value, clause=clause), clause)


#: The slot of what the speaker says they ride ("I ride a Brompton", "I'm riding a Honda
#: motorbike now"): never the car they drive.
RIDDEN = "vehicle:ridden"

#: The head noun of "my <head> is <value>" and the slot it names. Person nouns ("my sister")
#: are subjects, not attributes, and are absent on purpose.
HEAD_ATTRIBUTE: dict[str, str] = {
    "car": "vehicle",
    "vehicle": "vehicle",
    "ride": "vehicle",
    # A bike beside a car: "My bike's a Brompton" leaves "I drive a VW Golf".
    "motorbike": "vehicle:motorbike",
    "bike": "vehicle:bike",
    "boss": "manager",
    "manager": "manager",
    "line manager": "manager",
    "team lead": "manager",
    "supervisor": "manager",
    "employer": "works_at",
    "company": "works_at",
    "workplace": "works_at",
    "title": "job_title",
    "job title": "job_title",
    "job": "job_title",
    "role": "job_title",
    "position": "job_title",
    "occupation": "job_title",
    "profession": "job_title",
    "phone": "uses:phone",
    "mobile": "uses:phone",
    "laptop": "laptop",
    "computer": "laptop",
    "email": "email",
    "email address": "email",
    "rent": "rent",
    "salary": "salary",
    "gym": "gym",
    "hair": "hair",
    "hairstyle": "hair",
    "dentist": "care:dentist",
    "doctor": "care:doctor",
    "gp": "care:gp",
    "therapist": "care:therapist",
    "vet": "care:vet",
    "diet": "diet",
    "editor": "uses:editor",
    "browser": "uses:browser",
    "main language": "primary_language",
    "primary language": "primary_language",
    "programming language": "primary_language",
    "usual order": "drink",
    "usual": "drink",
    "go-to drink": "drink",
    "drink": "drink",
    "home": "lives_in",
    "girlfriend": "partner",
    "boyfriend": "partner",
    "partner": "partner",
    "wife": "partner",
    "husband": "partner",
    "fiance": "partner",
    "fiancee": "partner",
}

#: Head nouns a change names its attribute by ("my current account", "my workouts").
_HEADS: dict[str, str] = {
    **{h: a for h, a in HEAD_ATTRIBUTE.items() if h not in {"job", "role", "position", "home"}},
    "account": "bank",
    "current account": "bank",
    "savings account": "bank",
    "bank": "bank",
}

#: Category → predicate, for a value whose category is a one-at-a-time slot.
_CATEGORY_PREDICATE = {
    "programming_language": "primary_language",
    "editor": "uses:editor",
    "os": "uses:os",
    "browser": "uses:browser",
    "cloud": "uses:cloud",
    "phone": "uses:phone",
    "drink": "drink",
    "diet": "diet",
    "vehicle": "vehicle",
    "music_service": "uses:music_service",
    "laptop": "laptop",
}


#: Category words that name a kind of thing rather than a value ("my bike", "the phone"): a
#: statement naming only these says nothing about which one.
GENERIC_VALUES = frozenset(
    {"car", "bike", "bicycle", "motorbike", "motorcycle", "scooter", "van", "truck", "phone"}
    | {"laptop"}
)


#: Values that are also everyday words ("go", "swift", "rust"): one names the value only when
#: written as a name.
ALSO_ORDINARY_WORDS = frozenset("go c r swift rust dart ruby julia lua zig crystal elm".split())


def _known_values(text: str, *, specific: bool) -> Iterator[tuple[str, str]]:
    """The known values named in `text` with their categories, longest phrase first, plurals
    folded; with `specific`, generic words ("car", "phone") are skipped."""
    said = [w.strip(".,;:!?\"'()") for w in text.split()]
    said = [w for w in said if w]
    words = [w.lower() for w in said]
    for size in (3, 2, 1):
        for i in range(len(words) - size + 1):
            phrase = " ".join(words[i : i + size])
            if (
                size == 1
                and phrase in ALSO_ORDINARY_WORDS
                and (
                    not said[i][:1].isupper()
                    or (i > 0 and said[i - 1][:1].isupper())
                    or (i == 0 and words[1:2] == ["to"])
                )
            ):
                # "I go to David Lloyd now", "Go to the gym before work now", "Taylor Swift",
                # "Block C" name no programming language.
                continue
            for form in (phrase, phrase[:-1] if phrase.endswith("s") else phrase):
                category = CATEGORY_OF.get(form)
                if category and not (specific and form in GENERIC_VALUES):
                    yield phrase, category
                    break


def category_match(text: str, *, specific: bool = False) -> tuple[str, str] | None:
    """The first known value named in `text` and its category ("four espressos a day" →
    ("espressos", "drink")), longest phrase first, plurals folded; with `specific`, generic
    words ("car", "phone") are skipped."""
    return next(_known_values(text, specific=specific), None)


#: A clitic "'s" ("my laptop's a Dell", "the iPhone's battery"): the word names the thing.
_CLITIC = re.compile(r"['’]s\b", re.IGNORECASE)


def categories_in(text: str, *, specific: bool = False) -> frozenset[str]:
    """The categories of every known value named in `text` ("migrated everything from Java
    to Go" → {"programming_language"}), and of generic words too unless `specific` ("My
    laptop's a Dell XPS 13" → {"laptop"})."""
    text = _CLITIC.sub("", text)
    return frozenset(category for _, category in _known_values(text, specific=specific))


#: Categories whose values the lexicon above names nearly all of, so a statement naming none
#: of them names no such value ("The company moved our team to a new office by the Isar" names
#: no programming language). Cars, drinks or phones come in more makes than any list holds.
CLOSED_CATEGORIES = frozenset(
    {"programming_language", "editor", "os", "browser", "cloud", "music_service"}
)
#: How a question names a closed category: "What programming language do I use at work?".
#: A bare "language" may be a spoken one.
_CATEGORY_NAMES = re.compile(
    r"\b(?:(?P<programming_language>(?:programming|coding|primary|main) language)|"
    r"(?P<editor>(?:code |text )?editor|IDE)|(?P<os>operating system|OS)|"
    r"(?P<browser>(?:web )?browser)|(?P<cloud>cloud(?: provider| platform)?)|"
    r"(?P<music_service>music (?:streaming )?(?:service|app)))s?\b",
    re.IGNORECASE,
)
#: Categories that answer each other's questions: a laptop or a phone says which system it
#: runs ("switched to a MacBook" for "What operating system do I use?"). A phone says nothing
#: of the laptop.
_RELATED = frozenset({frozenset({"os", "laptop"}), frozenset({"os", "phone"})})


def related_categories(one: str, other: str) -> bool:
    """Whether a value of one category may answer a question about the other."""
    return one == other or frozenset({one, other}) in _RELATED


def asked_category(text: str) -> str | None:
    """The category a question asks for: named ("What programming language do I use at
    work?" → "programming_language"), or by a value or a word of it ("What phone do I
    have?" → "phone", "Do I still pay for Spotify?" → "music_service")."""
    found = _CATEGORY_NAMES.search(text)
    return found.lastgroup if found is not None else category_of(text)


def category_of(text: str, *, specific: bool = False) -> str | None:
    """The category of the first known value named in `text` ("four espressos a day" →
    "drink")."""
    match = category_match(text, specific=specific)
    return match[1] if match else None


#: The head nouns, longest first, so "current account" wins over "account".
_HEADS_LONGEST_FIRST = tuple(sorted(_HEADS, key=len, reverse=True))


def ending_head(text: str) -> str | None:
    """The attribute head noun that ends `text`, longest first ("my current account" →
    "current account", "my parking space rent" → "rent")."""
    lowered = f" {' '.join(text.lower().split())} "
    for head in _HEADS_LONGEST_FIRST:
        if lowered.endswith(f" {head} ") or lowered.endswith(f" {head}s "):
            return head
    return None


#: Words before a thing's noun that still say the speaker's own one ("my monthly rent", "my
#: main phone"); any other makes it another one: a named service's ("my Netflix email"), a
#: shared one ("the joint account"), another role's or place's ("my work email", "my parking
#: space rent").
OWN_ONES_QUALIFIERS = frozenset(
    "current main usual monthly weekly annual yearly daily new old own personal primary "
    "regular home everyday normal morning afternoon evening nightly".split()
)


def another_ones_thing(thing: str) -> bool:
    """Whether `thing`, named by a slot's noun, is another one than the speaker's own: "my
    Netflix email", "the joint account", "my parking space rent"; not "my current account",
    "my monthly rent"."""
    head = ending_head(thing)
    if head is None:
        return False
    words = re.sub(r"^\W*(?:(?:my|our|the|a|an)\s+)+", "", thing, flags=re.IGNORECASE).split()
    qualifiers = words[: len(words) - len(head.split())]
    return any(w[:1].isupper() or w.lower() not in OWN_ONES_QUALIFIERS for w in qualifiers)


def head_attribute(text: str, *, ending: bool = False) -> str | None:
    """The slot named by an attribute head noun in `text` ("moved my current account over to
    Monzo" → "bank"), longest head first; with `ending`, only a head that ends `text` (of
    "car insurance" the head is "insurance", no slot's)."""
    if ending:
        head = ending_head(text)
        return None if head is None else _HEADS[head]
    lowered = f" {' '.join(text.lower().split())} "
    for head in _HEADS_LONGEST_FIRST:
        if f" {head} " in lowered or f" {head}s " in lowered:
            return _HEADS[head]
    return None


def predicate_for_category(category: str | None) -> str | None:
    """The one-at-a-time slot of a category, if it is one."""
    return _CATEGORY_PREDICATE.get(category or "")


_PHRASES: dict[str, tuple[str, str]] = {
    # predicate: (positive phrase, negative phrase)
    "name": ("is called", "is not called"),
    "age": ("is", "is not"),
    "lives_in": ("lives in", "no longer lives in"),
    "works_at": ("works at", "no longer works at"),
    "job_title": ("works as", "no longer works as"),
    "primary_language": ("mainly programs in", "no longer programs in"),
    "diet": ("is", "is no longer"),
    "relationship_status": ("is", "is no longer"),
    "allergic_to": ("is allergic to", "is not allergic to"),
    "speaks": ("speaks", "does not speak"),
    "learning": ("is learning", "is no longer learning"),
    "has_pet": ("has a", "no longer has a"),
    "likes": ("likes", "does not like"),
    "uses": ("uses", "no longer uses"),
    "vehicle": ("gets around by", "no longer gets around by"),
    "manager": ("reports to", "no longer reports to"),
    "email": ("has the email address", "no longer has the email address"),
    "laptop": ("uses the laptop", "no longer uses the laptop"),
    "partner": ("has as partner", "no longer has as partner"),
    "rent": ("pays a rent of", "no longer pays a rent of"),
    "salary": ("earns", "no longer earns"),
    "gym": ("goes to the gym", "no longer goes to the gym"),
    "hair": ("has hair", "no longer has hair"),
    "drink": ("drinks", "no longer drinks"),
    "change": ("changed to", "changed away from"),
}


def category_predicate(new_value: str, old_value: str) -> str:
    """The predicate of "I use X" / "switched from X to Y": `primary_language` for programming
    languages (one at a time, like "I mostly write Java"), `uses:<category>` for other known
    categories, else plain `uses` (many at a time)."""
    for value in (new_value, old_value):
        category = CATEGORY_OF.get(value) or category_of(value)
        if category == "programming_language":
            return "primary_language"
        if category:
            return predicate_for_category(category) or f"uses:{category}"
    return "uses"


def is_single_valued(predicate: str) -> bool:
    predicate = predicate.split(SCOPE_MARK, 1)[0]
    return predicate in SINGLE_VALUED or predicate.split(":", 1)[0] in SINGLE_VALUED


def phrase_for(predicate: str, polarity: bool) -> str:
    """The verb phrase of a slot, e.g. `lives_in` → "lives in", `prefers:whiskey` →
    "takes whiskey"."""
    base, _, key = predicate.split(SCOPE_MARK, 1)[0].partition(":")
    if base == "prefers":
        return f"takes {key}" if polarity else f"no longer takes {key}"
    if base == "care":
        return f"sees as {key}" if polarity else f"no longer sees as {key}"
    if base == "favorite":
        return f"has as favorite {key}" if polarity else f"no longer has as favorite {key}"
    positive, negative = _PHRASES.get(base, (base.replace("_", " "), f"not {base}"))
    return positive if polarity else negative
