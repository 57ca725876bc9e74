"""GOLF6-VAR-2: any two same-rank cards in the layout cancel, not only in a column."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore.info import RuleInfo
from cardcore.plugins import hookimpl
from cardcore_golf.house._common import TWO_ROW, check_layout
from cardcore_golf.logic import Layout, Scorer, anywhere_scorer

__all__ = ["RULE", "golf_check_options", "golf_scorer"]

RULE = RuleInfo(
    id="GOLF6-VAR-2",
    name="golf.pairs-anywhere",
    game="golf",
    summary="Pairs anywhere in the layout cancel, not only in a column",
)


@hookimpl
def golf_check_options(layout: Layout, players: int, options: Mapping[str, Any]) -> None:
    """Only the two-row grids (GOLF6/8/10)."""
    check_layout(RULE, layout, TWO_ROW)


@hookimpl
def golf_scorer(layout: Layout) -> Scorer | None:
    """Per rank, floor(count / 2) pairs cancel wherever they lie."""
    return anywhere_scorer() if layout.key in TWO_ROW else None
