"""A hostile client of the real-time third-party games (2026-12-16): Ratscrew and Nertz.

Egyptian Ratscrew (``tests/plugins/ratscrew_2026_12_16.py``: flips in turn, slap races, every
pile hidden from everyone, its owner included) and Nertz (``tests/plugins/nertz_2026_12_15.py``:
face-down nertz and stock cards known to nobody), each driven through a :class:`Session` on a
virtual clock (one connection per seat, a spectator), and Ratscrew once over the web server's
WebSocket in a TestClient.

Every frame the server sends goes through the session kit's leak check (each card it names is
in a view or a redacted event of that connection's seat so far; each rebuilt view equals
``game.view(seat)``; each update's events are the seat's redacted events); an error may quote
back only what its own connection sent. The side-channel tests play the same public actions
on two decks that differ only where nobody may look, hostile probes included, and require
every frame to every connection to be byte for byte the same.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import cardcore
from cardcore import STALE_WINDOW
from cardcore.session import MemoryStore, Session, SessionConfig
from tests.plugins import nertz_2026_12_15 as nz
from tests.plugins import ratscrew_2026_12_16 as rs
from tests.session.kit import Table

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [f"{r}{s}" for s in "SHDC" for r in RANKS]


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    for mod in (rs, nz):
        cardcore.register("cardcore.games", mod.NAME, mod)
    yield
    for mod in (rs, nz):
        cardcore.unregister("cardcore.games", mod.NAME)


class Hostile(Table):
    """The kit's table, sending any text or bytes; an error may quote what its own
    connection sent (read as JSON when it is JSON, so the quote is found)."""

    def send(self, conn: str, message: Any, dt: float = 0.06) -> list[dict[str, Any]]:
        self.now += dt  # paced under the default rate (20 a second) unless dt=0
        text = message if isinstance(message, str | bytes) else json.dumps(message)
        try:
            self.echo[conn] = json.loads(text)
        except (ValueError, RecursionError):
            self.echo[conn] = text if isinstance(text, str) else ""
        if isinstance(message, dict):
            if message.get("type") == "join":
                self.seats[conn] = message["seat"]
            elif message.get("type") == "watch":
                self.seats[conn] = None
        return self._take(self.session.handle(conn, text, self.now), conn)

    def act(
        self, conn: str, action: str, dt: float = 0.06, *, seen: int | None = None
    ) -> list[dict[str, Any]]:
        version = self.mirrors[conn].version if seen is None else seen
        return self.send(conn, {"type": "act", "action": action, "seen": version}, dt)

    @property
    def game(self) -> Any:
        return self.session.game

    def mark(self) -> int:
        return len(self.outbound)

    def since(self, mark: int, conn: str | None = None) -> list[dict[str, Any]]:
        return [json.loads(o.text) for o in self.outbound[mark:] if conn is None or o.conn == conn]

    def conns_since(self, mark: int) -> set[str]:
        return {o.conn for o in self.outbound[mark:]}


def table(game: str, players: int, *, deck: list[str] | None = None, **config: Any) -> Hostile:
    session = Session.create(
        game,
        players,
        now=0.0,
        seed=11,
        deck=deck,
        config=SessionConfig(**config),
        store=MemoryStore(),
    )
    t = Hostile(session)
    for seat in range(players):
        t.send("abcd"[seat], {"type": "join", "seat": seat})
    t.send("w", {"type": "watch"})
    return t


def only_error(replies: list[dict[str, Any]]) -> dict[str, Any]:
    (err,) = [m for m in replies if m["type"] in ("ok", "error")]
    assert err["type"] == "error", err
    return err


def ok(replies: list[dict[str, Any]]) -> None:
    (reply,) = [m for m in replies if m["type"] in ("ok", "error")]
    assert reply["type"] == "ok", reply


def shuffled(seed: int, cards: list[str]) -> list[str]:
    out = list(cards)
    random.Random(seed).shuffle(out)
    return out


# ------------------------------------------------------------------------------ Ratscrew


def rats_center(t: Hostile) -> list[str]:
    return [str(c) for c in t.game.state.zones.cards[rs.CENTER]]  # bottom to top


def rats_pile(t: Hostile, seat: int) -> list[str]:
    return [str(c) for c in t.game.state.zones.cards[rs.pile(seat)]]  # bottom to top


def rats_step(t: Hostile) -> None:
    """The seat whose turn it is flips (or takes a won challenge)."""
    st = t.game.state
    ok(t.act("abc"[st.turn], "take" if st.collect else "flip"))


def test_rats_slaps_naming_hidden_cards_are_refused_alike_and_change_nothing() -> None:
    t = table(rs.NAME, 3)
    rats_step(t)
    rats_step(t)
    top = rats_center(t)[-1]
    v = t.game.version
    probes = {
        "next flip of seat 1": rats_pile(t, 1)[-1],
        "bottom of seat 0's own pile": rats_pile(t, 0)[0],
        "a card of seat 2's pile": rats_pile(t, 2)[5],
        "a card in no deck": "JK",
    }
    texts = {}
    for what, card in probes.items():
        mark = t.mark()
        err = only_error(t.act("a", f"slap {card}"))
        assert (err["code"], err["rule"]) == ("illegal", "RATS-SLAP-1"), what
        texts[what] = err["message"].replace(card, "X")
        assert t.conns_since(mark) == {"a"}, what  # nothing to another seat or the spectator
        assert t.game.version == v
    # one wording whether the card is next to flip, at the bottom, elsewhere or nowhere
    assert set(texts.values()) == {f"the center's top card is {top}, not X (RATS-SLAP-1)"}
    # out-of-turn flip and a take without a challenge: refused, citing the rule, nothing sent
    mark = t.mark()
    assert only_error(t.act("a", "flip"))["rule"] == "RATS-TURN-1"
    assert only_error(t.act("b", "take"))["rule"] == "RATS-FACE-3"
    assert t.conns_since(mark) == {"a", "b"} and t.game.version == v


def test_rats_side_channel_frames_are_byte_identical_when_hidden_cards_differ() -> None:
    """Two decks that differ only in the order of seat 1's two bottom cards (nobody knows
    them, its owner included): the same public play, slaps naming those very cards, a
    spectator, a rejoin and a resync give every connection the very same bytes."""
    base = shuffled(3, DECK)
    other = list(base)
    other[1], other[4] = other[4], other[1]  # the first two cards dealt to seat 1: its bottom
    runs = []
    for deck in (base, other):
        t = table(rs.NAME, 3, deck=deck)
        bottom = rats_pile(t, 1)[:2]
        assert sorted(bottom) == sorted([base[1], base[4]])
        for i in range(12):
            rats_step(t)
            t.act("c", f"slap {base[1]}")  # naming the hidden cards
            t.act("b", f"move {base[4]} 0")  # not a ratscrew action
            if i == 5:
                token = t.mirrors["b"].token
                t.send("b2", {"type": "join", "seat": 1, "token": token, "last": 0})
                t.send("a", {"type": "resync", "last": 0})
                t.send("w", {"type": "history"})
        assert rats_pile(t, 1)[:2] == bottom  # never flipped
        runs.append([(o.conn, o.text, o.close) for o in t.outbound])
    tokens = {json.loads(text).get("token") for _c, text, _x in runs[0] + runs[1]} - {None}
    sessions = {json.loads(text).get("session") for _c, text, _x in runs[0] + runs[1]} - {None}

    def scrub(text: str) -> str:
        for secret in tokens | sessions:
            text = text.replace(secret, "?")
        return text

    a = [(c, scrub(x), close) for c, x, close in runs[0]]
    b = [(c, scrub(x), close) for c, x, close in runs[1]]
    assert len(a) == len(b)
    for fa, fb in zip(a, b, strict=True):
        assert fa == fb


def long_rats() -> Hostile:
    t = table(rs.NAME, 3, deck=shuffled(3, DECK))
    while t.game.version < STALE_WINDOW + 8:
        rats_step(t)
        assert not t.game.is_over
    return t


def test_rats_replayed_seen_inside_the_window_is_stale_outside_refused_naming_it() -> None:
    t = long_rats()
    v = t.game.version
    # a top shown inside the window, since covered: stale (CORE-RT-1), nothing changes
    old = v - 5
    old_top = str(t.leaks.views[old][0]["zones"][0]["cards"][0])
    assert old_top != rats_center(t)[-1]
    mark = t.mark()
    err = only_error(t.act("a", f"slap {old_top}", seen=old))
    assert err["code"] == "stale", err
    # the same top on a seen outside the window: refused unjudged, citing the window
    # (the session answers code "stale", rule CORE-RT-3: "look again"), as is a card that
    # was never on top, and seen 0, the deal's version, long gone
    lo = v - STALE_WINDOW
    for text, seen in [(f"slap {old_top}", lo - 1), ("slap JK", lo - 1), ("flip", 0)]:
        err = only_error(t.act("a", text, seen=seen))
        assert (err["code"], err["rule"]) == ("stale", "CORE-RT-3"), err
        assert f"({lo} to {v})" in err["message"], err
    # the window's oldest version is still judged: the old top was never legal there
    err = only_error(t.act("a", "slap JK", seen=lo))
    assert (err["code"], err["rule"]) == ("illegal", "RATS-SLAP-1"), err
    # one ahead of the game
    assert only_error(t.act("a", "flip", seen=v + 1))["code"] == "bad-message"
    assert t.game.version == v and t.conns_since(mark) == {"a"}


@pytest.mark.parametrize("seen", [True, False, -1, 1.0, "3", None, 10**30, [3], {"v": 3}])
def test_rats_seen_of_the_wrong_kind_is_a_bad_message(seen: Any) -> None:
    t = table(rs.NAME, 3)
    rats_step(t)
    mark = t.mark()
    err = only_error(t.send("b", {"type": "act", "action": "flip", "seen": seen}))
    assert err["code"] == "bad-message", err
    assert t.game.version == 1 and t.conns_since(mark) == {"b"}


def valid_slap_table() -> tuple[Hostile, str]:
    """Ratscrew at a center showing doubles or a sandwich (a fixed deck)."""
    t = table(rs.NAME, 3, deck=shuffled(3, DECK))
    while t.game.logic.pattern(t.game.state) is None:
        rats_step(t)
    return t, rats_center(t)[-1]


def test_rats_slap_spam_one_take_then_stale_others_streams_get_one_update() -> None:
    t, top = valid_slap_table()
    v = t.game.version
    mark = t.mark()
    replies = [t.act("c", f"slap {top}", dt=0.0, seen=v) for _ in range(10)]
    ok(replies[0])
    codes = {only_error(r)["code"] for r in replies[1:]}
    assert codes == {"stale"}  # the pile is gone: a replay names a top that was taken
    assert t.game.version == v + 1
    for conn in ("a", "b", "w"):
        assert [m["type"] for m in t.since(mark, conn) if m["type"] != "presence"] in (
            ["update"],
            [],  # the spectator sees it two actions late
        )


def test_rats_two_connections_of_one_seat_racing_a_slap_one_wins_one_stale() -> None:
    t, top = valid_slap_table()
    token = t.mirrors["c"].token
    t.send("c2", {"type": "join", "seat": 2, "token": token})
    v = t.game.version
    assert t.mirrors["c2"].version == v
    first = t.act("c2", f"slap {top}", dt=0.0, seen=v)
    second = t.act("c", f"slap {top}", dt=0.0, seen=v)
    ok(first)
    assert only_error(second)["code"] == "stale"
    assert t.game.version == v + 1
    assert t.mirrors["c"].view == t.mirrors["c2"].view == t.game.view(2)
    # and the other seat's race on the same seen: stale too, nothing taken twice
    assert only_error(t.act("a", f"slap {top}", dt=0.0, seen=v))["code"] == "stale"
    assert t.game.version == v + 1


def test_rats_rejoin_with_a_stale_or_impossible_last() -> None:
    t = long_rats()
    token = t.mirrors["b"].token
    v = t.game.version
    for conn, last in [("b1", 0), ("b2", 1), ("b3", 10**6)]:  # stale, stale, from the future
        replies = t.send(conn, {"type": "join", "seat": 1, "token": token, "last": last})
        kinds = [m["type"] for m in replies]
        assert kinds[:2] == ["welcome", "view"], kinds
        assert replies[1]["reason"] == "resync"
        assert t.mirrors[conn].view == t.game.view(1), last
    # a fifth connection of the seat (max_per_seat 4) is refused
    err = only_error(t.send("b4", {"type": "join", "seat": 1, "token": token, "last": 0}))
    assert err["code"] == "full", err
    # resync on a live connection: stale and future numbers give the whole view, -1 an error
    for last in (0, 10**6):
        (view,) = t.send("a", {"type": "resync", "last": last})
        assert (view["type"], view["reason"]) == ("view", "resync")
    assert only_error(t.send("a", {"type": "resync", "last": -1}))["code"] == "bad-message"
    assert t.mirrors["a"].view == t.game.view(0) and t.game.version == v


def test_rats_spectator_acting_and_a_seat_naming_another_change_nothing() -> None:
    t = table(rs.NAME, 3)
    rats_step(t)
    v = t.game.version
    mark = t.mark()
    assert only_error(t.act("w", "flip", seen=v))["code"] == "not-a-seat"
    for seat in (0, 1, 2):
        err = only_error(t.send("w", {"type": "act", "action": "flip", "seen": v, "seat": seat}))
        assert err["code"] == "not-a-seat"
    err = only_error(t.send("a", {"type": "act", "action": "flip", "seen": v, "seat": 1}))
    assert err["code"] == "not-your-seat"
    # seat 1 is to flip: seat 0's message naming seat 1 is not played for it
    assert t.game.state.turn == 1 and t.game.version == v
    assert t.send("w", {"type": "takeback", "op": "request"})[-1]["type"] == "error"
    assert t.conns_since(mark) == {"w", "a"}


JUNK = [
    b"\xff\xfe\x00",  # not UTF-8
    "[" * 5000 + "]" * 5000,  # nested deeply, under the size limit
    '{"type": "act", "action": "flip", "seen": 1, "seen": 2}',  # a repeated key
    '{"type": "act", "action": "flip", "seen": NaN}',
    '{"type": "act", "action": "flip"',  # cut short
    '["act", "flip"]',
    '"flip"',
    "",
    '{"type": "slap", "card": "7C"}',  # an unknown type
    '{"type": "act", "action": "flip", "seen": 1, "card": "QD"}',  # an unknown field
    '{"type": "act", "action": {"verb": "flip"}, "seen": 1}',
    '{"type": "act", "action": "flip", "seen": 1, "id": "' + "i" * 65 + '"}',
    '{"type": "act", "action": "' + "f" * 9000 + '", "seen": 1}',  # over max_message
    json.dumps({"type": "act", "action": "slap 7C", "seen": 1, "x": [[[[[[[[[[]]]]]]]]]]}),
]


@pytest.mark.parametrize("junk", JUNK, ids=range(len(JUNK)))
def test_rats_malformed_frames_get_a_protocol_error_and_change_nothing(junk: Any) -> None:
    t = table(rs.NAME, 3)
    rats_step(t)
    mark = t.mark()
    err = only_error(t.send("b", junk))
    assert err["code"] in ("bad-json", "bad-message", "too-large"), err
    assert t.game.version == 1 and t.conns_since(mark) == {"b"}
    ok(t.act("b", "flip"))  # the connection still works


def test_rats_an_accepted_sloppy_text_reaches_others_only_as_the_canonical_notation() -> None:
    t = table(rs.NAME, 3)
    rats_step(t)
    rats_step(t)
    top = rats_center(t)[-1]
    mark = t.mark()
    sent = {"type": "act", "action": f"  SLAP   {top.lower()} ", "seen": 2, "id": "JUNK-9f3"}
    replies = t.send("a", sent)
    ok(replies)
    for conn in ("b", "c"):
        (update,) = [m for m in t.since(mark, conn) if m["type"] == "update"]
        assert update["action"]["text"] == f"slap {top}"
        assert "JUNK-9f3" not in json.dumps(t.since(mark, conn))
    assert [m["id"] for m in replies if m["type"] == "ok"] == ["JUNK-9f3"]


def test_rats_flood_past_the_burst_is_dropped_unread_then_closed_others_untouched() -> None:
    t = table(rs.NAME, 3)
    rats_step(t)  # seat 1 to flip; seat 0's flips are illegal
    v = t.game.version
    mark = t.mark()
    limits = t.session.config.limits
    t.send("a", {"type": "ping"}, dt=10.0)  # a full bucket after a quiet while
    mark = t.mark()
    for _ in range(limits.burst + 20):
        t.act("a", "flip", dt=0.0, seen=v)
    errs = [m for m in t.since(mark, "a") if m["type"] == "error"]
    assert [e["code"] for e in errs].count("illegal") == limits.burst - 1  # (and the ping)
    assert [e["code"] for e in errs].count("rate-limited") == 1  # one a second at most
    assert t.conns_since(mark) == {"a"}
    # the flood goes on: after close_after drops in a row, the connection is closed
    for _ in range(limits.close_after):
        t.act("a", "flip", dt=0.0, seen=v)
    assert t.closed == {"a"}
    assert t.conns_since(mark) <= {"a", "b", "c", "w"}
    assert all(m["type"] == "presence" for c in "bcw" for m in t.since(mark, c)), (
        "only presence may reach the others"
    )
    assert t.game.version == v
    ok(t.act("b", "flip"))  # the others play on


def test_rats_out_of_turn_flip_spam_on_one_seen_never_flips() -> None:
    t = table(rs.NAME, 3)
    v = t.game.version
    for conn in "bc":
        for _ in range(5):
            assert only_error(t.act(conn, "flip", seen=v))["rule"] == "RATS-TURN-1"
    ok(t.act("a", "flip", seen=v))
    # seat 0 again on the old seen: was legal at v, not now: stale, not a second flip
    assert only_error(t.act("a", "flip", seen=v))["code"] == "stale"
    assert t.game.version == v + 1


# ------------------------------------------------------------------------------ Nertz


def nertz_deck(swap: tuple[int, int] | None = None) -> list[str]:
    """Seat 0's block then seat 1's (NERTZ-DECK-1): cards 1-13 the nertz pile (1 on top),
    14-17 the work piles, 18-52 the stock (18 on top)."""
    mine, theirs = shuffled(5, DECK), shuffled(6, DECK)
    if swap is not None:
        i, j = swap
        mine[i], mine[j] = mine[j], mine[i]
    return mine + theirs


def test_nertz_plays_of_cards_the_seat_cannot_know_are_refused_alike() -> None:
    t = table(nz.NAME, 2, deck=nertz_deck())
    mine = nertz_deck()[:52]
    theirs = nertz_deck()[52:]
    v = t.game.version
    probes = {
        "own face-down nertz card": mine[4],
        "own stock top": mine[17],
        "own deep stock": mine[45],
        "other seat's work top": theirs[14],
        "other seat's nertz top": theirs[0],
    }
    texts = set()
    for what, card in probes.items():
        for text in (f"found {card} 0", f"move {card} 0"):
            mark = t.mark()
            err = only_error(t.act("a", text))
            assert (err["code"], err["rule"]) == ("illegal", "NERTZ-OWN-1"), (what, err)
            texts.add(err["message"].replace(card, "X"))
            assert t.conns_since(mark) == {"a"}
    assert len(texts) == 1, texts  # nothing says where the card is
    assert t.game.version == v


def nertz_script(t: Hostile, names: list[str]) -> None:
    """A fixed public script with hostile probes naming *names* (hidden cards)."""
    for i in range(10):
        for conn, seat in (("a", 0), ("b", 1)):
            legal = t.game.legal_actions(seat)
            found = [a for a in legal if str(a).startswith("found")]
            ok(t.act(conn, str(found[0]) if found else "turn"))
            for name in names:
                t.act(conn, f"found {name} 0")
                t.act(conn, f"move {name} {i % 4}")
        if i == 4:
            t.send("a2", {"type": "join", "seat": 0, "token": t.mirrors["a"].token, "last": 0})
            t.send("b", {"type": "resync", "last": 1})


def test_nertz_side_channel_frames_are_byte_identical_when_hidden_cards_trade_places() -> None:
    """Seat 0's 8th nertz card (face down) and a deep stock card trade places: every frame
    to every connection, the owner's included, must not change."""
    runs = []
    names = [nertz_deck()[7], nertz_deck()[48]]
    for swap in (None, (7, 48)):
        t = table(nz.NAME, 2, deck=nertz_deck(swap))
        nertz_script(t, names)
        assert len(t.game.state.zones.cards[nz.nertz(2, 0)]) > 13 - 7
        assert len(t.game.state.zones.cards[nz.stock(2, 0)]) > 52 - 48
        runs.append(t)
    secrets: set[str] = set()
    for t in runs:
        for o in t.outbound:
            m = json.loads(o.text)
            secrets |= {m.get("token"), m.get("session")} - {None}

    def scrub(text: str) -> str:
        for s in secrets:
            text = text.replace(s, "?")
        return text

    a = [(o.conn, scrub(o.text)) for o in runs[0].outbound]
    b = [(o.conn, scrub(o.text)) for o in runs[1].outbound]
    for fa, fb in zip(a, b, strict=True):
        assert fa == fb


def test_nertz_a_turn_names_only_the_new_waste_top_even_to_its_owner() -> None:
    t = table(nz.NAME, 2, deck=nertz_deck())
    mark = t.mark()
    ok(t.act("a", "turn"))
    stock = nertz_deck()[17:20]
    for conn in ("a", "b"):
        (update,) = [m for m in t.since(mark, conn) if m["type"] == "update"]
        cards = [e.get("card") for e in update["events"] if e["event"] == "card-moved"]
        assert cards == [None, None, stock[2]], (conn, cards)


# ------------------------------------------------------------------------------ the wire


def test_wire_binary_and_junk_frames_answer_that_connection_only() -> None:
    from tests.web.helpers import Player, create, serve

    with serve() as (client, server, dog):
        sid = create(client, rs.NAME, [{}, {}, {}])["session"]
        players = []
        stack = []
        for seat in range(3):
            cm = client.websocket_connect("/ws")
            ws = cm.__enter__()
            stack.append(cm)
            p = Player(ws)
            p.send({"type": "join", "session": sid, "seat": seat})
            p.until("welcome")
            players.append(p)
        try:
            for p in players:
                p.until("view")
            a, b, _c = players
            session = server.hub.sessions[sid]
            v = session.game.version
            # UTF-8 JSON in a binary frame is read as text
            a.ws.send_bytes(json.dumps({"type": "ping", "id": "bin"}).encode())
            assert a.until("pong")["id"] == "bin"
            for junk in (b"\xff\x00", b"[" * 4000, b'{"type": "act"}', b"\x00" * 9000):
                a.ws.send_bytes(junk)
                err = a.until("error")
                assert err["code"] in ("bad-json", "bad-message", "too-large"), err
            a.send({"type": "act", "action": "slap QH", "seen": v, "seat": 1})
            assert a.until("error")["code"] == "not-your-seat"
            a.send({"type": "ping", "id": "end"})
            a.until("pong")
            b.send({"type": "ping", "id": "b"})
            assert b.until("pong")["id"] == "b"  # b got nothing in between
            assert [m["type"] for m in b.received[-1:]] == ["pong"]
            assert session.game.version == v
            assert dog.frames > 0
        finally:
            for cm in reversed(stack):
                cm.__exit__(None, None, None)
