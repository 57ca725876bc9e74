"""Golf's round plan (static, shared), its mutable slotted state and its past rounds.

A :class:`RoundPlan` is built once per configuration, layout, player count and turn cap: zone
ids, the interned actions of every seat, the legal-action tuples of each phase, the points of
every card and the resolved scorer. Every :class:`GolfState` of that shape points to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attrs import frozen

from cardcore import (
    ALL,
    Card,
    GameState,
    Layout,
    ScoreSheet,
    ScoreTable,
    Visibility,
    Zones,
    ZoneSpec,
)
from cardcore_golf.actions import Discard, Draw, Flip, GolfAction, Knock, Peek, Replace, Take
from cardcore_golf.grids import GridShape, Scorer, cancels_without_choice, columns_of

__all__ = [
    "DISCARD",
    "DRAW_PHASE",
    "HELD",
    "OVER",
    "PHASE_NAMES",
    "PHASE_WORDS",
    "PLACE",
    "SETUP",
    "STOCK",
    "TAKEN",
    "GolfState",
    "PastRound",
    "RoundPlan",
]

SETUP, DRAW_PHASE, PLACE, TAKEN, OVER = range(5)
"""Phases: initial flips/peeks, start of a turn, holding a stock card, holding a discard, over."""

STOCK, DISCARD, HELD = range(3)
"""Zone ids of the stock, the discard pile and the held card in every plan (``RoundPlan.stock``,
``.discard``, ``.held[seat]``); seat *s*'s grid is ``3 + s``."""

PHASE_NAMES = ("setup", "draw", "place", "place", "over")
"""The phase as a view shows it (holding a card is ``"place"`` whatever its source)."""

PHASE_WORDS = ("setup", "draw", "place", "taken", "over")
"""The phase in a position and in :func:`~cardcore_golf.actions.explain` (``"taken"``: holding a
card taken from the discard pile)."""


@frozen
class PastRound:
    """One finished round (GOLF-ROUND-1): revealed layouts, scores, totals after it, ender.

    :param round: The round's number, from 1.
    :param grids: Every seat's layout, row-major (``None`` = removed position).
    :param scores: The round's scores, house rules applied.
    :param totals: The running totals after the round.
    :param ender: The seat that knocked or completed its layout, or ``None``.
    """

    round: int
    grids: tuple[tuple[Card | None, ...], ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    ender: int | None

    def to_json(self) -> dict[str, object]:
        """Return the round as JSON-ready data (``"--"`` for a removed position)."""
        return {
            "round": self.round,
            "grids": [["--" if c is None else str(c) for c in row] for row in self.grids],
            "scores": list(self.scores),
            "totals": list(self.totals),
            "ender": self.ender,
        }


class RoundPlan:
    """Everything fixed for one layout and player count under one configuration.

    Not copied by :meth:`GolfState.clone` (it has no ``clone``): states share it.
    """

    __slots__ = (
        "by_text",
        "column_pairs",
        "columns",
        "deal_plan",
        "discard",
        "discard_act",
        "draw_act",
        "face_up_grid",
        "final_turns",
        "flip_act",
        "gather",
        "grid",
        "grid_mask",
        "group_of",
        "groups",
        "held",
        "kept_keys",
        "key_by_id",
        "keys",
        "knock_act",
        "layout",
        "legal_draw",
        "legal_draw_knock",
        "legal_place",
        "legal_start",
        "legal_taken",
        "max_turns",
        "next_seat",
        "no_slots",
        "pass_to",
        "peek_act",
        "players",
        "points",
        "points_by_id",
        "points_limit",
        "pos_act",
        "replace_act",
        "rounds",
        "scorer",
        "setup_table",
        "simple_end",
        "single_act",
        "stock",
        "table",
        "take_act",
        "to_act",
        "trigger",
        "zone_layout",
    )

    def __init__(
        self,
        layout: GridShape,
        players: int,
        *,
        table: ScoreTable,
        points: Mapping[Card, int],
        scorer: Scorer,
        final_turns: bool,
        groups: tuple[tuple[int, ...], ...],
        max_turns: int | None,
        rounds: int | None = 9,
        points_limit: int | None = None,
    ) -> None:
        self.layout = layout
        self.players = players
        self.table = table
        self.points = dict(points)
        self.keys: dict[Card, int] = {card: int(card.rank) for card in points}
        # Cards are interned (Card.parse), so identity lookups skip attrs hashing; the
        # scorer falls back to the value-keyed dicts for any other card object.
        self.key_by_id: dict[int, int] = {id(card): int(card.rank) for card in points}
        self.points_by_id: dict[int, int] = {id(card): value for card, value in points.items()}
        self.scorer = scorer
        self.kept_keys: frozenset[int] = frozenset()
        """Keys whose complete groups stay in the layout: their cards differ in points and
        the scorer chooses which cancel (GOLF-SCORE-7), so removing them could change it."""
        if not cancels_without_choice(scorer):
            by_key: dict[int, set[int]] = {}
            for card, value in points.items():
                by_key.setdefault(int(card.rank), set()).add(value)
            self.kept_keys = frozenset(k for k, values in by_key.items() if len(values) > 1)
        self.columns = columns_of(scorer)
        self.column_pairs = tuple((top, top + self.columns) for top in range(self.columns))
        """The scorer's columns if it is :func:`~cardcore_golf.grids.column_scorer`'s, else 0."""
        self.rounds = rounds
        """The rounds of a match (GOLF-GAME-1), ``None`` for no cap."""
        self.points_limit = points_limit
        self.final_turns = final_turns
        self.groups = groups
        self.group_of: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(g for g in groups if pos in g) for pos in range(layout.size)
        )
        self.max_turns = max_turns
        self.simple_end = max_turns is None
        self.face_up_grid = not layout.face_down
        self.trigger = not layout.can_knock
        grid_vis = Visibility.OWNER if layout.hand else Visibility.NOBODY
        specs = [ZoneSpec("stock"), ZoneSpec("discard", None, Visibility.TOP)]
        # The card held between draw and replace/discard: one pile for the acting seat; its
        # knowledge mask says who saw it (the drawer, or everybody for a taken discard).
        specs.append(ZoneSpec("held", None, Visibility.NOBODY))
        specs += [ZoneSpec(f"grid.{s}", s, grid_vis, ordered=True) for s in range(players)]
        self.zone_layout = Layout.of(specs)
        self.stock = STOCK
        self.discard = DISCARD
        self.held = (HELD,) * players
        # One pile per seat holds its layout, row-major; see GolfState.slots for removed cards.
        self.grid = tuple(3 + s for s in range(players))
        self.grid_mask = tuple((1 << s) if layout.hand else 0 for s in range(players))
        self.no_slots: tuple[tuple[int, ...] | None, ...] = (None,) * players
        seats = range(players)
        positions = range(layout.size)

        self.to_act = tuple((s,) for s in seats)
        self.next_seat = tuple((s + 1) % players for s in seats)
        self.draw_act = tuple(Draw(s) for s in seats)
        self.take_act = tuple(Take(s) for s in seats)
        self.discard_act = tuple(Discard(s) for s in seats)
        self.knock_act = tuple(Knock(s) for s in seats)
        self.replace_act = tuple(tuple(Replace(s, p) for p in positions) for s in seats)
        self.flip_act = tuple(tuple(Flip(s, p) for p in positions) for s in seats)
        self.peek_act = tuple(tuple(Peek(s, p) for p in positions) for s in seats)
        self.legal_draw: tuple[tuple[GolfAction, ...], ...] = tuple(
            (self.draw_act[s], self.take_act[s]) for s in seats
        )
        self.legal_draw_knock: tuple[tuple[GolfAction, ...], ...] = tuple(
            (self.draw_act[s], self.take_act[s], self.knock_act[s]) for s in seats
        )
        self.legal_start = self.legal_draw_knock if layout.can_knock else self.legal_draw
        self.pass_to: tuple[tuple[int, tuple[int], tuple[GolfAction, ...]], ...] = tuple(
            (n, self.to_act[n], self.legal_start[n]) for n in self.next_seat
        )
        """Per seat, the next seat's ``turn``, ``to_act`` and legal start of a turn."""
        self.single_act: dict[type[GolfAction], tuple[GolfAction, ...]] = {
            Draw: self.draw_act,
            Take: self.take_act,
            Discard: self.discard_act,
            Knock: self.knock_act,
        }
        """Action class -> the interned action of each seat (actions without a position)."""
        self.pos_act: dict[type[GolfAction], tuple[tuple[GolfAction, ...], ...]] = {
            Replace: self.replace_act,
            Flip: self.flip_act,
            Peek: self.peek_act,
        }
        """Action class -> per seat, the interned action of each position."""
        self.by_text: tuple[dict[str, GolfAction], ...] = tuple(
            {
                str(a): a
                for a in (
                    self.draw_act[s],
                    self.take_act[s],
                    self.discard_act[s],
                    self.knock_act[s],
                    *self.replace_act[s],
                    *self.flip_act[s],
                    *self.peek_act[s],
                )
            }
            for s in seats
        )
        """Per seat, the canonical notation of each interned action (what records hold)."""
        self.setup_table: tuple[list[tuple[GolfAction, ...] | None], ...] = tuple(
            [None] * (1 << layout.size) for s in seats
        )
        """Per seat, :meth:`setup_legal` by done mask (filled as they are asked for)."""
        n = layout.size * players
        self.deal_plan: tuple[tuple[tuple[int, slice, int], ...], ...] = tuple(
            tuple(
                (
                    self.grid[(first + i) % players],
                    slice(-1 - i, -1 - i - n, -players),
                    self.grid_mask[(first + i) % players],
                )
                for i in range(players)
            )
            for first in seats
        )
        """Per first seat: each grid's zone, its cards' slice of the stock (the k-th card off
        the top goes to seat ``first + k % players``, position ``k // players``) and its mask."""
        self.gather = tuple(range(1, 3 + players))
        """The zones gathered onto the stock after a round, in order (discard, held, grids)."""
        self.legal_place: tuple[tuple[GolfAction, ...], ...] = tuple(
            (*self.replace_act[s], self.discard_act[s]) for s in seats
        )
        self.legal_taken: tuple[tuple[GolfAction, ...], ...] = tuple(
            self.replace_act[s] for s in seats
        )

    def setup_legal(self, seat: int, done: int) -> tuple[GolfAction, ...]:
        """Return *seat*'s setup actions (flips or peeks) for the positions not in *done*.

        :param done: Bit ``1 << pos`` set for each position the seat already turned or saw.
        """
        acts = self.setup_table[seat][done]
        if acts is None:
            table = self.flip_act if self.layout.setup == "flip" else self.peek_act
            acts = tuple(table[seat][p] for p in range(self.layout.size) if not (done >> p) & 1)
            self.setup_table[seat][done] = acts
        return acts

    def column_scores(self, cards: list[list[Card]]) -> list[int] | None:
        """Score every grid with :attr:`columns` (no position removed): what the column
        scorer answers for :meth:`GolfState.keys_and_points`, or ``None`` for a card that is
        not interned (the caller then builds the lists)."""
        pairs = self.column_pairs
        points = self.points_by_id
        out = []
        try:
            for z in self.grid:
                pile = cards[z]
                total = 0
                for top, bottom in pairs:
                    a = pile[top]
                    b = pile[bottom]
                    if a.rank != b.rank:  # the pairing key is int(rank)
                        total += points[id(a)] + points[id(b)]
                out.append(total)
        except KeyError:
            return None
        return out

    def new_zones(self) -> Zones:
        """Return empty zones of this plan's shape."""
        return Zones(self.zone_layout)

    def __repr__(self) -> str:
        return f"<RoundPlan {self.layout.name} players={self.players}>"


class GolfState(GameState):
    """The mutable Golf table. Only :class:`~cardcore_golf.logic.GolfLogic` changes it.

    Slots beyond the core's: ``plan`` (shared :class:`RoundPlan`), ``phase`` (see the phase
    constants), ``turn`` (the seat acting), ``dealer``, ``setup_left`` (setup actions the
    acting seat still owes), ``setup_done`` (bit mask of the positions it already turned or
    saw), ``down`` (face-down cards per seat, GOLF6 family), ``ender`` (seat, or -1),
    ``final_left`` (final turns still to play, -1 outside the final turns), ``slots`` (per
    seat ``None``, or after a removal a tuple: position -> index in the grid pile, -1 for a
    removed position), ``legal`` (the acting seat's legal actions, or ``None`` when they must
    be computed), ``turns`` (completed turns this round that could end it: every turn under ``max_turns``), ``round`` (from 1), ``sheet`` (the
    :class:`~cardcore.ScoreSheet`) and ``past`` (the finished rounds, oldest first).
    """

    __slots__ = (
        "dealer",
        "down",
        "ender",
        "final_left",
        "legal",
        "past",
        "phase",
        "plan",
        "round",
        "setup_done",
        "setup_left",
        "sheet",
        "slots",
        "turn",
        "turns",
    )
    _mutable = ("zones", "down", "sheet")  # every other slot holds an immutable value

    def __init__(self, players: int, options: Mapping[str, Any], plan: RoundPlan) -> None:
        super().__init__(players, options, plan.new_zones())
        self.plan = plan
        self.phase = SETUP
        self.turn = 0
        self.dealer = players - 1
        self.setup_left = 0
        self.setup_done = 0
        self.down = [plan.layout.size] * players
        self.ender = -1
        self.final_left = -1
        self.turns = 0
        self.round = 1
        self.sheet = ScoreSheet(players)
        self.past: tuple[PastRound, ...] = ()
        self.slots = plan.no_slots
        self.legal: tuple[GolfAction, ...] | None = None

    def gone(self, seat: int) -> int:
        """Return how many of *seat*'s positions were removed (cancelled groups)."""
        slots = self.slots[seat]
        return 0 if slots is None else slots.count(-1)

    def index(self, seat: int, pos: int) -> int:
        """Return where position *pos* of *seat* lies in its grid pile, or -1 if removed."""
        slots = self.slots[seat]
        return pos if slots is None else slots[pos]

    def face_up(self, seat: int) -> list[int]:
        """Return the positions of *seat* whose card every player sees (GOLF6 family)."""
        seen = self.zones.seen[self.plan.grid[seat]]
        out = []
        for pos in range(self.plan.layout.size):
            i = self.index(seat, pos)
            if i >= 0 and seen[i] == ALL:
                out.append(pos)
        return out

    def card_at(self, seat: int, pos: int) -> Card | None:
        """Return *seat*'s card at *pos* (privileged), or ``None`` for an empty position."""
        i = self.index(seat, pos)
        return None if i < 0 else self.zones.cards[self.plan.grid[seat]][i]

    def layout_of(self, seat: int) -> list[Card | None]:
        """Return *seat*'s cards by position (privileged; ``None`` = removed position)."""
        pile = self.zones.cards[self.plan.grid[seat]]
        slots = self.slots[seat]
        if slots is None:
            return list(pile)
        return [None if i < 0 else pile[i] for i in slots]

    def keys_and_points(self, seat: int) -> tuple[list[int | None], list[int]]:
        """Return *seat*'s pairing keys and points by position (``None``/0 = removed), privileged."""
        plan = self.plan
        layout = (
            self.zones.cards[plan.grid[seat]] if self.slots[seat] is None else self.layout_of(seat)
        )
        try:  # cards are interned (Card.parse): identity lookups skip attrs hashing
            ids = list(map(id, layout))
            keys: list[int | None] = list(map(plan.key_by_id.__getitem__, ids))
            return keys, list(map(plan.points_by_id.__getitem__, ids))
        except KeyError:  # a removed position, or a card object that is not interned
            keys = [None if c is None else plan.keys[c] for c in layout]
            return keys, [0 if c is None else plan.points[c] for c in layout]

    def compute_legal(self, seat: int) -> tuple[GolfAction, ...]:
        """The legal actions of *seat* (the seat to act) when ``legal`` holds no ready tuple
        (setup, removed cards)."""
        plan = self.plan
        phase = self.phase
        if phase == SETUP:
            return self.setup_choices(seat)
        if phase == PLACE:
            return self._present(seat, plan.legal_place[seat])
        if phase == TAKEN:
            return self._present(seat, plan.legal_taken[seat])
        if phase == DRAW_PHASE:
            return plan.legal_start[seat] if self.ender < 0 else plan.legal_draw[seat]
        return ()

    def _present(self, seat: int, acts: tuple[GolfAction, ...]) -> tuple[GolfAction, ...]:
        slots = self.slots[seat]
        if slots is None:
            return acts
        return tuple(a for a in acts if not isinstance(a, Replace) or slots[a.pos] >= 0)

    def setup_choices(self, seat: int) -> tuple[GolfAction, ...]:
        """Return *seat*'s setup actions: flips of its face-down cards, or peeks at the cards
        it has not seen (GOLF6-SETUP-2, GOLF4-SETUP-2), by position."""
        plan = self.plan
        seen = self.zones.seen[plan.grid[seat]]
        positions = range(plan.layout.size)
        if plan.layout.setup == "flip":
            return tuple(
                plan.flip_act[seat][p]
                for p in positions
                if (i := self.index(seat, p)) >= 0 and seen[i] != ALL
            )
        bit = 1 << seat
        return tuple(plan.peek_act[seat][p] for p in positions if not seen[p] & bit)

    def remove_groups(self, seat: int, pos: int) -> tuple[tuple[int, ...], tuple[Card, ...]] | None:
        """Move *seat*'s complete, face-up, cancelled groups through *pos* under the discard pile.

        Overlapping complete groups (a row and a column sharing *pos*) go together; their
        positions stay empty (GOLF-TURN-4).

        :returns: The removed positions and cards, or ``None`` when no group is complete.
        """
        plan = self.plan
        zones = self.zones
        gz = plan.grid[seat]
        pile = zones.cards[gz]
        masks = zones.seen[gz]
        keys = plan.keys
        complete: set[int] = set()
        for group in plan.group_of[pos]:
            index = [self.index(seat, p) for p in group]
            if min(index) < 0:
                continue
            key = keys[pile[index[0]]]
            if key in plan.kept_keys:  # GOLF-SCORE-7 chooses which of these cancel
                continue
            if all(masks[i] == ALL and keys[pile[i]] == key for i in index):
                complete.update(group)
        if not complete:
            return None
        positions = sorted(complete)
        index = [self.index(seat, p) for p in positions]
        removed = tuple(pile[i] for i in index)
        for i in sorted(index, reverse=True):
            zones.pop(gz, i)
        for card in removed:
            zones.insert_bottom(plan.discard, card, ALL)
        slots: list[int] = []
        k = 0
        for p in range(plan.layout.size):
            if p in complete or self.index(seat, p) < 0:
                slots.append(-1)
            else:
                slots.append(k)
                k += 1
        all_slots = list(self.slots)
        all_slots[seat] = tuple(slots)
        self.slots = tuple(all_slots)
        return tuple(positions), removed
