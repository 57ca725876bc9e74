"""RL fixes of 2026-12-11: stale told when selected, bytes as rules, reset settings named."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardcore.errors import ArgumentError, OptionError
from cardcore.rl import aec_env, gym_env, vector_env

GOLF1 = {"rounds": 1}


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


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"rewards": "score"}, "rewards="),
        ({"max_actions": 5}, "max_actions="),
        ({"reaction": 1.0}, "reaction="),
        ({"players": 3}, "players="),
        ({"rounds": 3}, "options="),
        ({"options": {"rounds": 2}}, "options="),
    ],
)
def test_reset_names_where_a_setting_goes(options: dict[str, Any], named: str) -> None:
    envs: list[tuple[str, Any]] = [
        ("aec_env", aec_env("golf", 2, options=GOLF1)),
        ("gym_env", gym_env("golf", 2, options=GOLF1)),
        ("vector_env", vector_env("golf", 2, options=GOLF1)),
    ]
    for builder, env in envs:
        with pytest.raises(OptionError, match=rf"{builder}\(\.\.\., {named}") as info:
            env.reset(options=options)
        if named != "options=":
            assert "options={" not in str(info.value)


def test_reset_with_another_builders_parameter_names_the_builders_that_take_it() -> None:
    with pytest.raises(OptionError, match="seat= is a parameter of gym_env and vector_env"):
        aec_env("golf", 2, options=GOLF1).reset(options={"seat": 1})
    with pytest.raises(OptionError, match=r"gym_env\(\.\.\., seat="):
        gym_env("golf", 2, options=GOLF1).reset(options={"seat": 1})
    with pytest.raises(OptionError, match="render_mode= is a parameter of aec_env and gym_env"):
        vector_env("golf", 2, options=GOLF1).reset(options={"render_mode": "ansi"})


def test_reset_refusal_changes_nothing_and_aec_still_takes_other_keys() -> None:
    env = aec_env("golf", 2, options=GOLF1)
    env.reset(seed=4)
    game = env.match.game if env.match else None
    with pytest.raises(OptionError):
        env.reset(options={"rewards": "score", "foo": 1})
    assert env.match is not None and env.match.game is game
    assert env.config.rewards == "win"
    env.reset(seed=4, options={"foo": 1, "options": 1})
