"""`Outbox`: a durable local file of memory saves not yet written to the memory service.

A background save that fails (a backend outage) must not be lost, nor one still pending
when the process stops. Each save is written here before it is attempted and removed once
the service accepted it; what is left is replayed, with backoff, when the backend works
again and when the next process starts. The file is bounded in entries and in age: what
falls out of either bound is given up, counted and logged, never dropped silently.

The file is a small SQLite database created 0600 (it holds what users said). Entries carry
a *destination* (which memory service they are for), so a process only replays the saves
meant for its own store, even when several apps share the default file.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import platformdirs
from google.adk.events.event import Event

logger = logging.getLogger("adk_memory.adk.plugin")

SCHEMA = """
CREATE TABLE IF NOT EXISTS pending (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    destination TEXT NOT NULL,
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    events TEXT NOT NULL,
    created_at REAL NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at REAL NOT NULL,
    last_error TEXT
);
CREATE INDEX IF NOT EXISTS pending_due ON pending (destination, next_attempt_at);
CREATE INDEX IF NOT EXISTS pending_scope ON pending (app_name, user_id);
"""


def default_outbox_path() -> Path:
    """`outbox.db` under the user's data directory (beside the default store)."""
    return Path(platformdirs.user_data_dir("adk-memory", appauthor=False)) / "outbox.db"


@dataclass(frozen=True)
class OutboxEntry:
    """One save waiting in the outbox."""

    id: int
    app_name: str
    user_id: str
    session_id: str
    events: list[Event]
    created_at: float
    attempts: int


@dataclass(frozen=True)
class GivenUp:
    """A save the outbox stopped trying, and why."""

    app_name: str
    user_id: str
    session_id: str
    events: int
    attempts: int
    reason: str


class Outbox:
    """Pending memory saves in a local SQLite file.

    Every method is synchronous and short (one small transaction); callers on an event loop
    run them with `asyncio.to_thread`.

    Args:
        path: The file (created with its directory, mode 0600).
        max_entries: Saves kept at most; past it the oldest are given up.
        max_age_s: Saves older than this are given up.
        max_attempts: Failed attempts after which a save is given up.
        backoff_initial_s: Wait after the first failure; doubled after each further one.
        backoff_max_s: Longest wait between two attempts.
        clock: Wall-clock seconds (injected for tests).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        max_entries: int = 10_000,
        max_age_s: float = 7 * 24 * 3600.0,
        max_attempts: int = 200,
        backoff_initial_s: float = 1.0,
        backoff_max_s: float = 300.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if max_entries < 1 or max_attempts < 1:
            raise ValueError("max_entries and max_attempts must be at least 1")
        if max_age_s <= 0 or backoff_initial_s < 0 or backoff_max_s < backoff_initial_s:
            raise ValueError("invalid outbox age or backoff bounds")
        self.path = Path(path)
        self.max_entries = max_entries
        self.max_age_s = max_age_s
        self.max_attempts = max_attempts
        self.backoff_initial_s = backoff_initial_s
        self.backoff_max_s = backoff_max_s
        self.clock = clock
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Created 0600 before SQLite opens it: it holds personal data.
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            os.close(fd)
            os.chmod(self.path, 0o600)
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA busy_timeout=5000")
            db.execute("PRAGMA secure_delete=ON")
            db.executescript(SCHEMA)
            for suffix in ("-wal", "-shm"):
                side = Path(f"{self.path}{suffix}")
                if side.exists():
                    os.chmod(side, 0o600)
            self._db = db
        return self._db

    def put(
        self,
        destination: str,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        events: Sequence[Event],
    ) -> tuple[int, list[GivenUp]]:
        """Stores a save; returns its id and what had to be given up to stay in bounds."""
        payload = json.dumps([e.model_dump(mode="json", exclude_none=True) for e in events])
        now = self.clock()
        with self._lock:
            db = self._connect()
            cursor = db.execute(
                "INSERT INTO pending (destination, app_name, user_id, session_id, events,"
                " created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (destination, app_name, user_id, session_id, payload, now, now),
            )
            entry_id = cursor.lastrowid
            assert entry_id is not None
            given_up = self._prune(db, now)
        return entry_id, given_up

    def contains(self, entry_id: int) -> bool:
        """Whether the entry with this id is still pending (not saved, erased or given up)."""
        with self._lock:
            row = (
                self._connect()
                .execute("SELECT 1 FROM pending WHERE id = ?", (entry_id,))
                .fetchone()
            )
        return row is not None

    def due(
        self, destination: str, *, limit: int = 16, ignore_backoff: bool = False
    ) -> list[OutboxEntry]:
        """Entries for `destination` whose next attempt is due, oldest first."""
        now = float("inf") if ignore_backoff else self.clock()
        with self._lock:
            rows = (
                self._connect()
                .execute(
                    "SELECT id, app_name, user_id, session_id, events, created_at, attempts"
                    " FROM pending WHERE destination = ? AND next_attempt_at <= ?"
                    " ORDER BY id LIMIT ?",
                    (destination, now, limit),
                )
                .fetchall()
            )
        return [_entry(r) for r in rows]

    def next_due_in(self, destination: str) -> float | None:
        """Seconds until the next entry for `destination` is due (None: nothing pending)."""
        with self._lock:
            row = (
                self._connect()
                .execute(
                    "SELECT MIN(next_attempt_at) FROM pending WHERE destination = ?",
                    (destination,),
                )
                .fetchone()
            )
        if row is None or row[0] is None:
            return None
        return max(0.0, float(row[0]) - self.clock())

    def done(self, entry_id: int) -> None:
        """Removes a save the service accepted."""
        with self._lock:
            self._connect().execute("DELETE FROM pending WHERE id = ?", (entry_id,))

    def failed(self, entry_id: int, error: str) -> GivenUp | None:
        """Records a failed attempt and schedules the next one (backoff doubling up to its
        bound); returns the entry as given up once it has used its attempts."""
        now = self.clock()
        with self._lock:
            db = self._connect()
            row = db.execute(
                "SELECT app_name, user_id, session_id, events, attempts FROM pending WHERE id = ?",
                (entry_id,),
            ).fetchone()
            if row is None:
                return None
            attempts = int(row[4]) + 1
            if attempts >= self.max_attempts:
                db.execute("DELETE FROM pending WHERE id = ?", (entry_id,))
                return GivenUp(
                    row[0],
                    row[1],
                    row[2],
                    len(json.loads(row[3])),
                    attempts,
                    f"{attempts} failed attempts (last: {error})",
                )
            wait = min(self.backoff_max_s, self.backoff_initial_s * 2 ** (attempts - 1))
            db.execute(
                "UPDATE pending SET attempts = ?, next_attempt_at = ?, last_error = ? WHERE id = ?",
                (attempts, now + wait, error[:500], entry_id),
            )
        return None

    def prune(self) -> list[GivenUp]:
        """Gives up entries past the age or size bound."""
        with self._lock:
            return self._prune(self._connect(), self.clock())

    def _prune(self, db: sqlite3.Connection, now: float) -> list[GivenUp]:
        rows = db.execute(
            "SELECT id, app_name, user_id, session_id, events, attempts, created_at FROM pending"
            " WHERE created_at < ? OR id NOT IN (SELECT id FROM pending ORDER BY id DESC LIMIT ?)",
            (now - self.max_age_s, self.max_entries),
        ).fetchall()
        given_up = []
        for entry_id, app, user, session, events, attempts, created in rows:
            reason = (
                f"older than {self.max_age_s:.0f}s"
                if created < now - self.max_age_s
                else f"outbox full ({self.max_entries} saves)"
            )
            given_up.append(GivenUp(app, user, session, len(json.loads(events)), attempts, reason))
            db.execute("DELETE FROM pending WHERE id = ?", (entry_id,))
        return given_up

    def discard_scope(self, app_name: str, user_id: str) -> int:
        """Removes every pending save of one user (erase); returns how many."""
        with self._lock:
            cursor = self._connect().execute(
                "DELETE FROM pending WHERE app_name = ? AND user_id = ?", (app_name, user_id)
            )
            return cursor.rowcount

    def count(self, destination: str | None = None) -> int:
        """Saves pending (for one destination, or all)."""
        with self._lock:
            db = self._connect()
            if destination is None:
                row = db.execute("SELECT COUNT(*) FROM pending").fetchone()
            else:
                row = db.execute(
                    "SELECT COUNT(*) FROM pending WHERE destination = ?", (destination,)
                ).fetchone()
        return int(row[0])

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None


def _entry(row: tuple[object, ...]) -> OutboxEntry:
    entry_id, app, user, session, events, created, attempts = row
    return OutboxEntry(
        id=int(str(entry_id)),
        app_name=str(app),
        user_id=str(user),
        session_id=str(session),
        events=[Event.model_validate(e) for e in json.loads(str(events))],
        created_at=float(str(created)),
        attempts=int(str(attempts)),
    )
