"""Server-rendered HTML of the inspector's pages.

Every value that came from a store or a request goes through `esc` (memory text is
user-supplied and therefore hostile); the markup itself is fixed strings.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Protocol

from adk_memory.inspector.data import (
    DryRun,
    History,
    Listing,
    MemoryFilter,
    Playground,
    ScopeSummary,
    stated_at,
)
from adk_memory.lifecycle.consolidation import summary_sources
from adk_memory.model import Kind, MemoryRecord, Scope, ScoredMemory, Status

#: The score components the playground draws, in the order the score multiplies them.
COMPONENTS = ("similarity", "lexical", "decay", "confidence")


class Links(Protocol):
    """Where each page lives (the router knows its mount point)."""

    def scopes(self) -> str: ...
    def scope(self, scope: Scope, **query: str) -> str: ...
    def memory(self, memory_id: str, scope: Scope) -> str: ...
    def recall(self, scope: Scope, **query: str) -> str: ...
    def lifecycle(self, scope: Scope, **query: str) -> str: ...
    def action(self, name: str) -> str: ...
    def static(self, name: str) -> str: ...


def esc(value: object) -> str:
    """Text made safe in HTML content and in double-quoted attributes."""
    return html.escape(str(value), quote=True)


def day(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d") if value else "—"


def moment(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M UTC") if value else "—"


def short(memory_id: str) -> str:
    return memory_id[:12]


def layout(
    links: Links,
    title: str,
    body: str,
    *,
    crumbs: Sequence[tuple[str, str]] = (),
    notice: str = "",
    read_only: bool = False,
) -> str:
    """A whole page: header, breadcrumbs, an optional notice, the body."""
    trail = "".join(f' <span>/</span> <a href="{esc(u)}">{esc(t)}</a>' for t, u in crumbs)
    banner = f'<p class="notice" role="status">{esc(notice)}</p>' if notice else ""
    lock = (
        '<p class="warn">Read-only view: open the URL that <code>adk-memory inspect</code> '
        "printed (it carries the access token) to forget, restore or erase.</p>"
        if read_only
        else ""
    )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)} · adk-memory inspector</title>
<link rel="stylesheet" href="{esc(links.static("inspector.css"))}">
<script src="{esc(links.static("inspector.js"))}" defer></script>
</head><body>
<header><a class="brand" href="{esc(links.scopes())}">adk-memory inspector</a>
<nav><a href="{esc(links.scopes())}">Scopes</a>{trail}</nav></header>
<main><h1>{esc(title)}</h1>{banner}{lock}{body}</main>
</body></html>"""


def error_page(links: Links, status: int, message: str) -> str:
    body = (
        f'<p class="error" data-status="{status}">{esc(message)}</p>'
        f'<p><a href="{esc(links.scopes())}">Back to the scopes</a></p>'
    )
    return layout(links, _reason(status), body)


def _reason(status: int) -> str:
    return {
        400: "Bad request",
        403: "Not allowed",
        404: "Not found",
        413: "Too large",
        502: "Backend failed",
    }.get(status, "Error")


def _badge(status: Status) -> str:
    return f'<span class="badge {esc(status.value)}">{esc(status.value)}</span>'


def _counts(summary: ScopeSummary) -> str:
    return "".join(
        f'<td class="num" data-status="{esc(s.value)}">{summary.counts.get(s, 0)}</td>'
        for s in Status
    )


def scopes_page(links: Links, summaries: Sequence[ScopeSummary], *, notice: str = "") -> str:
    if not summaries:
        body = '<p class="empty">This store holds no memories yet.</p>'
        return layout(links, "Scopes", body, notice=notice)
    head = "".join(f"<th>{esc(s.value)}</th>" for s in Status)
    rows = []
    for summary in summaries:
        scope = summary.scope
        rows.append(
            f'<tr class="scope" data-app="{esc(scope.app_name)}" data-user="{esc(scope.user_id)}">'
            f"<td>{esc(scope.app_name)}</td><td>{esc(scope.user_id)}</td>{_counts(summary)}"
            f'<td class="num">{summary.total}</td>'
            f'<td class="links"><a href="{esc(links.scope(scope))}">memories</a> '
            f'<a href="{esc(links.recall(scope))}">recall</a> '
            f'<a href="{esc(links.lifecycle(scope))}">lifecycle</a></td></tr>'
        )
    body = (
        f'<table class="scopes"><thead><tr><th>app</th><th>user</th>{head}<th>total</th>'
        f"<th></th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
    return layout(links, "Scopes", body, notice=notice)


def _options(values: Iterable[str], chosen: str | None) -> str:
    items = ['<option value="">any</option>']
    for value in values:
        selected = " selected" if value == chosen else ""
        items.append(f'<option value="{esc(value)}"{selected}>{esc(value)}</option>')
    return "".join(items)


def _scope_fields(scope: Scope) -> str:
    return (
        f'<input type="hidden" name="app" value="{esc(scope.app_name)}">'
        f'<input type="hidden" name="user" value="{esc(scope.user_id)}">'
    )


def _token_field(token: str | None) -> str:
    return f'<input type="hidden" name="token" value="{esc(token)}">' if token else ""


def action_form(
    links: Links, name: str, label: str, scope: Scope, memory_id: str, token: str | None
) -> str:
    """A one-button form that POSTs an action on one memory."""
    return (
        f'<form method="post" action="{esc(links.action(name))}" class="inline {esc(name)}">'
        f'{_scope_fields(scope)}<input type="hidden" name="id" value="{esc(memory_id)}">'
        f'{_token_field(token)}<button type="submit" data-action="{esc(name)}" '
        f'data-confirm="{esc(label)} this memory?">{esc(label)}</button></form>'
    )


def _source(record: MemoryRecord) -> str:
    session = record.source.session_id or "—"
    events = ", ".join(record.source.event_ids) or "—"
    return f'<span class="session">{esc(session)}</span><br><small>{esc(events)}</small>'


def _slot(record: MemoryRecord) -> str:
    """What a record is about, in one short line."""
    sources = summary_sources(record)
    if sources:
        return f"summary of {len(sources)} memories"
    if record.object:
        return f"{record.kind.value} · {record.predicate}={record.object}"
    return record.kind.value


def _record_actions(
    links: Links, record: MemoryRecord, token: str | None, *, revision: bool = False
) -> str:
    """Restore for an archived memory or an earlier value kept as a revision (which is only
    forgotten with its memory); Forget for any memory."""
    if revision:
        return action_form(links, "restore", "Restore", record.scope, record.id, token)
    forms = action_form(links, "forget", "Forget", record.scope, record.id, token)
    if record.status is Status.ARCHIVED:
        forms = action_form(links, "restore", "Restore", record.scope, record.id, token) + forms
    return forms


def memories_page(
    links: Links,
    listing: Listing,
    wanted: MemoryFilter,
    *,
    token: str | None,
    read_only: bool,
    notice: str = "",
) -> str:
    scope = listing.summary.scope
    counts = " · ".join(f"{listing.summary.counts.get(s, 0)} {s.value}" for s in Status)
    filters = (
        f'<form method="get" class="filters" action="{esc(links.scope(scope))}">'
        f"{_scope_fields(scope)}"
        f'<label>status <select name="status" data-autosubmit>'
        f"{_options([s.value for s in Status], wanted.status.value if wanted.status else None)}"
        f"</select></label>"
        f'<label>kind <select name="kind" data-autosubmit>'
        f"{_options([k.value for k in Kind], wanted.kind.value if wanted.kind else None)}"
        f"</select></label>"
        f'<label>text <input type="search" name="q" value="{esc(wanted.text)}" '
        f'placeholder="words in the memory"></label><button type="submit">Filter</button></form>'
    )
    rows = []
    for r in listing.records:
        rows.append(
            f'<tr class="memory" data-id="{esc(r.id)}" data-status="{esc(r.status.value)}">'
            f'<td><a class="text" href="{esc(links.memory(r.id, scope))}">{esc(r.text)}</a>'
            f'<br><small class="slot">{esc(_slot(r))}</small></td><td>{_badge(r.status)}</td>'
            f'<td class="date">{day(stated_at(r))}</td><td class="date">{day(r.valid_at)}</td>'
            f'<td class="num">{r.confidence:.2f}</td><td class="num hits">{r.hits}</td>'
            f'<td>{_source(r)}</td><td class="actions">{_record_actions(links, r, token)}</td></tr>'
        )
    table = (
        (
            '<table class="memories"><thead><tr><th>memory</th><th>status</th><th>stated</th>'
            "<th>valid</th><th>conf.</th><th>hits</th><th>source</th><th></th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>"
        )
        if rows
        else '<p class="empty">No memory matches this filter.</p>'
    )
    more = (
        f'<p class="warn">Only the first {len(listing.records)} matches are listed.</p>'
        if listing.truncated
        else ""
    )
    erase = (
        f'<section class="danger"><h2>Erase this user</h2>'
        f"<p>Removes every memory of <b>{esc(scope.user_id)}</b> in <b>{esc(scope.app_name)}"
        f"</b> for good, whatever its status. Type the user id to confirm.</p>"
        f'<form method="post" action="{esc(links.action("erase"))}" class="erase">'
        f'{_scope_fields(scope)}{_token_field(token)}<input name="confirm" autocomplete="off" '
        f'data-must-equal="{esc(scope.user_id)}" placeholder="type {esc(scope.user_id)}">'
        f'<button type="submit" class="danger">Erase all memories</button></form></section>'
    )
    tools = (
        f'<p class="tools"><a href="{esc(links.recall(scope))}">Recall playground</a> · '
        f'<a href="{esc(links.lifecycle(scope))}">GC and consolidation dry run</a></p>'
    )
    body = (
        f'<p class="counts">{esc(counts)}</p>{tools}{filters}'
        f'<p class="shown">{len(listing.records)} shown</p>{more}{table}{erase}'
    )
    return layout(
        links,
        f"{scope.app_name} / {scope.user_id}",
        body,
        crumbs=[(str(scope), links.scope(scope))],
        notice=notice,
        read_only=read_only,
    )


def _card(links: Links, r: MemoryRecord, *, current: str) -> str:
    here = " current" if r.id == current else ""
    return (
        f'<div class="card{here}" data-id="{esc(r.id)}">'
        f'<p class="text"><a href="{esc(links.memory(r.id, r.scope))}">{esc(r.text)}</a></p>'
        f'<p class="meta">{_badge(r.status)} {esc(r.kind.value)} · confidence '
        f"{r.confidence:.2f} · {r.hits} hits · id <code>{esc(short(r.id))}</code></p>"
        f'<p class="meta">stated {day(stated_at(r))} · valid {day(r.valid_at)} · stored '
        f"{moment(r.created_at)}</p></div>"
    )


def _facts_slot(record: MemoryRecord) -> str:
    sources = summary_sources(record)
    if sources:
        return f"summary of {len(sources)} memories (listed below)"
    return f"{record.subject} · {record.predicate} · {record.object or '—'}"


def history_page(
    links: Links, history: History, *, token: str | None, read_only: bool, notice: str = ""
) -> str:
    record = history.record
    scope = record.scope
    steps = []
    for entry in history.timeline:
        r = entry.record
        change = ""
        if entry.successor is not None:
            change = (
                f'<p class="change">{esc(entry.change)}: replaced by '
                f'<a href="{esc(links.memory(entry.successor.id, scope))}">'
                f"{esc(entry.successor.text)}</a> (stated {day(stated_at(entry.successor))}, "
                f"stored {moment(entry.successor.created_at)})</p>"
            )
        elif entry.summary is not None:
            change = (
                f'<p class="change">{esc(entry.change)}: '
                f'<a href="{esc(links.memory(entry.summary.id, scope))}">'
                f"{esc(short(entry.summary.id))}</a> ({moment(entry.summary.created_at)})</p>"
            )
        elif entry.change:
            change = f'<p class="change">{esc(entry.change)}</p>'
        if entry.revision and r.id != record.id:
            change += (
                f'<div class="actions">{_record_actions(links, r, token, revision=True)}</div>'
            )
        steps.append(
            f'<li class="step {esc(r.status.value)}"><time>{day(r.valid_at)}</time>'
            f"{_card(links, r, current=record.id)}{change}</li>"
        )
    timeline = f'<ol class="timeline">{"".join(steps)}</ol>'
    sources = ""
    if history.sources or history.missing_sources:
        items = "".join(f"<li>{_card(links, s, current='')}</li>" for s in history.sources)
        gone = "".join(
            f'<li class="missing">{esc(short(i))}: no longer in the store</li>'
            for i in history.missing_sources
        )
        sources = (
            f'<section class="sources"><h2>Consolidation summary of {len(history.sources)} '
            f"memories</h2><p>Written by consolidation on {moment(record.created_at)}; its "
            f'sources were archived into it.</p><ul class="sources">{items}{gone}</ul></section>'
        )
    events = ", ".join(history.event_ids) or "—"
    facts = (
        f'<dl class="facts"><dt>id</dt><dd><code>{esc(record.id)}</code></dd>'
        f"<dt>status</dt><dd>{_badge(record.status)}</dd>"
        f"<dt>slot</dt><dd>{esc(_facts_slot(record))}</dd>"
        f"<dt>stated</dt><dd>{moment(stated_at(record))}</dd>"
        f"<dt>valid</dt><dd>{moment(record.valid_at)}</dd>"
        f"<dt>stored</dt><dd>{moment(record.created_at)}</dd>"
        f"<dt>confidence</dt><dd>{record.confidence:.2f}</dd>"
        f"<dt>hits</dt><dd>{record.hits} (last {moment(record.last_accessed_at)})</dd>"
        f"<dt>session</dt><dd>{esc(record.source.session_id or '—')}</dd>"
        f'<dt>events</dt><dd class="events">{esc(events)}</dd></dl>'
        f'<div class="actions">{_record_actions(links, record, token, revision=history.revision)}'
        "</div>"
    )
    body = f"{facts}<h2>Timeline</h2>{timeline}{sources}"
    return layout(
        links,
        record.text if len(record.text) <= 80 else record.text[:79] + "…",
        body,
        crumbs=[
            (str(scope), links.scope(scope)),
            (short(record.id), links.memory(record.id, scope)),
        ],
        notice=notice,
        read_only=read_only,
    )


def _bar(name: str, value: float) -> str:
    width = max(0.0, min(1.0, value)) * 100
    return (
        f'<div class="component" data-component="{esc(name)}"><span class="label">{esc(name)}'
        f'</span><span class="bar"><span class="fill {esc(name)}" style="width:{width:.1f}%">'
        f'</span></span><span class="value">{value:.3f}</span></div>'
    )


def _mark(memory: ScoredMemory) -> str:
    if memory.latest is None:
        return ""
    word = "latest" if memory.latest else "earlier"
    return (
        f' · <span class="mark {word}" title="other recalled memories answer the same '
        f'question; this one was stated {"last" if memory.latest else "before"}">{word}</span>'
    )


def _via(links: Links, scope: Scope, matched_via: str | None) -> str:
    """A link to the retired memory (a summary's source, a memory this one replaced) whose
    match a recalled memory inherited."""
    if matched_via is None:
        return ""
    return (
        f' · <span class="via" title="matched through a memory this one replaced or '
        f'summarises">matched via <a href="{esc(links.memory(matched_via, scope))}">'
        f"{esc(short(matched_via))}</a></span>"
    )


def recall_page(
    links: Links,
    scope: Scope,
    *,
    query: str,
    now: str,
    top_k: int,
    max_chars: str,
    result: Playground | None,
) -> str:
    form = (
        f'<form method="get" class="playground" action="{esc(links.recall(scope))}">'
        f'{_scope_fields(scope)}<label class="wide">query <input type="search" name="q" '
        f'value="{esc(query)}" placeholder="what the user would say" required></label>'
        f'<label>now <input name="now" value="{esc(now)}" placeholder="ISO-8601, default now">'
        f'</label><label>plugin top_k <input name="top_k" type="number" min="1" max="100" '
        f'value="{top_k}"></label><label>max_memory_chars <input name="max_chars" '
        f'type="number" min="1" value="{esc(max_chars)}" placeholder="no bound"></label>'
        f'<button type="submit">Recall</button></form>'
    )
    body = form
    if result is not None:
        rows = []
        for rank, m in enumerate(result.ranked, start=1):
            b = m.breakdown
            bars = "".join(_bar(c, float(getattr(b, c))) for c in COMPONENTS)
            injected = ' class="injected"' if rank <= result.injected else ""
            rows.append(
                f'<li data-id="{esc(m.record.id)}"{injected}><div class="head"><span class="rank">'
                f'#{rank}</span> <a href="{esc(links.memory(m.record.id, scope))}">'
                f"{esc(m.record.text)}</a></div>"
                f'<div class="score">score <b>{b.score:.4f}</b> · cosine {b.cosine:.3f} · age '
                f"{b.age_days:.0f} days · {esc(m.record.kind.value)}{_mark(m)}"
                f"{_via(links, scope, b.matched_via)}</div>"
                f'<div class="components">{bars}</div></li>'
            )
        ranked = (
            f'<ol class="ranked">{"".join(rows)}</ol>'
            if rows
            else '<p class="empty">Nothing recalled for this query.</p>'
        )
        block = (
            f'<pre class="block">{esc(result.block)}</pre>'
            if result.block
            else '<p class="empty block">The plugin would inject nothing.</p>'
        )
        bound = f"{result.max_chars} chars" if result.max_chars else "no bound"
        body += (
            f'<p class="meta">Ranked as of {moment(result.now)}. score = similarity × decay × '
            f"confidence, where similarity blends the cosine with the lexical match. Recall "
            f"then puts memories that answer the same question together, the one stated last "
            f"first (marked latest / earlier), so the order can differ from the scores. The "
            f"first {result.top_k} that fit the budget are injected (marked at the left).</p>"
            f"<h2>Ranking</h2>{ranked}"
            f'<h2>What the plugin injects</h2><p class="meta"><span class="chars">'
            f"{result.block_chars}</span> characters · {result.injected} memories (top_k "
            f"{result.top_k}, {bound})</p>{block}"
        )
    return layout(
        links,
        "Recall playground",
        body,
        crumbs=[(str(scope), links.scope(scope)), ("recall", links.recall(scope))],
    )


def _named(links: Links, dry: DryRun, ids: Sequence[str], scope: Scope) -> str:
    items = []
    for memory_id in ids:
        record = dry.records.get(memory_id)
        text = esc(record.text) if record else "(not in the store)"
        items.append(
            f'<li data-id="{esc(memory_id)}"><a href="{esc(links.memory(memory_id, scope))}">'
            f"{text}</a></li>"
        )
    return f"<ul>{''.join(items)}</ul>" if items else '<p class="empty">nothing</p>'


def lifecycle_page(links: Links, scope: Scope, dry: DryRun, *, now: str, similarity: str) -> str:
    gc = dry.gc.scopes[0] if dry.gc.scopes else None
    plan = dry.consolidation.scopes[0] if dry.consolidation.scopes else None
    form = (
        f'<form method="get" class="playground" action="{esc(links.lifecycle(scope))}">'
        f'{_scope_fields(scope)}<label>now <input name="now" value="{esc(now)}" '
        f'placeholder="ISO-8601, default now"></label><label>consolidation similarity '
        f'<input name="similarity" value="{esc(similarity)}" placeholder="default"></label>'
        f'<button type="submit">Dry run</button></form>'
        f'<p class="meta">Dry runs as of {moment(dry.gc.now)}: nothing below has been changed. '
        f"Run <code>adk-memory gc</code> or <code>adk-memory consolidate</code> to apply.</p>"
    )
    gc_html = '<p class="empty">nothing</p>'
    if gc is not None:
        gc_html = (
            f'<p class="meta">{gc.examined} examined over {gc.sessions} sessions</p>'
            f"<h3>Would archive as faded ({len(gc.faded)})</h3>"
            f'<div class="faded">{_named(links, dry, gc.faded, scope)}</div>'
            f"<h3>Would archive as expired history ({len(gc.expired)})</h3>"
            f'<div class="expired">{_named(links, dry, gc.expired, scope)}</div>'
        )
    clusters = []
    for cluster in plan.clusters if plan else []:
        clusters.append(
            f'<li class="cluster"><p class="summary">{esc(cluster.text)}</p>'
            f'<p class="meta">level {cluster.level} · would archive {len(cluster.source_ids)} '
            f"sources:</p>{_named(links, dry, cluster.source_ids, scope)}</li>"
        )
    plan_html = (
        f'<ul class="clusters">{"".join(clusters)}</ul>'
        if clusters
        else '<p class="empty">No cluster to consolidate.</p>'
    )
    examined = f'<p class="meta">{plan.examined} examined</p>' if plan else ""
    body = (
        f'{form}<section class="gc"><h2>Garbage collection</h2>{gc_html}</section>'
        f'<section class="consolidation"><h2>Consolidation</h2>{examined}{plan_html}</section>'
    )
    return layout(
        links,
        "Lifecycle dry run",
        body,
        crumbs=[(str(scope), links.scope(scope)), ("lifecycle", links.lifecycle(scope))],
    )
