"""What each seat of a Speed game sees: the table's fields and their declaration (SPEED-VIEW-1),
and the lines that say what no action names (``GAME.notes``: the side cards turning)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcore import ViewField
from cardcore_spit.actions import SIDES
from cardcore_spit.speed.state import HAND, PILE, SEATS, SIDE, STOCK, SpeedState

__all__ = ["FIELDS", "held", "notes", "table"]

FIELDS = (
    ViewField(
        "piles",
        "json",
        "the play piles by letter (L, R): cards top first",
        label="play piles",
    ),
    ViewField(
        "seats",
        "per-seat",
        "per seat: hand (cards, null for each card the viewer may not see), stock and side"
        " (counts), requested (declared stuck)",
        of="json",
    ),
)
"""The declared fields of Speed's ``table`` (``GameInfo.fields``)."""


def held(state: SpeedState, seat: int) -> int:
    """How many cards *seat* still holds in hand and stock (fewer is better)."""
    cards = state.zones.cards
    return len(cards[HAND[seat]]) + len(cards[STOCK[seat]])


def table(state: SpeedState, seat: int | None) -> dict[str, Any]:
    """Return the game's part of *seat*'s view (``None``: a spectator): a hand only to its owner."""
    zones = state.zones
    return {
        "piles": {SIDES[p]: zones.show(PILE[p], seat) for p in (0, 1)},
        "seats": [
            {
                "hand": zones.show(HAND[s], seat),
                "stock": zones.count(STOCK[s]),
                "side": zones.count(SIDE[s]),
                "requested": state.requests[s],
            }
            for s in SEATS
        ],
    }


def notes(events: Sequence[Mapping[str, Any]], action: str | None) -> list[str]:
    """Return a line for each turn of the side cards among one change's *events*
    (SPEED-STUCK-1), and one for each recycle (SPEED-STUCK-2): without them, two new
    cards would lie on the play piles unexplained.

    :param events: The change's events as a seat received them (``Event.to_json()``).
    :param action: The change's action text; ``None`` for the deal. After ``stuck``
        the first turn is the one both players asked for; any other is the game's
        own, as nobody could play.
    """
    out: list[str] = []
    turned: dict[str, str] = {}
    asked = action == "stuck"

    def said() -> None:
        nonlocal asked
        if not turned:
            return
        why = "Both players are stuck" if asked else "Nobody can play"
        what = "the side cards turn" if len(turned) > 1 else "a side card turns"
        cards = ", ".join(f"{pile}: {turned[pile]}" for pile in sorted(turned))
        out.append(f"{why}: {what} ({cards})")
        turned.clear()
        asked = False

    for event in events:
        kind = event.get("event")
        if kind == "card-spat":
            pile = str(event.get("pile"))
            if pile in turned:  # a second turn in the same change: nobody could play again
                said()
            turned[pile] = str(event.get("card"))
        elif kind == "centre-recycled":
            said()
            counts = " and ".join(str(n) for n in event.get("counts") or ())
            out.append(
                f"No side cards are left: the play piles are shuffled into new side piles"
                f" ({counts} cards)"
            )
    said()
    return out
