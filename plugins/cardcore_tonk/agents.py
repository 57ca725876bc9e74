"""A heuristic Tonk agent, :class:`TonkHeuristicAgent` (entry point ``tonk-heuristic``, group ``cardcore.agents``).

It sees only what its seat may see: the view it is handed (its own hand, the
hand sizes, the spreads, the top discard, balances) and its legal actions. It
remembers every top discard it has seen during the hand, so it knows those
cards are out of play, and estimates the other hands from the cards it cannot
account for.

Policy, in order:

* ``deal`` when it is the only action;
* at the start of a turn, **drop** when a seeded Monte Carlo estimate of the
  drop's payout (opponents' hands sampled from the unseen cards) is high enough;
  otherwise **take** the top discard when it makes a spread or a hit at once,
  or is a low card worth swapping for a high one; else **draw**;
* after drawing, lay the spread worth the most points, then hit (highest card
  first), then **discard** the card with the most deadwood (its value, less a
  bonus for cards that may still join a book or a run).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from cardcore import Action, ArgumentError, Card, OptionError
from cardcore_tonk.actions import Deal, Discard, Draw, Drop, Hit, Spread, Take
from cardcore_tonk.melds import card_index, drop_payout, meld_of, spreads_of

__all__ = ["HeuristicAgent", "TonkHeuristicAgent", "card_value"]

_VALUES = [min((i >> 2) + 1, 10) for i in range(52)]


def card_value(card: Card) -> int:
    """Return the value of *card* under the base rules (TONK-VAL-1)."""
    return _VALUES[card_index(card)]


def _shown(value: object) -> str:
    """*value*'s repr for a message, cut short; an int too long to print is described."""
    try:
        text = repr(value)
    except Exception:  # an int beyond sys.get_int_max_str_digits(), a broken __repr__
        return "an integer too long to print" if isinstance(value, int) else "an unprintable value"
    return text if len(text) <= 60 else text[:57] + "..."


def _idx(text: str) -> int:
    return card_index(Card.parse(text))


class TonkHeuristicAgent:
    """Lays spreads, hits, discards high deadwood and drops when likely lowest.

    :param seed: Seed of its Monte Carlo samples (independent of the game's seed): an int
        of at least 0, or ``None`` for a fresh one from the operating system.
    :param samples: Opponent hands sampled per drop decision (1 to 10,000: about
        8 µs each with two players).
    :param drop_margin: Drop when the estimated drop payout, in stakes per
        opponent, is at least this much (-100 to 100).
    :raises OptionError: A seed that is not an int of at least 0 or ``None`` (a generator
        reads ``-1`` as ``1``), *samples* that is not a whole number in its range, or a
        *drop_margin* that is not an int or float in its range (:attr:`parameter_bounds`,
        the same by name and built directly).
    """

    parameter_bounds: ClassVar[dict[str, tuple[float, float]]] = {
        "samples": (1, 10_000),
        "drop_margin": (-100.0, 100.0),
    }
    """The range of each numeric parameter (lowest and highest, both allowed), by name or not."""

    games: ClassVar[tuple[str, ...]] = ("tonk",)
    """The games this agent serves."""

    def __init__(
        self, seed: int | None = 0, *, samples: int = 48, drop_margin: float = 0.9
    ) -> None:
        low, high = self.parameter_bounds["samples"]
        try:  # any integer (a numpy one too), never a bool or a float
            whole = -1 if isinstance(samples, bool) else operator.index(samples)
        except TypeError:
            whole = -1
        if not low <= whole <= high:
            msg = f"agent 'tonk-heuristic': samples must be a whole number from {low} to {high}, not {_shown(samples)}"
            raise OptionError(msg)
        if seed is not None and type(seed) is not int:
            msg = f"agent 'tonk-heuristic': seed must be a whole number, not {seed!r}"
            raise OptionError(msg)
        if seed is not None and seed < 0:
            msg = "agent 'tonk-heuristic': seed must be a whole number of at least 0, not a negative one (a generator reads -1 as 1)"
            raise OptionError(msg)
        low, high = self.parameter_bounds["drop_margin"]
        if type(drop_margin) not in (int, float) or not low <= drop_margin <= high:  # NaN too
            msg = f"agent 'tonk-heuristic': drop_margin must be a number from {low} to {high}, not {_shown(drop_margin)}"
            raise OptionError(msg)
        self.seed = seed
        self.rng = random.Random(seed)
        self.samples = whole
        self.drop_margin = drop_margin
        self._hand_key: tuple[int, int, Any] | None = None
        self._last: tuple[int, int, tuple[str, ...], str | None] = (0, 52, (), None)
        """The version, stock count, hand and discard top of the last view it was handed."""
        self._seen: set[int] = set()

    # -- memory -----------------------------------------------------------------------------


    def __repr__(self) -> str:
        return (
            f"TonkHeuristicAgent(seed={self.seed!r}, samples={self.samples!r},"
            f" drop_margin={self.drop_margin!r})"
        )
    def _remember(self, view: Mapping[str, Any], table: Mapping[str, Any]) -> None:
        """Note the top discard; forget the hand's discards when a new hand began: another
        hand number or dealer, or (a new game for a reused agent) another seat, the version
        went back or stood still on another table, or the stock grew. (A new game that looks
        like a later moment of the last one cannot be told from it: one agent per game, as
        ``simulate`` builds them, remembers exactly.)"""
        key = (int(table["hand_number"]), int(table["dealer"]), view.get("seat"))
        version, stock = int(view.get("version", 0)), int(table["stock"])
        now = (version, stock, tuple(table["hand"]), table["discard_top"])
        last = self._last
        if (
            key != self._hand_key
            or version < last[0]
            or stock > last[1]
            or (version == last[0] and now != last)
        ):
            self._hand_key = key
            self._seen = set()
        self._last = now
        top = table["discard_top"]
        if top is not None:
            self._seen.add(_idx(top))

    def _unseen(self, table: Mapping[str, Any], mine: Sequence[int]) -> list[int]:
        known = set(mine) | self._seen
        for spread in table["spreads"]:
            known.update(_idx(c) for c in spread["cards"])
        return [i for i in range(52) if i not in known]

    # -- decisions ----------------------------------------------------------------------------

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Return one of *legal* for the seat whose *view* this is.

        :raises ArgumentError: *legal* is empty (the seat may not act now); the agent's
            memory is left as it was.
        """
        if len(legal) == 1:
            return legal[0]
        try:  # free on the hot path, and before _remember: a refusal changes nothing
            first = legal[0]
        except IndexError:
            msg = "agent 'tonk-heuristic' has no legal action to choose from (its seat may not act now)"
            raise ArgumentError(msg) from None
        table = view["table"]
        self._remember(view, table)
        seat = int(view["seat"])
        mine = [_idx(c) for c in table["hand"]]
        if isinstance(first, Drop | Draw | Take) or any(isinstance(a, Draw | Take) for a in legal):
            return self._start(table, seat, mine, legal)
        return self._play(table, mine, legal)

    def _start(
        self, table: Mapping[str, Any], seat: int, mine: list[int], legal: Sequence[Action]
    ) -> Action:
        drop = next((a for a in legal if isinstance(a, Drop)), None)
        draw = next((a for a in legal if isinstance(a, Draw)), None)
        take = next((a for a in legal if isinstance(a, Take)), None)
        if drop is not None and self._drop_value(table, seat, mine) >= self.drop_margin:
            return drop
        if take is not None:
            top = table["discard_top"]
            if top is not None and self._wants(table, mine, _idx(top), draw is None):
                return take
        if draw is not None and (table["stock"] or take is None):  # (the stock out: it ends
            return draw  # the hand, which this agent leaves to the rule's quiet round)
        return take if take is not None else legal[0]

    def _drop_value(self, table: Mapping[str, Any], seat: int, mine: list[int]) -> float:
        """Estimated payout of a drop now, in stakes per opponent."""
        sizes = table["hand_sizes"]
        n = len(sizes)
        my_total = sum(_VALUES[i] for i in mine)
        pool = self._unseen(table, mine)
        need = sum(sizes[s] for s in range(n) if s != seat)
        if need > len(pool):
            return -1.0
        stake = int(table["stake"])
        total = 0
        for _ in range(self.samples):
            cards = self.rng.sample(pool, need)
            totals = []
            pos = 0
            for s in range(n):
                if s == seat:
                    totals.append(my_total)
                else:
                    k = sizes[s]
                    totals.append(sum(_VALUES[i] for i in cards[pos : pos + k]))
                    pos += k
            total += drop_payout(seat, totals, stake)[0][seat]
        return total / (self.samples * stake * (n - 1))

    def _wants(self, table: Mapping[str, Any], mine: list[int], top: int, must: bool) -> bool:
        """Whether to take *top* rather than draw blind."""
        if must:
            return True
        with_top = sorted([*mine, top])
        if any(top in sp for sp in spreads_of(with_top)):
            return True
        for spread in table["spreads"]:
            meld = meld_of([_idx(c) for c in spread["cards"]])
            if meld is not None and _extends(
                meld.kind, meld.suit, meld.low, meld.high, meld.size, top
            ):
                return True
        worst = max((_deadwood(i, mine) for i in mine), default=0)
        return _VALUES[top] + 5 <= worst

    def _play(self, table: Mapping[str, Any], mine: list[int], legal: Sequence[Action]) -> Action:
        spreads = [a for a in legal if isinstance(a, Spread)]
        if spreads:
            return max(spreads, key=lambda a: (sum(card_value(c) for c in a.cards), len(a.cards)))
        hits = [a for a in legal if isinstance(a, Hit)]
        if hits:
            return max(hits, key=lambda a: card_value(a.card))
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return max(
                discards, key=lambda a: (_deadwood(card_index(a.card), mine), card_index(a.card))
            )
        deals = [a for a in legal if isinstance(a, Deal)]
        return deals[0] if deals else legal[0]


HeuristicAgent = TonkHeuristicAgent
"""The agent's name before cardcore 0.2 (kept so existing code and records work)."""


def _extends(kind: int, suit: str, low: int, high: int, size: int, x: int) -> bool:
    r = (x >> 2) + 1
    if kind == 0:
        return r == low and size < 4
    return "SHDC"[x & 3] == suit and (r == low - 1 or r == high + 1)


def _deadwood(x: int, hand: Sequence[int]) -> float:
    """The value of card *x* less a bonus for partners in *hand* (same rank, suited neighbours)."""
    r, s = x >> 2, x & 3
    bonus = 0.0
    for y in hand:
        if y == x:
            continue
        ry, sy = y >> 2, y & 3
        if ry == r:
            bonus += 4.0
        elif sy == s and abs(ry - r) == 1:
            bonus += 3.5
        elif sy == s and abs(ry - r) == 2:
            bonus += 1.5
    return _VALUES[x] - bonus
