"""Recall through history: a retired memory still matches the questions it answered, and the
active memory that took its place answers them.

An archived source of a consolidation summary stands for that summary (a summary's own
embedding blurs the details it stands for). A superseded memory stands for the memory that
replaced it: the new value answers the question the old one answered, however differently it
is worded ("I keep all my notes in Evernote" → "migrated everything over to Obsidian" for
"What app do I keep my notes in?"). The retired memory itself is never returned.
"""

from __future__ import annotations

from collections.abc import Sequence

from adk_memory.extraction.cues import ends, strip_speaker, subject_words
from adk_memory.model import MemoryRecord, Scope, Status
from adk_memory.retrieval.ordering.reading import values_in
from adk_memory.retrieval.question import asks_for_a_list
from adk_memory.stores.base import MemoryStore, SearchHit

#: Links followed from a retired memory to the active one that took its place, at most.
MAX_SUCCESSOR_HOPS = 8


def match(hit: SearchHit) -> float:
    """How well a hit matches its query, dense and lexical together."""
    return hit.cosine + hit.lexical


class Successors:
    """Answers a search's retired hits with the active memories that took their place.

    Args:
        store: Where the successors are read from.
        through_summaries: An archived source stands for its summary.
        through_replacements: A superseded memory stands for what replaced it.
    """

    def __init__(
        self, store: MemoryStore, *, through_summaries: bool, through_replacements: bool
    ) -> None:
        self.store = store
        self.through_summaries = through_summaries
        self.through_replacements = through_replacements

    @property
    def statuses(self) -> tuple[Status, ...]:
        """The statuses a search should match: active, and those that are followed."""
        return (
            Status.ACTIVE,
            *((Status.ARCHIVED,) if self.through_summaries else ()),
            *((Status.SUPERSEDED,) if self.through_replacements else ()),
        )

    async def lift(self, scope: Scope, query: str, hits: Sequence[SearchHit]) -> list[SearchHit]:
        """Active hits as they are; a retired hit stands for the active memory that took its
        place (`answer_for`), with the retired one's match, named in `matched_via`. One hit
        per record, the best match kept; a retired memory with no such answer is dropped."""
        active = [h for h in hits if h.record.status is Status.ACTIVE]
        best: dict[str, SearchHit] = {}
        found: dict[str, MemoryRecord | None] = {}
        for hit in hits:
            record: MemoryRecord | None = hit.record
            replaced, hops = hit.record, 0
            while record is not None and record.status is not Status.ACTIVE:
                successor = self._successor_id(record)
                if successor is None or hops >= MAX_SUCCESSOR_HOPS:
                    record = None
                    break
                if successor not in found:
                    found[successor] = await self.store.get(successor, scope)
                replaced, record, hops = record, found[successor], hops + 1
            if record is not None and replaced.status is Status.SUPERSEDED:
                # What the active memory says is read against what it replaced itself, the
                # last of a chain ("Cancelled Tidal" ends Tidal, not the Spotify before it).
                record = answer_for(query, replaced, record, active)
            if record is None:
                continue
            lifted = (
                hit
                if record is hit.record
                # The retired memory's vector is not its successor's.
                else hit.model_copy(
                    update={"record": record, "vector": None, "matched_via": hit.record.id}
                )
            )
            known = best.get(record.id)
            if known is None or match(lifted) > match(known):
                best[record.id] = lifted
        return list(best.values())

    def _successor_id(self, record: MemoryRecord) -> str | None:
        """The memory that took a retired `record`'s place, where recall follows that link."""
        if record.status is Status.ARCHIVED and self.through_summaries:
            return record.consolidated_into
        if record.status is Status.SUPERSEDED and self.through_replacements:
            return record.superseded_by
        return None


def answer_for(
    query: str, replaced: MemoryRecord, successor: MemoryRecord, active: Sequence[SearchHit]
) -> MemoryRecord | None:
    """Which active memory answers `query` in place of `replaced`, the memory `successor`
    superseded, if any.

    The memory that replaced it, when it says more than that the old value is gone. One that
    only ends it ("Cancelled Spotify", "Sold the Golf last week") answers "What music service
    do I use?", "Do I have a car?", but never a question asking for a list ("What pets do I
    have?" after "Rex passed away": the pets still here answer it). And one message may say
    what came instead in a part the classifier did not link ("Cancelled Spotify, I'm on
    Apple Music now", "Got rid of the iPhone. The Pixel 8 is brilliant."): that part answers
    where it is a recalled memory of the same message, about the same person as the old one,
    names a value the old one did not and ends nothing itself. A reason or someone else's
    news beside the ending ("It got too expensive", "My sister just started at Netflix") is
    no answer."""
    old = strip_speaker(replaced.text)
    if not ends(strip_speaker(successor.text), old):
        return successor
    said_in = set(successor.source.event_ids)
    who = subject_words(old)
    instead = [
        h
        for h in active
        if h.record.id != successor.id
        and said_in & set(h.record.source.event_ids)
        and values_in(strip_speaker(h.record.text)) - values_in(old)
        and not ends(strip_speaker(h.record.text), old)
        and subject_words(strip_speaker(h.record.text)) == who
    ]
    if instead:
        return max(instead, key=match).record
    return None if asks_for_a_list(query) else successor


__all__ = ["MAX_SUCCESSOR_HOPS", "Successors", "answer_for", "match"]
