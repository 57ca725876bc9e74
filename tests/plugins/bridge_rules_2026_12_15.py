"""MB-HOUSE-DOUBLE-1: a double is allowed only against a bid of level ``double_from`` or more.

A house rule of the Mini Bridge test plugin (``tests/plugins/bridge_2026_12_15.py``), a
veto only (:hook:`forbid_action`) with its own bounded option. ``pass`` stays legal, so a
seat is never left without an action.
"""

from __future__ import annotations

from cardcore import Action, GameState, Option, RuleInfo, Veto, hookimpl
from tests.plugins.bridge_2026_12_15 import NAME as GAME_NAME
from tests.plugins.bridge_2026_12_15 import read_calls

NAME = f"{GAME_NAME}.double-floor"

RULE = RuleInfo(
    id="MB-HOUSE-DOUBLE-1",
    name=NAME,
    game=GAME_NAME,
    summary="Doubles only against a bid of level double_from or higher",
    version="1.0.0",
    options=(
        Option(
            "double_from",
            default=3,
            minimum=1,
            maximum=7,
            doc="The lowest bid level that may be doubled",
            rule_id="MB-HOUSE-DOUBLE-1",
        ),
    ),
)


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    """Veto ``double`` of a bid below ``double_from``."""
    if action.verb != "double":
        return None
    calls = getattr(state, "calls", [])
    level = read_calls(calls, int(state.options["dealer"])).level
    floor = int(state.options["double_from"])
    if level is not None and level < floor:
        return Veto("MB-HOUSE-DOUBLE-1", f"only a bid of level {floor} or more may be doubled")
    return None
