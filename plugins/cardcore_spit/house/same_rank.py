"""SPIT-MOVE-12 (house rule ``spit.same-rank``): equal-rank plays allowed.

A card may also be played onto a spit pile whose top card has the same rank
(the older variant; the base game forbids it).
"""

from __future__ import annotations

from cardcore import RuleInfo, hookimpl

__all__ = ["RULE", "spit_rank_gaps"]

RULE = RuleInfo(
    id="SPIT-MOVE-12",
    name="spit.same-rank",
    game="spit",
    summary="A card may be played onto a spit pile of the same rank",
)
"""The rule's description."""


@hookimpl
def spit_rank_gaps() -> list[int]:
    """Add the difference 0: equal ranks (SPIT-MOVE-12)."""
    return [0]
