"""``cardcore.tricks``: following the lead and winning a trick, worked by hand."""

from __future__ import annotations

from typing import Any

import pytest

from cardcore import ArgumentError, Card, Rank, Suit, parse_cards, tricks
from cardcore.tricks import ACE_HIGH, following, trick_winner


def texts(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def test_a_hand_follows_the_suit_led_when_it_can() -> None:
    hand = parse_cards("KH 2S 9H JK 4D")
    assert texts(following(hand, Suit.HEARTS)) == ["KH", "9H"]
    assert texts(following(hand, Suit.SPADES)) == ["2S"]


def test_a_hand_void_in_the_suit_led_may_play_anything_and_the_lead_is_free() -> None:
    hand = parse_cards("KH 2S JK")
    assert texts(following(hand, Suit.CLUBS)) == ["KH", "2S", "JK"]
    assert texts(following(hand, None)) == ["KH", "2S", "JK"]
    assert following((), Suit.CLUBS) == ()


@pytest.mark.parametrize(
    ("plays", "trump", "winner"),
    [
        ("10H AH 2S KH", None, 1),  # aces high, the suit led
        ("10H AH 2S KH", Suit.SPADES, 2),  # a lone trump beats every ace
        ("10H 3S AH 9S", Suit.SPADES, 3),  # the higher of two trumps
        ("2C AD KD QD", None, 0),  # nobody followed: the lead's deuce wins
        ("5H 5H 4H", None, 0),  # two decks: the first of equal cards
        ("QD 2S QD", Suit.HEARTS, 0),  # a trump suit nobody played changes nothing
        ("JK 2H JK", None, 0),  # a joker lead: only jokers follow it
        ("9C JK KC", Suit.CLUBS, 2),  # a joker never trumps
    ],
)
def test_the_trick_goes_to_the_strongest_trump_else_the_strongest_of_the_suit_led(
    plays: str, trump: Suit | None, winner: int
) -> None:
    assert trick_winner(parse_cards(plays), trump=trump) == winner


def test_a_game_passes_its_own_order() -> None:
    low = {**ACE_HIGH, Rank.ACE: 1}  # aces low
    assert trick_winner(parse_cards("2H AH KH"), order=low) == 2
    euchre = {Card.parse("JH"): 30, Card.parse("JD"): 29}  # right and left bowers

    def strength(card: Card) -> int:
        return euchre.get(card, ACE_HIGH[card.rank])

    assert trick_winner(parse_cards("AH JH KH"), order=strength) == 1


def test_the_seat_that_won_counts_from_the_leader() -> None:
    leader, players = 3, 4
    index = trick_winner(parse_cards("10H AH 2S KH"))
    assert (leader + index) % players == 0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: trick_winner(()), "at least one card"),
        (lambda: trick_winner("AH KH"), "sequence of cards"),  # type: ignore[arg-type]
        (lambda: trick_winner(["AH"]), "must hold cards"),  # type: ignore[list-item]
        (lambda: trick_winner(parse_cards("AH"), trump="H"), "trump must be a Suit"),  # type: ignore[arg-type]
        (lambda: trick_winner(parse_cards("AH"), order=3), "order must be"),  # type: ignore[arg-type]
        (lambda: trick_winner(parse_cards("AH KH"), order={}), "no whole-number strength"),
        (lambda: trick_winner(parse_cards("AH"), order=lambda c: 1.5), "no whole-number"),  # type: ignore[arg-type, return-value]
        (lambda: following(parse_cards("AH"), "H"), "led must be a Suit"),  # type: ignore[arg-type]
        (lambda: following(None, Suit.HEARTS), "sequence of cards"),  # type: ignore[arg-type]
    ],
)
def test_bad_arguments_are_named(call: Any, message: str) -> None:
    with pytest.raises(ArgumentError, match=message):
        call()


def test_the_module_is_reachable_from_the_package() -> None:
    assert tricks.trick_winner is trick_winner and tricks.ACE_HIGH[Rank.ACE] == 14
    with pytest.raises(TypeError):
        tricks.ACE_HIGH[Rank.ACE] = 1  # type: ignore[index]


@pytest.mark.parametrize(
    "unordered",
    [
        set(parse_cards("2H 3H AS")),
        frozenset(parse_cards("2H 3H")),
        iter(parse_cards("2H")),
        {"AH": 1},
    ],
)
def test_plays_and_hands_must_be_sequences(unordered: Any) -> None:
    with pytest.raises(ArgumentError, match="sequence of cards"):
        trick_winner(unordered)
    with pytest.raises(ArgumentError, match="sequence of cards"):
        following(unordered, Suit.HEARTS)
