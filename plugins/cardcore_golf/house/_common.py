"""Helpers shared by the Golf house rules (not a plugin)."""

from __future__ import annotations

from collections.abc import Collection

from cardcore.errors import OptionError
from cardcore.info import RuleInfo
from cardcore_golf.logic import Layout

__all__ = ["FOUR_CARD", "SIX_FAMILY", "TWO_ROW", "check_layout"]

SIX_FAMILY = frozenset({"6", "8", "9", "10"})
"""GOLF6 and the layouts built on it."""
TWO_ROW = frozenset({"6", "8", "10"})
"""The two-row grids whose columns pair (GOLF6, GOLF8, GOLF10)."""
FOUR_CARD = frozenset({"4", "4h"})
"""GOLF4 and GOLF4H."""


def check_layout(rule: RuleInfo, layout: Layout, allowed: Collection[str]) -> None:
    """Raise :class:`~cardcore.OptionError` unless *layout* is one *rule* serves.

    :param rule: The house rule's ``RULE``.
    :param layout: The chosen layout.
    :param allowed: The layout keys the rule serves.
    :raises OptionError: For any other layout.
    """
    if layout.key not in allowed:
        names = ", ".join(sorted(allowed, key=lambda k: (len(k), k)))
        msg = (
            f"house rule {rule.name!r} does not apply to layout {layout.key!r}"
            f" (only {names}) ({rule.id})"
        )
        raise OptionError(msg)
