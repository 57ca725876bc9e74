"""House rule for the 2026-12-14 Scopa test plugin: each scopa is worth ``scopa_value`` points.

A rule with an option of its own (docs/plugin-guide/house-rule.rst, "A rule's own
parameters"), implementing the game's own hook ``scopa_sweep_points``
(docs/plugin-guide/hookspecs.rst).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore import Option, RuleInfo, hookimpl

NAME = "scopa-2026-12-14.rich-scopa"

RULE = RuleInfo(
    id="SCOPA-VAR-1",
    name=NAME,
    game="scopa-2026-12-14",
    summary="Each scopa is worth scopa_value points",
    version="1.0.0",
    options=(Option("scopa_value", 2, "Points one scopa is worth", minimum=1, maximum=5),),
)


@hookimpl
def scopa_sweep_points(options: Mapping[str, Any]) -> int:
    """SCOPA-VAR-1: a scopa is worth the rule's ``scopa_value``."""
    return int(options["scopa_value"])
