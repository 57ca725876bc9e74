"""TONK-VAR-1: no upcard; the discard pile starts with the first player's discard.

The first player can only draw from the stock, because there is nothing to
take. The 49/50 check, if installed, still runs after the deal (TONK-GAP-13).
"""

from __future__ import annotations

from cardcore import RuleInfo, hookimpl

__all__ = ["RULE", "tonk_upcard"]

RULE = RuleInfo(
    id="TONK-VAR-1",
    name="tonk.no-upcard",
    game="tonk",
    summary="No upcard after the deal; the discard pile starts with the first discard",
    conflicts=(),
)


@hookimpl
def tonk_upcard() -> bool:
    """TONK-VAR-1: turn no upcard."""
    return False
