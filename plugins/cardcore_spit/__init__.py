"""Spit and its close variant Speed: real-time two-player shedding games.

Spit: :mod:`~cardcore_spit.rules` (the ``spit`` entry point), :mod:`~cardcore_spit.hookspecs`,
:mod:`~cardcore_spit.actions`, :mod:`~cardcore_spit.events`, :mod:`~cardcore_spit.state`,
:mod:`~cardcore_spit.logic` (the engine), :mod:`~cardcore_spit.views`,
:mod:`~cardcore_spit.position`, :mod:`~cardcore_spit.piles` (pure helpers),
:mod:`~cardcore_spit.agents` and one module per house rule under :mod:`~cardcore_spit.house`.
Speed lives in :mod:`cardcore_spit.speed` with the same module names.
"""

from __future__ import annotations

__version__ = "0.3.0"
