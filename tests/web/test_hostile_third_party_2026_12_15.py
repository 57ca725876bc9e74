"""Hidden information of third-party games through the session protocol (2026-12-15 plugins).

Mini Bridge (dummy hidden until the opening lead, then public; declarer acts for dummy), Euchre
(the dealer's face-down discard; a partner sitting out a lone hand) and President (a hidden
card exchange between two seats), each driven in-process through a :class:`Session` on a
virtual clock, one connection per seat plus spectators, every frame captured.

The oracle never trusts what the session sends: after every action it reads the game's zones
and knowledge masks (:meth:`cardcore.Zones.knows`) and keeps, per version, every card each seat
(and a spectator) knows or knew. A card named in any frame must be in that set (for a
spectator: at the version its frame shows, so the delay is checked too); the text a connection
sent itself may be quoted back. Every rebuilt view (:class:`Mirror`) must equal
``game.view(seat)`` at its version.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

import cardcore
from cardcore import ALL, ActionApplied, CardMoved, CardRevealed, Event
from cardcore.session import MemoryStore, Mirror, Session, SessionConfig
from tests.plugins import bridge_2026_12_15 as br
from tests.plugins import euchre_2026_12_15 as eu
from tests.plugins import president_2026_12_15 as pr

CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([SHDC])(?![A-Za-z0-9])")
RANDOM_KEYS = {"token", "session", "commitment"}


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    for mod in (br, eu, pr):
        cardcore.register("cardcore.games", mod.NAME, mod)
    yield
    for mod in (br, eu, pr):
        cardcore.unregister("cardcore.games", mod.NAME)


BID = re.compile(r"[1-7](C|D|H|S|NT)")
BID_KEYS = {"calls", "legal", "text", "strain"}
"""Where Mini Bridge's calls (``2D``: a bid, spelled as a card) are written."""


def cards_named(value: Any, key: str = "", bids: bool = False) -> set[str]:
    """Every card word in a JSON value; a whole string that is a bid, where calls are written
    (the auction, the legal actions, an action's text), is a call, not a card."""
    if key in RANDOM_KEYS:
        return set()
    bids = bids or key in BID_KEYS
    if isinstance(value, str):
        if bids and BID.fullmatch(value):
            return set()
        return {a + b for a, b in CARD.findall(value)}
    if isinstance(value, dict):
        out: set[str] = set()
        for k, v in value.items():
            out |= cards_named(k) | cards_named(v, k, bids)
        return out
    if isinstance(value, list):
        if len(value) >= 2 and value[0] in ("set", "del") and isinstance(value[1], list):
            bids = bids or any(p in BID_KEYS for p in value[1])  # a patch operation
        return set().union(*(cards_named(v, "", bids) for v in value)) if value else set()
    return set()


class Harness:
    """One session, its connections (each a Mirror and its frames), the knowledge oracle."""

    def __init__(self, game: str, *, seed: int, delay: int = 2, **kwargs: Any) -> None:
        config = SessionConfig(spectator_delay=delay, takeback_timeout=30.0)
        self.session = Session.create(
            game, 4, now=0.0, seed=seed, config=config, store=MemoryStore(), **kwargs
        )
        self.now = 0.0
        self.frames: dict[str, list[dict[str, Any]]] = {}
        self.mirrors: dict[str, Mirror] = {}
        self.seat: dict[str, int | None] = {}
        self.sent: dict[str, set[str]] = {}
        self.known: dict[int, dict[int | None, set[str]]] = {}  # version -> cumulative
        self.views: dict[int, dict[int | None, Any]] = {}
        self.leaks: list[str] = []
        self.game: Any = None
        self.over_at: int | None = None
        self.pending: dict[int, dict[int | None, set[str]]] = {}
        self.conn_of: dict[int, str] = {}
        for s in range(4):
            self.send(f"s{s}", {"type": "join", "seat": s})

    # the oracle
    def attach(self) -> None:
        game = self.session.game
        if game is None or game is self.game:
            return
        self.game = game
        game.events.subscribe(Event, self._on_event)
        self._learn()

    def _on_event(self, event: Event) -> None:
        if type(event) is ActionApplied:
            self._learn()
            return
        card = getattr(event, "card", None)
        if card is None or not isinstance(event, CardMoved | CardRevealed):
            return
        # a card shown within an action (a last trick gathered for the next deal at once)
        mask = event.visible_to
        v = self.game.version  # delivered once the action is applied
        known = self.known[v] if v in self.known else self.pending.setdefault(v, {})
        for s in [0, 1, 2, 3, None]:
            if mask == ALL or (s is not None and (mask >> s) & 1):
                known.setdefault(s, set()).add(str(card))

    def _learn(self) -> None:
        game = self.game
        v = game.version
        prev = self.known.get(max((k for k in self.known if k <= v), default=-1), {})
        now: dict[int | None, set[str]] = {}
        z = game.state.zones
        for s in [0, 1, 2, 3, None]:
            mine = set(prev.get(s, set()))
            for zi, pile in enumerate(z.cards):
                for i, c in enumerate(pile):
                    if z.knows(zi, i, s):
                        mine.add(str(c))
            now[s] = mine
        for s, cards in self.pending.pop(v, {}).items():
            now[s] |= cards
        self.known[v] = now
        self.views[v] = {s: game.view(s) for s in [0, 1, 2, 3, None]}
        if game.is_over and self.over_at is None:
            self.over_at = v

    def _check(self, conn: str, message: dict[str, Any]) -> None:
        seat = self.seat.get(conn)
        mirror = self.mirrors[conn]
        if self.game is None:
            if cards_named(message):
                self.leaks.append(f"cards before the deal to {conn}: {message}")
            return
        kind = message["type"]
        if kind in ("record", "reveal"):
            if not self.game.is_over:
                self.leaks.append(f"{kind} before the end to {conn}")
            return
        version = mirror.version if seat is None and mirror.version is not None else None
        if version is None:
            version = self.game.version
        if self.over_at is not None and version >= self.over_at:
            return  # the end: the record is public
        known = self.known.get(max(k for k in self.known if k <= version), {}).get(seat, set())
        leaked = cards_named(message) - known - self.sent.get(conn, set())
        if leaked:
            who = "a spectator" if seat is None else f"seat {seat}"
            self.leaks.append(
                f"{sorted(leaked)} to {who} at v{version}: {json.dumps(message)[:300]}"
            )
        if kind in ("view", "update") and mirror.version is not None:
            expected = self.views.get(mirror.version, {}).get(seat)
            if expected is not None and mirror.view != expected:
                self.leaks.append(f"{conn}'s rebuilt view differs at v{mirror.version}")

    # driving
    def send(self, conn: str, message: dict[str, Any], dt: float = 0.0) -> list[dict[str, Any]]:
        self.now += dt
        self.now += 0.06  # paced under the default rate limit (20 a second)
        if message["type"] == "join":
            self.seat[conn] = message["seat"]
            self.conn_of[message["seat"]] = conn
        elif message["type"] == "watch":
            self.seat[conn] = None
        self.sent.setdefault(conn, set()).update(cards_named(message))
        out = self.session.handle(conn, json.dumps(message), self.now)
        return self._take(out, conn)

    def tick(self, dt: float) -> None:
        self.now += dt
        self._take(self.session.tick(self.now), "")

    def _take(self, out: list[Any], conn: str) -> list[dict[str, Any]]:
        self.attach()
        replies = []
        for o in out:
            message = json.loads(o.text)
            self.frames.setdefault(o.conn, []).append(message)
            mirror = self.mirrors.setdefault(o.conn, Mirror())
            mirror.feed(message)
            self._check(o.conn, message)
            if o.conn == conn:
                replies.append(message)
        return replies

    def act(self, seat: int, action: str, conn: str | None = None) -> list[dict[str, Any]]:
        conn = conn or self.conn_of[seat]
        v = self.mirrors[conn].version
        return self.send(conn, {"type": "act", "action": action, "seen": v})

    def to_act(self) -> int:
        return int(self.game.state.to_act[0])

    def first_legal(self) -> None:
        seat = self.to_act()
        legal = self.game.legal_actions(seat)
        (reply,) = [m for m in self.act(seat, str(legal[0])) if m["type"] in ("ok", "error")]
        assert reply["type"] == "ok", reply

    def watch(self, conn: str, **fields: Any) -> list[dict[str, Any]]:
        return self.send(conn, {"type": "watch", **fields})

    def cards_sent_to(self, conn: str, upto: int | None = None) -> set[str]:
        frames = self.frames.get(conn, [])
        return cards_named(frames if upto is None else frames[:upto])


def errors(replies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in replies if m["type"] == "error"]


# ---------------------------------------------------------------------------------- Bridge


def bridge(delay: int = 2) -> Harness:
    h = Harness(br.NAME, seed=5, delay=delay)
    h.watch("w")
    for seat, call in [(0, "1NT"), (1, "pass"), (2, "pass"), (3, "pass")]:
        assert errors(h.act(seat, call)) == []
    return h  # declarer 0 (N), dummy 2 (S), East (1) leads


def dummy_hand(h: Harness) -> list[str]:
    return [str(c) for c in h.game.state.zones.cards[br.hand(2)]]


def test_bridge_dummy_hidden_until_the_lead_then_public_and_delayed_for_spectators() -> None:
    h = bridge()
    dummy = set(dummy_hand(h))
    marks = {c: len(h.frames.get(c, [])) for c in ("s0", "s1", "s3", "w")}
    lead = str(h.game.legal_actions(1)[0])
    h.act(1, lead)
    v_lead = h.game.version
    # before the lead no frame named one of dummy's cards, not even to declarer
    for conn, upto in marks.items():
        assert not (h.cards_sent_to(conn, upto) & dummy), conn
    # the lead's update reveals dummy to every seat at once
    for conn in ("s0", "s1", "s3"):
        assert h.mirrors[conn].version == v_lead
        assert dummy <= cards_named(h.mirrors[conn].view)
    # the spectator is two actions late: dummy still hidden there
    assert h.mirrors["w"].version == v_lead - 2
    assert not (cards_named(h.mirrors["w"].view) & dummy)
    for _ in range(2):
        h.first_legal()
    assert h.mirrors["w"].version == v_lead
    assert dummy - cards_named(h.game.state.zones.cards[br.TRICK]) <= cards_named(
        h.mirrors["w"].view
    )
    assert not h.leaks, h.leaks[:3]


def test_bridge_hostile_plays_of_dummys_cards_reveal_nothing() -> None:
    h = bridge()
    dummy = dummy_hand(h)
    west = [str(c) for c in h.game.state.zones.cards[br.hand(3)]]
    probes = {
        (2, dummy[0]): "MB-DUMMY-2",  # dummy's own seat, naming its own card
        (3, dummy[0]): "CORE-TURN-1",  # a defender not to act
        (1, dummy[0]): "MB-PLAY-1",  # the leader naming dummy's card
        (0, dummy[0]): "CORE-TURN-1",  # declarer before the lead
    }
    messages = {}
    for (seat, card), rule in probes.items():
        (err,) = errors(h.act(seat, f"play {card}"))
        assert err["rule"] == rule, err
        messages[seat] = err["message"]
    # the leader's error is the same for a card of dummy's as for a card of West's
    (other,) = errors(h.act(1, f"play {west[0]}"))
    assert other["message"].replace(west[0], "X") == messages[1].replace(dummy[0], "X")
    # nothing was applied, no frame went to any other connection
    assert h.game.version == 4
    h.act(1, str(h.game.legal_actions(1)[0]))
    # after the lead, dummy's seat still never acts, naming a legal card of dummy's
    card = str(h.game.legal_actions(0)[0]).split()[1] if h.to_act() == 0 else dummy[0]
    (err,) = errors(h.act(2, f"play {card}"))
    assert err["rule"] == "MB-DUMMY-2"
    assert not h.leaks, h.leaks[:3]


def test_bridge_takeback_of_a_call_allowed_of_the_lead_refused_naming_no_card() -> None:
    h = Harness(br.NAME, seed=5)
    h.watch("w")
    h.act(0, "1NT")
    h.act(1, "pass")
    h.send("s1", {"type": "takeback", "op": "request"})
    for s in (0, 2, 3):
        h.send(f"s{s}", {"type": "takeback", "op": "accept"})
    assert h.game.version == 1
    for seat, call in [(1, "pass"), (2, "pass"), (3, "pass")]:
        assert errors(h.act(seat, call)) == []
    dummy = set(dummy_hand(h))
    h.act(1, str(h.game.legal_actions(1)[0]))
    replies = h.send("s1", {"type": "takeback", "op": "request"})
    (err,) = errors(replies)
    assert err["code"] == "takeback-refused"
    assert not (cards_named(err) & (dummy | set(h.game.state.zones.cards[br.TRICK]))), err
    assert not h.leaks, h.leaks[:3]


def test_bridge_resync_rejoin_and_late_spectator_before_and_after_the_lead() -> None:
    h = bridge()
    dummy = set(dummy_hand(h))
    token = h.frames["s3"][0]["token"]
    # West reconnects before the lead from scratch: nothing of dummy's
    h.send("s3", {"type": "leave"})
    r = h.send("s3b", {"type": "join", "seat": 3, "token": token, "last": 0})
    assert not (cards_named(r) & dummy)
    r = h.send("s0", {"type": "resync", "last": 0})
    assert not (cards_named(r) & dummy)  # declarer does not see dummy before the lead either
    h.act(1, str(h.game.legal_actions(1)[0]))
    h.first_legal()
    h.first_legal()
    # a spectator joining now is shown the game two actions late: the lead, dummy face up
    r = h.watch("late")
    (view,) = [m for m in r if m["type"] == "view"]
    assert view["version"] == h.game.version - 2
    assert view["view"] == h.views[h.game.version - 2][None]
    r = h.send("late", {"type": "history"})
    assert not errors(r)
    assert not h.leaks, h.leaks[:3]


def test_bridge_record_only_at_the_end_holding_the_seed() -> None:
    h = bridge(delay=0)
    (err,) = errors(h.send("w", {"type": "record"}))
    assert err["code"] == "not-over"
    (err,) = errors(h.send("s1", {"type": "record"}))
    assert err["code"] == "not-over"
    assert not any(m["type"] == "record" for f in h.frames.values() for m in f)
    while not h.game.is_over:
        h.first_legal()
    (rec,) = [m for m in h.send("w", {"type": "record"}) if m["type"] == "record"]
    assert rec["record"]["seed"] == 5
    assert not h.leaks, h.leaks[:3]


def test_bridge_resign_mid_play_ends_for_everyone_without_early_leak() -> None:
    h = bridge()
    h.act(1, str(h.game.legal_actions(1)[0]))
    r = h.send("s3", {"type": "act", "action": "resign", "seen": h.mirrors["s3"].version})
    assert not errors(r), r
    assert h.game.is_over
    assert h.mirrors["w"].version == h.game.version  # everything at once at the end
    assert not h.leaks, h.leaks[:3]


# ---------------------------------------------------------------------------------- Euchre


def euchre(alone: bool = False, delay: int = 2) -> Harness:
    h = Harness(eu.NAME, seed=7, delay=delay)
    h.watch("w")
    assert h.game.state.dealer == 3
    assert errors(h.act(0, "order up alone" if alone else "order up")) == []
    return h


def test_euchre_dealers_discard_never_named_to_another_seat_or_spectator() -> None:
    h = euchre()
    up = h.game.state.picked_up
    hand = [str(c) for c in reversed(h.game.state.zones.cards[eu.hand(3)])]
    pos = next(i for i, c in enumerate(hand) if c != up)
    buried = hand[pos]
    h.act(3, f"discard {pos}")
    assert [str(c) for c in h.game.state.zones.cards[eu.BURIED]] == [buried]
    while sum(h.game.state.tricks) < 4:  # to the last trick, before the next deal
        h.first_legal()
    for conn in ("s0", "s1", "s2", "w"):
        assert buried not in h.cards_sent_to(conn), conn
    assert not h.leaks, h.leaks[:3]


def test_euchre_takeback_of_the_dealers_discard_names_nothing_new() -> None:
    h = euchre()
    up = h.game.state.picked_up
    hand = [str(c) for c in reversed(h.game.state.zones.cards[eu.hand(3)])]
    h.act(3, f"discard {hand.index(up)}")
    before = {c: len(h.frames[c]) for c in ("s0", "s1", "s2", "w")}
    r = h.send("s3", {"type": "takeback", "op": "request"})
    for s in (0, 1, 2):
        h.send(f"s{s}", {"type": "takeback", "op": "accept"})
    assert not errors(r)
    assert h.game.state.phase == "discard"  # nobody learned anything: allowed
    for s in (0, 1, 2):  # each seat is shown its own hand and the upcard, nothing of the dealer's
        mine = {str(c) for c in h.game.state.zones.cards[eu.hand(s)]}
        assert cards_named(h.frames[f"s{s}"][before[f"s{s}"] :]) <= mine | {up}, s
    assert cards_named(h.frames["w"][before["w"] :]) <= {up}
    assert not h.leaks, h.leaks[:3]


def test_euchre_partner_sitting_out_a_lone_hand() -> None:
    h = euchre(alone=True)
    out = [str(c) for c in h.game.state.zones.cards[eu.hand(2)]]
    (err,) = errors(h.act(2, f"play {out[0]}"))
    assert err["rule"] == "EUCHRE-ALONE-1"
    assert not (cards_named(err) & set(out[1:]))
    h.act(3, "discard 0")
    while sum(h.game.state.tricks) < 4:  # to the last trick, before the next deal
        h.first_legal()
    for conn in ("s0", "s1", "s3", "w"):  # its cards never played, never shown
        assert not (h.cards_sent_to(conn) & set(out)), conn
    assert not h.leaks, h.leaks[:3]


def test_euchre_spectator_history_stops_at_the_version_it_sees() -> None:
    h = euchre()
    h.act(3, "discard 0")
    while h.game.state.hand == 0:
        h.first_legal()
    assert h.mirrors["w"].version == h.game.version - 2
    (hist,) = [m for m in h.send("w", {"type": "history"}) if m["type"] == "history"]
    assert hist["rounds"] == [], hist  # the hand ended within the two actions it has not seen
    (seat_hist,) = [m for m in h.send("s0", {"type": "history"}) if m["type"] == "history"]
    assert len(seat_hist["rounds"]) == 1


# ------------------------------------------------------------------------------- President


def president(delay: int = 2) -> Harness:
    h = Harness(pr.NAME, seed=3, delay=delay, options={"rounds": 2})
    h.watch("w")
    while h.game.state.phase != "exchange":
        seat = h.to_act()
        action = h.game.logic.default_action(h.game.state, seat)
        assert errors(h.act(seat, str(action))) == []
    return h


def test_president_exchange_cards_only_to_the_two_seats_of_each_swap() -> None:
    h = president()
    st = h.game.state
    pres, vice, vscum, scum = st.prev[0], st.prev[1], st.prev[-2], st.prev[-1]
    v_deal = h.game.version
    z = st.zones
    pair = {pres: {pres, scum}, vice: {vice, vscum}}
    secret: dict[int, set[str]] = {pres: set(), vice: set()}
    for dst in (pres, vice):  # the tributes, known to their two seats only
        for c, m in zip(z.cards[pr.hand(dst)], z.seen[pr.hand(dst)], strict=True):
            if m == sum(1 << s for s in pair[dst]):
                secret[dst].add(str(c))
    assert len(secret[pres]) == 2 and len(secret[vice]) == 1
    marks = {c: len(f) for c, f in h.frames.items()}
    for seat in (pres, pres, vice):
        secret[seat].add(pr.hand_of(h.game, seat)[0])
        assert errors(h.act(seat, "give 0")) == []
    assert h.game.state.phase == "play"
    # the deal's frame: only the events of hand-to-hand moves could name a tribute
    for seat in range(4):
        frames = h.frames[f"s{seat}"]
        deal = [m for m in frames if m.get("version") == v_deal and m["type"] == "update"]
        moved = [
            e
            for m in deal
            for e in m["events"]
            if e["event"] == "card-moved" and e["src"].startswith("hand") and e["dst"] != "table"
        ]
        later = frames[marks[f"s{seat}"] :]
        for owner in (pres, vice):
            if seat not in pair[owner]:
                assert not (cards_named(moved) & secret[owner]), (seat, moved)
                assert not (cards_named(later) & secret[owner]), seat
    late = [m for m in h.frames["w"] if m.get("version", 0) > v_deal]
    assert not (cards_named(late) & (secret[pres] | secret[vice]))
    assert not h.leaks, h.leaks[:3]


def test_president_hostile_gives_and_plays_during_the_exchange_reveal_nothing() -> None:
    h = president()
    st = h.game.state
    pres, scum, citizen = st.prev[0], st.prev[-1], st.prev[2]
    secret = set(pr.hand_of(h.game, pres))
    for seat, text in [
        (scum, "give 0"),
        (citizen, "give 1"),
        (scum, f"play {pr.hand_of(h.game, pres)[0]}"),
        (pres, "give 99"),
        (pres, f"play {pr.hand_of(h.game, pres)[0]}"),
    ]:
        (err,) = errors(h.act(seat, text))
        assert err["code"] == "illegal", err
        shown = cards_named(err) - cards_named(text)
        assert not (shown & secret), err
    assert not h.leaks, h.leaks[:3]


def test_president_takeback_of_a_give_refused_naming_seats_not_cards() -> None:
    h = president()
    pres = h.game.state.prev[0]
    card = pr.hand_of(h.game, pres)[0]
    h.act(pres, "give 0")
    (err,) = errors(h.send(f"s{pres}", {"type": "takeback", "op": "request"}))
    assert err["code"] == "takeback-refused"
    assert card not in cards_named(err)
    assert not h.leaks, h.leaks[:3]


def test_president_rejoin_and_late_spectator_during_the_exchange() -> None:
    h = president(delay=0)
    st = h.game.state
    pres, scum, citizen = st.prev[0], st.prev[-1], st.prev[2]
    h.act(pres, "give 0")
    token = h.frames[f"s{citizen}"][0]["token"]
    h.send(f"s{citizen}", {"type": "leave"})
    h.send("again", {"type": "join", "seat": citizen, "token": token, "last": 0})
    h.send(f"s{scum}", {"type": "resync", "last": 0})
    h.watch("late")
    assert h.mirrors["late"].view == h.views[h.game.version][None]
    assert not h.leaks, h.leaks[:3]
