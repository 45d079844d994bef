"""The embedded default store: one SQLite file (WAL), vectors as float32 blobs, exact search on
a per-scope in-memory matrix, FTS5 for lexical candidates.

Every database call runs on one worker thread that owns the connection, so the event loop
never blocks on disk. The in-memory indexes follow the file through a change counter
(`seq`): before each search the store reads the rows (and tombstones) of that scope changed
since it last looked, so writes by other processes sharing the file are seen too.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import functools
import hashlib
import json
import logging
import math
import os
import re
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from adk_memory.errors import BackendError, ConfigError, InvalidInputError
from adk_memory.model import (
    MAX_TIMESTAMP,
    MIN_TIMESTAMP,
    Kind,
    MemoryRecord,
    Scope,
    Source,
    Status,
    check_timestamp,
)
from adk_memory.stores.base import ListFilter, Page, SearchHit
from adk_memory.stores.sqlite.schema import migrate
from adk_memory.stores.sqlite.vector_index import ScopeVectorIndex
from adk_memory.stores.uri import StoreUri

T = TypeVar("T")
logger = logging.getLogger("adk_memory")

#: Files holding personal data are readable by their owner only.
FILE_MODE = 0o600
DIR_MODE = 0o700
#: Longest wait for another process's reconcile lock before `reconcile_lock` gives up.
RECONCILE_LOCK_TIMEOUT_S = 30.0

_COLUMNS = (
    "rowid, id, app_name, user_id, text, subject, predicate, object, polarity, confidence, kind, "
    "author, valid_at, created_at, status, superseded_by, consolidated_into, session_id, "
    "event_ids, hits, last_accessed_at, recorded_at"
)
#: How many times deeper than k the lexical query ranks, to score dense candidates too.
LEXICAL_DEPTH = 4
#: Lexical relevance is scaled by the share of the query's words a memory holds, to this
#: power (`query_coverage`). bm25 scaled so each search's best match is 1 gives a memory that
#: shares one word of the query ("blood" of "What blood pressure medication am I on?", in "My
#: blood type is O negative") the whole lexical half of the score, above the memory that
#: answers in other words. On LoCoMo (`bench_locomo`): R@1 0.316 → 0.346, R@10 0.642 → 0.648
#: at power 1; squaring the share lowered R@10 (0.635 in a trial with prefix matching).
LEXICAL_COVERAGE_POWER = 1.0
#: Most documents one lexical query may have to score (see `_within_budget`).
LEXICAL_DOC_BUDGET = 2_000
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# Words that carry no topic: matching them lexically only adds noise to the candidates.
_STOPWORDS = frozenset(
    (
        "a an and are as at be been but by can could did do does doing for from had has have how i "
        "if in into is it its me my of on or our she he her him his so that the their them they "
        "this to was we were what when where which who whom why will with would you your yours "
        "about after before did does any some than then there these those too very just also not "
        "no "
        "yes"
    ).split()
)


def _ts(value: datetime | None) -> float | None:
    # Models validate their datetimes, but a record changed after validation (or built
    # with model_construct) must not put a value on disk that cannot be read back.
    return None if value is None else check_timestamp(value).timestamp()


_MIN_TS = MIN_TIMESTAMP.timestamp()
#: The latest instant a stored value decodes to (the accepted range is half-open).
_LAST = MAX_TIMESTAMP - timedelta(microseconds=1)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _dt(value: float | None) -> datetime | None:
    return None if value is None else _dt_required(value)


def _dt_required(value: float | None) -> datetime:
    """A stored POSIX float as aware UTC. A value outside the accepted range (written by an
    older version that accepted any date) is clamped to the range and logged: one bad value
    must never make every read of its scope raise."""
    if isinstance(value, int | float) and math.isfinite(value):
        if _MIN_TS <= value < MAX_TIMESTAMP.timestamp():
            decoded = _EPOCH + timedelta(seconds=value)
            if MIN_TIMESTAMP <= decoded <= _LAST:
                return decoded
        clamped = MIN_TIMESTAMP if value < _MIN_TS else _LAST
    else:
        clamped = MIN_TIMESTAMP
    logger.warning("stored timestamp %r is out of range; read as %s", value, clamped.isoformat())
    return clamped


def _copy(vector: np.ndarray | None) -> np.ndarray | None:
    # The index matrix is reallocated as it grows; a hit keeps its own copy.
    return None if vector is None else vector.copy()


def _fts_terms(text: str) -> list[str]:
    terms = [w.lower() for w in _WORD.findall(text)]
    return [t for t in dict.fromkeys(terms) if t not in _STOPWORDS and len(t) > 1][:64]


@functools.lru_cache(maxsize=8192)
def _stem_guesses(term: str) -> tuple[str, ...]:
    """Forms the porter tokenizer may have indexed a query word under ("eating" → "eat",
    "birthday" → "birthdai"): enough to estimate how many documents a word matches.
    Remembered: `query_coverage` reads the words of every lexical hit on each search."""
    guesses = [term]
    for suffix, replacement in (("ing", ""), ("ed", ""), ("es", ""), ("s", ""), ("y", "i")):
        if term.endswith(suffix) and len(term) - len(suffix) >= 3:
            guesses.append(term[: -len(suffix)] + replacement)
    return tuple(guesses)


#: Query words that say whom a query is about, not what: recall asks "Where does the user
#: live?" for "Where does alice live?", and "I live in Berlin" answers it fully.
_WHO_TERMS = frozenset({"user"})


def query_coverage(text: str, terms: Sequence[str]) -> float:
    """The share of the query's `terms` that `text` holds, a word matching a term when the
    forms the porter tokenizer may index them under meet ("reading" holds "read")."""
    terms = [t for t in terms if t not in _WHO_TERMS]
    if not terms:
        return 1.0
    forms = {g for w in _WORD.findall(text.lower()) for g in _stem_guesses(w)}
    return sum(1 for t in terms if forms.intersection(_stem_guesses(t))) / len(terms)


def _within_budget(frequencies: Sequence[tuple[str, int]], budget: int) -> list[str]:
    """The rarest terms whose postings add up to at most `budget` documents (always at least
    the rarest): bm25 scores every matching document, and the most frequent terms cost the
    most work while carrying the least weight (lowest IDF)."""
    kept: list[str] = []
    total = 0
    for term, docs in sorted(frequencies, key=lambda td: td[1]):
        if kept and total + docs > budget:
            break
        kept.append(term)
        total += docs
    return kept


def lexical_scores(
    ranked: Sequence[tuple[int, float]], k: int, dense_rowids: Iterable[int]
) -> dict[int, float]:
    """bm25 relevance scaled so the best match of this search is 1, for the top-k lexical
    matches and for the dense candidates found deeper in the ranking (`LEXICAL_DEPTH`·k);
    a dense candidate ranked lower gets 0, which at that depth is what its bm25 rounds to."""
    if not ranked or ranked[0][1] <= 0:
        return {}
    best = ranked[0][1]
    wanted = set(dense_rowids)
    return {
        rowid: max(score, 0.0) / best
        for rank, (rowid, score) in enumerate(ranked)
        if rank < k or rowid in wanted
    }


def _locked(exc: sqlite3.OperationalError) -> bool:
    """Whether sqlite refused for a lock another connection holds (it may free it soon)."""
    message = str(exc).lower()
    return "locked" in message or "busy" in message


class SqliteStore:
    """`MemoryStore` on one SQLite file."""

    max_search_k = 10_000

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout_s: float = 30.0,
        lock_timeout_s: float = RECONCILE_LOCK_TIMEOUT_S,
    ) -> None:
        self.path = Path(path)
        self._busy_timeout_s = busy_timeout_s
        self._lock_timeout_s = lock_timeout_s
        # Reconcile locks: one asyncio.Lock per scope queues this process's tasks; the
        # holder task and its nesting depth make re-entry by the same task a no-op.
        self._scope_locks: dict[tuple[str, str], asyncio.Lock] = {}
        self._lock_holders: dict[tuple[str, str], tuple[asyncio.Task[Any], int]] = {}
        #: The `erased` marker last seen: when another connection erases a scope, every
        #: in-memory index is rebuilt (the marker names no scope, so it leaks none).
        self._erased_seen: str | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="adkmem-sqlite")
        self._conn: sqlite3.Connection | None = None
        # A second, read-only connection on its own thread runs the lexical query while the
        # store thread does the dense search: both release the GIL, so they overlap.
        self._lexical_executor = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="adkmem-sqlite-fts"
        )
        self._lexical_local = threading.local()
        self._indexes: dict[tuple[str, str], ScopeVectorIndex] = {}
        self._dimension: int | None = None
        self._closed = False

    # -- plumbing ---------------------------------------------------------------------------

    async def open(self) -> SqliteStore:
        await self._run(self._open)
        return self

    @property
    def _on_disk(self) -> bool:
        return str(self.path) != ":memory:"

    def _create_private(self) -> None:
        """Creates missing parent folders 0700 and the database file 0600 before sqlite
        opens it: sqlite gives its -wal and -shm files the database file's mode."""
        missing: list[Path] = []
        parent = self.path.parent
        while not parent.exists():
            missing.append(parent)
            parent = parent.parent
        for folder in reversed(missing):
            with contextlib.suppress(FileExistsError):
                folder.mkdir(mode=DIR_MODE)
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        except FileExistsError:
            return  # an existing file keeps the mode its owner gave it
        os.close(fd)

    def _open(self) -> None:
        try:
            if self._on_disk:
                self._create_private()
            try:
                conn = self._connect()
            except sqlite3.OperationalError as exc:
                if not _locked(exc):
                    raise
                conn = self._connect_when_free()
        except (sqlite3.DatabaseError, OSError) as exc:
            raise ConfigError(f"cannot open memory database {self.path}: {exc}") from exc
        self._conn = conn
        row = conn.execute("SELECT value FROM meta WHERE key='dimension'").fetchone()
        self._dimension = int(row[0]) if row else None
        self._erased_seen = self._erase_marker(conn)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path,
            timeout=self._busy_timeout_s,
            isolation_level=None,
            check_same_thread=True,
        )
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            # Deleted text (forget, erase) is overwritten, not left in free pages.
            conn.execute("PRAGMA secure_delete=ON")
            migrate(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _connect_when_free(self) -> sqlite3.Connection:
        """`_connect` again, with backoff, until the busy timeout has passed (an attempt that
        is already waiting on sqlite's busy handler may run past it). Switching a new file to
        WAL needs an exclusive lock, and sqlite answers "database is locked" at once, without
        waiting the busy timeout, while another process writes the file (several processes
        opening one new file at the same instant). Imported here: the first attempt usually
        works, and a command that opens a store pays nothing for tenacity."""
        import tenacity

        for attempt in tenacity.Retrying(
            retry=tenacity.retry_if_exception(
                lambda exc: isinstance(exc, sqlite3.OperationalError) and _locked(exc)
            ),
            stop=tenacity.stop_after_delay(self._busy_timeout_s),
            wait=tenacity.wait_exponential_jitter(initial=0.01, max=0.2),
            reraise=True,
        ):
            with attempt:
                return self._connect()
        raise AssertionError("unreachable: tenacity re-raises the last error")

    @staticmethod
    def _erase_marker(conn: sqlite3.Connection) -> str | None:
        row = conn.execute("SELECT value FROM meta WHERE key='erased'").fetchone()
        return None if row is None else str(row[0])

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        if self._closed:
            raise BackendError("store is closed")
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, fn, *args)
        except sqlite3.OperationalError as exc:
            raise BackendError(f"sqlite: {exc}") from exc

    @property
    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise BackendError("store is not open")
        return self._conn

    def _transaction(self, body: Callable[[sqlite3.Connection], T]) -> T:
        conn = self._db
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = body(conn)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return result

    def _next_seq(self, conn: sqlite3.Connection) -> int:
        conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'seq'")
        return int(conn.execute("SELECT value FROM meta WHERE key='seq'").fetchone()[0])

    def _check_dimension(self, conn: sqlite3.Connection, records: Sequence[MemoryRecord]) -> None:
        for record in records:
            if record.embedding is None:
                exists = conn.execute(
                    "SELECT 1 FROM memories WHERE id = ? AND embedding IS NOT NULL", (record.id,)
                ).fetchone()
                if exists is None:
                    raise InvalidInputError(f"new record {record.id} has no embedding")
                continue
            dim = len(record.embedding)
            if self._dimension is None:
                conn.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES ('dimension', ?)", (str(dim),)
                )
                self._dimension = dim
            elif dim != self._dimension:
                raise InvalidInputError(
                    f"embedding has {dim} dimensions; this store holds {self._dimension}-d vectors"
                )

    # -- writes -----------------------------------------------------------------------------

    def _write_records(self, conn: sqlite3.Connection, records: Sequence[MemoryRecord]) -> None:
        self._check_dimension(conn, records)
        seq = self._next_seq(conn)
        for r in records:
            params = (
                r.id,
                r.scope.app_name,
                r.scope.user_id,
                r.text,
                r.subject,
                r.predicate,
                r.object,
                int(r.polarity),
                r.confidence,
                r.kind.value,
                r.author,
                _ts(r.valid_at),
                _ts(r.created_at),
                r.status.value,
                r.superseded_by,
                r.consolidated_into,
                r.source.session_id,
                json.dumps(r.source.event_ids),
                r.hits,
                _ts(r.last_accessed_at),
                None if r.embedding is None else np.asarray(r.embedding, np.float32).tobytes(),
                seq,
                _ts(r.recorded_at),
            )
            existing = conn.execute(
                "SELECT app_name, user_id FROM memories WHERE id = ?", (r.id,)
            ).fetchone()
            if existing is not None and tuple(existing) != (r.scope.app_name, r.scope.user_id):
                raise InvalidInputError(f"memory {r.id} belongs to another scope")
            conn.execute(
                """INSERT INTO memories (id, app_name, user_id, text, subject, predicate, object,
                    polarity, confidence, kind, author, valid_at, created_at, status,
                    superseded_by, consolidated_into, session_id, event_ids, hits,
                    last_accessed_at, embedding, seq, recorded_at)
                   VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
                   ON CONFLICT (id) DO UPDATE SET text=excluded.text, subject=excluded.subject,
                    predicate=excluded.predicate, object=excluded.object,
                    polarity=excluded.polarity, confidence=excluded.confidence,
                    kind=excluded.kind, author=excluded.author, valid_at=excluded.valid_at,
                    created_at=excluded.created_at, status=excluded.status,
                    superseded_by=excluded.superseded_by,
                    consolidated_into=excluded.consolidated_into,
                    session_id=excluded.session_id, event_ids=excluded.event_ids,
                    hits=excluded.hits, last_accessed_at=excluded.last_accessed_at,
                    embedding=COALESCE(excluded.embedding, memories.embedding),
                    seq=excluded.seq, recorded_at=excluded.recorded_at""",
                params,
            )

    async def upsert(self, records: Sequence[MemoryRecord]) -> None:
        if records:
            await self._run(self._transaction, lambda c: self._write_records(c, records))

    async def replace(self, new: MemoryRecord, superseded_ids: Sequence[str]) -> list[str]:
        def body(conn: sqlite3.Connection) -> list[str]:
            self._write_records(conn, [new])
            return self._set_status_rows(
                conn,
                new.scope,
                superseded_ids,
                Status.SUPERSEDED,
                only_from=Status.ACTIVE,
                superseded_by=new.id,
            )

        return await self._run(self._transaction, body)

    def _set_status_rows(
        self,
        conn: sqlite3.Connection,
        scope: Scope,
        ids: Sequence[str],
        status: Status,
        *,
        only_from: Status | None = None,
        superseded_by: str | None = None,
        consolidated_into: str | None = None,
    ) -> list[str]:
        if not ids:
            return []
        seq = self._next_seq(conn)
        changed: list[str] = []
        for memory_id in dict.fromkeys(ids):
            sets = ["status = ?", "seq = ?"]
            params: list[Any] = [status.value, seq]
            if status is Status.SUPERSEDED:
                sets.append("superseded_by = ?")
                params.append(superseded_by)
            if status is Status.ACTIVE:
                sets += ["superseded_by = NULL", "consolidated_into = NULL"]
            if consolidated_into is not None:
                sets.append("consolidated_into = ?")
                params.append(consolidated_into)
            where = "id = ? AND app_name = ? AND user_id = ? AND status != ?"
            params += [memory_id, scope.app_name, scope.user_id, status.value]
            if only_from is not None:
                where += " AND status = ?"
                params.append(only_from.value)
            cursor = conn.execute(f"UPDATE memories SET {', '.join(sets)} WHERE {where}", params)
            if cursor.rowcount:
                changed.append(memory_id)
        return changed

    async def set_status(
        self,
        scope: Scope,
        ids: Sequence[str],
        status: Status,
        *,
        consolidated_into: str | None = None,
    ) -> list[str]:
        return await self._run(
            self._transaction,
            lambda c: self._set_status_rows(
                c, scope, ids, status, consolidated_into=consolidated_into
            ),
        )

    async def delete(self, scope: Scope, ids: Sequence[str]) -> list[str]:
        def body(conn: sqlite3.Connection) -> list[str]:
            seq = self._next_seq(conn)
            deleted: list[str] = []
            for memory_id in dict.fromkeys(ids):
                row = conn.execute(
                    "DELETE FROM memories WHERE id = ? AND app_name = ? AND user_id = ? "
                    "RETURNING rowid",
                    (memory_id, scope.app_name, scope.user_id),
                ).fetchone()
                if row is not None:
                    deleted.append(memory_id)
                    conn.execute(
                        "INSERT INTO tombstones (app_name, user_id, id, row, seq) "
                        "VALUES (?,?,?,?,?)",
                        (scope.app_name, scope.user_id, memory_id, row[0], seq),
                    )
            return deleted

        return await self._run(self._transaction, body)

    async def erase(self, scope: Scope) -> int:
        """Removes every trace of `scope`: its records (any status), tombstones, event
        markers, FTS entries and in-memory index, then scrubs the file so the erased text is
        not recoverable from it (secure_delete zeroes freed content, an FTS 'optimize' drops
        the deleted terms' old segments, a TRUNCATE checkpoint empties the -wal file).
        Called under the scope's `reconcile_lock` (as the engine does), it also removes the
        scope's lock file.

        Returns:
            The number of records removed.
        """
        key = (scope.app_name, scope.user_id)

        def body(conn: sqlite3.Connection) -> int:
            erased = conn.execute(
                "DELETE FROM memories WHERE app_name = ? AND user_id = ?", key
            ).rowcount
            conn.execute("DELETE FROM tombstones WHERE app_name = ? AND user_id = ?", key)
            conn.execute("DELETE FROM seen_events WHERE app_name = ? AND user_id = ?", key)
            # Other connections drop their in-memory indexes when this marker moves; it
            # names no scope, so the erased user leaves no trace in it.
            seq = self._next_seq(conn)
            conn.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('erased', ?)", (str(seq),)
            )
            conn.execute("INSERT INTO memories_fts (memories_fts) VALUES ('optimize')")
            return int(erased)

        def erase_and_scrub() -> int:
            erased = self._transaction(body)
            self._indexes.pop(key, None)
            self._erased_seen = self._erase_marker(self._db)
            self._checkpoint_truncate()
            return erased

        erased = await self._run(erase_and_scrub)
        if self._on_disk and self._holds_lock(scope):
            # The lock file's name is a hash of the scope: drop it too. Only its holder may
            # (waiters re-check the file they locked, see `_flock`).
            await asyncio.to_thread(self._lock_path(scope).unlink, missing_ok=True)
        return erased

    def _checkpoint_truncate(self) -> None:
        """Copies the WAL into the database and truncates it to zero bytes, so no older page
        image (holding erased text) survives in the -wal file. A reader of another process
        can hold the checkpoint off; it is retried briefly, then logged."""
        for attempt in range(20):
            busy, _, _ = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if not busy:
                return
            threading.Event().wait(0.01 * (attempt + 1))
        logger.warning(
            "erase: another connection kept the WAL of %s busy; erased text stays in its "
            "-wal file until the next checkpoint",
            self.path,
        )

    def reconcile_lock(self, scope: Scope) -> AbstractAsyncContextManager[None]:
        """Serialises reconciliation of `scope` across tasks and processes on this file.

        Tasks of this process queue on an asyncio.Lock per scope; across processes an
        exclusive `flock` on a per-scope lock file (in `<db>-locks/`, named by a hash of the
        scope) excludes the others, and the kernel drops it if its process dies. Waiting
        polls a non-blocking flock with asyncio.sleep, so the event loop never blocks.
        Re-entry by the task that holds the lock is a no-op.

        Raises:
            BackendError: if the lock is not obtained within `lock_timeout_s`.
        """
        return self._reconcile_lock(scope)

    @asynccontextmanager
    async def _reconcile_lock(self, scope: Scope) -> AsyncIterator[None]:
        key = (scope.app_name, scope.user_id)
        task = asyncio.current_task()
        holder = self._lock_holders.get(key)
        if task is not None and holder is not None and holder[0] is task:
            self._lock_holders[key] = (task, holder[1] + 1)
            try:
                yield
            finally:
                owner, depth = self._lock_holders[key]
                self._lock_holders[key] = (owner, depth - 1)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._lock_timeout_s
        local = self._scope_locks.setdefault(key, asyncio.Lock())
        try:
            await asyncio.wait_for(local.acquire(), timeout=self._lock_timeout_s)
        except TimeoutError:
            raise self._lock_timeout(scope) from None
        fd: int | None = None
        try:
            if self._on_disk:
                fd = await self._flock(scope, deadline)
            if task is not None:
                self._lock_holders[key] = (task, 1)
            try:
                yield
            finally:
                self._lock_holders.pop(key, None)
        finally:
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)
            local.release()

    def _lock_path(self, scope: Scope) -> Path:
        digest = hashlib.sha256(f"{scope.app_name}\0{scope.user_id}".encode()).hexdigest()
        return self.path.with_name(self.path.name + "-locks") / f"{digest[:32]}.lock"

    async def _flock(self, scope: Scope, deadline: float) -> int:
        """An open descriptor holding an exclusive flock on the scope's lock file."""
        path = self._lock_path(scope)

        def open_lock_file() -> int:
            with contextlib.suppress(FileExistsError):
                path.parent.mkdir(mode=DIR_MODE)
            return os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE)

        def still_linked(fd: int) -> bool:
            # `erase` unlinks the lock file while holding it: a waiter that opened the old
            # file must not count the lock it then gets on that orphan.
            try:
                current = os.stat(path)
            except FileNotFoundError:
                return False
            held = os.fstat(fd)
            return (current.st_dev, current.st_ino) == (held.st_dev, held.st_ino)

        loop = asyncio.get_running_loop()
        delay = 0.001
        while True:
            try:
                fd = await asyncio.to_thread(open_lock_file)
            except OSError as exc:
                raise BackendError(f"cannot open the reconcile lock file {path}: {exc}") from exc
            try:
                while True:
                    try:
                        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        break
                    except OSError as exc:
                        if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                            raise BackendError(f"cannot lock {path}: {exc}") from exc
                    if loop.time() >= deadline:
                        raise self._lock_timeout(scope)
                    await asyncio.sleep(min(delay, max(deadline - loop.time(), 0.0)))
                    delay = min(delay * 2, 0.05)
            except BaseException:
                os.close(fd)
                raise
            if still_linked(fd):
                return fd
            os.close(fd)  # got the orphan of an erased scope: lock the current file

    def _holds_lock(self, scope: Scope) -> bool:
        holder = self._lock_holders.get((scope.app_name, scope.user_id))
        return holder is not None and holder[0] is asyncio.current_task()

    def _lock_timeout(self, scope: Scope) -> BackendError:
        return BackendError(
            f"timed out after {self._lock_timeout_s:g} s waiting for the reconcile lock of "
            f"{scope} on {self.path}: another task or process holds it"
        )

    async def record_hits(self, scope: Scope, ids: Sequence[str], at: datetime) -> None:
        # Hits change no vector or status, so they do not bump `seq` (no index resync).
        def body(conn: sqlite3.Connection) -> None:
            conn.executemany(
                "UPDATE memories SET hits = hits + 1, last_accessed_at = ? "
                "WHERE id = ? AND app_name = ? AND user_id = ?",
                [(_ts(at), i, scope.app_name, scope.user_id) for i in ids],
            )

        if ids:
            await self._run(self._transaction, body)

    async def seen_events(self, scope: Scope, event_ids: Sequence[str]) -> set[str]:
        def body() -> set[str]:
            seen: set[str] = set()
            ids = list(dict.fromkeys(event_ids))
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    f"SELECT event_id FROM seen_events WHERE app_name = ? AND user_id = ? "
                    f"AND event_id IN ({marks})",
                    (scope.app_name, scope.user_id, *chunk),
                )
                seen.update(r[0] for r in rows)
            return seen

        return await self._run(body) if event_ids else set()

    async def mark_events_seen(self, scope: Scope, event_ids: Sequence[str]) -> None:
        def body(conn: sqlite3.Connection) -> None:
            conn.executemany(
                "INSERT OR IGNORE INTO seen_events (app_name, user_id, event_id) VALUES (?,?,?)",
                [(scope.app_name, scope.user_id, e) for e in event_ids],
            )

        if event_ids:
            await self._run(self._transaction, body)

    # -- reads ------------------------------------------------------------------------------

    def _record(self, row: sqlite3.Row | tuple[Any, ...]) -> MemoryRecord:
        return MemoryRecord(
            id=row[1],
            scope=Scope(app_name=row[2], user_id=row[3]),
            text=row[4],
            subject=row[5],
            predicate=row[6],
            object=row[7],
            polarity=bool(row[8]),
            confidence=row[9],
            kind=Kind(row[10]),
            author=row[11],
            valid_at=_dt_required(row[12]),
            created_at=_dt_required(row[13]),
            status=Status(row[14]),
            superseded_by=row[15],
            consolidated_into=row[16],
            source=Source(session_id=row[17], event_ids=json.loads(row[18])),
            hits=row[19],
            last_accessed_at=_dt(row[20]),
            recorded_at=_dt(row[21]),
        )

    def _decoded(self, row: sqlite3.Row | tuple[Any, ...]) -> MemoryRecord | None:
        """`_record`, or None (logged) for a row this version cannot read: one bad row must
        not make every read of its scope fail."""
        try:
            return self._record(row)
        except (ValueError, TypeError) as exc:  # pydantic's ValidationError is a ValueError
            logger.error("skipping unreadable memory row %s (%s): %s", row[0], row[1], exc)
            return None

    async def get(self, memory_id: str, scope: Scope | None = None) -> MemoryRecord | None:
        def body() -> MemoryRecord | None:
            if scope is None:
                row = self._db.execute(
                    f"SELECT {_COLUMNS} FROM memories WHERE id = ?", (memory_id,)
                ).fetchone()
            else:
                row = self._db.execute(
                    f"SELECT {_COLUMNS} FROM memories WHERE id = ? AND app_name = ? "
                    "AND user_id = ?",
                    (memory_id, scope.app_name, scope.user_id),
                ).fetchone()
            return None if row is None else self._decoded(row)

        return await self._run(body)

    async def get_many(
        self, ids: Sequence[str], scope: Scope | None = None, *, with_embeddings: bool = False
    ) -> list[MemoryRecord]:
        """The records among `ids` (any status; only of `scope` when given), in `ids` order.

        For stores layered on this one (Vector Search's document store loads its index
        candidates and pending datapoints with it). With `with_embeddings` each record
        carries its stored vector; otherwise `embedding` is None, as from `get`.
        """
        unique = list(dict.fromkeys(ids))

        def body() -> list[MemoryRecord]:
            found: dict[str, MemoryRecord] = {}
            for start in range(0, len(unique), 500):
                chunk = unique[start : start + 500]
                where = f"id IN ({','.join('?' * len(chunk))})"
                params: list[str] = list(chunk)
                if scope is not None:
                    where += " AND app_name = ? AND user_id = ?"
                    params += [scope.app_name, scope.user_id]
                rows = self._db.execute(
                    f"SELECT {_COLUMNS}, embedding FROM memories WHERE {where}", params
                )
                for row in rows:
                    record = self._decoded(row)
                    if record is None:
                        continue
                    if with_embeddings and row[-1] is not None:
                        vector = np.frombuffer(row[-1], dtype=np.float32)
                        record = record.model_copy(update={"embedding": vector.tolist()})
                    found[record.id] = record
            return [found[i] for i in unique if i in found]

        return await self._run(body)

    async def list_page(
        self,
        scope: Scope,
        *,
        filters: ListFilter | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page:
        if limit <= 0:
            raise InvalidInputError("limit must be positive")
        try:
            after = int(cursor) if cursor else 0
        except ValueError as exc:
            raise InvalidInputError(f"bad cursor {cursor!r}") from exc
        filters = filters or ListFilter()

        def body() -> Page:
            where = ["app_name = ?", "user_id = ?", "rowid > ?"]
            params: list[Any] = [scope.app_name, scope.user_id, after]
            if filters.statuses:
                where.append(f"status IN ({','.join('?' * len(filters.statuses))})")
                params += [s.value for s in filters.statuses]
            for column in ("subject", "predicate", "superseded_by", "consolidated_into"):
                value = getattr(filters, column)
                if value is not None:
                    where.append(f"{column} = ?")
                    params.append(value)
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM memories WHERE {' AND '.join(where)} "
                f"ORDER BY rowid LIMIT ?",
                (*params, limit + 1),
            ).fetchall()
            more = len(rows) > limit
            rows = rows[:limit]
            decoded = (self._decoded(r) for r in rows)
            return Page(
                records=[r for r in decoded if r is not None],
                next_cursor=str(rows[-1][0]) if more else None,
            )

        return await self._run(body)

    async def scopes(self) -> list[Scope]:
        def body() -> list[Scope]:
            rows = self._db.execute(
                "SELECT DISTINCT app_name, user_id FROM memories ORDER BY app_name, user_id"
            )
            return [Scope(app_name=a, user_id=u) for a, u in rows]

        return await self._run(body)

    @contextlib.contextmanager
    def _snapshot(self) -> Iterator[sqlite3.Connection]:
        """One read transaction on the store connection (joins one already open), so every
        query in it sees the same committed state, whatever other processes write."""
        conn = self._db
        if conn.in_transaction:
            yield conn
            return
        conn.execute("BEGIN")
        try:
            yield conn
        finally:
            conn.execute("COMMIT")

    def _sync_index(self, scope: Scope) -> ScopeVectorIndex | None:
        """Brings the scope's in-memory index up to the file. Rows and tombstones are read in
        one snapshot: read apart, a write committed in between could be counted as seen
        (through `seq`) without being loaded."""
        key = (scope.app_name, scope.user_id)
        with self._snapshot() as conn:
            marker = self._erase_marker(conn)
            if marker != self._erased_seen:
                self._indexes.clear()
                self._erased_seen = marker
            index = self._indexes.get(key)
            if index is None:
                if self._dimension is None:
                    row = conn.execute("SELECT value FROM meta WHERE key='dimension'").fetchone()
                    if row is None:
                        return None
                    self._dimension = int(row[0])
                index = self._indexes[key] = ScopeVectorIndex(self._dimension)
            top = int(conn.execute("SELECT value FROM meta WHERE key='seq'").fetchone()[0])
            if top <= index.seq:
                return index
            rows = conn.execute(
                "SELECT rowid, status, embedding FROM memories "
                "WHERE app_name = ? AND user_id = ? AND seq > ?",
                (*key, index.seq),
            ).fetchall()
            dead = conn.execute(
                "SELECT row FROM tombstones WHERE app_name = ? AND user_id = ? AND seq > ?",
                (*key, index.seq),
            ).fetchall()
        # Tombstones first, and never for a row that exists: rowids are not reused since
        # schema 4, and a file from before may still hold a tombstone of a reused rowid.
        live = {int(rowid) for rowid, _, _ in rows}
        index.remove(int(row) for (row,) in dead if int(row) not in live)
        for rowid, status, blob in rows:
            if blob is not None:
                index.put(int(rowid), np.frombuffer(blob, dtype=np.float32), Status(status))
        index.seq = top
        return index

    async def search(
        self,
        scope: Scope,
        *,
        vector: np.ndarray,
        query: str | None = None,
        k: int,
        statuses: Sequence[Status] = (Status.ACTIVE,),
    ) -> list[SearchHit]:
        if k <= 0:
            return []
        k = min(k, self.max_search_k)
        query_vector = np.asarray(vector, dtype=np.float32).reshape(-1)

        def body() -> list[SearchHit]:
            with self._snapshot():
                return search_in_snapshot()

        def search_in_snapshot() -> list[SearchHit]:
            index = self._sync_index(scope)
            if index is None:
                return []
            if query_vector.shape[0] != index.dimension:
                raise InvalidInputError(
                    f"query vector has {query_vector.shape[0]} dimensions; store holds "
                    f"{index.dimension}"
                )
            terms = _fts_terms(query) if query else []
            depth = k * LEXICAL_DEPTH
            # An in-memory database exists only on the store connection: no reader there.
            ranked = (
                self._lexical_executor.submit(
                    self._ranked_lexical_on_reader, scope, terms, depth, statuses
                )
                if terms and self._on_disk
                else None
            )
            dense = dict(index.search(query_vector, k, statuses))
            if ranked is not None:
                ranked_rows = ranked.result()
            elif terms:
                ranked_rows = self._ranked_lexical(self._db, scope, terms, depth, statuses)
            else:
                ranked_rows = []
            lexical = lexical_scores(ranked_rows, k, dense.keys())
            missing = [r for r in lexical if r not in dense]
            dense.update(index.cosines(query_vector, missing))
            rowids = list(dense)
            records = self._records_by_rowid(rowids, scope, statuses)
            lexical = {
                r: score * query_coverage(records[r].text, terms) ** LEXICAL_COVERAGE_POWER
                for r, score in lexical.items()
                if r in records
            }
            return [
                SearchHit(
                    record=records[r],
                    cosine=dense[r],
                    lexical=lexical.get(r, 0.0),
                    vector=_copy(index.vector(r)),
                )
                for r in rowids
                if r in records
            ]

        return await self._run(body)

    def _ranked_lexical_on_reader(
        self, scope: Scope, terms: Sequence[str], depth: int, statuses: Sequence[Status]
    ) -> list[tuple[int, float]]:
        conn: sqlite3.Connection | None = getattr(self._lexical_local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(
                f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=self._busy_timeout_s
            )
            self._lexical_local.conn = conn
        return self._ranked_lexical(conn, scope, terms, depth, statuses)

    @staticmethod
    def _ranked_lexical(
        conn: sqlite3.Connection,
        scope: Scope,
        terms: Sequence[str],
        depth: int,
        statuses: Sequence[Status],
    ) -> list[tuple[int, float]]:
        """(rowid, bm25) of the best `depth` lexical matches, best first. `ORDER BY rank`
        lets FTS5 sort internally; rank is bm25 by default."""
        guesses = {t: _stem_guesses(t) for t in terms}
        forms = sorted({g for gs in guesses.values() for g in gs})
        marks = ",".join("?" * len(forms))
        known = dict(
            conn.execute(
                f"SELECT term, doc FROM memories_vocab WHERE term IN ({marks})", tuple(forms)
            ).fetchall()
        )
        frequencies = [(t, max(known.get(g, 0) for g in guesses[t])) for t in terms]
        kept = _within_budget(frequencies, LEXICAL_DOC_BUDGET)
        match = " OR ".join(f'"{t}"' for t in kept)
        marks = ",".join("?" * len(statuses))
        rows = conn.execute(
            "SELECT m.rowid, -memories_fts.rank FROM memories_fts "
            "JOIN memories m ON m.rowid = memories_fts.rowid "
            "WHERE memories_fts MATCH ? AND m.app_name = ? AND m.user_id = ? "
            f"AND m.status IN ({marks}) ORDER BY memories_fts.rank LIMIT ?",
            (match, scope.app_name, scope.user_id, *(s.value for s in statuses), depth),
        ).fetchall()
        return [(int(r), float(v)) for r, v in rows]

    def _records_by_rowid(
        self, rowids: Sequence[int], scope: Scope, statuses: Sequence[Status]
    ) -> dict[int, MemoryRecord]:
        """Records of `scope` with one of `statuses` among `rowids`. The scope and status are
        checked here, in SQL, whatever the in-memory index believed: isolation must not
        depend on the index being current."""
        out: dict[int, MemoryRecord] = {}
        wanted = [s.value for s in statuses]
        for start in range(0, len(rowids), 500):
            chunk = rowids[start : start + 500]
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM memories WHERE app_name = ? AND user_id = ? "
                f"AND status IN ({','.join('?' * len(wanted))}) "
                f"AND rowid IN ({','.join('?' * len(chunk))})",
                (scope.app_name, scope.user_id, *wanted, *chunk),
            )
            for row in rows:
                record = self._decoded(row)
                if record is not None:
                    out[row[0]] = record
        return out

    async def integrity_check(self) -> str:
        """`PRAGMA integrity_check` result ('ok' when the file is sound)."""
        return await self._run(
            lambda: str(self._db.execute("PRAGMA integrity_check").fetchone()[0])
        )

    async def close(self) -> None:
        if self._closed:
            return

        def body() -> None:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

        await self._run(body)
        self._closed = True
        self._executor.shutdown(wait=True)

        def close_reader() -> None:
            conn = getattr(self._lexical_local, "conn", None)
            if conn is not None:
                conn.close()

        self._lexical_executor.submit(close_reader).result()
        self._lexical_executor.shutdown(wait=True)


async def open_sqlite_store(uri: StoreUri) -> SqliteStore:
    """Opens (creating if needed) the sqlite store a parsed URI names."""
    return await SqliteStore(uri.location).open()
