"""How many things a statement says of its own: one memory that says several ("I live in
Berlin and work at Siemens") is never one slot's statement, and never superseded whole."""

from __future__ import annotations

import re

from adk_memory.extraction.cues import cues, present_state, strip_speaker
from adk_memory.extraction.local import match_slot, normalize_value
from adk_memory.extraction.sentences import split_clauses, split_sentences


def says_several(text: str) -> bool:
    """Whether a statement says more than one thing of its own, clause by clause ("I live in
    Berlin and work at Siemens"; not "I drive a Golf and I love it")."""
    body = strip_speaker(text)
    clauses = [c for sentence in split_sentences(body) for c in split_clauses(sentence)]
    return sum(_says_its_own(clause) for clause in clauses) > 1


#: A name inside a clause, not its first word nor "I": "we both work at Siemens".
_A_NAME = re.compile(r"(?<!^)\b(?!I\b)(?-i:[A-Z])[\w&'-]*")


def _says_its_own(clause: str) -> bool:
    """Whether a clause states something of its own: a slot's value, or a lasting present
    state that names something ("we both work at Siemens"), rather than a remark on the rest
    ("I drive a Golf and I park it at Tesco") or what a change ended ("The Civic got
    totalled, so…")."""
    if set(normalize_value(clause).split()) & _POINTING:
        return False
    # A clause that goes on without its subject ("…and write Python at work") is the
    # speaker's, as the clause before it.
    said = f"I {clause}" if clause[:1].islower() else clause
    slot = match_slot(clause)
    if slot is not None:
        # What a change ended is no state of its own ("I left Deloitte, I'm at KPMG now");
        # a denial that holds is ("I don't eat meat").
        return bool(slot.object) and (slot.polarity or present_state(said))
    return (
        present_state(said)
        and not cues(said).temporary
        and _BOUNDED.search(clause) is None
        and _A_NAME.search(clause.strip()) is not None
    )


#: A state bounded in time is a context of the rest, not a fact of its own: "I'm at Durham
#: until I graduate", "I'm on holiday till Monday".
_BOUNDED = re.compile(r"\b(?:till|until|til)\b", re.IGNORECASE)


#: Words that point back at what the rest of a statement names: "I love it", "I park it at
#: Tesco".
_POINTING = frozenset({"it", "them"})


__all__ = ["says_several"]
