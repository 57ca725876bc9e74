"""A review of the web server's ordering and lifecycle (2026-12-06): its bots, the idle-close
sweeper, restarts from the SQLite store, store failures and sockets that go mid-welcome.

The five bugs the review found are pinned by tests of the right behaviour (each failed on
the code before its fix); each claim that held is a passing test that fails if it breaks. No sleep synchronizes anything: a test waits on an
event (a frame the server sends, a task ending) with a bound that only says "never".
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.websockets import WebSocketDisconnect

import cardcore
from cardcore.session import Outbound
from cardcore.web import WebServer, create_app
from cardcore.web.app import ServerLimits
from tests.web.helpers import Player, TestClient, create, serve

BOUND = 2.0
"""Seconds a test waits for what must happen at once (only a bug reaches it)."""

HUMAN_AND_BOT = [{"name": "Ann"}, {"name": "Bot", "agent": "review-first"}]


class FirstAgent:
    """Plays the first legal action, at once."""

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[0]

    def plan(self, view: Any, legal: Any, now: float) -> Any:
        return None


class FlakyAgent(FirstAgent):
    """Raises on its first decision (a transient failure), then plays the first legal action."""

    calls = 0

    def choose(self, view: Any, legal: Any) -> Any:
        type(self).calls += 1
        if type(self).calls == 1:
            msg = "a transient failure"
            raise RuntimeError(msg)
        return legal[0]


class StuckAgent(FirstAgent):
    """Waits for :attr:`release` before each decision (a slow search, or a hung one); then
    refuses to decide, so nothing plays on once the test is done with it."""

    release = threading.Event()
    entered = threading.Semaphore(0)

    def choose(self, view: Any, legal: Any) -> Any:
        type(self).entered.release()
        type(self).release.wait(30)  # (released by the test; the bound only ends a hung run)
        msg = "released"
        raise RuntimeError(msg)


@pytest.fixture(autouse=True)
def agents() -> Iterator[None]:
    names = {"review-first": FirstAgent, "review-flaky": FlakyAgent, "review-stuck": StuckAgent}
    for name, cls in names.items():
        cardcore.register("cardcore.agents", name, cls)
    try:
        yield
    finally:
        for name in names:
            cardcore.unregister("cardcore.agents", name)


def frames_of(server: WebServer, wanted: Any) -> threading.Event:
    """An event set once the server delivers a frame for which *wanted(conn, message)* holds."""
    seen = threading.Event()

    def observe(out: Outbound) -> None:
        if wanted(out.conn, json.loads(out.text)):
            seen.set()

    server.host.observers.append(observe)
    return seen


def on_loop(client: TestClient, fn: Any) -> Any:
    """Run *fn* (a coroutine function) on the server's event loop, return its result."""
    return client.portal.call(fn)


@contextmanager
def joined(client: TestClient, sid: str, seat: int = 0) -> Iterator[Player]:
    with client.websocket_connect("/ws") as ws:
        player = Player(ws)
        player.send({"type": "join", "session": sid, "seat": seat})
        player.until("welcome")
        yield player


# -- bots ------------------------------------------------------------------------------------


def test_bot_of_a_finished_game_lets_go_of_its_task_and_connection() -> None:
    with serve() as (client, server, _):
        sid = create(client, "golf", HUMAN_AND_BOT)["session"]
        with joined(client, sid) as ann:
            ann.until("view")
            session = server.hub.sessions[sid]
            (bot,) = server.bots[sid]
            assert bot.task is not None and not bot.task.done()
            client.portal.call(lambda: server.host.deliver(session.end(server.host.clock())))
            assert session.phase == "over"

            async def ended() -> bool:
                assert bot.task is not None
                await asyncio.wait({bot.task}, timeout=BOUND)
                return bot.task.done()

            assert on_loop(client, ended)
            assert f"bot-{sid}-1" not in server.host.connections


def test_bot_whose_agent_raised_once_plays_on() -> None:
    FlakyAgent.calls = 0
    with serve() as (client, server, _):
        seats = [{"name": "Bot", "agent": "review-flaky"}, {"name": "Ann"}]
        sid = create(client, "golf", seats)["session"]
        acted = frames_of(
            server, lambda conn, m: m["type"] == "update" and m["action"]["seat"] == 0
        )
        with joined(client, sid, seat=1) as ann:
            ann.until("view")
            assert acted.wait(BOUND), "seat 0's bot never acted after one failure"
            assert FlakyAgent.calls >= 2


def test_busy_bots_delay_no_replay() -> None:
    StuckAgent.release.clear()
    workers = min(32, (os.cpu_count() or 1) + 4)  # ThreadPoolExecutor's default size
    limits = ServerLimits(max_bot_games=0)
    with serve(server_limits=limits) as (client, server, _):
        sid = create(client, "golf", HUMAN_AND_BOT)["session"]
        with joined(client, sid) as ann:
            ann.until("view")
            session = server.hub.sessions[sid]
            client.portal.call(lambda: server.host.deliver(session.end(server.host.clock())))
        assert client.get(f"/api/sessions/{sid}/replay/1").status_code == 200
        stuck = [{"name": "A", "agent": "review-stuck"}, {"name": "B", "agent": "review-stuck"}]
        asking: threading.Thread | None = None
        try:
            for _ in range(workers):
                create(client, "golf", stuck)
                assert StuckAgent.entered.acquire(timeout=BOUND)  # a decision in a thread
            answers: list[int] = []
            asking = threading.Thread(
                target=lambda: answers.append(
                    client.get(f"/api/sessions/{sid}/replay/1").status_code
                )
            )
            asking.start()
            asking.join(BOUND)
            assert answers == [200], "the replay waits for the bots' decisions to end"
        finally:
            StuckAgent.release.set()
            if asking is not None:
                asking.join()


# -- the server's own store (web_bots) -------------------------------------------------------


class FailingBots:
    """The server's web_bots connection, whose writes fail (a full disk, an I/O error)."""

    def __init__(self, real: sqlite3.Connection) -> None:
        self.real = real

    def execute(self, sql: str, *args: Any) -> Any:
        if not sql.lstrip().upper().startswith("SELECT"):
            msg = "disk I/O error"
            raise sqlite3.OperationalError(msg)
        return self.real.execute(sql, *args)

    def close(self) -> None:
        self.real.close()


def test_failing_bot_row_leaves_no_half_made_session(tmp_path: Any) -> None:
    server = WebServer(str(tmp_path / "games.db"), bot_delay=0.0)
    with TestClient(create_app(server), raise_server_exceptions=False) as client:
        assert server._bots_db is not None
        server._bots_db = FailingBots(server._bots_db)  # type: ignore[assignment]
        r = client.post("/api/sessions", json={"game": "golf", "seats": HUMAN_AND_BOT})
        if r.status_code == 201:  # the game goes on, as a failing session store lets it
            session = server.hub.sessions[r.json()["session"]]
            assert 1 in session.tokens and len(server.bots[session.id]) == 1
        else:  # or refused, with nothing made
            assert r.status_code != 500, r.text
            assert server.hub.sessions == {}
            assert server.quota.check(server.hub.sessions, [], None, False) is None


def test_failing_bot_row_delete_still_makes_room(tmp_path: Any) -> None:
    t = [1000.0]
    limits = ServerLimits(max_sessions=2, idle_close=3600, idle_when_full=300)
    server = WebServer(
        str(tmp_path / "games.db"), bot_delay=0.0, clock=lambda: t[0], server_limits=limits
    )
    with TestClient(create_app(server), raise_server_exceptions=False) as client:
        idle = [create(client, "golf", HUMAN_AND_BOT)["session"] for _ in range(2)]
        assert client.portal.call(server.sweep) == []  # idle from now on
        t[0] += 301
        assert server._bots_db is not None
        server._bots_db = FailingBots(server._bots_db)  # type: ignore[assignment]
        people = {"game": "golf", "seats": [{"name": "Ann"}, {"name": "Bob"}]}
        r = client.post("/api/sessions", json=people)
        assert r.status_code == 201, r.text
        assert not any(sid in server.hub.sessions for sid in idle)
        assert not any(sid in server.bots for sid in idle)


# -- the idle-close sweeper ------------------------------------------------------------------


def test_sweep_closes_a_session_with_live_bot_and_spectator(tmp_path: Any) -> None:
    """Closed as idle: the spectator is told ``closed`` and its socket ends, the bot's tasks
    end and its connection goes, its web_bots row is deleted, and a restart leaves it closed."""
    db = str(tmp_path / "games.db")
    with serve(db) as (client, server, _):
        sid = create(client, "golf", HUMAN_AND_BOT)["session"]
        with joined(client, sid) as ann:
            ann.until("view")
        (bot,) = server.bots[sid]
        with client.websocket_connect("/ws") as ws:
            watcher = Player(ws)
            watcher.send({"type": "watch", "session": sid})
            watcher.until("welcome")
            now = server.host.clock()
            assert client.portal.call(lambda: server.sweep(now)) == []  # idle from now
            closed = client.portal.call(lambda: server.sweep(now + 3600))
            assert closed == [sid]
            message = watcher.until("closed")
            assert message["phase"] == "closed"
            with pytest.raises(WebSocketDisconnect) as gone:  # the server closed the socket
                watcher.recv()
            assert gone.value.code == 1008

        async def ended() -> bool:
            assert bot.task is not None
            await asyncio.wait({bot.task}, timeout=BOUND)
            return bot.task.done()

        assert on_loop(client, ended)
        assert f"bot-{sid}-1" not in server.host.connections
        assert sid not in server.bots and sid not in server.hub.sessions
        assert client.get(f"/api/sessions/{sid}").status_code == 404
        rows = sqlite3.connect(db).execute("SELECT * FROM web_bots WHERE session = ?", (sid,))
        assert rows.fetchall() == []
    with serve(db) as (client, server, _):
        assert sid not in server.hub.sessions and sid not in server.bots
        assert client.get(f"/api/sessions/{sid}").status_code == 404


# -- sockets ---------------------------------------------------------------------------------


def test_socket_gone_during_the_welcome_leaves_nothing_behind() -> None:
    """A client that joins and closes before reading its welcome: its connection is forgotten
    (the session, the hub's routes, the socket count), and its seat is held by nobody."""
    with serve() as (client, server, _):
        sid = create(client, "golf", HUMAN_AND_BOT)["session"]
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "session": sid, "seat": 0}))
        session = server.hub.sessions[sid]
        assert [c for c in session.conns if not c.startswith("bot-")] == []
        assert [c for c in server.host.connections if not c.startswith("bot-")] == []
        assert not server.quota.sockets
        assert 0 in session.tokens  # claimed: its token went to a client that left
