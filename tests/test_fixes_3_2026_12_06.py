"""Fixes and doc claims of the afternoon of 2026-12-06, each pinned to behaviour."""

from __future__ import annotations

import pytest

import cardcore


def _tonk_after_draw() -> tuple[cardcore.Game, int, str]:
    game = cardcore.new_game("tonk", 2, seed=1)
    seat = game.to_act[0]
    game.act(seat, "draw")
    card = next(str(a).split()[1] for a in game.legal_actions(seat) if str(a).startswith("discard"))
    return game, seat, card


@pytest.mark.parametrize(
    ("name", "text", "error"),
    [
        ("golf", "flip 6", cardcore.IllegalActionError),
        ("golf", "flip 99", cardcore.IllegalActionError),
        ("spit", "play 6 L", cardcore.NotationError),
        ("spit", "play 0 L", cardcore.NotationError),
    ],
)
def test_number_out_of_range_is_illegal_or_malformed_as_notation_rst_says(
    name: str, text: str, error: type[Exception]
) -> None:
    """notation.rst: a number the game's words allow but the table lacks is illegal; a
    number outside the words is malformed. Nothing changes either way."""
    game = cardcore.new_game(name, 2, seed=1)
    if name == "spit":
        for seat in (0, 1):
            game.act(seat, "ready")
    seat = game.to_act[0]
    before = game.save()
    with pytest.raises(error):
        game.act(seat, text)
    assert game.save() == before


def test_tonk_spread_number_missing_is_illegal_zero_is_malformed() -> None:
    game, seat, card = _tonk_after_draw()
    before = game.save()
    with pytest.raises(cardcore.IllegalActionError, match="no spread number 9"):
        game.act(seat, f"hit 9 {card}")
    with pytest.raises(cardcore.NotationError):
        game.act(seat, f"hit 0 {card}")
    assert game.save() == before
