"""Tonk's own events (besides the core's ``CardDrawn``, ``CardDiscarded``, ``PaymentsMade``...)."""

from __future__ import annotations

from typing import ClassVar

from attrs import field, frozen

from cardcore.cards import Card
from cardcore.events import Event
from cardcore.zones import ALL

__all__ = ["HandDealt", "HandEnded", "HandShown", "SpreadHit", "SpreadLaid"]


@frozen
class HandDealt(Event):
    """Hand *hand* (from 1) was dealt by *dealer*; *upcard* starts the discard pile (or ``None``).

    *cards* is the receiving seat's own five cards; it is secret to everyone
    else (the event is published once per seat, ``visible_to`` that seat).
    """

    slug: ClassVar[str] = "hand-dealt"
    secret: ClassVar[tuple[str, ...]] = ("cards",)
    hand: int
    dealer: int
    seat: int
    upcard: Card | None
    cards: tuple[Card, ...] | None
    visible_to: int = field(default=ALL, kw_only=True)


@frozen
class SpreadLaid(Event):
    """Seat *seat* laid spread number *number* (from 1) made of *cards*."""

    slug: ClassVar[str] = "spread-laid"
    seat: int
    number: int
    cards: tuple[Card, ...]


@frozen
class SpreadHit(Event):
    """Seat *seat* added *card* to spread number *number*."""

    slug: ClassVar[str] = "spread-hit"
    seat: int
    number: int
    card: Card


@frozen
class HandShown(Event):
    """Seat *seat* showed *cards* (total *total*) at the end of a hand (TONK-DROP-1, TONK-VIEW-1)."""

    slug: ClassVar[str] = "hand-shown"
    seat: int
    cards: tuple[Card, ...]
    total: int


@frozen
class HandEnded(Event):
    """Hand *hand* ended for *reason*; *seat* is the winner or dropper (or ``None``); *amounts* were paid."""

    slug: ClassVar[str] = "hand-ended"
    hand: int
    reason: str
    seat: int | None
    amounts: tuple[int, ...]
