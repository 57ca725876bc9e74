"""Gin Rummy for two, one hand, written from cardcore's plugin docs (2026-12-07f).

Rules (simplified, no lay-offs):

GIN-DEAL-1    52 cards, 10 each, one upcard starts the discard pile; seat 0 acts first.
GIN-TURN-1    a turn is: ``draw`` (stock) or ``take`` (top discard), then a discard.
GIN-DISCARD-1 discard a card you hold: ``discard CARD``.
GIN-DISCARD-2 never discard the card just taken from the discard pile.
GIN-KNOCK-1   ``knock CARD`` discards CARD and knocks: deadwood after it at most 10.
GIN-SCORE-1   melds: sets of 3-4 of a rank, runs of 3+ of a suit (ace low); values
              A=1, 2-10 face, J/Q/K=10. Knocker scores defender's deadwood less its own.
GIN-SCORE-2   gin (knocker's deadwood 0): the knocker scores the difference + the gin
              bonus (25; the ``gin_bonus`` hook of this game).
GIN-SCORE-3   undercut (defender's deadwood <= knocker's, no gin): defender scores the
              difference + 25.
GIN-DRAW-1    a discard without a knock leaving 2 cards in the stock ends the hand drawn.
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from functools import cache
from itertools import combinations
from typing import Any, ClassVar

from attrs import frozen

from cardcore import (
    ALL,
    Action,
    Card,
    CardDiscarded,
    CardDrawn,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    PluginError,
    Ruleset,
    TurnPassed,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    hookspec,
)
from cardcore.dealing import deal_round_robin, draw_card, fill_stock
from cardcore.positions import check
from cardcore.turns import end_game

NAME = "gin-2026-12-07f"
STOCK, DISCARD = 0, 1


def hand(seat: int) -> int:
    return 2 + seat


LAYOUT = Layout.of(
    [
        ZoneSpec("stock"),
        ZoneSpec("discard", None, Visibility.TOP),
        ZoneSpec("hand.0", 0, Visibility.OWNER),
        ZoneSpec("hand.1", 1, Visibility.OWNER),
    ]
)


# --- the game's own hook: the gin bonus, built in place as the hookspecs page says
def _gin_bonus_spec() -> int:  # type: ignore[empty-body]
    """Answer the points a gin earns on top of the deadwood difference.

    The first answer wins.

    :returns: the gin bonus in points.
    """


hookspecs = types.ModuleType("gin_2026_12_07f_hookspecs")
vars(hookspecs)["gin_bonus"] = hookspec(firstresult=True)(_gin_bonus_spec)


# --- cards and melds
def value(card: Card) -> int:
    return min(int(card.rank), 10)


def melds(cards: Sequence[Card]) -> list[frozenset[Card]]:
    """Every meld among *cards*: sets of 3-4 and runs of 3+ (ace low)."""
    found: list[frozenset[Card]] = []
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, dict[int, Card]] = {}
    for c in cards:
        by_rank.setdefault(int(c.rank), []).append(c)
        by_suit.setdefault(str(c.suit), {})[int(c.rank)] = c
    for group in by_rank.values():
        for n in (3, 4):
            found += [frozenset(g) for g in combinations(group, n)]
    for suited in by_suit.values():
        for start in range(1, 12):
            run: list[Card] = []
            for r in range(start, 14):
                if r not in suited:
                    break
                run.append(suited[r])
                if len(run) >= 3:
                    found.append(frozenset(run))
    return found


def deadwood(cards: Sequence[Card]) -> int:
    """The least deadwood of *cards* over every arrangement of disjoint melds."""
    return _deadwood(frozenset(cards))


@cache
def _deadwood(cards: frozenset[Card]) -> int:
    best = sum(value(c) for c in cards)
    for m in melds(sorted(cards, key=str)):
        best = min(best, _deadwood(cards - m))
        if best == 0:
            break
    return best


# --- actions
@frozen
class Draw(Action):
    verb: ClassVar[str] = "draw"


@frozen
class Take(Action):
    verb: ClassVar[str] = "take"


@frozen
class Discard(Action):
    card: Card
    verb: ClassVar[str] = "discard"

    def notation(self) -> str:
        return f"discard {self.card}"


@frozen
class Knock(Action):
    card: Card
    verb: ClassVar[str] = "knock"

    def notation(self) -> str:
        return f"knock {self.card}"


GinAction = Draw | Take | Discard | Knock


class GinState(GameState):
    __slots__ = ("phase", "taken")
    phase: str  # "draw" or "discard"
    taken: str  # the card just taken from the discard pile, or ""


def order(card: Card) -> tuple[str, int]:
    return (str(card.suit), int(card.rank))


class GinLogic(GameLogic[GinState, GinAction]):
    action_types = (Draw, Take, Discard, Knock)
    position_fields = ("to_act", "phase", "taken")
    max_legal = 24  # draw, take, 11 discards, 11 knocks

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        bonus = ruleset.resolve("gin_bonus")
        if bonus is None:
            raise PluginError("gin_bonus has no implementation")
        self.bonus = self.checked_answer("gin_bonus", bonus(), int)

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 2000

    def blank_state(self, players: int, options: Mapping[str, Any]) -> GinState:
        state = GinState(players, options, Zones(LAYOUT))
        state.phase, state.taken = "draw", ""
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> GinState:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, STOCK, cards)  # GIN-DEAL-1
        deal_round_robin(state, STOCK, [hand(0), hand(1)], 10)
        state.zones.move(STOCK, DISCARD, mask=ALL)
        if emit is not None:
            emit(CardsDealt((10, 10)))
        return state

    def legal_actions(self, state: GinState, seat: int) -> tuple[GinAction, ...]:
        """``draw``, ``take`` while drawing; then ``discard C`` by card (suit, rank), then ``knock C``."""
        if state.phase == "draw":
            return (Draw(seat), Take(seat))
        held = sorted(state.zones.cards[hand(seat)], key=order)
        free = [c for c in held if str(c) != state.taken]
        knocks = [c for c in free if deadwood([d for d in held if d != c]) <= 10]
        return (*(Discard(seat, c) for c in free), *(Knock(seat, c) for c in knocks))

    def rule_for(self, state: GinState, action: GinAction) -> tuple[str, str]:
        seat = action.seat
        if isinstance(action, (Draw, Take)):
            return "GIN-TURN-1", f"seat {seat} has drawn already: discard next"
        if state.phase == "draw":
            return "GIN-TURN-1", f"seat {seat} must draw or take first"
        if action.card not in state.zones.cards[hand(seat)]:
            return (
                "GIN-DISCARD-1",
                f"seat {seat} may discard only a card it holds, not {action.card}",
            )
        if str(action.card) == state.taken:
            return "GIN-DISCARD-2", f"seat {seat} may not discard {action.card}, just taken"
        return "GIN-KNOCK-1", f"seat {seat} may knock only with 10 deadwood or less"

    def apply(self, state: GinState, action: GinAction, emit: Emit | None) -> None:
        z, seat = state.zones, action.seat
        if isinstance(action, Draw):
            card = draw_card(state, STOCK, hand(seat))
            state.phase = "discard"
            if emit is not None and card is not None:
                emit(CardDrawn(seat, "stock", card, visible_to=1 << seat))
            return
        if isinstance(action, Take):
            card = z.move(DISCARD, hand(seat), mask=ALL)
            state.phase, state.taken = "discard", str(card)
            if emit is not None:
                emit(CardDrawn(seat, "discard", card))
            return
        i = z.cards[hand(seat)].index(action.card)
        z.move(hand(seat), DISCARD, i, mask=ALL)
        if emit is not None:
            emit(CardDiscarded(seat, action.card))
        state.phase, state.taken = "draw", ""
        if isinstance(action, Knock):
            mine = deadwood(z.cards[hand(seat)])
            theirs = deadwood(z.cards[hand(1 - seat)])
            points = [0, 0]
            if mine == 0:  # GIN-SCORE-2
                points[seat], reason = theirs + self.bonus, "gin"
            elif theirs <= mine:  # GIN-SCORE-3
                points[1 - seat], reason = mine - theirs + 25, "undercut"
            else:  # GIN-SCORE-1
                points[seat], reason = theirs - mine, "knock"
            made = self.score_round(state, points)
            top = max(made)
            winners = tuple(s for s in (0, 1) if made[s] == top) if top > 0 else ()
            end_game(state, winners, made, reason)
        elif len(z.cards[STOCK]) <= 2:  # GIN-DRAW-1
            end_game(state, (), self.score_round(state, [0, 0]), "draw")
        else:
            state.to_act = (1 - seat,)
            if emit is not None:
                emit(TurnPassed(1 - seat))

    def table(self, state: GinState, seat: int | None) -> dict[str, Any]:
        return {
            "stock": len(state.zones.cards[STOCK]),
            "phase": state.phase,
            "taken": state.taken or None,
        }

    def check_position(self, state: GinState) -> None:
        cards, seen = state.zones.cards, state.zones.seen
        check(
            state.phase in ("draw", "discard"),
            "phase must be draw or discard, not {!r}",
            state.phase,
        )
        check(not any(seen[STOCK]), "stock cards are face down (GIN-DEAL-1)")
        if state.is_over:
            return
        check(len(state.to_act) == 1, "to_act must be one seat, not {}", list(state.to_act))
        s = state.to_act[0]
        want = 10 if state.phase == "draw" else 11
        check(len(cards[hand(s)]) == want, "hand.{} must hold {} cards", s, want)
        check(len(cards[hand(1 - s)]) == 10, "hand.{} must hold 10 cards", 1 - s)
        check(
            not state.taken
            or (state.phase == "discard" and state.taken in map(str, cards[hand(s)])),
            "taken must be a card in the hand of the seat to act, while it discards (GIN-DISCARD-2)",
        )
        check(
            len(cards[DISCARD]) > 0 or state.phase == "discard",
            "the discard pile is empty (GIN-DEAL-1)",
        )


GAME = GameInfo(
    NAME,
    "Gin Rummy for two, one hand, no lay-offs",
    2,
    2,
    version="1.0.0",
    hookspecs=hookspecs,
    zero_sum=False,
    fields=(
        ViewField("stock", "int", "Cards left in the stock."),
        ViewField("phase", "choice", "draw or discard", choices=("draw", "discard")),
        ViewField("taken", "card", "The card just taken from the discard pile."),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> GinLogic:
    return GinLogic(ruleset)


@hookimpl(trylast=True)
def gin_bonus() -> int:
    return 25


def module() -> types.ModuleType:
    """A fresh plugin module holding the game (for ``cardcore.register``)."""
    mod = types.ModuleType("gin_2026_12_07f_plugin")
    mod.GAME = GAME  # type: ignore[attr-defined]
    mod.create_logic = create_logic  # type: ignore[attr-defined]
    mod.gin_bonus = gin_bonus  # type: ignore[attr-defined]
    return mod
