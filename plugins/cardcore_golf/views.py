"""What a seat sees of Golf: the declared table fields, the table and the past rounds.

The core wraps :func:`table` in the common view envelope (with every pile under
``"zones"``); :data:`FIELDS` declares each key of the table (``GameInfo.fields``). Finished
rounds are not in the view: :func:`history` serves them, so a view costs the same in the
ninth round as in the first (GOLF-VIEW-1, GOLF-ROUND-1).
"""

from __future__ import annotations

from typing import Any

from cardcore import ALL, ViewField
from cardcore_golf.state import PHASE_NAMES, GolfState

__all__ = ["FIELDS", "history", "table"]

FIELDS = (
    ViewField("layout", "str", "the layout played: '6', '8', '9', '10', '4' or '4h'"),
    ViewField("rows", "int", "rows of every layout grid (1 for the four cards in hand)"),
    ViewField("cols", "int", "columns of every layout grid", label="columns"),
    ViewField("round", "int", "the round (hole) being played, from 1"),
    ViewField("dealer", "seat", "the seat that dealt this round"),
    ViewField("turn", "seat", "the seat to act (null once the match is over)"),
    ViewField("phase", "str", "'setup' (initial flips or peeks), 'draw', 'place' or 'over'"),
    ViewField(
        "grids",
        "per-seat",
        "every layout row-major, far row first: a card, null if unseen, '--' if removed",
        label="layouts",
        of="json",  # a list of card | null | "--" (no core kind holds a removed position)
    ),
    ViewField(
        "public",
        "per-seat",
        "in the face-down layouts (4, 4h), the positions (numbered like grids) whose card every"
        " seat knows: a discard taken, or all once revealed; empty in the face-up layouts",
        label="known to all",
        of="json",  # a list of positions (no core kind is a list of ints)
    ),
    ViewField("stock", "int", "cards left in the stock"),
    ViewField("discard", "card", "the top card of the discard pile (null if empty)"),
    ViewField("discards", "int", "cards in the discard pile"),
    ViewField(
        "held",
        "json",
        "the card held between drawing and placing: {'seat', 'card'} (card null if unseen), or null",
        label="held card",
    ),
    ViewField("ender", "seat", "the seat that knocked or completed its layout this round, or null"),
    ViewField(
        "final_turns_left",
        "json",  # an int, or null (no core kind is a nullable int)
        "final turns still to play after the ender: an int, or null outside the final turns",
    ),
    ViewField("totals", "per-seat", "running match totals (lowest wins)", of="int"),
)
"""Golf's table fields, in the order :func:`table` writes them."""


def table(st: GolfState, seat: int | None) -> dict[str, Any]:
    """Return the Golf table as *seat* may know it (GOLF-VIEW-1); hidden cards are ``None``.

    :param seat: A seat, or ``None`` for a spectator.
    """
    plan = st.plan
    zones = st.zones
    cards = zones.cards
    seen = zones.seen
    # a spectator's bit is one only ALL (-1) has: no seat's mask reaches bit 64
    bit = 1 << 64 if seat is None else 1 << seat
    layout = plan.layout
    hand = layout.hand
    grids: list[list[str | None]] = []
    public: list[list[int]] = []  # GOLF4: a taken discard lies face down, known to all
    down = layout.face_down  # face up: a card is known to all exactly when it is shown
    every = range(layout.size)
    for owner, z in enumerate(plan.grid):
        pile = cards[z]
        masks = seen[z]
        bit_here = ALL if hand and seat == owner else bit  # a hand's owner knows all of it
        slots = st.slots[owner]
        # mask & bit: ALL (-1) has every bit, so a card everyone saw passes for any seat
        if slots is None:
            grids.append(
                [c.text if m & bit_here else None for c, m in zip(pile, masks, strict=True)]
            )
            public.append([pos for pos, m in enumerate(masks) if m == ALL] if down else [])
        else:
            grids.append(
                [
                    "--" if (i := slots[pos]) < 0 else pile[i].text if masks[i] & bit_here else None
                    for pos in every
                ]
            )
            public.append(
                [p for p in every if (i := slots[p]) >= 0 and masks[i] == ALL] if down else []
            )
    held = None
    hz = plan.held[0]
    if cards[hz] and not st.is_over:
        mask = seen[hz][-1]
        visible = mask == ALL or bool(mask & bit)
        held = {"seat": st.turn, "card": cards[hz][-1].text if visible else None}
    discard = cards[plan.discard]
    return {
        "layout": layout.key,
        "rows": layout.rows,
        "cols": layout.cols,
        "round": st.round,
        "dealer": st.dealer,
        "turn": None if st.is_over else st.turn,
        "phase": "over" if st.is_over else PHASE_NAMES[st.phase],  # truncated too
        "grids": grids,
        "public": public,
        "stock": len(cards[plan.stock]),
        "discard": discard[-1].text if discard else None,
        "discards": len(discard),
        "held": held,
        "ender": None if st.ender < 0 else st.ender,
        "final_turns_left": None if st.final_left < 0 or st.is_over else st.final_left,
        "totals": list(st.sheet.totals),
    }


def history(st: GolfState, since: int) -> list[dict[str, Any]]:
    """Return the finished rounds from number *since* (from 0), oldest first.

    Each is ``{"round", "grids", "scores", "totals", "ender"}``: every layout was revealed
    to everyone when the round ended, so every seat (and a spectator) sees the same.
    """
    return [past.to_json() for past in st.past[since:]]
