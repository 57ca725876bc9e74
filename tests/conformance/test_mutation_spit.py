"""Tests that kill mutants the Spit/Speed tests let survive (scripts/mutation.py spit).

Expected values are worked out by hand from SPIT-MOVE-2/3/4 and SPEED-PLAY-3.
The one survivor not covered is equivalent: ``(53 - 2 - 2 * side) // 2`` equals
``(52 - 2 - 2 * side) // 2`` for both side-pile sizes.
"""

from __future__ import annotations

from cardcore_spit.piles import BASE_GAPS, adjacency_table, has_play, is_adjacent


def test_speed_play_3_joker_is_wild_both_ways() -> None:
    assert is_adjacent(0, 5) and is_adjacent(5, 0) and is_adjacent(0, 0)
    assert not is_adjacent(5, 9)


def test_spit_move_adjacency_table_is_is_adjacent_for_every_pair() -> None:
    table = adjacency_table(BASE_GAPS)
    assert len(table) == 14 and all(len(row) == 14 for row in table)
    assert table[1][2] and table[2][1] and table[1][13] and table[13][1]  # ace next to 2 and K
    assert not table[5][5] and not table[5][7]  # SPIT-MOVE-4: equal ranks never
    assert table[0][7] and table[7][0]  # joker row and column
    adjacent = sum(table[c][t] for c in range(1, 14) for t in range(1, 14))
    assert adjacent == 13 * 2  # each rank has exactly two neighbours on the cycle


def test_spit_move_adjacency_table_reads_gaps_modulo_13() -> None:
    table = adjacency_table([14])  # 14 = 1 (mod 13): one above only
    assert table[3][4] and not table[4][3] and not table[3][3]
    assert adjacency_table([0, 1, 12])[5][5]  # a gap of 0 allows equal ranks


def test_spit_move_2_has_play_skips_a_missing_pile() -> None:
    table = adjacency_table(BASE_GAPS)
    assert has_play([4], [None, 5], table)
    assert not has_play([4], [None, 9], table)
    assert not has_play([None], [3, 5], table)
