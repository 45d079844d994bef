"""What the CLI prints: JSON documents on stdout, rich tables for people, notes on stderr.

One module for every command (and the demo), so JSON shapes and tables never drift apart.
rich is imported on first human-readable output: `--json` runs and `--help` never pay for it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from adk_memory.model import MemoryRecord, ScoredMemory

#: Characters of an id shown in tables; any unique prefix is accepted back wherever an id is.
ID_PREFIX = 12


@lru_cache(maxsize=1)
def console() -> Console:
    """The stdout console of human-readable output.

    Emoji codes stay as typed: `:pizza:` in a stored text is shown as stored, not as 🍕
    (what is displayed is what is stored; it also spares loading rich's emoji table).
    """
    from rich.console import Console

    return Console(emoji=False)


def note(message: str) -> None:
    """A line for the person at the terminal (stderr): never mixed into `--json` output."""
    click.echo(message, err=True)


def emit_json(value: Any) -> None:
    """Prints one JSON document on stdout."""
    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


def say(head: str, rest: str = "") -> None:
    """One line for people on stdout, `head` in bold, without rich: the line a `remember`
    prints is not worth the ~0.1 s of CPU importing rich costs. click drops the bold when
    stdout is not a terminal. Stored text in `rest` must have gone through `plain_safe`."""
    click.echo(click.style(head, bold=True) + (f" {rest}" if rest else ""))


def plain_safe(text: str) -> str:
    """`safe` for output that is not rich markup: neutralised, nothing escaped."""
    from adk_memory.text import display_safe

    return display_safe(text)


def safe(text: str) -> str:
    """Text as it may be shown in a terminal: lookalike brackets, bidi overrides and control
    characters neutralised, and rich markup escaped so stored text can't restyle the table."""
    from rich.markup import escape

    from adk_memory.text import display_safe

    return escape(display_safe(text))


def short_id(memory_id: str) -> str:
    return memory_id[:ID_PREFIX]


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
        "stated_at": r.stated_at.isoformat(),
        "latest": memory.latest,
        # The retired memory (a summary's source, a memory this one replaced) whose match
        # this one inherited, or None.
        "matched_via": b.matched_via,
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


def table(title: str, columns: Sequence[str]) -> Table:
    """An empty table with folding columns (long texts wrap instead of being cut)."""
    from rich.table import Table

    result = Table(title=safe(title))
    for column in columns:
        result.add_column(column, overflow="fold")
    return result


def print_records(title: str, records: Sequence[MemoryRecord], *, empty: str) -> None:
    """A table of records, or `empty` when there are none."""
    if not records:
        console().print(safe(empty))
        return
    rows = table(title, ("id", "status", "valid_at", "slot", "text"))
    for r in records:
        slot = f"{r.predicate}={r.object}" if r.object else r.kind.value
        rows.add_row(
            short_id(r.id), r.status.value, r.valid_at.date().isoformat(), safe(slot), safe(r.text)
        )
    console().print(rows)


#: How a recall row shows that it answers the same question as others, newest or not.
_LATEST_MARK = {True: " latest", False: " earlier", None: ""}


def _via(matched_via: str | None) -> str:
    """Why a memory matched words it does not say: the retired memory it stands for."""
    return "" if matched_via is None else f"  (matched via {short_id(matched_via)})"


def print_recall(query: str, ranked: Sequence[ScoredMemory], *, out: Console | None = None) -> None:
    """The ranked memories of one query with their score breakdown, or a line saying none."""
    target = out or console()
    if not ranked:
        target.print(f"recall: {safe(query)}: no memory matches")
        return
    rows = table(
        f"recall: {query}", ("#", "id", "score", "sim", "decay", "conf", "valid_at", "text")
    )
    for rank, m in enumerate(ranked, start=1):
        b = m.breakdown
        rows.add_row(
            str(rank),
            short_id(m.record.id),
            f"{b.score:.3f}" if b.score >= 0.001 else f"{b.score:.1e}",
            f"{b.similarity:.3f}",
            f"{b.decay:.3f}",
            f"{b.confidence:.2f}",
            m.record.valid_at.date().isoformat() + _LATEST_MARK[m.latest],
            safe(m.record.text) + _via(b.matched_via),
        )
    target.print(rows)
