"""A hostile-client review of ``cardcore serve`` with Cheat (2026-12-14).

Cheat (``tests/plugins/cheat_2026_12_14.py``, written from the docs) is the game with the most
hidden information served so far: cards laid face down that only their layer knows, until a
challenge shows them, and a taken pile whose unrevealed cards stay hidden from all but the
taker (and each card's layer). Its doubt window is a simultaneous phase: every other seat
answers ``doubt`` or ``pass`` in any order.

Every frame the server sends is checked by an oracle that does not ask the engine what a
seat sees: it remembers, from the privileged state, every card that was ever in the seat's
hand and every card a challenge revealed, and any other card named anywhere in a frame
(errors included) is a leak. The HTTP answers (session, listing, games, record and replay
before the end) are checked for cards too.

Then a hostile client: malformed frames, wrong types, stale and replayed ``seen``, another
seat's action, a spectator acting, a token of another game, rapid reconnects, too many
sockets, a flood, odd names; and the doubt window over the network (two doubts at once, pass
then doubt, a late answer landing in the next window, a seat that drops mid-window).
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest

import cardcore
from cardcore.session import Limits, Mirror, Outbound
from cardcore.web import WebServer
from tests.plugins import cheat_2026_12_14 as ch
from tests.plugins import cheat_rules_2026_12_14 as house
from tests.web.helpers import TestClient, Watchdog, create, create_app

NAME = ch.NAME
CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([SHDC])(?![A-Za-z0-9])")
RANDOM_KEYS = {"token", "session", "link", "watch", "record", "commitment"}
"""Fields of random text (ids, tokens) that may spell a card by chance: not card names."""

FAST = Limits(rate=5000.0, burst=5000, close_after=5000)
"""Limits no test here reaches, but for the flood test."""


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    cardcore.register("cardcore.games", NAME, ch)
    cardcore.register("cardcore.rules", house.NAME, house)
    yield
    cardcore.unregister("cardcore.rules", house.NAME)
    cardcore.unregister("cardcore.games", NAME)


def cards_named(value: Any, key: str = "") -> set[str]:
    """Every card word anywhere in a JSON value (keys of random text skipped)."""
    if key in RANDOM_KEYS:
        return set()
    if isinstance(value, str):
        return {a + b for a, b in CARD.findall(value)}
    if isinstance(value, dict):
        out: set[str] = set()
        for k, v in value.items():
            out |= cards_named(k) | cards_named(v, k)
        return out
    if isinstance(value, list):
        return set().union(*(cards_named(v) for v in value)) if value else set()
    return set()


class Oracle:
    """What each seat may know in each Cheat session, kept from the privileged state, and a
    check of every outbound frame against it (violations are collected, never raised inside
    the server)."""

    def __init__(self, server: WebServer) -> None:
        self.server = server
        self.known: dict[str, dict[int | None, set[str]]] = {}
        self.leaks: list[str] = []
        self.frames = 0
        server.host.observers.append(self.observe)

    def learn(self, sid: str, game: Any) -> dict[int | None, set[str]]:
        known = self.known.setdefault(sid, {None: set()})
        state = game.state
        revealed = set(state.revealed)
        known[None] |= revealed
        for s in range(state.players):
            mine = known.setdefault(s, set())
            mine |= {str(c) for c in state.zones.cards[ch.hand(s)]} | revealed
        return known

    def observe(self, out: Outbound) -> None:
        try:
            self._observe(out)
        except Exception as exc:  # reported, never raised in the server
            self.leaks.append(f"the oracle failed: {exc!r}")

    def _observe(self, out: Outbound) -> None:
        self.frames += 1
        message = json.loads(out.text)
        named = cards_named(message)
        for sid, session in self.server.hub.sessions.items():
            conn = session.conns.get(out.conn)
            if conn is None:
                continue
            game = session.game
            if game is None or session.setup.game != NAME:
                if named and game is None:
                    self.leaks.append(f"cards {named} before the deal: {message}")
                return
            known = self.learn(sid, game)
            if game.is_over:  # the record and the last view are public
                return
            leaked = named - known[conn.seat]
            if leaked:
                self.leaks.append(f"{sorted(leaked)} to seat {conn.seat}: {out.text[:400]}")
            return
        if named:  # a connection of no session: an error, a pong
            self.leaks.append(f"cards {named} to a connection of no session: {out.text[:300]}")


def seeded(server: WebServer, seed: int) -> WebServer:
    """Deal the lobby's games of *server* from *seed*, *seed* + 1, ... in the order they are
    created. The lobby draws each game's seed at random, so a check that holds on most deals
    only (seat 0 holds an ace, the doubts come often enough) would fail now and then."""
    create, seeds = server.hub.create, itertools.count(seed)

    def create_seeded(*args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("seed", next(seeds))
        return create(*args, **kwargs)

    server.hub.create = create_seeded  # type: ignore[method-assign]
    return server


@contextmanager
def served(
    limits: Limits = FAST, seed: int = 2026_12_14, **kwargs: Any
) -> Iterator[tuple[TestClient, WebServer, Oracle]]:
    kwargs.setdefault("bot_delay", 0.0)
    kwargs.setdefault("bot_pace", 0.05)
    server = seeded(WebServer(None, limits=limits, **kwargs), seed)
    oracle = Oracle(server)
    with TestClient(create_app(server), raise_server_exceptions=False) as client:
        yield client, server, oracle
    assert not oracle.leaks, oracle.leaks[:3]


class Conn:
    """One WebSocket: every frame kept, its view rebuilt, its stream numbers checked."""

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
        self.mirror.feed(message)  # raises on a gap in the stream's numbers
        return message

    def ask(self, message: dict[str, Any] | str) -> dict[str, Any]:
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

    def act(self, action: str, seen: int | None = None) -> dict[str, Any]:
        v = self.mirror.version if seen is None else seen
        return self.ask({"type": "act", "action": action, "seen": v})

    def follow(self, version: int) -> None:
        """Read until this connection's view is at *version*."""
        while self.mirror.version != version:
            self.recv()

    def numbers(self) -> list[int]:
        return [m["n"] for m in self.got if "n" in m]


def in_order(conn: Conn) -> None:
    """Every numbered message of *conn* follows the one before (a resync view may repeat
    the current number, nothing else may)."""
    ns = conn.numbers()
    assert all(b == a + 1 for a, b in itertools.pairwise(ns)), ns


class Table:
    """A Cheat session of three people (and a spectator) over WebSockets."""

    oracle: Oracle

    def __init__(self, client: TestClient, server: WebServer, stack: ExitStack, **extra: Any):
        self.client, self.server, self.stack = client, server, stack
        seats = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]
        self.sid = create(client, NAME, seats, **extra)["session"]
        self.seats: list[Conn] = []
        self.tokens: list[str] = []
        for s in range(3):
            c = self.connect()
            welcome = c.ask({"type": "join", "session": self.sid, "seat": s})
            assert welcome["type"] == "welcome", welcome
            self.seats.append(c)
            self.tokens.append(welcome["token"])
        self.spectator = self.connect()
        assert self.spectator.ask({"type": "watch", "session": self.sid})["type"] == "welcome"
        self.sync()

    def connect(self, **kw: Any) -> Conn:
        return Conn(self.stack.enter_context(self.client.websocket_connect("/ws", **kw)))

    @property
    def session(self) -> Any:
        return self.server.hub.sessions[self.sid]

    @property
    def game(self) -> Any:
        game = self.session.game
        assert game is not None
        return game

    def conns(self) -> list[Conn]:
        return [*self.seats, self.spectator]

    def sync(self) -> None:
        """Every connection follows the game to its version; each view is the engine's."""
        v = self.game.version
        for c in self.conns():
            c.follow(v)
        for s, c in enumerate(self.seats):
            assert c.mirror.view == self.game.view(s)
        assert self.spectator.mirror.view == self.game.view(None)

    def frozen(self) -> tuple[Any, ...]:
        g = self.game
        return g.version, json.dumps(g.record(), sort_keys=True), repr(g.position())

    def lay(self, seat: int, *positions: int, claim: bool = True) -> None:
        c = self.seats[seat]
        for p in positions:
            assert c.act(f"lay {p}")["type"] == "ok"
        if claim and self.game.state.phase == "play":
            assert c.act("claim")["type"] == "ok"
        self.sync()


@contextmanager
def cheat_table(limits: Limits = FAST, seed: int = 2026_12_14, **extra: Any) -> Iterator[Table]:
    with served(limits, seed) as (client, server, oracle), ExitStack() as stack:
        t = Table(client, server, stack, **extra)
        t.oracle = oracle
        yield t


def hand(game: Any, seat: int) -> list[str]:
    return ch.hand_of(game, seat)


# -- the oracle on a whole game ---------------------------------------------------------------


def test_a_whole_game_of_cheat_sends_no_face_down_card_to_anyone_who_may_not_know_it() -> None:
    """Random lays, lies, passes and doubts to the turn cap; every frame checked by the oracle,
    every view rebuilt equal to the engine's, every stream in order, the HTTP answers without
    a card while the game is on."""
    rng = random.Random(2026_12_14)
    with cheat_table(options={"max_turns": 14}) as t:
        games = t.client.get("/api/games").text
        public: dict[int, Any] = {}
        extra = t.connect()  # a second tab of seat 1
        assert extra.ask(
            {"type": "join", "session": t.sid, "seat": 1, "token": t.tokens[1], "last": 0}
        )["type"] == ("welcome")
        extra.follow(t.game.version)
        challenges = 0
        while not t.game.is_over:
            state = t.game.state
            if state.phase == "play":
                turn = state.turn
                n = rng.randint(1, 3)
                for _ in range(n):
                    if t.game.state.phase != "play":
                        break
                    size = len(t.seats[turn].mirror.view["zones"][1 + turn]["cards"])
                    assert t.seats[turn].act(f"lay {rng.randrange(size)}")["type"] == "ok"
                if t.game.state.phase == "play":
                    assert t.seats[turn].act("claim")["type"] == "ok"
            else:
                for s in rng.sample(list(state.to_act), len(state.to_act)):
                    if t.game.state.phase != "doubt" or t.game.is_over:
                        break
                    word = "doubt" if rng.random() < 0.45 else "pass"
                    challenges += word == "doubt"
                    assert t.seats[s].act(word)["type"] == "ok"
            if not t.game.is_over:
                t.sync()
                public[t.game.version] = t.game.view(None)
                extra.follow(t.game.version)
                assert extra.mirror.view == t.game.view(1)
                for path in (f"/api/sessions/{t.sid}", "/api/sessions"):
                    r = t.client.get(path)
                    assert r.status_code == 200
                    assert not cards_named(r.json()), (path, r.text[:300])
                assert t.client.get("/api/games").text == games  # (its docs name cards)
                for path in (f"/api/sessions/{t.sid}/record", f"/api/sessions/{t.sid}/replay/3"):
                    r = t.client.get(path)
                    assert r.status_code == 409 and not cards_named(r.json()), r.text
        assert challenges >= 3
        for c in [*t.conns(), extra]:
            c.ask({"type": "ping"})
            in_order(c)
        assert t.oracle.frames > 200
        # over: the record is public (every card of the deal)
        r = t.client.get(f"/api/sessions/{t.sid}/record")
        assert r.status_code == 200
        record = r.json()
        assert record["game"] == NAME and len(record["actions"]) == t.game.version
        # the replay shows each step's public view: no card a spectator did not see then
        for k in sorted(public)[::4]:
            r = t.client.get(f"/api/sessions/{t.sid}/replay/{k}")
            assert r.status_code == 200 and r.json()["view"] == public[k], k


def test_the_oracle_catches_a_face_down_card_named_to_another_seat() -> None:
    """The check above can fail: a frame naming seat 0's laid card, sent to seat 1, is a leak."""
    with cheat_table() as t:
        laid = hand(t.game, 0)[0]
        t.lay(0, 0)
        assert laid not in t.oracle.known[t.sid][1]
        conn = next(cid for cid, c in t.session.conns.items() if c.seat == 1)
        bad = {"type": "error", "message": f"bad {laid}"}
        t.oracle.observe(Outbound(conn, bad, json.dumps(bad)))
        assert t.oracle.leaks and laid in t.oracle.leaks[0]
        t.oracle.leaks.clear()


def test_the_laid_cards_are_the_layers_alone_until_a_challenge_shows_them() -> None:
    with cheat_table() as t:
        laid = hand(t.game, 0)[:2]
        t.lay(0, 0, 0)
        for s, c in enumerate(t.seats):
            centre = c.mirror.view["zones"][0]["cards"]
            if s == 0:
                assert sorted(centre) == sorted(laid)
            else:
                assert centre == [None, None]
                assert not set(laid) & cards_named(c.got)
        assert not set(laid) & cards_named(t.spectator.got)
        assert t.seats[1].act("doubt")["type"] == "ok"
        t.sync()
        for c in t.conns():  # shown to all now
            assert set(laid) <= set(c.mirror.view["table"]["revealed"])


def test_a_taken_pile_keeps_its_unrevealed_cards_hidden_from_the_others() -> None:
    """Seat 0 lays two (seat 1 passes, seat 2 passes); seat 1 lays one and is doubted by seat 2:
    the taker gets the whole pile, the others learn only the challenged card."""
    with cheat_table() as t:
        first = hand(t.game, 0)[:2]
        t.lay(0, 0, 0)
        assert t.seats[1].act("pass")["type"] == "ok"
        assert t.seats[2].act("pass")["type"] == "ok"
        t.sync()
        second = hand(t.game, 1)[0]
        t.lay(1, 0)
        assert t.seats[2].act("doubt")["type"] == "ok"
        t.sync()
        taker = 1 if second[:-1] != "2" else 2
        assert set(first) <= set(hand(t.game, taker))
        for s, c in enumerate(t.seats):
            if s not in (0, taker):
                assert not set(first) & cards_named(c.got), s
        assert not set(first) & cards_named(t.spectator.got)


# -- the doubt window over the network --------------------------------------------------------


def test_two_doubts_at_once_one_challenge_and_the_other_is_stale() -> None:
    with cheat_table() as t:
        t.lay(0, 0)
        seen = t.game.version
        a, b = t.seats[1], t.seats[2]
        a.send({"type": "act", "action": "doubt", "seen": seen, "id": "a"})
        b.send({"type": "act", "action": "doubt", "seen": seen, "id": "b"})
        replies = []
        for c, mid in ((a, "a"), (b, "b")):
            while True:
                m = c.recv()
                if m.get("id") == mid:
                    replies.append(m)
                    break
        kinds = sorted(m["type"] for m in replies)
        assert kinds == ["error", "ok"], replies
        err = next(m for m in replies if m["type"] == "error")
        assert err["code"] == "stale", err
        assert t.game.version == seen + 1  # one challenge
        assert t.game.state.phase == "play"
        t.sync()
        for c in t.conns():
            ups = [m for m in c.got if m["type"] == "update" and m["version"] == seen + 1]
            assert len(ups) == 1
            assert [e["event"] for e in ups[0]["events"]].count("cheat-challenged") == 1
            in_order(c)


def test_pass_then_doubt_is_refused_and_the_other_seat_may_still_doubt_on_its_old_view() -> None:
    with cheat_table() as t:
        t.lay(0, 0)
        seen = t.game.version
        assert t.seats[1].act("pass")["type"] == "ok"
        before = t.frozen()
        again = t.seats[1].act("doubt")
        assert (again["type"], again.get("code"), again.get("rule")) == (
            "error",
            "illegal",
            "CHEAT-DOUBT-1",
        ), again
        assert t.frozen() == before
        # bids of a simultaneous phase made face down: seat 2's view before the pass is fine
        assert t.seats[2].act("doubt", seen=seen)["type"] == "ok"
        t.sync()
        assert t.game.state.phase == "play" and t.game.state.revealed


def test_a_duplicated_pass_or_claim_changes_nothing() -> None:
    with cheat_table() as t:
        assert t.seats[0].act("lay 0")["type"] == "ok"
        seen = t.game.version
        assert t.seats[0].act("claim", seen=seen)["type"] == "ok"
        before = t.frozen()
        dup = t.seats[0].act("claim", seen=seen)
        assert dup["type"] == "error" and dup["code"] in ("stale", "illegal"), dup
        assert t.frozen() == before
        seen = t.game.version
        assert t.seats[1].act("pass", seen=seen)["type"] == "ok"
        before = t.frozen()
        dup = t.seats[1].act("pass", seen=seen)
        assert dup["type"] == "error" and dup["code"] in ("stale", "illegal"), dup
        assert t.frozen() == before
        t.sync()
        for c in t.conns():
            in_order(c)


def test_a_late_doubt_never_lands_on_the_next_claim() -> None:
    """Seat 2's ``doubt`` of seat 0's claim, sent with that window's version, arrives after the
    window closed and seat 1 has claimed: it must be stale, not a challenge of seat 1."""
    with cheat_table() as t:
        t.lay(0, 0)
        old = t.game.version
        assert t.seats[1].act("pass")["type"] == "ok"
        assert t.seats[2].act("pass")["type"] == "ok"
        t.sync()
        closed = t.game.version
        t.lay(1, 0)
        assert t.game.state.phase == "doubt" and 2 in t.game.state.to_act
        before = t.frozen()
        for seen in (old, closed):
            late = t.seats[2].act("doubt", seen=seen)
            assert (late["type"], late.get("code")) == ("error", "stale"), late
            assert t.frozen() == before
        # and a late answer when the window is closed and nothing is to judge: stale too
        assert t.seats[0].act("pass")["type"] == "ok"
        assert t.seats[2].act("pass")["type"] == "ok"
        t.sync()
        before = t.frozen()
        late = t.seats[0].act("doubt", seen=closed + 1)
        assert (late["type"], late.get("code")) == ("error", "stale"), late
        now = t.seats[0].act("doubt")
        assert (now["type"], now.get("code")) == ("error", "illegal"), now
        assert t.frozen() == before


def test_a_lay_by_a_position_seen_before_the_hand_was_shuffled_is_stale() -> None:
    """Seat 1 doubts an honest claim, takes the pile (its hand shuffled) and is next to lay: a
    ``lay`` made on the view before would name another card; refused as stale."""
    for seed in range(30):  # the first of these deals giving seat 0 an ace to claim
        with cheat_table(seed=seed) as t:
            aces = [c for c in hand(t.game, 0) if c.startswith("A")]
            if not aces:
                continue
            t.lay(0, hand(t.game, 0).index(aces[0]))
            seen = t.game.version
            assert t.seats[1].act("doubt")["type"] == "ok"
            assert t.game.state.to_act == (1,) and aces[0] in hand(t.game, 1)
            before = t.frozen()
            late = t.seats[1].act("lay 0", seen=seen)
            assert (late["type"], late.get("code")) == ("error", "stale"), late
            assert t.frozen() == before
            return
    pytest.fail("no deal in 30 gave seat 0 an ace")


def test_a_seat_dropped_mid_window_rejoins_with_what_it_missed_and_answers() -> None:
    with cheat_table() as t:
        t.lay(0, 0)
        with t.client.websocket_connect("/ws") as ws:  # seat 2's phone, dropped mid-window
            phone = Conn(ws)
            phone.mirror = copy.deepcopy(t.seats[2].mirror)
            phone.ask({"type": "join", "session": t.sid, "seat": 2, "token": t.tokens[2]})
        saved = copy.deepcopy(phone.mirror)
        last = saved.last
        assert t.seats[1].act("pass")["type"] == "ok"
        t.sync()
        back = t.connect()
        back.mirror = saved
        welcome = back.ask(
            {"type": "join", "session": t.sid, "seat": 2, "token": t.tokens[2], "last": last}
        )
        assert welcome["type"] == "welcome" and "token" not in welcome, welcome
        back.follow(t.game.version)
        assert back.mirror.view == t.game.view(2)
        missed = [m["n"] for m in back.got if "n" in m]
        assert missed and missed == list(range(last + 1, last + 1 + len(missed)))
        assert back.act("doubt")["type"] == "ok"
        t.sync()
        back.follow(t.game.version)
        assert back.mirror.view == t.game.view(2)


def test_rapid_reconnects_of_one_seat_cost_the_others_nothing() -> None:
    with cheat_table() as t:
        t.lay(0, 0)
        for _ in range(12):
            with t.client.websocket_connect("/ws") as ws:
                c = Conn(ws)
                w = c.ask({"type": "join", "session": t.sid, "seat": 2, "token": t.tokens[2]})
                assert w["type"] == "welcome"
        assert t.seats[1].act("pass")["type"] == "ok"
        assert t.seats[2].act("doubt")["type"] == "ok"
        t.sync()
        for c in t.conns():
            in_order(c)
            ups = [m["version"] for m in c.got if m["type"] == "update"]
            assert ups == list(range(1, t.game.version + 1)), ups


def test_too_many_sockets_for_one_seat_are_refused_and_the_rest_play_on() -> None:
    with cheat_table() as t:
        extra = []
        for _ in range(FAST.max_per_seat - 1):
            c = t.connect()
            assert c.ask({"type": "join", "session": t.sid, "seat": 0, "token": t.tokens[0]})[
                "type"
            ] == ("welcome")
            extra.append(c)
        over = t.connect()
        reply = over.ask({"type": "join", "session": t.sid, "seat": 0, "token": t.tokens[0]})
        assert (reply["type"], reply.get("code")) == ("error", "full"), reply
        t.lay(0, 0)
        for c in extra:
            c.follow(t.game.version)
            assert c.mirror.view == t.game.view(0)


# -- hostile frames on a live game ------------------------------------------------------------


HOSTILE = [
    "{",
    "[]",
    "null",
    '"act"',
    "{}",
    '{"type": 7}',
    '{"type": "bogus"}',
    '{"type": "act", "action": 5, "seen": 1}',
    '{"type": "act", "action": "doubt", "seen": "1"}',
    '{"type": "act", "action": "doubt", "seen": -1}',
    '{"type": "act", "action": "doubt", "seen": 1.0e300}',
    '{"type": "act", "action": "doubt", "seen": 99999}',
    '{"type": "act", "action": "doubt"}',
    '{"type": "act", "action": "doubt", "seen": 1, "seat": 0}',
    '{"type": "act", "action": "doubt", "seen": 1, "seat": "1"}',
    '{"type": "act", "action": "doubt", "seen": 1, "x": 1}',
    '{"type": "act", "action": "doubt\\u0000", "seen": 1}',
    '{"type": "act", "action": "lay 0", "seen": 1}',
    '{"type": "act", "action": "claim", "seen": 1}',
    '{"type": "act", "action": "doubt 7H", "seen": 1}',
    '{"type": "act", "action": "\\u202edoubt", "seen": 1}',
    '{"type": "act", "action": "' + "x" * 300 + '", "seen": 1}',
    '{"type": "join", "session": "nope", "seat": 1}',
    '{"type": "resync", "last": "x"}',
    '{"type": "resync", "last": -5}',
    '{"type": "takeback", "op": "steal"}',
    '{"type": "history", "since": -1}',
    '{"type": "record"}',
    '{"type": "entropy", "value": "x"}',
    '{"type": "ping", "pad": "' + "y" * 9000 + '"}',
    '{"type": "ping", "id": "' + "z" * 65 + '"}',
    '{"type": "act", "action": "doubt", "seen": 1, "type": "act"}',
]


def test_hostile_frames_from_a_seat_mid_window_get_an_error_and_cost_nobody_an_event() -> None:
    with cheat_table() as t:
        t.lay(0, 0)
        assert t.game.version == 2
        before = t.frozen()
        bad = t.seats[1]
        for text in HOSTILE:
            reply = bad.ask(text)
            assert reply.get("type") == "error", (text[:60], reply)
            assert reply["code"] in cardcore.session.protocol.ERROR_CODES, reply
            assert reply["message"], reply
            assert t.frozen() == before, text[:60]
        # a 2 MiB frame: read and refused (the 1 MiB close is uvicorn's, not in process)
        big = bad.ask('{"type": "ping", "pad": "' + "w" * (2 << 20) + '"}')
        assert (big.get("type"), big.get("code")) == ("error", "too-large"), big
        # a binary frame is read as text
        bad.ws.send_bytes(json.dumps({"type": "ping", "id": "bin"}).encode())
        assert bad.recv()["type"] == "pong"
        assert t.frozen() == before
        # nobody else heard of it: their next message is the next update
        for c in (t.seats[0], t.seats[2], t.spectator):
            c.ask({"type": "ping"})
            assert not [m for m in c.got if m["type"] == "error"]
        assert bad.act("doubt")["type"] == "ok"
        t.sync()
        for c in t.conns():
            in_order(c)


def test_a_spectator_cannot_act_and_a_seat_cannot_act_for_another() -> None:
    with cheat_table() as t:
        t.lay(0, 0)
        before = t.frozen()
        r = t.spectator.act("doubt", seen=t.game.version)
        assert (r["type"], r.get("code")) == ("error", "not-a-seat"), r
        r = t.spectator.ask({"type": "act", "action": "doubt", "seen": t.game.version, "seat": 1})
        assert (r["type"], r.get("code")) in (("error", "not-a-seat"), ("error", "not-your-seat"))
        r = t.seats[1].ask({"type": "act", "action": "pass", "seen": t.game.version, "seat": 2})
        assert (r["type"], r.get("code")) == ("error", "not-your-seat"), r
        assert t.frozen() == before


def test_a_seat_token_is_worth_nothing_in_another_game_or_for_another_seat() -> None:
    with cheat_table() as t, ExitStack() as stack:
        other = Table(t.client, t.server, stack)
        for sid, seat, token in (
            (other.sid, 0, t.tokens[0]),  # another game's, claimed seat
            (t.sid, 1, t.tokens[0]),  # another seat's of this game
            (t.sid, 0, t.tokens[0][:-1] + ("A" if t.tokens[0][-1] != "A" else "B")),
        ):
            c = t.connect()
            r = c.ask({"type": "join", "session": sid, "seat": seat, "token": token})
            assert (r["type"], r.get("code")) == ("error", "bad-token"), r
            r = c.act("lay 0", seen=0)
            assert r["type"] == "error" and r["code"] == "not-joined", r
        assert t.game.version == other.game.version == 0


def test_a_flood_from_one_seat_is_rate_limited_and_the_others_get_every_update() -> None:
    clock = [1000.0]  # frozen: no token earned during the flood
    limits = Limits(rate=1.0, burst=40, close_after=60)
    with served(limits, clock=lambda: clock[0]) as (client, server, _oracle), ExitStack() as st:
        t = Table(client, server, st)
        clock[0] += 1000
        t.lay(0, 0)
        clock[0] += 1000
        before = t.frozen()
        flooder = t.seats[2]
        for _ in range(50):
            flooder.send({"type": "act", "action": "lay 0", "seen": 2})
        errors: list[dict[str, Any]] = []
        while len(errors) < 51:
            m = flooder.recv()
            if m["type"] == "error":
                errors.append(m)
            if m["type"] == "error" and m["code"] == "rate-limited":
                break
        assert errors[-1]["code"] == "rate-limited", errors[-3:]
        assert t.frozen() == before
        clock[0] += 1000
        assert t.seats[1].act("doubt")["type"] == "ok"
        for c in (t.seats[0], t.seats[1], t.spectator):
            c.follow(t.game.version)
            in_order(c)


# -- the lobby: names, origin, limits --------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["Bo\u0007b", "\u202eboB", "\u200b\u200b", "Ann", "\u0410nn", "a\nb", "\ufeff"],
    ids=["bell", "rtl-override", "zero-width", "same", "cyrillic-A", "newline", "bom"],
)
def test_a_cheat_lobby_refuses_names_that_hide_or_pose(name: str) -> None:
    with served() as (client, server, _oracle):
        seats = [{"name": "Ann"}, {"name": name}, {"name": "Cy"}]
        r = client.post("/api/sessions", json={"game": NAME, "seats": seats})
        assert r.status_code == 400, r.text
        assert r.json()["error"]
        assert not server.hub.sessions


def test_a_long_unicode_name_is_cut_to_40_characters_and_served() -> None:
    with served() as (client, _server, _oracle):
        seats = [
            {"name": "\u00c9lodie-" + "\u00e9" * 60},
            {"name": "Bob"},
            {"name": "\u674e\u96f7"},
        ]
        r = client.post("/api/sessions", json={"game": NAME, "seats": seats})
        assert r.status_code == 201, r.text
        names = [s["name"] for s in r.json()["seats"]]
        assert len(names[0]) == 40 and names[2] == "\u674e\u96f7"


def test_a_page_of_another_site_can_neither_create_a_cheat_game_nor_open_its_socket() -> None:
    from starlette.websockets import WebSocketDisconnect

    with served() as (client, server, _oracle):
        body = {"game": NAME, "seats": [{}, {}, {}]}
        evil = {"origin": "https://evil.example"}
        r = client.post("/api/sessions", json=body, headers=evil)
        assert r.status_code == 403 and not server.hub.sessions
        sid = create(client, NAME, [{}, {}, {}])["session"]
        with (
            pytest.raises(WebSocketDisconnect) as info,
            client.websocket_connect("/ws", headers=evil) as ws,
        ):
            ws.send_text(json.dumps({"type": "join", "session": sid, "seat": 0}))
            ws.receive_text()
        assert info.value.code == 1008
        assert not server.hub.sessions[sid].tokens  # nothing claimed


def test_a_new_game_past_the_limit_is_429_with_retry_after() -> None:
    from cardcore.web.app import ServerLimits

    with served(server_limits=ServerLimits(max_sessions=1)) as (client, server, _oracle):
        create(client, NAME, [{}, {}, {}])
        r = client.post("/api/sessions", json={"game": NAME, "seats": [{}, {}, {}]})
        assert r.status_code == 429 and r.headers["retry-after"] == "60"
        assert "1" in r.json()["error"] and len(server.hub.sessions) == 1


def test_a_waiting_cheat_game_is_not_listed_and_a_playing_one_is() -> None:
    with cheat_table() as t:
        waiting = create(t.client, NAME, [{}, {}, {}])["session"]
        r = t.client.get("/api/sessions")
        ids = [s["session"] for s in r.json()]
        assert t.sid in ids and waiting not in ids
        assert r.headers["x-total-count"] == "1"
        assert "default-src 'self'" in t.client.get("/").headers["content-security-policy"]


# -- Tonk and Golf for comparison --------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "agent", "options"),
    [("tonk", "random", {}), ("golf", "golf-greedy", {"rounds": 1})],
)
def test_a_spectator_and_a_seat_of_a_bot_game_see_no_hidden_card(
    game: str, agent: str, options: dict[str, Any]
) -> None:
    """The same kind of hostile watching on the built-in games (the session kit's leak check
    on every frame): a seat that never acts and a spectator churning resyncs."""
    server = seeded(WebServer(None, bot_delay=0.0, bot_pace=0.05, limits=FAST), 2026_12_14)
    dog = Watchdog(server)
    with TestClient(create_app(server)) as client:
        seats = [{"name": "Ann"}, {"name": "Bot", "agent": agent, "params": {"seed": 3}}]
        sid = create(client, game, seats, options=options)["session"]
        with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as wb:
            a, spec = Conn(wa), Conn(wb)
            a.ask({"type": "join", "session": sid, "seat": 0})
            spec.ask({"type": "watch", "session": sid})
            game_ = server.hub.sessions[sid].game
            assert game_ is not None
            for _ in range(400):
                if game_.is_over:
                    break
                if a.mirror.view and 0 in a.mirror.view["to_act"] and a.mirror.view["legal"]:
                    bad = a.act("draw 99")
                    assert bad["type"] == "error" and not cards_named(bad["message"])
                    assert a.act(a.mirror.view["legal"][-1])["type"] == "ok"
                else:
                    a.ask({"type": "ping"})
                    time.sleep(0.005)
            assert game_.is_over
            spec.ask({"type": "resync", "last": 0})
            assert client.get(f"/api/sessions/{sid}/record").status_code == 200
        assert dog.frames > 0


def test_the_house_rule_and_its_option_over_the_lobby() -> None:
    """``max_cards`` (the game's own hook) is served: one card a turn claims at once; an option
    out of its bounds is refused with the library's message before anything is created."""
    with served() as (client, server, _oracle):
        body = {"game": NAME, "seats": [{}, {}, {}], "rules": [house.NAME]}
        r = client.post("/api/sessions", json={**body, "options": {"max_cards": 9}})
        assert r.status_code == 400 and "max_cards" in r.json()["error"], r.text
        assert not server.hub.sessions
    with cheat_table(rules=[house.NAME], options={"max_cards": 1}) as t:
        assert t.session.setup.rules
        t.lay(0, 3, claim=False)
        assert t.game.state.phase == "doubt" and t.game.state.laid == 1
