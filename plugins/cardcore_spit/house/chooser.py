"""SPIT-END-3 (house rule ``spit.chooser``): the emptier chooses the pile.

No slap race: when a two-pile deal ends, only the player who emptied their
layout acts, with ``choose L`` or ``choose R``; the opponent takes the other
pile.
"""

from __future__ import annotations

from cardcore import RuleInfo, hookimpl
from cardcore_spit.actions import ClaimRule

__all__ = ["CHOOSE", "RULE", "spit_claim_rule"]

RULE = RuleInfo(
    id="SPIT-END-3",
    name="spit.chooser",
    game="spit",
    summary="The player who empties their layout chooses a spit pile instead of a slap race",
)
"""The rule's description."""

CHOOSE = ClaimRule(word="choose", emptier_only=True, rule_id="SPIT-END-3")
"""The claim rule this house rule installs."""


@hookimpl
def spit_claim_rule() -> ClaimRule:
    """Only the emptier claims, with ``choose`` (SPIT-END-3)."""
    return CHOOSE
