"""HOLDEM-ANTE-1: every seat dealt into a hand posts an ante of ``ante`` chips first.

A house rule of ``holdem-2026-12-14`` (docs/plugin-guide/house-rule.rst): it answers the
game's own hook ``holdem_ante`` with its own option, ``ante`` (bounded 1..50). The ante
goes into the pot, not into the round's bets; a seat short of it goes all-in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore import Option, RuleInfo, hookimpl

NAME = "holdem-2026-12-14.ante"

RULE = RuleInfo(
    id="HOLDEM-ANTE-1",
    name=NAME,
    game="holdem-2026-12-14",
    summary="Every seat in a hand posts an ante before the blinds",
    options=(
        Option(
            "ante",
            1,
            "Chips each seat antes every hand",
            minimum=1,
            maximum=50,
            rule_id="HOLDEM-ANTE-1",
        ),
    ),
)


@hookimpl
def holdem_ante(options: Mapping[str, Any]) -> int:
    """The ante is the rule's own option."""
    return int(options["ante"])
