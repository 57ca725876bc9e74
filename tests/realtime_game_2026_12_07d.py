"""Spoons, a real-time elimination game written from docs/plugin-guide/realtime.rst alone.

Rules (SPOON-*), invented for this test:

* SPOON-DEAL-1: 3 to 5 players. The deck holds four cards of each of ``players + 1``
  ranks (ace upwards). Each seat still in is dealt four cards face down into its hand
  (seen by its owner); the rest is the dealer's face-down ``stock`` (the dealer is the
  lowest seat still in).
* SPOON-DRAW-1: a seat holding four cards may ``draw``: the dealer from the stock, every
  other seat from the top of its ``pass.N`` pile (the cards its left neighbour passed).
  The card goes into the hand at a random place.
* SPOON-PASS-1: a seat holding five cards passes one, named by its place in the hand
  (``pass 2``, top first), face down onto its right neighbour's ``pass.N`` pile; the last
  seat passes onto the face-down ``discard``. When the stock is empty, the discard is
  shuffled into it.
* SPOON-GRAB-1: a seat holding four cards of one rank may grab a spoon (``grab H``, H the
  hand's number): its hand is shown to everyone. From then on only grabs are legal.
* SPOON-GRAB-2: once a spoon has been grabbed, every seat still in without a spoon may
  grab one (``grab H``). There is one spoon fewer than seats in the hand.
* SPOON-OUT-1: the seat left without a spoon is out; a seat out may do nothing. The
  cards are gathered, shuffled, and a new hand (number H+1) is dealt to the seats in.
* SPOON-WIN-1: the last seat in wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from attrs import frozen

from cardcore import (
    Action,
    Card,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Plan,
    Rank,
    Ruleset,
    Shuffled,
    Suit,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.positions import check
from cardcore.turns import end_game


@frozen
class Draw(Action):
    verb: ClassVar[str] = "draw"


@frozen
class Pass(Action):
    place: int  # top first, as the seat's view lists its hand
    verb: ClassVar[str] = "pass"

    def notation(self) -> str:
        return f"pass {self.place}"


@frozen
class Grab(Action):
    hand: int  # the hand's number: a grab made on an earlier hand's view is never legal
    verb: ClassVar[str] = "grab"

    def notation(self) -> str:
        return f"grab {self.hand}"


SpoonsAction = Draw | Pass | Grab
STOCK, DISCARD = 0, 1


def hand(seat: int) -> int:
    return 2 + 2 * seat


def incoming(seat: int) -> int:
    return 3 + 2 * seat


def layout(players: int) -> Layout:
    specs = [
        ZoneSpec("stock", None, Visibility.NOBODY),
        ZoneSpec("discard", None, Visibility.NOBODY),
    ]
    for s in range(players):
        specs += [
            ZoneSpec(f"hand.{s}", s, Visibility.OWNER),
            ZoneSpec(f"pass.{s}", s, Visibility.NOBODY),
        ]
    return Layout.of(specs)


class SpoonsState(GameState):
    __slots__ = ("hand_no", "holders", "out")
    hand_no: int  # the hand's number, from 1
    holders: tuple[int, ...]  # seats holding a spoon this hand, in grab order
    out: tuple[int, ...]  # seats out, in the order they went out


def quads(cards: Sequence[Card]) -> bool:
    ranks = [c.rank for c in cards]
    return any(ranks.count(r) == 4 for r in set(ranks))


class SpoonsLogic(GameLogic[SpoonsState, SpoonsAction]):
    action_types = (Draw, Pass, Grab)
    position_fields = ("to_act", "hand_no", "holders", "out")

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 60000

    def deck(self, players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
        ranks = list(Rank)[1 : players + 2]  # ace upwards (Rank starts with JOKER)
        return tuple(Card(r, s) for r in ranks for s in Suit)

    def blank_state(self, players: int, options: Mapping[str, Any]) -> SpoonsState:
        state = SpoonsState(players, options, Zones(layout(players)))
        state.hand_no, state.holders, state.out = 1, (), ()
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> SpoonsState:
        state = self.blank_state(players, options)
        state.seed = seed
        for card in cards:
            state.zones.put(STOCK, card)
        self._deal(state, emit)
        return state

    def _in(self, state: SpoonsState) -> tuple[int, ...]:
        return tuple(s for s in range(state.players) if s not in state.out)

    def _deal(self, state: SpoonsState, emit: Emit | None) -> None:  # SPOON-DEAL-1
        seats = self._in(state)
        for _ in range(4):
            for s in seats:
                state.zones.move(STOCK, hand(s), mask=1 << s)
        state.to_act = seats
        if emit is not None:
            emit(CardsDealt(tuple(4 if s in seats else 0 for s in range(state.players))))

    def _right(self, state: SpoonsState, seat: int) -> int | None:
        seats = self._in(state)
        i = seats.index(seat)
        return seats[i + 1] if i + 1 < len(seats) else None

    def legal_actions(self, state: SpoonsState, seat: int) -> tuple[SpoonsAction, ...]:
        if seat in state.out:
            return ()
        cards = state.zones.cards[hand(seat)]
        if state.holders:  # SPOON-GRAB-2
            return () if seat in state.holders else (Grab(seat, state.hand_no),)
        grab = (Grab(seat, state.hand_no),) if quads(cards) else ()  # SPOON-GRAB-1
        if len(cards) == 5:
            return tuple(Pass(seat, p) for p in range(5)) + grab
        source = STOCK if seat == self._in(state)[0] else incoming(seat)
        return ((Draw(seat),) if state.zones.cards[source] else ()) + grab

    def rule_for(self, state: SpoonsState, action: SpoonsAction) -> tuple[str, str]:
        if isinstance(action, Grab):
            if state.holders:
                return "SPOON-GRAB-2", "a seat grabs one spoon, in this hand only"
            return "SPOON-GRAB-1", "the first spoon goes to four of a kind"
        if state.holders:
            return "SPOON-GRAB-2", "a spoon was grabbed: only grabs now"
        if isinstance(action, Pass):
            return "SPOON-PASS-1", "a seat passes one of five cards, by its place 0 to 4"
        return "SPOON-DRAW-1", "a seat draws with four cards, from a pile that has one"

    def waiting_rule(self, state: SpoonsState, action: SpoonsAction) -> tuple[str, str]:
        return "SPOON-OUT-1", f"seat {action.seat} is out"

    def apply(self, state: SpoonsState, action: SpoonsAction, emit: Emit | None) -> None:
        seat, zones = action.seat, state.zones
        if isinstance(action, Draw):  # SPOON-DRAW-1
            source = STOCK if seat == self._in(state)[0] else incoming(seat)
            card, _ = zones.pop(source)
            zones.insert(
                hand(seat), state.rng().randrange(len(zones.cards[hand(seat)]) + 1), card, 1 << seat
            )
        elif isinstance(action, Pass):  # SPOON-PASS-1
            right = self._right(state, seat)
            n = len(zones.cards[hand(seat)])
            dest = DISCARD if right is None else incoming(right)
            zones.move(hand(seat), dest, n - 1 - action.place, mask=1 << seat)
            if not zones.cards[STOCK] and zones.cards[DISCARD]:
                count = len(zones.cards[DISCARD])
                while zones.cards[DISCARD]:
                    zones.move(DISCARD, STOCK)
                zones.shuffle(STOCK, state.rng())
                if emit is not None:
                    emit(Shuffled("stock", count))
        else:
            if not state.holders:  # SPOON-GRAB-1: the grabber shows its hand
                for i in range(len(zones.cards[hand(seat)])):
                    zones.reveal(hand(seat), i)
            state.holders = (*state.holders, seat)
            seats = self._in(state)
            if len(state.holders) == len(seats) - 1:  # SPOON-OUT-1
                loser = next(s for s in seats if s not in state.holders)
                state.out = (*state.out, loser)
                if len(seats) == 2:  # SPOON-WIN-1
                    end_game(state, state.holders, self.scores(state), "last seat in")
                    return
                self._new_hand(state, emit)
                return

    def _new_hand(self, state: SpoonsState, emit: Emit | None) -> None:
        zones = state.zones
        count = 0
        for z in range(1, 2 + 2 * state.players):
            while zones.cards[z]:
                zones.move(z, STOCK)
                count += 1
        zones.shuffle(STOCK, state.rng())
        if emit is not None:
            emit(Shuffled("stock", count))
        state.hand_no += 1
        state.holders = ()
        self._deal(state, emit)

    def scores(self, state: SpoonsState) -> tuple[float, ...]:
        return tuple(
            float(state.out.index(s) if s in state.out else len(state.out))
            for s in range(state.players)
        )

    def standings(self, state: SpoonsState) -> tuple[int, ...]:
        return self._in(state)

    def table(self, state: SpoonsState, seat: int | None) -> dict[str, Any]:
        spoons = len(self._in(state)) - 1 - len(state.holders)
        return {
            "hand_no": state.hand_no,
            "spoons": spoons,
            "holders": list(state.holders),
            "out": list(state.out),
        }

    def check_position(self, state: SpoonsState) -> None:
        check(state.is_over or state.to_act == self._in(state), "to_act must be the seats still in")
        check(all(s not in state.out for s in state.holders), "a seat out holds no spoon")


GAME = GameInfo(
    "spoons",
    "Spoons: pass cards along, grab a spoon with four of a kind",
    3,
    5,
    realtime=True,
    version="1.0.0",
    fields=(
        ViewField("hand_no", "int", "The hand's number, from 1."),
        ViewField("spoons", "int", "Spoons left on the table."),
        ViewField("holders", "json", "Seats holding a spoon, in grab order."),
        ViewField("out", "json", "Seats out, in the order they went out."),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> SpoonsLogic:
    return SpoonsLogic(ruleset)


class Grabber:
    """Grabs after *react* seconds; otherwise keeps the rank it holds most of, after *pace* s."""

    def __init__(self, react: float, pace: float = 0.5) -> None:
        self.react, self.pace = react, pace

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Plan | None:
        for action in legal:
            if isinstance(action, Grab):
                return Plan(action, self.react)
        passes = [a for a in legal if isinstance(a, Pass)]
        if passes:
            mine = next(z for z in view["zones"] if z["name"] == f"hand.{view['seat']}")["cards"]
            ranks = [c[:-1] for c in mine]
            worst = min(range(len(mine)), key=lambda p: (ranks.count(ranks[p]), p))
            return Plan(passes[worst], self.pace)
        return Plan(legal[0], self.pace) if legal else None
