"""A hostile-client review of ``cardcore serve``'s newest parts (2026-12-18): the lobby's
``time`` clocks, the WebSocket connection limits (``max_sockets``, ``max_sockets_per_client``,
close code 1013), ``--forwarded-allow-ips`` and ``GET /api/sessions/{id}`` showing the clocks.

What is tried (and not already in ``test_web_clocks_2026_12_17.py``,
``test_socket_limits_2026_12_17.py`` or the earlier hostile files):

* odd JSON for ``time``: ``1e309``, huge integers, ``"NaN"`` text, nested objects, ``-0.0``,
  a denormal, odd fallbacks, a lone surrogate, a key in another case, a key named twice;
* a seat acting at the very instant its clock runs out, in a turn-based and a real-time game;
* a clock running out while the seat's socket is away, and the rejoin with ``last``;
* one seat's token replayed in two sockets under ``max_sockets_per_client``;
* spectators of timed games (they get no clocks) and a real-time seat's clocks (its own only);
* a seeded hostile driver (stale ``seen``, another seat's action, reconnects with odd ``last``,
  junk frames, takebacks, acts at deadlines) checking after every step: every view equals the
  server's, no stream message lost or doubled, every card conserved, no frame leaks;
* a real uvicorn built by ``cardcore serve`` (in this process): the per-client count after
  abnormal closes (an oversize frame, a reset mid-frame, a close without a close frame) and
  ``X-Forwarded-For`` believed only from the proxy named;
* :class:`~cardcore.web.app.ServerLimits` given counts that are not whole numbers;
* the seat page (Chromium, skipped without it) when the game clock ends the game.

Every game played here is dealt from a fixed seed (sessions made with ``hub.create``), except
where only the lobby's answer is looked at.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import random
import socket
import struct
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from starlette.websockets import WebSocketDisconnect

with warnings.catch_warnings():  # starlette asks for httpx2; httpx still works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cardcore.session import SessionConfig, TimeControl
from cardcore.testing import assert_conserved
from cardcore.web import WebServer, create_app
from cardcore.web.app import ServerLimits, WebError
from tests.web.helpers import Player, create, serve

STREAM = ("update", "view", "lobby", "takeback", "reveal")


class FakeClock:
    """The server's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def _post_time(client: Any, time_json: str) -> Any:
    body = '{"game": "golf", "seats": [{"name": "A"}, {"name": "B"}], "time": ' + time_json + "}"
    return client.post(
        "/api/sessions",
        content=body.encode("utf-8", "surrogatepass"),
        headers={"content-type": "application/json"},
    )


# -- the lobby's ``time``: odd JSON ------------------------------------------------------------


@pytest.mark.parametrize(
    ("time_json", "said"),
    [
        ('{"turn": 1e309}', "'time' 'turn' must be null or seconds from 1 to 86400, not inf"),
        ('{"total": -1e309}', "'time' 'total' must be null or seconds from 1 to 86400, not -inf"),
        ('{"turn": "NaN"}', "'time' 'turn' must be null or seconds from 1 to 86400, not 'NaN'"),
        ('{"total": "Infinity"}', "'time' 'total' must be null or seconds"),
        ('{"turn": {"seconds": 60}}', "'time' 'turn' must be null or seconds"),
        ('{"turn": [60]}', "'time' 'turn' must be null or seconds"),
        ('{"turn": -0.0}', "'time' 'turn' must be null or seconds from 1 to 86400, not -0.0"),
        ('{"turn": 0}', "'time' 'turn' must be null or seconds"),
        ('{"turn": 1e-320}', "'time' 'turn' must be null or seconds"),
        ('{"turn": 86400.00001}', "'time' 'turn' must be null or seconds"),
        ('{"turn": 1' + "0" * 400 + "}", "'time' 'turn' must be null or seconds"),
        ('{"turn": 1' + "0" * 5000 + "}", "a number too long to read"),
        ('{"turn": false}', "'time' 'turn' must be null or seconds from 1 to 86400, not false"),
        ('{"turn": 60, "total": true}', "'time' 'total' must be null or seconds"),
        ('{"turn": 60, "fallback": 1}', "'time' 'fallback' must be one of"),
        ('{"turn": 60, "fallback": ["first"]}', "'time' 'fallback' must be one of"),
        ('{"turn": 60, "fallback": {"first": 1}}', "'time' 'fallback' must be one of"),
        ('{"turn": 60, "fallback": "FIRST"}', "'time' 'fallback' must be one of"),
        ('{"turn": 60, "fallback": "first\\u0000"}', "'time' 'fallback' must be one of"),
        ('{"turn": 60, "fallback": "\\ud800"}', "'time.fallback' holds text that is not UTF-8"),
        ('{"\\ud800": 60}', "'time' has a key that is not UTF-8"),
        ('{"Turn": 60}', "not 'Turn'"),
        ('{"turn": 60, "turn": 61}', "the request names 'turn' twice"),
        ("true", "'time' must be an object"),
        ("0", "'time' must be an object"),
        ('""', "'time' must be an object"),
    ],
)
def test_odd_json_for_time_is_refused_naming_it_and_creates_nothing(
    time_json: str, said: str
) -> None:
    with serve() as (client, server, _):
        r = _post_time(client, time_json)
        assert r.status_code == 400, r.text
        assert said in r.json()["error"]
        assert "Traceback" not in r.text
        assert not server.hub.sessions


@pytest.mark.parametrize(
    ("time_json", "turn", "total"),
    [
        ('{"turn": 1}', 1.0, None),
        ('{"turn": 1E3, "total": 86400}', 1000.0, 86400.0),
        ('{"turn": 1.5}', 1.5, None),
        ('{"total": 3.0e2}', None, 300.0),
        ("{}", None, None),
        ('{"fallback": null}', None, None),
    ],
)
def test_edge_times_are_taken_and_shown_by_the_session_answer(
    time_json: str, turn: float | None, total: float | None
) -> None:
    with serve() as (client, server, _):
        r = _post_time(client, time_json)
        assert r.status_code == 201, r.text
        made = r.json()
        shown = client.get(f"/api/sessions/{made['session']}").json()["time"]
        assert shown == made["time"]
        assert (shown["turn"], shown["total"], shown["fallback"]) == (turn, total, "first")
        config = server.hub.sessions[made["session"]].config.time
        assert (config.turn, config.total) == (turn, total)


# -- clocks over the wire -----------------------------------------------------------------------


def _session(server: WebServer, game: str, clock: FakeClock, seed: int, **time: Any) -> str:
    """A two-person session dealt from *seed*, with the clocks *time*."""
    config = SessionConfig(time=TimeControl(**time), spectator_delay=0, limits=server.limits)
    session = server.hub.create(game, ["Ann", "Bob"], now=clock.now, seed=seed, config=config)
    return session.id


def _game(session: Any) -> Any:
    """The session's game (dealt)."""
    assert session.game is not None
    return session.game


@contextmanager
def _socket(client: Any, first: dict[str, Any]) -> Iterator[tuple[Player, dict[str, Any]]]:
    with client.websocket_connect("/ws") as ws:
        player = Player(ws)
        player.send(first)
        yield player, player.until("welcome")


def _until_answer(player: Player, ref: int) -> list[dict[str, Any]]:
    """Every message up to the ``ok`` or ``error`` answering *ref*."""
    got = []
    while True:
        message = player.recv()
        got.append(message)
        if message["type"] in ("ok", "error") and message.get("id") == ref:
            return got


def _settle(player: Player) -> None:
    """Read everything the server has for *player* (a ping's pong comes after it)."""
    player.send({"type": "ping", "t": 1})
    player.until("pong")


@pytest.mark.parametrize("game", ["golf", "tonk"])
def test_an_act_at_the_instant_the_clock_runs_out_is_stale_after_the_timeout(game: str) -> None:
    """A message that arrives at the deadline is read after the timeout is played: the seat's
    own act (on the view before) is refused ``stale``, never played as a second move."""
    clock = FakeClock()
    with serve(clock=clock) as (client, server, dog):
        sid = _session(server, game, clock, seed=11, turn=30)
        with ExitStack() as stack:
            a, _ = stack.enter_context(_socket(client, {"type": "join", "session": sid, "seat": 0}))
            b, _ = stack.enter_context(_socket(client, {"type": "join", "session": sid, "seat": 1}))
            players = [a, b]
            views = [a.until("view"), b.until("view")]
            (seat,) = views[0]["view"]["to_act"]
            me, other = players[seat], players[1 - seat]
            deadline = views[seat]["clocks"]["turn"][str(seat)]
            assert deadline == 1_030.0
            clock.now = deadline  # no tick: the act itself comes at the deadline
            me.send(
                {
                    "type": "act",
                    "action": views[seat]["view"]["legal"][0],
                    "seen": views[seat]["version"],
                    "id": 7,
                }
            )
            got = _until_answer(me, 7)
            session = server.hub.sessions[sid]
            version = _game(session).version
            updates = [m for m in got if m["type"] == "update"]
            assert [u["action"]["cause"] for u in updates] == ["timeout"] * version
            assert all(u["action"]["seat"] == seat for u in updates)
            assert got[-1]["type"] == "error" and got[-1]["code"] == "stale"
            assert "look again" in got[-1]["message"]
            assert all(e[0] == seat for e in _game(session).record_entries())  # nothing else
            _settle(other)
            versions = [m["version"] for m in other.received if m["type"] == "update"]
            assert versions == list(range(1, version + 1))  # each once, in order
            assert other.mirror.view == session.views[1 - seat]
            assert dog.frames > 0


def test_a_real_time_act_at_the_deadline_is_read_after_the_timeout() -> None:
    """Speed: both idle clocks run out at once; a play sent at that instant comes after both
    timeouts (``stuck``, ``stuck``: the side cards turn) and is answered, never lost."""
    clock = FakeClock()
    with serve(clock=clock) as (client, server, _):
        sid = _session(server, "speed", clock, seed=5, turn=30)
        with ExitStack() as stack:
            a, _ = stack.enter_context(_socket(client, {"type": "join", "session": sid, "seat": 0}))
            b, _ = stack.enter_context(_socket(client, {"type": "join", "session": sid, "seat": 1}))
            va, vb = a.until("view"), b.until("view")
            assert set(va["clocks"]["turn"]) == {"0"} and set(vb["clocks"]["turn"]) == {"1"}
            clock.now = vb["clocks"]["turn"]["1"]
            action = vb["view"]["legal"][0]
            b.send({"type": "act", "action": action, "seen": vb["version"], "id": 3})
            got = _until_answer(b, 3)
            causes = [m["action"]["cause"] for m in got if m["type"] == "update"]
            assert causes[:2] == ["timeout", "timeout"]
            assert got[-1]["type"] in ("ok", "error")
            if got[-1]["type"] == "error":
                assert got[-1]["code"] in ("stale", "illegal") and got[-1]["message"]
            session = server.hub.sessions[sid]
            _settle(a)
            _settle(b)
            for seat, player in enumerate((a, b)):
                assert player.mirror.version == _game(session).version
                assert player.mirror.view == session.views[seat]
            assert_conserved(_game(session))


def test_a_clock_running_out_while_the_seat_is_away_is_caught_up_exactly_once() -> None:
    clock = FakeClock()
    with serve(clock=clock) as (client, server, _):
        sid = _session(server, "golf", clock, seed=3, turn=10)
        session = server.hub.sessions[sid]
        with _socket(client, {"type": "join", "session": sid, "seat": 1}) as (bob, _):
            with _socket(client, {"type": "join", "session": sid, "seat": 0}) as (ann, welcome):
                view = ann.until("view")
                last = view["n"]
            for _ in range(4):  # Ann is away: her turns are played for her, Bob's too
                clock.now += 10.5
                _settle(bob)
            version = _game(session).version
            assert version > 2
            first = {"type": "join", "session": sid, "seat": 0}
            with _socket(client, {**first, "token": welcome["token"], "last": last}) as (back, _):
                _settle(back)
                assert back.mirror.version == version
                assert back.mirror.view == session.views[0]
                numbers = [m["n"] for m in back.received if m["type"] in STREAM]
                assert numbers == sorted(set(numbers))  # nothing twice
            bob_versions = [m["version"] for m in bob.received if m["type"] == "update"]
            assert bob_versions == list(range(1, version + 1))
            assert {m["action"]["cause"] for m in bob.received if m["type"] == "update"} == {
                "timeout"
            }
            assert_conserved(_game(session))


def test_one_seat_in_two_sockets_under_the_per_client_limit_gets_each_timeout_once() -> None:
    clock = FakeClock()
    limits = ServerLimits(max_sockets_per_client=3)
    with serve(clock=clock, server_limits=limits) as (client, server, _):
        sid = _session(server, "golf", clock, seed=9, turn=20)
        join = {"type": "join", "session": sid, "seat": 0}
        with ExitStack() as stack:
            one, welcome = stack.enter_context(_socket(client, join))
            two, _ = stack.enter_context(
                _socket(client, {**join, "token": welcome["token"]})  # the token replayed
            )
            bob, _ = stack.enter_context(_socket(client, {**join, "seat": 1}))
            with client.websocket_connect("/ws") as ws, pytest.raises(WebSocketDisconnect) as no:
                ws.receive_text()
            assert no.value.code == 1013 and "3 connections from your address" in no.value.reason
            clock.now += 21
            for p in (one, two, bob):
                _settle(p)
            texts = [
                [json.dumps(m, sort_keys=True) for m in p.received if m["type"] == "update"]
                for p in (one, two)
            ]
            assert texts[0] == texts[1] and texts[0]  # the same updates, each once
            version = _game(server.hub.sessions[sid]).version
            assert [json.loads(t)["version"] for t in texts[0]] == list(range(1, version + 1))
            assert server.quota.sockets == {"testclient": 3}


def test_a_socket_refused_1013_changes_nothing_even_with_a_join_sent_at_once() -> None:
    """The refused socket's join (sent before it reads the close) claims no seat, starts no
    game and no clock; the count stays at the limit; the seat is claimed once there is room."""
    clock = FakeClock()
    limits = ServerLimits(max_sockets_per_client=1)
    with serve(clock=clock, server_limits=limits) as (client, server, _):
        sid = _session(server, "golf", clock, seed=4, turn=20)
        session = server.hub.sessions[sid]
        with _socket(client, {"type": "join", "session": sid, "seat": 0}) as (ann, _):
            with client.websocket_connect("/ws") as ws:
                ws.send_text(json.dumps({"type": "join", "session": sid, "seat": 1}))
                with pytest.raises(WebSocketDisconnect) as refused:
                    ws.receive_text()
            assert refused.value.code == 1013
            _settle(ann)
            assert sorted(session.tokens) == [0] and session.phase == "waiting"
            assert session.next_deadline() is None
            assert server.quota.sockets == {"testclient": 1}
        deadline = time.monotonic() + 10  # (at most: a loaded machine's server thread is slow)
        while server.quota.sockets and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not server.quota.sockets, server.quota.sockets
        with _socket(client, {"type": "join", "session": sid, "seat": 1}) as (bob, welcome):
            assert welcome["seat"] == 1 and "token" in welcome
            assert bob.until("view")["clocks"]["turn"]
            assert session.phase == "playing"


def test_spectators_get_no_clocks_and_a_real_time_seat_only_its_own() -> None:
    """Spit with an idle clock and a game clock, to the game clock's end (EndMatch): no
    spectator message holds ``clocks``; every seat message's clocks name its own seat only;
    the record and every replay step of a game the clock ended are served."""
    clock = FakeClock()
    with serve(clock=clock) as (client, server, dog):
        sid = _session(server, "spit", clock, seed=2, turn=7, total=40)
        join = {"type": "join", "session": sid}
        with ExitStack() as stack:
            a, _ = stack.enter_context(_socket(client, {**join, "seat": 0}))
            b, _ = stack.enter_context(_socket(client, {**join, "seat": 1}))
            w, _ = stack.enter_context(_socket(client, {"type": "watch", "session": sid}))
            for _ in range(12):
                clock.now += 4
                for p in (a, b, w):
                    _settle(p)
            session = server.hub.sessions[sid]
            assert session.phase == "over"
            causes = [m["action"]["cause"] for m in w.received if m["type"] == "update"]
            assert "timeout" in causes and causes[-1] == "clock"
            for m in w.received:
                assert "clocks" not in m and m["type"] != "clocks", m["type"]
            for seat, p in enumerate((a, b)):
                told = [m["clocks"] for m in p.received if "clocks" in m]
                assert told
                assert all(set(c["turn"]) <= {str(seat)} for c in told)
            record = client.get(f"/api/sessions/{sid}/record")
            assert record.status_code == 200
            steps = _game(session).version
            for k in (0, steps - 1, steps, steps + 5):
                r = client.get(f"/api/sessions/{sid}/replay/{k}")
                assert r.status_code == 200, r.text
            assert r.json()["actor"] == -1 and dog.frames > 0


# -- a seeded hostile driver --------------------------------------------------------------------


class _Driver:
    """Two seats and a spectator of one timed session, sockets coming and going."""

    def __init__(self, client: Any, server: WebServer, clock: FakeClock, sid: str) -> None:
        self.client, self.server, self.clock, self.sid = client, server, clock, sid
        self.session = server.hub.sessions[sid]
        self.open: dict[str, tuple[Any, Player, int | None]] = {}
        self.numbers: dict[str, list[tuple[str, int]]] = {}
        self.tokens: dict[int, str] = {}

    def join(self, name: str, seat: int | None, last: int | None = None) -> None:
        ws = self.client.websocket_connect("/ws").__enter__()
        player = Player(ws)
        if seat is None:
            message: dict[str, Any] = {"type": "watch", "session": self.sid}
        else:
            message = {"type": "join", "session": self.sid, "seat": seat}
            if seat in self.tokens:
                message["token"] = self.tokens[seat]
        if last is not None:
            message["last"] = last
        player.send(message)
        welcome = player.until("welcome")
        if "token" in welcome:
            self.tokens[seat] = welcome["token"]  # type: ignore[index]
        self.open[name] = (ws, player, seat)
        self.numbers[name] = []

    def leave(self, name: str) -> None:
        ws, _, _ = self.open.pop(name)
        ws.__exit__(None, None, None)

    def settle(self) -> None:
        for name, (_, player, _) in self.open.items():
            player.send({"type": "ping", "t": 1})
            while (message := player.recv())["type"] != "pong":
                if message["type"] in STREAM:
                    self.numbers[name].append((message["type"], message["n"]))

    def check(self, step: int) -> None:
        game = _game(self.session)
        assert_conserved(game)
        realtime = self.session.realtime
        for name, (_, player, seat) in self.open.items():
            if seat is None:
                assert player.mirror.version == self.session.spec.released, (name, step)
                assert all("clocks" not in m for m in player.received), (name, step)
            else:
                assert player.mirror.version == game.version, (name, step)
                assert player.mirror.view == self.session.views[seat], (name, step)
                if realtime:
                    for m in player.received:
                        if "clocks" in m:
                            assert set(m["clocks"]["turn"]) <= {str(seat)}, (name, step)
            seen = self.numbers[name]
            for (_, n0), (kind, n1) in itertools.pairwise(seen):
                assert n1 == n0 + 1 or (kind in ("view", "lobby") and n1 >= n0), (name, seen[-5:])

    def close(self) -> None:
        for name in list(self.open):
            self.leave(name)


def _drive(game: str, seed: int, steps: int) -> int:
    rng = random.Random(seed)
    clock = FakeClock()
    junk: list[Any] = [
        {"type": "resync", "last": 0},
        {"type": "history", "since": 0},
        {"type": "record"},
        {"type": "act", "action": "x" * 9000, "seen": 0},
        '{"type": "act"',
        {"type": "takeback", "op": "request"},
        {"type": "takeback", "op": "accept"},
        {"type": "act", "action": "draw", "seen": -1},
        {"type": "act", "action": "draw", "seen": 10**30},
    ]
    with serve(clock=clock) as (client, server, dog):
        sid = _session(server, game, clock, seed=seed, turn=5, total=300)
        d = _Driver(client, server, clock, sid)
        d.join("a", 0)
        d.join("b", 1)
        d.join("w", None)
        d.settle()
        try:
            for step in range(steps):
                game_now = d.session.game
                if game_now is None or game_now.is_over:
                    break
                seats = [n for n, (_, _, s) in d.open.items() if s is not None]
                roll = rng.random()
                if roll < 0.25:  # time passes, sometimes to the deadline exactly, and a seat acts
                    deadline = d.session.next_deadline()
                    if deadline is not None and rng.random() < 0.5:
                        clock.now = deadline
                    else:
                        clock.now += rng.choice([0.5, 1, 2, 5, 6])
                    if seats and rng.random() < 0.5:
                        _, p, _ = d.open[rng.choice(seats)]
                        if p.mirror.view and p.mirror.view.get("legal"):
                            action = rng.choice(p.mirror.view["legal"])
                            p.send({"type": "act", "action": action, "seen": p.mirror.version})
                elif roll < 0.65 and seats:  # a move, sometimes on an older view
                    _, p, _ = d.open[rng.choice(seats)]
                    view = p.mirror.view
                    if view and view.get("legal"):
                        seen = p.mirror.version or 0
                        seen = seen if rng.random() < 0.85 else max(0, seen - 1)
                        p.send({"type": "act", "action": rng.choice(view["legal"]), "seen": seen})
                elif roll < 0.75:  # a socket of a seat comes or goes (a token replayed)
                    name = rng.choice(["a", "b", "a2", "b2"])
                    if name in d.open:
                        d.leave(name)
                    else:
                        d.join(name, 0 if name[0] == "a" else 1, rng.choice([None, 0, 1, 3]))
                elif roll < 0.8:
                    if "w" in d.open:
                        d.leave("w")
                    else:
                        d.join("w", None, rng.choice([None, 0, 2]))
                elif roll < 0.9 and seats:  # another seat's move
                    _, p, seat = d.open[rng.choice(seats)]
                    other = 1 - seat  # type: ignore[operator]
                    legal = d.session.views[other].get("legal") or ["draw"]
                    p.send(
                        {"type": "act", "action": legal[0], "seen": p.mirror.version, "seat": other}
                    )
                elif d.open:
                    _, p, _ = d.open[rng.choice(list(d.open))]
                    p.send(rng.choice(junk))
                d.settle()
                d.check(step)
        finally:
            d.close()
        assert dog.frames > 0
        version: int = _game(d.session).version
        return version


@pytest.mark.parametrize(("game", "seed"), [("golf", 1), ("tonk", 1), ("spit", 2), ("speed", 1)])
def test_a_seeded_hostile_driver_of_a_timed_game_loses_and_leaks_nothing(
    game: str, seed: int
) -> None:
    assert _drive(game, seed, steps=90) >= 20  # (seeded: 47, 33, 59 and 82 actions)


# -- a real uvicorn, as ``cardcore serve`` builds it -------------------------------------------


@contextmanager
def _uvicorn(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, *flags: str
) -> Iterator[tuple[int, WebServer]]:
    """``cardcore serve`` (its uvicorn configuration, its socket) run in a thread here."""
    import uvicorn

    from cardcore.cli import main

    built: list[tuple[Any, Any]] = []
    run = uvicorn.Server.run
    monkeypatch.setattr(
        uvicorn.Server, "run", lambda self, sockets=None: built.append((self, sockets))
    )
    assert main(["serve", "--port", "0", "--db", str(tmp_path / "g.db"), *flags]) == 0
    monkeypatch.setattr(uvicorn.Server, "run", run)
    (server, sockets) = built[0]
    thread = threading.Thread(target=server.run, kwargs={"sockets": sockets}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30  # (a loaded machine starts a thread slowly)
        while not server.started:  # bounded wait for the server's own start flag
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.01)
        yield sockets[0].getsockname()[1], server.config.app.state.web
    finally:
        server.should_exit = True
        thread.join(10)


def _handshake(port: int, headers: str = "") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=15)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"{headers}\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(4096)
    assert head.startswith(b"HTTP/1.1 101"), head[:40]
    return sock


def _frame(text: str, declared: int | None = None) -> bytes:
    data = text.encode()
    n = len(data) if declared is None else declared
    mask = b"\x01\x02\x03\x04"
    if n < 126:
        size = bytes([0x80 | n])
    elif n < 65536:
        size = bytes([0x80 | 126]) + n.to_bytes(2, "big")
    else:
        size = bytes([0x80 | 127]) + n.to_bytes(8, "big")
    return b"\x81" + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def _drain(sock: socket.socket) -> bytes:
    got = b""
    try:
        while chunk := sock.recv(65536):
            got += chunk
    except OSError:
        pass
    return got


def _counted(web: WebServer, want: dict[str, int]) -> None:
    deadline = time.monotonic() + 10  # (at most: a loaded machine's server thread is slow)
    while time.monotonic() < deadline:
        if dict(web.quota.sockets) == want:
            return
        time.sleep(0.01)
    assert dict(web.quota.sockets) == want


def _ping(port: int, headers: dict[str, str] | None = None) -> Any:
    """Open a socket and ping: the pong's type, or the close (code, reason)."""
    pytest.importorskip("websockets.sync.client")
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{port}/ws", additional_headers=headers or {}) as ws:
        try:
            ws.send(json.dumps({"type": "ping", "t": 1}))
            return json.loads(ws.recv(timeout=15))["type"]
        except ConnectionClosed as closed:
            assert closed.rcvd is not None
            return closed.rcvd.code, closed.rcvd.reason


def test_abnormal_closes_give_the_clients_socket_back(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One socket per client: after a frame past 1 MiB (1009), a reset mid-frame and a close
    without a close frame, the client's count is back to 0 and it is served again."""
    monkeypatch.setenv("CARDCORE_MAX_SOCKETS_PER_CLIENT", "1")
    with _uvicorn(tmp_path, monkeypatch) as (port, web):
        sock = _handshake(port)
        sock.sendall(_frame("abc", declared=2 << 20))
        got = _drain(sock)
        sock.close()
        assert got[:1] == b"\x88" and got[2:4] == (1009).to_bytes(2, "big"), got[:20]
        _counted(web, {})
        sock = _handshake(port)
        sock.sendall(_frame('{"type": "ping"', declared=300))  # half a frame, then a reset
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
        _counted(web, {})
        _handshake(port).close()  # no close frame
        _counted(web, {})
        assert _ping(port) == "pong"
        _counted(web, {})


def test_forwarded_for_is_believed_from_the_proxy_named_and_only_from_it(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Behind a proxy named with ``--forwarded-allow-ips``, each forwarded address has its own
    socket limit; a server naming another proxy counts the connecting address instead."""
    monkeypatch.setenv("CARDCORE_MAX_SOCKETS_PER_CLIENT", "1")
    with _uvicorn(tmp_path, monkeypatch, "--forwarded-allow-ips", "127.0.0.1") as (port, web):
        one = _handshake(port, "X-Forwarded-For: 203.0.113.1\r\n")
        two = _handshake(port, "X-Forwarded-For: 203.0.113.2\r\n")
        _counted(web, {"203.0.113.1": 1, "203.0.113.2": 1})
        code, reason = _ping(port, {"X-Forwarded-For": "203.0.113.1"})
        assert code == 1013 and reason == "1 connection from your address is open already"
        one.close()
        two.close()
        _counted(web, {})
    with _uvicorn(tmp_path, monkeypatch, "--forwarded-allow-ips", "10.0.0.1") as (port, web):
        one = _handshake(port, "X-Forwarded-For: 203.0.113.1\r\n")
        _counted(web, {"127.0.0.1": 1})
        assert _ping(port, {"X-Forwarded-For": "203.0.113.2"})[0] == 1013
        one.close()
        _counted(web, {})


# -- ServerLimits: counts that are not whole numbers --------------------------------------------

_COUNTS = [
    "max_sessions",
    "max_per_client",
    "max_bot_games",
    "max_sockets",
    "max_sockets_per_client",
    "page",
    "max_page",
]


@pytest.mark.parametrize("field", _COUNTS)
def test_a_count_limit_that_is_not_a_whole_number_is_refused_naming_it(field: str) -> None:
    with pytest.raises(WebError, match=field):
        given: dict[str, Any] = {field: 2.5 if field != "max_page" else 200.5}
        ServerLimits(**given)


@pytest.mark.parametrize(
    ("fields", "query"),
    [
        ({"page": 1}, ""),
        ({"page": 1, "max_page": 1}, "?limit=300"),
        ({"page": 1, "max_page": 1}, "?limit=0"),
        ({}, "?limit=1.5"),
    ],
)
def test_the_session_list_is_never_a_500_whatever_limits_were_taken(
    fields: dict[str, Any], query: str
) -> None:
    limits = ServerLimits(**fields)  # the smallest limits a server accepts
    server = WebServer(None, server_limits=limits, bot_delay=0.0)
    bots = [{"name": n, "agent": "golf-greedy", "params": {"seed": 1}} for n in ("A", "B")]
    with TestClient(create_app(server), raise_server_exceptions=False) as client:
        for _ in range(2):
            made = create(client, "golf", bots)
            assert made["phase"] == "playing"  # a game of bots is listed at once
        r = client.get("/api/sessions" + query)
        if query.endswith("1.5"):  # not a whole number: refused by name, not a 500
            assert r.status_code == 400 and "limit" in r.json()["error"]
        else:
            assert r.status_code == 200, r.text
            assert len(r.json()) <= 1  # of two games: the page limit holds


# -- the seat page: the game clock's end ---------------------------------------------------------


@contextmanager
def _app_served(web: WebServer) -> Iterator[str]:
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(create_app(web), log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30  # (a loaded machine starts a thread slowly)
        while not server.started:  # bounded wait for the server's own start flag
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.01)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)


def test_the_seat_page_says_who_ended_a_game_its_clock_ran_out_on() -> None:
    if os.environ.get("CI") != "true" and not os.path.exists("/usr/bin/chromium"):
        pytest.skip("no /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    web = WebServer(None, bot_delay=0.05)
    seats = [{"name": "Ann"}, {"name": "Bot", "agent": "golf-greedy", "params": {"seed": 1}}]
    body = json.dumps({"game": "golf", "seats": seats, "time": {"total": 1}})
    with _app_served(web) as base, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--headless=new"]
        )
        try:
            page = browser.new_page()
            made = page.request.post(
                base + "/api/sessions", data=body, headers={"Content-Type": "application/json"}
            ).json()
            page.goto(base + made["seats"][0]["link"])  # Ann never acts: the game clock ends it
            page.wait_for_selector("#replay", timeout=10_000)
            frames = [json.loads(f) for f in page.evaluate("window.cardcore.frames")]
            last = [m for m in frames if m["type"] == "update"][-1]["action"]
            assert (last["seat"], last["cause"]) == (-1, "clock")
            said = page.text_content("#message") or ""
            page.click("#replay")
            page.wait_for_function("() => window.cardcore.replay !== null")
            steps = page.evaluate("window.cardcore.replay.steps")
            for k in range(steps):  # each step drawn before the next press (▶ steps from it)
                page.click(".replay button:nth-of-type(2)")
                page.wait_for_function(f"() => window.cardcore.replay.step === {k + 1}")
            page.wait_for_function(f"() => window.cardcore.replay.step === {steps}")
            label = page.text_content(".replay .label") or ""
            assert "undefined" not in said, said
            assert "undefined" not in label, label
            assert "the game clock: end" in said, said  # the update's cause names the clock
            assert "the game clock: end" in label, label  # the replay step carries its cause too
        finally:
            browser.close()
