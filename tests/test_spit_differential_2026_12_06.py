"""Differential audit of Spit and Speed (2026-12-06).

An independent model of both games, written from ``seeds/spit.md`` (the rule IDs
cited below), ``../shared/seeds/spit.en.md`` and ``../shared/rules-decisions.md``
only, is played in lockstep with the engine: seeded random decks (``deck=``, so the
first deal is known), a random seat and a random legal action at every step; before
each action every seat's legal set (``str(action)``) and ``to_act`` are compared, after
it the visible piles and counts, and at the end the result.

Chance the model cannot know (the shuffles of later Spit deals, of recycles and void
deals, of Speed's recycled side piles) is not predicted: the model lays such cards
out as placeholders of a known multiset and learns each card when the engine turns
it up (from the privileged event stream or the view), checking that it belongs to
that multiset.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import cardcore
from cardcore import Card, Event, IllegalActionError, StaleActionError
from cardcore_spit.actions import Combine, Fill, Play
from cardcore_spit.speed.actions import PlayCard

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]
DECK52 = [r + s for s in SUITS for r in RANKS]
HOME = ("L", "R")


def rank(card: str) -> int:
    return RANKS.index(card[:-1])


# --------------------------------------------------------------------------- chance


class Group:
    """A shuffled multiset the model cannot order; cards are learnt as they turn up."""

    def __init__(self, cards: list[Any]) -> None:
        self.left: Counter[str] = Counter()
        self.wild = 0
        hidden: Counter[Group] = Counter()
        for c in cards:
            if isinstance(c, Hidden):
                hidden[c.group] += 1
            else:
                self.left[c] += 1
        for g, n in hidden.items():
            if n == g.size():  # every card of g still hidden goes here: merge exactly
                self.left += g.left
                self.wild += g.wild
                g.left, g.wild = Counter(), 0
            else:
                self.wild += n

    def size(self) -> int:
        return sum(self.left.values()) + self.wild

    def take(self, card: str) -> str:
        if self.left[card] > 0:
            self.left[card] -= 1
        else:
            assert self.wild > 0, f"{card} is not among the shuffled cards"
            self.wild -= 1
        return card


class Hidden:
    def __init__(self, group: Group) -> None:
        self.group = group

    def __repr__(self) -> str:
        return "?"


def shuffled(cards: list[Any]) -> list[Any]:
    g = Group(cards)
    return [Hidden(g) for _ in cards]


class Oracle:
    """The cards the engine turned up during one apply (privileged event stream)."""

    def __init__(self) -> None:
        self.events: list[Any] = []

    def spat(self, seat: int, card: Any, pile: str) -> str:
        for i, e in enumerate(self.events):
            if e.slug == "card-spat" and e.seat == seat:
                del self.events[i]
                assert e.pile == pile, (e, pile)
                return learn(card, e.card)
        raise AssertionError(f"the model spits for seat {seat}, the engine does not")

    def revealed(self, zone: str, card: Any) -> str:
        for i, e in enumerate(self.events):
            if e.slug == "card-revealed" and e.zone == zone:
                del self.events[i]
                return learn(card, e.card)
        raise AssertionError(f"the model turns up a card of {zone}, the engine does not")


def learn(card: Any, seen: Any) -> str:
    text = str(seen)
    if isinstance(card, Hidden):
        return card.group.take(text)
    assert card == text, (card, text)
    return text


# --------------------------------------------------------------------------- Spit model


def layout_shape(n: int, canfield: bool) -> list[int]:
    """Pile index (0-4) of each laid card in dealing order (SPIT-SETUP-4/7, SETUP-5)."""
    if canfield:
        return [k for k in range(4) if k < n] + [4] * max(0, min(n, 15) - 4)
    order: list[int] = []
    for r in range(5):
        for k in range(r, 5):
            if len(order) < min(n, 15):
                order.append(k)
    return order


class SpitModel:
    def __init__(self, deck: list[str], rules: tuple[str, ...] = (), stall_limit: int = 20) -> None:
        self.canfield = "spit.canfield" in rules
        self.chooser = "spit.chooser" in rules
        self.gaps = {1, 12} | ({0} if "spit.same-rank" in rules else set())
        self.stall_limit = stall_limit
        self.seen: Counter[str] = Counter()  # which paths a game took (coverage guards)
        self.deal = 0
        self.result: tuple[tuple[int, ...], str] | None = None
        self.expect: list[tuple[str, dict[str, Any]]] = []  # the game's own events, in order
        self.new_deal([deck[0::2], deck[1::2]])

    # -- deal
    def new_deal(self, cards: list[list[Any]]) -> None:
        """Lay out each seat's cards in the order given (received order, top first)."""
        self.deal += 1
        self.layout: list[list[list[Any]]] = []
        self.down: list[list[int]] = []
        self.spit: list[list[Any]] = []
        for seat_cards in cards:
            piles: list[list[Any]] = [[] for _ in range(5)]
            order = layout_shape(len(seat_cards), self.canfield)
            for card, k in zip(seat_cards, order, strict=False):
                piles[k].append(card)
            self.layout.append(piles)
            self.down.append([max(0, len(p) - 1) for p in piles])
            self.spit.append(list(reversed(seat_cards[len(order) :])))  # 16th on top
        self.single = min(len(c) for c in cards) <= 15  # SPIT-END-5
        counts = tuple(len(c) for c in cards)
        self.expect.append(("cards-dealt", {"counts": counts}))
        self.expect.append(
            ("deal-started", {"deal": self.deal, "counts": counts, "single": self.single})
        )
        self.seen["single-pile deal" if self.single else "two-pile deal"] += 1
        self.sizes = [len(c) for c in cards]
        self.piles: dict[str, list[str] | None] = {"L": None, "R": None}
        self.phase = "setup"
        self.ready = [False, False]
        self.req = [False, False]
        self.stall = 0
        self.recycled = False
        self.emptier: int | None = None

    def held(self, seat: int) -> int:
        return sum(len(p) for p in self.layout[seat]) + len(self.spit[seat])

    def home(self, seat: int) -> str:
        if self.single:
            return next(p for p in HOME if self.piles[p] is not None)
        return HOME[seat]

    # -- legality
    def plays(self, seat: int) -> list[str]:
        out = []
        for k, pile in enumerate(self.layout[seat]):
            for p in HOME:
                centre = self.piles[p]
                if pile and centre and (rank(centre[-1]) - rank(pile[-1])) % 13 in self.gaps:
                    out.append(f"play {k + 1} {p}")
        return out

    def moves(self, seat: int, uncovering: bool = False) -> list[str]:
        lay = self.layout[seat]
        combines, fills = [], []
        for j in range(5):
            if not lay[j] or (uncovering and not self.uncovers(seat, j)):
                continue
            for i in range(5):
                if i == j:
                    continue
                if lay[i] and rank(lay[i][-1]) == rank(lay[j][-1]):
                    combines.append(f"combine {j + 1} {i + 1}")
                if not lay[i]:
                    fills.append(f"fill {j + 1} {i + 1}")
        return combines + fills

    def uncovers(self, seat: int, j: int) -> bool:
        return 0 < self.down[seat][j] == len(self.layout[seat][j]) - 1

    def legal(self, seat: int) -> list[str]:
        if self.phase == "setup":
            return [] if self.ready[seat] else [*self.moves(seat), "ready"]
        if self.phase == "play":
            return [*self.plays(seat), *self.moves(seat), *([] if self.req[seat] else ["spit"])]
        if self.phase == "claim":
            if self.chooser:
                return ["choose L", "choose R"] if seat == self.emptier else []
            return ["slap L", "slap R"]
        return []

    def to_act(self) -> tuple[int, ...]:
        return tuple(s for s in (0, 1) if self.legal(s))

    # -- transitions
    def move_top(self, seat: int, j: int, dst: list[Any], oracle: Oracle) -> bool:
        src = self.layout[seat][j]
        turned = self.uncovers(seat, j)
        self.expect.append(("card-moved", {"seat": seat, "card": src[-1]}))
        dst.append(src.pop())
        if turned:  # SPIT-MOVE-7: the uncovered card turns up inside the move
            self.down[seat][j] -= 1
            src[-1] = oracle.revealed(f"layout.{seat}.{j + 1}", src[-1])
        return turned

    def apply(self, seat: int, text: str, oracle: Oracle) -> None:
        words = text.split()
        if words[0] in ("combine", "fill"):
            j, i = int(words[1]) - 1, int(words[2]) - 1
            turned = self.move_top(seat, j, self.layout[seat][i], oracle)
            if self.phase == "play":
                self.stall = 0 if turned else self.stall + 1
                self.after(oracle)
        elif words[0] == "ready":
            self.ready[seat] = True
            if all(self.ready):
                self.start(oracle)
        elif words[0] == "play":
            k, p = int(words[1]) - 1, words[2]
            centre = self.piles[p]
            assert centre is not None
            self.move_top(seat, k, centre, oracle)
            self.stall = 0
            self.req = [False, False]
            self.recycled = False
            if not any(self.layout[seat]):  # SPIT-END-1
                self.end_deal(seat)
            else:
                self.after(oracle)
        elif words[0] == "spit":
            self.req[seat] = True
            self.stall += 1
            self.after(oracle)
        elif words[0] in ("slap", "choose"):
            p = words[1]
            other = 1 - seat
            took = {seat: self.piles[p], other: self.piles["R" if p == "L" else "L"]}
            self.expect.append(
                (
                    "pile-claimed",
                    {"seat": seat, "pile": p, "count": len(took[seat] or []), "word": words[0]},
                )
            )
            self.redeal([[*self.all_layout(s), *self.spit[s], *(took[s] or [])] for s in (0, 1)])
        else:  # pragma: no cover
            raise AssertionError(text)

    def all_layout(self, seat: int) -> list[Any]:
        return [c for pile in self.layout[seat] for c in pile]

    def start(self, oracle: Oracle) -> None:
        """SPIT-START-1/2: the starting spit, then play."""
        self.phase = "play"
        self.expect.append(("play-started", {"deal": self.deal}))
        for s in (0, 1):
            if self.spit[s]:
                p = HOME[s]
                self.piles[p] = [oracle.spat(s, self.spit[s].pop(), p)]
        self.after(oracle)

    def can_progress(self, seat: int) -> bool:
        return bool(self.plays(seat) or self.moves(seat, uncovering=True))

    def after(self, oracle: Oracle) -> None:
        """SPIT-STUCK-3: spits inside apply, repeated while nobody can progress."""
        due = all(self.req) or self.stall >= self.stall_limit
        while self.phase == "play" and (due or not (self.can_progress(0) or self.can_progress(1))):
            due = False
            self.do_spit(oracle)

    def do_spit(self, oracle: Oracle) -> None:
        if not (self.spit[0] or self.spit[1]):  # SPIT-STUCK-5 recycle
            under = {p: (c[:-1] if c else []) for p, c in self.piles.items()}
            if self.recycled or not (under["L"] or under["R"]):  # SPIT-STUCK-6
                self.seen["void"] += 1
                self.void(oracle)
                return
            self.seen["recycle"] += 1
            for s in (0, 1):
                p = HOME[s]
                centre = self.piles[p]
                if centre:
                    self.spit[s] = shuffled(centre[:-1])
                    del centre[:-1]
            self.recycled = True
            counts = (len(under["L"]), len(under["R"]))
            self.expect.append(("centre-recycled", {"counts": counts}))
        for s in (0, 1):
            if self.spit[s]:
                p = self.home(s)
                centre = self.piles[p]
                assert centre is not None
                centre.append(oracle.spat(s, self.spit[s].pop(), p))
        self.req = [False, False]
        self.stall = 0

    def void(self, oracle: Oracle) -> None:
        self.expect.append(("deal-voided", {"deal": self.deal}))
        mine = [[*self.all_layout(s), *self.spit[s], *(self.piles[HOME[s]] or [])] for s in (0, 1)]
        self.redeal(mine)

    def end_deal(self, seat: int) -> None:
        self.expect.append(("deal-ended", {"deal": self.deal, "emptier": seat}))
        self.emptier = seat
        if not self.single:
            self.phase = "claim"
            return
        other = 1 - seat
        pile = [c for p in HOME for c in (self.piles[p] or [])]
        cards: list[list[Any]] = [[], []]
        cards[seat] = list(self.spit[seat])  # SPIT-END-6: the emptier takes nothing
        cards[other] = [*pile, *self.all_layout(other), *self.spit[other]]
        self.redeal(cards)

    def redeal(self, cards: list[list[Any]]) -> None:
        for s in (0, 1):
            if not cards[s]:  # SPIT-WIN-1/4
                self.seen["win-4" if self.sizes[s] > 15 else "win-1"] += 1
                self.phase = "over"
                self.result = ((s,), "out of cards")
                return
        self.new_deal([shuffled(c) for c in cards])

    def sync(self, table: dict[str, Any]) -> None:
        """Learn the face-up tops of a freshly shuffled layout (from the view)."""
        for s in (0, 1):
            for k, pile in enumerate(self.layout[s]):
                if pile and isinstance(pile[-1], Hidden):
                    pile[-1] = pile[-1].group.take(table["seats"][s]["layout"][k][0])

    def table(self) -> dict[str, Any]:
        def top_first(cards: list[Any], up: int) -> list[Any]:
            return [c if i < up else None for i, c in enumerate(reversed(cards))]

        return {
            "phase": self.phase,
            "emptier": self.emptier,
            "deal": self.deal,
            "mode": "single-pile" if self.single else "two-pile",
            "piles": {
                p: (list(reversed(c)) if c is not None else None) for p, c in self.piles.items()
            },
            "stall": self.stall,
            "seats": [
                {
                    "layout": [
                        top_first(p, len(p) - d)
                        for p, d in zip(self.layout[s], self.down[s], strict=True)
                    ],
                    "spit_cards": len(self.spit[s]),
                    "ready": self.ready[s],
                    "requested": self.req[s],
                    "cards": self.held(s),
                }
                for s in (0, 1)
            ],
        }


# --------------------------------------------------------------------------- Speed model


class SpeedModel:
    def __init__(self, deck: list[str], rules: tuple[str, ...] = (), side_pile: int = 5) -> None:
        self.auto = "speed.stuck-on-request" not in rules
        # SPEED-SETUP-3: play-pile cards, side piles (first dealt on top), then alternately.
        self.piles = {"L": [deck[0]], "R": [deck[1]]}
        rest = deck[2:]
        self.side = [
            list(reversed(rest[:side_pile])),
            list(reversed(rest[side_pile : 2 * side_pile])),
        ]
        rest = rest[2 * side_pile :]
        mine = [rest[0::2], rest[1::2]]
        self.hand = [m[:5] for m in mine]  # arrival order
        self.stock = [list(reversed(m[5:])) for m in mine]  # top last
        self.req = [False, False]
        self.recycled = False
        self.seen: Counter[str] = Counter()
        self.expect: list[tuple[str, dict[str, Any]]] = []
        self.result: tuple[tuple[int, ...], str | None] | None = None

    @staticmethod
    def fits(card: str, top: str) -> bool:
        return "JK" in (card, top) or (rank(top) - rank(card)) % 13 in (1, 12)

    def plays(self, seat: int) -> list[str]:
        # two jokers in one hand are one action each way (identical codes, rules-decisions 0)
        texts = [
            f"play {c} {p}"
            for c in self.hand[seat]
            for p in HOME
            if self.fits(c, self.piles[p][-1])
        ]
        return list(dict.fromkeys(texts))

    def legal(self, seat: int) -> list[str]:
        if self.result:
            return []
        return [*self.plays(seat), *([] if self.req[seat] else ["stuck"])]

    def apply(self, seat: int, text: str, oracle: Oracle) -> None:
        words = text.split()
        if words[0] == "play":
            card, p = words[1], words[2]
            self.hand[seat].remove(card)
            self.piles[p].append(card)
            self.expect.append(("card-moved", {"seat": seat, "card": card}))
            while len(self.hand[seat]) < 5 and self.stock[seat]:  # SPEED-PLAY-2
                self.hand[seat].append(self.stock[seat].pop())
                self.expect.append(("card-drawn", {"seat": seat, "card": self.hand[seat][-1]}))
            self.req = [False, False]
            self.recycled = False
            if not self.hand[seat] and not self.stock[seat]:  # SPEED-END-1
                self.result = ((seat,), "out of cards")
                return
        else:
            self.req[seat] = True
        self.after(oracle)

    def after(self, oracle: Oracle) -> None:
        """SPEED-STUCK-1..3 and SPEED-END-2."""
        while not self.result and (
            all(self.req) or (self.auto and not (self.plays(0) or self.plays(1)))
        ):
            if not (self.side[0] or self.side[1]):
                under = [self.piles[p][:-1] for p in HOME]
                if self.recycled or not (under[0] or under[1]):
                    self.seen["stalemate"] += 1
                    n = [len(self.hand[s]) + len(self.stock[s]) for s in (0, 1)]
                    self.result = (tuple(s for s in (0, 1) if n[s] == min(n)), None)
                    return
                for s in (0, 1):
                    self.side[s] = shuffled(under[s])
                    del self.piles[HOME[s]][:-1]
                self.recycled = True
                counts = (len(under[0]), len(under[1]))
                self.expect.append(("centre-recycled", {"counts": counts}))
                self.seen["recycle"] += 1
            for s in (0, 1):
                if self.side[s]:
                    self.piles[HOME[s]].append(oracle.spat(s, self.side[s].pop(), HOME[s]))
            self.req = [False, False]


# --------------------------------------------------------------------------- runner


SPIT_TEXTS = [
    *(f"play {k} {p}" for k in range(1, 6) for p in HOME),
    *(
        f"{w} {j} {i}"
        for w in ("combine", "fill")
        for j in range(1, 6)
        for i in range(1, 6)
        if i != j  # "fill 1 1" is no notation at all (NotationError)
    ),
    *("ready", "spit", "slap L", "slap R", "choose L", "choose R"),
]
SPEED_TEXTS = [*(f"play {c} {p}" for c in [*DECK52, "JK"] for p in HOME), "stuck"]


def built(seat: int, text: str) -> Any:
    """The action object built by hand, as spit.rst allows (exact ints, a Card)."""
    w = text.split()
    if w[0] == "play" and w[1].isdigit():
        return Play(seat, int(w[1]) - 1, HOME.index(w[2]))
    if w[0] == "play":
        return PlayCard(seat, Card.parse(w[1]), HOME.index(w[2]))
    if w[0] in ("combine", "fill"):
        return (Combine if w[0] == "combine" else Fill)(seat, int(w[1]) - 1, int(w[2]) - 1)
    return None


def result_of(game: Any) -> cardcore.Result:
    assert game.result is not None
    return game.result  # type: ignore[no-any-return]


STRUCTURAL = {
    "cards-dealt",
    "deal-started",
    "play-started",
    "centre-recycled",
    "deal-voided",
    "deal-ended",
    "pile-claimed",
    "card-moved",
    "card-drawn",
}
SHUFFLES = {"centre-recycled", "deal-voided", "cards-dealt", "deal-started"}


def order_key(game: str, texts: list[str]) -> list[tuple[Any, ...]]:
    """The documented order of legal actions (docs/games/spit.rst, "Legal actions come
    in a stable order"): Spit plays by pile 1..5 each onto L then R, combines, fills,
    then spit or ready; claims L then R. Speed: plays, then stuck (the order of the
    plays is checked in full against the model)."""
    kinds = ["play", "combine", "fill", "spit", "ready", "slap", "choose", "stuck"]
    keys = []
    for t in texts:
        w = t.split()
        if game == "spit" and w[0] == "play":
            keys.append((0, int(w[1]), w[2]))
        elif w[0] in ("slap", "choose"):
            keys.append((kinds.index(w[0]), 0, w[1]))
        else:
            keys.append((kinds.index(w[0]), 0, ""))
    return keys


class Runner:
    def __init__(
        self,
        game_name: str,
        seed: int,
        rules: tuple[str, ...] = (),
        greedy: float = 0.0,
        **options: Any,
    ) -> None:
        self.greedy = greedy  # 0: uniform random; else seat 0 acts more and prefers plays
        rng = random.Random(seed)
        deck = list(DECK52) + (["JK", "JK"] if options.get("jokers") == 2 else [])
        rng.shuffle(deck)
        self.rng = rng
        self.probe = random.Random(-seed)  # stale probes: apart, so they leave the game alone
        self.oracle = Oracle()
        self.game = cardcore.new_game(
            game_name,
            2,
            rules=rules,
            options=options or None,
            seed=seed,
            deck=" ".join(deck),
            subscribers=[(Event, self.oracle.events.append, None)],
        )
        self.name = game_name
        self.rules = rules
        self.options = options
        if game_name == "spit":
            self.model: Any = SpitModel(deck, rules, options.get("stall_limit", 20))
        else:
            self.model = SpeedModel(deck, rules, options.get("side_pile", 5))
            self.model.after(self.oracle)
        self.history: dict[int, list[set[str]]] = {}
        self.shadows: list[tuple[Any, bool]] = []
        self.decisions = 0
        self.stale = 0
        self.illegal = 0
        self.compare()

    def legal_now(self) -> list[list[str]]:
        return [[str(a) for a in self.game.legal_actions(s)] for s in (0, 1)]

    def compare(self) -> None:
        game, model = self.game, self.model
        self.oracle.events.clear()
        if self.name == "spit":
            model.sync(game.view(None)["table"])
        legal = self.legal_now()
        for s in (0, 1):
            mine = model.legal(s)
            assert set(legal[s]) == set(mine), (s, legal[s], mine, game.version)
            assert len(legal[s]) == len(mine)
            assert order_key(self.name, legal[s]) == sorted(order_key(self.name, legal[s]))
            if self.name == "speed":  # the documented order is total in Speed
                assert legal[s] == mine
        self.history[game.version] = [set(x) for x in legal]
        assert game.is_over == (model.result is not None)
        if model.result is not None:
            winners, reason = model.result
            assert result_of(game).winners == winners
            if reason:
                assert result_of(game).reason == reason
            return
        self.compare_table()
        if self.decisions % 37 == 5:
            self.compare_copies()

    def compare_table(self) -> None:
        game, model = self.game, self.model
        table = game.view(None)["table"]
        if self.name == "spit":
            assert game.to_act == model.to_act()
            mine = model.table()
            for key in ("phase", "deal", "mode", "piles", "stall", "emptier"):
                assert table[key] == mine[key], (key, table[key], mine[key])
            assert table["claim"] == ("choose" if model.chooser else "slap")
            for s in (0, 1):
                got = table["seats"][s]
                for key, value in mine["seats"][s].items():
                    assert got[key] == value, (s, key, got[key], value)
                # Spit has no private cards: every seat sees the spectator's table
                assert game.view(s)["table"] == table
        else:
            assert game.to_act == (0, 1)  # SPEED-STUCK-4 / docs: both seats during play
            assert table["piles"] == {p: list(reversed(c)) for p, c in model.piles.items()}
            for s in (0, 1):
                seats = game.view(s)["table"]["seats"]
                mine_view, theirs = seats[s], seats[1 - s]
                assert mine_view["hand"] == list(reversed(model.hand[s]))
                assert theirs["hand"] == [None] * len(model.hand[1 - s])  # SPEED-VIEW-1
                assert table["seats"][s]["hand"] == [None] * len(model.hand[s])
                for view_seat in (mine_view, table["seats"][s]):
                    assert view_seat["stock"] == len(model.stock[s])
                    assert view_seat["side"] == len(model.side[s])
                    assert view_seat["requested"] == model.req[s]

    def compare_copies(self) -> None:
        """A clone and a game read back from ``position()`` act like the original: now,
        and (as shadows) on the actions that follow. The clone shares the chance, so it
        stays equal; the copy read from a position has its own seed, so it is followed
        up to the first shuffle, where the same kind of step must happen (a recycle, a
        void deal or a new deal: SPIT-STUCK-5/6 depend on the position's fields)."""
        game = self.game
        clone = game.clone()
        copy = cardcore.new_game(
            self.name,
            2,
            rules=self.rules,
            options=self.options or None,
            position=game.position(),
            seed=1,
        )
        for other in (clone, copy):
            self.same(other)
        self.shadows = [(clone, True), (copy, False)]

    def same(self, other: Any) -> None:
        game = self.game
        assert other.to_act == game.to_act
        assert other.is_over == game.is_over
        assert other.view(None)["table"] == game.view(None)["table"]
        for s in (0, 1):
            assert [str(a) for a in other.legal_actions(s)] == [
                str(a) for a in game.legal_actions(s)
            ]

    def follow(self, seat: int, text: str, slugs: list[str]) -> None:
        kept = []
        for other, exact in self.shadows:
            events: list[Any] = []
            handle = other.events.subscribe(Event, events.append)
            other.act(seat, text)
            other.events.unsubscribe(handle)
            theirs = [e.slug for e in events]
            if exact or not SHUFFLES & set(slugs):
                assert theirs == slugs
                self.same(other)
                kept.append((other, exact))
            else:  # the first shuffle: the same steps up to it, then the cards differ
                cut = next(i for i, x in enumerate(slugs) if x in SHUFFLES) + 1
                assert theirs[:cut] == slugs[:cut]
        self.shadows = kept

    def step(self) -> None:
        game, model, rng = self.game, self.model, self.rng
        seats = [s for s in (0, 1) if model.legal(s)]
        if self.probe.random() < 0.08 and game.version > 3:
            self.try_old(self.probe.choice((0, 1)))
            return
        if self.probe.random() < 0.1:
            self.try_any(self.probe.choice((0, 1)))
            return
        if self.greedy and len(seats) == 2:
            seat = 0 if rng.random() < 0.5 + self.greedy / 2 else 1
        else:
            seat = rng.choice(seats)
        legal = model.legal(seat)
        plays = [a for a in legal if a.startswith(("play", "slap", "choose", "ready"))]
        text = rng.choice(plays if plays and rng.random() < self.greedy else legal)
        if self.greedy > 0.9 and text.startswith(("slap", "choose")):  # take the smaller
            text = min(legal, key=lambda t: len(self.model.piles[t[-1]]))
        obj = built(seat, text)
        if obj is not None and self.probe.random() < 0.5:
            assert str(obj) == text
            game.apply(obj)
        else:
            game.act(seat, text)
        slugs = [e.slug for e in self.oracle.events]
        self.check_events(lambda: model.apply(seat, text, self.oracle))
        self.decisions += 1
        self.follow(seat, text, slugs)
        self.compare()

    def try_old(self, seat: int) -> None:
        """SPIT-RT-1 / CORE-RT-1/3: an action legal at ``seen`` (up to STALE_WINDOW = 64
        versions back) but not now is stale; one not legal then either is illegal, as is
        any action with a ``seen`` outside the window."""
        game, rng = self.game, self.probe
        v = game.version
        back = rng.choice([1, 2, 3, rng.randint(4, 64), rng.randint(4, 64), 65, -1])
        seen = v - back
        then = self.history.get(seen if back <= 64 else v - rng.randint(1, 3))
        if seen < 0 or not then:
            return
        text = rng.choice(sorted(then[seat] or then[1 - seat] or {"resign"}))
        if rng.random() < 0.2:
            text = rng.choice(sorted(then[1 - seat] or {"resign"}))
        if text in self.model.legal(seat) or text == "resign":
            return
        if 0 < back <= 64 and text in then[seat]:
            with pytest.raises(StaleActionError):
                game.act(seat, text, seen=seen)
            self.stale += 1
        else:
            with pytest.raises(IllegalActionError) as info:
                game.act(seat, text, seen=seen)
            assert not isinstance(info.value, StaleActionError)
            self.illegal += 1
        with pytest.raises(IllegalActionError) as info:
            game.act(seat, text)
        assert not isinstance(info.value, StaleActionError)
        assert game.version == v

    def check_events(self, transition: Any) -> None:
        """The game's own events of one apply match the model's (fields and order), and
        every card the engine turned up was one the model turned up."""
        events = list(self.oracle.events)
        self.model.expect.clear()
        transition()
        theirs = [e for e in events if e.slug in STRUCTURAL]
        mine = self.model.expect
        assert [e.slug for e in theirs] == [slug for slug, _ in mine]
        for event, (_, fields) in zip(theirs, mine, strict=True):
            for key, value in fields.items():
                got = getattr(event, key)
                assert (str(got) if key == "card" else got) == value, (event, key, value)
        assert not [e for e in self.oracle.events if e.slug in ("card-spat", "card-revealed")]

    def try_any(self, seat: int) -> None:
        """Any action text (and its hand-built object) the model says is not legal now
        is refused as illegal, changing nothing (the engine's fast ``is_legal``)."""
        game = self.game
        texts = SPEED_TEXTS
        if self.name == "spit":  # the claim word is the configuration's (SPIT-END-3)
            other = "slap" if self.model.chooser else "choose"
            texts = [t for t in SPIT_TEXTS if not t.startswith(other)]
        text = self.probe.choice(texts)
        if text in self.model.legal(seat):
            return
        v = game.version
        with pytest.raises(IllegalActionError) as info:
            game.act(seat, text, seen=v)
        assert not isinstance(info.value, StaleActionError)
        obj = built(seat, text)
        if obj is not None:
            with pytest.raises(IllegalActionError) as info:
                game.apply(obj)
            assert not isinstance(info.value, StaleActionError)
        assert game.version == v
        self.illegal += 1

    def run(self, limit: int) -> None:
        while self.model.result is None and self.decisions < limit:
            self.step()
        if self.model.result is not None:
            # CORE-RT-1: an action legal when its seat looked is stale after the end too
            v = self.game.version
            for seat in (0, 1):
                then = self.history[v - 1][seat]
                if then:
                    with pytest.raises(StaleActionError):
                        self.game.act(seat, sorted(then)[0], seen=v - 1)
            # the record replays to the same end (design.md, Determinism and records)
            copy = cardcore.replay(self.game.record())
            assert copy.result == self.game.result
            assert copy.view(None)["table"] == self.game.view(None)["table"]


# --------------------------------------------------------------------------- tests

SPIT_CONFIGS = [
    ((), {}),
    (("spit.chooser",), {}),
    (("spit.canfield",), {}),
    (("spit.same-rank",), {}),
    (("spit.chooser", "spit.canfield"), {}),
    ((), {"stall_limit": 3}),
]


@pytest.mark.parametrize(("rules", "options"), SPIT_CONFIGS)
def test_spit_lockstep(rules: tuple[str, ...], options: dict[str, Any]) -> None:
    for seed in range(3):
        Runner("spit", 1000 + seed, rules, **options).run(400)


SPEED_CONFIGS = [
    ((), {}),
    ((), {"side_pile": 15}),
    ((), {"jokers": 2}),
    (("speed.stuck-on-request",), {}),
    (("speed.stuck-on-request",), {"side_pile": 15, "jokers": 2}),
]


@pytest.mark.parametrize(("rules", "options"), SPEED_CONFIGS)
def test_speed_lockstep(rules: tuple[str, ...], options: dict[str, Any]) -> None:
    for seed in range(5):
        Runner("speed", 2000 + seed, rules, **options).run(600)


def test_spit_pinned_paths() -> None:
    """Pinned games that reach the rare paths: void deals, recycles, single-pile deals
    and SPIT-WIN-1 (SPIT-WIN-4 is pinned below from a position)."""
    seen: Counter[str] = Counter()
    for seed, greedy, options in [(5003, 0.0, {"stall_limit": 1})]:
        runner = Runner("spit", seed, (), greedy=greedy, **options)
        runner.run(4000)
        assert runner.model.result is not None
        seen += runner.model.seen
    for path in ("void", "recycle", "single-pile deal", "win-1"):
        assert seen[path], path


# The worked example's stacked deck (docs/games/spit.rst): seat 0 lays out
# 2H 4H 7H JH 3S 3H 6H 10H 2S 5H 9H AS 8H KH QH and spits AH first; seat 1 spits 6D.
WORKED_TEXT = (
    "2H 4S 4H 5S 7H 6S JH 7S 3S 8S 3H 9S 6H 10S 10H JS 2S QS 5H KS 9H AD AS 2D "
    "8H 3D KH 4D QH 5D AH 6D AC 7D 2C 8D 3C 9D 4C 10D 5C JD 6C QD 7C KD 8C JC 9C QC 10C KC"
)
WORKED = WORKED_TEXT.split(" ")


def worked_runner(rules: tuple[str, ...] = ()) -> Runner:
    runner = Runner("spit", 0, rules)
    # start over from the worked deck instead of the random one
    runner.oracle = Oracle()
    runner.game = cardcore.new_game(
        "spit",
        2,
        rules=rules,
        deck=" ".join(WORKED),
        subscribers=[(Event, runner.oracle.events.append, None)],
    )
    runner.model = SpitModel(WORKED, rules)
    runner.history = {}
    runner.compare()
    return runner


def act(runner: Runner, seat: int, text: str, at: float | None = None) -> None:
    runner.game.act(seat, text, at=at)
    runner.check_events(lambda: runner.model.apply(seat, text, runner.oracle))
    runner.compare()


def test_spit_race_for_one_centre_pile() -> None:
    """SPIT-RT-1 / SPIT-GAP-2: both seats can play onto R (6D): seat 0's 5H, seat 1's
    5D. Seat 0's 5H lands first; seat 1's 5D on a 5H is now against SPIT-MOVE-4, so
    with the version seat 1 saw it is stale, without ``seen`` illegal; seat 1's KS onto
    L (AH) is untouched by the race and still applies."""
    runner = worked_runner()
    act(runner, 0, "ready")
    act(runner, 1, "ready")
    game = runner.game
    v = game.version
    assert {"play 3 R"} <= set(runner.model.legal(0))
    assert {"play 5 R", "play 3 L"} <= set(runner.model.legal(1))
    act(runner, 0, "play 3 R")
    with pytest.raises(StaleActionError):
        game.act(1, "play 5 R", seen=v)
    with pytest.raises(IllegalActionError) as info:
        game.act(1, "play 5 R")
    assert not isinstance(info.value, StaleActionError)
    assert game.version == v + 1
    game.act(1, "play 3 L", seen=v)  # still legal: applied, whatever it saw
    runner.model.apply(1, "play 3 L", runner.oracle)
    runner.compare()
    # an action never legal for this seat is illegal even with an old ``seen``
    with pytest.raises(IllegalActionError) as info:
        game.act(1, "combine 1 2", seen=v)
    assert not isinstance(info.value, StaleActionError)


def play_out_seat_0(runner: Runner) -> None:
    """Seat 0 plays its whole layout onto L (the worked example's run AH 2H ... 3S)."""
    while runner.model.phase == "play":
        plays = [a for a in runner.model.legal(0) if a.startswith("play") and a.endswith("L")]
        act(runner, 0, plays[0])


@pytest.mark.parametrize("rules", [(), ("spit.chooser",)])
def test_spit_first_claim_wins_second_is_stale(rules: tuple[str, ...]) -> None:
    """SPIT-END-2 / SPIT-RT-3 (and SPIT-END-3): after the deal ends the first claim
    decides; the other seat's claim, legal when it looked, is stale. The worked
    example: L holds 16 cards (AH + seat 0's 15), R one (6D)."""
    runner = worked_runner(rules)
    act(runner, 0, "ready")
    act(runner, 1, "ready")
    play_out_seat_0(runner)
    game = runner.game
    assert runner.model.phase == "claim"
    assert [len(c or []) for c in runner.model.piles.values()] == [16, 1]
    v = game.version
    if rules:  # only the emptier claims under spit.chooser
        assert runner.model.legal(1) == []
        with pytest.raises(IllegalActionError) as info:
            game.act(1, "choose R", seen=v)
        assert not isinstance(info.value, StaleActionError)
        act(runner, 0, "choose R")  # seat 0: 10 spit cards left + R's 6D = 11 cards
        assert [runner.model.held(s) for s in (0, 1)] == [11, 41]
        assert game.view(None)["table"]["mode"] == "single-pile"
        return
    act(runner, 1, "slap R")
    with pytest.raises(StaleActionError):
        game.act(0, "slap L", seen=v)
    # the docs' worked example: Ann takes L's sixteen cards, both hold 26 again
    assert [runner.model.held(s) for s in (0, 1)] == [26, 26]
    assert [seat["cards"] for seat in game.view(None)["table"]["seats"]] == [26, 26]
    assert game.view(None)["table"]["deal"] == 2


def speed_deck(seat0: list[str], seat1: list[str]) -> list[str]:
    """SPEED-SETUP-3 order; play piles 3S/KS and side piles of A 2 3 J Q K only, so no
    hand of 7s, 8s and 9s fits anything the centre will ever show."""
    centre = ["3S", "KS"]
    sides = ["AS", "2S", "QS", "JS", "AH", "2H", "QH", "JH", "KH", "3H"]
    used = set(centre + sides + seat0 + seat1)
    rest = [c for c in DECK52 if c not in used]
    a = seat0 + rest[: 20 - len(seat0)]
    rest = rest[20 - len(seat0) :]
    b = seat1 + rest[: 20 - len(seat1)]
    return centre + sides + [c for pair in zip(a, b, strict=True) for c in pair]


SEAT1_STUCK = ["9S", "9H", "9D", "9C", "7D"]


def speed_runner(deck: list[str], rules: tuple[str, ...] = ()) -> Runner:
    runner = Runner("speed", 0, rules)
    runner.oracle = Oracle()
    runner.game = cardcore.new_game(
        "speed",
        2,
        rules=rules,
        deck=" ".join(deck),
        subscribers=[(Event, runner.oracle.events.append, None)],
    )
    runner.model = SpeedModel(deck, rules)
    runner.model.after(runner.oracle)
    runner.history = {}
    runner.compare()
    return runner


def test_speed_stalemate_at_the_deal_is_a_draw() -> None:
    """SPEED-STUCK-1..2, SPEED-END-2: nobody can play at the deal, so the side cards
    turn, the centre recycles once, turns again, and the second recycle comes with no
    card played: the game ends at once with 20 cards each, a draw."""
    runner = speed_runner(speed_deck(["7S", "7H", "8S", "8H", "8D"], SEAT1_STUCK))
    game = runner.game
    assert runner.model.seen["stalemate"] == 1
    assert game.is_over
    assert result_of(game).winners == (0, 1)
    assert not game.legal_actions(0) and not game.legal_actions(1)


def test_speed_stalemate_fewer_cards_wins_and_late_action_is_stale() -> None:
    """SPEED-END-2: seat 0 plays its 4C on the 3S (then draws an 8D), after which
    nobody can play: the stalemate comes inside that apply and seat 0, holding 19
    cards to 20, wins. Seat 1's ``stuck``, legal at the version it saw, is stale
    (CORE-RT-1: also when the action that came first ended the game)."""
    runner = speed_runner(speed_deck(["4C", "7S", "7H", "8S", "8H", "8D"], SEAT1_STUCK))
    game = runner.game
    assert not game.is_over
    assert runner.model.legal(0) == ["play 4C L", "stuck"]
    v = game.version
    act(runner, 0, "play 4C L")
    assert runner.model.seen["stalemate"] == 1
    assert result_of(game).winners == (0,)
    with pytest.raises(StaleActionError):
        game.act(1, "stuck", seen=v)
    with pytest.raises(IllegalActionError) as info:
        game.act(1, "stuck")
    assert not isinstance(info.value, StaleActionError)


def test_speed_stalemate_on_request() -> None:
    """SPEED-STUCK-4: under ``speed.stuck-on-request`` nothing turns by itself; each
    pair of ``stuck`` declarations turns one side card each (5), then recycles and
    turns (5 more), and the next pair meets the second recycle: a draw after 11 pairs."""
    runner = speed_runner(
        speed_deck(["7S", "7H", "8S", "8H", "8D"], SEAT1_STUCK), ("speed.stuck-on-request",)
    )
    game = runner.game
    pairs = 0
    while not game.is_over:
        assert game.to_act == (0, 1)
        act(runner, 0, "stuck")
        assert runner.model.legal(0) == []  # declared, nothing to play: still in to_act
        assert game.to_act == (0, 1)
        act(runner, 1, "stuck")
        pairs += 1
    assert pairs == 11
    assert result_of(game).winners == (0, 1)


def claim_position(n: int, seed: int, canfield: bool) -> tuple[str, dict[str, Any]]:
    """A two-pile deal just ended by seat 0 (layout and spit cards empty), pile L of
    ``n`` cards, R of 3; seat 1 has a full layout and the rest as spit cards. Returns
    the position text and the same table for the model."""
    deck = list(DECK52)
    random.Random(seed).shuffle(deck)
    piles = {"L": deck[:n], "R": deck[n : n + 3]}  # bottom first
    rest = deck[n + 3 :]
    layout1: list[list[str]] = [[] for _ in range(5)]
    for card, k in zip(rest, layout_shape(15, canfield), strict=False):
        layout1[k].append(card)
    spit1 = rest[15:]  # bottom first
    zones = [f"layout.0.{k}:" for k in range(1, 6)]
    zones += [
        f"layout.1.{k + 1}: " + " ".join([*pile[:-1], pile[-1] + "!"])
        for k, pile in enumerate(layout1)
    ]
    zones += ["spit.0:", "spit.1: " + " ".join(spit1)]
    zones += [f"pile.{p}: " + " ".join(c + "!" for c in cards) for p, cards in piles.items()]
    head = (
        'spit v=1 phase="claim" deal=1 single=-1 ready=[true,true] '
        "requests=[false,false] stall=0 recycled=false emptier=0"
    )
    return " | ".join([head, *zones]), {"piles": piles, "layout1": layout1, "spit1": spit1}


def crafted_runner(n: int, seed: int, rules: tuple[str, ...] = ()) -> Runner:
    text, table = claim_position(n, seed, "spit.canfield" in rules)
    runner = Runner("spit", seed, rules)
    runner.oracle = Oracle()
    runner.game = cardcore.new_game(
        "spit",
        2,
        rules=rules,
        position=text,
        seed=seed,
        subscribers=[(Event, runner.oracle.events.append, None)],
    )
    model = SpitModel(list(DECK52), rules)
    model.layout = [[[] for _ in range(5)], [list(p) for p in table["layout1"]]]
    model.down = [[0] * 5, [len(p) - 1 for p in table["layout1"]]]
    model.spit = [[], list(table["spit1"])]
    model.piles = {p: list(c) for p, c in table["piles"].items()}
    model.phase, model.emptier, model.ready = "claim", 0, [True, True]
    runner.model = model
    runner.history = {}
    runner.compare()
    return runner


def play_position(
    layouts: list[list[list[str]]], spits: list[list[str]], piles: dict[str, list[str]]
) -> Runner:
    """A single-pile deal in play (started by seat 1 on R): piles bottom first, every
    layout pile's cards face down under its face-up top."""
    zones = [
        f"layout.{s}.{k + 1}: " + " ".join([*pile[:-1], pile[-1] + "!"] if pile else [])
        for s in (0, 1)
        for k, pile in enumerate(layouts[s])
    ]
    zones += [f"spit.{s}: " + " ".join(spits[s]) for s in (0, 1)]
    zones += [f"pile.{p}: " + " ".join(c + "!" for c in cards) for p, cards in piles.items()]
    head = (
        'spit v=1 phase="play" deal=2 single=1 ready=[true,true] '
        "requests=[false,false] stall=0 recycled=false emptier=-1"
    )
    runner = Runner("spit", 0)
    runner.oracle = Oracle()
    runner.game = cardcore.new_game(
        "spit",
        2,
        position=" | ".join([head, *zones]),
        seed=5,
        subscribers=[(Event, runner.oracle.events.append, None)],
    )
    model = SpitModel(list(DECK52))
    model.deal, model.single, model.phase, model.ready = 2, True, "play", [True, True]
    model.layout = [[list(p) for p in lay] for lay in layouts]
    model.down = [[max(0, len(p) - 1) for p in lay] for lay in layouts]
    model.spit = [list(x) for x in spits]
    model.piles = {p: (list(c) if c else None) for p, c in piles.items()}
    model.sizes = [16, 36]
    runner.model = model
    runner.history = {}
    runner.compare()
    return runner


def single_pile_table(
    spit1: int,
) -> tuple[list[list[list[str]]], list[list[str]], dict[str, list[str]]]:
    """Seat 0: a 15-card layout, no spit cards; seat 1: one card left (2C on pile 1)
    and ``spit1`` spit cards; R (top AD) holds the rest."""
    rest = [c for c in DECK52 if c not in ("2C", "AD")]
    layout0 = [rest[sum(range(k)) : sum(range(k + 1))] for k in range(1, 6)]
    rest = rest[15:]
    spits = [[], rest[:spit1]]
    pile = [*rest[spit1:], "AD"]
    return [layout0, [["2C"], [], [], [], []]], spits, {"L": [], "R": pile}


def test_spit_win_4_emptier_without_spit_cards_wins() -> None:
    """SPIT-WIN-4 (and SPIT-END-6): in a single-pile deal the player with spit cards
    empties first having spat them all: they take nothing and keep no spit cards, so
    they hold no cards and win, reason "out of cards"."""
    runner = play_position(*single_pile_table(0))
    act(runner, 1, "play 1 R")
    assert result_of(runner.game).winners == (1,)
    assert result_of(runner.game).reason == "out of cards"


def test_spit_win_2_emptier_with_spit_cards_plays_on() -> None:
    """SPIT-WIN-2 / SPIT-END-6: the same, but seat 1 keeps 4 spit cards: no winner;
    seat 1 lays out its 4 spit cards and seat 0 takes the pile and its layout
    (52 - 4 = 48 cards); the next deal follows at once (setup)."""
    runner = play_position(*single_pile_table(4))
    act(runner, 1, "play 1 R")
    assert not runner.game.is_over
    table = runner.game.view(None)["table"]
    assert [seat["cards"] for seat in table["seats"]] == [48, 4]
    assert (table["phase"], table["deal"], table["mode"]) == ("setup", 3, "single-pile")
    runner.greedy = 0.5
    runner.run(3000)
    assert runner.model.result is not None


@pytest.mark.parametrize("rules", [(), ("spit.canfield",), ("spit.chooser", "spit.same-rank")])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 14, 15, 16])
def test_spit_small_layouts_from_a_claim(n: int, rules: tuple[str, ...]) -> None:
    """SPIT-SETUP-4 / SETUP-5 / END-5 / WIN-1 on deals the random games rarely reach:
    seat 0 claims L of ``n`` cards and lays out 1..16 cards (row by row, or Canfield),
    single-pile for n <= 15; then random play to the end of the game in lockstep."""
    for seed in range(1):
        runner = crafted_runner(n, 100 * n + seed, rules)
        text = "choose L" if "spit.chooser" in rules else "slap L"
        act(runner, 0, text)
        assert runner.model.held(0) == n
        shape = Counter(layout_shape(n, "spit.canfield" in rules))
        assert [len(p) for p in runner.model.layout[0]] == [shape[k] for k in range(5)]
        assert runner.model.single == (n <= 15)
        runner.greedy = 0.5
        runner.run(3000)
        assert runner.model.result is not None


def test_spit_gap_2_a_later_play_is_judged_on_the_new_top() -> None:
    """SPIT-GAP-2 (rules-decisions.md) and CORE-RT-1: after a play changes a pile's top,
    a later play is judged against the new top. Worked deck: L shows AH; seat 0 plays 2H
    on it. Seat 1's 3D (pile 4), not legal on the AH it saw, fits the 2H: applied
    ("6 -> 7 then 8 is legal"). Seat 1's KS (pile 3), legal on the AH it saw, no longer
    fits the 2H: stale ("6 -> 7 then 5 is STALE")."""
    runner = worked_runner()
    act(runner, 0, "ready")
    act(runner, 1, "ready")
    game = runner.game
    v = game.version
    assert "play 3 L" in runner.model.legal(1) and "play 4 L" not in runner.model.legal(1)
    act(runner, 0, "play 1 L")
    with pytest.raises(StaleActionError):
        game.act(1, "play 3 L", seen=v)
    game.act(1, "play 4 L", seen=v)
    runner.model.apply(1, "play 4 L", runner.oracle)
    runner.compare()
    assert game.view(None)["table"]["piles"]["L"][:3] == ["3D", "2H", "AH"]


@pytest.mark.parametrize(
    ("name", "rules", "options"),
    [
        ("spit", (), {}),
        ("spit", ("spit.chooser", "spit.canfield"), {}),
        ("spit", ("spit.same-rank",), {"stall_limit": 5}),
        ("speed", (), {}),
        ("speed", ("speed.stuck-on-request",), {"jokers": 2}),
    ],
)
def test_bot_games_replayed_in_lockstep(
    name: str, rules: tuple[str, ...], options: dict[str, Any]
) -> None:
    """The shipped bots (``run_realtime``, SPIT-RT-2) play other games than uniform
    random choice: setup by ``auto_setup``, uncovering plays first, the smaller pile
    slapped. Their recorded actions, replayed on the same deck, agree with the model
    action by action, and the game ends as the bots' game did."""
    from cardcore_spit.agents import SpitGreedyAgent, SpitHumanAgent

    for seed in (11, 12):
        runner = Runner(name, seed, rules, **options)
        deck = list(DECK52) + (["JK", "JK"] if options.get("jokers") == 2 else [])
        random.Random(seed).shuffle(deck)
        bots = cardcore.new_game(
            name, 2, rules=rules, options=options or None, seed=seed, deck=" ".join(deck)
        )
        result = cardcore.run_realtime(
            bots, [SpitGreedyAgent(seed=seed), SpitHumanAgent(seed=seed + 1)], seed=seed
        )
        for seat, text, at in bots.record()["actions"]:
            act(runner, seat, text, at=at)
        assert runner.model.result is not None
        assert result_of(runner.game) == result
