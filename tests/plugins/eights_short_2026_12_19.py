"""Crazy Eights in one module, as short as the plugin guide allows (a test-only game).

Rules (IDs cited by the code and the errors):

- EIGHTS8-DEAL-1: 7 cards each to 2 players, 5 each to 3-5; the next card starts the discards.
- EIGHTS8-PLAY-1: play a card of the top card's rank or of the suit in force (the
  called suit after an eight, else the top card's suit).
- EIGHTS8-WILD-1: an eight may be played on anything and names a suit (``play 8H S``).
- EIGHTS8-DRAW-1: a seat with no card to play draws one card (the discards but
  the top are shuffled into a new stock when it is empty) and stays to act.
- EIGHTS8-PASS-1: a seat that can neither play nor draw passes; when every seat has
  passed in a row, the game is blocked and ends.
- EIGHTS8-END-1: the first seat out of cards ends the game; every seat scores the
  points of the cards it holds (eights 50, court cards 10, aces 1, others face value);
  lowest wins, ties share.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from attrs import frozen

from cardcore import (
    Action,
    Card,
    CardDrawn,
    CardMoved,
    CardRevealed,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    NotationError,
    Rank,
    Ruleset,
    ScoreTable,
    Shuffled,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.dealing import deal_round_robin, draw_card, fill_stock
from cardcore.positions import check
from cardcore.turns import end_game, next_seat, winners_by

SUITS = ("C", "D", "H", "S")
STOCK, DISCARD = 0, 1
POINTS = ScoreTable.face_values().replace({"8": 50})

GAME = GameInfo(
    "eights-short",
    "Crazy Eights: match the top card, eights are wild; first out wins",
    2,
    5,
    version="1.0.0",
    fields=(
        ViewField(
            "called", "choice", "The suit the last eight named.", choices=SUITS, nullable=True
        ),
        ViewField("passes", "int", "Seats that passed in a row."),
        ViewField("stock", "int", "Cards left in the stock."),
    ),
)


@frozen
class Play(Action):
    card: Card
    suit: str = ""
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card} {self.suit}".rstrip()


@frozen
class Draw(Action):
    verb: ClassVar[str] = "draw"


@frozen
class Pass(Action):
    verb: ClassVar[str] = "pass"


EightsAction = Play | Draw | Pass


def hand(seat: int) -> int:
    return 2 + seat


class EightsState(GameState):
    __slots__ = ("called", "passes")
    _mutable = ("zones",)
    called: str | None
    passes: int


class EightsLogic(GameLogic[EightsState, EightsAction]):
    action_types = (Draw, Pass)
    position_fields = ("to_act", "called", "passes")

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 3000

    def blank_state(self, players: int, options: Mapping[str, Any]) -> EightsState:
        hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
        specs = [ZoneSpec("stock"), ZoneSpec("discard", None, Visibility.TOP), *hands]
        state = EightsState(players, options, Zones(Layout.of(specs)))
        state.called, state.passes = None, 0
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
        fill_stock(state, STOCK, cards)  # EIGHTS8-DEAL-1
        deal_round_robin(state, STOCK, [hand(s) for s in range(players)], 7 if players == 2 else 5)
        card = state.zones.move(STOCK, DISCARD)
        if emit is not None:
            emit(CardsDealt(tuple(len(state.zones.cards[hand(s)]) for s in range(players))))
            emit(CardRevealed(None, "discard", 0, card))
        return state

    def playable(self, state: EightsState, card: Card) -> bool:
        top = state.zones.top(DISCARD)
        assert top is not None and top.suit is not None and card.suit is not None
        suit = state.called or top.suit.letter
        return card.rank == Rank.EIGHT or card.rank == top.rank or card.suit.letter == suit

    def legal_actions(self, state: EightsState, seat: int) -> tuple[EightsAction, ...]:
        held = sorted(set(state.zones.cards[hand(seat)]), key=lambda c: (c.rank, str(c)))
        plays = [
            Play(seat, c, s)
            for c in held
            if self.playable(state, c)
            for s in (SUITS if c.rank == Rank.EIGHT else ("",))
        ]
        if plays:
            return tuple(plays)
        if state.zones.cards[STOCK] or len(state.zones.cards[DISCARD]) > 1:
            return (Draw(seat),)
        return (Pass(seat),)

    def parse_action(self, state: EightsState, seat: int, text: str) -> EightsAction:
        words = text.split()
        if not words or words[0].lower() != "play":
            return super().parse_action(state, seat, text)
        if len(words) not in (2, 3) or (len(words) == 3 and words[2].upper() not in SUITS):
            raise NotationError(
                f"expected 'play <card>' or 'play 8<suit> <suit>', not {text!r} (EIGHTS8-WILD-1)"
            )
        return Play(seat, Card.parse(words[1]), words[2].upper() if len(words) == 3 else "")

    def rule_for(self, state: EightsState, action: EightsAction) -> tuple[str, str]:
        seat = action.seat
        if isinstance(action, Play):
            if action.card not in state.zones.cards[hand(seat)]:
                return "EIGHTS8-PLAY-1", f"seat {seat} may play only a card it holds"
            if (action.card.rank == Rank.EIGHT) != bool(action.suit):
                return "EIGHTS8-WILD-1", "an eight, and only an eight, names a suit"
            return "EIGHTS8-PLAY-1", f"{action.card} matches neither the rank nor the suit in force"
        if isinstance(action, Draw):
            if any(isinstance(a, Play) for a in self.legal_actions(state, seat)):
                return "EIGHTS8-DRAW-1", f"seat {seat} can play, so it may not draw"
            return "EIGHTS8-DRAW-1", "the stock and the discards under the top are empty"
        return "EIGHTS8-PASS-1", f"seat {seat} may pass only when it can neither play nor draw"

    def apply(self, state: EightsState, action: EightsAction, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        if isinstance(action, Draw):  # EIGHTS8-DRAW-1: the seat stays to act
            rebuilt = not z.cards[STOCK]
            card = draw_card(state, STOCK, hand(seat), discard=DISCARD)
            if emit is not None:
                if rebuilt:
                    emit(Shuffled("stock", len(z.cards[STOCK]) + 1))
                emit(CardDrawn(seat, "stock", card, visible_to=1 << seat))
            state.passes = 0
            return
        if isinstance(action, Pass):  # EIGHTS8-PASS-1
            state.passes += 1
            if state.passes == state.players:
                self.finish(state, "blocked")
                return
        else:
            z.move(hand(seat), DISCARD, z.cards[hand(seat)].index(action.card))
            state.called, state.passes = action.suit or None, 0
            if emit is not None:
                emit(CardMoved(seat, f"hand.{seat}", "discard", action.card))
            if not z.cards[hand(seat)]:
                self.finish(state, f"seat {seat} went out")
                return
        state.to_act = (next_seat(seat, state.players),)

    def finish(self, state: EightsState, reason: str) -> None:  # EIGHTS8-END-1
        made = self.score_round(state, self.scores_now(state))
        end_game(state, winners_by(made), made, reason)

    def scores_now(self, state: EightsState) -> list[int]:
        return [POINTS.total(state.zones.cards[hand(s)]) for s in range(state.players)]

    def scores(self, state: EightsState) -> tuple[float, ...]:
        return tuple(map(float, self.scores_now(state)))

    def standings(self, state: EightsState) -> tuple[int, ...]:
        return winners_by(self.scores_now(state))

    def table(self, state: EightsState, seat: int | None) -> dict[str, Any]:
        return {
            "called": state.called,
            "passes": state.passes,
            "stock": len(state.zones.cards[STOCK]),
        }

    def check_position(self, state: EightsState) -> None:
        top = state.zones.top(DISCARD)
        check(
            state.is_over or len(state.to_act) == 1,
            "to_act must be one seat, not {}",
            list(state.to_act),
        )
        check(top is not None, "the discard pile may not be empty (EIGHTS8-DEAL-1)")
        check(
            state.called in (None, *SUITS)
            and (state.called is None or (top is not None and top.rank == Rank.EIGHT)),
            "called must be a suit named by an eight on top, not {!r}",
            state.called,
        )


@hookimpl
def create_logic(ruleset: Ruleset) -> EightsLogic:
    return EightsLogic(ruleset)
