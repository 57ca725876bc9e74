"""An operator's review of docs/session.rst, web.rst, security.rst and embedding.rst (2026-12-03).

Claims checked against ``cardcore serve`` through Starlette's TestClient:

* a Spit seat that is not to act is refused citing the game's own rule (``waiting_rule``:
  SPIT-SETUP-6 for a ready seat in the setup, SPIT-MOVE-1 for a seat that asked for a spit
  and has no move), as an ``illegal`` error with ``rule``, to that connection only, nothing
  changed;
* ``internal``: "the server failed (a plugin's error); nothing changed" - what the client is
  told when a plugin raises, and whether nothing changed;
* a client message's ``id`` "echoed in the reply";
* the store keeps only a hash of a seat's token; a signed save refuses an edit.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from cardcore.session import Limits, Mirror
from cardcore.web import WebServer
from tests.web.helpers import TestClient, Watchdog, create, create_app

FAST = Limits(rate=1000.0, burst=1000)  # the tests send faster than a person


@contextmanager
def served(
    db: str | None = None, *, watchdog: bool = True
) -> Iterator[tuple[TestClient, WebServer]]:
    """A server (bots act at once) whose failures are answers, with the leak check if asked."""
    server = WebServer(db, bot_delay=0.0, bot_pace=0.05, limits=FAST)
    if watchdog:
        Watchdog(server)
    with TestClient(create_app(server), raise_server_exceptions=False) as client:
        yield client, server


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

    def drain(self) -> list[dict[str, Any]]:
        """Everything sent to this connection up to a fresh pong (that excluded)."""
        start = len(self.got)
        self.pings += 1
        self.send({"type": "ping", "id": f"p{self.pings}"})
        while True:
            m = self.recv()
            if m["type"] == "pong" and m.get("id") == f"p{self.pings}":
                return self.got[start:-1]

    def ask(self, message: dict[str, Any] | str) -> dict[str, Any]:
        """Send *message*; the first reply to it (``{}``: none), read up to a pong."""
        self.send(message)
        for m in self.drain():
            if m["type"] in ("ok", "error", "welcome", "history", "record"):
                return m
        return {}


def spit_with_a_waiting_seat(server: WebServer) -> Any:
    """A Spit session (seed 12) where seat 0, once both are ready, asks for a spit and waits."""
    return server.hub.create("spit", ["Ann", "Bob"], now=time.time(), seed=12)


# -- waiting_rule: what a refused seat is sent ---------------------------------------------------


def test_a_waiting_spit_seat_is_refused_citing_the_games_rule_to_itself_only() -> None:
    with served() as (client, server):
        session = spit_with_a_waiting_seat(server)
        sid = session.id
        with (
            client.websocket_connect("/ws") as wa,
            client.websocket_connect("/ws") as wb,
            client.websocket_connect("/ws") as ww,
        ):
            a, b, w = Conn(wa), Conn(wb), Conn(ww)
            a.ask({"type": "join", "session": sid, "seat": 0})
            b.ask({"type": "join", "session": sid, "seat": 1})
            w.ask({"type": "watch", "session": sid})
            game = session.game
            assert a.ask({"type": "act", "action": "ready", "seen": game.version})["type"] == "ok"
            # ready, waiting for Bob: SPIT-SETUP-6, not CORE-TURN-1
            for text in ("ready", "combine 4 5"):
                v = game.version
                r = a.ask({"type": "act", "action": text, "seen": v, "id": text})
                assert (r["type"], r["code"], r["rule"], r["id"]) == (
                    "error",
                    "illegal",
                    "SPIT-SETUP-6",
                    text,
                ), r
                assert r["message"].endswith("(SPIT-SETUP-6)") and game.version == v
            assert b.ask({"type": "act", "action": "ready", "seen": game.version})["type"] == "ok"
            assert a.ask({"type": "act", "action": "spit", "seen": game.version})["type"] == "ok"
            assert session.game.to_act == (1,)  # Ann asked for a spit and has no move
            for text in ("spit", "play 1 L", "combine 1 2"):
                v = game.version
                r = a.ask({"type": "act", "action": text, "seen": v})
                assert (r["code"], r["rule"], r["version"]) == ("illegal", "SPIT-MOVE-1", v), r
                assert "waits" in r["message"] and game.version == v
            # nobody else hears of Ann's refusals
            for other in (b, w):
                assert not [m for m in other.drain() if m["type"] == "error"]
                assert all(m.get("type") != "error" for m in other.got)


# -- a plugin that fails ------------------------------------------------------------------------


def test_a_failing_plugin_reaches_the_client_as_internal_without_its_exception_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import cardcore_spit.logic as spit_logic

    with served(watchdog=False) as (client, server):  # the kit's leak check would raise first
        session = spit_with_a_waiting_seat(server)
        sid = session.id
        with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as wb:
            a, b = Conn(wa), Conn(wb)
            a.ask({"type": "join", "session": sid, "seat": 0})
            b.ask({"type": "join", "session": sid, "seat": 1})
            game = session.game
            assert a.ask({"type": "act", "action": "ready", "seen": game.version})["type"] == "ok"
            hidden = str(game.state.zones.cards[game.logic.lay[1][4]][0])  # Bob's, face down

            def buggy(self: Any, state: Any, action: Any) -> Any:
                raise KeyError(f"no entry for {hidden} under Bob's pile 5")

            monkeypatch.setattr(spit_logic.SpitLogic, "waiting_rule", buggy)
            v = game.version
            r = a.ask({"type": "act", "action": "ready", "seen": v})
            assert (r["type"], r["code"], game.version) == ("error", "internal", v), r
            assert "KeyError" not in r["message"], r["message"]
            assert hidden not in r["message"], r["message"]


@contextmanager
def a_view_that_fails_for_bob(
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[tuple[Any, Conn, Conn, dict[str, bool]]]:
    """Spit, Ann ready; the game's table of Bob's view raises while ``failing['on']``."""
    with served(watchdog=False) as (client, server):
        session = spit_with_a_waiting_seat(server)
        sid = session.id
        with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as wb:
            a, b = Conn(wa), Conn(wb)
            a.ask({"type": "join", "session": sid, "seat": 0})
            b.ask({"type": "join", "session": sid, "seat": 1})
            game = session.game
            assert a.ask({"type": "act", "action": "ready", "seen": game.version})["type"] == "ok"
            logic = type(game.logic)
            table = logic.table
            failing = {"on": False}

            def flaky(self: Any, state: Any, seat: int | None) -> Any:
                if failing["on"] and seat == 1:
                    raise RuntimeError("the table service is down")
                return table(self, state, seat)

            monkeypatch.setattr(logic, "table", flaky)
            yield session, a, b, failing


def test_an_action_answered_internal_changed_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    with a_view_that_fails_for_bob(monkeypatch) as (session, _, b, failing):
        game = session.game
        v = game.version
        failing["on"] = True
        r = b.ask({"type": "act", "action": "ready", "seen": v})
        failing["on"] = False
        if r.get("type") == "error":
            assert r["code"] == "internal", r
            assert game.version == v, "refused as 'internal', yet the deal started"
        else:
            assert r.get("type") == "ok", r


def test_after_a_failed_broadcast_each_event_reaches_a_seat_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with a_view_that_fails_for_bob(monkeypatch) as (session, a, b, failing):
        game = session.game
        failing["on"] = True
        b.ask({"type": "act", "action": "ready", "seen": game.version})
        failing["on"] = False
        assert game.version == 2  # the deal started: both spat
        assert a.ask({"type": "act", "action": "spit", "seen": game.version})["type"] == "ok"
        started = [
            e
            for m in a.got
            if m["type"] == "update"
            for e in m["events"]
            if e["event"] == "play-started"
        ]
        assert len(started) == 1, [m["version"] for m in a.got if m["type"] == "update"]


# -- the protocol's small print -----------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        {"type": "act", "id": "m1", "action": 5, "seen": 0},
        {"type": "act", "id": "m1", "action": "flip 0"},
        {"type": "frobnicate", "id": "m1"},
    ],
    ids=["wrong-kind", "missing-field", "unknown-type"],
)
def test_an_error_echoes_the_id_of_the_message_it_refuses(message: dict[str, Any]) -> None:
    with served() as (client, _):
        sid = create(client, "golf", [{"name": "Ann"}, {"name": "Bob"}])["session"]
        with client.websocket_connect("/ws") as wa:
            a = Conn(wa)
            a.ask({"type": "join", "session": sid, "seat": 0})
            r = a.ask(message)
            assert (r["type"], r["code"]) == ("error", "bad-message"), r
            assert r["id"] == "m1", r


def test_a_record_asked_mid_game_is_not_answered_game_over() -> None:
    with served() as (client, _):
        sid = create(client, "golf", [{"name": "Ann"}, {"name": "Bob"}])["session"]
        with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as wb:
            a, b = Conn(wa), Conn(wb)
            a.ask({"type": "join", "session": sid, "seat": 0})
            b.ask({"type": "join", "session": sid, "seat": 1})
            r = a.ask({"type": "record"})
            assert r["type"] == "error" and "record" not in r, r
            assert r["code"] != "game-over", r


def test_an_id_utf8_cannot_carry_is_refused_saying_so() -> None:
    with served() as (client, _), client.websocket_connect("/ws") as wa:
        a = Conn(wa)
        r = a.ask('{"type": "ping", "id": "\\ud800"}')
        assert (r["type"], r["code"]) == ("error", "bad-message"), r
        assert "UTF-8" in r["message"] or "surrogate" in r["message"], r["message"]


# -- what the store keeps; signed saves -----------------------------------------------------------


def test_the_database_never_holds_a_seats_token(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    with served(db) as (client, _):
        sid = create(client, "golf", [{"name": "Ann"}, {"name": "Bob"}])["session"]
        with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as wb:
            a, b = Conn(wa), Conn(wb)
            tokens = [
                a.ask({"type": "join", "session": sid, "seat": 0})["token"],
                b.ask({"type": "join", "session": sid, "seat": 1})["token"],
            ]
            a.drain()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT * FROM tokens").fetchall()
    assert len(rows) == 2
    for token in tokens:
        assert token.encode() not in raw
        assert all(token not in str(row) for row in rows)


def test_a_signed_save_loads_with_its_key_and_refuses_one_changed_byte() -> None:
    import cardcore

    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=3)
    for text in ("flip 0", "flip 4", "flip 1", "flip 5"):
        game.act(game.to_act[0], text)
    data = game.save(key=b"server secret")
    assert cardcore.load(data, key=b"server secret").view(0) == game.view(0)
    edited = json.loads(json.dumps(data).replace('"Bob"', '"Bub"'))
    with pytest.raises(cardcore.CorruptStateError):
        cardcore.load(edited, key=b"server secret")
    with pytest.raises(cardcore.CorruptStateError):
        cardcore.load(data, key=b"another key")


def test_a_session_without_spectators_offers_no_watch_link() -> None:
    with served() as (client, _):
        seats = [{"name": "Ann"}, {"name": "Bob"}]
        data = create(client, "golf", seats, spectators=False)
        sid = data["session"]
        with client.websocket_connect("/ws") as ww:
            refused = Conn(ww).ask({"type": "watch", "session": sid})
        assert (refused["type"], refused["code"]) == ("error", "full"), refused
        assert client.get(f"/api/sessions/{sid}").json()["watch"] is None
