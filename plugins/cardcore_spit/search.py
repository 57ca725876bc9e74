"""What search agents need from Spit: a position from a seat's view.

:class:`~cardcore_spit.logic.SpitLogic` takes :func:`position_from_view` as its method (an
optional search hook of :class:`cardcore.GameLogic`). The view's zones hold every face-up card
and the counts of the face-down ones, which the search deals at random; the fields come from
the view's table: the phase, the deal, the single-pile mode (whose pile is the one in use, or
at the setup the seat holding more cards), who is ready, who asked for a spit, the stall count
and the seat that emptied its layout. Whether the spit piles were already recycled this deal
is not in the view: a sample says they were not. Spit keeps the core's default utility (the
seats holding the fewest cards lead) and random rollouts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardcore import Zones
from cardcore.positions import write_position
from cardcore_spit.actions import SIDES
from cardcore_spit.position import VERSION

if TYPE_CHECKING:
    from cardcore_spit.logic import SpitLogic
    from cardcore_spit.state import SpitState

__all__ = ["position_from_view", "rounds_played"]


def position_from_view(logic: SpitLogic, view: Mapping[str, Any], zones: Zones) -> str | None:
    """Write the Spit position of *view* with the hidden cards dealt into *zones*."""
    table = view["table"]
    seats = table["seats"]
    phase = table["phase"]
    single = -1
    if table["mode"] != "two-pile":
        if phase == "setup":
            single = 0 if seats[0]["cards"] > seats[1]["cards"] else 1
        else:
            used = [p for p in (0, 1) if table["piles"][SIDES[p]] is not None]
            single = used[0] if len(used) == 1 else (0 if seats[0]["spit_cards"] else 1)
    emptier = table["emptier"]
    fields = {
        "v": VERSION,
        "phase": phase,
        "deal": table["deal"],
        "single": single,
        "ready": [bool(s["ready"]) for s in seats],
        "requests": [bool(s["requested"]) for s in seats],
        "stall": table["stall"],
        "recycled": False,
        "emptier": -1 if emptier is None else emptier,
    }
    return write_position("spit", fields, zones)


def rounds_played(logic: SpitLogic, state: SpitState) -> int:
    """``SpitLogic.rounds_played``: the deals that have ended (a voided deal, laid out
    again, counts as one): search rollouts stop at the end of a deal, and
    ``cardcore.compare`` counts a game's length in deals."""
    return state.deal - (0 if state.emptier >= 0 else 1) if state.deal else 0
