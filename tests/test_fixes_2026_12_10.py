"""Fixes of the session of 2026-12-10 that no audit file holds a test for."""

from __future__ import annotations

import random

import pytest

import cardcore
from cardcore import OptionError
from cardcore.plugins import load_agent, parse_agent_spec
from cardcore.search import ISMCTSAgent


@pytest.mark.parametrize("spec", ["random:seed=-1", "ismcts:seed=-7", "golf-greedy:seed=-2"])
def test_an_agent_built_by_name_refuses_a_negative_seed(spec: str) -> None:
    name, params = parse_agent_spec(spec)
    with pytest.raises(OptionError, match="seed must be a whole number of at least 0"):
        load_agent(name, **params)


def test_why_a_negative_seed_is_refused_python_reads_it_as_its_size() -> None:
    assert random.Random(-1).random() == random.Random(1).random()


def test_a_study_refuses_an_agent_with_a_negative_seed_before_any_game() -> None:
    with pytest.raises(OptionError, match="at least 0"):
        cardcore.simulate("golf", games=1, agents=["random:seed=-1", "random"])


def test_an_agent_built_by_name_takes_seed_zero_and_none() -> None:
    game = cardcore.new_game("golf", 2, seed=3)
    legal = game.legal_actions(0)
    for spec in ("random:seed=0", "random:seed=none"):
        name, params = parse_agent_spec(spec)
        agent = load_agent(name, **params)
        assert isinstance(agent, cardcore.RandomAgent)
        assert agent.choose(game.view(0), legal) in legal
    name, params = parse_agent_spec("random:seed=0")
    twice = [load_agent(name, **params) for _ in range(2)]
    picks = [[a.choose(game.view(0), legal) for _ in range(8)] for a in twice]
    assert picks[0] == picks[1]  # seed 0 is a seed, not "no seed"


@pytest.mark.parametrize("build", [cardcore.RandomAgent, lambda seed: ISMCTSAgent(seed=seed)])
def test_the_core_agents_built_directly_refuse_a_negative_seed(build: object) -> None:
    with pytest.raises(OptionError, match="at least 0"):
        build(-1)  # type: ignore[operator]
    assert build(0) is not None  # type: ignore[operator]
