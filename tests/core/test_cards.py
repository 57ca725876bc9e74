from __future__ import annotations

import pickle

import pytest

from cardcore import JOKER, ArgumentError, Card, NotationError, Rank, Suit, parse_cards
from cardcore.deck import decks, standard_52


@pytest.mark.parametrize("text", [str(c) for c in standard_52()] + ["JK"])
def test_parse_str_round_trip(text: str) -> None:
    card = Card.parse(text)
    assert str(card) == text
    assert eval(repr(card), {"Card": Card}) == card


def test_parse_is_case_and_space_insensitive() -> None:
    assert Card.parse(" qs ") is Card.parse("QS")
    assert Card.parse("jk") is JOKER


def test_ten_and_ranks() -> None:
    ten = Card.parse("10H")
    assert ten.rank is Rank.TEN and ten.suit is Suit.HEARTS and ten.label == "10"
    assert JOKER.is_joker and JOKER.suit is None and JOKER.label == "JK"
    assert not Card.parse("AS").is_joker


@pytest.mark.parametrize("bad", ["", "1H", "11S", "HX", "10", "T H", "JKK", "QQ", "ZZ", "10HH"])
def test_parse_rejects_bad_text(bad: str) -> None:
    with pytest.raises(NotationError, match="not a card"):
        Card.parse(bad)


def test_parse_rejects_non_strings() -> None:
    with pytest.raises(NotationError):
        Card.parse(10)  # type: ignore[arg-type]


def test_parse_cards_accepts_commas_and_cards() -> None:
    assert parse_cards("5H, 9C JK") == (Card.parse("5H"), Card.parse("9C"), JOKER)
    assert parse_cards([Card.parse("5H"), "9C"]) == (Card.parse("5H"), Card.parse("9C"))
    with pytest.raises(NotationError, match="'9X'"):
        parse_cards("5H 9X")


def test_equal_cards_from_several_decks_each_counted() -> None:
    two = decks(2, jokers_per_deck=2)
    assert len(two) == 108
    assert two.count(Card.parse("7H")) == 2
    assert two.count(JOKER) == 4
    assert len(set(standard_52())) == 52


def test_suit_helpers() -> None:
    assert Suit.HEARTS.is_red and not Suit.CLUBS.is_red
    assert Suit.SPADES.letter == "S"


def test_text_attribute_is_the_notation_for_every_card() -> None:
    for card in (*standard_52(), JOKER):
        assert card.text == str(card)
        assert Card.parse(card.text) is card
        copy = Card(card.rank, card.suit)  # built directly: equal, with its own text
        assert copy == card and copy.text == card.text and hash(copy) == hash(card)
        assert pickle.loads(pickle.dumps(card)).text == card.text


@pytest.mark.parametrize(
    ("rank", "suit"),
    [
        (1, Suit.HEARTS),
        (Rank.ACE, "H"),
        (Rank.ACE, None),
        (Rank.JOKER, Suit.SPADES),
        ("A", Suit.CLUBS),
    ],
)
def test_direct_construction_refuses_parts_of_the_wrong_kind(rank: object, suit: object) -> None:
    with pytest.raises(ArgumentError, match="not a card"):
        Card(rank, suit)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [None, 5, 3.5, b"5H", {"5H": 1}])
def test_parse_cards_refuses_what_is_neither_text_nor_a_list(bad: object) -> None:
    with pytest.raises(ArgumentError, match="cards are text like '5H 9C' or a list of cards"):
        parse_cards(bad)  # type: ignore[arg-type]
