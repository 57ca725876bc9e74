"""rl.rst's first example: ``obs["observation"]`` right after ``env.last()``.

CardEnv inherits PettingZoo's ``last() -> tuple[ObsType | None, ...]``; ``last()`` (observe
defaults to True) always returns an observation here, so an overload would type it.
"""

from cardcore.rl import aec_env

env = aec_env("golf", 2, options={"rounds": 1})
env.reset(seed=7)
obs, reward, terminated, truncated, info = env.last()
shape = obs["observation"].shape, obs["observation"].dtype, obs["action_mask"].shape
