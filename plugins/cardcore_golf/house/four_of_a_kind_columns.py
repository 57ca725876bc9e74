"""GOLF6-VAR-3: two adjacent same-rank column pairs score 0 and give every other player +10."""

from __future__ import annotations

from collections.abc import Sequence

from cardcore import RuleInfo, hookimpl
from cardcore_golf.grids import GridShape, has_adjacent_quad
from cardcore_golf.house._common import TWO_ROW, applies

__all__ = ["AWARD", "RULE", "golf_round_awards"]

RULE = RuleInfo(
    id="GOLF6-VAR-3",
    name="golf.four-of-a-kind-columns",
    game="golf",
    summary="Four of a kind in two adjacent columns: every other player gets +10",
    conflicts=("golf.remove-columns",),
    applies=applies(*TWO_ROW),
)

AWARD = 10
"""Points given to every other player, once per player holding such columns."""


@hookimpl
def golf_round_awards(layout: GridShape, keys: Sequence[Sequence[int | None]]) -> list[int]:
    """+10 to every other seat for each seat holding adjacent four-of-a-kind columns.

    The columns themselves already score 0 as two column pairs (GOLF6-SCORE-1).
    """
    extra = [0] * len(keys)
    for seat, grid in enumerate(keys):
        if has_adjacent_quad(grid, layout.cols):
            for other in range(len(keys)):
                if other != seat:
                    extra[other] += AWARD
    return extra
