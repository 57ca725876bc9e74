"""The :class:`SQLiteStore`: sessions kept in one SQLite file (standard library ``sqlite3``).

Four tables (see :mod:`cardcore.session.store`); each :meth:`SQLiteStore.commit`
is one transaction, so a crash leaves every session as it was after its last
complete call. File databases use the write-ahead log.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from typing import Any

from cardcore.errors import CardcoreError
from cardcore.session.store import Batch, StoredSession, TokenRow

__all__ = ["SCHEMA", "SCHEMA_VERSION", "SQLiteStore", "StoreError"]

SCHEMA_VERSION = 1
"""The schema version, kept in SQLite's ``user_version``."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    meta TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    session TEXT NOT NULL REFERENCES sessions(id),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    notation TEXT NOT NULL,
    at REAL,
    PRIMARY KEY (session, idx)
);
CREATE TABLE IF NOT EXISTS tokens (
    session TEXT NOT NULL REFERENCES sessions(id),
    seat INTEGER NOT NULL,
    digest TEXT NOT NULL,
    expires REAL,
    PRIMARY KEY (session, seat)
);
CREATE TABLE IF NOT EXISTS messages (
    session TEXT NOT NULL REFERENCES sessions(id),
    stream TEXT NOT NULL,
    n INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (session, stream, n)
);
CREATE INDEX IF NOT EXISTS sessions_status ON sessions (status, created);
"""
"""The tables, as SQL (PostgreSQL takes the same statements, with ``DOUBLE PRECISION`` for ``REAL``)."""


_COLUMNS = {
    "sessions": {"id", "status", "created", "updated", "meta"},
    "actions": {"session", "idx", "seat", "notation", "at"},
    "tokens": {"session", "seat", "digest", "expires"},
    "messages": {"session", "stream", "n", "body"},
}
"""The columns of each table of :data:`SCHEMA`: a file holding tables is used only if it has these."""


class StoreError(CardcoreError):
    """A database that cannot be opened or used (unwritable, not a cardcore store, newer schema)."""


class SQLiteStore:
    """A :class:`~cardcore.session.Store` in SQLite.

    Each game is run by one process at a time: a store that finds a session changed by
    another writer since it last read or wrote it (its row: the time of its last commit, its
    status and ``meta``; its last action) refuses to commit it (:class:`StoreError`), so the first writer's game stays whole.

    :param path: The database file (created if missing), or ``":memory:"``.
    :param check_same_thread: Passed to :func:`sqlite3.connect`; the store is used
        by one thread at a time either way.
    :raises StoreError: The file cannot be opened, holds another schema, or holds
        tables that are not a cardcore store's (another application's database is
        refused unchanged, never adopted).
    """

    def __init__(self, path: str | os.PathLike[str] = ":memory:", *, check_same_thread: bool = True) -> None:
        self.path = os.fspath(path)
        self._marks: dict[str, tuple[Any, ...]] = {}  # per session: its mark as last read or written
        self._file: tuple[int, int] | None = None  # the file's (device, inode), to see it replaced
        self._where = self.path
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=check_same_thread)
        except sqlite3.Error as exc:
            msg = f"cannot use {self.path!r} as a session store: {exc}"
            raise StoreError(msg) from None
        try:
            self._open()
        except BaseException:  # refused: the file is let go at once (no -wal or -shm left)
            self._db.close()
            raise

    def _open(self) -> None:
        try:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                msg = f"{self.path!r} holds sessions of a newer schema ({version}; this cardcore reads {SCHEMA_VERSION})"
                raise StoreError(msg)
            self._check_tables()  # before anything is written to the file
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            if self.path not in (":memory:", ""):  # ("": SQLite's own temporary file)
                self._where = os.path.abspath(self.path)  # (the process may change directory)
                found = os.stat(self._where)
                self._file = (found.st_dev, found.st_ino)
        except sqlite3.Error as exc:
            msg = f"cannot use {self.path!r} as a session store: {exc}"
            raise StoreError(msg) from None
        except OSError as exc:
            msg = f"cannot use {self.path!r} as a session store: {exc.strerror or exc}"
            raise StoreError(msg) from None

    def _check_tables(self) -> None:
        """Refuse a file that is not a cardcore store: one with cardcore's four tables (and
        perhaps more: the web server's ``web_bots``, an operator's index), or a first open
        cut short (some of the four, ``sessions`` first, no other table or view, and no
        index or trigger by the name of a table still to make). A view is never one of the four."""
        rows = self._db.execute("SELECT name, type FROM sqlite_master").fetchall()
        names = {name for name, _ in rows if not name.startswith("sqlite_")}  # (SQLite's own)
        if not names:
            return  # a new file: the tables are made
        tables = {name for name, kind in rows if kind == "table"}
        ours = [table for table in _COLUMNS if table in tables]
        whole = len(ours) == len(_COLUMNS)
        foreign = {name for name, kind in rows if kind in ("table", "view")} & names - set(ours)
        taken = {name for name, kind in rows if kind in ("index", "trigger")} & set(_COLUMNS)
        if not whole and ("sessions" not in ours or foreign or taken):
            ours = ["sessions", *(t for t in _COLUMNS if t not in tables)]  # refused just below
        for table in ours:  # (a view of the name has no table_info here: never one of ours)
            found = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")} if table in tables else set()
            if found != _COLUMNS[table]:
                other = ", ".join(sorted(names)[:8])
                msg = f"{self.path!r} is not a cardcore session store (it holds tables {other}; no {table} table of cardcore's)"
                raise StoreError(msg)

    def create(self, session: StoredSession) -> None:
        """See :meth:`Store.create`."""
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM sessions WHERE id = ?", (session.id,)).fetchone():
                raise KeyError(session.id)
            db.execute(
                "INSERT INTO sessions (id, status, created, updated, meta) VALUES (?, ?, ?, ?, ?)",
                (session.id, session.status, session.created, session.created, _dump(session.meta)),
            )
            mark = _mark(db, session.id)
        self._marks[session.id] = mark

    def commit(self, session_id: str, batch: Batch) -> None:
        """See :meth:`Store.commit`.

        :raises StoreError: The write failed, the file was deleted or replaced while in
            use, or another writer changed this session since this store last read or
            wrote it (one game, one writer: the other's game is kept).
        """
        if self._file is not None:
            try:
                found = os.stat(self._where)
                moved = (found.st_dev, found.st_ino) != self._file
            except OSError:
                moved = True
            if moved:
                msg = f"cannot write to {self.path!r}: the file was deleted or replaced while in use"
                raise StoreError(msg)
        known = self._marks.get(session_id)
        with self._transaction() as db:
            if known is not None and _mark(db, session_id) != known:
                msg = (
                    f"cannot write session {session_id!r} to {self.path!r}: another writer changed it"
                    " since this store read or wrote it; a game is run by one process at a time"
                )
                raise StoreError(msg)
            if batch.meta is None:
                row = db.execute(
                    "UPDATE sessions SET status = ?, updated = ? WHERE id = ?",
                    (batch.status, batch.updated, session_id),
                )
            else:
                row = db.execute(
                    "UPDATE sessions SET status = ?, updated = ?, meta = ? WHERE id = ?",
                    (batch.status, batch.updated, _dump(batch.meta), session_id),
                )
            if row.rowcount == 0:  # never created (or deleted): nothing is written, as in memory
                raise KeyError(session_id)
            if batch.keep_actions is not None:
                db.execute(
                    "DELETE FROM actions WHERE session = ? AND idx >= ?", (session_id, batch.keep_actions)
                )
            if batch.actions:
                db.execute(
                    "DELETE FROM actions WHERE session = ? AND idx >= ?", (session_id, batch.actions[0][0])
                )
                db.executemany(
                    "INSERT INTO actions (session, idx, seat, notation, at) VALUES (?, ?, ?, ?, ?)",
                    [(session_id, *row) for row in batch.actions],
                )
            if batch.tokens:
                db.executemany(
                    "INSERT OR REPLACE INTO tokens (session, seat, digest, expires) VALUES (?, ?, ?, ?)",
                    [(session_id, t.seat, t.digest, t.expires) for t in batch.tokens],
                )
            if batch.messages:
                db.executemany(
                    "INSERT OR REPLACE INTO messages (session, stream, n, body) VALUES (?, ?, ?, ?)",
                    [(session_id, *row) for row in batch.messages],
                )
            for stream, below in batch.prune.items():
                db.execute(
                    "DELETE FROM messages WHERE session = ? AND stream = ? AND n < ?",
                    (session_id, stream, below),
                )
            mark = _mark(db, session_id)
        self._marks[session_id] = mark  # (committed: a failed commit leaves the last mark)

    def load(self, session_id: str) -> StoredSession | None:
        """See :meth:`Store.load`; the rows are returned as stored (:meth:`Session.resume` checks them).

        :raises StoreError: The database cannot be read, or the session's meta is no JSON text.
        """
        db = self._db
        try:
            db.execute("BEGIN")  # one snapshot: the rows and the mark of one commit
        except sqlite3.Error as exc:
            msg = f"cannot read session {session_id!r} from {self.path!r}: {exc}"
            raise StoreError(msg) from None
        try:
            return self._load(db, session_id)
        finally:
            with contextlib.suppress(sqlite3.Error):  # (a read: nothing to undo)
                db.execute("COMMIT")

    def _load(self, db: sqlite3.Connection, session_id: str) -> StoredSession | None:
        try:
            row = db.execute(
                "SELECT status, created, meta FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
            if row is None:
                return None
            actions = [
                (seat, text, at)
                for seat, text, at in db.execute(
                    "SELECT seat, notation, at FROM actions WHERE session = ? ORDER BY idx", (session_id,)
                )
            ]
            tokens = [
                TokenRow(seat, digest, expires)
                for seat, digest, expires in db.execute(
                    "SELECT seat, digest, expires FROM tokens WHERE session = ? ORDER BY seat", (session_id,)
                )
            ]
            messages: dict[str, list[tuple[int, str]]] = {}
            for stream, n, body in db.execute(
                "SELECT stream, n, body FROM messages WHERE session = ? ORDER BY stream, n", (session_id,)
            ):
                messages.setdefault(stream, []).append((n, body))
            meta = json.loads(row[2])
        except (sqlite3.Error, ValueError, RecursionError) as exc:  # (JSON nested too deep)
            msg = f"cannot read session {session_id!r} from {self.path!r}: {exc}"
            raise StoreError(msg) from None
        with contextlib.suppress(sqlite3.Error):  # (unmarked: its first commit is not checked)
            self._marks[session_id] = _mark(db, session_id)  # (in the rows' snapshot)
        return StoredSession(session_id, row[0], row[1], meta, actions, tokens, messages)

    def session_ids(self, statuses: tuple[str, ...] = ("waiting", "playing", "over")) -> list[str]:
        """See :meth:`Store.session_ids`."""
        marks = ", ".join("?" * len(statuses))
        try:
            rows = self._db.execute(
                f"SELECT id FROM sessions WHERE status IN ({marks}) ORDER BY created, id", statuses
            ).fetchall()
        except sqlite3.Error as exc:
            msg = f"cannot list the sessions of {self.path!r}: {exc}"
            raise StoreError(msg) from None
        return [r[0] for r in rows]

    def close(self) -> None:
        """See :meth:`Store.close`."""
        self._db.close()

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db, self.path)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on any error)."""

    def __init__(self, db: sqlite3.Connection, path: str) -> None:
        self.db = db
        self.path = path

    def __enter__(self) -> sqlite3.Connection:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            msg = f"cannot write to {self.path!r}: {exc}"
            raise StoreError(msg) from None
        return self.db

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        if kind is None:
            try:
                self.db.execute("COMMIT")
            except sqlite3.Error as error:
                self._rollback()
                msg = f"cannot write to {self.path!r}: {error}"
                raise StoreError(msg) from None
            return
        self._rollback()
        if isinstance(exc, sqlite3.Error):
            msg = f"cannot write to {self.path!r}: {exc}"
            raise StoreError(msg) from None

    def _rollback(self) -> None:
        """Undo the transaction, if SQLite has not undone it itself (a full disk does)."""
        if self.db.in_transaction:  # (a failing ROLLBACK: the error that brought us here is reported)
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")


def _mark(db: sqlite3.Connection, session_id: str) -> tuple[Any, ...]:
    """What a session's next writer must find unchanged: its row (the time of its last commit,
    its status, its ``meta``) and its last action row (two index lookups, whatever the
    record's length; reading ``meta`` costs as its size, a few KB)."""
    row = db.execute("SELECT updated, status, meta FROM sessions WHERE id = ?", (session_id,)).fetchone()
    last = db.execute(
        "SELECT idx, seat, notation, at FROM actions WHERE session = ? ORDER BY idx DESC LIMIT 1",
        (session_id,),
    ).fetchone()
    return (row, last)


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)
