"""GOLF4-VAR-2: nothing cancels; every card scores its points."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore.info import RuleInfo
from cardcore.plugins import hookimpl
from cardcore_golf.house._common import FOUR_CARD, check_layout
from cardcore_golf.logic import Layout, Scorer, no_cancel_scorer

__all__ = ["RULE", "golf_check_options", "golf_scorer"]

RULE = RuleInfo(
    id="GOLF4-VAR-2",
    name="golf.no-cancelling",
    game="golf",
    summary="4-card Golf: pairs do not cancel at all",
    conflicts=("golf.diagonal-pairs",),
)


@hookimpl
def golf_check_options(layout: Layout, players: int, options: Mapping[str, Any]) -> None:
    """Only the 4-card layouts (GOLF4, GOLF4H)."""
    check_layout(RULE, layout, FOUR_CARD)


@hookimpl
def golf_scorer(layout: Layout) -> Scorer | None:
    """Score the plain sum of the points."""
    return no_cancel_scorer() if layout.is_four else None
