"""GOLF-PEN-6: an ender who ties for the lowest round score pays the ender penalty too."""

from __future__ import annotations

from cardcore import RuleInfo, hookimpl
from cardcore_golf.grids import GridShape

__all__ = ["RULE", "golf_ender_ties_pay"]

RULE = RuleInfo(
    id="GOLF-PEN-6",
    name="golf.ender-penalty-ties",
    game="golf",
    summary="Ender penalties: an ender who ties for the lowest score pays too (with a penalty rule)",
)


@hookimpl
def golf_ender_ties_pay(layout: GridShape) -> bool:
    """Ties for lowest pay (GOLF-GAP-8's other choice; GOLF-PEN-4 spares them)."""
    return True
