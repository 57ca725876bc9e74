"""The web server killed and restarted, as an operator running ``cardcore serve --db games.db``.

The real command runs in a subprocess (port 0, its address read from its first line) and
the tests play it as clients: HTTP for the lobby, WebSocket for the game. It is SIGKILLed
at fixed points (after N acknowledged moves; while a bot is thinking), SIGTERMed, started
twice on one database, and started on databases it cannot use. Every process a test starts
is killed by its own pid in a fixture's ``finally``. Nothing here depends on the deal: the
moves are each seat's first legal action, and the checks hold for any deal.
"""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import cardcore
from cardcore.session import Mirror
from cardcore.session.patch import card_words
from tests.session.kit import LeakCheck

pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used:DeprecationWarning")

CARDCORE = Path(sys.executable).with_name("cardcore")
WAIT = 10.0


class Server:
    """One ``cardcore serve`` process; its standard error goes to a log file."""

    def __init__(self, root: Path, db: Path, name: str) -> None:
        self.root, self.db, self.name = root, db, name
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.base = ""
        self.log = root / f"{name}-0.log"

    def start(self, bot_delay: float = 0.05) -> None:
        self.starts += 1
        self.log = self.root / f"{self.name}-{self.starts}.log"
        cmd = [str(CARDCORE), "serve", "--host", "127.0.0.1", "--port", "0"]
        cmd += ["--db", str(self.db), "--bot-delay", str(bot_delay)]
        with self.log.open("wb") as err:
            self.proc = subprocess.Popen(cmd, stderr=err, stdout=subprocess.DEVNULL)
        deadline = time.time() + 30
        while time.time() < deadline:
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", self.log.read_text())
            if found:
                self.base = f"127.0.0.1:{found.group(1)}"
                return
            assert self.proc.poll() is None, f"cardcore serve stopped: {self.log.read_text()}"
            time.sleep(0.03)
        raise AssertionError("cardcore serve did not say where it listens")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def text(self) -> str:
        return "".join(p.read_text() for p in sorted(self.root.glob(f"{self.name}-*.log")))

    def http(self, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            f"http://{self.base}{path}", data=data, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=WAIT) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def create(self, body: dict[str, Any]) -> str:
        status, made = self.http("/api/sessions", body)
        assert status == 201, made
        sid: str = made["session"]
        return sid


class Client:
    """One WebSocket connection to one seat; keeps the seat's view with a Mirror."""

    def __init__(self, server: Server, sid: str, mirror: Mirror | None = None) -> None:
        self.sid = sid
        self.ws: ClientConnection = connect(
            f"ws://{server.base}/ws?session={sid}", open_timeout=WAIT, close_timeout=1
        )
        self.mirror = mirror or Mirror()
        self.received: list[dict[str, Any]] = []
        self.pings = 0

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps({"session": self.sid, **message}))

    def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(message)
        self.mirror.feed(message)
        return message

    def until(
        self, test: Callable[[dict[str, Any]], bool], timeout: float = WAIT
    ) -> dict[str, Any]:
        deadline = time.time() + timeout
        while True:
            message = self.recv(max(0.05, deadline - time.time()))
            if test(message):
                return message

    def settle(self) -> dict[str, Any]:
        """Everything the server had queued for this connection, then its pong."""
        self.pings += 1
        self.send({"type": "ping", "id": f"p{self.pings}"})
        return self.until(lambda m: m["type"] == "pong" and m.get("id") == f"p{self.pings}")

    def join(self, seat: int, token: str | None = None, last: int | None = None) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "join", "seat": seat}
        if token is not None:
            message["token"] = token
        if last is not None:
            message["last"] = last
        self.send(message)
        welcome = self.until(lambda m: m["type"] in ("welcome", "error"))
        assert welcome["type"] == "welcome", welcome
        self.settle()
        return welcome

    @property
    def view(self) -> dict[str, Any]:
        assert self.mirror.view is not None
        return self.mirror.view

    def wait_view(self, test: Callable[[dict[str, Any]], bool], timeout: float = WAIT) -> None:
        deadline = time.time() + timeout
        while self.mirror.view is None or not test(self.mirror.view):
            self.recv(max(0.05, deadline - time.time()))

    def act(self, action: str) -> dict[str, Any]:
        """Send *action* on the current view; its answer (``ok`` or ``error``)."""
        self.send({"type": "act", "action": action, "seen": self.mirror.version, "id": "a"})
        return self.until(lambda m: m["type"] in ("ok", "error") and m.get("id") == "a")

    def close(self) -> None:
        self.ws.close()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Makes servers on files under tmp_path; kills each (by its own pid) at the end."""
    made: list[Server] = []

    def make(db: Path | None = None, name: str = "serve") -> Server:
        s = Server(tmp_path, db or tmp_path / "games.db", f"{name}{len(made)}")
        made.append(s)
        return s

    try:
        yield make
    finally:
        for s in made:
            s.kill()


TWO_PEOPLE = {"game": "golf", "seats": [{"name": "Ann"}, {"name": "Bob"}], "options": {"rounds": 1}}


def bot_game(name: str = "Ann") -> dict[str, Any]:
    return {
        "game": "golf",
        "seats": [{"name": name}, {"name": "Bot", "agent": "golf-greedy", "params": {"seed": 1}}],
        "options": {"rounds": 1},
    }


def seated(server: Server, sid: str, seats: list[int]) -> dict[int, Client]:
    clients = {}
    for seat in seats:
        c = Client(server, sid)
        c.join(seat)
        clients[seat] = c
    for c in clients.values():
        c.wait_view(lambda v: True)
        c.settle()
    return clients


def play(clients: dict[int, Client], moves: int) -> list[tuple[int, str]]:
    """*moves* acknowledged moves, each by the seat to act (its first legal action)."""
    done: list[tuple[int, str]] = []
    while len(done) < moves:
        any_client = next(iter(clients.values()))
        any_client.settle()
        seat = any_client.view["to_act"][0]
        c = clients[seat]
        c.wait_view(lambda v, c=c, n=any_client.mirror.version: c.mirror.version == n)
        action = c.view["legal"][0]
        reply = c.act(action)
        assert reply["type"] == "ok", reply
        done.append((seat, action))
    for c in clients.values():
        c.settle()
    return done


def cards_held(view: dict[str, Any]) -> int:
    return sum(len(z["cards"]) for z in view["zones"])


def rebuilt(server: Server, sid: str, upto: int) -> tuple[Any, LeakCheck, dict[str, Any]]:
    """The finished game from its record, replayed to version *upto* with a LeakCheck."""
    status, rec = server.http(f"/api/sessions/{sid}/record")
    assert status == 200, rec
    defaults = set(cardcore.game_info(rec["game"]).default_rules)
    game = cardcore.new_game(
        rec["game"],
        list(rec["players"]),
        rules=tuple(x["name"] for x in rec["rules"] if x["name"] not in defaults),
        without=tuple(rec["without"]),
        options=dict(rec["options"]),
        seed=rec["seed"],
    )
    check = LeakCheck(len(rec["players"]))
    check.attach(game)
    for seat, text, at in rec["actions"][:upto]:
        game.act(seat, text, at=at)
    return game, check, rec


def named(messages: list[dict[str, Any]]) -> set[str]:
    """The cards named in *messages*, leaving out the fields that hold random ids/tokens."""
    out: set[str] = set()
    for m in messages:
        out.update(card_words({k: v for k, v in m.items() if k not in ("token", "session")}))
    return out


def resign_all(clients: dict[int, Client]) -> None:
    c = next(iter(clients.values()))
    assert c.act("resign")["type"] == "ok"


def bot_rows(db: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        return sorted(con.execute("SELECT session, seat, agent, params FROM web_bots").fetchall())


# -- SIGKILL after acknowledged moves -------------------------------------------------------


@pytest.mark.parametrize("moves", [1, 5])
def test_sigkill_after_acknowledged_moves_two_people_resume_exactly(
    servers: Callable[..., Server], moves: int
) -> None:
    """session.rst "Persistence": every game resumes where it was; clients join again with
    their token (and last number). Every move answered ``ok`` is there, nothing else; the
    cards are all still on the table; what a seat is sent after the restart names no card
    it could not see at that version."""
    s = servers()
    s.start()
    sid = s.create(TWO_PEOPLE)
    clients = seated(s, sid, [0, 1])
    total = cards_held(clients[0].view)
    done = play(clients, moves)
    before = {
        seat: (c.mirror.version, json.loads(json.dumps(c.view))) for seat, c in clients.items()
    }
    tokens = {seat: c.mirror.token for seat, c in clients.items()}
    s.kill()
    for c in clients.values():
        with pytest.raises((ConnectionClosed, TimeoutError, OSError)):
            c.settle()
    s.start()
    # seat 0 rejoins with its token and last number (its mirror kept), seat 1 with a fresh one
    again = {0: Client(s, sid, clients[0].mirror), 1: Client(s, sid)}
    again[0].join(0, tokens[0], clients[0].mirror.last)
    again[1].join(1, tokens[1])
    for seat, c in again.items():
        c.wait_view(lambda v: True)
        assert c.mirror.version == moves == before[seat][0]
        assert c.view == before[seat][1], f"seat {seat} sees another table after the restart"
        assert cards_held(c.view) == total
    after_restart = {seat: list(c.received) for seat, c in again.items()}
    more = play(again, 2)
    resign_all(again)
    game, check, rec = rebuilt(s, sid, moves)
    assert [(a[0], a[1]) for a in rec["actions"][: moves + 2]] == done + more
    for seat, got in after_restart.items():
        leaked = named(got) - check.allowed[seat]
        assert not leaked, f"seat {seat} was sent {leaked} after the restart"
        assert before[seat][1] == json.loads(json.dumps(game.view(seat)))
    for c in again.values():
        c.close()
    assert "Traceback" not in s.text()


def test_sigkill_while_the_bot_thinks_the_bot_comes_back_with_its_parameters(
    servers: Callable[..., Server],
) -> None:
    """web.rst: bots are kept in ``web_bots`` with the parameters they were built with and
    take their seats again after a restart. Killed during the bot's delay after Ann's
    acknowledged move: the move is there and the bot plays on."""
    s = servers()
    s.start(bot_delay=2.0)  # the bot waits 2 s before each move: the kill lands meanwhile
    sid = s.create(bot_game())
    ann = seated(s, sid, [0])[0]
    rows = bot_rows(s.db)
    assert [(r[1], r[2], json.loads(r[3])) for r in rows] == [(1, "golf-greedy", {"seed": 1})]
    ann.wait_view(lambda v: 0 in v["to_act"], timeout=15)
    sent = ann.view["legal"][0]
    reply = ann.act(sent)
    assert reply["type"] == "ok"
    acked = reply["version"]
    s.kill()
    assert bot_rows(s.db) == rows
    s.start(bot_delay=0.05)
    assert bot_rows(s.db) == rows, "the bot's row changed across the restart"
    status, info = s.http(f"/api/sessions/{sid}")
    assert status == 200 and [x["bot"] for x in info["seats"]] == [None, "golf-greedy"]
    ann2 = Client(s, sid)
    ann2.join(0, ann.mirror.token)
    ann2.wait_view(lambda v: True)
    assert ann2.mirror.version is not None and ann2.mirror.version >= acked
    # the bot plays on: Ann moves whenever she is to act, until the bot has moved again
    for _ in range(12):
        ann2.wait_view(lambda v: 0 in v["to_act"] or v["is_over"], timeout=WAIT)
        if ann2.view["is_over"] or any(a["seat"] == 1 for a in ann2.mirror.actions):
            break
        assert ann2.act(ann2.view["legal"][0])["type"] == "ok"
    assert any(a["seat"] == 1 for a in ann2.mirror.actions), "the bot did not move again"
    assert ann2.act("resign")["type"] in ("ok", "error")
    _, _, rec = rebuilt(s, sid, 0)
    assert rec["actions"][acked - 1][:2] == [0, sent]
    assert any(a[0] == 1 for a in rec["actions"][acked:]), "the bot never moved after the restart"
    ann2.close()
    assert "Traceback" not in s.text()


def test_a_damaged_bot_row_is_logged_and_left_out_the_other_games_play_on(
    servers: Callable[..., Server],
) -> None:
    """web.rst: a stored bot whose parameters its agent now refuses is logged and left out.
    One game's ``web_bots`` row is damaged while the server is down: the server starts, says
    which bot of which session, and every game still resumes; the other game's bot plays."""
    s = servers()
    s.start(bot_delay=0.05)
    hurt, fine = s.create(bot_game("Ann")), s.create(bot_game("Bob"))
    people = {hurt: seated(s, hurt, [0])[0], fine: seated(s, fine, [0])[0]}
    for c in people.values():
        c.wait_view(lambda v: 0 in v["to_act"])
        c.settle()
    seen = {sid: (c.mirror.version, json.loads(json.dumps(c.view))) for sid, c in people.items()}
    s.kill()
    with sqlite3.connect(s.db) as con:
        con.execute('UPDATE web_bots SET params = \'{"seed": "x"\' WHERE session = ?', (hurt,))
    s.start()
    assert s.http("/api/games")[0] == 200  # the lifespan (resume, bots) has run
    time.sleep(0.3)
    log = s.log.read_text()
    assert f"the bot of seat 1 of session {hurt} cannot resume" in log, log
    assert fine not in log and "Traceback" not in log, log
    for sid, c in people.items():
        status, info = s.http(f"/api/sessions/{sid}")
        assert status == 200 and info["phase"] == "playing", info
        again = Client(s, sid)
        again.join(0, c.mirror.token)
        again.wait_view(lambda v: True)
        assert (again.mirror.version, again.view) == seen[sid]
        if sid == fine:  # its bot answers Ann's moves as before
            for _ in range(12):
                again.wait_view(lambda v: 0 in v["to_act"] or v["is_over"])
                if any(a["seat"] == 1 for a in again.mirror.actions) or again.view["is_over"]:
                    break
                assert again.act(again.view["legal"][0])["type"] == "ok"
            assert any(a["seat"] == 1 for a in again.mirror.actions)
        again.close()


# -- clocks ------------------------------------------------------------------------------


def test_a_turn_clock_is_not_charged_for_the_downtime(servers: Callable[..., Server]) -> None:
    """session.rst "Across a restart": with ``restart="pause"`` (the web's, its ``config``
    says) each running clock gets back the time it had left when last stored, counted from
    the restart: downtime is never charged. Six seconds down: the seat to act has about
    the time it had, not six seconds less."""
    s = servers()
    s.start()
    body = {**TWO_PEOPLE, "time": {"turn": 60}}
    sid = s.create(body)
    clients = seated(s, sid, [0, 1])
    play(clients, 1)
    seat = clients[0].view["to_act"][0]
    c = clients[seat]
    pong = c.settle()
    assert c.mirror.clocks is not None
    left = c.mirror.clocks["turn"][str(seat)] - pong["server_time"]
    assert 55 < left <= 60, c.mirror.clocks
    s.kill()
    time.sleep(6.0)
    s.start()
    again = Client(s, sid)
    welcome = again.join(seat, c.mirror.token)
    assert welcome["config"]["time"]["restart"] == "pause"
    pong = again.settle()
    assert again.mirror.clocks is not None
    now_left = again.mirror.clocks["turn"][str(seat)] - pong["server_time"]
    assert now_left > left - 3, (left, now_left)  # charged, it would be about left - 7
    again.close()


# -- SIGTERM -------------------------------------------------------------------------------


def test_sigterm_stops_the_server_cleanly_and_the_game_resumes(
    servers: Callable[..., Server],
) -> None:
    """An operator's service manager stops a server with SIGTERM. The process stops within
    seconds, the clients' sockets are closed with a close frame (not dropped), nothing is
    logged as a traceback, and the game resumes with every acknowledged move."""
    s = servers()
    s.start()
    sid = s.create(TWO_PEOPLE)
    clients = seated(s, sid, [0, 1])
    done = play(clients, 3)
    assert s.proc is not None
    s.proc.send_signal(signal.SIGTERM)
    status = s.proc.wait(15)
    codes = []
    for c in clients.values():
        with pytest.raises(ConnectionClosed) as closed:
            c.until(lambda m: False, timeout=5)
        codes.append(closed.value.rcvd.code if closed.value.rcvd is not None else None)
    assert all(code in (1001, 1012) for code in codes), codes
    # the store was closed: SQLite checkpointed its write-ahead log and removed it
    assert not s.db.with_name(s.db.name + "-wal").exists()
    assert status in (0, 130, -signal.SIGTERM, 128 + signal.SIGTERM), status
    assert "Traceback" not in s.text(), s.text()
    s.start()
    again = Client(s, sid)
    again.join(0, clients[0].mirror.token)
    again.wait_view(lambda v: True)
    assert again.mirror.version == 3 and again.view == clients[0].view
    resign_all({0: again})
    _, _, rec = rebuilt(s, sid, 0)
    assert [(a[0], a[1]) for a in rec["actions"][:3]] == done
    again.close()


# -- two servers on one database -------------------------------------------------------------


def test_a_second_server_on_one_db_is_refused_and_the_first_plays_on(
    servers: Callable[..., Server],
) -> None:
    """web.rst "Running several processes": ``cardcore serve`` locks its ``--db``; a second
    server on the file stops at once (one line naming it, status 2), before it resumes any
    game, and the first plays on. The lock goes with the process, even a killed one."""
    first = servers()
    first.start()
    sid = first.create(TWO_PEOPLE)
    clients = seated(first, sid, [0, 1])
    play(clients, 2)
    code, out, err = _refused(first.db)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert repr(str(first.db)) in lines[0] and "in use by another cardcore serve" in lines[0]
    seat = clients[0].view["to_act"][0]
    here = clients[seat]
    kept = here.view["legal"][0]
    assert here.act(kept)["type"] == "ok"
    first.kill()  # SIGKILL: the lock is freed with the process
    again = servers(first.db)
    again.start()
    back = Client(again, sid)
    back.join(seat, here.mirror.token)
    back.wait_view(lambda v: True)
    assert back.mirror.version == 3 and back.view == here.view
    resign_all({seat: back})
    _, _, rec = rebuilt(again, sid, 0)
    assert rec["actions"][2][:2] == [seat, kept]
    back.close()


# -- databases it cannot use -------------------------------------------------------------------


_AS_NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def _refused(db: Path, *, user: bool = False) -> tuple[int, str, str]:
    cmd = [str(CARDCORE), "serve", "--port", "0", "--db", str(db)]
    if user:  # tests run as root, whom file permissions do not stop
        cmd = [*_AS_NOBODY, *cmd]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError(f"cardcore serve started on {db}") from None
    return proc.returncode, out, err


def _garbage(path: Path) -> None:
    path.write_bytes(b"not a database at all\n" * 200)


def _other_app(path: Path) -> None:
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)")
        con.execute("INSERT INTO users (email) VALUES ('a@example.org')")
    con.close()


def _other_web_bots(path: Path) -> None:
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE web_bots (id INTEGER PRIMARY KEY, robot TEXT)")
    con.close()


def _directory(path: Path) -> None:
    path.mkdir()


@pytest.mark.parametrize(
    "spoil", [_garbage, _other_app, _other_web_bots, _directory], ids=lambda f: f.__name__
)
def test_a_database_it_cannot_use_is_one_line_and_status_2(
    tmp_path: Path, spoil: Callable[[Path], None]
) -> None:
    """web.rst: a database that cannot be opened or written is one line and exit status 2;
    another application's database is refused and left as it was."""
    db = tmp_path / "games.db"
    spoil(db)
    before = None if db.is_dir() else db.read_bytes()
    status, out, err = _refused(db)
    assert status == 2 and out == "", (status, out, err)
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert str(db) in err and err.startswith("error: "), err
    if before is not None:
        assert db.read_bytes() == before, "the refused file was changed"


def test_a_read_only_database_is_one_line_and_status_2(tmp_path_factory: Any) -> None:
    import shutil
    import tempfile

    root = Path(tempfile.mkdtemp(prefix="cardcore-ro-"))
    try:
        root.chmod(0o755)
        db = root / "games.db"
        _other_app(db)  # any file: written by root, read-only to the server's user
        with sqlite3.connect(db) as con:
            con.execute("DROP TABLE users")
        con.close()
        if shutil.which("setpriv") is None:
            pytest.skip("no setpriv to run the server as another user")
        probe = subprocess.run(
            [*_AS_NOBODY, str(CARDCORE), "--version"], capture_output=True, timeout=60, check=False
        )
        if probe.returncode != 0:  # a private environment (CI's venv in a 0700 temp dir)
            pytest.skip("the unprivileged user cannot run this environment's cardcore")
        status, out, err = _refused(db, user=True)
        assert status == 2 and out == "", (status, out, err)
        assert len(err.splitlines()) == 1 and "Traceback" not in err, err
        assert str(db) in err, err
    finally:
        shutil.rmtree(root)
