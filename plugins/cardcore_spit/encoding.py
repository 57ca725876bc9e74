"""Spit for reinforcement learning: fixed action indices and the observation (``cardcore.rl``).

Plain Python (no numpy): :class:`SpitEncoding` reads only a seat's view (its ``table``), so
two states the seat cannot tell apart encode alike. Layout piles are numbered 0-4 (written
1-5), the spit piles 0 (``L``) and 1 (``R``); seat blocks are relative (the observing seat
first), the spit piles absolute (a one-hot says which seat observes). Spit is a real-time
game: ``cardcore.rl`` turns it into decisions on the virtual clock (see ``docs/rl.rst``).

Actions (64 indices)::

    2 k + t          play pile k onto spit pile t           (0-9)
    10 + 5 j + i     combine pile j onto pile i              (10-34; j == i never legal)
    35 + 5 j + i     fill the empty position i from pile j   (35-59; j == i never legal)
    60 ready   61 spit   62 claim L (slap or choose)   63 claim R

Observation: a count block, then scalars.

* per seat and layout pile, the top card's rank (14: 0 ace .. 12 king, 13 empty); per spit
  pile, its top rank likewise (14: 13 empty or not in use); the phase (4: setup, play, claim,
  over); the seat that emptied its layout (3: me, the other, none); the observing seat (2);
* scalars: per seat and pile, its size and its face-down cards (over 13); per seat, its spit
  cards (over 26), the cards it holds (over 52), ready, asked for a spit; the spit piles'
  sizes (over 52); single-pile mode; the stall count over its limit; the deal (over 10).

Spit has no score reward: a game pays ``rewards="win"`` only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardcore import Action, standard_52
from cardcore_spit.actions import SIDES, Claim, Combine, Fill, Play, Ready, RequestSpit

if TYPE_CHECKING:
    from cardcore_spit.logic import SpitLogic

__all__ = ["SpitEncoding"]

_RANK = {str(c): int(c.rank) - 1 for c in standard_52()}
_PHASES = {"setup": 0, "play": 1, "claim": 2, "over": 3}


def _index(action: Action) -> int:
    if isinstance(action, Play):
        return 2 * action.pile + action.target
    if isinstance(action, Combine):
        return 10 + 5 * action.src + action.dst
    if isinstance(action, Fill):
        return 35 + 5 * action.src + action.dst
    if isinstance(action, Ready):
        return 60
    if isinstance(action, RequestSpit):
        return 61
    if isinstance(action, Claim):
        return 62 + action.target
    return -1


class SpitEncoding:
    """The fixed action set and observation of Spit (see the module).

    :param logic: The configuration's Spit logic.
    :param players: The number of seats (2).
    :param options: The resolved options.
    """

    needs = "table"
    actions = 64

    def __init__(self, logic: SpitLogic, players: int, options: Mapping[str, Any]) -> None:
        self.stall_limit = float(options["stall_limit"])
        self.claim = logic.claim.word
        self._cache: dict[int, tuple[Action, int]] = {}
        self._centre = 2 * 5 * 14
        self._phase = self._centre + 2 * 14
        self._emptier = self._phase + 4
        self._me = self._emptier + 3
        self.planes = self._me + 2
        self.scalars = 2 * 5 * 2 + 2 * 4 + 2 + 3

    def action_names(self) -> Sequence[str]:
        """The notation of each index (``play 1 L`` ... ``slap R``; see the module)."""
        r = range(5)
        return [
            *(f"play {k + 1} {side}" for k in r for side in SIDES),
            *(f"combine {j + 1} {i + 1}" for j in r for i in r),
            *(f"fill {j + 1} {i + 1}" for j in r for i in r),
            "ready",
            "spit",
            *(f"{self.claim} {side}" for side in SIDES),
        ]

    def action_indices(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Sequence[int]:
        """The fixed index of each legal action (cached by the interned action)."""
        cache = self._cache
        out = []
        for action in legal:
            hit = cache.get(id(action))
            if hit is None or hit[0] is not action:
                hit = cache[id(action)] = (action, _index(action))
            out.append(hit[1])
        return out

    def observe(self, view: Mapping[str, Any]) -> tuple[Sequence[int], Sequence[float]]:
        """The count positions and scalars of the seat's view (see the module)."""
        seat: int = view["seat"]
        table = view["table"]
        rank = _RANK
        hot: list[int] = []
        scalars: list[float] = []
        seats = table["seats"]
        per_seat: list[float] = []
        base = 0
        for r in (0, 1):
            entry = seats[(seat + r) % 2]
            for pile in entry["layout"]:
                top = pile[0] if pile else None
                hot.append(base + (13 if top is None else rank[top]))
                scalars.append(len(pile) / 13.0)
                scalars.append(sum(1 for c in pile if c is None) / 13.0)
                base += 14
            per_seat.append(entry["spit_cards"] / 26.0)
            per_seat.append(entry["cards"] / 52.0)
            per_seat.append(1.0 if entry["ready"] else 0.0)
            per_seat.append(1.0 if entry["requested"] else 0.0)
        scalars.extend(per_seat)
        piles = table["piles"]
        for p, side in enumerate(SIDES):
            cards = piles[side] or []
            top = cards[0] if cards else None
            hot.append(self._centre + 14 * p + (13 if top is None else rank[top]))
            scalars.append(len(cards) / 52.0)
        hot.append(self._phase + _PHASES[table["phase"]])
        emptier = table["emptier"]
        hot.append(self._emptier + (2 if emptier is None else (emptier - seat) % 2))
        hot.append(self._me + seat)
        scalars.append(1.0 if table["mode"] == "single-pile" else 0.0)
        scalars.append(table["stall"] / self.stall_limit)
        scalars.append(table["deal"] / 10.0)
        return hot, scalars

    def progress(self, view: Mapping[str, Any]) -> Sequence[float] | None:
        """None: Spit pays ``rewards="win"`` only."""
        return None
