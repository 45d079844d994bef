"""Text helpers shared by every stage that shows stored text to a model or a person."""

from __future__ import annotations

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
