"""Emulator deployments and stores for the Vector Search tests.

The real gapic REST clients talk HTTP to the in-process emulator; only the host and fake token
credentials differ from production.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import httpx

from adk_memory.stores.vector_search.documents import DocumentStore
from adk_memory.stores.vector_search.store import VectorSearchStore, build_clients
from adk_memory.testing.emulator import EmulatorServer, FaultConfig
from adk_memory.testing.emulator.vector_search import vector_search_state

PROJECT = "test-project"
LOCATION = "us-central1"
PARENT = f"projects/{PROJECT}/locations/{LOCATION}"

_ids = itertools.count(1)


def new_deployment(server: EmulatorServer, *, dimensions: int = 384) -> dict[str, str]:
    """Provisions a fresh, empty index deployed on a fresh endpoint (admin API)."""
    n = next(_ids)
    response = httpx.post(
        f"{server.base_url}/emulator/vectorsearch",
        json={
            "project": PROJECT,
            "location": LOCATION,
            "index_id": f"5{n:09d}",
            "endpoint_id": f"6{n:09d}",
            "deployed_index_id": f"deployed_{n}",
            "dimensions": dimensions,
        },
    )
    response.raise_for_status()
    names: dict[str, str] = response.json()
    return names


def set_faults(server: EmulatorServer, **faults: Any) -> None:
    httpx.post(
        f"{server.base_url}/emulator/faults", json=FaultConfig(**faults).model_dump()
    ).raise_for_status()


def store_uri(server: EmulatorServer, names: dict[str, str], docs: Path, **params: str) -> str:
    """An `adkmem+vectorsearch://` URI for a deployment, pointed at the emulator."""
    query = {
        "index": names["index"].rsplit("/", 1)[-1],
        "deployed": names["deployedIndexId"],
        "docs": str(docs),
        "base_url": server.base_url,
        **params,
    }
    return f"adkmem+vectorsearch://{names['indexEndpoint']}?" + "&".join(
        f"{k}={v}" for k, v in query.items()
    )


async def emulator_store(
    server: EmulatorServer, docs: Path, names: dict[str, str] | None = None, **options: Any
) -> VectorSearchStore:
    """A store on a new deployment; short retry waits keep fault tests fast."""
    names = names or new_deployment(server)
    settings: dict[str, Any] = {
        "retry_initial": 0.01,
        "retry_max": 0.05,
        "retry_deadline": 5.0,
        "call_timeout": 5.0,
    }
    settings.update(options)
    return VectorSearchStore(
        names["indexEndpoint"],
        index=names["index"],
        deployed_index_id=names["deployedIndexId"],
        docs=await DocumentStore(docs).open(),
        clients=build_clients(LOCATION, base_url=server.base_url, match_host=None),
        **settings,
    )


def datapoints(server: EmulatorServer, names: dict[str, str]) -> dict[str, Any]:
    """The emulator's datapoints of a deployment's index, by id (white-box checks)."""
    state = vector_search_state(server.state)
    found: dict[str, Any] = state.indexes[names["index"]].datapoints
    return found
