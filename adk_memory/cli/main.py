"""`adk-memory`: the command line over the engine.

Every command takes the store from `--store URI` or `ADK_MEMORY_STORE`, prints a readable
table (or `--json`), and turns bad input into a clear message and a non-zero exit.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import click
from pydantic import ValidationError
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from adk_memory.config import Settings
from adk_memory.engine import MemoryEngine
from adk_memory.errors import AdkMemoryError
from adk_memory.extraction.files import read_events
from adk_memory.factory import open_engine
from adk_memory.model import (
    IngestResult,
    InputEvent,
    MemoryRecord,
    Scope,
    ScoredMemory,
    Status,
    parse_timestamp,
)

T = TypeVar("T")
#: Events per ingest call: one extraction/classification batch, one progress step.
INGEST_BATCH = 32

console = Console()


def _run(coro: Awaitable[T]) -> T:
    try:
        return asyncio.run(coro)  # type: ignore[arg-type]
    except AdkMemoryError as exc:
        raise click.ClickException(str(exc)) from exc
    except ValidationError as exc:  # e.g. an empty or over-long --app / --user
        problem = exc.errors()[0]
        where = ".".join(str(part) for part in problem["loc"]) or "input"
        raise click.ClickException(f"invalid {where}: {problem['msg']}") from exc


def _timestamp(_ctx: click.Context, _param: click.Parameter, value: str | None) -> datetime | None:
    if value is None:
        return None
    try:
        return parse_timestamp(value)
    except AdkMemoryError as exc:
        raise click.BadParameter(str(exc)) from exc


def _emit_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


async def _with_engine(ctx: click.Context, body: Callable[[MemoryEngine], Awaitable[T]]) -> T:
    engine = await open_engine(ctx.obj["store"], settings=ctx.obj["settings"])
    try:
        return await body(engine)
    finally:
        await engine.close()


def _engine_command(fn: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
    """Runs an async command body with an engine opened from the group's options."""

    @functools.wraps(fn)
    @click.pass_context
    def wrapper(ctx: click.Context, /, **kwargs: Any) -> Any:
        return _run(_with_engine(ctx, lambda engine: fn(engine, **kwargs)))

    return wrapper


def recalled_json(memory: ScoredMemory) -> dict[str, Any]:
    r, b = memory.record, memory.breakdown
    return {
        "id": r.id,
        "text": r.text,
        "score": round(b.score, 6),
        "similarity": round(b.similarity, 6),
        "cosine": round(b.cosine, 6),
        "lexical": round(b.lexical, 6),
        "decay": round(b.decay, 6),
        "confidence": round(b.confidence, 6),
        "valid_at": r.valid_at.isoformat(),
        "status": r.status.value,
        "source": {"session_id": r.source.session_id, "event_ids": list(r.source.event_ids)},
    }


def record_json(r: MemoryRecord) -> dict[str, Any]:
    return {
        "id": r.id,
        "text": r.text,
        "subject": r.subject,
        "predicate": r.predicate,
        "object": r.object,
        "polarity": r.polarity,
        "kind": r.kind.value,
        "confidence": r.confidence,
        "valid_at": r.valid_at.isoformat(),
        "created_at": r.created_at.isoformat(),
        "status": r.status.value,
        "superseded_by": r.superseded_by,
        "consolidated_into": r.consolidated_into,
        "hits": r.hits,
        "last_accessed_at": r.last_accessed_at.isoformat() if r.last_accessed_at else None,
        "app_name": r.scope.app_name,
        "user_id": r.scope.user_id,
        "source": {"session_id": r.source.session_id, "event_ids": list(r.source.event_ids)},
    }


def _records_table(title: str, records: Sequence[MemoryRecord]) -> Table:
    table = Table(title=title, show_lines=False)
    for column in ("id", "status", "valid_at", "slot", "text"):
        table.add_column(column, overflow="fold")
    for r in records:
        slot = f"{r.predicate}={r.object}" if r.object else r.kind.value
        table.add_row(r.id[:12], r.status.value, r.valid_at.date().isoformat(), slot, r.text)
    return table


def print_recall(query: str, ranked: Sequence[ScoredMemory]) -> None:
    table = Table(title=f"recall: {query}")
    for column in ("#", "score", "sim", "decay", "conf", "valid_at", "text"):
        table.add_column(column, overflow="fold")
    for rank, m in enumerate(ranked, start=1):
        b = m.breakdown
        table.add_row(
            str(rank),
            f"{b.score:.3f}",
            f"{b.similarity:.3f}",
            f"{b.decay:.3f}",
            f"{b.confidence:.2f}",
            m.record.valid_at.date().isoformat(),
            m.record.text,
        )
    console.print(table)


scope_options = [
    click.option("--app", "app_name", required=True, help="ADK app name (the memory scope)."),
    click.option("--user", "user_id", required=True, help="User id (the memory scope)."),
]


def with_scope(fn: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed(scope_options):
        fn = option(fn)
    return fn


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--store",
    envvar="ADK_MEMORY_STORE",
    default=None,
    metavar="URI",
    help="Store URI, e.g. adkmem+sqlite:///./memory.db (env ADK_MEMORY_STORE; default: a file "
    "in the user data dir).",
)
@click.pass_context
def cli(ctx: click.Context, store: str | None) -> None:
    """Long-term memory for Google ADK agents.

    \b
    Example:
      adk-memory remember --app shop --user alice "I moved to Munich"
      adk-memory recall --app shop --user alice "where does alice live?"
    """
    try:
        settings = Settings.from_env()
    except AdkMemoryError as exc:
        raise click.ClickException(str(exc)) from exc
    ctx.obj = {"store": store or settings.store_uri, "settings": settings}


@cli.command()
@with_scope
@click.option("--at", callback=_timestamp, help="When it became true (ISO-8601; default now).")
@json_option
@click.argument("text")
@_engine_command
async def remember(
    engine: MemoryEngine,
    app_name: str,
    user_id: str,
    at: datetime | None,
    as_json: bool,
    text: str,
) -> None:
    """Remember one fact, reconciled against what is known (ADD / REPLACE / NOOP).

    \b
    Example:
      adk-memory remember --app shop --user alice --at 2026-05-01 "I moved to Munich"
    """
    outcome = await engine.remember(Scope(app_name=app_name, user_id=user_id), text, at=at)
    if as_json:
        _emit_json(
            {"decision": outcome.decision.value, "id": outcome.id, "superseded": outcome.superseded}
        )
        return
    console.print(f"[bold]{outcome.decision.value}[/bold] {outcome.id}  {outcome.text}")
    for old in outcome.superseded:
        console.print(f"  supersedes {old}")


@cli.command()
@with_scope
@click.option("--now", callback=_timestamp, help="Rank as of this time (ISO-8601; default now).")
@click.option("--top-k", type=click.IntRange(1, 1000), default=None, help="Results per query.")
@click.option(
    "--queries",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="File with one query per line (QUERY omitted); prints a list per query.",
)
@json_option
@click.argument("query", required=False)
@_engine_command
async def recall(
    engine: MemoryEngine,
    app_name: str,
    user_id: str,
    now: datetime | None,
    top_k: int | None,
    queries: Path | None,
    as_json: bool,
    query: str | None,
) -> None:
    """Recall the active memories that best answer a query, with the score breakdown.

    \b
    Example:
      adk-memory recall --app shop --user alice --top-k 5 "where does alice live?"
    """
    if (query is None) == (queries is None):
        raise click.UsageError("give either QUERY or --queries FILE")
    texts = _read_queries(queries) if queries is not None else [query or ""]
    scope = Scope(app_name=app_name, user_id=user_id)
    results = await engine.recall_many(scope, texts, top_k=top_k, now=now)
    if as_json:
        lists = [[recalled_json(m) for m in ranked] for ranked in results]
        _emit_json(lists if queries is not None else lists[0])
        return
    for text, ranked in zip(texts, results, strict=True):
        print_recall(text, ranked)


@cli.command()
@with_scope
@json_option
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_engine_command
async def ingest(
    engine: MemoryEngine, app_name: str, user_id: str, as_json: bool, file: Path
) -> None:
    """Ingest conversation events: JSONL lines {"id","author","text","timestamp",
    "session_id"?} or an ADK session JSON. The file is validated whole before anything is
    written; re-ingesting the same events adds nothing.

    \b
    Example:
      adk-memory ingest --app shop --user alice session.jsonl
    """
    events = read_events(file)
    scope = Scope(app_name=app_name, user_id=user_id)
    total = IngestResult()
    batches = _batches(events)
    with Progress(console=Console(stderr=True), transient=True, disable=as_json) as progress:
        task = progress.add_task("ingesting", total=len(events))
        for batch in batches:
            result = await engine.ingest(scope, batch)
            total.outcomes += result.outcomes
            total.events_ingested += result.events_ingested
            total.events_skipped += result.events_skipped
            total.model_calls += result.model_calls
            total.tokens += result.tokens
            progress.advance(task, len(batch))
    if as_json:
        _emit_json(
            {
                "events_ingested": total.events_ingested,
                "events_skipped": total.events_skipped,
                "model_calls": total.model_calls,
                "tokens": total.tokens,
                "decisions": [o.model_dump(mode="json") for o in total.outcomes],
            }
        )
        return
    table = Table(title=f"ingested {total.events_ingested} events ({total.events_skipped} skipped)")
    for column in ("decision", "id", "text", "supersedes"):
        table.add_column(column, overflow="fold")
    for o in total.outcomes:
        table.add_row(o.decision.value, o.id[:12], o.text, ", ".join(s[:12] for s in o.superseded))
    console.print(table)


def _read_queries(path: Path) -> list[str]:
    texts = [line.strip() for line in path.read_text("utf-8").splitlines() if line.strip()]
    if not texts:
        raise click.UsageError(f"{path} holds no queries")
    return texts


def _batches(events: Sequence[InputEvent]) -> list[list[InputEvent]]:
    """Consecutive events of one session, at most INGEST_BATCH per batch."""
    batches: list[list[InputEvent]] = []
    for event in events:
        last = batches[-1] if batches else None
        if last and last[-1].session_id == event.session_id and len(last) < INGEST_BATCH:
            last.append(event)
        else:
            batches.append([event])
    return batches


@cli.command(name="list")
@with_scope
@click.option(
    "--status",
    type=click.Choice([s.value for s in Status]),
    default=None,
    help="Only memories with this status (default: all).",
)
@click.option("--limit", type=click.IntRange(1, 100_000), default=1000, show_default=True)
@json_option
@_engine_command
async def list_memories(
    engine: MemoryEngine,
    app_name: str,
    user_id: str,
    status: str | None,
    limit: int,
    as_json: bool,
) -> None:
    """List the memories of a scope, oldest first.

    \b
    Example:
      adk-memory list --app shop --user alice --status superseded
    """
    scope = Scope(app_name=app_name, user_id=user_id)
    statuses = [Status(status)] if status else None
    records: list[MemoryRecord] = []
    cursor: str | None = None
    while len(records) < limit:
        page = await engine.list(scope, statuses=statuses, limit=min(500, limit), cursor=cursor)
        records += page.records
        cursor = page.next_cursor
        if cursor is None:
            break
    records = records[:limit]
    if as_json:
        _emit_json([record_json(r) for r in records])
        return
    console.print(_records_table(f"{scope}: {len(records)} memories", records))


@cli.command()
@json_option
@click.argument("memory_id")
@_engine_command
async def history(engine: MemoryEngine, as_json: bool, memory_id: str) -> None:
    """Show the supersession chain through a memory, oldest first.

    \b
    Example:
      adk-memory history 3f2c9a...
    """
    chain = await engine.history(memory_id)
    if as_json:
        _emit_json([record_json(r) for r in chain])
        return
    console.print(_records_table(f"history of {memory_id}", chain))


@cli.command()
@json_option
@click.argument("memory_id")
@_engine_command
async def forget(engine: MemoryEngine, as_json: bool, memory_id: str) -> None:
    """Delete a memory for good.

    \b
    Example:
      adk-memory forget 3f2c9a...
    """
    record = await engine.forget(memory_id)
    if as_json:
        _emit_json({"deleted": record.id})
        return
    console.print(f"deleted {record.id}: {record.text}")


@cli.command()
@click.option(
    "--store-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the demo keeps its memory file (default: a fresh temporary directory).",
)
def demo(store_dir: Path | None) -> None:
    """Replay a multi-session conversation through an ADK agent with memory, offline.

    \b
    Example:
      adk-memory demo
    """
    from adk_memory.cli.demo import run_demo

    _run(run_demo(store_dir, console=console))


def _register_commands() -> None:
    # Imported here: these modules import this one for its helpers.
    from adk_memory.cli.emulator import emulator
    from adk_memory.cli.lifecycle import LIFECYCLE_COMMANDS

    cli.add_command(emulator)
    for command in LIFECYCLE_COMMANDS:
        cli.add_command(command)


_register_commands()


def main() -> None:
    cli(prog_name="adk-memory")


if __name__ == "__main__":
    main()
