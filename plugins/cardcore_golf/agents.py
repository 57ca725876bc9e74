"""A simple greedy Golf agent: :class:`GolfGreedyAgent` (entry point ``golf-greedy`` in
``cardcore.agents``; ``GreedyGolfAgent`` is its old name, kept as an alias).

It reads only its seat's view and legal actions. Card values are estimated with the BASIC table
(GOLF-SCORE-1); it does not know which house rules are on.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from cardcore import Action, ArgumentError, OptionError
from cardcore_golf.actions import Discard, Draw, Flip, Knock, Peek, Replace, Take

__all__ = ["GolfGreedyAgent", "GreedyGolfAgent"]

_POINTS = {"A": 1, "J": 10, "Q": 10, "K": 0, "JK": -2}
UNKNOWN = 5.5
"""The value the agent assumes for a card it has not seen, before it counts the table."""
DECK_POINTS = 4 * (sum(range(1, 11)) + 10 + 10 + 0)
"""BASIC points of one 52-card deck."""


def _label(card: str) -> str:
    return "JK" if card == "JK" else card[:-1]


def _points(card: str) -> int:
    label = _label(card)
    return _POINTS[label] if label in _POINTS else int(label)


class GolfGreedyAgent:
    """Takes low or pairing cards, replaces its worst card, knocks when it looks ahead.

    :param seed: Seed of its tie-breaks (independent of the game's seed): an int of at
        least 0, or ``None`` for a fresh one from the operating system.
    :raises OptionError: A seed that is not an int of at least 0 or ``None`` (a generator
        reads ``-1`` as ``1``).
    """

    games: ClassVar[tuple[str, ...]] = ("golf",)
    """The games this agent serves."""

    def __init__(self, seed: int | None = 0) -> None:
        if seed is not None and type(seed) is not int:
            msg = f"agent 'golf-greedy': seed must be a whole number, not {seed!r}"
            raise OptionError(msg)
        if seed is not None and seed < 0:
            msg = "agent 'golf-greedy': seed must be a whole number of at least 0, not a negative one (a generator reads -1 as 1)"
            raise OptionError(msg)
        self.seed = seed
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"GolfGreedyAgent(seed={self.seed!r})"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Return one of *legal* for the seat whose *view* this is.

        :raises ArgumentError: *legal* is empty (the seat may not act now).
        """
        table = view["table"]
        seat = view["seat"]
        grid: list[str | None] = table["grids"][seat]
        cols: int = table["cols"]
        rows: int = table["rows"]
        try:  # free on the hot path: only an empty *legal* pays for the message
            first = legal[0]
        except IndexError:
            msg = (
                "agent 'golf-greedy' has no legal action to choose from (its seat may not act now)"
            )
            raise ArgumentError(msg) from None
        if isinstance(first, Flip | Peek):
            return self._setup(legal, grid, cols)
        if isinstance(first, Draw):
            return self._start(table, grid, legal, cols, rows)
        held = table["held"]["card"] if table["held"] else None
        return self._place(held, grid, legal, cols, rows, self._unseen_mean(table))

    @staticmethod
    def _unseen_mean(table: Mapping[str, Any]) -> float:
        """The mean BASIC value of the cards this seat cannot see (counting the table)."""
        visible = [c for g in table["grids"] for c in g if c is not None and c != "--"]
        total: int = table["stock"] + table["discards"] + sum(len(g) for g in table["grids"]) + 1
        decks = max(1, total // 52)
        unseen = decks * 52 - len(visible)
        if unseen <= 0:
            return UNKNOWN
        known = sum(_points(c) for c in visible if c != "JK")
        return max(0.0, float(decks * DECK_POINTS - known) / unseen)

    def _setup(self, legal: Sequence[Action], grid: Sequence[str | None], cols: int) -> Action:
        """Flip in a column that shows nothing yet (the seed's strategy, step 1); peek at random."""
        if isinstance(legal[0], Flip):
            used = {p % cols for p, card in enumerate(grid) if card is not None}
            fresh = [a for a in legal if isinstance(a, Flip) and a.pos % cols not in used]
            if fresh:
                return fresh[int(self.rng.random() * len(fresh))]
        return legal[int(self.rng.random() * len(legal))]

    def _estimate(self, grid: Sequence[str | None]) -> float:
        return sum(UNKNOWN if c is None else (0 if c == "--" else _points(c)) for c in grid)

    def _start(
        self,
        table: Mapping[str, Any],
        grid: list[str | None],
        legal: Sequence[Action],
        cols: int,
        rows: int,
    ) -> Action:
        knock = next((a for a in legal if isinstance(a, Knock)), None)
        if knock is not None and self._estimate(grid) <= 8:
            return knock
        top = table["discard"]
        take = next((a for a in legal if isinstance(a, Take)), None)
        if (
            take is not None
            and top is not None
            and (_points(top) <= 3 or self._pair_slot(top, grid, cols, rows) is not None)
        ):
            return take
        return next(a for a in legal if isinstance(a, Draw))

    @staticmethod
    def _pair_slot(card: str, grid: list[str | None], cols: int, rows: int) -> int | None:
        """A position whose column partner has *card*'s rank and is not already paired."""
        if rows != 2:
            return None
        label = _label(card)
        for pos, other in enumerate(grid):
            if other is None or other == "--" or _label(other) != label:
                continue
            partner = (pos + cols) % (2 * cols)
            mine = grid[partner]
            if mine is None or (mine != "--" and _label(mine) != label):
                return partner
        return None

    def _place(
        self,
        held: str | None,
        grid: list[str | None],
        legal: Sequence[Action],
        cols: int,
        rows: int,
        unknown: float = UNKNOWN,
    ) -> Action:
        replaces = {a.pos: a for a in legal if isinstance(a, Replace)}
        discard = next((a for a in legal if isinstance(a, Discard)), None)
        if held is None:
            return legal[0]
        value = _points(held)
        slot = self._pair_slot(held, grid, cols, rows)
        if slot is not None and slot in replaces:
            return replaces[slot]
        best: Action | None = None
        best_gain = 0.0
        for pos, action in replaces.items():
            card = grid[pos]
            if card == "--":
                continue
            gain = (unknown if card is None else _points(card)) - value
            if card is None:
                gain += 0.5  # turning up an unknown card also brings the round closer to its end
            if gain > best_gain:
                best, best_gain = action, gain
        if best is not None:
            return best
        if discard is not None:
            return discard
        return max(replaces.values(), key=lambda a: -1 if grid[a.pos] is None else 0)


GreedyGolfAgent = GolfGreedyAgent
"""The agent's name before the one naming scheme (``<Game><Style>Agent``)."""
