"""SPOONS-VAR-1 (``spoons.short-word``): a shorter (or longer) word puts a player out.

Instead of the five letters of S-P-O-O-N a player is out at ``spoons_letters``
letters (PIG: 3). The rule answers Spoons' own hook ``spoons_out_at``, which is
given the options, so its own option steers the answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore import Option, RuleInfo, hookimpl

RULE = RuleInfo(
    id="SPOONS-VAR-1",
    name="spoons.short-word",
    game="spoons",
    summary="Out at spoons_letters letters instead of the five of S-P-O-O-N (PIG: 3)",
    version="1.0.0",
    options=(
        Option(
            "spoons_letters",
            default=3,
            minimum=1,
            maximum=10,
            doc="How many letters put a player out",
            rule_id="SPOONS-VAR-1",
        ),
    ),
)


@hookimpl
def spoons_out_at(options: Mapping[str, Any]) -> int:
    """Out at the rule's own number of letters."""
    return int(options["spoons_letters"])
