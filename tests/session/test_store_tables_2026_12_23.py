"""Review of 1043a67 (2026-12-23): ``SQLiteStore._check_tables`` decides whether a file is a
cardcore session store before writing anything, views counting as tables; ``cardcore verify``
names a damaged bundle's file.

Stores every cardcore version wrote (its ``SCHEMA`` from git history), first opens cut short at
each statement, the web server's ``web_bots``, an operator's index, trigger and view,
``ANALYZE`` and ``AUTOINCREMENT`` leftovers, ``:memory:``, ``""``, an empty file, a relative
path and two stores on one file open; files of other applications are refused unchanged and
named. Strict xfails: a ``sessions`` view with cardcore's columns is taken for a table, so the
file is switched to WAL and given tables before SQLite refuses it; a lookalike ``sessions``
beside an index named like one of cardcore's tables is changed the same way; a refused file's
connection is left open (its ``-wal``/``-shm`` stay while the error is held).

Every bundle is built from a fixed server seed, salt and entropy; no random deal.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import re
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore.cli import main
from cardcore.session import Hub, Session, SQLiteStore, StoreError
from cardcore.session.fair import FairDeal
from cardcore.session.sqlite import SCHEMA

ROOT = Path(__file__).resolve().parents[2]
BOTS = (
    "CREATE TABLE IF NOT EXISTS web_bots (session TEXT, seat INTEGER, agent TEXT, params TEXT,"
    " PRIMARY KEY (session, seat))"
)  # (cardcore.web.app._BOTS; the web extra need not be installed here)
FOUR = ["actions", "messages", "sessions", "tokens"]
STATEMENTS = [s.strip() + ";" for s in SCHEMA.split(";") if s.strip()]
SESSIONS_VIEW = "CREATE VIEW sessions AS SELECT 'x' AS id, 'live' AS status, 0.0 AS created, 0.0 AS updated, '{}' AS meta;"
VIEWS = SESSIONS_VIEW + (
    "CREATE VIEW actions AS SELECT 'x' AS session, 0 AS idx, 0 AS seat, 'n' AS notation, 0.0 AS at;"
    "CREATE VIEW tokens AS SELECT 'x' AS session, 0 AS seat, 'd' AS digest, 0.0 AS expires;"
    "CREATE VIEW messages AS SELECT 'x' AS session, 's' AS stream, 0 AS n, 'b' AS body;"
)


def _file(path: Path, sql: str, *, wal: bool = False) -> bytes:
    db = sqlite3.connect(path)
    if wal:
        db.execute("PRAGMA journal_mode=WAL")
    db.executescript(sql)
    db.commit()
    db.close()
    return path.read_bytes()


def _schema(path: Path) -> list[tuple[str, str]]:
    db = sqlite3.connect(path)
    try:
        rows = db.execute("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        return sorted(rows.fetchall())
    finally:
        db.close()


def _tables(path: Path) -> list[str]:
    return sorted(name for kind, name in _schema(path) if kind == "table")


def _side_files(path: Path) -> list[str]:
    return [suffix for suffix in ("-wal", "-shm", "-journal") if Path(f"{path}{suffix}").exists()]


def _session(store: SQLiteStore, sid: str) -> Session:
    return Session.create("golf", ["Ann", "Bob"], now=0.0, seed=5, store=store, session_id=sid)


def _reopens_with(path: Path, sid: str) -> None:
    store = SQLiteStore(path)
    try:
        assert store.load(sid) is not None
        assert set(FOUR) <= set(_tables(path))
    finally:
        store.close()


# --- (a) legitimate stores are opened -----------------------------------------------------------


def _revisions() -> list[str]:
    try:
        out = subprocess.run(
            ["git", "log", "--format=%H", "--", "src/cardcore/session/sqlite.py"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return []
    return out


REVISIONS = _revisions()


@pytest.mark.skipif(not REVISIONS, reason="no git history of the store module here")
@pytest.mark.parametrize("index", range(8))
def test_a_store_of_each_earlier_version_opens(tmp_path: Path, index: int) -> None:
    if index >= len(REVISIONS):
        pytest.skip("fewer revisions")
    text = subprocess.run(
        ["git", "show", f"{REVISIONS[index]}:src/cardcore/session/sqlite.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=10,
        check=True,
    ).stdout
    schema = re.search(r'^SCHEMA = """(.*?)^"""', text, re.S | re.M)
    version = re.search(r"^SCHEMA_VERSION = (\d+)", text, re.M)
    assert schema is not None and version is not None
    path = tmp_path / "old.db"
    _file(
        path,
        f"PRAGMA journal_mode=WAL; {schema.group(1)} PRAGMA user_version = {version.group(1)};",
    )
    db = sqlite3.connect(path)
    db.execute("INSERT INTO sessions VALUES ('old-1', 'live', 1.0, 1.0, '{}')")
    db.commit()
    db.close()
    SQLiteStore(path).close()
    assert _tables(path) == FOUR
    db = sqlite3.connect(path)
    try:
        assert db.execute("SELECT id FROM sessions").fetchall() == [("old-1",)]
    finally:
        db.close()


@pytest.mark.parametrize("done", range(1, len(STATEMENTS) + 1))
def test_a_first_open_cut_short_after_any_statement_is_completed(tmp_path: Path, done: int) -> None:
    path = tmp_path / "cut.db"
    _file(path, "PRAGMA journal_mode=WAL;" + "".join(STATEMENTS[:done]))
    SQLiteStore(path).close()
    assert _tables(path) == FOUR
    assert ("index", "sessions_status") in _schema(path)


@pytest.mark.parametrize(
    "extra",
    [
        BOTS,
        "CREATE INDEX ops_by_seat ON actions (seat, idx)",
        "CREATE TRIGGER ops_touch AFTER UPDATE ON sessions BEGIN SELECT 1; END",
        "CREATE VIEW ops_live AS SELECT id FROM sessions WHERE status = 'live'",
        "ANALYZE",
        "CREATE TABLE ops_log (n INTEGER PRIMARY KEY AUTOINCREMENT, what TEXT); INSERT INTO ops_log (what) VALUES ('x')",
    ],
    ids=["web_bots", "index", "trigger", "view", "analyze", "autoincrement"],
)
def test_a_used_store_with_an_operators_additions_opens(tmp_path: Path, extra: str) -> None:
    path = tmp_path / "games.db"
    store = SQLiteStore(path)
    _session(store, "g-1")
    store.close()
    db = sqlite3.connect(path)
    db.executescript(extra + ";")
    db.commit()
    db.close()
    _reopens_with(path, "g-1")


def test_a_cut_short_store_after_analyze_is_completed(tmp_path: Path) -> None:
    path = tmp_path / "cut.db"
    _file(path, STATEMENTS[0] + "CREATE INDEX IF NOT EXISTS x ON sessions (status); ANALYZE;")
    SQLiteStore(path).close()
    assert _tables(path) == FOUR


def test_a_store_after_hub_resume_all_opens_again(tmp_path: Path) -> None:
    path = tmp_path / "hub.db"
    store = SQLiteStore(path)
    hub = Hub(store)
    hub.create("golf", ["Ann", "Bob"], now=0.0, seed=3, session_id="h-1")
    store.close()
    again = SQLiteStore(path)
    assert Hub(again).resume_all(1.0) == []
    again.close()
    _reopens_with(path, "h-1")


def test_an_empty_file_memory_and_temporary_paths_are_new_stores(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    SQLiteStore(empty).close()
    assert _tables(empty) == FOUR
    for where in (":memory:", ""):
        store = SQLiteStore(where)
        _session(store, "m-1")
        assert store.load("m-1") is not None
        store.close()


def test_a_relative_path_and_two_stores_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    first = SQLiteStore("rel.db")
    second = SQLiteStore("rel.db")  # (one process, two stores on one file at once)
    _session(first, "r-1")
    assert second.load("r-1") is not None
    third = SQLiteStore(Path("rel.db"))
    assert third.load("r-1") is not None
    for store in (first, second, third):
        store.close()
    assert _tables(tmp_path / "rel.db") == FOUR


# --- (b, c) other files are refused, named and unchanged ----------------------------------------


@pytest.mark.parametrize(
    "sql",
    [
        "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT);",
        STATEMENTS[0] + "CREATE TABLE users (id);",
        STATEMENTS[0] + STATEMENTS[1] + STATEMENTS[2] + "CREATE VIEW v AS SELECT 1;",
        "".join(STATEMENTS[1:4]),  # the other three without sessions
        "CREATE TABLE sessions (id TEXT, user TEXT, expires REAL);",
        "CREATE VIEW sessions AS SELECT 1 AS id;",
        "CREATE TABLE SESSIONS (id, status, created, updated, meta);",  # (not how cardcore spells it)
        STATEMENTS[0].replace("sessions", "sessions2") + STATEMENTS[1],
    ],
    ids=[
        "users",
        "sessions+users",
        "three+view",
        "no-sessions",
        "other-sessions",
        "narrow-view",
        "upper",
        "renamed",
    ],
)
def test_another_apps_file_is_refused_by_name_and_left_byte_identical(
    tmp_path: Path, sql: str
) -> None:
    path = tmp_path / "webapp.db"
    before = _file(path, sql)
    with pytest.raises(StoreError, match=r"webapp\.db"):
        SQLiteStore(path)
    assert path.read_bytes() == before
    assert _side_files(path) == []


def test_a_text_file_is_refused_by_name_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("not a database at all\n" * 50, encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(StoreError, match=r"notes\.db"):
        SQLiteStore(path)
    assert path.read_bytes() == before and _side_files(path) == []


@pytest.mark.parametrize("sql", [SESSIONS_VIEW, VIEWS], ids=["sessions-view", "four-views"])
def test_views_with_cardcores_columns_are_refused_unchanged(tmp_path: Path, sql: str) -> None:
    path = tmp_path / "views.db"
    before = _file(path, sql)
    shape = _schema(path)
    with pytest.raises(StoreError, match=r"views\.db"):
        SQLiteStore(path)
    assert _schema(path) == shape
    assert path.read_bytes() == before


def test_a_lookalike_sessions_beside_an_index_named_like_cardcores_table_is_left_as_it_was(
    tmp_path: Path,
) -> None:
    path = tmp_path / "clash.db"
    before = _file(path, STATEMENTS[0] + "CREATE INDEX tokens ON sessions (status);")
    with pytest.raises(StoreError, match=r"clash\.db"):
        SQLiteStore(path)
    assert _tables(path) == ["sessions"]
    assert path.read_bytes() == before


def test_a_refusal_of_a_wal_file_leaves_its_bytes(tmp_path: Path) -> None:
    path = tmp_path / "walapp.db"
    before = _file(path, "CREATE TABLE users (id INTEGER PRIMARY KEY);", wal=True)
    with pytest.raises(StoreError, match=r"walapp\.db"):
        SQLiteStore(path)
    assert path.read_bytes() == before


def test_a_refusal_closes_its_connection_so_no_wal_files_stay(tmp_path: Path) -> None:
    path = tmp_path / "walapp.db"
    _file(path, "CREATE TABLE users (id INTEGER PRIMARY KEY);", wal=True)
    with pytest.raises(StoreError) as info:
        SQLiteStore(path)
    assert info.value is not None  # (held, as a host that logs it later holds it)
    assert _side_files(path) == []


def test_a_newer_schema_is_refused_by_name_and_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    before = _file(path, "".join(STATEMENTS) + "PRAGMA user_version = 99;")
    with pytest.raises(StoreError, match=r"newer\.db.*newer schema"):
        SQLiteStore(path)
    assert path.read_bytes() == before and _side_files(path) == []


# --- (d) cardcore verify on damaged bundles -----------------------------------------------------


def _bundle() -> dict[str, Any]:
    deal = FairDeal(bytes(range(32)), bytes(range(16)), ["ann", "bob"])
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=deal.seed, options={"rounds": 1})
    for _ in range(6):
        game.apply(game.legal_actions(game.to_act[0])[0])
    return deal.bundle("s-1", game.record())


GOOD = _bundle()


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda b: b.__setitem__(key, value)


def _rec(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda b: b["record"].__setitem__(key, value)


DAMAGE: dict[str, tuple[Callable[[dict[str, Any]], None], int]] = {
    "version": (_set("format_version", 3), 2),
    "chance": (_set("chance", 9), 2),
    "server_seed": (_set("server_seed", "zz"), 2),
    "salt-hex": (_set("salt", "0"), 2),
    "commitment-type": (_set("commitment", 5), 2),
    "entropy-type": (_set("entropy", "x"), 2),
    "entropy-surrogate": (_set("entropy", ["\ud800", "bob"]), 2),
    "record-type": (_set("record", []), 2),
    "seat-count": (_set("entropy", ["ann"]), 2),
    "salt": (_set("salt", "00" * 16), 1),
    "entropy": (_set("entropy", ["ann", "eve"]), 1),
    "record-seed": (_rec("seed", 1), 1),
    "bundle-seed": (_set("seed", 1), 1),
    "stacked": (_rec("deck", ["AS"]), 1),
    "record-format": (_rec("format_version", 2), 1),
    "action": (lambda b: b["record"]["actions"][-1].__setitem__(1, "flip 99"), 2),
    "game": (_rec("game", "nosuchgame"), 2),
    "rule": (_rec("rules", [{"name": "golf.nosuch", "id": "golf.nosuch", "version": "1"}]), 2),
    "option": (_rec("options", {"rounds": "x"}), 2),
    "result": (_rec("result", {"winners": "x"}), 2),
}


def _verify(path: Path, *extra: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["verify", str(path), *extra])
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("noted", [False, True], ids=["alone", "commitment"])
@pytest.mark.parametrize("kind", list(DAMAGE))
def test_verify_names_a_damaged_bundles_file_in_one_line(
    tmp_path: Path, kind: str, noted: bool
) -> None:
    damage, status = DAMAGE[kind]
    bundle = copy.deepcopy(GOOD)
    damage(bundle)
    path = tmp_path / f"damaged-{kind}.json"
    path.write_text(json.dumps(bundle), encoding="utf-8")
    code, out, err = _verify(path, *(["--commitment", GOOD["commitment"]] if noted else []))
    assert (code, out) == (status, "")
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert repr(str(path)) in err


def test_verify_of_the_undamaged_bundle_passes_and_a_wrong_noted_commitment_is_named(
    tmp_path: Path,
) -> None:
    path = tmp_path / "good-bundle.json"
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    code, out, err = _verify(path, "--commitment", GOOD["commitment"])
    assert (code, err) == (0, "") and "verified: golf" in out
    code, out, err = _verify(path, "--commitment", "ab" * 32)
    assert (code, out) == (1, "") and err.count("\n") == 1 and repr(str(path)) in err


@pytest.mark.parametrize(
    ("text", "status"),
    [("[1]", 2), ('{"format": "cardcore-fair-deal"} x', 2), ('{"format": 1, "format": 2}', 2)],
    ids=["array", "trailing", "duplicate-key"],
)
def test_verify_names_an_unreadable_bundle_file(tmp_path: Path, text: str, status: int) -> None:
    path = tmp_path / "broken-bundle.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = _verify(path)
    assert (code, out) == (status, "") and err.count("\n") == 1 and repr(str(path)) in err


def test_verify_bundle_names_no_file_of_its_own() -> None:
    """The library call is unchanged: the file name is the command's, not verify_bundle's."""
    from cardcore.errors import CorruptStateError
    from cardcore.session import verify_bundle

    with pytest.raises(CorruptStateError) as info:
        verify_bundle({**GOOD, "chance": 9})
    assert not str(info.value).startswith("'")
    assert os.sep not in str(info.value)
