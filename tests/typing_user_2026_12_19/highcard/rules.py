"""The entry point: ``GAME`` and ``create_logic``."""

from __future__ import annotations

from cardcore import GameInfo, Ruleset, ViewField, hookimpl

from . import __version__, hookspecs
from .logic import HighLogic

GAME = GameInfo(
    "typed-highcard",
    "Draw or stand; closest to 21 without going over wins",
    2,
    4,
    version=__version__,
    hookspecs=hookspecs,
    fields=(
        ViewField("stock", "int", "Cards left in the stock."),
        ViewField("stood", "per-seat", "Whether each seat has stood.", of="bool"),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> HighLogic:
    """Build the engine of one configuration."""
    return HighLogic(ruleset)
