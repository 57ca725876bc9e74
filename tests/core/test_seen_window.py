"""CORE-RT-3: a ``seen`` outside the window is refused even when the action is legal now."""

from __future__ import annotations

import pytest

import cardcore
from cardcore import STALE_WINDOW, IllegalActionError


@pytest.mark.parametrize("seen", [-1, 1, 99, 10**6])
def test_seen_outside_the_window_is_refused_though_the_action_is_legal(seen: int) -> None:
    game = cardcore.new_game("spit", 2, seed=2)
    with pytest.raises(IllegalActionError, match="outside the window") as err:
        game.act(0, "ready", seen=seen)
    assert err.value.rule_id == "CORE-RT-3"
    assert game.version == 0
    game.act(0, "ready", seen=0)  # the version it was shown: accepted
    assert game.version == 1


def test_turn_based_games_judge_seen_by_the_same_window() -> None:
    game = cardcore.new_game("golf", 2, seed=3)
    seat = game.to_act[0]
    text = str(game.legal_actions(seat)[0])
    with pytest.raises(IllegalActionError, match="CORE-RT-3"):
        game.act(seat, text, seen=game.version + 1)
    game.act(seat, text, seen=game.version)


def test_resigning_is_allowed_whatever_the_view() -> None:
    game = cardcore.new_game("spit", 2, seed=4)
    game.act(0, "resign", seen=STALE_WINDOW * 10)
    assert game.is_over
