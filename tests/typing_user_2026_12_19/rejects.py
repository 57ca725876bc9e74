"""Mistakes strict mypy catches thanks to cardcore's annotations (each marked line must error)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import cardcore
from cardcore import Action, CardDrawn, Plan, TurnPassed

from .agents_api import FirstLegal, Quick
from .events_api import CardPlaced


def on_turn(event: TurnPassed) -> None:
    print(event.seat)


class TextAgent:
    """Returns the text, not the action object (agents.rst: return legal[i], not its text)."""

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> str:
        return str(legal[0])


def mistakes() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    game.events.subscribe(CardDrawn, on_turn)  # expect-error
    game.apply("flip 0")  # expect-error
    game.act(0, 3)  # expect-error
    cardcore.play(game, [TextAgent(), TextAgent()])  # expect-error
    cardcore.play(game, [Quick(0.1), Quick(0.2)])  # expect-error
    cardcore.run_realtime(game, [FirstLegal(), FirstLegal()])  # expect-error
    Plan("draw", 0.3)  # expect-error
    event = CardPlaced(0, 3, None)
    event.pos = 4  # expect-error
    CardPlaced("0", 3, None)  # expect-error
    result = game.result
    print(result.reason)  # expect-error
    cardcore.new_game("golf", 2, seed="7")  # expect-error
    cardcore.simulate("golf", games="10")  # expect-error
