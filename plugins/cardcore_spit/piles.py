"""Pure helpers for Spit and Speed piles: adjacency, layouts, ``auto_setup``, stuck detection.

Nothing here imports pluggy or the game driver; everything works on plain ranks
(``int``: ace 1 ... king 13, joker 0) and sequences, so the functions are easy to
test and to reuse in bots. Piles are lists **bottom -> top**.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from numbers import Integral
from operator import itemgetter
from typing import TypeVar

from cardcore import ALL, ArgumentError

__all__ = [
    "BASE_GAPS",
    "PILES",
    "ROW_WISE_SIZES",
    "adjacency_table",
    "auto_setup",
    "auto_setup_step",
    "can_progress",
    "deal_layout",
    "has_play",
    "has_uncovering_move",
    "hidden_limits",
    "is_adjacent",
    "layout_picks",
    "layout_sizes",
    "row_wise_order",
    "single_pile_mode",
    "speed_deal_sizes",
]

T = TypeVar("T")

#: Number of layout piles per player (SPIT-SETUP-2, SPIT-MOVE-6).
PILES = 5

#: Rank differences ``(target - card) mod 13`` that make a play legal: one above
#: or one below, with the ace next to both the two and the king (SPIT-MOVE-2/3).
BASE_GAPS: frozenset[int] = frozenset({1, 12})


def is_adjacent(card: int, target: int, gaps: Iterable[int] = BASE_GAPS) -> bool:
    """Tell whether a card of rank *card* may go on a pile showing rank *target*.

    Ranks are cyclic (SPIT-MOVE-3), equal ranks are not adjacent (SPIT-MOVE-4)
    unless ``0`` is among *gaps*. A joker (rank 0) is wild either way
    (SPEED-PLAY-3).

    :param card: Rank of the card played, 1..13 (0 = joker).
    :param target: Rank of the pile's top card, 1..13 (0 = joker).
    :param gaps: Allowed differences ``(target - card) mod 13``.
    :returns: ``True`` if the play is allowed.

    >>> is_adjacent(1, 13), is_adjacent(1, 2), is_adjacent(5, 5)
    (True, True, False)
    """
    if card == 0 or target == 0:
        return True
    return (target - card) % 13 in set(gaps)


def adjacency_table(gaps: Iterable[int] = BASE_GAPS) -> tuple[tuple[bool, ...], ...]:
    """Build the 14 x 14 table ``table[card][target]`` of :func:`is_adjacent`.

    Index 0 is the joker. Built once per configuration so the hot path is two
    tuple look-ups.

    :param gaps: Allowed differences ``(target - card) mod 13``.
    :returns: A nested tuple of booleans.
    """
    allowed = frozenset(g % 13 for g in gaps)
    return tuple(tuple(is_adjacent(c, t, allowed) for t in range(14)) for c in range(14))


def row_wise_order(n: int, piles: int = PILES) -> tuple[int, ...]:
    """Return the pile index (0-based) each of the first layout cards goes to.

    Row r (r = 1..5) puts one card on each pile k >= r, in pile order, stopping
    when the cards run out (SPIT-SETUP-4). With n >= 15 this is the full
    1-2-3-4-5 layout (SPIT-SETUP-2); cards beyond the 15th are not part of the
    layout.

    :param n: Number of cards the player holds (an int of at least 0).
    :param piles: Number of piles (5; an int of at least 0).
    :returns: Pile indices in dealing order, ``min(n, 15)`` of them (with 5 piles).
    :raises ArgumentError: *n* or *piles* is not an int of at least 0.

    >>> row_wise_order(7)
    (0, 1, 2, 3, 4, 1, 2)
    """
    for name, count in (("n", n), ("piles", piles)):
        if isinstance(count, bool) or not isinstance(count, Integral) or count < 0:
            what = (
                repr(count) if type(count) is int else f"an object of type {type(count).__name__!r}"
            )
            msg = f"row_wise_order: {name} must be an int of at least 0, not {what}"
            raise ArgumentError(msg)
    n, piles = int(n), int(piles)  # (numpy's ints read as plain ones)
    order: list[int] = []
    for row in range(piles):
        for pile in range(row, piles):
            if len(order) == n:
                return tuple(order)
            order.append(pile)
    return tuple(order)


def layout_sizes(order: Sequence[int], piles: int = PILES) -> tuple[int, ...]:
    """Count the cards per pile for a dealing *order*.

    :param order: Pile indices as returned by :func:`row_wise_order`.
    :param piles: Number of piles.
    :returns: Cards per pile, pile 1 first.

    >>> layout_sizes(row_wise_order(11))
    (1, 2, 3, 3, 2)
    """
    sizes = [0] * piles
    for pile in order:
        sizes[pile] += 1
    return tuple(sizes)


#: The SPIT-SETUP-4 table: pile sizes for n = 0..15 cards.
ROW_WISE_SIZES: tuple[tuple[int, ...], ...] = tuple(
    layout_sizes(row_wise_order(n)) for n in range(16)
)


def deal_layout(
    cards: Sequence[T], order: Sequence[int], piles: int = PILES
) -> tuple[list[list[T]], list[T]]:
    """Lay out *cards* (in the order the player takes them) along *order*.

    Card i goes on top of pile ``order[i]``; the cards after ``len(order)``
    become the spit cards, the first of them on top (it is turned first).

    :param cards: The player's cards, first taken first.
    :param order: Pile index per layout card (:func:`row_wise_order`).
    :param piles: Number of piles.
    :returns: ``(layout, spit)``: piles bottom -> top, spit cards bottom -> top.
    """
    layout: list[list[T]] = [[] for _ in range(piles)]
    count = min(len(order), len(cards))
    for i in range(count):
        layout[order[i]].append(cards[i])
    spit = list(reversed(cards[count:]))
    return layout, spit


def layout_picks(
    order: Sequence[int], piles: int = PILES
) -> tuple[
    Callable[[Sequence[T]], list[T]], tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...]
]:
    """Return what :func:`deal_layout` does along *order*, as positions, for set-up at speed.

    ``(pick, bounds, masks)``: ``pick(cards)`` lists the layout cards pile after
    pile (each bottom to top), pile *k* is the slice ``bounds[k]`` of that list,
    and ``masks[k]`` its knowledge masks (the top card face up).

    >>> pick, bounds, masks = layout_picks(row_wise_order(4))
    >>> pick("abcd"), bounds, masks
    (['a', 'b', 'c', 'd'], ((0, 1), (1, 2), (2, 3), (3, 4), (4, 4)), ((-1,), (-1,), (-1,), (-1,), ()))
    """
    per_pile: list[list[int]] = [[] for _ in range(piles)]
    for i, k in enumerate(order):
        per_pile[k].append(i)
    flat = [i for pile in per_pile for i in pile]
    bounds: list[tuple[int, int]] = []
    for pile in per_pile:
        start = bounds[-1][1] if bounds else 0
        bounds.append((start, start + len(pile)))
    masks = tuple(tuple([0] * (len(p) - 1) + [ALL]) if p else () for p in per_pile)
    pick: Callable[[Sequence[T]], list[T]]
    if len(flat) >= 2:
        getter = itemgetter(*flat)

        def pick(cards: Sequence[T]) -> list[T]:
            return list(getter(cards))

    else:

        def pick(cards: Sequence[T]) -> list[T]:
            return [cards[i] for i in flat]

    return pick, tuple(bounds), masks


def hidden_limits(orders: Sequence[Sequence[int]], piles: int = PILES) -> tuple[int, ...]:
    """Return, per pile, the most face-down cards a layout along any of *orders* leaves in it.

    :param orders: Dealing orders (one per card count), as from :func:`row_wise_order`.
    :param piles: Number of piles.
    :returns: Per pile, its size minus one at most (the top card is face up).

    >>> hidden_limits([row_wise_order(n) for n in range(53)])
    (0, 1, 2, 3, 4)
    """
    limits = [0] * piles
    for order in orders:
        for k, size in enumerate(layout_sizes(order, piles)):
            limits[k] = max(limits[k], size - 1)
    return tuple(limits)


def single_pile_mode(counts: Sequence[int]) -> bool:
    """Tell whether a deal with these card counts has only one spit pile.

    A deal is in single-pile mode when a player starts it with 15 cards or
    fewer (SPIT-END-5).

    :param counts: Cards held per seat at the start of the deal.
    :returns: ``True`` for single-pile mode.
    """
    return any(n <= 15 for n in counts)


def auto_setup_step(tops: Sequence[int | None]) -> tuple[int, int] | None:
    """Return the next ``(source, target)`` pile pair of :func:`auto_setup`.

    Take the smallest pile index j whose top rank equals the top rank of some
    pile i < j, and the smallest such i (SPIT-SETUP-6). Empty piles are
    ``None`` and never match.

    :param tops: Face-up top rank per pile (``None`` = empty pile).
    :returns: ``(j, i)`` (0-based), or ``None`` if all tops differ.

    >>> auto_setup_step([5, 9, 5, 9, 2])
    (2, 0)
    """
    first: dict[int, int] = {}
    for j, rank in enumerate(tops):
        if rank is None:
            continue
        i = first.get(rank)
        if i is not None:
            return j, i
        first[rank] = j
    return None


def auto_setup(
    piles: Sequence[Sequence[int]],
) -> tuple[list[list[int]], list[tuple[int, int]]]:
    """Combine equal face-up ranks until all tops differ (SPIT-SETUP-6).

    Each pile is bottom -> top and its last card is face up; the card a move
    uncovers is turned up. Spaces are never filled.

    :param piles: Ranks per pile, bottom -> top.
    :returns: The resulting piles and the moves ``(source, target)`` made.
    """
    work = [list(p) for p in piles]
    moves: list[tuple[int, int]] = []
    while True:
        step = auto_setup_step([p[-1] if p else None for p in work])
        if step is None:
            return work, moves
        j, i = step
        work[i].append(work[j].pop())
        moves.append(step)


def has_play(
    tops: Sequence[int | None],
    targets: Sequence[int | None],
    table: Sequence[Sequence[bool]],
) -> bool:
    """Tell whether any face-up top may be played on any target pile.

    :param tops: The player's playable ranks (``None`` = empty pile).
    :param targets: Top rank of each centre pile (``None`` = no such pile).
    :param table: An :func:`adjacency_table`.
    :returns: ``True`` if some PLAY is legal (SPIT-MOVE-2).
    """
    for t in targets:
        if t is None:
            continue
        for c in tops:
            if c is not None and table[c][t]:
                return True
    return False


def has_uncovering_move(tops: Sequence[int | None], hidden_below: Sequence[bool]) -> bool:
    """Tell whether a COMBINE or FILL would turn up a face-down card.

    :param tops: Face-up top rank per pile (``None`` = empty).
    :param hidden_below: Per pile, whether the card under the top is face down.
    :returns: ``True`` if moving some top away uncovers a face-down card and
        that move is legal (another top of equal rank, or an empty space).
    """
    has_space = any(t is None for t in tops)
    for j, rank in enumerate(tops):
        if rank is None or not hidden_below[j]:
            continue
        if has_space:
            return True
        if any(k != j and tops[k] == rank for k in range(len(tops))):
            return True
    return False


def can_progress(
    tops: Sequence[int | None],
    hidden_below: Sequence[bool],
    targets: Sequence[int | None],
    table: Sequence[Sequence[bool]],
) -> bool:
    """Tell whether a player can make progress (SPIT-STUCK-3 b).

    Progress is a legal PLAY, or a COMBINE/FILL that uncovers a face-down card.

    :param tops: Face-up top rank per pile.
    :param hidden_below: Per pile, whether the card under the top is face down.
    :param targets: Top rank of each centre pile.
    :param table: An :func:`adjacency_table`.
    :returns: ``True`` if the player is not stuck.
    """
    return has_play(tops, targets, table) or has_uncovering_move(tops, hidden_below)


def speed_deal_sizes(side_pile: int, jokers: int) -> tuple[int, int, int]:
    """Return ``(hand, stock, side)`` sizes per player for Speed.

    Side piles of 5 give 20 cards per player, side piles of 15 give 10
    (SPEED-SETUP-2); the hand is 5 and the rest is stock (SPEED-SETUP-3); each
    included joker pair adds one card to every stock.

    :param side_pile: Cards per side pile: 5 or 15.
    :param jokers: Jokers in the deck: 0 or 2.
    :returns: ``(5, stock, side_pile)``.

    >>> speed_deal_sizes(5, 0), speed_deal_sizes(15, 2)
    ((5, 15, 5), (5, 6, 15))
    """
    per_player = (52 - 2 - 2 * side_pile) // 2
    return 5, per_player - 5 + jokers // 2, side_pile
