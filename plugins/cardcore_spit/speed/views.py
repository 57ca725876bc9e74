"""What each seat of a Speed game sees: the table's fields and their declaration (SPEED-VIEW-1)."""

from __future__ import annotations

from typing import Any

from cardcore import ViewField
from cardcore_spit.actions import SIDES
from cardcore_spit.speed.state import HAND, PILE, SEATS, SIDE, STOCK, SpeedState

__all__ = ["FIELDS", "held", "table"]

FIELDS = (
    ViewField(
        "piles",
        "json",
        "the play piles by letter (L, R): cards top first",
        label="play piles",
    ),
    ViewField(
        "seats",
        "per-seat",
        "per seat: hand (cards, null for each card the viewer may not see), stock and side"
        " (counts), requested (declared stuck)",
        of="json",
    ),
)
"""The declared fields of Speed's ``table`` (``GameInfo.fields``)."""


def held(state: SpeedState, seat: int) -> int:
    """How many cards *seat* still holds in hand and stock (fewer is better)."""
    cards = state.zones.cards
    return len(cards[HAND[seat]]) + len(cards[STOCK[seat]])


def table(state: SpeedState, seat: int | None) -> dict[str, Any]:
    """Return the game's part of *seat*'s view (``None``: a spectator): a hand only to its owner."""
    zones = state.zones
    return {
        "piles": {SIDES[p]: zones.show(PILE[p], seat) for p in (0, 1)},
        "seats": [
            {
                "hand": zones.show(HAND[s], seat),
                "stock": zones.count(STOCK[s]),
                "side": zones.count(SIDE[s]),
                "requested": state.requests[s],
            }
            for s in SEATS
        ],
    }
