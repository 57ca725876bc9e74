"""Pure Golf helpers (cardcore_golf.grids): deck counts, geometry, cancelling (no engine)."""

from __future__ import annotations

import doctest

import pytest

from cardcore_golf import grids
from cardcore_golf.grids import (
    BASIC_POINTS,
    LAYOUTS,
    anywhere_scorer,
    column_scorer,
    complete_groups,
    deck_count,
    default_scorer,
    diagonal_pairs,
    four_grid_scorer,
    grid_lines,
    has_adjacent_quad,
    layout_for,
    line_scorer,
    no_cancel_scorer,
    rank_keys,
    row_col_pairs,
)


def basic(labels: str) -> tuple[list[int | None], list[int]]:
    """Keys and BASIC points of a layout written as rank labels (``-`` = empty)."""
    keys = rank_keys(labels)
    return keys, [0 if key is None else BASIC_POINTS.get(key, -2) for key in keys]


def score(layout: str, labels: str) -> int:
    keys, points = basic(labels)
    return default_scorer(LAYOUTS[layout])(keys, points)


def test_doctests() -> None:
    failures, _ = doctest.testmod(grids)
    assert failures == 0


def test_layout_for_accepts_ints_and_text() -> None:
    assert layout_for(6) is LAYOUTS["6"]
    assert layout_for("10") is LAYOUTS["10"]
    assert layout_for("4H") is LAYOUTS["4h"]
    assert layout_for(7) is None
    assert layout_for(True) is None


@pytest.mark.parametrize(
    ("layout", "players", "decks"),
    [("6", 2, 1), ("6", 3, 1), ("6", 4, 2), ("6", 7, 2), ("6", 8, 3), ("6", 12, 3),
     ("8", 3, 1), ("8", 4, 2), ("9", 8, 3), ("10", 7, 2)],
)  # fmt: skip
def test_golf_deck_1_decks_by_players(layout: str, players: int, decks: int) -> None:
    assert deck_count(LAYOUTS[layout], players) == decks


@pytest.mark.parametrize(
    ("layout", "players", "decks"),
    [("4", 2, 1), ("4", 7, 1), ("4", 8, 2), ("4", 12, 2), ("4h", 5, 1), ("4h", 8, 2)],
)
def test_golf_deck_2_four_card_decks(layout: str, players: int, decks: int) -> None:
    assert deck_count(LAYOUTS[layout], players) == decks


def test_golf_deck_3_extra_deck_when_stock_too_small() -> None:
    # 10-card, 15 players: 3 decks leave 156 - 150 - 1 = 5 < 15 stock cards -> a 4th deck.
    assert deck_count(LAYOUTS["10"], 15) == 4
    # 9-card, 13 players: 156 - 117 - 1 = 38 >= 13 -> DECK-1's 3 decks suffice.
    assert deck_count(LAYOUTS["9"], 13) == 3
    # 4-card, 21 players: 104 - 84 - 1 = 19 < 21 -> 3 decks.
    assert deck_count(LAYOUTS["4"], 21) == 3


def test_golf_score_1_basic_table() -> None:
    assert BASIC_POINTS == {
        1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, 11: 10, 12: 10, 13: 0,
    }  # fmt: skip


def test_golf_score_2_hard_table() -> None:
    from cardcore_golf.house.hard_scoring import HARD_POINTS

    assert {k: HARD_POINTS[k] for k in (1, 2, 10, 11, 12, 13)} == {
        1: 1, 2: 2, 10: 10, 11: 11, 12: 12, 13: 13,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("grid", "expected"),
    [("5 9 K 5 2 K", 11), ("5 9 K 6 2 K", 22), ("Q Q Q Q Q Q", 0), ("A 2 3 4 5 6", 21)],
    ids=["two-pairs", "one-pair", "three-pairs", "no-pairs"],
)
def test_golf6_score_1_column_pairs(grid: str, expected: int) -> None:
    assert score("6", grid) == expected


def test_golf6_score_1_row_pair_does_not_cancel() -> None:
    assert score("6", "5 5 A 2 3 4") == 5 + 5 + 1 + 2 + 3 + 4


def test_golf_score_6_pairing_by_rank_label() -> None:
    # 10 over J: both score 10 but never pair; J over J pairs whatever the suits.
    assert score("6", "10 J 4 J J 3") == 10 + 10 + 4 + 3  # J/J cancels, 10/J does not
    assert score("6", "10 A A J 2 3") == 10 + 10 + 1 + 2 + 1 + 3


def test_golf_score_6_joker_pairs_only_with_joker() -> None:
    keys = rank_keys("JK 5 5 JK 9 9")
    pts = [-2, 5, 5, -2, 9, 9]
    assert column_scorer(3)(keys, pts) == 0 + 14 + 14
    keys = rank_keys("JK 5 5 K 9 9")
    assert column_scorer(3)(keys, [-2, 5, 5, 0, 9, 9]) == -2 + 0 + 14 + 14


def test_golf_score_5_joker_pair_scores_zero_not_minus_four() -> None:
    keys = rank_keys("JK A A JK 2 3")
    assert column_scorer(3)(keys, [-2, 1, 1, -2, 2, 3]) == 1 + 2 + 1 + 3


def test_golf_score_5_bonus_pair_cancels() -> None:
    # one-eyed jacks JH (-2) over JS (-2) cancel to 0 in any layout.
    keys = rank_keys("J J A A")
    assert four_grid_scorer(row_col_pairs(LAYOUTS["4"]))(keys, [-2, -2, 1, 1]) == 0
    assert anywhere_scorer()(keys, [-2, -2, 1, 1]) == 0


def test_golf_score_7_lowest_choice_of_cancelling() -> None:
    # GOLF4: JH(-2) TL, JC(10) TR, JS(-2) BL; TL-TR or TL-BL may cancel; leaving JS (-2) wins.
    keys = rank_keys("J J J 5")
    pts = [-2, 10, -2, 5]
    assert four_grid_scorer(row_col_pairs(LAYOUTS["4"]))(keys, pts) == -2 + 5
    # pairs anywhere, three jacks: the lowest one scores.
    assert anywhere_scorer()(rank_keys("J J J"), [10, -2, 10]) == -2


def test_golf4_score_1_row_and_column_pairs() -> None:
    assert score("4", "7 7 3 4") == 7  # row pair cancels
    assert score("4", "7 3 7 4") == 7  # column pair cancels
    assert score("4", "7 3 4 7") == 21  # diagonal does not (without GOLF4-VAR-1)
    assert score("4", "7 7 3 3") == 0  # two separate pairs both cancel (GOLF-GAP-12)


def test_golf4_score_2_three_of_a_kind_third_scores() -> None:
    assert score("4", "8 8 8 2") == 8 + 2
    assert score("4", "2 8 8 8") == 8 + 2


def test_golf4_score_3_four_of_a_kind_zero() -> None:
    assert score("4", "9 9 9 9") == 0
    assert four_grid_scorer(())(rank_keys("9 9 9 9"), [9, 9, 9, 9]) == 0  # no edges needed


def test_golf4_var_1_diagonal_geometry() -> None:
    assert diagonal_pairs(LAYOUTS["4"]) == ((0, 3), (1, 2))
    edges = row_col_pairs(LAYOUTS["4"]) + diagonal_pairs(LAYOUTS["4"])
    assert four_grid_scorer(edges)(rank_keys("7 3 4 7"), [7, 3, 4, 7]) == 7


def test_golf4_var_2_no_cancel_sums() -> None:
    assert no_cancel_scorer()(rank_keys("9 9 9 9"), [9, 9, 9, 9]) == 36


def test_golf4h_2_any_two_equal_cancel() -> None:
    assert score("4h", "7 3 4 7") == 7
    assert score("4h", "Q Q Q 2") == 12
    assert score("4h", "5 5 5 5") == 0
    assert score("4h", "10 J Q K") == 30


@pytest.mark.parametrize(
    ("grid", "expected"),
    [("5 5 5 A 2 3 4 6 7", 23), ("5 A 2 5 3 4 5 6 7", 23), ("5 5 A 5 5 2 3 4 6", 36),
     ("5 5 5 5 5 5 5 5 5", 0), ("8 8 8 8 A 2 8 3 4", 10)],
    ids=["row", "column", "pairs-only", "all", "row-and-column-overlap"],
)  # fmt: skip
def test_golf9_2_only_line_triples_cancel(grid: str, expected: int) -> None:
    assert score("9", grid) == expected


def test_golf9_3_overlapping_lines_all_zero() -> None:
    # row 0 (8 8 8) and column 0 (8 8 8) share position 0; all five eights score 0.
    assert score("9", "8 8 8 8 A 2 8 3 4") == 1 + 2 + 3 + 4
    assert grid_lines(LAYOUTS["9"]) == (
        (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8),
    )  # fmt: skip


def test_golf9_2_empty_positions_never_complete_a_line() -> None:
    assert (
        line_scorer(grid_lines(LAYOUTS["9"]))(
            rank_keys("- - - 5 5 5 A A A"), [0, 0, 0, 5, 5, 5, 1, 1, 1]
        )
        == 0
    )


def test_golf8_1_wider_grids_pair_columns() -> None:
    assert score("8", "A 2 3 4 A 2 3 9") == 4 + 9
    assert score("10", "A 2 3 4 5 A 2 3 4 6") == 5 + 6


def test_golf6_var_2_pairs_anywhere() -> None:
    scorer = anywhere_scorer()
    keys, pts = basic("5 5 9 Q 2 Q")
    assert scorer(keys, pts) == 9 + 2
    keys, pts = basic("5 5 5 A 2 3")
    assert scorer(keys, pts) == 5 + 1 + 2 + 3


def test_golf6_var_3_adjacent_quads() -> None:
    assert has_adjacent_quad(rank_keys("8 8 3 8 8 4"), 3)
    assert not has_adjacent_quad(rank_keys("8 3 8 8 4 8"), 3)  # columns 0 and 2 not adjacent
    assert not has_adjacent_quad(rank_keys("8 8 3 8 7 4"), 3)
    assert has_adjacent_quad(rank_keys("A 2 9 9 3 4 9 9"), 4)


def test_golf6_score_2_complete_groups_need_face_up_pairs() -> None:
    pairs = ((0, 3), (1, 4), (2, 5))
    keys = rank_keys("5 6 7 5 6 8")
    assert complete_groups(keys, [True, True, True, True, False, True], pairs) == [(0, 3)]
    assert complete_groups(rank_keys("- 6 7 - 6 8"), [True] * 6, pairs) == [(1, 4)]
