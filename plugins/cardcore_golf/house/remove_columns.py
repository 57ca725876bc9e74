"""GOLF6-SCORE-2: a cancelled, face-up column goes to the bottom of the discard pile."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcore.info import RuleInfo
from cardcore.plugins import hookimpl
from cardcore_golf.house._common import TWO_ROW, check_layout
from cardcore_golf.logic import Layout, column_pairs

__all__ = ["RULE", "golf_check_options", "golf_removable_groups"]

RULE = RuleInfo(
    id="GOLF6-SCORE-2",
    name="golf.remove-columns",
    game="golf",
    summary="Cancelled columns are removed to the bottom of the discard pile",
    conflicts=("golf.four-of-a-kind-columns",),
)


@hookimpl
def golf_check_options(layout: Layout, players: int, options: Mapping[str, Any]) -> None:
    """Only the two-row grids (GOLF6/8/10)."""
    check_layout(RULE, layout, TWO_ROW)


@hookimpl
def golf_removable_groups(layout: Layout) -> Sequence[Sequence[int]] | None:
    """The columns of a two-row grid."""
    return column_pairs(layout) if layout.key in TWO_ROW else None
