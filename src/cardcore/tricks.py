"""Building blocks for trick-taking games: which cards follow the lead, and who wins a trick.

Trick-taking is the largest family of card games (whist, bridge, spades, hearts,
euchre, Oh Hell); these functions are the part every one of them repeats. Ranks
count aces high (:data:`ACE_HIGH`) unless a game passes its own order (a mapping
from :class:`~cardcore.Rank` to strength, or a function of the card, for a game
whose jacks outrank its aces, or whose strength depends on the suit).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from cardcore._text import shown
from cardcore.cards import Card, Rank, Suit
from cardcore.errors import ArgumentError

__all__ = ["ACE_HIGH", "Order", "SuitOf", "following", "trick_winner"]

ACE_HIGH: Mapping[Rank, int] = MappingProxyType(
    {Rank.JOKER: 0, **{Rank(n): n for n in range(2, 14)}, Rank.ACE: 14}
)
"""Rank strengths with the ace above the king (2 lowest, the joker below everything)."""

Order = Mapping[Rank, int] | Callable[[Card], int]
"""A game's order of strength: rank -> strength, or card -> strength."""


SuitOf = Callable[[Card], "Suit | None"]
"""A game's suit of a card, where it differs from the printed one (Euchre's left bower)."""


def following(
    hand: Sequence[Card], led: Suit | None, *, suit_of: SuitOf | None = None
) -> tuple[Card, ...]:
    """The cards of *hand* that may be played to a trick whose lead was of suit *led*: those
    of that suit if the hand holds any, else every card (``led`` ``None``: the lead itself,
    any card). In the hand's order. *suit_of* gives a card's suit where the game's differs
    from the printed one (Euchre: the left bower is a trump).

    >>> from cardcore import Suit, parse_cards
    >>> hand = parse_cards("KH 2S 9H JK")
    >>> [str(c) for c in following(hand, Suit.HEARTS)], len(following(hand, Suit.CLUBS))
    (['KH', '9H'], 4)

    :raises ArgumentError: *hand* is not a sequence (a list or tuple: a set has no order) of
        :class:`~cardcore.Card`, *led* is not a :class:`~cardcore.Suit` or ``None``, or
        *suit_of* is not callable, fails, or answers neither a :class:`~cardcore.Suit` nor
        ``None`` (no suit: a joker). It is not called on a lead (*led* ``None``).
    """
    cards = _cards(hand, "hand")
    if led is not None and not isinstance(led, Suit):
        msg = f"led must be a Suit or None, not {shown(led, 40)}"
        raise ArgumentError(msg)
    suit = _suit(suit_of)  # (checked on a lead too)
    if led is None:
        return cards
    same = tuple(c for c in cards if suit(c) is led)
    return same if same else cards


def trick_winner(
    plays: Sequence[Card],
    *,
    trump: Suit | None = None,
    order: Order = ACE_HIGH,
    suit_of: SuitOf | None = None,
) -> int:
    """Return the index in *plays* (the trick's cards in the order played, the lead first)
    of the card that wins it: the strongest trump if a trump was played, else the strongest
    card of the suit led. Of two equal cards (two decks) the first played wins. A joker has
    no suit: it neither follows nor trumps (a joker lead makes every joker a follower),
    unless *suit_of* gives it one. *suit_of* gives a card's suit where the game's differs
    from the printed one, and *order* its strength (Euchre's bowers: both).

    The seat that won is ``(leader + index) % players`` when every seat plays in turn from
    the leader, and ``turns.seats_from(leader, players, skip=out)[index]`` when some sit
    out (:func:`cardcore.turns.seats_from`).

    >>> from cardcore import Suit, parse_cards
    >>> trick_winner(parse_cards("10H AH 2S KH"))  # the ace of the suit led
    1
    >>> trick_winner(parse_cards("10H AH 2S KH"), trump=Suit.SPADES)  # the only trump
    2
    >>> trick_winner(parse_cards("QD QD 3C"))  # two decks: the first queen
    0

    :raises ArgumentError: *plays* is empty or not a sequence (a list or tuple: a set has no
        order) of :class:`~cardcore.Card`, *trump* is not a :class:`~cardcore.Suit` or
        ``None``, *order* is neither a mapping nor callable or gives a card that could win
        (of the suit led, or a trump) no whole-number strength (or fails), or *suit_of* is not callable, fails, or answers
        neither a :class:`~cardcore.Suit` nor ``None`` (no suit: a joker).
    """
    cards = _cards(plays, "plays")
    if not cards:
        msg = "a trick needs at least one card played"
        raise ArgumentError(msg)
    if trump is not None and not isinstance(trump, Suit):
        msg = f"trump must be a Suit or None, not {shown(trump, 40)}"
        raise ArgumentError(msg)
    strength = _strength(order)
    suits = [_suit(suit_of)(c) for c in cards]
    suit = trump if trump is not None and trump in suits else suits[0]
    best, best_at = None, 0
    for i, card in enumerate(cards):
        if suits[i] is not suit:
            continue
        value = strength(card)
        if best is None or value > best:
            best, best_at = value, i
    return best_at


def _suit(suit_of: SuitOf | None) -> Callable[[Card], Suit | None]:
    if suit_of is None:
        return lambda card: card.suit
    if not callable(suit_of):
        msg = f"suit_of must be a function of a card, not {shown(suit_of, 40)}"
        raise ArgumentError(msg)

    def checked(card: Card) -> Suit | None:
        try:
            suit = suit_of(card)
        except Exception as exc:
            msg = f"suit_of failed for card {card}: {shown(exc, 80)}"
            raise ArgumentError(msg) from exc
        if suit is not None and not isinstance(suit, Suit):
            msg = f"suit_of gives card {card} no suit: {shown(suit, 40)}"
            raise ArgumentError(msg)
        return suit

    return checked


def _cards(cards: Sequence[Card], what: str) -> tuple[Card, ...]:
    if isinstance(cards, str | bytes) or not isinstance(cards, Sequence):  # (a set: no order)
        msg = (
            f"{what} must be a sequence of cards (see cardcore.parse_cards), not {shown(cards, 40)}"
        )
        raise ArgumentError(msg)
    out = tuple(cards)
    for card in out:
        if not isinstance(card, Card):
            msg = f"{what} must hold cards (see cardcore.parse_cards), not {shown(card, 40)}"
            raise ArgumentError(msg)
    return out


def _strength(order: Order) -> Callable[[Card], int]:
    if isinstance(order, Mapping):
        table = order

        def by_rank(card: Card) -> int:
            try:
                value = table.get(card.rank)
            except Exception as exc:  # a mapping of the game's own that fails
                msg = f"order failed for card {card}: {shown(exc, 80)}"
                raise ArgumentError(msg) from exc
            return _whole(value, card)

        return by_rank
    if callable(order):
        call = order

        def by_card(card: Card) -> int:
            try:
                value = call(card)
            except Exception as exc:  # not a function of a card (int, a class), or failing
                msg = f"order failed for card {card}: {shown(exc, 80)}"
                raise ArgumentError(msg) from exc
            return _whole(value, card)

        return by_card
    msg = f"order must be a mapping of ranks or a function of a card, not {shown(order, 40)}"
    raise ArgumentError(msg)


def _whole(value: Any, card: Card) -> int:
    if isinstance(value, bool) or value is None:
        index = None
    else:
        try:  # any whole number, a numpy one too
            index = operator.index(value)
        except Exception:  # (an __index__ of its own that fails, too)
            index = None
    if index is None:
        msg = f"order gives card {card} no whole-number strength: {shown(value, 40)}"
        raise ArgumentError(msg)
    return index
