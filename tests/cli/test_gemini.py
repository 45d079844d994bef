"""Every CLI command, unchanged, with Gemini selected and google-genai pointed at the emulator."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from adk_memory.cli.main import cli
from adk_memory.testing.emulator import EmulatorServer
from tests.support.gemini import Admin

TOPICS = [
    "I live in Berlin.",
    "I mostly write Java at work.",
    "I like my whiskey neat.",
    "I'm allergic to peanuts.",
    "I play the cello on weekends.",
    "We migrated everything from Java to Go.",
    "I like tea in the afternoon.",
    "I moved to Munich last month.",
    "My favorite color is green.",
    "I take my whiskey with a splash of water now.",
]


def _session_file(path: Path) -> Path:
    start = datetime(2026, 2, 1, 9, 0, tzinfo=UTC)
    lines = []
    for i, text in enumerate(TOPICS):
        for j, (author, said) in enumerate((("user", text), ("assistant", "Got it, thanks!"))):
            lines.append(
                {
                    "id": f"e{i}-{j}",
                    "author": author,
                    "text": said,
                    "session_id": "s1",
                    "timestamp": (start + timedelta(minutes=2 * i + j)).isoformat(),
                }
            )
    path.write_text("\n".join(json.dumps(line) for line in lines))
    return path


@pytest.fixture
def gemini_cli(server: EmulatorServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    for var in ("GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_CLOUD_PROJECT", "GEMINI_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    env = {
        "ADK_MEMORY_LLM": "gemini",
        "GOOGLE_API_KEY": "fake",
        "GOOGLE_GEMINI_BASE_URL": server.base_url,
        "ADK_MEMORY_STORE": f"adkmem+sqlite:///{tmp_path}/gemini.db",
    }
    runner = CliRunner(env=env)

    def invoke(*args: str) -> object:
        result = runner.invoke(cli, list(args), catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    invoke.runner = runner  # type: ignore[attr-defined]
    return invoke


def test_twenty_turn_ingest_makes_at_most_two_calls(
    gemini_cli, admin: Admin, tmp_path: Path
) -> None:
    scope = ["--app", "a", "--user", "u"]
    report = gemini_cli("ingest", *scope, "--json", str(_session_file(tmp_path / "s.jsonl")))
    assert report["events_ingested"] == 20
    assert 1 <= report["model_calls"] <= 2 and report["tokens"] > 0
    assert admin.stats()["generate_requests"] <= 2
    decisions = {d["text"]: d["decision"] for d in report["decisions"]}
    assert "REPLACE" in decisions.values()

    recalled = gemini_cli("recall", *scope, "--json", "which programming language?")
    assert "Go" in recalled[0]["text"]
    listed = gemini_cli("list", *scope, "--status", "superseded", "--json")
    assert any("Java" in r["text"] for r in listed)
    chain = gemini_cli("history", listed[0]["id"], "--json")
    assert len(chain) >= 2
    outcome = gemini_cli("remember", *scope, "--json", "I'm allergic to cats.")
    assert outcome["decision"] == "ADD"
    assert gemini_cli("forget", outcome["id"], "--json") == {"deleted": outcome["id"]}
    again = gemini_cli("ingest", *scope, "--json", str(tmp_path / "s.jsonl"))
    assert again["events_ingested"] == 0 and again["model_calls"] == 0


def test_a_failing_backend_says_it_is_retrying_on_stderr(gemini_cli, admin: Admin) -> None:
    admin.faults(fail_statuses=[503, 503])
    result = gemini_cli.runner.invoke(
        cli, ["remember", "--app", "a", "--user", "u", "--json", "I live in Oslo."]
    )
    assert result.exit_code == 0, result.output
    assert "retrying (2 of" in result.stderr and "retrying (3 of" in result.stderr
    assert json.loads(result.stdout)["decision"] == "ADD"
