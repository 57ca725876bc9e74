"""Golf's own events (the core's ``CardDrawn``, ``CardDiscarded``, ``CardRevealed``,
``Shuffled``, ``TurnPassed`` and ``RoundScored`` cover the rest)."""

from __future__ import annotations

from typing import ClassVar

from attrs import field, frozen

from cardcore.cards import Card
from cardcore.events import Event
from cardcore.zones import ALL

__all__ = ["CardPlaced", "GroupRemoved", "Knocked", "LayoutCompleted", "LayoutsRevealed"]


@frozen
class CardPlaced(Event):
    """Seat *seat* put its held *card* at position *pos* (hidden outside ``visible_to``)."""

    slug: ClassVar[str] = "golf-card-placed"
    secret: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    pos: int
    card: Card | None
    visible_to: int = field(default=ALL, kw_only=True)


@frozen
class Knocked(Event):
    """Seat *seat* knocked: every other player has one final turn (GOLF4-KNOCK-1)."""

    slug: ClassVar[str] = "golf-knocked"
    seat: int


@frozen
class LayoutCompleted(Event):
    """Seat *seat* has no face-down card left; final turns begin (GOLF6-END-1)."""

    slug: ClassVar[str] = "golf-layout-completed"
    seat: int


@frozen
class GroupRemoved(Event):
    """Seat *seat*'s cancelled cards at *positions* went to the bottom of the discard pile."""

    slug: ClassVar[str] = "golf-group-removed"
    seat: int
    positions: tuple[int, ...]
    cards: tuple[Card, ...]


@frozen
class LayoutsRevealed(Event):
    """Round *round* ended: every layout, revealed (row-major; ``None`` = removed position).

    Published just before the core's ``round-scored`` event (GOLF-ROUND-1).
    """

    slug: ClassVar[str] = "golf-layouts-revealed"
    round: int
    grids: tuple[tuple[Card | None, ...], ...]
    ender: int | None
