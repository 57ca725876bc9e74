"""GOLF6-VAR-2: any two same-rank cards in the layout cancel, not only in a column."""

from __future__ import annotations

from cardcore import RuleInfo, hookimpl
from cardcore_golf.grids import GridShape, Scorer, anywhere_scorer
from cardcore_golf.house._common import TWO_ROW, applies

__all__ = ["RULE", "golf_scorer"]

RULE = RuleInfo(
    id="GOLF6-VAR-2",
    name="golf.pairs-anywhere",
    game="golf",
    summary="Pairs anywhere in the layout cancel, not only in a column",
    applies=applies(*TWO_ROW),
)


@hookimpl
def golf_scorer(layout: GridShape) -> Scorer | None:
    """Per rank, floor(count / 2) pairs cancel wherever they lie."""
    return anywhere_scorer() if layout.key in TWO_ROW else None
