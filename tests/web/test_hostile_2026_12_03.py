"""A hostile network client against ``cardcore serve`` (Starlette's TestClient WebSocket).

Every game (Golf, Tonk, Spit, Speed) is played by two people over ``/ws`` with a
spectator watching, while each connection also sends hostile frames: malformed and
deeply nested JSON, binary frames, wrong types in every field, unknown kinds, acts for
the other seat, stale versions, Unicode tricks, actions naming the cards of the other
hand. Every frame the server sends is checked against what its connection may see (the
session kit's :class:`LeakCheck`, errors allowed to quote what their sender sent), and
every error must carry a documented code and a message with no Python internals.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from cardcore.session import (
    CorruptSessionError,
    Limits,
    Mirror,
    Outbound,
    StoreError,
    StreamGapError,
)
from cardcore.session.patch import card_words
from cardcore.session.protocol import ERROR_CODES
from cardcore.web import WebServer
from tests.session.kit import LeakCheck
from tests.web.helpers import TestClient, create, create_app

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
CARDS = [r + s for r in RANKS for s in "CDHS"]
PYTHON = re.compile(
    r"Traceback|File \"|line \d+, in|\b[A-Z]\w*(Error|Exception)\b|object has no|<class "
)


class Spy:
    """Every frame the server sends, checked as it goes out; violations kept, never raised
    (an assertion inside the server would only close a socket)."""

    def __init__(self, server: WebServer) -> None:
        self.server = server
        self.checks: dict[str, LeakCheck] = {}
        self.mirrors: dict[str, Mirror] = {}
        self.echo: dict[str, str] = {}
        self.seats: dict[str, tuple[str, int | None]] = {}
        self.numbers: dict[str, list[int]] = {}
        self.problems: list[str] = []
        self.frames = 0
        hub = server.hub
        handle = hub.handle

        def spy_handle(conn: str, message: Any, now: float) -> list[Outbound]:
            if isinstance(message, bytes | bytearray):
                message = bytes(message).decode("utf-8", "replace")
            text = message if isinstance(message, str) else json.dumps(message)
            try:  # the cards it names: an error may quote them (normalized: 'spread 2S 3S AS')
                self.echo[conn] = " ".join(card_words(json.loads(text)))
            except (ValueError, RecursionError):
                self.echo[conn] = re.sub(r"[^0-9A-Za-z]+", " ", text)
            return handle(conn, message, now)

        hub.handle = spy_handle  # type: ignore[method-assign]
        server.host.observers.append(self.observe)

    def observe(self, out: Outbound) -> None:
        try:
            self._observe(out)
        except AssertionError as exc:
            self.problems.append(str(exc)[:500])

    def _observe(self, out: Outbound) -> None:
        message = json.loads(out.text)
        for sid, session in self.server.hub.sessions.items():
            c = session.conns.get(out.conn)
            if c is not None:
                self.seats[out.conn] = (sid, c.seat)
        if out.conn not in self.seats:  # not joined: only errors and pongs, naming no card
            words = set(card_words(message)) - set(card_words(self.echo.get(out.conn, "")))
            assert not words, f"{words} sent to a connection with no seat: {message}"
        else:
            sid, seat = self.seats[out.conn]
            session = self.server.hub.sessions.get(sid)
            check = self.checks.get(sid)
            if check is None and session is not None:
                check = self.checks[sid] = LeakCheck(session.players)
            if check is not None and session is not None:
                check.attach(session.game)
                mirror = self.mirrors.setdefault(out.conn, Mirror())
                try:
                    mirror.feed(message)
                except StreamGapError:  # a connection resuming from its 'last': cards only
                    mirror = self.mirrors[out.conn] = Mirror()
                    mirror.last = 1 << 60
                check.check(seat, message, mirror, self.echo.get(out.conn, ""))
        if "n" in message:
            self.numbers.setdefault(out.conn, []).append(message["n"])
        if message["type"] == "error":
            assert message["code"] in ERROR_CODES, message
            assert message["code"] != "internal", message
            assert message["message"] and not PYTHON.search(message["message"]), message
        self.frames += 1


@contextmanager
def serve(db: str | None = None, **kwargs: Any) -> Iterator[tuple[TestClient, WebServer, Spy]]:
    kwargs.setdefault("bot_delay", 0.0)
    kwargs.setdefault("bot_pace", 0.05)
    kwargs.setdefault("limits", Limits(rate=10_000.0, burst=10_000, close_after=10_000))
    server = WebServer(db, **kwargs)
    spy = Spy(server)
    with TestClient(create_app(server)) as client:
        yield client, server, spy
    assert not spy.problems, spy.problems[:5]


class Conn:
    """One WebSocket: every frame it receives kept, its view rebuilt, replies waited for."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.mirror = Mirror()
        self.got: list[dict[str, Any]] = []
        self.pings = 0
        self.gaps = 0

    def send(self, message: Mapping[str, Any] | str | bytes) -> None:
        if isinstance(message, bytes):
            self.ws.send_bytes(message)
        else:
            self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.receive_text())
        self.got.append(message)
        try:
            self.mirror.feed(message)
        except StreamGapError:
            self.gaps += 1
        return message

    def ask(self, message: Mapping[str, Any] | str | bytes) -> dict[str, Any]:
        """Send *message*, then a ping; return the first reply to it (or ``{}``), everything
        up to the pong read."""
        start = len(self.got)
        self.send(message)
        self.pings += 1
        self.send({"type": "ping", "id": f"p{self.pings}"})
        while True:
            m = self.recv()
            if m["type"] == "pong" and m.get("id") == f"p{self.pings}":
                break
        replies = [
            m
            for m in self.got[start:-1]
            if m["type"] in ("ok", "error", "history", "record", "pong", "welcome")
        ]
        if replies:
            return replies[0]
        rest = [m for m in self.got[start:-1] if m["type"] != "presence"]
        return rest[0] if rest else {}

    def drain(self) -> None:
        self.ask({"type": "ping"})

    @property
    def view(self) -> dict[str, Any]:
        assert self.mirror.view is not None
        return self.mirror.view


def _numbered(conn: Conn) -> list[int]:
    """The numbers of the stream messages *conn* got (a resync view repeats the last one)."""
    return [m["n"] for m in conn.got if "n" in m and m.get("reason") != "resync"]


def _contiguous(numbers: list[int]) -> bool:
    return numbers == list(range(numbers[0], numbers[0] + len(numbers))) if numbers else True


def hostile(seat: int, version: int, other_legal: list[str], rng: random.Random) -> list[Any]:
    """Frames a hostile seat sends: each must be refused with an error and change nothing."""
    card = rng.choice(CARDS)
    return [
        "{not json",
        "",
        "[" * 5000,
        '{"a":' * 2000 + "1" + "}" * 2000,
        "null",
        "[]",
        '"act"',
        b"\xff\xfe\x00",
        b"",
        '{"type": "act", "action": "x", "seen": 0, "seen": 1}',
        '{"type": "act", "action": "flip 0", "seen": NaN}',
        '{"type": "act", "action": "\\ud800", "seen": 0}',
        '{"type": "act", "action": "draw", "seen": ' + "9" * 5000 + "}",
        '{"type": "act", "action": "draw", "seen": 1e999}',
        '{"type": "ping", "t": 1e999}',
        '{"type": "ping", "t": -' + "9" * 400 + "}",
        '{"type": "act", "action": "draw", "seen": 0, "\\udfff": 1}',
        json.dumps({"type": "act", "action": "flip 0\x00", "seen": version}),
        json.dumps({"type": "act", "action": "\u202eflip 0", "seen": version}),
        json.dumps({"type": "act", "action": "flip \u0660", "seen": version}),
        json.dumps({"type": "act", "action": "x" * 201, "seen": version}),
        json.dumps({"type": "act", "action": 5, "seen": version}),
        json.dumps({"type": "act", "action": ["draw"], "seen": version}),
        json.dumps({"type": "act", "action": "draw", "seen": "0"}),
        json.dumps({"type": "act", "action": "draw", "seen": -1}),
        json.dumps({"type": "act", "action": "draw", "seen": 2**80}),
        json.dumps({"type": "act", "action": "draw", "seen": 1.0}),
        json.dumps({"type": "act", "action": "draw", "seen": True}),
        json.dumps({"type": "act", "action": "draw", "seen": version + 1}),
        json.dumps({"type": "act", "action": "draw", "seen": version, "seat": 1 - seat}),
        json.dumps({"type": "act", "action": "draw", "seen": version, "seat": "0"}),
        json.dumps({"type": "act", "action": "draw", "seen": version, "extra": 1}),
        json.dumps({"type": "act", "seen": version}),
        json.dumps({"type": "ACT", "action": "draw", "seen": version}),
        json.dumps({"type": None}),
        json.dumps({"type": ["act"]}),
        json.dumps({"type": "join", "seat": seat}),
        json.dumps({"type": "watch"}),
        json.dumps({"type": "resync"}),
        json.dumps({"type": "resync", "last": -5}),
        json.dumps({"type": "history", "since": "x"}),
        json.dumps({"type": "takeback", "op": "steal"}),
        json.dumps({"type": "entropy", "value": "abc"}),
        json.dumps({"type": "record"}),
        json.dumps({"type": "ping", "t": "now"}),
        json.dumps({"type": "ping", "id": {"x": 1}}),
        json.dumps({"type": "ping", "id": "x" * 65}),
        json.dumps({"type": "ping", "session": "another"}),
        json.dumps({"type": "act", "action": "x", "seen": version, "session": "another"}),
        json.dumps({"type": "act", "action": "x" * 20, "seen": version, "id": "y" * 9000}),
        json.dumps({"type": "act", "action": f"play {card} L", "seen": version}),
        json.dumps({"type": "act", "action": f"discard {card}", "seen": version}),
        json.dumps(
            {
                "type": "act",
                "action": f"spread {card} {rng.choice(CARDS)} {rng.choice(CARDS)}",
                "seen": version,
            }
        ),
        *[
            json.dumps({"type": "act", "action": a, "seen": version, "seat": 1 - seat})
            for a in other_legal[:3]
        ],
    ]


def _harmless(reply: dict[str, Any]) -> bool:
    """A hostile frame's reply: an error, or the ok of a harmless request (a pong, history)."""
    return reply.get("type") in ("error", "pong", "history", "ok", "record")


GAMES = {"golf": {"rounds": 1}, "tonk": {"hands": 3}, "spit": {}, "speed": {}}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_hostile_pair_never_sees_a_hidden_card_and_changes_nothing(game: str) -> None:
    rng = random.Random(game)
    with serve() as (client, server, spy):
        sid = create(client, game, [{"name": "Ann"}, {"name": "Bob"}], options=GAMES[game])[
            "session"
        ]
        with (
            client.websocket_connect("/ws") as wa,
            client.websocket_connect("/ws") as wb,
            client.websocket_connect("/ws") as ww,
        ):
            a, b, w = Conn(wa), Conn(wb), Conn(ww)
            assert w.ask({"type": "watch", "session": sid})["type"] == "welcome"
            assert a.ask({"type": "join", "session": sid, "seat": 0})["type"] == "welcome"
            assert b.ask({"type": "join", "session": sid, "seat": 1})["type"] == "welcome"
            a.drain()
            session = server.hub.sessions[sid]
            conns = [a, b]
            acted = 0
            for step in range(250):
                g = session.game
                assert g is not None
                if g.is_over:
                    break
                seat = rng.choice([s for s in range(2) if g.legal_actions(s)] or [0])
                me, other = conns[seat], conns[1 - seat]
                me.drain()
                if step % 15 == 0:  # a hostile salvo first: every frame refused, nothing changed
                    before = (g.version, [s.n for s in session.streams], session.spectators.n)
                    others = [str(x) for x in g.legal_actions(1 - seat)]
                    for frame in hostile(seat, me.mirror.version or 0, others, rng):
                        if isinstance(frame, str) and any(
                            f'"{x}"' in frame for x in me.view["legal"]
                        ):
                            continue  # a guessed card that happens to be legal for this seat
                        reply = me.ask(frame)
                        assert _harmless(reply), (
                            frame[:80] if isinstance(frame, str) else frame,
                            reply,
                        )
                        if isinstance(frame, str) and '"act"' in frame[:14]:
                            assert reply["type"] == "error", (frame[:80], reply)
                    assert (
                        g.version,
                        [s.n for s in session.streams],
                        session.spectators.n,
                    ) == before
                    # the spectator may not act, take back or send entropy
                    for frame in (
                        {
                            "type": "act",
                            "action": str(g.legal_actions(seat)[0])
                            if g.legal_actions(seat)
                            else "draw",
                            "seen": g.version,
                        },
                        {"type": "act", "action": "draw", "seen": 0, "seat": 0},
                        {"type": "takeback", "op": "request"},
                        {"type": "entropy", "value": "x"},
                    ):
                        assert w.ask(frame)["code"] == "not-a-seat"
                    assert g.version == before[0]
                legal = me.view["legal"]
                if not legal or (seat not in me.view["to_act"] and not session.realtime):
                    continue
                reply = me.ask(
                    {"type": "act", "action": rng.choice(legal), "seen": me.mirror.version}
                )
                assert reply["type"] in ("ok", "error"), reply
                if reply["type"] == "ok":
                    acted += 1
                else:
                    assert reply["code"] in ("stale", "illegal"), reply
                # an old view of the other seat: stale (turn-based) or judged at that version
                if (
                    not session.realtime
                    and other.view["legal"]
                    and session.game
                    and session.game.version > 1
                ):
                    stale = other.ask({"type": "act", "action": other.view["legal"][0], "seen": 0})
                    assert stale["type"] == "error" and stale["code"] in ("stale", "illegal"), stale
            assert acted >= 1, acted
            if session.phase == "playing":  # a long real-time game: the host ends the match
                client.portal.call(lambda: server.host.deliver(session.end(server.host.clock())))
            assert session.phase == "over"
            for c, s in ((a, 0), (b, 1)):
                c.drain()
                assert c.view == session.game.view(s)  # type: ignore[union-attr]
                n = _numbered(c)
                assert _contiguous(n) and not c.gaps, n  # no event lost to another's failure
                for frame in (
                    {"type": "resync", "last": 0},
                    {"type": "resync", "last": 2**53},
                    {"type": "history", "since": 0},
                    {"type": "history", "since": 2**53},
                ):
                    assert c.ask(frame).get("type") in ("view", "update", "history"), frame
                assert c.ask({"type": "record"})["type"] == (
                    "record" if session.phase == "over" else "error"
                )
            w.drain()
            n = _numbered(w)
            assert _contiguous(n), n
        assert spy.frames > 100
    assert not spy.problems


def test_after_the_end_hidden_stays_as_the_game_shows_it_and_tokens_expire() -> None:
    clock = [1000.0]
    rng = random.Random(7)
    with serve(clock=lambda: clock[0]) as (client, server, _spy):
        sid = create(client, "golf", [{"name": "Ann"}, {"name": "Bob"}], options={"rounds": 1})[
            "session"
        ]
        with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as wb:
            a, b = Conn(wa), Conn(wb)
            token_a = a.ask({"type": "join", "session": sid, "seat": 0})["token"]
            token_b = b.ask({"type": "join", "session": sid, "seat": 1})["token"]
            session = server.hub.sessions[sid]
            conns = [a, b]
            for _ in range(400):
                g = session.game
                assert g is not None
                if g.is_over:
                    break
                seat = g.to_act[0]
                conns[seat].drain()
                action = rng.choice(conns[seat].view["legal"])
                reply = conns[seat].ask(
                    {"type": "act", "action": action, "seen": conns[seat].mirror.version}
                )
                assert reply["type"] == "ok", reply
            assert session.phase == "over"
            for c in conns:
                assert c.ask({"type": "record"})["type"] == "record"
                assert (
                    c.ask({"type": "act", "action": "draw", "seen": session.game.version})["code"]
                    == "game-over"
                )  # type: ignore[union-attr]
        # a forged token, another seat's token, the right one; then after token_ttl, expired
        with client.websocket_connect("/ws") as ws:
            c = Conn(ws)
            assert (
                c.ask({"type": "join", "session": sid, "seat": 0, "token": token_b})["code"]
                == "bad-token"
            )
            assert (
                c.ask(
                    {
                        "type": "join",
                        "session": sid,
                        "seat": 0,
                        "token": token_a[:-1] + ("B" if token_a.endswith("A") else "A"),
                    }
                )["code"]
                == "bad-token"
            )
            assert (
                c.ask({"type": "join", "session": sid, "seat": 0, "token": "t" * 129})["code"]
                == "bad-message"
            )
            assert (
                c.ask({"type": "join", "session": sid, "seat": 0, "token": token_a})["type"]
                == "welcome"
            )
        clock[0] += session.config.token_ttl + 1
        with client.websocket_connect("/ws") as ws:
            c = Conn(ws)
            assert (
                c.ask({"type": "join", "session": sid, "seat": 0, "token": token_a})["code"]
                == "token-expired"
            )
            assert c.ask({"type": "join", "session": sid, "seat": 0})["code"] == "seat-taken"


def test_a_token_opens_only_its_own_session_and_seat() -> None:
    with serve() as (client, _server, _spy):
        one = create(client, "tonk", [{"name": "A"}, {"name": "B"}])["session"]
        two = create(client, "tonk", [{"name": "A"}, {"name": "B"}])["session"]
        with client.websocket_connect("/ws") as ws:
            c = Conn(ws)
            token = c.ask({"type": "join", "session": one, "seat": 0})["token"]
        with client.websocket_connect("/ws") as ws:
            c = Conn(ws)
            assert c.ask({"type": "join", "session": two, "seat": 0})["type"] == "welcome"
            assert c.ask({"type": "leave"})["of"] == "leave"
            assert (
                c.ask({"type": "join", "session": two, "seat": 1, "token": token})["code"]
                == "bad-token"
            )
            assert (
                c.ask({"type": "join", "session": one, "seat": 1, "token": token})["code"]
                == "bad-token"
            )
            # joined to *one*, a message naming *two* is refused, not routed
            assert (
                c.ask({"type": "join", "session": one, "seat": 0, "token": token})["type"]
                == "welcome"
            )
            assert c.ask({"type": "history", "session": two})["code"] == "no-session"
            assert c.ask({"type": "join", "session": two, "seat": 1})["code"] == "no-session"
            assert c.ask({"type": "join", "session": one, "seat": 1})["code"] == "already-joined"


def test_two_connections_for_one_seat_and_a_reconnect_mid_game_resync() -> None:
    with serve() as (client, server, _spy):
        sid = create(client, "tonk", [{"name": "A"}, {"name": "B"}])["session"]
        with (
            client.websocket_connect("/ws") as wa,
            client.websocket_connect("/ws") as wb,
            client.websocket_connect("/ws") as wa2,
        ):
            a, b, a2 = Conn(wa), Conn(wb), Conn(wa2)
            token = a.ask({"type": "join", "session": sid, "seat": 0})["token"]
            b.ask({"type": "join", "session": sid, "seat": 1})
            assert (
                a2.ask({"type": "join", "session": sid, "seat": 0, "token": token})["type"]
                == "welcome"
            )
            session = server.hub.sessions[sid]
            conns = {0: [a, a2], 1: [b]}
            for i in range(12):
                g = session.game
                assert g is not None
                if g.is_over:
                    break
                seat = g.to_act[0]
                actor = conns[seat][i % len(conns[seat])]
                actor.drain()
                assert (
                    actor.ask(
                        {
                            "type": "act",
                            "action": actor.view["legal"][0],
                            "seen": actor.mirror.version,
                        }
                    )["type"]
                    == "ok"
                )
            a.drain()
            a2.drain()
            assert a.view == a2.view == session.game.view(0)  # type: ignore[union-attr]
            seat_numbers = [m for m in a.got if "n" in m]
            middle = seat_numbers[len(seat_numbers) // 2]["n"]
        with client.websocket_connect("/ws") as ws:  # back, having read up to *middle*
            c = Conn(ws)
            c.ask({"type": "join", "session": sid, "seat": 0, "token": token, "last": middle})
            caught = [m for m in c.got if "n" in m]
            tail = [m for m in seat_numbers if m["n"] > middle]
            if caught and caught[0].get("reason") == "resync":
                assert caught[0]["view"] == session.game.view(0)  # type: ignore[union-attr]
            else:
                assert caught == tail  # exactly what was missed, the very same messages
            spectator_stream = session.spectators.n
            numbered = [m["n"] for m in c.got if "n" in m]
            reply = c.ask({"type": "resync", "last": spectator_stream + 10**6})  # the future
            # a fresh view at the stream's current number, taking no new one (docs/session)
            assert reply["type"] == "view" and reply["reason"] == "resync"
            assert reply["n"] == max(numbered)
            assert reply["view"] == session.game.view(0)  # type: ignore[union-attr]


def test_a_seat_name_of_unicode_tricks_survives_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    names = ["\u00e9vil" + "x" * 100, "AB\u0301\U0001f0a1\u05d0" * 10]
    with serve(db) as (client, _server, _spy):
        for tricky in ("\u202eevil\u202c", "A\x00B", " \t ", "\u2066x"):  # shown as another name
            r = client.post("/api/sessions", json={"game": "golf", "seats": [{"name": tricky}, {}]})
            assert r.status_code == 400 and "name" in r.json()["error"], r.text
        made = create(client, "golf", [{"name": n} for n in names])
        sid = made["session"]
        assert [s["name"] for s in made["seats"]] == [n[:40] for n in names]
        with client.websocket_connect("/ws") as ws:
            c = Conn(ws)
            assert c.ask({"type": "join", "session": sid, "seat": 0})["players"] == [
                n[:40] for n in names
            ]
    with serve(db) as (client, server, _spy):
        assert sid in server.hub.sessions
        assert [s["name"] for s in client.get(f"/api/sessions/{sid}").json()["seats"]] == [
            n[:40] for n in names
        ]


DAMAGED_BOTS = [
    ("params = 'not json'", "params"),
    ("params = '[1, 2]'", "params"),
    ('params = \'{"seed": "x"}\'', "seed"),
    ("seat = 'x'", "seat"),
    ("seat = 7", "seat"),
    ("agent = 'spit-greedy'", "spit-greedy"),
]


@pytest.mark.parametrize(("edit", "word"), DAMAGED_BOTS, ids=[e for e, _ in DAMAGED_BOTS])
def test_a_damaged_bot_row_is_logged_and_the_server_starts(
    tmp_path: Path, edit: str, word: str, caplog: pytest.LogCaptureFixture
) -> None:
    db = str(tmp_path / "games.db")
    seats = [{"name": "Bot", "agent": "golf-greedy"}, {"name": "Bob"}]
    with serve(db) as (client, _, _):
        damaged = create(client, "golf", seats)["session"]
        fine = create(client, "golf", seats)["session"]
    with sqlite3.connect(db) as conn:
        conn.execute(f"UPDATE web_bots SET {edit} WHERE session = ?", (damaged,))
    with serve(db) as (client, server, _):  # the server starts; the other game's bot plays
        assert client.get(f"/api/sessions/{fine}").status_code == 200
        assert [b.seat for b in server.bots[fine]] == [0]
        assert damaged not in server.bots
    assert any(damaged in r.getMessage() and word in r.getMessage() for r in caplog.records)


def test_a_spectator_shown_the_game_late_is_not_told_the_live_version() -> None:
    """With a bot, spectators see the game two actions late: no reply of theirs (an error, an
    ok) may carry the live version, which tells them when a seat acted."""
    seats = [{"name": "Ann"}, {"name": "Bot", "agent": "golf-greedy", "params": {"seed": 1}}]
    with serve() as (client, server, _spy):
        sid = create(client, "golf", seats)["session"]
        with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as ww:
            a, w = Conn(wa), Conn(ww)
            w.ask({"type": "watch", "session": sid})
            a.ask({"type": "join", "session": sid, "seat": 0})
            session = server.hub.sessions[sid]
            while True:
                game = session.game
                mine = a.mirror.view is not None and 0 in a.view["to_act"]
                if game is not None and mine and a.mirror.version == game.version:
                    if game.version >= 4:
                        break  # the bot has played: the game waits for Ann
                    a.ask({"type": "act", "action": a.view["legal"][0], "seen": a.mirror.version})
                else:
                    a.recv()
            w.drain()
            live = session.game.version
            assert w.mirror.version is not None and w.mirror.version < live
            for frame in (
                {"type": "act", "action": "draw", "seen": 0},
                {"type": "history", "since": "x"},
                {"type": "leave"},
            ):
                reply = w.ask(frame)
                assert reply["type"] in ("error", "ok") and reply["version"] == w.mirror.version, (
                    reply
                )
            assert a.ask({"type": "history", "since": "x"})["version"] == live  # a seat: live


# -- the transport, through a real ``cardcore serve`` -----------------------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    import subprocess
    import sys

    db = tmp_path_factory.mktemp("hostile") / "games.db"
    cli = "import sys; from cardcore.cli import main; sys.exit(main())"
    command = [
        sys.executable,
        "-c",
        cli,
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--db",
        str(db),
    ]
    proc = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", proc.stderr.readline())
        assert found, "cardcore serve did not start"
        yield int(found.group(1))
    finally:
        proc.terminate()
        proc.wait(10)


def _raw_socket(port: int) -> Any:
    """A WebSocket opened by hand: the handshake done, the socket left to write frames on."""
    import base64
    import os
    import socket

    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(4096)
    assert head.startswith(b"HTTP/1.1 101"), head[:40]
    return sock


def _frame(text: str, declared: int | None = None) -> bytes:
    """A masked text frame of *text*, announcing *declared* bytes (default: its length)."""
    import os

    data = text.encode()
    n = len(data) if declared is None else declared
    mask = os.urandom(4)
    size = (
        bytes([0x80 | 127]) + n.to_bytes(8, "big")
        if n > 65535
        else bytes([0x80 | 126]) + n.to_bytes(2, "big")
    )
    return bytes([0x81]) + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def _read_all(sock: Any) -> bytes:
    got = b""
    try:
        while chunk := sock.recv(65536):
            got += chunk
    except OSError:
        pass
    return got


def test_a_frame_announced_past_1_mib_is_closed_1009_unread(served: int) -> None:
    import httpx

    for size in (2 << 20, 1 << 40):
        sock = _raw_socket(served)
        sock.sendall(_frame("abc", declared=size))
        got = _read_all(sock)
        sock.close()
        assert got[:1] == b"\x88" and got[2:4] == (1009).to_bytes(2, "big"), got[:60]
    assert httpx.get(f"http://127.0.0.1:{served}/api/games").status_code == 200


def test_a_socket_closed_mid_frame_frees_its_seat_and_the_server_stays_up(served: int) -> None:
    import httpx

    base = f"http://127.0.0.1:{served}"
    sid = httpx.post(
        base + "/api/sessions", json={"game": "tonk", "seats": [{"name": "A"}, {"name": "B"}]}
    ).json()["session"]
    sock = _raw_socket(served)
    sock.sendall(_frame(json.dumps({"type": "join", "session": sid, "seat": 0})))
    welcome = json.loads(_frame_text(sock))
    assert welcome["type"] == "welcome"
    sock.sendall(_frame('{"type": "act", "act', declared=300))  # half a frame, then gone
    sock.close()
    websockets = pytest.importorskip("websockets.sync.client")
    with websockets.connect(f"ws://127.0.0.1:{served}/ws") as ws:
        ws.send(json.dumps({"type": "join", "session": sid, "seat": 0, "token": welcome["token"]}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"  # the seat is free to take back
        ws.send(json.dumps({"type": "join", "session": sid, "seat": 1}))
        while (reply := json.loads(ws.recv(timeout=10)))["type"] != "error":
            pass
        assert reply["code"] == "already-joined"
    assert httpx.get(f"{base}/api/sessions/{sid}").json()["seats"][0]["claimed"]


def _frame_text(sock: Any) -> str:
    """Read one unmasked text frame the server sent (a short one)."""
    head = sock.recv(2)
    n = head[1] & 0x7F
    if n == 126:
        n = int.from_bytes(sock.recv(2), "big")
    elif n == 127:
        n = int.from_bytes(sock.recv(8), "big")
    data = b""
    while len(data) < n:
        data += sock.recv(n - len(data))
    return data.decode()


def test_swapped_stored_stream_rows_never_show_a_seat_another_seats_hand(tmp_path: Path) -> None:
    """Two seats' stored message rows swapped (one edit, as swapped token rows are): the
    tails are dropped on resume (they were served to the wrong seat, hidden hand included)."""
    from cardcore.session import Session, SQLiteStore
    from cardcore.session.protocol import dumps

    db = str(tmp_path / "s.db")
    store = SQLiteStore(db)
    session = Session.create("tonk", ["A", "B"], now=0.0, seed=3, store=store)
    token = session.handle("a", '{"type": "join", "seat": 0}', 0.0)[0].message["token"]
    session.handle("b", '{"type": "join", "seat": 1}', 0.0)
    game = session.game
    assert game is not None
    rng = random.Random(2)
    hidden: set[str] = set()
    for i in range(200):  # until seat 1's last message shows its hand and is shorter than a view
        seat = game.to_act[0]
        legal = [str(x) for x in game.legal_actions(seat) if not str(x).startswith("drop")]
        act = {"type": "act", "action": rng.choice(legal), "seen": game.version}
        session.handle("ab"[seat], json.dumps(act), 1.0 + i)
        hidden = set(card_words(game.view(1))) - set(card_words(game.view(0)))
        last = session.streams[1].tail[-1][1]
        fresh = dumps(session._view_message(session.streams[0], "resync", session.streams[0].n))
        if set(card_words(json.loads(last))) & hidden and len(last) < len(fresh):
            break
    session.disconnect("a", 300.0)
    session.disconnect("b", 300.0)
    store.close()
    with sqlite3.connect(db) as conn:  # the rows of seat.0 and seat.1 swapped
        for old, new in (("seat.0", "tmp"), ("seat.1", "seat.0"), ("tmp", "seat.1")):
            conn.execute("UPDATE messages SET stream = ? WHERE stream = ?", (new, old))
    store = SQLiteStore(db)
    try:
        resumed = Session.resume(store, session.id, 400.0)
    except (CorruptSessionError, StoreError):  # refused as damaged: nothing is shown to anybody
        store.close()
        return
    last_read = resumed.streams[0].n - 1
    join = {"type": "join", "seat": 0, "token": token, "last": last_read}
    out = resumed.handle("a", json.dumps(join), 401.0)
    store.close()
    shown = set().union(*(set(card_words(o.message)) for o in out))
    assert not shown & hidden
