"""The emulated Memory Bank: reasoning engines, memories, revisions and operations.

Behaviour follows the GenAI SDK's view of the service (research notes): exact scope matching,
`topK` / `pageSize` default 3 and capped at 100, long-running operations that are already done,
camelCase resources. Similarity search is real cosine search over the bundled local embedding
model, and `distance` is the cosine distance `1 - cos`.

Everything runs on the server's event loop; embedding is the only blocking work and goes to a
thread. State persists to a JSON file when a path is given (vectors are recomputed on load).
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from collections import OrderedDict
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from adk_memory.model import utcnow
from adk_memory.testing.emulator.filters import aip160_predicate, filter_groups_predicate
from adk_memory.testing.emulator.persist import load_json, save_json_atomic
from adk_memory.testing.emulator.wire import (
    ApiError,
    format_time,
    metadata_map,
    parse_duration,
    parse_time,
    pick,
)

Json = dict[str, Any]

DEFAULT_PROJECT = "emulator-project"
DEFAULT_LOCATION = "us-central1"
#: `topK` / `pageSize` of retrieve: default and maximum (larger values are clamped).
DEFAULT_TOP_K = 3
MAX_TOP_K = 100
DEFAULT_LIST_PAGE = 50
MAX_LIST_PAGE = 100
#: At most this many direct memories per generate request (SDK docstring).
MAX_DIRECT_MEMORIES = 5
#: Generated facts this close to an existing memory of the scope update it instead.
CONSOLIDATION_COSINE = 0.9
_MEMORY_ID = re.compile(r"^[a-z][a-z0-9-]{0,62}$")
_MAX_OPERATIONS = 10_000
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
#: How long a revision is kept (the service's default `memoryRevisionDefaultTtl`: 365 days).
REVISION_TTL = timedelta(days=365)
#: Event ids a stream remembers for de-duplication.
_MAX_SEEN_EVENTS = 10_000


class Embed:
    """Embeds texts off the event loop, caching query vectors."""

    def __init__(self, embed_sync: Callable[[Sequence[str]], np.ndarray]) -> None:
        self._embed_sync = embed_sync
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()

    async def many(self, texts: Sequence[str]) -> np.ndarray:
        return await asyncio.to_thread(self._embed_sync, list(texts))

    async def one(self, text: str) -> np.ndarray:
        cached = self._cache.get(text)
        if cached is not None:
            self._cache.move_to_end(text)
            return cached
        vector: np.ndarray = (await self.many([text]))[0]
        self._cache[text] = vector
        if len(self._cache) > 2048:
            self._cache.popitem(last=False)
        return vector


def _numeric_id() -> str:
    # Real resource ids are long decimal numbers; a leading 1 keeps the width fixed.
    return "1" + "".join(str(secrets.randbelow(10)) for _ in range(18))


def _scope(raw: Any) -> dict[str, str]:
    if not isinstance(raw, dict) or not raw:
        raise ApiError(400, "scope is required and must be a non-empty map")
    scope = {str(k): v for k, v in raw.items()}
    for key, value in scope.items():
        if not isinstance(value, str) or "*" in value:
            raise ApiError(400, f"scope value for {key!r} must be a string without '*'")
    return scope


def _context_spec(raw: Any) -> Json:
    # The SDK's memory_banks.get() dereferences contextSpec.memoryBankConfig unconditionally,
    # and every engine this emulator serves is a Memory Bank: always return one.
    spec = dict(raw) if isinstance(raw, dict) else {}
    config = pick(spec, "memoryBankConfig")
    spec.pop("memory_bank_config", None)
    spec["memoryBankConfig"] = config if isinstance(config, dict) else {}
    return spec


def _generation_rule(raw: Any) -> Json | None:
    """A `generationRule` as {eventCount: int} / {idleDuration | fixedInterval: timedelta}."""
    if not isinstance(raw, dict) or not raw:
        return None
    count = pick(raw, "eventCount")
    if count is not None:
        try:
            return {"eventCount": max(1, int(count))}
        except (TypeError, ValueError) as exc:
            raise ApiError(400, f"invalid generationRule.eventCount {count!r}") from exc
    for field in ("idleDuration", "fixedInterval"):
        value = pick(raw, field)
        if value is not None:
            return {field: parse_duration(value)}
    raise ApiError(400, "generationRule needs eventCount, idleDuration or fixedInterval")


def _engine_trigger_rule(engine: Json) -> Any:
    bank = pick(engine.get("contextSpec") or {}, "memoryBankConfig") or {}
    config = pick(bank, "generationConfig")
    return pick(pick(config or {}, "generationTriggerConfig") or {}, "generationRule")


def _same_request(a: Json, b: Json) -> bool:
    return bool(
        a["metadata"] == b["metadata"]
        and a["strategy"] == b["strategy"]
        and a["revisionLabels"] == b["revisionLabels"]
    )


class MemoryBankState:
    """All emulated Memory Bank data of one server."""

    def __init__(
        self,
        embed_sync: Callable[[Sequence[str]], np.ndarray],
        *,
        data_path: str | Path | None = None,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self._embed = Embed(embed_sync)
        self._clock = clock
        self._data_path = Path(data_path) if data_path else None
        #: engine id -> engine resource
        self.engines: dict[str, Json] = {}
        #: engine id -> memory id -> memory resource (insertion ordered)
        self.memories: dict[str, dict[str, Json]] = {}
        #: memory name -> unit vector of its fact
        self.vectors: dict[str, np.ndarray] = {}
        #: memory name -> revisions, oldest first
        self.revisions: dict[str, list[Json]] = {}
        #: stream key -> ingestion stream (see `ingest_events`)
        self.streams: dict[str, Json] = {}
        self.operations: OrderedDict[str, Json] = OrderedDict()
        self._loaded = False

    # -- persistence -------------------------------------------------------------------

    async def load(self) -> None:
        """Loads the data file if it exists and re-embeds every memory (once)."""
        if self._loaded:
            return
        self._loaded = True
        data = load_json(self._data_path) if self._data_path is not None else None
        if not isinstance(data, dict):
            return
        self.engines = data.get("engines", {})
        self.memories = data.get("memories", {})
        self.revisions = data.get("revisions", {})
        self.streams = data.get("streams", {})
        names = [m["name"] for mems in self.memories.values() for m in mems.values()]
        facts = [m["fact"] for mems in self.memories.values() for m in mems.values()]
        if facts:
            vectors = await self._embed.many(facts)
            self.vectors = dict(zip(names, vectors, strict=True))

    def _save(self) -> None:
        # Never before load(): that would overwrite the file with an empty state.
        if self._data_path is None or not self._loaded:
            return
        save_json_atomic(
            self._data_path,
            {
                "engines": self.engines,
                "memories": self.memories,
                "revisions": self.revisions,
                "streams": self.streams,
            },
        )

    # -- helpers -----------------------------------------------------------------------

    def _now(self) -> str:
        return format_time(self._clock())

    def _operation(self, parent: str, response: Json | None = None) -> Json:
        name = f"{parent}/operations/{_numeric_id()}"
        op: Json = {"name": name, "done": True}
        if response is not None:
            op["response"] = response
        self.operations[name] = op
        while len(self.operations) > _MAX_OPERATIONS:
            self.operations.popitem(last=False)
        return op

    def engine(self, engine_id: str, project: str | None = None) -> Json:
        """The engine resource, checking the project of a prefixed request.

        Raises:
            ApiError: 404 if there is no such engine (in that project).
        """
        engine = self.engines.get(engine_id)
        if engine is None or (project is not None and engine["_project"] != project):
            raise ApiError(404, f"ReasoningEngine {engine_id} not found")
        return engine

    def _bank(self, engine_id: str, project: str | None) -> dict[str, Json]:
        self.engine(engine_id, project)
        return self.memories.setdefault(engine_id, {})

    def _live(self, memory: Json) -> bool:
        expire = memory.get("expireTime")
        return expire is None or parse_time(expire) > self._clock()

    def _public(self, memory: Json) -> Json:
        return {k: v for k, v in memory.items() if not k.startswith("_")}

    def memory(self, engine_id: str, memory_id: str, project: str | None = None) -> Json:
        """A stored memory (internal form).

        Raises:
            ApiError: 404 if the engine or the memory does not exist.
        """
        memory = self._bank(engine_id, project).get(memory_id)
        if memory is None or not self._live(memory):
            raise ApiError(404, f"Memory {memory_id} not found")
        return memory

    def _add_revision(
        self, memory: Json, labels: Any = None, extracted: Sequence[str] = ()
    ) -> None:
        """Snapshots the memory's fact as its newest revision (every create or fact change).

        Revision ids are increasing numbers per memory (the service's are int64); a revision
        expires after the default revision TTL; a consolidation records the extracted fact.
        """
        revisions = self.revisions.setdefault(memory["name"], [])
        number = int(revisions[-1]["name"].rsplit("/", 1)[-1]) + 1 if revisions else 1
        revision: Json = {
            "name": f"{memory['name']}/revisions/{number}",
            "fact": memory["fact"],
            "createTime": memory["updateTime"],
            "expireTime": format_time(parse_time(memory["updateTime"]) + REVISION_TTL),
        }
        if isinstance(labels, dict) and labels:
            revision["labels"] = {str(k): str(v) for k, v in labels.items()}
        if extracted:
            revision["extractedMemories"] = [{"fact": fact} for fact in extracted]
        revisions.append(revision)

    def _apply_ttl(self, memory: Json, body: Json) -> None:
        ttl = pick(body, "ttl")
        expire = pick(body, "expireTime")
        if ttl is not None:
            memory["expireTime"] = format_time(self._clock() + parse_duration(ttl))
        elif expire is not None:
            memory["expireTime"] = format_time(parse_time(expire))

    def _topics(self, raw: Any) -> list[Json]:
        topics: list[Json] = []
        for topic in raw or []:
            label = pick(topic, "customMemoryTopicLabel")
            managed = pick(topic, "managedMemoryTopic")
            if label is not None:
                topics.append({"customMemoryTopicLabel": label})
            elif managed is not None:
                topics.append({"managedMemoryTopic": managed})
        return topics

    # -- reasoning engines -------------------------------------------------------------

    def create_engine(self, project: str, location: str, body: Json) -> Json:
        engine_id = _numeric_id()
        name = f"projects/{project}/locations/{location}/reasoningEngines/{engine_id}"
        now = self._now()
        engine: Json = {
            "name": name,
            "displayName": pick(body, "displayName") or "",
            "description": pick(body, "description") or "",
            "createTime": now,
            "updateTime": now,
            "_project": project,
        }
        engine["contextSpec"] = _context_spec(pick(body, "contextSpec"))
        self.engines[engine_id] = engine
        self.memories[engine_id] = {}
        self._save()
        return self._operation(name, self._public(engine))

    def ensure_engine(self, project: str, location: str, engine_id: str, display_name: str) -> Json:
        """Creates an engine with a chosen id if it does not exist (demo and CLI setup)."""
        if engine_id not in self.engines:
            now = self._now()
            self.engines[engine_id] = {
                "name": f"projects/{project}/locations/{location}/reasoningEngines/{engine_id}",
                "displayName": display_name,
                "description": "",
                "createTime": now,
                "updateTime": now,
                "contextSpec": _context_spec(None),
                "_project": project,
            }
            self.memories.setdefault(engine_id, {})
            self._save()
        return self._public(self.engines[engine_id])

    def get_engine(self, engine_id: str, project: str | None) -> Json:
        return self._public(self.engine(engine_id, project))

    def list_engines(self, project: str | None) -> Json:
        engines = [
            self._public(e)
            for e in self.engines.values()
            if project is None or e["_project"] == project
        ]
        return {"reasoningEngines": engines}

    def patch_engine(self, engine_id: str, project: str | None, body: Json) -> Json:
        engine = self.engine(engine_id, project)
        for field in ("displayName", "description"):
            value = pick(body, field)
            if value is not None:
                engine[field] = value
        if pick(body, "contextSpec") is not None:
            engine["contextSpec"] = _context_spec(pick(body, "contextSpec"))
        engine["updateTime"] = self._now()
        self._save()
        return self._operation(engine["name"], self._public(engine))

    def delete_engine(self, engine_id: str, project: str | None, force: bool) -> Json:
        engine = self.engine(engine_id, project)
        bank = self.memories.get(engine_id, {})
        if bank and not force:
            raise ApiError(400, "ReasoningEngine has child memories; pass force=true")
        for memory in bank.values():
            self.vectors.pop(memory["name"], None)
            self.revisions.pop(memory["name"], None)
        self.memories.pop(engine_id, None)
        self.streams = {k: v for k, v in self.streams.items() if v["engineId"] != engine_id}
        del self.engines[engine_id]
        self._save()
        return self._operation(engine["name"])

    # -- memories ----------------------------------------------------------------------

    async def create_memory(
        self, engine_id: str, project: str | None, body: Json, memory_id: str | None
    ) -> Json:
        bank = self._bank(engine_id, project)
        fact = pick(body, "fact")
        if not isinstance(fact, str) or not fact.strip():
            raise ApiError(400, "fact is required")
        scope = _scope(pick(body, "scope"))
        if memory_id:
            if not _MEMORY_ID.match(memory_id):
                raise ApiError(400, f"invalid memoryId {memory_id!r}: use [a-z][a-z0-9-]{{0,62}}")
            existing = bank.get(memory_id)
            if existing is not None and self._live(existing):
                raise ApiError(409, f"Memory {memory_id} already exists")
        else:
            memory_id = _numeric_id()
        metadata = metadata_map(pick(body, "metadata"))
        vector = await self._embed.one(fact)
        engine = self.engines[engine_id]
        now = self._now()
        memory: Json = {
            "name": f"{engine['name']}/memories/{memory_id}",
            "fact": fact,
            "scope": scope,
            "createTime": now,
            "updateTime": now,
        }
        for field in ("displayName", "description"):
            if pick(body, field) is not None:
                memory[field] = pick(body, field)
        if metadata:
            memory["metadata"] = metadata
        topics = self._topics(pick(body, "topics"))
        if topics:
            memory["topics"] = topics
        self._apply_ttl(memory, body)
        bank.pop(memory_id, None)
        bank[memory_id] = memory
        self.vectors[memory["name"]] = vector
        self.revisions.pop(memory["name"], None)
        if not pick(body, "disableMemoryRevisions"):
            self._add_revision(memory, pick(body, "revisionLabels"))
        self._save()
        return self._operation(memory["name"], self._public(memory))

    def get_memory(self, engine_id: str, project: str | None, memory_id: str) -> Json:
        return self._public(self.memory(engine_id, memory_id, project))

    async def patch_memory(
        self,
        engine_id: str,
        project: str | None,
        memory_id: str,
        body: Json,
        update_mask: str | None,
    ) -> Json:
        memory = self.memory(engine_id, memory_id, project)
        fields = (
            [f.strip() for f in update_mask.split(",") if f.strip()]
            if update_mask
            else [
                k
                for k in ("fact", "metadata", "displayName", "description", "topics")
                if pick(body, k) is not None
            ]
        )
        for field in fields:
            key = {"display_name": "displayName", "expire_time": "expireTime"}.get(field, field)
            if key == "scope":
                raise ApiError(400, "scope is immutable")
            if key == "fact":
                fact = pick(body, "fact")
                if not isinstance(fact, str) or not fact.strip():
                    raise ApiError(400, "fact must be a non-empty string")
                if fact != memory["fact"]:
                    self.vectors[memory["name"]] = await self._embed.one(fact)
                memory["fact"] = fact
            elif key == "metadata":
                metadata = metadata_map(pick(body, "metadata"))
                if metadata:
                    memory["metadata"] = metadata
                else:
                    memory.pop("metadata", None)
            elif key == "topics":
                memory["topics"] = self._topics(pick(body, "topics"))
            elif key in ("displayName", "description"):
                memory[key] = pick(body, key) or ""
            elif key in ("ttl", "expireTime"):
                self._apply_ttl(memory, body)
            else:
                raise ApiError(400, f"unsupported updateMask field {field!r}")
        memory["updateTime"] = self._now()
        if "fact" in fields and not pick(body, "disableMemoryRevisions"):
            self._add_revision(memory, pick(body, "revisionLabels"))
        self._save()
        return self._operation(memory["name"], self._public(memory))

    def delete_memory(self, engine_id: str, project: str | None, memory_id: str) -> Json:
        memory = self.memory(engine_id, memory_id, project)
        self._drop(engine_id, memory_id, memory)
        self._save()
        return self._operation(memory["name"])

    def _drop(self, engine_id: str, memory_id: str, memory: Json) -> None:
        self.memories[engine_id].pop(memory_id, None)
        self.vectors.pop(memory["name"], None)
        self.revisions.pop(memory["name"], None)

    def list_memories(
        self,
        engine_id: str,
        project: str | None,
        *,
        page_size: int | None,
        page_token: str | None,
        filter_text: str | None,
        order_by: str | None,
    ) -> Json:
        predicate = aip160_predicate(filter_text)
        items = [m for m in self._bank(engine_id, project).values() if self._live(m)]
        items = [m for m in items if predicate(m)]
        field, _, direction = (order_by or "create_time desc").strip().partition(" ")
        key = {"create_time": "createTime", "update_time": "updateTime"}.get(field)
        if key is None:
            raise ApiError(400, f"unsupported orderBy {order_by!r}")
        items.sort(key=lambda m: (m[key], m["name"]), reverse=direction.strip().lower() == "desc")
        return self._page(items, "memories", page_size, page_token, DEFAULT_LIST_PAGE)

    def _page(
        self, items: list[Json], key: str, page_size: Any, page_token: Any, default: int
    ) -> Json:
        size = default if not page_size else max(1, min(int(page_size), MAX_LIST_PAGE))
        try:
            start = int(page_token) if page_token else 0
        except ValueError as exc:
            raise ApiError(400, f"invalid pageToken {page_token!r}") from exc
        page = items[start : start + size]
        out: Json = {key: [self._public(m) for m in page]}
        if start + size < len(items):
            out["nextPageToken"] = str(start + size)
        return out

    async def retrieve(self, engine_id: str, project: str | None, body: Json) -> Json:
        scope = _scope(pick(body, "scope"))
        matches = filter_groups_predicate(pick(body, "filterGroups"))
        aip = aip160_predicate(pick(body, "filter"))
        candidates = [
            m
            for m in self._bank(engine_id, project).values()
            if m["scope"] == scope and self._live(m) and matches(m) and aip(m)
        ]
        similarity = pick(body, "similaritySearchParams")
        if similarity is not None:
            query = pick(similarity, "searchQuery")
            if not isinstance(query, str) or not query.strip():
                raise ApiError(400, "similaritySearchParams.searchQuery is required")
            top_k = pick(similarity, "topK") or DEFAULT_TOP_K
            top_k = max(1, min(int(top_k), MAX_TOP_K))
            if not candidates:
                return {}
            query_vector = await self._embed.one(query)
            matrix = np.stack([self.vectors[m["name"]] for m in candidates])
            cosines = matrix @ query_vector
            order = np.argsort(-cosines, kind="stable")[:top_k]
            return {
                "retrievedMemories": [
                    {"memory": self._public(candidates[i]), "distance": float(1.0 - cosines[i])}
                    for i in order
                ]
            }
        simple = pick(body, "simpleRetrievalParams") or {}
        candidates.sort(key=lambda m: (m["createTime"], m["name"]))
        page = self._page(
            candidates,
            "memories",
            pick(simple, "pageSize"),
            pick(simple, "pageToken"),
            DEFAULT_TOP_K,
        )
        out: Json = {"retrievedMemories": [{"memory": m} for m in page["memories"]]}
        if "nextPageToken" in page:
            out["nextPageToken"] = page["nextPageToken"]
        return out

    def purge(self, engine_id: str, project: str | None, body: Json) -> Json:
        bank = self._bank(engine_id, project)
        aip = aip160_predicate(pick(body, "filter"))
        groups = pick(body, "filterGroups")
        matches = filter_groups_predicate(groups)
        if not pick(body, "filter") and not groups:
            raise ApiError(400, "purge needs a filter or filterGroups")
        doomed = [(mid, m) for mid, m in bank.items() if aip(m) and matches(m)]
        if pick(body, "force"):
            for memory_id, memory in doomed:
                self._drop(engine_id, memory_id, memory)
            # Events still waiting in a stream of a purged scope would bring memories back
            # at the next generation; a metadata filter names no stream, so only `filter`.
            if pick(body, "filter"):
                self.streams = {
                    key: stream
                    for key, stream in self.streams.items()
                    if stream["engineId"] != engine_id or not aip({"scope": stream["scope"]})
                }
            self._save()
        return self._operation(self.engines[engine_id]["name"], {"purgeCount": str(len(doomed))})

    # -- generation (server-side consolidation) ----------------------------------------

    @staticmethod
    def _facts_from_contents(source: Json) -> list[str]:
        # A deterministic stand-in for the service's LLM extraction: every statement a user
        # made becomes a fact; questions are not facts.
        facts: list[str] = []
        for event in pick(source, "events") or []:
            content = pick(event, "content") or {}
            if (pick(content, "role") or "user") != "user":
                continue
            for part in pick(content, "parts") or []:
                text = pick(part, "text")
                if not isinstance(text, str):
                    continue
                for sentence in _SENTENCE.split(text.strip()):
                    sentence = sentence.strip()
                    if len(sentence) >= 3 and not sentence.endswith("?"):
                        facts.append(sentence)
        return facts

    async def generate(self, engine_id: str, project: str | None, body: Json) -> Json:
        bank = self._bank(engine_id, project)
        engine_name = self.engines[engine_id]["name"]
        if pick(body, "vertexSessionSource") is not None:
            raise ApiError(400, "emulator: vertexSessionSource is not supported; send contents")
        scope = _scope(pick(body, "scope"))
        direct = pick(body, "directMemoriesSource")
        contents = pick(body, "directContentsSource")
        if direct is not None:
            items = pick(direct, "directMemories") or []
            if len(items) > MAX_DIRECT_MEMORIES:
                raise ApiError(400, f"at most {MAX_DIRECT_MEMORIES} directMemories per request")
            facts = [str(pick(item, "fact") or "").strip() for item in items]
            facts = [f for f in facts if f]
        elif contents is not None:
            facts = self._facts_from_contents(contents)
        else:
            raise ApiError(400, "one of directContentsSource, directMemoriesSource is required")
        metadata = metadata_map(pick(body, "metadata"))
        strategy = str(pick(body, "metadataMergeStrategy") or "OVERWRITE").upper()
        consolidate = not pick(body, "disableConsolidation")
        generated: list[Json] = []
        for fact in facts:
            vector = await self._embed.one(fact)
            target = self._consolidation_target(bank, scope, vector, metadata, strategy)
            if consolidate and target is not None:
                previous = self.revisions.get(target["name"], [{}])[-1].get("name")
                target["fact"] = fact
                target["updateTime"] = self._now()
                if metadata:
                    merged = dict(target.get("metadata") or {}) if strategy == "MERGE" else {}
                    merged.update(metadata)
                    target["metadata"] = merged
                self.vectors[target["name"]] = vector
                self._add_revision(target, pick(body, "revisionLabels"), [fact])
                entry: Json = {"memory": self._public(target), "action": "UPDATED"}
                if previous:
                    entry["previousRevision"] = previous
                generated.append(entry)
                continue
            op = await self.create_memory(
                engine_id,
                project,
                {
                    "fact": fact,
                    "scope": scope,
                    "metadata": metadata,
                    "revisionLabels": pick(body, "revisionLabels"),
                },
                None,
            )
            generated.append({"memory": op["response"], "action": "CREATED"})
        self._save()
        return self._operation(engine_name, {"generatedMemories": generated})

    def _consolidation_target(
        self,
        bank: dict[str, Json],
        scope: dict[str, str],
        vector: np.ndarray,
        metadata: dict[str, Any],
        strategy: str,
    ) -> Json | None:
        best: Json | None = None
        best_cos = CONSOLIDATION_COSINE
        for memory in bank.values():
            if memory["scope"] != scope or not self._live(memory):
                continue
            if strategy == "REQUIRE_EXACT_MATCH" and (memory.get("metadata") or {}) != metadata:
                continue
            cos = float(self.vectors[memory["name"]] @ vector)
            if cos >= best_cos:
                best, best_cos = memory, cos
        return best

    # -- ingestion streams (IngestEvents) --------------------------------------------

    async def ingest_events(self, engine_id: str, project: str | None, body: Json) -> Json:
        """`memories:ingestEvents`: buffers events per (scope, stream) and generates from them.

        Events whose `eventId` the stream has seen are dropped (retries are safe). Generation
        runs when `forceFlush` is set, when a rule's `eventCount` is reached, or (checked
        lazily, at the next request on the engine: the emulator keeps no timers) when
        `idleDuration` / `fixedInterval` has passed. With no rule on the request, the stream
        or the engine's `generationTriggerConfig`, it generates at once.
        """
        engine = self.engine(engine_id, project)
        scope = _scope(pick(body, "scope"))
        stream_id = str(pick(body, "streamId") or "")
        key = json.dumps([engine_id, sorted(scope.items()), stream_id])
        stream = self.streams.setdefault(
            key,
            {
                "engineId": engine_id,
                "scope": scope,
                "streamId": stream_id,
                "events": [],
                "seen": [],
                "rule": None,
                "openedAt": None,
                "lastEventAt": None,
            },
        )
        trigger = pick(body, "generationTriggerConfig")
        if trigger is not None:
            raw_rule = pick(trigger, "generationRule")
            _generation_rule(raw_rule)  # reject a bad rule before anything is buffered
            stream["rule"] = raw_rule
        source = pick(body, "directContentsSource") or {}
        metadata = metadata_map(pick(body, "metadata"))
        seen = set(stream["seen"])
        now = self._now()
        for event in pick(source, "events") or []:
            event_id = pick(event, "eventId")
            if event_id:
                if event_id in seen:
                    continue
                seen.add(event_id)
                stream["seen"].append(event_id)
            stream["events"].append(
                {
                    "content": pick(event, "content") or {},
                    "metadata": metadata,
                    "strategy": pick(body, "metadataMergeStrategy"),
                    "revisionLabels": pick(body, "revisionLabels"),
                }
            )
            stream["openedAt"] = stream["openedAt"] or now
            stream["lastEventAt"] = now
        del stream["seen"][:-_MAX_SEEN_EVENTS]
        rule = _generation_rule(stream["rule"] or _engine_trigger_rule(engine))
        count = rule.get("eventCount") if rule else None
        if pick(body, "forceFlush") or not rule or (count and len(stream["events"]) >= count):
            await self._flush_stream(stream)
        self._save()
        return self._operation(engine["name"])

    async def flush_due_streams(self, engine_id: str) -> None:
        """Generates from the streams of an engine whose idle or interval time has passed."""
        now = self._clock()
        for stream in list(self.streams.values()):
            if stream["engineId"] != engine_id or not stream["events"]:
                continue
            rule = _generation_rule(
                stream["rule"] or _engine_trigger_rule(self.engines.get(engine_id, {}))
            )
            if not rule:
                continue
            idle, interval = rule.get("idleDuration"), rule.get("fixedInterval")
            due = (idle is not None and parse_time(stream["lastEventAt"]) + idle <= now) or (
                interval is not None and parse_time(stream["openedAt"]) + interval <= now
            )
            if due:
                await self._flush_stream(stream)
                self._save()

    async def _flush_stream(self, stream: Json) -> None:
        events, stream["events"], stream["openedAt"] = stream["events"], [], None
        # One generation per run of events that share their request's metadata.
        runs: list[list[Json]] = []
        for event in events:
            if runs and _same_request(runs[-1][-1], event):
                runs[-1].append(event)
            else:
                runs.append([event])
        for run in runs:
            body: Json = {
                "scope": stream["scope"],
                "directContentsSource": {"events": [{"content": e["content"]} for e in run]},
                "metadata": run[0]["metadata"],
            }
            if run[0]["strategy"]:
                body["metadataMergeStrategy"] = run[0]["strategy"]
            if run[0]["revisionLabels"]:
                body["revisionLabels"] = run[0]["revisionLabels"]
            await self.generate(stream["engineId"], None, body)

    # -- revisions, rollback, profiles, operations -------------------------------------

    def list_revisions(
        self,
        engine_id: str,
        project: str | None,
        memory_id: str,
        *,
        page_size: Any = None,
        page_token: Any = None,
        filter_text: str | None = None,
    ) -> Json:
        """A memory's revisions, newest first, paged; `filter` as for memories (fact, times)."""
        memory = self.memory(engine_id, memory_id, project)
        predicate = aip160_predicate(filter_text)
        items = [r for r in reversed(self.revisions.get(memory["name"], [])) if predicate(r)]
        size = DEFAULT_LIST_PAGE if not page_size else max(1, min(int(page_size), MAX_LIST_PAGE))
        try:
            start = int(page_token) if page_token else 0
        except ValueError as exc:
            raise ApiError(400, f"invalid pageToken {page_token!r}") from exc
        out: Json = {"memoryRevisions": [dict(r) for r in items[start : start + size]]}
        if start + size < len(items):
            out["nextPageToken"] = str(start + size)
        return out

    def get_revision(
        self, engine_id: str, project: str | None, memory_id: str, revision_id: str
    ) -> Json:
        memory = self.memory(engine_id, memory_id, project)
        for revision in self.revisions.get(memory["name"], []):
            if revision["name"].rsplit("/", 1)[-1] == revision_id:
                return dict(revision)
        raise ApiError(404, f"MemoryRevision {revision_id} not found")

    async def rollback(
        self, engine_id: str, project: str | None, memory_id: str, body: Json
    ) -> Json:
        """`{memory}:rollback`: the target revision's fact becomes the memory's again.

        Like any other change of the fact it is itself recorded as the newest revision, so a
        rollback can be rolled back; a revision of another memory is not found (404).
        """
        revision_id = str(pick(body, "targetRevisionId") or "").strip()
        if not revision_id:
            raise ApiError(400, "targetRevisionId is required")
        revision = self.get_revision(engine_id, project, memory_id, revision_id)
        return await self.patch_memory(
            engine_id, project, memory_id, {"fact": revision["fact"]}, "fact"
        )

    def get_operation(self, name: str) -> Json:
        op = self.operations.get(name)
        if op is None:
            raise ApiError(404, f"Operation {name} not found")
        return op
