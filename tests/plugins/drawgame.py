"""The core's turn-based test game, written with the building blocks.

Each seat holds three cards (private). On a turn a seat draws from the stock
(seen only by the drawer) or takes the face-up discard, then discards one card.
A round ends when a turn starts with an empty stock: every hand is shown and
scored by ``card_points`` (lowest total wins; ties share). Option ``rounds``
deals again from a fresh shuffle. House rules: see ``drawgame_rules.py``.

Everything else comes from the core: turn checks, ``forbid_action`` vetoes,
the ``score_round`` chain, the default notation parser, positions, zones in the
view. Rule IDs: DRAW-1 (draw or take before discarding).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from attrs import frozen

from cardcore import (
    ALL,
    Action,
    Card,
    CardDiscarded,
    CardDrawn,
    CardRevealed,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Option,
    RoundScored,
    Ruleset,
    ScoreTable,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.dealing import deal_round_robin, fill_stock
from cardcore.positions import check
from cardcore.turns import end_game, next_seat, winners_by

GAME = GameInfo(
    name="drawgame",
    summary="test game: draw, discard, lowest hand wins",
    min_players=2,
    max_players=4,
    options=(Option("rounds", 1, "rounds to play", int, minimum=1, maximum=5),),
    fields=(
        ViewField("phase", "str", "draw (or take) first, then discard"),
        ViewField("round", "int", "the round being played, from 1"),
        ViewField("totals", "per-seat", "points so far (lowest wins)", of="int"),
    ),
)

STOCK, DISCARD = 0, 1
HAND = 2  # hand of seat s: zone HAND + s


@frozen
class Draw(Action):
    """Draw the top card of the stock."""

    verb: ClassVar[str] = "draw"


@frozen
class Take(Action):
    """Take the top card of the discard pile."""

    verb: ClassVar[str] = "take"


@frozen
class Discard(Action):
    """Discard *card* from the hand."""

    card: Card
    verb: ClassVar[str] = "discard"

    def notation(self) -> str:
        return f"discard {self.card}"


DrawAction = Draw | Take | Discard


class DrawState(GameState):
    """The table: zones, the phase, the round and the scores (the seat to act is ``to_act``)."""

    __slots__ = ("past", "phase", "round", "totals")
    _mutable = ("zones", "past", "totals")
    phase: str
    round: int
    totals: list[int]
    past: list[int]  # the scores of every round played, seat by seat


class DrawLogic(GameLogic[DrawState, DrawAction]):
    """The rules of the draw game."""

    action_types = (Draw, Take, Discard)
    position_fields = ("to_act", "phase", "round", "totals", "past")  # the default notation

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        points = ruleset.resolve("card_points")  # the game answers it (trylast), rules may override

        def value(card: Card) -> int | None:
            return None if points is None else points(card=card)

        self.points = ScoreTable.from_points(value, self.deck(2, GAME.resolve_options(None)))
        self._draws = {s: (Draw(s), Take(s)) for s in range(GAME.max_players)}
        self._layouts = {n: _layout(n) for n in range(GAME.min_players, GAME.max_players + 1)}

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 4000 * int(options["rounds"])

    # -- the deal -------------------------------------------------------------------------

    def blank_state(self, players: int, options: Mapping[str, Any]) -> DrawState:
        st = DrawState(players, options, Zones(self._layouts[players]))
        st.phase, st.round, st.totals, st.past = "draw", 1, [0] * players, []
        return st

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> DrawState:
        st = self.blank_state(players, options)
        st.seed = seed
        fill_stock(st, STOCK, cards)
        self._deal(st, emit)
        return st

    def _deal(self, st: DrawState, emit: Emit | None) -> None:
        deal_round_robin(st, STOCK, range(HAND, HAND + st.players), 3)
        up = st.zones.move(STOCK, DISCARD)
        st.phase = "draw"
        st.to_act = ((st.round - 1) % st.players,)
        if emit is not None:
            emit(CardsDealt((3,) * st.players))
            emit(CardRevealed(None, "discard", 0, up))

    # -- play -----------------------------------------------------------------------------

    def legal_actions(self, state: DrawState, seat: int) -> tuple[DrawAction, ...]:
        if state.phase == "draw":  # the core asks only for the seat to act
            return self._draws[seat]
        return tuple(Discard(seat, c) for c in state.zones.cards[HAND + seat])

    def rule_for(self, state: DrawState, action: DrawAction) -> tuple[str, str]:
        if state.phase == "draw":
            return "DRAW-1", f"seat {action.seat} must draw or take before {str(action)!r}"
        return "DRAW-1", f"{str(action)!r} is not legal now: discard a card from the hand"

    def apply(self, state: DrawState, action: DrawAction, emit: Emit | None) -> None:
        z = state.zones
        seat = action.seat
        hand = HAND + seat
        if isinstance(action, Discard):
            z.move(hand, DISCARD, z.cards[hand].index(action.card))
            if emit is not None:
                emit(CardDiscarded(seat, action.card))
            state.phase = "draw"
            state.to_act = (next_seat(seat, state.players),)
            if not z.cards[STOCK]:
                self._end_round(state, emit)
            return
        source = STOCK if type(action) is Draw else DISCARD
        card = z.move(source, hand)
        if emit is not None:
            emit(
                CardDrawn(
                    seat,
                    z.layout.specs[source].name,
                    card,
                    visible_to=1 << seat if source == STOCK else ALL,
                )
            )
        state.phase = "discard"

    def _end_round(self, st: DrawState, emit: Emit | None) -> None:
        z = st.zones
        raw = [self.points.total(z.cards[HAND + s]) for s in range(st.players)]
        scores = self.score_round(st, raw)
        st.past += scores
        st.totals = [t + s for t, s in zip(st.totals, scores, strict=True)]
        if emit is not None:
            emit(RoundScored(st.round, scores, tuple(st.totals)))
        if st.round >= st.options["rounds"]:
            end_game(st, winners_by(st.totals), st.totals, "stock empty")
            return
        st.round += 1
        for zid in range(1, len(z.cards)):  # every card back to the stock, shuffled
            while z.cards[zid]:
                z.move(zid, STOCK)
        z.shuffle(STOCK, st.rng())
        self._deal(st, emit)

    # -- reading --------------------------------------------------------------------------

    def scores(self, state: DrawState) -> tuple[float, ...]:
        return tuple(float(t) for t in state.totals)

    def standings(self, state: DrawState) -> tuple[int, ...]:
        return winners_by(state.totals)

    def table(self, state: DrawState, seat: int | None) -> dict[str, Any]:
        return {"phase": state.phase, "round": state.round, "totals": list(state.totals)}

    def history(self, state: DrawState, seat: int | None, since: int) -> list[dict[str, Any]]:
        n, past = state.players, state.past
        rounds = range(since, len(past) // n)
        return [{"round": r + 1, "scores": past[r * n : (r + 1) * n]} for r in rounds]

    def check_position(self, state: DrawState) -> None:
        z, n = state.zones, state.players
        check(state.phase in ("draw", "discard"), "no phase {!r}", state.phase)
        check(len(state.to_act) == 1, "one seat acts at a time, not {}", list(state.to_act))
        check(1 <= state.round <= state.options["rounds"], "no round {}", state.round)
        check(
            len(state.past) == (state.round - 1) * n,
            "round {} needs the scores of the rounds before",
            state.round,
        )
        sums = [sum(state.past[s::n]) for s in range(n)]
        check(
            sums == state.totals, "totals {} are not the sums {} of the rounds", state.totals, sums
        )
        seat, sizes = state.to_act[0], [len(z.cards[HAND + s]) for s in range(n)]
        want = [4 if s == seat and state.phase == "discard" else 3 for s in range(n)]
        check(sizes == want, "hands must hold {} cards, not {} (DRAW-1)", want, sizes)
        check(z.cards[STOCK] or state.phase == "discard", "a turn cannot start with an empty stock")


def _layout(players: int) -> Layout:
    specs = [ZoneSpec("stock"), ZoneSpec("discard", None, Visibility.EVERYONE)]
    specs += [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    return Layout.of(specs)


@hookimpl
def create_logic(ruleset: Ruleset) -> DrawLogic:
    return DrawLogic(ruleset)


@hookimpl(trylast=True)
def card_points(card: Card) -> int:
    return min(int(card.rank), 10)


__all__ = ["GAME", "Discard", "Draw", "DrawLogic", "DrawState", "Take"]
