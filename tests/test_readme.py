"""The README is exactly right: its library snippet runs as written, its Python blocks parse,
and every `adk-memory` command line it shows names real commands and options."""

from __future__ import annotations

import ast
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest

from adk_memory.cli.main import COMMANDS, cli

README = Path(__file__).resolve().parents[1] / "README.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _blocks(language: str) -> list[str]:
    return [body for lang, body in FENCE.findall(README.read_text("utf-8")) if lang == language]


def test_every_python_block_parses() -> None:
    blocks = _blocks("python")
    assert blocks
    for block in blocks:
        ast.parse(block)


def test_the_library_snippet_runs_as_written(tmp_path: Path) -> None:
    [snippet] = [b for b in _blocks("python") if "open_engine" in b]
    env = {
        **os.environ,
        "ADK_MEMORY_LLM": "local",
        "PYTHONPATH": str(README.parent),
    }
    done = subprocess.run(
        [sys.executable, "-c", snippet],
        cwd=tmp_path,  # the snippet's ./memory.db lands here
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert "Munich" in lines[0]  # the current home ranks first
    assert lines[-2:] == ["superseded I live in Berlin.", "active I moved to Munich."]
    assert (tmp_path / "memory.db").exists()


def _command_lines() -> list[str]:
    lines: list[str] = []
    for block in _blocks("sh"):
        for raw in block.splitlines():
            for part in raw.split(" ; "):
                text = part.split("  #", 1)[0].strip()
                if text.startswith("adk-memory"):
                    lines.append(text)
    return lines


def _options(command: click.Command) -> set[str]:
    names = {"--help", "-h"}
    for param in command.params:
        names.update(param.opts)
    return names


@pytest.mark.parametrize("line", _command_lines())
def test_every_cli_example_names_a_real_command_and_its_options(line: str) -> None:
    # Drop optional parts shown as [--flag value] before splitting.
    words = shlex.split(re.sub(r"\[[^\]]*\]", "", line))[1:]
    group_options = _options(cli)
    while words and words[0] in group_options:
        words = words[2:]
    name = words[0]
    assert name in COMMANDS, f"{name!r} is not a command"
    command = cli.get_command(click.Context(cli), name)
    assert command is not None
    known = _options(command)
    for word in words[1:]:
        if word.startswith("--"):
            assert word.split("=", 1)[0] in known, f"{name} has no option {word}"
