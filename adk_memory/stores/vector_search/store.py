"""`VectorSearchStore`: the `MemoryStore` protocol on Vertex AI Vector Search, for scale.

Two parts, each doing what it is good at:
- **Vector Search** (a `STREAM_UPDATE` index deployed on a public index endpoint) is the ANN
  index: one datapoint per record with token restricts `app`, `user` and `status`, so
  `findNeighbors` filters by scope and status server-side (`vector_search_codec`).
- **A document store** (`DocumentStore`, a SQLite file: `?docs=/path/records.db`, by default
  under the user data directory, keyed by endpoint and deployed index) holds the records, their
  vectors, seen events and hit counts. `get`, `list`, `record_hits`, `scopes` and the event
  markers are served from it alone.

Consistency: every write commits to the document store first, atomically (REPLACE included),
together with an outbox entry; then the index is updated from the outbox. A failed index
update does not fail the write (the records are stored; retrying could duplicate a REPLACE):
it is logged, left queued and retried before the next search and after the next write.
`search` asks the index for candidate ids and loads them from the document store, re-checking
scope and status there, so a lagging index never returns a superseded or archived record.

Erase removes the scope's documents first (records, markers, lexical entries: `SqliteStore.
erase`), then its datapoints (`removeDatapoints`, through the outbox, so an outage leaves them
queued, never forgotten). `reconcile_lock` is the document store's cross-process lock: every
process writing this deployment shares the document file.

Transport: the gapic `aiplatform_v1` clients with `transport="rest"` (the emulator speaks
HTTP/JSON), called on a thread pool. The async REST transport is not used because
`google.auth.aio` has no Application Default Credentials. Every call has a per-attempt timeout
and bounded, jittered exponential retries on 408/429/5xx, timeouts and connection errors.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from adk_memory.errors import AdkMemoryError, BackendError, ConfigError
from adk_memory.model import MemoryRecord, Scope, Status
from adk_memory.stores.base import ListFilter, Page, SearchHit
from adk_memory.stores.uri import StoreUri
from adk_memory.stores.vector_search import codec
from adk_memory.stores.vector_search.documents import DocumentStore
from adk_memory.stores.vertex import (
    RetryPolicy,
    backend_error,
    base_url_override,
    call_settings,
    check_endpoint,
    emulator_credentials,
)

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: Largest neighbor count one search asks for.
MAX_SEARCH_K = 1000
#: Datapoints per upsertDatapoints / removeDatapoints request.
BATCH_SIZE = 100
_SCOPES = ["https://www.googleapis.com/auth/cloud-platform"]


@dataclass
class VertexClients:
    """The synchronous gapic REST clients the store calls (all thread-safe for our use)."""

    index: Any
    endpoints: Any
    match: Any

    def close(self) -> None:
        for client in (self.index, self.endpoints, self.match):
            client.transport.close()


def _credentials(base_url: str | None) -> Any:
    fake = emulator_credentials(base_url)
    if fake is not None:
        return fake
    import google.auth
    from google.auth import exceptions as auth_exceptions

    try:
        credentials, _ = google.auth.default(scopes=_SCOPES)
    except auth_exceptions.DefaultCredentialsError as exc:
        raise ConfigError(
            "no Google credentials for Vector Search: run `gcloud auth application-default "
            "login` or set GOOGLE_APPLICATION_CREDENTIALS"
        ) from exc
    return credentials


def build_clients(location: str, *, base_url: str | None, match_host: str | None) -> VertexClients:
    """REST clients for the regional API and for the endpoint's public match host.

    Args:
        location: The region (`us-central1`).
        base_url: Overrides every host (the emulator: `http://127.0.0.1:PORT`). On a loopback
            address it also selects fake token credentials.
        match_host: The index endpoint's `publicEndpointDomainName`, where `findNeighbors`
            must go; the regional host when None (and ignored with `base_url`). It receives
            the credentials, so it must be a Google host (`*.vdb.vertexai.goog`) or loopback.

    Raises:
        ConfigError: when the SDK is missing, no credentials can be found, or `match_host`
            is not a Google or loopback host.
    """
    if match_host and not base_url:
        check_endpoint(
            match_host,
            setting="match_host",
            opt_in="base_url= with trust_base_url=1 (base_url routes every call)",
        )
    try:
        from google.cloud import aiplatform_v1
    except ImportError as exc:
        raise ConfigError(
            "the vectorsearch backend needs the Vertex SDK: pip install 'adk-memory[vertex]'"
        ) from exc
    credentials = _credentials(base_url)
    regional = base_url or f"{location}-aiplatform.googleapis.com"
    match = base_url or match_host or regional

    def options(host: str) -> dict[str, str]:
        # The REST transport keeps an explicit http:// or https:// scheme in the endpoint.
        return {"api_endpoint": host}

    return VertexClients(
        index=aiplatform_v1.IndexServiceClient(
            credentials=credentials, transport="rest", client_options=options(regional)
        ),
        endpoints=aiplatform_v1.IndexEndpointServiceClient(
            credentials=credentials, transport="rest", client_options=options(regional)
        ),
        match=aiplatform_v1.MatchServiceClient(
            credentials=credentials, transport="rest", client_options=options(match)
        ),
    )


class VectorSearchStore:
    """A `MemoryStore` on one deployed Vector Search index plus a SQLite document store.

    Args:
        endpoint: `projects/P/locations/L/indexEndpoints/E`.
        index: The full name of the index deployed as `deployed_index_id`.
        deployed_index_id: The deployed index to query.
        docs: The opened document store.
        clients: The gapic clients (see `build_clients`).
        call_timeout: Seconds one HTTP attempt may take.
        retry_attempts: Attempts per call, the first included.
        retry_initial: First backoff in seconds (then doubling, jittered, up to `retry_max`).
        retry_max: Largest backoff in seconds.
        retry_deadline: Seconds after which a call stops retrying.
        max_concurrency: Calls in flight at once (the size of the calling thread pool).
    """

    max_search_k = MAX_SEARCH_K

    def __init__(
        self,
        endpoint: str,
        *,
        index: str,
        deployed_index_id: str,
        docs: DocumentStore,
        clients: VertexClients,
        call_timeout: float = 10.0,
        retry_attempts: int = 5,
        retry_initial: float = 0.25,
        retry_max: float = 4.0,
        retry_deadline: float = 30.0,
        max_concurrency: int = 8,
    ) -> None:
        self.endpoint = endpoint
        self.index = index
        self.deployed_index_id = deployed_index_id
        self.docs = docs
        self._clients = clients
        self._call_timeout = call_timeout
        self._retry = RetryPolicy(
            max_attempts=max(1, retry_attempts),
            initial_backoff=retry_initial,
            max_backoff=retry_max,
            jitter=retry_initial,
            max_total_seconds=retry_deadline,
            call_timeout=call_timeout,
            label="Vector Search",
        )
        self._executor = ThreadPoolExecutor(
            max_workers=max(1, max_concurrency), thread_name_prefix="adkmem-vectorsearch"
        )
        self._locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
            weakref.WeakKeyDictionary()
        )
        #: Whether the outbox may hold entries (checked once at open, set by failed flushes).
        self._dirty = True
        self._closed = False

    # -- plumbing ----------------------------------------------------------------------

    def _lock(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        lock = self._locks.get(loop)
        if lock is None:
            lock = self._locks[loop] = asyncio.Lock()
        return lock

    def _error(self, exc: BaseException, what: str) -> AdkMemoryError:
        if isinstance(exc, AdkMemoryError):  # ours already (it carries no HTTP status)
            return exc
        return backend_error(
            exc,
            what,
            service="Vector Search",
            resource=self.endpoint,
            not_found=f"Vector Search {what}: not found (404): check the index endpoint "
            f"{self.endpoint}, index {self.index} and deployed index "
            f"{self.deployed_index_id} (terraform / adk-memory emulator).",
        )

    async def _call(self, what: str, fn: Callable[[float], T]) -> T:
        """Runs `fn(timeout)` (one blocking SDK call) on the pool with bounded retries."""
        if self._closed:
            raise BackendError("the Vector Search store is closed")
        loop = asyncio.get_running_loop()
        try:
            async for attempt in self._retry.retrying():
                with attempt:
                    return await loop.run_in_executor(self._executor, fn, self._call_timeout)
        except Exception as exc:
            raise self._error(exc, what) from exc
        raise AssertionError("unreachable")  # pragma: no cover - tenacity always returns

    # -- index sync ----------------------------------------------------------------------

    async def flush(self) -> None:
        """Sends every queued index update (upserts with current restricts, removals).

        Raises:
            BackendError: if Vector Search stays unavailable; the updates stay queued.
        """
        async with self._lock():
            while True:
                batch = await self.docs.pending(BATCH_SIZE)
                points = [
                    codec.datapoint(p.id, vector, p.record.scope, p.record.status)
                    for p in batch
                    if p.record is not None and (vector := p.vector) is not None
                ]
                await self._send(points, [p.id for p in batch if p.record is None])
                await self.docs.clear([(p.id, p.version) for p in batch])
                if len(batch) < BATCH_SIZE:
                    self._dirty = False
                    return

    async def _send(self, points: Sequence[dict[str, Any]], gone: Sequence[str]) -> None:
        if points:
            await self._call(
                "upsertDatapoints",
                lambda timeout: self._clients.index.upsert_datapoints(
                    request={"index": self.index, "datapoints": list(points)}, timeout=timeout
                ),
            )
        if gone:
            await self._call(
                "removeDatapoints",
                lambda timeout: self._clients.index.remove_datapoints(
                    request={"index": self.index, "datapoint_ids": list(gone)}, timeout=timeout
                ),
            )

    async def _sync(self, what: str) -> None:
        """Flushes after a committed write; failures are logged, never raised."""
        try:
            await self.flush()
        except AdkMemoryError as exc:
            self._dirty = True
            logger.warning(
                "vectorsearch: %s is stored but the index update is queued for retry: %s",
                what,
                exc,
            )

    async def _catch_up(self) -> None:
        if self._dirty:
            if await self.docs.has_pending():
                await self._sync("an earlier write")
            else:
                self._dirty = False

    # -- writes --------------------------------------------------------------------------

    async def upsert(self, records: Sequence[MemoryRecord]) -> None:
        if not records:
            return
        await self.docs.upsert(records)
        await self._sync(f"upsert of {len(records)} record(s)")

    async def replace(self, new: MemoryRecord, superseded_ids: Sequence[str]) -> list[str]:
        superseded = await self.docs.replace(new, superseded_ids)
        await self._sync(f"replace by {new.id}")
        return superseded

    async def set_status(
        self,
        scope: Scope,
        ids: Sequence[str],
        status: Status,
        *,
        consolidated_into: str | None = None,
    ) -> list[str]:
        changed = await self.docs.set_status(
            scope, ids, status, consolidated_into=consolidated_into
        )
        if changed:
            await self._sync(f"status change of {len(changed)} record(s)")
        return changed

    async def delete(self, scope: Scope, ids: Sequence[str]) -> list[str]:
        deleted = await self.docs.delete(scope, ids)
        await self._sync(f"delete of {len(deleted)} record(s)")
        return deleted

    async def record_hits(self, scope: Scope, ids: Sequence[str], at: datetime) -> None:
        await self.docs.record_hits(scope, ids, at)

    async def mark_events_seen(self, scope: Scope, event_ids: Sequence[str]) -> None:
        await self.docs.mark_events_seen(scope, event_ids)

    async def erase(self, scope: Scope) -> int:
        """Erases the scope's documents (records, markers, lexical entries), then removes its
        datapoints from the index (`removeDatapoints`).

        Raises:
            BackendError: if the index stays unreachable: the documents are gone and the
                removals stay queued (retried by the next write, search or erase).
        """
        erased = await self.docs.erase(scope)
        try:
            await self.flush()
        except AdkMemoryError as exc:
            self._dirty = True
            raise BackendError(
                f"vectorsearch: erased {erased} record(s) of {scope}, but removing their "
                f"datapoints from the index failed and is queued for retry: {exc}"
            ) from exc
        return erased

    def reconcile_lock(self, scope: Scope) -> AbstractAsyncContextManager[None]:
        """The document store's cross-process lock (every process of this deployment shares
        the document file)."""
        return self.docs.reconcile_lock(scope)

    # -- reads ---------------------------------------------------------------------------

    async def get(self, memory_id: str, scope: Scope | None = None) -> MemoryRecord | None:
        return await self.docs.get(memory_id, scope)

    async def list_page(
        self,
        scope: Scope,
        *,
        filters: ListFilter | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page:
        return await self.docs.list_page(scope, filters=filters, limit=limit, cursor=cursor)

    async def seen_events(self, scope: Scope, event_ids: Sequence[str]) -> set[str]:
        return await self.docs.seen_events(scope, event_ids)

    async def scopes(self) -> list[Scope]:
        return await self.docs.scopes()

    async def search(
        self,
        scope: Scope,
        *,
        vector: np.ndarray,
        query: str | None = None,
        k: int,
        statuses: Sequence[Status] = (Status.ACTIVE,),
    ) -> list[SearchHit]:
        """Nearest records via `findNeighbors`, plus the document store's lexical matches."""
        if k <= 0 or not statuses:
            return []
        k = min(k, self.max_search_k)
        query_vector = np.asarray(vector, dtype=np.float32).reshape(-1)
        # The document store's own search checks the vector's dimension, finds the lexical
        # matches, and tells an empty scope (no index call needed) from a populated one.
        local = await self.docs.local_search(
            scope, vector=query_vector, query=query, k=k, statuses=statuses
        )
        if not local:
            return []
        await self._catch_up()
        request = {
            "index_endpoint": self.endpoint,
            "deployed_index_id": self.deployed_index_id,
            "queries": [
                {
                    "datapoint": {
                        "feature_vector": [float(v) for v in query_vector],
                        "restricts": codec.query_restricts(scope, statuses),
                    },
                    "neighbor_count": k,
                }
            ],
        }
        response = await self._call(
            "findNeighbors",
            lambda timeout: self._clients.match.find_neighbors(request=request, timeout=timeout),
        )
        ids = [
            n.datapoint.datapoint_id
            for found in response.nearest_neighbors
            for n in found.neighbors
        ]
        return await self.docs.candidates(
            scope,
            ids,
            vector=query_vector,
            lexical=[h for h in local if h.lexical > 0],
            statuses=statuses,
        )

    # -- lifecycle -----------------------------------------------------------------------

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            await self.docs.close()
        finally:
            self._executor.shutdown(wait=True)
            self._clients.close()


def _docs_path(params: dict[str, str], endpoint: str, deployed: str) -> Path:
    raw = params.get("docs")
    return Path(raw).expanduser() if raw else codec.default_docs_path(endpoint, deployed)


def _false(value: str | None) -> bool:
    return value is not None and value.strip().lower() in ("0", "false", "no")


async def _describe(clients: VertexClients, endpoint: str, call_timeout: float) -> Any:
    """GETs the index endpoint (one attempt: this runs once, at open)."""
    from google.api_core import exceptions as api_exceptions
    from google.auth import exceptions as auth_exceptions

    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(
            None,
            lambda: clients.endpoints.get_index_endpoint(name=endpoint, timeout=call_timeout),
        )
    except api_exceptions.NotFound as exc:
        raise ConfigError(
            f"index endpoint {endpoint} not found (404): create it (terraform / adk-memory "
            f"emulator) or fix the store URI. {exc.message}"
        ) from exc
    except api_exceptions.PermissionDenied as exc:
        raise BackendError(
            f"Vector Search denied reading {endpoint} (403 PERMISSION_DENIED): the caller "
            f"needs roles/aiplatform.user on the project. {exc.message}"
        ) from exc
    except auth_exceptions.GoogleAuthError as exc:
        raise ConfigError(f"Google credentials failed for Vector Search: {exc}") from exc
    except Exception as exc:
        raise BackendError(f"cannot read index endpoint {endpoint}: {exc}") from exc


def _resolve_deployment(
    described: Any, endpoint: str, deployed: str | None, index: str
) -> tuple[str, str]:
    """(deployed index id, index name) served by `described`, checked against the URI."""
    served = {d.id: str(d.index) for d in described.deployed_indexes}
    if deployed is None:
        if len(served) != 1:
            raise ConfigError(
                f"index endpoint {endpoint} serves {len(served)} deployed indexes "
                f"({', '.join(sorted(served)) or 'none'}): name one with ?deployed=ID"
            )
        deployed = next(iter(served))
    if deployed not in served:
        raise ConfigError(
            f"index endpoint {endpoint} has no deployed index {deployed!r} "
            f"(deployed: {', '.join(sorted(served)) or 'none'})"
        )
    if index and served[deployed] != index:
        raise ConfigError(f"deployed index {deployed!r} serves {served[deployed]}, not {index}")
    return deployed, served[deployed]


async def open_vector_search_store(uri: StoreUri) -> VectorSearchStore:
    """Opens the store an `adkmem+vectorsearch://` URI names.

    URI params: `index` (id or full name; default: the one deployed), `deployed` (the deployed
    index id; optional when the endpoint serves exactly one), `docs` (document store path),
    `timeout` (seconds per call), `retries` (attempts), `base_url` (overrides every host;
    `GOOGLE_VERTEX_BASE_URL` wins), `match_host` (the endpoint's public domain, needed with
    `verify=false` against Google), `verify=false` (skip reading the endpoint at open).

    Raises:
        ConfigError: on a bad URI, missing credentials, or a missing endpoint or index.
        BackendError: if the endpoint cannot be reached or access is denied.
    """
    segments = uri.location.split("/")
    if len(segments) != 6:
        raise ConfigError(
            f"bad vectorsearch URI {uri.raw!r}: expected adkmem+vectorsearch://"
            "projects/P/locations/L/indexEndpoints/E?index=I&deployed=D"
        )
    location = segments[3]
    params = dict(uri.params)
    timeout, attempts = call_settings(uri)
    base_url = base_url_override(params)
    deployed = params.get("deployed") or None
    index = codec.index_name(uri.location, params["index"]) if params.get("index") else ""
    match_host = params.get("match_host") or None
    verify = not _false(params.get("verify"))
    if not verify and not (deployed and index and (base_url or match_host)):
        raise ConfigError(
            "verify=false needs index=, deployed= and (against Google) match_host= in the "
            "vectorsearch URI"
        )
    clients = build_clients(location, base_url=base_url, match_host=match_host)
    try:
        if verify:
            described = await _describe(clients, uri.location, timeout)
            deployed, index = _resolve_deployment(described, uri.location, deployed, index)
            if base_url is None and match_host is None:
                # findNeighbors goes to the endpoint's own host, not the regional API.
                match_host = described.public_endpoint_domain_name or None
                if match_host is None:
                    raise ConfigError(
                        f"index endpoint {uri.location} has no public endpoint: private (VPC / "
                        "PSC) endpoints need gRPC match calls, which this backend does not make"
                    )
                clients.close()
                clients = build_clients(location, base_url=None, match_host=match_host)
        assert deployed is not None  # verify=false required it above
        docs = await DocumentStore(_docs_path(params, uri.location, deployed)).open()
    except BaseException:
        clients.close()
        raise
    store = VectorSearchStore(
        uri.location,
        index=index,
        deployed_index_id=deployed,
        docs=docs,
        clients=clients,
        call_timeout=timeout,
        retry_attempts=attempts,
    )
    await store._catch_up()
    return store


__all__ = [
    "MAX_SEARCH_K",
    "VectorSearchStore",
    "VertexClients",
    "build_clients",
    "open_vector_search_store",
]
