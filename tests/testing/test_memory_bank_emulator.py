"""The emulated Memory Bank's state, without HTTP: ingestion streams and their triggers, purge,
and the one atomic JSON save every emulator surface persists through."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest

from adk_memory.testing.emulator.memory_bank_state import MemoryBankState
from adk_memory.testing.emulator.persist import load_json, save_json_atomic
from adk_memory.testing.emulator.vector_search_state import VectorSearchState
from adk_memory.testing.emulator.wire import ApiError
from tests.helpers import FixedClock

SCOPE = {"app_name": "app", "user_id": "alice"}


def _embed(texts: Sequence[str]) -> np.ndarray:
    # Deterministic unit vectors: equal texts are identical, different ones nearly orthogonal.
    rows = []
    for text in texts:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
        row = np.random.default_rng(seed).standard_normal(64)
        rows.append(row / np.linalg.norm(row))
    return np.asarray(rows, dtype=np.float32)


def _event(event_id: str, text: str) -> dict[str, object]:
    return {"eventId": event_id, "content": {"role": "user", "parts": [{"text": text}]}}


async def _state(tmp_path: Path, clock: FixedClock) -> tuple[MemoryBankState, str]:
    state = MemoryBankState(_embed, data_path=tmp_path / "mb.json", clock=clock)
    await state.load()
    state.ensure_engine("p", "us-central1", "1", "test")
    return state, "1"


def _facts(state: MemoryBankState, engine_id: str) -> list[str]:
    return sorted(m["fact"] for m in state.memories[engine_id].values())


async def test_idle_duration_generates_lazily_once_the_stream_is_idle(tmp_path: Path) -> None:
    clock = FixedClock()
    state, engine = await _state(tmp_path, clock)
    body = {
        "scope": SCOPE,
        "streamId": "s",
        "directContentsSource": {"events": [_event("e1", "I like tea.")]},
        "generationTriggerConfig": {"generationRule": {"idleDuration": "60s"}},
    }
    await state.ingest_events(engine, None, body)
    await state.flush_due_streams(engine)
    assert _facts(state, engine) == []
    clock.now += timedelta(seconds=61)
    await state.flush_due_streams(engine)
    assert _facts(state, engine) == ["I like tea."]


async def test_pending_stream_events_survive_a_restart(tmp_path: Path) -> None:
    clock = FixedClock()
    state, engine = await _state(tmp_path, clock)
    rule = {"generationRule": {"eventCount": 2}}
    first = {"events": [_event("e1", "I own a cat.")]}
    await state.ingest_events(
        engine,
        None,
        {"scope": SCOPE, "directContentsSource": first, "generationTriggerConfig": rule},
    )
    again, _ = await _state(tmp_path, clock)
    second = {"events": [_event("e1", "I own a cat."), _event("e2", "I like jazz.")]}
    await again.ingest_events(engine, None, {"scope": SCOPE, "directContentsSource": second})
    assert _facts(again, engine) == ["I like jazz.", "I own a cat."]


async def test_bad_generation_rule_is_refused_before_buffering(tmp_path: Path) -> None:
    state, engine = await _state(tmp_path, FixedClock())
    with pytest.raises(ApiError) as info:
        await state.ingest_events(
            engine,
            None,
            {
                "scope": SCOPE,
                "directContentsSource": {"events": [_event("e1", "I like tea.")]},
                "generationTriggerConfig": {"generationRule": {"idleDuration": "soon"}},
            },
        )
    assert info.value.code == 400
    assert all(not s["events"] for s in state.streams.values())


async def test_scoped_purge_drops_memories_revisions_and_waiting_events(tmp_path: Path) -> None:
    state, engine = await _state(tmp_path, FixedClock())
    await state.create_memory(engine, None, {"fact": "Alice likes tea.", "scope": SCOPE}, "m1")
    bob = {"app_name": "app", "user_id": "bob"}
    await state.create_memory(engine, None, {"fact": "Bob likes tea.", "scope": bob}, "m2")
    await state.ingest_events(
        engine,
        None,
        {
            "scope": SCOPE,
            "directContentsSource": {"events": [_event("e1", "I like jazz.")]},
            "generationTriggerConfig": {"generationRule": {"eventCount": 5}},
        },
    )
    name = state.memories[engine]["m1"]["name"]
    assert state.revisions[name]
    op = state.purge(
        engine, None, {"filter": 'scope.app_name="app" AND scope.user_id="alice"', "force": True}
    )
    assert op["response"] == {"purgeCount": "1"}
    assert _facts(state, engine) == ["Bob likes tea."]
    assert name not in state.revisions
    assert state.streams == {}


def test_atomic_save_replaces_the_file_and_leaves_no_temporaries(tmp_path: Path) -> None:
    path = tmp_path / "state" / "data.json"
    save_json_atomic(path, {"a": 1})
    save_json_atomic(path, {"a": 2})
    assert load_json(path) == {"a": 2}
    with pytest.raises(TypeError):
        save_json_atomic(path, {"a": object()})
    assert json.loads(path.read_text()) == {"a": 2}  # the old file is intact
    assert os.listdir(path.parent) == ["data.json"]
    assert load_json(tmp_path / "missing.json") is None
    (tmp_path / "torn.json").write_text('{"a": ')
    with pytest.raises(RuntimeError, match="cannot read emulator data"):
        load_json(tmp_path / "torn.json")


async def test_both_surfaces_persist_through_the_one_save(tmp_path: Path) -> None:
    mb_path, vs_path = tmp_path / "mb.json", tmp_path / "vs.json"
    state, _ = await _state(tmp_path, FixedClock())
    vector_search = VectorSearchState(data_path=vs_path)
    vector_search.create_index(
        "projects/p/locations/us-central1",
        {"displayName": "i", "metadata": {"config": {"dimensions": 2}}, "indexUpdateMethod": 2},
        "type.googleapis.com/google.cloud.aiplatform.v1",
    )
    for path in (mb_path, vs_path):
        saved = load_json(path)
        assert isinstance(saved, dict) and saved
    assert "streams" in load_json(mb_path)  # type: ignore[operator]
    assert state.engines
