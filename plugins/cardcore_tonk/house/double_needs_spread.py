"""TONK-VAR-3: a tonk-out pays double only if the player laid a new spread that turn.

A player who empties the hand by hits alone (no discard, no new spread) is paid
the basic stake S; with at least one new spread in that turn, 2S as usual.
"""

from __future__ import annotations

from cardcore import RuleInfo, hookimpl

__all__ = ["RULE", "tonk_out_units"]

RULE = RuleInfo(
    id="TONK-VAR-3",
    name="tonk.double-needs-spread",
    game="tonk",
    summary="A tonk-out pays 2S only with a new spread that turn; by hits alone S",
    conflicts=(),
)


@hookimpl
def tonk_out_units(new_spread: bool) -> int:
    """TONK-VAR-3: 2 stakes with a new spread, else 1."""
    return 2 if new_spread else 1
