"""The Go Fish game plugin (entry point ``gofish = "cardcore_gofish.rules"``).

``GAME`` describes the game and the fields of its view (the hands and books
themselves are in ``view["zones"]``); ``create_logic`` builds its engine once
per configuration. The deck is the core's default: one standard 52-card deck.
"""

from __future__ import annotations

import random

from cardcore import GameInfo, Ruleset, ViewField, hookimpl, shuffle
from cardcore_gofish import __version__
from cardcore_gofish.logic import GoFishLogic, consistent
from cardcore_gofish.state import GoFishState

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


@hookimpl
def determinize(state: GoFishState, seat: int, rng: random.Random) -> bool:
    """Re-deal the cards *seat* does not know among their places, each hand still holding
    what it asked for and no book (GOFISH-KNOW-1), as search agents' positions do."""
    zones = state.zones
    hidden = [[i for i in range(len(pile)) if not zones.knows(z, i, seat)] for z, pile in enumerate(zones.cards)]
    # sorted first: shuffled where they lie, the caller's generator could undo the shuffle
    cards = sorted((zones.cards[z][i] for z, places in enumerate(hidden) for i in places), key=str)
    shuffle(cards, rng)
    dealt = iter(cards)
    for z, places in enumerate(hidden):
        for i in places:
            zones.cards[z][i] = next(dealt)
    consistent(state, hidden)
    return True
