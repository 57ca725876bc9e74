"""What search agents need from Golf: positions from a seat's view, a rollout policy, a utility.

:class:`~cardcore_golf.logic.GolfLogic` takes these functions as its methods (the optional
search hooks of :class:`cardcore.GameLogic`):

* :func:`position_from_view` writes a Golf position (:mod:`cardcore_golf.position`) from a
  seat's view whose hidden cards the search dealt at random: the fields come from the view's
  table, and the knowledge marks are set as Golf reads them (a face-up card is known to all;
  in the face-down layouts a card the seat sees is one it peeked at or drew, and every seat
  that has made its setup peeked at that many of its cards, where the house rules' vetoes
  allow; the held card is known to all when it was taken from the discard pile, else to its
  drawer). Completed turns (``turns``, which only a ``max_turns`` cap reads) are not in the
  view: a sample starts them at 0.
* :func:`rollout_action` plays like the greedy agent, from the acting seat's knowledge only:
  take a low or pairing discard, knock with a low estimate, replace the card it gains most
  on, else discard.
* :func:`utility` is the negated match totals (lowest wins, GOLF-GAME-2).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardcore import ALL, CardcoreError, OptionError, Zones
from cardcore.positions import write_position
from cardcore_golf.actions import Discard, Draw, GolfAction, Knock, Replace, Take
from cardcore_golf.grids import layout_for
from cardcore_golf.state import DRAW_PHASE, SETUP, GolfState

if TYPE_CHECKING:
    from cardcore_golf.logic import GolfLogic

__all__ = ["UNKNOWN", "position_from_view", "rollout_action", "utility"]

UNKNOWN = 5.0
"""The value the rollout policy assumes for a card the acting seat has not seen."""


def position_from_view(logic: GolfLogic, view: Mapping[str, Any], zones: Zones) -> str | None:
    """Write the Golf position of *view* with the hidden cards dealt into *zones*."""
    table = view["table"]
    seat = -1 if view["seat"] is None else int(view["seat"])  # a spectator owns no grid
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
    _place_known(view, zones, plan.grid)
    # None: a view written before the field; a card known to all may lie face down (GOLF4)
    public = _public(table.get("public"), grids, seat, shape.face_down)
    for owner, grid in enumerate(grids):
        masks = seen[plan.grid[owner]]
        if shape.hand:  # a hand is known to its owner: the deal marked it so
            if public is not None:  # but a discard it took is known to all
                for pos in public[owner]:
                    masks[pos] = ALL
            continue
        present = [c for c in grid if c != "--"]
        if not shape.face_down:
            continue  # face up or unknown to all: the deal's marks are right
        own = 1 << seat if owner == seat else ALL  # the seat sees another's card only face up
        for i, card in enumerate(present):
            masks[i] = own if card is not None else 0
        if owner == seat and public is not None:  # GOLF4: a discard it took lies face down
            for pos in public[owner]:  # (no position of a face-down layout is ever removed)
                masks[pos] = ALL
        if owner != seat and setup_done[owner] and shape.setup == "peek":
            hidden = [i for i, m in enumerate(masks) if m == 0]
            allowed = _peekable(logic, plan, view["options"], owner, hidden)
            hidden = allowed if len(allowed) >= shape.initial else hidden
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


def _public(
    public: Any, grids: Sequence[Sequence[Any]], seat: int, down: bool
) -> list[list[int]] | None:
    """The table's ``public`` positions, checked: empty in a face-up layout; in a face-down one
    (*down*), ascending, every card shown of another's layout (the seat sees it only if all
    do) and some of the seat's own."""
    if public is None:
        return None
    if not isinstance(public, list) or len(public) != len(grids):
        raise CardcoreError("not a golf view: 'public' is not a list of one list per seat")
    for owner, (positions, grid) in enumerate(zip(public, grids, strict=True)):
        shown = [p for p, c in enumerate(grid) if c not in (None, "--")] if down else []
        if (
            not isinstance(positions, list)
            or any(type(p) is not int for p in positions)
            or not set(positions) <= set(shown)
            or positions != sorted(set(positions))
            or (positions != shown and owner != seat)
        ):
            raise CardcoreError(  # (no value quoted: a 5,000-digit int cannot be written)
                f"not a golf view: 'public' of seat {owner} does not name the positions its grids show"
            )
    return public


def _peekable(
    logic: GolfLogic, plan: Any, options: Mapping[str, Any], owner: int, hidden: list[int]
) -> list[int]:
    """The positions of *hidden* (GOLF4: no position is ever removed) that *owner* may peek at
    by the house rules' ``forbid_action`` vetoes, which the position reader checks too."""
    veto = logic.ruleset.veto
    if veto is None:
        return hidden
    blank = GolfState(plan.players, options, plan)
    blank.turn, blank.to_act = owner, plan.to_act[owner]
    return [p for p in hidden if not veto(state=blank, action=plan.peek_act[owner][p])]


def _place_known(view: Mapping[str, Any], zones: Zones, grid_ids: Sequence[int]) -> None:
    """Put back every grid card the table shows but the piles hide (a taken discard in a hand).

    The search dealt such a card to some hidden place: it swaps with the card dealt where the
    table shows it, so the sample still holds every card exactly once.
    """
    shown_zones = view["zones"]
    for owner, grid in enumerate(view["table"]["grids"]):
        pile = shown_zones[grid_ids[owner]]["cards"][::-1]  # bottom first, as the grid
        if [c for c in grid if c != "--"] != pile:
            break
    else:
        return  # the piles show every grid card the table shows: nothing to put back
    cards = zones.cards
    hidden: dict[str, list[tuple[int, int]]] = {}
    for z, shown in enumerate(shown_zones):
        count = len(shown["cards"])
        for k, text in enumerate(shown["cards"]):
            if text is None:
                i = count - 1 - k  # the view lists piles top first
                hidden.setdefault(str(cards[z][i]), []).append((z, i))
    for owner, grid in enumerate(view["table"]["grids"]):
        z = grid_ids[owner]
        present = [c for c in grid if c != "--"]
        for i, text in enumerate(present):
            if text is None or str(cards[z][i]) == text or not hidden.get(text):
                continue
            hz, hi = hidden[text].pop()
            moved = str(cards[z][i])
            cards[hz][hi], cards[z][i] = cards[z][i], cards[hz][hi]
            zones.seen[z][i] = ALL
            slots = hidden.get(moved)
            if slots is not None and (z, i) in slots:
                slots[slots.index((z, i))] = (hz, hi)


def _setup_done(seat: int, phase: str, turn: int, dealer: int, players: int) -> list[bool]:
    """Which seats have made their setup (flips or peeks), from the seat acting now."""
    if phase != "setup":
        return [True] * players
    first = (dealer + 1) % players
    acting = (turn - first) % players
    return [(s - first) % players < acting for s in range(players)]


def rounds_played(logic: GolfLogic, state: GolfState) -> int:
    """The rounds finished: counted, where the default builds the whole history to count it."""
    return len(state.past)


def utility(logic: GolfLogic, state: GolfState) -> tuple[float, ...]:
    """The negated match totals plus the round in play as it stands: lowest wins (GOLF-GAME-2).

    The round in play counts every card somebody knows at its points (after the layout's
    cancelling) and every card nobody knows at the mean of the deck, so a freshly dealt
    round adds the same to every seat and a rollout cut short still tells good from bad.
    """
    plan = state.plan
    mean = _MEANS.get(id(plan))
    if mean is None or mean[0] is not plan:
        values = list(plan.points.values())
        mean = (plan, sum(values) / len(values))
        if len(_MEANS) > 64:
            _MEANS.clear()
        _MEANS[id(plan)] = mean
    totals = state.sheet.totals
    if state.is_over:
        return tuple(-float(t) for t in totals)
    out = []
    for seat in range(state.players):
        keys, points = state.keys_and_points(seat)
        masks = state.zones.seen[plan.grid[seat]]
        slots = state.slots[seat]
        unknown = 0
        for pos in range(len(keys)):
            i = pos if slots is None else slots[pos]
            if i >= 0 and masks[i] == 0:
                keys[pos] = -100 - pos  # pairs with nothing
                points[pos] = 0
                unknown += 1
        out.append(-float(totals[seat]) - plan.scorer(keys, points) - unknown * mean[1])
    return tuple(out)


_MEANS: dict[int, tuple[object, float]] = {}
"""Per round plan: the mean points of a card of its deck."""


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
    cards = state.zones.cards
    points = plan.points_by_id
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
        values: list[float] | None = None
        if knock is not None:
            values, _ = _grid(state, seat)
            if sum(values) <= 2 * plan.layout.size:
                return knock
        pile = cards[plan.discard]
        if take is not None and pile:
            top = pile[-1]
            if points.get(id(top), 10) <= 3:
                return take
            values, keys = _grid(state, seat)
            if (
                _pair_slot(plan.layout.rows, plan.layout.cols, plan.key_by_id.get(id(top)), keys)
                >= 0
            ):
                return take
        return draw
    held = cards[plan.held[seat]][-1]
    value = points.get(id(held), 10)
    values, keys = _grid(state, seat)
    slot = _pair_slot(plan.layout.rows, plan.layout.cols, plan.key_by_id.get(id(held)), keys)
    best: GolfAction | None = None
    best_gain = 0.0
    worst: GolfAction | None = None
    worst_value = -100.0
    discard = None
    for action in legal:
        if type(action) is Replace:
            pos = action.pos
            here = values[pos]
            gain = here - value + (0.5 if keys[pos] == -2 else 0.0)
            if pos == slot:
                gain = here + values[(pos + plan.layout.cols) % (2 * plan.layout.cols)]
            if gain > best_gain:
                best, best_gain = action, gain
            if here > worst_value:
                worst, worst_value = action, here
        elif type(action) is Discard:
            discard = action
    if best is not None:
        return best
    return discard if discard is not None else worst


def _grid(state: GolfState, seat: int) -> tuple[list[float], list[int]]:
    """*seat*'s points and pairing keys by position as it knows them.

    An unseen card counts :data:`UNKNOWN` with key -2; a removed position 0 with key -1.
    """
    plan = state.plan
    z = plan.grid[seat]
    pile = state.zones.cards[z]
    masks = state.zones.seen[z]
    points = plan.points_by_id
    keys_by_id = plan.key_by_id
    bit = 1 << seat
    own = plan.layout.hand
    slots = state.slots[seat]
    values: list[float] = []
    keys: list[int] = []
    for pos in range(plan.layout.size):
        i = pos if slots is None else slots[pos]
        if i < 0:
            values.append(0.0)
            keys.append(-1)
            continue
        mask = masks[i]
        if own or mask == ALL or mask & bit:
            card = id(pile[i])
            values.append(float(points.get(card, 10)))
            keys.append(keys_by_id.get(card, -3))
        else:
            values.append(UNKNOWN)
            keys.append(-2)
    return values, keys


def _pair_slot(rows: int, cols: int, key: int | None, keys: list[int]) -> int:
    """Two-row layouts: the position where a card of *key* pairs a known partner, else -1."""
    if rows != 2 or key is None:
        return -1
    for pos in range(2 * cols):
        partner = (pos + cols) % (2 * cols)
        if keys[partner] == key and keys[pos] != key and keys[pos] != -1:
            return pos
    return -1
