"""rl.rst: ``env.unwrapped.runner.config.observer.names[wait]``: ``unwrapped`` is typed as
gymnasium's ``Env``, which has no ``runner`` (``env.runner`` type-checks).
"""

from cardcore.rl import gym_env

env = gym_env("spit", 2, opponents="spit-greedy", wait=True)
name = env.unwrapped.runner.config.observer.names[0]
