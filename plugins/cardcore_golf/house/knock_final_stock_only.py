"""GOLF4-VAR-3: after a knock, the final turns may only draw from the stock."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore.actions import Action
from cardcore.info import RuleInfo, Veto
from cardcore.plugins import hookimpl
from cardcore.state import GameState
from cardcore_golf.actions import Take
from cardcore_golf.house._common import FOUR_CARD, check_layout
from cardcore_golf.logic import Layout
from cardcore_golf.state import GolfState

__all__ = ["RULE", "forbid_action", "golf_check_options"]

RULE = RuleInfo(
    id="GOLF4-VAR-3",
    name="golf.knock-final-stock-only",
    game="golf",
    summary="After a knock, final turns draw from the stock only",
)


@hookimpl
def golf_check_options(layout: Layout, players: int, options: Mapping[str, Any]) -> None:
    """Only the knocking layouts (GOLF4, GOLF4H)."""
    check_layout(RULE, layout, FOUR_CARD)


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    """Forbid ``take`` once somebody has knocked."""
    if type(action) is Take and isinstance(state, GolfState) and state.final_left >= 0:
        return Veto(RULE.id, "final turns after a knock draw from the stock only")
    return None
