"""Precise types the API promises, checked with reveal_type (parsed by the test; never run)."""

from __future__ import annotations

from typing import TYPE_CHECKING, reveal_type

import cardcore
from cardcore import CardDrawn, Event

from .events_api import CardPlaced

if TYPE_CHECKING:
    game = cardcore.new_game("golf", 2, seed=1)
    reveal_type(game.to_act)  # R: tuple[int, ...]
    reveal_type(game.players)  # R: tuple[str, ...]
    reveal_type(game.version)  # R: int
    reveal_type(game.legal_actions(0))  # R: tuple[cardcore.actions.Action, ...]
    reveal_type(game.act(0, "flip 0"))  # R: cardcore.actions.Action
    reveal_type(game.result)  # R: cardcore.state.Result | None
    reveal_type(game.rules)  # R: tuple[str, ...]
    reveal_type(game.clone())  # R: cardcore.game.Game
    reveal_type(game.position())  # R: str
    reveal_type(game.record_entries())  # R: list[tuple[int, cardcore.actions.Action, float | None]]
    result = cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    reveal_type(result.winners)  # R: tuple[int, ...]
    reveal_type(result.scores)  # R: tuple[float, ...]
    reveal_type(result.payouts)  # R: tuple[int, ...] | None
    reveal_type(result.reason)  # R: str
    summary = cardcore.simulate("golf", games=2)
    reveal_type(summary.win_rates)  # R: tuple[float, ...]
    reveal_type(summary.mean_payouts)  # R: tuple[float, ...] | None
    comparison = cardcore.compare("golf", games=2)
    reveal_type(comparison.a)  # R: cardcore.compare._stats.ConfigSummary
    reveal_type(comparison.diff["actions"].n)  # R: int
    reveal_type(cardcore.parse_cards("AS KH"))  # R: tuple[cardcore.cards.Card, ...]
    placed = CardPlaced(0, 1, None)
    reveal_type(placed.for_seat(1))  # R: tests.typing_user_2026_12_19.events_api.CardPlaced
    reveal_type(CardPlaced(0, 1, None).card)  # R: cardcore.cards.Card | None
    sub = game.events.subscribe(CardDrawn, lambda e: reveal_type(e))  # R: cardcore.events.CardDrawn
    reveal_type(game.events.subscribe(Event, print))  # R: cardcore.Subscription
    reveal_type(cardcore.RandomAgent(1).plan({}, (), 0.0))  # R: cardcore.agents.Plan | None
