"""Building blocks for dealing: fill the stock, deal round-robin (so many cards each, or the
whole stock), draw with a rebuilt stock, gather every card for the next deal.

Piles are zone ids of the state's :class:`~cardcore.Zones` (bottom to top);
knowledge follows each pile's visibility (a hand shows itself to its owner).
Every shuffle draws from the game's chance (``state.rng()``), so a record
replays it. These run inside a game's hooks on its own state, which they do not
check is a :class:`~cardcore.GameState` (the hot path): anything else raises
Python's ``AttributeError``, which reaches the caller of the hook as a
:class:`~cardcore.PluginError` naming the game. Pile ids and counts are checked.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardcore._text import shown
from cardcore.cards import Card
from cardcore.errors import ArgumentError, CardcoreError
from cardcore.state import GameState

__all__ = ["deal_all", "deal_round_robin", "draw_card", "fill_stock", "gather", "rebuild_stock"]

_DEALT: list[object] = [None, -1]
"""The deck ``new_game`` is handing to ``new_state`` (the list and its length), cleared
after: :func:`fill_stock` takes it without looking at each card (every one is a Card;
checking 52 costs ~2 µs of a ~15 µs ``new_game``). Another thread's deal only makes
a deal look unknown, so checked in full."""


def _pile(state: GameState, pile: object, what: str) -> int:
    """*pile* checked: the id of one of the state's piles (before any card moves)."""
    if type(pile) is not int or not 0 <= pile < len(state.zones.cards):
        msg = f"{what} must be a pile id from 0 to {len(state.zones.cards) - 1}, not {shown(pile, 40)}"
        raise ArgumentError(msg)
    return pile


def _hands(state: GameState, stock: int, hands: object) -> None:
    """Check *stock* and *hands* (pile ids, none of them the stock) before a card moves."""
    _pile(state, stock, "stock")
    if isinstance(hands, str | bytes) or not isinstance(hands, Sequence):  # a range too
        msg = f"hands must be a list of pile ids, not {shown(hands, 60)}"
        raise ArgumentError(msg)
    for hand in hands:
        if _pile(state, hand, "each hand") == stock:
            msg = f"the stock (pile {stock}) cannot be one of the hands"
            raise ArgumentError(msg)


def _count(value: object, what: str) -> int:
    if type(value) is not int or value < 0:
        msg = f"{what} must be a whole number of at least 0, not {shown(value, 40)}"
        raise ArgumentError(msg)
    return value


def fill_stock(state: GameState, stock: int, cards: Sequence[Card]) -> None:
    """Put *cards* (bottom to top, as :meth:`cardcore.GameLogic.new_state` receives them) face down on *stock*.

    :raises ArgumentError: *stock* is not a pile, it holds cards already (they would be
        lost: fill it once, when the deck is dealt), or *cards* is not a sequence of cards.
    """
    zones = state.zones
    if (  # inline: every new_game passes here
        type(stock) is not int
        or not 0 <= stock < len(zones.cards)
        or (
            type(cards) not in (list, tuple)  # the usual case; any other sequence of cards too
            and (isinstance(cards, str | bytes) or not isinstance(cards, Sequence))
        )
        or (len(cards) and type(cards[-1]) is not Card)
        or (
            (cards is not _DEALT[0] or len(cards) != _DEALT[1])
            and any(type(card) is not Card for card in cards)
        )
    ):
        _pile(state, stock, "stock")
        msg = f"fill_stock takes a list of cards, not {shown(cards, 60)} (parse_cards reads text)"
        raise ArgumentError(msg)
    if zones.cards[stock]:
        msg = f"fill_stock fills an empty stock: pile {stock} holds {len(zones.cards[stock])} cards already"
        raise ArgumentError(msg)
    zones.cards[stock] = list(cards)
    zones.seen[stock] = [0] * len(cards)


def deal_round_robin(
    state: GameState, stock: int, hands: Sequence[int], count: int, *, first: int = 0
) -> None:
    """Deal *count* cards to each pile of *hands*, one at a time, starting with ``hands[first]``
    (*first* counted round the hands: ``-1`` is the last), each from the top of *stock* (its
    last card: piles are bottom to top), onto the top of the hand. A pile listed twice is dealt to
    twice (``count`` cards each time it is named), as a seat dealt two hands.

    :raises CardcoreError: The stock holds too few cards (the game's deck is too small).
    :raises ArgumentError: *stock* or a hand is not a pile, the stock is one of the hands,
        *count* is not a whole number of at least 0, or *first* is not an int (nothing is
        dealt).
    """
    zones = state.zones
    _hands(state, stock, hands)
    _count(count, "count")
    if type(first) is not int:
        msg = f"first must be an int, not {shown(first, 40)}"
        raise ArgumentError(msg)
    n = len(hands)
    if len(zones.cards[stock]) < count * n:
        msg = f"cannot deal {shown(count, 40)} cards to {n} hands from {len(zones.cards[stock])}"
        raise CardcoreError(msg)
    if not n:
        return
    order = [hands[(first + i) % n] for i in range(n)]
    move = zones.move
    for _ in range(count):
        for hand in order:
            move(stock, hand)


def deal_all(state: GameState, stock: int, hands: Sequence[int], *, first: int = 0) -> None:
    """Deal the whole stock, one card at a time, to the piles of *hands*, starting with
    ``hands[first]`` (*first* counted round the hands: ``-1`` is the last).

    When the cards do not divide evenly, the hands dealt to first get one more
    (52 cards to three hands: 18, 17, 17), as a deck dealt out at the table.

    :raises ArgumentError: *stock* or a hand is not a pile, *hands* is empty while
        the stock holds cards, or *first* is not an int (nothing is dealt).
    """
    zones = state.zones
    _hands(state, stock, hands)
    if type(first) is not int:
        msg = f"first must be an int, not {shown(first, 40)}"
        raise ArgumentError(msg)
    n = len(hands)
    left = len(zones.cards[stock])
    if not n:
        if left:
            msg = f"no hands to deal the stock's {left} cards to"
            raise ArgumentError(msg)
        return
    order = [hands[(first + i) % n] for i in range(n)]
    move = zones.move
    for i in range(left):
        move(stock, order[i % n])


def rebuild_stock(state: GameState, stock: int, discard: int, *, keep_top: bool = True) -> int:
    """Turn the discards (all but the top one, by default) into a new shuffled stock (put
    under any cards the stock still holds, and shuffled with them).

    :returns: How many discards it moved to the stock (0 when there was nothing to rebuild).
    :raises ArgumentError: *stock* or *discard* is not a pile, or they are the same pile.
    """
    _pile(state, stock, "stock")
    if _pile(state, discard, "discard") == stock:
        msg = f"the discard pile (pile {discard}) cannot be the stock it rebuilds"
        raise ArgumentError(msg)
    zones = state.zones
    pile = zones.cards[discard]
    keep = 1 if keep_top and pile else 0
    moved = pile[: len(pile) - keep]
    if not moved:
        return 0
    zones.cards[discard] = pile[len(pile) - keep :]
    zones.seen[discard] = zones.seen[discard][len(pile) - keep :]
    zones.cards[stock] = moved + zones.cards[stock]
    zones.seen[stock] = [0] * len(zones.cards[stock])
    zones.shuffle(stock, state.rng())
    return len(moved)


def draw_card(state: GameState, stock: int, dst: int, *, discard: int | None = None) -> Card | None:
    """Move the top card of *stock* to pile *dst*; rebuild the stock from *discard* first if empty.

    The rebuild (:func:`rebuild_stock`) shuffles every discard **but the top one**,
    which stays face up where it was; the caller keeps no card aside itself. No event
    is emitted: the caller emits :class:`~cardcore.CardDrawn` (and, when the stock was
    empty before the call, :class:`~cardcore.Shuffled` for the rebuild).

    :returns: The card, or ``None`` when the stock is empty and cannot be rebuilt
        (the discard pile holds one card or none).
    :raises ArgumentError: *stock*, *dst* or *discard* is not a pile (nothing moves).
    """
    _pile(state, stock, "stock")
    _pile(state, dst, "dst")
    if discard is not None:
        _pile(state, discard, "discard")
    zones = state.zones
    if not zones.cards[stock] and (discard is None or rebuild_stock(state, stock, discard) == 0):
        return None
    return zones.move(stock, dst)


def gather(state: GameState, stock: int) -> None:
    """Put every card of every pile back on *stock* and shuffle it (``state.rng()``), for
    the next deal of a game of several hands or rounds: nobody knows where any card is.
    Then deal again, e.g. with :func:`deal_round_robin`; a record replays the shuffle.
    The game emits :class:`~cardcore.Shuffled` for it if its players should hear of it.

    :raises ArgumentError: *stock* is not a pile.
    """
    _pile(state, stock, "stock")
    zones = state.zones
    pile = zones.cards[stock]
    for z, cards in enumerate(zones.cards):
        if z != stock and cards:
            pile.extend(cards)
            cards.clear()
            zones.seen[z].clear()
    zones.shuffle(stock, state.rng())
