"""The Vector Search REST surface the gapic REST transport calls (`aiplatform_v1` and
`aiplatform_v1beta1` `IndexService`, `IndexEndpointService`, `MatchService`).

Paths, as captured from the real SDK (research/vector_search_wire.jsonl), under `/v1/` or
`/v1beta1/` and `projects/P/locations/L/`:
- `indexes` (POST create, GET list), `indexes/I` (GET), `indexes/I:upsertDatapoints`,
  `indexes/I:removeDatapoints`;
- `indexEndpoints` (POST create), `indexEndpoints/E` (GET), `E:deployIndex`, `E:undeployIndex`,
  `E:findNeighbors`, `E:readIndexDatapoints`;
- `.../operations/OP` (GET; every operation is already done).
`POST /emulator/vectorsearch` (admin, never faulted) provisions an index deployed on an
endpoint in one call. Server-wide faults (`/emulator/faults`) apply to every other path.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from adk_memory.testing.emulator.faults import error_body
from adk_memory.testing.emulator.vector_search_state import Json, VectorSearchState
from adk_memory.testing.emulator.wire import ApiError, read_json_object

VERSIONS = ("v1", "v1beta1")
_PREFIX = "/{version}/projects/{project}/locations/{location}"

#: Defaults of the pre-provisioned deployment (`adk-memory emulator`).
DEFAULT_INDEX_ID = "2000000000000000001"
DEFAULT_ENDPOINT_ID = "3000000000000000001"
DEFAULT_DEPLOYED_ID = "adk_memory"
DEFAULT_DIMENSIONS = 384


class EnsureRequest(BaseModel):
    """Body of `POST /emulator/vectorsearch`: an index deployed on a public endpoint."""

    project: str = "emulator-project"
    location: str = "us-central1"
    index_id: str = DEFAULT_INDEX_ID
    endpoint_id: str = DEFAULT_ENDPOINT_ID
    deployed_index_id: str = DEFAULT_DEPLOYED_ID
    dimensions: int = Field(default=DEFAULT_DIMENSIONS, ge=1)
    distance: str = "DOT_PRODUCT_DISTANCE"


def vector_search_state(state: Any) -> VectorSearchState:
    """The Vector Search state of an `EmulatorState`, created on first use.

    Kept on the emulator state (not only the app) so the CLI can provision before serving.
    """
    attrs = vars(state)
    found = attrs.get("vector_search")
    if isinstance(found, VectorSearchState):
        return found
    data_path: Path | None = getattr(state, "data_path", None)
    path = data_path.with_name(f"{data_path.stem}.vectorsearch.json") if data_path else None
    created = VectorSearchState(data_path=path)
    attrs["vector_search"] = created
    return created


def ensure_deployment(state: Any, body: EnsureRequest, host: str) -> Json:
    """Provisions (idempotently) an index deployed on an endpoint; returns their names."""
    return vector_search_state(state).ensure(
        f"projects/{body.project}/locations/{body.location}",
        index_id=body.index_id,
        endpoint_id=body.endpoint_id,
        deployed_index_id=body.deployed_index_id,
        dimensions=body.dimensions,
        distance=body.distance,
        host=host,
    )


def store_uri(names: Json) -> str:
    """The `adkmem+vectorsearch://` URI of a deployment returned by `ensure_deployment`."""
    index_id = str(names["index"]).rsplit("/", 1)[-1]
    return (
        f"adkmem+vectorsearch://{names['indexEndpoint']}"
        f"?index={index_id}&deployed={names['deployedIndexId']}"
    )


def provision_default(state: Any, project: str, location: str, host: str) -> str:
    """Provisions the default deployment (`adk-memory emulator`); returns its store URI."""
    body = EnsureRequest(project=project, location=location)
    return store_uri(ensure_deployment(state, body, host))


def _vs(request: Request) -> VectorSearchState:
    state: VectorSearchState = request.app.state.vector_search
    return state


def _type_prefix(version: str) -> str:
    if version not in VERSIONS:
        raise ApiError(404, f"unknown API version {version!r}")
    return f"type.googleapis.com/google.cloud.aiplatform.{version}"


async def _respond(handler: Callable[[], Awaitable[Json]]) -> JSONResponse:
    try:
        return JSONResponse(await handler())
    except ApiError as exc:
        return JSONResponse(error_body(exc.code, exc.message), status_code=exc.code)


async def _indexes(request: Request, version: str, parent: str) -> Json:
    prefix = _type_prefix(version)
    if request.method == "GET":
        return _vs(request).list_indexes(parent)
    return _vs(request).create_index(parent, await read_json_object(request), prefix)


async def _index(request: Request, version: str, parent: str, rest: str) -> Json:
    _type_prefix(version)  # validates the version
    state = _vs(request)
    segments = rest.split("/")
    index_id, _, verb = segments[0].partition(":")
    name = f"{parent}/indexes/{index_id}"
    if len(segments) == 3 and segments[1] == "operations" and request.method == "GET":
        return state.get_operation(f"{name}/operations/{segments[2]}")
    if len(segments) != 1:
        raise ApiError(404, f"unknown path indexes/{rest}")
    if not verb and request.method == "GET":
        return state.get_index(name)
    if request.method == "POST" and verb == "upsertDatapoints":
        return state.upsert_datapoints(name, await read_json_object(request))
    if request.method == "POST" and verb == "removeDatapoints":
        return state.remove_datapoints(name, await read_json_object(request))
    raise ApiError(404, f"unsupported method {request.method} indexes/{rest}")


async def _endpoints(request: Request, version: str, parent: str) -> Json:
    prefix = _type_prefix(version)
    state = _vs(request)
    if request.method == "GET":
        return {"indexEndpoints": [e for n, e in state.endpoints.items() if n.startswith(parent)]}
    return state.create_endpoint(
        parent, await read_json_object(request), prefix, request.url.netloc
    )


async def _endpoint(request: Request, version: str, parent: str, rest: str) -> Json:
    prefix = _type_prefix(version)
    state = _vs(request)
    segments = rest.split("/")
    endpoint_id, _, verb = segments[0].partition(":")
    name = f"{parent}/indexEndpoints/{endpoint_id}"
    if len(segments) == 3 and segments[1] == "operations" and request.method == "GET":
        return state.get_operation(f"{name}/operations/{segments[2]}")
    if len(segments) != 1:
        raise ApiError(404, f"unknown path indexEndpoints/{rest}")
    if not verb and request.method == "GET":
        return state.endpoint(name)
    if request.method != "POST":
        raise ApiError(404, f"unsupported method {request.method} indexEndpoints/{rest}")
    body = await read_json_object(request)
    if verb == "findNeighbors":
        return state.find_neighbors(name, body)
    if verb == "readIndexDatapoints":
        return state.read_datapoints(name, body)
    if verb == "deployIndex":
        return state.deploy_index(name, body, prefix)
    if verb == "undeployIndex":
        return state.undeploy_index(name, body, prefix)
    raise ApiError(404, f"unknown index endpoint method {verb!r}")


router = APIRouter()


@router.api_route(_PREFIX + "/indexes", methods=["GET", "POST"])
async def indexes(request: Request, version: str, project: str, location: str) -> JSONResponse:
    parent = f"projects/{project}/locations/{location}"
    return await _respond(lambda: _indexes(request, version, parent))


@router.api_route(_PREFIX + "/indexes/{rest:path}", methods=["GET", "POST"])
async def index(
    request: Request, version: str, project: str, location: str, rest: str
) -> JSONResponse:
    parent = f"projects/{project}/locations/{location}"
    return await _respond(lambda: _index(request, version, parent, rest))


@router.api_route(_PREFIX + "/indexEndpoints", methods=["GET", "POST"])
async def endpoints(request: Request, version: str, project: str, location: str) -> JSONResponse:
    parent = f"projects/{project}/locations/{location}"
    return await _respond(lambda: _endpoints(request, version, parent))


@router.api_route(_PREFIX + "/indexEndpoints/{rest:path}", methods=["GET", "POST"])
async def endpoint(
    request: Request, version: str, project: str, location: str, rest: str
) -> JSONResponse:
    parent = f"projects/{project}/locations/{location}"
    return await _respond(lambda: _endpoint(request, version, parent, rest))


@router.post("/emulator/vectorsearch")
async def ensure(request: Request, body: EnsureRequest) -> JSONResponse:
    state = request.app.state.emulator
    return await _respond(lambda: _ensure(state, body, request.url.netloc))


async def _ensure(state: Any, body: EnsureRequest, host: str) -> Json:
    names = ensure_deployment(state, body, host)
    return {**names, "uri": store_uri(names)}


def register_vector_search_routes(app: FastAPI, state: Any) -> VectorSearchState:
    """Mounts the Vector Search surface on `app` over `state` (an `EmulatorState`)."""
    vs = vector_search_state(state)
    app.state.vector_search = vs
    app.include_router(router)
    return vs
