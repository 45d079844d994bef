"""The emulated Vector Search: indexes, index endpoints with deployed indexes, datapoints.

Search is exact (numpy over every datapoint of the index) and honours what the real service
documents for filtering: token restricts combine with AND across namespaces and OR within one
(`allowList`), a `denyList` token excludes a datapoint either way round, and a datapoint with no
token in a namespace the query restricts does not match. Numeric restricts compare with the
query's `op`. `distance` follows the index's `distanceMeasureType`: the dot product itself for
`DOT_PRODUCT_DISTANCE` (larger is nearer, the service's convention), `1 - cos` for
`COSINE_DISTANCE`, and the squared L2 / L1 distances (smaller is nearer).

Resource names are always full (`projects/P/locations/L/indexes/I`); long-running operations
are done at once. State persists to a JSON file when a path is given.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from adk_memory.model import utcnow
from adk_memory.testing.emulator.persist import load_json, save_json_atomic
from adk_memory.testing.emulator.wire import ApiError, format_time, pick

Json = dict[str, Any]

DEFAULT_NEIGHBOR_COUNT = 10
#: Largest neighborCount the emulator answers (the service caps far above any sane k).
MAX_NEIGHBOR_COUNT = 10_000
_MAX_OPERATIONS = 10_000
_MEASURES = ("DOT_PRODUCT_DISTANCE", "COSINE_DISTANCE", "SQUARED_L2_DISTANCE", "L1_DISTANCE")
#: NumericRestriction.Operator, by its int value (REST clients send `enum-encoding=int`).
_NUMERIC_OPS: dict[str, Callable[[float, float], bool]] = {
    "LESS": lambda v, q: v < q,
    "LESS_EQUAL": lambda v, q: v <= q,
    "EQUAL": lambda v, q: v == q,
    "GREATER_EQUAL": lambda v, q: v >= q,
    "GREATER": lambda v, q: v > q,
    "NOT_EQUAL": lambda v, q: v != q,
}
_OP_NAMES = ("LESS", "LESS_EQUAL", "EQUAL", "GREATER_EQUAL", "GREATER", "NOT_EQUAL")


def new_numeric_id() -> str:
    """A resource id shaped like the service's (a long decimal number)."""
    return "1" + "".join(str(secrets.randbelow(10)) for _ in range(18))


def _strings(raw: Any, what: str) -> frozenset[str]:
    if raw is None:
        return frozenset()
    if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
        raise ApiError(400, f"{what} must be a list of strings")
    return frozenset(raw)


def _restricts(raw: Any) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """namespace -> (allow tokens, deny tokens); repeated namespaces merge."""
    if raw is None:
        return {}
    if not isinstance(raw, list):
        raise ApiError(400, "restricts must be a list")
    out: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
    for item in raw:
        namespace = pick(item, "namespace")
        if not isinstance(namespace, str) or not namespace:
            raise ApiError(400, "every restrict needs a namespace")
        allow = _strings(pick(item, "allowList"), "allowList")
        deny = _strings(pick(item, "denyList"), "denyList")
        old_allow, old_deny = out.get(namespace, (frozenset(), frozenset()))
        out[namespace] = (old_allow | allow, old_deny | deny)
    return out


def _numeric_value(item: Any) -> float:
    for key in ("valueInt", "valueFloat", "valueDouble"):
        value = pick(item, key)
        if value is not None:
            try:
                return float(value)  # int64 arrives as a JSON string
            except (TypeError, ValueError) as exc:
                raise ApiError(400, f"numeric restrict {key} is not a number: {value!r}") from exc
    raise ApiError(400, "numeric restrict needs valueInt, valueFloat or valueDouble")


def _numeric_op(raw: Any) -> str:
    if isinstance(raw, int) and not isinstance(raw, bool) and 1 <= raw <= len(_OP_NAMES):
        return _OP_NAMES[raw - 1]
    if isinstance(raw, str) and raw in _NUMERIC_OPS:
        return raw
    raise ApiError(400, f"numeric restrict op {raw!r} is not one of {_OP_NAMES}")


@dataclass
class Datapoint:
    """One stored datapoint: its vector (as searched) and the wire form to return."""

    id: str
    vector: np.ndarray
    restricts: dict[str, tuple[frozenset[str], frozenset[str]]]
    numeric: dict[str, float]
    crowding: str | None
    wire: Json

    def matches(
        self,
        restricts: dict[str, tuple[frozenset[str], frozenset[str]]],
        numeric: list[tuple[str, str, float]],
    ) -> bool:
        for namespace, (allow, deny) in restricts.items():
            mine, my_deny = self.restricts.get(namespace, (frozenset(), frozenset()))
            if allow and not (mine & allow):
                return False
            if (deny & mine) or (my_deny & allow):
                return False
        for namespace, op, value in numeric:
            mine_value = self.numeric.get(namespace)
            if mine_value is None or not _NUMERIC_OPS[op](mine_value, value):
                return False
        return True


def _datapoint(raw: Any, dimensions: int, normalize: bool) -> Datapoint:
    if not isinstance(raw, dict):
        raise ApiError(400, "a datapoint must be an object")
    datapoint_id = pick(raw, "datapointId")
    if not isinstance(datapoint_id, str) or not datapoint_id:
        raise ApiError(400, "datapointId is required")
    values = pick(raw, "featureVector")
    if not isinstance(values, list) or not values:
        raise ApiError(400, f"datapoint {datapoint_id}: featureVector is required")
    try:
        vector = np.asarray(values, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise ApiError(400, f"datapoint {datapoint_id}: featureVector must be numbers") from exc
    if vector.ndim != 1 or vector.shape[0] != dimensions:
        raise ApiError(
            400,
            f"datapoint {datapoint_id} has {vector.shape[0]} dimensions; "
            f"the index has {dimensions}",
        )
    if normalize:
        norm = float(np.linalg.norm(vector))
        if norm > 0:
            vector = vector / norm
    numeric_raw = pick(raw, "numericRestricts") or []
    if not isinstance(numeric_raw, list):
        raise ApiError(400, "numericRestricts must be a list")
    numeric = {str(pick(n, "namespace")): _numeric_value(n) for n in numeric_raw}
    crowding = pick(pick(raw, "crowdingTag") or {}, "crowdingAttribute")
    restricts = _restricts(pick(raw, "restricts"))
    wire: Json = {"datapointId": datapoint_id, "featureVector": [float(v) for v in values]}
    if restricts:
        wire["restricts"] = [
            {"namespace": ns, "allowList": sorted(allow), "denyList": sorted(deny)}
            for ns, (allow, deny) in restricts.items()
        ]
    if numeric_raw:
        wire["numericRestricts"] = numeric_raw
    if crowding:
        wire["crowdingTag"] = {"crowdingAttribute": crowding}
    metadata = pick(raw, "embeddingMetadata")
    if metadata is not None:
        wire["embeddingMetadata"] = metadata
    return Datapoint(datapoint_id, vector, restricts, numeric, crowding, wire)


@dataclass
class EmulatedIndex:
    """An index resource and its datapoints."""

    resource: Json
    dimensions: int
    measure: str
    normalize: bool
    datapoints: dict[str, Datapoint] = field(default_factory=dict)

    @classmethod
    def from_resource(cls, resource: Json) -> EmulatedIndex:
        config = pick(pick(resource, "metadata") or {}, "config") or {}
        dimensions = pick(config, "dimensions")
        if not isinstance(dimensions, int | float) or int(dimensions) < 1:
            raise ApiError(400, "metadata.config.dimensions is required (a positive number)")
        measure = pick(config, "distanceMeasureType") or "DOT_PRODUCT_DISTANCE"
        if measure not in _MEASURES:
            raise ApiError(400, f"distanceMeasureType {measure!r} is not one of {_MEASURES}")
        normalize = pick(config, "featureNormType") == "UNIT_L2_NORM"
        return cls(resource, int(dimensions), str(measure), normalize)

    def distances(self, query: np.ndarray, matrix: np.ndarray) -> tuple[np.ndarray, bool]:
        """Distances of every row to `query`, and whether larger means nearer."""
        if self.normalize:
            norm = float(np.linalg.norm(query))
            query = query / norm if norm > 0 else query
        if self.measure == "DOT_PRODUCT_DISTANCE":
            return matrix @ query, True
        if self.measure == "COSINE_DISTANCE":
            norms = np.linalg.norm(matrix, axis=1) * max(float(np.linalg.norm(query)), 1e-12)
            return 1.0 - (matrix @ query) / np.maximum(norms, 1e-12), False
        diff = matrix - query
        if self.measure == "SQUARED_L2_DISTANCE":
            return np.einsum("ij,ij->i", diff, diff), False
        return np.abs(diff).sum(axis=1), False


class VectorSearchState:
    """All emulated Vector Search data of one server."""

    def __init__(
        self, *, data_path: str | Path | None = None, clock: Callable[[], datetime] = utcnow
    ) -> None:
        self._data_path = Path(data_path) if data_path else None
        self._clock = clock
        self.indexes: dict[str, EmulatedIndex] = {}
        self.endpoints: dict[str, Json] = {}
        self.operations: OrderedDict[str, Json] = OrderedDict()
        self._load()

    # -- persistence -------------------------------------------------------------------

    def _load(self) -> None:
        data = load_json(self._data_path) if self._data_path is not None else None
        if not isinstance(data, dict):
            return
        for name, saved in data.get("indexes", {}).items():
            index = EmulatedIndex.from_resource(saved["resource"])
            for raw in saved["datapoints"]:
                point = _datapoint(raw, index.dimensions, index.normalize)
                index.datapoints[point.id] = point
            self.indexes[name] = index
        self.endpoints = data.get("endpoints", {})

    def _save(self) -> None:
        if self._data_path is None:
            return
        save_json_atomic(
            self._data_path,
            {
                "indexes": {
                    name: {
                        "resource": index.resource,
                        "datapoints": [p.wire for p in index.datapoints.values()],
                    }
                    for name, index in self.indexes.items()
                },
                "endpoints": self.endpoints,
            },
        )

    # -- helpers -----------------------------------------------------------------------

    def _now(self) -> str:
        return format_time(self._clock())

    def _operation(self, parent: str, response: Json | None) -> Json:
        op: Json = {"name": f"{parent}/operations/{new_numeric_id()}", "done": True}
        if response is not None:
            op["response"] = response
        self.operations[op["name"]] = op
        while len(self.operations) > _MAX_OPERATIONS:
            self.operations.popitem(last=False)
        return op

    def get_operation(self, name: str) -> Json:
        op = self.operations.get(name)
        if op is None:
            raise ApiError(404, f"operation {name} not found")
        return op

    def index(self, name: str) -> EmulatedIndex:
        found = self.indexes.get(name)
        if found is None:
            raise ApiError(404, f"index {name} not found")
        return found

    def endpoint(self, name: str) -> Json:
        found = self.endpoints.get(name)
        if found is None:
            raise ApiError(404, f"index endpoint {name} not found")
        return found

    def _public_index(self, index: EmulatedIndex) -> Json:
        name = index.resource["name"]
        deployed = [
            {"indexEndpoint": ep["name"], "deployedIndexId": d["id"]}
            for ep in self.endpoints.values()
            for d in ep.get("deployedIndexes", [])
            if d["index"] == name
        ]
        return {
            **index.resource,
            "indexStats": {"vectorsCount": str(len(index.datapoints)), "shardsCount": 1},
            "deployedIndexes": deployed,
        }

    # -- indexes -----------------------------------------------------------------------

    def create_index(self, parent: str, body: Json, type_prefix: str, index_id: str = "") -> Json:
        name = f"{parent}/indexes/{index_id or new_numeric_id()}"
        if name in self.indexes:
            raise ApiError(409, f"index {name} already exists")
        now = self._now()
        resource: Json = {
            "name": name,
            "displayName": pick(body, "displayName") or "",
            "description": pick(body, "description") or "",
            "metadata": pick(body, "metadata") or {},
            "indexUpdateMethod": _update_method(pick(body, "indexUpdateMethod")),
            "createTime": now,
            "updateTime": now,
        }
        self.indexes[name] = EmulatedIndex.from_resource(resource)
        self._save()
        public = self._public_index(self.indexes[name])
        return self._operation(name, {"@type": f"{type_prefix}.Index", **public})

    def get_index(self, name: str) -> Json:
        return self._public_index(self.index(name))

    def list_indexes(self, parent: str) -> Json:
        return {
            "indexes": [
                self._public_index(i) for n, i in self.indexes.items() if n.startswith(parent)
            ]
        }

    def upsert_datapoints(self, name: str, body: Json) -> Json:
        index = self.index(name)
        if index.resource.get("indexUpdateMethod") != "STREAM_UPDATE":
            raise ApiError(400, f"index {name} is not a STREAM_UPDATE index")
        raw = pick(body, "datapoints") or []
        if not isinstance(raw, list):
            raise ApiError(400, "datapoints must be a list")
        # Validate all first: a bad datapoint rejects the whole request, as the service does.
        points = [_datapoint(r, index.dimensions, index.normalize) for r in raw]
        for point in points:
            index.datapoints[point.id] = point
        index.resource["updateTime"] = self._now()
        self._save()
        return {}

    def remove_datapoints(self, name: str, body: Json) -> Json:
        index = self.index(name)
        ids = pick(body, "datapointIds") or []
        if not isinstance(ids, list):
            raise ApiError(400, "datapointIds must be a list")
        for datapoint_id in ids:
            index.datapoints.pop(str(datapoint_id), None)
        self._save()
        return {}

    # -- index endpoints ---------------------------------------------------------------

    def create_endpoint(
        self, parent: str, body: Json, type_prefix: str, host: str, endpoint_id: str = ""
    ) -> Json:
        name = f"{parent}/indexEndpoints/{endpoint_id or new_numeric_id()}"
        if name in self.endpoints:
            raise ApiError(409, f"index endpoint {name} already exists")
        now = self._now()
        public = pick(body, "publicEndpointEnabled")
        resource: Json = {
            "name": name,
            "displayName": pick(body, "displayName") or "",
            "deployedIndexes": [],
            "publicEndpointEnabled": bool(public),
            "createTime": now,
            "updateTime": now,
        }
        if public:
            # The real domain is `N.region-P.vdb.vertexai.goog`; here it is the emulator.
            resource["publicEndpointDomainName"] = host
        self.endpoints[name] = resource
        self._save()
        return self._operation(name, {"@type": f"{type_prefix}.IndexEndpoint", **resource})

    def deploy_index(self, name: str, body: Json, type_prefix: str) -> Json:
        endpoint = self.endpoint(name)
        deployed = pick(body, "deployedIndex")
        if not isinstance(deployed, dict):
            raise ApiError(400, "deployedIndex is required")
        deployed_id, index_name = pick(deployed, "id"), pick(deployed, "index")
        if not isinstance(deployed_id, str) or not deployed_id:
            raise ApiError(400, "deployedIndex.id is required")
        self.index(str(index_name))
        if any(d["id"] == deployed_id for d in endpoint["deployedIndexes"]):
            raise ApiError(409, f"deployed index {deployed_id} already exists on {name}")
        entry: Json = {"id": deployed_id, "index": index_name, "createTime": self._now()}
        resources = pick(deployed, "automaticResources")
        if resources is not None:
            entry["automaticResources"] = resources
        endpoint["deployedIndexes"].append(entry)
        self._save()
        return self._operation(
            name, {"@type": f"{type_prefix}.DeployIndexResponse", "deployedIndex": entry}
        )

    def undeploy_index(self, name: str, body: Json, type_prefix: str) -> Json:
        endpoint = self.endpoint(name)
        deployed_id = pick(body, "deployedIndexId")
        kept = [d for d in endpoint["deployedIndexes"] if d["id"] != deployed_id]
        if len(kept) == len(endpoint["deployedIndexes"]):
            raise ApiError(404, f"deployed index {deployed_id} not found on {name}")
        endpoint["deployedIndexes"] = kept
        self._save()
        return self._operation(name, {"@type": f"{type_prefix}.UndeployIndexResponse"})

    def _deployed_index(self, endpoint_name: str, deployed_id: Any) -> EmulatedIndex:
        endpoint = self.endpoint(endpoint_name)
        for deployed in endpoint["deployedIndexes"]:
            if deployed["id"] == deployed_id:
                return self.index(deployed["index"])
        raise ApiError(404, f"deployed index {deployed_id!r} not found on {endpoint_name}")

    def ensure(
        self,
        parent: str,
        *,
        index_id: str,
        endpoint_id: str,
        deployed_index_id: str,
        dimensions: int,
        distance: str,
        host: str,
    ) -> Json:
        """Makes sure a stream index deployed on a public endpoint exists (admin API)."""
        index_name = f"{parent}/indexes/{index_id}"
        if index_name not in self.indexes:
            config = {"dimensions": dimensions, "distanceMeasureType": distance}
            if distance == "DOT_PRODUCT_DISTANCE":
                config["featureNormType"] = "UNIT_L2_NORM"
            self.create_index(
                parent,
                {
                    "displayName": "adk-memory",
                    "metadata": {"config": config},
                    "indexUpdateMethod": "STREAM_UPDATE",
                },
                "",
                index_id,
            )
        endpoint_name = f"{parent}/indexEndpoints/{endpoint_id}"
        if endpoint_name not in self.endpoints:
            self.create_endpoint(
                parent,
                {"displayName": "adk-memory", "publicEndpointEnabled": True},
                "",
                host,
                endpoint_id,
            )
        endpoint = self.endpoints[endpoint_name]
        if not any(d["id"] == deployed_index_id for d in endpoint["deployedIndexes"]):
            self.deploy_index(
                endpoint_name, {"deployedIndex": {"id": deployed_index_id, "index": index_name}}, ""
            )
        return {
            "index": index_name,
            "indexEndpoint": endpoint_name,
            "deployedIndexId": deployed_index_id,
        }

    # -- queries -----------------------------------------------------------------------

    def find_neighbors(self, endpoint_name: str, body: Json) -> Json:
        index = self._deployed_index(endpoint_name, pick(body, "deployedIndexId"))
        full = bool(pick(body, "returnFullDatapoint"))
        queries = pick(body, "queries") or []
        if not isinstance(queries, list):
            raise ApiError(400, "queries must be a list")
        return {"nearestNeighbors": [self._query(index, q, full) for q in queries]}

    def _query(self, index: EmulatedIndex, query: Any, full: bool) -> Json:
        raw = pick(query, "datapoint")
        if not isinstance(raw, dict):
            raise ApiError(400, "every query needs a datapoint")
        query_id = pick(raw, "datapointId") or ""
        values = pick(raw, "featureVector")
        if values:
            vector = np.asarray(values, dtype=np.float32)
        elif query_id in index.datapoints:  # search by the vector of a stored datapoint
            vector = index.datapoints[query_id].vector
        else:
            raise ApiError(
                400, "query datapoint needs a featureVector (sparse-only is unsupported)"
            )
        if vector.shape != (index.dimensions,):
            raise ApiError(
                400, f"query has {vector.shape[0]} dimensions; the index has {index.dimensions}"
            )
        count = int(pick(query, "neighborCount") or DEFAULT_NEIGHBOR_COUNT)
        if count < 0 or count > MAX_NEIGHBOR_COUNT:
            raise ApiError(400, f"neighborCount must be in [0, {MAX_NEIGHBOR_COUNT}]")
        per_crowd = int(pick(query, "perCrowdingAttributeNeighborCount") or 0)
        restricts = _restricts(pick(raw, "restricts"))
        numeric = [
            (str(pick(n, "namespace")), _numeric_op(pick(n, "op")), _numeric_value(n))
            for n in (pick(raw, "numericRestricts") or [])
        ]
        points = [p for p in index.datapoints.values() if p.matches(restricts, numeric)]
        neighbors: list[Json] = []
        if points and count:
            matrix = np.stack([p.vector for p in points])
            distances, larger_nearer = index.distances(vector, matrix)
            order = np.argsort(-distances if larger_nearer else distances, kind="stable")
            crowds: dict[str, int] = {}
            for row in order:
                point = points[int(row)]
                if per_crowd and point.crowding:
                    if crowds.get(point.crowding, 0) >= per_crowd:
                        continue
                    crowds[point.crowding] = crowds.get(point.crowding, 0) + 1
                neighbors.append(
                    {
                        "datapoint": point.wire if full else {"datapointId": point.id},
                        "distance": float(distances[row]),
                    }
                )
                if len(neighbors) >= count:
                    break
        return {"id": query_id, "neighbors": neighbors}

    def read_datapoints(self, endpoint_name: str, body: Json) -> Json:
        index = self._deployed_index(endpoint_name, pick(body, "deployedIndexId"))
        ids = pick(body, "ids") or []
        if not isinstance(ids, list):
            raise ApiError(400, "ids must be a list")
        return {"datapoints": [index.datapoints[i].wire for i in ids if i in index.datapoints]}


def _update_method(raw: Any) -> str:
    # REST clients send enums as ints (BATCH_UPDATE=1, STREAM_UPDATE=2).
    names = {0: "INDEX_UPDATE_METHOD_UNSPECIFIED", 1: "BATCH_UPDATE", 2: "STREAM_UPDATE"}
    if raw is None:
        return "BATCH_UPDATE"
    if isinstance(raw, int) and raw in names:
        return names[raw] if raw else "BATCH_UPDATE"
    if isinstance(raw, str) and raw in names.values():
        return raw
    raise ApiError(400, f"indexUpdateMethod {raw!r} is not BATCH_UPDATE or STREAM_UPDATE")
