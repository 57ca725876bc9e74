"""RL fixes of 2026-12-11: stale told when selected and bytes as rules."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardcore.errors import ArgumentError
from cardcore.rl import aec_env, gym_env, vector_env


def test_aec_stale_is_shown_only_to_the_selected_agent_and_cleared_after_it_steps() -> None:
    env = aec_env("speed", 2, reaction=[0.5, 3.0])
    env.reset(seed=2)
    told = 0
    for agent in env.agent_iter(3000):
        obs, _, term, trunc, info = env.last()
        assert all(not i.get("stale") for a, i in env.infos.items() if a != agent)
        if info.get("stale"):
            told += 1
        if term or trunc:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert not env.infos[agent].get("stale") or env.agent_selection == agent
    assert told


@pytest.mark.parametrize("build", [aec_env, gym_env, vector_env])
@pytest.mark.parametrize("key", ["rules", "without"])
@pytest.mark.parametrize("names", [b"golf.jokers", bytearray(b"golf.jokers"), {"golf.jokers": 1}])
def test_bytes_or_mapping_as_rules_is_an_argument_error(build: Any, key: str, names: Any) -> None:
    args = ("golf", 2, 2) if build is vector_env else ("golf", 2)
    with pytest.raises(ArgumentError, match=f"{key} takes a list of names"):
        build(*args, **{key: names})
