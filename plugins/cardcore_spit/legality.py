"""Spit's legality checks beside the legal set: the fast ``is_legal`` and ``rule_for``.

Both are methods of :class:`~cardcore_spit.logic.SpitLogic` (assigned there):
:func:`is_legal` answers ``action in legal_actions(state, action.seat)`` from
the piles the action touches, without building the legal set (replay and
apply validate every action; Spit's legal set costs several µs);
:func:`rule_for` explains a rejection.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardcore import ALL, Action
from cardcore_spit.actions import (
    SIDES,
    Claim,
    Combine,
    Fill,
    Play,
    Ready,
    RequestSpit,
    SpitAction,
    malformed,
)
from cardcore_spit.piles import PILES
from cardcore_spit.state import CENTRE, CLAIM, OVER, PLAY, SEATS, SETUP, SpitState

if TYPE_CHECKING:
    from cardcore_spit.logic import SpitLogic

__all__ = [
    "COMBINE_CODE",
    "FILL_CODE",
    "MOVE",
    "UNCOVER",
    "cached",
    "can_progress",
    "has_move",
    "ints_in",
    "is_legal",
    "reach",
    "rule_for",
    "set_to_act",
    "settled",
    "spit_due",
    "summary",
    "waiting_rule",
]

_LEFT, _RIGHT = CENTRE
_BIT = tuple(1 << r for r in range(14))  # built once: no int made per pile (ranks 0-13)
COMBINE_CODE = 2
"""The code of a combine in ``SpitLogic.touches`` (a play's is its centre pile, 0 or 1)."""
FILL_CODE = 3
"""The code of a fill in ``SpitLogic.touches``."""

UNCOVER = 1 << 14
"""A :func:`summary` bit: the seat can uncover a face-down card (a combine or a fill)."""
MOVE = 1 << 15
"""A :func:`summary` bit: the seat has a combine or a fill (an empty pile or two equal tops)."""


def is_legal(logic: SpitLogic, state: SpitState, action: SpitAction) -> bool:
    """Tell whether *action* is one of ``logic.legal_actions(state, action.seat)``.

    The same answer for every state and every action built with exact types:
    plays, combines and fills with int fields (nearly every action) are judged
    from the piles they touch, ``ready``, ``spit`` and claims of an int seat from
    the phase. An action with a field of another type (an int subclass such as
    ``True``, a float) or of a subclass is ``False``, even if it compares equal to
    a legal action: the core applies and records the object it is given, so its
    notation must be the legal action's. Never raises for an action of any Spit type.
    """
    seat = action.seat
    if seat not in state.to_act:
        return False
    touched = logic.touches.get(id(action))
    if touched is not None:  # an interned play, combine or fill (what parse_action returns)
        src_zone, dst_zone, code = touched
        cards = state.zones.cards
        src = cards[src_zone]
        if not src:
            return False
        phase = state.phase
        if code < 2:  # a play onto centre pile *code*
            if phase != PLAY:
                return False
            single = state.single
            if single >= 0 and code != single:
                return False
            top = cards[dst_zone]
            return bool(top) and logic.adj[src[-1].rank][top[-1].rank]
        if phase == CLAIM:  # a claim phase offers claims only
            return False
        dst = cards[dst_zone]
        if code == FILL_CODE:
            return not dst
        return bool(dst) and src[-1].rank == dst[-1].rank
    if type(seat) is not int:  # (an interned action's fields are exact)
        return False
    kind = type(action)
    if type(action) is Play:  # not "kind is Play": mypy narrows this form
        pile, target = action.pile, action.target
        if type(pile) is not int or type(target) is not int:  # a client's odd fields
            return False
        if state.phase != PLAY or not 0 <= pile < PILES:
            return False
        single = state.single
        if single < 0:
            if target != 0 and target != 1:
                return False
        elif target != single:
            return False
        cards = state.zones.cards
        src = cards[logic.lay[seat][pile]]
        top = cards[CENTRE[target]]
        return bool(src and top and logic.adj[src[-1].rank][top[-1].rank])
    if type(action) is Combine or type(action) is Fill:
        j, i = action.src, action.dst
        if type(j) is not int or type(i) is not int:
            return False
        if state.phase == CLAIM or not (0 <= j < PILES and 0 <= i < PILES) or i == j:
            return False  # a claim phase offers claims only
        cards = state.zones.cards
        lay = logic.lay[seat]
        src, dst = cards[lay[j]], cards[lay[i]]
        if not src:
            return False
        if kind is Fill:
            return not dst
        return bool(dst) and src[-1].rank == dst[-1].rank
    if kind is RequestSpit:
        return state.phase == PLAY and not state.requests[seat]
    if kind is Ready:  # what legal_actions offers outside the play and claim phases
        phase = state.phase
        return phase != PLAY and phase != CLAIM
    if type(action) is Claim:
        claims = logic.claims[seat]
        return (
            state.phase == CLAIM
            and type(action.word) is str
            and ints_in(action, claims, action.target)
        )
    return False  # a subclass or another game's action: never in the legal set


def ints_in(action: Action, legal: Sequence[Action], *fields: object) -> bool:
    """Whether *action* is in *legal* and each of *fields* is exactly an ``int``.

    ``2.0 == 2`` and ``True == 1``, so a play of pile ``2.0`` or ``True`` equals a legal
    play, and an int subclass may claim to equal anything; but the core applies and
    records the object it is given, whose notation would not be the legal action's.
    """
    for f in fields:
        if type(f) is not int:
            return False
    return action in legal


def rule_for(logic: SpitLogic, state: SpitState, action: SpitAction) -> tuple[str, str]:
    """Return the rule that forbids *action* now, with a reason."""
    seat = action.seat
    phase = state.phase
    cards = state.zones.cards
    why = malformed(action)
    if why is not None:  # a hand-built action (a pile of -1, a float, True)
        return "CORE-ACTION-1", f"malformed action: {why}"
    if isinstance(action, Claim):
        if phase != CLAIM:
            if phase == PLAY and state.single >= 0:
                return "SPIT-END-6", "a single-pile deal ends without a claim: nothing to claim"
            if phase == PLAY:
                return "SPIT-RT-3", "the deal in play has not ended, so there is nothing to claim"
            if state.deal > 1 or phase == OVER:  # a deal ended and was settled (claimed, or
                # single-pile or void: nothing to claim)
                return "SPIT-RT-3", "the deal that ended is settled already: a claim now is too late"
            return "SPIT-RT-3", "no deal has ended, so there is nothing to claim"
        return logic.claim.rule_id, f"seat {seat} may not claim a pile"
    if phase == CLAIM:
        return "SPIT-END-1", "the deal is over: only claims are accepted"
    if phase == OVER:
        return "SPIT-GEN-3", "the game is over"
    if isinstance(action, Ready):
        return "SPIT-SETUP-6", f"seat {seat} is not in a setup phase"
    if isinstance(action, RequestSpit):
        if phase != PLAY:
            return "SPIT-SETUP-6", "no spit before both players are ready"
        return "SPIT-STUCK-3", f"seat {seat} has already asked for a spit"
    if phase == SETUP and state.ready[seat]:
        return "SPIT-SETUP-6", f"seat {seat} is ready and waits for the other player"
    if isinstance(action, Play):
        if phase == SETUP:
            return "SPIT-SETUP-6", "no plays before both players are ready"
        src = cards[logic.lay[seat][action.pile]]
        if not src:
            return "SPIT-MOVE-2", f"pile {action.pile + 1} is empty"
        centre = cards[logic.centre[action.target]]
        if action.target not in state.active() or not centre:
            return "SPIT-START-2", f"there is no spit pile {SIDES[action.target]}"
        if src[-1].rank == centre[-1].rank:
            return "SPIT-MOVE-4", f"{src[-1]} has the same rank as {centre[-1]}"
        return "SPIT-MOVE-2", f"{src[-1]} is not next to {centre[-1]} in rank"
    if isinstance(action, Combine):
        return "SPIT-MOVE-5", "combine needs two non-empty piles whose tops have the same rank"
    if isinstance(action, Fill):
        return "SPIT-MOVE-6", "fill needs a non-empty source pile and an empty target position"
    return "SPIT-MOVE-9", f"{action!s} is not a spit action of seat {seat}"


def waiting_rule(logic: SpitLogic, state: SpitState, action: SpitAction) -> tuple[str, str] | None:
    """Return the rule *action*'s seat waits by (it is not in ``to_act``), with a reason:
    ready in a setup, anything but a claim once the deal ended, left out of a claim by the claim
    rule, or asked for a spit with no move; ``None`` (the core's CORE-TURN-1) otherwise."""
    seat = action.seat
    phase = state.phase
    if phase == SETUP and state.ready[seat]:
        return "SPIT-SETUP-6", f"seat {seat} is ready and waits for the other player"
    if phase == CLAIM and not isinstance(action, Claim):
        return "SPIT-END-1", "the deal is over: only claims are accepted"
    if phase == CLAIM and state.emptier >= 0 and seat != state.emptier:
        claim = logic.claim
        return claim.rule_id, (
            f"seat {seat} may not {claim.word}: only seat {state.emptier}, who emptied the layout, may"
        )
    if phase == PLAY and state.requests[seat]:
        return "SPIT-MOVE-1", f"seat {seat} asked for a spit, has no move and waits for the other"
    return None


# -- progress (SPIT-STUCK-3 b) ---------------------------------------------------------------


def summary(logic: SpitLogic, state: SpitState, seat: int) -> int:
    """Summarise *seat*'s layout for the progress checks (cached in the state, see
    :func:`cached`).

    Bit ``r`` is set for each rank ``r`` on top of a pile, :data:`UNCOVER` when a
    combine or a fill would uncover a face-down card (a pile whose card below the
    top is face down, and an empty pile or another top of its rank), :data:`MOVE`
    when any combine or fill exists (an empty pile, or two equal tops). The logic
    resets the cache whenever the seat's layout changes (a play, a combine or fill,
    a new deal); the centre piles are not part of it.
    """
    cards = state.zones.cards
    seen = state.zones.seen
    ranks = twice = hidden = 0
    space = False
    for z in logic.lay[seat]:
        pile = cards[z]
        if not pile:
            space = True
            continue
        bit = _BIT[pile[-1].rank]
        if ranks & bit:
            twice |= bit
        ranks |= bit
        if len(pile) > 1 and seen[z][-2] != ALL:
            hidden |= bit
    if hidden and (space or hidden & twice):
        ranks |= UNCOVER
    if space or twice:
        ranks |= MOVE
    return ranks


def reach(logic: SpitLogic, state: SpitState) -> int:
    """The ranks that may be played now: bit ``r`` for each rank next to an active centre top."""
    cards = state.zones.cards
    playable = logic.playable
    out = 0
    for p in SEATS if state.single < 0 else (state.single,):
        pile = cards[logic.centre[p]]
        if pile:
            out |= playable[pile[-1].rank]
    return out


def cached(state: SpitState, seat: int) -> int:
    """Return *seat*'s cached :func:`summary` (``state.summary0``/``summary1``), or ``-1``."""
    return state.summary1 if seat else state.summary0


def _summary(logic: SpitLogic, state: SpitState, seat: int) -> int:
    if seat:
        known = state.summary1
        if known < 0:
            known = state.summary1 = summary(logic, state, 1)
    else:
        known = state.summary0
        if known < 0:
            known = state.summary0 = summary(logic, state, 0)
    return known


def can_progress(logic: SpitLogic, state: SpitState, seat: int) -> bool:
    """Tell whether *seat* has a play or an uncovering move (SPIT-STUCK-3 b).

    The same answer as :func:`cardcore_spit.piles.can_progress`, from the piles
    themselves (never from the cache).
    """
    return bool(summary(logic, state, seat) & (UNCOVER | reach(logic, state)))


def settled(logic: SpitLogic, state: SpitState) -> bool:
    """In the play phase: set ``to_act`` and return ``True``, unless SPIT-STUCK-3 calls
    for a spit now (then return ``False`` and change nothing but the cached summaries).

    :func:`spit_due` then :func:`set_to_act` in one pass (the logic asks after
    every action): the centre's reach is computed once, and a seat's summary only
    when no cached summary already shows progress.
    """
    requests = state.requests
    r0 = requests[0]
    r1 = requests[1]
    if (r0 and r1) or state.stall >= state.options["stall_limit"]:
        return False
    cards = state.zones.cards
    playable = logic.playable
    single = state.single
    if single < 0:
        pile = cards[_LEFT]
        reach = playable[pile[-1].rank] if pile else 0
        pile = cards[_RIGHT]
        if pile:
            reach |= playable[pile[-1].rank]
    else:
        pile = cards[CENTRE[single]]
        reach = playable[pile[-1].rank] if pile else 0
    wanted = UNCOVER | reach
    known0 = state.summary0
    if known0 < 0 or not known0 & wanted:  # a cached summary that shows progress settles it
        known1 = state.summary1
        if known1 < 0 or not known1 & wanted:
            if known0 < 0:
                known0 = state.summary0 = summary(logic, state, 0)
            if not known0 & wanted:
                if known1 < 0:
                    known1 = state.summary1 = summary(logic, state, 1)
                if not known1 & wanted:
                    return False
    if not (r0 or r1):
        state.to_act = SEATS
    else:
        moving = MOVE | reach
        state.to_act = tuple(
            s for s in SEATS if not requests[s] or _summary(logic, state, s) & moving
        )
    return True


def spit_due(logic: SpitLogic, state: SpitState) -> bool:
    """Tell whether SPIT-STUCK-3 calls for a spit now (in the play phase)."""
    requests = state.requests
    if (requests[0] and requests[1]) or state.stall >= state.options["stall_limit"]:
        return True
    wanted = UNCOVER | reach(logic, state)
    return not (_summary(logic, state, 0) & wanted or _summary(logic, state, 1) & wanted)


def set_to_act(logic: SpitLogic, state: SpitState) -> None:
    """Set ``to_act`` in the play phase: a seat that asked for a spit and has no move waits."""
    requests = state.requests
    if not (requests[0] or requests[1]):
        state.to_act = SEATS
    else:
        state.to_act = tuple(s for s in SEATS if not requests[s] or has_move(logic, state, s))


def has_move(logic: SpitLogic, state: SpitState, seat: int) -> bool:
    """Tell whether *seat* has a play, combine or fill (not counting ``spit``)."""
    return bool(_summary(logic, state, seat) & (MOVE | reach(logic, state)))
