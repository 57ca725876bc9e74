"""GOLF6-SETUP-4: the initial face-up cards must be in different columns."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore.actions import Action
from cardcore.info import RuleInfo, Veto
from cardcore.plugins import hookimpl
from cardcore.state import GameState
from cardcore_golf.actions import Flip
from cardcore_golf.house._common import SIX_FAMILY, check_layout
from cardcore_golf.logic import Layout
from cardcore_golf.state import GolfState

__all__ = ["RULE", "forbid_action", "golf_check_options"]

RULE = RuleInfo(
    id="GOLF6-SETUP-4",
    name="golf.reveal-different-columns",
    game="golf",
    summary="The initial face-up cards must be in different columns",
    conflicts=("golf.reveal-same-column",),
)


@hookimpl
def golf_check_options(layout: Layout, players: int, options: Mapping[str, Any]) -> None:
    """Only layouts with initial flips (GOLF6/8/9/10)."""
    check_layout(RULE, layout, SIX_FAMILY)


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
