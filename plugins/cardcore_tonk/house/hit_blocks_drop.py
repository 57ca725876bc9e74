"""TONK-VAR-4: a player one of whose spreads another player hit may not drop next turn.

The game records, as a public fact, which seats were hit since their own turn
last began (``TonkState.was_hit``); this rule vetoes their drop at the start of
that next turn. Hitting one's own spread does not count.
"""

from __future__ import annotations

from cardcore import RuleInfo, Veto, hookimpl
from cardcore_tonk.actions import Drop, TonkAction
from cardcore_tonk.state import TonkState

__all__ = ["RULE", "forbid_action"]

RULE = RuleInfo(
    id="TONK-VAR-4",
    name="tonk.hit-blocks-drop",
    game="tonk",
    summary="A player whose spread was hit may not drop on their next turn",
    conflicts=(),
)


@hookimpl
def forbid_action(state: TonkState, action: TonkAction) -> Veto | None:
    """TONK-VAR-4: veto the drop of a seat that was hit since its last turn began."""
    if type(action) is Drop and (state.was_hit >> action.seat) & 1:
        return Veto(
            "TONK-VAR-4", f"seat {action.seat} was hit since their last turn and may not drop now"
        )
    return None
