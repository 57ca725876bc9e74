"""PettingZoo's own conformance tests (``api_test``, ``seed_test``) for every built-in game.

The only warnings allowed are the two that PettingZoo gives any environment whose
observation is a dict (``{"observation", "action_mask"}``, the classic convention): its
own classic environments are exempted from them by name.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from pettingzoo.test import api_test, seed_test

from cardcore.rl import aec_env
from tests.rl.helpers import BUILT_IN, IDS

DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


@pytest.mark.parametrize(("game", "players", "options"), BUILT_IN, ids=IDS)
def test_pettingzoo_api_test(game: str, players: int, options: dict[str, Any]) -> None:
    env = aec_env(game, players, options=options, render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=1000)
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_WARNINGS


@pytest.mark.parametrize(("game", "players", "options"), BUILT_IN, ids=IDS)
def test_pettingzoo_seed_test(game: str, players: int, options: dict[str, Any]) -> None:
    seed_test(lambda: aec_env(game, players, options=options), num_cycles=500)


@pytest.mark.parametrize("game", ["gofish", "racegame"])
def test_pettingzoo_api_and_seed_tests_pass_for_a_game_without_an_encoding(game: str) -> None:
    players = 3 if game == "gofish" else 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env(game, players), num_cycles=300)
    seed_test(lambda: aec_env(game, players), num_cycles=300)


@pytest.mark.parametrize(("game", "players", "options"), BUILT_IN, ids=IDS)
def test_a_whole_game_plays_to_its_end_with_terminations_and_zero_sum_rewards(
    game: str, players: int, options: dict[str, Any]
) -> None:
    env = aec_env(game, players, options=options)
    env.reset(seed=11)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            returns[agent] += reward
            env.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        assert len(legal) > 0
        env.step(int(legal[steps % len(legal)]))
        steps += 1
    assert env.match is not None and env.match.game.is_over
    assert not env.agents
    assert abs(sum(returns.values())) < 1e-9
