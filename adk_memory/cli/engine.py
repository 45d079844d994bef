"""The engine a command works on: opened from `--store` / settings, named, always closed.

Also the id helpers every command that takes an id shares: a unique prefix of an id is as
good as the id (tables print 12 characters), an ambiguous one is a clear error.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from adk_memory.cli.errors import run
from adk_memory.cli.options import chosen_store
from adk_memory.cli.output import note

if TYPE_CHECKING:
    from adk_memory.engine import MemoryEngine
    from adk_memory.model import MemoryRecord, Scope

T = TypeVar("T")

#: How to point a command at a store that works.
FIX = (
    "point --store (or ADK_MEMORY_STORE) at a store you can write, e.g. "
    "--store adkmem+sqlite:///path/to/memory.db"
)
#: Shortest id prefix accepted: shorter ones would match half a store.
MIN_PREFIX = 4


@dataclass(frozen=True)
class OneShot:
    """What `main` (the console script) hands its commands (`ctx.obj`) when the process runs
    one command and exits.

    Building the bundled embedding model's session is then most of the CPU a `remember` or
    `recall` costs, so the engine loads an optimised copy of the model kept in
    `model_cache` instead (saved by the first command; the vectors are bit-for-bit the
    same). In-process callers (`CliRunner`, tests) pass nothing and keep the default.
    """

    model_cache: Path


def with_engine(
    ctx: click.Context, body: Callable[[MemoryEngine], Awaitable[T]], *, quiet: bool = False
) -> T:
    """Opens the engine, runs `body` on it, closes it; names the store on stderr unless
    `quiet` (the `--json` runs, whose stderr is often captured with their stdout)."""

    from adk_memory.errors import ConfigError
    from adk_memory.google_api.retry import RetryNotice, retry_listener

    one_shot = ctx.find_object(OneShot)
    if one_shot is not None:
        from adk_memory.embedding.local import use_model_cache

        use_model_cache(one_shot.model_cache)

    async def main() -> T:
        from adk_memory.config import Settings
        from adk_memory.factory import open_engine

        settings = Settings.from_env()
        uri = chosen_store(ctx) or settings.store_uri
        if not quiet:
            note(f"store: {uri}")
        try:
            engine = await open_engine(uri, settings=settings)
        except OSError as exc:
            raise click.ClickException(
                f"cannot open the store at {exc.filename or uri}: {exc.strerror or exc}; {FIX}"
            ) from exc
        except ConfigError as exc:  # a bad URI, an unreadable or unwritable database file
            raise click.ClickException(f"{exc}; {FIX}") from exc
        try:
            return await body(engine)
        finally:
            await engine.close()

    def progress(notice: RetryNotice) -> None:
        # On stderr in --json mode too: a long silent wait looks like a hang.
        note(notice.message())

    with retry_listener(progress):
        return run(main())


def scope_of(app_name: str | None, user_id: str | None) -> Scope | None:
    """The scope `--app`/`--user` name, or None when neither is given (= every scope)."""
    if (app_name is None) != (user_id is None):
        raise click.UsageError("give both --app and --user, or neither (= every scope)")
    if app_name is None or user_id is None:
        return None
    from adk_memory.model import Scope

    return Scope(app_name=app_name, user_id=user_id)


async def all_records(engine: MemoryEngine, scope: Scope) -> list[MemoryRecord]:
    """Every record of a scope, of every status, oldest first."""
    records: list[MemoryRecord] = []
    cursor: str | None = None
    while True:
        page = await engine.list(scope, limit=500, cursor=cursor)
        records += page.records
        cursor = page.next_cursor
        if cursor is None:
            return records


async def resolve_id(engine: MemoryEngine, given: str, scope: Scope | None = None) -> str:
    """The full id of a memory named by its id or a unique prefix of it.

    Raises:
        click.ClickException: when nothing or more than one memory matches.
    """
    from adk_memory.errors import NotFoundError

    wanted = given.strip()
    if await engine.store.get(wanted, scope) is not None:
        return wanted
    where = f" in {scope}" if scope else ""
    if len(wanted) < MIN_PREFIX:
        raise click.ClickException(
            f"no memory with id {wanted!r}{where} (a prefix needs {MIN_PREFIX}+ characters)"
        )
    scopes: Sequence[Scope] = [scope] if scope else await engine.store.scopes()
    matches = [
        r.id for s in scopes for r in await all_records(engine, s) if r.id.startswith(wanted)
    ]
    if not matches:
        raise NotFoundError(f"no memory with id or id prefix {wanted!r}{where}")
    if len(matches) > 1:
        shown = ", ".join(m[:16] for m in matches[:5])
        raise click.ClickException(
            f"id prefix {wanted!r} is ambiguous: {len(matches)} memories match ({shown}"
            f"{', ...' if len(matches) > 5 else ''}); give more characters"
        )
    return matches[0]
