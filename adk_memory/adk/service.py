"""`AdkMemoryService`: ADK's `BaseMemoryService` over the `MemoryEngine`.

It holds no memory logic of its own. Writes validate input and raise clear errors; searches
never raise into an agent's turn: a backend fault or a search past its deadline logs a
warning and returns no memories.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from google.adk.events.event import Event
from google.adk.memory.base_memory_service import BaseMemoryService, SearchMemoryResponse
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.sessions.session import Session
from google.genai import types

from adk_memory.adk.events import to_input_events
from adk_memory.config import Settings
from adk_memory.engine import MemoryEngine
from adk_memory.errors import InvalidInputError
from adk_memory.factory import open_engine
from adk_memory.model import IngestResult, Scope, ScoredMemory, Source, parse_timestamp

logger = logging.getLogger("adk_memory")


def to_memory_entry(memory: ScoredMemory) -> MemoryEntry:
    """A recalled memory as ADK's `MemoryEntry`, score components in `custom_metadata`."""
    record, b = memory.record, memory.breakdown
    return MemoryEntry(
        id=record.id,
        author=record.author,
        timestamp=record.valid_at.isoformat(),
        content=types.Content(role="user", parts=[types.Part(text=record.text)]),
        custom_metadata={
            "score": b.score,
            "similarity": b.similarity,
            "cosine": b.cosine,
            "lexical": b.lexical,
            "decay": b.decay,
            "confidence": b.confidence,
            "age_days": b.age_days,
            "kind": record.kind.value,
            "status": record.status.value,
            "subject": record.subject,
            "predicate": record.predicate,
            "object": record.object,
            "session_id": record.source.session_id,
            "event_ids": list(record.source.event_ids),
        },
    )


class AdkMemoryService(BaseMemoryService):
    """Long-term memory for ADK: extraction, ADD/REPLACE/NOOP, decay-ranked search.

    Args:
        engine: A ready engine; or leave it out and give `store_uri` (opened lazily on first
            use, so the service can be built synchronously, e.g. by ADK's service registry).
        store_uri: Store URI (default: `ADK_MEMORY_STORE` or the embedded sqlite file).
        search_timeout_s: Deadline of one `search_memory`; past it, no memories are returned.
    """

    def __init__(
        self,
        engine: MemoryEngine | None = None,
        *,
        store_uri: str | None = None,
        settings: Settings | None = None,
        search_timeout_s: float = 5.0,
    ) -> None:
        self._engine = engine
        self._store_uri = store_uri
        self._settings = settings
        self._open_lock = asyncio.Lock()
        self.search_timeout_s = search_timeout_s

    async def engine(self) -> MemoryEngine:
        """The engine, opened on first use."""
        if self._engine is None:
            async with self._open_lock:
                if self._engine is None:
                    self._engine = await open_engine(self._store_uri, settings=self._settings)
        return self._engine

    async def add_session_to_memory(self, session: Session) -> None:
        """Ingests a whole session; events already ingested are skipped."""
        await self.ingest_events(
            app_name=session.app_name,
            user_id=session.user_id,
            events=session.events,
            session_id=session.id,
        )

    async def add_events_to_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        events: Sequence[Event],
        session_id: str | None = None,
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        """Ingests a delta of events (e.g. the latest turn)."""
        await self.ingest_events(
            app_name=app_name, user_id=user_id, events=events, session_id=session_id
        )

    async def ingest_events(
        self,
        *,
        app_name: str,
        user_id: str,
        events: Sequence[Event],
        session_id: str | None = None,
    ) -> IngestResult:
        """Like `add_events_to_memory`, returning what was decided for each fact."""
        engine = await self.engine()
        converted = to_input_events(events, session_id=session_id)
        return await engine.ingest(Scope(app_name=app_name, user_id=user_id), converted)

    async def add_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        memories: Sequence[MemoryEntry],
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        """Stores explicit memories; each is reconciled like any new fact."""
        engine = await self.engine()
        scope = Scope(app_name=app_name, user_id=user_id)
        prepared: list[tuple[str, Any, str]] = []
        for entry in memories:
            parts = entry.content.parts or []
            text = "\n".join(p.text for p in parts if p.text)
            if not text.strip():
                raise InvalidInputError("memory entry has no text")
            at = parse_timestamp(entry.timestamp) if entry.timestamp else None
            prepared.append((text, at, entry.author or "user"))
        for text, at, author in prepared:
            await engine.remember(scope, text, at=at, author=author, source=Source())

    async def search_memory(
        self, *, app_name: str, user_id: str, query: str
    ) -> SearchMemoryResponse:
        """Top memories for the query; empty (never an exception) on faults or timeouts."""
        if not query or not query.strip():
            return SearchMemoryResponse(memories=[])
        try:
            engine = await self.engine()
            ranked = await asyncio.wait_for(
                engine.recall(Scope(app_name=app_name, user_id=user_id), query),
                timeout=self.search_timeout_s,
            )
        except TimeoutError:
            logger.warning(
                "memory search exceeded %.1fs; answering without memories", self.search_timeout_s
            )
            return SearchMemoryResponse(memories=[])
        except Exception:
            logger.warning("memory search failed; answering without memories", exc_info=True)
            return SearchMemoryResponse(memories=[])
        return SearchMemoryResponse(memories=[to_memory_entry(m) for m in ranked])

    async def delete_memory(
        self, *, app_name: str, user_id: str, memory_id: str | None = None
    ) -> None:
        """Deletes one memory of this app and user by the id `search_memory` returned.

        Raises:
            InvalidInputError: without a memory id.
            NotFoundError: if the id is not a memory of this app and user.
        """
        if not memory_id:
            raise InvalidInputError("delete_memory needs a memory_id")
        engine = await self.engine()
        await engine.forget(memory_id, Scope(app_name=app_name, user_id=user_id))

    async def close(self) -> None:
        if self._engine is not None:
            await self._engine.close()
            self._engine = None
