"""Go Fish's one action: ``ask <seat> <rank>``, e.g. ``ask 2 Q`` (GOFISH-ASK-1)."""

from __future__ import annotations

from typing import ClassVar

from attrs import frozen

from cardcore import Action, Rank

RANKS = tuple(Rank(n).label for n in range(1, 14))
"""The rank words of the notation, low to high: ``A``, ``2`` ... ``10``, ``J``, ``Q``, ``K``."""
BIT = {rank: 1 << i for i, rank in enumerate(RANKS)}
"""Each rank's bit in a rank mask (``GoFishState.asked``)."""


@frozen
class Ask(Action):
    """Seat *seat* asks seat *target* for every card of *rank* (a word of :data:`RANKS`)."""

    target: int
    rank: str
    verb: ClassVar[str] = "ask"

    def notation(self) -> str:
        return f"ask {self.target} {self.rank}"
