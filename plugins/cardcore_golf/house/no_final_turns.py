"""GOLF6-END-4: no final turns; the round ends as soon as a layout is complete."""

from __future__ import annotations

from cardcore import RuleInfo, hookimpl
from cardcore_golf.grids import GridShape
from cardcore_golf.house._common import SIX_FAMILY, applies

__all__ = ["RULE", "golf_final_turns"]

RULE = RuleInfo(
    id="GOLF6-END-4",
    name="golf.no-final-turns",
    game="golf",
    summary="No final turns: the round ends when a layout is complete",
    conflicts=("golf.final-stock-only",),
    applies=applies(*SIX_FAMILY),
)


@hookimpl
def golf_final_turns(layout: GridShape) -> bool:
    """No final turns."""
    return False
