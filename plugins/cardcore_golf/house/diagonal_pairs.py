"""GOLF4-VAR-1: in the 2 x 2 face-down grid, diagonal pairs also cancel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore.info import RuleInfo
from cardcore.plugins import hookimpl
from cardcore_golf.house._common import check_layout
from cardcore_golf.logic import Layout, Scorer, diagonal_pairs, four_grid_scorer, row_col_pairs

__all__ = ["RULE", "golf_check_options", "golf_scorer"]

RULE = RuleInfo(
    id="GOLF4-VAR-1",
    name="golf.diagonal-pairs",
    game="golf",
    summary="4-card Golf: diagonal pairs cancel too",
    conflicts=("golf.no-cancelling",),
)


@hookimpl
def golf_check_options(layout: Layout, players: int, options: Mapping[str, Any]) -> None:
    """Only the 2 x 2 grid (GOLF4)."""
    check_layout(RULE, layout, {"4"})


@hookimpl
def golf_scorer(layout: Layout) -> Scorer | None:
    """Rows, columns and diagonals pair; four of a kind still scores 0."""
    if layout.key != "4":
        return None
    return four_grid_scorer(row_col_pairs(layout) + diagonal_pairs(layout))
