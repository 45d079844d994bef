"""`AdkMemoryService`: ADK's `BaseMemoryService` over the `MemoryEngine`.

It holds no memory logic of its own. Writes validate input and raise clear errors, but one
event that cannot be stored never costs the others of its batch: it is left out with a
logged, counted reason. Searches never raise into an agent's turn: a backend fault or a
search past its deadline logs a warning, is counted, and returns no memories.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from google.adk.events.event import Event
from google.adk.memory.base_memory_service import BaseMemoryService, SearchMemoryResponse
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.models.base_llm import BaseLlm
from google.adk.sessions.session import Session
from google.genai import types

from adk_memory.adk.events import content_text, convert_events
from adk_memory.adk.outbox import Outbox, default_outbox_path
from adk_memory.config import EmbedderBackend, Settings
from adk_memory.engine import MemoryEngine
from adk_memory.errors import InvalidInputError
from adk_memory.factory import open_engine
from adk_memory.model import IngestResult, InputEvent, Scope, ScoredMemory, Source, parse_timestamp

if TYPE_CHECKING:
    from adk_memory.adk.autosave import SaveQueue

logger = logging.getLogger("adk_memory")

#: The scope a warm-up search runs in (it holds nothing; the search loads the model and
#: opens the store's connections).
WARM_UP_SCOPE = Scope(app_name="adk-memory-warm-up", user_id="warm-up")

_warm_lock = threading.Lock()
_warm_thread: threading.Thread | None = None


def warm_up_local_embedder(settings: Settings | None = None) -> None:
    """Loads the bundled embedding model in a background thread, once per process, unless
    the settings choose another embedder.

    Loading it takes a few hundred milliseconds (seconds on a busy machine); started when a
    service or plugin is built, it is ready before the first search instead of delaying it.
    Never blocks the caller.
    """
    global _warm_thread
    try:
        chosen = (settings or Settings.from_env()).embedder
    except Exception:  # a bad setting is reported where the engine is opened
        return
    if chosen is not EmbedderBackend.LOCAL:
        return
    with _warm_lock:
        if _warm_thread is not None:
            return
        _warm_thread = threading.Thread(
            target=_load_local_embedder, name="adk_memory-warm-up", daemon=True
        )
        _warm_thread.start()


async def local_embedder_ready() -> None:
    """Waits (off the event loop) until a warm-up started by `warm_up_local_embedder` is done,
    so a search never loads the model a second time beside it."""
    thread = _warm_thread
    if thread is not None and thread.is_alive():
        await asyncio.to_thread(thread.join)


def _load_local_embedder() -> None:
    try:
        from adk_memory.embedding.local import LocalEmbedder

        LocalEmbedder().embed_sync(["warm up"])
    except Exception:
        logger.warning("could not warm up the local embedding model", exc_info=True)


@dataclass
class ServiceStats:
    """Counters of what the service could not do (for tests, logs and benchmarks)."""

    #: Events left out of a save because they cannot be stored (each one logged).
    invalid_events: int = 0
    #: Searches that returned nothing because the backend failed.
    search_failures: int = 0
    #: Searches that returned nothing because they exceeded `search_timeout_s`.
    search_timeouts: int = 0


def to_memory_entry(memory: ScoredMemory) -> MemoryEntry:
    """A recalled memory as ADK's `MemoryEntry`, score components in `custom_metadata`."""
    record, b = memory.record, memory.breakdown
    return MemoryEntry(
        id=record.id,
        author=record.author,
        timestamp=record.stated_at.isoformat(),
        content=types.Content(role="user", parts=[types.Part(text=record.text)]),
        custom_metadata={
            # True: the latest of recalled memories answering the same question; False: an
            # earlier one (the block marks both); absent when it stands alone.
            **({} if memory.latest is None else {"latest": memory.latest}),
            "stated_at": record.stated_at.isoformat(),
            "valid_at": record.valid_at.isoformat(),
            "score": b.score,
            "similarity": b.similarity,
            "cosine": b.cosine,
            "lexical": b.lexical,
            "decay": b.decay,
            "confidence": b.confidence,
            "age_days": b.age_days,
            # The retired memory (a summary's source, a memory this one replaced) whose
            # match this one inherited; absent when it matched on its own.
            **({} if b.matched_via is None else {"matched_via": b.matched_via}),
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
        settings: Settings (default: from the environment).
        search_timeout_s: Deadline of one `search_memory`; past it, no memories are returned.
        destination: What identifies this service's store to the save outbox (default: the
            store URI, or the given engine's store). Two services with the same destination
            replay each other's pending saves, so it must name the store, not the process.
        warm_up: Open the store and load the embedder in the background as soon as the
            service exists (on an event loop) rather than on the first search.
        llm: The model that extracts and classifies when the service opens its own engine:
            an ADK `BaseLlm` (e.g. `LiteLlm(model="openai/gpt-4o")`) or a model string
            (default: what `ADK_MEMORY_LLM` selects).
    """

    def __init__(
        self,
        engine: MemoryEngine | None = None,
        *,
        store_uri: str | None = None,
        settings: Settings | None = None,
        search_timeout_s: float = 5.0,
        destination: str | None = None,
        warm_up: bool = True,
        llm: BaseLlm | str | None = None,
    ) -> None:
        self._engine = engine
        self._llm = llm
        self._store_uri = store_uri
        self._settings = settings
        self._open_lock = asyncio.Lock()
        self.search_timeout_s = search_timeout_s
        self._destination = destination
        self.stats = ServiceStats()
        self._save_queues: weakref.WeakSet[SaveQueue] = weakref.WeakSet()
        self._warm: asyncio.Task[None] | None = None
        if warm_up:
            self.start_warm_up()

    @property
    def destination(self) -> str:
        """The store this service writes to, as the save outbox keys pending saves."""
        if self._destination is not None:
            return self._destination
        if self._engine is None or self._store_uri is not None:
            return self._store_uri or (self._settings or Settings.from_env()).store_uri
        store = self._engine.store
        where = next(
            (getattr(store, a) for a in ("path", "engine", "endpoint") if hasattr(store, a)),
            id(store),
        )
        return f"{type(store).__name__}:{where}"

    def start_warm_up(self) -> bool:
        """Starts loading the embedder and opening the store in the background (once).

        Returns:
            Whether the store warm-up could start (it needs a running event loop; the
            embedding model loads in a thread either way).
        """
        if self._engine is None:
            warm_up_local_embedder(self._settings)
        if self._warm is not None:
            return True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        self._warm = loop.create_task(self._warm_up_logged(), name="adk_memory-warm-up")
        return True

    async def wait_until_warm(self) -> None:
        """Waits for a background warm-up started by `start_warm_up` (e.g. in a readiness
        probe); returns at once if none is running. Never raises."""
        if self._warm is not None:
            await asyncio.gather(self._warm, return_exceptions=True)

    async def warm_up(self) -> None:
        """Opens the store and runs one search, so the first real search pays for neither."""
        engine = await self.engine()
        await engine.recall(WARM_UP_SCOPE, "warm up", top_k=1)

    async def _warm_up_logged(self) -> None:
        try:
            await self.warm_up()
        except Exception:
            logger.warning("memory warm-up failed; the first search will be slower", exc_info=True)

    def track_pending_saves(self, queue: SaveQueue) -> None:
        """Registers a plugin's save queue, so `erase_user` also drops what waits in it."""
        self._save_queues.add(queue)

    async def engine(self) -> MemoryEngine:
        """The engine, opened on first use."""
        if self._engine is None:
            async with self._open_lock:
                if self._engine is None:
                    self._engine = await open_engine(
                        self._store_uri, settings=self._settings, llm=self._llm
                    )
        await local_embedder_ready()
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
        """Like `add_events_to_memory`, returning what was decided for each fact.

        An event that cannot be converted, or that the engine rejects as invalid, is left
        out (logged with its reason, counted in `stats.invalid_events`) and the rest of the
        batch is ingested without it. Over-long texts are passed on for the extractor to
        bound. Backend faults still raise: the caller (the plugin's outbox) retries them.
        """
        scope = Scope(app_name=app_name, user_id=user_id)
        engine = await self.engine()
        conversion = convert_events(events, session_id=session_id)
        for event_id, reason in conversion.skipped:
            self._skip(scope, event_id, reason)
        return await self._ingest_valid(engine, scope, conversion.events)

    async def _ingest_valid(
        self, engine: MemoryEngine, scope: Scope, batch: list[InputEvent]
    ) -> IngestResult:
        total = IngestResult()
        pending = [batch]
        while pending:
            part = pending.pop()
            if not part:
                continue
            try:
                _merge(total, await engine.ingest(scope, part))
                continue
            except InvalidInputError as exc:
                named = [e for e in part if e.id in str(exc)]
                if len(named) == 1:
                    self._skip(scope, named[0].id, str(exc))
                    pending.append([e for e in part if e is not named[0]])
                elif len(part) == 1:
                    self._skip(scope, part[0].id, str(exc))
                else:
                    # The error does not say which event: halve until it is found, so the
                    # valid events cost a few more calls rather than being lost.
                    middle = len(part) // 2
                    pending += [part[middle:], part[:middle]]
        return total

    def _skip(self, scope: Scope, event_id: str, reason: str) -> None:
        self.stats.invalid_events += 1
        logger.warning("memory save of %s: left out event %s: %s", scope, event_id, reason)

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
            text = content_text(entry.content)
            if not text:
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
            self.stats.search_timeouts += 1
            logger.warning(
                "memory search exceeded %.1fs; answering without memories", self.search_timeout_s
            )
            return SearchMemoryResponse(memories=[])
        except Exception:
            self.stats.search_failures += 1
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

    async def erase_user(self, *, app_name: str, user_id: str) -> int:
        """Removes every trace of one user of one app: their memories in every status,
        history, event markers and index entries on the store, and their saves still
        waiting in this process's save queues and in the default outbox file.

        Returns:
            How many records the store erased.
        """
        scope = Scope(app_name=app_name, user_id=user_id)
        dropped = 0
        # Pending saves first: one written after the store was erased would bring data back.
        covered = set()
        for queue in list(self._save_queues):
            dropped += await queue.discard_scope(app_name, user_id)
            if queue.outbox is not None:
                covered.add(queue.outbox.path.resolve())
        default = default_outbox_path()
        if default.exists() and default.resolve() not in covered:
            dropped += await asyncio.to_thread(_discard_from_file, default, app_name, user_id)
        engine = await self.engine()
        erased = await engine.erase(scope)
        logger.info(
            "erased %s: %d records from the store, %d pending saves", scope, erased, dropped
        )
        return erased

    async def close(self) -> None:
        if self._warm is not None and not self._warm.done():
            self._warm.cancel()
            await asyncio.gather(self._warm, return_exceptions=True)
        if self._engine is not None:
            await self._engine.close()
            self._engine = None


def _merge(total: IngestResult, part: IngestResult) -> None:
    total.outcomes += part.outcomes
    total.events_ingested += part.events_ingested
    total.events_skipped += part.events_skipped
    total.model_calls += part.model_calls
    total.tokens += part.tokens


def _discard_from_file(path: object, app_name: str, user_id: str) -> int:
    outbox = Outbox(str(path))
    try:
        return outbox.discard_scope(app_name, user_id)
    finally:
        outbox.close()
