"""Tonk's views: the table a seat may see (:data:`FIELDS`) and the session's history.

The table holds the current hand only, so a view costs the same in the
hundredth hand of a session as in the first; the cut for the first dealer and
the finished hands (with the hands shown) come from :func:`history`
(``Game.history(seat, since=...)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardcore import ALL, ViewField
from cardcore_tonk.melds import CARDS, cut_dealer, index_of
from cardcore_tonk.state import DISCARD, HAND0, OVER, PHASES, PLAY, STOCK, PastHand, TonkState

__all__ = ["FIELDS", "history", "table"]

FIELDS: tuple[ViewField, ...] = (
    ViewField(
        "hand_number",
        "int",
        "The hand being played, from 1 (between hands: the next one; at the end: the last)",
    ),
    ViewField("hands", "int", "Hands in the session (option hands)"),
    ViewField("stake", "int", "The stake S; every payment is a multiple of it"),
    ViewField(
        "dealer",
        "seat",
        "The seat that dealt this hand (between hands: deals the next; at the end: the last)",
    ),
    ViewField(
        "turn",
        "seat",
        "The seat whose turn it is (between hands: the next dealer; at the end: None)",
    ),
    ViewField("phase", "str", "'start' (drop, draw or take), 'play', 'between' hands or 'over'"),
    ViewField("stock", "int", "Cards left in the face-down stock", label="stock"),
    ViewField("discard_top", "card", "The top card of the discard pile, or None when it is empty"),
    ViewField("discard_count", "int", "Cards in the discard pile (only the top one shows)"),
    ViewField("hand_sizes", "per-seat", "How many cards each seat holds", of="int"),
    ViewField("hand", "cards", "Your own hand, sorted by rank then suit (a spectator holds none)"),
    ViewField("total", "int", "The total of your hand (TONK-VAL-1); 0 for a spectator"),
    ViewField(
        "spreads",
        "json",
        "The spreads on the table, in the order laid: {number (from 1), owner, cards}",
    ),
    ViewField("taken", "card", "The discard taken this turn (it may not be discarded), or None"),
    ViewField("balances", "per-seat", "Each seat's running session balance", of="int"),
    ViewField(
        "shown",
        "per-seat",
        "Whether the end of the last hand turned each seat's hand face up (TONK-VIEW-1: some"
        " or all hands until the next deal; the history's shown agrees)",
        label="hands face up",
        of="bool",
    ),
)
"""The fields of Tonk's ``table`` (declared in ``GameInfo.fields``)."""


def table(state: TonkState, seat: int | None, points: Sequence[int]) -> dict[str, Any]:
    """Return the Tonk table as *seat* may see it (TONK-VIEW-1); ``None`` is a spectator.

    :param points: Card values by card index (the configuration's, TONK-VAL-1).
    """
    over = state.is_over  # however the session ended: by its rules, resigned, ended, truncated
    passed = over and state.phase >= OVER  # the deal passed on (OVER or BETWEEN hands)
    zones = state.zones
    cards = zones.cards
    seen = zones.seen
    n = state.players
    discard = cards[DISCARD]
    spreads = []
    laid = cards[HAND0 + n]
    start = 0
    for k, meld in enumerate(state.melds):
        pile = laid[start : start + meld.size]
        start += meld.size
        spreads.append(
            {
                "number": k + 1,
                "owner": state.owners[k],
                "cards": [c.text for c in sorted(pile, key=index_of)],
            }
        )
    hand: list[str] = []
    total = 0
    if seat is not None and 0 <= seat < n:
        mine = sorted([index_of(c) for c in cards[HAND0 + seat]])
        hand = [str(CARDS[x]) for x in mine]
        total = sum([points[x] for x in mine])
    if passed and state.past:  # the last hand's (a void deal is named as it was dealt)
        number, dealer = state.past[-1].hand, state.past[-1].dealer
    elif passed and state.last_deal is not None:  # (read from a position: no past hands)
        number, dealer = state.last_deal
    elif passed:
        number, dealer = max(state.hand_no, 1), (state.dealer - 1) % n
    else:
        number, dealer = min(state.hand_no + 1, state.hands), state.dealer
    return {
        "hand_number": number,
        "hands": state.hands,
        "stake": state.stake,
        "dealer": dealer,
        "turn": None if over else state.turn,
        "phase": "over" if over else PHASES[state.phase],
        "stock": len(cards[STOCK]),
        "discard_top": discard[-1].text if discard else None,
        "discard_count": len(discard),
        "hand_sizes": [len(cards[HAND0 + s]) for s in range(n)],
        "hand": hand,
        "total": total,
        "spreads": spreads,
        "taken": None if state.taken < 0 or state.phase != PLAY else str(CARDS[state.taken]),
        "balances": list(state.ledger.totals),
        "shown": _shown(state, seen) if state.phase >= OVER else [False] * n,
    }


def _shown(state: TonkState, seen: Sequence[Sequence[int]]) -> list[bool]:
    """Which hands the end of the last hand turned face up (TONK-VIEW-1), as its history says:
    a hand of publicly taken cards is known to all after a tonk-out, yet was not shown."""
    n = state.players
    if state.past:
        past = state.past[-1].shown
        return [False] * n if past is None else [h is not None for h in past]
    if state.last_shown is not None:  # read from a position, which holds no past hands
        return [s in state.last_shown for s in range(n)]
    return [_face_up(seen[HAND0 + s]) for s in range(n)]  # (a position of before last_shown)


def _face_up(marks: Sequence[int], empty: bool = False) -> bool:
    """Whether a hand with knowledge *marks* is known to all (an empty hand: *empty*, since it
    shows nothing): asked between hands and at the end only."""
    return (bool(marks) or empty) and all(m == ALL for m in marks)


def _hand_entry(past: PastHand, points: Sequence[int]) -> dict[str, Any]:
    shown: list[list[str] | None] | None = None
    totals: list[int | None] | None = None
    if past.shown is not None:
        shown = []
        totals = []
        for h in past.shown:
            if h is None:  # that hand was not shown (a natural shows only its holder's)
                shown.append(None)
                totals.append(None)
                continue
            xs = sorted([index_of(c) for c in h])
            shown.append([str(CARDS[x]) for x in xs])
            totals.append(sum([points[x] for x in xs]))
    return {
        "kind": "hand",
        "hand": past.hand,
        "dealer": past.dealer,
        "reason": past.reason,
        "seat": past.seat,
        "amounts": list(past.amounts),
        "balances": list(past.balances),
        "shown": shown,
        "totals": totals,
    }


def history(state: TonkState, since: int, points: Sequence[int]) -> list[dict[str, Any]]:
    """Return the session's history from entry *since* (from 0), oldest first.

    Entry 0 is the cut for the first dealer when there was one (TONK-DEALER-1)::

        {"kind": "cut", "dealer": 1, "rounds": [["7", "K", "K"], [None, "3", "9"]]}

    then one entry per finished hand (TONK-SESSION-1, TONK-VIEW-1), and one per void deal
    (``"reason": "void"``, under the number of the hand that is dealt again)::

        {"kind": "hand", "hand": 1, "dealer": 2, "reason": "drop-caught", "seat": 0,
         "amounts": [-2, 3, -1], "balances": [-2, 3, -1],
         "shown": [["AS", ...], ...] or None, "totals": [20, 15, 30] or None}

    ``shown`` (per seat, its hand sorted, or ``None`` for a hand not shown) and
    ``totals`` are given when hands were shown (every hand after a drop or stock
    exhaustion; the naturals' after a natural or a void deal);
    everything here was public when it happened, so every seat and spectators see
    the same.
    """
    out: list[dict[str, Any]] = []
    head = 0
    if state.cut:
        if since == 0:
            first = cut_dealer(state.cut)  # not counted back from the dealer: void deals pass too
            rounds = [list(r) for r in state.cut]
            out.append({"kind": "cut", "dealer": first, "rounds": rounds})
        head = 1
    for past in state.past[max(0, since - head) :]:
        out.append(_hand_entry(past, points))
    return out
