"""A stateful model of one session: connections come and go, act, ask takebacks, time runs.

A hypothesis :class:`RuleBasedStateMachine` drives one :class:`~cardcore.session.Session`
of Golf, Tonk, Spit or Speed (with and without clocks, spectator delay, takebacks, a fair
deal with seat entropy, a SQLite store that the session is restored from mid-game). Two
connections per seat (``a0``/``a1`` for seat 0, ``b0``/``b1`` for seat 1) and two
spectators (``w0``/``w1``), each with a :class:`~cardcore.session.Mirror`, join with and
without tokens, leave, disconnect, rejoin with their token and last number, act from their
mirror's legal list, send stale, illegal and malformed messages. After every step:

* no exception escapes; every outbound text is its message;
* every connection's stream numbers are contiguous (from 1, or from its resync view);
* each joined seat's mirror equals ``game.view(seat)``; a spectator's equals the delayed
  spectators' view; every message passes the leak check of :mod:`tests.session.kit`;
* a refused message is an error to its sender only and changes nothing;
* every card is in exactly one place; the record replays to the same game;
* after a restore from the store the game, streams and tokens agree, and so does every
  mirror that joins again.

The minimal reproductions of what the machine found are the plain tests at the end.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from cardcore import game_info
from cardcore.records import replay
from cardcore.session import (
    Limits,
    MemoryStore,
    Mirror,
    Outbound,
    Session,
    SessionConfig,
    SQLiteStore,
    TimeControl,
    verify_bundle,
)
from cardcore.session.client import STREAM_TYPES
from cardcore.session.fair import FairDeal
from cardcore.session.patch import card_words
from tests.session.kit import LeakCheck

GAMES = ("golf", "tonk", "spit", "speed")
OPTIONS: dict[str, dict[str, Any]] = {
    "golf": {"rounds": 2},
    "tonk": {"hands": 2},
    "spit": {},
    "speed": {},
}
SEATS = {"a0": 0, "a1": 0, "b0": 1, "b1": 1}
WATCHERS = ("w0", "w1")
CONNS = (*SEATS, *WATCHERS)
LIMITS = Limits(rate=1e6, burst=10**6)
ERROR_CODES_OK = {
    "bad-json",
    "bad-message",
    "not-joined",
    "already-joined",
    "no-seat",
    "full",
    "seat-taken",
    "bad-token",
    "token-expired",
    "not-a-seat",
    "not-your-seat",
    "not-started",
    "game-over",
    "not-over",
    "notation",
    "illegal",
    "stale",
    "takeback-refused",
    "entropy-refused",
}
HOSTILE = [
    "{",
    "[]",
    "null",
    '{"type": "act"}',
    '{"type": "act", "action": "", "seen": 0}',
    '{"type": "act", "action": "draw", "seen": -1}',
    '{"type": "act", "action": "draw", "seen": 0, "seat": 1, "seat": 0}',
    '{"type": "join", "seat": 9}',
    '{"type": "join", "seat": "0"}',
    '{"type": "takeback", "op": "maybe"}',
    '{"type": "resync"}',
    '{"type": "nope"}',
    '{"type": "history", "since": -2}',
    '{"type": "entropy", "value": ""}',
    '{"type": "ping", "t": NaN}',
]
JUNK_ACTIONS = ["flip 99", "play ZZ", "discard 1X", "draw draw", "replace -1", "spit 7", "🂡"]


def _fresh(cls: type[FairDeal], players: int) -> FairDeal:
    return cls(bytes(range(32)), bytes(range(16)), [None] * players)


def _cards(game: Any) -> Counter[str]:
    return Counter(str(card) for pile in game.state.zones.cards for card in pile)


class KeepAll(LeakCheck):
    """The kit's leak check, keeping every version's views (a long tick plays hundreds of
    timeouts, and spectators then see them all at once)."""

    def _record(self, game: Any) -> None:
        views = {s: game.view(s) for s in [*range(self.players), None]}
        self.views[game.version] = views
        for seat, view in views.items():
            self.allowed[seat].update(card_words(view))


class SessionMachine(RuleBasedStateMachine):
    """One session and its connections on a virtual clock (see the module docstring)."""

    def __init__(self) -> None:
        self.replayed: tuple[Any, int, bool] | None = None  # (game, version, over) replayed last
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="cardcore-stateful-"))
        self.session: Session | None = None
        self.stores: list[SQLiteStore] = []

    def teardown(self) -> None:
        for store in self.stores:
            store.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    # -- set up ------------------------------------------------------------------------------

    @initialize(
        game=st.sampled_from(GAMES),
        clock=st.sampled_from([None, 20.0]),
        total=st.sampled_from([None, 400.0]),
        delay=st.sampled_from([0, 1, 2]),
        takebacks=st.booleans(),
        fair=st.sampled_from(["no", "fair", "entropy"]),
        stored=st.booleans(),
        restart=st.sampled_from(["pause", "continue"]),
        seated=st.sampled_from([True, True, True, False]),
        keep=st.sampled_from([256, 3, 1]),
    )
    def create(
        self,
        game: str,
        clock: float | None,
        total: float | None,
        delay: int,
        takebacks: bool,
        fair: str,
        stored: bool,
        restart: str,
        seated: bool,
        keep: int,
    ) -> None:
        self.game_name = game
        self.realtime = game_info(game).realtime
        config = SessionConfig(
            time=TimeControl(turn=clock, total=total if self.realtime else None, restart=restart),
            spectator_delay=delay,
            takebacks=takebacks,
            fair=fair != "no",
            seat_entropy=fair == "entropy",
            entropy_wait=30.0,
            resync_keep=keep,
            limits=LIMITS,
        )
        self.path = self.dir / "s.db"
        store = SQLiteStore(self.path) if stored else None
        if store is not None:
            self.stores.append(store)
        self.now = 0.0
        with mock.patch.object(FairDeal, "fresh", classmethod(_fresh)):
            self.session = Session.create(
                game,
                ["Ann", "Bob"],
                now=0.0,
                options=OPTIONS[game],
                seed=None if fair != "no" else 5,
                config=config,
                store=store,
                session_id="stateful",
            )
        self.mirrors: dict[str, Mirror] = {c: Mirror() for c in CONNS}
        self.tokens: dict[int, str] = {}
        self.leaks = KeepAll(2)
        self.leaks.attach(self.session.game)
        self.replayed: tuple[Any, int, bool] | None = None
        self.echo: dict[str, str] = {}
        self.deck: Counter[str] | None = None
        self.log: list[str] = []
        if seated:
            self.watch("w0", resume=False)
            self.join_seat("a0", "dice 4 6" if fair == "entropy" else None)
            self.join_seat("b0", "coin" if fair == "entropy" else None)

    # -- driving -----------------------------------------------------------------------------

    @property
    def s(self) -> Session:
        assert self.session is not None
        return self.session

    def _role(self, conn: str) -> int | None:
        return SEATS.get(conn)

    def _follow(self) -> None:
        """Attach the leak check to the session's game, from its deal if it is new to it (a
        game dealt in a tick may have moved on by timeouts within the same call)."""
        game = self.s.game
        if game is None or game is self.leaks.game:
            return
        if self.leaks.game is None and game.version > 0:
            s = self.s
            seed = s.fair.seed if s.fair is not None else (s.seed or 0)
            early = s.setup.build(seed, chance=s.chance)
            self.leaks.attach(early)
            for seat, action, at in game.record_entries():
                early.act(seat, str(action), at=at)
        self.leaks.attach(game)

    def _take(self, out: list[Outbound], *, dupes: bool = False) -> None:
        self._follow()
        for o in out:
            assert o.conn in CONNS, o
            message = json.loads(o.text)
            assert message == json.loads(json.dumps(o.message)), "text and message differ"
            mirror = self.mirrors[o.conn]
            kind = message["type"]
            if kind == "error":
                assert message["code"] in ERROR_CODES_OK, message
            if kind in STREAM_TYPES:
                n = message["n"]
                whole = kind in ("view", "lobby") and n >= mirror.last
                assert whole or n == mirror.last + 1 or (dupes and n <= mirror.last), (
                    f"{o.conn}: stream message {n} after {mirror.last}: {message}"
                )
            if kind in ("view", "update", "takeback") and o.conn == "a0":
                event(
                    f"{self.game_name}: {kind} {message.get('reason') or message.get('op') or ''}"
                )
                if kind == "update":
                    event(f"{self.game_name}: cause {message['action']['cause']}")
            if kind == "clocks":  # a clock started over: told to the seats whose clocks changed
                assert self._role(o.conn) is not None, o
                assert message["clocks"] != mirror.clocks, f"{o.conn} told unchanged clocks"
            if kind == "welcome" and "token" in message:
                self.tokens[message["seat"]] = message["token"]
            mirror.feed(message)
            self.leaks.check(self._role(o.conn), message, mirror, self.echo.get(o.conn, ""))

    def _picture(self) -> tuple[Any, ...]:
        s = self.s
        game = s.game
        return (
            s.phase,
            None if game is None else game.version,
            None if game is None else json.dumps(game.view(None), sort_keys=True),
            [st.n for st in s.streams],
            s.spectators.n,
            dict(s.tokens),
            json.dumps(s.takeback, sort_keys=True),
            sorted(s.conns),
            None if s.fair is None else list(s.fair.entropy),
            s.next_deadline(),
        )

    def _send(
        self, conn: str, message: dict[str, Any] | str, *, dupes: bool = False
    ) -> list[dict[str, Any]]:
        """Send at the current time, after the clocks due by then have played (so a refusal
        can be checked to change nothing)."""
        self._take(self.s.tick(self.now))
        text = message if isinstance(message, str) else json.dumps(message)
        self.echo[conn] = text
        self.log.append(f"{self.now}: {conn} {text}")
        before = self._picture()
        out = self.s.handle(conn, text, self.now)
        self._take(out, dupes=dupes)
        errors = [o.message for o in out if o.message["type"] == "error"]
        if errors:
            assert [o.conn for o in out] == [conn], f"a refusal told others: {out}"
            assert self._picture() == before, f"a refused {text} changed the session: {errors}"
        return [o.message for o in out if o.conn == conn]

    def _joined(self, conn: str) -> bool:
        return conn in self.s.conns

    # -- rules: connections ----------------------------------------------------------------

    @rule(conn=st.sampled_from(list(SEATS)), entropy=st.sampled_from([None, "dice 4 6", ""]))
    def join_seat(self, conn: str, entropy: str | None) -> None:
        seat = SEATS[conn]
        mirror = self.mirrors[conn]
        message: dict[str, Any] = {"type": "join", "seat": seat}
        token = self.tokens.get(seat)
        if token is not None:
            message["token"] = token
            if mirror.session is not None:
                message["last"] = mirror.last
        if entropy:
            message["entropy"] = entropy
        was = self._joined(conn)
        replies = self._send(conn, message)
        codes = [r["code"] for r in replies if r["type"] == "error"]
        if was:
            assert codes == ["already-joined"], replies
        elif not codes:
            assert replies[0]["type"] == "welcome", replies
            assert self._joined(conn)

    @rule(conn=st.sampled_from(list(SEATS)), how=st.sampled_from(["none", "wrong", "other"]))
    def join_badly(self, conn: str, how: str) -> None:
        seat = SEATS[conn]
        message: dict[str, Any] = {"type": "join", "seat": seat}
        if how == "wrong":
            message["token"] = "not-the-token-" + "x" * 20
        elif how == "other" and 1 - seat in self.tokens:
            message["token"] = self.tokens[1 - seat]
        was, claimed = self._joined(conn), seat in self.s.tokens
        replies = self._send(conn, message)
        codes = [r["code"] for r in replies if r["type"] == "error"]
        if was:
            assert codes == ["already-joined"], replies
        elif claimed and "token" not in message:
            assert codes == ["seat-taken"], replies
        elif "token" in message:
            assert codes == ["bad-token"], replies

    @rule(conn=st.sampled_from(WATCHERS), resume=st.booleans())
    def watch(self, conn: str, resume: bool) -> None:
        mirror = self.mirrors[conn]
        message: dict[str, Any] = {"type": "watch"}
        if resume and mirror.session is not None:
            message["last"] = mirror.last
        was = self._joined(conn)
        replies = self._send(conn, message)
        codes = [r["code"] for r in replies if r["type"] == "error"]
        assert codes == (["already-joined"] if was else []), replies

    @rule(conn=st.sampled_from(CONNS))
    def leave(self, conn: str) -> None:
        was = self._joined(conn)
        replies = self._send(conn, {"type": "leave"})
        codes = [r["code"] for r in replies if r["type"] == "error"]
        assert codes == ([] if was else ["not-joined"]), replies
        assert not self._joined(conn)

    @rule(conn=st.sampled_from(CONNS))
    def disconnect(self, conn: str) -> None:
        self.log.append(f"{self.now}: disconnect {conn}")
        self._take(self.s.disconnect(conn, self.now))
        assert not self._joined(conn)

    @rule(conn=st.sampled_from(CONNS), back=st.integers(0, 3))
    def resync(self, conn: str, back: int) -> None:
        if not self._joined(conn):
            return
        last = max(0, self.mirrors[conn].last - back)
        replies = self._send(conn, {"type": "resync", "last": last}, dupes=True)
        assert not [r for r in replies if r["type"] == "error"], replies

    # -- rules: the game ----------------------------------------------------------------------

    def _seat_conns(self) -> list[str]:
        return [c for c in SEATS if self._joined(c)]

    @precondition(lambda self: self.session is not None and self.session.phase == "playing")
    @rule(pick=st.integers(0, 3), which=st.integers(0, 200))
    def act_legal(self, pick: int, which: int) -> None:
        conns = self._seat_conns()
        if not conns:
            return
        conn = conns[pick % len(conns)]
        mirror = self.mirrors[conn]
        legal = (mirror.view or {}).get("legal") or []
        if not legal:
            return
        action = legal[which % len(legal)]
        replies = self._send(conn, {"type": "act", "action": action, "seen": mirror.version})
        codes = [r["code"] for r in replies if r["type"] == "error"]
        assert codes == [], f"{conn} acted {action!r} from its up-to-date legal list: {replies}"

    @precondition(lambda self: self.session is not None and self.session.phase == "playing")
    @rule(picks=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 200)), min_size=1, max_size=8))
    def play_some(self, picks: list[tuple[int, int]]) -> None:
        for pick, which in picks:
            if self.s.phase != "playing":
                return
            self.act_legal(pick, which)

    @precondition(lambda self: self.session is not None and self.session.game is not None)
    @rule(pick=st.integers(0, 3), which=st.integers(0, 200), back=st.integers(1, 4))
    def act_stale(self, pick: int, which: int, back: int) -> None:
        conns = self._seat_conns()
        if not conns:
            return
        conn = conns[pick % len(conns)]
        mirror = self.mirrors[conn]
        legal = (mirror.view or {}).get("legal") or ["draw"]
        seen = max(0, (mirror.version or 0) - back)
        replies = self._send(
            conn, {"type": "act", "action": legal[which % len(legal)], "seen": seen}
        )
        codes = [r["code"] for r in replies if r["type"] == "error"]
        assert codes in (
            [],
            ["stale"],
            ["illegal"],
            ["notation"],
            ["game-over"],
            ["not-started"],
        ), replies

    @rule(conn=st.sampled_from(CONNS), junk=st.sampled_from(JUNK_ACTIONS))
    def act_illegal(self, conn: str, junk: str) -> None:
        version = 0 if self.s.game is None else self.s.game.version
        replies = self._send(conn, {"type": "act", "action": junk, "seen": version})
        assert [r["type"] for r in replies] == ["error"], replies

    @rule(conn=st.sampled_from(CONNS), text=st.sampled_from(HOSTILE))
    def hostile(self, conn: str, text: str) -> None:
        replies = self._send(conn, text)
        assert [r["type"] for r in replies] == ["error"], replies

    @rule(conn=st.sampled_from(list(SEATS)))
    def act_for_the_other_seat(self, conn: str) -> None:
        version = 0 if self.s.game is None else self.s.game.version
        message = {"type": "act", "action": "draw", "seen": version, "seat": 1 - SEATS[conn]}
        replies = self._send(conn, message)
        assert [r["type"] for r in replies] == ["error"], replies

    @rule(conn=st.sampled_from(list(SEATS)))
    def resign(self, conn: str) -> None:
        if not self._joined(conn) or self.s.phase != "playing":
            return
        mirror = self.mirrors[conn]
        replies = self._send(conn, {"type": "act", "action": "resign", "seen": mirror.version})
        codes = [r["code"] for r in replies if r["type"] == "error"]
        assert codes in ([], ["illegal"], ["notation"]), replies

    @rule(conn=st.sampled_from(CONNS), value=st.sampled_from(["coin: heads", "x" * 30]))
    def entropy(self, conn: str, value: str) -> None:
        self._send(conn, {"type": "entropy", "value": value})

    @rule(conn=st.sampled_from(CONNS), op=st.sampled_from(["request", "accept", "decline"]))
    def takeback(self, conn: str, op: str) -> None:
        self._send(conn, {"type": "takeback", "op": op})

    @precondition(lambda self: self.session is not None and self.session.takeback is None)
    @rule(pick=st.integers(0, 3), which=st.integers(0, 200))
    def act_then_take_back(self, pick: int, which: int) -> None:
        """A legal action, asked back at once, and accepted by the other seat if it is asked."""
        self.act_legal(pick, which)
        game = self.s.game
        if game is None or self.s.phase != "playing" or not game.record_entries():
            return
        seat = game.record_entries()[-1][0]
        mine = [c for c in self._seat_conns() if SEATS[c] == seat]
        other = [c for c in self._seat_conns() if SEATS[c] != seat]
        if not mine:
            return
        replies = self._send(mine[0], {"type": "takeback", "op": "request"})
        if not [r for r in replies if r["type"] == "error"] and other:
            self._send(other[0], {"type": "takeback", "op": "accept"})

    @rule(conn=st.sampled_from(CONNS), since=st.integers(0, 2))
    def history(self, conn: str, since: int) -> None:
        self._send(conn, {"type": "history", "since": since})

    @rule(conn=st.sampled_from(CONNS))
    def record(self, conn: str) -> None:
        self._send(conn, {"type": "record"})

    @rule(dt=st.sampled_from([0.25, 3.0, 21.0, 35.0, 90.0, 90000.0]))
    def tick(self, dt: float) -> None:
        self.now += dt
        self.log.append(f"{self.now}: tick")
        self._take(self.s.tick(self.now))

    @rule()
    def tick_to_deadline(self) -> None:
        deadline = self.s.next_deadline()
        if deadline is None:
            return
        self.now = max(self.now, deadline)
        self.log.append(f"{self.now}: tick to deadline")
        self._take(self.s.tick(self.now))

    @precondition(lambda self: self.session is not None and self.session.phase == "playing")
    @rule(picks=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 200)), max_size=40))
    def play_many(self, picks: list[tuple[int, int]]) -> None:
        self.play_some(picks)

    @precondition(
        lambda self: (
            self.session is not None
            and self.session.phase == "playing"
            and self.session.takeback is None
        )
    )
    @rule(accept=st.booleans())
    def take_and_take_back(self, accept: bool) -> None:
        """Take the face-up discard (Golf, Tonk), ask it back, and have it answered."""
        for conn in self._seat_conns():
            mirror = self.mirrors[conn]
            if "take" in ((mirror.view or {}).get("legal") or []):
                self._send(conn, {"type": "act", "action": "take", "seen": mirror.version})
                replies = self._send(conn, {"type": "takeback", "op": "request"})
                if not self.s.config.takebacks:
                    return
                assert not [r for r in replies if r["type"] == "error"], replies
                others = [c for c in self._seat_conns() if SEATS[c] != SEATS[conn]]
                if others:
                    op = "accept" if accept else "decline"
                    replies = self._send(others[0], {"type": "takeback", "op": op})
                    assert not [r for r in replies if r["type"] == "error"], replies
                return

    @precondition(
        lambda self: (
            self.session is not None
            and self.session.phase == "playing"
            and self.session.game is not None
            and self.session.game.version > 30
        )
    )
    @rule()
    def host_ends(self) -> None:
        self.log.append(f"{self.now}: host ends")
        self._take(self.s.end(self.now))
        assert self.s.phase == "over"

    @precondition(lambda self: self.session is not None and self.session.store is not None)
    @rule(downtime=st.sampled_from([0.0, 5.0, 50.0]))
    def restart(self, downtime: float) -> None:
        old = self.s
        self.now += downtime
        self.log.append(f"{self.now}: restart")
        store = SQLiteStore(self.path)
        self.stores.append(store)
        resumed = Session.resume(store, old.id, self.now)
        assert resumed.phase == old.phase
        assert [x.n for x in resumed.streams] == [x.n for x in old.streams]
        assert resumed.spectators.n == old.spectators.n
        assert resumed.tokens == old.tokens
        assert resumed.takeback == old.takeback or (
            resumed.takeback is not None
            and old.takeback is not None
            and {k: v for k, v in resumed.takeback.items() if k != "deadline"}
            == {k: v for k, v in old.takeback.items() if k != "deadline"}
        )
        if old.game is not None:
            assert resumed.game is not None
            assert resumed.game.version == old.game.version
            for seat in (0, 1, None):
                assert resumed.game.view(seat) == old.game.view(seat), seat
            assert resumed.spec.released == old.spec.released
            assert resumed.spec.view == old.spec.view
        self.session = resumed
        self._follow()
        event(f"{self.game_name}: restart {resumed.phase}")

    # -- invariants ---------------------------------------------------------------------------

    @invariant()
    def mirrors_agree(self) -> None:
        if self.session is None:
            return
        s = self.s
        game = s.game
        for conn, c in s.conns.items():
            mirror = self.mirrors[conn]
            assert mirror.last == c.stream.n, f"{conn} at {mirror.last}, stream at {c.stream.n}"
            if game is None:
                assert mirror.lobby is not None
                continue
            if c.seat is None:
                assert mirror.version == s.spec.released, conn
                assert mirror.view == s.spec.view, conn
                recorded = self.leaks.views.get(s.spec.released, {}).get(None)
                assert recorded is None or recorded == s.spec.view, "spectators' view"
            else:
                assert mirror.version == game.version, (conn, mirror.version, game.version)
                assert mirror.view == game.view(c.seat), f"{conn}'s mirror differs"
                if s.phase == "playing":
                    assert mirror.clocks == s.clocks.public(c.seat), f"{conn}'s clocks differ"

    @invariant()
    def presence_lobby_takeback_and_reveal(self) -> None:
        if self.session is None:
            return
        s = self.s
        connected = [bool(stream.conns) for stream in s.streams]
        for conn, c in s.conns.items():
            mirror = self.mirrors[conn]
            assert mirror.presence is not None and mirror.presence["connected"] == connected, conn
            if s.phase == "waiting":
                assert mirror.lobby is not None
                assert mirror.lobby["claimed"] == [x in s.tokens for x in range(2)], conn
                assert mirror.lobby["entropy_deadline"] == s.entropy_deadline
                if s.config.seat_entropy and s.fair is not None:
                    told = [e is not None for e in s.fair.entropy]
                    assert mirror.lobby["entropy"] == told, conn
            if c.seat is not None and s.game is not None:
                pending = s.takeback
                mine = mirror.takeback
                assert (mine is None) == (pending is None), (conn, mine, pending)
                if mine is not None and pending is not None:
                    assert (mine["by"], mine["version"]) == (pending["by"], pending["version"])
            if s.phase == "over" and s.fair is not None:
                assert mirror.bundle is not None, conn
                report = verify_bundle(mirror.bundle, s.commitment)
                assert report.actions == s.game.version

    @invariant()
    def cards_and_record(self) -> None:
        if self.session is None or self.s.game is None:
            return
        game = self.s.game
        cards = _cards(game)
        if self.deck is None:
            self.deck = cards
        assert cards == self.deck, "a card is in two places, or lost"
        assert all(v == 1 for v in cards.values()) or self.game_name not in GAMES
        assert len(game.record_entries()) == game.version
        last = self.replayed
        if last is not None and last[0] is game and last[1:] == (game.version, game.is_over):
            return  # replayed at this version already (most steps do not move the game)
        self.replayed = (game, game.version, game.is_over)
        again = replay(game.record())
        assert again.version == game.version
        for seat in (0, 1, None):
            assert again.view(seat) == game.view(seat), f"the record replays otherwise for {seat}"


SessionMachine.TestCase.settings = settings(
    max_examples=int(os.environ.get("STATEFUL_EXAMPLES", "50")),
    stateful_step_count=int(os.environ.get("STATEFUL_STEPS", "50")),
    deadline=None,
    derandomize=not os.environ.get("STATEFUL_RANDOM"),
    phases=[Phase.explicit, Phase.reuse, Phase.generate]
    if os.environ.get("STATEFUL_NOSHRINK")
    else list(Phase),
)
test_session_machine = SessionMachine.TestCase


# -- minimal reproductions of what the machine found ------------------------------------------


def _feed(mirrors: dict[str, Mirror], out: list[Outbound]) -> None:
    for o in out:
        mirrors[o.conn].feed(json.loads(o.text))


def test_a_seat_rejoining_after_a_paused_restart_is_told_its_moved_deadline(tmp_path: Path) -> None:
    config = SessionConfig(time=TimeControl(turn=30.0))  # restart="pause", the default
    store = SQLiteStore(tmp_path / "s.db")
    session = Session.create("golf", ["A", "B"], now=0.0, seed=5, config=config, store=store)
    mirrors = {"a": Mirror(), "b": Mirror()}
    _feed(mirrors, session.handle("a", '{"type": "join", "seat": 0}', 1.0))
    _feed(mirrors, session.handle("b", '{"type": "join", "seat": 1}', 1.0))
    assert mirrors["a"].clocks == session.clocks.public(0) == {"turn": {"0": 31.0}, "total": None}
    resumed = Session.resume(SQLiteStore(tmp_path / "s.db"), session.id, 20.0)  # 19 s down
    assert resumed.clocks.public(0) == {"turn": {"0": 50.0}, "total": None}
    join = {"type": "join", "seat": 0, "token": mirrors["a"].token, "last": mirrors["a"].last}
    _feed(mirrors, resumed.handle("a", json.dumps(join), 20.0))
    assert mirrors["a"].view == resumed.game.view(0)
    assert mirrors["a"].clocks == resumed.clocks.public(0)  # the client still shows 31.0


def test_a_real_time_seat_is_not_told_when_another_seats_idle_clock_starts_over() -> None:
    config = SessionConfig(time=TimeControl(turn=20.0))
    session = Session.create("spit", ["A", "B"], now=0.0, seed=2, config=config)
    mirrors = {"a": Mirror(), "b": Mirror()}
    _feed(mirrors, session.handle("a", '{"type": "join", "seat": 0}', 0.0))
    _feed(mirrors, session.handle("b", '{"type": "join", "seat": 1}', 0.0))
    steps = (
        ("a", "ready", 0.0),
        ("b", "ready", 0.0),
        ("a", "spit", 1.0),
        ("b", "combine 2 3", 5.0),
    )
    for conn, action, now in steps:
        act = {"type": "act", "action": action, "seen": mirrors[conn].version}
        out = session.handle(conn, json.dumps(act), now)
        assert not [o for o in out if o.message["type"] == "error"], out
        _feed(mirrors, out)
    assert mirrors["b"].clocks == {"turn": {"1": 25.0}, "total": None}
    out = session.tick(21.0)  # seat 0 asked for a spit: its idle clock starts over, nothing played
    assert session.clocks.turn == {0: 41.0, 1: 25.0}
    assert [o.message for o in out if o.conn == "a"] == [
        {"type": "clocks", "clocks": {"turn": {"0": 41.0}, "total": None}}
    ]
    assert [o.message for o in out if o.conn == "b"] == []  # b's own clock did not change


def test_a_seat_rejoining_with_late_entropy_still_gets_its_seat() -> None:
    config = SessionConfig(fair=True, seat_entropy=True, entropy_wait=30.0)
    with mock.patch.object(FairDeal, "fresh", classmethod(_fresh)):
        session = Session.create("golf", ["A", "B"], now=0.0, config=config)
    session.handle("a", '{"type": "join", "seat": 0, "entropy": "ann"}', 0.0)
    out = session.handle("b", '{"type": "join", "seat": 1}', 0.0)
    token = next(o.message["token"] for o in out if o.message["type"] == "welcome")
    session.tick(31.0)  # seat 1 sent none: counted empty, the cards are dealt
    assert session.phase == "playing" and session.fair is not None
    assert session.fair.entropy == ["ann", ""]
    session.disconnect("b", 32.0)
    join = {"type": "join", "seat": 1, "token": token, "entropy": "bob"}
    out = session.handle("b", json.dumps(join), 33.0)
    assert next(o.message["type"] for o in out if o.conn == "b") == "welcome", out


def test_a_closed_session_welcomes_nobody_back() -> None:
    session = Session.create("golf", ["A", "B"], now=0.0, seed=5)
    token = session.handle("a", '{"type": "join", "seat": 0}', 1.0)[0].message["token"]
    session.handle("b", '{"type": "join", "seat": 1}', 1.0)
    closed = session.close(2.0)
    assert [(o.conn, o.message["type"], o.close) for o in closed] == [
        ("a", "closed", True),
        ("b", "closed", True),
    ]
    again = session.handle("a", json.dumps({"type": "join", "seat": 0, "token": token}), 3.0)
    watch = session.handle("w", '{"type": "watch"}', 3.0)
    assert [o.message["type"] for o in again + watch] == ["error", "error"]


class _FailingStore(MemoryStore):
    """A store whose commits fail once :attr:`failing` is set (a full disk)."""

    failing = False

    def commit(self, session_id: str, batch: Any) -> None:
        if self.failing:
            raise OSError("disk full")
        super().commit(session_id, batch)


def test_a_client_ahead_of_a_restored_stream_gets_the_restored_view() -> None:
    store = _FailingStore()
    session = Session.create("golf", ["A", "B"], now=0.0, seed=5, store=store)
    mirrors = {"a": Mirror(), "b": Mirror()}
    _feed(mirrors, session.handle("a", '{"type": "join", "seat": 0}', 1.0))
    _feed(mirrors, session.handle("b", '{"type": "join", "seat": 1}', 1.0))
    store.failing = True  # the next write fails; the game goes on
    _feed(mirrors, session.handle("a", '{"type": "act", "action": "flip 0", "seen": 0}', 2.0))
    assert session.store_error is not None and mirrors["a"].version == 1
    resumed = Session.resume(store, session.id, 3.0)  # the process died before the next write
    assert resumed.game is not None and resumed.game.version == 0
    assert resumed.streams[0].n < mirrors["a"].last
    join = {"type": "join", "seat": 0, "token": mirrors["a"].token, "last": mirrors["a"].last}
    _feed(mirrors, resumed.handle("a", json.dumps(join), 3.0))
    assert mirrors["a"].version == resumed.game.version  # the client still shows version 1
    assert mirrors["a"].view == resumed.game.view(0)


def test_a_seat_rejoining_after_a_paused_restart_is_told_its_moved_entropy_deadline() -> None:
    store = MemoryStore()
    config = SessionConfig(fair=True, seat_entropy=True, entropy_wait=30.0)
    with mock.patch.object(FairDeal, "fresh", classmethod(_fresh)):
        session = Session.create("golf", ["A", "B"], now=0.0, store=store, config=config)
    mirrors = {"a": Mirror(), "b": Mirror()}
    _feed(mirrors, session.handle("a", '{"type": "join", "seat": 0, "entropy": "x"}', 1.0))
    _feed(mirrors, session.handle("b", '{"type": "join", "seat": 1}', 1.0))
    assert mirrors["a"].lobby is not None and mirrors["a"].lobby["entropy_deadline"] == 31.0
    resumed = Session.resume(store, session.id, 11.0)  # 10 s down
    assert resumed.entropy_deadline == 41.0
    join = {"type": "join", "seat": 0, "token": mirrors["a"].token, "last": mirrors["a"].last}
    _feed(mirrors, resumed.handle("a", json.dumps(join), 11.0))
    assert mirrors["a"].lobby["entropy_deadline"] == resumed.entropy_deadline  # still 31.0
