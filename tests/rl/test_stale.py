"""Real time: a decision dropped unapplied (overtaken by another seat) is flagged to whoever made it."""

from __future__ import annotations

from typing import Any

import numpy as np

from cardcore.rl import aec_env, gym_env, vector_env


def _legal(mask: Any, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def test_gym_learner_told_stale_exactly_when_its_action_was_dropped() -> None:
    env = gym_env("speed", opponents="spit-greedy", reaction=2.0)
    rng = np.random.default_rng(1)
    stale = applied = 0
    for episode in range(3):
        obs, _ = env.reset(seed=episode)
        done = False
        while not done:
            runner = env.unwrapped.runner  # type: ignore[attr-defined]
            before = runner.match.dropped[0]
            obs, _, term, trunc, info = env.step(_legal(obs["action_mask"], rng))
            done = term or trunc
            dropped = runner.match.dropped[0] != before
            assert info.get("stale", False) is dropped
            stale += dropped
            applied += not dropped
    assert stale > 0 and applied > 0  # a slow learner is overtaken, and also plays


def test_vector_infos_mark_the_games_whose_action_was_dropped() -> None:
    env = vector_env("speed", 4, opponents="spit-greedy", reaction=2.0)
    rng = np.random.default_rng(2)
    obs, _ = env.reset(seed=5)
    seen = 0
    for _ in range(200):
        actions = np.array([_legal(m, rng) for m in obs["action_mask"]])
        obs, _, _, _, infos = env.step(actions)
        if "stale" in infos:
            assert infos["stale"].dtype == np.bool_
            assert infos["_stale"].tolist() == infos["stale"].tolist()
            seen += int(infos["stale"].sum())
    assert seen > 0


def test_aec_agent_told_stale_when_its_plan_was_dropped_and_only_then() -> None:
    env = aec_env("speed", 2)
    rng = np.random.default_rng(3)
    flagged = 0
    for episode in range(3):
        env.reset(seed=episode)
        owed = {a: False for a in env.possible_agents}
        for agent in env.agent_iter(5000):
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            assert info.get("stale", False) is owed[agent], (episode, agent)
            flagged += owed[agent]
            match = env.unwrapped.match  # type: ignore[attr-defined]
            before = match.dropped[:]
            env.step(_legal(obs["action_mask"], rng))
            owed[agent] = False
            for s, n in enumerate(before):
                if match.dropped[s] != n:
                    owed[env.possible_agents[s]] = True
    assert flagged > 0
