"""A hostile-network and operator review of ``cardcore serve`` (2026-12-06).

What the earlier reviews (``test_hostile.py``, ``test_hostile_2026_12_03.py``,
``test_operator_2026_12_04.py``) did not do:

* every byte a seat receives, over ``/ws`` *and* over HTTP while the game is on (the
  session, the lobby listing, the record and replay refusals), checked mechanically
  against the cards that seat could legitimately know (the union of its views at every
  version and of the events the core redacts for it), for whole games of Golf, Tonk,
  Spit and Speed, independent of the session kit's ``LeakCheck``;
* a flood from one seat of a real-time game: the flooder is closed, the other seat
  loses no event, and the flooder resumes with its token and ``last``;
* a reconnect in the middle of a real-time Spit and Speed game, while the other seat
  keeps playing;
* a seat opened in more connections than ``max_per_seat``, spectators past
  ``max_spectators``;
* a person who sends ``leave`` keeps no session open (idle closing);
* a graceful shutdown mid-game (Tonk and Spit) keeps the game, tokens and streams;
* the documented limits are the enforced ones.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from cardcore.events import SPECTATOR, Event
from cardcore.session import Limits, Mirror, Outbound
from cardcore.session.patch import card_words
from cardcore.web import WebServer
from tests.web.helpers import TestClient, create, create_app

GAMES: dict[str, dict[str, Any]] = {
    "golf": {"rounds": 1},
    "tonk": {"hands": 1},
    "spit": {},
    "speed": {},
}


class Knowledge:
    """What each seat (and the spectators, ``None``) could legitimately know: every card of
    its view at every version the server showed, and of the events the core redacted for it.
    Also every frame each connection received, as raw text."""

    def __init__(self, server: WebServer) -> None:
        self.server = server
        self.known: dict[int | None, set[str]] = {0: set(), 1: set(), None: set()}
        self.subscribed: set[int] = set()
        self.raw: dict[str, list[str]] = {}
        server.host.observers.append(self.observe)

    def learn(self) -> None:
        for session in self.server.hub.sessions.values():
            game = session.game
            if game is None:
                continue
            if id(game) not in self.subscribed:
                self.subscribed.add(id(game))
                for seat in (0, 1):
                    game.events.subscribe(
                        Event,
                        lambda e, s=seat: self.known[s].update(card_words(e.to_json())),
                        seat=seat,
                    )
                game.events.subscribe(  # what spectators are told (a side card turned, then
                    Event,  # covered before any view showed it)
                    lambda e: self.known[None].update(card_words(e.to_json())),
                    seat=SPECTATOR,
                )
            for seat in (0, 1):
                self.known[seat].update(card_words(game.view(seat)))
            self.known[None].update(card_words(game.view(None)))

    def observe(self, out: Outbound) -> None:
        self.learn()
        self.raw.setdefault(out.conn, []).append(out.text)


@contextmanager
def serve(
    db: str | None = None, **kwargs: Any
) -> Iterator[tuple[TestClient, WebServer, Knowledge]]:
    kwargs.setdefault("bot_delay", 0.0)
    kwargs.setdefault("bot_pace", 0.05)
    # a client that asks, then pings, sends two messages a request: the default rate
    # limit would drop the pings of a fast test (the flood test sets its own)
    kwargs.setdefault("limits", Limits(rate=10_000.0, burst=10_000, close_after=10_000))
    server = WebServer(db, **kwargs)
    knowledge = Knowledge(server)
    with TestClient(create_app(server)) as client:
        yield client, server, knowledge


class Conn:
    """One WebSocket; every frame kept as text and as JSON; the view rebuilt."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.mirror = Mirror()
        self.texts: list[str] = []
        self.got: list[dict[str, Any]] = []
        self.pings = 0

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def recv(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        self.texts.append(text)
        message: dict[str, Any] = json.loads(text)
        self.got.append(message)
        self.mirror.feed(message)
        return message

    def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send *message* and a ping; the first reply to it (``{}`` if none), read to the pong."""
        start = len(self.got)
        self.send(message)
        self.pings += 1
        self.send({"type": "ping", "id": f"p{self.pings}"})
        while True:
            m = self.recv()
            if m["type"] == "pong" and m.get("id") == f"p{self.pings}":
                break
        for m in self.got[start:-1]:
            if m["type"] in ("ok", "error", "welcome", "history", "record", "pong"):
                return m
        return {}

    def drain(self) -> None:
        self.ask({"type": "ping"})

    @property
    def view(self) -> dict[str, Any]:
        assert self.mirror.view is not None
        return self.mirror.view

    def numbered(self) -> list[int]:
        return [m["n"] for m in self.got if "n" in m and m.get("reason") != "resync"]


def _contiguous(numbers: list[int]) -> bool:
    return numbers == list(range(numbers[0], numbers[0] + len(numbers))) if numbers else True


def _play(session: Any, conns: dict[int, Conn], rng: random.Random, moves: int) -> int:
    """Random legal moves by whoever may act, through the sockets; returns the moves made."""
    made = 0
    for _ in range(moves * 4):
        game = session.game
        if game is None or game.is_over or made >= moves:
            break
        seats = [s for s in conns if game.legal_actions(s)]
        if not seats:
            break
        seat = rng.choice(seats)
        me = conns[seat]
        me.drain()
        legal = [a for a in me.view["legal"] if a not in ("resign", "drop")]
        if not legal:
            continue
        reply = me.ask({"type": "act", "action": rng.choice(legal), "seen": me.mirror.version})
        assert reply.get("type") in ("ok", "error"), reply
        if reply["type"] == "ok":
            made += 1
        else:
            assert reply["code"] in ("stale", "illegal"), reply
    return made


# -- every byte a seat receives -----------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_byte_a_seat_receives_names_only_cards_it_may_know(game: str) -> None:
    rng = random.Random(f"bytes-{game}")
    with serve() as (client, server, knowledge):
        for _ in range(20):  # the server draws the seed: a Tonk natural at the deal has no game
            sid = create(client, game, [{"name": "Ann"}, {"name": "Bob"}], options=GAMES[game])[
                "session"
            ]
            fresh = server.hub.sessions[sid]  # nobody joined: nothing dealt, nothing known yet
            if not fresh.setup.build(fresh.seed).is_over:
                break
        http: dict[int | None, list[str]] = {0: [], 1: [], None: []}

        def poll(who: int | None) -> None:
            """What a curious client may fetch over HTTP while the game is on."""
            for path in (
                f"/api/sessions/{sid}",
                "/api/sessions",
                "/api/sessions?limit=200",
                f"/api/sessions/{sid}/record",
                f"/api/sessions/{sid}/replay/1",
                f"/api/sessions/{sid}/replay/999999",
            ):
                r = client.get(path)
                assert r.status_code in (200, 409), (path, r.status_code, r.text[:200])
                http[who].append(r.text)

        with (
            client.websocket_connect("/ws") as wa,
            client.websocket_connect("/ws") as wb,
            client.websocket_connect("/ws") as ww,
        ):
            a, b, w = Conn(wa), Conn(wb), Conn(ww)
            assert w.ask({"type": "watch", "session": sid})["type"] == "welcome"
            assert a.ask({"type": "join", "session": sid, "seat": 0})["type"] == "welcome"
            assert b.ask({"type": "join", "session": sid, "seat": 1})["type"] == "welcome"
            session = server.hub.sessions[sid]
            knowledge.learn()
            if game in ("tonk", "speed"):  # the check has teeth: each hand is its own at the deal
                assert knowledge.known[0] - knowledge.known[1]
                assert knowledge.known[1] - knowledge.known[0]
                assert not (knowledge.known[0] - knowledge.known[1]) & knowledge.known[None]
            conns = {0: a, 1: b}
            for _ in range(30):
                if session.game is None or session.game.is_over:
                    break
                _play(session, conns, rng, 8)
                for who in (0, 1, None):
                    poll(who)
                for c in (a, b):  # the protocol's other readers, mid-game
                    c.ask({"type": "history", "since": 0})
                    c.ask({"type": "resync", "last": 0})
                    over = session.game is not None and session.game.is_over
                    assert c.ask({"type": "record"})["type"] == ("record" if over else "error")
            if session.phase == "playing":  # a long real-time game: the host ends it
                client.portal.call(lambda: server.host.deliver(session.end(server.host.clock())))
            for c in (a, b, w):
                c.drain()
            assert session.phase == "over"
            for seat, c in ((0, a), (1, b), (None, w)):
                named: set[str] = set()
                for text in c.texts:
                    message = json.loads(text)
                    if message["type"] == "record":  # asked for after the end only
                        continue
                    named.update(card_words(message))
                for text in http[seat]:
                    named.update(card_words(json.loads(text)))
                extra = named - knowledge.known[seat]
                assert not extra, f"seat {seat} received {sorted(extra)} it could not know"
            # no frame went to a connection other than these three and no bot
            assert len(knowledge.raw) == 3


# -- a flood in a real-time game -----------------------------------------------------------


def test_a_flooding_seat_is_closed_the_other_loses_nothing_and_the_flooder_resumes() -> None:
    # a virtual clock: no token is earned during the flood, so the drops stay in a row
    clock = [1000.0]
    limits = Limits(rate=1.0, burst=40, close_after=50)
    rng = random.Random("flood")
    with serve(limits=limits, clock=lambda: clock[0]) as (client, server, _knowledge):
        sid = create(client, "spit", [{"name": "Ann"}, {"name": "Bob"}])["session"]
        with client.websocket_connect("/ws") as wb:
            b = Conn(wb)
            with client.websocket_connect("/ws") as wa:
                a = Conn(wa)
                token = a.ask({"type": "join", "session": sid, "seat": 0})["token"]
                b.ask({"type": "join", "session": sid, "seat": 1})
                session = server.hub.sessions[sid]
                clock[0] += 100  # full buckets
                _play(session, {0: a, 1: b}, rng, 4)
                for _ in range(40):  # on to the play: Bob, ready first, could wait for Ann
                    game_now = session.game
                    if game_now is None or game_now.view(1)["table"]["phase"] != "setup":
                        break
                    _play(session, {0: a, 1: b}, rng, 1)
                a.drain()
                last = a.numbered()[-1]
                kept = a.mirror
                clock[0] += 100
                version = session.game.version  # type: ignore[union-attr]
                flooder = [cid for cid, c in session.conns.items() if c.seat == 0]
                for _ in range(200):  # far past burst + close_after, never read
                    a.send({"type": "act", "action": "spit", "seen": 0})
                for _ in range(200):  # the server closes it (polled: a recv would block)
                    if not set(flooder) & set(session.conns):
                        break
                    time.sleep(0.05)
                closed = not set(flooder) & set(session.conns)
                while closed:
                    try:
                        m = a.recv()
                    except Exception:  # the server closed the socket
                        break
                    assert m["type"] in ("error", "presence", "update", "view", "ok"), m
                    if m["type"] == "error":
                        assert m["code"] in ("rate-limited", "illegal", "stale", "not-started")
                assert closed, "a flood past close_after must close the connection"
                errors = [m for m in a.got if m.get("code") == "rate-limited"]
                # the clock stood still: the first drop is told, and the close (its error carries it)
                assert len(errors) == 2, len(errors)
            # the other seat plays on, with every event of its stream
            clock[0] += 100
            made = _play(session, {1: b}, rng, 5)
            b.drain()
            assert _contiguous(b.numbered()), b.numbered()
            assert b.view == session.game.view(1)  # type: ignore[union-attr]
            assert session.game.version >= version + made  # type: ignore[union-attr]
        with client.websocket_connect("/ws") as wa:
            a = Conn(wa)
            a.mirror = kept
            welcome = a.ask(
                {"type": "join", "session": sid, "seat": 0, "token": token, "last": last}
            )
            assert welcome["type"] == "welcome", welcome
            a.drain()
            caught = [m for m in a.got if "n" in m]
            assert caught, "nothing resent after the flood"
            if caught[0].get("reason") != "resync":
                assert caught[0]["n"] == last + 1, (last, caught[0]["n"])
                assert _contiguous([m["n"] for m in caught])
            assert a.view == session.game.view(0)  # type: ignore[union-attr]


# -- a reconnect in the middle of a real-time game --------------------------------------------


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_a_real_time_seat_reconnects_mid_game_and_gets_exactly_what_it_missed(game: str) -> None:
    rng = random.Random(f"again-{game}")
    with serve() as (client, server, _knowledge):
        sid = create(client, game, [{"name": "Ann"}, {"name": "Bob"}])["session"]
        with client.websocket_connect("/ws") as wb:
            b = Conn(wb)
            with client.websocket_connect("/ws") as wa:
                a = Conn(wa)
                token = a.ask({"type": "join", "session": sid, "seat": 0})["token"]
                b.ask({"type": "join", "session": sid, "seat": 1})
                session = server.hub.sessions[sid]
                _play(session, {0: a, 1: b}, rng, 8)
                a.drain()
                before = [m for m in a.got if "n" in m and m.get("reason") != "resync"]
                last = before[-1]["n"]
                kept = a.mirror  # what Ann's client keeps across the reconnect
            # Ann is away; Bob plays on (a real-time game does not wait)
            _play(session, {1: b}, rng, 6)
            game_now = session.game
            assert game_now is not None
            stream_n = session.streams[0].n
            with client.websocket_connect("/ws") as wa:
                a = Conn(wa)
                a.mirror = kept
                welcome = a.ask(
                    {"type": "join", "session": sid, "seat": 0, "token": token, "last": last}
                )
                assert welcome["type"] == "welcome", welcome
                assert welcome["last"] == stream_n, (welcome["last"], stream_n)
                a.drain()
                caught = [m for m in a.got if "n" in m]
                if stream_n == last:
                    assert not caught or caught[0].get("reason") == "resync"
                elif caught and caught[0].get("reason") != "resync":
                    assert [m["n"] for m in caught] == list(range(last + 1, stream_n + 1))
                else:
                    assert caught and caught[0]["view"] == game_now.view(0)
                # Ann acts on what she now sees: accepted, or refused as stale/illegal only
                if game_now.legal_actions(0) and not game_now.is_over:
                    fresh = game_now.view(0)
                    reply = a.ask(
                        {"type": "act", "action": fresh["legal"][0], "seen": fresh["version"]}
                    )
                    assert reply["type"] == "ok", reply
                b.drain()
                a.drain()
                assert _contiguous(b.numbered())
                assert b.view == game_now.view(1)
                assert a.view == game_now.view(0)


# -- connections per seat, spectators ------------------------------------------------------


def test_a_seat_opened_in_more_connections_than_max_per_seat_is_refused_full() -> None:
    limits = Limits(max_per_seat=2, max_spectators=2)
    with serve(limits=limits) as (client, server, _knowledge):
        sid = create(client, "golf", [{"name": "Ann"}, {"name": "Bob"}], options=GAMES["golf"])[
            "session"
        ]
        with (
            client.websocket_connect("/ws") as w1,
            client.websocket_connect("/ws") as w2,
            client.websocket_connect("/ws") as w3,
            client.websocket_connect("/ws") as s1,
            client.websocket_connect("/ws") as s2,
            client.websocket_connect("/ws") as s3,
        ):
            c1, c2, c3 = Conn(w1), Conn(w2), Conn(w3)
            token = c1.ask({"type": "join", "session": sid, "seat": 0})["token"]
            assert (
                c2.ask({"type": "join", "session": sid, "seat": 0, "token": token})["type"]
                == "welcome"
            )
            third = c3.ask({"type": "join", "session": sid, "seat": 0, "token": token})
            assert third.get("code") == "full", third
            assert "token" not in json.dumps(third)
            spec = [Conn(s1), Conn(s2), Conn(s3)]
            assert spec[0].ask({"type": "watch", "session": sid})["type"] == "welcome"
            assert spec[1].ask({"type": "watch", "session": sid})["type"] == "welcome"
            assert spec[2].ask({"type": "watch", "session": sid}).get("code") == "full"
            # the refused ones hold nothing: the seat is still Ann's two connections'
            session = server.hub.sessions[sid]
            assert sorted(c.seat for c in session.conns.values() if c.seat is not None) == [0, 0]


# -- idle closing ------------------------------------------------------------------------------


def test_a_person_who_left_keeps_no_session_open() -> None:
    clock = [5000.0]
    with serve(clock=lambda: clock[0]) as (client, server, _knowledge):
        sid = create(client, "golf", [{"name": "Ann"}, {"name": "Bot", "agent": "golf-greedy"}])[
            "session"
        ]
        with client.websocket_connect("/ws") as wa:
            a = Conn(wa)
            assert a.ask({"type": "join", "session": sid, "seat": 0})["type"] == "welcome"
            assert server.sweep(now=clock[0]) == []
            assert a.ask({"type": "leave"})["type"] == "ok"
            assert server.sweep(now=clock[0]) == []  # idle from now on
            clock[0] += 3601
            assert server.sweep(now=clock[0]) == [sid], "a connection that left still holds"


# -- graceful shutdown ------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["tonk", "spit"])
def test_a_graceful_shutdown_mid_game_keeps_the_game_tokens_and_streams(
    game: str, tmp_path: Path
) -> None:
    db = str(tmp_path / "g.db")
    rng = random.Random(f"stop-{game}")
    with serve(db) as (client, server, _knowledge):
        for _ in range(20):  # a deal that ends the game at once (a Tonk natural) has no middle
            sid = create(client, game, [{"name": "Ann"}, {"name": "Bob"}], options=GAMES[game])[
                "session"
            ]
            with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as wb:
                a, b = Conn(wa), Conn(wb)
                tokens = [
                    a.ask({"type": "join", "session": sid, "seat": 0})["token"],
                    b.ask({"type": "join", "session": sid, "seat": 1})["token"],
                ]
                session = server.hub.sessions[sid]
                if session.game is not None and not session.game.is_over:
                    break
        with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as wb:
            a, b = Conn(wa), Conn(wb)
            for seat, conn in ((0, a), (1, b)):
                conn.ask({"type": "join", "session": sid, "seat": seat, "token": tokens[seat]})
            assert _play(session, {0: a, 1: b}, rng, 6) >= 1
            a.drain()
            b.drain()
            saved = session.game.save()  # type: ignore[union-attr]
            views = [session.game.view(s) for s in (0, 1)]  # type: ignore[union-attr]
            lasts = [a.numbered()[-1], b.numbered()[-1]]
    # the server stopped (lifespan); a new one on the same file
    with serve(db) as (client, server, _knowledge):
        session = server.hub.sessions[sid]
        assert session.phase == "playing"
        assert session.game is not None and session.game.save() == saved
        r = client.get(f"/api/sessions/{sid}")
        assert r.status_code == 200 and r.json()["phase"] == "playing"
        for seat in (0, 1):
            with client.websocket_connect("/ws") as ws:
                c = Conn(ws)
                welcome = c.ask(
                    {
                        "type": "join",
                        "session": sid,
                        "seat": seat,
                        "token": tokens[seat],
                        "last": lasts[seat],
                    }
                )
                assert welcome["type"] == "welcome", welcome
                assert "token" not in welcome or welcome["token"] is None
                assert session.game.view(seat) == views[seat]


# -- documented limits --------------------------------------------------------------------------


def test_the_documented_limits_are_the_enforced_ones() -> None:
    from cardcore.session import aio
    from cardcore.web import app

    limits = app.ServerLimits()
    assert (limits.max_sessions, limits.max_bot_games, limits.max_per_client) == (1000, 4, 0)
    assert (limits.idle_close, limits.idle_when_full, limits.page, limits.max_page) == (
        3600.0,
        300.0,
        50,
        200,
    )
    assert app.MAX_BODY == 65536 and app.MAX_DEPTH == 32 and app.MAX_FRAME == 1 << 20
    assert aio.MAX_QUEUED == 1 << 20 and aio.QUEUE == 4096
    assert "1 MiB" in app.TOO_SLOW and "4,096" in app.TOO_SLOW


# -- takebacks abused ---------------------------------------------------------------------------


def test_a_repeated_takeback_accept_changes_nothing_for_the_others() -> None:
    with serve() as (client, server, _knowledge):
        sid = create(
            client,
            "golf",
            [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}],
            options=GAMES["golf"],
        )["session"]
        with (
            client.websocket_connect("/ws") as wa,
            client.websocket_connect("/ws") as wb,
            client.websocket_connect("/ws") as wc,
        ):
            conns = {0: Conn(wa), 1: Conn(wb), 2: Conn(wc)}
            for seat, c in conns.items():
                assert c.ask({"type": "join", "session": sid, "seat": seat})["type"] == "welcome"
            session = server.hub.sessions[sid]
            game = session.game
            assert game is not None
            while "take" not in [str(a) for a in game.legal_actions(game.to_act[0])]:
                seat = game.to_act[0]
                me = conns[seat]
                me.drain()
                reply = me.ask(
                    {"type": "act", "action": me.view["legal"][0], "seen": me.mirror.version}
                )
                assert reply["type"] == "ok", reply
            seat = game.to_act[0]
            me = conns[seat]
            me.drain()
            assert (
                me.ask({"type": "act", "action": "take", "seen": me.mirror.version})["type"] == "ok"
            )
            assert me.ask({"type": "takeback", "op": "request"})["type"] == "ok"
            other = conns[(seat + 1) % 3]
            assert other.ask({"type": "takeback", "op": "accept"})["type"] == "ok"
            for c in conns.values():
                c.drain()
            streams = [s.n for s in session.streams]
            # the same seat accepts again, and again: nothing new to tell anybody
            for _ in range(3):
                other.ask({"type": "takeback", "op": "accept"})
            for c in conns.values():
                c.drain()
            assert [s.n for s in session.streams] == streams


# -- operator: a database the server cannot use ---------------------------------------------------


def test_a_database_with_another_web_bots_table_is_one_clear_store_error(tmp_path: Path) -> None:
    """web.rst: a database that cannot be opened or written is one line and exit status 2;
    a ``sessions`` table of another layout already is (StoreError naming the file)."""
    import sqlite3

    from cardcore.errors import CardcoreError

    db = str(tmp_path / "other.db")
    with sqlite3.connect(db) as c:
        c.execute("CREATE TABLE web_bots (x INTEGER)")
    try:
        server = WebServer(db)
        with TestClient(create_app(server)) as client:
            client.get("/api/sessions")
    except CardcoreError as exc:
        assert "other.db" in str(exc)
    except Exception as exc:  # a raw error from the store
        pytest.fail(f"{type(exc).__module__}.{type(exc).__name__}: {exc}")
    else:
        pytest.fail("a web_bots table of another layout was used as the server's own")


# -- against a bot, with a spectator two actions late -------------------------------------------

BOTS = {"tonk": "tonk-heuristic", "spit": "spit-greedy", "speed": "spit-greedy"}


@pytest.mark.parametrize("game", sorted(BOTS))
def test_against_a_bot_the_person_and_the_late_spectator_get_only_what_they_may_know(
    game: str,
) -> None:
    rng = random.Random(f"bot-{game}")
    with serve() as (client, server, knowledge):
        sid = create(
            client,
            game,
            [{"name": "Ann"}, {"name": "Bot", "agent": BOTS[game], "params": {"seed": 3}}],
            options=GAMES[game],
        )["session"]
        with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as ww:
            a, w = Conn(wa), Conn(ww)
            assert w.ask({"type": "watch", "session": sid})["type"] == "welcome"
            assert a.ask({"type": "join", "session": sid, "seat": 0})["type"] == "welcome"
            session = server.hub.sessions[sid]
            for step in range(600):
                if session.game is None or session.game.is_over or session.game.version > 80:
                    break
                if not _play(session, {0: a}, rng, 1):
                    time.sleep(0.005)  # the bot's turn: it thinks in a worker thread
                    a.drain()
                if step % 10:
                    continue
                w.ask({"type": "history", "since": 0})
                w.ask({"type": "resync", "last": 0})
                # the spectators are shown the game late: never the live version
                if session.game is not None and not session.game.is_over and w.mirror.view:
                    assert w.mirror.view["version"] <= session.game.version
            assert session.game is not None
            played = session.game.version
            ended = session.game.is_over  # a Tonk hand may end early (a drop, a tonk)
            if session.phase == "playing":
                client.portal.call(lambda: server.host.deliver(session.end(server.host.clock())))
            a.drain()
            w.drain()
            assert played >= 10 or ended, played
            assert session.phase == "over"
            assert a.view == session.game.view(0)  # type: ignore[union-attr]
            assert w.view == session.game.view(None)  # type: ignore[union-attr]
            for seat, c in ((0, a), (None, w)):
                named: set[str] = set()
                for text in c.texts:
                    named.update(card_words(json.loads(text)))
                extra = named - knowledge.known[seat]
                assert not extra, f"{seat} received {sorted(extra)} it could not know"
            assert _contiguous(a.numbered()) and _contiguous(w.numbered())


# -- a session closed as idle, as the operator and its watchers see it ---------------------------


def test_a_session_closed_as_idle_is_told_to_its_watchers_and_shown_closed() -> None:
    clock = [9000.0]
    with serve(clock=lambda: clock[0]) as (client, server, _knowledge):
        sid = create(client, "golf", [{"name": "Ann"}, {"name": "Bot", "agent": "golf-greedy"}])[
            "session"
        ]
        with client.websocket_connect("/ws") as wa:
            a = Conn(wa)
            assert a.ask({"type": "join", "session": sid, "seat": 0})["type"] == "welcome"
        with client.websocket_connect("/ws") as ww:
            w = Conn(ww)
            assert w.ask({"type": "watch", "session": sid})["type"] == "welcome"
            assert server.sweep(now=clock[0]) == []
            clock[0] += 3601
            assert server.sweep(now=clock[0]) == [sid]
            kinds = []
            for _ in range(20):
                try:
                    kinds.append(w.recv()["type"])
                except Exception:  # the server closed the socket after telling it
                    break
                if kinds[-1] == "closed":
                    break
            assert "closed" in kinds, kinds
        r = client.get(f"/api/sessions/{sid}")  # gone from this process, as web.rst says
        assert r.status_code == 404, r.text
        assert sid not in [s["session"] for s in client.get("/api/sessions").json()]
        assert "answers 404" in (Path(__file__).parents[2] / "docs" / "web.rst").read_text()
