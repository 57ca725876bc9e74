"""The RL environments' public API, typed (with the narrowing strict mypy asks for)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import cardcore
from cardcore.rl import (
    BatchEnv,
    CardEnv,
    SeatEnv,
    aec_env,
    encoding_for,
    gym_env,
    observe,
    vector_env,
    win_rewards,
)


def aec_first_step() -> list[str]:
    """The rl page's first example; ``last()`` and ``match`` need narrowing (see findings)."""
    env: CardEnv = aec_env("golf", 2, options={"rounds": 1})
    env.reset(seed=7)
    obs, reward, terminated, truncated, info = env.last()
    assert obs is not None  # finding: last() is typed ``ObsType | None``
    features: npt.NDArray[np.float32] = obs["observation"]
    mask = obs["action_mask"]
    assert features.dtype == np.float32 and not terminated and not truncated and reward == 0.0
    names: list[str] = [env.config.observer.names[int(i)] for i in mask.nonzero()[0]]
    env.step(10)
    match = env.match
    assert match is not None  # finding: typed ``Match | None`` after reset
    assert match.game.record_entries()[0][1].notation() == "flip 0" and isinstance(info, dict)
    return names


def aec_loop(seed: int = 3) -> dict[str, float]:
    """A random-legal loop over agent_iter(), collecting final rewards."""
    env = aec_env("tonk", 3)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        rewards[str(agent)] = float(reward)
        if terminated or truncated or obs is None:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    return rewards


def single_seat(seed: int = 3) -> float:
    """gym_env against an agent by name; ``wait`` is the last index in real time."""
    env: SeatEnv = gym_env("spit", 2, opponents="spit-greedy", wait=True)
    obs, info = env.reset(seed=seed)
    wait = env.runner.config.observer.wait
    assert wait is not None and int(obs["action_mask"][wait]) == 1
    obs, reward, _terminated, _truncated, step_info = env.step(wait)
    assert isinstance(step_info, dict) and isinstance(info, dict)
    masks: npt.NDArray[np.bool_] = env.action_masks()
    assert masks.shape[0] == len(env.runner.config.observer.names)
    return reward


def batched(num_envs: int = 4, seed: int = 1) -> int:
    """vector_env: one action index per game, autoreset in the same step."""
    envs: BatchEnv = vector_env("golf", num_envs, options={"rounds": 1})
    obs, infos = envs.reset(seed=seed)
    steps = 0
    for _ in range(5):
        actions = [int(np.flatnonzero(row)[0]) for row in obs["action_mask"]]
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        assert rewards.shape == terminated.shape == truncated.shape == (num_envs,) and isinstance(
            infos, dict
        )
        steps += 1
    envs.close()
    return steps


def encode(seed: int = 4) -> tuple[int, ...]:
    """observe() with the game's own encoding; win_rewards."""
    game = cardcore.new_game("golf", 2, seed=seed)
    arrays = observe(game, 0, encoding_for(game))
    shares: list[float] = win_rewards([0], 2)
    assert shares[0] > shares[1]
    shape: tuple[int, ...] = arrays["observation"].shape
    return shape
