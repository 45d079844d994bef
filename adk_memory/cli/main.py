"""`adk-memory`: the command line over the engine. `main` is the console script.

Commands are loaded on first use (`COMMANDS` names the module of each), so `--help` and a
sqlite `remember` import only what they need: no ADK, google-genai or emulator.
Every command takes `--store URI` (before or after its name) or `ADK_MEMORY_STORE`, reads the
nearest `.env` like `adk` does, prints a readable table (or `--json`), and turns bad input
into a one-line message and a non-zero exit.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from adk_memory.cli.errors import debugging, one_line
from adk_memory.cli.options import store_option

if TYPE_CHECKING:
    from adk_memory.cli.engine import OneShot

#: name -> (module:attribute, the short help `adk-memory --help` lists without importing it).
#: tests/cli check each line against the first line of the command's own docstring.
COMMANDS: dict[str, tuple[str, str]] = {
    "remember": (
        "adk_memory.cli.memories:remember",
        "Remember one fact, reconciled against what is known (ADD / REPLACE / NOOP).",
    ),
    "recall": (
        "adk_memory.cli.memories:recall",
        "Recall the active memories that best answer a query, with the score breakdown.",
    ),
    "ingest": (
        "adk_memory.cli.memories:ingest",
        "Ingest conversation events from a JSONL file or an ADK session JSON.",
    ),
    "list": (
        "adk_memory.cli.memories:list_memories",
        "List the memories of a scope, oldest first.",
    ),
    "history": (
        "adk_memory.cli.memories:history",
        "Show the supersession chain through a memory, oldest first.",
    ),
    "forget": (
        "adk_memory.cli.memories:forget",
        "Delete one memory for good, or erase a user with --all.",
    ),
    "gc": (
        "adk_memory.cli.lifecycle:gc_command",
        "Archive faded facts nobody recalls, and old superseded facts (restorable).",
    ),
    "consolidate": (
        "adk_memory.cli.lifecycle:consolidate_command",
        "Merge clusters of related facts into summaries that link their (archived) sources.",
    ),
    "restore": (
        "adk_memory.cli.lifecycle:restore_command",
        "Bring archived memories back, or a Memory Bank memory's earlier value.",
    ),
    "demo": (
        "adk_memory.cli.demo:demo",
        "Replay a multi-session conversation through an ADK agent with memory, offline.",
    ),
    "emulator": (
        "adk_memory.cli.emulator:emulator",
        "Serve the offline Memory Bank, Vector Search and Gemini emulator.",
    ),
    "inspect": (
        "adk_memory.cli.inspect:inspect",
        "Browse, explain and correct the memories of a store in a web page.",
    ),
}


#: Commands that serve or converse until stopped: they keep the library's defaults.
LONG_RUNNING = frozenset({"demo", "emulator", "inspect"})
#: Container objects a one-shot process allocates between two cyclic garbage collections
#: (Python's default: 700). Start-up creates ~75,000 objects that live until exit (modules,
#: classes, pydantic validators) and the default scans them over and over: ~0.04 s of a
#: `recall`'s CPU, for no garbage. Collections still run, so a long `ingest` stays bounded.
ONE_SHOT_GC_THRESHOLD = 100_000


def _check_text(args: Sequence[str]) -> None:
    # Python decodes argv bytes that are not UTF-8 into lone surrogates; they would fail
    # much later (in sqlite, in JSON, in the terminal), so refuse them where they come in.
    for position, arg in enumerate(args, start=1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            raise click.UsageError(
                f"argument {position} is not valid UTF-8: {arg.encode('utf-8', 'replace')!r}"
            ) from None


class AdkMemoryGroup(click.Group):
    """A group that loads its commands lazily and never lets a traceback through."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module_name, _, attribute = entry[0].partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, short) for name, (_, short) in COMMANDS.items()])

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        _check_text(args)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except Exception as exc:
            if debugging():
                raise
            raise one_line(exc) from exc


@click.group(cls=AdkMemoryGroup, context_settings={"help_option_names": ["-h", "--help"]})
@store_option
def cli() -> None:
    """Long-term memory for Google ADK agents.

    \b
    Example:
      adk-memory remember --app shop --user alice "I moved to Munich"
      adk-memory recall --app shop --user alice "where does alice live?"
      adk-memory --store adkmem+sqlite:///./memory.db list --app shop --user alice
    """
    from adk_memory.cli.envfile import load_env_file

    load_env_file()


def command_name(args: Sequence[str]) -> str | None:
    """The subcommand `args` name (the first argument that is not a group option)."""
    value_follows = False
    for arg in args:
        if value_follows:
            value_follows = False
        elif arg == "--store":
            value_follows = True
        elif not arg.startswith("-"):
            return arg
    return None


def one_shot(args: Sequence[str]) -> OneShot | None:
    """How this process runs when it runs one command of `args` and exits (None: it serves).

    Such a process spends most of its CPU starting up, so it starts lean: numpy's BLAS
    starts one thread instead of a pool (set before numpy loads; a user's own setting
    wins; a small store's vectors are one matrix-vector product), and the embedding model
    is loaded from an optimised copy in the user cache dir (see `OneShot`).
    """
    name = command_name(args)
    if name not in COMMANDS or name in LONG_RUNNING:
        return None
    import platformdirs

    from adk_memory.cli.engine import OneShot

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    cache = platformdirs.user_cache_dir("adk-memory", appauthor=False)
    return OneShot(model_cache=Path(cache) / "models")


def _exit_now(code: int) -> NoReturn:
    """Ends a one-shot process once its command is done: output flushed, then `os._exit`.

    The engine is closed and the output written by then; what a normal exit would still do
    is tear the interpreter down object by object (the embedding model's buffers, every
    module): ~0.15 s of CPU per command, for nothing. A write error on flushing (a closed
    pipe) exits 120, as Python does.
    """
    import logging

    logging.shutdown()  # what atexit would have done for log handlers
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe, a closed stream
            code = code or 120
    os._exit(code)


def _exit_code(exc: SystemExit) -> int:
    """The status `sys.exit(exc.code)` exits with (a message: printed, status 1)."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    print(exc.code, file=sys.stderr)
    return 1


def main() -> None:
    mode = one_shot(sys.argv[1:])
    if mode is None:
        cli(prog_name="adk-memory", obj=None)
        return
    # Here, not in `one_shot`: these change the whole process, so only the console
    # script's own process may make them (not a test or a program that calls `one_shot`).
    gc.set_threshold(ONE_SHOT_GC_THRESHOLD)
    try:
        cli(prog_name="adk-memory", obj=mode)
    except SystemExit as exc:  # how click ends every run, success included
        _exit_now(_exit_code(exc))
    _exit_now(0)


if __name__ == "__main__":
    main()
