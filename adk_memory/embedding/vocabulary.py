"""`everyday_word`: whether the bundled model's WordPiece vocabulary holds a word whole.

The vocabulary of all-MiniLM-L6-v2 (30,522 pieces, lower case) holds the words of everyday
English whole and splits rare ones into pieces: "part", "time", "weekends" and "payments"
are pieces of their own, "flogas", "capitec" and "giffgaff" are not. Chat writes names in
lower case, so a lower-case word that is no everyday word is likely a name.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

#: The WordPiece tokenizer of all-MiniLM-L6-v2 (see data/all-MiniLM-L6-v2/NOTICE).
TOKENIZER_FILE = Path(__file__).parent / "data" / "all-MiniLM-L6-v2" / "tokenizer.json"


@functools.cache
def _whole_words() -> frozenset[str]:
    vocab: dict[str, int] = json.loads(TOKENIZER_FILE.read_text(encoding="utf-8"))["model"]["vocab"]
    # Pieces that continue a word ("##gas") and the model's own tokens ("[CLS]") are no words.
    return frozenset(p for p in vocab if not p.startswith("##") and not p.startswith("["))


def everyday_word(word: str) -> bool:
    """Whether `word` (any case) is one piece of the vocabulary: an everyday word."""
    return word.lower() in _whole_words()
