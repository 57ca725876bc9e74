"""Helpers shared by the Golf house rules (not a plugin)."""

from __future__ import annotations

from collections.abc import Mapping

from cardcore_golf.grids import option_values

__all__ = ["FOUR_CARD", "SIX_FAMILY", "TWO_ROW", "applies"]

SIX_FAMILY = ("6", "8", "9", "10")
"""GOLF6 and the layouts built on it (their keys)."""
TWO_ROW = ("6", "8", "10")
"""The two-row grids whose columns pair (GOLF6, GOLF8, GOLF10)."""
FOUR_CARD = ("4", "4h")
"""GOLF4 and GOLF4H."""


def applies(*keys: str) -> Mapping[str, tuple[int | str, ...]]:
    """Return ``RuleInfo.applies`` for a rule that serves only the layouts *keys*.

    >>> applies("9")
    {'layout': (9,)}
    """
    return {"layout": option_values(*keys)}
