"""Rules whose named tests let a broken rule pass (a mutation audit of 2026-12-24).

Each test is named after the rule it guards (seeds/spit.md) and fails when that rule breaks:
the audit broke each rule in turn and ran only the tests named after it.
"""

from __future__ import annotations

import pytest
from tests.games.spit.helpers import arrange

import cardcore
from cardcore import IllegalActionError
from cardcore_spit.actions import Combine, Fill


def claim_phase() -> cardcore.Game:
    """Seat 0 plays its last layout card: the deal ends and only claims remain (SPIT-END-1)."""
    game = arrange(
        cardcore.new_game("spit", 2, seed=1),
        ["6S", "", "", "", ""],
        ["QC", "QD", "", "", ""],
        spit0="2H",
        spit1="3H",
        left="5D",
        right="10H",
        rest="left",
    )
    game.act(0, "play 1 L")
    assert game.view(None)["table"]["phase"] == "claim"
    return game


@pytest.mark.parametrize("action", [Combine(1, 0, 1), Fill(1, 0, 2)], ids=str)
def test_spit_rt_3_no_combine_or_fill_as_an_action_object_after_the_deal(
    action: cardcore.Action,
) -> None:
    # no legal set asked first: the engine asks Spit itself whether the action is legal
    game = claim_phase()
    version = game.version
    with pytest.raises(IllegalActionError, match="SPIT-END-1"):
        game.apply(action)
    assert game.version == version
    assert game.view(None)["table"]["seats"][1]["layout"][:3] == [["QC"], ["QD"], []]
    assert sorted(str(a) for a in game.legal_actions(1)) == ["slap L", "slap R"]


# -- a second pass (the other rule IDs) ------------------------------------------------------------


def test_spit_move_6_a_fill_from_the_first_pile_is_listed_and_allowed() -> None:
    from tests.games.spit.test_examined_2026_12_02 import spit, spit_position

    zones = {
        "layout.0.1": "8D!",
        "layout.0.3": "JC!",
        "layout.1.1": "9C!",
        "spit.0": "2C",
        "spit.1": "3H",
        "pile.L": "4D!",
        "pile.R": "10D!",
    }
    game = spit(spit_position(zones, "pile.R"))
    assert "fill 1 2" in [str(a) for a in game.legal_actions(0)]
    game.act(0, "fill 1 2")
    assert game.view(0)["table"]["seats"][0]["layout"][:2] == [[], ["8D"]]


# -- a third pass ----------------------------------------------------------------------------------


def test_spit_move_1_a_read_position_keeps_a_requester_that_can_move() -> None:
    game = cardcore.new_game("spit", 2, seed=3)
    while any(str(a) == "ready" for a in game.legal_actions(game.to_act[0])):
        game.act(game.to_act[0], "ready")
    assert "combine 1 5" in [str(a) for a in game.legal_actions(0)]
    game.act(0, "spit")  # asks for a spit, but still has a combine
    assert game.to_act == (0, 1)
    again = cardcore.new_game("spit", 2, position=game.position(), seed=3)
    assert again.to_act == (0, 1)
    assert [str(a) for a in again.legal_actions(0)] == [str(a) for a in game.legal_actions(0)]


# -- a fourth pass ---------------------------------------------------------------------------------


def test_spit_move_9_a_play_is_judged_on_the_players_own_pile_not_the_opponents() -> None:
    from tests.games.spit.helpers import arrange, centre, golden_game, tops

    # seat 0's pile 1 shows 2H, seat 1's pile 1 shows 10D; the left spit pile shows 9C:
    # only seat 1 may play its pile 1 there, in the legal set and in the check of a move
    game = arrange(
        golden_game(),
        ["2H", "KS", "KH", "KD", "KC"],
        ["10D", "4S", "4H", "4D", "4C"],
        left="9C",
        right="7S",
    )
    play = next(a for a in game.legal_actions(1) if str(a) == "play 1 L")
    assert all(str(a) != "play 1 L" for a in game.legal_actions(0))
    before = (tops(game, 0), centre(game))
    fresh = arrange(
        golden_game(),
        ["2H", "KS", "KH", "KD", "KC"],
        ["10D", "4S", "4H", "4D", "4C"],
        left="9C",
        right="7S",
    )
    for g in (game, fresh):  # with a legal set asked first, and without
        with pytest.raises(cardcore.IllegalActionError):
            g.apply(type(play)(0, play.pile, play.target))
        with pytest.raises(cardcore.IllegalActionError):
            g.act(0, "play 1 L")
    assert (tops(game, 0), centre(game)) == before
