from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adk_memory.engine import MemoryEngine
from adk_memory.factory import build_engine
from adk_memory.stores.sqlite.store import SqliteStore
from tests.helpers import FixedClock


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


@pytest.fixture
async def engine(tmp_path: Path, clock: FixedClock) -> AsyncIterator[MemoryEngine]:
    store = await SqliteStore(tmp_path / "memory.db").open()
    eng = build_engine(store, clock=clock)
    yield eng
    await eng.close()
