"""Fixes of the second session of 2026-12-06, each pinned by a test that failed before it."""

from __future__ import annotations

import pytest

import cardcore
from cardcore_tonk.position import stack_deals

_PACK = [
    f"{r}{s}"
    for s in "SHDC"
    for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
]


def _stacked(deals: int, **kwargs: object) -> str:
    """A position of the first of two hands, *deals* coming deals stacked on it."""
    game = cardcore.new_game("tonk", 3, options={"hands": 2}, seed=4, **kwargs)  # type: ignore[arg-type]
    assert game.version == 0 and not game.is_over
    return stack_deals(game.position(), [_PACK[::-1]] * deals)


def test_next_stacks_more_deals_than_hands_while_a_void_deal_is_dealt_again() -> None:
    """TONK-NOTE-2 (one list per deal) + TONK-49-2 (a void deal is dealt again): with the
    natural rule on, a void deal's re-deal is a coming deal of its own, so ``next`` may hold
    more lists than hands to come (it was capped at the hands)."""
    position = _stacked(3)
    game = cardcore.new_game("tonk", 3, options={"hands": 2}, position=position, seed=4)
    assert game.position().count("next=") == 1
    assert game.position() == position


@pytest.mark.parametrize(
    "how", [{"without": ["tonk.natural-49-50"]}, {"rules": ["tonk.void-deal-counts"]}]
)
def test_next_stays_capped_at_the_hands_when_no_deal_is_dealt_again(
    how: dict[str, list[str]],
) -> None:
    """Without the natural rule, or with void deals counting as hands, every deal is a hand:
    one list per hand to come, as before."""
    assert cardcore.new_game(
        "tonk", 3, options={"hands": 2}, position=_stacked(1, **how), seed=4, **how
    )  # type: ignore[arg-type]
    with pytest.raises(cardcore.OptionError, match="next must list at most 1 coming deals"):
        cardcore.new_game(
            "tonk", 3, options={"hands": 2}, position=_stacked(2, **how), seed=4, **how
        )  # type: ignore[arg-type]


def test_next_is_refused_in_the_last_hand_even_with_the_natural_rule() -> None:
    """No deal comes after the last hand in play, void or not: ``next`` must be empty."""
    game = cardcore.new_game("tonk", 3, seed=4)
    with pytest.raises(cardcore.OptionError, match="next must list at most 0 coming deals"):
        cardcore.new_game("tonk", 3, position=stack_deals(game.position(), [_PACK]), seed=4)
