"""Log hygiene (2026-12-23): what the engine, the session layer and ``cardcore serve`` write
to logs, read as an operator whose logs go to a third-party log service.

Checked: no seat token, token digest, fair-deal server seed or salt in any record; a client's
bad input is not logged at all (it is answered); a store failure is one ERROR line; text
that reaches a log line from stored rows is escaped and cut; ``cardcore serve`` writes
nothing but its start line while clients misbehave. Deterministic: fixed seeds, fixed
session ids; secrets are searched as whole strings only (64/32/43 characters).
"""

from __future__ import annotations

import copy
import json
import logging
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import types
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import RuleInfo
from cardcore.session import Hub, SessionConfig, SQLiteStore, TimeControl


class _Records(list[logging.LogRecord]):
    """The records the test's own phase captured (``caplog.records`` is per phase)."""

    def __init__(self, caplog: pytest.LogCaptureFixture) -> None:
        super().__init__()
        self.caplog = caplog

    def __iter__(self) -> Iterator[logging.LogRecord]:
        return iter(self.caplog.records)

    def __len__(self) -> int:
        return len(self.caplog.records)

    def __eq__(self, other: object) -> bool:
        return list(self.caplog.records) == other

    __hash__ = None  # type: ignore[assignment]


@pytest.fixture
def records(caplog: pytest.LogCaptureFixture) -> Iterator[list[logging.LogRecord]]:
    """Every record of the cardcore loggers at DEBUG and above, in the test's call."""
    with caplog.at_level(logging.DEBUG, logger="cardcore"):
        yield _Records(caplog)


def _texts(records: list[logging.LogRecord]) -> str:
    """Everything a handler would write: messages and formatted tracebacks."""
    fmt = logging.Formatter("%(levelname)s %(name)s %(message)s")
    return "\n".join(fmt.format(r) for r in list(records))


def _join(hub: Hub, conn: str, sid: str, seat: int, now: float = 0.0) -> str:
    out = hub.handle(conn, json.dumps({"type": "join", "seat": seat, "session": sid}), now)
    welcome = next(o.message for o in out if o.conn == conn and o.message["type"] == "welcome")
    token: str = welcome["token"]
    return token


HOSTILE: list[str | bytes] = [
    "garbage\nERROR forged line",
    b"\xff\xfe\x00",
    "{" * 200,
    "x" * 9000,
    json.dumps({"type": "wat\n\x1b[31mERROR forged"}),
    json.dumps({"type": "act", "action": "bogus\n\x1b[2JERROR forged" + "y" * 500, "seen": 0}),
    json.dumps({"type": "act", "action": "flip 99", "seen": 0}),
    json.dumps({"type": "act", "action": "flip 0", "seen": "nan"}),
    json.dumps({"type": "history", "since": "\n"}),
    json.dumps({"type": "resync", "last": -5}),
    json.dumps({"type": "takeback", "id": "\n" * 40}),
    json.dumps({"type": "entropy", "value": "\x1b" * 100}),
]


# -- the session layer: a client's bad input ------------------------------------------------


def test_hostile_clients_leave_no_log_record_and_no_token_anywhere(
    tmp_path: Path, records: list[logging.LogRecord]
) -> None:
    """Wrong, truncated and garbled tokens, malformed and hostile messages, illegal actions,
    refused takebacks, disconnects: each is answered to its client, none is logged (so no
    client can fill or forge the operator's log), and no token reaches a record."""
    hub = Hub(SQLiteStore(tmp_path / "s.db"))
    session = hub.create("golf", 2, now=0.0, seed=7, session_id="loghygiene1")
    tokens = [_join(hub, "a", session.id, 0), _join(hub, "b", session.id, 1)]
    for i, token in enumerate(tokens):
        for bad in (token[:-1] + ("x" if token[-1] != "x" else "y"), token[:20], token + "\n"):
            out = hub.handle(
                f"w{i}",
                json.dumps({"type": "join", "seat": i, "session": session.id, "token": bad}),
                1.0,
            )
            assert out and out[0].message["code"] == "bad-token"
    out = hub.handle("z", json.dumps({"type": "join", "seat": 0, "session": "nope\nERROR x"}), 1.0)
    assert out[0].message["code"] == "no-session"
    for conn in ("a", "b", "stranger"):
        for message in HOSTILE:
            hub.handle(conn, message, 1.5)
    hub.handle("b", json.dumps({"type": "act", "action": "flip 0", "seen": 0}), 2.0)  # not its turn
    hub.handle("a", json.dumps({"type": "act", "action": "flip 0", "seen": 0}), 2.0)
    hub.handle("a", json.dumps({"type": "takeback"}), 2.5)
    hub.handle("b", json.dumps({"type": "takeback-answer", "accept": "maybe"}), 2.6)
    hub.disconnect("a", 3.0)
    hub.disconnect("b", 3.0)
    hub.handle(
        "a2",
        json.dumps({"type": "join", "seat": 0, "session": session.id, "token": tokens[0]}),
        4.0,
    )
    assert session.game is not None and session.game.version >= 1  # the game went on
    assert records == [], _texts(records)


def test_timeouts_play_on_without_a_log_line(
    tmp_path: Path, records: list[logging.LogRecord]
) -> None:
    """Timeouts (the game's default action on the clock) are the session's normal work: no
    record, no token."""
    hub = Hub(SQLiteStore(tmp_path / "s.db"))
    config = SessionConfig(time=TimeControl(turn=5.0))
    session = hub.create("golf", 2, now=0.0, seed=11, config=config, session_id="loghygiene2")
    tokens = [_join(hub, "a", session.id, 0), _join(hub, "b", session.id, 1)]
    hub.disconnect("a", 1.0)
    for t in range(10, 200, 10):
        hub.tick(float(t))
    assert session.game is not None and session.game.version > 5
    text = _texts(records)
    assert not [r for r in records if r.levelno >= logging.WARNING], text
    assert not any(token in text for token in tokens)


# -- the store ------------------------------------------------------------------------------


def test_a_store_failure_is_one_error_line_naming_the_file_not_a_token(
    tmp_path: Path, records: list[logging.LogRecord]
) -> None:
    """The database deleted under a live session: the next commit fails, logged once at ERROR
    (the session id and the store's text), with no token, seed or traceback of the game."""
    db = tmp_path / "s.db"
    hub = Hub(SQLiteStore(db))
    session = hub.create("golf", 2, now=0.0, seed=3, session_id="loghygiene3")
    tokens = [_join(hub, "a", session.id, 0), _join(hub, "b", session.id, 1)]
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{db}{suffix}").exists():
            os.remove(f"{db}{suffix}")
    out = hub.handle("a", json.dumps({"type": "act", "action": "flip 0", "seen": 0}), 1.0)
    assert any(o.message["type"] == "ok" for o in out)  # answered ok, as documented
    assert session.store_error is not None
    errors = [r for r in records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, _texts(records)
    line = errors[0].getMessage()
    assert line.startswith("session loghygiene3: the store failed: ") and "\n" not in line
    assert errors[0].exc_info is None
    assert not any(token in _texts(records) for token in tokens)


# -- resuming damaged rows of a fair session -------------------------------------------------


def _fair_store(tmp_path: Path) -> tuple[Path, dict[str, Any], list[str], list[str]]:
    """A fair Golf session stored mid-game; its meta, its token digests and its tokens."""
    db = tmp_path / "base.db"
    store = SQLiteStore(db)
    hub = Hub(store)
    session = hub.create("golf", 2, now=0.0, config=SessionConfig(fair=True), session_id="fairlog")
    tokens = [_join(hub, "a", session.id, 0), _join(hub, "b", session.id, 1)]
    hub.handle("a", json.dumps({"type": "act", "action": "flip 0", "seen": 0}), 1.0)
    store.close()
    con = sqlite3.connect(db)
    meta = json.loads(con.execute("SELECT meta FROM sessions").fetchone()[0])
    digests = [row[0] for row in con.execute("SELECT digest FROM tokens")]
    con.close()
    return db, meta, digests, tokens


def _damaged(
    meta: dict[str, Any], change: Callable[[dict[str, Any]], None]
) -> Callable[[sqlite3.Connection], None]:
    def edit(con: sqlite3.Connection) -> None:
        m = copy.deepcopy(meta)
        change(m)
        con.execute("UPDATE sessions SET meta = ?", (json.dumps(m),))

    return edit


def test_a_damaged_fair_session_is_logged_without_its_server_seed_salt_or_tokens(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Each damage refuses the resume with one line naming what, never the secret fair-deal
    material (server seed, salt), a token or a token digest, even when the damaged field is
    the secret itself; text from the damaged field is escaped and cut."""
    db, meta, digests, tokens = _fair_store(tmp_path)
    server_seed, salt = meta["fair"]["server_seed"], meta["fair"]["salt"]
    assert len(server_seed) == 64 and len(salt) == 32
    secrets = [server_seed, salt, *digests, *tokens]
    damages: dict[str, Callable[[sqlite3.Connection], None]] = {
        "server seed not hex": _damaged(
            meta, lambda m: m["fair"].__setitem__("server_seed", "zz" + server_seed[2:])
        ),
        "server seed short": _damaged(
            meta, lambda m: m["fair"].__setitem__("server_seed", server_seed[:-2])
        ),
        "salt longer": _damaged(meta, lambda m: m["fair"].__setitem__("salt", salt + "q")),
        "fair a list": _damaged(meta, lambda m: m.__setitem__("fair", [server_seed, salt])),
        "chance": _damaged(meta, lambda m: m["fair"].__setitem__("chance", server_seed)),
        "digest": _damaged(meta, lambda m: m["integrity"].__setitem__("meta", "0" * 64)),
        "settings": _damaged(
            meta, lambda m: m["config"].__setitem__("time", "x\nERROR forged" + "y" * 5000)
        ),
        "token row": lambda con: con.execute(
            "UPDATE tokens SET digest = ? WHERE seat = 0", ("0" * 64,)
        ),
        "action row": lambda con: con.execute(
            "UPDATE actions SET notation = ?", ("flip 0\nERROR forged",)
        ),
        "meta not json": lambda con: con.execute(
            "UPDATE sessions SET meta = ?", ("{" + server_seed,)
        ),
    }
    for i, (name, damage) in enumerate(damages.items()):
        copy_ = tmp_path / f"damaged-{i}.db"
        shutil.copy(db, copy_)
        con = sqlite3.connect(copy_)
        damage(con)
        con.commit()
        con.close()
        caplog.clear()
        with caplog.at_level(logging.DEBUG, logger="cardcore"):
            failed = Hub(SQLiteStore(copy_)).resume_all(5.0)
        assert failed == ["fairlog"], name
        text = _texts(caplog.records)
        assert [s for s in secrets if s in text] == [], (name, text)
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1, (name, text)
        line = errors[0].getMessage()
        assert "\n" not in line and "\x1b" not in line and len(line) < 600, (name, line)


# -- plugins ------------------------------------------------------------------------------------

_FORGED = "boom\nERROR cardcore.session session fairlog: forged \x1b[2J line"


def _observer_rule() -> types.ModuleType:
    module = types.ModuleType("loghygiene_observer")
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="GOLF-LOGHYG-1", name="golf.loghygiene-observer", game="golf", summary="raises on events"
    )

    @cardcore.hookimpl
    def on_event(event: Any) -> None:
        raise RuntimeError(_FORGED)

    module.on_event = on_event  # type: ignore[attr-defined]
    return module


@pytest.fixture
def observer() -> Iterator[str]:
    name = "golf.loghygiene-observer"
    cardcore.register("cardcore.rules", name, _observer_rule())
    try:
        yield name
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_a_failing_on_event_is_logged_per_plugin_cut_and_without_tokens(
    observer: str, records: list[logging.LogRecord]
) -> None:
    """A house rule whose ``on_event`` raises, in a live session: the first failure ERROR with
    its traceback, later ones briefly (at most 200 characters of the error); the game goes on;
    no token in any record."""
    hub = Hub()
    session = hub.create("golf", 2, now=0.0, seed=5, rules=[observer], session_id="loghygiene4")
    tokens = [_join(hub, "a", session.id, 0), _join(hub, "b", session.id, 1)]
    hub.handle("a", json.dumps({"type": "act", "action": "flip 0", "seen": 0}), 1.0)
    assert session.game is not None and session.game.version == 1
    first = [r for r in records if r.levelno >= logging.ERROR]
    assert first and first[0].exc_info is not None
    later = [r for r in records if "raised again" in r.getMessage()]
    assert later and all(r.levelno == logging.DEBUG for r in later)
    assert all(len(r.getMessage()) < 400 for r in later)
    assert not any(token in _texts(records) for token in tokens)


def test_a_failing_on_event_cannot_forge_a_log_line(
    observer: str, records: list[logging.LogRecord]
) -> None:
    """The one-line records of a failing ``on_event`` (the ones without a traceback) are one
    line: the error's text is escaped."""
    hub = Hub()
    session = hub.create("golf", 2, now=0.0, seed=5, rules=[observer], session_id="loghygiene5")
    _join(hub, "a", session.id, 0)
    _join(hub, "b", session.id, 1)
    hub.handle("a", json.dumps({"type": "act", "action": "flip 0", "seen": 0}), 1.0)
    brief = [r.getMessage() for r in records if r.exc_info is None and "on_event" in r.getMessage()]
    assert brief
    assert all("\n" not in m and "\x1b" not in m for m in brief), brief


# -- cardcore serve -----------------------------------------------------------------------------

CARDCORE = Path(sys.executable).with_name("cardcore")


def _serve(db: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    cmd = [str(CARDCORE), "serve", "--host", "127.0.0.1", "--port", "0", "--db", str(db)]
    with log.open("wb") as err:
        proc = subprocess.Popen(cmd, stderr=err, stdout=subprocess.DEVNULL)
    deadline = time.time() + 20
    while time.time() < deadline:
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", log.read_text())
        if found:
            return proc, f"127.0.0.1:{found.group(1)}"
        assert proc.poll() is None, log.read_text()
        time.sleep(0.03)
    proc.kill()
    raise AssertionError("cardcore serve did not say where it listens")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
            proc.wait(5)


@pytest.mark.filterwarnings("ignore:connect\\(\\) must be used:DeprecationWarning")
def test_serve_writes_only_its_start_line_while_clients_misbehave_and_escapes_a_damaged_bot_row(
    tmp_path: Path,
) -> None:
    """``cardcore serve``'s standard error: hostile WebSocket clients (wrong and garbled
    tokens, malformed, oversize and hostile frames, illegal actions) add nothing to it, and
    the seat token never appears; after a restart a ``web_bots`` row whose agent was edited
    to hold a forged line is one line, escaped and cut."""
    pytest.importorskip("uvicorn")
    websockets = pytest.importorskip("websockets.sync.client")
    db, log1, log2 = tmp_path / "w.db", tmp_path / "one.log", tmp_path / "two.log"
    proc, base = _serve(db, log1)
    try:
        body = json.dumps(
            {"game": "golf", "seats": [{"name": "al"}, {"agent": "random:seed=3"}]}
        ).encode()
        req = urllib.request.Request(
            f"http://{base}/api/sessions", data=body, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=10) as answer:
            sid = json.loads(answer.read())["session"]
        player = websockets.connect(f"ws://{base}/ws?session={sid}", open_timeout=10)
        player.send(json.dumps({"type": "join", "session": sid, "seat": 0}))
        token = None
        while token is None:
            message = json.loads(player.recv(timeout=10))
            token = message.get("token") if message["type"] == "welcome" else None
        other = websockets.connect(f"ws://{base}/ws?session={sid}", open_timeout=10)
        for bad in (token[:-2] + "zz", "\n" * 50, token + "\x1b"):
            other.send(json.dumps({"type": "join", "session": sid, "seat": 0, "token": bad}))
            assert json.loads(other.recv(timeout=10))["code"] == "bad-token"
        for message in HOSTILE:
            other.send(message)
            other.recv(timeout=10)
        for action in ("flip 99", "bogus\nERROR forged", "flip 0", "flip 0"):
            player.send(json.dumps({"type": "act", "action": action, "seen": 0}))
        player.send(json.dumps({"type": "takeback"}))
        time.sleep(0.3)
        player.close()
        other.close()
        time.sleep(0.2)
    finally:
        _stop(proc)
    first = log1.read_text()
    assert token not in first
    assert first.splitlines() == [
        f"cardcore serve: http://{base}/ (games kept in {db}; Ctrl-C stops)"
    ]
    con = sqlite3.connect(db)
    con.execute("UPDATE web_bots SET agent = ?", ("nosuch\nERROR forged bot line " + "q" * 500,))
    con.commit()
    con.close()
    proc, _ = _serve(db, log2)
    try:
        deadline = time.time() + 10
        while "cannot resume" not in log2.read_text() and time.time() < deadline:
            time.sleep(0.05)
    finally:
        _stop(proc)
    lines = log2.read_text().splitlines()
    assert len(lines) == 2, lines
    assert lines[1].startswith(f"the bot of seat 1 of session {sid} cannot resume: ")
    assert "\\nERROR forged" in lines[1] and len(lines[1]) < 400
