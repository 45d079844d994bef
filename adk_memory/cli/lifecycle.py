"""`adk-memory gc | consolidate | restore`: the lifecycle jobs on the command line.

Loaded only when one of these commands runs (see `main.COMMANDS`), so the library defaults
shown in `--help` can come straight from the lifecycle configs.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, TypeVar

import click
from pydantic import BaseModel

from adk_memory.cli.engine import scope_of, with_engine
from adk_memory.cli.options import json_option, parse_time, scope_options, store_option
from adk_memory.cli.output import console, emit_json, safe, short_id, table
from adk_memory.engine import MemoryEngine
from adk_memory.lifecycle.consolidation import ConsolidationConfig, ConsolidationReport, consolidate
from adk_memory.lifecycle.gc import GcConfig, GcReport, collect_garbage
from adk_memory.lifecycle.paging import target_scopes
from adk_memory.lifecycle.restore import restore
from adk_memory.lifecycle.summarizer import SUMMARY_MAX_CHARS, LocalSummarizer, Summarizer
from adk_memory.model import Kind, Scope

R = TypeVar("R", GcReport, ConsolidationReport)


def _optional_days(_ctx: click.Context, param: click.Parameter, value: str) -> float | None:
    if value.strip().lower() in ("none", "off", "never"):
        return None
    try:
        days = float(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a number of days or 'none'") from None
    if days < 0:
        raise click.BadParameter("must not be negative")
    return days


def _report_json(report: BaseModel, **totals: Any) -> None:
    emit_json({**report.model_dump(mode="json"), **totals})


async def _over_scopes(
    engine: MemoryEngine,
    scope: Scope | None,
    label: str,
    quiet: bool,
    job: Callable[[Scope], Awaitable[R]],
) -> list[R]:
    """Runs a job scope by scope under a progress bar (on stderr, so --json stays clean)."""
    from rich.console import Console
    from rich.progress import Progress

    scopes = await target_scopes(engine, scope)
    reports: list[R] = []
    with Progress(console=Console(stderr=True), transient=True, disable=quiet) as progress:
        task = progress.add_task(label, total=len(scopes))
        for target in scopes:
            reports.append(await job(target))
            progress.advance(task)
    return reports


def _with_common(fn: Callable[..., Any]) -> Callable[..., Any]:
    fn = json_option(fn)
    fn = click.option("--now", callback=parse_time, help="Reference time (ISO-8601; default now).")(
        fn
    )
    fn = click.option("--dry-run", is_flag=True, help="Report what would change; change nothing.")(
        fn
    )
    return scope_options(required=False)(fn)


@click.command(name="gc")
@store_option
@_with_common
@click.option(
    "--s-min",
    type=click.FloatRange(0.0, 1.0),
    default=GcConfig().s_min,
    show_default=True,
    help="Archive facts whose decayed score (confidence × decay) is below this.",
)
@click.option(
    "--sessions",
    type=click.IntRange(1),
    default=GcConfig().sessions_without_hit,
    show_default=True,
    help="...and that were not recalled in this many recent sessions.",
)
@click.option(
    "--retention-days",
    default="90",
    show_default=True,
    callback=_optional_days,
    help="Archive superseded facts this many days after their successor ('none' = keep).",
)
@click.option(
    "--half-life-days",
    type=click.FloatRange(min=0.0, min_open=True),
    default=None,
    help="Decay half-life for kinds without their own (default: the engine's setting).",
)
@click.pass_context
def gc_command(
    ctx: click.Context,
    app_name: str | None,
    user_id: str | None,
    dry_run: bool,
    now: datetime | None,
    as_json: bool,
    s_min: float,
    sessions: int,
    retention_days: float | None,
    half_life_days: float | None,
) -> None:
    """Archive faded facts nobody recalls, and old superseded facts (restorable).

    \b
    Example:
      adk-memory gc --dry-run
      adk-memory gc --app shop --user alice --s-min 0.2 --sessions 10 --json
    """
    scope = scope_of(app_name, user_id)

    async def body(engine: MemoryEngine) -> GcReport:
        scoring = engine.config.scoring
        if half_life_days is not None:
            scoring = scoring.model_copy(update={"half_life_days": half_life_days})
        config = GcConfig(
            s_min=s_min,
            sessions_without_hit=sessions,
            superseded_retention_days=retention_days,
            scoring=scoring,
        )
        at = now or engine.clock()

        async def job(target: Scope) -> GcReport:
            return await collect_garbage(engine, target, config, at, dry_run)

        parts = await _over_scopes(engine, scope, "collecting garbage", as_json, job)
        return GcReport(dry_run=dry_run, now=at, scopes=[s for p in parts for s in p.scopes])

    report = with_engine(ctx, body, quiet=as_json)
    if as_json:
        _report_json(report, archived_count=report.archived_count)
        return
    verb = "would archive" if dry_run else "archived"
    if not report.scopes:
        console().print("no memories to collect")
        return
    rows = table(
        f"gc ({'dry run, ' if dry_run else ''}now {report.now.isoformat()})",
        ("scope", "records", "sessions", f"{verb}: faded", f"{verb}: superseded"),
    )
    for s in report.scopes:
        rows.add_row(
            safe(f"{s.app_name}/{s.user_id}"),
            str(s.examined),
            str(s.sessions),
            str(len(s.faded)),
            str(len(s.expired)),
        )
    console().print(rows)
    console().print(f"{verb} {report.archived_count} memories")


def _summarizer(choice: str, max_chars: int) -> Summarizer:
    if choice == "local":
        return LocalSummarizer(max_chars)
    from adk_memory.config import LlmBackend, Settings
    from adk_memory.factory import summarizer

    # auto: the model ADK_MEMORY_LLM selects (Gemini when configured, or any ADK model).
    settings = Settings.from_env()
    if choice == "gemini":
        settings = settings.model_copy(update={"llm": LlmBackend.GEMINI})
    return summarizer(settings, max_chars=max_chars)


@click.command(name="consolidate")
@store_option
@_with_common
@click.option(
    "--similarity",
    type=click.FloatRange(-1.0, 1.0),
    default=ConsolidationConfig().similarity,
    show_default=True,
    help="Cosine every two facts of a cluster reach at least.",
)
@click.option(
    "--min-size",
    type=click.IntRange(2),
    default=ConsolidationConfig().min_cluster_size,
    show_default=True,
    help="Smallest cluster that is summarised.",
)
@click.option(
    "--max-size",
    type=click.IntRange(2, 64),
    default=ConsolidationConfig().max_cluster_size,
    show_default=True,
    help="Largest cluster one summary stands for.",
)
@click.option(
    "--min-age-days",
    type=click.FloatRange(0.0),
    default=0.0,
    show_default=True,
    help="Leave facts younger than this alone.",
)
@click.option(
    "--include-slots",
    is_flag=True,
    help="Also merge profile and preference facts (later updates then cannot supersede them).",
)
@click.option(
    "--summarizer",
    type=click.Choice(["auto", "local", "gemini"]),
    default="auto",
    show_default=True,
    help="Who writes summaries (auto: the model ADK_MEMORY_LLM selects; Gemini when configured).",
)
@click.option(
    "--max-chars",
    type=click.IntRange(40, 4000),
    default=SUMMARY_MAX_CHARS,
    show_default=True,
    help="Longest summary. A cluster grows only while its summary can carry every member's "
    "statement, so a lower bound means shorter summaries and fewer merges.",
)
@click.pass_context
def consolidate_command(
    ctx: click.Context,
    app_name: str | None,
    user_id: str | None,
    dry_run: bool,
    now: datetime | None,
    as_json: bool,
    similarity: float,
    min_size: int,
    max_size: int,
    min_age_days: float,
    include_slots: bool,
    summarizer: str,
    max_chars: int,
) -> None:
    """Merge clusters of related facts into summaries that link their (archived) sources.

    \b
    Example:
      adk-memory consolidate --dry-run
      adk-memory consolidate --app shop --user alice --similarity 0.55 --min-size 3 --json
    """
    scope = scope_of(app_name, user_id)
    if min_size > max_size:
        raise click.UsageError("--min-size must not exceed --max-size")
    kinds = [Kind.EPISODIC, Kind.SUMMARY]
    if include_slots:
        kinds += [Kind.PROFILE, Kind.PREFERENCE]
    config = ConsolidationConfig(
        similarity=similarity,
        min_cluster_size=min_size,
        max_cluster_size=max_size,
        min_age_days=min_age_days,
        kinds=kinds,
    )
    writer = _summarizer(summarizer, max_chars)

    async def body(engine: MemoryEngine) -> ConsolidationReport:
        at = now or engine.clock()

        async def job(target: Scope) -> ConsolidationReport:
            return await consolidate(engine, target, config, at, dry_run, summarizer=writer)

        parts = await _over_scopes(engine, scope, "consolidating", as_json, job)
        return ConsolidationReport(
            dry_run=dry_run, now=at, scopes=[s for p in parts for s in p.scopes]
        )

    report = with_engine(ctx, body, quiet=as_json)
    if as_json:
        _report_json(
            report, summary_count=len(report.summary_ids), archived_count=report.archived_count
        )
        return
    rows = table(
        f"consolidate{' (dry run)' if dry_run else ''}",
        ("scope", "summary", "level", "sources", "text"),
    )
    for s in report.scopes:
        for c in s.clusters:
            rows.add_row(
                safe(f"{s.app_name}/{s.user_id}"),
                short_id(c.summary_id),
                str(c.level),
                str(len(c.source_ids)),
                safe(c.text),
            )
    if rows.row_count:
        console().print(rows)
    else:
        console().print("no cluster to consolidate")
    completed = sum(len(s.completed) for s in report.scopes)
    verb = "would write" if dry_run else "wrote"
    console().print(
        f"{verb} {len(report.summary_ids)} summaries over {report.archived_count - completed} "
        f"sources; {completed} sources of an interrupted run archived"
    )


@click.command(name="restore")
@store_option
@scope_options(required=True)
@json_option
@click.argument("memory_ids", nargs=-1, required=True)
@click.pass_context
def restore_command(
    ctx: click.Context, app_name: str, user_id: str, as_json: bool, memory_ids: tuple[str, ...]
) -> None:
    """Bring archived memories back, or a Memory Bank memory's earlier value.

    An archived memory returns to what it was (a superseded one to the history). On Memory
    Bank, an earlier value `history` lists (an id rev~N~...) becomes its memory's current
    value again (Memory Bank rolls the memory back to that revision). MEMORY_IDS may be
    unique prefixes of the ids.

    \b
    Example:
      adk-memory restore --app shop --user alice 3f2c9a81b0de 8d1e07c2aa41
      adk-memory restore --app shop --user alice rev~1~135767
    """
    from adk_memory.cli.revision_ids import resolve_memory_id

    scope = Scope(app_name=app_name, user_id=user_id)

    async def body(engine: MemoryEngine) -> tuple[list[str], list[str]]:
        ids = [await resolve_memory_id(engine, given, scope) for given in memory_ids]
        return ids, await restore(engine, scope, ids)

    ids, restored = with_engine(ctx, body, quiet=as_json)
    if as_json:
        emit_json({"restored": restored})
        return
    for memory_id in restored:
        console().print(f"restored {memory_id}")
    done = set(restored)
    skipped = [i for i in ids if i not in done]
    if skipped:
        console().print(f"not archived in {safe(str(scope))} (left as is): {', '.join(skipped)}")


LIFECYCLE_COMMANDS = (gc_command, consolidate_command, restore_command)
