"""No tracebacks, ever: every command given bad input fails with one clear line."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from adk_memory.cli.main import COMMANDS, cli

SCOPE = ["--app", "a", "--user", "u"]


def _fails_cleanly(result: Result, *expected: str) -> str:
    output = result.output
    assert result.exit_code not in (0, None), output
    assert "Traceback" not in output
    # click's own exits only: anything else escaping a command would be a traceback.
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    for text in expected:
        assert text in output, output
    return output


@pytest.fixture
def store(tmp_path: Path) -> str:
    return f"adkmem+sqlite:///{tmp_path}/bad.db"


def _line(**fields: object) -> str:
    event = {"id": "e", "author": "user", "text": "I like tea.", "timestamp": "2026-01-01"}
    return json.dumps({**event, **fields})


BAD_INVOCATIONS: list[tuple[list[str], str]] = [
    (["remember", "--app", "", "--user", "u", "hi"], "invalid app_name"),
    (["recall", "--app", "", "--user", "u", "hi"], "invalid app_name"),
    (["list", "--app", "", "--user", "u"], "invalid app_name"),
    (["gc", "--app", "", "--user", "u"], "invalid app_name"),
    (["consolidate", "--app", "", "--user", "u"], "invalid app_name"),
    (["restore", "--app", "", "--user", "u", "abcd"], "invalid app_name"),
    (["forget", "--app", "", "--user", "u", "--all"], "invalid app_name"),
    (["gc", "--app", "a"], "give both --app and --user"),
    (["remember", *SCOPE, "x" * 20_001], "limit"),
    (["remember", *SCOPE, "--at", "soon", "x"], "invalid timestamp"),
    (["recall", *SCOPE, "--top-k", "0", "x"], "--top-k"),
    (["history", "zz"], "no memory"),
    (["forget", "0123456789abcdef"], "no memory"),
    (["restore", *SCOPE, "0123456789abcdef"], "no memory"),
    (["forget", *SCOPE, "--dry-run", "abcd"], "--dry-run goes with --all"),
    (["ingest", *SCOPE, "/nonexistent.jsonl"], "does not exist"),
    (["nonsense"], "No such command"),
]


@pytest.mark.parametrize(("args", "expected"), BAD_INVOCATIONS, ids=lambda v: str(v)[:40])
def test_bad_arguments_give_one_line(store: str, args: list[str], expected: str) -> None:
    _fails_cleanly(CliRunner().invoke(cli, ["--store", store, *args]), expected)


def test_every_command_is_covered_by_a_bad_input_case() -> None:
    covered = {args[0] for args, _ in BAD_INVOCATIONS}
    # demo has no input; emulator and inspect are served (tested below and in their suites).
    assert set(COMMANDS) - covered <= {"demo", "emulator", "inspect"}


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        ([_line(timestamp="not a time")], ["bad.jsonl:1", "timestamp"]),
        ([_line(), _line(timestamp=True)], ["bad.jsonl:2", "timestamp"]),
        ([_line(id=f"e{n}") for n in range(40)] + [_line(text="\\ud800 lone")], ["bad.jsonl:41"]),
        (["[" * 100_000 + "]" * 100_000], ["bad.jsonl:1", "nested too deeply"]),
        ([_line(text={"nested": [1, 2]})], ["bad.jsonl:1", "text"]),
    ],
    ids=["bad-time", "bool-time", "lone-surrogate-line-41", "deep-json", "text-object"],
)
def test_a_bad_jsonl_line_is_named_and_nothing_is_written(
    store: str, tmp_path: Path, lines: list[str], expected: list[str]
) -> None:
    path = tmp_path / "bad.jsonl"
    # json.dumps escapes "\\ud800" to a literal backslash: undo it to get the JSON escape.
    path.write_text("\n".join(lines).replace("\\\\ud800", "\\ud800"), encoding="utf-8")
    output = _fails_cleanly(
        CliRunner().invoke(cli, ["--store", store, "ingest", *SCOPE, str(path)])
    )
    for text in expected:
        assert text in output
    assert len(output.strip().splitlines()) == 1, output  # one line, not a pydantic dump
    listed = CliRunner().invoke(cli, ["--store", store, "list", *SCOPE, "--json"])
    assert json.loads(listed.stdout) == []


def test_unwritable_store_path_says_so_and_suggests_a_fix(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    store = f"adkmem+sqlite:///{blocker}/sub/memory.db"  # a directory under a regular file
    output = _fails_cleanly(CliRunner().invoke(cli, ["--store", store, "list", *SCOPE]))
    assert "cannot open" in output and "Not a directory" in output
    assert "at a store you can write, e.g. --store adkmem+sqlite:///" in output


def test_a_store_file_that_is_not_a_database_is_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    result = CliRunner().invoke(cli, ["--store", f"adkmem+sqlite:///{junk}", "list", *SCOPE])
    _fails_cleanly(result, "cannot open memory database")


def test_invalid_utf8_in_argv_is_a_clean_error(tmp_path: Path) -> None:
    env = {**os.environ, "ADK_MEMORY_STORE": f"adkmem+sqlite:///{tmp_path}/argv.db"}
    done = subprocess.run(
        [sys.executable, "-m", "adk_memory.cli.main", "remember", *SCOPE, b"caf\xe9"],
        capture_output=True,
        env=env,
        timeout=120,
    )
    output = (done.stdout + done.stderr).decode("utf-8", "replace")
    assert done.returncode == 2 and "Traceback" not in output
    assert "not valid UTF-8" in output


def test_emulator_port_in_use_is_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["emulator", "--port", str(port)])
    _fails_cleanly(result, f"port {port}", "already in use")


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"engines": 5}', "[" * 100_000])
def test_emulator_corrupt_data_file_is_one_line(tmp_path: Path, content: str) -> None:
    data = tmp_path / "emulator.json"
    data.write_text(content)
    # A subprocess with a timeout: an emulator that accepted the file would serve forever.
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "adk_memory.cli.main",
            "emulator",
            "--port",
            "0",
            "--data",
            str(data),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stdout == ""  # no export lines for a server that never listened
    [line] = done.stderr.strip().splitlines()
    assert "cannot load emulator data" in line and str(data) in line
    assert data.read_text() == content  # left as it was, not saved over


def test_errors_no_command_expects_still_become_one_line() -> None:
    from adk_memory.cli.errors import one_line

    cases = {
        RecursionError("maximum recursion depth exceeded"): "nested too deeply",
        OSError(28, "No space left on device", "/data/memory.db"): "No space left",
        RuntimeError("boom"): "unexpected RuntimeError: boom (set ADK_MEMORY_DEBUG=1",
    }
    for exc, expected in cases.items():
        message = one_line(exc).message
        assert expected in message and "\n" not in message
