"""cardcore's built-in Tonk (Tunk): a knock rummy for 2-3 (or 4) players, played for stakes.

The game plugin is :mod:`cardcore_tonk.rules` (entry point ``tonk``); its rules live in
:mod:`cardcore_tonk.game` (state, deal, turns, endings, views) and the pure functions of
:mod:`cardcore_tonk.logic`; its own hookspecs in :mod:`cardcore_tonk.hookspecs`; each
house rule is a module of :mod:`cardcore_tonk.house`; the heuristic agent is
:mod:`cardcore_tonk.agents`. The rule specification is ``seeds/tonk.md``.
"""

from __future__ import annotations

__all__: list[str] = []
