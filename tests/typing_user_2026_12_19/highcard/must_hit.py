"""HC-VAR-1 (house rule): no standing below ``min_stand`` points; and a bonus of one point."""

from __future__ import annotations

from collections.abc import Sequence

from cardcore import Action, GameState, Option, RuleInfo, Veto, hookimpl

from .actions import Stand
from .state import hand, points

RULE = RuleInfo(
    id="HC-VAR-1",
    name="typed-highcard.must-hit",
    game="typed-highcard",
    summary="No standing below min_stand points",
    options=(
        Option(
            "min_stand",
            default=12,
            minimum=1,
            maximum=21,
            doc="The least total a seat may stand on",
        ),
    ),
)


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    """Veto ``stand`` below the minimum while the stock lasts."""
    low = points(state.zones.cards[hand(action.seat)]) < state.options["min_stand"]
    if isinstance(action, Stand) and low and state.zones.cards[0]:
        return Veto("HC-VAR-1", f"stand only from {state.options['min_stand']} points")
    return None


@hookimpl
def score_round(state: GameState, scores: Sequence[int]) -> list[int]:
    """Leave the round's scores as they are (a wrapper point for the lab)."""
    return list(scores)


@hookimpl
def highcard_bonus(players: int) -> int:
    """One point off every distance."""
    return 1
