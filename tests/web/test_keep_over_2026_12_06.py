"""A finished game leaves the server ``keep_over`` seconds after no person holds one of its
seats (2026-12-06): before, every game a server ever finished stayed in its hub (and was
resumed after each restart) until the server stopped."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from cardcore.web import WebServer, create_app
from cardcore.web._quota import Quota
from cardcore.web.app import ServerLimits
from tests.web.helpers import Player, TestClient, create

HUMAN_AND_BOT = [{"name": "Ann"}, {"name": "Bot", "agent": "random"}]


def _ended(client: Any, server: WebServer, sid: str) -> None:
    """End *sid* (its seat 0 joined and left) and leave nobody at its table."""
    with joined(client, server, sid):
        _end(client, server, sid)


@contextmanager
def joined(client: TestClient, server: WebServer, sid: str) -> Iterator[Player]:
    """Seat 0 of *sid* for the block; after it, nobody at the table (the server read the
    socket's close)."""
    with client.websocket_connect("/ws") as ws:
        player = Player(ws)
        player.send({"type": "join", "session": sid, "seat": 0})
        player.until("view")
        yield player
    session = server.hub.sessions[sid]

    async def left() -> None:
        for _ in range(2000):  # the bound only says "never"
            if not any(c.seat is not None for c in session.conns.values()):
                return
            await asyncio.sleep(0.001)
        raise AssertionError("the server never read the socket's close")

    client.portal.call(left)


def _end(client: Any, server: WebServer, sid: str) -> None:
    session = server.hub.sessions[sid]
    client.portal.call(lambda: server.host.deliver(session.end(server.host.clock())))
    assert session.phase == "over"


def test_finished_game_closed_after_keep_over(tmp_path: Any) -> None:
    t = [1000.0]
    limits = ServerLimits(keep_over=600, idle_close=3600)
    server = WebServer(
        str(tmp_path / "games.db"), bot_delay=0.0, clock=lambda: t[0], server_limits=limits
    )
    with TestClient(create_app(server), raise_server_exceptions=False) as client:
        over, live = (create(client, "golf", HUMAN_AND_BOT)["session"] for _ in range(2))
        _ended(client, server, over)
        assert client.get(f"/api/sessions/{over}/record").status_code == 200
        assert client.portal.call(server.sweep) == []  # finished (and idle) from now on
        t[0] += 599
        assert client.portal.call(server.sweep) == []
        assert client.get(f"/api/sessions/{over}/replay/1").status_code == 200
        t[0] += 1
        assert client.portal.call(server.sweep) == [over]  # the live one waits for idle_close
        assert over not in server.hub.sessions and live in server.hub.sessions
        assert over not in server.bots and over not in server.quota.ended
        assert client.get(f"/api/sessions/{over}/record").status_code == 404
    restarted = WebServer(str(tmp_path / "games.db"), bot_delay=0.0, server_limits=limits)
    with TestClient(create_app(restarted)):
        assert over not in restarted.hub.sessions  # closed in the store: not resumed
        assert live in restarted.hub.sessions


def test_a_seated_person_keeps_a_finished_game(tmp_path: Any) -> None:
    """A person at the table (looking at the result) keeps it; the wait starts when they go.
    A sweep that makes room for a new game (a *wait*) closes no finished game."""
    t = [1000.0]
    limits = ServerLimits(keep_over=600)
    server = WebServer(
        str(tmp_path / "games.db"), bot_delay=0.0, clock=lambda: t[0], server_limits=limits
    )
    with TestClient(create_app(server), raise_server_exceptions=False) as client:
        sid = create(client, "golf", HUMAN_AND_BOT)["session"]
        with joined(client, server, sid):
            _end(client, server, sid)
            assert client.portal.call(server.sweep) == []
            t[0] += 10_000
            assert client.portal.call(server.sweep) == []  # Ann is at the table
        assert client.portal.call(lambda: server.sweep(wait=1.0)) == []
        assert client.portal.call(server.sweep) == []  # the wait begins: nobody at the table
        t[0] += 599
        assert client.portal.call(server.sweep) == []
        t[0] += 1
        assert client.portal.call(server.sweep) == [sid]


def test_keep_over_zero_keeps_finished_games() -> None:
    quota = Quota(ServerLimits(keep_over=0))

    class Over:
        phase = "over"
        conns: ClassVar[dict[str, Any]] = {}

    sessions: Any = {"s": Over()}
    assert quota.finished_sessions(sessions, 0.0) == []
    assert quota.finished_sessions(sessions, 10.0**9) == []


@pytest.mark.parametrize("text", ["-1", "0.5", "inf", "1e3"])
def test_keep_over_from_env_refuses_bad_values(text: str) -> None:
    from cardcore.web._requests import WebError

    with pytest.raises(WebError, match="CARDCORE_KEEP_OVER"):
        ServerLimits.from_env({"CARDCORE_KEEP_OVER": text})
    assert ServerLimits.from_env({"CARDCORE_KEEP_OVER": "90"}).keep_over == 90.0
