"""Golf rules read review, 2026-12-07: the plugin read against the seed and the decisions.

Sources: ``shared/seeds/golf.en.md``, ``seeds/golf.md`` (rule IDs), ``shared/rules-decisions.md``
section 2. Every expected value below was worked out by hand from those texts (the comments
show the arithmetic) before the engine was run. Decks are stacked with the Golf test helpers
(``stack``: seat 0 gets the first card, positions row-major, far row first).
"""

from __future__ import annotations

import pytest
from tests.games.golf.helpers import golf, grid, logic, play, setup_flips, stack, state

from cardcore import Game, IllegalActionError, OptionError


def scores(grids: list[str], *, rules: tuple[str, ...] = (), ender: int = -1, up: str = "JC",
           **options: object) -> list[int]:  # fmt: skip
    """Deal *grids* and score them as a round ending now with *ender* (the engine's scoring)."""
    game = golf(len(grids), stack(grids, up), rules=list(rules), options={"rounds": 1, **options})
    return logic(game).round_scores(state(game), ender)


def legal(game: Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def turns(game: Game, *seats_and_moves: tuple[int, str, str]) -> None:
    for seat, first, second in seats_and_moves:
        play(game, (seat, first), (seat, second))


# --- scoring tables and pairing (GOLF-SCORE-*, GOLF6-SCORE-1, GOLF8-1) --------------------------


def test_GOLF_SCORE_1_basic_table_and_column_pairs() -> None:
    # seat 0: 5H/5S 0, 9C/2D 11, KD/KS 0 -> 11; seat 1: 10H/JD 20, JC/QC 20, QD/10S 20 -> 60
    # (10, J, Q all score 10 but never pair: GOLF-SCORE-6)
    assert scores(["5H 9C KD 5S 2D KS", "10H JC QD JD QC 10S"], up="3C") == [11, 60]


def test_GOLF_SCORE_2_hard_table() -> None:
    # seat 0: J/J 0, Q/Q 0, K 13 + A 1 -> 14; seat 1: 10+11, 11+12, 12+10 -> 66
    got = scores(["JH QC KD JS QS AS", "10H JC QD JD QH 10S"], rules=("golf.hard",), up="3C")
    assert got == [14, 66]


def test_GOLF8_1_and_GOLF10_columns() -> None:
    # GOLF8 seat 0: A/A 0, 2/2 0, 3/3 0, 4+5 -> 9; seat 1: K/K, K/K, Q+J 20, J+Q 20 -> 40
    got8 = scores(["AH 2H 3H 4H AS 2S 3S 5S", "KH KC QH JH KS KD JD QS"], layout=8)
    assert got8 == [9, 40]
    # GOLF10 adds a 6/6 and a 9/9 column: same totals
    got10 = scores(["AH 2H 3H 4H 6H AS 2S 3S 5S 6S", "KH KC QH JH 9H KS KD JD QS 9S"], layout=10)
    assert got10 == [9, 40]


def test_GOLF_SCORE_4_5_jokers_minus_two_and_pair_to_zero() -> None:
    # seat 0: JK/JK 0 (not -4), 9H/5S 14, 5D/2D 7 -> 21; seat 1: 4/4 0, 4C+6C 10, 6D+5H 11 -> 21
    got = scores(["JK 9H 5D JK 5S 2D", "4H 4C 6D 4D 6C 5H"], rules=("golf.jokers",), up="9C")
    assert got == [21, 21]
    # a lone joker scores -2: seat 1 JK/KH -2, KD/9S 9, KC/9C 9 -> 16
    got = scores(["AH 2H 3H AS 2S 5H", "JK KD KC KH 9S 9C"], rules=("golf.jokers",))
    assert got == [8, 16]


def test_GOLF_DECK_4_two_jokers_per_deck() -> None:
    # GOLF6 4 players: 2 decks (GOLF-DECK-1) + 4 jokers; GOLF4 8 players: 2 decks + 4 jokers;
    # GOLF6 8 players: 3 decks + 6 jokers; GOLF4H 2 players: 1 deck + 2
    for layout, players, size, jokers in ((6, 4, 108, 4), (4, 8, 108, 4), (6, 8, 162, 6)):
        game = golf(players, options={"layout": layout}, rules=["golf.jokers"])
        cards = [str(c) for pile in state(game).zones.cards for c in pile]
        assert (len(cards), cards.count("JK")) == (size, jokers)


def test_GOLF_SCORE_8_bonus_twos() -> None:
    # seat 0: 2H/2S 0, 2C+8C 6, 5D+3S 8 -> 14; seat 1: JD+2D 8, 4C+6C 10, 6D+JH 16 -> 34
    got = scores(["2H 2C 5D 2S 8C 3S", "JD 4C 6D 2D 6C JH"], rules=("golf.bonus-twos",))
    assert got == [14, 34]


def test_GOLF_SCORE_9_one_eyed_jacks_pair_by_rank() -> None:
    # seat 0: JH/JS 0, JC+8C 18, 5D+2S 7 -> 25; seat 1: JD+2D 12, 4C+6C 10, 6D+9H 15 -> 37
    got = scores(
        ["JH JC 5D JS 8C 2S", "JD 4C 6D 2D 6C 9H"], rules=("golf.one-eyed-jacks",), up="3C"
    )
    assert got == [25, 37]
    # JH (-2) over JD (10) is a pair of jacks: 0, not 8 (GOLF-SCORE-6)
    got = scores(["JH 9C 5D JD 8C 2S", "AD 4C 6D 2D 6C 9H"], rules=("golf.one-eyed-jacks",))
    assert got[0] == 0 + 17 + 7


def test_GOLF_SCORE_10_bonus_card_rank_card_and_hard() -> None:
    # named card QH: seat 0 QH+7H 5, QC+8C 18, 5D+2S 7 -> 30; seat 1 QS/QD 0, 4+6 10, 5/5 0 -> 10
    got = scores(
        ["QH QC 5D 7H 8C 2S", "QS 4C 5C QD 6C 5S"], rules=("golf.bonus-card",), bonus_card="QH"
    )
    assert got == [30, 10]
    # named rank 10: seat 0 10H+7H 5, 10C+8C 6, 5D+2S 7 -> 18; seat 1 10S(-2)+2D 0, 10, 11 -> 21
    got = scores(
        ["10H 10C 5D 7H 8C 2S", "10S 4C 6D 2D 6C 5S"], rules=("golf.bonus-card",), bonus_card="10"
    )
    assert got == [18, 21]
    # KH under HARD: seat 0 KH(-2)+7H 5, 10C+8C 18, 5D+2S 7 -> 30; seat 1 10+2 12, 4+6 10,
    # 6D + KS 13 -> 19 => 41
    got = scores(
        ["KH 10C 5D 7H 8C 2S", "10S 4C 6D 2D 6C KS"],
        rules=("golf.bonus-card", "golf.hard"),
        bonus_card="KH",
    )
    assert got == [30, 41]


def test_GOLF_SCORE_10_bonus_card_option_refused_outside_choices() -> None:
    for bad in ("qh", "JK", "1"):
        with pytest.raises(OptionError):
            golf(2, rules=["golf.bonus-card"], options={"bonus_card": bad})


# --- GOLF9, GOLF4, GOLF4H ---------------------------------------------------------------------


def test_GOLF9_2_only_triples_cancel() -> None:
    # seat 0: row 0 5/5/5 cancels; 7H 8C 5S / 7C 7D 4C score 38 (no pair cancels)
    # seat 1: row 0 9/9/9 cancels; 9S 2C 3S / AC 4D 6C -> 25 (column 0 9/9/A is no triple)
    got = scores(["5H 5C 5D 7H 8C 5S 7C 7D 4C", "9H 9C 9D 9S 2C 3S AC 4D 6C"], layout=9)
    assert got == [38, 25]


def test_GOLF9_3_overlapping_row_and_column_both_cancel() -> None:
    # 4 players: 2 decks. Seat 0: row 0 5 5 5 and column 0 5 5 5 share position 0:
    # all five 5s score 0; left 7H 8C / 9C 2D -> 26
    grids = [
        "5H 5C 5D 5S 7H 8C 5H 9C 2D",
        "AH 2H 3H 4H 6H 7C 8H 9H 10H",
        "AS 2S 3S 4S 6S 7S 8S 9S 10S",
        "AD 3D 4D 6D 7D 8D 9D 10D JD",
    ]
    assert scores(grids, layout=9)[0] == 26


def test_GOLF4_SCORE_1_2_3_rows_columns_three_four() -> None:
    # seat 0: row pairs 5/5 and 7/7 -> 0; seat 1: 5 at 0 and 3, 7 at 1 and 2: diagonals only
    # (GOLF-GAP-12) -> 5+7+7+5 = 24
    assert scores(["5H 5C 7D 7H", "5D 7C 7S 5S"], layout=4) == [0, 24]
    # three of a kind: two cancel, the third 5 scores + 7 -> 12; four kings -> 0
    assert scores(["5H 5C 5D 7H", "KH KC KD KS"], layout=4) == [12, 0]


def test_GOLF4_VAR_1_diagonals_and_VAR_2_no_cancelling() -> None:
    got = scores(["5H 7C 7D 5S", "5C 9C 9D 5D"], layout=4, rules=("golf.diagonal-pairs",))
    assert got == [0, 0]
    # no cancelling, four of a kind included: 5*4 = 20; jokers -2 -2 + 9 + 9 = 14 (-4, not 0)
    got = scores(
        ["5H 5C 5D 5S", "JK JK 9D 9S"], layout=4, rules=("golf.no-cancelling", "golf.jokers")
    )
    assert got == [20, 14]


def test_GOLF4H_2_and_VAR_1_same_rank_vs_same_value() -> None:
    # same rank: 5/5 and 10/10 cancel -> 0; J Q 10 K: nothing pairs -> 30
    assert scores(["5H 10C 5D 10H", "JH QC 10D KS"], layout="4h") == [0, 30]
    # same value: J, Q, 10 all score 10: two cancel, one 10 scores, K 0 -> 10
    got = scores(["5H 10C 5D 10H", "JH QC 10D KS"], layout="4h", rules=("golf.hand-same-value",))
    assert got == [0, 10]


# --- GOLF6 variants ---------------------------------------------------------------------------


def test_GOLF6_VAR_2_pairs_anywhere_odd_card_scores() -> None:
    # seat 0: three 5s -> one 5 scores; 9/9 cancel; K 0 -> 5; seat 1: J/J, 6/6 cancel; 4 + 2 -> 6
    got = scores(["5H 9C 5D 9H KC 5S", "JD 4C 6D 2D 6C JH"], rules=("golf.pairs-anywhere",))
    assert got == [5, 6]


def test_GOLF6_VAR_3_adjacent_four_of_a_kind_awards_others() -> None:
    # seat 0: 8/8 8/8 in columns 0 and 1, 3D+4S 7; seats 1, 2 get +10:
    # seat 1 JD+2D 12, 4C+6C 10, 6D+JH 16 = 38 -> 48; seat 2 A/A, 2/2 0, 3C+4D 7 -> 17
    got = scores(
        ["8H 8C 3D 8S 8D 4S", "JD 4C 6D 2D 6C JH", "AH 2C 3C AC 2H 4D"],
        rules=("golf.four-of-a-kind-columns",),
        up="9C",
    )
    assert got == [7, 48, 17]


def test_GOLF6_VAR_3_non_adjacent_columns_give_nothing() -> None:
    # GOLF8: 8/8 in columns 0 and 2 (not adjacent): no award; seat 1 J+6 16, 4+J 14, 6+7 13,
    # 2+7 9 -> 52
    got = scores(
        ["8H 3C 8C 4D 8S 3D 8D 4S", "JD 4C 6D 2D 6C JH 7C 7S"],
        layout=8,
        rules=("golf.four-of-a-kind-columns",),
        up="9C",
    )
    assert got == [0, 52]


def test_GOLF_PEN_4_penalty_compares_scores_after_awards() -> None:
    rules = ("golf.four-of-a-kind-columns", "golf.ender-penalty-10")
    grids = ["8H 8C 3D 8S 8D 4S", "AH 2H 3H AS 2S 5H"]
    # seat 0 7; seat 1 A/A 0, 2/2 0, 3+5 8, +10 award = 18. Ender 0 lowest: no penalty;
    # ender 1 (18 > 7): +10 -> 28
    assert scores(grids, rules=rules, ender=0) == [7, 18]
    assert scores(grids, rules=rules, ender=1) == [7, 28]


# --- ender penalties (GOLF-PEN-*) --------------------------------------------------------------


EVEN = ["AH 2H 3H AS 2S 5H", "AD 2D 3D AC 2C 5D"]  # both 0 + 0 + 8 = 8
NEGATIVE = ["AH 2H 3H AS 2S 5H", "JK KD KC KH KS JK"]  # 8; JK+KH -2, K/K 0, KC+JK -2 -> -4


def test_GOLF_PEN_2_4_tie_for_lowest_not_penalised() -> None:
    assert scores(EVEN, rules=("golf.ender-penalty-10",), ender=0) == [8, 8]


def test_GOLF_PEN_6_tie_pays() -> None:
    got = scores(EVEN, rules=("golf.ender-penalty-10", "golf.ender-penalty-ties"), ender=0)
    assert got == [18, 8]
    got = scores(EVEN, rules=("golf.ender-penalty-lowest", "golf.ender-penalty-ties"), ender=0)
    assert got == [16, 8]


def test_GOLF_PEN_3_and_5_negative_lowest() -> None:
    rules3 = ("golf.jokers", "golf.ender-penalty-lowest")
    rules5 = ("golf.jokers", "golf.ender-penalty-lowest-literal")
    assert scores(NEGATIVE, rules=rules3, ender=0) == [8, -4]  # + max(-4, 0)
    assert scores(NEGATIVE, rules=rules5, ender=0) == [4, -4]  # + (-4)


def test_GOLF_PEN_1_no_ender_no_penalty() -> None:
    assert scores(NEGATIVE, rules=("golf.jokers", "golf.ender-penalty-10"), ender=-1) == [8, -4]


def test_GOLF_PEN_3_seed_example_scrooge_knocks() -> None:
    # GOLF4: seat 0 (Scrooge) 10+4+2+1 = 17, seat 1 (Marley) 5+4+2+1 = 12; Scrooge knocks,
    # Marley takes one final turn (draws 9C, discards it): 17 + 12 = 29, 12
    game = golf(
        2,
        stack(["10H 4H 2H AH", "5S 4S 2S AD"], "KC", "9C"),
        options={"layout": 4, "rounds": 1},
        rules=["golf.ender-penalty-lowest"],
    )
    play(game, (0, "peek 0"), (0, "peek 1"), (1, "peek 0"), (1, "peek 1"))
    assert legal(game, 0) == ["draw", "take", "knock"]  # GOLF4-KNOCK-3: the first turn too
    play(game, (0, "knock"))
    assert legal(game, 1) == ["draw", "take"]  # GOLF4-KNOCK-2
    play(game, (1, "draw"), (1, "discard"))
    last = game.history(None)[-1]
    assert (last["scores"], last["ender"]) == ([29, 12], 0)
    assert game.is_over and game.result.winners == (1,)


# --- play: final turns, stock, the cap, rounds -------------------------------------------------


GRIDS6 = ["5H 5C 9D KH KC 2S", "AH 2H 3H 4H 6H 7H", "AS 3S 4S 6S 7S 8S"]
STOCK6 = "5D 10C 10D 9H 10H 10S 2D QS QH 9C 8C 8D 3C 4C"


def test_GOLF6_END_1_final_turns_and_ender() -> None:
    game = golf(3, stack(GRIDS6, "JC", STOCK6), options={"rounds": 2},
                rules=["golf.ender-penalty-10", "golf.final-stock-only"])  # fmt: skip
    setup_flips(game, [[0, 1], [0, 1], [0, 1]])
    for pos in (3, 2, 4):  # seat 0 fills 5D, 9H, 2D; seats 1, 2 draw and discard
        turns(game, (0, "draw", f"replace {pos}"), (1, "draw", "discard"), (2, "draw", "discard"))
    assert legal(game, 0) == ["draw", "take"]  # before the final turns, take is allowed
    turns(game, (0, "draw", "replace 5"))  # 9C: seat 0 has no face-down card left
    assert legal(game, 1) == ["draw"]  # GOLF6-VAR-1 in the final turns
    turns(game, (1, "draw", "discard"), (2, "draw", "replace 5"))  # 8C; 8D
    last = game.history(None)[-1]
    # seat 0: 5H/5D 0, 5C+2D 7, 9H/9C 0 -> 7 (lowest: no penalty); seat 1: 5+8+10 = 23;
    # seat 2: AS+6S 7, 3S+7S 10, 4S+8D 12 -> 29
    assert (last["scores"], last["ender"]) == ([7, 23, 29], 0)
    st = state(game)  # GOLF-DEAL-3: the deal passes left (seat 0), seat 1 starts round 2
    assert (st.round, st.dealer, st.turn) == (2, 0, 1)


def _capped(cap: int | None) -> Game:
    game = golf(2, stack(GRIDS6[:2], "JC", "5D 10C 9H 10H 2D QS 9C 8C"),
                options={"rounds": 1, "max_turns": cap}, rules=["golf.ender-penalty-10"])  # fmt: skip
    setup_flips(game, [[0, 1], [0, 1]])
    for pos in (3, 2, 4):
        turns(game, (0, "draw", f"replace {pos}"), (1, "draw", "discard"))
    turns(game, (0, "draw", "replace 5"))  # turn 7 completes seat 0's layout
    return game


def test_GOLF_CAP_1_cap_on_the_completing_turn_has_no_ender() -> None:
    game = _capped(7)
    assert game.is_over and game.history(None)[-1]["ender"] is None


def test_GOLF_CAP_1_cap_on_the_last_final_turn_keeps_the_ender() -> None:
    game = _capped(8)
    turns(game, (1, "draw", "discard"))
    assert game.is_over and game.history(None)[-1]["ender"] == 0


def test_GOLF_STOCK_1_reshuffle_all_discards_but_the_top() -> None:
    game = golf(2, stack(["AH 2H 3H 4H", "AS 2S 3S 4S"], "KC"), options={"layout": "4h"})
    st = state(game)
    for _ in range(43):  # 52 - 8 - 1 stock cards, each drawn and discarded
        seat = st.turn
        play(game, (seat, "draw"), (seat, "discard"))
    pile = st.zones.cards[1]
    top, below = pile[-1], sorted(map(str, pile[:-1]))
    assert (len(st.zones.cards[0]), len(pile)) == (0, 44)
    play(game, (st.turn, "draw"))
    assert list(st.zones.cards[1]) == [top]
    assert sorted(map(str, [*st.zones.cards[0], *st.zones.cards[2]])) == below


def test_GOLF_DEAL_3_dealer_passes_left_each_round() -> None:
    game = golf(3, options={"rounds": 3, "dealer": 1, "max_turns": 1, "layout": "4h"})
    seen = []
    while not game.is_over:
        st = state(game)
        seen.append((st.round, st.dealer, st.turn))
        play(game, (st.turn, "draw"), (st.turn, "discard"))
    assert seen == [(1, 1, 2), (2, 2, 0), (3, 0, 1)]
    assert game.result.reason == "rounds"


def test_GOLF_GAME_2_tie_shares_the_win() -> None:
    # GOLF4H, one turn then the cap: 1+2+3+4 = 10 each (seat 0 draws 9C and discards it)
    game = golf(2, stack(["AH 2H 3H 4H", "AS 2S 3S 4S"], "KC", "9C"),
                options={"layout": "4h", "rounds": 1, "max_turns": 1})  # fmt: skip
    play(game, (0, "draw"), (0, "discard"))
    assert game.result.winners == (0, 1) and game.result.scores == (10.0, 10.0)


def test_GOLF_GAME_1_points_limit_ends_at_the_first_round_reaching_it() -> None:
    game = golf(2, options={"layout": "4h", "points_limit": 30, "max_turns": 1}, seed=3)
    while not game.is_over:
        seat = state(game).turn
        play(game, (seat, "draw"), (seat, "discard"))
    totals = [max(r["totals"]) for r in game.history(None)]
    assert game.result.reason == "points-limit"
    assert totals[-1] >= 30 and all(t < 30 for t in totals[:-1])


# --- setup rules, views, options ---------------------------------------------------------------


def test_GOLF6_SETUP_3_4_in_GOLF9_apply_to_all_three_cards() -> None:
    same = golf(2, options={"layout": 9}, rules=["golf.reveal-same-column"])
    play(same, (0, "flip 0"), (0, "flip 3"))
    assert legal(same, 0) == ["flip 6"]
    diff = golf(2, options={"layout": 9}, rules=["golf.reveal-different-columns"])
    play(diff, (0, "flip 0"), (0, "flip 4"))
    assert legal(diff, 0) == ["flip 2", "flip 5", "flip 8"]


def test_GOLF4_VAR_4_peek_nearest() -> None:
    game = golf(2, options={"layout": 4}, rules=["golf.peek-nearest"])
    assert legal(game, 0) == ["peek 2", "peek 3"]
    with pytest.raises(IllegalActionError, match="GOLF4-VAR-4"):
        game.act(0, "peek 0")


def test_GOLF6_SCORE_2_removed_column_at_once_even_in_setup() -> None:
    game = golf(2, stack(["5H 9C 9D 5C KC 2S", "AH 2H 3H 4H 6H 7H"], "JC"),
                rules=["golf.remove-columns"])  # fmt: skip
    play(game, (0, "flip 0"), (0, "flip 3"))
    assert grid(game, 0) == [None, "9C", "9D", None, "KC", "2S"]
    assert [str(c) for c in state(game).zones.cards[1]][:2] == ["5C", "5H"]  # at the bottom
    play(game, (1, "flip 0"), (1, "flip 1"), (0, "draw"))
    assert legal(game, 0) == ["replace 1", "replace 2", "replace 4", "replace 5", "discard"]


def test_GOLF4_TURN_3_view_holds_peeked_placed_and_public_cards() -> None:
    game = golf(2, stack(["5H 6H 7H 8H", "5S 6S 7S 8S"], "KC", "QD"),
                options={"layout": 4, "rounds": 1})  # fmt: skip
    play(game, (0, "peek 0"), (0, "peek 3"), (1, "peek 1"), (1, "peek 2"))
    play(game, (0, "draw"), (0, "replace 3"))  # QD face down at 3; 8H to the discards
    assert game.view(0)["table"]["grids"][0] == ["5H", None, None, "QD"]
    assert game.view(1)["table"]["grids"][0] == [None, None, None, None]
    play(game, (1, "take"), (1, "replace 0"))  # the taken 8H is public
    assert game.view(0)["table"]["grids"][1] == ["8H", None, None, None]
    assert game.view(1)["table"]["grids"][1] == ["8H", "6S", "7S", None]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"rounds": 0}, "at least 1"),
        ({"rounds": 101}, "at most 100"),
        ({"rounds": True}, "must be int"),
        ({"points_limit": 1001}, "at most 1000"),
        ({"max_turns": 0}, "at least 1"),
        ({"dealer": 2}, "seat from 0 to 1"),
        ({"layout": 7}, "must be one of"),
    ],
)
def test_GOLF_GAME_1_option_bounds_refused(options: dict[str, object], words: str) -> None:
    with pytest.raises(OptionError, match=words):
        golf(2, options=options)


def test_GOLF_DECK_3_4_jokers_count_in_the_stock_guard() -> None:
    # GOLF10, 19 players: 3 decks (GOLF-DECK-1) leave 156 - 191 < 19; 4 decks: 208 - 191 = 17
    # < 19, so 5 decks (260). With jokers 4 decks hold 216: 216 - 191 = 25 >= 19, so 4 decks
    # and 8 jokers (2 per deck in use).
    for rules, size, jokers in (([], 260, 0), (["golf.jokers"], 216, 8)):
        game = golf(19, options={"layout": 10}, rules=rules)
        cards = [str(c) for pile in state(game).zones.cards for c in pile]
        assert (len(cards), cards.count("JK")) == (size, jokers)


def test_GOLF_SCORE_7_lowest_choice_among_three_jacks_in_GOLF4() -> None:
    # JH JS / JC 5H: JH-JS (row) or JH-JC (column) may cancel, JS-JC is a diagonal.
    # Cancel JH+JC -> JS -2 + 5 = 3 (cancel JH+JS -> JC 10 + 5 = 15): lowest is 3
    got = scores(["JH JS JC 5H", "AH 2H 3H 4H"], rules=("golf.one-eyed-jacks",), up="3C", layout=4)
    assert got == [3, 10]


def test_GOLF6_END_2_completing_in_a_final_turn_grants_nothing() -> None:
    game = golf(
        2,
        stack(["5H 5C 9D KH KC 2S", "AH 2H 3H 4H 6H 7H"], "JC", "5D 8C 9H 8D 2D 8H 9C 8S"),
        options={"rounds": 1},
    )
    setup_flips(game, [[0, 1], [0, 1]])
    for pos0, pos1 in ((3, 2), (2, 3), (4, 4)):
        turns(game, (0, "draw", f"replace {pos0}"), (1, "draw", f"replace {pos1}"))
    turns(game, (0, "draw", "replace 5"), (1, "draw", "replace 5"))  # both complete
    assert game.is_over
    last = game.history(None)[-1]
    # seat 0: 0 + 5C+2D 7 + 9H/9C 0 = 7; seat 1: AH+8D 9, 2H+8H 10, 8C/8S 0 -> 19
    assert (last["scores"], last["ender"]) == ([7, 19], 0)
