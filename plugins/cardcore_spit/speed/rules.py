"""The Speed game plugin: ``GAME`` and the game's own hook implementations.

Entry point ``speed = "cardcore_spit.speed.rules"`` (group ``cardcore.games``).
Speed shares Spit's real-time model and adjacency; its engine is
:class:`cardcore_spit.speed.logic.SpeedLogic`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore import Card, GameInfo, Option, Ruleset, hookimpl, standard_52, with_jokers
from cardcore_spit import __version__
from cardcore_spit.speed import hookspecs, views
from cardcore_spit.speed.logic import SpeedLogic

__all__ = ["GAME", "build_deck", "create_logic", "speed_stuck_detection"]

GAME = GameInfo(
    name="speed",
    summary="Speed: two players race to shed a hand and stock onto two play piles",
    min_players=2,
    max_players=2,
    options=(
        Option(
            "side_pile",
            5,
            "cards per side pile: 5 (20 cards each) or 15 (10 each) (SPEED-SETUP-2)",
            int,
            choices=(5, 15),
            minimum=5,
            maximum=15,
            rule_id="SPEED-SETUP-2",
        ),
        Option(
            "jokers",
            0,
            "jokers in the deck, wild (SPEED-GEN-2, SPEED-PLAY-3)",
            int,
            choices=(0, 2),
            minimum=0,
            maximum=2,
            rule_id="SPEED-GEN-2",
        ),
    ),
    realtime=True,
    version=__version__,
    fields=views.FIELDS,
    hookspecs=hookspecs,
    notes=views.notes,  # the side cards turning, in words (SPEED-STUCK-1/2)
)
"""The game's static description (SPEED-GEN-1: exactly two players)."""


@hookimpl
def create_logic(ruleset: Ruleset) -> SpeedLogic:
    """Build the Speed engine for *ruleset*."""
    return SpeedLogic(ruleset)


@hookimpl
def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
    """One 52-card deck plus ``options["jokers"]`` jokers (SPEED-GEN-1/2)."""
    return with_jokers(standard_52(), int(options["jokers"]))


@hookimpl(trylast=True)
def speed_stuck_detection() -> bool:
    """The game sees when neither player can play (SPEED-STUCK-1)."""
    return True
