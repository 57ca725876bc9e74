"""GOLF-SCORE-2: the HARD table (J 11, Q 12, K 13) replaces BASIC."""

from __future__ import annotations

from cardcore import Rank, RuleInfo, ScoreTable, hookimpl
from cardcore_golf.grids import BASIC_POINTS, GridShape

__all__ = ["HARD", "HARD_POINTS", "RULE", "golf_score_table"]

RULE = RuleInfo(
    id="GOLF-SCORE-2",
    name="golf.hard",
    game="golf",
    summary="Harder scoring: jacks 11, queens 12, kings 13",
)

#: The HARD table by rank key (A 1, 2-10 face value, J 11, Q 12, K 13).
HARD_POINTS = {**BASIC_POINTS, 11: 11, 12: 12, 13: 13}

#: The HARD table (GOLF-SCORE-2).
HARD = ScoreTable.from_ranks({Rank(k): v for k, v in HARD_POINTS.items()})


@hookimpl
def golf_score_table(layout: GridShape) -> ScoreTable:
    """Swap in the HARD table for every layout (GOLF-SCORE-2, GOLF-SCORE-3)."""
    return HARD
