"""The Go Fish game plugin (entry point ``gofish = "cardcore_gofish.rules"``).

``GAME`` describes the game and the fields of its view (the hands and books
themselves are in ``view["zones"]``); ``create_logic`` builds its engine once
per configuration. The deck is the core's default: one standard 52-card deck.
"""

from __future__ import annotations

from cardcore import GameInfo, Ruleset, ViewField, hookimpl
from cardcore_gofish import __version__
from cardcore_gofish.logic import GoFishLogic

GAME = GameInfo(  # GOFISH-SEAT-1: 2 to 6 players
    "gofish", "Go Fish: ask for ranks you hold, lay down books of four; most books wins", 2, 6,
    version=__version__, fields=(
        ViewField("stock", "int", "Cards left in the stock."),
        ViewField("books", "per-seat", "Books of four each seat has laid down.", of="int"),
        ViewField("asked", "per-seat", "Ranks each seat asked for and still holds.", of="json"),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> GoFishLogic:
    """Build the engine of a configuration of Go Fish."""
    return GoFishLogic(ruleset)
