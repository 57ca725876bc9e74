"""A hostile-client review of ``cardcore serve`` (2026-12-08).

What the earlier reviews (``test_hostile*.py``, ``test_operator_2026_12_04.py``) did not do:

* a lobby request naming a bot by an agent *spec* (``golf-greedy:seed=3``, the command
  line's form, which ``load_agent`` reads) with no ``params`` (a 500 that left the session
  behind until 4175930; kept as a regression test);
* seat names that show as another seat's without being equal to it (a trailing space, the
  same letters composed and decomposed);
* a flood from one of a seat's several connections: that connection is closed, the seat's
  other connection plays on;
* odd but well-formed lobby bodies (UTF-16, numbers past a float, agent specs with
  parameters) answered in JSON, never a 500, and nothing left behind when refused.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from cardcore.session import Limits, Mirror
from cardcore.web import WebServer
from tests.web.helpers import TestClient, Watchdog, create, create_app


@contextmanager
def served(**kwargs: Any) -> Iterator[tuple[TestClient, WebServer, Watchdog]]:
    """A server whose failures are answers (a 500), not exceptions raised in the test."""
    kwargs.setdefault("bot_delay", 0.0)
    kwargs.setdefault("bot_pace", 0.05)
    server = WebServer(None, **kwargs)
    dog = Watchdog(server)
    with TestClient(create_app(server), raise_server_exceptions=False) as client:
        yield client, server, dog


class Conn:
    """One WebSocket: every frame kept, the view rebuilt."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.mirror = Mirror()
        self.got: list[dict[str, Any]] = []
        self.pings = 0

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.receive_text())
        self.got.append(message)
        self.mirror.feed(message)
        return message

    def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send *message* then a ping; the first reply to it (``{}``: none), read to the pong."""
        start = len(self.got)
        self.send(message)
        self.pings += 1
        self.send({"type": "ping", "id": f"p{self.pings}"})
        while True:
            m = self.recv()
            if m["type"] == "pong" and m.get("id") == f"p{self.pings}":
                break
        for m in self.got[start:-1]:
            if m["type"] in ("ok", "error", "welcome", "history", "record"):
                return m
        return {}


# -- the lobby ---------------------------------------------------------------------------------


@pytest.mark.parametrize("params", [None, {}], ids=["no-params", "empty-params"])
def test_a_bot_named_by_an_agent_spec_is_served_or_refused_cleanly(
    params: dict[str, Any] | None,
) -> None:
    bot: dict[str, Any] = {"name": "Bot", "agent": "golf-greedy:seed=3"}
    if params is not None:
        bot["params"] = params
    with served() as (client, server, _):
        r = client.post("/api/sessions", json={"game": "golf", "seats": [{"name": "Ann"}, bot]})
        assert r.status_code in (201, 400), (r.status_code, r.text)
        assert r.headers["content-type"].startswith("application/json")
        if r.status_code == 400:  # refused before anything is created
            assert "error" in r.json()
            assert not server.hub.sessions
        else:  # or served: the bot holds its seat
            sid = r.json()["session"]
            assert [s["bot"] for s in r.json()["seats"]] == [None, "golf-greedy"]  # the name only: no seed shown
            assert server.hub.sessions[sid].tokens.keys() == {1}


@pytest.mark.parametrize(
    "second",
    ["Ann ", " Ann", "Ann\u00a0", "Player 1 "],
    ids=["trailing-space", "leading-space", "no-break-space", "a-default-with-a-space"],
)
def test_a_name_that_shows_as_another_seats_is_refused(second: str) -> None:
    first = {} if second.startswith("Player 1") else {"name": "Ann"}
    with served() as (client, server, _):
        r = client.post("/api/sessions", json={"game": "golf", "seats": [first, {"name": second}]})
        assert r.status_code == 400, r.text
        assert not server.hub.sessions


def test_a_name_composed_and_decomposed_is_one_name() -> None:
    seats = [{"name": "Zo\u00eb"}, {"name": "Zoe\u0308"}]
    with served() as (client, server, _):
        r = client.post("/api/sessions", json={"game": "golf", "seats": seats})
        assert r.status_code == 400, r.text
        assert not server.hub.sessions


@pytest.mark.parametrize(
    "blank", [" ", "\u3164", "\u2800"], ids=["space", "hangul-filler", "braille"]
)
def test_a_name_blank_in_its_first_40_characters_is_refused(blank: str) -> None:
    with served() as (client, server, _):
        seats = [{"name": "Ann"}, {"name": blank * 40 + "Bob"}]
        r = client.post("/api/sessions", json={"game": "golf", "seats": seats})
        kept = [s["name"] for s in r.json()["seats"]] if r.status_code == 201 else None
        if r.status_code == 201:  # kept: then as something that shows (its letters)
            assert kept is not None and "Bob" in kept[1], kept
        else:
            assert r.status_code == 400, r.text
            assert not server.hub.sessions


BODIES: list[tuple[bytes, int]] = [
    # UTF-16 with its byte order mark: json reads it; the request is served
    ('{"game":"golf","seats":[{},{}]}'.encode("utf-16"), 201),
    # a number past a float's range is read as infinity: refused by the option's check
    (b'{"game":"golf","seats":[{},{}],"options":{"rounds":1e400}}', 400),
    (b'{"game":"golf","seats":[{},{"agent":"ismcts","params":{"time":1e400}}]}', 400),
    (b'{"game":"golf","seats":[{},{"agent":"ismcts","params":{"time":1e-400}}]}', 400),
    # parameters in the agent's name, bounded as params are
    (b'{"game":"golf","seats":[{},{"agent":"ismcts:iterations=99999"}]}', 400),
    (b'{"game":"golf","seats":[{},{"agent":"random:reaction=1e400"}]}', 400),
    (b'{"game":"golf","seats":[{},{"agent":"random:seed=1,seed=2"}]}', 400),
    (b'{"game":"golf","seats":[{},{"agent":"os:system"}]}', 400),
    (
        b'{"game":"golf","seats":[{},{"agent":"random:reaction=0.1","params":{"reaction":0.2}}]}',
        201,
    ),
    # a parameter named as load_agent's own argument
    (b'{"game":"golf","seats":[{},{"agent":"random","params":{"name":1}}]}', 400),
    (b'{"game":"golf","seats":[{},{"agent":"random","params":{"\\ud800":1}}]}', 400),
]


@pytest.mark.parametrize(("body", "status"), BODIES)
def test_odd_lobby_bodies_are_answered_in_json(body: bytes, status: int) -> None:
    with served() as (client, server, _):
        r = client.post("/api/sessions", content=body, headers={"content-type": "text/plain"})
        assert r.status_code == status, r.text
        assert r.headers["content-type"].startswith("application/json")
        assert (status == 201) == bool(server.hub.sessions)
        if status == 400:
            assert r.json()["error"]


# -- a flood from one of a seat's connections ----------------------------------------------------


def _wait(condition: Any, seconds: float = 30.0) -> bool:
    """Poll *condition* (the server's thread handles the frames) for at most *seconds*."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.01)
    return bool(condition())


def test_a_flood_from_one_of_a_seats_connections_closes_that_one_only() -> None:
    clock = [1000.0]  # a virtual clock: no token is earned during the flood
    limits = Limits(rate=1.0, burst=40, close_after=50)
    with served(limits=limits, clock=lambda: clock[0]) as (client, server, dog):
        sid = create(client, "golf", [{"name": "Ann"}, {"name": "Bob"}], options={"rounds": 1})[
            "session"
        ]
        with (
            client.websocket_connect("/ws") as w1,
            client.websocket_connect("/ws") as w2,
            client.websocket_connect("/ws") as wb,
        ):
            a1, a2, b = Conn(w1), Conn(w2), Conn(wb)
            token = a1.ask({"type": "join", "session": sid, "seat": 0})["token"]
            assert a2.ask({"type": "join", "session": sid, "seat": 0, "token": token})["seat"] == 0
            b.ask({"type": "join", "session": sid, "seat": 1})
            session = server.hub.sessions[sid]
            game = session.game
            assert game is not None
            clock[0] += 1000  # full buckets
            held = {cid for cid, c in session.conns.items() if c.seat == 0}
            assert len(held) == 2
            a2.ask({"type": "ping"})
            before = game.version
            for _ in range(120):  # past burst + close_after, never read
                a1.send({"type": "act", "action": "flip 99", "seen": 0})
            assert _wait(lambda: len(held & set(session.conns)) == 1), "the flooder stays"
            assert game.version == before
            # the seat's other connection plays on, and the other seat follows
            clock[0] += 1000
            legal = a2.mirror.view["legal"] if a2.mirror.view else []
            assert legal
            reply = a2.ask({"type": "act", "action": legal[0], "seen": a2.mirror.version})
            assert reply["type"] == "ok", reply
            b.ask({"type": "ping"})
            assert game.version == before + 1
            assert a2.mirror.view == game.view(0)
            assert b.mirror.view == game.view(1)
            presence = [m for m in b.got if m["type"] == "presence"][-1]
            assert presence["connected"] == [True, True]
            assert dog.frames > 0


# -- real time: the race to the game's last action ---------------------------------------------


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_a_real_time_move_that_lost_the_race_to_the_end_is_stale(game: str) -> None:
    with served() as (client, server, _):
        sid = create(client, game, [{"name": "Ann"}, {"name": "Bob"}])["session"]
        with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as wb:
            a, b = Conn(wa), Conn(wb)
            a.ask({"type": "join", "session": sid, "seat": 0})
            b.ask({"type": "join", "session": sid, "seat": 1})
            a.ask({"type": "ping"})
            session = server.hub.sessions[sid]
            assert session.game is not None
            seen = session.game.version
            assert a.mirror.version == b.mirror.version == seen
            # both resign from the same view; Ann's arrives first and ends the game
            assert a.ask({"type": "act", "action": "resign", "seen": seen})["type"] == "ok"
            assert session.phase == "over"
            late = b.ask({"type": "act", "action": "resign", "seen": seen})
            assert session.game.version == seen + 1  # nothing changed
            assert late["type"] == "error", late
            # the core's answer (docs/core-rules.rst, CORE-RT-1): stale, not the game's end
            assert (late["code"], late.get("rule")) == ("stale", "CORE-RT-1"), late


# -- several connections of one client ---------------------------------------------------------


def test_spectators_churning_watch_and_leave_do_not_flood_the_seats() -> None:
    clock = [1000.0]  # frozen: every connection has its burst (40) and no more
    limits = Limits(rate=1.0, burst=40, close_after=50)
    with served(limits=limits, clock=lambda: clock[0]) as (client, server, _):
        sid = create(client, "golf", [{"name": "Ann"}, {"name": "Bob"}], options={"rounds": 1})[
            "session"
        ]
        with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as wb:
            a, b = Conn(wa), Conn(wb)
            a.ask({"type": "join", "session": sid, "seat": 0})
            b.ask({"type": "join", "session": sid, "seat": 1})
            start = len(b.got)
            sent = 0
            for _ in range(4):  # one client, four sockets, each within its own rate limit
                with client.websocket_connect("/ws") as ws:
                    w = Conn(ws)
                    for _ in range(19):
                        w.send({"type": "watch", "session": sid})
                        w.send({"type": "leave"})
                        sent += 2
                    w.ask({"type": "ping"})
                    errors = [m for m in w.got if m["type"] == "error"]
                    assert not errors, errors[:2]  # none of it was a flood to the server
            b.ask({"type": "ping"})
            presence = [m for m in b.got[start:] if m["type"] == "presence"]
            session = server.hub.sessions[sid]
            assert session.game is not None and session.game.version == 0
            # Bob saw nothing change at the table; he is told of it about once a message
            assert len(presence) <= 8, f"{len(presence)} presence messages for {sent} sent"
