"""WebSocket connections a server holds at once (``ServerLimits.max_sockets``) and from one
client address (``max_sockets_per_client``): one past a limit is accepted and closed at once
with code 1013 ("try again later") and the limit named; closing one makes room."""

from __future__ import annotations

import time
from typing import Any

import pytest

from cardcore.web.app import ServerLimits, WebError
from tests.web.helpers import serve

pytest.importorskip("starlette")
from starlette.websockets import WebSocketDisconnect


def _refused(client: Any) -> tuple[int, str]:
    """Open one connection past the limit: its close code and reason."""
    with client.websocket_connect("/ws") as ws, pytest.raises(WebSocketDisconnect) as caught:
        ws.receive_text()
    return caught.value.code, caught.value.reason


def _counted(server: Any, want: int) -> None:
    """Wait (briefly: the server thread counts a close after the client's side) until *want*
    connections are counted."""
    deadline = time.monotonic() + 10  # (at most: a loaded machine's server thread is slow)
    while time.monotonic() < deadline:
        if server.quota.sockets.total() == want:
            return
        time.sleep(0.01)
    assert server.quota.sockets.total() == want


def test_one_client_may_hold_max_sockets_per_client_connections() -> None:
    with serve(server_limits=ServerLimits(max_sockets_per_client=2)) as (client, server, _):
        with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
            for ws in (a, b):
                ws.send_json({"type": "ping", "t": 1})
                assert ws.receive_json()["type"] == "pong"
            code, reason = _refused(client)
            assert code == 1013 and reason == "2 connections from your address are open already"
            assert server.quota.sockets == {"testclient": 2}
        _counted(server, 0)
        with client.websocket_connect("/ws") as again:  # room again
            again.send_json({"type": "ping", "t": 2})
            assert again.receive_json()["type"] == "pong"
    assert not server.quota.sockets


def test_the_server_holds_at_most_max_sockets_connections() -> None:
    with serve(server_limits=ServerLimits(max_sockets=1)) as (client, server, _):
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "ping", "t": 1})
            assert ws.receive_json()["type"] == "pong"
            code, reason = _refused(client)
            assert (code, reason) == (1013, "the server holds 1 connection: try again later")
        _counted(server, 0)


def test_no_socket_limit_per_client_by_default() -> None:
    limits = ServerLimits()
    assert (limits.max_sockets, limits.max_sockets_per_client) == (4096, 0)
    with serve() as (client, server, _):
        opened = [client.websocket_connect("/ws").__enter__() for _ in range(6)]
        for ws in opened:
            ws.send_json({"type": "ping", "t": 1})
            assert ws.receive_json()["type"] == "pong"
        assert server.quota.sockets == {"testclient": 6}
        for ws in opened:
            ws.__exit__(None, None, None)
        _counted(server, 0)


def test_the_socket_limits_are_read_from_the_environment() -> None:
    env = {"CARDCORE_MAX_SOCKETS": "500", "CARDCORE_MAX_SOCKETS_PER_CLIENT": "8"}
    limits = ServerLimits.from_env(env)
    assert (limits.max_sockets, limits.max_sockets_per_client) == (500, 8)
    for bad in ("-1", "1e3", "many"):
        with pytest.raises(WebError, match="CARDCORE_MAX_SOCKETS_PER_CLIENT must be a number"):
            ServerLimits.from_env({"CARDCORE_MAX_SOCKETS_PER_CLIENT": bad})
    with pytest.raises(WebError, match="max_sockets must be a whole number from 0"):
        ServerLimits(max_sockets=-1)


def test_a_connection_that_never_joins_is_closed_after_join_wait() -> None:
    """The hostile review (2026-12-18): a socket that never joined stayed open for good, so one
    client could hold every one of ``max_sockets`` with the per-client limit off (the default)."""
    assert ServerLimits().join_wait == 60.0
    with serve(server_limits=ServerLimits(join_wait=3)) as (client, server, _):
        sid = client.post(
            "/api/sessions", json={"game": "golf", "seats": [{"name": "A"}, {"name": "B"}]}
        ).json()["session"]
        start = time.monotonic()  # before the idle socket opens: its wait starts later
        with client.websocket_connect("/ws") as idle, client.websocket_connect("/ws") as seated:
            seated.send_json({"type": "join", "session": sid, "seat": 0})
            assert seated.receive_json()["type"] == "welcome"
            idle.send_json({"type": "ping", "t": 1})  # a ping is no join
            assert idle.receive_json()["type"] == "pong"
            with pytest.raises(WebSocketDisconnect) as caught:
                while True:
                    idle.receive_text()
            assert (caught.value.code, caught.value.reason) == (
                1008,
                "no join or watch within 3 seconds",
            )
            assert 2.95 < time.monotonic() - start < 15
            _counted(server, 1)  # the seated one stays, past the wait
            time.sleep(0.3)
            seated.send_json({"type": "ping", "t": 2})
            assert any(seated.receive_json()["type"] == "pong" for _ in range(5))
        _counted(server, 0)


def test_join_wait_is_off_at_zero_and_never_below_a_second() -> None:
    assert ServerLimits(join_wait=0).join_wait == 0
    for bad in (0.5, -1, float("inf"), True, "60"):
        with pytest.raises(WebError, match="join_wait must be"):
            ServerLimits(join_wait=bad)  # type: ignore[arg-type]


def test_join_wait_is_read_from_the_environment() -> None:
    assert ServerLimits.from_env({"CARDCORE_JOIN_WAIT": "90.5"}).join_wait == 90.5
    assert ServerLimits.from_env({"CARDCORE_JOIN_WAIT": "0"}).join_wait == 0
    for bad in ("0.5", "1e3", "-1", "soon"):
        with pytest.raises(WebError, match="CARDCORE_JOIN_WAIT must be"):
            ServerLimits.from_env({"CARDCORE_JOIN_WAIT": bad})
