"""The actions: ``draw`` and ``stand`` (HC-TURN-1)."""

from __future__ import annotations

from typing import ClassVar

from attrs import frozen

from cardcore import Action


@frozen
class Draw(Action):
    """Seat *seat* draws the top card of the stock into its hand."""

    verb: ClassVar[str] = "draw"


@frozen
class Stand(Action):
    """Seat *seat* stops drawing for the rest of the game."""

    verb: ClassVar[str] = "stand"


HighAction = Draw | Stand
"""Every action of the game."""
