"""Speed, Spit's close cousin: the ``speed`` game (entry point :mod:`cardcore_spit.speed.rules`).

The same module names with the same roles as Spit's: :mod:`~cardcore_spit.speed.rules`,
:mod:`~cardcore_spit.speed.actions`, :mod:`~cardcore_spit.speed.state`,
:mod:`~cardcore_spit.speed.logic` (the engine), :mod:`~cardcore_spit.speed.views` and
:mod:`~cardcore_spit.speed.position`. It shares Spit's events, pure helpers
(:mod:`cardcore_spit.piles`) and agents.
"""

from __future__ import annotations
