"""GOLF4H-VAR-1: in the hand, any two cards of the same points cancel (the seed's "value")."""

from __future__ import annotations

from cardcore import RuleInfo, hookimpl
from cardcore_golf.grids import GridShape, Keys, Points, Scorer
from cardcore_golf.house._common import applies

__all__ = ["RULE", "golf_scorer", "same_value"]

RULE = RuleInfo(
    id="GOLF4H-VAR-1",
    name="golf.hand-same-value",
    game="golf",
    summary="4 cards in hand: any two cards worth the same points cancel (10, J, Q under BASIC)",
    conflicts=("golf.no-cancelling",),
    applies=applies("4h"),
)


def same_value(keys: Keys, points: Points) -> int:
    """Per value, floor(count / 2) pairs cancel; an odd card out scores its points (a bonus
    card's -2 among them: it cancels with another -2, not with its own rank)."""
    counts: dict[int, int] = {}
    for key, pts in zip(keys, points, strict=True):
        if key is not None:
            counts[pts] = counts.get(pts, 0) + 1
    return sum(pts for pts, count in counts.items() if count % 2)


@hookimpl
def golf_scorer(layout: GridShape) -> Scorer | None:
    """Cancel by points in the hand of GOLF4H; other layouts are left to the others."""
    return same_value if layout.key == "4h" else None
