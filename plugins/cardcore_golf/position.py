"""Golf's position notation (what FEN is to chess): write a position, read one back, validated.

A position is the core's generic text (:mod:`cardcore.positions`): the word ``golf``, Golf's
fields, then every pile bottom to top with who knows each card (nothing: nobody, ``!``:
everyone, ``@0.2``: seats 0 and 2)::

    golf layout="6" round=1 dealer=1 turn=0 phase="draw" turns=0 ender=null final=null
    totals=[0,0] | stock: 2C AH QS 9H KS 7D | discard: 5C! | held: |
    grid.0: 7H! 9C! KD 4S 2D QH | grid.1: 3C! 8D JS 3D! 10H 6S

(one line; wrapped here). The fields:

=============  =============================================================================
``layout``     the layout, as the ``layout`` option spells it in text (must match the options)
``round``      the round being played, from 1
``dealer``     the seat that dealt this round (the deal passes left, GOLF-DEAL-3)
``turn``       the seat to act
``phase``      ``"setup"`` (initial flips or peeks), ``"draw"``, ``"place"`` (holding a
               stock card), ``"taken"`` (holding a taken discard) or ``"over"`` (the game is
               over, however it ended: truncated too; then ``result`` holds its result)
``turns``      completed turns this round that could end it (every turn under ``max_turns``,
               GOLF-CAP-1; a match the cap ended holds the cap itself)
``ender``      the seat that knocked or completed its layout, or ``null``
``final``      final turns still to play after the ender, or ``null``
``totals``     the match totals so far, one per seat
``removed``    optional: per seat, the positions removed by a cancelling house rule
=============  =============================================================================

A grid pile lists a seat's cards in position order, removed positions left out; ``held`` is
the card between drawing and placing. Past rounds are not part of a position (the totals
are); a game started from one has an empty :meth:`~cardcore.Game.history`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cardcore import ALL, Card, CardcoreError, OptionError, PluginError, Veto
from cardcore.positions import read_position, read_result, refused, write_position
from cardcore_golf.grids import complete_groups, layout_for
from cardcore_golf.state import DRAW_PHASE, OVER, PLACE, SETUP, TAKEN, GolfState, RoundPlan

__all__ = ["PHASES", "read", "write"]

PHASES = {"setup": SETUP, "draw": DRAW_PHASE, "place": PLACE, "taken": TAKEN, "over": OVER}
"""The ``phase`` field's words."""
_PHASE_WORDS = {v: k for k, v in PHASES.items()}
_FIELDS = ("layout", "round", "dealer", "turn", "phase", "turns", "ender", "final", "totals")


def write(st: GolfState) -> str:
    """Return the position of *st* (privileged: every card, with who knows it)."""
    plan = st.plan
    fields: dict[str, Any] = {
        "layout": plan.layout.key,
        "round": st.round,
        "dealer": st.dealer,
        "turn": st.turn,
        "phase": "over" if st.is_over else _PHASE_WORDS[st.phase],  # truncation too
        "turns": st.turns,
        "ender": None if st.ender < 0 else st.ender,
        "final": None if st.final_left < 0 else st.final_left,
        "totals": list(st.sheet.totals),
    }
    if any(slots is not None for slots in st.slots):
        fields["removed"] = [
            [] if slots is None else [p for p, i in enumerate(slots) if i < 0] for slots in st.slots
        ]
    if st.is_over and st.result is not None:  # a finished game carries its result
        fields["result"] = st.result.to_json()
    return write_position("golf", fields, st.zones)


def _bad(msg: str) -> OptionError:
    return refused(f"golf: {msg}")  # "bad position: golf: ..." citing CORE-POSITION-1


def _int(fields: Mapping[str, Any], name: str, low: int, high: int, *, null: bool = False) -> int:
    """Field *name* as an int from *low* to *high* (``-1`` for ``null`` where allowed)."""
    value = fields[name]
    if value is None and null:
        return -1
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        also = " or null" if null else ""
        raise _bad(f"{name} must be an integer from {low} to {high}{also}, not {value!r}")
    return value


def read(
    text: str,
    plan: RoundPlan,
    deck: Sequence[Card],
    options: Mapping[str, Any],
    rounds: int | None,
    veto: Callable[..., list[Veto]] | None = None,
) -> GolfState:
    """Read a position into a new state for *plan* (the legal actions are left to the logic).

    House rules take part through the plan (removed groups: none may be left complete, face
    up and cancelled) and, in the setup phase, through their ``forbid_action`` vetoes: each
    seat's setup flips or peeks so far must be ones it could have made in some order. Past the
    setup, a layout with fewer cards face up than the setup flipped is read as written (a
    puzzle or a worked example may leave every card down).

    :param text: The position (see the module docstring).
    :param plan: The round plan of the game's players and options.
    :param deck: Every card of the game: each must be placed exactly once.
    :param options: The game's resolved options.
    :param rounds: The rounds of the match (``None``: no cap).
    :param veto: The configuration's resolved ``forbid_action`` chain, or ``None``.
    :raises OptionError: Naming what is wrong.
    """
    players = plan.players
    layout = plan.layout
    fields, zones = read_position(text, "golf", plan.zone_layout, deck, players)
    unknown = sorted(set(fields) - {*_FIELDS, "removed", "result"})
    missing = [name for name in _FIELDS if name not in fields]
    if unknown or missing:
        raise _bad(f"unknown fields {unknown}, missing fields {missing}")
    if layout_for(fields["layout"]) is not layout:
        msg = f"it is a position of layout {fields['layout']!r}, but the options choose {layout.key!r}"
        raise _bad(msg)
    phase = PHASES.get(fields["phase"]) if isinstance(fields["phase"], str) else None
    if phase is None or (phase == OVER) != ("result" in fields):
        raise _bad(
            "phase must be 'setup', 'draw', 'place' or 'taken', or 'over' with the game's"
            f" result, not {fields['phase']!r}"
        )
    last = players - 1
    st = GolfState(players, options, plan)
    st.zones = zones
    st.phase = phase
    st.round = _int(fields, "round", 1, rounds if rounds is not None else 10**6)
    st.dealer = _int(fields, "dealer", 0, last)
    st.turn = _int(fields, "turn", 0, last)
    st.to_act = plan.to_act[st.turn]
    cap = plan.max_turns
    # a round ends as its cap-th turn completes: only a finished match holds the cap itself
    st.turns = _int(fields, "turns", 0, 10**6 if cap is None else cap - (phase != OVER))
    st.ender = _int(fields, "ender", 0, last, null=True)
    st.final_left = _int(fields, "final", 0 if phase == OVER else 1, last, null=True)
    totals = fields["totals"]
    if not (
        isinstance(totals, list)
        and len(totals) == players
        and all(isinstance(t, int) and not isinstance(t, bool) for t in totals)
    ):
        raise _bad(f"totals must be {players} integers, not {totals!r}")
    st.sheet.totals = list(totals)
    _read_removed(st, fields.get("removed"))
    if phase == OVER:  # GOLF-GAME-1: the match ended; nobody acts
        st.result = read_result(fields["result"], players)
        _check_piles(st)  # (its piles as any phase holds them: a resignation ends one mid-turn)
        st.is_over = True
        st.to_act = ()
        return st
    limit = options.get("points_limit")
    if limit is not None and max(totals) >= limit:
        raise _bad(f"a total reaches the points limit {limit}: the match is over")
    _check_piles(st)
    _check_groups(st)
    _check_turn(st)
    if veto is not None and phase == SETUP:
        _check_setup_vetoes(st, veto)
    return st


def _read_removed(st: GolfState, removed: Any) -> None:
    """Set ``st.slots`` from the ``removed`` field (whole cancelled groups only)."""
    plan = st.plan
    if removed is None:
        return
    size = plan.layout.size
    if not (isinstance(removed, list) and len(removed) == st.players):
        raise _bad(f"removed must hold one list of positions per seat, not {removed!r}")
    slots: list[tuple[int, ...] | None] = []
    for seat, gone in enumerate(removed):
        if not (
            isinstance(gone, list)
            and all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p < size for p in gone)
            and len(set(gone)) == len(gone)
        ):
            raise _bad(f"removed positions of seat {seat} must be distinct positions, not {gone!r}")
        covered = {p for g in plan.groups if set(g) <= set(gone) for p in g}
        if covered != set(gone):
            msg = f"seat {seat} has removed positions {gone} that are not whole cancelled groups of this configuration"
            raise _bad(msg)
        if not gone:
            slots.append(None)
            continue
        k = 0
        row: list[int] = []
        for p in range(size):
            row.append(-1 if p in covered else k)
            k += p not in covered
        slots.append(tuple(row))
    st.slots = tuple(slots)


def _marks(hand: bool, seat: int) -> tuple[int, ...]:
    """Who may know a card of *seat*'s face-down grid: its owner always, in a hand (GOLF4H-1);
    else nobody yet, its owner (a peek, a drawn card placed) or all (a card from the discards)."""
    return (1 << seat, ALL) if hand else (0, 1 << seat, ALL)


def _check_piles(st: GolfState) -> None:
    """Check every pile's size and marks against the phase, and count face-down cards."""
    plan = st.plan
    layout = plan.layout
    cards = st.zones.cards
    seen = st.zones.seen
    for seat, z in enumerate(plan.grid):
        want = layout.size - st.gone(seat)
        if len(cards[z]) != want:
            raise _bad(f"grid.{seat} must hold {want} cards, not {len(cards[z])}")
        masks = seen[z]
        if plan.face_up_grid and any(m not in (0, ALL) for m in masks):
            raise _bad(f"grid.{seat}: a {layout.name} card is face up (!) or unknown to all")
        if not plan.face_up_grid and any(m not in _marks(layout.hand, seat) for m in masks):
            who = "" if layout.hand else "nobody, "
            raise _bad(
                f"grid.{seat}: a {layout.name} card is known to {who}its owner (@{seat}) or all (!)"
            )
        st.down[seat] = sum(m != ALL for m in masks) if plan.face_up_grid else layout.size
    if any(seen[plan.stock]):
        raise _bad("stock cards are face down: nobody may know them")
    if any(m != ALL for m in seen[plan.discard]):
        raise _bad("every discard was seen by everyone: mark each with '!'")
    if not cards[plan.discard] and st.phase not in (TAKEN, OVER):
        raise _bad("the discard pile may be empty only while its top card is held ('taken')")
    held = seen[plan.held[0]]
    if st.phase == OVER:  # ended in any phase: a card held, by its drawer or from the discards
        if len(held) > 1 or any(m != ALL and m & (m - 1) for m in held) or 0 in held:
            raise _bad("the held pile holds at most one card, known to all or to one seat")
        return
    holding = st.phase in (PLACE, TAKEN)
    if len(held) != holding:
        raise _bad(
            f"the held pile must hold {int(holding)} card(s) in phase {_PHASE_WORDS[st.phase]!r}"
        )
    if holding:
        want_mask = ALL if st.phase == TAKEN else 1 << st.turn
        if held[0] != want_mask:
            who = "everyone ('!')" if st.phase == TAKEN else f"only seat {st.turn} ('@{st.turn}')"
            raise _bad(f"the held card must be known to {who}")


def _check_turn(st: GolfState) -> None:
    """Check the seat to act, the ender and the final turns, and derive the setup progress."""
    plan = st.plan
    layout = plan.layout
    players = st.players
    if st.phase == SETUP:
        if not layout.initial:
            raise _bad(f"{layout.name} has no setup phase")
        if st.ender >= 0 or st.final_left >= 0 or st.turns:
            raise _bad("in the setup phase there is no ender, final turn or completed turn")
        _setup_progress(st)
        return
    if (st.ender < 0) != (st.final_left < 0):
        raise _bad("ender and final are set together (final turns follow an ender) or not at all")
    if st.ender >= 0:
        if plan.trigger and (not plan.final_turns or st.down[st.ender]):
            raise _bad(f"seat {st.ender} cannot be the ender: its layout is not complete here")
        expected = (st.ender + players - st.final_left) % players
        if st.turn != expected:
            msg = f"with {st.final_left} final turn(s) left after seat {st.ender}, seat {expected} acts, not {st.turn}"
            raise _bad(msg)
    elif plan.trigger and 0 in st.down:
        raise _bad(f"seat {st.down.index(0)} has completed its layout, so there must be an ender")


def _setup_progress(st: GolfState) -> None:
    """Derive ``setup_done``/``setup_left`` and check every seat did its setup in order."""
    plan = st.plan
    layout = plan.layout
    players = st.players
    first = (st.dealer + 1) % players
    acting = (st.turn - first) % players
    for seat, z in enumerate(plan.grid):
        masks = st.zones.seen[z]
        for pos in range(layout.size):
            i = st.index(seat, pos)
            if layout.setup == "peek" and i >= 0 and masks[i] == ALL:  # no discard taken yet
                msg = f"seat {seat}'s card at position {pos} is known to all in the setup, before any turn (GOLF4-TURN-3)"
                raise _bad(msg)
        done = _setup_made(st, seat)
        count = done.bit_count()
        order = (seat - first) % players
        if order < acting:
            ok = count == layout.initial
        elif order == acting:
            ok = count < layout.initial
            st.setup_done = done
            st.setup_left = layout.initial - count
        else:
            ok = count == 0
        if not ok:
            msg = f"seat {seat} has made {count} of its {layout.initial} setup {layout.setup}s, which does not fit seat {st.turn} acting in the setup"
            raise _bad(msg)


def _setup_made(st: GolfState, seat: int) -> int:
    """The positions of *seat*'s layout its setup flips or peeks could have made (a bit each):
    face up or removed, or in a peeking layout known to its owner."""
    layout = st.plan.layout
    masks = st.zones.seen[st.plan.grid[seat]]
    done = 0
    for pos in range(layout.size):
        i = st.index(seat, pos)
        if i < 0 or masks[i] == ALL or (layout.setup == "peek" and masks[i] >> seat & 1):
            done |= 1 << pos
    return done


def _check_groups(st: GolfState) -> None:
    """A removing house rule takes a complete cancelled group of cards every seat sees (face
    up, or in a face-down layout known to all) away at once (see ``golf_removable_groups``):
    none may still lie in a layout."""
    groups = st.plan.groups
    if not groups:
        return
    for seat in range(st.players):
        keys = st.keys_and_points(seat)[0]
        up = [p in st.face_up(seat) for p in range(st.plan.layout.size)]
        kept = st.plan.kept_keys  # groups the scorer chooses within stay (GOLF-SCORE-7)
        left = [g for g in complete_groups(keys, up, groups) if keys[g[0]] not in kept]
        if left:
            msg = f"seat {seat} has a face-up cancelled group at positions {list(left[0])}, which the configuration's removing rule takes away at once"
            raise _bad(msg)


def _check_setup_vetoes(st: GolfState, veto: Callable[..., list[Veto]]) -> None:
    """Refuse setup flips or peeks the house rules' vetoes allow in no order.

    Each seat's setup actions so far are tried in every order (at most 3! of them) on a
    scratch copy where that seat has made none yet; a removed position counts as flipped.
    """
    plan = st.plan
    layout = plan.layout
    acts = plan.flip_act if layout.setup == "flip" else plan.peek_act
    size = layout.size
    for seat in range(st.players):
        gz = plan.grid[seat]
        masks = st.zones.seen[gz]
        mine = 1 << seat
        done = [
            p
            for p in range(size)
            if (i := st.index(seat, p)) < 0
            or masks[i] == ALL
            or (not plan.face_up_grid and masks[i] & mine)
        ]
        if not done:
            continue
        full = st.layout_of(seat)
        spare = next(c for c in full if c is not None)
        refusals: list[Veto] = []
        for order in itertools.permutations(done):
            scratch = st.clone()
            slots = list(scratch.slots)
            slots[seat] = None
            scratch.slots = tuple(slots)
            scratch.zones.cards[gz] = [spare if c is None else c for c in full]
            scratch.zones.seen[gz] = [0] * size
            scratch.phase, scratch.turn, scratch.to_act = SETUP, seat, plan.to_act[seat]
            scratch.down[seat] = size
            scratch.setup_done, scratch.setup_left = 0, layout.initial
            for pos in order:
                found = _vetoes(veto, scratch, acts[seat][pos])
                if found:
                    refusals.append(found[0])
                    break
                scratch.zones.seen[gz][pos] = ALL if plan.face_up_grid else mine
                scratch.down[seat] -= plan.face_up_grid
                scratch.setup_done |= 1 << pos
                scratch.setup_left -= 1
            else:
                break  # an order the rules allow
        else:
            first = refusals[0]
            msg = f"seat {seat}'s setup {layout.setup}s at {done} break a house rule: {first.reason} ({first.rule_id})"
            raise _bad(msg)


def _vetoes(veto: Callable[..., list[Veto]], state: GolfState, action: Any) -> list[Veto]:
    """The chain's vetoes of *action*; a hook that fails is a :class:`~cardcore.PluginError`."""
    try:
        return veto(state=state, action=action)
    except CardcoreError:
        raise
    except Exception as exc:
        msg = f"a forbid_action hook failed while golf checked a setup position: {exc!r}"
        raise PluginError(msg, plugin="golf") from exc
