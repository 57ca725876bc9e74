"""DRAW-VAR-3: seat 0 gets +100 each round (a ``score_round`` wrapper)."""

from __future__ import annotations

from collections.abc import Generator, Sequence

from cardcore import GameState, RuleInfo, hookimpl

RULE = RuleInfo("DRAW-VAR-3", "drawgame.penalty", "drawgame", "seat 0 gets +100")


@hookimpl(wrapper=True)
def score_round(
    state: GameState, scores: Sequence[int]
) -> Generator[None, Sequence[int], Sequence[int]]:
    inner = yield
    out = list(inner)
    out[0] += 100
    return out
