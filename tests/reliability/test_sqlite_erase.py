"""Erasing a user through the engine on sqlite: nothing of theirs is left in the files."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from adk_memory.factory import build_engine
from adk_memory.model import InputEvent, Scope
from adk_memory.stores.sqlite.store import SqliteStore
from tests.helpers import T0

ALICE = Scope(app_name="app", user_id="alice-erase")
BOB = Scope(app_name="app", user_id="bob-erase")


def _bytes(path: Path) -> bytes:
    out = b""
    for sibling in path.parent.rglob("*"):
        if sibling.is_file():
            out += sibling.read_bytes() + sibling.name.encode()
    return out


async def test_engine_erase_leaves_no_text_marker_or_lock_of_the_user(tmp_path: Path) -> None:
    path = tmp_path / "db" / "memory.db"
    engine = build_engine(await SqliteStore(path).open())
    try:
        events = [
            InputEvent(
                id=f"alice-ev-{i}", author="user", text=text, timestamp=T0 + timedelta(minutes=i)
            )
            for i, text in enumerate(
                [
                    "I live in Zanzibarquuxville.",
                    "I moved to Quuxborough-on-Sea.",
                    "My cat is called Wobblefritz.",
                ]
            )
        ]
        await engine.ingest(ALICE, events)
        await engine.remember(ALICE, "I collect Wobblefritz teapots.")
        await engine.remember(BOB, "I live in Oslo.")
        assert len((await engine.list(ALICE)).records) >= 3
        before = _bytes(path)
        assert b"Wobblefritz" in before and b"alice-ev-0" in before

        erased = await engine.erase(ALICE)

        assert erased >= 3
        after = _bytes(path)
        for needle in (b"Zanzibarquuxville", b"Quuxborough", b"Wobblefritz", b"wobblefritz"):
            assert needle not in after, needle
        assert b"alice-ev-" not in after  # event markers are gone too
        assert b"alice-erase" not in after  # nor the user id
        assert (await engine.list(ALICE)).records == []
        assert await engine.recall(ALICE, "Where do I live?") == []
        assert [m.record.text for m in await engine.recall(BOB, "Where do I live?")]
        # Re-ingesting the same events after an erase stores them again (markers are gone).
        result = await engine.ingest(ALICE, events[:1])
        assert result.events_ingested == 1
    finally:
        await engine.close()
