"""Fixes of 2026-12-27, each test failing on the code before its fix."""

from __future__ import annotations

import pytest

import cardcore
from cardcore import OptionError
from cardcore.positions import refused


def test_a_game_quoting_a_hostile_position_value_whole_is_cut_to_400_characters() -> None:
    """Tonk quoted a 5,000-seat ``hit`` list whole (15,000 characters) in its refusal."""
    text = cardcore.new_game("tonk", 2, seed=1).position()
    bad = text.replace("turn=", "hit=[" + ",".join(["0"] * 5000) + "] turn=", 1)
    with pytest.raises(OptionError) as caught:
        cardcore.new_game("tonk", 2, position=bad)
    message = str(caught.value)
    assert message.startswith("bad position: hit names a seat twice: [0, 0")
    assert len(message) <= len("bad position: ") + 400 + len(" (CORE-POSITION-1)")
    assert message.endswith(" ... (CORE-POSITION-1)")
    assert caught.value.rule_id == "CORE-POSITION-1"


def test_a_cut_refusal_keeps_the_rule_it_cites() -> None:
    error = refused("pile q is stuck: " + "x" * 1000 + " (SPEED-STUCK-1)")
    assert str(error).startswith("bad position: pile q is stuck: xxx")
    assert str(error).endswith("x ... (SPEED-STUCK-1)")
    assert len(str(error)) == len("bad position: ") + 400
    assert error.rule_id == "SPEED-STUCK-1"
    short = refused("hand.0 must hold 5 cards")  # short messages are untouched
    assert str(short) == "bad position: hand.0 must hold 5 cards (CORE-POSITION-1)"


def test_a_stock_out_position_refused_by_a_house_rule_does_not_cite_the_base_rule() -> None:
    """Under ``tonk.stock-out-discard-only`` (TONK-VAR-5) the base rule TONK-STOCK-1 (the hand
    ends when a turn begins with an empty stock) is off; the refusal cited it anyway."""
    from tests.games.test_house_mutants_2026_12_27 import _stock_out_position

    empty = _stock_out_position("", "QH QD QC JS JH")
    with pytest.raises(OptionError) as caught:
        cardcore.new_game("tonk", 2, rules=["tonk.stock-out-discard-only"], position=empty)
    assert "TONK-STOCK-1" not in str(caught.value)
    assert "a house rule of the game's (tonk_hand_ends_on_empty_stock)" in str(caught.value)
    with pytest.raises(OptionError) as caught:
        cardcore.new_game("tonk", 2, position=empty)
    assert caught.value.rule_id == "TONK-STOCK-1"
