"""DRAW-VAR-4: raises when a round is scored (for the tests of plugin errors)."""

from __future__ import annotations

from collections.abc import Sequence

from cardcore import GameState, RuleInfo, hookimpl

RULE = RuleInfo("DRAW-VAR-4", "drawgame.boom", "drawgame", "raises when scoring")


@hookimpl
def score_round(state: GameState, scores: Sequence[int]) -> Sequence[int]:
    msg = "boom"
    raise RuntimeError(msg)
