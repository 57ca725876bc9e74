"""Deck builders, cardcore's chance and its own shuffle.

Chance event *k* of a game seeded *s* draws from a generator of ``(s, k)``,
never a stored one, so a seed deals the same on every platform and Python
version. Games started by this version use :class:`Chance` (record format 3): a
SHAKE-128 stream, cheap to start. Records of format 1 and 2 replay with the
generator of their day, :func:`derive_rng` (a Mersenne Twister seeded per
event); :func:`shuffle` is a Fisher-Yates over either.
"""

from __future__ import annotations

import hashlib
import operator
import random
import sys
from array import array
from collections.abc import Mapping, MutableSequence, Sequence
from contextvars import ContextVar
from typing import Any, TypeVar

from cardcore._text import shown
from cardcore.cards import JOKER, Card, Rank, Suit
from cardcore.errors import ArgumentError

__all__ = [
    "CHANCE",
    "LEGACY_CHANCE",
    "MAX_DECKS",
    "Chance",
    "chance_version",
    "decks",
    "derive_rng",
    "generator",
    "shuffle",
    "standard_52",
    "with_jokers",
]

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


MAX_DECKS = 10_000
"""The most decks (and jokers per deck) :func:`decks` and :func:`with_jokers` build."""


def _count(what: str, n: object) -> None:
    """Refuse a count of decks or jokers that is not an int from 0 to ``MAX_DECKS`` (10,000)
    (a float raised TypeError; a huge int builds a deck no memory holds)."""
    if type(n) is not int or not 0 <= n <= MAX_DECKS:
        msg = f"{what} must be an int from 0 to {MAX_DECKS:,}, not {shown(n, 40)}"
        raise ArgumentError(msg)


def with_jokers(cards: Sequence[Card], n: int = 2) -> tuple[Card, ...]:
    """Return *cards* followed by *n* jokers.

    :param cards: The cards to extend.
    :param n: How many jokers to add.
    :raises ArgumentError: *n* is not an int from 0 to ``MAX_DECKS`` (10,000), or *cards* is not
        a sequence of :class:`~cardcore.Card` (text such as ``"AS KH"``: read it with
        :func:`~cardcore.parse_cards`).
    """
    _count("the number of jokers", n)
    if isinstance(cards, str | bytes):
        msg = f"with_jokers takes a sequence of cards, not the text {shown(cards, 40)} (parse_cards reads text)"
        raise ArgumentError(msg)
    if not isinstance(cards, Sequence):
        msg = f"with_jokers takes a sequence of cards, not {shown(cards, 40)}"
        raise ArgumentError(msg)
    for card in cards:
        if not isinstance(card, Card):
            msg = f"with_jokers takes a sequence of cards, but it holds {shown(card, 40)}"
            raise ArgumentError(msg)
    return (*cards, *(JOKER,) * n)


def decks(n: int = 1, *, jokers_per_deck: int = 0) -> tuple[Card, ...]:
    """Return *n* standard decks one after the other, each with *jokers_per_deck* jokers
    after its 52 cards (the order a seeded shuffle starts from, so it decides every deal).

    Equal cards from different decks are equal values; every one of them is
    still its own entry wherever it lies.

    >>> len(decks(2, jokers_per_deck=2))
    108

    :raises ArgumentError: A count that is not an int from 0 to ``MAX_DECKS`` (10,000).
    """
    _count("the number of decks", n)
    _count("jokers_per_deck", jokers_per_deck)
    one = standard_52()
    return tuple(card for _ in range(n) for card in (*one, *(JOKER,) * jokers_per_deck))


def derive_rng(seed: int, counter: int) -> random.Random:
    """Return the generator for chance event *counter* of a game seeded *seed*,
    as records of format 1 and 2 derive it (new games use :class:`Chance`).

    The derivation hashes both integers, so it is the same on every platform,
    Python version and hash seed.

    :raises ArgumentError: *seed* or *counter* is not an int (a bool, a float or an int
        subclass neither), or has more digits than Python writes out.
    """
    if type(seed) is not int or type(counter) is not int:
        raise _not_int("derive_rng", seed, counter)
    try:
        text = f"{seed}:{counter}"
    except ValueError:  # past sys.get_int_max_str_digits()
        raise _not_int("derive_rng", seed, counter) from None
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


CHANCE = 3
"""The chance derivation of new games: :class:`Chance` (record format 3)."""
LEGACY_CHANCE = 2
"""The chance derivation of records of format 1 and 2: :func:`derive_rng`."""

_VERSION: ContextVar[int] = ContextVar("cardcore_chance", default=CHANCE)

_WORD = "I" if array("I").itemsize == 4 else "L"
_BIG_ENDIAN = sys.byteorder == "big"
_BLOCK = 42
"""Words in one SHAKE-128 block (168 bytes): a shorter digest costs as much."""
_UNREAD: array[int] = array(_WORD)
"""The words of a generator not read yet (shared, never changed: ``_fill`` replaces it)."""


def _not_int(who: str, seed: object, counter: object) -> ArgumentError:
    """The error for a *seed* or *counter* of *who* that is not a plain int it can write."""
    msg = f"{who}: seed and counter must be ints"
    for name, value in (("seed", seed), ("counter", counter)):
        if type(value) is not int:
            msg = f"{who}: {name} must be an int, not {shown(value, 40)} (CORE-CHANCE-1)"
            break
        try:
            str(value)
        except ValueError:
            limit = sys.get_int_max_str_digits()
            msg = f"{who}: {name} is too large to write out, over {limit:,} digits (CORE-CHANCE-1)"
            break
    return ArgumentError(msg)


def chance_version() -> int:
    """The chance derivation of the states built now: :data:`CHANCE`, or
    :data:`LEGACY_CHANCE` while an old record is being replayed."""
    return _VERSION.get()


def generator(seed: int, counter: int, version: int = CHANCE) -> Chance | random.Random:
    """Return the generator of chance event *counter* under derivation *version*.

    :raises ArgumentError: *version* is neither :data:`CHANCE` nor :data:`LEGACY_CHANCE`.
    """
    if type(version) is not int:  # a subclass could compare its own way
        if not issubclass(type(version), int) or issubclass(type(version), bool):
            raise ArgumentError(f"a chance derivation version is an int, not {shown(version)}")
        version = int.__index__(version)
    if version == CHANCE:
        return Chance(seed, counter)
    if version != LEGACY_CHANCE:
        raise ArgumentError(f"no chance derivation version {version}: {CHANCE} or {LEGACY_CHANCE}")
    return derive_rng(seed, counter)


class Chance:
    """The generator of one chance event: a SHAKE-128 stream of ``(seed, counter)``.

    It reads the stream as little-endian 32-bit words. :meth:`shuffle` is a
    Fisher-Yates in which step *i* swaps with ``word % (i + 1)``; the modulo's
    bias is below ``n / 2**32`` (under 3e-8 for a 108-card deck), far below
    anything a game can show. :meth:`random` takes two words as the Mersenne
    Twister does (53 bits); :meth:`randrange`, :meth:`choice` and :meth:`sample`
    reject, so they are exact. Starting one costs one hash, where seeding a Mersenne Twister
    fills 624 words.

    :param seed: The game's seed.
    :param counter: The chance event's number (0 is the first deal).
    :raises ArgumentError: *seed* or *counter* is not an int (a bool, a float or an int
        subclass neither), or has more digits than Python writes out.
    """

    __slots__ = ("_key", "_pos", "_words")

    def __init__(self, seed: int, counter: int) -> None:
        if type(seed) is not int or type(counter) is not int:
            raise _not_int("Chance", seed, counter)
        try:
            self._key = b"cardcore-chance/3:%d:%d" % (seed, counter)
        except ValueError:  # past sys.get_int_max_str_digits()
            raise _not_int("Chance", seed, counter) from None
        self._words = _UNREAD
        self._pos = 0

    def _fill(self, end: int) -> array[int]:
        """Read the stream up to word *end* at least, in whole blocks (a longer digest has
        the same start)."""
        words = array(_WORD, hashlib.shake_128(self._key).digest(168 * -(-end // _BLOCK)))
        if _BIG_ENDIAN:
            words.byteswap()
        self._words = words
        return words

    def _take(self, n: int) -> array[int]:
        """The next *n* words of the stream."""
        pos = self._pos
        end = pos + n
        words = self._words if end <= len(self._words) else self._fill(end)
        self._pos = end
        return words[pos:end]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle *items* in place (one word per card but the first).

        :raises ArgumentError: *items* is not a mutable sequence (a tuple, a text).
        """
        if type(items) is not list and not _mutable(items):
            raise _not_a("shuffle", "a list", items)
        i = len(items)
        if i < 2:
            return
        for r in self._take(i - 1):
            j = r % i
            i -= 1
            items[i], items[j] = items[j], items[i]

    def random(self) -> float:
        """Return the next float in [0, 1): 53 bits from two words."""
        pos = self._pos
        words = self._words if pos + 2 <= len(self._words) else self._fill(pos + 2)
        self._pos = pos + 2
        return ((words[pos] >> 5) * 67108864 + (words[pos + 1] >> 6)) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int) -> int:
        """Return an int of *k* random bits (``k >= 0``)."""
        k = _whole(k, "getrandbits", "an int")
        if k < 0:
            msg = "number of bits must be non-negative"
            raise ValueError(msg)
        words = (k + 31) // 32
        value = 0
        for w in self._take(words):  # the first word is the most significant
            value = value << 32 | w
        return value >> (32 * words - k)

    def _below(self, n: int) -> int:
        k = n.bit_length()
        while True:  # rejection: exact, and fewer than two tries on average
            r = self.getrandbits(k)
            if r < n:
                return r

    def randrange(self, start: int, stop: int | None = None) -> int:
        """Return a random int in ``range(start, stop)`` (or ``range(start)``).

        :raises ValueError: An empty range.
        :raises ArgumentError: A bound that is not an int.
        """
        if stop is None:
            start, stop = 0, start
        start, stop = _whole(start, "randrange", "ints"), _whole(stop, "randrange", "ints")
        if stop <= start:
            msg = f"empty range for randrange({start}, {stop})"
            raise ValueError(msg)
        return start + self._below(stop - start)

    def randint(self, a: int, b: int) -> int:
        """Return a random int from *a* to *b*, both included.

        :raises ArgumentError: *a* or *b* is not an int (as for :meth:`randrange`).
        """
        return self.randrange(a, _whole(b, "randint", "ints") + 1)

    def choice(self, seq: Sequence[T]) -> T:
        """Return a random element of the non-empty *seq*.

        :raises IndexError: *seq* is empty.
        :raises ArgumentError: *seq* is not a sequence.
        """
        if not isinstance(seq, Sequence):
            raise _not_a("choice", "a sequence", seq)
        if not seq:
            msg = "cannot choose from an empty sequence"
            raise IndexError(msg)
        return seq[self._below(len(seq))]

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        """Return *k* distinct elements of *population*, in random order (exact).

        :raises ValueError: *k* is negative or larger than the population.
        :raises ArgumentError: *population* is not a sequence, or *k* not an int.
        """
        if not isinstance(population, Sequence):
            raise _not_a("sample", "a sequence and an int", (population, k))
        k = _whole(k, "sample", "a sequence and an int")
        pool = list(population)
        n = len(pool)
        if not 0 <= k <= n:
            msg = f"sample of {k} is larger than the population of {n} or negative"
            raise ValueError(msg)
        for i in range(k):  # the first k steps of a Fisher-Yates from the front
            j = i + self._below(n - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


def shuffle(items: MutableSequence[T], rng: Chance | random.Random) -> None:
    """Shuffle *items* in place: with :meth:`Chance.shuffle`, or a Fisher-Yates over
    ``rng.random()`` for a :class:`random.Random` (records of format 1 and 2).

    :param items: The list to shuffle.
    :param rng: The generator (``state.rng()``: a :class:`Chance`, or a ``random.Random``
        from :func:`derive_rng` in a replay of a record of format 1 or 2).
    :raises ArgumentError: *rng* is neither (a seed, ``None``).
    """
    if type(rng) is Chance:
        rng.shuffle(items)
        return
    if not isinstance(rng, random.Random):
        msg = f"shuffle draws with a Chance or a random.Random (state.rng()), not {shown(rng, 60)}"
        raise ArgumentError(msg)
    if not _mutable(items):
        raise _not_a("shuffle", "a list", items)
    rand = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(rand() * (i + 1))
        items[i], items[j] = items[j], items[i]


def _mutable(items: Any) -> bool:
    """Whether *items* can be shuffled in place as ``random.shuffle`` does: a mutable
    sequence, or what indexes and assigns like one (a one-dimensional, writable numpy
    array), but no mapping. Checked before anything is drawn."""
    if isinstance(items, MutableSequence):
        return True
    kind = type(items)
    if not (
        hasattr(kind, "__len__")
        and hasattr(kind, "__getitem__")
        and hasattr(kind, "__setitem__")
        and not isinstance(items, Mapping)
    ):
        return False
    if getattr(items, "ndim", 1) != 1 or getattr(getattr(items, "dtype", None), "names", None):
        return False  # rows of a 2-D or a structured array are views: swapping loses some
    writeable = getattr(getattr(items, "flags", None), "writeable", None)  # numpy's, unwritten
    if isinstance(writeable, bool):
        return writeable
    if isinstance(items, memoryview):
        return not items.readonly
    try:  # anything else: one write of a card onto itself, as the shuffle's swaps write
        if len(items):
            items[0] = items[0]  # read-only: refused
    except Exception:  # no len, or a read-only one refuses the write
        return False
    return True


def _not_a(method: str, wanted: str, given: object) -> ArgumentError:
    return ArgumentError(f"{method} takes {wanted}, not {shown(given, 60)}")


def _whole(value: Any, method: str, wanted: str) -> int:
    """*value* as a plain int: an int or what stands for one (numpy's), as ``random`` takes."""
    try:
        return operator.index(value)
    except TypeError:
        raise _not_a(method, wanted, value) from None
