from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adk_memory.adk.service import AdkMemoryService


@pytest.fixture(autouse=True)
def user_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's data directory (default outbox) points into the test's own directory."""
    data = tmp_path / "xdg-data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    return data


@pytest.fixture
def store_uri(tmp_path: Path) -> str:
    return f"adkmem+sqlite://{tmp_path.as_posix()}/m.db"


@pytest.fixture
async def service(store_uri: str) -> AsyncIterator[AdkMemoryService]:
    svc = AdkMemoryService(store_uri=store_uri)
    yield svc
    await svc.close()
