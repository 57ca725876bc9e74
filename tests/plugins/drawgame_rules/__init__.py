"""Test house rules for the draw game, one rule per module (like a game's ``house/``)."""

from __future__ import annotations

from tests.plugins.drawgame_rules import boom, kings_free, no_hearts, penalty

RULES = (kings_free, no_hearts, penalty, boom)
"""Every module here (``tests/conftest.py`` registers them)."""

__all__ = ["RULES", "boom", "kings_free", "no_hearts", "penalty"]
