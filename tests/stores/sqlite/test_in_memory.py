"""`SqliteStore(":memory:")`: a throwaway store that creates no file and still searches
lexically, locks and erases."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from adk_memory.model import Scope
from adk_memory.stores.sqlite.store import SqliteStore
from tests.helpers import make_record, vector


async def test_in_memory_store_searches_locks_and_erases_without_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    store = await SqliteStore(":memory:").open()
    try:
        scope = Scope(app_name="a", user_id="u")
        await store.upsert([make_record(scope, "User plays the cello.")])
        [hit] = await store.search(scope, vector=vector("cello"), query="cello", k=3)
        assert hit.lexical == 1.0
        async with store.reconcile_lock(scope):
            pass
        assert await store.erase(scope) == 1
        assert await store.search(scope, vector=vector("cello"), query="cello", k=3) == []
    finally:
        await store.close()
    assert os.listdir(tmp_path) == []
