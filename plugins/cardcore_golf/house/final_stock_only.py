"""GOLF6-VAR-1: during the final turns players may only draw from the stock."""

from __future__ import annotations

from cardcore import Action, GameState, RuleInfo, Veto, hookimpl
from cardcore_golf.actions import Take
from cardcore_golf.house._common import SIX_FAMILY, applies
from cardcore_golf.state import GolfState

__all__ = ["RULE", "forbid_action"]

RULE = RuleInfo(
    id="GOLF6-VAR-1",
    name="golf.final-stock-only",
    game="golf",
    summary="Final turns draw from the stock only, never the discard pile",
    conflicts=("golf.no-final-turns",),
    applies=applies(*SIX_FAMILY),
)


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    """Forbid ``take`` once the final turns have begun."""
    if type(action) is Take and isinstance(state, GolfState) and state.final_left >= 0:
        return Veto(RULE.id, "final turns draw from the stock only")
    return None
