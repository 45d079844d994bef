"""Long texts kept, bounded: a pasted log, code or document becomes excerpts.

An event longer than `LONG_TEXT_CHARS` is not a statement to parse for slots; it is kept as
excerpts of at most `CHUNK_CHARS` each, cut on line boundaries where the text has lines, else
on sentence boundaries, else between words, so a phrase inside it stays findable and no
single memory grows unbounded.
"""

from __future__ import annotations

import re

#: Events longer than this are kept as excerpts instead of being parsed sentence by sentence.
LONG_TEXT_CHARS = 2_000
#: The longest excerpt.
CHUNK_CHARS = 1_500


def _pieces(text: str) -> list[str]:
    """The smallest units a chunk may end on: lines, or sentences of a single long line."""
    lines = text.splitlines()
    if len(lines) > 1:
        return [line for line in lines if line.strip()]
    return [p for p in re.split(r"(?<=[.!?])\s+", text) if p.strip()]


def _cut(piece: str, limit: int) -> list[str]:
    """A piece longer than the limit, cut between words (or hard, for one huge token)."""
    out: list[str] = []
    while len(piece) > limit:
        at = piece.rfind(" ", 0, limit)
        at = at if at > limit // 2 else limit
        out.append(piece[:at].rstrip())
        piece = piece[at:].lstrip()
    if piece:
        out.append(piece)
    return out


def chunk_text(text: str, *, limit: int = CHUNK_CHARS) -> list[str]:
    """The text as consecutive excerpts of at most `limit` characters.

    Args:
        text: Any text.
        limit: The longest excerpt, in characters (at least 100).

    Returns:
        The excerpts in order; together they hold every non-blank line of the text.
    """
    if limit < 100:
        raise ValueError("chunk limit must be at least 100 characters")
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    joiner = "\n" if len(text.splitlines()) > 1 else " "
    for piece in _pieces(text.strip()):
        for part in _cut(piece, limit):
            extra = len(part) + (len(joiner) if current else 0)
            if current and size + extra > limit:
                chunks.append(joiner.join(current))
                current, size = [], 0
                extra = len(part)
            current.append(part)
            size += extra
    if current:
        chunks.append(joiner.join(current))
    return chunks


__all__ = ["CHUNK_CHARS", "LONG_TEXT_CHARS", "chunk_text"]
