"""Text helpers shared by every stage that reads text or shows stored text to a model or a
person."""

from __future__ import annotations

import re
import unicodedata

#: Characters that look like angle brackets but survive NFKC. Mapped to the ASCII ones so the
#: escaping that follows (`<` → `&lt;`) treats them alike: a memory cannot draw a fence tag
#: a model would read as real.
_LOOKALIKE_BRACKETS = str.maketrans(
    {
        "\u2039": "<",  # ‹ single left-pointing angle quotation mark
        "\u203a": ">",  # ›
        "\u2329": "<",  # 〈 left-pointing angle bracket (NFKC turns it into U+3008)
        "\u232a": ">",
        "\u3008": "<",  # 〈 CJK left angle bracket
        "\u3009": ">",
        "\u27e8": "<",  # ⟨ mathematical left angle bracket
        "\u27e9": ">",
        "\u02c2": "<",  # ˂ modifier letter left arrowhead
        "\u02c3": ">",
        "\u1438": "<",  # ᐸ Canadian syllabics pa
        "\u1433": ">",  # ᐳ Canadian syllabics po
        "\u276e": "<",  # ❮ heavy left-pointing angle quotation mark ornament
        "\u276f": ">",
        "\u2770": "<",  # ❰ heavy left-pointing angle bracket ornament
        "\u2771": ">",
        "\u29fc": "<",  # ⧼ left-pointing curved angle bracket
        "\u29fd": ">",
    }
)
#: Typographic quotes mapped to the typed ones. Phones type "I’m" and "my car’s" by default;
#: every reading of words (slots, cues, the question) is written for the typed apostrophe.
_TYPOGRAPHIC_QUOTES = str.maketrans(
    {
        "\u2019": "'",  # ’ right single quotation mark, the apostrophe phones type
        "\u2018": "'",  # ‘
        "\u02bc": "'",  # ʼ modifier letter apostrophe
        "\u201c": '"',  # “
        "\u201d": '"',  # ”
    }
)
#: Categories removed outright: format (zero-width, bidi overrides, tag characters, soft
#: hyphen), control (C0, DEL, C1), surrogates (a lone one cannot be encoded) and private use.
_DROPPED = frozenset({"Cf", "Cc", "Cs", "Co"})


def display_safe(text: str) -> str:
    """Text made safe to show a model or a terminal: what is displayed is what is stored.

    NFKC folds compatibility forms (fullwidth `＜`, small `﹤`) onto their plain characters,
    angle-bracket lookalikes become `<` / `>`, every whitespace run (line breaks included)
    becomes one space, and format, control, surrogate and private-use characters are
    removed, so nothing invisible (zero-width, bidi overrides, C1 controls) reaches the
    reader. The result is one line; escaping for a particular markup is the caller's job.

    Args:
        text: Stored text, possibly hostile.

    Returns:
        The normalised text (may be empty).
    """
    folded = unicodedata.normalize("NFKC", text).translate(_LOOKALIKE_BRACKETS)
    kept = []
    for char in folded:
        if char.isspace():
            kept.append(" ")
        elif unicodedata.category(char) not in _DROPPED:
            kept.append(char)
    return " ".join("".join(kept).split())


#: Contractions chat types without their apostrophe that no other word spells: "im", "ive",
#: "dont", "thats". Not "its", "were", "well", "ill", "id", "lets", "hell", "shell", "wed":
#: each is a word of its own. Only in lower case, or capitalised opening a clause
#: (`_with_apostrophe`).
_BARE_CONTRACTION = re.compile(
    r"\b(?:(?P<i>i)(?P<i_tail>m|ve)"
    r"|(?P<not>do|does|did|is|was|were|are|has|have|had|could|would|should|ca|wo|must|need)"
    r"(?P<not_tail>nt)"
    # Not "were": "we're" typed bare is a word of its own.
    r"|(?P<pro>you|they)(?P<pro_tail>re|ve)|(?P<we>we)(?P<we_tail>ve)"
    r"|(?P<s>that|what|there|he|she|who|where|how)(?P<s_tail>s))\b",
    re.IGNORECASE,
)


def _with_apostrophe(match: re.Match[str]) -> str:
    word, text = match.group(0), match.string
    if not word.islower() and not (
        # Capitalised, only as a clause's first word before a lower-case one ("Im living in
        # Leeds"): elsewhere it is a name or an acronym ("Dr Cant", "Im Ji-woo", "IM Group").
        word[0].isupper()
        and word[1:].islower()
        and re.search(r"(?:^|[.!?,;:()\-\u2013\u2014])\s*$", text[: match.start()])
        and re.match(r"\s+[a-z]", text[match.end() :])
    ):
        return word
    if match.group("not") is not None:
        tail = match.group("not_tail")
        return f"{match.group('not')}{tail[0]}'{tail[1]}"
    for head in ("i", "pro", "we", "s"):
        if match.group(head) is not None:
            return f"{match.group(head)}'{match.group(f'{head}_tail')}"
    return match.group(0)


def as_typed(text: str) -> str:
    """`text` as every reading of words expects it typed: typographic apostrophes and quotes
    as typed ones ("I’ve moved to York", as phones type it), and the apostrophe chat drops
    from a contraction no other word spells put back ("im vegan now", "ive moved to york").
    The same words, read alike however they were keyed."""
    return _BARE_CONTRACTION.sub(_with_apostrophe, text.translate(_TYPOGRAPHIC_QUOTES))
