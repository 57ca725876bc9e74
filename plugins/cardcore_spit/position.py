"""Spit's position notation (what FEN is to chess): write a table out, read it back.

A position is the game's name, its fields, then every pile bottom to top with
who knows each card (see :mod:`cardcore.positions`)::

    spit v=1 phase="play" deal=1 single=-1 ready=[true,true] requests=[false,false]
    stall=0 recycled=false emptier=-1 | layout.0.1: 2H! | layout.0.2: 4H 3H! | ...
    | spit.0: ... | spit.1: ... | pile.L: AH! | pile.R: 6D!

A face-up card carries ``!`` (everyone knows it), a face-down card nothing.
The fields: ``v`` this notation's version; ``phase`` ``"setup"``, ``"play"`` or
``"claim"`` (``"over"`` once finished); ``deal`` the deal's number from 1; ``single`` -1, or in
single-pile mode (SPIT-END-5) the seat whose spit pile is the only one, the seat
that began the deal with more than 15 cards and so has spit cards (``1``: only
``R``); ``ready`` and ``requests`` per seat, its ``ready`` and its standing
``spit`` request; ``stall`` the actions in a row without progress
(SPIT-STUCK-3 c); ``recycled`` whether a recycle happened with no layout card
reaching a spit pile since; ``emptier`` -1 while the deal runs, else the seat that
emptied its layout.

Reading checks every card of the deck exactly once, what the rules allow in
each pile (face-down cards only under face-up ones and no more than a deal puts
there, face-up cards of one rank; spit cards and the spit piles as the phase
allows) and that a seat may
act, so no automatic step is due. ``to_act`` is derived, never written. A
finished game (by rule, resignation or truncation) writes ``phase="over"``,
which cannot be read back: nobody may act in it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardcore import ALL, OptionError
from cardcore.positions import read_position, refused, write_position
from cardcore_spit import piles
from cardcore_spit.state import (
    CENTRE,
    CLAIM,
    LAY,
    OVER,
    PHASE_NAMES,
    PLAY,
    SEATS,
    SETUP,
    SPIT,
    TABLE_LAYOUT,
    SpitState,
)

if TYPE_CHECKING:
    from cardcore_spit.logic import SpitLogic

__all__ = ["VERSION", "read", "write"]

VERSION = 1
"""The version of Spit's position notation (the ``v`` field)."""

_KEYS = ("v", "phase", "deal", "single", "ready", "requests", "stall", "recycled", "emptier")


def write(state: SpitState) -> str:
    """Write *state* as a position (privileged: every card, with who knows it)."""
    fields = {
        "v": VERSION,
        "phase": PHASE_NAMES[OVER if state.is_over else state.phase],
        "deal": state.deal,
        "single": state.single,
        "ready": state.ready,
        "requests": state.requests,
        "stall": state.stall,
        "recycled": state.recycled,
        "emptier": state.emptier,
    }
    return write_position("spit", fields, state.zones)


def _bad(msg: str) -> OptionError:
    return refused(msg)  # "bad position: ..." citing CORE-POSITION-1 (or its own rule)


def _int(fields: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = fields[key]
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _bad(f"{key} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _flags(fields: Mapping[str, Any], key: str) -> list[bool]:
    value = fields[key]
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, bool) for v in value)):
        raise _bad(f"{key} must be two true/false values, one per seat, not {value!r}")
    return [bool(v) for v in value]


def read(logic: SpitLogic, text: str, players: int, options: Mapping[str, Any]) -> SpitState:
    """Read a position written by :func:`write` into a new state, validated.

    :raises OptionError: Naming what is wrong (with the rule it breaks, where one does).
    """
    deck = logic.deck(players, options)
    fields, zones = read_position(text, "spit", TABLE_LAYOUT, deck, players)
    if set(fields) != set(_KEYS):
        raise _bad(f"Spit positions have the fields {', '.join(_KEYS)}, not {', '.join(fields)}")
    if type(fields["v"]) is not int or fields["v"] != VERSION:
        raise _bad(f"unknown Spit position version {fields['v']!r} (expected {VERSION})")
    if fields["phase"] not in PHASE_NAMES[:3]:
        raise _bad(f"phase must be one of setup, play, claim (a seat must be able to act), not {fields['phase']!r}")
    state = SpitState(players, options, zones)
    state.phase = PHASE_NAMES.index(fields["phase"])
    state.deal = _int(fields, "deal", 1, 10**9)
    state.single = _int(fields, "single", -1, 1)
    state.ready = _flags(fields, "ready")
    state.requests = _flags(fields, "requests")
    state.stall = _int(fields, "stall", 0, int(options["stall_limit"]) - 1)
    state.recycled = fields["recycled"]
    if not isinstance(state.recycled, bool):
        raise _bad(f"recycled must be true or false, not {state.recycled!r}")
    state.emptier = _int(fields, "emptier", -1, 1)
    _check_knowledge(logic, state)
    _check_phase(logic, state)
    return state


def _check_knowledge(logic: SpitLogic, state: SpitState) -> None:
    """Face-up and face-down cards where the rules put them (SPIT-SETUP-2/3, SPIT-MOVE-7)."""
    cards, seen = state.zones.cards, state.zones.seen
    limits = logic.hidden_limit
    for s in SEATS:
        for k, z in enumerate(LAY[s]):
            masks = seen[z]
            if not masks:
                continue
            down = masks.count(0)
            if down + masks.count(ALL) != len(masks):
                raise _bad(f"layout.{s}.{k + 1}: a card is either face up (!) or face down")
            if masks[-1] != ALL:
                raise _bad(f"layout.{s}.{k + 1}: the top card of a layout pile is face up (SPIT-MOVE-7)")
            if down > limits[k] or (down and ALL in masks[:down]):
                raise _bad(
                    f"layout.{s}.{k + 1}: at most {limits[k]} face-down cards,"
                    " all under the face-up ones (SPIT-SETUP-2)"
                )
            if len(masks) - down > 1:
                pile = cards[z]
                rank = pile[-1].rank
                if any(card.rank != rank for card in pile[down:-1]):
                    raise _bad(
                        f"layout.{s}.{k + 1}: face-up cards pile up only by rank (combine), so they"
                        " share the top's rank (SPIT-MOVE-5)"
                    )
        if any(seen[SPIT[s]]):
            raise _bad(f"spit.{s}: spit cards are face down, known to nobody (SPIT-SETUP-3)")
    for p in (0, 1):
        masks = seen[CENTRE[p]]
        if masks.count(ALL) != len(masks):
            raise _bad(f"pile.{'LR'[p]}: the spit piles are face up")


def _check_phase(logic: SpitLogic, state: SpitState) -> None:
    """The phase's own invariants, and a seat to act; sets ``to_act``."""
    cards = state.zones.cards
    counts = [sum(len(cards[z]) for z in LAY[s]) + len(cards[SPIT[s]]) for s in SEATS]
    centre = [len(cards[z]) for z in CENTRE]
    laid = [sum(len(cards[z]) for z in LAY[s]) for s in SEATS]
    phase = state.phase
    if phase == SETUP:
        if any(centre) or any(state.requests) or state.recycled or state.stall or state.emptier >= 0:
            raise _bad("in the setup phase the spit piles are empty and nobody has asked for a spit (SPIT-SETUP-6)")
        single = -1
        if piles.single_pile_mode(counts):
            single = 0 if counts[0] > counts[1] else 1
        if state.single != single:
            raise _bad(f"single must be {single} for a deal begun with {counts[0]} and {counts[1]} cards (SPIT-END-5)")
        for s in SEATS:
            if not counts[s] or len(cards[SPIT[s]]) != counts[s] - len(logic.orders[counts[s]]):
                raise _bad(f"seat {s} holds {counts[s]} cards: its layout and spit cards do not match a deal (SPIT-SETUP-2/4)")
        state.to_act = tuple(s for s in SEATS if not state.ready[s])
        if not state.to_act:
            raise _bad("both seats are ready, so play has started: write phase play (SPIT-START-1)")
        return
    if not all(state.ready):
        raise _bad("after the setup phase both seats are ready (SPIT-SETUP-6)")
    active = state.active()
    for p in (0, 1):
        if (p in active) != bool(centre[p]):
            raise _bad(f"pile.{'LR'[p]} must {'hold cards' if p in active else 'be empty'} in this mode (SPIT-START-1/2)")
    if state.single >= 0 and cards[SPIT[1 - state.single]]:
        raise _bad(f"seat {1 - state.single} has no spit cards in a single-pile deal (SPIT-END-5)")
    if phase == CLAIM:
        if state.single >= 0 or state.emptier < 0 or laid[state.emptier] or any(state.requests):
            raise _bad("a claim follows a two-pile deal whose emptier (emptier=) has no layout cards (SPIT-END-1/2)")
        state.to_act = logic.claimants(state)
        return
    if state.emptier >= 0 or not all(laid):
        raise _bad("in the play phase both layouts hold cards and emptier is -1 (SPIT-END-1)")
    if phase == PLAY and logic.spit_due(state):
        raise _bad("a spit is due (both asked, the stall limit, or nobody can progress), so no seat may act (SPIT-STUCK-3)")
    logic.set_to_act(state)
