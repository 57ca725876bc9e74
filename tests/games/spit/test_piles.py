"""Pure-function tests of :mod:`cardcore_spit.piles`."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardcore_spit import piles

TABLE = piles.adjacency_table()


@pytest.mark.parametrize(
    ("card", "target", "expected"),
    [(1, 13, True), (13, 1, True), (1, 2, True), (2, 1, True), (12, 13, True),
     (1, 12, False), (13, 2, False), (7, 5, False)],
)
def test_spit_move_3_ace_wraps_pure(card: int, target: int, expected: bool) -> None:
    assert piles.is_adjacent(card, target) is expected
    assert TABLE[card][target] is expected


def test_spit_move_4_equal_rank_not_adjacent_pure() -> None:
    assert not any(piles.is_adjacent(r, r) for r in range(1, 14))
    assert all(piles.is_adjacent(r, r, gaps={0, 1, 12}) for r in range(1, 14))


def test_speed_play_3_joker_wild_pure() -> None:
    assert all(TABLE[0][t] and TABLE[t][0] for t in range(14))


@pytest.mark.parametrize(
    ("n", "sizes"),
    [(1, (1, 0, 0, 0, 0)), (2, (1, 1, 0, 0, 0)), (3, (1, 1, 1, 0, 0)), (4, (1, 1, 1, 1, 0)),
     (5, (1, 1, 1, 1, 1)), (6, (1, 2, 1, 1, 1)), (7, (1, 2, 2, 1, 1)), (8, (1, 2, 2, 2, 1)),
     (9, (1, 2, 2, 2, 2)), (10, (1, 2, 3, 2, 2)), (11, (1, 2, 3, 3, 2)),
     (12, (1, 2, 3, 3, 3)), (13, (1, 2, 3, 4, 3)), (14, (1, 2, 3, 4, 4)),
     (15, (1, 2, 3, 4, 5))],
)
def test_spit_setup_4_row_wise_table(n: int, sizes: tuple[int, ...]) -> None:
    # the table of rules-decisions.md, copied by hand
    assert piles.layout_sizes(piles.row_wise_order(n)) == sizes
    assert piles.ROW_WISE_SIZES[n] == sizes


def test_spit_setup_2_full_layout_and_spit_cards_pure() -> None:
    cards = list(range(26))
    layout, spit = piles.deal_layout(cards, piles.row_wise_order(26))
    assert [len(p) for p in layout] == [1, 2, 3, 4, 5]
    # row 1 gets cards 0..4, row 2 cards 5..8, row 3 9..11, row 4 12..13, row 5 14
    assert layout == [[0], [1, 5], [2, 6, 9], [3, 7, 10, 12], [4, 8, 11, 13, 14]]
    # SPIT-SETUP-3: the other 11 are spit cards, card 15 on top
    assert spit[::-1] == list(range(15, 26))


def test_spit_setup_6_auto_setup_combines_until_distinct() -> None:
    # piles bottom -> top (ranks); tops 5 9 5 9 2
    start = [[5], [3, 9], [4, 8, 5], [1, 1, 7, 9], [6, 6, 6, 6, 2]]
    result, moves = piles.auto_setup(start)
    # step 1: pile 3 (5) onto pile 1 -> pile 3 shows 8; step 2: pile 4 (9) onto pile 2
    # -> pile 4 shows 7; all tops 5 9 8 7 2 now differ
    assert moves == [(2, 0), (3, 1)]
    assert [p[-1] for p in result] == [5, 9, 8, 7, 2]
    assert result[0] == [5, 5]


def test_spit_setup_6_auto_setup_leaves_spaces() -> None:
    result, moves = piles.auto_setup([[4], [4]])
    assert moves == [(1, 0)]
    assert result == [[4, 4], []]


@given(st.lists(st.lists(st.integers(1, 13), max_size=6), min_size=5, max_size=5))
def test_spit_setup_6_auto_setup_property(start: list[list[int]]) -> None:
    result, moves = piles.auto_setup(start)
    tops = [p[-1] for p in result if p]
    assert len(tops) == len(set(tops))
    assert sorted(c for p in result for c in p) == sorted(c for p in start for c in p)
    assert all(j > i for j, i in moves)


def test_spit_stuck_3_progress_detection_pure() -> None:
    # tops 5 and 9, centre 2 and J: no play
    assert not piles.has_play([5, 9, None, None, None], [2, 11], TABLE)
    assert piles.has_play([5, 9, None, None, None], [2, 10], TABLE)
    # a space and a pile with a face-down card under its top: a FILL uncovers
    assert piles.has_uncovering_move([5, 9, None, 3, 4], [False, True, False, False, False])
    # no space, equal ranks but nothing face down below: no progress
    assert not piles.has_uncovering_move([5, 5, 3, 4, 6], [False] * 5)
    assert piles.has_uncovering_move([5, 5, 3, 4, 6], [True, False, False, False, False])
    assert not piles.can_progress([5, 5, 3, 4, 6], [False] * 5, [9, 11], TABLE)


def test_spit_end_5_single_pile_boundary_pure() -> None:
    assert piles.single_pile_mode([15, 37])
    assert not piles.single_pile_mode([16, 36])


def test_speed_setup_2_deal_sizes_pure() -> None:
    assert piles.speed_deal_sizes(5, 0) == (5, 15, 5)
    assert piles.speed_deal_sizes(15, 0) == (5, 5, 15)
    assert piles.speed_deal_sizes(5, 2) == (5, 16, 5)
    for side in (5, 15):
        for jk in (0, 2):
            hand, stock, s = piles.speed_deal_sizes(side, jk)
            assert 2 + 2 * s + 2 * (hand + stock) == 52 + jk
