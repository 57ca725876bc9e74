"""A house rule for ``drawgame``: no round scores more than 20 (post-process scores)."""

from __future__ import annotations

from collections.abc import Generator, Sequence

from cardcore import GameState, RuleInfo, hookimpl

RULE = RuleInfo(
    id="DOCS-VAR-3", name="drawgame.cap-20", game="drawgame", summary="Round scores cap at 20"
)


@hookimpl(wrapper=True)
def score_round(
    state: GameState, scores: Sequence[int]
) -> Generator[None, Sequence[int], Sequence[int]]:
    """Let the game (and the core's default) score, then cap each seat's score at 20."""
    inner = yield
    return [min(score, 20) for score in inner]
