"""GOLF9-4: a complete face-up triple goes to the bottom of the discard pile."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcore.info import RuleInfo
from cardcore.plugins import hookimpl
from cardcore_golf.house._common import check_layout
from cardcore_golf.logic import Layout, grid_lines

__all__ = ["RULE", "golf_check_options", "golf_removable_groups"]

RULE = RuleInfo(
    id="GOLF9-4",
    name="golf.remove-triples",
    game="golf",
    summary="9-card Golf: cancelled triples are removed to the bottom of the discard pile",
)


@hookimpl
def golf_check_options(layout: Layout, players: int, options: Mapping[str, Any]) -> None:
    """Only the 3 x 3 grid (GOLF9)."""
    check_layout(RULE, layout, {"9"})


@hookimpl
def golf_removable_groups(layout: Layout) -> Sequence[Sequence[int]] | None:
    """The rows and columns of the 3 x 3 grid."""
    return grid_lines(layout) if layout.key == "9" else None
