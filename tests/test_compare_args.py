"""compare() and simulate() refuse bad arguments with cardcore errors before playing anything."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import cardcore
from cardcore import ArgumentError, CardcoreError, IllegalActionError, OptionError

GOLF1 = {"rounds": 1}


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"rules": "golf.jokers"}, ArgumentError, r"^rules takes a list of names"),  # was 'g'
        ({"vs": "golf.jokers"}, ArgumentError, r"^vs takes a list of names"),
        ({"without": "golf.x"}, ArgumentError, r"^without takes a list of names"),
        ({"vs_without": None}, ArgumentError, r"^vs_without takes a list of names"),
        ({"rules": None}, ArgumentError, r"^rules takes a list of names"),  # was TypeError
        ({"agents": 3}, OptionError, r"^agents must be an agent spec"),  # was TypeError
        ({"vs_agents": 3}, OptionError, r"^vs_agents must be an agent spec"),
        ({"executor": 3}, OptionError, r"^executor must be"),  # was AttributeError
        ({"progress": 3}, OptionError, r"^progress must be"),  # was TypeError, after a chunk
        ({"chunk": 0}, OptionError, r"^chunk must be"),  # was taken as 1
        ({"chunk": -2}, OptionError, r"^chunk must be"),
        ({"chunk": 1.5}, OptionError, r"^chunk must be"),
        ({"move_time": float("nan")}, OptionError, r"^move_time must be a finite"),
        ({"move_time": float("inf")}, OptionError, r"^move_time must be a finite"),
        ({"vs_options": []}, OptionError, r"^vs_options must be a mapping"),  # was A's options
    ],
)
def test_compare_refuses_bad_arguments(
    kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        cardcore.compare("golf", games=2, options=GOLF1, skill=None, **kwargs)


def test_compare_still_takes_good_arguments() -> None:
    with ThreadPoolExecutor(2) as pool:
        result = cardcore.compare(
            "golf",
            rules=("golf.hard",),
            games=3,
            options=GOLF1,
            skill=None,
            executor=pool,
            chunk=2,
            move_time=5,
            progress=lambda n: None,
        )
    assert result.same_deals and result.a.games == 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"agents": 3}, r"^agents takes one agent spec per seat"), ({"progress": 3}, r"^progress")],
)
def test_simulate_refuses_bad_arguments(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        cardcore.simulate("golf", games=2, **kwargs)


class _Liar:
    """Answers text where an Action (or a Plan of one) is due."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: Any, legal: Any) -> Any:
        return "flip 0"

    def plan(self, view: Any, legal: Any, now: float) -> Any:
        return cardcore.Plan("stuck", 0.3)  # type: ignore[arg-type]


def test_an_agent_that_answers_no_legal_action_is_named() -> None:
    cardcore.register("cardcore.agents", "test-liar", _Liar)
    with pytest.raises(CardcoreError, match=r"agent 'test-liar' at seat 0 answered 'flip 0'"):
        cardcore.compare("golf", games=2, agents=["test-liar", "random"], options=GOLF1, skill=None)
    # real time: was retried as stale until the game counted as "stalled", silently
    with pytest.raises(CardcoreError, match=r"agent 'test-liar' at seat 0 planned Plan"):
        cardcore.compare("speed", games=2, agents=["test-liar", "random"], skill=None)
    with pytest.raises(
        IllegalActionError, match=r"^in golf game 0 \(seed \d+\): the agent at seat 0"
    ):
        cardcore.simulate("golf", games=2, agents=["test-liar", "random"], options=GOLF1)
    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(IllegalActionError, match=r"^the agent at seat 0 \(_Liar\) answered: "):
        cardcore.play(game, [_Liar(), cardcore.RandomAgent(1)])
    assert game.version == 0


def test_plot_needs_a_path() -> None:
    result = cardcore.compare("golf", games=2, options=GOLF1, skill=None)
    for path in (None, 3):
        with pytest.raises(ArgumentError, match="plot writes to a file path"):
            result.plot(path)  # type: ignore[arg-type]
