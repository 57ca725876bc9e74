"""Golf's own events (the core's ``CardDrawn``, ``CardDiscarded``, ``CardRevealed``,
``Shuffled``, ``TurnPassed`` and ``RoundScored`` cover the rest).

Events are the core's tuple-based records: fields in declaration order, defaults plain values.
"""

from __future__ import annotations

from typing import Any, ClassVar

from cardcore import ALL, Card, Event, TurnPassed

__all__ = ["CardPlaced", "GroupRemoved", "Knocked", "LayoutCompleted", "LayoutsRevealed"]


class CardPlaced(Event):
    """Seat *seat* put its held *card* at position *pos* (hidden outside ``visible_to``)."""

    slug: ClassVar[str] = "golf-card-placed"
    secret: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    pos: int
    card: Card | None
    visible_to: int = ALL


class Knocked(Event):
    """Seat *seat* knocked: every other player has one final turn (GOLF4-KNOCK-1)."""

    slug: ClassVar[str] = "golf-knocked"
    seat: int


class LayoutCompleted(Event):
    """Seat *seat* has no face-down card left (GOLF6-END-1): final turns begin, unless a
    house rule has none or the turn cap ends the round on that turn."""

    slug: ClassVar[str] = "golf-layout-completed"
    seat: int


class GroupRemoved(Event):
    """Seat *seat*'s cancelled cards at *positions* went to the bottom of the discard pile."""

    slug: ClassVar[str] = "golf-group-removed"
    seat: int
    positions: tuple[int, ...]
    cards: tuple[Card, ...]


class LayoutsRevealed(Event):
    """Round *round* ended: every layout, revealed (row-major; ``None`` = removed position).

    Published just before the core's ``round-scored`` event (GOLF-ROUND-1).
    """

    slug: ClassVar[str] = "golf-layouts-revealed"
    round: int
    grids: tuple[tuple[Card | None, ...], ...]
    ender: int | None


# for the hot path: an event built from its full tuple of fields (the class call runs a
# Python __new__, about twice the cost), and the turn passes built once (events are immutable)
new_event: Any = tuple.__new__
TURN_PASSED = tuple(TurnPassed(s) for s in range(64))
GRID_ZONES = tuple(f"grid.{s}" for s in range(64))
