"""Spit and its close variant Speed: real-time two-player shedding games.

Modules: :mod:`cardcore_spit.rules` (the ``spit`` game plugin),
:mod:`cardcore_spit.speed` (the ``speed`` game plugin), :mod:`cardcore_spit.logic`
(pure functions), :mod:`cardcore_spit.table` (Spit's engine),
:mod:`cardcore_spit.hookspecs` (Spit's own hooks), :mod:`cardcore_spit.agents`
(bots) and one module per house rule under :mod:`cardcore_spit.house`.
"""

from __future__ import annotations
