"""TONK-49-1..3: a dealt hand of 49 or 50 is a natural tonk (a default rule).

Right after the deal every hand is totalled. One natural collects 2S from every
other player (TONK-49-1); two or more void the hand (TONK-49-2). Only the dealt
hand counts (TONK-49-3): the check runs after the deal and never again.
Switch it off with ``without=("tonk.natural-49-50",)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cardcore import RuleInfo, hookimpl
from cardcore_tonk.melds import DealVerdict, pay_from_each

__all__ = ["NATURAL_TOTALS", "RULE", "judge", "tonk_deal_judge"]

NATURAL_TOTALS = frozenset({49, 50})
"""Dealt totals that make a natural tonk."""

RULE = RuleInfo(
    id="TONK-49-1",
    name="tonk.natural-49-50",
    game="tonk",
    summary="A dealt hand totalling 49 or 50 wins 2S from each player; two or more void the hand",
    conflicts=(),
)


def judge(hands: Sequence[Sequence[int]], points: Sequence[int]) -> DealVerdict | None:
    """Return the verdict on the dealt *hands* (card indices), or ``None`` to play the hand.

    :param hands: Each seat's five dealt cards as indices.
    :param points: Card values by index.
    :returns: ``natural`` (2S from each, TONK-49-1), ``void`` (no payment,
        TONK-49-2) or ``None``.
    """
    value = points.__getitem__
    totals = [sum(map(value, hand)) for hand in hands]
    if NATURAL_TOTALS.isdisjoint(totals):
        return None
    naturals = [s for s, total in enumerate(totals) if total in NATURAL_TOTALS]
    if len(naturals) > 1:
        return DealVerdict("void", None, (0,) * len(hands), redeal=True, shown=tuple(naturals))
    seat = naturals[0]  # only the holder shows (TONK-49-1): the other hands stay hidden
    return DealVerdict("natural", seat, tuple(pay_from_each(seat, len(hands), 2)), shown=(seat,))


@hookimpl
def tonk_deal_judge() -> Callable[[Sequence[Sequence[int]], Sequence[int]], DealVerdict | None]:
    """TONK-49-1: judge every deal for naturals."""
    return judge
