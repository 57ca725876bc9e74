"""Cassino for two, written from the plugin guide (docs/plugin-guide/game.rst) as a
third-party author would: public names only, registered in-process with
``cardcore.register`` by the tests in ``test_cassino_author_2026_12_07c.py``.

Rules (each with its ID):

| CASSINO-DEAL-1    | 4 cards to each seat and 4 face up to the table; when both hands are
|                   | empty and the stock is not, 4 more to each seat (none to the table).
| CASSINO-TURN-1    | Seat 0 plays first; turns alternate.
| CASSINO-CAPTURE-1 | Play a card from the hand to take table cards of its rank, and/or
|                   | disjoint sets of table cards summing to its value (A=1, 2-10 face
|                   | value); J, Q, K take only cards of their rank.
| CASSINO-TRAIL-1   | Or lay (trail) any card of the hand face up on the table.
| CASSINO-SWEEP-1   | A capture that leaves the table empty is a sweep.
| CASSINO-END-1     | Hands and stock empty: the last seat to capture takes what is left on
|                   | the table (no sweep); most cards 3, most spades 1 (ties: nobody),
|                   | 10D 2, 2S 1, each ace 1, each sweep 1; the highest total wins, ties share.
| CASSINO-NOTE-1    | ``capture <card> <table cards>`` (the table cards sorted by their text),
|                   | ``trail <card>``.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar

import attrs
from attrs import frozen

from cardcore import (
    Action,
    Card,
    CardMoved,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Ruleset,
    TurnPassed,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.dealing import deal_round_robin, fill_stock
from cardcore.positions import check
from cardcore.turns import end_game, winners_by

NAME = "cassino-2026-12-07c"

STOCK, TABLE = 0, 1


def hand(seat: int) -> int:
    return 2 + seat


def won(seat: int) -> int:
    return 4 + seat


@cache
def layout() -> Layout:
    return Layout.of(
        [
            ZoneSpec("stock"),
            ZoneSpec("table", None, Visibility.EVERYONE),
            ZoneSpec("hand.0", 0, Visibility.OWNER),
            ZoneSpec("hand.1", 1, Visibility.OWNER),
            ZoneSpec("won.0", 0, Visibility.EVERYONE),
            ZoneSpec("won.1", 1, Visibility.EVERYONE),
        ]
    )


def value(card: Card) -> int:
    """A=1, 2-10 face value; J, Q, K have no value to sum (0)."""
    n = int(card.rank)
    return n if n <= 10 else 0


def _sorted_cards(cards: Any) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=str))


@frozen
class Trail(Action):
    """Seat *seat* lays *card* face up on the table (CASSINO-TRAIL-1)."""

    card: Card
    verb: ClassVar[str] = "trail"

    def notation(self) -> str:
        return f"trail {self.card}"


@frozen
class Capture(Action):
    """Seat *seat* plays *card* and takes *taken* from the table (CASSINO-CAPTURE-1)."""

    card: Card
    taken: tuple[Card, ...] = attrs.field(converter=_sorted_cards)
    verb: ClassVar[str] = "capture"

    def notation(self) -> str:
        return f"capture {self.card} " + " ".join(map(str, self.taken))


CassinoAction = Trail | Capture


class CassinoState(GameState):
    __slots__ = ("last_capturer", "sweeps")
    _mutable = ("zones", "sweeps")
    last_capturer: int | None
    sweeps: list[int]


def capture_sets(card: Card, table: list[Card]) -> list[int]:
    """Every set (bit mask over *table*) the card may take: a union of disjoint groups,
    each a card of its rank or (A-10) numbered cards summing to its value."""
    groups: list[int] = [1 << i for i, c in enumerate(table) if c.rank == card.rank]
    v = value(card)
    if v:
        numbered = [(i, value(c)) for i, c in enumerate(table) if value(c)]

        def walk(start: int, total: int, mask: int, size: int) -> None:
            if total == v and size >= 2:
                groups.append(mask)
                return
            for k in range(start, len(numbered)):
                i, w = numbered[k]
                if total + w <= v:
                    walk(k + 1, total + w, mask | (1 << i), size + 1)

        walk(0, 0, 0, 0)
    reach = {0}
    for g in dict.fromkeys(groups):
        reach |= {r | g for r in reach if not r & g}
    return sorted(m for m in reach if m)


def points(state: CassinoState) -> list[int]:
    """CASSINO-END-1's points as the piles stand now."""
    z = state.zones.cards
    piles = [z[won(0)], z[won(1)]]
    pts = [state.sweeps[0], state.sweeps[1]]
    counts = [len(p) for p in piles]
    spades = [sum(c.suit is not None and c.suit.value == "S" for c in p) for p in piles]
    for tally, bonus in ((counts, 3), (spades, 1)):
        if tally[0] != tally[1]:
            pts[0 if tally[0] > tally[1] else 1] += bonus
    for s, p in enumerate(piles):
        for c in p:
            t = str(c)
            pts[s] += 2 if t == "10D" else 1 if t == "2S" else 1 if c.label == "A" else 0
    return pts


class CassinoLogic(GameLogic[CassinoState, CassinoAction]):
    action_types = (Trail,)
    position_fields = ("to_act", "last_capturer", "sweeps")
    max_legal = 200

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 200  # 48 plays in every game

    def blank_state(self, players: int, options: Mapping[str, Any]) -> CassinoState:
        state = CassinoState(players, options, Zones(layout()))
        state.last_capturer = None
        state.sweeps = [0] * players
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> CassinoState:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, STOCK, cards)
        deal_round_robin(state, STOCK, [hand(0), hand(1)], 4)  # CASSINO-DEAL-1
        deal_round_robin(state, STOCK, [TABLE], 4)
        if emit is not None:
            emit(CardsDealt((4, 4)))
        return state

    def legal_actions(self, state: CassinoState, seat: int) -> tuple[CassinoAction, ...]:
        """For each card of the hand as the seat's view lists it (top first): its captures
        (by the bit masks of the table, bottom first), then its trail."""
        z = state.zones.cards
        table = z[TABLE]
        out: list[CassinoAction] = []
        for card in reversed(z[hand(seat)]):
            for mask in capture_sets(card, table):
                out.append(
                    Capture(seat, card, tuple(c for i, c in enumerate(table) if mask >> i & 1))
                )
            out.append(Trail(seat, card))
        return tuple(out)

    def parse_action(self, state: CassinoState, seat: int, text: str) -> CassinoAction:
        words = text.split()
        if words and words[0].lower() == "capture":
            if len(words) < 3:
                raise self.parse_error(text, "capture CARD TABLECARDS...", "CASSINO-NOTE-1")
            cards = [Card.parse(w) for w in words[1:]]
            return Capture(seat, cards[0], tuple(cards[1:]))
        action = super().parse_action(state, seat, text)
        assert isinstance(action, Trail)
        return action

    def rule_for(self, state: CassinoState, action: CassinoAction) -> tuple[str, str]:
        if action.card not in state.zones.cards[hand(action.seat)]:
            return "CASSINO-CAPTURE-1", f"seat {action.seat} may play only a card of its hand"
        return "CASSINO-CAPTURE-1", f"{action.card} cannot take those table cards"

    def apply(self, state: CassinoState, action: CassinoAction, emit: Emit | None) -> None:
        seat, zones = action.seat, state.zones
        h = hand(seat)
        i = zones.cards[h].index(action.card)
        if isinstance(action, Capture):
            zones.move(h, won(seat), i)
            if emit is not None:
                emit(CardMoved(seat, f"hand.{seat}", f"won.{seat}", action.card))
            for card in action.taken:
                zones.move(TABLE, won(seat), zones.cards[TABLE].index(card))
                if emit is not None:
                    emit(CardMoved(seat, "table", f"won.{seat}", card))
            state.last_capturer = seat
            if not zones.cards[TABLE]:  # CASSINO-SWEEP-1
                state.sweeps[seat] += 1
        else:
            zones.move(h, TABLE, i)
            if emit is not None:
                emit(CardMoved(seat, f"hand.{seat}", "table", action.card))
        if not zones.cards[hand(0)] and not zones.cards[hand(1)]:
            if zones.cards[STOCK]:  # CASSINO-DEAL-1
                deal_round_robin(state, STOCK, [hand(0), hand(1)], 4)
                if emit is not None:
                    emit(CardsDealt((4, 4)))
            else:  # CASSINO-END-1
                taker = state.last_capturer
                if taker is not None:
                    while zones.cards[TABLE]:
                        card = zones.move(TABLE, won(taker))
                        if emit is not None:
                            emit(CardMoved(None, "table", f"won.{taker}", card))
                made = self.score_round(state, points(state))
                end_game(state, winners_by(made, lowest=False), made, "all cards played")
                return
        state.to_act = (1 - seat,)  # CASSINO-TURN-1
        if emit is not None:
            emit(TurnPassed(1 - seat))

    def scores(self, state: CassinoState) -> tuple[float, ...]:
        return tuple(map(float, points(state)))

    def table(self, state: CassinoState, seat: int | None) -> dict[str, Any]:
        z = state.zones.cards
        return {
            "stock": len(z[STOCK]),
            "last_capturer": state.last_capturer,
            "sweeps": list(state.sweeps),
        }

    def check_position(self, state: CassinoState) -> None:
        seen = state.zones.seen
        check(not any(seen[STOCK]), "stock cards are face down (CASSINO-DEAL-1)")
        check(
            state.is_over or len(state.to_act) == 1,
            "one seat acts at a time, not {}",
            list(state.to_act),
        )


GAME = GameInfo(
    NAME,
    "Cassino for two: capture by rank or sum, trail, sweeps",
    2,
    2,
    version="1.0.0",
    fields=(
        ViewField("stock", "int", "Cards left in the stock."),
        ViewField(
            "last_capturer", "seat", "The seat that captured last (None before any capture)."
        ),
        ViewField("sweeps", "per-seat", "Sweeps each seat made.", of="int"),
    ),
)


def build_module(name: str = NAME, game: GameInfo = GAME) -> types.ModuleType:
    """A plugin module holding ``GAME`` and ``create_logic``, as the testing page builds one."""
    module = types.ModuleType(f"cassino_plugin_{name.replace('-', '_')}")

    @hookimpl
    def create_logic(ruleset: Ruleset) -> CassinoLogic:
        return CassinoLogic(ruleset)

    module.GAME = game  # type: ignore[attr-defined]
    module.create_logic = create_logic  # type: ignore[attr-defined]
    module.RULES_MD = __doc__  # type: ignore[attr-defined]
    return module
