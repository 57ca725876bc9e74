"""Goofspiel (the Game of Pure Strategy), written by a third-party author from cardcore's docs.

Rules (each with its ID):

* GOOF-SEAT-1: 2 to 4 players.
* GOOF-DEAL-1: each seat holds the 13 cards of one suit (seat 0 spades, 1 hearts, 2 clubs,
  3 the spades of a second deck); the 13 diamonds, shuffled, are the prize stock; the top
  one is turned face up as the first prize.
* GOOF-BID-1: every seat still to bid chooses one card of its hand in secret, named by its
  position in the hand as its view lists it (``bid 0`` is the top card), never by the card;
  ``Game.to_act`` holds every seat yet to bid, in any order.
* GOOF-REVEAL-1: once every seat has bid, the bids are turned up; the one highest bid (A=1 ..
  K=13) wins the prize; a tie for highest discards the prize (house rule GOOF-CARRY-1: the
  prize stays and the next prize is added to it); bids are discarded face up.
* GOOF-END-1: after 13 rounds the most points (the values of the prizes won) win; ties share.
"""

from __future__ import annotations

import random
import types
from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar

from attrs import frozen

from cardcore import (
    ALL,
    Action,
    Card,
    CardMoved,
    CardRevealed,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    PluginError,
    Rank,
    RuleInfo,
    Ruleset,
    Suit,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    hookspec,
)
from cardcore.positions import check
from cardcore.turns import end_game, winners_by

NAME = "goofspiel-1212"
CARRY_NAME = f"{NAME}.carry-ties"
STOCK, PRIZE, DISCARD = 0, 1, 2
SEAT_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.SPADES)
RANKS = [r for r in Rank if r is not Rank.JOKER]


def hand(seat: int) -> int:
    return 3 + 3 * seat


def bid_pile(seat: int) -> int:
    return 4 + 3 * seat


def won(seat: int) -> int:
    return 5 + 3 * seat


@cache
def layout(players: int) -> Layout:
    specs = [
        ZoneSpec("stock"),
        ZoneSpec("prize", None, Visibility.EVERYONE),
        ZoneSpec("discard", None, Visibility.EVERYONE),
    ]
    for s in range(players):
        specs += [
            ZoneSpec(f"hand.{s}", s, Visibility.OWNER),
            ZoneSpec(f"bid.{s}", s, Visibility.OWNER),
            ZoneSpec(f"won.{s}", s, Visibility.EVERYONE),
        ]
    return Layout.of(specs)


# -- the game's own hookspec, in a module of its own (docs/plugin-guide/hookspecs.rst) --------
SPECS = types.ModuleType("goofspiel_1212_hookspecs")


def _carry_spec(options: Mapping[str, Any]) -> bool | None:
    """Say whether a tied prize carries over to the next round.

    Stops at the first non-``None`` result.

    :param options: The game's resolved options.
    :returns: ``True`` to carry the prize over, ``False`` to discard it.

    .. versionadded:: 1.0
    """


SPECS.goofspiel_carry_ties = hookspec(firstresult=True)(_carry_spec)


GAME = GameInfo(
    NAME,
    "Goofspiel: bid a card in secret for each prize; the highest single bid wins it",
    2,
    4,
    version="1.0.0",
    hookspecs=SPECS,
    fields=(
        ViewField("round", "int", "The round being played, from 1 (13 once the game is over)."),
        ViewField("pot", "int", "The value of the prize (or carried prizes) face up."),
        ViewField("points", "per-seat", "Points won by each seat.", of="int"),
        ViewField("ready", "per-seat", "Whether each seat has bid this round.", of="bool"),
    ),
)


@frozen
class Bid(Action):
    """Bid the card at *index* of the hand (0 is the top card, as the seat's view lists it)."""

    index: int
    verb: ClassVar[str] = "bid"

    def notation(self) -> str:
        return f"bid {self.index}"


bid = cache(Bid)


class GoofState(GameState):
    __slots__ = ()
    _mutable = ("zones",)


def value(card: Card) -> int:
    return int(card.rank.value)


class GoofLogic(GameLogic[GoofState, Bid]):
    action_types = (Bid,)
    position_fields = ("to_act",)
    max_legal = 13

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        carry = ruleset.resolve("goofspiel_carry_ties")
        if carry is None:
            raise PluginError("goofspiel_carry_ties has no implementation")
        self._carry = carry

    def carries(self, state: GoofState) -> bool:
        return bool(
            self.checked_answer("goofspiel_carry_ties", self._carry(options=state.options), bool)
        )

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 13 * players + 1

    def blank_state(self, players: int, options: Mapping[str, Any]) -> GoofState:
        return GoofState(players, options, Zones(layout(players)))

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> GoofState:
        state = self.blank_state(players, options)
        state.seed = seed
        z = state.zones
        taken = [False] * len(cards)
        for s in range(players):  # GOOF-DEAL-1: in the shuffled order, so a position tells nothing
            for i, card in enumerate(cards):
                if not taken[i] and card.suit is SEAT_SUITS[s] and len(z.cards[hand(s)]) < 13:
                    taken[i] = True
                    z.put(hand(s), card, 1 << s)
        z.cards[STOCK] = [c for i, c in enumerate(cards) if not taken[i]]
        z.seen[STOCK] = [0] * len(z.cards[STOCK])
        if emit is not None:
            emit(CardsDealt(tuple(13 for _ in range(players))))
        self._turn_up(state, emit)
        return state

    def _turn_up(self, state: GoofState, emit: Emit | None) -> None:
        card = state.zones.move(STOCK, PRIZE, mask=ALL)
        if emit is not None:
            emit(CardMoved(None, "stock", "prize", card))
        state.to_act = tuple(range(state.players))

    def legal_actions(self, state: GoofState, seat: int) -> tuple[Bid, ...]:
        """``bid 0`` .. ``bid n-1``, positions in the hand top first."""
        return tuple(bid(seat, p) for p in range(len(state.zones.cards[hand(seat)])))

    def rule_for(self, state: GoofState, action: Bid) -> tuple[str, str]:
        n = len(state.zones.cards[hand(action.seat)])
        return "GOOF-BID-1", f"seat {action.seat} bids a position of its hand from 0 to {n - 1}"

    def apply(self, state: GoofState, action: Bid, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        n = len(z.cards[hand(seat)])
        card = z.move(hand(seat), bid_pile(seat), n - 1 - action.index, mask=1 << seat)
        if emit is not None:
            emit(CardMoved(seat, f"hand.{seat}", f"bid.{seat}", card, visible_to=1 << seat))
        state.to_act = tuple(s for s in state.to_act if s != seat)
        if state.to_act:
            return
        # GOOF-REVEAL-1
        bids = []
        for s in range(state.players):
            card = z.reveal(bid_pile(s))
            bids.append(value(card))
            if emit is not None:
                emit(CardRevealed(s, f"bid.{s}", 0, card))
        top = max(bids)
        winners = [s for s, b in enumerate(bids) if b == top]
        for s in range(state.players):
            card = z.move(bid_pile(s), DISCARD, mask=ALL)
            if emit is not None:
                emit(CardMoved(s, f"bid.{s}", "discard", card))
        last = not z.cards[STOCK]
        if len(winners) == 1:
            self._clear_prize(state, won(winners[0]), f"won.{winners[0]}", emit)
        elif last or not self.carries(state):
            self._clear_prize(state, DISCARD, "discard", emit)
        if last:  # GOOF-END-1
            points = self.score_round(state, self.points(state))
            end_game(state, winners_by(points, lowest=False), points, "rounds")
            return
        self._turn_up(state, emit)

    def _clear_prize(self, state: GoofState, dst: int, name: str, emit: Emit | None) -> None:
        while state.zones.cards[PRIZE]:
            card = state.zones.move(PRIZE, dst, mask=ALL)
            if emit is not None:
                emit(CardMoved(None, "prize", name, card))

    def points(self, state: GoofState) -> list[int]:
        return [sum(map(value, state.zones.cards[won(s)])) for s in range(state.players)]

    def scores(self, state: GoofState) -> tuple[float, ...]:
        return tuple(float(p) for p in self.points(state))

    def standings(self, state: GoofState) -> tuple[int, ...]:
        return winners_by(self.points(state), lowest=False)

    def default_action(self, state: GoofState, seat: int) -> Bid:
        return bid(seat, 0)

    def table(self, state: GoofState, seat: int | None) -> dict[str, Any]:
        z = state.zones
        return {
            "round": 13 - len(z.cards[STOCK]),
            "pot": sum(map(value, z.cards[PRIZE])),
            "points": self.points(state),
            "ready": [bool(z.cards[bid_pile(s)]) for s in range(state.players)],
        }

    def check_position(self, state: GoofState) -> None:
        z = state.zones
        sizes = {len(z.cards[hand(s)]) + len(z.cards[bid_pile(s)]) for s in range(state.players)}
        check(len(sizes) == 1, "every seat must hold as many cards, not {}", sorted(sizes))
        for s in range(state.players):
            check(
                len(z.cards[bid_pile(s)]) == (0 if s in state.to_act else 1),
                "seat {} must have bid exactly once unless it is to act",
                s,
            )


@hookimpl
def create_logic(ruleset: Ruleset) -> GoofLogic:
    return GoofLogic(ruleset)


@hookimpl(trylast=True)
def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
    """GOOF-DEAL-1: one suit per seat and the diamonds."""
    suits = [*SEAT_SUITS[:players], Suit.DIAMONDS]
    return tuple(Card(r, s) for s in suits for r in RANKS)


@hookimpl
def determinize(state: GameState, seat: int, rng: random.Random) -> bool:
    """Re-deal what *seat* cannot know, keeping every seat's cards in its own suit.

    Each other seat's hidden cards (hand and face-down bid) are shuffled among its own
    places, the prize stock's among the stock (the generic re-deal would put diamonds in
    a hand). Sorted first, as the hookspec asks.
    """
    z = state.zones
    groups = [[STOCK]] + [[hand(s), bid_pile(s)] for s in range(state.players) if s != seat]
    for piles in groups:
        places = [(p, i) for p in piles for i in range(len(z.cards[p])) if not z.knows(p, i, seat)]
        cards = sorted((z.cards[p][i] for p, i in places), key=str)
        rng.shuffle(cards)
        for (p, i), card in zip(places, cards, strict=True):
            z.cards[p][i] = card
    return True


@hookimpl(trylast=True)
def goofspiel_carry_ties(options: Mapping[str, Any]) -> bool:
    return False


def _house_rule() -> types.ModuleType:
    """GOOF-CARRY-1, a house rule in a module of its own."""
    module = types.ModuleType("goofspiel_1212_carry_ties")
    module.RULE = RuleInfo(
        id="GOOF-CARRY-1",
        name=CARRY_NAME,
        game=NAME,
        summary="Ties carry over: a tied prize stays and the next one is added to it",
        version="1.0.0",
    )

    @hookimpl
    def goofspiel_carry_ties(options: Mapping[str, Any]) -> bool:
        return True

    module.goofspiel_carry_ties = goofspiel_carry_ties
    return module


CARRY = _house_rule()
