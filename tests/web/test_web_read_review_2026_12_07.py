"""A review of the web server by reading it (2026-12-07): the lobby's make-room sweep, the
seats of bots left out at a restart, the counters that must shrink, and claims of docs/web.rst.

Each bug found is a strict xfail naming its cause; each claim that holds is a passing test.
Everything runs in process (Starlette's TestClient, or :class:`WebServer` called directly)
on a clock the test moves: no sleep synchronises anything.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cardcore.web import WebServer
from cardcore.web.app import LimitError, ServerLimits
from tests.web.helpers import create, serve

PEOPLE = [{"name": "A"}, {"name": "B"}]


def _golf(**extra: Any) -> dict[str, Any]:
    return {"game": "golf", "seats": PEOPLE, **extra}


# -- findings ----------------------------------------------------------------------------


def test_a_request_refused_429_closes_no_other_game() -> None:
    clock = [1000.0]
    limits = ServerLimits(max_sessions=2, max_per_client=1, idle_close=3600, idle_when_full=300)
    server = WebServer(clock=lambda: clock[0], server_limits=limits, bot_delay=0.0)
    try:
        alice = server.create(_golf(), client="alice")["session"]
        server.hub.handle("alice-tab", {"type": "join", "session": alice, "seat": 0}, clock[0])
        bob = server.create(_golf(), client="bob")["session"]  # waiting for Bob's friend
        server.sweep()  # the server's own sweep: Bob's game idle from now, Alice's seated
        clock[0] += 301
        with pytest.raises(LimitError, match="your address"):  # Alice has her one game
            server.create(_golf(), client="alice")
        # refused, and nothing was made: Bob's game should still be there
        assert bob in server.hub.sessions
    finally:
        server.store.close()


def test_a_bot_left_out_at_a_restart_is_still_shown_as_a_bot_seat(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    seats = [{"name": "Bot", "agent": "golf-greedy"}, {"name": "Bob"}]
    with serve(db, bot_delay=60.0) as (client, _, _):
        sid = create(client, "golf", seats)["session"]
    with sqlite3.connect(db) as conn:  # an agent past its bounds (stored by an older version)
        conn.execute("UPDATE web_bots SET agent = 'ismcts', params = '{\"iterations\": 10000000}'")
    conn.close()
    with serve(db, bot_delay=60.0) as (client, server, _):
        assert sid not in server.bots  # left out, as documented
        seat = client.get(f"/api/sessions/{sid}").json()["seats"][0]
        with client.websocket_connect("/ws") as ws:  # nobody can take it
            ws.send_json({"type": "join", "session": sid, "seat": 0})
            assert ws.receive_json()["code"] == "seat-taken"
        assert seat["bot"] is not None or seat["link"] is None, seat


# -- claims that hold ----------------------------------------------------------------------


def test_a_bad_request_on_a_full_server_closes_nothing() -> None:
    """The game, seats, names, agents and options are checked before the make-room sweep."""
    clock = [1000.0]
    limits = ServerLimits(max_sessions=1, idle_close=3600, idle_when_full=300)
    server = WebServer(clock=lambda: clock[0], server_limits=limits, bot_delay=0.0)
    try:
        idle = server.create(_golf(), client="bob")["session"]
        server.sweep()
        clock[0] += 301
        bad = [
            _golf(options={"layout": 7}),
            _golf(seats=[{"name": "A"}, {"name": "a"}]),  # another seat's name
            _golf(seats=[{"name": "A"}, {"name": "B", "agent": "golf-greedy", "params": {"x": 1}}]),
            _golf(rules=["no-such-rule"]),
            _golf(time={"turn": 0.5}),
        ]
        for request in bad:
            with pytest.raises(Exception) as info:
                server.create(request, client="alice")
            assert not isinstance(info.value, LimitError)
            assert idle in server.hub.sessions, request
    finally:
        server.store.close()


def test_the_counters_of_closed_connections_shrink() -> None:
    """Sockets counted, rate buckets and routes are let go when the connection closes: a
    server open for months holds none for connections gone (flooders included)."""
    limits = ServerLimits(max_sockets=10, max_sockets_per_client=5, idle_close=0, keep_over=0)
    with serve(server_limits=limits) as (client, server, _):
        sid = create(client, "golf", PEOPLE)["session"]
        for _ in range(3):
            with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as w:
                a.send_json({"type": "join", "session": sid, "seat": 0, "token": "x" * 20})
                assert a.receive_json()["code"] == "bad-token"  # (no token yet)
                w.send_json({"type": "watch", "session": sid})
                assert w.receive_json()["type"] == "welcome"
                for _ in range(60):  # past the burst: some dropped unread
                    a.send_text("not json")
                assert server.quota.sockets["testclient"] == 2
        # (the TestClient's exit waits for the handler, whose finally lets go of it)
        with client.websocket_connect("/ws") as probe:
            probe.send_json({"type": "ping", "id": 1})
            assert probe.receive_json()["type"] == "pong"
            assert server.quota.sockets["testclient"] == 1
            assert len(server.hub._limiter) == 1  # only the probe's bucket
            assert server.hub._routes == {}
            assert server.hub.sessions[sid].conns == {}
        assert server.quota.creators.get(sid) == "testclient"


def test_a_session_closed_by_the_sweep_is_forgotten_by_the_quota() -> None:
    clock = [1000.0]
    limits = ServerLimits(idle_close=60, keep_over=60)
    server = WebServer(clock=lambda: clock[0], server_limits=limits, bot_delay=0.0)
    try:
        sid = server.create(_golf(), client="bob")["session"]
        assert server.sweep() == [] and sid in server.quota.idle
        clock[0] += 60
        assert server.sweep() == [sid]
        assert sid not in server.hub.sessions
        assert (server.quota.creators, server.quota.idle, server.quota.ended) == ({}, {}, {})
    finally:
        server.store.close()


def test_fields_the_lobby_does_not_know_are_ignored_and_shown_nowhere() -> None:
    """docs/web.rst: 'fields it does not know are ignored' (at the top and in a seat)."""
    with serve() as (client, server, _):
        body = {
            "game": "golf",
            "seats": [{"name": "A", "colour": "red", "params": {"x": 1}}, {"name": "B", "seed": 5}],
            "secret": "s3cr3t-field",
            "spectator": False,  # a typo of 'spectators': ignored, so the default holds
        }
        r = client.post("/api/sessions", content=json.dumps(body))
        assert r.status_code == 201, r.text
        assert "s3cr3t" not in r.text and "red" not in r.text
        sid = r.json()["session"]
        assert r.json()["watch"] == f"/play/{sid}#watch"
        assert [s["bot"] for s in r.json()["seats"]] == [None, None]
        assert len(server.hub.sessions) == 1


def test_a_bots_spec_seed_is_shown_nowhere_in_the_lobby() -> None:
    """docs/web.rst: 'bot: the agent's name, without a spec's parameters, so a bot's seed is
    never shown' (in the answer to the POST, the session and the listing)."""
    with serve(bot_delay=60.0) as (client, _server, _):
        seats = [
            {"name": "A", "agent": " golf-greedy :seed=918273645"},
            {"name": "B", "agent": "golf-greedy", "params": {"seed": 564738291}},
        ]
        r = client.post("/api/sessions", json={"game": "golf", "seats": seats})
        assert r.status_code == 201, r.text
        sid = r.json()["session"]
        texts = [r.text, client.get(f"/api/sessions/{sid}").text, client.get("/api/sessions").text]
        for text in texts:
            assert "918273645" not in text and "564738291" not in text
        assert [s["bot"] for s in r.json()["seats"]] == ["golf-greedy", "golf-greedy"]
        assert [s["link"] for s in r.json()["seats"]] == [None, None]
