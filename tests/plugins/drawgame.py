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
    OptionError,
    RoundScored,
    Ruleset,
    ScoreSheet,
    ScoreTable,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.dealing import deal_round_robin, fill_stock
from cardcore.positions import read_position, write_position
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
    """The table: zones, whose turn, the phase and the score sheet."""

    __slots__ = ("phase", "round", "sheet", "turn")

    def __init__(self, players: int, options: Mapping[str, Any], zones: Zones) -> None:
        super().__init__(players, options, zones)
        self.phase = "draw"
        self.round = 1
        self.turn = 0
        self.sheet = ScoreSheet(players)


class DrawLogic(GameLogic[DrawState, DrawAction]):
    """The rules of the draw game."""

    action_types = (Draw, Take, Discard)

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

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> DrawState:
        st = DrawState(players, options, Zones(self._layouts[players]))
        st.seed = seed
        fill_stock(st, STOCK, cards)
        self._deal(st, emit)
        return st

    def _deal(self, st: DrawState, emit: Emit | None) -> None:
        hands = range(HAND, HAND + st.players)
        st.turn = (st.round - 1) % st.players
        deal_round_robin(st, STOCK, hands, 3)
        up = st.zones.move(STOCK, DISCARD)
        st.phase = "draw"
        st.to_act = (st.turn,)
        if emit is not None:
            emit(CardsDealt((3,) * st.players))
            emit(CardRevealed(None, "discard", 0, up))

    # -- play -----------------------------------------------------------------------------

    def legal_actions(self, state: DrawState, seat: int) -> tuple[DrawAction, ...]:
        if seat != state.turn or state.is_over:
            return ()
        if state.phase == "draw":
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
        if type(action) is Draw:
            card = z.move(STOCK, hand)
            if emit is not None:
                emit(CardDrawn(seat, "stock", card, visible_to=1 << seat))
            state.phase = "discard"
        elif type(action) is Take:
            card = z.move(DISCARD, hand)
            if emit is not None:
                emit(CardDrawn(seat, "discard", card))
            state.phase = "discard"
        elif isinstance(action, Discard):
            z.move(hand, DISCARD, z.cards[hand].index(action.card))
            if emit is not None:
                emit(CardDiscarded(seat, action.card))
            state.turn = next_seat(seat, state.players)
            state.phase = "draw"
            state.to_act = (state.turn,)
            if not z.cards[STOCK]:
                self._end_round(state, emit)

    def _end_round(self, st: DrawState, emit: Emit | None) -> None:
        z = st.zones
        points = self.points
        raw = [points.total(z.cards[HAND + s]) for s in range(st.players)]
        scores = self.score_round(st, raw)
        st.sheet.add_round(scores)
        if emit is not None:
            emit(RoundScored(st.round, scores, tuple(st.sheet.totals)))
        totals = st.sheet.totals
        if st.round >= st.options["rounds"]:
            end_game(st, winners_by(totals), totals, "stock empty")
            return
        st.round += 1
        for zid in range(1, len(z.cards)):  # every card back to the stock, shuffled
            while z.cards[zid]:
                z.move(zid, STOCK)
        z.shuffle(STOCK, st.rng())
        self._deal(st, emit)

    # -- reading --------------------------------------------------------------------------

    def scores(self, state: DrawState) -> tuple[float, ...]:
        return tuple(float(t) for t in state.sheet.totals)

    def standings(self, state: DrawState) -> tuple[int, ...]:
        return winners_by(state.sheet.totals)

    def table(self, state: DrawState, seat: int | None) -> dict[str, Any]:
        return {"phase": state.phase, "round": state.round, "totals": list(state.sheet.totals)}

    def history(self, state: DrawState, seat: int | None, since: int) -> list[dict[str, Any]]:
        rounds = state.sheet.rounds
        return [{"round": i + 1, "scores": list(rounds[i])} for i in range(since, len(rounds))]

    # -- positions ------------------------------------------------------------------------

    def write_position(self, state: DrawState) -> str:
        fields = {
            "round": state.round,
            "turn": state.turn,
            "phase": state.phase,
            "rounds": [list(r) for r in state.sheet.rounds],
        }
        return write_position(GAME.name, fields, state.zones)

    def read_position(self, text: str, players: int, options: Mapping[str, Any]) -> DrawState:
        deck = self.deck(players, options)
        fields, zones = read_position(text, GAME.name, self._layouts[players], deck, players)
        st = DrawState(players, options, zones)
        try:
            st.round, st.turn, st.phase = int(fields["round"]), int(fields["turn"]), fields["phase"]
            rounds = [tuple(int(x) for x in r) for r in fields["rounds"]]
        except (KeyError, TypeError, ValueError):
            msg = "bad position: drawgame needs round, turn, phase and rounds"
            raise OptionError(msg) from None
        want = 3 if st.phase == "draw" else 4
        if not 0 <= st.turn < players or st.phase not in ("draw", "discard"):
            msg = f"bad position: no seat {st.turn} to act, or no phase {st.phase!r}"
            raise OptionError(msg)
        if not 1 <= st.round <= options["rounds"] or len(rounds) != st.round - 1:
            msg = f"bad position: round {st.round} with {len(rounds)} scored rounds"
            raise OptionError(msg)
        others = {len(zones.cards[HAND + s]) for s in range(players) if s != st.turn}
        if others - {3} or len(zones.cards[HAND + st.turn]) != want:
            msg = f"bad position: hands must hold 3 cards ({want} for the seat to act)"
            raise OptionError(msg)
        if not zones.cards[STOCK] and st.phase == "draw":
            msg = "bad position: the stock is empty at the start of a turn"
            raise OptionError(msg)
        for r in rounds:
            st.sheet.add_round(r)
        st.to_act = (st.turn,)
        return st


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
