"""Speed's position notation: write a table out, read it back (see :mod:`cardcore.positions`)::

    speed v=1 requests=[false,false] recycled=false | hand.0: 6H@0 2C@0 ... | hand.1: ...
    | stock.0: ... | stock.1: ... | side.0: ... | side.1: ... | pile.L: 5S! | pile.R: KH!

A hand card is known to its owner only (``@0``), stock and side cards to
nobody, play-pile cards to everyone (``!``). Reading checks every card of the
deck (jokers per the options) exactly once, the counts the rules allow (a hand
of at most five, short only when its stock is empty; a stock no bigger than the
deal gave) and that the game is not over or due an automatic step. A finished
game writes ``over=true``, which cannot be read back: nobody may act in it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore import ALL, Card, OptionError
from cardcore.positions import read_position, refused, write_position
from cardcore_spit import piles
from cardcore_spit.actions import SIDES
from cardcore_spit.speed.state import (
    HAND,
    HAND_SIZE,
    PILE,
    SEATS,
    SIDE,
    STOCK,
    TABLE_LAYOUT,
    SpeedState,
)

__all__ = ["VERSION", "read", "write"]

VERSION = 1
"""The version of Speed's position notation (the ``v`` field)."""


def write(state: SpeedState) -> str:
    """Write *state* as a position (privileged: every card, with who knows it)."""
    fields: dict[str, Any] = {"v": VERSION, "requests": state.requests, "recycled": state.recycled}
    if state.is_over:  # written, so it is not read back as a game someone may act in
        fields["over"] = True
    return write_position("speed", fields, state.zones)


def _bad(msg: str) -> OptionError:
    return refused(msg)  # "bad position: ..." citing CORE-POSITION-1 (or its own rule)


def read(
    deck: tuple[Card, ...], text: str, players: int, options: Mapping[str, Any]
) -> SpeedState:
    """Read a position written by :func:`write` into a new state, validated.

    :param deck: Every card of this configuration's game.
    :raises OptionError: Naming what is wrong (with the rule it breaks, where one does).
    """
    fields, zones = read_position(text, "speed", TABLE_LAYOUT, deck, players)
    if fields.get("over") is True:
        raise _bad("the game is over, so nobody may act in it: a finished game cannot be read back")
    if set(fields) != {"v", "requests", "recycled"}:
        raise _bad(f"Speed positions have the fields v, requests, recycled, not {', '.join(fields)}")
    if type(fields["v"]) is not int or fields["v"] != VERSION:
        raise _bad(f"unknown Speed position version {fields['v']!r} (expected {VERSION})")
    requests = fields["requests"]
    if not (isinstance(requests, list) and len(requests) == 2 and all(isinstance(r, bool) for r in requests)):
        raise _bad(f"requests must be two true/false values, one per seat, not {requests!r}")
    if all(requests):
        raise _bad("both seats are stuck, so side cards are due: no seat may act (SPEED-STUCK-1)")
    recycled = fields["recycled"]
    if not isinstance(recycled, bool):
        raise _bad(f"recycled must be true or false, not {recycled!r}")
    _, stock_size, _ = piles.speed_deal_sizes(int(options["side_pile"]), int(options["jokers"]))
    cards, seen = zones.cards, zones.seen
    for s in SEATS:
        if any(m != 1 << s for m in seen[HAND[s]]):
            raise _bad(f"hand.{s}: a hand is known to its owner only (@{s}) (SPEED-VIEW-1)")
        if any(seen[STOCK[s]]) or any(seen[SIDE[s]]):
            raise _bad(f"stock.{s} and side.{s} are face down, known to nobody (SPEED-SETUP-1/3)")
        hand, stock = len(cards[HAND[s]]), len(cards[STOCK[s]])
        if not hand or hand > HAND_SIZE or (hand < HAND_SIZE and stock):
            raise _bad(
                f"hand.{s} holds {hand} cards: one to {HAND_SIZE}, short only when the stock is empty"
                " (SPEED-PLAY-2, SPEED-END-1)"
            )
        if stock > stock_size:
            raise _bad(f"stock.{s} holds {stock} cards, more than the {stock_size} a deal gives (SPEED-SETUP-3)")
    for p in (0, 1):
        if not cards[PILE[p]] or any(m != ALL for m in seen[PILE[p]]):
            raise _bad(f"pile.{SIDES[p]} holds at least one card, all face up (SPEED-PLAY-1)")
    state = SpeedState(players, options, zones)
    state.requests = [bool(r) for r in requests]
    state.recycled = recycled
    state.to_act = SEATS
    return state
