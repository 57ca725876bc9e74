"""What search agents need from Golf: positions from a seat's view, a rollout policy, a utility.

:class:`~cardcore_golf.logic.GolfLogic` takes these functions as its methods (the optional
search hooks of :class:`cardcore.GameLogic`):

* :func:`position_from_view` writes a Golf position (:mod:`cardcore_golf.position`) from a
  seat's view whose hidden cards the search dealt at random: the fields come from the view's
  table, and the knowledge marks are set as Golf reads them (a face-up card is known to all;
  in the face-down layouts a card the seat sees is one it peeked at or drew, and every seat
  that has made its setup peeked at that many of its cards; the held card is known to all
  when it was taken from the discard pile, else to its drawer). Completed turns (``turns``,
  which only a ``max_turns`` cap reads) are not in the view: a sample starts them at 0.
* :func:`rollout_action` plays like the greedy agent, from the acting seat's knowledge only:
  take a low or pairing discard, knock with a low estimate, replace the card it gains most
  on, else discard.
* :func:`utility` is the negated match totals (lowest wins, GOLF-GAME-2).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardcore import ALL, OptionError, Zones
from cardcore.positions import write_position
from cardcore_golf.actions import Discard, Draw, GolfAction, Knock, Replace, Take
from cardcore_golf.grids import layout_for
from cardcore_golf.state import DRAW_PHASE, SETUP, GolfState

if TYPE_CHECKING:
    from cardcore_golf.logic import GolfLogic

__all__ = ["UNKNOWN", "position_from_view", "rollout_action", "utility"]

UNKNOWN = 5.0
"""The value the rollout policy assumes for a card the acting seat has not seen."""


def position_from_view(
    logic: GolfLogic, view: Mapping[str, Any], zones: Zones
) -> str | None:
    """Write the Golf position of *view* with the hidden cards dealt into *zones*."""
    table = view["table"]
    seat = int(view["seat"])
    players = len(view["players"])
    shape = layout_for(table["layout"])
    if shape is None:
        msg = f"not a golf layout: {table['layout']!r}"
        raise OptionError(msg)
    plan = logic.plan(players, view["options"])
    seen = zones.seen
    grids: list[list[str | None]] = table["grids"]
    removed = [[p for p, c in enumerate(grid) if c == "--"] for grid in grids]
    phase = table["phase"]
    turn = int(table["turn"])
    setup_done = _setup_done(seat, phase, turn, int(table["dealer"]), players)
    rng = random.Random(len(seen[plan.stock]))  # which positions others peeked at: any will do
    for owner, grid in enumerate(grids):
        if shape.hand:
            continue  # a hand is known to its owner: the deal marked it so
        masks = seen[plan.grid[owner]]
        present = [c for c in grid if c != "--"]
        if not shape.face_down:
            continue  # face up or unknown to all: the deal's marks are right
        own = 1 << seat if owner == seat else ALL  # the seat sees another's card only face up
        for i, card in enumerate(present):
            masks[i] = own if card is not None else 0
        if owner != seat and setup_done[owner] and shape.setup == "peek":
            hidden = [i for i, m in enumerate(masks) if m == 0]
            for i in rng.sample(hidden, min(shape.initial, len(hidden))):
                masks[i] = 1 << owner
    held = table["held"]
    if held is not None:
        holder = int(held["seat"])
        if held["card"] is None:
            seen[plan.held[holder]][-1] = 1 << holder
            phase = "place"
        elif holder != seat or "discard" not in view["legal"]:
            seen[plan.held[holder]][-1] = ALL
            phase = "taken"
        else:
            seen[plan.held[holder]][-1] = 1 << holder
    fields: dict[str, Any] = {
        "layout": shape.key,
        "round": table["round"],
        "dealer": table["dealer"],
        "turn": turn,
        "phase": phase,
        "turns": 0,
        "ender": table["ender"],
        "final": table["final_turns_left"],
        "totals": table["totals"],
    }
    if any(removed):
        fields["removed"] = removed
    return write_position("golf", fields, zones)


def _setup_done(seat: int, phase: str, turn: int, dealer: int, players: int) -> list[bool]:
    """Which seats have made their setup (flips or peeks), from the seat acting now."""
    if phase != "setup":
        return [True] * players
    first = (dealer + 1) % players
    acting = (turn - first) % players
    return [(s - first) % players < acting for s in range(players)]


def utility(logic: GolfLogic, state: GolfState) -> tuple[float, ...]:
    """The negated match totals: lowest wins (GOLF-GAME-2)."""
    return tuple(-float(t) for t in state.sheet.totals)


def rollout_action(
    logic: GolfLogic,
    state: GolfState,
    seat: int,
    legal: Sequence[GolfAction],
    rng: random.Random,
) -> GolfAction | None:
    """A greedy choice from *seat*'s knowledge only, or ``None`` (random) in the setup."""
    phase = state.phase
    if phase == SETUP:
        return None
    plan = state.plan
    layout = plan.layout
    cards = state.zones.cards
    points = plan.points_by_id
    values = _known_values(state, seat)
    if phase == DRAW_PHASE:
        draw = take = knock = None
        for action in legal:
            kind = type(action)
            if kind is Draw:
                draw = action
            elif kind is Take:
                take = action
            elif kind is Knock:
                knock = action
        if knock is not None and sum(v for v in values if v is not None) <= 2 * layout.size:
            return knock
        pile = cards[plan.discard]
        if take is not None and pile:
            top = pile[-1]
            if points.get(id(top), 10) <= 3 or _pair_gain(state, seat, top, values) is not None:
                return take
        return draw if draw is not None else None
    held = cards[plan.held[seat]][-1]
    value = points.get(id(held), 10)
    pair = _pair_gain(state, seat, held, values)
    best: GolfAction | None = None
    best_gain = 0.0
    worst: GolfAction | None = None
    worst_value = -100.0
    discard = None
    for action in legal:
        if type(action) is Replace:
            here = values[action.pos]
            if here is None:
                continue
            gain = here - value + (0.5 if here == UNKNOWN else 0.0)
            if pair is not None and pair[0] == action.pos:
                gain = pair[1]
            if gain > best_gain:
                best, best_gain = action, gain
            if here > worst_value:
                worst, worst_value = action, here
        elif type(action) is Discard:
            discard = action
    if best is not None:
        return best
    return discard if discard is not None else worst


def _known_values(state: GolfState, seat: int) -> list[float | None]:
    """*seat*'s points by position as it knows them (:data:`UNKNOWN` unseen, ``None`` removed)."""
    plan = state.plan
    z = plan.grid[seat]
    pile = state.zones.cards[z]
    masks = state.zones.seen[z]
    points = plan.points_by_id
    bit = 1 << seat
    own = plan.layout.hand
    slots = state.slots[seat]
    out: list[float | None] = []
    for pos in range(plan.layout.size):
        i = pos if slots is None else slots[pos]
        if i < 0:
            out.append(None)
            continue
        mask = masks[i]
        if own or mask == ALL or mask & bit:
            out.append(float(points.get(id(pile[i]), 10)))
        else:
            out.append(UNKNOWN)
    return out


def _pair_gain(
    state: GolfState, seat: int, card: object, values: list[float | None]
) -> tuple[int, float] | None:
    """Two-row layouts: the position where *card* pairs a known partner, and the gain."""
    plan = state.plan
    layout = plan.layout
    if layout.rows != 2:
        return None
    key = plan.key_by_id.get(id(card))
    if key is None:
        return None
    cols = layout.cols
    z = plan.grid[seat]
    pile = state.zones.cards[z]
    masks = state.zones.seen[z]
    bit = 1 << seat
    slots = state.slots[seat]
    for pos in range(2 * cols):
        partner = (pos + cols) % (2 * cols)
        i = pos if slots is None else slots[pos]
        j = partner if slots is None else slots[partner]
        if i < 0 or j < 0:
            continue
        mask = masks[j]
        if not (mask == ALL or mask & bit) or plan.key_by_id.get(id(pile[j])) != key:
            continue
        if (masks[i] == ALL or masks[i] & bit) and plan.key_by_id.get(id(pile[i])) == key:
            continue  # already a pair
        here = values[pos]
        partner_value = values[partner]
        if here is None or partner_value is None:
            continue
        return pos, here + partner_value
    return None
