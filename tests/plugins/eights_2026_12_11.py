"""Crazy Eights, written by a third-party author from cardcore's docs only.

Rules (each with its ID):

* EIGHTS-SEAT-1: 2 to 5 players.
* EIGHTS-DEAL-1: 7 cards each to two players, else 5 (option ``hand``); the next card starts
  the discard.
* EIGHTS-PLAY-1: play a card matching the suit to follow or the rank of the top discard.
* EIGHTS-WILD-1: an eight plays on anything and names the suit to follow (``play 8H S``).
* EIGHTS-DRAW-1: a seat that cannot play draws (up to ``eights_draw_limit`` cards, one by
  default), must play a playable card it drew, else passes; an empty stock is rebuilt from
  the discards but the top one.
* EIGHTS-PENALTY-1: after a card whose ``eights_card_penalty`` is *n* > 0 the next seat
  draws *n* (``draw``) and loses its turn.
* EIGHTS-END-1: the first seat to empty its hand wins; every seat scores the penalty points
  of the cards it holds (eights 50, faces 10, aces 1, others their pips).
* EIGHTS-BLOCK-1: when nobody can draw and every seat passes in a row, the fewest penalty
  points win.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache
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
    NotationError,
    Option,
    PluginError,
    Rank,
    Ruleset,
    Shuffled,
    Suit,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    standard_52,
)
from cardcore.dealing import deal_round_robin, draw_card, fill_stock
from cardcore.positions import check
from cardcore.turns import end_game, next_seat, winners_by
from tests.plugins import eights_hookspecs_2026_12_11 as hookspecs

NAME = "eights-1211"
STOCK, DISCARD = 0, 1
SUITS = "SHDC"


def hand(seat: int) -> int:
    return 2 + seat


@cache
def layout(players: int) -> Layout:
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    return Layout.of([ZoneSpec("stock"), ZoneSpec("discard", None, Visibility.EVERYONE), *hands])


GAME = GameInfo(
    NAME,
    "Crazy Eights: match suit or rank, eights are wild; first out wins",
    2,
    5,
    version="1.0.0",
    hookspecs=hookspecs,
    options=(
        Option(
            "hand",
            0,
            "Cards dealt to each seat (0: 7 to two players, else 5).",
            choices=(0, 5, 7),
            minimum=0,
            maximum=7,
        ),
    ),
    fields=(
        ViewField(
            "suit", "str", "The suit to follow (an eight's named suit, else the top card's)."
        ),
        ViewField("stock", "int", "Cards left in the stock."),
        ViewField("pending", "int", "Cards the seat to act must draw (a penalty card)."),
        ViewField("drawn", "int", "Cards the seat to act has drawn this turn."),
        ViewField("held", "per-seat", "Cards in each hand.", of="int"),
    ),
)


@frozen
class Play(Action):
    """Play *card*; an eight names *suit* (a letter of ``SHDC``)."""

    card: Card
    suit: str = ""
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card} {self.suit}" if self.suit else f"play {self.card}"


@frozen
class Draw(Action):
    verb: ClassVar[str] = "draw"


@frozen
class Pass(Action):
    verb: ClassVar[str] = "pass"


EightsAction = Play | Draw | Pass
play, draw, pass_ = cache(Play), cache(Draw), cache(Pass)


class EightsState(GameState):
    __slots__ = ("drawn", "passes", "pending", "suit")
    _mutable = ("zones",)
    suit: str
    drawn: int
    pending: int
    passes: int


class EightsLogic(GameLogic[EightsState, EightsAction]):
    position_fields = ("to_act", "suit", "drawn", "pending", "passes")
    max_legal = 70  # 48 plain cards + 4 eights x 4 suits + draw/pass

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        limit = ruleset.resolve("eights_draw_limit")
        penalty = ruleset.resolve("eights_card_penalty")
        points = ruleset.resolve("card_points")
        if limit is None or penalty is None or points is None:
            raise PluginError("eights hooks have no implementation")
        self._limit = limit
        self.penalty = {
            c: self.checked_answer("eights_card_penalty", penalty(card=c), int)
            for c in standard_52()
        }
        self.points = {
            c: self.checked_answer("card_points", points(card=c), int) for c in standard_52()
        }

    def draw_limit(self, state: EightsState) -> int:
        return int(
            self.checked_answer(
                "eights_draw_limit", self._limit(players=state.players, options=state.options), int
            )
        )

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 5000

    def blank_state(self, players: int, options: Mapping[str, Any]) -> EightsState:
        state = EightsState(players, options, Zones(layout(players)))
        state.suit, state.drawn, state.pending, state.passes = "", 0, 0, 0
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> EightsState:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, STOCK, cards)
        count = options.get("hand") or (7 if players == 2 else 5)
        deal_round_robin(state, STOCK, [hand(s) for s in range(players)], count)
        top = state.zones.move(STOCK, DISCARD, mask=ALL)  # EIGHTS-DEAL-1
        state.suit = top.suit.value if top.suit else ""
        if emit is not None:
            emit(CardsDealt(tuple(len(state.zones.cards[hand(s)]) for s in range(players))))
            emit(CardDiscarded(0, top))
        return state

    def top(self, state: EightsState) -> Card:
        return state.zones.cards[DISCARD][-1]

    def playable(self, state: EightsState, card: Card) -> bool:
        top = self.top(state)
        return (
            card.rank is Rank.EIGHT
            or (card.suit is not None and card.suit.value == state.suit)
            or card.rank is top.rank
        )

    def can_draw(self, state: EightsState) -> bool:
        return bool(state.zones.cards[STOCK]) or len(state.zones.cards[DISCARD]) > 1

    def legal_actions(self, state: EightsState, seat: int) -> tuple[EightsAction, ...]:
        """Plays in hand order (bottom first; eights once per suit S H D C), else draw, else pass."""
        if state.pending:
            return (draw(seat),)
        plays: list[EightsAction] = []
        for card in state.zones.cards[hand(seat)]:
            if not self.playable(state, card):
                continue
            if card.rank is Rank.EIGHT:
                plays.extend(play(seat, card, s) for s in SUITS)
            else:
                plays.append(play(seat, card, ""))
        if plays:
            return tuple(plays)
        if state.drawn < self.draw_limit(state) and self.can_draw(state):
            return (draw(seat),)
        return (pass_(seat),)

    def rule_for(self, state: EightsState, action: EightsAction) -> tuple[str, str]:
        if state.pending:
            return "EIGHTS-PENALTY-1", f"seat {action.seat} must draw {state.pending} first"
        if isinstance(action, Play):
            if action.card not in state.zones.cards[hand(action.seat)]:
                return "EIGHTS-PLAY-1", f"seat {action.seat} does not hold that card"
            if action.card.rank is Rank.EIGHT:
                return "EIGHTS-WILD-1", "an eight names one suit of S, H, D, C"
            return (
                "EIGHTS-PLAY-1",
                f"{action.card} matches neither the suit {state.suit} nor the rank of {self.top(state)}",
            )
        return "EIGHTS-DRAW-1", f"seat {action.seat} may {action.verb} only when it cannot play"

    def parse_action(self, state: EightsState, seat: int, text: str) -> EightsAction:
        words = text.split()
        verb = words[0].lower() if words else ""
        if verb == "draw" and len(words) == 1:
            return draw(seat)
        if verb == "pass" and len(words) == 1:
            return pass_(seat)
        if verb == "play" and len(words) in (2, 3):
            try:
                card = Card.parse(words[1])
            except Exception:
                raise NotationError(f"not a card: {words[1]!r} (EIGHTS-PLAY-1)") from None
            suit = words[2].upper() if len(words) == 3 else ""
            if suit and suit not in SUITS:
                raise NotationError(
                    f"an eight names a suit of S H D C, not {words[2]!r} (EIGHTS-WILD-1)"
                )
            return play(seat, card, suit)
        raise NotationError(
            f"expected 'play CARD [SUIT]', 'draw' or 'pass', not {text!r} (EIGHTS-PLAY-1)"
        )

    def apply(self, state: EightsState, action: EightsAction, emit: Emit | None) -> None:
        seat, z, players = action.seat, state.zones, state.players
        if isinstance(action, Draw):
            count = state.pending or 1
            for _ in range(count):
                rebuilt = not z.cards[STOCK]
                card = draw_card(state, STOCK, hand(seat), discard=DISCARD)
                if card is None:
                    break
                if emit is not None:
                    if rebuilt:
                        emit(Shuffled("stock", len(z.cards[STOCK]) + 1))
                    emit(CardDrawn(seat, "stock", card, visible_to=1 << seat))
            if state.pending:  # EIGHTS-PENALTY-1: drew the penalty, the turn is lost
                state.pending = 0
                self._next(state, seat)
            else:
                state.drawn += 1
            return
        if isinstance(action, Pass):  # EIGHTS-DRAW-1, EIGHTS-BLOCK-1
            state.passes = state.passes + 1 if not self.can_draw(state) else 0
            if state.passes >= players:
                self._finish(state, "blocked")
                return
            self._next(state, seat)
            return
        i = z.cards[hand(seat)].index(action.card)
        card = z.move(hand(seat), DISCARD, i, mask=ALL)
        state.suit = action.suit or (card.suit.value if card.suit else "")
        state.passes = 0
        if emit is not None:
            emit(CardDiscarded(seat, card))
        if not z.cards[hand(seat)]:  # EIGHTS-END-1
            self._finish(state, "out")
            return
        state.pending = self.penalty[card]
        self._next(state, seat)

    def _next(self, state: EightsState, seat: int) -> None:
        state.drawn = 0
        state.to_act = (next_seat(seat, state.players),)

    def held_points(self, state: EightsState) -> list[int]:
        return [
            sum(self.points[c] for c in state.zones.cards[hand(s)]) for s in range(state.players)
        ]

    def _finish(self, state: EightsState, reason: str) -> None:
        made = self.score_round(state, self.held_points(state))
        end_game(state, winners_by(made, lowest=True), made, reason)

    def scores(self, state: EightsState) -> tuple[float, ...]:
        """Penalty points held now (lower is better), as ``Result.scores`` counts them."""
        return tuple(float(p) for p in self.held_points(state))

    def standings(self, state: EightsState) -> tuple[int, ...]:
        """The seats holding the fewest penalty points lead."""
        return winners_by(self.held_points(state), lowest=True)

    def table(self, state: EightsState, seat: int | None) -> dict[str, Any]:
        return {
            "suit": state.suit,
            "stock": len(state.zones.cards[STOCK]),
            "pending": state.pending,
            "drawn": state.drawn,
            "held": [len(state.zones.cards[hand(s)]) for s in range(state.players)],
        }

    def check_position(self, state: EightsState) -> None:
        check(
            state.is_over or len(state.to_act) == 1,
            "to_act must be one seat, not {}",
            list(state.to_act),
        )
        check(
            state.is_over or bool(state.zones.cards[DISCARD]), "the discard pile must not be empty"
        )
        check(state.suit in ("", *SUITS), "suit must be one of S H D C, not {!r}", state.suit)


@hookimpl
def create_logic(ruleset: Ruleset) -> EightsLogic:
    return EightsLogic(ruleset)


@hookimpl(trylast=True)
def eights_draw_limit(players: int, options: Mapping[str, Any]) -> int:
    return 1


@hookimpl(trylast=True)
def eights_card_penalty(card: Card) -> int:
    return 0


@hookimpl(trylast=True)
def card_points(card: Card) -> int:
    if card.rank is Rank.EIGHT:
        return 50
    if card.rank.value >= 11:
        return 10
    return int(card.rank.value)


class EightsBasicAgent:
    """Plays a plain card before an eight; an eight names its commonest suit.

    :param seed: Seed of its tie-breaks.
    """

    games = (NAME,)

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Return one of *legal*, judged from *view* alone."""
        mine = view["zones"][hand(view["seat"])]["cards"]
        suits = Counter(card[-1] for card in mine if card and not card.startswith("8"))
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return legal[0]
        return max(
            plays, key=lambda a: (a.card.rank is not Rank.EIGHT, suits[a.suit], self.rng.random())
        )


AGENT_NAME = f"{NAME}-basic"

__all__ = [
    "AGENT_NAME",
    "GAME",
    "NAME",
    "Draw",
    "EightsBasicAgent",
    "EightsLogic",
    "EightsState",
    "Pass",
    "Play",
    "Suit",
]
