"""Bad input to the environments: a clear cardcore error, and nothing changes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardcore import (
    ArgumentError,
    CardcoreError,
    IllegalActionError,
    OptionError,
    SeatError,
    UnknownPluginError,
)
from cardcore.agents import RandomAgent
from cardcore.rl import BatchEnv, aec_env, gym_env, observe, vector_env
from cardcore.setup import MAX_SEED_BITS


def _first_legal(mask: Any) -> int:
    return int(np.flatnonzero(mask)[0])


def _versions(envs: BatchEnv) -> list[int]:
    return [runner._live().game.version for runner in envs.runners]


# -- vector_env.step --------------------------------------------------------------------------


def test_vector_env_checks_the_whole_batch_before_stepping_any_game() -> None:
    envs = vector_env("golf", 3, options={"rounds": 1}, copy=False)
    obs, _ = envs.reset(seed=1)
    before = {k: v.copy() for k, v in obs.items()}
    good = [_first_legal(m) for m in before["action_mask"]]
    bad = [*good[:2], 0]  # 'draw' is not legal in game 2: the setup flips come first
    with pytest.raises(
        IllegalActionError, match=r"^game 2 of 3: action 0 \('draw'\) is not in player_0's"
    ) as err:
        envs.step(bad)
    assert err.value.rule_id == "CORE-LEGAL-1" and err.value.action == 0
    assert _versions(envs) == [0, 0, 0]  # games 0 and 1 did not move
    assert all((obs[k] == before[k]).all() for k in obs)  # nor did the arrays lent out
    envs.step(good)  # the corrected batch plays every game once
    assert _versions(envs) == [1, 1, 1]


@pytest.mark.parametrize(
    "actions",
    [5, None, "abc", {0: 10}, [10], [10, 10, 10, 10], np.array([[10, 10, 10]]), np.array(10)],
    ids=["int", "None", "str", "dict", "short", "long", "2-d", "0-d"],
)
def test_vector_env_refuses_actions_that_are_not_one_index_per_game(actions: Any) -> None:
    envs = vector_env("golf", 3, options={"rounds": 1})
    envs.reset(seed=1)
    with pytest.raises(
        IllegalActionError, match=r"one action index per game: a list or 1-D int array of 3"
    ):
        envs.step(actions)
    assert _versions(envs) == [0, 0, 0]


@pytest.mark.parametrize(
    "actions",
    [
        [10, 10, 10.0],
        np.array([10.0, 10.0, 10.0]),
        [10, 10, True],
        np.array([True, True, True]),
        [10, 10, "10"],
    ],
    ids=["float", "float-array", "bool", "bool-array", "text"],
)
def test_vector_env_refuses_floats_bools_and_text_as_actions(actions: Any) -> None:
    envs = vector_env("golf", 3, options={"rounds": 1})
    envs.reset(seed=1)
    with pytest.raises(
        IllegalActionError, match=r"^game \d of 3: player_0 needs an action index \(an int\)"
    ):
        envs.step(actions)
    assert _versions(envs) == [0, 0, 0]
    envs.step(np.array([10, 10, 10], dtype=np.int32))  # numpy integers are indices
    assert _versions(envs) == [1, 1, 1]


def test_a_bool_is_no_action_index_in_any_environment() -> None:
    env = aec_env("golf", 2, options={"rounds": 1})
    env.reset(seed=1)
    with pytest.raises(IllegalActionError, match="needs an action index"):
        env.step(True)
    gym = gym_env("golf", 2, options={"rounds": 1})
    gym.reset(seed=1)
    with pytest.raises(IllegalActionError, match="needs an action index"):
        gym.step(np.True_)
    assert env.match is not None and env.match.game.version == 0
    assert gym.runner._live().game.version == 0


# -- opponents given as agent specs --------------------------------------------------------------


def _play(opponents: Any) -> list[str]:
    env = gym_env("golf", 2, opponents=opponents, options={"rounds": 1})
    obs, _ = env.reset(seed=5)
    done = False
    while not done:
        obs, _, terminated, truncated, _ = env.step(_first_legal(obs["action_mask"]))
        done = terminated or truncated
    return [entry[1].notation() for entry in env.runner._live().game.record_entries()]


def test_opponents_may_be_agent_specs_with_parameters() -> None:
    assert _play("random:seed=3") == _play(RandomAgent(3))  # the spec's seed is the agent's
    assert _play("random:seed=3") != _play("random:seed=4")
    assert _play("random") == _play("random")  # without one, a seed derived from the game's
    env = gym_env("spit", 2, opponents=["random:reaction=0.25,seed=1"])
    env.reset(seed=2)
    agent = env.runner.agents[1]
    assert isinstance(agent, RandomAgent) and agent.reaction == 0.25
    envs = vector_env("golf", 2, opponents="golf-greedy:seed=1", options={"rounds": 1})
    obs, _ = envs.reset(seed=1)
    envs.step([_first_legal(m) for m in obs["action_mask"]])


@pytest.mark.parametrize(
    ("opponents", "error", "match"),
    [
        ("random:nope=1", OptionError, "has no parameter 'nope'"),
        ("random:seed", OptionError, "KEY=VALUE"),
        ("nosuch:seed=1", UnknownPluginError, "nosuch"),
        ("tonk-heuristic:seed=1", CardcoreError, "plays tonk"),
        (RandomAgent, CardcoreError, "is a class"),
    ],
)
def test_bad_agent_specs_are_refused_when_the_environment_is_built(
    opponents: Any, error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        gym_env("golf", 2, opponents=opponents)
    with pytest.raises(error, match=match):
        vector_env("golf", 2, opponents=[opponents])


# -- reset seeds ------------------------------------------------------------------------------


BAD_SEEDS = ["x", "7", 1.5, -1, 2**MAX_SEED_BITS, True, np.int64(3), b"1"]


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=[repr(s) for s in BAD_SEEDS])
def test_every_reset_refuses_a_bad_seed_and_changes_nothing(seed: Any) -> None:
    seed_error = r"seed must be None(,| or) an int"
    env = aec_env("golf", 2, options={"rounds": 1})
    env.reset(seed=1)
    match = env.match
    with pytest.raises(OptionError, match=seed_error):
        env.reset(seed=seed)
    assert env.match is match
    gym = gym_env("golf", 2, options={"rounds": 1})
    gym.reset(seed=1)
    match, rng = gym.runner.match, gym.np_random
    with pytest.raises(OptionError, match=seed_error):
        gym.reset(seed=seed)
    assert gym.runner.match is match and gym.np_random is rng
    envs = vector_env("golf", 2, options={"rounds": 1})
    envs.reset(seed=1)
    matches = [runner.match for runner in envs.runners]
    with pytest.raises(OptionError, match=seed_error):
        envs.reset(seed=[1, seed])
    with pytest.raises(OptionError, match=seed_error):
        envs.reset(seed=seed)
    assert [runner.match for runner in envs.runners] == matches


def test_every_reset_takes_the_seeds_new_game_takes() -> None:
    top = 2**MAX_SEED_BITS - 1
    env = aec_env("golf", 2, options={"rounds": 1})
    env.reset(seed=top)
    assert env.match is not None and env.match.game.seed == top
    gym = gym_env("golf", 2, options={"rounds": 1})
    gym.reset(seed=top)
    assert gym.runner._live().game.seed == top
    envs = vector_env("golf", 2, options={"rounds": 1})
    envs.reset(seed=top)
    envs.reset(seed=[0, None])
    assert envs.runners[0]._live().game.seed == 0
    with pytest.raises(OptionError, match="one seed per game"):
        envs.reset(seed=[0, 1, 2])


# -- construction and the other methods ---------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "error", "match"),
    [
        (
            lambda: aec_env("golf", render_mode="x"),
            OptionError,
            "render_mode must be None or one of",
        ),
        (lambda: gym_env("golf", render_mode=1), OptionError, "render_mode must be None or one of"),
        (lambda: aec_env("golf", rules=5), ArgumentError, "rules takes a list of names, not 5"),
        (
            lambda: gym_env("golf", rules="golf.jokers"),
            ArgumentError,
            "rules takes a list of names",
        ),
        (lambda: vector_env("golf", 2, without=5), ArgumentError, "without takes a list of names"),
        (lambda: aec_env("golf", options=[1]), OptionError, "options must be a mapping"),
        (lambda: aec_env("spit", reaction=None), OptionError, "reaction must be a finite delay"),
        (
            lambda: aec_env("spit", reaction=float("inf")),
            OptionError,
            "reaction must be a finite delay",
        ),
        (
            lambda: gym_env("spit", reaction=["a", "b"]),
            OptionError,
            "reaction must be a finite delay",
        ),
    ],
)
def test_bad_arguments_are_refused_when_the_environment_is_built(
    build: Any, error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        build()


def test_an_unknown_agent_name_is_a_seat_error() -> None:
    env = aec_env("golf", 2, options={"rounds": 1})
    env.reset(seed=1)
    for agent in ("nobody", 0, None, "player_2"):
        for method in (env.observe, env.observation_space, env.action_space):
            with pytest.raises(
                SeatError, match=r"not an agent of this environment: .* player_0, player_1"
            ):
                method(agent)
    assert env.action_space("player_1").n == 22


def test_observe_refuses_what_is_not_a_game() -> None:
    with pytest.raises(ArgumentError, match="observe takes a Game, not None"):
        observe(None, 0)  # type: ignore[arg-type]
