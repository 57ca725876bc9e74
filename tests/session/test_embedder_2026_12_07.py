"""An embedder's review (2026-12-07): cardcore's network layer hosted without the web app.

Everything here uses only the API documented in ``docs/session.rst``: ``Session``,
``Hub``, ``SessionConfig``, ``TimeControl``, ``Limits``, ``MemoryStore``,
``SQLiteStore``, ``Mirror``, on a virtual clock. The harness below is written
from the docs alone (not ``tests/session/kit.py``): it checks every outbound
message against the documented message types and fields, the stream numbers,
a :class:`~cardcore.session.Mirror` per connection against ``Game.view(seat)``
at each version, and every card named against ``Zones.knows``.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Mapping
from typing import Any

import pytest

from cardcore import SPECTATOR, ActionApplied, Event
from cardcore.session import (
    ERROR_CODES,
    Hub,
    Limits,
    MemoryStore,
    Mirror,
    Outbound,
    Session,
    SessionConfig,
    SQLiteStore,
    TimeControl,
)
from cardcore.session.patch import card_words

STREAM = {"lobby", "view", "update", "takeback", "reveal"}
REPLIES = {"welcome", "ok", "history", "record", "pong", "presence", "clocks", "closed", "error"}

# docs/session.rst, "The protocol": the documented fields of each server message
DOC_FIELDS: dict[str, set[str]] = {
    "lobby": {"players", "claimed", "entropy", "commitment", "entropy_deadline"},
    "view": {"version", "view", "reason", "phase"},
    "update": {"version", "action", "events", "patch"},
    "takeback": {"op", "seat", "by", "version"},
    "reveal": {"bundle"},
    "welcome": {
        "protocol",
        "session",
        "role",
        "seat",
        "game",
        "players",
        "realtime",
        "phase",
        "config",
        "commitment",
        "schema",
        "last",
        "server_time",
    },
    "ok": {"of", "version"},
    "pong": {"server_time"},
    "error": {"code", "message", "id"},
}


def known_cards(game: Any, seat: int | None) -> set[str]:
    """Every card *seat* knows anywhere on the table (``Zones.knows``)."""
    zones = game.state.zones
    out = set()
    for z, pile in enumerate(zones.cards):
        for i, card in enumerate(pile):
            if zones.knows(z, i, seat):
                out.add(str(card))
    return out


class Host:
    """A minimal embedder: one session, named connections, a virtual clock, and checks."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.now = session.now
        self.mirrors: dict[str, Mirror] = {}
        self.role: dict[str, int | None] = {}
        self.got: dict[str, list[dict[str, Any]]] = {}
        self.numbers: dict[str, list[int]] = {}  # conn -> stream numbers received, in order
        self.allowed: dict[int | None, set[str]] = {}
        self.views: dict[int, dict[int | None, Any]] = {}
        self.events: dict[int, list[Event]] = {}
        self._game: Any = None
        self._version = 0
        self.closed: set[str] = set()
        self.follow()

    # -- following the game (a test may read session.game) --------------------------------

    def follow(self) -> None:
        game = self.session.game
        if game is None or game is self._game:
            return
        self._game = game
        game.events.subscribe(Event, self._on_event)
        self._record(game)

    def _on_event(self, event: Event) -> None:
        if type(event) is ActionApplied:
            self._version = event.version
            self.events[event.version] = []
            self._record(self._game)
        else:
            self.events.setdefault(self._version, []).append(event)
            # a card a seat's own redacted event names (a hand shown at the end of a round,
            # then gathered) is one it learned
            for seat in [*range(self.session.players), None]:
                copy = event.for_seat(SPECTATOR if seat is None else seat).to_json()
                self.allowed.setdefault(seat, set()).update(card_words(copy))

    def _record(self, game: Any) -> None:
        self._version = game.version
        self.views[game.version] = {s: game.view(s) for s in [*range(self.session.players), None]}
        for seat in [*range(self.session.players), None]:
            self.allowed.setdefault(seat, set()).update(known_cards(game, seat))

    # -- driving ------------------------------------------------------------------------

    def send(
        self, conn: str, message: Mapping[str, Any] | str, dt: float = 0.0
    ) -> list[dict[str, Any]]:
        self.now += dt
        if isinstance(message, Mapping):
            if message.get("type") == "join":
                self.role[conn] = message["seat"]
            elif message.get("type") == "watch":
                self.role[conn] = None
        text = message if isinstance(message, str) else json.dumps(message)
        return self.take(self.session.handle(conn, text, self.now), conn)

    def join(self, conn: str, seat: int, **extra: Any) -> list[dict[str, Any]]:
        mirror = self.mirrors.get(conn)
        msg: dict[str, Any] = {"type": "join", "seat": seat, **extra}
        if mirror is not None and mirror.token is not None and "token" not in extra:
            msg["token"] = mirror.token
            msg.setdefault("last", mirror.last)
        return self.send(conn, msg)

    def act(self, conn: str, action: str, dt: float = 0.0) -> list[dict[str, Any]]:
        return self.send(
            conn, {"type": "act", "action": action, "seen": self.mirrors[conn].version}, dt
        )

    def tick(self, dt: float = 0.0) -> list[Outbound]:
        self.now += dt
        out = self.session.tick(self.now)
        self.take(out, None)
        return out

    def tick_to_next(self) -> list[Outbound]:
        deadline = self.session.next_deadline()
        assert deadline is not None
        self.now = max(self.now, deadline)
        return self.tick()

    def disconnect(self, conn: str) -> None:
        self.take(self.session.disconnect(conn, self.now), None)

    def restart(self, session: Session) -> None:
        self.session = session
        self.follow()

    # -- checking everything that goes out ---------------------------------------------------

    def take(self, out: list[Outbound], conn: str | None) -> list[dict[str, Any]]:
        self.follow()
        replies = []
        for o in out:
            message = json.loads(o.text)
            assert message == json.loads(json.dumps(o.message)), "text and message differ"
            kind = message["type"]
            assert kind in STREAM | REPLIES, kind
            missing = DOC_FIELDS.get(kind, set()) - set(message)
            assert not missing, f"{kind} lacks documented {missing}: {message}"
            if kind == "error":
                assert message["code"] in ERROR_CODES
            self.got.setdefault(o.conn, []).append(message)
            mirror = self.mirrors.setdefault(o.conn, Mirror())
            if kind in STREAM:
                self.numbers.setdefault(o.conn, []).append(message["n"])
            mirror.feed(message)
            seat = self.role.get(o.conn)
            self.check_cards(seat, message)
            if kind in ("view", "update") and mirror.version is not None and o.conn in self.role:
                expected = self.views.get(mirror.version, {}).get(seat)
                assert mirror.view == expected, (
                    f"{o.conn}'s view differs at version {mirror.version}"
                )
            if kind == "update" and o.conn in self.role:
                redacted = [
                    e.for_seat(SPECTATOR if seat is None else seat).to_json()
                    for e in self.events.get(message["version"], [])
                ]
                assert message["events"] == redacted, (o.conn, message, redacted)
            if o.close:
                self.closed.add(o.conn)
            if o.conn == conn:
                replies.append(message)
        return replies

    def check_cards(self, seat: int | None, message: dict[str, Any]) -> None:
        if message["type"] in ("reveal", "record", "welcome") or message.get("reveal"):
            return  # the record/bundle once over; the schema names no card of the deal
        if message["type"] == "error":
            return  # may quote the sender's own text
        named = set(card_words(message))
        leaked = named - self.allowed.get(seat, set())
        assert not leaked, (
            f"{leaked} sent to {'spectators' if seat is None else f'seat {seat}'}: {message}"
        )


def two_seats(
    game: str, config: SessionConfig | None = None, store: Any = None, seed: int = 7
) -> Host:
    session = Session.create(game, ["Ann", "Bob"], now=0.0, seed=seed, config=config, store=store)
    host = Host(session)
    host.join("ann", 0)
    host.join("bob", 1)
    host.send("eve", {"type": "watch"})
    return host


def play_random(
    host: Host,
    steps: int,
    rng: random.Random,
    dt: float = 0.5,
    conns: tuple[str, str] = ("ann", "bob"),
) -> None:
    """Seats act on their own mirrors' views (random legal actions), a little apart."""
    conn_of = dict(enumerate(conns))
    for _ in range(steps):
        host.tick(dt)  # the clocks that ran out meanwhile first, so the seat acts on what it saw
        game = host.session.game
        if game is None or game.is_over:
            return
        seats = [s for s in game.to_act if game.legal_actions(s)]
        if not seats:
            continue
        seat = rng.choice(seats)
        legal = [str(a) for a in game.legal_actions(seat)]
        calm = [a for a in legal if not a.startswith(("drop", "resign"))]  # longer games
        action = rng.choice(calm or legal)
        replies = host.act(conn_of[seat], action)
        errors = [r for r in replies if r["type"] == "error"]
        assert not errors, errors


def contiguous(numbers: list[int]) -> bool:
    """Stream numbers n, n+1, n+2 ... from the first (a whole message at the current number)."""
    return all(b == a + 1 for a, b in itertools.pairwise(numbers))


GAMES = ["golf", "tonk", "spit", "speed"]
CONNS = {"ann": 0, "bob": 1}


# -- whole games through the documented protocol ---------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_random_play_sends_only_documented_known_cards_and_mirrors_views(game: str) -> None:
    """docs/session.rst: "Every message of a stream carries ``n``, its number, from 1, and holds
    only what that seat may see"; "Mirror ... rebuilds a connection's view from these messages"."""
    host = two_seats(game)
    play_random(host, 150, random.Random(11))
    assert host.session.game is not None and host.session.game.version > 3
    for conn, numbers in host.numbers.items():
        assert contiguous(numbers), (conn, numbers[:20])
    for conn, seat in CONNS.items():
        assert host.mirrors[conn].view == host.session.game.view(seat)
        assert host.mirrors[conn].version == host.session.game.version


@pytest.mark.parametrize("game", GAMES)
def test_spectators_lag_by_spectator_delay_actions(game: str) -> None:
    """docs/session.rst: "Spectators see the game ``spectator_delay`` actions late (2 by default;
    everything at once when the game is over), through the spectators' view (``game.view(None)``)"."""
    host = two_seats(game)
    rng = random.Random(5)
    for _ in range(40):
        play_random(host, 1, rng)
        game_ = host.session.game
        assert game_ is not None
        eve = host.mirrors["eve"]
        if game_.is_over:
            assert eve.version == game_.version
            assert eve.view == game_.view(None)
            break
        assert eve.version == max(0, game_.version - 2)
        assert eve.view == host.views[eve.version][None]


# -- clocks ------------------------------------------------------------------------------------


def clocked(game: str, turn: float = 5.0, **time: Any) -> SessionConfig:
    return SessionConfig(time=TimeControl(turn=turn, **time))


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_realtime_seat_sees_only_its_own_idle_clock(game: str) -> None:
    """docs/session.rst, Clocks: "A seat's messages show only its own idle clock: whether another
    seat's runs would tell whether its hidden cards can play"."""
    host = two_seats(game, clocked(game, 3.0))
    rng = random.Random(2)
    for i in range(60):
        if i % 7 == 3:
            host.tick_to_next()  # timeouts too
        else:
            play_random(host, 1, rng, dt=0.4)
    host.disconnect("bob")
    host.join("bob", 1, last=1)  # a resync view
    seen = 0
    for conn, seat in CONNS.items():
        for message in host.got[conn]:
            if "clocks" in message:
                seen += 1
                assert set(message["clocks"]["turn"]) <= {str(seat)}, (conn, message["clocks"])
    for message in host.got["eve"]:
        assert "clocks" not in message
    assert seen > 20


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_realtime_idle_clock_restarts_with_each_own_action(game: str) -> None:
    """docs/session.rst, Clocks: "Real-time games: the seconds a seat that may act can stay idle,
    counted from when it has a legal action ... each of its actions restarts its clock"."""
    host = two_seats(game, clocked(game, 4.0))
    rng = random.Random(4)
    checked = 0
    for _ in range(30):
        game_ = host.session.game
        assert game_ is not None
        if game_.is_over:
            break
        count = len(host.got["ann"])
        play_random(host, 1, rng, dt=0.3)
        updates = [m for m in host.got["ann"][count:] if m["type"] == "update"]
        last = updates[-1] if updates else None
        if last is not None and last["action"]["seat"] == 0 and last["action"]["cause"] == "player":
            turn = last["clocks"]["turn"]
            if "0" in turn:
                assert turn["0"] == pytest.approx(host.now + 4.0)
                checked += 1
    assert checked > 3


def test_turn_based_seats_see_the_turn_clock_of_the_seat_to_act() -> None:
    """docs/session.rst, Clocks: turn-based, "the seconds a seat has for its turn, from the moment
    it is among the seats to act until it no longer is, so a turn of several actions (draw,
    then discard) shares one clock"."""
    host = two_seats("tonk", clocked("tonk", 10.0))
    start = host.now
    assert host.mirrors["bob"].clocks == {"turn": {"0": start + 10.0}, "total": None}
    host.act("ann", "draw", dt=2.0)
    assert host.mirrors["bob"].clocks == {"turn": {"0": start + 10.0}, "total": None}
    discard = next(
        str(a) for a in host.session.game.legal_actions(0) if str(a).startswith("discard")
    )  # type: ignore[union-attr]
    host.act("ann", discard, dt=1.0)
    assert host.mirrors["ann"].clocks == {"turn": {"1": host.now + 10.0}, "total": None}


DEFAULTS = {
    "golf": ["flip"],
    "tonk": ["draw", "discard"],
    "spit": ["ready"],
    "speed": ["stuck"],
}


@pytest.mark.parametrize("game", GAMES)
def test_timeout_plays_the_documented_default_at_the_deadline(game: str) -> None:
    """docs/session.rst, Clocks: "On a timeout the session plays the game's ``default_action`` ...
    at the deadline's time"; the table: Golf the first ``flip``, Tonk ``draw`` then ``discard``,
    Spit ``ready``, Speed ``stuck``."""
    host = two_seats(game, clocked(game, 5.0))
    deadline = host.session.next_deadline()
    assert deadline == pytest.approx(host.now + 5.0)
    host.now = deadline + 0.75  # a late tick changes nothing but when the messages go out
    host.tick()
    updates = [m for m in host.got["ann"] if m["type"] == "update"]
    assert updates, "nothing played on the timeout"
    words = [m["action"]["text"].split()[0] for m in updates if m["action"]["seat"] == 0]
    assert words[: len(DEFAULTS[game])] == DEFAULTS[game]
    for m in updates:
        assert m["action"]["cause"] == "timeout"
        assert m["action"]["at"] == deadline


def test_a_message_after_a_deadline_is_read_after_the_timeout() -> None:
    """docs/session.rst: "A message that arrives after a deadline is read after the timeout is
    played." Ann's flip acted on version 0 arrives late: the timeout's flip came first."""
    host = two_seats("golf", clocked("golf", 5.0))
    deadline = host.session.next_deadline()
    assert deadline is not None
    host.now = deadline + 1.0
    replies = host.send("ann", {"type": "act", "action": "flip 5", "seen": 0})
    kinds = [m["type"] for m in host.got["ann"][-len(replies) :]]
    assert "update" in kinds
    updates = [m for m in replies if m["type"] == "update"]
    assert updates[0]["action"]["cause"] == "timeout" and updates[0]["action"]["text"] == "flip 0"


def test_disconnected_seat_times_out_and_resumes_with_exactly_what_it_missed() -> None:
    """docs/session.rst: "A disconnected seat's clock keeps running: its timeouts play for it";
    "When it reconnects it joins with its token and ``last``, and gets exactly the messages it
    missed, the very same texts, or a fresh ``view`` when that is shorter"."""
    host = two_seats("golf", clocked("golf", 5.0))
    host.join(
        "bob2", 1, token=host.mirrors["bob"].token
    )  # a second tab of Bob's stays connected: the reference copy
    host.act("ann", "flip 0", dt=1.0)
    host.disconnect("bob")
    last = host.mirrors["bob"].last
    for _ in range(3):
        host.tick_to_next()
    host.act("ann", "flip 1", dt=0.5) if 0 in host.session.game.to_act else None  # type: ignore[union-attr]
    before = len(host.got["bob"])
    host.join("bob", 1)
    again = [m for m in host.got["bob"][before:] if m["type"] in STREAM]
    reference = [m for m in host.got["bob2"] if m["type"] in STREAM and m["n"] > last]
    if again and again[0]["type"] == "view" and again[0]["reason"] == "resync":
        assert len(again) == 1
    else:
        assert again == reference
    assert host.mirrors["bob"].view == host.session.game.view(1)  # type: ignore[union-attr]


# -- restarts from the store -----------------------------------------------------------------


def restart(host: Host, store: Any, at: float) -> None:
    """The process stops; at *at* a new one resumes the session from *store*."""
    host.now = at
    host.restart(Session.resume(store, host.session.id, at))


@pytest.mark.parametrize("game", GAMES)
def test_restart_pause_gives_each_clock_the_time_it_had_left(game: str) -> None:
    """docs/session.rst: "With ``restart="pause"`` (the default) each running clock gets back
    the time it had left when the session was last stored, counted from the restart:
    downtime is never charged to a seat"."""
    store = MemoryStore()
    host = two_seats(game, clocked(game, 10.0), store=store)
    play_random(host, 3, random.Random(3), dt=1.0)
    deadline = host.session.next_deadline()
    assert deadline is not None
    left = deadline - host.now
    restart(host, store, host.now + 500.0)
    assert host.session.next_deadline() == pytest.approx(host.now + left)
    assert host.tick() == []  # nothing ran out while the server was down


@pytest.mark.parametrize("game", GAMES)
def test_restart_continue_fires_at_the_deadline_time(game: str) -> None:
    """docs/session.rst: "With ``restart="continue"`` the wall-clock deadlines stay, and a clock
    that ran out while the server was down fires on the first ``tick``, at its deadline's time"."""
    store = MemoryStore()
    host = two_seats(game, clocked(game, 10.0, restart="continue"), store=store)
    play_random(host, 2, random.Random(3), dt=1.0)
    deadline = host.session.next_deadline()
    assert deadline is not None
    version = host.session.game.version  # type: ignore[union-attr]
    restart(host, store, deadline + 3.0)  # down for longer than the clock had left
    assert host.session.next_deadline() == deadline
    assert host.tick() == []  # nobody is connected yet: the stream keeps it
    count = len(host.got["ann"])
    host.join("ann", 0)  # with its token and last number
    played = [m for m in host.got["ann"][count:] if m["type"] in ("update", "view")]
    assert played and played[-1]["version"] > version
    if played[0]["type"] == "update":  # the missed updates (else a fresh view was shorter)
        assert played[0]["action"]["at"] == deadline
        assert played[0]["action"]["cause"] == "timeout"
    game_ = host.session.game
    assert game_ is not None
    assert game_.record_entries()[version][2] == deadline  # (seat, action, at)


@pytest.mark.parametrize("game", GAMES)
def test_rejoin_after_restart_gets_exactly_what_was_missed(game: str, tmp_path: Any) -> None:
    """docs/session.rst: a client "gets exactly the messages it missed, the very same texts, or
    a fresh ``view`` when that is shorter ... The tail is in the store, so this holds across a
    restart too"; "the same state, views, streams, spectators' delay, tokens and clocks"."""
    store = SQLiteStore(tmp_path / "s.db")
    host = two_seats(game, store=store)
    host.join("bob2", 1, token=host.mirrors["bob"].token)
    host.disconnect("bob")
    play_random(host, 6, random.Random(8), dt=1.0, conns=("ann", "bob2"))
    old = host.session
    game_ = old.game
    assert game_ is not None
    spectators_at = host.mirrors["eve"].version
    restart(host, store, host.now + 30.0)
    new = host.session
    assert new.game is not None and new.game.version == game_.version
    for seat in range(2):
        assert new.game.view(seat) == game_.view(seat)
    reference = [
        m for m in host.got["bob2"] if m["type"] in STREAM and m["n"] > host.mirrors["bob"].last
    ]
    count = len(host.got["bob"])
    host.join("bob", 1)
    again = [m for m in host.got["bob"][count:] if m["type"] in STREAM]
    assert again == reference or [m.get("reason") for m in again] == ["resync"]
    assert host.mirrors["bob"].view == new.game.view(1)
    host.send("eve2", {"type": "watch"})
    assert host.mirrors["eve2"].version == spectators_at
    store.close()


# -- every documented error code, and what it means ------------------------------------------


def errors_of(replies: list[dict[str, Any]]) -> list[str]:
    return [m["code"] for m in replies if m["type"] == "error"]


def scenario(code: str) -> tuple[Host, list[dict[str, Any]]]:
    """Provoke *code* through the protocol alone; return the host and the replies."""
    limits = Limits(max_message=100, max_spectators=1, max_per_seat=1)
    if code == "rate-limited":
        limits = Limits(rate=5.0, burst=3, close_after=5)
    config = SessionConfig(limits=limits, token_ttl=100.0)
    if code == "not-started":
        host = Host(Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7, config=config))
        host.join("ann", 0)
        return host, host.send("ann", {"type": "act", "action": "flip 0", "seen": 0})
    if code == "entropy-refused":
        host = Host(Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7, config=config))
        host.join("ann", 0)
        return host, host.send("ann", {"type": "entropy", "value": "abc"})
    host = two_seats("golf", config)
    send = host.send
    if code == "bad-json":
        return host, send("ann", "{not json")
    if code == "bad-message":
        return host, send("ann", {"type": "dance"})
    if code == "too-large":
        return host, send("ann", {"type": "ping", "id": "x" * 60, "t": 1.0, "pad": "y" * 80})
    if code == "rate-limited":
        replies: list[dict[str, Any]] = []
        for _ in range(6):
            replies += send("ann", {"type": "ping"})
        return host, replies
    if code == "no-session":
        return host, send("ann", {"type": "ping", "session": "elsewhere"})
    if code == "not-joined":
        return host, send("zed", {"type": "act", "action": "flip 0", "seen": 0})
    if code == "already-joined":
        return host, send("eve", {"type": "watch"})
    if code == "no-seat":
        return host, send("zed", {"type": "join", "seat": 5})
    if code == "full":
        return host, send("zed", {"type": "watch"})
    if code == "seat-taken":
        return host, send("zed", {"type": "join", "seat": 0})
    if code == "bad-token":
        return host, send("zed", {"type": "join", "seat": 0, "token": host.mirrors["bob"].token})
    if code == "token-expired":
        host.session.end(host.now)
        host.take(host.session.end(host.now), None)
        return host, send(
            "zed", {"type": "join", "seat": 0, "token": host.mirrors["ann"].token}, dt=101.0
        )
    if code == "not-a-seat":
        return host, send("eve", {"type": "act", "action": "flip 0", "seen": 0})
    if code == "not-your-seat":
        return host, send("ann", {"type": "act", "action": "flip 0", "seen": 0, "seat": 1})
    if code == "game-over":
        host.take(host.session.end(host.now), None)
        return host, send("ann", {"type": "act", "action": "flip 0", "seen": 0})
    if code == "not-over":
        return host, send("ann", {"type": "record"})
    if code == "notation":
        return host, host.act("ann", "juggle 9")
    if code == "illegal":
        return host, host.act("bob", "flip 0")
    if code == "stale":
        for conn, flip in [("ann", 0), ("ann", 1), ("bob", 0), ("bob", 1)]:
            host.act(conn, f"flip {flip}")
        return host, send("ann", {"type": "act", "action": "draw", "seen": 3})  # before Bob's flip
    if code == "takeback-refused":
        host.act("ann", "flip 0")  # a card turned up: final
        return host, send("ann", {"type": "takeback", "op": "request"})
    raise AssertionError(code)


REACHABLE = sorted(set(ERROR_CODES) - {"internal"})


@pytest.mark.parametrize("code", REACHABLE)
def test_every_documented_error_code_is_reachable_and_goes_to_the_sender_only(code: str) -> None:
    """docs/session.rst: "a bad message becomes an ``error`` message to its sender, and nothing
    changes"; the table of codes (``bad-json`` ... ``entropy-refused``)."""
    host, replies = scenario(code)
    assert code in errors_of(replies), replies
    told = {conn for conn, got in host.got.items() if any(m["type"] == "error" for m in got)}
    assert len(told) == 1, told  # the sender only
    error = next(m for m in replies if m["type"] == "error" and m["code"] == code)
    assert error["message"] and "id" in error
    if code == "illegal":
        assert error["rule"] == "CORE-TURN-1"


def test_error_changes_nothing_and_reaches_only_the_sender() -> None:
    """docs/session.rst: "a bad message becomes an ``error`` message to its sender, and nothing
    changes"."""
    host = two_seats("golf")
    game = host.session.game
    assert game is not None
    before = game.version, [game.view(s) for s in range(2)], host.mirrors["bob"].last
    out = host.session.handle("ann", '{"type": "act", "action": "flip 9", "seen": 0}', host.now)
    host.take(out, None)
    assert [(o.conn, o.message["type"]) for o in out] == [("ann", "error")]
    assert (game.version, [game.view(s) for s in range(2)], host.mirrors["bob"].last) == before


def test_rate_limited_closes_after_close_after_drops() -> None:
    """docs/session.rst: "one error a second at most, and one more that carries the close: after
    ``close_after`` drops in a row the session asks the transport to close the connection"."""
    config = SessionConfig(limits=Limits(rate=1.0, burst=2, close_after=10))
    host = two_seats("golf", config)
    out: list[Outbound] = []
    for _ in range(12):
        out += host.session.handle("zed", '{"type": "ping"}', host.now)
    errors = [o for o in out if o.message["type"] == "error"]
    assert [o.message["code"] for o in errors] == ["rate-limited", "rate-limited"]
    assert [o.close for o in errors] == [False, True]


def test_rate_limited_drops_after_the_close_get_no_more_than_one_error_a_second() -> None:
    """docs/session.rst: ``rate-limited``: "dropped unread; one error a second at most, and one
    more that carries the close". A transport closes asynchronously: messages already read
    from the socket still reach ``handle``."""
    config = SessionConfig(limits=Limits(rate=1.0, burst=2, close_after=10))
    host = two_seats("golf", config)
    out: list[Outbound] = []
    for _ in range(20):  # all within one second
        out += host.session.handle("zed", '{"type": "ping"}', host.now)
    errors = [o for o in out if o.message["type"] == "error"]
    assert len(errors) <= 2, [(o.message["code"], o.close) for o in errors]


def test_internal_error_when_a_plugin_fails_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """docs/session.rst: ``internal``: "the server failed (a plugin's error); nothing changed"."""
    from cardcore.errors import CardcoreError

    host = two_seats("golf")
    game = host.session.game
    assert game is not None

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise CardcoreError("a plugin's bug")

    monkeypatch.setattr(type(game.logic), "parse_action", broken)
    replies = host.act("ann", "flip 0")
    assert errors_of(replies) == ["internal"]
    assert game.version == 0


# -- "never raises" -----------------------------------------------------------------------------


def started_hub() -> tuple[Hub, Session]:
    hub = Hub()
    session = hub.create("golf", ["Ann", "Bob"], now=0.0, seed=7, config=clocked("golf", 5.0))
    session.issue_token(0, 0.0)
    session.issue_token(1, 0.0)
    return hub, session


def test_session_calls_never_raise_on_hostile_input() -> None:
    """docs/session.rst: "no exception ever escapes these calls: a bad message becomes an
    ``error`` message to its sender, and nothing changes"."""
    host = two_seats("golf", clocked("golf", 5.0))
    session = host.session
    for conn, message, now in [
        ("ann", b"\xff\xfe", 1.0),
        ("ann", {1: 2}, 1.0),
        ("ann", '{"type": "join", "seat": true}', 1.0),
        ("ann", '{"type": "ping"}', float("nan")),
        ("ann", '{"type": "ping"}', "soon"),
        (("x", []), '{"type": "ping"}', 1.0),
        (["x"], '{"type": "ping"}', 1.0),
    ]:
        session.handle(conn, message, now)  # type: ignore[arg-type]
    session.tick(float("nan"))
    session.tick("soon")  # type: ignore[arg-type]
    session.disconnect(["x"], 1.0)  # type: ignore[arg-type]
    session.disconnect("nobody", 1.0)
    assert session.game is not None and session.game.version == 0


def test_session_tick_reads_a_bad_time_as_its_last_one() -> None:
    """``Session.tick``: "Play every clock that has run out by *now*; return what to send. Never
    raises." A bad time plays nothing."""
    hub, session = started_hub()
    assert hub.next_deadline() == 5.0
    assert session.tick("soon") == []  # type: ignore[arg-type]
    assert session.tick(float("nan")) == []
    assert session.game is not None and session.game.version == 0


def test_hub_tick_never_raises() -> None:
    """cardcore.session.hub: "never raises from :meth:`Hub.handle`, :meth:`Hub.tick` or
    :meth:`Hub.disconnect`"."""
    hub, _ = started_hub()
    hub.tick("soon")  # type: ignore[arg-type]
    hub.tick(None)  # type: ignore[arg-type]


def test_hub_handle_never_raises_on_a_bad_time() -> None:
    """cardcore.session.hub: "never raises from :meth:`Hub.handle`" (``Session.handle`` reads a
    bad time as its last one)."""
    hub, _ = started_hub()
    for now in ("soon", 2.0):
        try:
            hub.handle("c", '{"type": "ping"}', now)  # type: ignore[arg-type]
        except TypeError as exc:
            pytest.fail(f"Hub.handle raised at now={now!r}: {exc}")


def test_hub_one_nan_time_does_not_rate_limit_a_connection_for_ever() -> None:
    """docs/session.rst: ``rate-limited``: "more than ``rate`` messages a second (bursts of
    ``burst``)". One host call with a NaN time must not stop a connection that sends slowly."""
    hub, _ = started_hub()
    hub.handle("c", '{"type": "ping"}', float("nan"))
    codes = []
    for i in range(60):  # one ping every 2 s: far under 20 a second
        out = hub.handle("c", '{"type": "ping"}', 10.0 + 2.0 * i)
        codes += [o.message.get("code") or o.message["type"] for o in out]
    assert codes == ["pong"] * 60, codes[-3:]


def test_hub_ping_at_a_nan_time_is_a_pong() -> None:
    """docs/session.rst: ``ping``: "answered with ``pong`` and the server's time"; ``internal``:
    "the server failed (a plugin's error)"."""
    hub, _ = started_hub()
    out = hub.handle("c", '{"type": "ping"}', float("nan"))
    assert [o.message["type"] for o in out] == ["pong"]


def test_hub_disconnect_never_raises() -> None:
    """cardcore.session.hub: "never raises from ... :meth:`Hub.disconnect`"."""
    hub, _ = started_hub()
    hub.handle("c", '{"type": "ping"}', 1.0)  # a bucket: dict.pop hashes its key
    assert hub.disconnect(["x"], 1.0) == []  # type: ignore[arg-type]


def test_session_disconnect_never_raises_on_a_tuple_holding_a_list() -> None:
    """docs/session.rst: "no exception ever escapes these calls" (``handle`` drops such an id)."""
    host = two_seats("golf")
    assert host.session.handle(("x", []), '{"type": "ping"}', 1.0) == []  # type: ignore[arg-type]
    assert host.session.disconnect(("x", []), 1.0) == []  # type: ignore[arg-type]


# -- takebacks -----------------------------------------------------------------------------------


def golf_after_setup(config: SessionConfig | None = None, store: Any = None) -> Host:
    host = two_seats("golf", config, store=store)
    for conn, flip in [("ann", 0), ("ann", 1), ("bob", 0), ("bob", 1)]:
        assert errors_of(host.act(conn, f"flip {flip}", dt=0.5)) == []
    return host


def test_takeback_of_a_taken_discard_is_granted_and_every_seat_gets_a_fresh_view() -> None:
    """docs/session.rst, Takebacks: "taking the face-up discard ... may be taken back"; "The session
    then rebuilds the game from its record without that action ... and every seat gets a fresh
    ``view``"."""
    host = golf_after_setup()
    before = [host.session.game.view(s) for s in range(2)]  # type: ignore[union-attr]
    host.act("ann", "take", dt=1.0)
    replies = host.send("ann", {"type": "takeback", "op": "request"})
    assert errors_of(replies) == []
    asked = [m for m in host.got["bob"] if m["type"] == "takeback"][-1]
    assert (asked["op"], asked["by"], asked["version"]) == ("requested", 0, 5)
    host.send("bob", {"type": "takeback", "op": "accept"}, dt=1.0)
    game = host.session.game
    assert game is not None and game.version == 4
    for conn, seat in CONNS.items():
        last = [m for m in host.got[conn] if m["type"] == "view"][-1]
        assert (last["reason"], last["version"]) == ("takeback", 4)
        assert host.mirrors[conn].view == game.view(seat) == before[seat]
    assert errors_of(host.act("ann", "draw", dt=1.0)) == []  # the game goes on from there


def test_takeback_refused_names_seats_never_cards() -> None:
    """docs/session.rst: "drawing from a face-down stock ... are final"; "The refusal names the
    seats that learned something, never the cards"."""
    host = golf_after_setup()
    host.act("ann", "draw", dt=1.0)
    replies = host.send("ann", {"type": "takeback", "op": "request"})
    error = next(m for m in replies if m["type"] == "error")
    assert error["code"] == "takeback-refused"
    assert "seat 0" in error["message"]
    assert not set(card_words(error["message"])) - {"draw"}


@pytest.mark.parametrize("op", ["decline", "expire", "act"])
def test_takeback_request_ends_on_decline_timeout_or_new_action(op: str) -> None:
    """docs/session.rst: "every other seat must ``accept`` within ``takeback_timeout`` seconds;
    one ``decline``, the timeout or any new action ends the request"."""
    host = golf_after_setup(SessionConfig(takeback_timeout=10.0))
    host.act("ann", "take", dt=1.0)
    host.send("ann", {"type": "takeback", "op": "request"})
    assert host.session.next_deadline() == pytest.approx(host.now + 10.0)
    if op == "decline":
        host.send("bob", {"type": "takeback", "op": "decline"})
    elif op == "expire":
        host.tick_to_next()
    else:
        host.act("ann", "replace 2", dt=1.0)
    ends = [m for m in host.got["bob"] if m["type"] == "takeback"][-1]
    assert ends["op"] == {"decline": "declined", "expire": "expired", "act": "cancelled"}[op]
    assert host.mirrors["bob"].takeback is None
    assert host.session.next_deadline() is None


def test_takeback_deadline_paused_across_a_restart() -> None:
    """docs/session.rst: "A pending takeback request's deadline moves the same way" (``pause``)."""
    store = MemoryStore()
    host = golf_after_setup(SessionConfig(takeback_timeout=10.0), store=store)
    host.act("ann", "take", dt=1.0)
    host.send("ann", {"type": "takeback", "op": "request"}, dt=1.0)
    left = host.session.next_deadline() - host.now  # type: ignore[operator]
    restart(host, store, host.now + 100.0)
    assert host.session.next_deadline() == pytest.approx(host.now + left)
    host.join("ann", 0)
    host.join("bob", 1)
    host.send("bob", {"type": "takeback", "op": "accept"})
    assert host.session.game is not None and host.session.game.version == 4
    assert host.mirrors["bob"].view == host.session.game.view(1)


def test_takeback_rewinds_spectators_who_saw_the_action() -> None:
    """docs/session.rst: spectators see "the spectators' view (``game.view(None)``)"; after a
    takeback a spectator without delay is shown the game without the action."""
    host = golf_after_setup(SessionConfig(spectator_delay=0))
    host.act("ann", "take", dt=1.0)
    assert host.mirrors["eve"].version == 5
    host.send("ann", {"type": "takeback", "op": "request"})
    host.send("bob", {"type": "takeback", "op": "accept"})
    assert host.mirrors["eve"].version == 4
    assert host.mirrors["eve"].view == host.session.game.view(None)  # type: ignore[union-attr]


def test_no_takebacks_in_real_time() -> None:
    """docs/session.rst: "In a turn-based game the seat that made the last action may ask to take
    it back"."""
    host = two_seats("speed")
    play_random(host, 4, random.Random(1))
    replies = host.send("ann", {"type": "takeback", "op": "request"})
    assert errors_of(replies) == ["takeback-refused"]


# -- seats, tokens, spectators, the other client messages ---------------------------------------


def test_invitation_tokens_start_the_game_and_a_new_token_shuts_the_old_one_out() -> None:
    """docs/session.rst: "a host that wants every seat by invitation issues all the tokens at
    creation, so no seat is left to claim"; "issuing a new one shuts the old one out"; the
    ``welcome`` holds a token "shown that once"."""
    session = Session.create("tonk", ["Ann", "Bob"], now=0.0, seed=3)
    host = Host(session)
    tokens = [session.issue_token(s, 0.0) for s in range(2)]
    assert session.phase == "playing"
    replies = host.join("ann", 0, token=tokens[0])
    welcome = replies[0]
    assert welcome["type"] == "welcome" and "token" not in welcome and welcome["role"] == "seat"
    assert errors_of(host.join("zed", 1)) == ["seat-taken"]
    new = session.issue_token(0, 1.0, replace=True)
    assert "ann" not in session.conns
    assert errors_of(host.join("old", 0, token=tokens[0])) == ["bad-token"]
    assert errors_of(host.join("new", 0, token=new)) == []
    assert errors_of(host.join("bob", 1, token=tokens[0])) == ["bad-token"]  # another seat's


def test_tokens_expire_token_ttl_after_the_end() -> None:
    """docs/session.rst: "Tokens expire ``token_ttl`` seconds after the game ends"."""
    host = two_seats("golf", SessionConfig(token_ttl=50.0))
    token = host.mirrors["ann"].token
    host.now = 10.0
    host.take(host.session.end(host.now), None)
    assert host.session.phase == "over"
    assert errors_of(host.send("a2", {"type": "join", "seat": 0, "token": token}, dt=49.0)) == []
    assert errors_of(host.send("a3", {"type": "join", "seat": 0, "token": token}, dt=1.0)) == [
        "token-expired"
    ]


@pytest.mark.parametrize("game", GAMES)
def test_end_shows_everything_to_spectators_and_gives_the_record(game: str) -> None:
    """docs/session.rst: spectators see "everything at once when the game is over"; ``record``:
    "the record (and fair-deal bundle), once the game is over"; an update's ``cause`` is
    ``host`` for the host's ``end``."""
    host = two_seats(game)
    play_random(host, 5, random.Random(6))
    assert errors_of(host.send("ann", {"type": "record"})) == ["not-over"]
    host.take(host.session.end(host.now + 1.0), None)
    game_ = host.session.game
    assert game_ is not None and game_.is_over and host.session.phase == "over"
    last = [m for m in host.got["ann"] if m["type"] == "update"][-1]
    assert last["action"]["cause"] == "host"
    assert host.mirrors["eve"].version == game_.version
    assert host.mirrors["eve"].view == game_.view(None)
    record = [m for m in host.send("eve", {"type": "record"}) if m["type"] == "record"]
    assert record and record[0]["record"] == game_.record()


def test_close_tells_and_closes_every_connection() -> None:
    """``Session.close``: "every connection is told and closed; the store marks it ``closed``"."""
    store = MemoryStore()
    host = two_seats("golf", store=store)
    out = host.session.close(host.now)
    assert sorted(o.conn for o in out) == ["ann", "bob", "eve"]
    assert all(o.message["type"] == "closed" and o.close for o in out)
    stored = store.load(host.session.id)
    assert stored is not None and stored.status == "closed"


def test_ping_leave_and_resync() -> None:
    """docs/session.rst: ``ping``: "answered with ``pong`` and the server's time"; ``leave``: "stop
    reading this session (the connection stays open)"; ``resync``: "what was missed since number
    ``last``"."""
    host = two_seats("golf")
    pong = host.send("ann", {"type": "ping", "t": 1.5, "id": 9}, dt=2.0)
    assert pong == [{"type": "pong", "id": 9, "t": 1.5, "server_time": host.now}]
    last = host.mirrors["bob"].last
    host.act("ann", "flip 0")
    host.act("ann", "flip 1")
    again = host.send("bob", {"type": "resync", "last": last})
    assert [m["n"] for m in again] == [last + 1, last + 2]
    replies = host.send("bob", {"type": "leave"})
    assert [m["type"] for m in replies] == ["ok"] and replies[0]["of"] == "leave"
    count = len(host.got["bob"])
    host.act("bob", "flip 0")  # no longer joined
    assert errors_of(host.got["bob"][count:]) == ["not-joined"]
    assert host.session.game.version == 2  # type: ignore[union-attr]


def test_history_to_spectators_only_up_to_the_version_they_see() -> None:
    """docs/session.rst: "Past rounds (``history``) are given to spectators only up to the version
    they see"."""
    host = two_seats("golf", SessionConfig(spectator_delay=3))
    rng = random.Random(1)
    game = host.session.game
    assert game is not None
    for _ in range(400):
        rounds = len(game.history(None))
        play_random(host, 1, rng, dt=0.1)
        if len(game.history(None)) > rounds and not game.is_over:
            break
    else:
        pytest.fail("no round ended")
    seen = [m for m in host.send("eve", {"type": "history"}) if m["type"] == "history"]
    assert len(seen[0]["rounds"]) == rounds
    whole = [m for m in host.send("ann", {"type": "history"}) if m["type"] == "history"]
    assert len(whole[0]["rounds"]) == rounds + 1


def test_hub_routes_on_session_and_ticks_every_session() -> None:
    """docs/session.rst: "``session`` (the session's id; a :class:`~cardcore.session.Hub` routes
    on it)"; ``Hub.tick``: "Tick every session whose deadline has come"."""
    hub = Hub()
    a = hub.create("golf", ["Ann", "Bob"], now=0.0, seed=1, config=clocked("golf", 5.0))
    b = hub.create("tonk", ["Cy", "Di"], now=0.0, seed=2, config=clocked("tonk", 7.0))
    for session, (c0, c1) in [(a, ("a0", "a1")), (b, ("b0", "b1"))]:
        for seat, conn in enumerate((c0, c1)):
            out = hub.handle(
                conn, json.dumps({"type": "join", "seat": seat, "session": session.id}), 0.0
            )
            welcome = next(o.message for o in out if o.conn == conn)
            assert welcome["type"] == "welcome" and welcome["session"] == session.id
    assert hub.next_deadline() == 5.0
    out = hub.tick(7.0)
    assert {o.conn for o in out} == {"a0", "a1", "b0", "b1"}
    assert (
        a.game is not None and b.game is not None and a.game.version == 2 and b.game.version == 2
    )  # both setup flips; draw and discard
    out = hub.handle("a0", '{"type": "ping"}', 7.5)
    assert [o.message["type"] for o in out] == ["pong"]


# -- spectators across a restart -----------------------------------------------------------------


def restarted_golf(actions: int) -> tuple[Host, MemoryStore]:
    """Golf with a store; Ann flips *actions* times (delay 2); the process restarts."""
    store = MemoryStore()
    host = two_seats("golf", store=store)
    for i in range(actions):
        host.act("ann" if i < 2 else "bob", f"flip {i % 2}", dt=1.0)
    restart(host, store, host.now + 10.0)
    host.join("ann", 0)
    host.join("bob", 1)
    return host, store


def test_spectator_watching_after_a_restart_at_version_0_gets_the_view() -> None:
    """docs/session.rst: a restarted session resumes "exactly where it was: the same state, views,
    streams, spectators' delay"; spectators see "the spectators' view (``game.view(None)``)"."""
    host, _ = restarted_golf(2)  # version 2, spectators at 0
    out = host.session.handle("eve2", '{"type": "watch"}', host.now)  # unchecked: read it here
    view = next(o.message for o in out if o.message["type"] == "view")
    assert view["version"] == 0
    assert view["view"] == host.views[0][None]


def test_spectator_update_after_a_restart_at_version_0_has_only_its_actions_events() -> None:
    """docs/session.rst: ``update``: "one action: ... ``events`` (redacted), ``patch`` (from the
    previous view to this one)"."""
    host, _ = restarted_golf(2)
    host.session.handle("eve2", '{"type": "watch"}', host.now)  # unchecked (the bug above)
    out = host.session.handle("bob", '{"type": "act", "action": "flip 0", "seen": 2}', host.now)
    update = next(o.message for o in out if o.conn == "eve2")  # spectators now see version 1
    assert update["version"] == 1
    assert [e["event"] for e in update["events"]] == ["card-revealed"]
    assert update["patch"][0][1] != []  # not the whole view again


def test_spectator_updates_after_a_restart_keep_a_documented_cause() -> None:
    """docs/session.rst: ``update``: "``action`` (``seat``, ``text``, ``at``, ``cause``: ``player``,
    ``timeout``, ``clock`` or ``host``)"."""
    host, _ = restarted_golf(4)  # version 4, spectators at 2; versions 3 and 4 pending
    host.send("eve", {"type": "watch", "last": host.mirrors["eve"].last})
    host.act("ann", "draw", dt=1.0)  # releases version 3, played by Bob before the restart
    update = [m for m in host.got["eve"] if m["type"] == "update"][-1]
    assert update["version"] == 3
    assert update["action"]["cause"] in ("player", "timeout", "clock", "host")


def test_spectators_resume_at_the_same_version_after_a_restart() -> None:
    """docs/session.rst: "the same state, views, streams, spectators' delay"."""
    host, _ = restarted_golf(4)
    host.send("eve", {"type": "watch", "last": host.mirrors["eve"].last})
    assert host.mirrors["eve"].version == 2
    assert host.mirrors["eve"].view == host.views[2][None]


# -- more of the documented behaviour ------------------------------------------------------------


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_realtime_seat_with_nothing_to_do_has_no_running_clock(game: str) -> None:
    """docs/session.rst, Clocks: "a seat in ``to_act`` with nothing to do waits without a clock"."""
    host = two_seats(game, clocked(game, 3.0))
    play_random(host, 80, random.Random(9), dt=0.4)
    checked = 0
    for conn, seat in CONNS.items():
        for m in host.got[conn]:
            if m["type"] == "update":
                legal = host.views[m["version"]][seat]["legal"]
                assert (str(seat) in m["clocks"]["turn"]) == bool(legal), (
                    m["version"],
                    legal,
                    m["clocks"],
                )
                checked += 1
    assert checked > 40


def test_total_clock_ends_the_match_at_its_deadline() -> None:
    """docs/session.rst, Clocks: ``total``: "When it runs out the host ends the match
    (:class:`~cardcore.EndMatch`: the leaders win)"; ``cause``: ``clock``."""
    host = two_seats("speed", SessionConfig(time=TimeControl(total=30.0)))
    play_random(host, 6, random.Random(2), dt=1.0)
    assert host.session.next_deadline() == 30.0
    host.now = 45.0
    host.tick()
    game = host.session.game
    assert game is not None and game.is_over and host.session.phase == "over"
    last = [m for m in host.got["ann"] if m["type"] == "update"][-1]
    assert (last["action"]["cause"], last["action"]["at"]) == ("clock", 30.0)
    assert host.session.next_deadline() is None


def test_realtime_overtaken_action_is_stale_and_never_legal_is_illegal() -> None:
    """docs/session.rst: "an action that was legal in the view the player saw but was overtaken is
    refused as ``stale`` (rule CORE-RT-1), and one that was never legal as ``illegal``"."""
    host = two_seats("speed")
    rng = random.Random(3)
    for _ in range(200):
        game = host.session.game
        assert game is not None and not game.is_over
        v = game.version
        plays = {
            s: [str(a) for a in game.legal_actions(s) if str(a).startswith("play")] for s in (0, 1)
        }
        if plays[0] and plays[1]:
            target = {a.split()[-1] for a in plays[0]} & {a.split()[-1] for a in plays[1]}
            if target:
                pile = target.pop()
                mine = next(a for a in plays[0] if a.endswith(pile))
                theirs = next(a for a in plays[1] if a.endswith(pile))
                assert errors_of(host.act("bob", theirs, dt=0.1)) == []
                replies = host.send("ann", {"type": "act", "action": mine, "seen": v})
                error = next(m for m in replies if m["type"] == "error")
                if error["code"] == "stale":
                    assert error["rule"] == "CORE-RT-1"
                    break
        play_random(host, 1, rng, dt=0.1)
    else:
        pytest.fail("no overtaken play found")
    never = host.send(
        "ann", {"type": "act", "action": "play AS L", "seen": host.mirrors["ann"].version}
    )
    assert errors_of(never) in (["illegal"], ["notation"])


def test_own_quick_actions_are_not_stale_in_a_turn_based_game() -> None:
    """docs/session.rst: "a seat's own quick actions (two flips in a row) are fine"."""
    host = two_seats("golf")
    assert errors_of(host.send("ann", {"type": "act", "action": "flip 0", "seen": 0})) == []
    assert errors_of(host.send("ann", {"type": "act", "action": "flip 1", "seen": 0})) == []


def test_resync_view_carries_the_current_number_without_taking_a_new_one() -> None:
    """docs/session.rst: "A ``resync`` view carries the stream's current number without taking a new
    one"; ``welcome``: ``last``."""
    host = two_seats("golf")
    for i in range(4):
        host.act("ann" if i < 2 else "bob", f"flip {i % 2}")
    welcome = host.send("bob2", {"type": "join", "seat": 1, "token": host.mirrors["bob"].token})
    current = host.mirrors["bob"].last
    assert welcome[0]["last"] == current
    view = next(m for m in welcome if m["type"] == "view")
    assert (view["reason"], view["n"]) == ("resync", current)
    host.act("ann", "draw")
    assert host.numbers["bob"][-1] == host.numbers["bob2"][-1] == current + 1


def test_fair_deal_reveals_a_bundle_that_verifies() -> None:
    """docs/session.rst, Provably fair deals: the commitment "in every ``welcome`` and ``lobby``";
    "When the game ends every stream gets a ``reveal`` with the *bundle*"."""
    from cardcore.session import verify_bundle

    config = SessionConfig(fair=True, seat_entropy=True)
    for _ in range(50):  # the server's secret is random: a Tonk natural at the deal ends the game
        session = Session.create("tonk", ["Ann", "Bob"], now=0.0, config=config)
        host = Host(session)
        host.join("ann", 0, entropy="ann's dice")
        host.join("bob", 1)
        assert session.phase == "waiting"
        host.send("bob", {"type": "entropy", "value": "bob's dice"})
        assert session.phase in ("playing", "over")
        if session.phase == "playing":
            break
    assert session.phase == "playing"
    host.send("eve", {"type": "watch"})
    commitment = session.commitment
    assert all(
        m["commitment"] == commitment
        for c in CONNS
        for m in host.got[c]
        if m["type"] in ("welcome", "lobby")
    )
    host.take(session.end(5.0), None)
    for conn in ["ann", "bob", "eve"]:
        reveal = [m for m in host.got[conn] if m["type"] == "reveal"]
        assert len(reveal) == 1
    report = verify_bundle(host.mirrors["eve"].bundle, commitment=commitment)  # type: ignore[arg-type]
    assert report.commitment == commitment and report.game == "tonk" and report.result is not None


def test_realtime_seat_is_told_when_its_idle_clock_starts_again() -> None:
    """docs/session.rst, Clocks: "A real-time game that implements ``default_action`` and answers
    ``None`` means "nothing now" ... no fallback is played ... and its clock starts again"; "A
    seat's messages show only its own idle clock"; "Clocks are deadlines on the server's clock".
    After every ``tick`` every deadline a seat was shown has either been played or replaced, so
    no seat's rebuilt clocks hold a deadline that has passed."""
    host = two_seats("spit", clocked("spit", 3.0), seed=2)
    rng = random.Random(2)
    for i in range(40):
        if i % 3:
            host.tick_to_next()
        else:
            play_random(host, 1, rng, dt=0.5)
        game = host.session.game
        assert game is not None and not game.is_over
        for conn, seat in CONNS.items():
            clocks = host.mirrors[conn].clocks
            assert clocks is not None
            shown = clocks["turn"].get(str(seat))
            assert shown is None or shown > host.now, (
                i,
                conn,
                shown,
                host.now,
                host.session.next_deadline(),
            )


def test_issue_token_refused_once_the_session_is_closed() -> None:
    """``Session.issue_token``: ":raises SessionError: No such seat, the seat is claimed (without
    *replace*), or the game is over"; a closed session answers every act with ``game-over``."""
    from cardcore.session import SessionError

    host = two_seats("golf")
    host.take(host.session.close(host.now), None)
    assert errors_of(host.send("ann2", {"type": "act", "action": "flip 0", "seen": 0})) == [
        "not-joined"
    ]
    with pytest.raises(SessionError):
        host.session.issue_token(0, host.now, replace=True)
