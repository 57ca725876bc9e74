"""What each seat of a Spit game sees: the table's fields and their declaration.

The core's view already lists every pile (``zones``); the table adds the game's
own reading of them (SPIT-VIEW-1): each seat's layout top first with hidden
cards as ``None``, its reserve count, the spit piles, the phase and the flags.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcore import ViewField
from cardcore_spit.actions import SIDES
from cardcore_spit.state import CENTRE, CLAIM, LAY, PHASE_NAMES, PLAY, SEATS, SPIT, SpitState

__all__ = ["FIELDS", "held", "notes", "table"]

FIELDS = (
    ViewField("phase", "str", "setup, play, claim (a two-pile deal ended) or over"),
    ViewField("deal", "int", "the current deal, from 1"),
    ViewField("mode", "str", "two-pile, or single-pile when a player began the deal with 15 cards or fewer"),
    ViewField(
        "piles",
        "json",
        "the spit piles by letter (L, R): cards top first, or null for a pile not in use",
        label="spit piles",
    ),
    ViewField(
        "seats",
        "per-seat",
        "per seat: layout (five piles, cards top first, null for a face-down card),"
        " spit_cards (reserve count), ready, requested (asked for a spit), cards (held in all)",
        of="json",
    ),
    ViewField("stall", "int", "actions in a row without progress (an automatic spit comes at the limit)"),
    ViewField("emptier", "seat", "the seat that emptied its layout this deal, or null", label="emptied by"),
    ViewField("claim", "str", "the word that claims a spit pile when a two-pile deal ends (slap or choose)"),
)
"""The declared fields of Spit's ``table`` (``GameInfo.fields``)."""


def held(state: SpitState, seat: int) -> int:
    """How many cards *seat* holds: its layout and its spit cards."""
    cards = state.zones.cards
    return sum(len(cards[z]) for z in LAY[seat]) + len(cards[SPIT[seat]])


def table(state: SpitState, seat: int | None, claim_word: str) -> dict[str, Any]:
    """Return the game's part of *seat*'s view (``None``: a spectator); keys as :data:`FIELDS`."""
    zones = state.zones
    active = state.active() if state.phase in (PLAY, CLAIM) else ()
    return {
        "phase": "over" if state.is_over else PHASE_NAMES[state.phase],  # resigned, ended too
        "deal": state.deal,
        "mode": "two-pile" if state.single < 0 else "single-pile",
        "piles": {
            SIDES[p]: zones.show(CENTRE[p], seat) if p in active or zones.count(CENTRE[p]) else None
            for p in (0, 1)
        },
        "seats": [
            {
                "layout": [zones.show(z, seat) for z in LAY[s]],
                "spit_cards": zones.count(SPIT[s]),
                "ready": state.ready[s],
                "requested": state.requests[s],
                "cards": held(state, s),
            }
            for s in SEATS
        ],
        "stall": state.stall,
        "emptier": None if state.emptier < 0 else state.emptier,
        "claim": claim_word,
    }


def notes(events: Sequence[Mapping[str, Any]], action: str | None) -> list[str]:
    """Return a line for each of the game's own steps among one change's *events*: the start
    spit (SPIT-START-1), an automatic spit (SPIT-STUCK-3), a recycle (SPIT-STUCK-5), a void
    or a new deal; without them, cards would appear on the spit piles unexplained.

    :param events: The change's events as a seat received them (``Event.to_json()``).
    :param action: The change's action text; ``None`` for the deal.
    """
    out: list[str] = []
    spat: dict[str, str] = {}
    why = "Both players asked for a spit" if action == "spit" else "Nobody made progress"

    def said() -> None:
        if spat:
            cards = ", ".join(f"{pile}: {spat[pile]}" for pile in sorted(spat))
            out.append(f"{why}: a spit ({cards})")
            spat.clear()

    for event in events:
        kind = event.get("event")
        if kind == "card-spat":
            pile = str(event.get("pile"))
            if pile in spat:  # a second spit in the same change
                said()
            spat[pile] = str(event.get("card"))
        elif kind == "play-started":
            said()
            why = f"Both players are ready: deal {event.get('deal')} starts"
        elif kind == "centre-recycled":
            said()
            counts = " and ".join(str(n) for n in event.get("counts") or ())
            out.append(f"No spit cards are left: the spit piles turn into new spit cards ({counts})")
        elif kind == "deal-voided":
            said()
            out.append(f"Nobody can progress: deal {event.get('deal')} is void and laid out again")
        elif kind == "deal-ended":
            said()
            seat, deal = event.get("emptier"), event.get("deal")
            out.append(f"Seat {seat} emptied its layout: deal {deal} ends")
        elif kind == "deal-started" and action is not None:  # (the first deal needs no word)
            said()
            single = " with one spit pile" if event.get("single") else ""
            out.append(f"Deal {event.get('deal')} is laid out{single}")
    said()
    return out
