"""Euchre, a partnership trick-taking game written by a third-party author from the docs.

Rules (each with its ID):

* EUCHRE-SEAT-1: exactly 4 players, seats 0+2 against seats 1+3.
* EUCHRE-DECK-1: a 24-card deck, 9 through A of each suit (the game's ``build_deck``).
* EUCHRE-DEAL-1: 5 cards each, one at a time from the left of the dealer (seat 3 deals
  first); the next card is turned up (pile ``upcard``); the deal passes left each hand.
* EUCHRE-BID-1: round 1, from the dealer's left: ``order up`` (optionally ``order up
  alone``) makes the upcard's suit trump, or ``pass``.
* EUCHRE-BID-2: when all four pass, the upcard is turned down (known to all, in the kitty)
  and round 2 starts: ``name S`` (any suit but the upcard's, optionally ``name S alone``) or
  ``pass``; the dealer may not pass in round 2 (stick the dealer).
* EUCHRE-DISCARD-1: after an order up the dealer takes the upcard into the hand and
  discards one card face down, named by its place in the hand (``discard 2``); only the
  dealer sees it. If the dealer's partner goes alone, the dealer sits out and does not
  pick up (the upcard is turned down).
* EUCHRE-ALONE-1: the maker's partner sits out a hand the maker plays alone: never in
  ``to_act``, its cards out of play; tricks have 3 cards.
* EUCHRE-FOLLOW-1: follow the led card's effective suit if you can (the left bower counts
  as trump).
* EUCHRE-TRICK-1: right bower (jack of trump) > left bower (other jack of the colour) >
  A K Q 10 9 of trump > the led suit's A K Q J 10 9; the winner leads the next trick; the
  seat left of the dealer leads the first (skipping a seat that sits out).
* EUCHRE-SCORE-1: makers with 3-4 tricks score 1, with 5 tricks 2 (4 when alone);
  makers with fewer than 3 are euchred: the defenders score 2.
* EUCHRE-END-1: the match ends after a hand when a team has ``points`` (default 10,
  1..25); both partners win.

House rule (module ``euchre_rules_2026_12_15``): EUCHRE-CANADIAN-1.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar

from attrs import frozen

from cardcore import (
    ALL,
    Action,
    Card,
    CardMoved,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    NotationError,
    Option,
    Rank,
    Result,
    Suit,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.dealing import deal_round_robin, fill_stock, gather
from cardcore.positions import check
from cardcore.turns import end_game

NAME = "euchre-2026-12-15"
PLAYERS = 4
HAND = 5
SUITS = ("C", "D", "H", "S")
RANKS = (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
KITTY, UPCARD, TRICK, DONE, BURIED = 0, 1, 2, 3, 4
PHASES = ("bid1", "bid2", "discard", "play")
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}


def hand(seat: int) -> int:
    return 5 + seat


def team(seat: int) -> int:
    return seat % 2


def partner(seat: int) -> int:
    return (seat + 2) % 4


@cache
def layout() -> Layout:
    return Layout.of(
        [
            ZoneSpec("kitty"),
            ZoneSpec("upcard", None, Visibility.EVERYONE),
            ZoneSpec("trick", None, Visibility.EVERYONE),
            ZoneSpec("done", None, Visibility.EVERYONE),
            ZoneSpec("buried"),
            *(ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(PLAYERS)),
        ]
    )


GAME = GameInfo(
    NAME,
    "Euchre: order up or name trump, bowers, go alone; first team to 10 points",
    4,
    4,
    version="1.0.0",
    options=(Option("points", 10, "Points that win the match.", minimum=1, maximum=25),),
    fields=(
        ViewField("dealer", "seat", "Who dealt this hand."),
        ViewField("phase", "choice", "Bidding round, discard or play.", choices=PHASES),
        ViewField("turned", "choice", "The suit of the card turned up.", choices=SUITS),
        ViewField("trump", "choice", "Trump, once made.", choices=SUITS, nullable=True),
        ViewField("maker", "seat", "The seat that made trump.", nullable=True),
        ViewField("alone", "bool", "Whether the maker plays alone."),
        ViewField("picked_up", "card", "The upcard the dealer took.", nullable=True),
        ViewField("leader", "seat", "Who led the current trick."),
        ViewField("tricks", "per-seat", "Tricks each seat took this hand.", of="int"),
        ViewField("points", "per-seat", "Match points (partners alike).", of="int"),
        ViewField("hand", "int", "Hands played before this one."),
    ),
)


@frozen
class OrderUp(Action):
    alone: bool = False
    verb: ClassVar[str] = "order"

    def notation(self) -> str:
        return "order up alone" if self.alone else "order up"


@frozen
class Pass(Action):
    verb: ClassVar[str] = "pass"


@frozen
class Name(Action):
    suit: str
    alone: bool = False
    verb: ClassVar[str] = "name"

    def notation(self) -> str:
        return f"name {self.suit}" + (" alone" if self.alone else "")


@frozen
class Discard(Action):
    pos: int
    verb: ClassVar[str] = "discard"

    def notation(self) -> str:
        return f"discard {self.pos}"


@frozen
class Play(Action):
    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


EuchreAction = OrderUp | Pass | Name | Discard | Play


class EuchreState(GameState):
    __slots__ = (
        "alone",
        "dealer",
        "hand",
        "leader",
        "maker",
        "passes",
        "past",
        "phase",
        "picked_up",
        "points",
        "tricks",
        "trump",
        "turned",
    )
    _mutable = ("zones", "tricks", "points", "past")
    dealer: int
    phase: str
    turned: str
    trump: str | None
    maker: int | None
    alone: bool
    picked_up: str | None
    leader: int
    tricks: list[int]
    points: list[int]
    hand: int
    passes: int
    past: list[dict[str, Any]]


def effective_suit(card: Card, trump: str | None) -> str:
    """The suit a card follows: the left bower is trump (EUCHRE-FOLLOW-1)."""
    suit = card.suit.value  # type: ignore[union-attr]
    if trump and card.rank == Rank.JACK and suit == SAME_COLOUR[trump]:
        return trump
    return suit


def strength(card: Card, trump: str, led: str) -> int:
    """EUCHRE-TRICK-1."""
    suit = card.suit.value  # type: ignore[union-attr]
    if card.rank == Rank.JACK and suit == trump:
        return 200
    if effective_suit(card, trump) == trump:
        return 150 if card.rank == Rank.JACK else 100 + RANKS.index(card.rank)
    if suit == led:
        return 50 + RANKS.index(card.rank)
    return 0


def out_seat(state: EuchreState) -> int | None:
    """The seat sitting out (the lone maker's partner), if any (EUCHRE-ALONE-1)."""
    if state.alone and state.maker is not None:
        return partner(state.maker)
    return None


def next_in(state: EuchreState, seat: int) -> int:
    nxt = (seat + 1) % 4
    return (nxt + 1) % 4 if nxt == out_seat(state) else nxt


def hand_pos(state: EuchreState, seat: int, pos: int) -> int:
    """A place counted top first (as the view lists it) -> the index in ``Zones.cards``."""
    return len(state.zones.cards[hand(seat)]) - 1 - pos


class EuchreLogic(GameLogic[EuchreState, EuchreAction]):
    position_fields = (
        "to_act",
        "dealer",
        "phase",
        "turned",
        "trump",
        "maker",
        "alone",
        "picked_up",
        "leader",
        "tricks",
        "points",
        "hand",
        "passes",
    )
    max_legal = 12

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 40 * (2 * int(options.get("points", 10)) + 2)

    def blank_state(self, players: int, options: Mapping[str, Any]) -> EuchreState:
        state = EuchreState(players, options, Zones(layout()))
        state.dealer, state.phase, state.turned, state.trump = 3, "bid1", "C", None
        state.maker, state.alone, state.picked_up, state.leader = None, False, None, 0
        state.tricks, state.points, state.hand, state.passes = [0] * 4, [0] * 4, 0, 0
        state.past = []
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> EuchreState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, KITTY, cards)
        self._deal(state, emit)
        return state

    def _deal(self, state: EuchreState, emit: Emit | None) -> None:
        """EUCHRE-DEAL-1."""
        first = (state.dealer + 1) % 4
        deal_round_robin(state, KITTY, [hand(s) for s in range(4)], HAND, first=first)
        up = state.zones.move(KITTY, UPCARD, mask=ALL)
        state.turned = effective_suit(up, None)
        state.phase, state.trump, state.maker, state.alone = "bid1", None, None, False
        state.picked_up, state.passes, state.tricks = None, 0, [0] * 4
        state.leader, state.to_act = first, (first,)
        if emit is not None:
            emit(CardsDealt((HAND,) * 4))
            emit(CardMoved(None, "kitty", "upcard", up))

    def parse_action(self, state: EuchreState, seat: int, text: str) -> EuchreAction:
        words = text.strip().lower().split()
        if words == ["pass"]:
            return Pass(seat)
        if words[:2] == ["order", "up"] and words[2:] in ([], ["alone"]):
            return OrderUp(seat, len(words) == 3)
        if len(words) in (2, 3) and words[0] == "name" and words[2:] in ([], ["alone"]):
            if words[1].upper() not in SUITS:
                raise NotationError(f"name a suit C D H or S, not {words[1]!r} (EUCHRE-BID-2)")
            return Name(seat, words[1].upper(), len(words) == 3)
        if len(words) == 2 and words[0] == "discard":
            if not words[1].isdigit() or len(words[1]) > 1:
                raise NotationError(
                    f"discard a place 0-5 in the hand, not {words[1]!r} (EUCHRE-DISCARD-1)"
                )
            return Discard(seat, int(words[1]))
        if len(words) == 2 and words[0] == "play":
            return Play(seat, Card.parse(words[1].upper()))
        raise NotationError(
            f"expected 'pass', 'order up [alone]', 'name S [alone]', 'discard N' or 'play C', not {text!r:.40}"
            " (EUCHRE-BID-1)"
        )

    def legal_actions(self, state: EuchreState, seat: int) -> tuple[EuchreAction, ...]:
        if state.phase == "bid1":
            return (Pass(seat), OrderUp(seat), OrderUp(seat, True))
        if state.phase == "bid2":
            named = [Name(seat, s, a) for s in SUITS if s != state.turned for a in (False, True)]
            return tuple(named if seat == state.dealer else [Pass(seat), *named])
        held = state.zones.cards[hand(seat)]
        if state.phase == "discard":
            return tuple(Discard(seat, p) for p in range(len(held)))
        trick = state.zones.cards[TRICK]
        if trick:
            led = effective_suit(trick[0], state.trump)
            follow = [c for c in held if effective_suit(c, state.trump) == led]
            if follow:
                return tuple(Play(seat, c) for c in follow)
        return tuple(Play(seat, c) for c in held)

    def rule_for(self, state: EuchreState, action: EuchreAction) -> tuple[str, str]:
        if state.phase in ("bid1", "bid2"):
            if isinstance(action, Pass):
                return "EUCHRE-BID-2", "the dealer must name a suit in round 2 (stick the dealer)"
            if isinstance(action, Name) and state.phase == "bid2":
                return "EUCHRE-BID-2", f"the turned-down suit {state.turned} may not be named"
            rid = "EUCHRE-BID-1" if state.phase == "bid1" else "EUCHRE-BID-2"
            return rid, f"bidding round {state.phase[-1]}: {action} is not a bid of this round"
        if state.phase == "discard":
            return (
                "EUCHRE-DISCARD-1",
                f"the dealer must discard one card by its place 0-5, not {action}",
            )
        if not isinstance(action, Play):
            return "EUCHRE-FOLLOW-1", f"{action} is no play: play a card"
        if action.card not in state.zones.cards[hand(action.seat)]:
            return "EUCHRE-FOLLOW-1", f"seat {action.seat} does not hold {action.card}"
        led = effective_suit(state.zones.cards[TRICK][0], state.trump)
        return (
            "EUCHRE-FOLLOW-1",
            f"seat {action.seat} must follow the led suit {led} (trump {state.trump})",
        )

    def waiting_rule(self, state: EuchreState, action: Action) -> tuple[str, str] | None:
        if action.seat == out_seat(state) and not state.is_over:
            return (
                "EUCHRE-ALONE-1",
                f"seat {action.seat} sits out this hand: its partner plays alone",
            )
        return None

    def apply(self, state: EuchreState, action: EuchreAction, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        if isinstance(action, Pass):
            state.passes += 1
            if state.phase == "bid1" and state.passes == 4:
                z.move(UPCARD, KITTY)  # turned down: every seat still knows it (mask kept)
                if emit is not None:
                    emit(CardMoved(None, "upcard", "kitty", z.cards[KITTY][-1]))
                state.phase, state.passes = "bid2", 0
            state.to_act = ((seat + 1) % 4,)
            return
        if isinstance(action, OrderUp | Name):
            state.maker, state.alone = seat, action.alone
            if isinstance(action, Name):
                state.trump = action.suit
                self._start_play(state)
                return
            state.trump = state.turned
            if action.alone and seat == partner(state.dealer):  # the dealer sits out
                z.move(UPCARD, KITTY)
                self._start_play(state)
                return
            dealer = state.dealer
            place = state.rng().randrange(len(z.cards[hand(dealer)]) + 1)
            card = z.cards[UPCARD][0]
            z.move(UPCARD, KITTY)  # off the table ...
            z.cards[KITTY].pop()
            z.seen[KITTY].pop()
            z.insert(hand(dealer), place, card, ALL)  # ... into the hand, at a hidden place
            state.picked_up = str(card)
            if emit is not None:
                emit(CardMoved(dealer, "upcard", f"hand.{dealer}", card))
            state.phase, state.to_act = "discard", (dealer,)
            return
        if isinstance(action, Discard):
            h = hand(seat)
            i = hand_pos(state, seat, action.pos)
            card = z.move(h, BURIED, i, mask=1 << seat)
            # who knows the upcard now: the others only that it is in the hand or buried
            for j, c in enumerate(z.cards[h]):
                if str(c) == state.picked_up:
                    z.seen[h][j] = 1 << seat
            if emit is not None:
                emit(CardMoved(seat, f"hand.{seat}", "buried", card, 1 << seat))
            self._start_play(state)
            return
        self._play(state, action, emit)

    def _start_play(self, state: EuchreState) -> None:
        state.phase = "play"
        first = next_in(state, state.dealer)
        state.leader, state.to_act = first, (first,)

    def _play(self, state: EuchreState, action: Play, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        i = z.cards[hand(seat)].index(action.card)
        card = z.move(hand(seat), TRICK, i, mask=ALL)
        if emit is not None:
            emit(CardMoved(seat, f"hand.{seat}", "trick", card))
        trick = z.cards[TRICK]
        size = 3 if out_seat(state) is not None else 4
        if len(trick) < size:
            state.to_act = (next_in(state, seat),)
            return
        order = [state.leader]
        while len(order) < size:
            order.append(next_in(state, order[-1]))
        led = effective_suit(trick[0], state.trump)
        best = max(range(size), key=lambda k: strength(trick[k], state.trump or "", led))
        winner = order[best]
        for _ in range(size):
            z.move(TRICK, DONE, 0, mask=ALL)
        state.tricks[winner] += 1
        state.leader, state.to_act = winner, (winner,)
        if sum(state.tricks) == HAND:
            self._score(state, emit)

    def _score(self, state: EuchreState, emit: Emit | None) -> None:
        """EUCHRE-SCORE-1, then EUCHRE-END-1 or the next deal."""
        maker = state.maker if state.maker is not None else 0
        mt = team(maker)
        took = sum(state.tricks[s] for s in range(4) if team(s) == mt)
        if took < 3:
            won, pts = 1 - mt, 2
        else:
            won, pts = mt, (1 if took < 5 else 4 if state.alone else 2)
        made = [pts if team(s) == won else 0 for s in range(4)]
        scored = self.score_round(state, made)
        state.points = [p + d for p, d in zip(state.points, scored, strict=True)]
        state.past = [
            *state.past,
            {
                "hand": state.hand,
                "trump": state.trump,
                "maker": maker,
                "alone": state.alone,
                "tricks": took,
                "points": list(scored),
            },
        ]
        target = state.options["points"]
        if max(state.points) >= target and state.points[0] != state.points[1]:
            end_game(state, self.standings(state), state.points, "points")
            return
        state.hand += 1
        state.dealer = (state.dealer + 1) % 4
        gather(state, KITTY)
        self._deal(state, emit)

    def scores(self, state: EuchreState) -> tuple[float, ...]:
        return tuple(float(p) for p in state.points)

    def standings(self, state: EuchreState) -> tuple[int, ...]:
        if state.points[0] == state.points[1]:
            return (0, 1, 2, 3)
        t = 0 if state.points[0] > state.points[1] else 1
        return (t, t + 2)

    def resign(self, state: EuchreState, seat: int) -> None:
        t = 1 - team(seat)
        state.is_over, state.to_act = True, ()
        state.result = Result((t, t + 2), self.scores(state), None, "resigned")

    def history(self, state: EuchreState, seat: int | None, since: int) -> list[dict[str, Any]]:
        return [dict(h) for h in state.past[since:]]

    def table(self, state: EuchreState, seat: int | None) -> dict[str, Any]:
        return {
            "dealer": state.dealer,
            "phase": state.phase,
            "turned": state.turned,
            "trump": state.trump,
            "maker": state.maker,
            "alone": state.alone,
            "picked_up": state.picked_up,
            "leader": state.leader,
            "tricks": list(state.tricks),
            "points": list(state.points),
            "hand": state.hand,
        }

    def check_position(self, state: EuchreState) -> None:
        check(
            state.is_over or len(state.to_act) == 1,
            "to_act must be one seat, not {}",
            list(state.to_act),
        )
        check(state.phase in PHASES, "phase must be one of {}, not {!r}", PHASES, state.phase)
        check(state.turned in SUITS, "turned must be a suit, not {!r}", state.turned)
        check(state.trump in (None, *SUITS), "trump must be a suit or null, not {!r}", state.trump)
        check(
            state.maker in (None, 0, 1, 2, 3), "maker must be a seat or null, not {!r}", state.maker
        )
        check(0 <= state.dealer < 4, "dealer must be a seat, not {}", state.dealer)
        for a in (0, 1):
            check(
                state.points[a] == state.points[a + 2],
                "partners share their points: {}",
                state.points,
            )
        out = out_seat(state)
        check(out is None or out not in state.to_act, "seat {} sits out and cannot act", out)

    def position_from_view(self, view: Mapping[str, Any], zones: Zones) -> str | None:
        """For search agents: the upcard the dealer took stays in the dealer's hand (or in the
        buried discard, once the dealer discarded), wherever the generic deal put it."""
        state = self.blank_state(len(view["players"]), view["options"])
        state.zones, state.to_act = zones, tuple(view["to_act"])
        for name in self.position_fields[1:]:
            if name in view["table"]:
                value = view["table"][name]
                setattr(state, name, list(value) if isinstance(value, list) else value)
        up = state.picked_up
        if up is not None:
            dealer = state.dealer
            places = [hand(dealer)] + ([BURIED] if state.phase != "discard" else [])
            where = [
                (zi, i)
                for zi, pile in enumerate(zones.cards)
                for i, c in enumerate(pile)
                if str(c) == up
            ]
            if where and where[0][0] not in places and where[0][0] not in (UPCARD, TRICK, DONE):
                rng = random.Random(str(zones.cards))
                spots = [(p, i) for p in places for i in range(len(zones.cards[p]))]
                (zp, ip), (zq, iq) = where[0], rng.choice(spots)
                cards = zones.cards
                cards[zp][ip], cards[zq][iq] = cards[zq][iq], cards[zp][ip]
        return self.write_position(state)


@hookimpl(trylast=True)
def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
    """EUCHRE-DECK-1: 9 through A of each suit."""
    return tuple(Card(r, Suit(s)) for s in SUITS for r in RANKS)


@hookimpl
def create_logic(ruleset: Any) -> EuchreLogic:
    return EuchreLogic(ruleset)
