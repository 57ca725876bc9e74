"""Fixes of 2026-12-06 outside the option aliases (tests/test_option_aliases_2026_12_06.py)."""

from __future__ import annotations

from typing import Any

import pytest

from cardcore import ArgumentError, Card, ScoreTable
from cardcore.cards import parse_cards


def test_from_points_refuses_an_unhashable_item_as_no_card() -> None:
    """It read the cards through set(), so a list among them raised a raw TypeError."""
    with pytest.raises(ArgumentError, match=r"from_points takes cards, not \[1\]"):
        ScoreTable.from_points(lambda c: 1, [Card.parse("KH"), [1]])  # type: ignore[list-item]


def test_from_points_names_the_first_bad_card_in_the_order_given() -> None:
    """It asked the cards in set() order, which follows PYTHONHASHSEED: with several bad
    answers, the card an error named differed between processes (and xdist workers)."""
    asked: list[str] = []

    def points(card: Card) -> Any:
        asked.append(str(card))
        return "x"

    cards = parse_cards(["QS", "2H", "KD", "2H"])
    with pytest.raises(ArgumentError, match="points for QS must be an int"):
        ScoreTable.from_points(points, cards)
    assert asked == ["QS"]
    asked.clear()
    table = ScoreTable.from_points(lambda c: asked.append(str(c)) or 3, reversed(cards))
    assert asked == ["2H", "KD", "QS"]  # each distinct card once, in the order given
    assert all(table[c] == 3 for c in cards)


def test_from_points_refuses_what_is_no_iterable_by_name() -> None:
    with pytest.raises(ArgumentError, match="from_points takes an iterable of cards, not 5"):
        ScoreTable.from_points(lambda c: 1, 5)  # type: ignore[arg-type]
