from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adk_memory.engine import MemoryEngine
from adk_memory.factory import build_engine
from adk_memory.stores.sqlite.store import SqliteStore
from tests.inspector.support import NOW, Seeded, seed

TOKEN = "test-token-0123456789abcdef"


@pytest.fixture
async def seeded(tmp_path: Path) -> Seeded:
    return await seed(await SqliteStore(tmp_path / "memory.db").open())


@pytest.fixture
async def engine(tmp_path: Path, seeded: Seeded) -> AsyncIterator[MemoryEngine]:
    eng = build_engine(await SqliteStore(tmp_path / "memory.db").open(), clock=lambda: NOW)
    yield eng
    await eng.close()
