"""play() and run_realtime() refuse arguments of the wrong kind before the first move
(before: an agent None raised AttributeError mid-game, agents=5 TypeError, a game 5
AttributeError, start=NaN IndexError, and max_actions=-1 or 1.5 and seed='x' were taken)."""

from __future__ import annotations

from typing import Any

import pytest

import cardcore
from cardcore import ArgumentError, OptionError, RandomAgent


def _golf() -> cardcore.Game:
    return cardcore.new_game("golf", 2, seed=1, options={"rounds": 1})


def _spit() -> cardcore.Game:
    return cardcore.new_game("spit", 2, seed=1)


@pytest.mark.parametrize(
    ("game", "agents", "kwargs", "error"),
    [
        (_golf, [None, None], {}, ArgumentError),
        (_golf, [RandomAgent(1), "random"], {}, ArgumentError),
        (_golf, 5, {}, ArgumentError),
        (_golf, "ab", {}, ArgumentError),
        (lambda: 5, [RandomAgent(1)] * 2, {}, ArgumentError),
        (_golf, [RandomAgent(1)] * 2, {"max_actions": -1}, OptionError),
        (_golf, [RandomAgent(1)] * 2, {"max_actions": 1.5}, OptionError),
        (_golf, [RandomAgent(1)] * 2, {"max_actions": -(10**5000)}, OptionError),
    ],
)
def test_play_refuses_bad_arguments(
    game: Any, agents: Any, kwargs: dict[str, Any], error: type
) -> None:
    with pytest.raises(error):
        cardcore.play(game(), agents, **kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"seed": "x"},
        {"seed": 1.5},
        {"start": float("nan")},
        {"start": float("inf")},
        {"max_actions": -1},
    ],
    ids=repr,
)
def test_run_realtime_refuses_bad_arguments(kwargs: dict[str, Any]) -> None:
    game = _spit()
    with pytest.raises(OptionError):
        cardcore.run_realtime(game, [RandomAgent(1), RandomAgent(2)], **kwargs)
    assert game.version == 0


def test_runners_still_play() -> None:
    assert cardcore.play(_golf(), [RandomAgent(1), RandomAgent(2)]).reason == "rounds"
    result = cardcore.run_realtime(_spit(), [RandomAgent(1), RandomAgent(2)], seed=3, start=2)
    assert result is not None
    assert (
        cardcore.play(_golf(), [RandomAgent(1), RandomAgent(2)], max_actions=0).reason
        == "truncated"
    )
