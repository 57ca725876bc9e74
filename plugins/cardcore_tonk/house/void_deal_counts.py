"""TONK-VAR-7 (house rule ``tonk.void-deal-counts``): Tonk's void deal before 0.4.0.

Since 0.4.0 a void deal (two or more naturals) is dealt again by the next dealer
and is not one of the session's hands, so a session never ends on one. Before, it
counted as a hand: a one-hand session ended on it, reason ``"void"``, with nothing
played. Tonk records made before 0.4.0 replay with this rule
(``RuleInfo.default_before``).
"""

from __future__ import annotations

from cardcore import RuleInfo, hookimpl

__all__ = ["RULE", "tonk_void_deal_counts"]

RULE = RuleInfo(
    id="TONK-VAR-7",
    name="tonk.void-deal-counts",
    game="tonk",
    summary="A void deal is one of the session's hands (Tonk before 0.4.0)",
    default_before="0.4.0",  # Tonk's own behaviour until 0.4.0: its records replay with it
)
"""The rule's description."""


@hookimpl
def tonk_void_deal_counts() -> bool:
    """A void deal counts as one of the session's hands (TONK-VAR-7)."""
    return True
