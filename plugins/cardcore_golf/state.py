"""Golf's table plan (static, shared) and its mutable slotted state.

A :class:`Plan` is built once per configuration, layout, player count and turn cap: zone
ids, the interned actions of every seat, the legal-action tuples of each phase, the points of
every card and the resolved scorer. Every :class:`GolfState` of that shape points to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore.cards import Card
from cardcore.scoring import ScoreSheet, ScoreTable
from cardcore.state import GameState
from cardcore.zones import Layout as ZoneLayout
from cardcore.zones import Visibility, Zones, ZoneSpec
from cardcore_golf.actions import Discard, Draw, Flip, GolfAction, Knock, Peek, Replace, Take
from cardcore_golf.logic import Layout, Scorer

__all__ = ["DRAW_PHASE", "OVER", "PHASE_NAMES", "PLACE", "SETUP", "TAKEN", "GolfState", "Plan"]

SETUP, DRAW_PHASE, PLACE, TAKEN, OVER = range(5)
"""Phases: initial flips/peeks, start of a turn, holding a stock card, holding a discard, over."""

PHASE_NAMES = ("setup", "draw", "place", "place", "over")


class Plan:
    """Everything fixed for one layout and player count under one configuration.

    Not copied by :meth:`GolfState.clone` (it has no ``clone``): states share it.
    """

    __slots__ = (
        "discard",
        "discard_act",
        "draw_act",
        "face_up_grid",
        "final_turns",
        "flip_act",
        "grid",
        "grid_mask",
        "group_of",
        "groups",
        "held",
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
        "no_slots",
        "peek_act",
        "players",
        "points",
        "points_by_id",
        "replace_act",
        "scorer",
        "setup_cache",
        "simple_end",
        "stock",
        "table",
        "take_act",
        "to_act",
        "trigger",
        "zone_layout",
    )

    def __init__(
        self,
        layout: Layout,
        players: int,
        *,
        table: ScoreTable,
        points: Mapping[Card, int],
        scorer: Scorer,
        final_turns: bool,
        groups: tuple[tuple[int, ...], ...],
        max_turns: int | None,
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
        specs += [ZoneSpec(f"grid.{s}", s, grid_vis) for s in range(players)]
        self.zone_layout = ZoneLayout.of(specs)
        self.stock = 0
        self.discard = 1
        self.held = (2,) * players
        # One pile per seat holds its layout, row-major; see GolfState.slots for removed cards.
        self.grid = tuple(3 + s for s in range(players))
        self.grid_mask = tuple((1 << s) if layout.hand else 0 for s in range(players))
        self.no_slots: tuple[tuple[int, ...] | None, ...] = (None,) * players
        seats = range(players)
        positions = range(layout.size)

        self.to_act = tuple((s,) for s in seats)
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
        self.setup_cache: dict[tuple[int, int], tuple[GolfAction, ...]] = {}
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
        key = (seat, done)
        acts = self.setup_cache.get(key)
        if acts is None:
            table = self.flip_act if self.layout.setup == "flip" else self.peek_act
            acts = tuple(table[seat][p] for p in range(self.layout.size) if not (done >> p) & 1)
            self.setup_cache[key] = acts
        return acts

    def new_zones(self) -> Zones:
        """Return empty zones of this plan's shape."""
        return Zones(self.zone_layout)

    def __repr__(self) -> str:
        return f"<Plan {self.layout.name} players={self.players}>"


class GolfState(GameState):
    """The mutable Golf table. Only :class:`~cardcore_golf.game.GolfLogic` changes it.

    Slots beyond the core's: ``plan`` (shared :class:`Plan`), ``phase`` (see the phase
    constants), ``turn`` (the seat acting), ``dealer``,
    ``setup_left`` (setup actions the acting seat still owes), ``setup_done`` (bit mask of the
    positions it already turned or saw), ``down`` (face-down cards per
    seat, GOLF6 family), ``ender`` (seat, or -1),
    ``final_left`` (final turns still to play, -1 outside the final turns), ``slots`` (per
    seat ``None``, or after a removal a tuple: position -> index in the grid pile, -1 for a
    removed position), ``legal`` (the acting seat's legal actions before vetoes, or ``None``
    when they must be computed), ``turns``
    (completed turns this round), ``round`` (from 1), ``sheet`` (the
    :class:`~cardcore.ScoreSheet`) and ``last`` (the last round's revealed layouts, or None).
    """

    __slots__ = (
        "dealer",
        "down",
        "ender",
        "final_left",
        "last",
        "legal",
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

    def __init__(self, players: int, options: Mapping[str, Any], plan: Plan) -> None:
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
        self.last: tuple[int, Any, tuple[int, ...], int] | None = None
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
            if i >= 0 and seen[i] == -1:
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
