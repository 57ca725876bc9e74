"""GOLF4-VAR-1: in the 2 x 2 face-down grid, diagonal pairs also cancel."""

from __future__ import annotations

from cardcore import RuleInfo, hookimpl
from cardcore_golf.grids import GridShape, Scorer, diagonal_pairs, four_grid_scorer, row_col_pairs
from cardcore_golf.house._common import applies

__all__ = ["RULE", "golf_scorer"]

RULE = RuleInfo(
    id="GOLF4-VAR-1",
    name="golf.diagonal-pairs",
    game="golf",
    summary="4-card Golf: diagonal pairs cancel too",
    conflicts=("golf.no-cancelling",),
    applies=applies("4"),
)


@hookimpl
def golf_scorer(layout: GridShape) -> Scorer | None:
    """Rows, columns and diagonals pair; four of a kind still scores 0."""
    if layout.key != "4":
        return None
    return four_grid_scorer(row_col_pairs(layout) + diagonal_pairs(layout))
