"""How `MemoryRecord`s map onto Vector Search datapoints and queries (pure functions, no I/O).

A record is one datapoint: `datapointId` is the record id, `featureVector` its embedding, and
three token restricts carry what search filters on server-side: `app` (the app name), `user`
(the user id) and `status`. A query allows exactly one app and one user and the wanted statuses;
token restricts AND across namespaces and OR within one, so a query matches only its own scope.

Distance conventions: the index is meant to be `DOT_PRODUCT_DISTANCE` over unit vectors
(`featureNormType: UNIT_L2_NORM`), for which Vector Search reports the dot product itself as
`distance` (larger is nearer), which for unit vectors is the cosine; `COSINE_DISTANCE` indexes
report `1 - cos` (smaller is nearer). The store does not depend on either: it uses the index
for candidates only and computes each cosine from the record's vector in the document store,
exactly (tree-AH distances are quantised estimates) and whatever measure the index was made
with.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import platformdirs

from adk_memory.errors import ConfigError
from adk_memory.model import Scope, Status

NS_APP = "app"
NS_USER = "user"
NS_STATUS = "status"

_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def restricts(scope: Scope, status: Status) -> list[dict[str, Any]]:
    """The token restricts of a record's datapoint."""
    return [
        {"namespace": NS_APP, "allow_list": [scope.app_name]},
        {"namespace": NS_USER, "allow_list": [scope.user_id]},
        {"namespace": NS_STATUS, "allow_list": [status.value]},
    ]


def query_restricts(scope: Scope, statuses: Iterable[Status]) -> list[dict[str, Any]]:
    """The restricts of a query: this scope only, any of `statuses`."""
    return [
        {"namespace": NS_APP, "allow_list": [scope.app_name]},
        {"namespace": NS_USER, "allow_list": [scope.user_id]},
        {"namespace": NS_STATUS, "allow_list": sorted(s.value for s in statuses)},
    ]


def datapoint(
    memory_id: str, vector: np.ndarray | Sequence[float], scope: Scope, status: Status
) -> dict[str, Any]:
    """An `IndexDatapoint` (as the dict the gapic types accept) for one record."""
    return {
        "datapoint_id": memory_id,
        "feature_vector": [float(v) for v in np.asarray(vector, dtype=np.float32)],
        "restricts": restricts(scope, status),
    }


def index_name(endpoint: str, index: str) -> str:
    """The full index resource name; `index` may be a bare id (same project and location).

    Raises:
        ConfigError: if `index` is neither a bare id nor `projects/P/locations/L/indexes/I`.
    """
    if "/" not in index:
        if not index:
            raise ConfigError("empty index id in vectorsearch URI")
        parent = "/".join(endpoint.split("/")[:4])
        return f"{parent}/indexes/{index}"
    segments = index.split("/")
    if len(segments) != 6 or segments[0::2] != ["projects", "locations", "indexes"]:
        raise ConfigError(
            f"bad index {index!r} in vectorsearch URI: expected an id or "
            "projects/P/locations/L/indexes/I"
        )
    return index


def default_docs_path(endpoint: str, deployed_index_id: str) -> Path:
    """Where the record documents of a deployment live unless `?docs=` says otherwise."""
    digest = hashlib.sha1(f"{endpoint}|{deployed_index_id}".encode()).hexdigest()[:10]
    readable = _SAFE.sub("-", f"{endpoint.rsplit('/', 1)[-1]}-{deployed_index_id}")
    root = Path(platformdirs.user_data_dir("adk-memory", appauthor=False))
    return root / "vectorsearch" / f"{readable}-{digest}.db"
