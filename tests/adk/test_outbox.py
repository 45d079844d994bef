"""Outbox: a durable, bounded local file of pending memory saves."""

from __future__ import annotations

import stat
from pathlib import Path

from google.adk.events.event import Event
from google.genai import types

from adk_memory.adk.outbox import Outbox


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def event(text: str) -> Event:
    return Event(author="user", content=types.Content(role="user", parts=[types.Part(text=text)]))


def put(outbox: Outbox, user: str = "u", text: str = "I live in Lisbon.") -> int:
    entry_id, _ = outbox.put(
        "dest", app_name="a", user_id=user, session_id="s", events=[event(text)]
    )
    return entry_id


def test_entries_survive_reopening_and_the_file_is_private(tmp_path: Path) -> None:
    path = tmp_path / "data" / "outbox.db"
    first = Outbox(path)
    entry_id = put(first)
    first.close()

    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = Outbox(path)
    [entry] = again.due("dest")
    assert entry.id == entry_id and entry.user_id == "u"
    assert entry.events[0].content is not None
    assert entry.events[0].content.parts[0].text == "I live in Lisbon."
    assert again.due("another store") == []  # only its own destination's saves
    again.close()


def test_failed_attempts_back_off_and_are_finally_given_up(tmp_path: Path) -> None:
    clock = Clock()
    outbox = Outbox(
        tmp_path / "o.db", max_attempts=3, backoff_initial_s=10, backoff_max_s=15, clock=clock
    )
    entry_id = put(outbox)

    assert outbox.failed(entry_id, "503") is None
    assert outbox.due("dest") == [] and outbox.next_due_in("dest") == 10
    assert [e.id for e in outbox.due("dest", ignore_backoff=True)] == [entry_id]
    clock.now += 10
    assert outbox.failed(entry_id, "503") is None
    assert outbox.next_due_in("dest") == 15  # doubled, then capped
    given_up = outbox.failed(entry_id, "503")

    assert given_up is not None and given_up.attempts == 3 and "503" in given_up.reason
    assert outbox.count() == 0


def test_size_and_age_bounds_give_up_the_oldest(tmp_path: Path) -> None:
    clock = Clock()
    outbox = Outbox(tmp_path / "o.db", max_entries=2, max_age_s=100, clock=clock)
    put(outbox, text="one")
    put(outbox, text="two")
    _, given_up = outbox.put(
        "dest", app_name="a", user_id="u", session_id="s3", events=[event("three")]
    )
    assert [g.reason for g in given_up] == ["outbox full (2 saves)"]
    clock.now += 101
    aged = outbox.prune()
    assert len(aged) == 2 and all("older than" in g.reason for g in aged)
    assert outbox.count() == 0


def test_discarding_a_scope_removes_only_that_users_saves(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "o.db")
    put(outbox, user="alice")
    put(outbox, user="alice")
    kept = put(outbox, user="bob")

    assert outbox.discard_scope("a", "alice") == 2
    assert [e.id for e in outbox.due("dest")] == [kept]
