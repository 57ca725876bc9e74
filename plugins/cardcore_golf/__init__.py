"""Golf for cardcore: every layout of the seed (6, 8, 9, 10-card grids, 4 face down, 4 in hand),
match play over rounds, and each house rule as its own plugin under :mod:`cardcore_golf.house`.

The game plugin is :mod:`cardcore_golf.rules` (entry point ``golf``); the engine is
:class:`cardcore_golf.logic.GolfLogic`; the pure grid, deck and cancelling helpers are in
:mod:`cardcore_golf.grids`; the position notation is in :mod:`cardcore_golf.position`. The
rule spec is ``seeds/golf.md``.
"""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.2.0"
