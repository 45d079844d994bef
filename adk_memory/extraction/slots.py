"""The slot vocabulary the local extractor and classifier share: which predicates hold one
value at a time, how values group into categories, and how a slot reads as a sentence."""

from __future__ import annotations

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
    "phone": ("iphone", "android", "pixel", "galaxy"),
}
CATEGORY_OF: dict[str, str] = {
    value: category for category, values in _CATEGORIES.items() for value in values
}

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
}


def category_predicate(new_value: str, old_value: str) -> str:
    """The predicate of "I use X" / "switched from X to Y": `primary_language` for programming
    languages (one at a time, like "I mostly write Java"), `uses:<category>` for other known
    categories, else plain `uses` (many at a time)."""
    for value in (new_value, old_value):
        category = CATEGORY_OF.get(value)
        if category == "programming_language":
            return "primary_language"
        if category:
            return f"uses:{category}"
    return "uses"


def is_single_valued(predicate: str) -> bool:
    return predicate in SINGLE_VALUED or predicate.split(":", 1)[0] in SINGLE_VALUED


def phrase_for(predicate: str, polarity: bool) -> str:
    """The verb phrase of a slot, e.g. `lives_in` → "lives in", `prefers:whiskey` →
    "takes whiskey"."""
    base, _, key = predicate.partition(":")
    if base == "prefers":
        return f"takes {key}" if polarity else f"no longer takes {key}"
    if base == "favorite":
        return f"has as favorite {key}" if polarity else f"no longer has as favorite {key}"
    positive, negative = _PHRASES.get(base, (base.replace("_", " "), f"not {base}"))
    return positive if polarity else negative
