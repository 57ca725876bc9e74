"""GOLF6-SETUP-4: the initial face-up cards must be in different columns."""

from __future__ import annotations

from cardcore import Action, GameState, RuleInfo, Veto, hookimpl
from cardcore_golf.actions import Flip
from cardcore_golf.house._common import SIX_FAMILY, applies
from cardcore_golf.state import GolfState

__all__ = ["RULE", "forbid_action"]

RULE = RuleInfo(
    id="GOLF6-SETUP-4",
    name="golf.reveal-different-columns",
    game="golf",
    summary="The initial face-up cards must be in different columns",
    conflicts=("golf.reveal-same-column",),
    applies=applies(*SIX_FAMILY),
)


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    """Forbid a setup flip in a column that already shows a face-up card."""
    if type(action) is not Flip or not isinstance(state, GolfState):
        return None
    cols = state.plan.layout.cols
    taken = {pos % cols for pos in state.face_up(action.seat)}
    if action.pos % cols in taken:
        return Veto(RULE.id, f"column {action.pos % cols} already shows an initial card")
    return None
