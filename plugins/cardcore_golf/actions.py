"""Golf actions and their text notation (GOLF-NOTE-1).

=================  ==========  ==============================================================
notation           short form  meaning
=================  ==========  ==============================================================
``draw``           ``d``       take the top stock card (GOLF-TURN-1)
``take``           ``t``       take the top discard (GOLF-TURN-1)
``replace POS``    ``r POS``   put the held card at position POS; the old card is discarded
``discard``        ``x``       discard the card drawn from the stock (GOLF-TURN-2)
``flip POS``       ``f POS``   setup: turn a card face up (GOLF6-SETUP-2, GOLF9-1)
``peek POS``       ``p POS``   setup: look at a card privately (GOLF4-SETUP-2)
``knock``          ``k``       GOLF4/4H: end the round after one more turn each (GOLF4-KNOCK-1)
=================  ==========  ==============================================================

Positions are numbered row-major from 0, far row first. Every action is interned per seat by
the logic, so ``legal_actions`` hands out the same objects every time.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
from attrs import frozen
from typing_extensions import Self, override

from cardcore.actions import Action

__all__ = [
    "DISCARD",
    "DRAW",
    "FLIP",
    "KNOCK",
    "PEEK",
    "REPLACE",
    "TAKE",
    "Discard",
    "Draw",
    "Flip",
    "GolfAction",
    "Knock",
    "Peek",
    "Replace",
    "Take",
]

DRAW, TAKE, REPLACE, DISCARD, FLIP, PEEK, KNOCK = range(7)


_INTERNED: dict[tuple[Any, ...], GolfAction] = {}


@frozen(eq=False)
class GolfAction(Action):
    """Base of Golf's actions; ``kind`` is a small int the logic dispatches on.

    Golf actions are interned: ``Replace(0, 3) is Replace(0, 3)``, so equality and hashing
    are by identity, which keeps the driver's legality check (``action in legal``) in C.
    Copies and unpickled actions come back as the interned objects.
    """

    kind: ClassVar[int] = -1

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        names = [a.name for a in attrs.fields(cls)]
        values = list(args) + [kwargs[n] for n in names[len(args) :] if n in kwargs]
        key = (cls, *values)
        found = _INTERNED.get(key)
        if found is None:  # setdefault is atomic: racing threads get the same object
            found = _INTERNED.setdefault(key, object.__new__(cls))
        return found  # type: ignore[return-value]

    def __reduce__(self) -> tuple[type[Self], tuple[Any, ...]]:
        return type(self), attrs.astuple(self, recurse=False)

    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__


@frozen(eq=False)
class Draw(GolfAction):
    """Seat *seat* takes the top card of the stock (``draw``)."""

    verb: ClassVar[str] = "draw"
    kind: ClassVar[int] = DRAW


@frozen(eq=False)
class Take(GolfAction):
    """Seat *seat* takes the top card of the discard pile (``take``)."""

    verb: ClassVar[str] = "take"
    kind: ClassVar[int] = TAKE


@frozen(eq=False)
class Discard(GolfAction):
    """Seat *seat* discards the card it drew from the stock (``discard``)."""

    verb: ClassVar[str] = "discard"
    kind: ClassVar[int] = DISCARD


@frozen(eq=False)
class Knock(GolfAction):
    """Seat *seat* knocks instead of drawing (``knock``; GOLF4 and GOLF4H only)."""

    verb: ClassVar[str] = "knock"
    kind: ClassVar[int] = KNOCK


@frozen(eq=False)
class Replace(GolfAction):
    """Seat *seat* puts its held card at position *pos* (``replace 3``)."""

    pos: int
    verb: ClassVar[str] = "replace"
    kind: ClassVar[int] = REPLACE

    @override
    def __str__(self) -> str:
        return f"replace {self.pos}"


@frozen(eq=False)
class Flip(GolfAction):
    """Setup: seat *seat* turns its card at *pos* face up (``flip 2``)."""

    pos: int
    verb: ClassVar[str] = "flip"
    kind: ClassVar[int] = FLIP

    @override
    def __str__(self) -> str:
        return f"flip {self.pos}"


@frozen(eq=False)
class Peek(GolfAction):
    """Setup (GOLF4): seat *seat* looks at its card at *pos* (``peek 0``)."""

    pos: int
    verb: ClassVar[str] = "peek"
    kind: ClassVar[int] = PEEK

    @override
    def __str__(self) -> str:
        return f"peek {self.pos}"
