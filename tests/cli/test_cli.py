"""The CLI contract, through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from adk_memory.cli.main import cli


@pytest.fixture
def run(tmp_path: Path):
    store = f"adkmem+sqlite:///{tmp_path}/cli.db"
    runner = CliRunner()

    def invoke(*args: str, ok: bool = True):
        result = runner.invoke(cli, ["--store", store, *args], catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, result.output
        return result

    return invoke


def _json(result) -> object:
    return json.loads(result.stdout)


def test_remember_recall_list_history_forget(run) -> None:
    scope = ["--app", "shop", "--user", "alice"]
    first = _json(
        run("remember", *scope, "--at", "2026-01-01T00:00:00Z", "--json", "I live in Berlin.")
    )
    assert first["decision"] == "ADD" and first["superseded"] == []
    second = _json(
        run("remember", *scope, "--at", "2026-03-01T00:00:00Z", "--json", "I moved to Munich.")
    )
    assert second == {"decision": "REPLACE", "id": second["id"], "superseded": [first["id"]]}
    again = _json(run("remember", *scope, "--json", "I live in Munich."))
    assert again["decision"] == "NOOP" and again["id"] == second["id"]

    recalled = _json(
        run(
            "recall",
            *scope,
            "--now",
            "2026-03-02T00:00:00Z",
            "--top-k",
            "5",
            "--json",
            "where does alice live",
        )
    )
    assert isinstance(recalled, list) and recalled[0]["id"] == second["id"]
    keys = {
        "id",
        "text",
        "score",
        "similarity",
        "decay",
        "confidence",
        "valid_at",
        "status",
        "source",
    }
    assert keys <= set(recalled[0])
    assert set(recalled[0]["source"]) == {"session_id", "event_ids"}
    assert all(r["status"] == "active" for r in recalled)
    scores = [r["score"] for r in recalled]
    assert scores == sorted(scores, reverse=True)

    listed = _json(run("list", *scope, "--status", "superseded", "--json"))
    assert [r["id"] for r in listed] == [first["id"]]
    chain = _json(run("history", first["id"], "--json"))
    assert [r["id"] for r in chain] == [first["id"], second["id"]]
    assert _json(run("forget", second["id"], "--json")) == {"deleted": second["id"]}
    assert "no memory" in run("history", second["id"], ok=False).output


def test_recall_queries_file_prints_one_list_per_query(run, tmp_path: Path) -> None:
    scope = ["--app", "a", "--user", "u"]
    run("remember", *scope, "I play the cello.")
    run("remember", *scope, "I'm allergic to peanuts.")
    queries = tmp_path / "q.txt"
    queries.write_text("which instrument?\n\nany allergies?\n")
    lists = _json(run("recall", *scope, "--queries", str(queries), "--json"))
    assert len(lists) == 2
    assert "cello" in lists[0][0]["text"] and "peanuts" in lists[1][0]["text"]


def test_ingest_jsonl_and_reingest(run, tmp_path: Path) -> None:
    events = tmp_path / "events.jsonl"
    lines = [
        {
            "id": "e1",
            "author": "user",
            "text": "I live in Berlin.",
            "timestamp": "2026-01-01T10:00:00Z",
            "session_id": "s1",
        },
        {
            "id": "e2",
            "author": "assistant",
            "text": "Nice city!",
            "timestamp": "2026-01-01T10:00:05Z",
            "session_id": "s1",
        },
        {
            "id": "e3",
            "author": "user",
            "text": "I mostly write Java.",
            "timestamp": "2026-01-01T10:01:00Z",
            "session_id": "s1",
        },
    ]
    events.write_text("\n".join(json.dumps(line) for line in lines))
    scope = ["--app", "a", "--user", "u"]
    result = _json(run("ingest", *scope, "--json", str(events)))
    assert result["events_ingested"] == 3
    assert [d["decision"] for d in result["decisions"]] == ["ADD", "ADD"]
    again = _json(run("ingest", *scope, "--json", str(events)))
    assert again["events_ingested"] == 0 and again["events_skipped"] == 3
    table = run("list", *scope).output
    assert "lives_in=Berlin" in table


def test_ingest_adk_session_json(run, tmp_path: Path) -> None:
    from google.adk.events.event import Event
    from google.adk.sessions.session import Session
    from google.genai import types

    session = Session(
        id="sess-1",
        app_name="a",
        user_id="u",
        events=[
            Event(
                author="user",
                timestamp=1767261600.0,
                content=types.Content(role="user", parts=[types.Part(text="I'm vegan.")]),
            ),
        ],
    )
    path = tmp_path / "session.json"
    path.write_text(session.model_dump_json())
    result = _json(run("ingest", "--app", "a", "--user", "u", "--json", str(path)))
    assert result["events_ingested"] == 1
    [record] = _json(run("list", "--app", "a", "--user", "u", "--json"))
    assert record["predicate"] == "diet" and record["source"]["session_id"] == "sess-1"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty"),
        (b"\x00\x01binary", "binary"),
        (
            b'{"id": "e1", "author": "user", "text": "hi", "timestamp": "2026-01-01"}\nnot json\n',
            ":3: invalid JSON",
        ),
        (
            b'{"id": "e1", "author": "user", "text": "hi", "timestamp": "yesterday"}\n',
            "invalid timestamp",
        ),
        (b'{"id": "e1", "author": "user", "timestamp": "2026-01-01"}\n', "missing text"),
        (b'{"id": "e1", "author": "user", "text": "  ", "timestamp": "2026-01-01"}\n', "empty"),
    ],
)
def test_bad_ingest_input_fails_cleanly_and_writes_nothing(
    run, tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(
        b'{"id": "ok", "author": "user", "text": "I live in Oslo.", "timestamp": "2026-01-01"}\n'
        + content
        if content.startswith(b"{")
        else content
    )
    result = run("ingest", "--app", "a", "--user", "u", str(path), ok=False)
    assert result.exit_code != 0
    assert message in result.output
    assert _json(run("list", "--app", "a", "--user", "u", "--json")) == []


def test_bad_arguments_fail_with_messages(run) -> None:
    scope = ["--app", "a", "--user", "u"]
    assert "empty" in run("remember", *scope, "   ", ok=False).output
    assert "invalid timestamp" in run("remember", *scope, "--at", "soon", "x", ok=False).output
    assert "either QUERY" in run("recall", *scope, ok=False).output
    empty_app = run("remember", "--app", "", "--user", "u", "hi", ok=False)
    assert empty_app.exit_code != 0 and "invalid app_name" in empty_app.output
    result = CliRunner().invoke(cli, ["--store", "not-a-uri", "list", *scope])
    assert result.exit_code != 0 and "not a store URI" in result.output
    result = CliRunner().invoke(cli, ["--store", "redis://x", "list", *scope])
    assert result.exit_code != 0 and "unsupported scheme" in result.output


def test_every_command_has_help_with_an_example() -> None:
    runner = CliRunner()
    for name in ("remember", "recall", "ingest", "list", "history", "forget", "demo"):
        result = runner.invoke(cli, [name, "--help"])
        assert result.exit_code == 0 and "Example" in result.output, name


def test_tables_show_stored_text_as_stored(run) -> None:
    scope = ["--app", "shop", "--user", "alice"]
    run("remember", *scope, "I love :pizza: and [b]tea[/b]")  # words short enough not to fold
    listed = run("list", *scope).stdout
    recalled = run("recall", *scope, "pizza").stdout
    for shown in (listed, recalled):
        assert ":pizza:" in shown and "[b]tea[/b]" in shown and "🍕" not in shown


def test_recall_shows_the_memory_a_replacement_answers_through(run) -> None:
    scope = ["--app", "a", "--user", "u"]
    at = ["--at", "2026-01-01T00:00:00Z"]
    old = _json(run("remember", *scope, *at, "--json", "I keep my notes in Evernote."))
    at = ["--at", "2026-03-01T00:00:00Z"]
    new = _json(run("remember", *scope, *at, "--json", "I switched from Evernote to Obsidian."))
    assert new["superseded"] == [old["id"]]

    recalled = _json(run("recall", *scope, "--json", "where do I keep my notes"))

    assert recalled[0]["id"] == new["id"] and recalled[0]["matched_via"] == old["id"]
    assert old["id"] not in {r["id"] for r in recalled}
    assert all(r["matched_via"] is None for r in recalled[1:])
    table = run("recall", *scope, "where do I keep my notes").stdout
    assert "matched via" in " ".join(table.split())
