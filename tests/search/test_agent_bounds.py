"""Every numeric parameter of every installed agent is bounded when the agent is built by name."""

from __future__ import annotations

import math

import pytest

import cardcore

COSTLY = [
    ("ismcts", "iterations", 10**9),
    ("ismcts", "time", 1e9),
    ("ismcts", "max_rollout", 10**6),
    ("ismcts", "reuse", 10**6),
    ("ismcts", "depth", 10**6),
    ("tonk-heuristic", "samples", 10**9),
    ("random", "reaction", 1e300),
    ("spit-greedy", "mean", 1e300),
]


@pytest.mark.parametrize(
    ("agent", "param", "value"), COSTLY, ids=[f"{a}.{p}" for a, p, _ in COSTLY]
)
def test_a_value_beyond_its_bounds_is_refused_naming_the_parameter_and_bounds(
    agent: str, param: str, value: object
) -> None:
    low, high = cardcore.load_agent(agent).parameter_bounds[param]
    with pytest.raises(
        cardcore.OptionError, match=f"{param} must be a number from {low} to {high}"
    ):
        cardcore.load_agent(agent, **{param: value})
    with pytest.raises(cardcore.OptionError, match=f"{param} must be"):
        cardcore.load_agent(f"{agent}:{param}={value}")  # the command line's specs too


@pytest.mark.parametrize("value", [math.nan, math.inf, True, "many", 10**400])
def test_a_bounded_parameter_takes_only_a_number_in_its_range(value: object) -> None:
    with pytest.raises(cardcore.OptionError, match="iterations must be a number from 1 to 2000"):
        cardcore.load_agent("ismcts", iterations=value)


def test_the_bounds_themselves_are_accepted() -> None:
    agent = cardcore.load_agent("ismcts", iterations=2000, time=2.0, max_rollout=1000, reuse=2000)
    assert (agent.iterations, agent.time) == (2000, 2.0)
    assert cardcore.load_agent("tonk-heuristic", samples=10_000).samples == 10_000
    assert cardcore.load_agent("ismcts", iterations=None, time=0.5).iterations is None


def test_every_numeric_parameter_of_every_agent_is_bounded_and_its_default_within() -> None:
    for name in cardcore.available_agents():
        bounds = getattr(cardcore.load_agent(name), "parameter_bounds", {})
        for param, default in cardcore.agent_parameters(name).items():
            if param == "seed" or type(default) not in (int, float):  # a seed costs nothing
                continue
            assert param in bounds, (name, param)
            low, high = bounds[param]
            assert low <= default <= high, (name, param)
