"""Tests that kill mutants the Tonk tests let survive (scripts/mutation.py tonk).

Expected values are worked out by hand from the docstrings and TONK-SPREAD-1/2,
TONK-HIT-1 and TONK-LEGAL-1. Surviving mutants not covered here are equivalent
(one deck never holds five cards of a rank; ``rindex`` equals ``index`` on
"SHDC"; the first or second card give the same rank/suit test; a loop bound one
wider only meets empty ranges; ``+=`` on a payout still 0 equals ``=``; a joker
never reaches ``card_index``).
"""

from __future__ import annotations

from cardcore import JOKER, Card, parse_cards
from cardcore_tonk.melds import (
    BOOK,
    RUN,
    Meld,
    card_order,
    hit_targets,
    meld_of,
    spread_candidates,
    spreads_of,
)


def _texts(spreads: list[tuple[Card, ...]]) -> list[str]:
    return [" ".join(str(c) for c in s) for s in spreads]


def test_tonk_card_order_is_four_times_rank_plus_suit() -> None:
    assert card_order(Card.parse("5H")) == 4 * 5 + 1
    assert card_order(Card.parse("KC")) == 4 * 13 + 3
    assert card_order(JOKER) == 0  # no suit: no suit offset


def test_tonk_book_of_three_takes_each_suit_of_its_rank() -> None:
    # rank 5: indices 4 * (5 - 1) + suit = 16 (S), 17 (H), 18 (D), 19 (C)
    assert hit_targets(Meld(BOOK, "", 5, 5, 3)) == (16, 17, 18, 19)
    assert hit_targets(Meld(BOOK, "", 5, 5, 4)) == ()


def test_tonk_run_from_two_may_be_hit_by_the_ace() -> None:
    # 2S-3S-4S: the ace of spades (index 0) below, the five of spades (index 16) above
    assert hit_targets(Meld(RUN, "S", 2, 4, 3)) == (0, 16)
    assert hit_targets(Meld(RUN, "S", 1, 3, 3)) == (12,)  # nothing below the ace
    assert hit_targets(Meld(RUN, "C", 11, 13, 3)) == (4 * 9 + 3,)  # 10C; nothing above the king


def test_tonk_meld_of_book_has_no_suit_and_its_rank_twice() -> None:
    # 3S, 3H, 3D are indices 8, 9, 10
    assert meld_of([8, 9, 10]) == Meld(BOOK, "", 3, 3, 3)
    assert meld_of([8, 9, 10, 11]) == Meld(BOOK, "", 3, 3, 4)


def test_tonk_spread_candidates_finds_a_run_of_exactly_three() -> None:
    assert _texts(spread_candidates(parse_cards("5S 3S 4S"))) == ["3S 4S 5S"]


def test_tonk_spread_candidates_runs_after_a_gap() -> None:
    hand = parse_cards("2S 4S 5S 6S 9H")
    assert _texts(spread_candidates(hand)) == ["4S 5S 6S"]
    hand = parse_cards("AS 2S 3S 5S 6S 7S")
    assert _texts(spread_candidates(hand)) == ["AS 2S 3S", "5S 6S 7S"]


def test_tonk_spreads_of_finds_a_run_after_a_gap() -> None:
    # spades 2, 4, 5, 6 are indices 4, 12, 16, 20 (4 * (rank - 1) + 0): one run, 4S-5S-6S
    assert spreads_of([4, 12, 16, 20]) == [(12, 16, 20)]
    # books first: three 7s (24, 25, 26), then the spade run A-2-3 (0, 4, 8)
    assert spreads_of([0, 4, 8, 24, 25, 26]) == [(24, 25, 26), (0, 4, 8)]
