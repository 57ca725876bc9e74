"""The Speed game plugin: ``GAME`` and its hook implementation.

Entry point ``speed = "cardcore_spit.speed"`` (group ``cardcore.games``). Speed
shares Spit's real-time model and adjacency; its engine is
:mod:`cardcore_spit.speed_table`.
"""

from __future__ import annotations

from cardcore.info import GameInfo, Option
from cardcore.logic import GameLogic
from cardcore.plugins import Ruleset, hookimpl
from cardcore_spit.speed_table import SpeedLogic

__all__ = ["GAME", "create_logic"]

GAME = GameInfo(
    name="speed",
    summary="Speed: two players race to shed a hand and stock onto two play piles",
    min_players=2,
    max_players=2,
    options=(
        Option("side_pile", 5, "cards per side pile: 5 (20 cards each) or 15 (10 each) (SPEED-SETUP-2)", int, choices=(5, 15)),
        Option("jokers", 0, "jokers in the deck, wild (SPEED-GEN-2, SPEED-PLAY-3)", int, choices=(0, 2)),
    ),
    realtime=True,
    version="0.1.0",
)
"""The game's static description (SPEED-GEN-1: exactly two players)."""


@hookimpl
def create_logic(ruleset: Ruleset) -> GameLogic:
    """Build the Speed engine for *ruleset*."""
    return SpeedLogic(ruleset)
