"""Golf examined against the seed (seeds/golf.en.md) and rules-decisions.md, 2026-12-02.

Every expected outcome below was worked out by hand from the rules text before the engine was
run; the comments show the arithmetic. Decks are stacked top first with ``stack`` (default
dealer = last seat, so seat 0 gets the first card and moves first). Grids are row-major: in
GOLF6 column ``c`` is positions ``c`` and ``c + 3``; GOLF8 ``c``/``c + 4``; GOLF10
``c``/``c + 5``; GOLF9 rows ``0 1 2 / 3 4 5 / 6 7 8``; GOLF4 ``0 1 / 2 3``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from tests.games.golf.helpers import play, stack

import cardcore
from cardcore import Game, IllegalActionError, NotationError

# --- helpers ----------------------------------------------------------------------------------


def new(
    players: int,
    deck: str | None = None,
    *,
    layout: Any = 6,
    rules: Sequence[str] = (),
    seed: int = 1,
    **options: Any,
) -> Game:
    return cardcore.new_game(
        "golf",
        players,
        seed=seed,
        deck=deck,
        rules=list(rules),
        options={"layout": layout, **options},
    )


def legal(game: Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def table(game: Game, seat: int | None = None) -> dict[str, Any]:
    return game.view(seat)["table"]


def finish_setup(game: Game) -> None:
    """Every seat makes its setup actions (the first legal flip/peek each time)."""
    while game.to_act:
        seat = game.to_act[0]
        first = legal(game, seat)[0]
        if not first.startswith(("flip", "peek")):
            return
        game.act(seat, first)


def scored_now(
    grids: list[str],
    *,
    layout: Any = 6,
    rules: Sequence[str] = (),
    upcard: str = "KS",
    stock: str = "",
) -> tuple[float, ...]:
    """Deal *grids*, do the setup, let seat 0 draw and discard, end the round (max_turns=1)."""
    game = new(
        len(grids),
        stack(grids, upcard, stock),
        layout=layout,
        rules=rules,
        max_turns=1,
        rounds=1,
    )
    finish_setup(game)
    play(game, (0, "draw"), (0, "discard"))
    assert game.is_over and game.result is not None
    return game.result.scores


def six_card_ender(
    g0: str,
    g1: str,
    upcard: str,
    stock: str,
    *,
    rules: Sequence[str] = (),
    final: Sequence[str] = ("draw", "discard"),
    rounds: int = 1,
) -> Game:
    """GOLF6, two players, both flip positions 0 and 1. Seat 0 draws stock[0], [2], [4], [6]
    and puts them at 2, 3, 4, 5 (completing its layout: the ender); seat 1 draws stock[1],
    [3], [5] and discards them, then plays *final* as its final turn (stock[7] if it draws)."""
    game = new(2, stack([g0, g1], upcard, stock), rules=rules, rounds=rounds)
    play(game, (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 1"))
    for pos in (2, 3, 4, 5):
        play(game, (0, "draw"), (0, f"replace {pos}"))
        if pos != 5:
            play(game, (1, "draw"), (1, "discard"))
    for text in final:
        game.act(1, text)
    return game


def four_card_knock(
    g0: str, g1: str, *, layout: Any = "4", rules: Sequence[str] = (), upcard: str = "8D"
) -> Game:
    """GOLF4/4H, two players: peeks, seat 0 knocks at once, seat 1 draws and discards."""
    game = new(2, stack([g0, g1], upcard, "QD JD 7C 6C"), layout=layout, rules=rules, rounds=1)
    finish_setup(game)
    play(game, (0, "knock"), (1, "draw"), (1, "discard"))
    return game


# --- deck and deal (GOLF-DECK-*, GOLF-DEAL-*) ----------------------------------------------------


@pytest.mark.parametrize(
    ("layout", "players", "stock"),
    [
        (6, 3, 52 - 18 - 1),  # 1 deck for 2-3 players: 33
        (6, 4, 104 - 24 - 1),  # "four or more players: two decks": 79
        (6, 8, 156 - 48 - 1),  # "eight or more players: three decks": 107
        ("4", 7, 52 - 28 - 1),  # 4-card: one deck up to 7 players: 23
        ("4", 8, 104 - 32 - 1),  # "8 or more players, two decks": 71
        (9, 3, 52 - 27 - 1),  # GOLF9 follows GOLF6's deck count: 24
        (10, 4, 104 - 40 - 1),  # GOLF10, 4 players, two decks: 63
    ],
)
def test_GOLF_DECK_1_2_decks_by_player_count(layout: Any, players: int, stock: int) -> None:
    game = new(players, layout=layout)
    assert table(game)["stock"] == stock
    assert table(game)["discards"] == 1


def test_GOLF_DECK_4_two_jokers_per_deck() -> None:
    # 2 players, jokers: 54 cards; 12 dealt, 1 upcard -> 41 in the stock
    assert table(new(2, rules=["golf.jokers"]))["stock"] == 41
    # 4 players: two decks with 4 jokers = 108; 24 dealt, 1 upcard -> 83
    assert table(new(4, rules=["golf.jokers"]))["stock"] == 83


def test_GOLF_DEAL_1_2_stacked_deal_upcard_and_hidden_layouts() -> None:
    g0, g1 = "7H 9C KD 4S 2D QH", "3C 8D JS 3D 10H 6S"
    game = new(2, stack([g0, g1], "5C", "7D"))
    assert table(game)["discard"] == "5C"
    # GOLF6-SETUP-1: nobody (not even the owner) sees a face-down card
    for seat in (0, 1, None):
        assert table(game, seat)["grids"] == [[None] * 6, [None] * 6]
    play(game, (0, "flip 0"), (0, "flip 5"), (1, "flip 2"), (1, "flip 4"))
    assert table(game, 1)["grids"][0] == ["7H", None, None, None, None, "QH"]
    assert table(game, 0)["grids"][1] == [None, None, "JS", None, "10H", None]
    play(game, (0, "draw"))
    assert table(game, 0)["held"] == {"seat": 0, "card": "7D"}  # the next card after 5C


# --- setup: flips and peeks ---------------------------------------------------------------------


def test_GOLF6_SETUP_2_two_flips_any_positions_second_after_first() -> None:
    game = new(2)
    assert legal(game, 0) == [f"flip {p}" for p in range(6)]
    game.act(0, "flip 4")
    assert game.to_act == (0,)  # the second flip is chosen after seeing the first
    assert legal(game, 0) == ["flip 0", "flip 1", "flip 2", "flip 3", "flip 5"]
    game.act(0, "flip 3")
    assert game.to_act == (1,)
    play(game, (1, "flip 0"), (1, "flip 1"))
    assert legal(game, 0) == ["draw", "take"]  # "the player to the dealer's left" starts


def test_GOLF6_SETUP_3_reveal_same_column() -> None:
    game = new(2, rules=["golf.reveal-same-column"])
    game.act(0, "flip 1")
    assert legal(game, 0) == ["flip 4"]  # column 1 = positions 1 and 4
    with pytest.raises(IllegalActionError, match=r"\(GOLF6-SETUP-3\)"):
        game.act(0, "flip 2")


def test_GOLF6_SETUP_4_reveal_different_columns() -> None:
    game = new(2, rules=["golf.reveal-different-columns"])
    game.act(0, "flip 1")
    assert legal(game, 0) == ["flip 0", "flip 2", "flip 3", "flip 5"]
    with pytest.raises(IllegalActionError, match=r"\(GOLF6-SETUP-4\)"):
        game.act(0, "flip 4")


def test_GOLF9_1_three_flips_different_columns_variant() -> None:
    game = new(2, layout=9, rules=["golf.reveal-different-columns"])
    assert legal(game, 0) == [f"flip {p}" for p in range(9)]
    play(game, (0, "flip 0"), (0, "flip 4"))  # columns 0 and 1 used
    assert legal(game, 0) == ["flip 2", "flip 5", "flip 8"]
    game.act(0, "flip 8")
    assert game.to_act == (1,)  # three flips each in GOLF9


def test_GOLF4_SETUP_2_peek_any_two_privately() -> None:
    game = new(2, stack(["5S 9H KD 5H", "AC 2C 3C 4C"], "8D"), layout="4")
    assert legal(game, 0) == ["peek 0", "peek 1", "peek 2", "peek 3"]
    play(game, (0, "peek 0"), (0, "peek 3"))
    assert table(game, 0)["grids"][0] == ["5S", None, None, "5H"]
    assert table(game, 1)["grids"][0] == [None] * 4
    assert table(game, None)["grids"][0] == [None] * 4
    assert game.to_act == (1,)


def test_GOLF4_VAR_4_peek_only_nearest_two() -> None:
    game = new(2, layout="4", rules=["golf.peek-nearest"])
    assert legal(game, 0) == ["peek 2", "peek 3"]
    with pytest.raises(IllegalActionError, match=r"\(GOLF4-VAR-4\)"):
        game.act(0, "peek 0")


def test_GOLF4H_1_no_setup_owner_sees_hand() -> None:
    game = new(2, stack(["5S 9H KD 5H", "AC 2C 3C 4C"], "8D"), layout="4h")
    assert legal(game, 0) == ["draw", "take", "knock"]
    assert table(game, 0)["grids"][0] == ["5S", "9H", "KD", "5H"]
    assert table(game, 1)["grids"][0] == [None] * 4
    play(game, (0, "take"), (0, "replace 1"))  # the public 8D replaces 9H
    assert table(game, 1)["grids"][0] == [None, "8D", None, None]
    assert table(game, 1)["discard"] == "9H"


# --- turns ---------------------------------------------------------------------------------------


def started6() -> Game:
    game = new(2, stack(["7H 9C KD 4S 2D QH", "3C 8D JS 3D 10H 6S"], "5C", "7D KS 9H"))
    play(game, (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 1"))
    return game


def test_GOLF_TURN_1_start_by_draw_or_take_only() -> None:
    game = started6()
    assert legal(game, 0) == ["draw", "take"]
    with pytest.raises(IllegalActionError, match=r"\(GOLF-TURN-1\)"):
        game.act(0, "replace 0")
    with pytest.raises(IllegalActionError, match=r"\(GOLF-TURN-1\)"):
        game.act(0, "discard")
    with pytest.raises(IllegalActionError, match=r"\(GOLF6-KNOCK-1\)"):
        game.act(0, "knock")  # GOLF6-KNOCK-1


def test_GOLF_TURN_2_replace_face_down_card_goes_face_up_to_discards() -> None:
    game = started6()
    game.act(0, "draw")  # 7D
    assert legal(game, 0) == [f"replace {p}" for p in range(6)] + ["discard"]
    game.act(0, "replace 3")  # the unseen 4S goes to the discard pile; 7D lies face up at 3
    assert table(game, 1)["discard"] == "4S" and table(game, 1)["discards"] == 2
    assert table(game, 1)["grids"][0] == ["7H", "9C", None, "7D", None, None]
    assert game.to_act == (1,)


def test_GOLF_TURN_2_replace_face_up_card() -> None:
    game = started6()
    play(game, (0, "draw"), (0, "replace 1"))  # 7D over the face-up 9C
    assert table(game, 1)["discard"] == "9C"
    assert table(game, 1)["grids"][0][:2] == ["7H", "7D"]


def test_GOLF6_TURN_1_discard_drawn_card_no_flip() -> None:
    game = started6()
    play(game, (0, "draw"), (0, "discard"))
    assert table(game, 1)["discard"] == "7D" and table(game, 1)["discards"] == 2
    assert table(game, 1)["grids"][0] == ["7H", "9C", None, None, None, None]
    assert game.to_act == (1,) and legal(game, 1) == ["draw", "take"]


def test_GOLF_TURN_3_taken_discard_cannot_be_discarded() -> None:
    game = started6()
    game.act(0, "take")  # 5C
    assert legal(game, 0) == [f"replace {p}" for p in range(6)]
    assert table(game, 1)["held"] == {"seat": 0, "card": "5C"}  # a taken card is public
    with pytest.raises(IllegalActionError, match=r"\(GOLF-TURN-3\)"):
        game.act(0, "discard")
    game.act(0, "replace 5")
    assert table(game, 1)["discard"] == "QH"


def test_GOLF_TURN_4_no_position_outside_layout() -> None:
    game = started6()
    game.act(0, "draw")
    with pytest.raises(IllegalActionError, match=r"\(GOLF-TURN-4\)"):
        game.act(0, "replace 6")


def test_GOLF4_TURN_2_replacing_card_stays_face_down() -> None:
    game = new(2, stack(["5S 9H KD 5H", "AC 2C 3C 4C"], "8D", "QS JD"), layout="4")
    play(game, (0, "peek 0"), (0, "peek 1"), (1, "peek 0"), (1, "peek 1"))
    play(game, (0, "draw"), (0, "replace 2"))  # QS over the unseen KD
    assert table(game, 0)["grids"][0] == ["5S", "9H", "QS", None]
    assert table(game, 1)["grids"][0] == [None] * 4
    assert table(game, 1)["discard"] == "KD"
    # a taken discard placed in a grid is known to everybody
    play(game, (1, "take"), (1, "replace 3"))
    assert table(game, 0)["grids"][1] == [None, None, None, "KD"]
    assert table(game, 0)["discard"] == "4C"


# --- GOLF6 / GOLF8 / GOLF10 scoring (basic) -------------------------------------------------------


def test_GOLF6_SCORE_1_column_pair_cancels() -> None:
    # columns (QH,QS)=0, (5C,4H)=9, (9D,KC)=9+0 -> 18; seat 1 (AH,3H)+(2H,6S)+(4D,7S) = 23
    assert scored_now(["QH 5C 9D QS 4H KC", "AH 2H 4D 3H 6S 7S"]) == (18.0, 23.0)


def test_GOLF6_SCORE_1_row_pair_does_not_cancel() -> None:
    # three 5s in the top row, no column pair: 5+5+5 + 7+8+9 = 39
    assert scored_now(["5H 5D 5S 7C 8C 9C", "AH 2H 3H 4H 6H 10H"])[0] == 39.0


def test_GOLF_SCORE_6_ten_and_jack_do_not_pair() -> None:
    # (10H,JS) 10+10 = 20; (2C,2D) 0; (3D,3C) 0 -> 20
    assert scored_now(["10H 2C 3D JS 2D 3C", "AH 4H 5H 6H 7H 8H"])[0] == 20.0


def test_GOLF_SCORE_1_basic_table() -> None:
    # J 10, Q 10, K 0, A 1: JH QH AH / 2C 3C 4C -> 10+10+1+2+3+4 = 30
    # KH KD in column 0 cancel anyway; AS/3S = 4, 2S/4S = 6 -> 10
    assert scored_now(["JH QH AH 2C 3C 4C", "KH AS 2S KD 3S 4S"]) == (30.0, 10.0)


def test_GOLF_SCORE_2_hard_table() -> None:
    # J 11, Q 12, K 13: 11+12+13 + 2+3+4 = 45; seat 1: KH/KD pair 0, 5+7, 6+8 = 26
    scores = scored_now(
        ["JH QH KS 2C 3C 4C", "KH 5C 6C KD 7C 8C"], rules=["golf.hard"], upcard="9S"
    )
    assert scores == (45.0, 26.0)


def test_GOLF_SCORE_4_joker_minus_two_and_pair_to_zero() -> None:
    # seat 0: jokers in column 0 cancel (0, not -4), 5+7, 6+8 -> 26  (GOLF-SCORE-5)
    # seat 1: (AD,3D) 4 + (2D,7D) 9 + (6D,9D) 15 = 28
    scores = scored_now(
        ["JK 5C 6C JK 7C 8C", "AD 2D 6D 3D 7D 9D"], rules=["golf.jokers"], upcard="9S"
    )
    assert scores == (26.0, 28.0)
    # jokers in different columns: (JK,3D) = 1, (JK,7D) = 5, (6D,8D) = 14 -> 20
    scores = scored_now(
        ["JK JK 6D 3D 7D 8D", "AH 2H 3H 4H 5H 6H"], rules=["golf.jokers"], upcard="9S"
    )
    assert scores == (20.0, 21.0)


def test_GOLF_SCORE_6_joker_pairs_only_with_joker() -> None:
    # (JK, 2D) no pair: -2 + 2 = 0; (AS, AH) pair 0; (3S, 4S) = 7 -> 7
    scores = scored_now(
        ["JK AS 3S 2D AH 4S", "5H 6H 7H 8H 9H 10H"], rules=["golf.jokers"], upcard="KS"
    )
    assert scores[0] == 7.0


def test_GOLF_SCORE_8_bonus_twos() -> None:
    # (2C,3S) = -2+3 = 1; (2D,2H) pair 0; (5C,5D) pair 0 -> 1
    # seat 1: (2S,AH) -2+1 = -1; (9H,KH) 9; (4H,6H) 10 -> 18
    scores = scored_now(["2C 2D 5C 3S 2H 5D", "2S 9H 4H AH KH 6H"], rules=["golf.bonus-twos"])
    assert scores == (1.0, 18.0)


def test_GOLF_SCORE_9_one_eyed_jacks() -> None:
    # JH and JS are -2; JH/JC pair cancels (same rank) -> 0; (JS,5C) -2+5 = 3; (JD,6C) 16 -> 19
    scores = scored_now(["JH JS JD JC 5C 6C", "AH 2H 3H 4H 7H 8H"], rules=["golf.one-eyed-jacks"])
    assert scores[0] == 19.0


def test_GOLF6_VAR_2_pairs_anywhere() -> None:
    # QH/QD and 5C/5S cancel wherever they lie: 7 + 3 = 10
    # seat 1: no two cards of one rank: 1 + 2 + 4 + 6 + 8 + 9 = 30
    scores = scored_now(
        ["QH 5C 7D 3S QD 5S", "AC 2C 4C 6C 8C 9C"], rules=["golf.pairs-anywhere"], upcard="KS"
    )
    assert scores == (10.0, 30.0)


def test_GOLF6_VAR_2_pairs_anywhere_odd_count() -> None:
    # QC QS QD in the top row: floor(3/2) = 1 pair cancels, one Q scores 10; 3+4+5 -> 22
    scores = scored_now(
        ["QC QS QD 3H 4H 5H", "AC 2C 6C 7C 8C 9C"], rules=["golf.pairs-anywhere"], upcard="KS"
    )
    assert scores == (22.0, 1 + 2 + 6 + 7 + 8 + 9)


def test_GOLF6_VAR_3_adjacent_four_of_a_kind_columns() -> None:
    # seat 0: columns 0 and 1 are 7-pairs, adjacent: 0 + (3C,4C) 7 -> 7
    # seat 1: AH 2H 3H / 4H 5H 6H: 21, plus 10 for seat 0's four of a kind -> 31
    rule = ["golf.four-of-a-kind-columns"]
    grids = ["7H 7D 3C 7S 7C 4C", "AH 2H 3H 4H 5H 6H"]
    assert scored_now(grids, rules=rule) == (7.0, 31.0)
    assert scored_now(grids) == (7.0, 21.0)  # without the house rule: no award


def test_GOLF6_VAR_3_non_adjacent_columns_no_award() -> None:
    # 7-pairs in columns 0 and 2 are not next to each other: no award; 3 + 4 = 7; seat 1: 21
    scores = scored_now(
        ["7H 3C 7D 7S 4C 7C", "AH 2H 3H 4H 5H 6H"], rules=["golf.four-of-a-kind-columns"]
    )
    assert scores == (7.0, 21.0)


def test_GOLF6_VAR_3_six_of_a_kind_awarded_once_to_each_other_player() -> None:
    # 4 players, two decks: seat 0 has three 7-columns -> 0; each other seat +10 once
    grids = [
        "7H 7D 7S 7C 7H 7D",
        "AH 2H 3H 4H 5H 6H",  # 21 + 10 = 31
        "AC 2C 3C 4C 5C 6C",  # 21 + 10 = 31
        "AD 2D 3D 4D 5D 6D",  # 21 + 10 = 31
    ]
    assert scored_now(grids, rules=["golf.four-of-a-kind-columns"]) == (0.0, 31.0, 31.0, 31.0)


def test_GOLF8_1_four_column_pairs() -> None:
    # GOLF8 columns c/c+4: (AS,AH)=0, (2S,3H)=5, (9H,9D)=0, (4S,5S)=9 -> 14
    scores = scored_now(["AS 2S 9H 4S AH 3H 9D 5S", "KC QC JC 10C 2C 3C 4C 5C"], layout=8)
    # seat 1: (KC,2C) 0+2, (QC,3C) 10+3, (JC,4C) 10+4, (10C,5C) 10+5 -> 44
    assert scores == (14.0, 44.0)


def test_GOLF8_1_four_of_a_kind_adjacent_in_eight_card() -> None:
    # seat 0: columns 2 and 3 are 6-pairs, adjacent -> 0; (AS,3S) 4 + (2S,4S) 6 -> 10
    rule = ["golf.four-of-a-kind-columns"]
    grids = ["AS 2S 6S 6H 3S 4S 6D 6C", "AH 2H 3H 4H 5H 7H 8H 9H"]
    # seat 1: 1+2+3+4+5+7+8+9 = 39, +10 -> 49
    assert scored_now(grids, layout=8, rules=rule) == (10.0, 49.0)


def test_GOLF10_column_pairs_basic_and_hard() -> None:
    # GOLF10 columns c/c+5: (KH,KD)=0, (2C,2D)=0, (3C,8C)=11, (4C,9C)=13, (5C,10C)=15 -> 39
    grids = ["KH 2C 3C 4C 5C KD 2D 8C 9C 10C", "AH 3H 4H 5H 6H 7H 8H 9H 10H JH"]
    # seat 1: 1+3+4+5+6+7+8+9+10+10 = 63 (basic), 64 with J = 11 (hard)
    assert scored_now(grids, layout=10) == (39.0, 63.0)
    assert scored_now(grids, layout=10, rules=["golf.hard"], upcard="QS") == (39.0, 64.0)


# --- GOLF9 ---------------------------------------------------------------------------------------


def test_GOLF9_2_row_triple_cancels() -> None:
    # 5S 5H 5D / AS 2S 3S / 4S 6S 7S -> 0 + 6 + 17 = 23
    grids = ["5S 5H 5D AS 2S 3S 4S 6S 7S", "AH 2H 3H 4H 6H 7H 8H 9H 10H"]
    # seat 1: 1+2+3+4+6+7+8+9+10 = 50, no triple
    assert scored_now(grids, layout=9) == (23.0, 50.0)


def test_GOLF9_2_column_triple_cancels_pair_does_not() -> None:
    # seat 0: column 0 = 8S 8H 8D -> 0; 1+2+3+4+6+7 = 23
    # seat 1: 9C 9D pair in the top row does not cancel: 9+9+1+2+3+4+6+7+10 = 51
    grids = ["8S AS 2S 8H 3S 4S 8D 6S 7S", "9C 9D AC 2C 3C 4C 6C 7C 10C"]
    assert scored_now(grids, layout=9) == (23.0, 51.0)


def test_GOLF9_3_overlapping_row_and_column_triples() -> None:
    # 4 players (two decks): row 0 = 5S 5H 5D and column 0 = 5S 5C 5S -> all five score 0;
    # the rest AS 2S 3S 4S -> 10
    grids = [
        "5S 5H 5D 5C AS 2S 5S 3S 4S",
        "AH 2H 3H 4H 6H 7H 8H 9H 10H",  # 50
        "AC 2C 3C 4C 6C 7C 8C 9C 10C",  # 50
        "AD 2D 3D 4D 6D 7D 8D 9D 10D",  # 50
    ]
    assert scored_now(grids, layout=9) == (10.0, 50.0, 50.0, 50.0)


def test_GOLF9_4_removed_triple_goes_to_bottom_of_discards() -> None:
    g0 = "5S 5H 9C AS 2S 3S 4S 6S 7S"
    deck = stack([g0, "AH 2H 3H 4H 6H 7H 8H 9H 10H"], "KS", "5D")
    game = new(2, deck, layout=9, rules=["golf.remove-triples"])
    play(game, (0, "flip 0"), (0, "flip 1"), (0, "flip 2"), (1, "flip 0"), (1, "flip 1"))
    game.act(1, "flip 2")
    play(game, (0, "draw"), (0, "replace 2"))  # 5D over 9C: the row 5S 5H 5D is complete
    t = table(game, 1)
    assert t["grids"][0][:3] == ["--", "--", "--"]
    assert t["discard"] == "9C" and t["discards"] == 5  # KS, three 5s underneath, 9C on top
    play(game, (1, "draw"))
    assert legal(game, 1)[:3] == ["replace 0", "replace 1", "replace 2"]  # seat 1's own grid
    play(game, (1, "discard"), (0, "draw"))
    assert "replace 0" not in legal(game, 0) and "replace 3" in legal(game, 0)


# --- GOLF4 / GOLF4H scoring -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("grid", "rules", "expected"),
    [
        ("5S 5H 9C KD", (), 9),  # row pair 5/5 cancels: 9 + 0
        ("5S 9C 5H 3D", (), 12),  # column pair cancels: 9 + 3
        ("5S 9C 3D 5H", (), 22),  # diagonal only: nothing cancels
        ("5S 5H 5D 2D", (), 7),  # three of a kind: two cancel, third 5 + 2
        ("5S 5H 5D 5C", (), 0),  # four of a kind: whole grid 0
        ("9S 9H 4D 4H", (), 0),  # two row pairs
        ("9S 4S 9H 4D", (), 0),  # two column pairs
        ("5S 9C 3D 5H", ("golf.diagonal-pairs",), 12),  # GOLF4-VAR-1
        ("5S 5H 9C KD", ("golf.no-cancelling",), 19),  # GOLF4-VAR-2
        ("5S 5H 5D 5C", ("golf.no-cancelling",), 20),  # GOLF4-VAR-2: four of a kind too
        ("KS QH JD 5C", ("golf.hard",), 41),  # GOLF-SCORE-3: 13 + 12 + 11 + 5
    ],
)
def test_GOLF4_SCORE_1_2_3_grid_cancelling(
    grid: str, rules: tuple[str, ...], expected: int
) -> None:
    scores = scored_now([grid, "AC 2C 3C 4C"], layout="4", rules=rules, upcard="8D")
    assert scores == (float(expected), 10.0)


@pytest.mark.parametrize(
    ("hand", "rules", "expected"),
    [
        ("10S QH 3H 3D", (), 20),  # 3s cancel; 10 and Q are both 10 points but do not cancel
        ("7S AH 9D 7H", (), 10),  # any two same-rank cards cancel, no positions: 1 + 9
        ("7S 7H 7D AH", (), 8),  # three of a kind: two cancel, 7 + 1
        ("7S 7H 7D 7C", (), 0),  # four of a kind
        ("2S 2H 2D 5C", ("golf.bonus-twos",), 3),  # two 2s cancel, the third -2, + 5
    ],
)
def test_GOLF4H_2_hand_cancelling(hand: str, rules: tuple[str, ...], expected: int) -> None:
    scores = scored_now([hand, "AC 2C 3C 4C"], layout="4h", rules=rules, upcard="8D")
    assert scores[0] == float(expected)


def test_GOLF_SCORE_7_three_jacks_cancel_for_the_lowest_score() -> None:
    # GOLF4, one-eyed jacks: JH JC / JS 5C. Row pair JH+JC leaves JS (-2) + 5 = 3;
    # column pair JH+JS would leave JC 10 + 5 = 15. Decision GOLF-SCORE-7: the lowest, 3.
    scores = scored_now(
        ["JH JC JS 5C", "AC 2C 3C 4C"], layout="4", rules=["golf.one-eyed-jacks"], upcard="8D"
    )
    assert scores[0] == 3.0


# --- knocking (GOLF4 / GOLF4H) ------------------------------------------------------------------


def test_GOLF4_KNOCK_1_2_knock_then_one_final_turn() -> None:
    game = new(3, layout="4", rounds=1)
    finish_setup(game)
    assert legal(game, 0) == ["draw", "take", "knock"]
    game.act(0, "knock")  # instead of drawing; the knocker does nothing else
    assert game.to_act == (1,)
    assert legal(game, 1) == ["draw", "take"]  # nobody may knock after a knock
    with pytest.raises(IllegalActionError, match=r"\(GOLF4-KNOCK-2\)"):
        game.act(1, "knock")
    play(game, (1, "draw"), (1, "discard"))
    assert not game.is_over and game.to_act == (2,)
    play(game, (2, "draw"), (2, "discard"))
    assert game.is_over  # the knocker takes no further turn


def test_GOLF4_KNOCK_1_no_knock_after_drawing() -> None:
    game = new(2, layout="4")
    finish_setup(game)
    game.act(0, "draw")
    assert "knock" not in legal(game, 0)
    with pytest.raises(IllegalActionError, match=r"\(GOLF4-KNOCK-1\)"):
        game.act(0, "knock")


def test_GOLF4_VAR_3_final_turns_stock_only_after_knock() -> None:
    game = new(2, layout="4", rules=["golf.knock-final-stock-only"])
    finish_setup(game)
    assert legal(game, 0) == ["draw", "take", "knock"]  # before the knock: both piles
    game.act(0, "knock")
    assert legal(game, 1) == ["draw"]
    with pytest.raises(IllegalActionError, match=r"\(GOLF4-VAR-3\)"):
        game.act(1, "take")


# --- ender penalties (GOLF-PEN-*) -----------------------------------------------------------------

SCROOGE = "9S 8H KD KC"  # 9 + 8 + 0 + 0 = 17 (the K/K row pair is 0 anyway)
MARLEY = "3S 4H 2D 3C"  # the 3s lie on a diagonal: 3 + 4 + 2 + 3 = 12


def test_GOLF_PEN_3_seed_example_scrooge_and_marley() -> None:
    # seed: Scrooge knocks with 17, Marley has 12 -> Scrooge 17 + 12 = 29, Marley 12
    game = four_card_knock(SCROOGE, MARLEY, rules=["golf.ender-penalty-lowest"])
    assert game.result is not None
    assert game.result.scores == (29.0, 12.0) and game.result.winners == (1,)


def test_GOLF_PEN_2_knocker_not_lowest_gets_ten() -> None:
    game = four_card_knock(SCROOGE, MARLEY, rules=["golf.ender-penalty-10"])
    assert game.result is not None and game.result.scores == (27.0, 12.0)
    plain = four_card_knock(SCROOGE, MARLEY)  # no penalty without the house rule
    assert plain.result is not None and plain.result.scores == (17.0, 12.0)


def test_GOLF_PEN_2_knocker_lowest_not_penalised() -> None:
    game = four_card_knock(MARLEY, SCROOGE, rules=["golf.ender-penalty-10"])
    assert game.result is not None and game.result.scores == (12.0, 17.0)


def test_GOLF_PEN_4_knocker_tied_for_lowest_not_penalised() -> None:
    # both 12 (seat 1: 3D 4D / 2H 3H, 3s on a diagonal); a tie is not penalised; co-winners
    for rule in ("golf.ender-penalty-10", "golf.ender-penalty-lowest"):
        game = four_card_knock(MARLEY, "3D 4D 2H 3H", rules=[rule])
        assert game.result is not None
        assert game.result.scores == (12.0, 12.0) and game.result.winners == (0, 1)


def test_GOLF_PEN_3_negative_lowest_adds_zero() -> None:
    # bonus twos: seat 1 = 2S KH / KD 2C, nothing cancels (diagonals): -2 + 0 + 0 - 2 = -4
    # seat 0 knocks with 9 + 8 + (QS/QC row pair 0) = 17: + max(-4, 0) = 17
    rules = ["golf.bonus-twos", "golf.ender-penalty-lowest"]
    game = four_card_knock("9S 8H QS QC", "2S KH KD 2C", rules=rules)
    assert game.result is not None and game.result.scores == (17.0, -4.0)
    rules = ["golf.bonus-twos", "golf.ender-penalty-10"]
    game = four_card_knock("9S 8H QS QC", "2S KH KD 2C", rules=rules)
    assert game.result is not None and game.result.scores == (27.0, -4.0)


def test_GOLF_PEN_1_4h_knocker_is_the_ender() -> None:
    # GOLF4H: 9S 8H KD KC -> 17; seat 1 3S 4H 2D 3C: in a hand 3S/3C cancel -> 4 + 2 = 6
    game = four_card_knock(SCROOGE, MARLEY, layout="4h", rules=["golf.ender-penalty-10"])
    assert game.result is not None and game.result.scores == (27.0, 6.0)
    assert game.history(None)[-1]["ender"] == 0


# GOLF6 ender round: seat 0 = AS 2S 3S 4S 5S 6S, flips AS 2S, then puts stock cards at 2..5.
G6_SEAT1 = "AH 2H 3H KC KS KD"  # (AH,KC) 1 + (2H,KS) 2 + (3H,KD) 3 = 6


def test_GOLF_PEN_2_six_card_completer_not_lowest() -> None:
    # seat 0 ends with AS 2S 9H / 9D 10H JC: (AS,9D) 10 + (2S,10H) 12 + (9H,JC) 19 = 41
    stock = "9H 4D 9D 5D 10H 6D JC 7D"
    game = six_card_ender(
        "AS 2S 3S 4S 5S 6S", G6_SEAT1, "QC", stock, rules=["golf.ender-penalty-10"]
    )
    assert game.result is not None and game.result.scores == (51.0, 6.0)
    assert game.history(None)[-1]["ender"] == 0
    game = six_card_ender(
        "AS 2S 3S 4S 5S 6S", G6_SEAT1, "QC", stock, rules=["golf.ender-penalty-lowest"]
    )
    assert game.result is not None and game.result.scores == (47.0, 6.0)  # 41 + 6


def test_GOLF_PEN_4_awards_come_before_the_penalty() -> None:
    # seat 0 completes with AS 2S KH / AD 2D KD: three column pairs -> 0.
    # seat 1 = 7H 7D 3C / 7S 7C 4C: adjacent 7-columns -> 3 + 4 = 7; seat 0 gets +10 -> 10.
    # compared after awards seat 0 (10) is not lowest (7) -> +10 penalty -> 20.
    rules = ["golf.four-of-a-kind-columns", "golf.ender-penalty-10"]
    game = six_card_ender(
        "AS 2S 3S 4S 5S 6S", "7H 7D 3C 7S 7C 4C", "QC", "KH 8H AD 8D 2D 9H KD 9D", rules=rules
    )
    assert game.result is not None and game.result.scores == (20.0, 7.0)


# --- end of round (GOLF6-END-*) -------------------------------------------------------------------


def test_GOLF6_END_1_other_players_one_final_turn_each() -> None:
    game = new(3, rounds=1, seed=5)
    finish_setup(game)  # every seat flips 0 and 1
    for pos in (2, 3, 4, 5):
        play(game, (0, "draw"), (0, "discard"))
        play(game, (1, "draw"), (1, f"replace {pos}"))
        if pos != 5:
            play(game, (2, "draw"), (2, "discard"))
    # seat 1 completed its layout: seats 2 and 0 take one final turn each, clockwise
    assert game.to_act == (2,) and table(game, 2)["final_turns_left"] == 2
    play(game, (2, "draw"), (2, "discard"))
    assert not game.is_over and game.to_act == (0,)
    play(game, (0, "draw"), (0, "discard"))
    assert game.is_over  # seat 1 takes no further turn
    assert game.history(None)[-1]["ender"] == 1


def test_GOLF6_END_2_completing_during_final_turn_grants_nothing() -> None:
    # both replace positions 2..5 in turn; seat 0 completes first (ender), seat 1 completes in
    # its final turn: no further turn for anybody, the next round is dealt at once.
    g0, g1 = "AS 2S 3S 4S 5S 6S", "AH 2H 3H 4H 5H 6H"
    game = new(2, stack([g0, g1], "QC", "AD 3D 2D 3C KS KH 9D 9C"), rounds=2)
    play(game, (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 1"))
    for pos in (2, 3, 4, 5):
        play(game, (0, "draw"), (0, f"replace {pos}"))
        assert game.to_act == (1,)
        play(game, (1, "draw"), (1, f"replace {pos}"))
    [past] = game.history(None)
    # seat 0: AS 2S AD / 2D KS 9D -> (AS,2D) 3 + (2S,KS) 2 + (AD,9D) 10 = 15
    # seat 1: AH 2H 3D / 3C KH 9C -> (AH,3C) 4 + (2H,KH) 2 + (3D,9C) 12 = 18
    assert past["ender"] == 0 and past["scores"] == [15, 18]
    # round 2: dealer seat 0, so seat 1 makes the first setup flips
    assert game.to_act == (1,) and legal(game, 1)[0] == "flip 0"


def test_GOLF6_END_3_face_down_cards_hidden_and_replaceable_in_final_turn() -> None:
    # seat 1's positions 2..5 are still face down during its final turn; it replaces one
    game = new(
        2, stack(["AS 2S 3S 4S 5S 6S", G6_SEAT1], "QC", "9H 4D 9D 5D 10H 6D JC 7D"), rounds=1
    )
    play(game, (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 1"))
    for pos in (2, 3, 4, 5):
        play(game, (0, "draw"), (0, f"replace {pos}"))
        if pos != 5:
            play(game, (1, "draw"), (1, "discard"))
    assert table(game, 1)["final_turns_left"] == 1
    assert table(game, 0)["grids"][1] == ["AH", "2H", None, None, None, None]
    assert table(game, 1)["grids"][1] == ["AH", "2H", None, None, None, None]
    play(game, (1, "draw"), (1, "replace 5"))  # 7D over the unseen KD
    assert game.is_over and game.result is not None
    # seat 1: (AH,KC) 1 + (2H,KS) 2 + (3H,7D) 10 = 13; all revealed in the history
    assert game.history(None)[-1]["grids"][1] == ["AH", "2H", "3H", "KC", "KS", "7D"]
    assert game.result.scores == (41.0, 13.0)


def test_GOLF6_VAR_1_final_turns_stock_only() -> None:
    game = new(
        2,
        stack(["AS 2S 3S 4S 5S 6S", G6_SEAT1], "QC", "9H 4D 9D 5D 10H 6D JC 7D"),
        rules=["golf.final-stock-only"],
    )
    play(game, (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 1"))
    for pos in (2, 3, 4, 5):
        play(game, (0, "draw"), (0, f"replace {pos}"))
        if pos != 5:
            assert legal(game, 1) == ["draw", "take"]  # before the final turns: both piles
            play(game, (1, "draw"), (1, "discard"))
    assert legal(game, 1) == ["draw"]
    with pytest.raises(IllegalActionError, match=r"\(GOLF6-VAR-1\)"):
        game.act(1, "take")


def test_GOLF6_END_4_no_final_turns_variant() -> None:
    game = new(
        2,
        stack(["AS 2S 3S 4S 5S 6S", G6_SEAT1], "QC", "9H 4D 9D 5D 10H 6D JC 7D"),
        rules=["golf.no-final-turns"],
        rounds=1,
    )
    play(game, (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 1"))
    for pos in (2, 3, 4, 5):
        play(game, (0, "draw"), (0, f"replace {pos}"))
        if pos != 5:
            play(game, (1, "draw"), (1, "discard"))
    assert game.is_over and game.result is not None
    assert game.result.scores == (41.0, 6.0)


def test_GOLF6_SCORE_2_removed_column_to_bottom_of_discards() -> None:
    game = new(
        2,
        stack(["7H 9C KD 4S 2D QH", "3C 8D JS 3D 10H 6S"], "5C", "7D KS"),
        rules=["golf.remove-columns"],
    )
    play(game, (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 1"))
    play(game, (0, "draw"), (0, "replace 3"))  # 7D over 4S: column 0 = 7H/7D face up
    t = table(game, 1)
    assert t["grids"][0] == ["--", "9C", None, "--", None, None]
    assert t["discard"] == "4S" and t["discards"] == 4  # 7H 7D at the bottom, 5C, 4S on top
    play(game, (1, "draw"), (1, "discard"), (0, "draw"))
    assert "replace 0" not in legal(game, 0) and "replace 3" not in legal(game, 0)
    with pytest.raises(IllegalActionError, match=r"\(GOLF6-SCORE-2\)"):  # "cannot be replaced"
        game.act(0, "replace 0")


# --- stock, match, notation --------------------------------------------------------------------


def test_GOLF_STOCK_1_empty_stock_reshuffles_all_discards_but_top() -> None:
    game = new(2, rounds=1, seed=3)
    finish_setup(game)
    assert table(game)["stock"] == 39
    seat = 0
    for _ in range(39):
        play(game, (seat, "draw"), (seat, "discard"))
        seat = 1 - seat
    t = table(game)
    assert t["stock"] == 0 and t["discards"] == 40
    top = t["discard"]
    game.act(seat, "draw")
    t = table(game)
    # 39 discards under the top become the stock, one of them is drawn: 38 left
    assert t["stock"] == 38 and t["discards"] == 1 and t["discard"] == top


def test_GOLF_GAME_1_rounds_deal_passes_left_and_totals_add() -> None:
    # GOLF4H, 2 rounds. Round 1 (dealer seat 1): seat 0 = 5S 9H KD 5H -> 9; seat 1 = 10.
    game = new(2, stack(["5S 9H KD 5H", "AC 2C 3C 4C"], "8D"), layout="4h", rounds=2)
    play(game, (0, "knock"), (1, "draw"), (1, "discard"))
    assert not game.is_over
    assert game.history(None)[-1]["scores"] == [9, 10]
    # round 2: the deal passed to seat 0, so seat 1 (its left) moves first
    assert game.to_act == (1,)
    play(game, (1, "knock"), (0, "draw"), (0, "discard"))
    assert game.is_over and game.result is not None
    past = game.history(None)
    assert len(past) == 2 and past[-1]["ender"] == 1
    totals = [past[0]["scores"][s] + past[1]["scores"][s] for s in (0, 1)]
    assert past[-1]["totals"] == totals
    assert list(game.result.scores) == [float(t) for t in totals]
    low = min(totals)
    assert game.result.winners == tuple(s for s in (0, 1) if totals[s] == low)


def test_GOLF_GAME_1_points_limit_reached_exactly() -> None:
    deck = stack(["5S 9H KD 5H", "AC 2C 3C 4C"], "8D")
    game = new(2, deck, layout="4h", rounds=18, points_limit=10)
    play(game, (0, "knock"), (1, "draw"), (1, "discard"))  # seat 1 reaches 10
    assert game.is_over and game.result is not None
    assert game.result.scores == (9.0, 10.0) and game.result.winners == (0,)
    game = new(2, deck, layout="4h", rounds=18, points_limit=11)
    play(game, (0, "knock"), (1, "draw"), (1, "discard"))
    assert not game.is_over


def test_GOLF_GAME_2_tie_shares_the_win() -> None:
    # GOLF4H: 5S 9H KD 5H -> 9; 5C 9D KS 5D -> 9
    game = new(2, stack(["5S 9H KD 5H", "5C 9D KS 5D"], "8D"), layout="4h", rounds=1)
    play(game, (0, "knock"), (1, "draw"), (1, "discard"))
    assert game.result is not None
    assert game.result.scores == (9.0, 9.0) and game.result.winners == (0, 1)


def test_GOLF_NOTE_1_notation_short_forms_case_and_errors() -> None:
    game = new(2, stack(["7H 9C KD 4S 2D QH", "3C 8D JS 3D 10H 6S"], "5C", "7D KS 9H"))
    play(game, (0, "F 0"), (0, "  flip   1 "), (1, "f 2"), (1, "FLIP 5"))
    assert table(game)["grids"][1] == [None, None, "JS", None, None, "6S"]
    game.act(0, "D")
    game.act(0, "r 3")
    assert table(game)["discard"] == "4S"
    play(game, (1, "T"), (1, "R 4"))  # 4S over 10H
    assert table(game)["grids"][1][4] == "4S"
    play(game, (0, "d"), (0, "x"))
    assert table(game)["discard"] == "KS"
    with pytest.raises(NotationError):
        game.act(1, "fly 0")
    with pytest.raises(NotationError):
        game.act(1, "replace")
    assert legal(game, 1) == ["draw", "take"]
    four = new(2, layout="4h")
    four.act(0, "K")
    assert four.to_act == (1,)


# --- more combinations -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("grid", "rules", "expected"),
    [
        ("5S 9C 9H 5H", ("golf.diagonal-pairs",), 0),  # both diagonals are pairs
        ("5S 5H 9C 5D", (), 14),  # three 5s (row, column and diagonal): one 5 + 9
        ("JK JK 3S 4S", ("golf.jokers",), 7),  # a joker row pair cancels to 0, not -4
        ("2S 2H 2D 2C", ("golf.bonus-twos",), 0),  # four bonus twos: the grid scores 0
    ],
)
def test_GOLF4_SCORE_combinations(grid: str, rules: tuple[str, ...], expected: int) -> None:
    scores = scored_now([grid, "AC 5C 3C 4C"], layout="4", rules=rules, upcard="8D")
    assert scores == (float(expected), 13.0)  # seat 1: 1 + 5 + 3 + 4


def test_GOLF6_VAR_2_pairs_anywhere_with_jokers_and_one_eyed_jacks() -> None:
    # jokers in different columns cancel anywhere: 3 + 4 + 5 + 6 = 18
    scores = scored_now(
        ["JK 3S 4S 5S JK 6S", "AC 2C 7C 8C 9C 10C"], rules=["golf.jokers", "golf.pairs-anywhere"]
    )
    assert scores == (18.0, 37.0)
    # JH JS JD: one pair cancels; the lowest choice leaves a one-eyed jack (-2): -2 + 12 = 10
    rules = ["golf.one-eyed-jacks", "golf.pairs-anywhere"]
    assert scored_now(["JH JS JD 3S 4S 5S", "AC 2C 7C 8C 9C 10C"], rules=rules)[0] == 10.0


def test_GOLF6_VAR_3_three_players_each_other_player_gets_ten() -> None:
    grids = ["7H 7D 3C 7S 7C 4C", "AH 2H 3H 4H 5H 6H", "AD 2D 3D 4D 5D 6D"]
    assert scored_now(grids, rules=["golf.four-of-a-kind-columns"]) == (7.0, 31.0, 31.0)


def test_GOLF_PEN_3_three_players_lowest_of_all() -> None:
    # seat 0 knocks with 17; seat 1 12; seat 2 5H 5D / 9C AS (row pair) -> 10: 17 + 10 = 27
    deck = stack([SCROOGE, MARLEY, "5H 5D 9C AS"], "8D", "QD JD 7C 6C")
    game = new(3, deck, layout="4", rules=["golf.ender-penalty-lowest"], rounds=1)
    finish_setup(game)
    play(game, (0, "knock"), (1, "draw"), (1, "discard"), (2, "draw"), (2, "discard"))
    assert game.result is not None and game.result.scores == (27.0, 12.0, 10.0)
    assert game.result.winners == (2,)


def test_GOLF_PEN_1_round_ended_by_turn_cap_has_no_ender() -> None:
    deck = stack([SCROOGE, MARLEY], "8D")
    game = new(2, deck, layout="4", rules=["golf.ender-penalty-10"], max_turns=1, rounds=1)
    finish_setup(game)
    play(game, (0, "draw"), (0, "discard"))
    assert game.result is not None and game.result.scores == (17.0, 12.0)
    assert game.history(None)[-1]["ender"] is None


def test_GOLF9_1_same_column_variant_three_flips() -> None:
    game = new(2, layout=9, rules=["golf.reveal-same-column"])
    game.act(0, "flip 0")
    assert legal(game, 0) == ["flip 3", "flip 6"]


def test_GOLF_DECK_3_extra_decks_for_big_tables() -> None:
    # GOLF10, 15 players: 3 decks leave 156 - 150 - 1 = 5 < 15, so a 4th: 208 - 151 = 57
    assert table(new(15, layout=10))["stock"] == 57
    # GOLF8, 13 players: 3 decks (8+), 156 - 104 - 1 = 51 >= 13
    assert table(new(13, layout=8))["stock"] == 51


@pytest.mark.parametrize(
    ("layout", "rule"),
    [
        ("4h", "golf.diagonal-pairs"),  # no positions in a hand
        (9, "golf.four-of-a-kind-columns"),  # GOLF9 cancels triples only
        (9, "golf.pairs-anywhere"),
        ("4", "golf.final-stock-only"),  # the 4-card family has its own knock variant
        (6, "golf.peek-nearest"),  # 6-card layouts flip, they do not peek
    ],
)
def test_GOLF_GEN_2_house_rule_refused_for_a_layout_it_does_not_serve(
    layout: Any, rule: str
) -> None:
    with pytest.raises(cardcore.OptionError):
        new(2, layout=layout, rules=[rule])


def test_GOLF6_SCORE_2_pair_flipped_at_setup_is_removed() -> None:
    # the decision: a cancelled column is removed as soon as both cards are face up
    game = new(
        2,
        stack(["7H 9C KD 7D 2D QH", "3C 8D JS 4D 10H 6S"], "5C"),
        rules=["golf.remove-columns"],
    )
    play(game, (0, "flip 0"), (0, "flip 3"))
    assert table(game, 1)["grids"][0] == ["--", None, None, "--", None, None]
    assert table(game, 1)["discard"] == "5C" and table(game, 1)["discards"] == 3


def test_GOLF4_TURN_3_knowledge_follows_the_cards() -> None:
    game = new(2, stack(["5S 9H KD 5H", "AC 2C 3C 4C"], "8D", "QS JD 7C"), layout="4")
    play(game, (0, "peek 0"), (0, "peek 1"), (1, "peek 0"), (1, "peek 1"))
    play(game, (0, "draw"), (0, "replace 0"))  # QS over the peeked 5S
    play(game, (1, "take"), (1, "replace 2"))  # the public 5S over seat 1's unseen 3C
    assert table(game, 0)["grids"][1] == [None, None, "5S", None]
    play(game, (0, "draw"), (0, "discard"), (1, "draw"), (1, "replace 2"))  # 7C over 5S
    assert table(game, 0)["grids"][1] == [None] * 4  # seat 0 never saw 7C
    assert table(game, 1)["grids"][1] == ["AC", "2C", "7C", None]
    assert table(game, 0)["discard"] == "5S"
