"""GOLF6-SETUP-3: the initial face-up cards must all be in one column."""

from __future__ import annotations

from cardcore import Action, GameState, RuleInfo, Veto, hookimpl
from cardcore_golf.actions import Flip
from cardcore_golf.house._common import SIX_FAMILY, applies
from cardcore_golf.state import GolfState

__all__ = ["RULE", "forbid_action"]

RULE = RuleInfo(
    id="GOLF6-SETUP-3",
    name="golf.reveal-same-column",
    game="golf",
    summary="The initial face-up cards must be in the same column",
    conflicts=("golf.reveal-different-columns",),
    applies=applies(*SIX_FAMILY),
)


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    """Forbid a setup flip outside the column of the seat's first flip."""
    if type(action) is not Flip or not isinstance(state, GolfState):
        return None
    cols = state.plan.layout.cols
    up = state.face_up(action.seat)
    if up and up[0] % cols != action.pos % cols:
        return Veto(RULE.id, f"initial cards must share column {up[0] % cols}")
    return None
