"""The actions of Spit and Speed, their notation and the claim rule value.

Every action is a frozen value whose ``str()`` is its notation (SPIT-NOTE-1,
SPEED-NOTE-1). The games build each possible action once and hand out the same
objects from ``legal_actions``. Pile numbers are stored 0-based and written
1-based; spit piles are written ``L`` (started by seat 0) and ``R`` (seat 1).
"""

from __future__ import annotations

from typing import ClassVar

from attrs import frozen

from cardcore.actions import Action
from cardcore.cards import Card

__all__ = [
    "SIDES",
    "Claim",
    "ClaimRule",
    "Combine",
    "Fill",
    "Play",
    "PlayCard",
    "Ready",
    "RequestSpit",
    "Stuck",
]

#: The letters of the two centre piles, by index.
SIDES = ("L", "R")


@frozen
class Play(Action):
    """Seat *seat* plays the top card of its pile *pile* onto centre pile *target*.

    Notation ``play 3 L`` (pile 3 onto the left spit pile).
    """

    pile: int
    target: int
    verb: ClassVar[str] = "play"

    def __str__(self) -> str:
        return f"play {self.pile + 1} {SIDES[self.target]}"


@frozen
class Combine(Action):
    """Seat *seat* moves the top card of pile *src* onto pile *dst* of the same rank.

    Notation ``combine 2 4`` (pile 2 onto pile 4).
    """

    src: int
    dst: int
    verb: ClassVar[str] = "combine"

    def __str__(self) -> str:
        return f"combine {self.src + 1} {self.dst + 1}"


@frozen
class Fill(Action):
    """Seat *seat* moves the top card of pile *src* into its empty position *dst*.

    Notation ``fill 5 1`` (pile 5's top card into the empty position 1).
    """

    src: int
    dst: int
    verb: ClassVar[str] = "fill"

    def __str__(self) -> str:
        return f"fill {self.src + 1} {self.dst + 1}"


@frozen
class Ready(Action):
    """Seat *seat* ends its setup (notation ``ready``)."""

    verb: ClassVar[str] = "ready"


@frozen
class RequestSpit(Action):
    """Seat *seat* asks for a spit: it is stuck or does not want to play (``spit``)."""

    verb: ClassVar[str] = "spit"


@frozen
class Claim(Action):
    """Seat *seat* claims centre pile *target* at the end of a deal.

    The verb comes from the configuration's claim rule (``slap L`` by default).
    """

    target: int
    word: str = "slap"
    verb: ClassVar[str] = "claim"

    def __str__(self) -> str:
        return f"{self.word} {SIDES[self.target]}"


@frozen
class ClaimRule:
    """How the spit piles are claimed when a two-pile deal ends.

    :param word: The action word (``"slap"``).
    :param emptier_only: ``True`` if only the player who emptied the layout claims.
    :param rule_id: The rule ID cited by claim actions.
    """

    word: str
    emptier_only: bool
    rule_id: str


@frozen
class PlayCard(Action):
    """Speed: seat *seat* plays *card* from its hand onto play pile *target*.

    Notation ``play 7H L``.
    """

    card: Card
    target: int
    verb: ClassVar[str] = "play"

    def __str__(self) -> str:
        return f"play {self.card} {SIDES[self.target]}"


@frozen
class Stuck(Action):
    """Speed: seat *seat* declares it is stuck (notation ``stuck``)."""

    verb: ClassVar[str] = "stuck"
