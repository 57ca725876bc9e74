"""Speed for reinforcement learning: fixed action indices and the observation (``cardcore.rl``).

Plain Python (no numpy): :class:`SpeedEncoding` reads only a seat's view (its ``table``), so
two states the seat cannot tell apart encode alike. Cards are numbered 0..51 by rank, then
suit S-H-D-C, and 52 is a joker; the play piles are 0 (``L``) and 1 (``R``). Speed is a
real-time game: ``cardcore.rl`` turns it into decisions on the virtual clock (see
``docs/rl.rst``).

Actions (107 indices)::

    2 c + t    play card c onto play pile t    (0-105)
    106        stuck

Observation: a count block, then scalars.

* the seat's hand by card (53, copies counted) and by rank (14: 0 joker, 1 ace .. 13 king);
  each play pile's top card (53) and top rank (14); the observing seat (2);
* scalars: per seat (the observing seat first), its hand (over 5), stock and side pile (over
  15), declared stuck; the play piles' sizes (over 52).

Speed has no score reward: a game pays ``rewards="win"`` only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardcore import Action, standard_52
from cardcore_spit.actions import SIDES
from cardcore_spit.speed.actions import PlayCard, Stuck

if TYPE_CHECKING:
    from cardcore_spit.speed.logic import SpeedLogic

__all__ = ["SpeedEncoding"]

_SUITS = "SHDC"
_KIND = {"JK": 52} | {
    str(c): 4 * (int(c.rank) - 1) + _SUITS.index(c.suit.letter)
    for c in standard_52()
    if c.suit is not None
}
_RANK = {text: (0 if k == 52 else k // 4 + 1) for text, k in _KIND.items()}


class SpeedEncoding:
    """The fixed action set and observation of Speed (see the module).

    :param logic: The configuration's Speed logic.
    :param players: The number of seats (2).
    :param options: The resolved options.
    """

    needs = "table"
    actions = 107

    def __init__(self, logic: SpeedLogic, players: int, options: Mapping[str, Any]) -> None:
        self._cache: dict[int, tuple[Action, int]] = {}
        self._ranks = 53
        self._piles = 53 + 14
        self._me = self._piles + 2 * (53 + 14)
        self.planes = self._me + 2
        self.scalars = 2 * 4 + 2

    def action_names(self) -> Sequence[str]:
        """``play <card> L|R`` for every card, then ``stuck``."""
        names = ["?"] * 106
        for text, k in _KIND.items():
            for t, side in enumerate(SIDES):
                names[2 * k + t] = f"play {text} {side}"
        return [*names, "stuck"]

    def action_indices(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Sequence[int]:
        """The fixed index of each legal action (cached by the interned action)."""
        cache = self._cache
        out = []
        for action in legal:
            hit = cache.get(id(action))
            if hit is None or hit[0] is not action:
                if isinstance(action, PlayCard):
                    index = 2 * _KIND[str(action.card)] + action.target
                else:
                    index = 106 if isinstance(action, Stuck) else -1
                hit = cache[id(action)] = (action, index)
            out.append(hit[1])
        return out

    def observe(self, view: Mapping[str, Any]) -> tuple[Sequence[int], Sequence[float]]:
        """The count positions and scalars of the seat's view (see the module)."""
        seat: int = view["seat"]
        table = view["table"]
        kind = _KIND
        rank = _RANK
        hot: list[int] = []
        seats = table["seats"]
        ranks = self._ranks
        for card in seats[seat]["hand"]:
            if card is not None:
                hot.append(kind[card])
                hot.append(ranks + rank[card])
        scalars: list[float] = []
        for r in (0, 1):
            entry = seats[(seat + r) % 2]
            scalars.append(len(entry["hand"]) / 5.0)
            scalars.append(entry["stock"] / 15.0)
            scalars.append(entry["side"] / 15.0)
            scalars.append(1.0 if entry["requested"] else 0.0)
        piles = table["piles"]
        for p, side in enumerate(SIDES):
            cards = piles[side]
            base = self._piles + p * (53 + 14)
            if cards:
                hot.append(base + kind[cards[0]])
                hot.append(base + 53 + rank[cards[0]])
            scalars.append(len(cards) / 52.0)
        hot.append(self._me + seat)
        return hot, scalars

    def progress(self, view: Mapping[str, Any]) -> Sequence[float] | None:
        """None: Speed pays ``rewards="win"`` only."""
        return None
