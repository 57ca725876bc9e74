"""Bad input to the environments: a clear cardcore error, and nothing changes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardcore import OptionError
from cardcore.rl import aec_env, gym_env, vector_env
from cardcore.setup import MAX_SEED_BITS

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
