"""The sqlite store's schema and its migrations (`PRAGMA user_version` is the version)."""

from __future__ import annotations

import sqlite3

from adk_memory.errors import ConfigError

#: Each entry migrates from version i to i + 1; append, never edit a released step.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE memories (
        rowid INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        app_name TEXT NOT NULL,
        user_id TEXT NOT NULL,
        text TEXT NOT NULL,
        subject TEXT NOT NULL DEFAULT '',
        predicate TEXT NOT NULL DEFAULT '',
        object TEXT NOT NULL DEFAULT '',
        polarity INTEGER NOT NULL DEFAULT 1,
        confidence REAL NOT NULL,
        kind TEXT NOT NULL,
        author TEXT,
        valid_at REAL NOT NULL,
        created_at REAL NOT NULL,
        status TEXT NOT NULL,
        superseded_by TEXT,
        consolidated_into TEXT,
        session_id TEXT,
        event_ids TEXT NOT NULL DEFAULT '[]',
        hits INTEGER NOT NULL DEFAULT 0,
        last_accessed_at REAL,
        embedding BLOB,
        seq INTEGER NOT NULL
    );
    CREATE INDEX memories_scope_seq ON memories (app_name, user_id, seq);
    CREATE INDEX memories_scope_status ON memories (app_name, user_id, status, rowid);
    CREATE INDEX memories_superseded_by ON memories (superseded_by) WHERE superseded_by IS NOT NULL;
    CREATE INDEX memories_consolidated_into ON memories (consolidated_into)
        WHERE consolidated_into IS NOT NULL;
    CREATE TABLE tombstones (
        app_name TEXT NOT NULL, user_id TEXT NOT NULL, id TEXT NOT NULL, row INTEGER NOT NULL,
        seq INTEGER NOT NULL
    );
    CREATE INDEX tombstones_scope_seq ON tombstones (app_name, user_id, seq);
    CREATE TABLE seen_events (
        app_name TEXT NOT NULL, user_id TEXT NOT NULL, event_id TEXT NOT NULL,
        PRIMARY KEY (app_name, user_id, event_id)
    ) WITHOUT ROWID;
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    INSERT INTO meta (key, value) VALUES ('seq', '0');
    CREATE VIRTUAL TABLE memories_fts USING fts5 (
        text, content='memories', content_rowid='rowid', tokenize='porter unicode61'
    );
    CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts (rowid, text) VALUES (new.rowid, new.text);
    END;
    CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
    END;
    CREATE TRIGGER memories_fts_update AFTER UPDATE OF text ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
        INSERT INTO memories_fts (rowid, text) VALUES (new.rowid, new.text);
    END;
    """,
    # 2: document frequencies of indexed terms, to bound the work of a lexical query.
    """
    CREATE VIRTUAL TABLE memories_vocab USING fts5vocab (memories_fts, 'row');
    """,
    # 3: when a memory was stated, apart from when it became true (NULL: as valid_at).
    """
    ALTER TABLE memories ADD COLUMN recorded_at REAL;
    """,
    # 4: AUTOINCREMENT row ids. A plain INTEGER PRIMARY KEY hands a deleted newest rowid to
    # the next insert, and the in-memory indexes (keyed by rowid) then applied the deleted
    # row's tombstone to the new row: it vanished from search after a restart. Rows keep
    # their rowids (the FTS index refers to them); tombstones naming a live row are stale.
    """
    CREATE TABLE memories_v4 (
        rowid INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        app_name TEXT NOT NULL,
        user_id TEXT NOT NULL,
        text TEXT NOT NULL,
        subject TEXT NOT NULL DEFAULT '',
        predicate TEXT NOT NULL DEFAULT '',
        object TEXT NOT NULL DEFAULT '',
        polarity INTEGER NOT NULL DEFAULT 1,
        confidence REAL NOT NULL,
        kind TEXT NOT NULL,
        author TEXT,
        valid_at REAL NOT NULL,
        created_at REAL NOT NULL,
        status TEXT NOT NULL,
        superseded_by TEXT,
        consolidated_into TEXT,
        session_id TEXT,
        event_ids TEXT NOT NULL DEFAULT '[]',
        hits INTEGER NOT NULL DEFAULT 0,
        last_accessed_at REAL,
        embedding BLOB,
        seq INTEGER NOT NULL,
        recorded_at REAL
    );
    INSERT INTO memories_v4 (rowid, id, app_name, user_id, text, subject, predicate, object,
        polarity, confidence, kind, author, valid_at, created_at, status, superseded_by,
        consolidated_into, session_id, event_ids, hits, last_accessed_at, embedding, seq,
        recorded_at)
    SELECT rowid, id, app_name, user_id, text, subject, predicate, object, polarity,
        confidence, kind, author, valid_at, created_at, status, superseded_by,
        consolidated_into, session_id, event_ids, hits, last_accessed_at, embedding, seq,
        recorded_at
    FROM memories;
    DROP TABLE memories;
    ALTER TABLE memories_v4 RENAME TO memories;
    CREATE INDEX memories_scope_seq ON memories (app_name, user_id, seq);
    CREATE INDEX memories_scope_status ON memories (app_name, user_id, status, rowid);
    CREATE INDEX memories_superseded_by ON memories (superseded_by) WHERE superseded_by IS NOT NULL;
    CREATE INDEX memories_consolidated_into ON memories (consolidated_into)
        WHERE consolidated_into IS NOT NULL;
    CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts (rowid, text) VALUES (new.rowid, new.text);
    END;
    CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
    END;
    CREATE TRIGGER memories_fts_update AFTER UPDATE OF text ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
        INSERT INTO memories_fts (rowid, text) VALUES (new.rowid, new.text);
    END;
    DELETE FROM tombstones WHERE row IN (SELECT rowid FROM memories);
    DELETE FROM sqlite_sequence WHERE name IN ('memories', 'memories_v4');
    INSERT INTO sqlite_sequence (name, seq) VALUES ('memories', MAX(
        COALESCE((SELECT MAX(rowid) FROM memories), 0),
        COALESCE((SELECT MAX(row) FROM tombstones), 0)
    ));
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)


def migrate(conn: sqlite3.Connection) -> None:
    """Brings the database to `SCHEMA_VERSION`, each step in its own transaction.

    Raises:
        ConfigError: if the file was written by a newer adk-memory.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise ConfigError(
                f"memory database has schema version {version}; this adk-memory knows up to "
                f"{SCHEMA_VERSION}: upgrade adk-memory"
            )
        for step in range(version, SCHEMA_VERSION):
            for statement in _statements(MIGRATIONS[step]):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {step + 1}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _statements(script: str) -> list[str]:
    # executescript() would commit the surrounding transaction; split on complete
    # statements instead so a failed migration rolls back whole.
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements
