"""A small real-time test game: both seats race to empty their hands.

Each seat holds five cards (private). Either seat may, at any moment, play a
card whose rank is one above or below the centre pile's top (ace wraps). When
nobody can play, the next stock card is turned onto the centre automatically;
when the stock is empty too, the seat with fewer cards wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from attrs import frozen

from cardcore import (
    Action,
    CardMoved,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    NotationError,
    Result,
    Ruleset,
    Visibility,
    ZoneSpec,
    Zones,
    hookimpl,
)
from cardcore.cards import Card

GAME = GameInfo(
    name="racegame",
    summary="test game: real-time race to empty the hand",
    min_players=2,
    max_players=2,
    realtime=True,
)

LAYOUT = Layout.of(
    [
        ZoneSpec("stock"),
        ZoneSpec("centre", None, Visibility.EVERYONE),
        ZoneSpec("hand.0", 0, Visibility.OWNER),
        ZoneSpec("hand.1", 1, Visibility.OWNER),
    ]
)
STOCK, CENTRE = 0, 1
HANDS = (2, 3)


@frozen
class Play(Action):
    card: Card
    verb: ClassVar[str] = "play"

    def __str__(self) -> str:
        return f"play {self.card}"


def adjacent(a: Card, b: Card) -> bool:
    d = abs(int(a.rank) - int(b.rank))
    return d in (1, 12)


class RaceLogic(GameLogic):
    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 60

    def new_state(self, players: int, options: Mapping[str, Any], cards: list[Card], seed: int) -> GameState:
        zones = Zones(LAYOUT)
        zones.cards[STOCK] = cards
        zones.seen[STOCK] = [0] * len(cards)
        st = GameState(players, options, zones)
        for _ in range(5):
            for h in HANDS:
                zones.move(STOCK, h)
        zones.move(STOCK, CENTRE)
        st.to_act = (0, 1)
        self._settle(st, None)
        return st

    def _playable(self, st: GameState, seat: int) -> list[Card]:
        z = st.zones
        top = z.cards[CENTRE][-1]
        return [c for c in z.cards[HANDS[seat]] if adjacent(c, top)]

    def _settle(self, st: GameState, emit: Emit | None) -> None:
        z = st.zones
        while not st.is_over:
            if not z.cards[HANDS[0]] or not z.cards[HANDS[1]]:
                self._finish(st, "hand emptied")
            elif self._playable(st, 0) or self._playable(st, 1):
                return
            elif z.cards[STOCK]:
                card = z.move(STOCK, CENTRE)
                if emit is not None:
                    emit(CardMoved(None, "stock", "centre", card))
            else:
                self._finish(st, "stuck")

    def _finish(self, st: GameState, reason: str) -> None:
        sizes = [len(st.zones.cards[h]) for h in HANDS]
        best = min(sizes)
        st.is_over = True
        st.to_act = ()
        st.result = Result(tuple(s for s in (0, 1) if sizes[s] == best), tuple(float(n) for n in sizes), None, reason)

    def legal_actions(self, state: GameState, seat: int) -> tuple[Action, ...]:
        if state.is_over:
            return ()
        return tuple(Play(seat, c) for c in self._playable(state, seat))

    def apply(self, state: GameState, action: Action, emit: Emit | None) -> None:
        z = state.zones
        hand = HANDS[action.seat]
        card = action.card  # type: ignore[attr-defined]
        z.move(hand, CENTRE, z.cards[hand].index(card))
        if emit is not None:
            emit(CardMoved(action.seat, f"hand.{action.seat}", "centre", card))
        self._settle(state, emit)

    def rule_for(self, state: GameState, action: Action) -> tuple[str, str]:
        return "RACE-1", f"{str(action)!r} is not adjacent to the centre card"

    def parse_action(self, state: GameState, seat: int, text: str) -> Action:
        words = text.split()
        if len(words) == 2 and words[0].lower() == "play":
            return Play(seat, Card.parse(words[1]))
        raise NotationError(f"cannot read {text!r}: expected play CARD (CORE-NOTATION-1)")

    def table(self, state: GameState, seat: int | None) -> dict[str, Any]:
        z = state.zones
        return {
            "centre": z.show(CENTRE, seat)[:1],
            "stock": z.count(STOCK),
            "hands": [z.show(h, seat) for h in HANDS],
        }

    def scores(self, state: GameState) -> tuple[float, ...]:
        return tuple(float(len(state.zones.cards[h])) for h in HANDS)


@hookimpl
def create_logic(ruleset: Ruleset) -> GameLogic:
    return RaceLogic(ruleset)
