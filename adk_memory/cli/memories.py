"""`adk-memory remember | recall | ingest | list | history | forget`: the engine's own calls."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from adk_memory.cli.engine import all_records, resolve_id, with_engine
from adk_memory.cli.options import (
    file_option,
    input_text,
    json_option,
    parse_time,
    read_text_file,
    scope_options,
    store_option,
)
from adk_memory.cli.output import (
    console,
    emit_json,
    plain_safe,
    print_recall,
    print_records,
    recalled_json,
    record_json,
    safe,
    say,
    short_id,
    table,
)

if TYPE_CHECKING:
    from adk_memory.engine import MemoryEngine
    from adk_memory.model import InputEvent, MemoryRecord, Scope, ScoredMemory, WriteOutcome

#: Decimals of the scores in `--json` output.
SCORE_DIGITS = 6
#: Events per ingest call: one extraction/classification batch, one progress step.
INGEST_BATCH = 32


def _scope(app_name: str, user_id: str) -> Scope:
    from adk_memory.model import Scope

    return Scope(app_name=app_name, user_id=user_id)


@click.command()
@store_option
@scope_options(required=True)
@click.option("--at", callback=parse_time, help="When it became true (ISO-8601; default now).")
@file_option("Read the text from this file (UTF-8).")
@json_option
@click.argument("text", required=False)
@click.pass_context
def remember(
    ctx: click.Context,
    app_name: str,
    user_id: str,
    at: datetime | None,
    text_file: Path | None,
    as_json: bool,
    text: str | None,
) -> None:
    """Remember one fact, reconciled against what is known (ADD / REPLACE / NOOP).

    TEXT may be '-' to read it from stdin, or given with --file.

    \b
    Example:
      adk-memory remember --app shop --user alice --at 2026-05-01 "I moved to Munich"
      pbpaste | adk-memory remember --app shop --user alice -
    """
    said = input_text(text, text_file, what="TEXT")
    scope = _scope(app_name, user_id)

    async def body(engine: MemoryEngine) -> WriteOutcome:
        return await engine.remember(scope, said, at=at)

    outcome = with_engine(ctx, body, quiet=as_json)
    if as_json:
        emit_json(
            {"decision": outcome.decision.value, "id": outcome.id, "superseded": outcome.superseded}
        )
        return
    say(outcome.decision.value, f"{outcome.id}  {plain_safe(outcome.text)}")
    for old in outcome.superseded:
        click.echo(f"  supersedes {old}")


def _read_queries(path: Path) -> list[str]:
    texts = [line.strip() for line in read_text_file(path).splitlines() if line.strip()]
    if not texts:
        raise click.UsageError(f"{path} holds no queries")
    return texts


def _scored(ranked: Sequence[ScoredMemory]) -> list[ScoredMemory]:
    # A memory whose score prints as 0 (orthogonal, decayed away, no confidence left)
    # answers nothing; listing it would only look like a match.
    return [m for m in ranked if round(m.breakdown.score, SCORE_DIGITS) > 0]


@click.command()
@store_option
@scope_options(required=True)
@click.option("--now", callback=parse_time, help="Rank as of this time (ISO-8601; default now).")
@click.option("--top-k", type=click.IntRange(1, 1000), default=None, help="Results per query.")
@click.option(
    "--queries",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="File with one query per line (QUERY omitted); prints a list per query.",
)
@json_option
@click.argument("query", required=False)
@click.pass_context
def recall(
    ctx: click.Context,
    app_name: str,
    user_id: str,
    now: datetime | None,
    top_k: int | None,
    queries: Path | None,
    as_json: bool,
    query: str | None,
) -> None:
    """Recall the active memories that best answer a query, with the score breakdown.

    QUERY may be '-' to read it from stdin. Memories scoring 0 are not listed.

    \b
    Example:
      adk-memory recall --app shop --user alice --top-k 5 "where does alice live?"
    """
    if queries is not None:
        if query is not None:
            raise click.UsageError("give either QUERY or --queries FILE")
        texts = _read_queries(queries)
    else:
        texts = [input_text(query, None, what="QUERY", alternative="--queries FILE")]
    scope = _scope(app_name, user_id)

    async def body(engine: MemoryEngine) -> list[list[ScoredMemory]]:
        return await engine.recall_many(scope, texts, top_k=top_k, now=now)

    results = [_scored(ranked) for ranked in with_engine(ctx, body, quiet=as_json)]
    if as_json:
        lists = [[recalled_json(m) for m in ranked] for ranked in results]
        emit_json(lists if queries is not None else lists[0])
        return
    for text, ranked in zip(texts, results, strict=True):
        print_recall(text, ranked)


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


@click.command()
@store_option
@scope_options(required=True)
@json_option
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.pass_context
def ingest(ctx: click.Context, app_name: str, user_id: str, as_json: bool, file: Path) -> None:
    """Ingest conversation events from a JSONL file or an ADK session JSON.

    JSONL lines are {"id","author","text","timestamp","session_id"?}. The file is validated
    whole before anything is written; re-ingesting the same events adds nothing.

    \b
    Example:
      adk-memory ingest --app shop --user alice session.jsonl
    """
    from adk_memory.cli.errors import call
    from adk_memory.extraction.files import read_events
    from adk_memory.model import IngestResult

    events = call(read_events, file)
    scope = _scope(app_name, user_id)

    async def body(engine: MemoryEngine) -> IngestResult:
        from rich.console import Console
        from rich.progress import Progress

        total = IngestResult()
        stderr = Console(stderr=True)
        with Progress(console=stderr, transient=True, disable=as_json) as progress:
            task = progress.add_task("ingesting", total=len(events))
            for batch in _batches(events):
                result = await engine.ingest(scope, batch)
                total.outcomes += result.outcomes
                total.events_ingested += result.events_ingested
                total.events_skipped += result.events_skipped
                total.model_calls += result.model_calls
                total.tokens += result.tokens
                progress.advance(task, len(batch))
        return total

    total = with_engine(ctx, body, quiet=as_json)
    if as_json:
        emit_json(
            {
                "events_ingested": total.events_ingested,
                "events_skipped": total.events_skipped,
                "model_calls": total.model_calls,
                "tokens": total.tokens,
                "decisions": [o.model_dump(mode="json") for o in total.outcomes],
            }
        )
        return
    title = f"ingested {total.events_ingested} events ({total.events_skipped} skipped)"
    if not total.outcomes:
        console().print(f"{title}: no new facts")
        return
    rows = table(title, ("decision", "id", "text", "supersedes"))
    for o in total.outcomes:
        rows.add_row(
            o.decision.value,
            short_id(o.id),
            safe(o.text),
            ", ".join(short_id(s) for s in o.superseded),
        )
    console().print(rows)


@click.command(name="list")
@store_option
@scope_options(required=True)
@click.option(
    "--status",
    type=click.Choice(["active", "superseded", "archived"]),
    default=None,
    help="Only memories with this status (default: all).",
)
@click.option("--limit", type=click.IntRange(1, 100_000), default=1000, show_default=True)
@json_option
@click.pass_context
def list_memories(
    ctx: click.Context,
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
    from adk_memory.model import Status

    scope = _scope(app_name, user_id)
    statuses = [Status(status)] if status else None

    async def body(engine: MemoryEngine) -> list[MemoryRecord]:
        records: list[MemoryRecord] = []
        cursor: str | None = None
        while len(records) < limit:
            page = await engine.list(scope, statuses=statuses, limit=min(500, limit), cursor=cursor)
            records += page.records
            cursor = page.next_cursor
            if cursor is None:
                break
        return records[:limit]

    records = with_engine(ctx, body, quiet=as_json)
    if as_json:
        emit_json([record_json(r) for r in records])
        return
    kind = f"{status} memories" if status else "memories"
    print_records(f"{scope}: {len(records)} {kind}", records, empty=f"{scope}: no {kind}")


@click.command()
@store_option
@json_option
@click.argument("memory_id")
@click.pass_context
def history(ctx: click.Context, as_json: bool, memory_id: str) -> None:
    """Show the supersession chain through a memory, oldest first.

    MEMORY_ID may be any unique prefix of the id (tables show 12 characters). On Memory Bank
    the chain also holds the earlier values Memory Bank keeps as revisions of a memory (ids
    rev~N~...); `restore` makes one current again.

    \b
    Example:
      adk-memory history 3f2c9a81b0de
    """

    async def body(engine: MemoryEngine) -> list[MemoryRecord]:
        from adk_memory.cli.revision_ids import resolve_memory_id

        return await engine.history(await resolve_memory_id(engine, memory_id))

    chain = with_engine(ctx, body, quiet=as_json)
    if as_json:
        emit_json([record_json(r) for r in chain])
        return
    print_records(f"history of {memory_id}", chain, empty=f"no history for {memory_id}")


@click.command()
@store_option
@scope_options(required=False)
@click.option("--all", "erase_all", is_flag=True, help="Erase every memory of --app/--user.")
@click.option("--dry-run", is_flag=True, help="With --all: count what would be erased.")
@json_option
@click.argument("memory_id", required=False)
@click.pass_context
def forget(
    ctx: click.Context,
    app_name: str | None,
    user_id: str | None,
    erase_all: bool,
    dry_run: bool,
    as_json: bool,
    memory_id: str | None,
) -> None:
    """Delete one memory for good, or erase a user with --all.

    MEMORY_ID may be any unique prefix of the id; --app/--user narrow the search.

    --all removes every trace of the scope: active, superseded and archived memories, their
    history and event markers. It cannot be undone; try --dry-run first.

    \b
    Example:
      adk-memory forget 3f2c9a81b0de
      adk-memory forget --app shop --user alice --all --dry-run --json
    """
    from adk_memory.cli.engine import scope_of

    scope = scope_of(app_name, user_id)
    if erase_all:
        if memory_id is not None:
            raise click.UsageError("give MEMORY_ID or --all, not both")
        if scope is None:
            raise click.UsageError("--all needs --app and --user")
        _erase(ctx, scope, dry_run=dry_run, as_json=as_json)
        return
    if dry_run:
        raise click.UsageError("--dry-run goes with --all")
    if memory_id is None:
        raise click.UsageError("give MEMORY_ID, or --app A --user U --all")
    wanted = memory_id

    async def body(engine: MemoryEngine) -> MemoryRecord:
        return await engine.forget(await resolve_id(engine, wanted, scope), scope)

    record = with_engine(ctx, body, quiet=as_json)
    if as_json:
        emit_json({"deleted": record.id})
        return
    console().print(f"deleted {record.id}: {safe(record.text)}")


def _erase(ctx: click.Context, scope: Scope, *, dry_run: bool, as_json: bool) -> None:
    async def body(engine: MemoryEngine) -> int:
        if dry_run:
            return len(await all_records(engine, scope))
        return await engine.erase(scope)

    count = with_engine(ctx, body, quiet=as_json)
    if not dry_run:
        _discard_pending_saves(scope)
    if as_json:
        emit_json({"erased": count, "dry_run": dry_run} if dry_run else {"erased": count})
        return
    verb = "would erase" if dry_run else "erased"
    console().print(f"{verb} {count} memories of {scope}")


def _discard_pending_saves(scope: Scope) -> None:
    """Drops the user's saves waiting in the plugin's default outbox (what the ADK service's
    `erase_user` does in a running app), so no pending save writes the user back later."""
    from adk_memory.adk.outbox import Outbox, default_outbox_path

    path = default_outbox_path()
    if not path.exists():
        return
    outbox = Outbox(path)
    try:
        outbox.discard_scope(scope.app_name, scope.user_id)
    finally:
        outbox.close()


MEMORY_COMMANDS = (remember, recall, ingest, list_memories, history, forget)
