"""Slapjack, a real-time elimination game, written from cardcore's docs alone (2026-12-13).

Registered in place with ``cardcore.register("cardcore.games", NAME, module)`` (see
``docs/plugin-guide/entry-points.rst``, "Without installing"). Rules:

* SLAP-SEAT-1: 2 to 4 players.
* SLAP-DEAL-1: a shoe of two 52-card decks and 4 jokers (108 cards) is dealt one card at a
  time, face down, one stack per seat (``stack.N``); nobody sees a stack's cards, not
  even its owner. 108 splits evenly among 2, 3 or 4 seats.
* SLAP-FLIP-1: flips go in rotation: only the seat whose flip it is (``turn``) may
  ``flip``: the top card of its stack goes face up onto the central ``pile``; the flip
  then passes clockwise to the next seat still in that holds cards.
* SLAP-SLAP-1: any seat still in may ``slap`` at any time (real time) while the pile holds
  a card. A slap on a Jack or a Joker (the house rules may add more, through the game's
  hook ``slapjack_slap_wins``) wins the whole pile: it is shuffled and goes face down
  under the slapper's stack, and the slapper flips next (SLAP-TURN-1).
* SLAP-SLAP-2: a wrong slap costs the slapper the top card of its stack, turned face up
  and put at the bottom of the central pile (the choice this game makes of the two).
* SLAP-SLAP-3: there is nothing to slap while the pile is empty (refused).
* SLAP-OUT-1: a seat with an empty stack stays in only to win a pile back: it is out when
  another seat wins the pile, or (SLAP-OUT-2) when it slaps wrongly, having no card to pay.
  A seat that is out is skipped and may not act.
* SLAP-WIN-1: the last seat in wins.
* SLAP-CAP-1: option ``max_moves`` caps the game (every flip and slap counts): when it is
  reached the game ends (``"move cap"``) and the seats holding the most cards win.
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
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
    Event,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Option,
    Rank,
    Ruleset,
    Shuffled,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    decks,
    hookimpl,
    hookspec,
    shuffle,
)
from cardcore.positions import check
from cardcore.turns import end_game, winners_by

NAME = "slapjack-2026-12-13"
SHOE = 108
NO_TURN = -1

RULES_MD = __doc__


# --- the game's own hookspec, in a module of its own (docs/plugin-guide/hookspecs.rst) ---
def _slap_wins_spec(state: GameState, pile: Sequence[Card]) -> bool | None:
    """Say whether a slap on *pile* (bottom to top, never empty) wins it.

    Stops at the first non-``None`` answer; the game answers last (a Jack or a Joker on
    top), so a house rule answers ``True`` for a slap it makes right and ``None`` otherwise.

    :param state: The game's state (read only).
    :param pile: The central pile, bottom to top.
    :returns: ``True`` or ``False``, or ``None`` to leave it to the others.

    .. versionadded:: 1.0
    """


_slap_wins_spec.__name__ = "slapjack_slap_wins"
hookspecs = types.ModuleType(f"{__name__}_hookspecs")
hookspecs.slapjack_slap_wins = hookspec(firstresult=True)(_slap_wins_spec)  # type: ignore[attr-defined]


# --- actions ---
@frozen
class Flip(Action):
    """Seat *seat* flips the top card of its stack onto the pile (SLAP-FLIP-1)."""

    verb: ClassVar[str] = "flip"


@frozen
class Slap(Action):
    """Seat *seat* slaps the pile (SLAP-SLAP-1)."""

    verb: ClassVar[str] = "slap"


flip = cache(Flip)
slap = cache(Slap)
SlapAction = Flip | Slap


class PileWon(Event):
    """Seat *seat* won the pile of *count* cards (SLAP-SLAP-1)."""

    slug: ClassVar[str] = "slapjack-pile-won"
    seat: int
    count: int


class SeatOut(Event):
    """Seat *seat* is out of the game (SLAP-OUT-1, SLAP-OUT-2)."""

    slug: ClassVar[str] = "slapjack-seat-out"
    seat: int


# --- state ---
@cache
def layout(players: int) -> Layout:
    stacks = [ZoneSpec(f"stack.{s}", s, Visibility.NOBODY) for s in range(players)]
    return Layout.of([ZoneSpec("pile", None, Visibility.TOP), *stacks])


PILE = 0


def stack(seat: int) -> int:
    return 1 + seat


class SlapState(GameState):
    __slots__ = ("moves", "out", "turn")
    _mutable = ("zones", "out")
    turn: int
    out: list[int]
    moves: int


def _wins_by_default(pile: Sequence[Card]) -> bool:
    top = pile[-1]
    return top.is_joker or top.rank is Rank.JACK


@hookimpl(trylast=True)
def slapjack_slap_wins(state: GameState, pile: Sequence[Card]) -> bool:
    """The game's own answer: a Jack or a Joker on top (SLAP-SLAP-1)."""
    return _wins_by_default(pile)


class SlapjackLogic(GameLogic[SlapState, SlapAction]):
    action_types = (Flip, Slap)
    position_fields = ("to_act", "turn", "out", "moves")

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        wins = ruleset.resolve("slapjack_slap_wins")
        if wins is None:  # the game answers it itself
            raise RuntimeError("slapjack_slap_wins has no implementation")
        self._wins = wins

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return int(options["max_moves"]) + 1

    def blank_state(self, players: int, options: Mapping[str, Any]) -> SlapState:
        state = SlapState(players, options, Zones(layout(players)))
        state.turn, state.out, state.moves = NO_TURN, [0] * players, 0
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> SlapState:
        state = self.blank_state(players, options)
        state.seed = seed
        zones = state.zones
        for i, card in enumerate(reversed(cards)):  # SLAP-DEAL-1: one at a time, face down
            zones.put(stack(i % players), card)
        state.turn = 0
        state.to_act = tuple(range(players))
        if emit is not None:
            emit(CardsDealt(tuple(len(zones.cards[stack(s)]) for s in range(players))))
        return state

    def legal_actions(self, state: SlapState, seat: int) -> tuple[SlapAction, ...]:
        """``flip`` first (the seat whose flip it is, holding cards), then ``slap``."""
        if state.is_over or state.out[seat]:
            return ()
        cards = state.zones.cards
        actions: list[SlapAction] = []
        if seat == state.turn and cards[stack(seat)]:
            actions.append(flip(seat))
        if cards[PILE]:
            actions.append(slap(seat))
        return tuple(actions)

    def rule_for(self, state: SlapState, action: SlapAction) -> tuple[str, str]:
        seat = action.seat
        if state.out[seat]:
            return "SLAP-OUT-1", f"seat {seat} is out of the game"
        if isinstance(action, Flip):
            if state.turn == NO_TURN:
                return "SLAP-FLIP-1", f"seat {seat} may not flip: no seat holds a card to flip"
            return "SLAP-FLIP-1", f"seat {seat} may not flip: it is seat {state.turn}'s flip"
        return "SLAP-SLAP-3", f"seat {seat} may not slap: the pile is empty"

    def waiting_rule(self, state: SlapState, action: SlapAction) -> tuple[str, str] | None:
        if not state.is_over and state.out[action.seat]:
            return "SLAP-OUT-1", f"seat {action.seat} is out of the game"
        return None

    def default_action(self, state: SlapState, seat: int) -> SlapAction | None:
        """A timed-out seat flips when it is its flip; otherwise nothing now."""
        if seat == state.turn and not state.out[seat] and state.zones.cards[stack(seat)]:
            return flip(seat)
        return None

    def _next_turn(self, state: SlapState, after: int) -> int:
        cards, n = state.zones.cards, state.players
        for step in range(1, n + 1):
            s = (after + step) % n
            if not state.out[s] and cards[stack(s)]:
                return s
        return NO_TURN

    def _knock_out(self, state: SlapState, seat: int, emit: Emit | None) -> None:
        state.out[seat] = 1
        if emit is not None:
            emit(SeatOut(seat))

    def apply(self, state: SlapState, action: SlapAction, emit: Emit | None) -> None:
        seat, zones = action.seat, state.zones
        cards, seen = zones.cards, zones.seen
        state.moves += 1
        if isinstance(action, Flip):  # SLAP-FLIP-1
            card = zones.move(stack(seat), PILE, mask=ALL)
            if emit is not None:
                emit(CardMoved(seat, f"stack.{seat}", "pile", card))
            state.turn = self._next_turn(state, seat)
        else:
            won = self.checked_answer(
                "slapjack_slap_wins", self._wins(state=state, pile=tuple(cards[PILE])), bool
            )
            if won:  # SLAP-SLAP-1: the pile, shuffled, goes under the slapper's stack
                taken = list(cards[PILE])
                cards[PILE].clear()
                seen[PILE].clear()
                shuffle(taken, state.rng())
                cards[stack(seat)][:0] = taken
                seen[stack(seat)][:0] = [0] * len(taken)
                if emit is not None:
                    emit(PileWon(seat, len(taken)))
                    emit(Shuffled(f"stack.{seat}", len(taken)))
                for other in range(state.players):  # SLAP-OUT-1
                    if other != seat and not state.out[other] and not cards[stack(other)]:
                        self._knock_out(state, other, emit)
                state.turn = seat  # SLAP-TURN-1
            elif cards[stack(seat)]:  # SLAP-SLAP-2: the top card, face up, under the pile
                card = cards[stack(seat)].pop()
                seen[stack(seat)].pop()
                cards[PILE].insert(0, card)
                seen[PILE].insert(0, ALL)
                if emit is not None:
                    emit(CardMoved(seat, f"stack.{seat}", "pile", card))
                if state.turn == seat and not cards[stack(seat)]:
                    state.turn = self._next_turn(state, seat)
            else:  # SLAP-OUT-2: nothing to pay with
                self._knock_out(state, seat, emit)
        still = tuple(s for s in range(state.players) if not state.out[s])
        if len(still) == 1:  # SLAP-WIN-1
            counts = [len(cards[stack(s)]) for s in range(state.players)]
            end_game(
                state, still, tuple(map(float, self.score_round(state, counts))), "last seat in"
            )
        elif state.moves >= state.options["max_moves"]:  # SLAP-CAP-1
            made = self.score_round(state, [len(cards[stack(s)]) for s in range(state.players)])
            end_game(state, winners_by(made, lowest=False), tuple(map(float, made)), "move cap")
        else:
            state.to_act = still

    def resign(self, state: SlapState, seat: int) -> None:
        """A resigning seat loses; only the seats still in (not out) win (SLAP-OUT-1)."""
        counts = [len(state.zones.cards[stack(s)]) for s in range(state.players)]
        winners = tuple(s for s in range(state.players) if s != seat and not state.out[s])
        end_game(state, winners, tuple(map(float, counts)), "resigned")

    def scores(self, state: SlapState) -> tuple[float, ...]:
        return tuple(float(len(state.zones.cards[stack(s)])) for s in range(state.players))

    def standings(self, state: SlapState) -> tuple[int, ...]:
        counts = [len(state.zones.cards[stack(s)]) for s in range(state.players)]
        return winners_by(counts, lowest=False)

    def table(self, state: SlapState, seat: int | None) -> dict[str, Any]:
        cards = state.zones.cards
        return {
            "turn": None if state.turn == NO_TURN else state.turn,
            "stacks": [len(cards[stack(s)]) for s in range(state.players)],
            "out": [bool(o) for o in state.out],
            "top": str(cards[PILE][-1]) if cards[PILE] else None,
            "pile_size": len(cards[PILE]),
            "moves": state.moves,
        }

    def check_position(self, state: SlapState) -> None:
        n, cards = state.players, state.zones.cards
        check(
            all(o in (0, 1) for o in state.out), "out must hold 0 or 1 per seat, not {}", state.out
        )
        check(
            state.turn == NO_TURN or (0 <= state.turn < n and not state.out[state.turn]),
            "turn must be a seat still in or -1, not {}",
            state.turn,
        )
        check(
            state.turn == NO_TURN or bool(cards[stack(state.turn)]),
            "turn {} holds no card",
            state.turn,
        )
        still = tuple(s for s in range(n) if not state.out[s])
        check(
            state.is_over or state.to_act == still,
            "to_act must be the seats still in {}",
            list(still),
        )
        check(state.moves >= 0, "moves must be at least 0, not {}", state.moves)


GAME = GameInfo(
    NAME,
    "Slapjack: flip in turn, slap Jacks and Jokers in real time; the last seat in wins",
    2,
    4,
    options=(
        Option(
            "max_moves",
            default=1500,
            minimum=10,
            maximum=20000,
            doc="The most flips and slaps a game lasts; then the most cards wins",
            rule_id="SLAP-CAP-1",
        ),
    ),
    realtime=True,
    version="1.0.0",
    hookspecs=hookspecs,
    fields=(
        ViewField("turn", "seat", "The seat whose flip it is", nullable=True),
        ViewField("stacks", "per-seat", "Cards in each seat's stack", of="int"),
        ViewField("out", "per-seat", "Whether each seat is out", of="bool"),
        ViewField("top", "card", "The card on top of the central pile", nullable=True),
        ViewField("pile_size", "int", "Cards in the central pile"),
        ViewField("moves", "int", "Flips and slaps so far"),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> SlapjackLogic:
    return SlapjackLogic(ruleset)


@hookimpl(trylast=True)
def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
    """SLAP-DEAL-1: two standard decks and four jokers."""
    return decks(2, jokers_per_deck=2)
