"""Crash consistency and durability of the SQLite session store, as an operator whose
game server gets killed.

A writer process drives a Golf session (seed 11, first legal action each time) through
the public session API on a file store and is killed with SIGKILL, after a fixed
number of acknowledged actions and after fixed delays (so some kills land inside a
write). Whatever the kill point, the session must resume with every acknowledged action,
nothing that was never played, and the very game a storeless reference reaches at that
version. Then: two writers on one session, databases of other applications, garbage,
a read-only file, a file deleted while in use, a full disk (``RLIMIT_FSIZE``), rows
edited by hand, and turn clocks across a SIGKILL.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cardcore.session import (
    CorruptSessionError,
    Session,
    SQLiteStore,
    StoreError,
)

SEED = 11
SID = "crash-1"
TIMEOUT = 15

# The writer: create (or resume) the session, (re)join both seats with their tokens, then
# play the first legal action of the seat to act, at now = 1 + version, printing "ok V"
# once the session answered ok (so after its commit returned).
WRITER = textwrap.dedent(
    """
    import json, sys, time
    from cardcore.session import Session, SQLiteStore, SessionConfig, TimeControl
    db, sid, steps, clock = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    store = SQLiteStore(db)
    tokens_file = db + ".tokens"
    try:
        s = Session.resume(store, sid, now=0.0)
    except Exception:
        config = SessionConfig() if clock == "none" else SessionConfig(time=TimeControl(turn=30.0, restart=clock))
        s = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=11, store=store, session_id=sid, config=config)
        tokens = {}
        for seat in (0, 1):
            out = s.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=0.0)
            tokens[seat] = next(o.message["token"] for o in out if o.message["type"] == "welcome")
        with open(tokens_file, "w") as fh:
            fh.write(json.dumps(tokens))
    else:
        with open(tokens_file) as fh:
            tokens = json.loads(fh.read())
        for seat in (0, 1):
            s.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat, "token": tokens[str(seat)]}), now=0.0)
    print("ready", s.game.version, flush=True)
    for _ in range(steps):
        g = s.game
        if g.is_over:
            break
        seat = g.to_act[0]
        text = str(g.legal_actions(seat)[0])
        now = 1.0 + g.version if clock == "none" else 10.0
        out = s.handle(f"c{seat}", json.dumps({"type": "act", "action": text, "seen": g.version}), now=now)
        mine = [o.message for o in out if o.conn == f"c{seat}"]
        if any(m["type"] == "ok" for m in mine):
            print("ok", g.version, s.next_deadline(), flush=True)
        else:
            print("ERR", mine, flush=True)
    print("done", flush=True)
    if clock != "none":
        time.sleep(60)  # killed here
    """
)


def _writer(tmp_path: Path, db: Path, steps: int, clock: str = "none") -> subprocess.Popen[str]:
    script = tmp_path / "writer.py"
    script.write_text(WRITER, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, str(script), str(db), SID, str(steps), clock],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=tmp_path,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("ready"), line
    return proc


def _kill(proc: subprocess.Popen[str]) -> list[str]:
    """Kill the writer; what it wrote that was not read yet. Read through ``proc.stdout``
    itself: ``communicate`` with a timeout reads the pipe's descriptor and misses lines a
    ``readline`` already took into the stream's buffer (an acknowledgement lost)."""
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=TIMEOUT)
    assert proc.stdout is not None
    with proc.stdout:
        return proc.stdout.read().splitlines()


def _acked(lines: list[str]) -> int | None:
    oks = [int(line.split()[1]) for line in lines if line.startswith("ok ")]
    return oks[-1] if oks else None


def _step(session: Session) -> None:
    game = session.game
    assert game is not None
    seat = game.to_act[0]
    text = str(game.legal_actions(seat)[0])
    msg = {"type": "act", "action": text, "seen": game.version}
    session.handle(f"c{seat}", json.dumps(msg), now=1.0 + game.version)


class Reference:
    """The same session with no store, driven on demand (the game every version must be)."""

    def __init__(self) -> None:
        self.session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=SEED, session_id=SID)
        for seat in (0, 1):
            self.session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=0.0)
        game = self.session.game
        assert game is not None
        self.cards = Counter(str(c) for c in game.state.zones.all_cards())

    def at(self, version: int) -> dict[str, Any]:
        game = self.session.game
        assert game is not None and game.version <= version
        while game.version < version:
            _step(self.session)
        return game.save()


def _check_resumed(db: Path, ref: Reference, acked: int | None) -> int:
    store = SQLiteStore(db)
    try:
        resumed = Session.resume(store, SID, now=0.0)
        game = resumed.game
        assert game is not None
        low = acked or 0
        # every acknowledged action is there; at most the one being answered beyond it
        assert low <= game.version <= low + 1
        assert game.save() == ref.at(game.version)  # nothing that was never played
        assert Counter(str(c) for c in game.state.zones.all_cards()) == ref.cards
        return game.version
    finally:
        store.close()


def test_sigkill_mid_game_keeps_every_acknowledged_action_and_nothing_else(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    ref = Reference()
    # 1. killed right after the 40th acknowledged action (the writer goes on acting)
    proc = _writer(tmp_path, db, 2000)
    assert proc.stdout is not None
    seen: list[str] = []
    while not seen or not seen[-1].startswith("ok 40 "):
        seen.append(proc.stdout.readline().strip())
        assert seen[-1], "the writer stopped early"
    lines = seen + _kill(proc)
    assert not [line for line in lines if line.startswith("ERR")]
    version = _check_resumed(db, ref, _acked(lines))
    assert version >= 40
    # 2-4. killed after fixed delays, mostly inside a write; each run resumes the last one
    for delay in (0.05, 0.12, 0.2):
        proc = _writer(tmp_path, db, 2000)
        time.sleep(delay)
        lines = _kill(proc)
        assert not [line for line in lines if line.startswith("ERR")]
        acked = _acked(lines)
        got = _check_resumed(db, ref, acked if acked is not None else version)
        assert got >= version
        version = got


def _drive(db: Path | str, steps: int) -> tuple[Session, dict[int, str]]:
    session = Session.create(
        "golf", ["Ann", "Bob"], now=0.0, seed=SEED, store=SQLiteStore(db), session_id=SID
    )
    tokens = {}
    for seat in (0, 1):
        out = session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=0.0)
        tokens[seat] = next(o.message["token"] for o in out if o.message["type"] == "welcome")
    for _ in range(steps):
        _step(session)
    return session, tokens


def _act(session: Session, index: int) -> list[str]:
    game = session.game
    assert game is not None
    seat = game.to_act[0]
    text = str(game.legal_actions(seat)[index])
    msg = {"type": "act", "action": text, "seen": game.version}
    out = session.handle(f"c{seat}", json.dumps(msg), now=1.0 + game.version)
    return [o.message["type"] for o in out if o.conn == f"c{seat}"]


def test_two_writers_of_one_session_never_leave_it_unresumable(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    first, tokens = _drive(db, 4)
    first.store.close()  # type: ignore[union-attr]
    a = Session.resume(SQLiteStore(db), SID, now=10.0)
    b = Session.resume(SQLiteStore(db), SID, now=10.0)
    for s in (a, b):
        for seat in (0, 1):
            s.handle(
                f"c{seat}",
                json.dumps({"type": "join", "seat": seat, "token": tokens[seat]}),
                now=10.0,
            )
    told = [_act(a, 0), _act(b, 1), _act(a, 0)]
    assert all("ok" in t for t in told) or a.store_error or b.store_error
    resumed = Session.resume(SQLiteStore(db), SID, now=20.0)  # fails today: CorruptSessionError
    assert resumed.game is not None and a.game is not None and b.game is not None
    assert resumed.game.save() in (a.game.save(), b.game.save())


def _shape(path: Path) -> tuple[str, int, list[str]]:
    db = sqlite3.connect(path)
    try:
        mode = db.execute("PRAGMA journal_mode").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master ORDER BY name")]
        return mode, version, names
    finally:
        db.close()


def _other_app(path: Path, ddl: str) -> tuple[str, int, list[str]]:
    db = sqlite3.connect(path)
    db.executescript(ddl)
    db.commit()
    db.close()
    return _shape(path)


def test_another_apps_sessions_table_is_refused_and_the_file_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "webapp.db"
    before = _other_app(
        path, "CREATE TABLE sessions (key TEXT PRIMARY KEY, data BLOB, expiry INTEGER);"
    )
    with pytest.raises(StoreError) as info:
        SQLiteStore(path)
    assert repr(str(path)) in str(info.value)  # holds today
    assert _shape(path) == before  # fails: WAL mode and three new tables


def test_another_apps_database_is_refused_not_adopted(tmp_path: Path) -> None:
    path = tmp_path / "inventory.db"
    before = _other_app(
        path,
        "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users VALUES (1, 'x');",
    )
    try:
        with pytest.raises(StoreError, match=r"inventory\.db"):
            SQLiteStore(path)
    finally:
        assert _shape(path) == before


def test_garbage_is_refused_naming_the_file_and_left_as_it_was(tmp_path: Path) -> None:
    from cardcore.web import WebServer

    for name, data in [
        ("text.db", b"not a database at all\n" * 200),
        ("header.db", b"SQLite format 3\x00" + bytes(range(256)) * 16),
    ]:
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(StoreError) as info:
            SQLiteStore(path)
        assert repr(str(path)) in str(info.value) and "not a database" in str(info.value)
        with pytest.raises(StoreError) as info:
            WebServer(str(path))
        assert repr(str(path)) in str(info.value)
        assert path.read_bytes() == data


def test_a_read_only_file_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    session, _ = _drive(path, 3)
    session.store.close()  # type: ignore[union-attr]
    for extra in ("-wal", "-shm"):
        Path(str(path) + extra).unlink(missing_ok=True)
    if os.geteuid() == 0:  # root writes through file modes: make the file immutable instead
        if (
            shutil.which("chattr") is None
            or subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode
        ):
            pytest.skip("cannot make a file read-only for root here")
    else:
        path.chmod(0o444)
    try:
        with pytest.raises(StoreError) as info:
            SQLiteStore(path)
        assert repr(str(path)) in str(info.value) and "readonly" in str(info.value)
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], capture_output=True, check=False)
        path.chmod(0o644)
    resumed = Session.resume(SQLiteStore(path), SID, now=50.0)  # nothing was lost
    assert resumed.game is not None and resumed.game.version == 3


def test_a_database_deleted_while_in_use_is_an_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    session, _ = _drive(path, 3)
    path.unlink()
    assert "ok" in _act(session, 0)
    assert session.store_error is not None and str(path) in session.store_error


FULL = textwrap.dedent(
    """
    import json, os, resource, signal, sys
    from cardcore.session import Session, SQLiteStore
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    db = sys.argv[1]
    s = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=11, store=SQLiteStore(db), session_id="crash-1")
    for seat in (0, 1):
        s.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=0.0)
    room = max(os.path.getsize(db + x) for x in ("", "-wal", "-shm")) + 40000
    resource.setrlimit(resource.RLIMIT_FSIZE, (room, room))
    for _ in range(400):
        g = s.game
        seat = g.to_act[0]
        text = str(g.legal_actions(seat)[0])
        out = s.handle(f"c{seat}", json.dumps({"type": "act", "action": text, "seen": g.version}), now=1.0 + g.version)
        told = [o.message["type"] for o in out if o.conn == f"c{seat}"]
        if s.store_error is not None:
            print(json.dumps({"failed": g.version, "told": told, "error": s.store_error}), flush=True)
            break
    os.kill(os.getpid(), signal.SIGKILL)
    """
)


@pytest.fixture(scope="module")
def full_disk(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("full")
    script = tmp / "full.py"
    script.write_text(FULL, encoding="utf-8")
    db = tmp / "games.db"
    run = subprocess.run(
        [sys.executable, str(script), str(db)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=tmp,
        check=False,
    )
    assert run.returncode == -signal.SIGKILL
    lines = run.stdout.splitlines()
    assert len(lines) == 1, run.stdout + run.stderr[-2000:]
    return db, json.loads(lines[0])


def test_a_full_disk_then_sigkill_resumes_at_the_last_whole_commit(
    full_disk: tuple[Path, dict[str, Any]],
) -> None:
    db, report = full_disk
    failed = report["failed"]
    assert failed >= 2  # some commits went through before the file size limit
    assert "ok" in report["told"]  # documented: the game goes on, the store is retried later
    _check_resumed(db, Reference(), failed - 1)
    store = SQLiteStore(db)
    try:
        resumed = Session.resume(store, SID, now=0.0)
        assert resumed.game is not None and resumed.game.version == failed - 1  # rolled back whole
    finally:
        store.close()


def test_a_full_disk_is_a_store_error_naming_the_file(
    full_disk: tuple[Path, dict[str, Any]],
) -> None:
    db, report = full_disk
    assert report["error"].startswith("StoreError:")
    assert str(db) in report["error"]


def _meta(path: Path) -> dict[str, Any]:
    db = sqlite3.connect(path)
    try:
        meta: dict[str, Any] = json.loads(db.execute("SELECT meta FROM sessions").fetchone()[0])
        return meta
    finally:
        db.close()


def _edit(path: Path, query: str, *args: Any) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute(query, args)
    finally:
        db.close()


@pytest.fixture
def five(tmp_path: Path) -> tuple[Path, Session, dict[int, str]]:
    path = tmp_path / "hand.db"
    session, tokens = _drive(path, 5)
    session.store.close()  # type: ignore[union-attr]
    return path, session, tokens


def test_an_action_row_added_by_hand_is_refused(five: tuple[Path, Session, dict[int, str]]) -> None:
    path, session, _ = five
    game = session.game
    assert game is not None
    seat = game.to_act[0]
    legal = str(game.legal_actions(seat)[0])  # a legal next move, never played
    _edit(path, "INSERT INTO actions VALUES (?, 5, ?, ?, 6.0)", SID, seat, legal)
    with pytest.raises(CorruptSessionError, match="holds 6 actions, but 5 were committed"):
        Session.resume(SQLiteStore(path), SID, now=50.0)
    meta = _meta(path)  # and with the committed count raised to match
    meta["integrity"]["actions"] = 6
    _edit(path, "UPDATE sessions SET meta = ?", json.dumps(meta))
    with pytest.raises(CorruptSessionError, match=repr(SID)):
        Session.resume(SQLiteStore(path), SID, now=50.0)


def test_a_stream_counter_bumped_by_hand_is_refused(
    five: tuple[Path, Session, dict[int, str]],
) -> None:
    path, _, _ = five
    meta = _meta(path)
    meta["streams"]["seat.0"] += 1
    _edit(path, "UPDATE sessions SET meta = ?", json.dumps(meta))
    with pytest.raises(
        CorruptSessionError, match="stored meta differs from the one last committed"
    ):
        Session.resume(SQLiteStore(path), SID, now=50.0)


def test_a_card_duplicated_in_a_kept_message_is_never_resent(
    five: tuple[Path, Session, dict[int, str]], caplog: pytest.LogCaptureFixture
) -> None:
    path, session, tokens = five
    db = sqlite3.connect(path)
    n, body = db.execute(
        "SELECT n, body FROM messages WHERE stream = 'seat.0' AND body LIKE '%\"card\":%' ORDER BY n DESC LIMIT 1"
    ).fetchone()
    db.close()
    message = json.loads(body)
    event = next(e for e in message["events"] if "card" in e)
    game = session.game
    assert game is not None
    view = game.view(0)
    seen = sorted(
        {
            c
            for z in view["zones"]
            for c in (z["cards"] or [])
            if c is not None and c != event["card"]
        }
    )
    event["card"] = seen[0]  # a card seat 0 already sees elsewhere: now shown twice
    edited = json.dumps(message, separators=(",", ":"))
    _edit(path, "UPDATE messages SET body = ? WHERE stream = 'seat.0' AND n = ?", edited, n)
    with caplog.at_level(logging.WARNING):
        resumed = Session.resume(SQLiteStore(path), SID, now=50.0)
    assert "are not the ones committed" in caplog.text
    out = resumed.handle(
        "c0", json.dumps({"type": "join", "seat": 0, "token": tokens[0], "last": n - 1}), now=51.0
    )
    texts = [o.text for o in out if o.conn == "c0"]
    assert edited not in texts
    fresh = [o.message for o in out if o.conn == "c0" and o.message["type"] == "view"]
    assert fresh and fresh[-1]["view"] == view


@pytest.mark.parametrize("mode", ["pause", "continue"])
def test_turn_clocks_across_a_sigkill_are_as_documented(mode: str, tmp_path: Path) -> None:
    db = tmp_path / "clock.db"
    proc = _writer(tmp_path, db, 1, clock=mode)  # one action at now=10.0, then sleeps
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().split()
        assert line[:2] == ["ok", "1"]
        deadline = float(line[2])  # the running clock as stored at 10.0
        assert proc.stdout.readline().strip() == "done"
    finally:
        _kill(proc)
    store = SQLiteStore(db)
    try:
        resumed = Session.resume(store, SID, now=1000.0)
        assert resumed.game is not None and resumed.game.version == 1
        if mode == "pause":  # the time it had left when last stored, from the restart
            assert resumed.next_deadline() == pytest.approx(1000.0 + deadline - 10.0)
            resumed.tick(1000.0 + deadline - 10.0 - 0.5)
            assert resumed.game.version == 1
        else:  # the wall-clock deadline stays; the first tick plays it at its own time
            assert resumed.next_deadline() == pytest.approx(deadline)
            resumed.tick(1000.0)
            assert resumed.game.version > 1
            assert resumed.game.record()["actions"][1][2] == pytest.approx(deadline)
    finally:
        store.close()
