"""The kit names the event that shows a seat a card it does not know, and says when the
leak is an action's notation (public by design: a position, not a hidden card, belongs in it)."""

from __future__ import annotations

import types
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import (
    Action,
    Card,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.dealing import deal_round_robin, fill_stock
from cardcore.testing import check_game
from cardcore.turns import end_game


@frozen
class Hide(Action):
    """Put a card of the hand face down in the seat's box, naming it (the leak)."""

    card: Card
    verb: ClassVar[str] = "hide"

    def notation(self) -> str:
        return f"hide {self.card}"


LAYOUT = Layout.of(
    [
        ZoneSpec("stock"),
        ZoneSpec("hand.0", 0, Visibility.OWNER),
        ZoneSpec("hand.1", 1, Visibility.OWNER),
        ZoneSpec("box.0", 0, Visibility.OWNER),
    ]
)


class HideLogic(GameLogic[GameState, Hide]):
    action_types = (Hide,)

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 5

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> GameState:
        state = GameState(players, options, Zones(LAYOUT))
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, 0, cards)
        deal_round_robin(state, 0, [1, 2], 3)
        return state

    def legal_actions(self, state: GameState, seat: int) -> tuple[Hide, ...]:
        return tuple(Hide(seat, c) for c in state.zones.cards[1]) if seat == 0 else ()

    def apply(self, state: GameState, action: Hide, emit: Emit | None) -> None:
        zones = state.zones
        zones.move(1, 3, zones.cards[1].index(action.card))  # face down: only seat 0 knows it
        end_game(state, (0,), (0.0, 0.0), "done", reveal=False)

    def table(self, state: GameState, seat: int | None) -> dict[str, Any]:
        return {}


@hookimpl
def create_logic(ruleset: cardcore.Ruleset) -> HideLogic:
    return HideLogic(ruleset)


@pytest.fixture
def hidegame() -> Iterator[str]:
    module = types.ModuleType("hidegame")
    module.GAME = GameInfo("hidegame", "hide a card, naming it", 2, 2)  # type: ignore[attr-defined]
    module.create_logic = create_logic  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", "hidegame", module)
    try:
        yield "hidegame"
    finally:
        cardcore.unregister("cardcore.games", "hidegame")


def test_a_notation_naming_a_hidden_card_is_caught_and_explained(hidegame: str) -> None:
    report = check_game(hidegame, players=2, games=2, strict=False, checks={"events"})
    assert report.leaks > 0
    message = report.failures[0]
    assert "in action-applied" in message and '"action": "hide ' in message
    assert "an action's notation is public: name a position" in message
