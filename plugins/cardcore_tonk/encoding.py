"""Tonk for reinforcement learning: fixed action indices and the observation (``cardcore.rl``).

Plain Python (no numpy): :class:`TonkEncoding` reads only a seat's view (its ``table``), so
two states the seat cannot tell apart encode alike. Cards are numbered 0..51 by rank, then
suit S-H-D-C (``cardcore_tonk.melds.card_index``); ``n`` is the number of seats, and
seats are relative, the observing seat first.

Actions (1157 indices, every one with a fixed meaning)::

    0 drop   1 draw   2 take   3 deal
    4 + c                      discard card c                     (52)
    56 + 52 (k - 1) + c        hit spread number k (1..17) with c (884)
    940 + 5 (r - 1) + m        book of rank r (1 ace .. 13 king) without suit m (0-3 S H D C),
                               or of all four suits (m = 4)        (65)
    1005 + 38 s + o            run in suit s: ``o`` numbers (start, length) for lengths 3, 4,
                               5, 6 in turn, starts ace up        (152)

Spreads are enumerated by their cards, not by hand positions, so an index means the same
spread in every hand. A run longer than six cards has no index: it is never legal, as a
hand never holds more than six (a position holding more is refused when read).

Observation: a count block, then scalars.

* the seat's hand (52), the discard pile's top card (53: 52 = empty), the discard taken this
  turn (53: 52 = none), each spread's cards by spread number (17 x 52) and owner (17 x ``n``,
  relative), the phase (4: start, play, between, over), the dealer and the seat to act
  (``n`` each, relative; no seat to act once the session is over);
* scalars: stock and discard pile sizes (over 52), every seat's hand size (over 6), the
  seat's hand total (over 50), every seat's balance (in stakes, over 10), and the hand
  number over the session's hands.

``rewards="score"`` pays each seat the change in its balance, in stakes, after each hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardcore import Action
from cardcore_tonk.actions import MAX_SPREADS, Deal, Discard, Draw, Drop, Hit, Spread, Take
from cardcore_tonk.melds import CARDS, index_of

if TYPE_CHECKING:
    from cardcore_tonk.logic import TonkLogic

__all__ = ["BOOKS", "HITS", "RUNS", "RUN_LENGTHS", "TonkEncoding", "spread_index"]

HITS = 56
"""The first hit index."""
BOOKS = HITS + MAX_SPREADS * 52
"""The first book index (940)."""
RUNS = BOOKS + 13 * 5
"""The first run index (1005)."""
RUN_LENGTHS = (3, 4, 5, 6)
"""The run lengths with an index: six cards is the most a hand holds."""

_PHASES = {"start": 0, "play": 1, "between": 2, "over": 3}
_TEXT = {str(c): i for i, c in enumerate(CARDS)}


def _spread_table() -> tuple[dict[tuple[int, ...], int], list[str]]:
    """Every indexed spread (its card indices, ascending) -> index, and the names in order."""
    table: dict[tuple[int, ...], int] = {}
    names: list[str] = []
    for r in range(13):
        four = tuple(4 * r + s for s in range(4))
        for m in range(5):
            cards = tuple(x for x in four if x & 3 != m)
            table[cards] = BOOKS + len(names)
            names.append("spread " + " ".join(str(CARDS[x]) for x in cards))
    for s in range(4):
        for length in RUN_LENGTHS:
            for start in range(14 - length):
                cards = tuple(4 * (start + j) + s for j in range(length))
                table[cards] = BOOKS + len(names)
                names.append("spread " + " ".join(str(CARDS[x]) for x in cards))
    return table, names


_SPREADS, _SPREAD_NAMES = _spread_table()


def spread_index(cards: Sequence[int]) -> int:
    """The action index of the spread of card indices *cards*, or -1 if it has none."""
    return _SPREADS.get(tuple(sorted(cards)), -1)


class TonkEncoding:
    """The fixed action set and observation of Tonk for one configuration (see the module).

    :param logic: The configuration's Tonk logic.
    :param players: The number of seats.
    :param options: The resolved options.
    """

    needs = "table"
    progress_by_round = True  # the balances change only as a hand ends

    def __init__(self, logic: TonkLogic, players: int, options: Mapping[str, Any]) -> None:
        self.players = n = players
        self.stake = float(options["stake"])
        self.actions = RUNS + 4 * 38
        self._cache: dict[int, tuple[Action, int]] = {}
        self._discard = 52
        self._taken = 52 + 53
        self._melds = 52 + 53 + 53
        self._owners = self._melds + MAX_SPREADS * 52
        self._phase = self._owners + MAX_SPREADS * n
        self._dealer = self._phase + 4
        self._turn = self._dealer + n
        self.planes = self._turn + n
        self.scalars = 2 + n + 1 + n + 1

    def action_names(self) -> Sequence[str]:
        """``drop``, ``draw``, ``take``, ``deal``, the discards, hits and spreads (see the module)."""
        cards = [str(c) for c in CARDS]
        hits = [f"hit {k} {c}" for k in range(1, MAX_SPREADS + 1) for c in cards]
        return ["drop", "draw", "take", "deal", *(f"discard {c}" for c in cards), *hits, *_SPREAD_NAMES]

    @staticmethod
    def _index(action: Action) -> int:
        if isinstance(action, Discard):
            return 4 + index_of(action.card)
        if isinstance(action, Hit):
            if action.number > MAX_SPREADS:
                return -1
            return HITS + 52 * (action.number - 1) + index_of(action.card)
        if isinstance(action, Spread):
            return spread_index([index_of(c) for c in action.cards])
        for i, kind in enumerate((Drop, Draw, Take, Deal)):
            if isinstance(action, kind):
                return i
        return -1

    def action_indices(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Sequence[int]:
        """The fixed index of each legal action (cached by the interned action)."""
        cache = self._cache
        out = []
        for action in legal:
            hit = cache.get(id(action))
            if hit is None or hit[0] is not action:
                hit = (action, self._index(action))
                if len(cache) > 100_000:  # actions are interned: this only guards odd callers
                    cache.clear()
                cache[id(action)] = hit
            out.append(hit[1])
        return out

    def observe(self, view: Mapping[str, Any]) -> tuple[Sequence[int], Sequence[float]]:
        """The count positions and scalars of the seat's view (see the module)."""
        seat: int = view["seat"]
        table = view["table"]
        n = self.players
        text = _TEXT
        hot = [text[c] for c in table["hand"]]
        top = table["discard_top"]
        hot.append(self._discard + (52 if top is None else text[top]))
        taken = table["taken"]
        hot.append(self._taken + (52 if taken is None else text[taken]))
        melds = self._melds
        owners = self._owners
        for k, spread in enumerate(table["spreads"][:MAX_SPREADS]):
            base = melds + 52 * k
            hot.extend(base + text[c] for c in spread["cards"])
            hot.append(owners + n * k + (spread["owner"] - seat) % n)
        hot.append(self._phase + _PHASES[table["phase"]])
        hot.append(self._dealer + (table["dealer"] - seat) % n)
        turn = table["turn"]
        if turn is not None:  # (None once the session is over)
            hot.append(self._turn + (turn - seat) % n)
        sizes = table["hand_sizes"]
        balances = table["balances"]
        stake = self.stake
        scalars = [table["stock"] / 52.0, table["discard_count"] / 52.0]
        scalars.extend(sizes[(seat + r) % n] / 6.0 for r in range(n))
        scalars.append(table["total"] / 50.0)
        scalars.extend(balances[(seat + r) % n] / stake / 10.0 for r in range(n))
        scalars.append(table["hand_number"] / table["hands"])
        return hot, scalars

    def progress(self, view: Mapping[str, Any]) -> Sequence[float] | None:
        """Every seat's session balance in stakes (zero-sum)."""
        stake = self.stake
        return [b / stake for b in view["table"]["balances"]]
