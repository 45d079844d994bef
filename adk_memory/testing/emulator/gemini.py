"""The Gemini surface of the emulator: `generateContent` and the embedding methods.

Paths are the ones google-genai 2.x sends (read from its `models.py` and captured on the
wire):
- Gemini API: `POST /v1beta/models/{model}:generateContent`, `:batchEmbedContents` (what
  `embed_content` uses) and `:embedContent`.
- Vertex AI: `POST /v1beta1/projects/{p}/locations/{l}/publishers/google/models/{model}:`
  `generateContent`, `:predict` (text-embedding-* and gemini-embedding-001) and
  `:embedContent` (newer Gemini embedding models); also without the project prefix
  (express mode) and under `/v1/`.

Replies are deterministic. A queue of scripted replies (`POST /emulator/gemini/script`) is
served first; otherwise a prompt carrying an adk-memory payload (see `gemini_client.
payload_prompt`) is answered by the local extractor or classifier, and anything else by the
smallest value of the requested schema. Every reply is shaped to `responseSchema` /
`responseJsonSchema`. Gemini-only faults (`POST /emulator/gemini/faults`) fail or corrupt the
next calls in a set order; the server-wide faults of `/emulator/faults` apply as well.
Embeddings come from the emulator's local embedder, zero-padded or cut to the requested size.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any, Literal

import numpy as np
from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from adk_memory.extraction.gemini import EXTRACT_TASK
from adk_memory.google_api.gemini import find_payload
from adk_memory.model import Decision, Fact, InputEvent, Kind, MemoryRecord, Scope, parse_timestamp
from adk_memory.reconcile.base import Candidate, ReconcileItem
from adk_memory.reconcile.gemini import CLASSIFY_TASK
from adk_memory.testing.emulator.faults import error_body

Json = dict[str, Any]
Method = Literal["generateContent", "embedContent"]
_ALL_METHODS: tuple[Method, ...] = ("generateContent", "embedContent")

#: API versions accepted in paths (Gemini API: v1beta, v1; Vertex AI: v1beta1, v1).
VERSIONS = frozenset({"v1", "v1beta", "v1beta1"})
#: Request bodies kept for `GET /emulator/gemini/requests`.
REQUEST_LOG_SIZE = 100
#: Characters per token for the emulator's token counts (a rough English average).
CHARS_PER_TOKEN = 4
_SCOPE = Scope(app_name="emulator", user_id="emulator")


class ScriptedReply(BaseModel):
    """One reply to serve, in order, instead of the computed answer."""

    model_config = ConfigDict(populate_by_name=True)

    #: The reply text as is (may be deliberately invalid JSON).
    text: str | None = None
    #: A value sent as its JSON text (used when `text` is not set).
    json_value: Any = Field(default=None, alias="json")
    #: A non-200 status answers with a Google error envelope instead.
    status: int = Field(default=200, ge=200, le=599)
    message: str = "emulator: scripted error"
    #: Overrides the reported total token count.
    total_tokens: int | None = Field(default=None, ge=0)
    finish_reason: str = "STOP"


class ScriptRequest(BaseModel):
    """Body of `POST /emulator/gemini/script`."""

    replies: list[ScriptedReply]
    #: Drop replies still queued before adding these.
    replace: bool = False


class GeminiFaults(BaseModel):
    """Body of `POST /emulator/gemini/faults`: deterministic, consumed call by call."""

    #: Added to each Gemini call.
    latency_ms: float = Field(default=0.0, ge=0)
    #: The next calls fail with these statuses, one per call, in order (e.g. [429, 503]).
    fail_statuses: list[int] = Field(default_factory=list)
    #: The next N computed (not scripted) generateContent replies are cut-off JSON.
    malformed: int = Field(default=0, ge=0)
    #: Which calls `latency_ms` and `fail_statuses` apply to.
    methods: list[Method] = Field(default_factory=lambda: list(_ALL_METHODS))


class GeminiStats(BaseModel):
    """Body of `GET /emulator/gemini/stats`."""

    #: generateContent requests received, faulted ones included.
    generate_requests: int = 0
    #: generateContent calls answered with a reply (what a client is billed for).
    generate_calls: int = 0
    #: Answered generateContent calls per adk-memory task ("other" for anything else).
    calls_by_task: dict[str, int] = Field(default_factory=dict)
    embed_requests: int = 0
    embedded_texts: int = 0
    prompt_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0
    faults_injected: int = 0
    scripted_remaining: int = 0


class GeminiEmulator:
    """State of the Gemini surface: scripts, faults, counters, and the local models."""

    def __init__(self, embed_sync: Callable[[Sequence[str]], np.ndarray] | None = None) -> None:
        self._embed_sync = embed_sync
        self.script: deque[ScriptedReply] = deque()
        self.faults = GeminiFaults()
        self.stats = GeminiStats()
        self.requests: deque[Json] = deque(maxlen=REQUEST_LOG_SIZE)

    def reset(self) -> None:
        self.script.clear()
        self.faults = GeminiFaults()
        self.stats = GeminiStats()
        self.requests.clear()

    def snapshot(self) -> GeminiStats:
        return self.stats.model_copy(update={"scripted_remaining": len(self.script)}, deep=True)

    async def fault(self, method: Method) -> tuple[int, str] | None:
        """Applies latency and the next queued failure, if they target `method`."""
        if method not in self.faults.methods:
            return None
        if self.faults.latency_ms:
            await asyncio.sleep(self.faults.latency_ms / 1000.0)
        if self.faults.fail_statuses:
            self.stats.faults_injected += 1
            return self.faults.fail_statuses.pop(0), "emulator: injected Gemini failure"
        return None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if self._embed_sync is None:
            from adk_memory.embedding.local import LocalEmbedder

            self._embed_sync = LocalEmbedder().embed_sync
        return self._embed_sync(texts)


def register_gemini_routes(app: FastAPI, state: Any = None) -> GeminiEmulator:
    """Mounts the Gemini surface on `app`, embedding with `state.embed_sync` when present."""
    emulator = GeminiEmulator(getattr(state, "embed_sync", None))
    app.state.gemini = emulator
    app.include_router(router)
    return emulator


def _emulator(request: Request) -> GeminiEmulator:
    """The app's Gemini state; created on first use when the router was included bare."""
    emulator: GeminiEmulator | None = getattr(request.app.state, "gemini", None)
    if emulator is None:
        emulator = GeminiEmulator()
        request.app.state.gemini = emulator
    return emulator


def _error(code: int, message: str) -> JSONResponse:
    return JSONResponse(error_body(code, message), status_code=code)


def _pick(obj: Any, camel: str, snake: str) -> Any:
    if not isinstance(obj, dict):
        return None
    return obj[camel] if camel in obj else obj.get(snake)


def _texts(content: Any) -> list[str]:
    parts = _pick(content, "parts", "parts") or []
    return [p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str)]


def _tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN) if text else 0


# --- schema shaping ------------------------------------------------------------------------


def _resolve(schema: Any, root: Json) -> Json:
    """Follows a JSON-schema `$ref` into `$defs` / `definitions`."""
    seen = 0
    while isinstance(schema, dict) and "$ref" in schema and seen < 32:
        name = str(schema["$ref"]).rsplit("/", 1)[-1]
        schema = (root.get("$defs") or root.get("definitions") or {}).get(name, {})
        seen += 1
    return schema if isinstance(schema, dict) else {}


def _types(schema: Json) -> list[str]:
    raw = schema.get("type")
    names = raw if isinstance(raw, list) else [raw] if raw else []
    found = [str(t).lower() for t in names]
    if schema.get("nullable"):
        found.append("null")
    return found


def _options(schema: Json, root: Json) -> list[Json]:
    """A schema's alternatives (`anyOf`/`oneOf`), or the schema itself."""
    for key in ("anyOf", "any_of", "oneOf"):
        if isinstance(schema.get(key), list):
            return [_resolve(s, root) for s in schema[key]]
    return [schema]


def _fits(value: Any, schema: Json) -> bool:
    kinds = _types(schema)
    checks = {
        "null": value is None,
        "object": isinstance(value, dict),
        "array": isinstance(value, list),
        "string": isinstance(value, str),
        "boolean": isinstance(value, bool),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, int | float) and not isinstance(value, bool),
    }
    return not kinds or any(checks.get(kind, False) for kind in kinds)


def example_of(schema: Any, root: Json | None = None) -> Any:
    """The smallest value of a schema (Gemini `Schema` or JSON schema): deterministic filler."""
    root = root if root is not None else (schema if isinstance(schema, dict) else {})
    node = _options(_resolve(schema, root), root)[0]
    kinds = _types(node)
    if node.get("enum"):
        return node["enum"][0]
    kind = next((k for k in kinds if k != "null"), "null" if kinds else "object")
    if kind == "object":
        props: Json = node.get("properties") or {}
        required = node.get("required") or list(props)
        return {name: example_of(props[name], root) for name in required if name in props}
    return {"array": [], "string": "", "integer": 0, "number": 0.0, "boolean": False}.get(kind)


def conform(value: Any, schema: Any, root: Json | None = None) -> Any:
    """Shapes `value` to a schema: unknown keys dropped, missing required ones filled, enums
    and scalar types enforced. The emulator's replies thus always parse as requested."""
    if not isinstance(schema, dict) or not schema:
        return value
    root = root if root is not None else schema
    options = _options(_resolve(schema, root), root)
    node = next((o for o in options if _fits(value, o)), options[0])
    kinds = _types(node)
    if value is None and "null" in kinds:
        return None
    if node.get("enum"):
        return value if value in node["enum"] else node["enum"][0]
    kind = next((k for k in kinds if k != "null"), "")
    if kind == "object" or (not kind and "properties" in node):
        props: Json = node.get("properties") or {}
        if not isinstance(value, dict):
            return example_of(node, root)
        out = {
            name: conform(value[name], sub, root) for name, sub in props.items() if name in value
        }
        for name in node.get("required") or []:
            if name not in out and name in props:
                out[name] = example_of(props[name], root)
        return out
    if kind == "array":
        items = node.get("items") or {}
        return [conform(v, items, root) for v in value] if isinstance(value, list) else []
    if kind in ("string", "integer", "number", "boolean") and not _fits(value, node):
        return None if "null" in kinds else example_of(node, root)
    return value


# --- answers -------------------------------------------------------------------------------


def _iso(value: datetime) -> str:
    return value.isoformat()


async def _answer_extraction(payload: Json) -> Json:
    from adk_memory.extraction.local import LocalExtractor

    events = [
        InputEvent(
            id=str(e["id"]),
            author=str(e["author"]),
            text=str(e["text"]),
            timestamp=e["timestamp"],
            role="agent" if e.get("speaker") == "agent" else "user",
        )
        for e in payload.get("events") or []
    ]
    result = await LocalExtractor().extract(events)
    return {
        "facts": [
            {
                "subject": f.subject,
                "predicate": f.predicate,
                "object": f.object,
                "replaces": f.replaces or "",
                "text": f.text,
                "kind": f.kind.value,
                "polarity": f.polarity,
                "confidence": f.confidence,
                "valid_at": _iso(f.valid_at),
                "event_ids": list(f.source.event_ids),
            }
            for f in result.facts
        ]
    }


def _fact(view: Json) -> Fact:
    return Fact(
        subject=str(view.get("subject", "")),
        predicate=str(view.get("predicate", "")),
        object=str(view.get("object", "")),
        text=str(view.get("text", "")),
        polarity=bool(view.get("polarity", True)),
        replaces=view.get("replaces") or None,
        kind=Kind(view.get("kind", Kind.EPISODIC.value)),
        valid_at=parse_timestamp(view["valid_at"]),
        recorded_at=parse_timestamp(view.get("stated_at") or view["valid_at"]),
    )


def _candidate(view: Json) -> Candidate:
    valid_at = parse_timestamp(view["valid_at"])
    record = MemoryRecord(
        id=f"candidate-{view['number']}",
        scope=_SCOPE,
        text=str(view.get("text", "")),
        subject=str(view.get("subject", "")),
        predicate=str(view.get("predicate", "")),
        object=str(view.get("object", "")),
        polarity=bool(view.get("polarity", True)),
        kind=Kind(view.get("kind", Kind.EPISODIC.value)),
        valid_at=valid_at,
        recorded_at=parse_timestamp(view.get("stated_at") or view["valid_at"]),
        created_at=valid_at,
    )
    return Candidate(record=record, similarity=float(view.get("similarity", 0.0)))


async def _answer_classification(payload: Json) -> Json:
    from adk_memory.reconcile.local import LocalClassifier

    numbered = [
        (
            int(f["number"]),
            ReconcileItem(
                fact=_fact(f["new_fact"]), candidates=[_candidate(c) for c in f["candidates"]]
            ),
        )
        for f in payload.get("facts") or []
    ]
    result = await LocalClassifier().classify([item for _, item in numbered])
    verdicts = []
    for (number, item), verdict in zip(numbered, result.verdicts, strict=True):
        ids = [c.record.id for c in item.candidates]
        verdicts.append(
            {
                "fact": number,
                "decision": verdict.decision.value,
                "candidates": [ids.index(t) + 1 for t in verdict.target_ids if t in ids],
                "reason": verdict.reason or Decision(verdict.decision).value.lower(),
            }
        )
    return {"verdicts": verdicts}


async def answer_payload(payload: Json) -> Json | None:
    """The reply to an adk-memory payload (see `find_payload`), computed by the local
    extractor or classifier; None for a task they do not answer.

    Shared with the scripted ADK models of `adk_memory.testing.scripted_json_llm`, so every
    offline model answers the same way.

    Raises:
        KeyError, TypeError, ValueError: for a payload that does not parse.
    """
    task = payload.get("task")
    if task == EXTRACT_TASK:
        return await _answer_extraction(payload)
    if task == CLASSIFY_TASK:
        return await _answer_classification(payload)
    return None


def _schema(config: Json) -> Any:
    return _pick(config, "responseJsonSchema", "response_json_schema") or _pick(
        config, "responseSchema", "response_schema"
    )


async def _compute_text(body: Json) -> tuple[str, str]:
    """The reply text for a request with no script: (text, task)."""
    config = _pick(body, "generationConfig", "generation_config") or {}
    mime = str(_pick(config, "responseMimeType", "response_mime_type") or "text/plain")
    schema = _schema(config)
    prompt = "\n".join(
        text
        for content in body.get("contents") or []
        if (_pick(content, "role", "role") or "user") == "user"
        for text in _texts(content)
    )
    payload = find_payload(prompt)
    task = str(payload.get("task")) if payload else "other"
    value: Any = await answer_payload(payload) if payload else None
    if value is None and not schema:
        return "OK", "other"
    if value is None:
        value = example_of(schema)
    if schema:
        value = conform(value, schema)
    if mime == "text/x.enum":
        return str(value), task
    return json.dumps(value, ensure_ascii=False), task


def _content_response(
    model: str, text: str, prompt_tokens: int, finish: str, total: int | None
) -> Json:
    output = _tokens(text)
    return {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": text}]},
                "finishReason": finish,
                "index": 0,
            }
        ],
        "usageMetadata": {
            "promptTokenCount": prompt_tokens,
            "candidatesTokenCount": output,
            "totalTokenCount": total if total is not None else prompt_tokens + output,
        },
        "modelVersion": model,
    }


# --- routes --------------------------------------------------------------------------------

router = APIRouter()


async def _body(request: Request) -> Json | JSONResponse:
    try:
        body = json.loads(await request.body() or b"{}")
    except ValueError as exc:
        return _error(400, f"invalid JSON body: {exc}")
    if not isinstance(body, dict):
        return _error(400, "request body must be a JSON object")
    return body


async def _generate(request: Request, version: str, model: str) -> JSONResponse:
    if version not in VERSIONS:
        return _error(404, f"unknown API version {version!r}")
    emulator = _emulator(request)
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body
    emulator.stats.generate_requests += 1
    emulator.requests.append({"path": request.url.path, "body": body})
    failure = await emulator.fault("generateContent")
    if failure is not None:
        return _error(*failure)
    system = _pick(body, "systemInstruction", "system_instruction")
    prompt_text = "".join(_texts(system)) + "".join(
        t for c in body.get("contents") or [] for t in _texts(c)
    )
    prompt_tokens = _tokens(prompt_text)
    total: int | None = None
    finish = "STOP"
    if emulator.script:
        scripted = emulator.script.popleft()
        if scripted.status != 200:
            emulator.stats.faults_injected += 1
            return _error(scripted.status, scripted.message)
        text = scripted.text if scripted.text is not None else json.dumps(scripted.json_value)
        total, finish, task = scripted.total_tokens, scripted.finish_reason, "scripted"
    else:
        try:
            text, task = await _compute_text(body)
        except (KeyError, TypeError, ValueError) as exc:
            return _error(400, f"emulator cannot parse the adk-memory payload: {exc}")
        if emulator.faults.malformed:
            emulator.faults.malformed -= 1
            emulator.stats.faults_injected += 1
            # Cut mid-document: what a truncated or garbled model reply looks like.
            text = text[: max(1, len(text) // 2)]
    reply = _content_response(model, text, prompt_tokens, finish, total)
    usage = reply["usageMetadata"]
    stats = emulator.stats
    stats.generate_calls += 1
    stats.calls_by_task[task] = stats.calls_by_task.get(task, 0) + 1
    stats.prompt_tokens += usage["promptTokenCount"]
    stats.output_tokens += usage["candidatesTokenCount"]
    stats.total_tokens += usage["totalTokenCount"]
    return JSONResponse(reply)


def _dimension(value: Any) -> int | None:
    return int(value) if isinstance(value, int | float | str) and str(value).strip() else None


def _vectors(emulator: GeminiEmulator, texts: Sequence[str], dims: int | None) -> list[list[float]]:
    """Local embeddings resized to `dims`: zero padding keeps every cosine unchanged."""
    matrix = emulator.embed(list(texts)) if texts else np.zeros((0, 1), dtype=np.float32)
    if dims is not None and dims != matrix.shape[1]:
        if dims < matrix.shape[1]:
            matrix = matrix[:, :dims]
            norms = np.linalg.norm(matrix, axis=1, keepdims=True)
            matrix = matrix / np.where(norms == 0, 1.0, norms)
        else:
            matrix = np.pad(matrix, ((0, 0), (0, dims - matrix.shape[1])))
    return [[float(x) for x in row] for row in matrix]


async def _embed(request: Request, version: str, model: str, method: str) -> JSONResponse:
    if version not in VERSIONS:
        return _error(404, f"unknown API version {version!r}")
    emulator = _emulator(request)
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body
    emulator.stats.embed_requests += 1
    failure = await emulator.fault("embedContent")
    if failure is not None:
        return _error(*failure)
    if method == "batchEmbedContents":
        requests = body.get("requests") or []
        texts = [" ".join(_texts(r.get("content"))) for r in requests]
        dims = (
            _dimension(_pick(requests[0], "outputDimensionality", "output_dimensionality"))
            if requests
            else None
        )
        vectors = await asyncio.to_thread(_vectors, emulator, texts, dims)
        result: Json = {"embeddings": [{"values": v} for v in vectors]}
    elif method == "predict":
        instances = body.get("instances") or []
        texts = [str(_pick(i, "content", "content") or "") for i in instances]
        params = body.get("parameters") or {}
        dims = _dimension(_pick(params, "outputDimensionality", "output_dimensionality"))
        vectors = await asyncio.to_thread(_vectors, emulator, texts, dims)
        result = {
            "predictions": [
                {
                    "embeddings": {
                        "values": v,
                        "statistics": {"truncated": False, "token_count": _tokens(t)},
                    }
                }
                for v, t in zip(vectors, texts, strict=True)
            ],
            "metadata": {"billableCharacterCount": sum(len(t) for t in texts)},
        }
    else:
        texts = [" ".join(_texts(body.get("content")))]
        config = _pick(body, "embedContentConfig", "embed_content_config") or body
        dims = _dimension(_pick(config, "outputDimensionality", "output_dimensionality"))
        vectors = await asyncio.to_thread(_vectors, emulator, texts, dims)
        result = {
            "embedding": {"values": vectors[0]},
            "usageMetadata": {"promptTokenCount": _tokens(texts[0])},
        }
    emulator.stats.embedded_texts += len(texts)
    return JSONResponse(result)


_GEMINI = "/{version}/models/{model}"
_VERTEX = "/{version}/projects/{project}/locations/{location}/publishers/{publisher}/models/{model}"
_EXPRESS = "/{version}/publishers/{publisher}/models/{model}"


async def _generate_endpoint(request: Request, version: str, model: str) -> JSONResponse:
    return await _generate(request, version, model)


def _embed_endpoint(method: str) -> Callable[..., Awaitable[JSONResponse]]:
    async def endpoint(request: Request, version: str, model: str) -> JSONResponse:
        return await _embed(request, version, model, method)

    return endpoint


# Path parameters the endpoints do not declare (project, location, publisher) still match.
for _prefix in (_GEMINI, _VERTEX, _EXPRESS):
    router.add_api_route(
        _prefix + ":generateContent",
        _generate_endpoint,
        methods=["POST"],
        include_in_schema=False,
    )
    for _method in ("embedContent", "batchEmbedContents", "predict"):
        router.add_api_route(
            f"{_prefix}:{_method}",
            _embed_endpoint(_method),
            methods=["POST"],
            include_in_schema=False,
        )


@router.post("/emulator/gemini/script")
async def add_script(request: Request, body: ScriptRequest) -> GeminiStats:
    """Queues replies that the next generateContent calls return, in order."""
    emulator = _emulator(request)
    if body.replace:
        emulator.script.clear()
    emulator.script.extend(body.replies)
    return emulator.snapshot()


@router.post("/emulator/gemini/faults")
async def set_faults(request: Request, body: GeminiFaults) -> GeminiFaults:
    """Replaces the Gemini faults (an empty body clears them)."""
    emulator = _emulator(request)
    emulator.faults = body.model_copy(deep=True)
    return emulator.faults


@router.get("/emulator/gemini/stats")
async def get_stats(request: Request) -> GeminiStats:
    return _emulator(request).snapshot()


@router.get("/emulator/gemini/requests")
async def get_requests(request: Request) -> list[Json]:
    """The latest generateContent request bodies, oldest first."""
    return list(_emulator(request).requests)


@router.post("/emulator/gemini/reset")
async def reset(request: Request) -> GeminiStats:
    """Clears scripts, faults, counters and the request log."""
    emulator = _emulator(request)
    emulator.reset()
    return emulator.snapshot()
