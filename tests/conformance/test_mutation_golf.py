"""Tests that kill mutants the Golf tests let survive (scripts/mutation.py golf).

Expected values are worked out by hand from GOLF-DECK-3, GOLF4-SCORE-1 and
GOLF-SCORE-7 (as many disjoint pairs as possible cancel, then the lowest
score). Survivors not covered here are equivalent: a negative index wraps to
the other row of a two-row grid, ``zip(strict=...)`` only matters for unequal
lengths, and shifting every matching size by one keeps their order.
"""

from __future__ import annotations

from cardcore_golf.grids import LAYOUTS, deck_count, layout_for, pair_scorer, row_col_pairs


def test_golf_layout_for_reads_padded_and_mixed_case_text() -> None:
    for text, name in ((" 4h ", "GOLF4H"), (" 9 ", "GOLF9"), ("10 ", "GOLF10")):
        layout = layout_for(text)
        assert layout is not None and layout.name == name
    assert layout_for("7") is None


def test_golf_deck_3_adds_decks_until_the_stock_holds_a_card_per_player() -> None:
    # GOLF4, 31 players: 2 decks (GOLF-DECK-2) leave 104 - 124 - 1 < 31; 3 decks leave
    # 156 - 124 - 1 = 31 cards, not fewer than 31 players: 3 decks, not 4.
    assert deck_count(LAYOUTS["4"], 31) == 3
    # GOLF6, 8 players: 3 decks (GOLF-DECK-1) leave 156 - 48 - 1 = 107: enough.
    assert deck_count(LAYOUTS["6"], 8) == 3


def test_golf_score_7_pairs_cancel_disjointly_lowest_score_first() -> None:
    score = pair_scorer(row_col_pairs(LAYOUTS["4"]))  # (0,1) (0,2) (1,3) (2,3)
    # J J / 3 J with points 10 10 / 3 0: (0,1) and (1,3) overlap in position 1, so one
    # pair cancels; cancelling (0,1) leaves 3 + 0 = 3, cancelling (1,3) leaves 10 + 3 = 13.
    assert score([11, 11, 3, 11], [10, 10, 3, 0]) == 3
    assert score([5, 5, 5, 5], [5, 5, 5, 5]) == 0  # two disjoint pairs
    assert score([5, 6, 7, 8], [5, 6, 7, 8]) == 26  # nothing cancels


def test_golf_score_7_searches_past_a_used_pair() -> None:
    # edges (0,1) (0,2) (2,3), all equal: the best choice is (0,1) + (2,3), found only by
    # skipping (0,2) after (0,1) is taken and going on to (2,3).
    assert pair_scorer([(0, 1), (0, 2), (2, 3)])([5, 5, 5, 5], [1, 1, 1, 1]) == 0


def test_golf_score_7_never_cancels_one_card_twice() -> None:
    # edges (1,2) (1,3) share position 1: only one of them may cancel.
    assert pair_scorer([(1, 2), (1, 3)])([5, 5, 5, 5], [0, 4, 4, 4]) == 4
