"""Deck builders and cardcore's own shuffle.

Shuffles are a Fisher-Yates over ``rng.random()`` so that a seed gives the same
order on every Python version (``random.shuffle`` changed between versions).
Generators are derived from ``(seed, counter)`` and never stored in a state.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from cardcore.cards import JOKER, Card, Rank, Suit

__all__ = ["decks", "derive_rng", "shuffle", "standard_52", "with_jokers"]

T = TypeVar("T")

_STANDARD = tuple(
    Card.parse(rank.label + suit.letter) for suit in Suit for rank in Rank if rank is not Rank.JOKER
)


def standard_52() -> tuple[Card, ...]:
    """Return the 52 cards of one deck, suits S, H, D, C and ranks A to K within each.

    >>> len(standard_52()), str(standard_52()[0]), str(standard_52()[-1])
    (52, 'AS', 'KC')
    """
    return _STANDARD


def with_jokers(cards: Sequence[Card], n: int = 2) -> tuple[Card, ...]:
    """Return *cards* followed by *n* jokers.

    :param cards: The cards to extend.
    :param n: How many jokers to add.
    """
    return (*cards, *(JOKER,) * n)


def decks(n: int = 1, *, jokers_per_deck: int = 0) -> tuple[Card, ...]:
    """Return *n* standard decks one after the other, each with *jokers_per_deck* jokers.

    Equal cards from different decks are equal values; every one of them is
    still its own entry wherever it lies.

    >>> len(decks(2, jokers_per_deck=2))
    108
    """
    one = standard_52()
    return tuple(card for _ in range(n) for card in (*one, *(JOKER,) * jokers_per_deck))


def derive_rng(seed: int, counter: int) -> random.Random:
    """Return the generator for chance event *counter* of a game seeded *seed*.

    The derivation hashes both integers, so it is the same on every platform,
    Python version and hash seed.
    """
    digest = hashlib.blake2b(f"{seed}:{counter}".encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def shuffle(items: MutableSequence[T], rng: random.Random) -> None:
    """Shuffle *items* in place with a Fisher-Yates over ``rng.random()``.

    :param items: The list to shuffle.
    :param rng: The generator (see :func:`derive_rng`).
    """
    rand = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(rand() * (i + 1))
        items[i], items[j] = items[j], items[i]
