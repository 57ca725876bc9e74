"""House rule for ``cheat-2026-12-14``: a turn lays at most ``max_cards`` cards (CHEATMAX-1).

It answers the game's own hook ``cheat_max_cards`` with its option; no ``if`` in the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore import Option, RuleInfo, hookimpl

NAME = "cheat-2026-12-14.max-cards"

RULE = RuleInfo(
    id="CHEATMAX-1",
    name=NAME,
    game="cheat-2026-12-14",
    summary="A turn lays at most max_cards cards (1 to 4)",
    options=(
        Option(
            "max_cards",
            default=2,
            minimum=1,
            maximum=4,
            doc="The most cards one turn may lay",
            rule_id="CHEATMAX-1",
        ),
    ),
)


@hookimpl
def cheat_max_cards(options: Mapping[str, Any]) -> int:
    """The turn's limit is the rule's own option."""
    return int(options["max_cards"])
