"""GOLF4-VAR-3: after a knock, the final turns may only draw from the stock."""

from __future__ import annotations

from cardcore import Action, GameState, RuleInfo, Veto, hookimpl
from cardcore_golf.actions import Take
from cardcore_golf.house._common import FOUR_CARD, applies
from cardcore_golf.state import GolfState

__all__ = ["RULE", "forbid_action"]

RULE = RuleInfo(
    id="GOLF4-VAR-3",
    name="golf.knock-final-stock-only",
    game="golf",
    summary="After a knock, final turns draw from the stock only",
    applies=applies(*FOUR_CARD),
)


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    """Forbid ``take`` once somebody has knocked."""
    if type(action) is Take and isinstance(state, GolfState) and state.final_left >= 0:
        return Veto(RULE.id, "final turns after a knock draw from the stock only")
    return None
