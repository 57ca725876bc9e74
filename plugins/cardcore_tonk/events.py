"""Tonk's own events (besides the core's ``CardDrawn``, ``CardDiscarded``, ``TurnPassed``...).

Tuple-based immutable records (see :class:`cardcore.Event`): fields are
positional in declaration order; defaults are plain values.
"""

from __future__ import annotations

from typing import ClassVar

from cardcore import ALL, Card, Event, PaymentsMade

__all__ = ["DealerCut", "HandDealt", "HandEnded", "SpreadHit", "SpreadLaid"]


class DealerCut(Event):
    """The cut chose *dealer* as the first dealer (TONK-DEALER-1).

    *rounds* holds one row per round of the cut: the rank each seat cut
    (``"K"``, ``"10"``, ...), or ``None`` for a seat out of the tie.
    """

    slug: ClassVar[str] = "dealer-cut"
    dealer: int
    rounds: tuple[tuple[str | None, ...], ...]


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
    visible_to: int = ALL


class SpreadLaid(Event):
    """Seat *seat* laid spread number *number* (from 1) made of *cards*."""

    slug: ClassVar[str] = "spread-laid"
    seat: int
    number: int
    cards: tuple[Card, ...]


class SpreadHit(Event):
    """Seat *seat* added *card* to spread number *number*."""

    slug: ClassVar[str] = "spread-hit"
    seat: int
    number: int
    card: Card


class HandEnded(PaymentsMade):
    """Hand *hand* (from 1) ended for *reason* and was settled.

    A :class:`cardcore.PaymentsMade` (subscribers to it receive this event too):
    *amounts* are this hand's payouts (after the house rules' ``score_round``)
    and *totals* the running balances. *seat* won or dropped (or ``None``).
    When hands were shown (every hand after a drop or stock exhaustion, the
    naturals' after a natural or a void deal: TONK-DROP-1, TONK-VIEW-1),
    *shown* holds per seat its cards, sorted, or ``None`` for a hand not shown, and
    *hand_totals* their totals (``None`` likewise); otherwise both are ``None``.
    """

    slug: ClassVar[str] = "hand-ended"
    hand: int
    seat: int | None
    shown: tuple[tuple[Card, ...] | None, ...] | None = None
    hand_totals: tuple[int | None, ...] | None = None
