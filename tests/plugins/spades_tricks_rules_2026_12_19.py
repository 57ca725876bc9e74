"""House rule for ``spades-tricks``: the bag penalty comes at a bag limit of the table's
choice (SPT-BAG-2), one bounded option ``bag_limit`` (3 to 25 bags, default 5)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore import Option, RuleInfo, hookimpl

RULE = RuleInfo(
    id="SPT-BAG-2",
    name="spades-tricks.bag-limit",
    game="spades-tricks",
    summary="Every bag_limit bags (not 10) cost a team 100 points",
    version="1.0.0",
    options=(
        Option(
            "bag_limit",
            5,
            "Bags that cost a team 100 points.",
            minimum=3,
            maximum=25,
            rule_id="SPT-BAG-2",
        ),
    ),
)


@hookimpl
def spades_bag_limit(options: Mapping[str, Any]) -> int:
    """SPT-BAG-2: the table's bag limit replaces the game's 10."""
    return int(options["bag_limit"])
