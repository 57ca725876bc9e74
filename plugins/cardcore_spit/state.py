"""Spit's mutable, slotted state and its fixed table layout.

Zones: ``layout.<seat>.<pile>`` (pile 1..5, face down, the face-up top known to
all), ``spit.<seat>`` (face down, known to nobody), ``pile.L`` and ``pile.R``
(the spit piles, face up). Their integer ids are module constants, the same for
every configuration.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from cardcore import GameState, Layout, Visibility, Zones, ZoneSpec
from cardcore_spit.actions import SIDES
from cardcore_spit.piles import PILES

__all__ = [
    "CENTRE",
    "CLAIM",
    "LAY",
    "NAMES",
    "OVER",
    "PHASE_NAMES",
    "PLAY",
    "SEATS",
    "SETUP",
    "SPIT",
    "TABLE_LAYOUT",
    "SpitState",
]

SETUP = 0
"""Phase: laying out and combining before the deal starts (SPIT-SETUP-6)."""
PLAY = 1
"""Phase: real-time play (SPIT-MOVE-1)."""
CLAIM = 2
"""Phase: a two-pile deal ended, the spit piles are claimed (SPIT-RT-3)."""
OVER = 3
"""Phase: the game is over."""
PHASE_NAMES = ("setup", "play", "claim", "over")
"""The phases by number, as views and positions write them."""

SEATS = (0, 1)
"""The two seats (SPIT-GEN-1)."""

_SPECS = (
    *(ZoneSpec(f"layout.{s}.{k + 1}", s, Visibility.NOBODY) for s in SEATS for k in range(PILES)),
    *(ZoneSpec(f"spit.{s}", s, Visibility.NOBODY) for s in SEATS),
    *(ZoneSpec(f"pile.{side}", None, Visibility.EVERYONE) for side in SIDES),
)
TABLE_LAYOUT = Layout.of(_SPECS)
"""Every pile of a Spit table."""
LAY: tuple[tuple[int, ...], ...] = tuple(
    tuple(TABLE_LAYOUT.id(f"layout.{s}.{k + 1}") for k in range(PILES)) for s in SEATS
)
"""``LAY[seat][k]``: the zone of pile *k* (0-based) of *seat*'s layout."""
SPIT: tuple[int, ...] = tuple(TABLE_LAYOUT.id(f"spit.{s}") for s in SEATS)
"""``SPIT[seat]``: the zone of *seat*'s spit cards (its face-down reserve)."""
CENTRE: tuple[int, ...] = tuple(TABLE_LAYOUT.id(f"pile.{side}") for side in SIDES)
"""``CENTRE[p]``: the zone of spit pile *p* (0 = ``L``, 1 = ``R``)."""
NAMES: tuple[str, ...] = tuple(spec.name for spec in _SPECS)
"""Zone names by id."""


class SpitState(GameState):
    """The table of one Spit game (mutable, slotted).

    :ivar phase: :data:`SETUP`, :data:`PLAY`, :data:`CLAIM` or :data:`OVER`.
    :ivar deal: The current deal, from 1.
    :ivar single: ``-1`` in two-pile mode, else the seat whose pile is the only one.
    :ivar ready: Per seat, whether it declared ``ready`` this deal.
    :ivar requests: Per seat, an outstanding spit request.
    :ivar stall: Actions in a row without progress (SPIT-STUCK-3 c).
    :ivar recycled: A recycle happened and no layout card reached a spit pile since.
    :ivar emptier: The seat that emptied its layout (``-1`` while the deal runs).
    :ivar summary0: Seat 0's cached ``cardcore_spit.legality.summary``, or ``-1``
        (an int: clones share it); the logic forgets it whenever that layout changes.
    :ivar summary1: The same for seat 1.
    """

    __slots__ = (
        "deal",
        "emptier",
        "phase",
        "ready",
        "recycled",
        "requests",
        "single",
        "stall",
        "summary0",
        "summary1",
    )
    _mutable: ClassVar[tuple[str, ...] | None] = ("zones", "ready", "requests")

    def __init__(self, players: int, options: Mapping[str, Any], zones: Zones) -> None:
        super().__init__(players, options, zones)
        self.phase = SETUP
        self.deal = 0
        self.single = -1
        self.ready = [False, False]
        self.requests = [False, False]
        self.stall = 0
        self.recycled = False
        self.emptier = -1
        self.summary0 = -1
        self.summary1 = -1

    def snapshot(self) -> dict[str, Any]:
        """Every slot as JSON-ready data, except the summaries (a cache the piles determine)."""
        out = super().snapshot()
        del out["summary0"], out["summary1"]
        return out

    def active(self) -> tuple[int, ...]:
        """The spit piles in use: both, or the single pile (SPIT-END-5)."""
        return SEATS if self.single < 0 else (self.single,)
