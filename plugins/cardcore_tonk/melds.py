"""Pure Tonk helpers: spreads (melds), hits, totals and payouts.

Nothing here imports pluggy or keeps state: every function takes values and
returns values, so the engine (:mod:`cardcore_tonk.logic`), the house rules,
the agents and the tests share one definition of each rule.

Cards are any objects with an integer-like ``rank`` (ace 1 ... king 13) and a
``suit`` carrying a one-letter ``letter`` (``S``, ``H``, ``D``, ``C``), such as
:class:`cardcore.Card`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations
from typing import NamedTuple, Protocol, TypeVar

from cardcore import Card, standard_52

__all__ = [
    "BOOK",
    "CARDS",
    "RUN",
    "SUIT_ORDER",
    "CardLike",
    "DealVerdict",
    "Meld",
    "card_index",
    "card_order",
    "caught_drop_payout",
    "classify",
    "cut_for_dealer",
    "drop_payout",
    "grow",
    "hand_total",
    "has_spread",
    "hit",
    "hit_targets",
    "index_of",
    "meld_of",
    "pay_from_each",
    "sort_cards",
    "spread_candidates",
    "spreads_of",
    "stock_out_payout",
]

BOOK = 0
"""Kind of a spread of three or four cards of one rank (TONK-SPREAD-1)."""
RUN = 1
"""Kind of a spread of three or more cards in sequence in one suit (TONK-SPREAD-2)."""
SUIT_ORDER = "SHDC"
"""Suit order used for every listing: spades, hearts, diamonds, clubs."""


class _SuitLike(Protocol):
    @property
    def letter(self) -> str:
        """The suit's letter: ``S``, ``H``, ``D`` or ``C``."""
        ...


class CardLike(Protocol):
    """What the logic needs of a card: an integer rank and a lettered suit."""

    @property
    def rank(self) -> int:
        """The rank: ace 1 ... king 13."""
        ...

    @property
    def suit(self) -> _SuitLike | None:
        """The suit (``None`` for a joker, which Tonk does not use)."""
        ...


class Meld(NamedTuple):
    """The shape of one spread on the table.

    :param kind: :data:`BOOK` or :data:`RUN`.
    :param suit: The run's suit letter, or ``""`` for a book.
    :param low: The lowest rank (a book's rank).
    :param high: The highest rank (a book's rank).
    :param size: Number of cards in the spread.

    >>> Meld(BOOK, "", 7, 7, 3).size
    3
    """

    kind: int
    suit: str
    low: int
    high: int
    size: int


class DealVerdict(NamedTuple):
    """A hand settled right after the deal by a house rule.

    :param reason: The ending's name, as posted to the ledger: printable text, not blank
        (no control characters or terminal escapes).
    :param seat: The winning seat, or ``None``.
    :param units: Net payouts per seat in stakes (summing to zero).
    :param redeal: The deal is void: the next dealer deals the hand again, and it is not
        one of the session's hands (it keeps its number; a session never ends on it).
    :param shown: The seats whose hands are shown (a natural's holder shows only
        their own); ``None`` shows every hand.
    """

    reason: str
    seat: int | None
    units: tuple[int, ...]
    redeal: bool = False
    shown: tuple[int, ...] | None = None


C = TypeVar("C", bound=CardLike)


def card_order(card: CardLike) -> int:
    """Return the sort key of *card*: rank first, then suit S-H-D-C (TONK-LEGAL-1).

    :param card: Any card of a standard deck.
    :returns: ``4 * rank + suit index``.
    """
    suit = card.suit
    return 4 * int(card.rank) + (SUIT_ORDER.index(suit.letter) if suit is not None else 0)


def card_index(card: CardLike) -> int:
    """Return the index 0..51 of *card*: ``4 * (rank - 1) + suit`` (suits S-H-D-C).

    Index order is the listing order of TONK-LEGAL-1 (rank, then suit).

    :param card: A card of a standard deck (no joker).
    :returns: The index.
    """
    suit = card.suit
    return 4 * (int(card.rank) - 1) + (SUIT_ORDER.index(suit.letter) if suit is not None else 0)


CARDS: tuple[Card, ...] = tuple(sorted(standard_52(), key=card_index))
"""The 52 cards by index (``CARDS[card_index(c)] == c``)."""
_IDX: dict[int, int] = {id(c): i for i, c in enumerate(CARDS)}


def index_of(card: Card) -> int:
    """Return the index 0..51 of *card* (fast for the interned cards of the core).

    :param card: A card of the standard deck.
    :returns: Its index, as :func:`card_index` computes it.
    """
    i = _IDX.get(id(card))
    return card_index(card) if i is None else i


def spreads_of(cards: Sequence[int]) -> list[tuple[int, ...]]:
    """List the spreads among card indices *cards* (sorted ascending), in TONK-LEGAL-1 order.

    Books first, by rank, three-card combinations then the four-card book; then
    runs by suit S-H-D-C, lowest card, length. Each tuple is ascending.

    :param cards: Card indices (see :func:`card_index`), sorted ascending, distinct.
    :returns: The candidate spreads.
    """
    out: list[tuple[int, ...]] = []
    n = len(cards)
    if n < 3:
        return out
    # books: equal ranks are adjacent in the sorted list
    i = 0
    while i < n:
        r = cards[i] >> 2
        j = i + 1
        while j < n and cards[j] >> 2 == r:
            j += 1
        if j - i >= 3:
            group = cards[i:j]
            out.extend(combinations(group, 3))
            if j - i == 4:
                out.append(tuple(group))
        i = j
    # runs: per suit, ascending ranks
    suits: tuple[list[int], list[int], list[int], list[int]] = ([], [], [], [])
    for c in cards:
        suits[c & 3].append(c)
    for group in suits:
        m = len(group)
        if m < 3:
            continue
        start = 0
        while start < m:
            end = start
            while end + 1 < m and group[end + 1] == group[end] + 4:
                end += 1
            for lo in range(start, end - 1):
                for hi in range(lo + 2, end + 1):
                    out.append(tuple(group[lo : hi + 1]))
            start = end + 1
    return out


_NIBBLES = int("1" * 13, 16)  # bit 0 of each rank's four suit bits


def has_spread(mask: int) -> bool:
    """Tell whether the cards of *mask* (bit ``i`` for card index ``i``) hold a spread.

    The same answer as ``bool(spreads_of(...))``, in a few integer operations:
    three of a rank (a book) or three in sequence in one suit (a run).

    >>> has_spread(0b111), has_spread(1 | 1 << 4 | 1 << 8), has_spread(1 | 1 << 4 | 1 << 9)
    (True, True, False)
    """
    if mask & (mask >> 4) & (mask >> 8):  # index + 4 is the next rank of the same suit
        return True
    count = (
        (mask & _NIBBLES)
        + ((mask >> 1) & _NIBBLES)
        + ((mask >> 2) & _NIBBLES)
        + ((mask >> 3) & _NIBBLES)
    )  # cards per rank, one nibble each (at most 4)
    return bool(((count >> 2) | (count & (count >> 1))) & _NIBBLES)


def meld_of(cards: Sequence[int]) -> Meld | None:
    """Return the spread the card indices *cards* form, or ``None`` (TONK-SPREAD-1/2).

    :param cards: Distinct card indices, any order.
    :returns: The :class:`Meld`, or ``None``.
    """
    n = len(cards)
    if n < 3:
        return None
    r0 = cards[0] >> 2
    if all(c >> 2 == r0 for c in cards):
        return Meld(BOOK, "", r0 + 1, r0 + 1, n) if n <= 4 else None
    s0 = cards[0] & 3
    if any(c & 3 != s0 for c in cards):
        return None
    ranks = sorted(c >> 2 for c in cards)
    low = ranks[0]
    for k, r in enumerate(ranks):
        if r != low + k:
            return None
    return Meld(RUN, SUIT_ORDER[s0], low + 1, ranks[-1] + 1, n)


def hit_targets(meld: Meld) -> tuple[int, ...]:
    """Return the card indices that may hit *meld* (TONK-HIT-1).

    A book of three takes any card of its rank (with one deck only the missing
    one can be in a hand); a book of four takes nothing; a run takes the next
    card of its suit below ``low`` (not below the ace) or above ``high`` (not
    above the king).

    :param meld: A spread on the table.
    :returns: Candidate card indices, ascending.
    """
    if meld.kind == BOOK:
        if meld.size >= 4:
            return ()
        base = 4 * (meld.low - 1)
        return (base, base + 1, base + 2, base + 3)
    s = SUIT_ORDER.index(meld.suit)
    out: list[int] = []
    if meld.low > 1:
        out.append(4 * (meld.low - 2) + s)
    if meld.high < 13:
        out.append(4 * meld.high + s)
    return tuple(out)


def grow(meld: Meld, x: int) -> Meld:
    """Return *meld* with card index *x* added (a hit already checked against :func:`hit_targets`).

    :param meld: A spread on the table.
    :param x: The index of the card that hits it.
    :returns: The grown :class:`Meld`.

    >>> grow(Meld(RUN, "H", 5, 7, 3), 4 * 3 + 1)  # the 4 of hearts
    Meld(kind=1, suit='H', low=4, high=7, size=4)
    """
    r = (x >> 2) + 1
    if meld.kind == BOOK:
        return Meld(BOOK, "", r, r, meld.size + 1)
    if r < meld.low:
        return Meld(RUN, meld.suit, r, meld.high, meld.size + 1)
    return Meld(RUN, meld.suit, meld.low, r, meld.size + 1)


def sort_cards(cards: Iterable[C]) -> list[C]:
    """Return *cards* sorted by :func:`card_order`.

    :param cards: Cards in any order.
    :returns: A new sorted list.
    """
    return sorted(cards, key=card_order)


def classify(cards: Sequence[CardLike]) -> Meld | None:
    """Return the spread *cards* form, or ``None`` if they form none.

    A book is three or four cards of one rank (TONK-SPREAD-1); a run is three or
    more cards of one suit in sequence with the ace low only (TONK-SPREAD-2).
    The cards are assumed distinct (one deck).

    :param cards: The cards, in any order.
    :returns: The :class:`Meld`, or ``None``.
    """
    n = len(cards)
    if n < 3:
        return None
    first = cards[0]
    r0 = int(first.rank)
    if all(int(c.rank) == r0 for c in cards):
        return Meld(BOOK, "", r0, r0, n) if n <= 4 else None
    suit = first.suit
    if suit is None or any(c.suit != suit for c in cards):
        return None
    ranks = sorted(int(c.rank) for c in cards)
    low = ranks[0]
    for i, r in enumerate(ranks):
        if r != low + i:
            return None
    return Meld(RUN, suit.letter, low, ranks[-1], n)


def hit(meld: Meld, card: CardLike) -> Meld | None:
    """Return *meld* with *card* added, or ``None`` if the hit is not valid.

    A book takes a fourth card of its rank; a run takes the next card of its
    suit at either end, never wrapping past the ace or the king (TONK-HIT-1).

    :param meld: The spread on the table.
    :param card: The card from the hand.
    :returns: The grown :class:`Meld`, or ``None``.
    """
    r = int(card.rank)
    if meld.kind == BOOK:
        if r == meld.low and meld.size < 4:
            return Meld(BOOK, "", r, r, meld.size + 1)
        return None
    suit = card.suit
    if suit is None or suit.letter != meld.suit:
        return None
    if r == meld.low - 1:
        return Meld(RUN, meld.suit, r, meld.high, meld.size + 1)
    if r == meld.high + 1:
        return Meld(RUN, meld.suit, meld.low, r, meld.size + 1)
    return None


def spread_candidates(hand: Sequence[C]) -> list[tuple[C, ...]]:
    """List every spread that can be laid from *hand*, in the documented order.

    Books come first, by rank, each rank's three-card books in combination order
    of the sorted cards and then the four-card book; then runs, by suit S-H-D-C,
    then lowest card, then length (TONK-LEGAL-1). Every tuple is sorted by
    :func:`card_order`.

    :param hand: The cards in hand, any order.
    :returns: The candidate spreads, each a sorted tuple.
    """
    cards = sorted(hand, key=card_order)
    out: list[tuple[C, ...]] = []
    by_rank: dict[int, list[C]] = {}
    by_suit: dict[str, list[C]] = {}
    for c in cards:
        by_rank.setdefault(int(c.rank), []).append(c)
        s = c.suit
        if s is not None:
            by_suit.setdefault(s.letter, []).append(c)
    for rank in sorted(by_rank):
        group = by_rank[rank]
        if len(group) >= 3:
            out.extend(combinations(group, 3))
            if len(group) == 4:
                out.append(tuple(group))
    for letter in SUIT_ORDER:
        run_group = by_suit.get(letter)
        if run_group is None or len(run_group) < 3:
            continue
        ranks = [int(c.rank) for c in run_group]
        n = len(run_group)
        start = 0
        while start < n:
            end = start
            while end + 1 < n and ranks[end + 1] == ranks[end] + 1:
                end += 1
            for lo in range(start, end - 1):
                for hi in range(lo + 2, end + 1):
                    out.append(tuple(run_group[lo : hi + 1]))
            start = end + 1
    return out


def hand_total(
    hand: Iterable[CardLike], points: Mapping[CardLike, int] | Callable[[CardLike], int]
) -> int:
    """Return the total value of *hand* (TONK-VAL-1, TONK-SPREAD-3).

    :param hand: The cards still in hand.
    :param points: A card -> value mapping (such as a ``ScoreTable``) or function.
    :returns: The sum of the card values.
    """
    if callable(points):
        return sum(points(c) for c in hand)
    return sum(points[c] for c in hand)


def pay_from_each(winner: int, players: int, amount: int) -> list[int]:
    """Return payouts where *winner* collects *amount* from every other player.

    Used for a tonk-out (2S, TONK-OUT-1), going out by discard (S, TONK-OUT-2),
    a won drop (S, TONK-DROP-2), and by house rules settling a deal.

    :param winner: The collecting seat.
    :param players: Number of seats.
    :param amount: What each other seat pays.
    :returns: Net payouts per seat, summing to zero.

    >>> pay_from_each(0, 3, 2)
    [4, -2, -2]
    """
    out = [-amount] * players
    out[winner] = amount * (players - 1)
    return out


def _lowest_collect(
    out: list[int], totals: Sequence[int], eligible: Sequence[int], stake: int
) -> None:
    """Let the lowest of *eligible* (all tied) collect *stake* from each other eligible seat."""
    low = min([totals[i] for i in eligible])
    winners = [i for i in eligible if totals[i] == low]
    for p in eligible:
        if totals[p] == low:
            continue
        out[p] -= stake * len(winners)
        for w in winners:
            out[w] += stake


def caught_drop_payout(dropper: int, totals: Sequence[int], stake: int) -> list[int]:
    """Return the payouts of a caught drop (TONK-DROP-3..5).

    The dropper pays ``2 * stake`` to every player whose total is at most the
    dropper's. The lowest non-droppers (all tied ones) each collect *stake* from
    every player other than the dropper and the tied lowest.

    :param dropper: The seat that dropped.
    :param totals: Every seat's hand total.
    :param stake: The stake S.
    :returns: Net payouts per seat, summing to zero.

    >>> caught_drop_payout(0, [10, 5, 20], 1)
    [-2, 3, -1]
    """
    n = len(totals)
    out = [0] * n
    mine = totals[dropper]
    others = [i for i in range(n) if i != dropper]
    for i in others:
        if totals[i] <= mine:
            out[i] += 2 * stake
            out[dropper] -= 2 * stake
    _lowest_collect(out, totals, others, stake)
    return out


def drop_payout(dropper: int, totals: Sequence[int], stake: int) -> tuple[list[int], bool]:
    """Return the payouts of a drop and whether the dropper was caught.

    The dropper wins *stake* from each other player when strictly lowest
    (TONK-DROP-2); otherwise :func:`caught_drop_payout` applies.

    :param dropper: The seat that dropped.
    :param totals: Every seat's hand total.
    :param stake: The stake S.
    :returns: ``(payouts, caught)``.

    >>> drop_payout(0, [3, 7, 9], 1)
    ([2, -1, -1], False)
    """
    mine = totals[dropper]
    others = [*totals[:dropper], *totals[dropper + 1 :]]
    if not others or min(others) > mine:
        return pay_from_each(dropper, len(totals), stake), False
    return caught_drop_payout(dropper, totals, stake), True


def stock_out_payout(totals: Sequence[int], stake: int) -> list[int]:
    """Return the payouts when the stock runs out (TONK-STOCK-2).

    Every player tied for the lowest total collects *stake* from every player
    not tied with them; tied players pay each other nothing.

    :param totals: Every seat's hand total.
    :param stake: The stake S.
    :returns: Net payouts per seat, summing to zero.

    >>> stock_out_payout([12, 5, 5], 1)
    [-2, 1, 1]
    """
    n = len(totals)
    out = [0] * n
    seats = list(range(n))
    _lowest_collect(out, totals, seats, stake)
    return out


_LABELS: tuple[str, ...] = tuple(CARDS[4 * r].label for r in range(13))
_PACK = list(range(52))


def cut_dealer(rounds: Sequence[Sequence[str | None]]) -> int:
    """Return the seat a cut made the first dealer: the highest rank of its last round,
    king high (TONK-DEALER-1; *rounds* as :func:`cut_for_dealer` returns them).

    >>> cut_dealer([("7", "K", "K"), (None, "3", "9")])
    2
    """
    last = rounds[-1]
    drew = [s for s, label in enumerate(last) if label is not None]
    return max(drew, key=lambda s: _LABELS.index(str(last[s])))


def cut_for_dealer(
    random: Callable[[], float], players: int
) -> tuple[int, tuple[tuple[str | None, ...], ...]]:
    """Cut for the first dealer (TONK-DEALER-1) with *random* (the game's chance).

    Every seat, from seat 0 up, is given one card from a pack shuffled as it is
    dealt (Fisher-Yates steps over *random*); the highest rank deals, king high
    and ace low; seats tied for highest cut again from the same pack.

    :param random: A ``random()`` function, e.g. ``state.rng().random``.
    :param players: The number of seats.
    :returns: The dealer and the rounds: per round, each seat's rank label or
        ``None`` for a seat out of the tie.
    """
    pack = _PACK[:]  # card indices: rank = index // 4 + 1, king high, ace low
    labels = _LABELS
    trunc = math.trunc  # int() of a positive float, only faster
    contenders: Sequence[int] = range(players)
    ranks = [0] * players
    rounds: list[tuple[str | None, ...]] = []
    pos = dealer = 0
    while True:
        row: list[str | None] = [None] * players
        best = -1
        ties = 0
        for s in contenders:
            j = pos + trunc(random() * (52 - pos))  # one step of a Fisher-Yates shuffle
            x = pack[j]
            pack[j] = pack[pos]  # the swap; pack[pos] is never read again
            pos += 1
            r = x >> 2  # only ranks matter; the cut cards never enter play
            row[s] = labels[r]
            ranks[s] = r
            if r > best:
                best = r
                dealer = s
                ties = 0
            elif r == best:
                ties += 1
        rounds.append(tuple(row))
        if not ties:
            return dealer, tuple(rounds)
        contenders = [s for s in contenders if ranks[s] == best]
