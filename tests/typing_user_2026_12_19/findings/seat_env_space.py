"""rl.rst: ``wait = env.action_space.n - 1`` on a gym_env: SeatEnv.action_space is typed
``Space[...]`` (no ``n``), though it is always a Discrete space.
"""

from cardcore.rl import gym_env

env = gym_env("spit", 2, opponents="spit-greedy", wait=True)
obs, info = env.reset(seed=3)
wait = env.action_space.n - 1
