"""GOLF6-VAR-1: during the final turns players may only draw from the stock."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore.actions import Action
from cardcore.info import RuleInfo, Veto
from cardcore.plugins import hookimpl
from cardcore.state import GameState
from cardcore_golf.actions import Take
from cardcore_golf.house._common import SIX_FAMILY, check_layout
from cardcore_golf.logic import Layout
from cardcore_golf.state import GolfState

__all__ = ["RULE", "forbid_action", "golf_check_options"]

RULE = RuleInfo(
    id="GOLF6-VAR-1",
    name="golf.final-stock-only",
    game="golf",
    summary="Final turns draw from the stock only, never the discard pile",
    conflicts=("golf.no-final-turns",),
)


@hookimpl
def golf_check_options(layout: Layout, players: int, options: Mapping[str, Any]) -> None:
    """Only the grids whose round ends by completing a layout (GOLF6/8/9/10)."""
    check_layout(RULE, layout, SIX_FAMILY)


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    """Forbid ``take`` once the final turns have begun."""
    if type(action) is Take and isinstance(state, GolfState) and state.final_left >= 0:
        return Veto(RULE.id, "final turns draw from the stock only")
    return None
