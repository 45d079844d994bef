"""How the CLI fails: one line naming the problem, a non-zero exit, never a traceback.

`run` turns the library's typed errors (and the few Python errors bad input can still cause)
into `click.ClickException`; `AdkMemoryGroup` (in `main`) catches anything else at the top, so
no command can print a traceback. `ADK_MEMORY_DEBUG=1` re-raises for a developer.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import click

T = TypeVar("T")


def debugging() -> bool:
    """`ADK_MEMORY_DEBUG` (read by config, like every setting); off when settings are bad."""
    from adk_memory.config import Settings
    from adk_memory.errors import ConfigError

    try:
        return Settings.from_env().debug
    except ConfigError:
        return False


def validation_message(exc: Exception) -> str:
    """The first problem of a pydantic ValidationError, as `invalid FIELD: MESSAGE`."""
    errors = getattr(exc, "errors", None)
    if not callable(errors):
        return str(exc)
    problems = errors()
    if not problems:
        return str(exc)
    problem = problems[0]
    where = ".".join(str(part) for part in problem.get("loc", ())) or "input"
    message = str(problem.get("msg", "")).removeprefix("Value error, ")
    return f"invalid {where}: {message}"


def one_line(exc: BaseException) -> click.ClickException:
    """The CLI's message for an error raised while a command ran."""
    from pydantic import ValidationError

    from adk_memory.errors import AdkMemoryError

    if isinstance(exc, click.ClickException):
        return exc
    if isinstance(exc, AdkMemoryError):
        # NotFoundError is a KeyError, whose str() is the repr of its message.
        keyed = isinstance(exc, KeyError) and exc.args
        return click.ClickException(str(exc.args[0]) if keyed else str(exc))
    if isinstance(exc, ValidationError):  # e.g. an empty or over-long --app / --user
        return click.ClickException(validation_message(exc))
    if isinstance(exc, RecursionError):
        return click.ClickException("the input is nested too deeply to be read")
    if isinstance(exc, UnicodeError):
        return click.ClickException(f"the input is not valid UTF-8 text ({exc})")
    if isinstance(exc, OSError):
        where = f" {exc.filename}" if exc.filename else ""
        return click.ClickException(f"cannot use{where}: {exc.strerror or exc}")
    name = type(exc).__name__
    return click.ClickException(
        f"unexpected {name}: {exc} (set ADK_MEMORY_DEBUG=1 to see where it was raised)"
    )


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Runs a command's coroutine, turning every failure into a one-line CLI error."""
    import asyncio  # here, not at the top: `--help` never needs it

    result: T = call(asyncio.run, coro)
    return result


def call(fn: Callable[..., T], *args: Any) -> T:
    """Calls `fn(*args)`, turning every failure into a one-line CLI error."""
    try:
        return fn(*args)
    except (click.ClickException, click.exceptions.Exit, click.Abort):
        raise
    except Exception as exc:
        if debugging():
            raise
        raise one_line(exc) from exc
