"""GOLF4-VAR-4: players may peek only at their two nearest cards (positions 2 and 3)."""

from __future__ import annotations

from cardcore import Action, GameState, RuleInfo, Veto, hookimpl
from cardcore_golf.actions import Peek
from cardcore_golf.house._common import applies

__all__ = ["RULE", "forbid_action"]

RULE = RuleInfo(
    id="GOLF4-VAR-4",
    name="golf.peek-nearest",
    game="golf",
    summary="4-card Golf: peek only at the two nearest cards",
    applies=applies("4"),
)


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    """Forbid peeking at the far row (positions 0 and 1)."""
    if type(action) is Peek and action.pos < 2:
        return Veto(RULE.id, "only the two nearest cards (2 and 3) may be peeked at")
    return None
