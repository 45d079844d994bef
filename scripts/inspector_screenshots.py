"""Screenshots of every inspector page for docs/inspector.md, from a freshly seeded store.

Seeds a temporary sqlite store through the engine (two sessions that update where the user
lives, a third whose hiking stories consolidation merges), serves it with `adk-memory inspect`
and photographs each page in Debian's Chromium.

    .venv/bin/python scripts/inspector_screenshots.py [--out docs/img]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from adk_memory.factory import build_engine
from adk_memory.lifecycle import ConsolidationConfig, consolidate
from adk_memory.model import InputEvent, Scope
from adk_memory.stores.sqlite.store import SqliteStore

SCOPE = Scope(app_name="travel_agent", user_id="alice")
T0 = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
NOW = T0 + timedelta(days=120)
SESSIONS: list[tuple[str, float, list[str]]] = [
    ("s-0301", 0, ["Hi, I'm Alice.", "I live in Berlin.", "I am allergic to peanuts."]),
    ("s-0315", 13, ["I prefer window seats on long flights.", "I work as a nurse."]),
    ("s-0402", 31, ["I moved to Munich last week.", "I usually fly with Lufthansa."]),
    (
        "s-0420",
        49,
        [
            "I went hiking in the Alps last weekend.",
            "We hiked up a mountain trail near Garmisch on Saturday.",
            "Hiking in the mountains is my favourite weekend activity.",
        ],
    ),
    ("s-0510", 69, ["I switched from Lufthansa to Condor."]),
]
OTHERS = [
    Scope(app_name="travel_agent", user_id="bob"),
    Scope(app_name="support_bot", user_id="carol"),
]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


async def seed(path: Path) -> dict[str, str]:
    """Writes the example store; returns the ids the screenshots open."""
    engine = build_engine(await SqliteStore(path).open(), clock=lambda: NOW)
    ids: dict[str, str] = {}
    try:
        n = 0
        for session, days, texts in SESSIONS:
            events = []
            for i, text in enumerate(texts):
                n += 1
                at = T0 + timedelta(days=days, minutes=i)
                events.append(
                    InputEvent(
                        id=f"ev-{n:02d}",
                        author="alice",
                        text=text,
                        timestamp=at,
                        session_id=session,
                        role="user",
                    )
                )
            result = await engine.ingest(SCOPE, events)
            for outcome in result.outcomes:
                if "Munich" in outcome.text:
                    ids["update"] = outcome.id
        for i, scope in enumerate(OTHERS):
            text = ["I live in Paris.", "My order number is 4411."][i]
            event = InputEvent(
                id=f"ev-o{i}", author=scope.user_id, text=text, timestamp=T0, role="user"
            )
            await engine.ingest(scope, [event])
        report = await consolidate(
            engine, SCOPE, ConsolidationConfig(similarity=0.45, min_cluster_size=3), now=NOW
        )
        ids["summary"] = report.scopes[0].clusters[0].summary_id
        # Stories told after that run: what the next consolidation would merge.
        later = [
            "I baked sourdough bread this morning.",
            "My sourdough bread came out great.",
            "I bake sourdough bread every Sunday.",
        ]
        await engine.ingest(
            SCOPE,
            [
                InputEvent(
                    id=f"ev-b{i}",
                    author="alice",
                    text=text,
                    timestamp=T0 + timedelta(days=95, hours=i),
                    session_id="s-0605",
                    role="user",
                )
                for i, text in enumerate(later)
            ],
        )
    finally:
        await engine.close()
    return ids


def shoot(url: str, ids: dict[str, str], out: Path, chromium: str) -> list[Path]:
    from playwright.sync_api import sync_playwright

    base = url.split("?")[0]
    scope = f"app={SCOPE.app_name}&user={SCOPE.user_id}"
    now = NOW.isoformat().replace("+00:00", "Z")
    query = "Which%20city%20do%20I%20live%20in%20now%3F"
    shots = [
        ("inspector-scopes.png", url),
        ("inspector-memories.png", f"{base}scope?{scope}"),
        ("inspector-history.png", f"{base}memory/{ids['update']}?{scope}"),
        ("inspector-summary.png", f"{base}memory/{ids['summary']}?{scope}"),
        ("inspector-recall.png", f"{base}recall?{scope}&q={query}&now={now}"),
        ("inspector-lifecycle.png", f"{base}lifecycle?{scope}&now={now}&similarity=0.45"),
    ]
    written = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800}, device_scale_factor=1)
        for name, target in shots:
            page.goto(target)
            page.wait_for_load_state("networkidle")
            path = out / name
            page.screenshot(path=str(path), full_page=True)
            written.append(path)
        browser.close()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/img"))
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("no chromium on PATH: apt-get install -y chromium")
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "memory.db"
        ids = asyncio.run(seed(db))
        command = [
            str(Path(sys.executable).with_name("adk-memory")),
            "--store",
            f"adkmem+sqlite://{db.as_posix()}",
            "inspect",
            "--port",
            "0",
        ]
        env = {**os.environ, "ADK_MEMORY_LLM": "local"}
        server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
        try:
            assert server.stdout is not None
            url = server.stdout.readline().strip()
            for path in shoot(url, ids, args.out, chromium):
                print(path)
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
