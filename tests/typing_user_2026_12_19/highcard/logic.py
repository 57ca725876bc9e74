"""The engine: deal one card each; draw or stand in turn; closest to 21 without busting wins."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore import Card, CardDrawn, CardsDealt, Emit, GameLogic, Ruleset, Zones
from cardcore.dealing import deal_round_robin, fill_stock
from cardcore.turns import end_game, next_seat, winners_by

from .actions import Draw, HighAction, Stand
from .state import STOCK, HighState, hand, layout, points

LIMIT = 21


class HighLogic(GameLogic[HighState, HighAction]):
    """Draw-or-stand for 2 to 4 players."""

    action_types = (Draw, Stand)
    position_fields = ("to_act", "stood")

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self.bonus = ruleset.resolve("highcard_bonus")  # the game's own hook, None if unimplemented

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 60 * players

    def blank_state(self, players: int, options: Mapping[str, Any]) -> HighState:
        state = HighState(players, options, Zones(layout(players)))
        state.stood = [False] * players
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> HighState:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, STOCK, cards)
        deal_round_robin(state, STOCK, [hand(s) for s in range(players)], 1)
        if emit is not None:
            emit(CardsDealt(tuple(1 for _ in range(players))))
        return state

    def legal_actions(self, state: HighState, seat: int) -> tuple[HighAction, ...]:
        if state.zones.cards[STOCK]:
            return (Draw(seat), Stand(seat))
        return (Stand(seat),)

    def rule_for(self, state: HighState, action: HighAction) -> tuple[str, str]:
        return "HC-TURN-1", f"seat {action.seat} may not {action.verb} now"

    def apply(self, state: HighState, action: HighAction, emit: Emit | None) -> None:
        seat, zones = action.seat, state.zones
        if isinstance(action, Draw):
            card = zones.move(STOCK, hand(seat), mask=1 << seat)
            if emit is not None:
                emit(CardDrawn(seat, "stock", card, visible_to=1 << seat))
            if points(zones.cards[hand(seat)]) > LIMIT:
                state.stood[seat] = True
        else:
            state.stood[seat] = True
        if all(state.stood) or (
            not zones.cards[STOCK]
            and all(state.stood[s] or s == seat for s in range(state.players))
        ):
            self._finish(state)
        elif state.stood[seat] or isinstance(action, Draw):
            skip = {s for s in range(state.players) if state.stood[s]}
            if len(skip) == state.players:
                self._finish(state)
            else:
                state.to_act = (next_seat(seat, state.players, skip=skip),)

    def _finish(self, state: HighState) -> None:
        raw = [points(state.zones.cards[hand(s)]) for s in range(state.players)]
        bonus = 0 if self.bonus is None else int(self.bonus(players=state.players))
        distance = [abs(LIMIT - p) - bonus if p <= LIMIT else 100 for p in raw]
        made = self.score_round(state, distance)
        end_game(state, winners_by(made), made, "all stood")

    def table(self, state: HighState, seat: int | None) -> dict[str, Any]:
        return {"stock": len(state.zones.cards[STOCK]), "stood": list(state.stood)}

    def scores(self, state: HighState) -> tuple[float, ...]:
        return tuple(float(points(state.zones.cards[hand(s)])) for s in range(state.players))
