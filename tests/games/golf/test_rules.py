"""Golf base-game rules on the engine, one test (or more) per rule ID of seeds/golf.md.

No house rule is installed in these tests. Decks are stacked top first; with the default
dealer (the last seat) seat 0 gets the first card and moves first.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from tests.games.golf.helpers import golf, grid, play, setup_flips, stack, state

from cardcore import (
    Card,
    EndMatch,
    Game,
    IllegalActionError,
    OptionError,
    Resign,
    decks,
)

ROOT = Path(__file__).resolve().parents[3]
G0 = "7H 9C KD 4S 2D QH"
G1 = "3C 8D JS 3D 10H 6S"
DECK = stack([G0, G1], "5C", "7D KS 9H QS AH 2C")

# The worked round of seeds/golf/six_card_two_players.json (score by hand: seat 0 = 1, seat 1 = 22).
ROUND = [
    (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 3"),
    (0, "draw"), (0, "replace 3"),
    (1, "take"), (1, "replace 1"),
    (0, "draw"), (0, "replace 2"),
    (1, "draw"), (1, "discard"),
    (0, "take"), (0, "replace 4"),
    (1, "draw"), (1, "replace 2"),
    (0, "draw"), (0, "replace 5"),
    (1, "draw"), (1, "replace 4"),
]  # fmt: skip


def started(**kwargs: Any) -> Game:
    game = golf(2, DECK, **kwargs)
    setup_flips(game, [(0, 1), (1, 4)])
    return game


# --- common ------------------------------------------------------------------------------------


def test_golf_gen_1_two_or_more_players_lowest_wins() -> None:
    with pytest.raises(OptionError, match=r"\(CORE-SEAT-2\)"):
        golf(1)
    game = golf(2, DECK, options={"rounds": 1})
    play(game, *ROUND)
    assert game.result is not None and game.result.winners == (0,)  # 1 point beats 22


def test_golf_gen_2_options_are_fixed() -> None:
    game = golf(2, options={"layout": 8})
    with pytest.raises(TypeError):
        game.options["layout"] = 6  # type: ignore[index]
    with pytest.raises(TypeError):
        state(game).options["layout"] = 6  # type: ignore[index]


@pytest.mark.parametrize("layout", [6, 8, 9, 10, "4", "4h"])
def test_golf_gen_3_two_or_more_players_up_to_the_core_limit(layout: object) -> None:
    for n in (2, 13, 64):  # GOLF-GEN-1: "2 or more"; GOLF-DECK-3 adds decks for big tables
        game = golf(n, options={"layout": layout, "rounds": 1})
        rng = random.Random(n)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions(game.to_act[0])))
        assert game.result is not None and len(game.result.scores) == n
    with pytest.raises(OptionError, match="CORE-SEAT-2"):
        golf(65)
    with pytest.raises(OptionError, match=r"\(CORE-SEAT-2\)"):
        golf(1)


@pytest.mark.parametrize(("players", "decks_used"), [(3, 1), (4, 2), (8, 3)])
def test_golf_deck_1_engine_uses_deck_count(players: int, decks_used: int) -> None:
    game = golf(players)
    assert sum(1 for _ in game.state.zones.all_cards()) == 52 * decks_used
    assert Counter(game.state.zones.all_cards()) == Counter(decks(decks_used))


@pytest.mark.parametrize(("players", "decks_used"), [(7, 1), (8, 2)])
def test_golf_deck_2_four_card_engine_decks(players: int, decks_used: int) -> None:
    game = golf(players, options={"layout": "4"})
    assert sum(1 for _ in game.state.zones.all_cards()) == 52 * decks_used


def test_golf_deck_3_stock_never_smaller_than_players() -> None:
    for layout in (6, 8, 9, 10, "4", "4h"):
        for players in (*range(2, 13), 20, 23, 40, 64):
            for rules in ((), ("golf.jokers",)):
                game = golf(players, options={"layout": layout}, rules=rules)
                stock = game.view(None)["table"]["stock"]
                assert stock >= players
                # decks are added one at a time: one deck fewer would leave too small a stock
                cards = sum(1 for _ in game.state.zones.all_cards())
                per_deck = 54 if rules else 52
                decks_used = cards // per_deck
                if layout in ("4", "4h"):  # GOLF-DECK-2
                    fewest = 1 if players < 8 else 2
                else:  # GOLF-DECK-1
                    fewest = 1 if players < 4 else 2 if players < 8 else 3
                if decks_used > fewest:
                    assert stock - per_deck < players, (layout, players, rules)


def test_golf_deck_3_jokers_count_in_the_stock() -> None:
    # 23 players of GOLF6: three decks with jokers leave 162 - 138 - 1 = 23 in the stock
    game = golf(23, options={"layout": 6}, rules=("golf.jokers",))
    assert sum(1 for _ in game.state.zones.all_cards()) == 162
    assert game.view(None)["table"]["stock"] == 23
    assert sum(1 for _ in golf(23, options={"layout": 6}).state.zones.all_cards()) == 4 * 52


def test_golf_deal_1_one_card_at_a_time_left_of_dealer() -> None:
    game = golf(2, DECK)
    assert grid(game, 0) == G0.split()
    assert grid(game, 1) == G1.split()
    # with seat 0 dealing, seat 1 (left of the dealer) gets the first card
    other = golf(2, DECK, options={"dealer": 0})
    assert grid(other, 1) == G0.split()
    assert grid(other, 0) == G1.split()


def test_golf_deal_2_upcard_then_stock() -> None:
    game = golf(2, DECK)
    table = game.view(0)["table"]
    assert table["discard"] == "5C" and table["discards"] == 1
    assert table["stock"] == 52 - 12 - 1


def test_golf_deal_3_first_dealer_and_deal_passes_left() -> None:
    game = golf(3)
    assert state(game).dealer == 2 and game.to_act == (0,)
    game = golf(3, options={"dealer": 0})
    assert game.to_act == (1,)
    game = golf(2, DECK, options={"rounds": 2})
    play(game, *ROUND)
    assert state(game).round == 2
    assert state(game).dealer == 0 and game.to_act == (1,)  # deal passed left to seat 0
    seeded = [state(golf(4, seed=s, options={"dealer": "random"})).dealer for s in range(12)]
    assert len(set(seeded)) > 1
    assert seeded == [
        state(golf(4, seed=s, options={"dealer": "random"})).dealer for s in range(12)
    ]
    with pytest.raises(OptionError, match="GOLF-DEAL-3"):
        golf(2, options={"dealer": 5})
    with pytest.raises(
        OptionError, match=r"'random' or a whole number from 0 to 63, not <an int of 16610 bits>"
    ):
        golf(2, options={"dealer": 10**5000})  # Python will not print it: shown by its size
    with pytest.raises(OptionError, match=r"'random' or a whole number from 0 to 63, not 'Random'"):
        golf(2, options={"dealer": "Random"})  # declared bounds: "random" or a seat up to 63


def test_golf_deal_4_setup_phase_seat_by_seat() -> None:
    game = golf(3)
    assert game.to_act == (0,)
    game.act(0, "flip 0")
    assert game.to_act == (0,)  # seat 0 makes both flips first
    game.act(0, "flip 5")
    assert game.to_act == (1,)
    with pytest.raises(IllegalActionError, match="CORE-TURN-1"):
        game.act(0, "flip 1")
    play(game, (1, "flip 1"), (1, "flip 2"), (2, "flip 3"), (2, "flip 4"))
    assert game.to_act == (0,)
    assert [str(a) for a in game.legal_actions(0)] == ["draw", "take"]
    with pytest.raises(IllegalActionError, match="GOLF-DEAL-4"):
        game.act(0, "flip 2")


def test_golf_turn_1_turn_starts_by_drawing_or_taking() -> None:
    game = started()
    assert [str(a) for a in game.legal_actions(0)] == ["draw", "take"]
    with pytest.raises(IllegalActionError, match="GOLF-TURN-1"):
        game.act(0, "replace 2")
    with pytest.raises(IllegalActionError, match="GOLF-TURN-1"):
        game.act(0, "discard")
    game.act(0, "draw")
    st = state(game)
    assert st.zones.cards[st.plan.held[0]] == [Card.parse("7D")]  # the top stock card


def test_golf_turn_2_replace_or_discard() -> None:
    game = started()
    game.act(0, "draw")  # 7D
    assert [str(a) for a in game.legal_actions(0)] == [f"replace {p}" for p in range(6)] + [
        "discard"
    ]
    game.act(0, "replace 5")  # QH goes face up to the discard pile, 7D takes position 5
    assert grid(game, 0)[5] == "7D"
    assert game.view(1)["table"]["discard"] == "QH"
    game.act(1, "draw")  # KS
    game.act(1, "discard")
    assert game.view(0)["table"]["discard"] == "KS"
    assert grid(game, 1) == G1.split()


def test_golf_turn_3_taken_discard_must_replace() -> None:
    game = started()
    game.act(0, "take")
    assert "discard" not in [str(a) for a in game.legal_actions(0)]
    with pytest.raises(IllegalActionError, match="GOLF-TURN-3"):
        game.act(0, "discard")
    with pytest.raises(IllegalActionError, match="GOLF-TURN-2"):
        game.act(0, "draw")


def test_golf_turn_4_positions_never_move() -> None:
    game = started()
    before = grid(game, 0)
    play(game, (0, "draw"), (0, "replace 4"))
    after = grid(game, 0)
    assert [a for i, a in enumerate(after) if i != 4] == [b for i, b in enumerate(before) if i != 4]
    game.act(1, "draw")
    with pytest.raises(IllegalActionError, match="GOLF-TURN-4"):
        game.act(1, "replace 6")


def test_golf_turn_5_replaced_face_down_card_not_shown_first() -> None:
    game = started()
    game.act(0, "draw")
    assert game.view(0)["table"]["grids"][0][3] is None  # 4S, never seen by its owner
    game.act(0, "replace 3")
    assert game.view(1)["table"]["discard"] == "4S"  # revealed only on the discard pile


def test_golf_stock_1_empty_stock_reshuffles_discards_but_top() -> None:
    game = started(options={"rounds": 1})
    st = state(game)
    moves = 0
    seat = 0
    while st.zones.cards[st.plan.stock]:
        play(game, (seat, "draw"), (seat, "discard"))
        seat = 1 - seat
        moves += 1
    assert moves == 39
    top = game.view(0)["table"]["discard"]
    discards = game.view(0)["table"]["discards"]
    game.act(seat, "draw")
    table = game.view(seat)["table"]
    assert table["discard"] == top and table["discards"] == 1
    assert table["stock"] == discards - 1 - 1  # all but the top, minus the card just drawn


def test_golf_stock_1_round_ends_when_nothing_to_reshuffle() -> None:
    game = started(options={"rounds": 1})
    st = state(game)
    zones = st.zones
    # Park every stock card and all discards but the top in seat 1's held pile (privileged
    # set-up of a position the rules cannot reach with two players).
    parked = st.plan.held[1]
    while zones.cards[st.plan.stock]:
        zones.move(st.plan.stock, parked)
    game.act(0, "draw")
    assert game.is_over and game.result is not None
    assert game.result.reason == "rounds"
    assert st.past and st.past[-1].ender is None  # no ender


def test_golf_cap_1_turn_cap_ends_the_round() -> None:
    game = started(options={"max_turns": 3, "rounds": 1})
    play(game, (0, "draw"), (0, "discard"), (1, "draw"), (1, "discard"))
    assert not game.is_over
    play(game, (0, "draw"), (0, "discard"))
    assert game.is_over
    st = state(game)
    assert st.past and st.past[-1].ender is None
    # nothing cancels: 7+9+0+4+2+10 and 3+8+10+3+10+6 with 3C/3D a pair
    assert st.sheet.totals == [32, 34]


def test_golf_round_1_reveal_and_add_to_totals() -> None:
    game = golf(2, DECK, options={"rounds": 2})
    play(game, *ROUND)
    st = state(game)
    assert st.sheet.rounds == [(1, 22)]
    assert st.sheet.totals == [1, 22]
    assert "last_round" not in game.view(1)["table"]  # past rounds: Game.history, not the view
    [last] = game.history(1)
    assert last["grids"] == [
        ["7H", "9C", "KS", "7D", "9H", "AH"],
        ["3C", "4S", "QS", "3D", "2C", "6S"],
    ]
    assert last["scores"] == [1, 22] and last["ender"] == 0 and last["totals"] == [1, 22]
    assert last["round"] == 1 and game.history(1, since=1) == []


def test_golf_round_2_next_round_dealt_at_once() -> None:
    game = golf(2, DECK, options={"rounds": 2})
    play(game, *ROUND)
    st = state(game)
    assert st.round == 2 and st.phase == 0
    assert all(c is not None for c in grid(game, 0))
    assert game.view(0)["table"]["grids"][0] == [None] * 6
    assert Counter(st.zones.all_cards()) == Counter(decks(1))


def test_golf_game_1_rounds_and_points_limit() -> None:
    game = golf(2, DECK, options={"rounds": 1})
    play(game, *ROUND)
    assert game.is_over and game.result is not None and game.result.reason == "rounds"
    game = golf(2, DECK, options={"rounds": 18, "points_limit": 20})
    play(game, *ROUND)
    assert game.is_over and game.result is not None and game.result.reason == "points-limit"
    game = golf(2, DECK, options={"rounds": 18, "points_limit": 23})
    play(game, *ROUND)
    assert not game.is_over


def test_golf_game_1_host_ends_match() -> None:
    game = golf(2, DECK)
    game.apply(EndMatch())
    assert game.is_over and game.result is not None and game.result.reason == "ended"


def test_golf_game_2_ties_share_the_win() -> None:
    game = started(options={"max_turns": 1, "rounds": 1})
    st = state(game)
    # make both layouts score the same: swap seat 1's cards for seat 0's equivalents
    assert st.sheet.totals == [0, 0]
    play(game, (0, "draw"), (0, "discard"))
    assert game.result is not None
    assert st.sheet.totals == [32, 34] and game.result.winners == (0,)
    tie = golf(2, stack([G0, "7C 9D KH 4H 2H QD"], "5C"), options={"max_turns": 1, "rounds": 1})
    setup_flips(tie, [(0, 1), (0, 1)])
    play(tie, (0, "draw"), (0, "discard"))
    assert tie.result is not None and tie.result.winners == (0, 1)
    assert tie.result.scores == (32.0, 32.0)


def test_golf_game_3_end_match_does_not_score_the_open_round() -> None:
    game = golf(2, DECK, options={"rounds": 3})
    play(game, *ROUND)
    play(game, *[(1 - s, t) for s, t in ROUND[:4]])
    game.apply(EndMatch())
    assert state(game).sheet.totals == [1, 22]
    assert game.result is not None and game.result.winners == (0,)
    assert game.result.scores == (1.0, 22.0)


def test_golf_game_4_resigning_player_cannot_win() -> None:
    game = golf(3, options={"rounds": 2})
    game.apply(Resign(0))
    assert game.result is not None and game.result.reason == "resigned"
    assert game.result.winners == (1, 2)  # all totals 0: the others tie


def test_golf_score_1_basic_round_by_hand() -> None:
    game = golf(2, DECK, options={"rounds": 1})
    play(game, *ROUND)
    # seat 0: 7/7 and 9/9 cancel, K 0 + A 1 = 1; seat 1: 3/3 cancel, 4+2 + Q 10 + 6 = 22
    assert game.result is not None and game.result.scores == (1.0, 22.0)


def test_golf_pen_1_ender_is_the_completer() -> None:
    game = golf(2, DECK, options={"rounds": 2})
    play(game, *ROUND[:-2])
    assert state(game).ender == 0 and state(game).final_left == 1
    play(game, *ROUND[-2:])
    assert game.history(0)[-1]["ender"] == 0


# --- GOLF6 family -------------------------------------------------------------------------------


def test_golf6_setup_1_dealt_face_down_unknown_to_all() -> None:
    game = golf(2, DECK)
    for seat in (0, 1, None):
        assert game.view(seat)["table"]["grids"] == [[None] * 6, [None] * 6]


def test_golf6_setup_2_two_flips_each() -> None:
    game = golf(2, DECK)
    assert [str(a) for a in game.legal_actions(0)] == [f"flip {p}" for p in range(6)]
    game.act(0, "flip 4")
    assert "flip 4" not in [str(a) for a in game.legal_actions(0)]
    with pytest.raises(IllegalActionError, match="GOLF6-SETUP-2"):
        game.act(0, "flip 4")
    game.act(0, "flip 2")
    assert game.to_act == (1,)
    assert game.view(1)["table"]["grids"][0] == [None, None, "KD", None, "2D", None]


def test_golf6_turn_1_placed_face_up_and_no_flip_after_discard() -> None:
    game = started()
    play(game, (0, "draw"), (0, "replace 5"))
    assert game.view(1)["table"]["grids"][0][5] == "7D"
    game.act(1, "draw")
    game.act(1, "discard")
    assert game.to_act == (0,)
    assert [str(a) for a in game.legal_actions(0)] == ["draw", "take"]
    assert game.view(0)["table"]["grids"][1] == [None, "8D", None, None, "10H", None]


def test_golf6_score_1_column_pairs_on_engine() -> None:
    game = golf(2, DECK, options={"rounds": 1})
    play(game, *ROUND)
    assert state(game).sheet.rounds[0][0] == 1  # the 7/7 and 9/9 columns scored 0


def test_golf6_end_1_one_final_turn_each() -> None:
    game = golf(3, options={"rounds": 1}, seed=5)
    st = state(game)
    setup_flips(game, [(0, 1), (0, 1), (0, 1)])
    # seat 0 replaces its four face-down cards over four turns; the others discard
    for pos in (2, 3, 4, 5):
        play(game, (0, "draw"), (0, f"replace {pos}"))
        if pos != 5:
            play(game, (1, "draw"), (1, "discard"), (2, "draw"), (2, "discard"))
    assert st.ender == 0 and st.final_left == 2 and game.to_act == (1,)
    play(game, (1, "draw"), (1, "discard"))
    assert not game.is_over and game.to_act == (2,)
    play(game, (2, "draw"), (2, "discard"))
    assert game.is_over


def test_golf6_end_2_trigger_fires_once() -> None:
    game = golf(2, options={"rounds": 2}, seed=9)
    st = state(game)
    setup_flips(game, [(0, 1), (0, 1)])
    for pos in (2, 3, 4):
        play(game, (0, "draw"), (0, f"replace {pos}"), (1, "draw"), (1, f"replace {pos}"))
    play(game, (0, "draw"), (0, "replace 5"))  # seat 0 completes: ender
    assert st.ender == 0
    play(game, (1, "draw"), (1, "replace 5"))  # seat 1 completes in its final turn: no more turns
    assert st.round == 2 and st.ender == -1
    assert game.history(0)[-1]["ender"] == 0


def test_golf6_end_3_face_down_cards_revealed_after_final_turns() -> None:
    game = golf(2, DECK, options={"rounds": 2})
    play(game, *ROUND[:-2])
    assert game.view(0)["table"]["grids"][1][5] is None  # 6S still face down in the final turn
    assert game.view(None)["table"]["grids"][1][4] is None
    play(game, *ROUND[-2:])  # seat 1 replaces a face-down card in its final turn
    assert game.history(0)[-1]["grids"][1][5] == "6S"


def test_golf6_knock_1_no_knocking() -> None:
    game = started()
    assert "knock" not in [str(a) for a in game.legal_actions(0)]
    with pytest.raises(IllegalActionError, match="GOLF6-KNOCK-1"):
        game.act(0, "knock")


def test_golf8_1_wide_grids() -> None:
    for layout, cols in ((8, 4), (10, 5)):
        game = golf(2, options={"layout": layout})
        table = game.view(0)["table"]
        assert (table["rows"], table["cols"]) == (2, cols)
        assert len(grid(game, 0)) == 2 * cols
        assert len(game.legal_actions(0)) == 2 * cols
    g8 = "AS 2S 3S 4S AH 2H 3H 9S"
    game = golf(
        2,
        stack([g8, "5S 6S 7S 8S 10H JH QH KH"], "KS"),
        options={"layout": 8, "max_turns": 1, "rounds": 1},
    )
    setup_flips(game, [(0, 1), (0, 1)])
    play(game, (0, "draw"), (0, "discard"))
    assert state(game).sheet.totals == [4 + 9, (5 + 10) + (6 + 10) + (7 + 10) + (8 + 0)]


def test_golf9_1_three_by_three_three_flips() -> None:
    game = golf(2, options={"layout": 9})
    table = game.view(0)["table"]
    assert (table["rows"], table["cols"]) == (3, 3)
    play(game, (0, "flip 0"), (0, "flip 4"))
    assert game.to_act == (0,)
    game.act(0, "flip 8")
    assert game.to_act == (1,)


def test_golf9_2_triples_on_engine() -> None:
    g = "5S 5H 5D AS 2S 3S 4S 6S 7S"
    game = golf(
        2,
        stack([g, "AH 2H 3H 4H 6H 7H 8H 9H 10H"], "KS"),
        options={"layout": 9, "max_turns": 1, "rounds": 1},
    )
    setup_flips(game, [(0, 1, 2), (0, 1, 2)])
    play(game, (0, "draw"), (0, "discard"))
    assert state(game).sheet.totals[0] == 1 + 2 + 3 + 4 + 6 + 7


# --- GOLF4 --------------------------------------------------------------------------------------


FOUR = stack(["5S 9H KD 5H", "AC 2C 3C 4C"], "8D", "QS JD 7C 6C")


def four(**kwargs: Any) -> Game:
    kwargs.setdefault("options", {"layout": "4"})
    return golf(2, FOUR, **kwargs)


def test_golf4_setup_1_face_down_all_round() -> None:
    game = four()
    play(game, (0, "peek 2"), (0, "peek 3"), (1, "peek 0"), (1, "peek 1"))
    play(game, (0, "draw"), (0, "replace 0"))
    assert game.view(1)["table"]["grids"][0] == [None, None, None, None]
    assert game.view(None)["table"]["grids"][0] == [None, None, None, None]


def test_golf4_setup_2_peek_two_privately() -> None:
    game = four()
    assert [str(a) for a in game.legal_actions(0)] == [f"peek {p}" for p in range(4)]
    game.act(0, "peek 1")
    assert [str(a) for a in game.legal_actions(0)] == ["peek 0", "peek 2", "peek 3"]
    game.act(0, "peek 3")
    assert game.view(0)["table"]["grids"][0] == [None, "9H", None, "5H"]
    assert game.view(1)["table"]["grids"][0] == [None] * 4
    with pytest.raises(IllegalActionError, match="CORE-TURN-1"):
        game.act(0, "peek 0")


def test_golf4_turn_1_drawn_card_seen_only_by_drawer() -> None:
    game = four()
    play(game, (0, "peek 0"), (0, "peek 1"), (1, "peek 0"), (1, "peek 1"))
    game.act(0, "draw")
    assert game.view(0)["table"]["held"] == {"seat": 0, "card": "QS"}
    assert game.view(1)["table"]["held"] == {"seat": 0, "card": None}
    assert game.view(None)["table"]["held"] == {"seat": 0, "card": None}


def test_golf4_turn_2_replacing_card_face_down() -> None:
    game = four()
    play(game, (0, "peek 0"), (0, "peek 1"), (1, "peek 0"), (1, "peek 1"))
    play(game, (0, "draw"), (0, "replace 2"))
    assert game.view(0)["table"]["grids"][0][2] == "QS"
    assert game.view(1)["table"]["grids"][0][2] is None
    assert game.view(1)["table"]["discard"] == "KD"


def test_golf4_turn_3_view_holds_exactly_what_was_seen() -> None:
    game = four()
    play(game, (0, "peek 0"), (0, "peek 1"), (1, "peek 2"), (1, "peek 3"))
    assert game.view(0)["table"]["grids"] == [["5S", "9H", None, None], [None] * 4]
    with pytest.raises(IllegalActionError, match="GOLF4-TURN-3"):
        game.act(0, "peek 2")
    play(game, (0, "draw"), (0, "replace 0"))  # QS over the peeked 5S
    assert game.view(0)["table"]["grids"][0] == ["QS", "9H", None, None]
    play(game, (1, "take"), (1, "replace 0"))  # the public 5S goes to seat 1's position 0
    assert game.view(0)["table"]["grids"][1] == ["5S", None, None, None]
    assert game.view(1)["table"]["grids"][1] == ["5S", None, "3C", "4C"]


def test_golf4_knock_1_knock_then_one_final_turn_each() -> None:
    game = golf(3, options={"layout": "4", "rounds": 1})
    for seat in range(3):
        play(game, (seat, "peek 0"), (seat, "peek 1"))
    assert [str(a) for a in game.legal_actions(0)] == ["draw", "take", "knock"]
    game.act(0, "knock")
    assert game.to_act == (1,) and state(game).ender == 0
    play(game, (1, "draw"), (1, "discard"))
    assert not game.is_over
    play(game, (2, "draw"), (2, "discard"))
    assert game.is_over


def test_golf4_knock_2_only_one_knock() -> None:
    game = golf(3, options={"layout": "4"})
    for seat in range(3):
        play(game, (seat, "peek 0"), (seat, "peek 1"))
    game.act(0, "knock")
    assert [str(a) for a in game.legal_actions(1)] == ["draw", "take"]
    with pytest.raises(IllegalActionError, match="GOLF4-KNOCK-2"):
        game.act(1, "knock")


def test_golf4_knock_3_knock_on_first_turn() -> None:
    game = four(options={"layout": "4", "rounds": 1})
    play(game, (0, "peek 0"), (0, "peek 1"), (1, "peek 0"), (1, "peek 1"))
    game.act(0, "knock")
    play(game, (1, "draw"), (1, "discard"))
    assert game.is_over and game.result is not None
    # seat 0: 5S/5H are a diagonal (no cancel) -> 5 + 9 + 0 + 5; seat 1: 1 + 2 + 3 + 4
    assert game.result.scores == (19.0, 10.0)


def test_golf4_score_4_cancelling_never_shown() -> None:
    game = golf(2, stack(["5S 5H KD 9H", "AC 2C 3C 4C"], "8D"), options={"layout": "4"})
    play(game, (0, "peek 0"), (0, "peek 1"), (1, "peek 0"), (1, "peek 1"))
    assert game.view(1)["table"]["grids"][0] == [None] * 4
    assert game.view(None)["table"]["grids"][0] == [None] * 4
    assert game.view(0)["table"]["grids"][0] == ["5S", "5H", None, None]


def test_golf4h_1_hand_seen_by_owner_only() -> None:
    game = golf(2, FOUR, options={"layout": "4h"})
    assert game.to_act == (0,) and [str(a) for a in game.legal_actions(0)] == [
        "draw",
        "take",
        "knock",
    ]
    assert game.view(0)["table"]["grids"][0] == ["5S", "9H", "KD", "5H"]
    assert game.view(1)["table"]["grids"][0] == [None] * 4
    play(game, (0, "take"), (0, "replace 2"))  # the public 8D replaces KD
    assert game.view(1)["table"]["grids"][0] == [None, None, "8D", None]


@pytest.mark.parametrize("text", ["flip 0", "peek 3"])
def test_golf4h_1_no_flip_or_peek_in_a_hand_cites_the_hand_rule(text: str) -> None:
    # GOLF4H has no setup phase: a flip or peek is refused for GOLF4H-1, at any moment
    game = golf(2, FOUR, options={"layout": "4h"})
    for moment in ("draw", "discard"):  # at the start of a turn, then holding a card
        with pytest.raises(IllegalActionError, match="GOLF4H-1") as info:
            game.act(0, text)
        assert "GOLF-DEAL-4" not in str(info.value) and "GOLF4-TURN-3" not in str(info.value)
        play(game, (0, moment))


def test_golf_game_1_default_nine_rounds_or_to_the_limit() -> None:
    from cardcore import play
    from cardcore_golf.agents import GolfGreedyAgent

    game = golf(2, seed=11)
    assert game.options["rounds"] is None
    play(game, [GolfGreedyAgent(1), GolfGreedyAgent(2)])
    assert len(state(game).sheet.rounds) == 9
    game = golf(2, seed=11, options={"points_limit": 150})
    play(game, [GolfGreedyAgent(1), GolfGreedyAgent(2)])
    totals = state(game).sheet.totals
    assert max(totals) >= 150 and len(state(game).sheet.rounds) > 9
    assert game.result is not None and game.result.reason == "points-limit"


def test_golf4h_2_engine_any_two_cancel() -> None:
    game = golf(2, FOUR, options={"layout": "4h", "rounds": 1})
    play(game, (0, "knock"), (1, "draw"), (1, "discard"))
    assert game.result is not None and game.result.scores == (9.0, 10.0)  # 5S/5H cancel


def test_golf_gap_3_final_turns_follow_the_seed_by_default() -> None:
    # GOLF-GAP-3: the base game gives every other player one final turn (the seed);
    # ending at once is the house rule golf.no-final-turns, never the default
    base = golf(2, options={"rounds": 1}, seed=5)
    setup_flips(base, [(0, 1), (0, 1)])
    for pos in (2, 3, 4, 5):
        play(base, (0, "draw"), (0, f"replace {pos}"))
        if pos != 5:
            play(base, (1, "draw"), (1, "discard"))
    assert not base.is_over and base.to_act == (1,)  # seat 1 still has its final turn
    play(base, (1, "draw"), (1, "discard"))
    assert base.is_over
    quick = golf(2, options={"rounds": 1}, seed=5, rules=["golf.no-final-turns"])
    setup_flips(quick, [(0, 1), (0, 1)])
    for pos in (2, 3, 4, 5):
        play(quick, (0, "draw"), (0, f"replace {pos}"))
        if pos != 5:
            play(quick, (1, "draw"), (1, "discard"))
    assert quick.is_over
