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


def test_a_save_whose_state_differs_is_refused_naming_the_place_never_a_card() -> None:
    """load() named no place, so an intact save of another build (a field since dropped)
    read as damaged; now the first differing path, and the way out, with no card in it."""
    import copy
    import json

    import cardcore
    from cardcore import CorruptStateError

    game = cardcore.new_game("golf", 2, seed=4)
    for _ in range(3):
        game.apply(game.legal_actions(game.to_act[0])[0])
    save = json.loads(json.dumps(game.save()))
    stock = next(name for name in save["state"]["zones"] if "stock" in name)
    cards = save["state"]["zones"][stock]["cards"]
    swapped = copy.deepcopy(save)
    pile = swapped["state"]["zones"][stock]["cards"]
    pile[0], pile[1] = pile[1], pile[0]  # same cards, another order: only the snapshot knows
    assert pile != cards
    with pytest.raises(CorruptStateError) as caught:
        cardcore.load(swapped)
    text = str(caught.value)
    assert f"first at state.zones.{stock}.cards[0])" in text
    assert "cardcore.replay(save['record'])" in text
    assert not any(str(card) in text for card in cards)
    extra = copy.deepcopy(save)
    extra["state"]["retired"] = None
    with pytest.raises(CorruptStateError, match=r"first at state\.retired \(not replayed\)"):
        cardcore.load(extra)
    assert cardcore.load(save).position() == game.position()
