from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from adk_memory.stores.memory_bank.store import MemoryBankStore
from adk_memory.testing.emulator import EmulatorServer
from tests.stores.memory_bank.support import emulator_store, shared_emulator


@pytest.fixture
def emulator() -> EmulatorServer:
    return shared_emulator()


@pytest.fixture(scope="module")
def faulty_emulator() -> Iterator[EmulatorServer]:
    """A private server for fault tests, so injected faults never leak into other tests."""
    with EmulatorServer() as server:
        yield server


@pytest.fixture
async def mb_store(emulator: EmulatorServer) -> AsyncIterator[MemoryBankStore]:
    store = emulator_store(emulator)
    yield store
    await store.close()
