"""Claims added or changed in the docs, changelog, seeds and docstrings since 176f9fe, run.

Golf house rules ``golf.bonus-card`` (GOLF-SCORE-10) and ``golf.hand-same-value``
(GOLF4H-VAR-1), ``RuleInfo`` sets, ``STALE_WINDOW``, the SQLite store's refusals and what an
``ok`` means while it fails, ``cardcore serve``'s lock and signals, ``play``'s signals, record
errors naming their file, the import cost claim's mechanism, packaging, and security.rst's
"Logs". Strict xfails mark claims that are false today. Every game is seeded or stacked.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.metadata
import io
import json
import logging
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import tomllib
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import RuleInfo
from cardcore.session import Session, SQLiteStore, StoreError
from tests.games.golf.helpers import golf, round_scores, stack

ROOT = Path(__file__).resolve().parents[1]
CARDCORE = Path(sys.executable).with_name("cardcore")
TIMEOUT = 20


# -- Golf: GOLF-SCORE-10 and GOLF4H-VAR-1 -------------------------------------------------------


def _scores(
    grids: list[str], *rules: str, layout: Any = "4h", bonus: str | None = None
) -> list[int]:
    options: dict[str, Any] = {"layout": layout}
    if bonus is not None:
        options["bonus_card"] = bonus
    game = golf(len(grids), stack(grids, "KS"), rules=list(rules), options=options)
    return round_scores(game, -1)


def test_hand_same_value_a_named_bonus_card_cancels_only_with_another_minus_two() -> None:
    """GOLF4H-VAR-1: "a bonus card (-2) cancels only with another card worth -2, not with its
    own rank"; GOLF-SCORE-10 names one card or a whole rank."""
    rules = ("golf.bonus-card", "golf.hand-same-value")
    other = "AC 3D 4H 6S"  # 14
    assert _scores(["QH QD 5S 7C", other], *rules, bonus="QH") == [-2 + 10 + 5 + 7, 14]
    assert _scores(["QH QD 5S 7C", other], *rules, bonus="Q") == [5 + 7, 14]  # both -2: cancel
    # without the literal reading the hand cancels by rank (GOLF4H-2): QH pairs with QD
    assert _scores(["QH QD 5S 7C", other], "golf.bonus-card", bonus="QH") == [5 + 7, 14]


def test_hand_same_value_three_and_four_of_one_value() -> None:
    """Under BASIC 10, J and Q all score 10: of three two cancel, four score 0; HARD splits them."""
    rule = "golf.hand-same-value"
    other = "AC 3D 4H 6S"
    assert _scores(["10H JD QS KC", other], rule) == [10, 14]
    assert _scores(["10H JD QS 10C", other], rule) == [0, 14]
    assert _scores(["10H JD QS 10C", other], rule, "golf.hard") == [11 + 12, 14]


def test_bonus_card_scores_minus_two_in_basic_and_hard_and_pairs_by_rank() -> None:
    grids = ["QH 9C KD QS 5D 4H", "QD 8D 4C 3D 10H 6S"]
    assert _scores(grids, "golf.bonus-card", layout=6, bonus="QH") == [9 + 5 + 4, 41]
    assert _scores(grids, "golf.bonus-card", "golf.hard", layout=6, bonus="QH") == [
        9 + 13 + 5 + 4,
        12 + 8 + 4 + 3 + 10 + 6,
    ]
    game = cardcore.new_game("golf", 2, rules=["golf.bonus-card"], seed=3)
    assert game.options["bonus_card"] == "2"  # seeds/golf.md: default 2


# -- RuleInfo keeps sets sorted -----------------------------------------------------------------


def test_ruleinfo_keeps_sets_sorted() -> None:
    rule = RuleInfo(
        id="GOLF-DOCS-1",
        name="golf.docs-sets",
        game="golf",
        summary="sets",
        conflicts={"golf.c", "golf.a", "golf.b"},
        requires=frozenset({"golf.z", "golf.m"}),
        applies={"layout": {10, 6, 9, 8}},
    )
    assert rule.conflicts == ("golf.a", "golf.b", "golf.c")
    assert rule.requires == ("golf.m", "golf.z")
    assert rule.applies["layout"] == (6, 8, 9, 10)
    listed = RuleInfo(
        id="GOLF-DOCS-2", name="golf.docs-list", game="golf", summary="s", conflicts=["b", "a"]
    )
    assert listed.conflicts == ("b", "a")  # a list keeps its own order


def test_ruleinfo_set_order_is_the_same_under_other_hash_seeds() -> None:
    code = (
        "from cardcore import RuleInfo\n"
        "r = RuleInfo(id='G-1', name='golf.h', game='golf', summary='s',"
        " conflicts={'golf.q%d' % i for i in range(30)}, applies={'layout': {'4h', 6, '10', 4}})\n"
        "print(r.conflicts, tuple(r.applies['layout']))"
    )
    outs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            env={**os.environ, "PYTHONHASHSEED": seed},
            check=True,
        ).stdout
        for seed in ("1", "2")
    }
    assert len(outs) == 1


# -- STALE_WINDOW (api.rst) ---------------------------------------------------------------------


def test_stale_window_arithmetic_in_the_docs() -> None:
    """ "four seats each playing a card a second pass it in 16 seconds"."""
    assert cardcore.STALE_WINDOW / 4 == 16


# -- the import cost's mechanism (changelog) ----------------------------------------------------


def test_import_cardcore_does_not_import_importlib_metadata() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import sys, cardcore; print('importlib.metadata' in sys.modules)"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=True,
    )
    assert done.stdout.strip() == "False"


# -- packaging (changelog) ----------------------------------------------------------------------


def test_licence_and_cli_extra() -> None:
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").lstrip().startswith("MIT")
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert any(
        dep.startswith("markdown-it-py") for dep in meta["project"]["optional-dependencies"]["cli"]
    )
    dist = importlib.metadata.distribution("cardcore")
    assert any(str(f).endswith("LICENSE") for f in dist.files or ())


# -- the SQLite store (session.rst "What the SQLite store refuses") -----------------------------


def _other_app(path: Path, ddl: str) -> bytes:
    con = sqlite3.connect(path)
    con.executescript(ddl)
    con.commit()
    con.close()
    return path.read_bytes()


def test_another_apps_database_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    db = tmp_path / "app.db"
    before = _other_app(
        db,
        "CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users VALUES (1, 'a');",
    )
    with pytest.raises(StoreError, match=r"app\.db"):
        SQLiteStore(db)
    assert db.read_bytes() == before
    assert not (tmp_path / "app.db-wal").exists()


def test_another_apps_database_with_a_lookalike_table_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "chat.db"
    before = _other_app(
        db,
        "CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT);"
        "CREATE TABLE messages(session TEXT, stream TEXT, n INTEGER, body TEXT);"
        "INSERT INTO users VALUES (1, 'a');",
    )
    with contextlib.suppress(StoreError):
        SQLiteStore(db)
    assert db.read_bytes() == before
    tables = {
        r[0]
        for r in sqlite3.connect(db).execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    assert tables == {"users", "messages"}


TOKENS: dict[str, dict[int, str]] = {}  # per session id: the seats' tokens


def _session(db: Path, sid: str = "docs-1") -> tuple[SQLiteStore, Session]:
    store = SQLiteStore(db)
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=11, store=store, session_id=sid)
    for seat in (0, 1):
        out = session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=0.0)
        welcome = [o.message["token"] for o in out if o.message["type"] == "welcome"]
        TOKENS.setdefault(sid, {})[seat] = welcome[0]
    return store, session


def _act(session: Session, now: float) -> list[str]:
    game = session.game
    assert game is not None
    seat = game.to_act[0]
    text = str(game.legal_actions(seat)[0])
    out = session.handle(
        f"c{seat}", json.dumps({"type": "act", "action": text, "seen": game.version}), now=now
    )
    return [o.message["type"] for o in out if o.conn == f"c{seat}"]


@pytest.fixture
def records() -> Iterator[list[logging.LogRecord]]:
    found: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            found.append(record)

    logger = logging.getLogger("cardcore")
    handler = Keep(logging.DEBUG)
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield found
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def test_a_full_disk_is_a_store_error_yet_ok_and_store_error_set(
    tmp_path: Path, records: list[logging.LogRecord]
) -> None:
    """session.rst: clients still get ``ok``; the failure is logged and kept in
    ``store_error``; the transaction is undone whole; the error names the file."""
    db = tmp_path / "full.db"
    store, session = _session(db)
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages}")  # a disk with no room left
    answers: list[str] = []
    for step in range(40):
        answers = _act(session, 1.0 + step)
        if session.store_error:
            break
    assert (
        session.store_error is not None
        and "full" in session.store_error
        and "full.db" in session.store_error
    )
    assert "ok" in answers
    assert any(r.name == "cardcore.session" and r.levelno == logging.ERROR for r in records)
    stored = sqlite3.connect(db).execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    assert (
        session.game is not None and stored < session.game.version
    )  # the failed batch: none of it


def test_a_file_replaced_while_in_use_is_a_store_error(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    _store, session = _session(db)
    assert _act(session, 1.0).count("ok") == 1 and session.store_error is None
    other = tmp_path / "other.db"
    SQLiteStore(other)._db.close()
    os.replace(other, db)
    assert "ok" in _act(session, 2.0)
    assert session.store_error is not None and "deleted or replaced" in session.store_error


def test_another_writer_changing_the_session_is_refused_the_first_keeps_it(tmp_path: Path) -> None:
    db = tmp_path / "two.db"
    _store, first = _session(db, "two-1")
    _act(first, 1.0)
    second = Session.resume(SQLiteStore(db), "two-1", now=1.5)
    for seat in (0, 1):
        token = TOKENS["two-1"][seat]
        out = second.handle(
            f"c{seat}", json.dumps({"type": "join", "seat": seat, "token": token}), now=1.5
        )
        assert any(o.message["type"] == "welcome" for o in out)
    _act(first, 2.0)  # the first writer moves on
    _act(second, 3.0)  # the second, stale, must not overwrite it
    assert first.store_error is None
    assert second.store_error is not None and "another writer" in second.store_error
    again = Session.resume(SQLiteStore(db), "two-1", now=4.0)
    assert again.game is not None and first.game is not None
    assert again.game.version == first.game.version


# -- Logs (security.rst) ------------------------------------------------------------------------

_FORGED = "boom\nERROR cardcore.session session docs: forged line"


@pytest.fixture
def failing_observer() -> Iterator[str]:
    name = "golf.docs-claims-observer"
    module = types.ModuleType("docs_claims_observer")
    module.RULE = RuleInfo(id="GOLF-DOCS-9", name=name, game="golf", summary="raises on events")  # type: ignore[attr-defined]

    @cardcore.hookimpl
    def on_event(event: Any) -> None:
        raise RuntimeError(_FORGED)

    module.on_event = on_event  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", name, module)
    try:
        yield name
    finally:
        cardcore.unregister("cardcore.rules", name)


def _written(records: list[logging.LogRecord]) -> str:
    """What Python's default handler writes (message only, traceback included)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    for record in records:
        handler.handle(record)
    return stream.getvalue()


def test_loggers_are_the_four_named_and_unconfigured() -> None:
    names = set()
    for path in (ROOT / "src" / "cardcore").rglob("*.py"):
        names.update(re.findall(r"getLogger\(\"([^\"]+)\"\)", path.read_text(encoding="utf-8")))
        assert "getLogger(__name__)" not in path.read_text(encoding="utf-8"), path
    assert names == {"cardcore.events", "cardcore.session", "cardcore.web", "cardcore.cli"}
    for name in names:
        assert logging.getLogger(name).handlers == []


def test_a_failing_plugins_brief_lines_are_escaped(
    failing_observer: str, records: list[logging.LogRecord]
) -> None:
    game = cardcore.new_game("golf", 2, seed=1, rules=[failing_observer])
    for _ in range(3):
        seat = game.to_act[0]
        game.act(seat, str(game.legal_actions(seat)[0]))
    first = [r for r in records if r.name == "cardcore.events" and r.levelno == logging.ERROR]
    assert first and first[0].exc_info is not None  # the first failure: an error with its traceback
    for record in records:
        assert "\n" not in record.getMessage()


def test_a_failing_plugins_text_starts_no_line_but_in_its_traceback(
    failing_observer: str, records: list[logging.LogRecord]
) -> None:
    # security.rst "Logs": in a log *message*, outside text is escaped; the first failure's
    # traceback (exc_info) is Python's own, its last line the error's text as it is
    game = cardcore.new_game("golf", 2, seed=1, rules=[failing_observer])
    game.act(game.to_act[0], str(game.legal_actions(game.to_act[0])[0]))
    ours = [r for r in records if r.name.startswith("cardcore")]
    assert "on_event raised" in _written(ours)
    assert all("\n" not in r.getMessage() for r in ours)  # every message: one line
    bare = [logging.makeLogRecord({**r.__dict__, "exc_info": None, "exc_text": None}) for r in ours]
    messages = _written(bare)
    assert not any(line.startswith("ERROR cardcore.session") for line in messages.splitlines())
    traced = [r for r in ours if r.exc_info is not None]
    assert traced  # the first failure, with its traceback: the raw text is in it, as documented
    assert any(line.startswith("ERROR cardcore.session") for line in _written(traced).splitlines())


# -- the command line ---------------------------------------------------------------------------


def _record_file(path: Path) -> Path:
    game = cardcore.new_game("golf", 2, seed=7, options={"rounds": 1})
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    record = game.record()
    record["actions"] = [[0, "bogus"]]  # not [seat, notation, at]
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_replay_names_the_file_of_a_record_it_cannot_read(tmp_path: Path) -> None:
    bad = _record_file(tmp_path / "broken-record.json")
    done = subprocess.run(
        [str(CARDCORE), "replay", str(bad)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    assert "broken-record.json" in done.stderr


def test_verify_names_the_file_of_a_record_it_cannot_read(tmp_path: Path) -> None:
    bad = _record_file(tmp_path / "broken-record.json")
    done = subprocess.run(
        [str(CARDCORE), "verify", str(bad)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    assert "broken-record.json" in done.stderr


def _play_until_prompt(tmp_path: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [str(CARDCORE), "play", "golf", "--seed", "7", "-o", "rounds=1", "--record", "r.json"],
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    os.set_blocking(fd, False)
    seen = b""
    deadline = time.monotonic() + TIMEOUT
    while b"> " not in seen and time.monotonic() < deadline:  # the first prompt: reading stdin
        with contextlib.suppress(BlockingIOError):
            seen += os.read(fd, 65536)
        time.sleep(0.05)
    os.set_blocking(fd, True)
    assert b"> " in seen
    time.sleep(0.2)
    return proc


@pytest.mark.parametrize(
    ("sig", "status", "said"), [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 0, "")]
)
def test_play_on_sigterm_and_ctrl_c_saves_its_record(
    tmp_path: Path, sig: int, status: int, said: str
) -> None:
    proc = _play_until_prompt(tmp_path)
    proc.send_signal(sig)
    _out, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == status
    assert err.decode().strip() == said
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["game"] == "golf"


def _serve(db: Path, log: Path) -> tuple[subprocess.Popen[bytes], str | None]:
    with log.open("wb") as err:
        proc = subprocess.Popen(
            [str(CARDCORE), "serve", "--host", "127.0.0.1", "--port", "0", "--db", str(db)],
            stderr=err,
            stdout=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
        )
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", log.read_text())
        if found:
            return proc, found.group(1)
        if proc.poll() is not None:
            return proc, None
        time.sleep(0.03)
    proc.kill()
    raise AssertionError("cardcore serve did not start")


def test_serve_locks_its_db_and_the_lock_goes_with_a_killed_process(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    db = tmp_path / "games.db"
    first, port = _serve(db, tmp_path / "a.log")
    try:
        assert port is not None
        second, none = _serve(db, tmp_path / "b.log")
        assert none is None and second.wait(TIMEOUT) == 2
        lines = (tmp_path / "b.log").read_text().splitlines()
        assert len(lines) == 1 and lines[0].startswith(
            f"error: {str(db)!r} is in use by another cardcore serve"
        )
    finally:
        first.kill()
        first.wait(TIMEOUT)
    third, port = _serve(db, tmp_path / "c.log")
    try:
        assert port is not None  # the killed server's lock went with it
    finally:
        third.send_signal(signal.SIGINT)
        assert third.wait(TIMEOUT) == 130  # web.rst: after Ctrl-C the status is 130


def test_serve_on_sigterm_closes_websockets_with_1012_and_ends_by_the_signal(
    tmp_path: Path,
) -> None:
    pytest.importorskip("uvicorn")
    websockets = pytest.importorskip("websockets")
    proc, port = _serve(tmp_path / "w.db", tmp_path / "w.log")
    assert port is not None

    async def run() -> int | None:
        async with websockets.connect(
            f"ws://127.0.0.1:{port}/ws", origin=f"http://127.0.0.1:{port}"
        ) as ws:
            await asyncio.sleep(0.2)
            proc.send_signal(signal.SIGTERM)
            try:
                while True:
                    await asyncio.wait_for(ws.recv(), TIMEOUT)
            except websockets.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None
        return None  # pragma: no cover

    try:
        assert asyncio.run(run()) == 1012
        assert proc.wait(TIMEOUT) == -signal.SIGTERM
    finally:
        if proc.poll() is None:  # pragma: no cover
            proc.kill()
            proc.wait(TIMEOUT)


# -- reveal_all and TOP piles (turns.py, zones.py docstrings) -----------------------------------


def test_reveal_all_leaves_beneath_the_top_of_a_top_pile_unshown() -> None:
    from cardcore.turns import reveal_all

    game = cardcore.new_game("golf", 2, seed=7, options={"rounds": 1})
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    assert game.is_over
    reveal_all(game.state)
    zones = {z["name"]: z for z in cardcore.jsonable(game.view(0))["zones"]}
    assert zones["discard"]["visibility"] == "top" and zones["discard"]["count"] > 1
    assert zones["discard"]["cards"][0] is not None
    assert zones["discard"]["cards"][1:] == [None] * (zones["discard"]["count"] - 1)
    assert None not in zones["stock"]["cards"]  # a NOBODY pile is turned up


# -- main() and the caller's streams (cli.rst) --------------------------------------------------


def test_main_writes_escapes_on_an_ascii_stream_and_puts_it_back() -> None:
    from cardcore.cli import main

    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii", errors="strict")
    before = sys.stdout
    sys.stdout = out
    try:
        status = main(["rules", "golf"])
        out.flush()
    finally:
        sys.stdout = before
    assert status == 0
    assert out.errors == "strict"
    assert b"GOLF-SCORE-10" in raw.getvalue()
