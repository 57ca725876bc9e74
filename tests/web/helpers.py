"""The web tests' helpers: a server in a TestClient, a websocket client that keeps its view,
and a leak check on every frame the server sends (against that connection's allowed view)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

import warnings

with warnings.catch_warnings():  # starlette asks for httpx2; httpx still works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cardcore.session import Mirror, Outbound
from cardcore.web import WebServer, create_app
from tests.session.kit import LeakCheck


class Watchdog:
    """Checks every outbound frame of every session of *server* with the session kit's LeakCheck."""

    def __init__(self, server: WebServer) -> None:
        self.server = server
        self.checks: dict[str, LeakCheck] = {}
        self.mirrors: dict[str, Mirror] = {}
        self.frames = 0
        server.host.observers.append(self.observe)

    def observe(self, out: Outbound) -> None:
        for session in list(self.server.hub.sessions.values()):  # the test thread may add one
            c = session.conns.get(out.conn)
            if c is None:
                continue
            check = self.checks.get(session.id)
            if check is None:
                check = self.checks[session.id] = LeakCheck(session.players)
            check.attach(session.game)
            mirror = self.mirrors.setdefault(out.conn, Mirror())
            message = json.loads(out.text)
            mirror.feed(message)
            check.check(c.seat, message, mirror, "")
            self.frames += 1
            return


@contextmanager
def serve(db: str | None = None, **kwargs: Any) -> Iterator[tuple[TestClient, WebServer, Watchdog]]:
    """A server (bots act at once) in a TestClient, with its watchdog."""
    kwargs.setdefault("bot_delay", 0.0)
    kwargs.setdefault("bot_pace", 0.05)
    server = WebServer(db, **kwargs)
    dog = Watchdog(server)
    with TestClient(create_app(server)) as client:
        yield client, server, dog


class Player:
    """One websocket connection: sends messages, keeps the view from views and patches."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.mirror = Mirror()
        self.received: list[dict[str, Any]] = []

    def send(self, message: Mapping[str, Any] | str) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.receive_text())
        self.received.append(message)
        self.mirror.feed(message)
        return message

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            message = self.recv()
            if message["type"] == kind:
                return message

    @property
    def view(self) -> dict[str, Any]:
        assert self.mirror.view is not None
        return self.mirror.view

    def play_to_end(self, seat: int, limit: int = 2000) -> dict[str, Any]:
        """Act (first legal action) whenever this seat is to act, until the game is over."""
        for _ in range(limit):
            if self.mirror.view is not None and self.mirror.view["is_over"]:
                return self.view
            if self.mirror.view is not None and seat in self.view["to_act"] and self.view["legal"]:
                self.send(
                    {"type": "act", "action": self.view["legal"][0], "seen": self.mirror.version}
                )
                reply = self.recv()
                while reply["type"] not in ("ok", "error"):
                    reply = self.recv()
                assert reply["type"] == "ok", reply
            else:
                self.recv()
        raise AssertionError("the game did not end")


def create(
    client: TestClient, game: str, seats: list[dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    r = client.post("/api/sessions", json={"game": game, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data
