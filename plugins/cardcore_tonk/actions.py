"""Tonk's actions. Each is interned per seat by :class:`cardcore_tonk.game.TonkLogic`.

Notation (TONK-NOTE-1): ``drop``, ``draw``, ``take``, ``spread 5H 6H 7H``,
``hit 2 8H``, ``discard 9C``, and ``deal`` between the hands of a session.
"""

from __future__ import annotations

from typing import ClassVar

from attrs import frozen

from cardcore.actions import Action
from cardcore.cards import Card

__all__ = ["Deal", "Discard", "Draw", "Drop", "Hit", "Spread", "Take", "TonkAction"]


@frozen
class TonkAction(Action):
    """Base class of Tonk's actions; ``kind`` is a small int the logic dispatches on."""

    kind: ClassVar[int] = -1


@frozen
class Drop(TonkAction):
    """Drop at the start of the turn: show the hand and end it (TONK-TURN-2). Notation ``drop``."""

    verb: ClassVar[str] = "drop"
    kind: ClassVar[int] = 0


@frozen
class Draw(TonkAction):
    """Draw the top card of the stock (TONK-TURN-3). Notation ``draw``."""

    verb: ClassVar[str] = "draw"
    kind: ClassVar[int] = 1


@frozen
class Take(TonkAction):
    """Take the top card of the discard pile (TONK-TURN-3). Notation ``take``."""

    verb: ClassVar[str] = "take"
    kind: ClassVar[int] = 2


@frozen
class Spread(TonkAction):
    """Lay *cards* (sorted by rank, then suit) as a new spread. Notation ``spread 5H 6H 7H``."""

    cards: tuple[Card, ...]
    verb: ClassVar[str] = "spread"
    kind: ClassVar[int] = 3

    def __str__(self) -> str:
        return "spread " + " ".join(map(str, self.cards))


@frozen
class Hit(TonkAction):
    """Add *card* to spread *number* (from 1, as shown in the view). Notation ``hit 2 8H``."""

    number: int
    card: Card
    verb: ClassVar[str] = "hit"
    kind: ClassVar[int] = 4

    def __str__(self) -> str:
        return f"hit {self.number} {self.card}"


@frozen
class Discard(TonkAction):
    """Discard *card* face up, ending the turn. Notation ``discard 9C``."""

    card: Card
    verb: ClassVar[str] = "discard"
    kind: ClassVar[int] = 5

    def __str__(self) -> str:
        return f"discard {self.card}"


@frozen
class Deal(TonkAction):
    """Deal the next hand of the session (the new dealer, between hands). Notation ``deal``."""

    verb: ClassVar[str] = "deal"
    kind: ClassVar[int] = 6
