"""`MemoryPlugin`: long-term memory for every agent of an ADK app, without slowing its turns.

Per invocation (one user turn):

1. `on_user_message_callback` starts `search_memory(query=<user text>)` as a task and returns
   at once, so retrieval overlaps with the runner's own work (session append, agent setup).
2. `before_model_callback` injects the memories as one fenced block into each model call of
   the invocation, as a user content at the current turn (where ADK's `PreloadMemoryTool`
   puts its memories): the system instruction, tools and earlier contents stay identical from
   turn to turn, so ADK's context cache (`ContextCacheConfig`) keeps hitting. ADK rebuilds
   the request for every call; the search still runs once. It waits for this turn's search
   at most `prefetch_deadline_s` (a budget for the whole invocation). Only when the
   session's *standby* result is ready and was searched for a matching query (the new
   message continues the previous exchange's topic) does it wait just `fresh_grace_s` and
   inject the standby memories instead; a later model call of the same invocation (after a
   tool call) gets the fresh ones. A search past its deadline is not cancelled: a later
   model call still uses its result.
3. `after_run_callback` hands the invocation's new events to a background `SaveQueue`
   (debounced per session, bounded, durable through a local outbox: a save that fails waits
   there and is replayed, also by the next process), records the turn's metrics, and starts
   the standby search for the session's next turn from this turn's exchange (speculative
   prefetch).

The embedder and the store warm up in the background as soon as the plugin (with a service)
or its first turn starts, so the first turn does not pay for loading them. `close()` drains
pending saves. Wire it in with `App(plugins=[MemoryPlugin()])` or
`adk web --extra_plugins adk_memory.adk.plugin.MemoryPlugin`; without a service of its own the
plugin uses the runner's memory service (`--memory_service_uri`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Literal

from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.invocation_context import InvocationContext
from google.adk.memory.base_memory_service import BaseMemoryService, SearchMemoryResponse
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.plugins.base_plugin import BasePlugin
from google.genai import types
from opentelemetry import trace
from pydantic import BaseModel, Field

from adk_memory.adk.autosave import SaveQueue
from adk_memory.adk.events import content_text, event_text
from adk_memory.adk.memory_block import fit_to_budget, format_memory_block, inject_memory_block
from adk_memory.adk.outbox import Outbox, default_outbox_path
from adk_memory.adk.service import AdkMemoryService, warm_up_local_embedder
from adk_memory.lifecycle.scheduler import LifecycleSchedule, LifecycleScheduler

logger = logging.getLogger("adk_memory.adk.plugin")

#: Invocations tracked at once; beyond it the oldest is dropped (an invocation whose run
#: died without any callback must not pin its state forever).
MAX_INFLIGHT = 1024
#: Per-turn metrics kept in `MemoryPlugin.metrics`.
METRICS_KEPT = 1000
SPAN_PREFIX = "adk_memory."
#: Characters of a turn's exchange used as the standby query for the next turn.
STANDBY_QUERY_CHARS = 1000
#: Share of a new message's topic words the standby query must contain for the standby
#: memories to stand in for the message's own search.
STANDBY_MATCH = 0.5
_WORD = re.compile(r"\w+")
#: Words too common to say what a message is about.
_COMMON = frozenset(
    "about also and any are but can could did does for from had has have her his how its "
    "just like make me more need not now our out please she should some tell than thank "
    "thanks that the their them then there they this was what when where which who why "
    "will with would you your yes okay sure".split()
)


class TurnMetrics(BaseModel):
    """What memory cost and gave one turn."""

    invocation_id: str
    session_id: str
    #: How long the search took (None: it had not finished when the turn ended).
    search_ms: float | None
    #: How long model calls were held back waiting for the search.
    prefetch_wait_ms: float
    #: Search time that overlapped with other work instead of delaying the turn.
    hidden_latency_ms: float | None
    memories_injected: int
    #: Which search the injected memories came from: "fresh" (this turn's), "standby"
    #: (started when the previous turn ended) or "none".
    injected_from: str
    timed_out: bool
    failed: bool
    saved_events: int
    #: Ids of the memories the first model call of the turn carried.
    first_call_memory_ids: list[str] = Field(default_factory=list)
    #: Ids this turn's own search returned (top k; None: it had not finished).
    fresh_memory_ids: list[str] | None = None


@dataclass
class _Standby:
    task: asyncio.Task[SearchMemoryResponse]
    query: str


@dataclass
class _Prefetch:
    task: asyncio.Task[SearchMemoryResponse]
    session_id: str
    query: str
    started: float
    finished: float | None = None
    standby: _Standby | None = None
    #: Started before any search had succeeded (the process is still warming up).
    cold: bool = False
    waited: float = 0.0
    calls: int = 0
    injected: int = 0
    injected_from: str = "none"
    first_call_ids: list[str] = field(default_factory=list)
    timed_out: bool = False
    failed: bool = False
    failure_logged: bool = False

    def on_done(self, task: asyncio.Task[SearchMemoryResponse]) -> None:
        self.finished = time.perf_counter()
        if not task.cancelled() and task.exception() is not None:
            # Retrieved here so a failure nobody awaits is not reported as "never retrieved".
            self.failed = True


class MemoryPlugin(BasePlugin):
    """Prefetches memories for each turn, injects them once, and saves new events.

    Args:
        memory_service: Where memories live; None uses the invocation's memory service
            (the runner's, e.g. from `--memory_service_uri`).
        name: Plugin name (ADK passes the qualified class name for `--extra_plugins`).
        prefetch_deadline_s: Longest time model calls of one invocation wait for the search.
        speculative_prefetch: After each turn, start the search for the session's next turn
            from that turn's exchange, so a follow-up on the same topic need not wait.
        fresh_grace_s: With a matching standby result ready, how long the first model call
            still waits for this turn's own search before using the standby memories.
        standby_reuse: "matching" (default): a ready standby result stands in for this
            turn's search only when the message continues the previous exchange's topic
            (`continues_topic`); "always": whenever it is ready (fastest first call, but
            often another topic's memories).
        top_k: Most memories injected per turn.
        max_memory_chars: Bound on the characters of memory text injected per turn (None: no
            bound). Memories are taken best first while they fit; see `fit_to_budget`.
        auto_save: Save each turn's new events to memory in the background.
        max_pending_saves: Sessions that may wait for a background save at once.
        debounce_s: Quiet time after a session's last turn before its events are saved.
        close_timeout_s: Longest `close()` waits for pending saves (ADK allows a plugin 5 s).
        outbox: Where saves wait until the memory service accepted them (a local SQLite
            file, 0600); None: `outbox.db` under the user's data directory; False: no
            outbox (a save that fails is lost).
        lifecycle: Run garbage collection and consolidation periodically in this process
            (off by default; needs an `AdkMemoryService`). Fleets use cron instead.
        warm_up: Load the embedder and open the store in the background as soon as the
            plugin (or its first turn) starts.
        warm_up_wait_s: Added to `prefetch_deadline_s` until a search of this plugin has
            succeeded once: right after start-up the first searches also pay for loading
            the model, opening the store and the process's first-use costs, and the first
            turn should have its memories rather than answer without them.
    """

    def __init__(
        self,
        memory_service: BaseMemoryService | None = None,
        *,
        name: str = "adk_memory",
        prefetch_deadline_s: float = 0.3,
        speculative_prefetch: bool = True,
        fresh_grace_s: float = 0.005,
        standby_reuse: Literal["matching", "always"] = "matching",
        top_k: int = 5,
        max_memory_chars: int | None = None,
        auto_save: bool = True,
        max_pending_saves: int = 256,
        debounce_s: float = 0.5,
        close_timeout_s: float = 4.0,
        outbox: Outbox | str | os.PathLike[str] | bool | None = None,
        lifecycle: LifecycleSchedule | None = None,
        warm_up: bool = True,
        warm_up_wait_s: float = 3.0,
    ) -> None:
        super().__init__(name=name)
        if prefetch_deadline_s < 0:
            raise ValueError("prefetch_deadline_s must not be negative")
        if top_k < 1:
            raise ValueError("top_k must be at least 1")
        if max_memory_chars is not None and max_memory_chars < 1:
            raise ValueError("max_memory_chars must be at least 1")
        if fresh_grace_s < 0:
            raise ValueError("fresh_grace_s must not be negative")
        if warm_up_wait_s < 0:
            raise ValueError("warm_up_wait_s must not be negative")
        if standby_reuse not in ("matching", "always"):
            raise ValueError('standby_reuse must be "matching" or "always"')
        self.memory_service = memory_service
        self.prefetch_deadline_s = prefetch_deadline_s
        self.speculative_prefetch = speculative_prefetch
        self.fresh_grace_s = fresh_grace_s
        self.standby_reuse = standby_reuse
        self.warm_up = warm_up
        self.warm_up_wait_s = warm_up_wait_s
        #: Whether a search has succeeded since start-up (see `warm_up_wait_s`).
        self._searched_once = False
        self.top_k = top_k
        self.max_memory_chars = max_memory_chars
        self.auto_save = auto_save
        self.close_timeout_s = close_timeout_s
        self.saves = SaveQueue(
            max_pending=max_pending_saves,
            debounce_s=debounce_s,
            outbox=_outbox(outbox) if auto_save else None,
        )
        self.metrics: deque[TurnMetrics] = deque(maxlen=METRICS_KEPT)
        self._inflight: dict[str, _Prefetch] = {}
        self.lifecycle = lifecycle
        self._scheduler: LifecycleScheduler | None = None
        #: session id -> the search started for that session's next turn.
        self._standby: dict[str, _Standby] = {}
        self._prepared: set[int] = set()
        if warm_up:
            # The embedding model is the slow part of a first search: load it now, off the
            # event loop, so the first turn finds it ready.
            warm_up_local_embedder()
        if memory_service is not None and _has_running_loop():
            self._prepare(memory_service)

    def _service(self, invocation_context: InvocationContext) -> BaseMemoryService | None:
        service: BaseMemoryService | None = self.memory_service or invocation_context.memory_service
        return service

    def _prepare(self, service: BaseMemoryService) -> None:
        """Once per service, on an event loop: warm it up and replay its saves that an
        earlier process left in the outbox. Both run in the background."""
        if id(service) in self._prepared:
            return
        self._prepared.add(id(service))
        if isinstance(service, AdkMemoryService):
            if self.warm_up:
                service.start_warm_up()
            service.track_pending_saves(self.saves)
        if self.auto_save:
            self.saves.attach(service)

    def _note_search(self, task: asyncio.Task[SearchMemoryResponse]) -> None:
        if _succeeded(task):
            self._searched_once = True

    async def on_user_message_callback(
        self, *, invocation_context: InvocationContext, user_message: types.Content
    ) -> types.Content | None:
        """Starts the memory search for this turn; never waits for it."""
        try:
            self._start_prefetch(invocation_context, user_message)
        except Exception:
            logger.warning("could not start the memory search", exc_info=True)
        if self.lifecycle is not None and self.lifecycle.enabled and self._scheduler is None:
            await self._start_lifecycle(invocation_context)
        return None

    async def _start_lifecycle(self, invocation_context: InvocationContext) -> None:
        service = self._service(invocation_context)
        if not isinstance(service, AdkMemoryService):
            logger.warning("lifecycle jobs need an AdkMemoryService; not scheduling them")
            self.lifecycle = None
            return
        try:
            self._scheduler = LifecycleScheduler(await service.engine(), self.lifecycle)
            self._scheduler.start()
        except Exception:
            logger.warning("could not schedule the lifecycle jobs", exc_info=True)
            self.lifecycle = None

    def _start_prefetch(
        self, invocation_context: InvocationContext, user_message: types.Content
    ) -> None:
        service = self._service(invocation_context)
        if service is None:
            return
        self._prepare(service)
        query = content_text(user_message, separator=" ")
        if not query:
            return
        invocation_id = invocation_context.invocation_id
        self._discard(invocation_id)
        while len(self._inflight) >= MAX_INFLIGHT:
            self._discard(next(iter(self._inflight)))
        task = asyncio.get_running_loop().create_task(
            service.search_memory(
                app_name=invocation_context.app_name,
                user_id=invocation_context.user_id,
                query=query,
            ),
            name=f"adk_memory-prefetch-{invocation_id}",
        )
        session_id = invocation_context.session.id
        state = _Prefetch(
            task=task,
            session_id=session_id,
            query=query,
            started=time.perf_counter(),
            standby=self._standby.pop(session_id, None),
            cold=not self._searched_once,
        )
        task.add_done_callback(state.on_done)
        task.add_done_callback(self._note_search)
        self._inflight[invocation_id] = state

    async def before_model_callback(
        self, *, callback_context: CallbackContext, llm_request: LlmRequest
    ) -> LlmResponse | None:
        """Injects this invocation's memories into each model call that can have them."""
        state = self._inflight.get(callback_context.invocation_id)
        if state is None:
            return None
        try:
            await self._deliver(state, llm_request)
        except Exception:
            logger.warning("injecting memories failed; answering without them", exc_info=True)
        return None

    def _usable_standby(self, state: _Prefetch) -> asyncio.Task[SearchMemoryResponse] | None:
        """The standby search, when it is ready and was searched for this topic."""
        standby = state.standby
        if standby is None or not _succeeded(standby.task):
            return None
        if self.standby_reuse == "matching" and not continues_topic(state.query, standby.query):
            return None
        return standby.task

    async def _deliver(self, state: _Prefetch, llm_request: LlmRequest) -> None:
        first_call = state.calls == 0
        state.calls += 1
        standby = self._usable_standby(state)
        deadline = self.prefetch_deadline_s + (self.warm_up_wait_s if state.cold else 0.0)
        budget = deadline - state.waited
        wait = min(budget, self.fresh_grace_s) if standby is not None else budget
        if not state.task.done() and wait > 0:
            started = time.perf_counter()
            await asyncio.wait({state.task}, timeout=wait)
            state.waited += time.perf_counter() - started
        if state.task.done() and not _succeeded(state.task):
            state.failed = True
            if not state.failure_logged:
                state.failure_logged = True
                logger.warning(
                    "memory search failed; answering without it",
                    exc_info=None if state.task.cancelled() else state.task.exception(),
                )
        if _succeeded(state.task):
            response, source = state.task.result(), "fresh"
        elif standby is not None:
            response, source = standby.result(), "standby"
        else:
            if not state.task.done() and not state.timed_out:
                state.timed_out = True
                logger.warning(
                    "memory search exceeded %.0f ms; answering without memories for now",
                    self.prefetch_deadline_s * 1000,
                )
                _annotate_span(_span_attributes(state, self.prefetch_deadline_s))
            return
        memories = fit_to_budget(response.memories[: self.top_k], self.max_memory_chars)
        block = format_memory_block(memories)
        if block is not None:
            inject_memory_block(llm_request, block)
        if first_call:
            state.first_call_ids = [m.id for m in memories if m.id]
        state.injected, state.injected_from = len(memories), source
        _annotate_span(_span_attributes(state, self.prefetch_deadline_s))

    async def after_run_callback(self, *, invocation_context: InvocationContext) -> None:
        """Queues the turn's new events for saving and records its metrics; never raises."""
        try:
            saved = self._schedule_save(invocation_context) if self.auto_save else 0
        except Exception:
            saved = 0
            logger.warning("could not queue the turn for saving to memory", exc_info=True)
        if self.speculative_prefetch:
            try:
                self._start_standby(invocation_context)
            except Exception:
                logger.warning("could not start the next turn's memory search", exc_info=True)
        state = self._inflight.pop(invocation_context.invocation_id, None)
        if state is None:
            return
        # The turn is over; nobody can use these results any more.
        for task in (state.task, state.standby.task if state.standby else None):
            if task is not None and not task.done():
                task.cancel()
        metrics = _turn_metrics(invocation_context.invocation_id, state, saved, self.top_k)
        self.metrics.append(metrics)
        logger.info(
            "memory turn %s: prefetch wait %.1f ms, hidden latency %s ms, %d memories injected",
            metrics.invocation_id,
            metrics.prefetch_wait_ms,
            "-" if metrics.hidden_latency_ms is None else f"{metrics.hidden_latency_ms:.1f}",
            metrics.memories_injected,
        )
        _annotate_span(_span_attributes(state, self.prefetch_deadline_s))

    async def on_run_error_callback(
        self, *, invocation_context: InvocationContext, error: Exception
    ) -> None:
        """Forgets the failed invocation's prefetch (after_run does not follow an error)."""
        self._discard(invocation_context.invocation_id)

    def _start_standby(self, invocation_context: InvocationContext) -> None:
        """Searches for the next turn of this session with this turn's exchange as query."""
        service = self._service(invocation_context)
        session = invocation_context.session
        said = [content_text(invocation_context.user_content, separator=" ")]
        said += [
            event_text(e)
            for e in session.events
            if e.invocation_id == invocation_context.invocation_id and e.author != "user"
        ]
        query = " ".join(t for t in said if t)[-STANDBY_QUERY_CHARS:]
        if service is None or not query.strip():
            return
        previous = self._standby.pop(session.id, None)
        if previous is not None and not previous.task.done():
            previous.task.cancel()
        while len(self._standby) >= MAX_INFLIGHT:
            oldest = self._standby.pop(next(iter(self._standby)))
            if not oldest.task.done():
                oldest.task.cancel()
        task = asyncio.get_running_loop().create_task(
            service.search_memory(app_name=session.app_name, user_id=session.user_id, query=query),
            name=f"adk_memory-standby-{session.id}",
        )
        task.add_done_callback(_note_standby_failure)
        self._standby[session.id] = _Standby(task, query)

    def _schedule_save(self, invocation_context: InvocationContext) -> int:
        service = self._service(invocation_context)
        session = invocation_context.session
        if service is None:
            return 0
        # Only this invocation's events: earlier turns were queued by their own invocation.
        events = [
            e
            for e in session.events
            if e.invocation_id == invocation_context.invocation_id and event_text(e)
        ]
        if not events:
            return 0
        queued = self.saves.submit(
            service,
            app_name=session.app_name,
            user_id=session.user_id,
            session_id=session.id,
            events=events,
        )
        return len(events) if queued else 0

    async def flush(self) -> None:
        """Attempts every pending save now, the outbox's included, and waits until each has
        been tried (saves start without debounce or backoff)."""
        await self.saves.flush()

    async def close(self) -> None:
        """Drains pending saves (at most `close_timeout_s`; the rest stays in the outbox)
        and drops in-flight searches."""
        for invocation_id in list(self._inflight):
            self._discard(invocation_id)
        for standby in self._standby.values():
            if not standby.task.done():
                standby.task.cancel()
        self._standby.clear()
        if self._scheduler is not None:
            await self._scheduler.stop()
            self._scheduler = None
        await self.saves.close(self.close_timeout_s)

    def _discard(self, invocation_id: str) -> None:
        state = self._inflight.pop(invocation_id, None)
        if state is not None and not state.task.done():
            state.task.cancel()


def continues_topic(message: str, previous_exchange: str) -> bool:
    """Whether a new message stays on the topic of the previous exchange: most of its topic
    words occur in it, or it has none of its own ("and then?", "why?").

    This decides whether memories searched for the previous exchange may stand in for the
    message's own search: a standby result for another topic would put the wrong memories
    in the model's first call.
    """
    words = _topic_words(message)
    if not words:
        return True
    return len(words & _topic_words(previous_exchange)) / len(words) >= STANDBY_MATCH


def _topic_words(text: str) -> set[str]:
    return {
        w
        for w in (m.group(0).lower() for m in _WORD.finditer(text))
        if len(w) > 2 and w not in _COMMON and not w.isdigit()
    }


def _outbox(option: Outbox | str | os.PathLike[str] | bool | None) -> Outbox | None:
    if isinstance(option, Outbox):
        return option
    if option is False:
        return None
    if option is None or option is True:
        return Outbox(default_outbox_path())
    return Outbox(option)


def _has_running_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _note_standby_failure(task: asyncio.Task[SearchMemoryResponse]) -> None:
    # Retrieved here so an unused failed standby is not reported as "never retrieved"; the
    # turn that would use it searches afresh anyway.
    if not task.cancelled() and task.exception() is not None:
        logger.debug("standby memory search failed", exc_info=task.exception())


def _succeeded(task: asyncio.Task[SearchMemoryResponse] | None) -> bool:
    return task is not None and task.done() and not task.cancelled() and task.exception() is None


def _turn_metrics(invocation_id: str, state: _Prefetch, saved: int, top_k: int) -> TurnMetrics:
    search_ms = None if state.finished is None else (state.finished - state.started) * 1000
    wait_ms = state.waited * 1000
    fresh = (
        [m.id for m in state.task.result().memories[:top_k] if m.id]
        if _succeeded(state.task)
        else None
    )
    return TurnMetrics(
        invocation_id=invocation_id,
        session_id=state.session_id,
        search_ms=search_ms,
        prefetch_wait_ms=wait_ms,
        hidden_latency_ms=None if search_ms is None else max(0.0, search_ms - wait_ms),
        memories_injected=state.injected,
        injected_from=state.injected_from,
        timed_out=state.timed_out,
        failed=state.failed,
        saved_events=saved,
        first_call_memory_ids=state.first_call_ids,
        fresh_memory_ids=fresh,
    )


def _span_attributes(state: _Prefetch, deadline_s: float) -> dict[str, Any]:
    attributes: dict[str, Any] = {
        "prefetch_wait_ms": round(state.waited * 1000, 3),
        "prefetch_deadline_ms": round(deadline_s * 1000, 3),
        "memories_injected": state.injected,
        "injected_from": state.injected_from,
        "timed_out": state.timed_out,
        "failed": state.failed,
    }
    if state.finished is not None:
        search_ms = (state.finished - state.started) * 1000
        attributes["search_ms"] = round(search_ms, 3)
        attributes["hidden_latency_ms"] = round(max(0.0, search_ms - state.waited * 1000), 3)
    return {SPAN_PREFIX + k: v for k, v in attributes.items()}


def _annotate_span(attributes: dict[str, Any]) -> None:
    """Adds the attributes to ADK's current span when a tracer is recording."""
    span = trace.get_current_span()
    if span.is_recording():
        span.set_attributes(attributes)
