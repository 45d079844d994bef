"""The read path: query → embedding → over-fetched store candidates → decay rerank → current
values first → top-k.

A memory that history retired still matches, and is answered with the active memory that took
its place (`successors`). A query that names the
user ("What is Sam allergic to?") is phrased the way facts about the user are stored.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from collections.abc import Sequence
from datetime import datetime

import numpy as np

from adk_memory.embedding.base import Embedder
from adk_memory.model import MemoryRecord, Scope, ScoredMemory, Status
from adk_memory.retrieval.ordering import (
    OrderingConfig,
    changes_in,
    current_first,
    group_same_question,
)
from adk_memory.retrieval.scoring import ScoringConfig, rerank
from adk_memory.retrieval.successors import Successors
from adk_memory.stores.base import ListFilter, MemoryStore

#: Embeddings of recalled texts kept for ordering (by record id and text); about 1.5 KiB each.
VECTOR_CACHE_SIZE = 20_000
#: Characters of a recalled text embedded to tell whether two memories say the same thing: a
#: statement's gist is in its first sentences, and the cost stays bounded for long excerpts.
ORDERING_TEXT_CHARS = 300


def as_user_query(query: str, names: Sequence[str]) -> str:
    """A query about the user by name ("What is Sam allergic to?") phrased the way facts
    about the user are stored ("What is the user allergic to?"), so neither the embedding nor
    the lexical match is pulled towards the one fact that holds the name."""
    for name in names:
        pattern = rf"\b{re.escape(name)}\b"
        query = re.sub(pattern + "'s", "the user's", query, flags=re.IGNORECASE)
        query = re.sub(pattern, "the user", query, flags=re.IGNORECASE)
    return query


#: "What's my diet like?", "What is the commute like these days?": the "like" frames the
#: question and names no topic, yet matched lexically it outweighs every answer ("it tastes
#: like soap", "a freckle shaped like a heart").
_LIKE_FRAME = re.compile(
    r"^(\W*what(?:'s|'re|\s+(?:is|are|was|were))\s+(?:(?!(?:i|we|you)\b)[\w']+\s+){1,4}?)"
    # "What are some foods Tom would like?": a verb after a modal.
    r"(?<!would )(?<!'d )(?<!might )(?<!will )(?<!could )(?<!do )(?<!does )(?<!did )(?<!to )"
    r"like\b\s*",
    re.IGNORECASE,
)


def without_question_frame(query: str) -> str:
    """`query` without the "like" of a "What's X like?" question."""
    found = _LIKE_FRAME.match(query)
    if found is None:
        return query
    rest = query[found.end() :]
    return found.group(1).rstrip() + (" " + rest if rest[:1].isalnum() else rest)


#: Words a user id may be that are not names: rewriting them in a query would change it
#: ("tell me about…" for the user "me").
_NOT_NAMES = frozenset(
    "i me my you your he him his she her hers it its we us our they them their user "
    "the and test".split()
)


def _reads_as_name(user_id: str) -> bool:
    """Whether a user id can stand for the user in a query: letters only, at least three,
    and not a pronoun or a common word."""
    return len(user_id) >= 3 and user_id.isalpha() and user_id.lower() not in _NOT_NAMES


class Retriever:
    """Recall over one store.

    Args:
        store: Where records live.
        embedder: Embeds queries (and recalled texts, for ordering same-question answers).
        scoring: The reranker's settings.
        ordering: When recalled memories answer the same question.
        through_summaries: Match archived sources of summaries and answer with the summary.
        through_replacements: Match superseded memories and answer with the memory that
            replaced them.
    """

    def __init__(
        self,
        store: MemoryStore,
        *,
        embedder: Embedder,
        scoring: ScoringConfig,
        ordering: OrderingConfig,
        through_summaries: bool = True,
        through_replacements: bool = True,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.scoring = scoring
        self.ordering = ordering
        self.successors = Successors(
            store,
            through_summaries=through_summaries,
            through_replacements=through_replacements,
        )
        self._names: dict[Scope, list[str]] = {}
        self._vectors: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()

    def forget_names(self, scope: Scope) -> None:
        """Drops the cached names of a scope (after a name was written or erased)."""
        self._names.pop(scope, None)

    async def recall_many(
        self, scope: Scope, texts: Sequence[str], *, k: int, now: datetime
    ) -> list[list[ScoredMemory]]:
        """The top-k active memories for each (validated) query text, best first."""
        # The user's stated names and a user id that reads as a name ("where does alice
        # live?" for the user "alice") are read as "the user", the way facts about the user
        # are stored.
        names = await self._user_names(scope)
        if _reads_as_name(scope.user_id):
            names = [*names, scope.user_id]
        texts = [without_question_frame(as_user_query(text, names)) for text in texts]
        vectors = await self.embedder.embed(texts)
        fetch = min(k * self.scoring.overfetch, self.store.max_search_k)
        statuses = self.successors.statuses
        results: list[list[ScoredMemory]] = []
        for text, vector in zip(texts, vectors, strict=True):
            hits = await self.store.search(
                scope, vector=vector, query=text, k=fetch, statuses=statuses
            )
            hits = await self.successors.lift(scope, text, hits)
            stored = {h.record.id: h.vector for h in hits if h.vector is not None}
            ranked = rerank(hits, now=now, k=k, config=self.scoring)
            results.append(await self._current_first(text, ranked, stored))
        return results

    async def _current_first(
        self, query: str, ranked: list[ScoredMemory], stored: dict[str, np.ndarray]
    ) -> list[ScoredMemory]:
        if not self.ordering.enabled or len(ranked) < 2:
            return ranked
        vectors = await self._text_vectors([m.record for m in ranked], stored)
        grouping = group_same_question(ranked, vectors, self.ordering, query=query)
        settled = await settled_changes(self.store, ranked, changes_in(grouping))
        return current_first(
            ranked, vectors, self.ordering, settled, query=query, grouping=grouping
        )

    async def _text_vectors(
        self, records: Sequence[MemoryRecord], stored: dict[str, np.ndarray]
    ) -> np.ndarray:
        """Unit embeddings of the records: the store's where it returned them, else embedded
        from the start of the text (bounded) and cached."""
        missing = list(
            dict.fromkeys(
                (r.id, r.text)
                for r in records
                if r.id not in stored and (r.id, r.text) not in self._vectors
            )
        )
        if missing:
            embedded = await self.embedder.embed(
                [text[:ORDERING_TEXT_CHARS] for _, text in missing]
            )
            for key, vector in zip(missing, embedded, strict=True):
                self._vectors[key] = vector
            while len(self._vectors) > VECTOR_CACHE_SIZE:
                self._vectors.popitem(last=False)
        rows = []
        for record in records:
            if record.id in stored:
                rows.append(stored[record.id])
            else:
                key = (record.id, record.text)
                self._vectors.move_to_end(key)
                rows.append(self._vectors[key])
        return np.stack(rows)

    async def _user_names(self, scope: Scope) -> list[str]:
        """What the user is called ("User is called Sam"), cached per scope until a name
        is written through the engine."""
        names = self._names.get(scope)
        if names is None:
            page = await self.store.list_page(
                scope,
                filters=ListFilter(statuses=[Status.ACTIVE], subject="user", predicate="name"),
                limit=10,
            )
            names = self._names[scope] = [r.object for r in page.records if r.object]
        return names


async def settled_changes(
    store: MemoryStore, ranked: Sequence[ScoredMemory], changes: set[str]
) -> set[str]:
    """Which of the recalled `changes` (those that would displace another memory) already
    superseded a memory through REPLACE, so ordering leaves the rest alone. One lookup per
    such change, run together; most recalls have none."""
    records = [m.record for m in ranked if m.record.id in changes]

    async def superseded_something(record: MemoryRecord) -> bool:
        page = await store.list_page(
            record.scope,
            filters=ListFilter(statuses=[Status.SUPERSEDED], superseded_by=record.id),
            limit=1,
        )
        return bool(page.records)

    found = await asyncio.gather(*(superseded_something(r) for r in records))
    return {r.id for r, yes in zip(records, found, strict=True) if yes}
