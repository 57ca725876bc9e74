"""Events of Spit and Speed (past tense, each with a slug).

Card movements use the core's :class:`~cardcore.CardMoved` and
:class:`~cardcore.CardRevealed`; these are the games' own facts.
"""

from __future__ import annotations

from typing import ClassVar

from cardcore import Card, Event

__all__ = [
    "CardSpat",
    "CentreRecycled",
    "DealEnded",
    "DealStarted",
    "DealVoided",
    "PileClaimed",
    "PlayStarted",
]


class DealStarted(Event):
    """Deal *deal* (from 1) was laid out; *counts* cards per seat; *single* = one spit pile."""

    slug: ClassVar[str] = "deal-started"
    deal: int
    counts: tuple[int, ...]
    single: bool


class PlayStarted(Event):
    """Both players are ready: play of deal *deal* began."""

    slug: ClassVar[str] = "play-started"
    deal: int


class CardSpat(Event):
    """Seat *seat* turned *card* from its reserve onto centre pile *pile* (``"L"``/``"R"``)."""

    slug: ClassVar[str] = "card-spat"
    seat: int
    card: Card
    pile: str


class CentreRecycled(Event):
    """The centre piles were recycled: *counts* cards went back to each seat's reserve."""

    slug: ClassVar[str] = "centre-recycled"
    counts: tuple[int, ...]


class DealVoided(Event):
    """Deal *deal* was void (nobody could progress): every player lays out again."""

    slug: ClassVar[str] = "deal-voided"
    deal: int


class DealEnded(Event):
    """Seat *emptier* emptied its layout and ended deal *deal*."""

    slug: ClassVar[str] = "deal-ended"
    deal: int
    emptier: int


class PileClaimed(Event):
    """Seat *seat* claimed centre pile *pile* (*count* cards) with *word* (``"slap"``)."""

    slug: ClassVar[str] = "pile-claimed"
    seat: int
    pile: str
    count: int
    word: str
