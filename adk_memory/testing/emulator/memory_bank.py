"""The Memory Bank REST surface the GenAI SDK calls (`client.memory_banks.memories.*`,
`client.agent_engines.memories.*`, reasoning engine create/get/list/delete).

Paths are accepted under `/v1beta1/` and `/v1/`, with the `projects/P/locations/L/` prefix
(ADC clients) and without it (express-mode API-key clients), and with no version at all
(`base_url_resource_scope=COLLECTION`). Request bodies may use camelCase or snake_case keys.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from adk_memory.testing.emulator.faults import error_body
from adk_memory.testing.emulator.memory_bank_state import (
    DEFAULT_LOCATION,
    DEFAULT_PROJECT,
    Json,
    MemoryBankState,
)
from adk_memory.testing.emulator.wire import ApiError, pick, read_json_object

VERSIONS = ("v1", "v1beta1")
_METHODS = ["GET", "POST", "PATCH", "DELETE"]


def _error(exc: ApiError) -> JSONResponse:
    return JSONResponse(error_body(exc.code, exc.message), status_code=exc.code)


def _state(request: Request) -> MemoryBankState:
    state: MemoryBankState = request.app.state.memory_bank
    return state


def _check_version(version: str | None) -> None:
    if version is not None and version not in VERSIONS:
        raise ApiError(404, f"unknown API version {version!r}")


async def _collection(
    request: Request, version: str | None, project: str | None, location: str | None
) -> Json:
    """`{parent}/reasoningEngines`: create (POST) or list (GET)."""
    _check_version(version)
    state = _state(request)
    if request.method == "GET":
        return state.list_engines(project)
    if request.method != "POST":
        raise ApiError(405, f"{request.method} not allowed on reasoningEngines")
    return state.create_engine(
        project or DEFAULT_PROJECT, location or DEFAULT_LOCATION, await read_json_object(request)
    )


async def _dispatch(request: Request, version: str | None, project: str | None, rest: str) -> Any:
    """Routes `reasoningEngines/{rest}` by its segments and the HTTP method."""
    _check_version(version)
    state = _state(request)
    method = request.method
    query = request.query_params
    segments = rest.strip("/").split("/")
    engine_id, tail = segments[0], segments[1:]
    if ":" in engine_id:
        raise ApiError(404, f"unsupported reasoning engine method {engine_id!r}")

    if not tail:
        if method == "GET":
            return state.get_engine(engine_id, project)
        if method == "PATCH":
            return state.patch_engine(engine_id, project, await read_json_object(request))
        if method == "DELETE":
            body = await read_json_object(request)
            force = bool(pick(body, "force")) or query.get("force") == "true"
            return state.delete_engine(engine_id, project, force)
        raise ApiError(405, f"{method} not allowed on a reasoning engine")

    # Streams whose idle / interval trigger has passed generate before anything is read.
    await state.flush_due_streams(engine_id)
    head = tail[0]
    if head == "operations" and len(tail) == 2 and method == "GET":
        engine = state.engine(engine_id, project)
        return state.get_operation(f"{engine['name']}/{'/'.join(tail)}")

    if head.startswith("memories:") and len(tail) == 1 and method == "POST":
        body = await read_json_object(request)
        verb = head.partition(":")[2]
        if verb == "retrieve":
            return await state.retrieve(engine_id, project, body)
        if verb == "generate":
            return await state.generate(engine_id, project, body)
        if verb == "ingestEvents":
            return await state.ingest_events(engine_id, project, body)
        if verb == "purge":
            return state.purge(engine_id, project, body)
        if verb == "retrieveProfiles":
            state.engine(engine_id, project)
            return {"profiles": {}}
        raise ApiError(404, f"unknown method memories:{verb}")

    if head != "memories":
        raise ApiError(404, f"unknown resource {head!r}")

    if len(tail) == 1:
        if method == "GET":
            return state.list_memories(
                engine_id,
                project,
                page_size=int(query["pageSize"]) if query.get("pageSize") else None,
                page_token=query.get("pageToken"),
                filter_text=query.get("filter"),
                order_by=query.get("orderBy"),
            )
        if method == "POST":
            return await state.create_memory(
                engine_id, project, await read_json_object(request), query.get("memoryId")
            )
        raise ApiError(405, f"{method} not allowed on memories")

    memory_id, _, verb = tail[1].partition(":")
    if verb:
        if verb == "rollback" and method == "POST" and len(tail) == 2:
            return await state.rollback(
                engine_id, project, memory_id, await read_json_object(request)
            )
        raise ApiError(404, f"unknown memory method {verb!r}")
    if len(tail) == 2:
        if method == "GET":
            return state.get_memory(engine_id, project, memory_id)
        if method == "PATCH":
            return await state.patch_memory(
                engine_id,
                project,
                memory_id,
                await read_json_object(request),
                query.get("updateMask"),
            )
        if method == "DELETE":
            return state.delete_memory(engine_id, project, memory_id)
        raise ApiError(405, f"{method} not allowed on a memory")
    if tail[2] == "revisions" and method == "GET":
        if len(tail) == 3:
            return state.list_revisions(
                engine_id,
                project,
                memory_id,
                page_size=query.get("pageSize"),
                page_token=query.get("pageToken"),
                filter_text=query.get("filter"),
            )
        if len(tail) == 4:
            return state.get_revision(engine_id, project, memory_id, tail[3])
    if tail[2] == "operations" and len(tail) == 4 and method == "GET":
        engine = state.engine(engine_id, project)
        return state.get_operation(f"{engine['name']}/{'/'.join(tail)}")
    raise ApiError(404, f"unknown path reasoningEngines/{rest}")


async def _respond(coro: Any) -> JSONResponse:
    try:
        return JSONResponse(await coro)
    except ApiError as exc:
        return _error(exc)


router = APIRouter()


@router.api_route(
    "/{version}/projects/{project}/locations/{location}/reasoningEngines", methods=_METHODS
)
async def engines_prefixed(
    request: Request, version: str, project: str, location: str
) -> JSONResponse:
    return await _respond(_collection(request, version, project, location))


@router.api_route("/{version}/reasoningEngines", methods=_METHODS)
async def engines_express(request: Request, version: str) -> JSONResponse:
    return await _respond(_collection(request, version, None, None))


@router.api_route(
    "/{version}/projects/{project}/locations/{location}/reasoningEngines/{rest:path}",
    methods=_METHODS,
)
async def engine_prefixed(
    request: Request, version: str, project: str, location: str, rest: str
) -> JSONResponse:
    return await _respond(_dispatch(request, version, project, rest))


@router.api_route("/{version}/reasoningEngines/{rest:path}", methods=_METHODS)
async def engine_express(request: Request, version: str, rest: str) -> JSONResponse:
    return await _respond(_dispatch(request, version, None, rest))


@router.api_route(
    "/projects/{project}/locations/{location}/reasoningEngines/{rest:path}", methods=_METHODS
)
async def engine_unversioned(
    request: Request, project: str, location: str, rest: str
) -> JSONResponse:
    return await _respond(_dispatch(request, None, project, rest))
