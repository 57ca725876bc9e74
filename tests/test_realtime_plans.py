"""run_realtime refuses a plan that is neither None nor a Plan of an action and a finite delay."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

import cardcore


class _Planner:
    def __init__(self, answer: Callable[[Sequence[Any]], Any]) -> None:
        self.answer = answer

    def plan(self, view: Any, legal: Sequence[Any], now: float) -> Any:
        return self.answer(legal) if legal else None


@pytest.mark.parametrize(
    "answer",
    [
        lambda legal: legal[0],  # a bare action: was AttributeError ('delay')
        lambda legal: cardcore.Plan("stuck", 0.3),  # text: was retried until "stalled"
        lambda legal: cardcore.Plan(legal[0], float("inf")),  # was "stalled" too
        lambda legal: cardcore.Plan(legal[0], "soon"),  # was TypeError
        lambda legal: cardcore.Plan(legal[0], float("nan")),  # was taken as 0
    ],
    ids=["bare-action", "plan-of-text", "inf", "text-delay", "nan"],
)
def test_a_plan_that_is_no_plan_is_refused_naming_the_agent(
    answer: Callable[[Sequence[Any]], Any],
) -> None:
    game = cardcore.new_game("speed", 2, seed=1)
    with pytest.raises(cardcore.CardcoreError, match=r"^the agent at seat 0 \(_Planner\) planned"):
        cardcore.run_realtime(game, [_Planner(answer), cardcore.RandomAgent(2)], seed=1)


def test_good_plans_still_play() -> None:
    game = cardcore.new_game("speed", 2, seed=1)
    quick = _Planner(lambda legal: cardcore.Plan(legal[0], 1))  # an int delay is fine
    assert cardcore.run_realtime(game, [quick, cardcore.RandomAgent(2)], seed=1).reason


def test_a_numpy_delay_is_a_delay() -> None:
    """A NumPy number plans the very delay its Python float does: the same record."""
    np = pytest.importorskip("numpy")

    def record(delay: Any) -> Any:
        game = cardcore.new_game("speed", 2, seed=1)
        agent = _Planner(lambda legal: cardcore.Plan(legal[0], delay))
        assert cardcore.run_realtime(game, [agent, cardcore.RandomAgent(2)], seed=1).reason
        return game.record()

    assert record(0.4) != record(0.0)  # the delay shows in the record
    for kind, value in ((np.float64, 0.4), (np.float32, 0.4), (np.int64, 1)):
        assert record(kind(value)) == record(float(kind(value)))
