"""The Go Fish game plugin (entry point ``gofish = "cardcore_gofish.rules"``).

``GAME`` describes the game; ``create_logic`` builds its engine once per
configuration. The deck is the core's default: one standard 52-card deck.
"""

from __future__ import annotations

from cardcore import GameInfo, Ruleset, hookimpl
from cardcore_gofish import __version__
from cardcore_gofish.logic import GoFishLogic
from cardcore_gofish.views import FIELDS

GAME = GameInfo(  # GOFISH-SEAT-1: 2 to 6 players
    "gofish", "Go Fish: ask for ranks you hold, lay down books of four; most books wins", 2, 6,
    version=__version__, fields=FIELDS,
)


@hookimpl
def create_logic(ruleset: Ruleset) -> GoFishLogic:
    """Build the engine of a configuration of Go Fish."""
    return GoFishLogic(ruleset)
