"""What every seat sees of a game of Go Fish beyond the piles (declared in ``GAME.fields``)."""

from __future__ import annotations

from typing import Any

from cardcore import ViewField
from cardcore_gofish.actions import BIT, RANKS
from cardcore_gofish.state import STOCK, GoFishState, book_counts

FIELDS = (
    ViewField("stock", "int", "Cards left in the stock."),
    ViewField("books", "per-seat", "Books of four each seat has laid down.", of="int"),
    ViewField("asked", "per-seat", "Ranks each seat asked for and still holds.", of="json"),
)
"""The fields of ``view["table"]``; the hands and books themselves are in ``view["zones"]``."""


def table(state: GoFishState) -> dict[str, Any]:
    """The table as every seat and spectator sees it: nothing in it is secret."""
    asked = [[r for r in RANKS if mask & BIT[r]] for mask in state.asked]
    books = list(book_counts(state))
    return {"stock": len(state.zones.cards[STOCK]), "books": books, "asked": asked}
