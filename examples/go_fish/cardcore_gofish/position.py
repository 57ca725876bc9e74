"""Go Fish's position notation: the core's piles codec plus two fields, ``turn`` and ``asked``.

::

    gofish turn=0 asked=[0,2048] | stock: 5H 9C ... | hand.0: AS@0 ... | books.0: 7S! 7H! 7D! 7C!

``turn`` is the seat to act; ``asked`` the public memory of the asks, one
rank mask per seat (see :class:`~cardcore_gofish.state.GoFishState`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from cardcore import Card, OptionError
from cardcore.positions import read_position, write_position
from cardcore_gofish.actions import BIT
from cardcore_gofish.state import STOCK, GoFishState, books, hand, layout


def write(state: GoFishState) -> str:
    """Write *state* (privileged: every card, with who knows it)."""
    turn = state.to_act[0] if state.to_act else None
    return write_position("gofish", {"turn": turn, "asked": state.asked}, state.zones)


def _check(ok: object, problem: str) -> None:
    if not ok:
        msg = f"bad gofish position: {problem}"
        raise OptionError(msg)


def read(text: str, players: int, options: Mapping[str, Any], deck: Sequence[Card]) -> GoFishState:
    """Read a position of a game in progress, checking what the rules allow.

    :raises OptionError: Naming what is wrong.
    """
    fields, zones = read_position(text, "gofish", layout(players), deck, players)
    cards, turn, asked = zones.cards, fields.get("turn", -1), fields.get("asked", [])
    _check(type(turn) is int and 0 <= turn < players and cards[hand(turn)],
           f"turn must be a seat holding cards, not {turn!r}")
    _check(type(asked) is list and len(asked) == players, f"asked must hold {players} rank masks")
    for s in range(players):
        held = Counter(c.label for c in cards[hand(s)])
        laid, mask = cards[books(s, players)], asked[s]
        known = type(mask) is int and 0 <= mask < 1 << 13 and all(held[r] for r in BIT if mask & BIT[r])
        _check(known, f"asked[{s}] must name ranks hand.{s} holds (GOFISH-KNOW-1)")
        whole = len(laid) % 4 == 0 and all(c.label == laid[i - i % 4].label for i, c in enumerate(laid))
        _check(whole, f"books.{s} must hold whole books of one rank (GOFISH-BOOK-1)")
        _check(4 not in held.values(), f"hand.{s} holds a book it must lay down (GOFISH-BOOK-1)")
        _check(held or not cards[STOCK], f"hand.{s} is empty, the stock not (GOFISH-EMPTY-1)")
    state = GoFishState(players, options, zones)
    state.asked, state.to_act = asked, (turn,)
    return state
