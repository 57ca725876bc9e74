"""The greedy Golf agent: legal choices only, from its view only, and better than random."""

from __future__ import annotations

import pytest

import cardcore
from cardcore import Agent, RandomAgent, play
from cardcore_golf.agents import GolfGreedyAgent, GreedyGolfAgent


def test_agent_is_registered() -> None:
    assert cardcore.load_agent("golf-greedy") is GolfGreedyAgent
    assert GreedyGolfAgent is GolfGreedyAgent  # the old name stays an alias


@pytest.mark.parametrize("layout", [6, 8, 9, 10, "4", "4h"])
def test_greedy_agents_finish_games(layout: object) -> None:
    for seed in range(4):
        game = cardcore.new_game("golf", 3, seed=seed, options={"layout": layout, "rounds": 2})
        result = play(game, [GolfGreedyAgent(seed + s) for s in range(3)])
        assert result.reason == "rounds"


def test_greedy_beats_random() -> None:
    wins = 0
    for seed in range(30):
        game = cardcore.new_game("golf", 2, seed=seed, options={"rounds": 2})
        agents: list[Agent] = [GolfGreedyAgent(seed), RandomAgent(seed)]
        if seed % 2:
            agents.reverse()
        result = play(game, agents)
        wins += (seed % 2) in result.winners
    assert wins >= 25


def test_greedy_chooses_from_the_view_only() -> None:
    game = cardcore.new_game("golf", 2, seed=3, options={"rounds": 1})
    agent = GolfGreedyAgent(1)
    while not game.is_over:
        seat = game.to_act[0]
        view = game.view(seat)
        legal = game.legal_actions(seat)
        action = agent.choose(view, legal)
        assert action in legal
        game.apply(action, seen=view["version"])
