"""Golf: tests added by the mutation audit of 2026-12-03.

Each test is named after the rule it guards and fails against a small plausible mutation of
the rule's code that the earlier tests let through (the mutation is named in the docstring).
They go through the public API only: ``cardcore.new_game``, ``Game.act``, ``Game.view``,
``Game.history``, ``Game.position`` and ``Game.result``.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.games.golf.helpers import stack

import cardcore
from cardcore import Game, IllegalActionError


def _table(game: Game, seat: int | None = None) -> dict[str, Any]:
    table: dict[str, Any] = game.view(seat)["table"]
    return table


def _zone(game: Game, seat: int | None, name: str) -> list[str | None]:
    for zone in game.view(seat)["zones"]:
        if zone["name"] == name:
            cards: list[str | None] = zone["cards"]
            return cards
    raise AssertionError(name)


def _flip_all(game: Game, players: int, positions: tuple[int, ...] = (0, 1)) -> None:
    """Every seat, from seat 0 (default dealer), turns *positions* face up."""
    for seat in range(players):
        for pos in positions:
            game.act(seat, f"flip {pos}")


# -- deck -----------------------------------------------------------------------------------


def test_golf_deck_3_adds_a_deck_when_the_stock_would_be_one_short() -> None:
    """GOLF9, 26 players: 5 decks leave 260 - 234 - 1 = 25 stock cards, one fewer than the
    players, so a sixth deck is added (a ``<`` -> ``<=``-style off-by-one keeps 5)."""
    game = cardcore.new_game("golf", 26, options={"layout": 9}, seed=1)
    assert _table(game)["stock"] == 6 * 52 - 9 * 26 - 1
    assert _table(game)["stock"] >= 26
    # GOLF6, 52 players: 7 decks leave 364 - 312 - 1 = 51 = players - 1: an eighth deck
    game = cardcore.new_game("golf", 52, seed=1)
    assert _table(game)["stock"] == 8 * 52 - 6 * 52 - 1


def test_golf_deck_4_jokers_count_in_the_stock_and_save_a_deck() -> None:
    """GOLF9, 26 players with jokers: 5 decks of 54 cards leave 270 - 235 = 35 >= 26 stock
    cards, so the sixth deck plain GOLF-DECK-3 needs is left out (and its two jokers)."""
    game = cardcore.new_game("golf", 26, rules=["golf.jokers"], options={"layout": 9}, seed=1)
    assert _table(game)["stock"] == 5 * 54 - 9 * 26 - 1
    assert sum(zone["count"] for zone in game.view(None)["zones"]) == 5 * 54


# -- deal and turn order ----------------------------------------------------------------------


def test_golf_deal_3_deal_passes_left_with_three_players() -> None:
    """With three seats the deal passes to the left (seat 0 after the last seat), and the
    seat left of the new dealer moves first; a deal passed right would make seat 1 deal."""
    game = cardcore.new_game("golf", 3, options={"rounds": 3, "max_turns": 1}, seed=4)
    assert _table(game)["dealer"] == 2 and game.to_act == (0,)
    _flip_all(game, 3)
    game.act(0, "draw")
    game.act(0, "discard")  # one turn: the cap ends round 1
    assert _table(game)["round"] == 2
    assert _table(game)["dealer"] == 0 and game.to_act == (1,)
    for seat in (1, 2, 0):  # the setup starts left of the dealer too (GOLF-DEAL-4)
        game.act(seat, "flip 0")
        game.act(seat, "flip 1")
    game.act(1, "draw")
    game.act(1, "discard")
    assert _table(game)["round"] == 3
    assert _table(game)["dealer"] == 1 and game.to_act == (2,)


def test_golf_deal_4_every_seat_makes_all_its_peeks() -> None:
    """GOLF4 with three seats: each seat peeks twice before the next one (the second and
    third seats too, not only the first)."""
    game = cardcore.new_game("golf", 3, options={"layout": "4"}, seed=2)
    for seat in (0, 1, 2):
        game.act(seat, "peek 2")
        assert game.to_act == (seat,)
        game.act(seat, "peek 3")
    assert game.to_act == (0,) and _table(game)["phase"] == "draw"


def test_golf4_setup_2_each_player_peeks_at_two_cards() -> None:
    """GOLF4-SETUP-2 for every seat: the second seat also owes two peeks."""
    game = cardcore.new_game("golf", 2, options={"layout": "4"}, seed=3)
    game.act(0, "peek 0")
    game.act(0, "peek 1")
    game.act(1, "peek 0")
    assert game.to_act == (1,) and _table(game, 1)["phase"] == "setup"
    game.act(1, "peek 3")
    assert _table(game, 1)["grids"][1][1] is None and _table(game, 1)["grids"][1][3] is not None
    assert game.to_act == (0,) and _table(game)["phase"] == "draw"


@pytest.mark.parametrize("layout", [8, 10])
def test_golf6_setup_2_golf8_and_golf10_turn_two_cards(layout: int) -> None:
    """GOLF8 and GOLF10 also turn exactly two cards each (a third flip would be illegal)."""
    game = cardcore.new_game("golf", 2, options={"layout": layout}, seed=5)
    game.act(0, "flip 0")
    game.act(0, "flip 1")
    assert game.to_act == (1,)
    with pytest.raises(IllegalActionError, match=r"\(CORE-TURN-1\)"):
        game.act(0, "flip 2")
    game.act(1, "flip 0")
    game.act(1, "flip 1")
    assert _table(game)["phase"] == "draw"


# -- the turn -------------------------------------------------------------------------------


def test_golf_turn_5_replaced_face_down_card_shows_on_the_discard_pile() -> None:
    """The replaced face-down card is not shown while the drawn card is held, and is then
    public on the discard pile: every seat sees it as the top discard."""
    deck = stack(["2C 3C 4C 5C 6C 7C", "2D 3D 4D 5D 6D 7D"], "8H", "9S")
    game = cardcore.new_game("golf", 2, deck=deck, seed=1)
    _flip_all(game, 2)
    game.act(0, "draw")
    for seat in (0, 1, None):
        assert _table(game, seat)["grids"][0][4] is None  # 6C, still face down
    assert "grid.0: 2C! 3C! 4C 5C 6C 7C" in game.position()  # 6C: known to nobody yet
    game.act(0, "replace 4")
    for seat in (0, 1, None):
        assert _table(game, seat)["grids"][0][4] == "9S"
        assert _table(game, seat)["discard"] == "6C"
        assert "6C" in _zone(game, seat, "discard")  # the pile itself, not only the field
    assert "discard: 8H! 6C!" in game.position()  # known to every seat ("!")


# -- endings --------------------------------------------------------------------------------


def _complete_race(game: Game, players: int) -> None:
    """After flips 0 and 1, every seat in turn replaces 2, 3, 4 and seat 0 then 5."""
    for pos in (2, 3, 4):
        for seat in range(players):
            game.act(seat, "draw")
            game.act(seat, f"replace {pos}")
    game.act(0, "draw")
    game.act(0, "replace 5")  # seat 0 completes: the ender


def test_golf6_end_2_completing_in_a_final_turn_grants_no_more_turns() -> None:
    """Three seats: seat 0 completes; seat 1 completes during its final turn; seat 2 plays
    its final turn and the round ends. Seat 0 gets no further turn and stays the ender."""
    game = cardcore.new_game("golf", 3, options={"rounds": 2}, seed=9)
    _flip_all(game, 3)
    _complete_race(game, 3)
    assert _table(game)["ender"] == 0 and _table(game)["final_turns_left"] == 2
    game.act(1, "draw")
    game.act(1, "replace 5")  # seat 1 completes too, in its final turn
    assert _table(game)["ender"] == 0 and _table(game)["final_turns_left"] == 1
    assert game.to_act == (2,)
    game.act(2, "draw")
    game.act(2, "discard")
    assert _table(game)["round"] == 2  # the round ended: no turn for seat 0
    [first] = game.history(None)
    assert first["ender"] == 0


def test_golf6_end_4_the_completing_player_is_the_ender() -> None:
    """Without final turns the round ends at once, and its ender is still the player who
    completed the layout (GOLF-PEN-1): history records it."""
    game = cardcore.new_game(
        "golf", 2, rules=["golf.no-final-turns"], options={"rounds": 2}, seed=9
    )
    _flip_all(game, 2)
    _complete_race(game, 2)
    assert _table(game)["round"] == 2
    assert game.history(None)[0]["ender"] == 0


def test_golf_pen_1_ender_without_final_turns_pays_the_penalty() -> None:
    """GOLF-PEN-1 + GOLF-PEN-2 under ``golf.no-final-turns``: the seat that completes its
    layout is the ender and, not lowest, gets +10."""
    grids = ["KC QC JC 10C 9C 8C", "KD 2D 3D KH 2H 3H"]  # seat 1's columns all cancel: 0
    deck = stack(grids, "AS", "QS JS 10S 9S 8S 7S 6S 5S")
    game = cardcore.new_game(
        "golf",
        2,
        deck=deck,
        rules=["golf.no-final-turns", "golf.ender-penalty-10"],
        options={"rounds": 1},
        seed=1,
    )
    _flip_all(game, 2)
    for pos in (2, 3, 4):
        game.act(0, "draw")
        game.act(0, f"replace {pos}")
        game.act(1, "draw")
        game.act(1, "discard")
    game.act(0, "draw")
    game.act(0, "replace 5")  # seat 0 completes: the round ends at once
    assert game.is_over
    [last] = game.history(None)
    assert last["ender"] == 0
    # seat 0 drew QS 10S 8S 6S into 2..5: KC QC QS / 10S 8S 6S = 0+10 + 10+8 + 10+6 = 44, +10
    assert last["scores"] == [54, 0]
    assert game.result is not None and game.result.winners == (1,)


def test_golf_cap_1_a_knock_counts_toward_the_turn_cap() -> None:
    """GOLF4, ``max_turns=1``: a knock is a turn; it reaches the cap and the round ends as in
    GOLF-STOCK-1 (no ender, no final turns)."""
    game = cardcore.new_game(
        "golf", 2, options={"layout": "4", "max_turns": 1, "rounds": 1}, seed=2
    )
    for seat in (0, 1):
        game.act(seat, "peek 0")
        game.act(seat, "peek 1")
    game.act(0, "knock")
    assert game.is_over
    assert game.history(None)[0]["ender"] is None


def test_golf4_knock_2_no_knock_after_a_knock_in_a_read_position() -> None:
    """After a knock, a position written and read again still forbids a second knock."""
    options = {"layout": "4", "rounds": 1}
    game = cardcore.new_game("golf", 3, options=options, seed=2)
    for seat in (0, 1, 2):
        game.act(seat, "peek 2")
        game.act(seat, "peek 3")
    game.act(0, "knock")
    assert "knock" not in [str(a) for a in game.legal_actions(1)]
    again = cardcore.new_game("golf", 3, options=options, position=game.position(), seed=2)
    assert again.to_act == (1,)
    assert "knock" not in [str(a) for a in again.legal_actions(1)]
    with pytest.raises(IllegalActionError, match="GOLF4-KNOCK-2"):
        again.act(1, "knock")


# -- rounds and the match -------------------------------------------------------------------


def _short_rounds(game: Game, rounds: int) -> None:
    """Play *rounds* rounds capped at one turn each (2 seats, GOLF6)."""
    for _ in range(rounds):
        first = game.to_act[0]
        for seat in (first, 1 - first):
            game.act(seat, "flip 0")
            game.act(seat, "flip 1")
        game.act(first, "draw")
        game.act(first, "discard")


def test_golf_round_1_every_round_adds_to_the_totals() -> None:
    """Each round's scores are added to the running totals, the second round's too."""
    game = cardcore.new_game("golf", 2, options={"rounds": 3, "max_turns": 1}, seed=11)
    _short_rounds(game, 3)
    assert game.is_over and game.result is not None
    rounds = game.history(None)
    assert [r["round"] for r in rounds] == [1, 2, 3]
    running = [0, 0]
    for past in rounds:
        assert any(past["scores"])  # the seed scores every round
        running = [a + b for a, b in zip(running, past["scores"], strict=True)]
        assert past["totals"] == running
    assert list(game.result.scores) == running


def test_golf_round_2_every_finished_round_stays_readable() -> None:
    """Game.history keeps every finished round, not only the last one."""
    game = cardcore.new_game("golf", 2, options={"rounds": 3, "max_turns": 1}, seed=11)
    _short_rounds(game, 2)
    assert [r["round"] for r in game.history(None)] == [1, 2]
    assert [r["round"] for r in game.history(0, since=1)] == [2]
    assert _table(game)["round"] == 3


# -- scoring --------------------------------------------------------------------------------


def test_golf_score_7_lowest_choice_of_cancelling_pair_in_golf4() -> None:
    """GOLF4 with one-eyed jacks: JC JH / JD 5S. JC pairs with JH (row) or with JD (column);
    cancelling JC+JD leaves JH (-2) + 5 = 3, the lowest choice (JC+JH would leave 15)."""
    deck = stack(["JC JH JD 5S", "2C 3C 4C 6C"], "9H", "8D 7D")
    game = cardcore.new_game(
        "golf",
        2,
        deck=deck,
        rules=["golf.one-eyed-jacks"],
        options={"layout": "4", "rounds": 1},
        seed=1,
    )
    for seat in (0, 1):
        game.act(seat, "peek 0")
        game.act(seat, "peek 1")
    game.act(0, "knock")
    game.act(1, "draw")
    game.act(1, "discard")
    assert game.is_over
    assert game.history(None)[0]["scores"] == [3, 15]


# -- views ----------------------------------------------------------------------------------


def test_golf_view_1_every_card_shown_at_the_end() -> None:
    """When the match ends every layout card is shown to every seat and to a spectator; in
    GOLF4H a hand is hidden from the other seats during play."""
    game = cardcore.new_game("golf", 3, options={"layout": "4", "rounds": 1}, seed=6)
    for seat in (0, 1, 2):
        game.act(seat, "peek 0")
        game.act(seat, "peek 1")
    game.act(0, "knock")
    for seat in (1, 2):
        game.act(seat, "draw")
        game.act(seat, "discard")
    assert game.is_over
    for viewer in (0, 1, 2, None):
        for grid in _table(game, viewer)["grids"]:
            assert None not in grid
    hand = cardcore.new_game("golf", 2, options={"layout": "4h"}, seed=6)
    assert None not in _table(hand, 0)["grids"][0]
    assert _table(hand, 0)["grids"][1] == [None] * 4
    assert _table(hand, None)["grids"] == [[None] * 4, [None] * 4]


# -- second pass: resignation and the house rules on the wider grids ------------------------


def test_golf_game_4_resigning_leader_cannot_win() -> None:
    """The resigning seat holds the lowest total (19): the lowest total among the others
    (seat 0, 20) wins, never nobody."""
    game = cardcore.new_game("golf", 3, options={"rounds": 3, "max_turns": 1}, seed=1)
    _flip_all(game, 3)
    game.act(0, "draw")
    game.act(0, "discard")  # the cap ends round 1
    assert _table(game)["totals"] == [20, 32, 19]
    game.act(2, "resign")
    assert game.is_over and game.result is not None
    assert game.result.reason == "resigned"
    assert game.result.winners == (0,)


def test_golf6_score_2_columns_removed_in_golf8() -> None:
    """``golf.remove-columns`` serves GOLF8 too: a face-up cancelled column (5C/5D) goes to
    the bottom of the discard pile and its positions stay empty."""
    deck = stack(["5C 6C 7C 8C 5D 9C 10C JC", "2D 3D 4D 6D 7D 8D 9D 10D"], "KH")
    game = cardcore.new_game(
        "golf", 2, deck=deck, rules=["golf.remove-columns"], options={"layout": 8}, seed=1
    )
    game.act(0, "flip 0")
    game.act(0, "flip 4")
    table = _table(game, 1)
    assert table["grids"][0][0] == "--" and table["grids"][0][4] == "--"
    assert table["discard"] == "KH" and table["discards"] == 3


def test_golf6_var_2_pairs_anywhere_in_golf10() -> None:
    """``golf.pairs-anywhere`` serves GOLF10 too: 5C/5D and 7C/7D cancel although no column
    holds a pair: 9 + 2 + 3 + 4 + 6 + 8 = 32 (column pairs would score 56)."""
    grids = ["5C 5D 7C 7D 9C 2C 3C 4C 6C 8C", "2D 3D 4D 6D 8D 2H 3H 4H 6H 8H"]
    game = cardcore.new_game(
        "golf",
        2,
        deck=stack(grids, "KH", "QS"),
        rules=["golf.pairs-anywhere"],
        options={"layout": 10, "rounds": 1, "max_turns": 1},
        seed=1,
    )
    _flip_all(game, 2)
    game.act(0, "draw")
    game.act(0, "discard")
    assert game.is_over
    assert game.history(None)[0]["scores"] == [32, 0]


def test_golf9_4_a_second_triple_leaves_the_first_removed() -> None:
    """GOLF9 with ``golf.remove-triples``: row 0 (three 5s) goes at the setup, row 1 (three
    6s placed one by one) later; both rows stay empty and row 2 keeps its cards."""
    grids = ["5C 5D 5H 2C 3C 4C 7D 8D 9D", "2D 3D 4D 7S 8S 9S JC QC KC"]
    deck = stack(grids, "10H", "6C 10S 6D JS 6H QS")
    game = cardcore.new_game(
        "golf", 2, deck=deck, rules=["golf.remove-triples"], options={"layout": 9}, seed=1
    )
    _flip_all(game, 2, (0, 1, 2))
    assert _table(game)["grids"][0][:3] == ["--", "--", "--"]
    for pos in (3, 4, 5):
        game.act(0, "draw")
        game.act(0, f"replace {pos}")
        game.act(1, "draw")
        game.act(1, "discard")
    grid = _table(game, 1)["grids"][0]
    assert grid == ["--"] * 6 + [None] * 3
    assert "grid.0: 7D 8D 9D" in game.position()


# -- third pass: diagonal pairs and the reveal rules on GOLF8 -------------------------------


def _golf4_scores(grids: list[str], rules: list[str]) -> list[int]:
    """Score one GOLF4 round: peeks, seat 0 knocks, seat 1 draws and discards."""
    deck = stack(grids, "9H", "8D 7D")
    game = cardcore.new_game(
        "golf", 2, deck=deck, rules=rules, options={"layout": "4", "rounds": 1}, seed=1
    )
    for seat in (0, 1):
        game.act(seat, "peek 0")
        game.act(seat, "peek 1")
    game.act(0, "knock")
    game.act(1, "draw")
    game.act(1, "discard")
    assert game.is_over
    scores: list[int] = game.history(None)[0]["scores"]
    return scores


def test_golf4_var_1_rows_and_columns_still_pair_with_diagonals() -> None:
    """``golf.diagonal-pairs`` adds the diagonals: a row pair (5C 5D / 7C 9C: 16), a column
    pair (5C 7C / 5D 9C: 16) and a diagonal pair (5C 7C / 9C 5D: 16) all cancel."""
    rules = ["golf.diagonal-pairs"]
    assert _golf4_scores(["5C 5D 7C 9C", "2C 3C 4C 6C"], rules) == [16, 15]
    assert _golf4_scores(["5C 7C 5D 9C", "2C 3C 4C 6C"], rules) == [16, 15]
    assert _golf4_scores(["5C 7C 9C 5D", "2C 3C 4C 6C"], rules) == [16, 15]
    assert _golf4_scores(["5C 7C 9C 5D", "2C 3C 4C 6C"], []) == [26, 15]


def test_golf6_setup_3_same_column_in_golf8() -> None:
    """GOLF8 columns are ``c`` and ``c + 4``: after flip 0, flip 4 is the same column and
    flip 3 is not."""
    game = cardcore.new_game(
        "golf", 2, rules=["golf.reveal-same-column"], options={"layout": 8}, seed=1
    )
    game.act(0, "flip 0")
    assert [str(a) for a in game.legal_actions(0)] == ["flip 4"]
    with pytest.raises(IllegalActionError, match="GOLF6-SETUP-3"):
        game.act(0, "flip 3")
    game.act(0, "flip 4")
    assert game.to_act == (1,)


def test_golf6_setup_4_different_columns_in_golf8() -> None:
    """GOLF8 columns are ``c`` and ``c + 4``: after flip 0, flip 4 is refused (same column)
    and flip 3 is allowed."""
    game = cardcore.new_game(
        "golf", 2, rules=["golf.reveal-different-columns"], options={"layout": 8}, seed=1
    )
    game.act(0, "flip 0")
    assert "flip 4" not in [str(a) for a in game.legal_actions(0)]
    assert "flip 3" in [str(a) for a in game.legal_actions(0)]
    with pytest.raises(IllegalActionError, match="GOLF6-SETUP-4"):
        game.act(0, "flip 4")
    game.act(0, "flip 3")
    assert game.to_act == (1,)


def test_golf_deal_1_three_seats_dealt_clockwise_from_the_left_of_the_dealer() -> None:
    """Three seats: the k-th card off the top goes to the k-th seat clockwise from the
    dealer's left (position k // 3); with seat 0 dealing, seat 1 gets the first card."""
    rows = ["2C 3C 4C 5C 6C 7C", "2D 3D 4D 5D 6D 7D", "2H 3H 4H 5H 6H 7H"]
    deck = stack(rows, "KS")
    game = cardcore.new_game("golf", 3, deck=deck, seed=1)
    text = game.position()
    for seat, row in enumerate(rows):
        assert f"grid.{seat}: {row}" in text
    game = cardcore.new_game("golf", 3, deck=deck, options={"dealer": 0}, seed=1)
    text = game.position()
    for k, row in enumerate(rows):  # the rows of the stack, dealt from seat 1
        assert f"grid.{(k + 1) % 3}: {row}" in text
    assert game.to_act == (1,)


def test_golf_view_1_shows_the_top_discard_and_the_counts() -> None:
    """The view's ``discard`` is the top of the pile (the last card discarded), with the
    counts of the stock and of the discards."""
    deck = stack(["2C 3C 4C 5C 6C 7C", "2D 3D 4D 5D 6D 7D"], "8H", "9S 10S JS")
    game = cardcore.new_game("golf", 2, deck=deck, seed=1)
    _flip_all(game, 2)
    assert _table(game, 1)["discard"] == "8H" and _table(game, 1)["discards"] == 1
    game.act(0, "draw")  # 9S
    game.act(0, "discard")
    game.act(1, "draw")  # 10S
    game.act(1, "discard")
    for viewer in (0, 1, None):
        table = _table(game, viewer)
        assert table["discard"] == "10S" and table["discards"] == 3
        assert table["stock"] == 52 - 12 - 1 - 2
