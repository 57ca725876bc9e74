"""Test-only house rules whose ``score_round`` fails on demand, like a service that went down.

``SWITCH["on"]`` makes every call raise ``SWITCH["error"]`` (``RuntimeError`` by default);
``SWITCH["calls"]`` counts the calls. Registered by :func:`register`.
"""

from __future__ import annotations

import contextlib
import types
from collections.abc import Sequence
from typing import Any

import cardcore
from cardcore import GameState, RuleInfo, hookimpl

SWITCH: dict[str, Any] = {"on": False, "calls": 0, "error": RuntimeError}


def reset(on: bool = False, error: Any = RuntimeError) -> None:
    SWITCH.update(on=on, calls=0, error=error)


@hookimpl
def score_round(state: GameState, scores: Sequence[int]) -> Sequence[int] | None:
    SWITCH["calls"] += 1
    if SWITCH["on"]:
        raise SWITCH["error"]("the scoring service is down")
    return None


@hookimpl
def golf_scorer(layout: Any) -> Any:
    """A house rule's scorer (a function the hook answers) that fails like the service."""
    from cardcore_golf.grids import default_scorer

    inner = default_scorer(layout)

    def score(keys: Any, points: Any) -> int:
        SWITCH["calls"] += 1
        if SWITCH["on"]:
            raise SWITCH["error"]("the scoring service is down")
        result: int = inner(keys, points)
        return result

    return score


def _scorer_module() -> types.ModuleType:
    module = types.ModuleType("tests.hardening.flaky_scorer")
    rule = RuleInfo("TEST-FLAKY-SCORER", "golf.flaky-scorer", "golf", "the scorer may fail")
    vars(module).update(RULE=rule, golf_scorer=golf_scorer)
    return module


def _module(game: str) -> types.ModuleType:
    module = types.ModuleType(f"tests.hardening.flaky_{game}")
    rule = RuleInfo(f"TEST-FLAKY-{game.upper()}", f"{game}.flaky", game, "score_round may fail")
    vars(module).update(RULE=rule, score_round=score_round)
    return module


MODULES = {f"{game}.flaky": _module(game) for game in ("golf", "drawgame", "tonk")}
MODULES["golf.flaky-scorer"] = _scorer_module()


def register() -> None:
    """Register ``golf.flaky``, ``drawgame.flaky``, ``tonk.flaky``, ``golf.flaky-scorer``."""
    for name, module in MODULES.items():
        cardcore.register("cardcore.rules", name, module)


def unregister() -> None:
    """Remove what :func:`register` added (other tests list every installed rule)."""
    for name in MODULES:
        with contextlib.suppress(cardcore.UnknownPluginError):
            cardcore.unregister("cardcore.rules", name)
