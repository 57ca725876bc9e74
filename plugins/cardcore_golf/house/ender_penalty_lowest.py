"""GOLF-PEN-3: an ender without the lowest round score adds max(lowest, 0)."""

from __future__ import annotations

from collections.abc import Sequence

from cardcore import RuleInfo, hookimpl
from cardcore_golf.grids import GridShape

__all__ = ["RULE", "golf_ender_penalty"]

RULE = RuleInfo(
    id="GOLF-PEN-3",
    name="golf.ender-penalty-lowest",
    game="golf",
    summary="Penalty B: the player who ended the round, unless lowest, adds max(lowest score, 0)",
    conflicts=("golf.ender-penalty-10", "golf.ender-penalty-lowest-literal"),
)


@hookimpl
def golf_ender_penalty(layout: GridShape, scores: Sequence[int], ender: int, pays: bool) -> int:
    """Add max(lowest, 0) when the ender pays: another seat scored strictly lower (GOLF-PEN-3/4;
    a tie for lowest too with ``golf.ender-penalty-ties``)."""
    return max(min(scores), 0) if pays else 0
