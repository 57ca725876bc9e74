"""What every seat sees of a game of Go Fish beyond the piles (declared in ``GAME.fields``)."""

from __future__ import annotations

from typing import Any

from cardcore import ViewField
from cardcore_gofish.actions import RANKS
from cardcore_gofish.state import STOCK, GoFishState, book_counts

FIELDS = (
    ViewField("stock", "int", "Cards left in the stock.", label="Stock"),
    ViewField("books", "per-seat", "Books of four each seat has laid down.", label="Books", of="int"),
    ViewField("asked", "per-seat", "Ranks each seat asked for and still holds.", of="json"),
)
"""The fields of ``view["table"]``; the hands and books themselves are in ``view["zones"]``."""


def table(state: GoFishState) -> dict[str, Any]:
    """The table as every seat and spectator sees it: nothing in it is secret."""
    asked = [[r for i, r in enumerate(RANKS) if bits >> i & 1] for bits in state.asked]
    return {"stock": len(state.zones.cards[STOCK]), "books": list(book_counts(state)), "asked": asked}
