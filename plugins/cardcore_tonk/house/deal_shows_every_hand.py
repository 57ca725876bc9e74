"""TONK-VAR-8 (house rule ``tonk.deal-shows-every-hand``): Tonk's natural before 0.5.0.

Since 0.5.0 a natural shows only its holder's hand, and a void deal only the
naturals' (TONK-49-1/2: the holder "must declare it and show their cards").
Before, a hand settled at the deal showed every hand. Tonk records and saves made
before 0.5.0 replay with this rule (``RuleInfo.default_before``), so they load as
they were saved.
"""

from __future__ import annotations

from cardcore import RuleInfo, hookimpl

__all__ = ["RULE", "tonk_deal_shows_every_hand"]

RULE = RuleInfo(
    id="TONK-VAR-8",
    name="tonk.deal-shows-every-hand",
    game="tonk",
    summary="A hand settled at the deal shows every hand (Tonk before 0.5.0)",
    default_before="0.5.0",  # Tonk's own behaviour until 0.5.0: its records replay with it
)
"""The rule's description."""


@hookimpl
def tonk_deal_shows_every_hand() -> bool:
    """A natural or a void deal shows every hand (TONK-VAR-8)."""
    return True
