"""Rule tests a mutation audit of 2026-12-06 found missing: each kills a mutant that
survived every test named after its rule."""

from __future__ import annotations

import pytest
from tests.games.golf.helpers import golf, play, round_scores, setup_flips, stack, state

import cardcore
from cardcore import IllegalActionError


def _legal(game: cardcore.Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def test_golf_score_6_ten_and_jack_face_up_in_a_column_are_not_removed() -> None:
    """GOLF-SCORE-6 with GOLF6-SCORE-2: 10 and J never pair, so golf.remove-columns leaves a
    face-up 10H/JD column in place (the removal path reads the pairing keys itself); 7H/7D
    in the other seat's column is removed. (Mutant: 10, J, Q and K sharing one key.)"""
    game = cardcore.new_game(
        "golf",
        2,
        seed=1,
        deck=stack(["10H 9C KD 4S 2D QH", "7H 8D JS 3D 10C 6S"], "5C", "JD 7D"),
        rules=["golf.remove-columns"],
    )
    play(game, (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 1"))
    play(game, (0, "draw"), (0, "replace 3"))  # JD under 10H: both face up, no pair
    grids = game.view(1)["table"]["grids"]
    assert grids[0][0] == "10H" and grids[0][3] == "JD"
    play(game, (1, "draw"), (1, "replace 3"))  # 7D under 7H: a pair, removed
    grids = game.view(0)["table"]["grids"]
    assert grids[1][0] == "--" and grids[1][3] == "--"
    assert grids[0][0] == "10H" and grids[0][3] == "JD"


def test_golf6_setup_4_golf9_all_three_initial_cards_in_different_columns() -> None:
    """GOLF6-SETUP-4: "In GOLF9 both apply to all three initial cards": the third flip may
    not share a column with the first two. (Mutant: only the first flip's column checked.)"""
    game = cardcore.new_game(
        "golf", 2, seed=1, rules=["golf.reveal-different-columns"], options={"layout": 9}
    )
    play(game, (0, "flip 0"), (0, "flip 1"))  # columns 0 and 1
    assert _legal(game, 0) == ["flip 2", "flip 5", "flip 8"]
    for pos in (3, 4, 6, 7):
        with pytest.raises(IllegalActionError, match=r"\(GOLF6-SETUP-4\)"):
            game.act(0, f"flip {pos}")


@pytest.mark.parametrize(
    ("layout", "grids", "expected"),
    [
        # GOLF4: 10H JS in row 0 do not pair: 10 + 10 + 2 + 3 = 25; AH 4H / 5H 6H = 16
        (4, ["10H JS 2C 3D", "AH 4H 5H 6H"], (25.0, 16.0)),
        # GOLF9: 10H JS QD down column 0 are no triple: 30 + 2+3+4+5+6+7 = 57
        (9, ["10H 2C 3C JS 4C 5C QD 6C 7C", "AH 2H 3H 4H 5H 6H 7H 8H 9H"], (57.0, 45.0)),
    ],
)
def test_golf_score_6_ten_jack_queen_never_cancel_in_every_scorer(
    layout: int, grids: list[str], expected: tuple[float, float]
) -> None:
    """GOLF-SCORE-6 in the layouts scored from pairing keys (GOLF4's pairs, GOLF9's triples),
    not from GOLF6's column table. (Mutant: the keys of 10, J, Q and K made one.)"""
    from tests.games.golf.test_examined_2026_12_02 import scored_now

    assert scored_now(grids, layout=layout) == expected


def test_golf_round_1_every_layout_face_up_when_the_match_ends() -> None:
    """GOLF-ROUND-1: a round cut short by the cap still turns every card up, seat 0's
    included. (Mutant: seat 0's grid never revealed.)"""
    game = cardcore.new_game("golf", 2, options={"rounds": 1, "max_turns": 1}, seed=3)
    for seat in (0, 1):  # seat 1 deals: seat 0 sets up first
        game.act(seat, "flip 0")
        game.act(seat, "flip 1")
    game.act(0, "draw")
    game.act(0, "discard")  # turn 1 of 1: the round, and the match, end
    assert game.is_over
    for viewer in (0, 1, None):
        grids = game.view(viewer)["table"]["grids"]
        assert len(grids) == 2
        for grid in grids:
            assert None not in grid


def test_golf6_setup_1_two_rows_of_three_columns() -> None:
    """GOLF6-SETUP-1: 2 rows x 3 columns, positions row-major, a column is (p, p + 3).
    (Mutant: 3 rows x 2 columns.)"""
    game = golf(2, stack(["7H 9C KD 7S 2D QH", "AC 3C 4C 5D 6D 8D"], "5C"))
    table = game.view(0)["table"]
    assert (table["rows"], table["cols"]) == (2, 3)
    # 7H over 7S (column 0) cancels; 9C/2D and K(0)/Q(10) score: 9 + 2 + 0 + 10
    assert round_scores(game)[0] == 21
    assert round_scores(game)[1] == 27  # seat 1 pairs nothing: 1 + 3 + 4 + 5 + 6 + 8


def test_golf_round_2_the_next_round_is_shuffled_from_the_game_seed() -> None:
    """GOLF-ROUND-2: after round 1 every card is shuffled from the seed for the next deal:
    the same round 1 under other seeds deals other round-2 layouts. (Mutant: no shuffle.)"""
    deck = stack(["7H 9C KD 7S 2D QH", "AC 3C 4C 5D 6D 8D"], "5C")
    seconds = []
    for seed in (1, 2, 3):
        game = golf(2, deck, seed=seed, options={"rounds": 2, "max_turns": 1})
        setup_flips(game, [(0, 1), (0, 1)])
        play(game, (0, "draw"), (0, "discard"))  # the turn cap ends round 1
        assert state(game).round == 2
        cards = game.state.zones.cards
        seconds.append(tuple(str(c) for z in state(game).plan.grid for c in cards[z]))
    assert len(set(seconds)) == 3


def test_golf_pen_1_a_stock_out_during_the_final_turns_has_no_ender() -> None:
    """GOLF-PEN-1: a round the stock ends during the final turns has no ender, so no
    penalty. (Mutant: the seat that went out kept as the ender.)"""
    deck = stack(["7H 9C KD 4S 2D QH", "3C 8D JS 3D 10H 6S"], "5C", "7D KS 9H QS AH 2C")
    game = golf(2, deck, options={"rounds": 1})
    setup_flips(game, [(0, 1), (1, 4)])
    for pos in (2, 3, 4, 5):
        play(game, (0, "draw"), (0, f"replace {pos}"))
        if pos != 5:
            play(game, (1, "draw"), (1, "discard"))
    st = state(game)
    assert st.ender == 0 and st.final_left == 1  # seat 1's final turn is next
    zones = st.zones
    parked = st.plan.held[1]  # privileged set-up: park the stock and all discards but the top
    while zones.cards[st.plan.stock]:
        zones.move(st.plan.stock, parked)
    while len(zones.cards[st.plan.discard]) > 1:
        zones.move(st.plan.discard, parked, 0)
    game.act(1, "draw")
    assert game.is_over
    assert st.past[-1].ender is None


def test_golf_pen_1_a_turn_cap_during_the_final_turns_has_no_ender() -> None:
    """GOLF-PEN-1: a round the turn cap (GOLF-CAP-1) ends during the final turns has no
    ender. (Mutant: the seat that went out kept as the ender.)"""
    deck = stack(["7H 9C KD 4S 2D QH", "3C 8D JS 3D 10H 6S", "AS 2S 3S 5S 6D 8S"], "5C")
    game = golf(3, deck, options={"rounds": 1, "max_turns": 11})
    setup_flips(game, [(0, 1), (0, 1), (0, 1)])
    for pos in (2, 3, 4, 5):
        play(game, (0, "draw"), (0, f"replace {pos}"))
        if pos != 5:
            play(game, (1, "draw"), (1, "discard"), (2, "draw"), (2, "discard"))
    st = state(game)
    assert st.ender == 0 and st.final_left == 2 and not game.is_over
    play(game, (1, "draw"), (1, "discard"))  # the 11th turn: the cap ends the round
    assert game.is_over
    assert st.past[-1].ender is None
