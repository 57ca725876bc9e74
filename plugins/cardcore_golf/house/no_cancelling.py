"""GOLF4-VAR-2: nothing cancels; every card scores its points."""

from __future__ import annotations

from cardcore import RuleInfo, hookimpl
from cardcore_golf.grids import GridShape, Scorer, no_cancel_scorer
from cardcore_golf.house._common import FOUR_CARD, applies

__all__ = ["RULE", "golf_scorer"]

RULE = RuleInfo(
    id="GOLF4-VAR-2",
    name="golf.no-cancelling",
    game="golf",
    summary="4-card Golf: pairs do not cancel at all",
    conflicts=("golf.diagonal-pairs", "golf.hand-same-value"),
    applies=applies(*FOUR_CARD),
)


@hookimpl
def golf_scorer(layout: GridShape) -> Scorer | None:
    """Score the plain sum of the points."""
    return no_cancel_scorer() if layout.is_four else None
