"""An operator's audit of ``cardcore serve`` for online play (2026-12-15), from docs/web.rst,
docs/session.rst, docs/security.rst and docs/embedding.rst: a socket that never reads while
the others play, a store tampered with between two runs, limits across a restart, a session
closed as idle, many spectators, and what the logs carry.

Everything runs in process: Starlette's TestClient, or the application called as ASGI with
a transport of our own where the TestClient cannot show it (a socket whose writes block)."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cardcore.session import Limits
from cardcore.session.aio import QUEUE
from cardcore.web import WebServer, create_app
from cardcore.web.app import TOO_SLOW, ServerLimits
from tests.web.helpers import create, serve

PEOPLE = [{"name": "Ann"}, {"name": "Bob"}]


def _join(client: Any, sid: str, seat: int, token: str | None = None) -> tuple[Any, dict[str, Any]]:
    ws = client.websocket_connect("/ws").__enter__()
    message: dict[str, Any] = {"type": "join", "session": sid, "seat": seat}
    if token is not None:
        message["token"] = token
    ws.send_json(message)
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    return ws, welcome


# -- a socket that never reads, while another seat's connections come and go ------------------


class _StuckSocket:
    """An ASGI WebSocket transport whose writes block once ``stuck`` is set: what a socket does
    when its client stops reading (the kernel's buffers and the server's write buffer full)."""

    def __init__(self, join: dict[str, Any]) -> None:
        self.inbox: list[dict[str, Any]] = [
            {"type": "websocket.connect"},
            {"type": "websocket.receive", "text": json.dumps(join)},
        ]
        self.sent: list[dict[str, Any]] = []
        self.stuck = False
        self.closed: dict[str, Any] | None = None
        self.blocked = asyncio.Event()  # a write is waiting (never set free)
        self._never = asyncio.Event()
        self.release = asyncio.Event()  # set by the test once it has seen what it needs

    async def receive(self) -> dict[str, Any]:
        if self.inbox:
            return self.inbox.pop(0)
        await self._never.wait()  # the client sends nothing more
        raise AssertionError("unreachable")

    async def send(self, message: dict[str, Any]) -> None:
        if message["type"] == "websocket.close":
            self.closed = message  # a close is written whatever waits (then the socket is cut)
            return
        if self.stuck and message["type"] == "websocket.send":
            self.blocked.set()
            await self.release.wait()
        self.sent.append(message)


async def _slow_reader_scenario() -> dict[str, Any]:
    server = WebServer(None, bot_delay=0.0, limits=Limits(rate=1e6, burst=1_000_000))
    app = create_app(server)
    await server.start()
    try:
        sid = server.create({"game": "golf", "seats": PEOPLE})["session"]
        # seat 1: a person whose connections come and go (a flaky phone), by its token
        first = server.host.connect()
        await first.send({"type": "join", "session": sid, "seat": 1})
        token = json.loads(await first.__anext__())["token"]
        await first.close()
        # seat 0: the socket that stops reading
        sock = _StuckSocket({"type": "join", "session": sid, "seat": 0})
        scope = {
            "type": "websocket",
            "asgi": {"version": "3.0"},
            "scheme": "ws",
            "path": "/ws",
            "raw_path": b"/ws",
            "root_path": "",
            "query_string": b"",
            "headers": [(b"host", b"testserver")],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
            "subprotocols": [],
        }
        app_task = asyncio.get_running_loop().create_task(app(scope, sock.receive, sock.send))
        for _ in range(200):  # the welcome and what follows it go through
            await asyncio.sleep(0)
            if any('"welcome"' in m.get("text", "") for m in sock.sent):
                break
        slow_ids = [c for c in server.host.connections if c.startswith("conn-")]
        slow = server.host.connections[slow_ids[-1]]
        sock.stuck = True
        # seat 1 comes and goes: each time, a ``presence`` for seat 0, which does not read
        cycles = 0
        while not slow.closed and cycles < QUEUE:
            conn = server.host.connect()
            await conn.send({"type": "join", "session": sid, "seat": 1, "token": token})
            await conn.close()
            cycles += 1
            if cycles % 64 == 0:
                await asyncio.sleep(0)
        dropped_at = cycles
        # the other seat plays on: its replies come at once
        other = server.host.connect()
        await other.send({"type": "join", "session": sid, "seat": 1, "token": token})
        kinds = []
        while (kind := json.loads(await other.__anext__())["type"]) != "view":
            kinds.append(kind)
        await other.send({"type": "ping", "t": 1})
        while (kind := json.loads(await other.__anext__())["type"]) != "pong":
            pass
        # what became of the stuck socket: a close is due (docs/web.rst "Over the wire")
        for _ in range(100):
            if sock.closed is not None or app_task.done():
                break
            await asyncio.sleep(0.01)
        result = {
            "dropped_at": dropped_at,
            "too_slow": slow.too_slow,
            "freed": slow._queue.qsize(),
            "session_conns": sorted(server.hub.sessions[sid].conns),
            "slow_id": slow.id,
            "closed": sock.closed,
            "app_done": app_task.done(),
            "other_open": other.id in server.host.connections,
        }
        sock.release.set()  # let the handler end without its 5 s wait for the pump
        app_task.cancel()
        await asyncio.gather(app_task, return_exceptions=True)
        await other.close()
        return result
    finally:
        await server.stop()


@pytest.fixture(scope="module")
def slow_reader() -> dict[str, Any]:
    return asyncio.run(_slow_reader_scenario())


def test_a_socket_that_stops_reading_is_dropped_and_costs_the_others_nothing(
    slow_reader: dict[str, Any],
) -> None:
    """docs/web.rst: past 4,096 waiting messages the connection is dropped, what it never read
    freed at once; the other seat is served as before."""
    r = slow_reader
    assert r["too_slow"]
    assert r["dropped_at"] < QUEUE  # two presences a cycle: dropped near 2,048 cycles
    assert r["freed"] <= 1  # only the end marker is left of what it never read
    assert r["slow_id"] not in r["session_conns"]  # the seat is free for its reconnect
    assert r["other_open"]


def test_a_socket_dropped_as_too_slow_is_closed_1008_even_when_its_writes_block(
    slow_reader: dict[str, Any],
) -> None:
    closed = slow_reader["closed"]
    assert closed is not None, "no close frame written; handler finished: " + str(
        slow_reader["app_done"]
    )
    assert closed.get("code") == 1008 and closed.get("reason") == TOO_SLOW


# -- a store tampered with between two runs ---------------------------------------------------


def test_a_tampered_seed_resumes_nothing_of_that_game_and_no_log_line_carries_a_seed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = str(tmp_path / "games.db")
    with serve(db) as (client, server, _):
        edited = create(client, "golf", PEOPLE)["session"]
        kept = create(client, "golf", PEOPLE)["session"]
        tokens = {}
        for sid in (edited, kept):
            for seat in (0, 1):
                ws, welcome = _join(client, sid, seat)
                tokens[sid, seat] = welcome["token"]
                ws.__exit__(None, None, None)
        seed = server.hub.sessions[edited].game.seed
        other_seed = server.hub.sessions[kept].game.seed
    con = sqlite3.connect(db)
    meta = json.loads(
        con.execute("SELECT meta FROM sessions WHERE id = ?", (edited,)).fetchone()[0]
    )
    assert meta["seed"] == seed
    meta["seed"] = seed + 1  # another deal: some of its cards were shown face up already
    con.execute("UPDATE sessions SET meta = ? WHERE id = ?", (json.dumps(meta), edited))
    con.commit()
    con.close()
    caplog.set_level(logging.DEBUG)
    with serve(db) as (client, server, _):
        assert edited not in server.hub.sessions and kept in server.hub.sessions
        assert client.get(f"/api/sessions/{edited}").status_code == 404
        ws, welcome = _join(client, kept, 0, tokens[kept, 0])  # the other game goes on
        assert welcome["seat"] == 0 and "token" not in welcome
        ws.__exit__(None, None, None)
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "session": edited, "seat": 0, "token": tokens[edited, 0]})
            refused = ws.receive_json()
        assert refused["type"] == "error" and refused["code"] == "no-session"
    said = "\n".join(r.getMessage() for r in caplog.records)
    assert f"session {edited} could not be resumed" in said
    for secret in (seed, seed + 1, other_seed, *tokens.values()):
        assert str(secret) not in said, secret
    assert str(seed) not in json.dumps(refused)


# -- limits across a restart ------------------------------------------------------------------


def test_max_per_client_counts_the_games_made_since_the_server_started(tmp_path: Path) -> None:
    """docs/web.rst: addresses are not written to the database, so a restart forgets who
    made the games it resumes (max_sessions still counts them, below)."""
    db = str(tmp_path / "games.db")
    limits = ServerLimits(max_per_client=1, idle_close=0)
    with serve(db, server_limits=limits) as (client, _server, _):
        create(client, "golf", PEOPLE)
        assert (
            client.post("/api/sessions", json={"game": "golf", "seats": PEOPLE}).status_code == 429
        )
    with serve(db, server_limits=limits) as (client, server, _):
        assert len(server.hub.sessions) == 1  # resumed
        r = client.post("/api/sessions", json={"game": "golf", "seats": PEOPLE})
        assert r.status_code == 201, (r.status_code, r.text)
        r = client.post("/api/sessions", json={"game": "golf", "seats": PEOPLE})
        assert r.status_code == 429  # one since this start


def test_max_sessions_counts_the_live_games_resumed_after_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    limits = ServerLimits(max_sessions=2, idle_close=0)
    with serve(db, server_limits=limits) as (client, _server, _):
        create(client, "golf", PEOPLE)
        create(client, "golf", PEOPLE)
    with serve(db, server_limits=limits) as (client, server, _):
        r = client.post("/api/sessions", json={"game": "golf", "seats": PEOPLE})
        assert r.status_code == 429 and "at most 2" in r.json()["error"]
        assert r.headers["Retry-After"] == "60" and len(server.hub.sessions) == 2


# -- a session that outlives its players ------------------------------------------------------


def test_a_session_closed_as_idle_is_not_resumed_and_its_token_opens_nothing(
    tmp_path: Path,
) -> None:
    """docs/web.rst Limits: closed as idle, 'the database marks it closed and it is not resumed
    after a restart'; a game with a person still there stays."""
    db = str(tmp_path / "games.db")
    clock = [1000.0]
    limits = ServerLimits(idle_close=3600)
    with serve(db, server_limits=limits, clock=lambda: clock[0]) as (client, server, _):
        left = create(client, "golf", PEOPLE)["session"]
        stays = create(client, "golf", PEOPLE)["session"]
        ws, welcome = _join(client, left, 0)
        token = welcome["token"]
        ws.__exit__(None, None, None)
        ann, _ = _join(client, stays, 0)
        assert server.sweep(1000.0) == []
        assert server.sweep(4599.0) == []
        assert server.sweep(4600.0) == [left]
        ann.__exit__(None, None, None)
    con = sqlite3.connect(db)
    status = dict(con.execute("SELECT id, status FROM sessions").fetchall())
    con.close()
    assert status[left] == "closed" and status[stays] != "closed"
    with serve(db, server_limits=limits, clock=lambda: clock[0]) as (client, server, _):
        assert left not in server.hub.sessions and stays in server.hub.sessions
        assert client.get(f"/api/sessions/{left}").status_code == 404
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "session": left, "seat": 0, "token": token})
            assert ws.receive_json()["code"] == "no-session"


def test_a_resumed_session_nobody_comes_back_to_is_closed_after_idle_close(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    clock = [1000.0]
    limits = ServerLimits(idle_close=3600)
    with serve(db, server_limits=limits, clock=lambda: clock[0]) as (client, _server, _):
        sid = create(client, "golf", PEOPLE)["session"]
        ws, _ = _join(client, sid, 0)
        ws.__exit__(None, None, None)
    clock[0] = 50_000.0  # the server was down for hours
    with serve(db, server_limits=limits, clock=lambda: clock[0]) as (client, server, _):
        assert sid in server.hub.sessions
        assert server.sweep(50_000.0) == []  # the downtime is not counted as idle
        assert server.sweep(53_599.0) == []
        assert server.sweep(53_600.0) == [sid]


# -- many spectators --------------------------------------------------------------------------


def test_past_max_spectators_a_watcher_is_refused_full_and_the_seats_are_told_nothing() -> None:
    async def scenario() -> tuple[list[str], list[str], int]:
        server = WebServer(None, limits=Limits(max_spectators=3))
        await server.start()
        await asyncio.sleep(0)  # the clocks' task starts (see the stop() test below)
        try:
            sid = server.create({"game": "golf", "seats": PEOPLE})["session"]
            ann = server.host.connect()
            await ann.send({"type": "join", "session": sid, "seat": 0})
            while json.loads(await ann.__anext__())["type"] != "presence":
                pass
            answers = []
            for _ in range(5):
                w = server.host.connect()
                await w.send({"type": "watch", "session": sid})
                answers.append(json.loads(await w.__anext__()))
            codes = [a["type"] if a["type"] != "error" else a["code"] for a in answers]
            seen = []
            while ann._queue.qsize():
                seen.append(json.loads(ann._queue.get_nowait() or "{}").get("type", "end"))
            session = server.hub.sessions[sid]
            return codes, seen, len(session.spectators.conns)
        finally:
            await server.stop()

    codes, told_ann, watching = asyncio.run(scenario())
    assert codes == ["welcome"] * 3 + ["full"] * 2
    assert watching == 3
    assert "presence" not in told_ann  # spectators alone are told to nobody (docs/session.rst)


# -- stopping the server ----------------------------------------------------------------------


def test_a_server_stopped_right_after_it_started_stops() -> None:
    async def scenario() -> bool:
        server = WebServer(None)
        stuck = []

        async def watchdog() -> None:
            for _ in range(100):  # a stop is loop-local work: a few turns of the loop suffice
                await asyncio.sleep(0)
            stuck.append(True)
            server.host.stop()  # free it, so the test itself ends

        dog = asyncio.get_running_loop().create_task(watchdog())
        await server.start()
        await server.stop()  # as a host's shutdown does when it comes at once
        dog.cancel()
        return not stuck

    assert asyncio.run(scenario()), "WebServer.stop() did not end"
