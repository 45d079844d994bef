"""The contract suite's `store` fixture: one parametrised fixture, one entry per backend.

A backend joins the suite by adding a factory to STORE_FACTORIES: an async context manager
that yields a fresh, empty store.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import pytest

from adk_memory.stores.base import MemoryStore
from adk_memory.stores.sqlite.store import SqliteStore

StoreFactory = Callable[[Path], AbstractAsyncContextManager[MemoryStore]]


@asynccontextmanager
async def sqlite_store(tmp_path: Path) -> AsyncIterator[MemoryStore]:
    store = await SqliteStore(tmp_path / "contract.db").open()
    try:
        yield store
    finally:
        await store.close()


@asynccontextmanager
async def memorybank_store(tmp_path: Path) -> AsyncIterator[MemoryStore]:
    from tests.stores.memory_bank.support import emulator_store, shared_emulator

    store = emulator_store(shared_emulator())
    try:
        yield store
    finally:
        await store.close()


@asynccontextmanager
async def vectorsearch_store(tmp_path: Path) -> AsyncIterator[MemoryStore]:
    from tests.stores.memory_bank.support import shared_emulator
    from tests.stores.vector_search.support import emulator_store

    store = await emulator_store(shared_emulator(), tmp_path / "vectorsearch-docs.db")
    try:
        yield store
    finally:
        await store.close()


STORE_FACTORIES: dict[str, StoreFactory] = {
    "sqlite": sqlite_store,
    "memorybank": memorybank_store,
    "vectorsearch": vectorsearch_store,
}


@pytest.fixture(params=sorted(STORE_FACTORIES))
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[MemoryStore]:
    async with STORE_FACTORIES[request.param](tmp_path) as opened:
        yield opened
