"""Speed's mutable, slotted state and its fixed table layout.

Zones: ``hand.<seat>`` (private to its owner), ``stock.<seat>`` and
``side.<seat>`` (face down, known to nobody), ``pile.L`` and ``pile.R`` (the
play piles, face up). Their integer ids are module constants.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from cardcore import GameState, Layout, Visibility, Zones, ZoneSpec
from cardcore_spit.actions import SIDES

__all__ = ["HAND", "HAND_SIZE", "NAMES", "PILE", "SEATS", "SIDE", "STOCK", "TABLE_LAYOUT", "SpeedState"]

SEATS = (0, 1)
"""The two seats (SPEED-GEN-1)."""
HAND_SIZE = 5
"""A full hand (SPEED-SETUP-3, SPEED-PLAY-2)."""

_SPECS = (
    *(ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in SEATS),
    *(ZoneSpec(f"stock.{s}", s, Visibility.NOBODY) for s in SEATS),
    *(ZoneSpec(f"side.{s}", s, Visibility.NOBODY) for s in SEATS),
    *(ZoneSpec(f"pile.{side}", None, Visibility.EVERYONE) for side in SIDES),
)
TABLE_LAYOUT = Layout.of(_SPECS)
"""Every pile of a Speed table."""
HAND: tuple[int, ...] = tuple(TABLE_LAYOUT.id(f"hand.{s}") for s in SEATS)
"""``HAND[seat]``: the zone of *seat*'s hand."""
STOCK: tuple[int, ...] = tuple(TABLE_LAYOUT.id(f"stock.{s}") for s in SEATS)
"""``STOCK[seat]``: the zone of *seat*'s stock (refills its hand)."""
SIDE: tuple[int, ...] = tuple(TABLE_LAYOUT.id(f"side.{s}") for s in SEATS)
"""``SIDE[seat]``: the zone of *seat*'s side pile (turned when both are stuck)."""
PILE: tuple[int, ...] = tuple(TABLE_LAYOUT.id(f"pile.{side}") for side in SIDES)
"""``PILE[p]``: the zone of play pile *p* (0 = ``L``, 1 = ``R``)."""
NAMES: tuple[str, ...] = tuple(spec.name for spec in _SPECS)
"""Zone names by id."""


class SpeedState(GameState):
    """The table of one Speed game (mutable, slotted).

    :ivar requests: Per seat, an outstanding ``stuck`` declaration.
    :ivar recycled: A recycle happened and no card was played since.
    """

    __slots__ = ("recycled", "requests")
    _mutable: ClassVar[tuple[str, ...] | None] = ("zones", "requests")

    def __init__(self, players: int, options: Mapping[str, Any], zones: Zones) -> None:
        super().__init__(players, options, zones)
        self.requests = [False, False]
        self.recycled = False
