"""rl.rst: ``env.match.game.record_entries()`` and ``env.match.game.clone()`` after reset.

``CardEnv.match`` is typed ``Match | None``; the other pre-reset attributes raise "call reset()".
"""

from cardcore.rl import aec_env

env = aec_env("golf", 2, options={"rounds": 1})
env.reset(seed=7)
env.step(10)
first = env.match.game.record_entries()[0][1].notation()
copy = env.match.game.clone()
