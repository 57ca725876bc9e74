"""Tonk's house rules, one plugin module each (entry-point group ``cardcore.rules``).

:data:`DEFAULT_RULES` names the house rules a Tonk game has unless switched off
with ``without=``; the base game reads it from here so that no base-game module
names a house rule.
"""

from __future__ import annotations

__all__ = ["DEFAULT_RULES"]

DEFAULT_RULES: tuple[str, ...] = ("tonk.natural-49-50",)
"""House rules on by default (TONK-49-1..3)."""
