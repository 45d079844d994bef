from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adk_memory.engine import MemoryEngine
from adk_memory.factory import build_engine
from adk_memory.stores.sqlite.store import SqliteStore
from tests.helpers import FixedClock


@pytest.fixture(autouse=True)
def _own_user_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test gets its own cache and data dirs: nothing a test runs (the CLI's model
    cache, the default store) writes into the real home. A test may set its own."""
    root = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CACHE_HOME", str(root / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(root / "data"))


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


@pytest.fixture
async def engine(tmp_path: Path, clock: FixedClock) -> AsyncIterator[MemoryEngine]:
    store = await SqliteStore(tmp_path / "memory.db").open()
    eng = build_engine(store, clock=clock)
    yield eng
    await eng.close()
