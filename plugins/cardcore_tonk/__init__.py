"""cardcore's built-in Tonk (Tunk): a knock rummy for 2 or 3 players (4 by option), played for stakes.

One shape, as every cardcore game: :mod:`~cardcore_tonk.rules` (the entry point
``tonk``: ``GAME`` and the game's hookimpls), :mod:`~cardcore_tonk.hookspecs`,
:mod:`~cardcore_tonk.actions`, :mod:`~cardcore_tonk.events`,
:mod:`~cardcore_tonk.state`, :mod:`~cardcore_tonk.logic` (the engine,
``TonkLogic``), :mod:`~cardcore_tonk.views`, :mod:`~cardcore_tonk.position`,
:mod:`~cardcore_tonk.melds` (pure helpers: spreads, hits, payouts),
:mod:`~cardcore_tonk.agents` and :mod:`~cardcore_tonk.house` (one house rule
per module). The rule specification is ``seeds/tonk.md``.
"""

from __future__ import annotations

__version__ = "0.5.0"
