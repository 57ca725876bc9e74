"""Golf for reinforcement learning: fixed action indices and the observation (``cardcore.rl``).

Plain Python (no numpy): :class:`GolfEncoding` reads only a seat's view (its ``table``), so two
states the seat cannot tell apart encode alike. ``S`` is the layout's size (6, 8, 9, 10 or 4),
``n`` the number of seats; seats are relative, the observing seat first.

Actions (``4 + 3 S`` indices)::

    0 draw   1 take   2 discard   3 knock   4 + p: replace p   4 + S + p: flip p   4 + 2 S + p: peek p

Observation: a count block (one-hot positions) then scalars.

* grids: ``n * S * 16`` positions: per seat and layout position, the card's pairing rank
  (0 joker, 1 ace ... 13 king), 14 face down or unseen, 15 removed;
* the discard pile's top rank (15: 14 = empty); the held card's rank (16: 14 = none,
  15 = held but unseen); the phase (4: setup, draw, place, over); the seat to act and the
  seat that knocked or completed its layout (``n + 1`` each: relative seat, or none: index ``n``);
* scalars: every seat's visible card points at every position (``n * S``, over 10, 0 if
  unseen), the discard top's and held card's points (over 10), stock and discard pile
  sizes (over the deck), the round over the match's rounds (0 in a match with no round
  cap), final turns left plus one (over ``n``: 0 outside the final turns, so none left
  still differs from none begun), and every seat's total (over 100).

Card points are the configuration's (house rules such as jokers at -2 included).
``rewards="score"`` pays, after each round, the change in
``(mean of the other seats' totals - own total) / 10`` (lowest total wins).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardcore import Action
from cardcore_golf.actions import Discard, Draw, Flip, Knock, Peek, Replace, Take
from cardcore_golf.grids import match_rounds, shape_of

if TYPE_CHECKING:
    from cardcore_golf.logic import GolfLogic

__all__ = ["GolfEncoding"]

_KINDS = 16  # rank keys 0..13, 14 hidden, 15 removed
_PHASES = {"setup": 0, "draw": 1, "place": 2, "over": 3}


class GolfEncoding:
    """The fixed action set and observation of Golf for one configuration (see the module).

    :param logic: The configuration's Golf logic.
    :param players: The number of seats.
    :param options: The resolved options.
    """

    needs = "table"
    progress_by_round = True  # the totals change only as a round ends

    def __init__(self, logic: GolfLogic, players: int, options: Mapping[str, Any]) -> None:
        layout = shape_of(options)
        plan = logic.plan(players, options)
        self.players = n = players
        self.size = s = layout.size
        self.rounds = match_rounds(options) or 0
        deck = logic.deck(players, options)
        self.deck_size = float(len(deck))
        self.cards: dict[str, tuple[int, float]] = {
            str(card): (int(card.rank), plan.points[card] / 10.0) for card in set(deck)
        }
        """Card text -> (pairing rank, points / 10)."""
        self.actions = 4 + 3 * s
        self._index: dict[Action, int] = {}
        for seat in range(n):
            for i, fixed in enumerate((Draw(seat), Take(seat), Discard(seat), Knock(seat))):
                self._index[fixed] = i
            for p in range(s):
                self._index[Replace(seat, p)] = 4 + p
                self._index[Flip(seat, p)] = 4 + s + p
                self._index[Peek(seat, p)] = 4 + 2 * s + p
        self._grid = n * s * _KINDS
        self._discard = self._grid
        self._held = self._discard + 15
        self._phase = self._held + 16
        self._turn = self._phase + 4
        self._ender = self._turn + n + 1
        self.planes = self._ender + n + 1
        self.scalars = n * s + 2 + 2 + 2 + n

    def action_names(self) -> Sequence[str]:
        """``draw``, ``take``, ``discard``, ``knock``, then ``replace p``, ``flip p``, ``peek p``."""
        r = range(self.size)
        return [
            "draw",
            "take",
            "discard",
            "knock",
            *(f"replace {p}" for p in r),
            *(f"flip {p}" for p in r),
            *(f"peek {p}" for p in r),
        ]

    def action_indices(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Sequence[int]:
        """The fixed index of each legal action (Golf's actions are interned)."""
        index = self._index
        return [index.get(a, -1) for a in legal]

    def observe(self, view: Mapping[str, Any]) -> tuple[Sequence[int], Sequence[float]]:
        """The count positions and scalars of the seat's view (see the module)."""
        seat: int = view["seat"]
        table = view["table"]
        n = self.players
        cards = self.cards
        hot: list[int] = []
        points: list[float] = []
        grids = table["grids"]
        base = 0
        for r in range(n):
            for card in grids[(seat + r) % n]:
                if card is None:
                    hot.append(base + 14)
                    points.append(0.0)
                elif card == "--":
                    hot.append(base + 15)
                    points.append(0.0)
                else:
                    key, pts = cards[card]
                    hot.append(base + key)
                    points.append(pts)
                base += _KINDS
        top = table["discard"]
        if top is None:
            hot.append(self._discard + 14)
            points.append(0.0)
        else:
            key, pts = cards[top]
            hot.append(self._discard + key)
            points.append(pts)
        held = table["held"]
        card = None if held is None else held["card"]
        if card is None:
            hot.append(self._held + (14 if held is None else 15))
            points.append(0.0)
        else:
            key, pts = cards[card]
            hot.append(self._held + key)
            points.append(pts)
        hot.append(self._phase + _PHASES[table["phase"]])
        turn = table["turn"]
        hot.append(self._turn + (n if turn is None else (turn - seat) % n))
        ender = table["ender"]
        hot.append(self._ender + (n if ender is None else (ender - seat) % n))
        points.append(table["stock"] / self.deck_size)
        points.append(table["discards"] / self.deck_size)
        points.append(table["round"] / self.rounds if self.rounds else 0.0)
        left = table["final_turns_left"]
        points.append(0.0 if left is None else (left + 1) / n)
        totals = table["totals"]
        points.extend(totals[(seat + r) % n] / 100.0 for r in range(n))
        return hot, points

    def progress(self, view: Mapping[str, Any]) -> Sequence[float] | None:
        """Per seat: ``(mean of the others' totals - own total) / 10`` (lowest total wins)."""
        totals = view["table"]["totals"]
        n = self.players
        whole = sum(totals)
        return [((whole - t) / (n - 1) - t) / 10.0 for t in totals]
