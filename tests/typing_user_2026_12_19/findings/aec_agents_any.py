"""CardEnv's agent ids are typed Any (AECEnv is not parametrized): ``agent_selection``,
``agents``, ``rewards`` and ``agent_iter()``. Agents are ``"player_0"``... (str): mypy should
refuse this (expected error on the marked line).
"""

from cardcore.rl import aec_env

env = aec_env("golf", 2)
env.reset(seed=1)
selected: int = env.agent_selection  # expect-error
