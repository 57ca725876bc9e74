"""GOLF-PEN-5: Penalty B read literally: the ender adds the lowest round score, even a negative one."""

from __future__ import annotations

from collections.abc import Sequence

from cardcore import RuleInfo, hookimpl
from cardcore_golf.grids import GridShape

__all__ = ["RULE", "golf_ender_penalty"]

RULE = RuleInfo(
    id="GOLF-PEN-5",
    name="golf.ender-penalty-lowest-literal",
    game="golf",
    summary="Penalty B, literal: the player who ended the round, unless lowest, adds the lowest"
    " score even when it is negative",
    conflicts=("golf.ender-penalty-10", "golf.ender-penalty-lowest"),
)


@hookimpl
def golf_ender_penalty(layout: GridShape, scores: Sequence[int], ender: int, pays: bool) -> int:
    """Add the lowest round score when the ender pays, with no floor: a negative lowest lowers
    the ender's score (GOLF-GAP-8's other choice; GOLF-PEN-3 adds max(lowest, 0))."""
    return min(scores) if pays else 0
