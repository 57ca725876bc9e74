"""Go Fish's position notation: the core's piles codec plus two fields, ``turn`` and ``asked``.

::

    gofish turn=0 asked=[0,2048] | stock: 5H 9C ... | hand.0: AS@0 ... | books.0: 7S! 7H! 7D! 7C!

``turn`` is the seat to act; ``asked`` the public memory of the asks, one
rank mask per seat (see :class:`~cardcore_gofish.state.GoFishState`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcore import Card, OptionError, Rank
from cardcore.positions import read_position, write_position
from cardcore_gofish.state import STOCK, GoFishState, books, hand, layout

BY_BIT = tuple(Rank(n) for n in range(1, 14))
"""The rank of each bit of a rank mask, ace (bit 0) to king (bit 12)."""


def write(state: GoFishState) -> str:
    """Write *state* (privileged: every card, with who knows it)."""
    turn = state.to_act[0] if state.to_act else None
    return write_position("gofish", {"turn": turn, "asked": state.asked}, state.zones)


def _check(ok: object, problem: str, value: object = None) -> None:
    if not ok:  # the message is formatted only when it is needed
        msg = "bad gofish position: " + problem.format(value)
        raise OptionError(msg)


def read(text: str, players: int, options: Mapping[str, Any], deck: Sequence[Card]) -> GoFishState:
    """Read a position, checking what the rules allow (the logic ends a game with every book down).

    :raises OptionError: Naming what is wrong.
    """
    fields, zones = read_position(text, "gofish", layout(players), deck, players)
    cards, turn, asked = zones.cards, fields.get("turn", -1), fields.get("asked", [])
    playing = any(cards[hand(s)] for s in range(players))  # else every book is down: the end
    seat = type(turn) is int and 0 <= turn < players and cards[hand(turn)]
    _check(seat if playing else turn is None,
           "turn must be a seat holding cards (null at the end), not {!r}", turn)
    _check(type(asked) is list and len(asked) == players, "asked must hold one rank mask per seat")
    for s in range(players):
        held, laid, mask = [c.rank for c in cards[hand(s)]], cards[books(s, players)], asked[s]
        known = type(mask) is int and 0 <= mask < 1 << 13
        _check(known and (not mask or all(BY_BIT[i] in held for i in range(13) if mask >> i & 1)),
               "asked[{0}] must name ranks hand.{0} holds (GOFISH-KNOW-1)", s)
        ranks = [c.rank for c in laid]
        _check(len(laid) % 4 == 0 and ranks == [r for r in ranks[::4] for _ in range(4)],
               "books.{} must hold whole books of one rank (GOFISH-BOOK-1)", s)
        _check(max(map(held.count, held), default=0) < 4,
               "hand.{} holds a book it must lay down (GOFISH-BOOK-1)", s)
        _check(held or not cards[STOCK], "hand.{} is empty, the stock not (GOFISH-EMPTY-1)", s)
    state = GoFishState(players, options, zones)
    state.asked, state.to_act = asked, (turn,) if playing else ()
    return state
