"""GOLF6-END-4: no final turns; the round ends as soon as a layout is complete."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore.info import RuleInfo
from cardcore.plugins import hookimpl
from cardcore_golf.house._common import SIX_FAMILY, check_layout
from cardcore_golf.logic import Layout

__all__ = ["RULE", "golf_check_options", "golf_final_turns"]

RULE = RuleInfo(
    id="GOLF6-END-4",
    name="golf.no-final-turns",
    game="golf",
    summary="No final turns: the round ends when a layout is complete",
    conflicts=("golf.final-stock-only",),
)


@hookimpl
def golf_check_options(layout: Layout, players: int, options: Mapping[str, Any]) -> None:
    """Only the grids whose round ends by completing a layout (GOLF6/8/9/10)."""
    check_layout(RULE, layout, SIX_FAMILY)


@hookimpl
def golf_final_turns(layout: Layout) -> bool:
    """No final turns."""
    return False
