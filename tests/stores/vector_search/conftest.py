from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from adk_memory.stores.vector_search.store import VectorSearchStore
from adk_memory.testing.emulator import EmulatorServer
from tests.stores.memory_bank.support import shared_emulator
from tests.stores.vector_search.support import emulator_store, new_deployment


@pytest.fixture
def emulator() -> EmulatorServer:
    return shared_emulator()


@pytest.fixture(scope="module")
def faulty_emulator() -> Iterator[EmulatorServer]:
    """A private server for fault tests, so injected faults never leak into other tests."""
    with EmulatorServer() as server:
        yield server


@pytest.fixture
def deployment(emulator: EmulatorServer) -> dict[str, str]:
    return new_deployment(emulator)


@pytest.fixture
async def vs_store(
    emulator: EmulatorServer, deployment: dict[str, str], tmp_path: Path
) -> AsyncIterator[VectorSearchStore]:
    store = await emulator_store(emulator, tmp_path / "docs.db", deployment)
    yield store
    await store.close()
