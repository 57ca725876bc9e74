"""RATS-VAR-1 (house rule ``ratscrew-2026-12-16.top-bottom``): the top-bottom slap.

The center pile may also be slapped when its top card and its bottom card are a pair,
once it holds at least ``top_bottom_min`` cards (3 to 52, default 3: with two cards a
top-bottom pair is just doubles). The rule answers the game's own hook
``ratscrew_slap_pattern``; the game's doubles and sandwich still count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcore import Card, Option, RuleInfo, hookimpl

NAME = "ratscrew-2026-12-16.top-bottom"

RULE = RuleInfo(
    id="RATS-VAR-1",
    name=NAME,
    game="ratscrew-2026-12-16",
    summary="Slap when the top and bottom cards of the center are a pair",
    version="1.0.0",
    options=(
        Option(
            "top_bottom_min",
            default=3,
            minimum=3,
            maximum=52,
            doc="Fewest center cards for a top-bottom slap",
        ),
    ),
)


@hookimpl
def ratscrew_slap_pattern(center: Sequence[Card], options: Mapping[str, Any]) -> str | None:
    """``"top-bottom"`` when the top and bottom cards pair and the pile is big enough."""
    if len(center) >= options["top_bottom_min"] and center[0].rank == center[-1].rank:
        return "top-bottom"
    return None
