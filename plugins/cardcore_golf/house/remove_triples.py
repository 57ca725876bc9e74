"""GOLF9-4: a complete face-up triple goes to the bottom of the discard pile."""

from __future__ import annotations

from collections.abc import Sequence

from cardcore import RuleInfo, hookimpl
from cardcore_golf.grids import GridShape, grid_lines
from cardcore_golf.house._common import applies

__all__ = ["RULE", "golf_removable_groups"]

RULE = RuleInfo(
    id="GOLF9-4",
    name="golf.remove-triples",
    game="golf",
    summary="9-card Golf: cancelled triples are removed to the bottom of the discard pile",
    applies=applies("9"),
)


@hookimpl
def golf_removable_groups(layout: GridShape) -> Sequence[Sequence[int]] | None:
    """The rows and columns of the 3 x 3 grid."""
    return grid_lines(layout) if layout.key == "9" else None
