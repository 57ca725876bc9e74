"""GOLF6-SCORE-2: a cancelled, face-up column goes to the bottom of the discard pile."""

from __future__ import annotations

from collections.abc import Sequence

from cardcore import RuleInfo, hookimpl
from cardcore_golf.grids import GridShape, column_pairs
from cardcore_golf.house._common import TWO_ROW, applies

__all__ = ["RULE", "golf_removable_groups"]

RULE = RuleInfo(
    id="GOLF6-SCORE-2",
    name="golf.remove-columns",
    game="golf",
    summary="Cancelled columns are removed to the bottom of the discard pile",
    conflicts=("golf.four-of-a-kind-columns",),
    applies=applies(*TWO_ROW),
)


@hookimpl
def golf_removable_groups(layout: GridShape) -> Sequence[Sequence[int]] | None:
    """The columns of a two-row grid."""
    return column_pairs(layout) if layout.key in TWO_ROW else None
