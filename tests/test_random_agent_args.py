"""RandomAgent refuses a seed, reaction or spread it cannot use with OptionError, built directly or by name."""

from __future__ import annotations

from typing import Any

import pytest

import cardcore
from cardcore import OptionError


@pytest.mark.parametrize(
    "kwargs",
    [
        {"seed": "x"},  # was taken: random.Random('x')
        {"seed": 1.5},
        {"seed": True},
        {"seed": [1]},  # was a raw TypeError
        {"reaction": "x"},  # was a raw TypeError at the first plan()
        {"reaction": -1},
        {"spread": float("nan")},
    ],
)
def test_random_agent_refuses_what_it_cannot_use(kwargs: dict[str, Any]) -> None:
    with pytest.raises(OptionError, match=r"^agent 'random': "):
        cardcore.RandomAgent(**kwargs)


def test_a_spec_seed_that_is_no_whole_number_is_refused_when_the_study_starts() -> None:
    with pytest.raises(OptionError, match="seed must be a whole number"):
        cardcore.simulate("golf", games=1, agents="random:seed=x")
    game = cardcore.new_game("golf", 2, seed=1)
    for seed in (None, 0, 2**70):
        agent = cardcore.RandomAgent(seed)
        assert agent.choose(game.view(0), game.legal_actions(0)) in game.legal_actions(0)
    with pytest.raises(OptionError, match="at least 0"):  # -1 would play as 1
        cardcore.RandomAgent(-1)
