"""TONK-VAR-6 (house rule ``tonk.quiet-round-any-turns``): Tonk's quiet round before 0.4.0.

Under ``tonk.stock-out-discard-only`` (TONK-VAR-5) a hand ends after a full round
of quiet turns. Since 0.4.0 only turns played from the discards with the stock out
count; before, every turn without a spread or a hit counted, those before the stock
ran out included, so the variant mostly played as the base rule. Tonk records made
before 0.4.0 replay with this rule (``RuleInfo.default_before``); without
TONK-VAR-5 it changes nothing.
"""

from __future__ import annotations

from cardcore import RuleInfo, hookimpl

__all__ = ["RULE", "tonk_quiet_from_discards"]

RULE = RuleInfo(
    id="TONK-VAR-6",
    name="tonk.quiet-round-any-turns",
    game="tonk",
    summary="A quiet round counts every turn without a spread or hit (Tonk before 0.4.0)",
    default_before="0.4.0",  # Tonk's own behaviour until 0.4.0: its records replay with it
)
"""The rule's description."""


@hookimpl
def tonk_quiet_from_discards() -> bool:
    """Every turn without a spread or a hit is quiet (TONK-VAR-6)."""
    return False
