"""What the lobby offers (``GET /api/games``): every installed game and the agents that play it.

Nothing here is public; :meth:`cardcore.web.app.WebServer.games` answers with it.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from cardcore.agents import check_agent
from cardcore.errors import CardcoreError
from cardcore.plugins import (
    agent_parameters,
    available_agents,
    available_games,
    available_rules,
    game_info,
    load_agent,
    rule_info,
)
from cardcore.web._requests import _first_line

__all__ = ["lobby_games"]

LOG = logging.getLogger("cardcore.web")


def lobby_games() -> list[dict[str, Any]]:
    """What the lobby offers: every installed game with its seats, options, rules and agents."""
    agents = []
    for name in available_agents():
        with contextlib.suppress(CardcoreError):
            factory = load_agent(name)
            agents.append((name, factory, agent_parameters(name)))
    agents.sort(key=lambda a: not getattr(a[1], "games", None))  # games' own first: default bots
    out = []
    for name in available_games():
        try:
            info = game_info(name)
        except CardcoreError as exc:  # a broken plugin: the others are offered (`cardcore list`)
            LOG.warning("game %r is left out of the lobby: %s", name, exc)
            continue
        defaults = set(info.default_rules)
        served = []
        for agent, factory, params in agents:
            try:
                check_agent(agent, factory, info)
            except CardcoreError:
                continue
            bounds = getattr(factory, "parameter_bounds", None) or {}
            served.append(
                {
                    "name": agent,
                    "params": params,
                    "bounds": {k: list(v) for k, v in bounds.items()},
                    "doc": _first_line(factory.__doc__),
                }
            )
        out.append(
            {
                "name": name,
                "summary": info.summary,
                "realtime": info.realtime,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "options": [o.to_json() for o in info.options],
                "rules": [  # a default rule is on unless switched off; its own options
                    {
                        "name": r,
                        "summary": rule_info(r).summary,
                        "default": r in defaults,
                        "options": [o.to_json() for o in rule_info(r).options],
                    }
                    for r in available_rules(name)
                ],
                "agents": served,
            }
        )
    return out
