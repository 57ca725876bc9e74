"""SPIT-SETUP-5 (house rule ``spit.canfield``): the Canfield-style layout.

Piles 1-4 hold one face-up card each; pile 5 holds ten face-down cards under one
face-up card. With fewer than 15 cards piles 1-4 get one card each in order and
pile 5 the rest (if any).
"""

from __future__ import annotations

from cardcore import RuleInfo, hookimpl

__all__ = ["RULE", "canfield_order", "spit_deal_order"]

RULE = RuleInfo(
    id="SPIT-SETUP-5",
    name="spit.canfield",
    game="spit",
    summary="Canfield-style layout: four single face-up cards and one pile of 10 face down + 1",
)
"""The rule's description."""


def canfield_order(cards: int) -> tuple[int, ...]:
    """Return the layout pile of each laid-out card (SPIT-SETUP-5).

    >>> canfield_order(6)
    (0, 1, 2, 3, 4, 4)

    :param cards: How many cards the player holds.
    :returns: Pile indices (0-based), at most 15 of them.
    """
    n = min(cards, 15)
    return tuple(range(min(n, 4))) + (4,) * max(n - 4, 0)


@hookimpl
def spit_deal_order(cards: int) -> tuple[int, ...]:
    """Lay out Canfield-style (SPIT-SETUP-5)."""
    return canfield_order(cards)
