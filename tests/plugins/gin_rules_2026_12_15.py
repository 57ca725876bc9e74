"""House rule Oklahoma for the 2026-12-15 Gin Rummy test plugin (rule GIN-VAR-1).

One rule per module (docs/plugin-guide/house-rule.rst), implementing the game's own hook
``gin_knock_limit`` (docs/plugin-guide/hookspecs.rst): the value of the hand's upcard sets
the knock limit (J/Q/K 10, 2-10 face value); an ace upcard means gin only (limit 0). The rule
needs no parameter, so it declares no option.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore import Card, RuleInfo, hookimpl

NAME = "gin-2026-12-15.oklahoma"

RULE = RuleInfo(
    id="GIN-VAR-1",
    name=NAME,
    game="gin-2026-12-15",
    summary="Oklahoma: the upcard's value is the knock limit; an ace upcard means gin only",
    version="1.0.0",
)


@hookimpl
def gin_knock_limit(upcard: Card, options: Mapping[str, Any]) -> int:
    """GIN-VAR-1: the upcard's deadwood value; an ace allows gin only."""
    return 0 if upcard.rank == 1 else min(upcard.rank, 10)
