from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adk_memory.adk.service import AdkMemoryService


@pytest.fixture
def store_uri(tmp_path: Path) -> str:
    return f"adkmem+sqlite://{tmp_path.as_posix()}/m.db"


@pytest.fixture
async def service(store_uri: str) -> AsyncIterator[AdkMemoryService]:
    svc = AdkMemoryService(store_uri=store_uri)
    yield svc
    await svc.close()
