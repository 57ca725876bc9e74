"""GOLF4-VAR-4: players may peek only at their two nearest cards (positions 2 and 3)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore.actions import Action
from cardcore.info import RuleInfo, Veto
from cardcore.plugins import hookimpl
from cardcore.state import GameState
from cardcore_golf.actions import Peek
from cardcore_golf.house._common import check_layout
from cardcore_golf.logic import Layout

__all__ = ["RULE", "forbid_action", "golf_check_options"]

RULE = RuleInfo(
    id="GOLF4-VAR-4",
    name="golf.peek-nearest",
    game="golf",
    summary="4-card Golf: peek only at the two nearest cards",
)


@hookimpl
def golf_check_options(layout: Layout, players: int, options: Mapping[str, Any]) -> None:
    """Only the 2 x 2 grid (GOLF4)."""
    check_layout(RULE, layout, {"4"})


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    """Forbid peeking at the far row (positions 0 and 1)."""
    if type(action) is Peek and action.pos < 2:
        return Veto(RULE.id, "only the two nearest cards (2 and 3) may be peeked at")
    return None
