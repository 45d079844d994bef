"""Options every command shares, declared once: store, scope, `--json`, times, input text.

Option callbacks import the library lazily, so declaring a command costs nothing but click.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

_STORE_KEY = "adk_memory.store"


def _remember_store(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    # ctx.meta is shared by the group's and the subcommand's contexts, and the subcommand's
    # options are parsed last: `--store` after the subcommand wins over one before it.
    if value is not None:
        ctx.meta[_STORE_KEY] = value


def store_option(fn: F) -> F:
    """`--store URI`, accepted before the subcommand (on the group) and after it."""
    return click.option(
        "--store",
        metavar="URI",
        default=None,
        expose_value=False,
        callback=_remember_store,
        help="Store URI, e.g. adkmem+sqlite:///./memory.db (env ADK_MEMORY_STORE; default: "
        "a file in the user data dir). Accepted before or after the command name.",
    )(fn)


def chosen_store(ctx: click.Context) -> str | None:
    """The `--store` given on the command line, if any (else the settings decide)."""
    value = ctx.meta.get(_STORE_KEY)
    return value if isinstance(value, str) else None


def scope_options(*, required: bool) -> Callable[[F], F]:
    """`--app` and `--user`: the memory scope (optional ones default to every scope)."""
    suffix = "the memory scope" if required else "default: every scope"

    def decorate(fn: F) -> F:
        fn = click.option("--user", "user_id", required=required, help=f"User id ({suffix}).")(fn)
        return click.option(
            "--app", "app_name", required=required, help=f"ADK app name ({suffix})."
        )(fn)

    return decorate


def json_option(fn: F) -> F:
    """`--json`: one JSON document on stdout, nothing else there."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON.")(fn)


def parse_time(_ctx: click.Context, _param: click.Parameter, value: str | None) -> datetime | None:
    """Click callback: an ISO-8601 (or POSIX) timestamp, or None."""
    if value is None:
        return None
    from adk_memory.errors import AdkMemoryError
    from adk_memory.model import parse_timestamp

    try:
        return parse_timestamp(value)
    except AdkMemoryError as exc:
        raise click.BadParameter(str(exc)) from exc


def file_option(help_text: str) -> Callable[[F], F]:
    """`--file PATH`: read the text from a file instead of the command line."""
    return click.option(
        "--file",
        "text_file",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help=help_text,
    )


def read_text_file(path: Path) -> str:
    """A UTF-8 text file's content, or a one-line error naming the problem."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise click.BadParameter(
            f"cannot read {path}: {exc.strerror}", param_hint="--file"
        ) from exc
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise click.BadParameter(f"{path} is not UTF-8 text", param_hint="--file") from None


def input_text(
    value: str | None, text_file: Path | None, *, what: str, alternative: str = "--file PATH"
) -> str:
    """The text an argument names: itself, `-` for stdin, or `--file`'s content."""
    if value is not None and text_file is not None:
        raise click.UsageError(f"give {what} or --file, not both")
    if text_file is not None:
        return read_text_file(text_file)
    if value is None:
        raise click.UsageError(f"give either {what} ('-' reads it from stdin) or {alternative}")
    if value == "-":
        raw: bytes = sys.stdin.buffer.read()
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise click.UsageError("stdin is not UTF-8 text") from None
    return value
