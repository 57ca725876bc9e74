"""Tonk: tests added by the mutation audit of 2026-12-03.

Each test is named after the rule it guards and fails against a small plausible mutation of
the rule's code that the earlier tests let through (see the docstrings). They use the public
API: ``cardcore.new_game`` (through the stacked-deck helper), ``Game.act``, ``Game.apply``,
``Game.legal_actions``, ``Game.view``, ``Game.history`` and ``Game.result``.
"""

from __future__ import annotations

import pytest
from tests.games.tonk.helpers import NATURAL, hand, tonk

import cardcore
from cardcore import Game, IllegalActionError, OptionError
from cardcore_tonk.actions import parse_action


def _legal(game: Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


# -- drops ----------------------------------------------------------------------------------


def test_tonk_drop_2_a_tie_with_the_dropper_is_not_lowest() -> None:
    """P0 drops with 20 and P1 also holds 20: the dropper is not strictly lowest, so is
    caught (pays 2S to P1), and P1, the lowest non-dropper, collects S from P2 (47)."""
    game = tonk(["10S 5S 2S 2H AS", "10H 5H 3S AH AD", "KS KH KD 9S 8S"])
    game.act(0, "drop")
    assert game.result is not None
    assert game.result.reason == "drop-caught"
    assert game.result.payouts == (-2, 3, -1)
    two = tonk(["10S 5S 2S 2H AS", "10H 5H 3S AH AD"])
    two.act(0, "drop")
    assert two.result is not None
    assert two.result.reason == "drop-caught" and two.result.payouts == (-2, 2)


# -- the turn -------------------------------------------------------------------------------


def test_tonk_turn_4_taken_discard_stays_with_a_spread_in_hand() -> None:
    """With a spread (or a hit) possible, the card taken from the discard pile is still not
    offered as a discard and may not be discarded, by text or as an action object."""
    game = tonk(["5H 6H 7H KS 9C", "2C 3D 4S 8D JC"], upcard="KD")
    game.act(0, "take")
    legal = _legal(game, 0)
    assert "spread 5H 6H 7H" in legal
    assert "discard KD" not in legal
    with pytest.raises(IllegalActionError, match="TONK-TURN-4"):
        game.act(0, "discard KD")
    with pytest.raises(IllegalActionError, match=r"\(TONK-TURN-4\)"):
        game.apply(parse_action(0, "discard KD"))
    assert "KD" in hand(game, 0)
    game.act(0, "discard KS")


def test_tonk_turn_4_taken_discard_refused_as_an_action_object() -> None:
    """Without any spread in hand too, ``Game.apply`` of the taken discard is refused."""
    game = tonk(["2S 5H 9C JD 4C", "2C 3D 4S 8D JC"], upcard="KD")
    game.act(0, "take")
    with pytest.raises(IllegalActionError, match=r"\(TONK-TURN-4\)"):
        game.apply(parse_action(0, "discard KD"))
    game.apply(parse_action(0, "discard JD"))
    assert hand(game, 0) == ["2S", "4C", "5H", "9C", "KD"]


# -- spreads and hits -----------------------------------------------------------------------


def test_tonk_spread_2_a_run_has_no_gap() -> None:
    """5H 6H 8H is no run, even when the hand also holds a real spread (KS KH KD)."""
    game = tonk(["5H 6H 8H KS KH", "2C 3D 4S 8D JC"], upcard="QC", stock="KD")
    game.act(0, "draw")
    legal = _legal(game, 0)
    assert "spread KD KH KS" in legal or "spread KS KH KD" in legal
    assert not [a for a in legal if a.startswith("spread") and "8H" in a]
    with pytest.raises(IllegalActionError, match="TONK-SPREAD-2"):
        game.act(0, "spread 5H 6H 8H")
    assert len(hand(game, 0)) == 6


def test_tonk_spread_2_a_run_is_of_one_suit() -> None:
    """5H 6S 7H is no run: refused, citing TONK-SPREAD-2."""
    game = tonk(["5H 6S 7H KS KH", "2C 3D 4S 8D JC"], upcard="QC", stock="KD")
    game.act(0, "draw")
    assert not [a for a in _legal(game, 0) if a.startswith("spread") and "6S" in a]
    with pytest.raises(IllegalActionError, match="TONK-SPREAD-2"):
        game.act(0, "spread 5H 6S 7H")
    assert len(hand(game, 0)) == 6


def test_tonk_hit_1_a_run_from_two_grows_down_to_the_ace() -> None:
    """A run 2H 3H 4H may be hit with AH at its low end (the ace is low)."""
    game = tonk(["2H 3H 4H 9S 9C", "2C 3D 4S 8D JC"], upcard="QC", stock="AH")
    game.act(0, "draw")
    game.act(0, "spread 2H 3H 4H")
    assert "hit 1 AH" in _legal(game, 0)
    game.act(0, "hit 1 AH")
    spreads = game.view(1)["table"]["spreads"]
    assert len(spreads) == 1 and "AH" in str(spreads[0])
    assert sorted(hand(game, 0)) == ["9C", "9S"]


def test_tonk_hit_2_a_card_that_hits_only_a_later_spread() -> None:
    """Two spreads on the table; P0 holds no spread and one card, 10S, that hits only
    spread 2 (7S 8S 9S, laid by P1): ``hit 2 10S`` is legal."""
    game = tonk(
        ["2H 3H 4H KC QD", "7S 8S 9S 10C 6D"],
        upcard="5C",
        stock="JS 2C 10S",
    )
    game.act(0, "draw")  # JS
    game.act(0, "spread 2H 3H 4H")
    game.act(0, "discard KC")
    game.act(1, "draw")  # 2C
    game.act(1, "spread 7S 8S 9S")
    game.act(1, "discard 10C")
    game.act(0, "draw")  # 10S
    assert hand(game, 0) == ["10S", "JS", "QD"]
    legal = _legal(game, 0)
    assert "hit 2 10S" in legal
    game.act(0, "hit 2 10S")
    assert hand(game, 0) == ["JS", "QD"]


# -- natural tonk ---------------------------------------------------------------------------


def test_tonk_49_2_a_void_deal_shows_only_the_naturals() -> None:
    """Three seats, P0 (49) and P1 (50) hold naturals, P2 (20) does not: the hand is void
    and only the naturals' hands are shown; P2's stays hidden from the others."""
    game = tonk(
        ["KS KH KD KC 9S", "QS QH QD JC 10S", "2S 3S 4S 5S 6S"],
        upcard="7D",
        natural=True,
    )
    table = game.view(None)["table"]
    assert table["phase"] == "between" and table["shown"] == [True, True, False]
    [entry] = game.history(None)
    assert entry["reason"] == "void" and entry["amounts"] == [0, 0, 0]
    assert entry["shown"][2] is None and entry["totals"] == [49, 50, None]
    for viewer in (0, 1, None):
        hidden = next(z for z in game.view(viewer)["zones"] if z["name"] == "hand.2")
        assert set(hidden["cards"]) == {None}


# -- house rules ----------------------------------------------------------------------------


def test_tonk_var_2_only_three_aces_may_be_held() -> None:
    """Under ``tonk.must-lay-down`` a book of three 2s may not be kept in hand (only three
    aces may); three aces may."""
    game = tonk(
        ["2S 2H 2D 9C KD", "3C 4D 5S 8D JC"],
        upcard="QC",
        stock="7C",
        rules=["tonk.must-lay-down"],
    )
    game.act(0, "draw")
    assert "discard KD" not in _legal(game, 0)
    with pytest.raises(IllegalActionError, match="TONK-VAR-2"):
        game.act(0, "discard KD")
    aces = tonk(
        ["AS AH AD 9C KD", "3C 4D 5S 8D JC"],
        upcard="QC",
        stock="7C",
        rules=["tonk.must-lay-down"],
    )
    aces.act(0, "draw")
    assert "discard KD" in _legal(aces, 0)
    aces.act(0, "discard KD")


# -- second pass: the hit-blocks-drop window and positions ----------------------------------


def test_tonk_var_4_taking_a_discard_ends_the_block() -> None:
    """Under ``tonk.hit-blocks-drop`` P1, whose spread P0 hit, may not drop on its next turn;
    that turn (played by taking the discard) ends the block: on the turn after, P1 may drop."""
    game = tonk(
        ["10S 2C 4D 6H QD", "7S 8S 9S KC JD"],
        upcard="3C",
        stock="5D AC 8H 9H",
        rules=["tonk.hit-blocks-drop"],
    )
    game.act(0, "draw")  # 5D
    game.act(0, "discard 5D")
    game.act(1, "draw")  # AC
    game.act(1, "spread 7S 8S 9S")
    game.act(1, "discard KC")
    game.act(0, "draw")  # 8H
    game.act(0, "hit 1 10S")
    game.act(0, "discard 8H")
    assert "drop" not in _legal(game, 1)  # hit since its last turn: blocked
    with pytest.raises(IllegalActionError, match="TONK-VAR-4"):
        game.act(1, "drop")
    game.act(1, "take")  # 8H
    game.act(1, "discard JD")
    game.act(0, "draw")  # 9H
    game.act(0, "discard 9H")
    assert "drop" in _legal(game, 1)
    game.act(1, "drop")
    assert game.is_over


def test_tonk_note_2_position_marks_who_knows_each_card() -> None:
    """The position marks the upcard as known to all (``!``) and a card drawn from the stock
    as known to its drawer only (``@0``)."""
    game = tonk(["2H 3H 4H 9S 9C", "2C 3D 4S 8D JC"], upcard="QC", stock="AH")
    assert "discard: QC! |" in game.position()
    game.act(0, "draw")
    assert "hand.0: 2H 3H 4H 9S 9C AH@0 |" in game.position()


def test_tonk_note_2_position_with_a_spread_that_is_no_run_is_refused() -> None:
    """Reading a position checks each spread: 2H 3S 4H (two suits) is refused with an
    ``OptionError`` citing the spread rules."""
    game = tonk(["2H 3H 4H 9S 9C", "2C 3D 4S 8D JC"], upcard="QC", stock="AH")
    game.act(0, "draw")
    game.act(0, "spread 2H 3H 4H")
    text = game.position()
    assert " 3S " in text and "spreads: 2H! 3H! 4H!" in text
    again = cardcore.new_game(
        "tonk", 2, options={"first_dealer": 1}, without=(NATURAL,), position=text
    )
    assert again.to_act == (0,)
    bad = text.replace(" 3S ", " 3H ").replace("spreads: 2H! 3H! 4H!", "spreads: 2H! 3S! 4H!")
    with pytest.raises(OptionError, match="TONK-SPREAD-2"):
        cardcore.new_game("tonk", 2, options={"first_dealer": 1}, without=(NATURAL,), position=bad)


# -- third pass: going out shows no hand, the order of hits ---------------------------------


def test_tonk_view_1_going_out_by_discard_shows_no_hand() -> None:
    """P0 spreads five hearts and discards the last card (TONK-OUT-2): no hand is turned
    face up, in the views or in the history."""
    game = tonk(["5H 6H 7H 8H 9H", "2C 3D 4S 8D JC"], upcard="QC", stock="KD", hands=2)
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H 8H 9H")
    game.act(0, "discard KD")
    entry = game.history(None)[-1]
    assert entry["reason"] == "out" and entry["amounts"] == [1, -1]
    assert not entry["shown"] or all(h is None for h in entry["shown"])
    assert game.view(None)["table"]["shown"] == [False, False]
    hidden = next(z for z in game.view(0)["zones"] if z["name"] == "hand.1")
    assert set(hidden["cards"]) == {None}


def test_tonk_legal_1_hits_listed_by_spread_number() -> None:
    """After the draw: hits by spread number (then card), then discards by card."""
    game = tonk(["2H 3H 4H KC 5H", "7S 8S 9S 10C 6D"], upcard="5C", stock="QD 2C 10S")
    game.act(0, "draw")  # QD
    game.act(0, "spread 2H 3H 4H")
    game.act(0, "discard KC")
    game.act(1, "draw")  # 2C
    game.act(1, "spread 7S 8S 9S")
    game.act(1, "discard 10C")
    game.act(0, "draw")  # 10S
    assert _legal(game, 0) == [
        "hit 1 5H",
        "hit 2 10S",
        "discard 5H",
        "discard 10S",
        "discard QD",
    ]


def test_tonk_view_1_at_the_end_the_view_names_the_last_dealer() -> None:
    """When the session is over the view's ``dealer`` and ``hand_number`` are the last
    hand's (its dealer, seat 2 here), although the deal has passed on (TONK-DEALER-2)."""
    game = tonk(["10S 5S 2S 2H AS", "10H 5H 3S AH AD", "KS KH KD 9S 8S"])
    assert game.view(None)["table"]["dealer"] == 2
    game.act(0, "drop")
    assert game.is_over
    table = game.view(None)["table"]
    assert table["dealer"] == 2 and table["hand_number"] == 1
    assert table["turn"] is None and table["phase"] == "over"
    assert game.history(None)[-1]["dealer"] == 2
