"""Playing cards: :class:`Suit`, :class:`Rank`, :class:`Card` and :func:`parse_cards`.

Cards are small frozen values. Two cards of the same rank and suit compare
equal even when they come from different decks; piles keep each physical card
as its own entry, so several decks are still each accounted for.

>>> Card.parse("10H")
Card.parse('10H')
>>> str(Card.parse("jk"))
'JK'
>>> [str(c) for c in parse_cards("AS 2d JK")]
['AS', '2D', 'JK']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping

from attrs import field, frozen

from cardcore._text import each, shown
from cardcore.errors import ArgumentError, NotationError

__all__ = ["JOKER", "Card", "Rank", "Suit", "parse_cards"]


class Suit(enum.Enum):
    """The four French suits; the value is the one-letter code."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def letter(self) -> str:
        """The one-letter code used in notation (``"S"``, ``"H"``, ``"D"``, ``"C"``)."""
        return self.value

    @property
    def is_red(self) -> bool:
        """Whether the suit is hearts or diamonds."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SUIT_KEYS = {Suit.SPADES: 1, Suit.HEARTS: 2, Suit.DIAMONDS: 3, Suit.CLUBS: 4}


def _card_key(rank: Rank, suit: Suit | None) -> int:
    """A card's hash: its rank and suit as one small number, the same in every process."""
    return rank.value * 5 + (0 if suit is None else _SUIT_KEYS[suit])


class Rank(enum.IntEnum):
    """Card ranks with their natural numbers (ace low); ``JOKER`` is 0.

    An ``IntEnum``: ``int(Rank.QUEEN) == 12`` and ranks compare and do arithmetic as ints.
    """

    JOKER = 0
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def label(self) -> str:
        """The rank as written in notation: ``"A"``, ``"2"`` ... ``"10"``, ``"J"``, ``"Q"``, ``"K"``, ``"JK"``."""
        return _LABELS[self]


_LABELS = {
    Rank.JOKER: "JK",
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    **{Rank(n): str(n) for n in range(2, 11)},
}


@frozen(repr=False)
class Card:
    """One playing card: a rank and a suit, or a joker (suit ``None``).

    Build cards with :meth:`parse`; it returns shared (interned) objects.

    :raises ArgumentError: Built directly with a rank that is not a :class:`Rank`, or a
        suit that is not a :class:`Suit` (``None`` only for the joker).
    """

    rank: Rank
    suit: Suit | None  # None for a joker
    text: str = field(init=False, eq=False, order=False, hash=False, repr=False)
    """The card in notation (``"10H"``, ``"JK"``): ``str(card)`` without a call, for hot loops."""
    _key: int = field(init=False, eq=False, order=False, hash=False, repr=False, alias="_key")

    def __hash__(self) -> int:
        """The same number in every process (rank and suit), unlike a hash of text: a ``set``
        of cards iterates in the same order wherever it runs, so a deal that passes through
        one replays anywhere."""
        try:
            return self._key
        except AttributeError:  # unpickled from cardcore before this hash: no key saved
            key = _card_key(self.rank, self.suit)
            object.__setattr__(self, "_key", key)
            return key

    def __attrs_post_init__(self) -> None:
        rank, suit = self.rank, self.suit
        label = _LABELS.get(rank) if type(rank) is Rank else None
        if label is None or not (
            (suit is None and rank is Rank.JOKER) or (type(suit) is Suit and rank is not Rank.JOKER)
        ):
            msg = f"not a card: rank {shown(rank)} with suit {shown(suit)} (build cards with Card.parse)"
            raise ArgumentError(msg)
        object.__setattr__(self, "text", label if suit is None else label + suit.value)
        object.__setattr__(self, "_key", _card_key(rank, suit))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``"10H"``, ``"QS"``, ``"as"`` or ``"JK"``; raise :class:`NotationError` otherwise.

        :param text: Rank label followed by suit letter, case-insensitive, or ``"JK"``.
        :returns: The interned card.
        :raises NotationError: If *text* is not a card.
        """
        try:
            return _BY_TEXT[text]
        except Exception:  # KeyError, unhashable, or a hostile __hash__/__eq__: read it plain
            pass
        if issubclass(type(text), str):  # the real type, not a claim through __class__
            text = str.__str__(text)  # plain: a subclass could strip or print its own way
            # ASCII only: "Qſ".upper() is "QS" (a long s), no card a player wrote
            card = _BY_TEXT.get(text.strip().upper()) if text.isascii() else None
            if card is not None:
                return card
        msg = f"not a card: {shown(text)}: expected rank+suit like '10H', or 'JK' (CORE-NOTATION-2)"
        raise NotationError(msg)

    @property
    def is_joker(self) -> bool:
        """Whether this card is a joker."""
        return self.suit is None

    @property
    def label(self) -> str:
        """The rank label (``"10"``, ``"Q"``, ``"JK"``): cards with equal labels pair by rank."""
        return _LABELS[self.rank]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse({self.text!r})"


JOKER = Card(Rank.JOKER, None)
"""The joker. All jokers are equal; each one dealt is still its own pile entry."""

_BY_TEXT: dict[str, Card] = {"JK": JOKER}
for _suit in Suit:
    for _rank in Rank:
        if _rank is Rank.JOKER:
            continue
        _card = Card(_rank, _suit)
        _BY_TEXT[_card.text] = _card


def card_texts(cards: Iterable[Card]) -> list[str]:
    """Return the notation of each of *cards*: ``[str(c) for c in cards]``, in fewer calls."""
    return [c.text for c in cards]


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Read several cards separated by spaces or commas (or an iterable of cards or texts).

    >>> parse_cards("5H, 9C JK")
    (Card.parse('5H'), Card.parse('9C'), Card.parse('JK'))

    :param text: ``"5H 9C JK"`` or ``["5H", Card.parse("9C")]``.
    :returns: The cards in the given order.
    :raises NotationError: Naming the first item that is not a card.
    :raises ArgumentError: *text* is neither text nor an iterable.
    """
    items: Iterable[str | Card]
    if type(text) is not str and issubclass(type(text), str):
        text = str.__str__(text)  # plain: a subclass could split its own way
    items = text.replace(",", " ").split() if type(text) is str else text
    if not issubclass(type(items), Iterable) or issubclass(type(items), bytes | Mapping):
        msg = f"cards are text like '5H 9C' or a list of cards, not {shown(text)}"
        raise ArgumentError(msg)
    out: list[Card] = []
    for item in items if type(items) is list or type(items) is tuple else each(items, "cards"):
        out.append(item if isinstance(item, Card) else Card.parse(item))
    return tuple(out)
