"""`adk-memory demo` end to end (offline), checked on what it prints and stores."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from adk_memory.cli.demo import APP, USER, run_demo
from adk_memory.factory import build_engine
from adk_memory.model import Scope, Status
from adk_memory.stores.sqlite.store import SqliteStore


async def test_demo_replays_updates_and_supersedes(tmp_path: Path) -> None:
    console = Console(record=True, width=200)
    report = await run_demo(tmp_path, console=console)
    text = console.export_text()
    # Memories keep the person's own words; the slot only annotates them.
    assert "User: I mostly write Java at work. → User: Big news: we migrated everything" in text
    assert "User: I live in Berlin → User: I moved to Munich last month." in text
    assert (
        "User: I like my whiskey neat. → User: These days I take my whiskey with a splash of "
        "water. → User: I take my whiskey on the rocks now." in text
    )
    # An update no slot pattern names: what it displaces makes it one.
    assert "User: I drive a VW Golf to work. → User: Traded in the Golf for an e-bike" in text
    assert "score = sim · decay · confidence" in text
    # An update no rule reads: nothing superseded, yet the new office answers first and the
    # old one is still recalled, marked earlier, last.
    office = report["recall"]["Where is Sam's office?"]
    assert "Isar" in office[0]["text"] and office[0]["latest"] is True
    assert "Alexanderplatz" in office[-1]["text"] and office[-1]["latest"] is False
    assert "memories injected" in text

    engine = build_engine(await SqliteStore(tmp_path / "memory.db").open())
    try:
        scope = Scope(app_name=APP, user_id=USER)
        active = (await engine.list(scope, statuses=[Status.ACTIVE])).records
        assert not any("Java" in r.text and "Go" not in r.text for r in active)
        assert not any("Golf" in r.text and "e-bike" not in r.text for r in active)
        assert {r.object for r in active if r.predicate == "allergic_to"} == {"peanuts", "cats"}
        [whiskey] = [r for r in active if r.predicate == "prefers:whiskey"]
        assert whiskey.object == "on the rocks"
    finally:
        await engine.close()
