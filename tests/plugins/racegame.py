"""The core's real-time test game: both seats race to empty their hands.

Each seat holds five cards (private). Either seat may, at any moment, play a
card whose rank is one above or below the centre pile's top (ace wraps). When
nobody can play, the next stock card is turned onto the centre automatically;
when the stock is empty too, the round is stuck. A round is won by the seats
with the fewest cards left; option ``rounds`` deals again (from the game's
chance), and the most rounds won wins. Rule IDs: RACE-1 (adjacent ranks only).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

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
    Option,
    RoundScored,
    Ruleset,
    ScoreSheet,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.dealing import deal_round_robin, fill_stock
from cardcore.turns import end_game, winners_by

GAME = GameInfo(
    name="racegame",
    summary="test game: real-time race to empty the hand",
    min_players=2,
    max_players=2,
    realtime=True,
    options=(Option("rounds", 1, "rounds to play", int, minimum=1, maximum=40),),
    fields=(
        ViewField("round", "int", "the round being played, from 1"),
        ViewField("wins", "per-seat", "rounds won so far", of="int"),
    ),
)

LAYOUT = Layout.of(
    [
        ZoneSpec("stock"),
        ZoneSpec("centre", None, Visibility.EVERYONE),
        ZoneSpec("hand.0", 0, Visibility.OWNER),
        ZoneSpec("hand.1", 1, Visibility.OWNER),
    ]
)
STOCK, CENTRE = 0, 1
HANDS = (2, 3)


@frozen
class Play(Action):
    """Play *card* from the hand onto the centre."""

    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


def adjacent(a: Card, b: Card) -> bool:
    """Whether the ranks of *a* and *b* are neighbours (ace next to two and king)."""
    d = abs(int(a.rank) - int(b.rank))
    return d in (1, 12)


class RaceState(GameState):
    """The table: zones, the round and the rounds won."""

    __slots__ = ("round", "sheet")

    def __init__(self, players: int, options: Mapping[str, Any], zones: Zones) -> None:
        super().__init__(players, options, zones)
        self.round = 1
        self.sheet = ScoreSheet(players)


class RaceLogic(GameLogic[RaceState, Play]):
    """The rules of the race game."""

    action_types = (Play,)

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 60 * int(options["rounds"])

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> RaceState:
        st = RaceState(players, options, Zones(LAYOUT))
        st.seed = seed
        fill_stock(st, STOCK, cards)
        self._deal(st, emit)
        return st

    def _deal(self, st: RaceState, emit: Emit | None) -> None:
        deal_round_robin(st, STOCK, HANDS, 5)
        st.zones.move(STOCK, CENTRE)
        st.to_act = (0, 1)
        if emit is not None:
            emit(CardsDealt((5, 5)))
        self._settle(st, emit)

    def _playable(self, st: RaceState, seat: int) -> list[Card]:
        z = st.zones
        top = z.cards[CENTRE][-1]
        return [c for c in z.cards[HANDS[seat]] if adjacent(c, top)]

    def _can_play(self, st: RaceState, seat: int) -> bool:
        """Whether *seat* has a play a house rule does not veto: a round whose only plays
        are vetoed turns the next stock card rather than stalls."""
        veto = self.ruleset.veto
        return any(
            veto is None or not veto(state=st, action=Play(seat, c))
            for c in self._playable(st, seat)
        )

    def _settle(self, st: RaceState, emit: Emit | None) -> None:
        z = st.zones
        while True:
            if not z.cards[HANDS[0]] or not z.cards[HANDS[1]]:
                self._end_round(st, "hand emptied", emit)
                return
            if self._can_play(st, 0) or self._can_play(st, 1):
                return
            if not z.cards[STOCK]:
                self._end_round(st, "stuck", emit)
                return
            card = z.move(STOCK, CENTRE)
            if emit is not None:
                emit(CardMoved(None, "stock", "centre", card))

    def _end_round(self, st: RaceState, reason: str, emit: Emit | None) -> None:
        z = st.zones
        left = [len(z.cards[h]) for h in HANDS]
        won = winners_by(left)
        scores = self.score_round(st, [1 if s in won else 0 for s in range(st.players)])
        st.sheet.add_round(scores)
        if emit is not None:
            emit(RoundScored(st.round, scores, tuple(st.sheet.totals)))
        if st.round >= st.options["rounds"]:
            totals = st.sheet.totals
            end_game(st, winners_by(totals, lowest=False), totals, reason)
            return
        st.round += 1
        for zid in (CENTRE, *HANDS):
            while z.cards[zid]:
                z.move(zid, STOCK)
        z.shuffle(STOCK, st.rng())
        self._deal(st, emit)

    def legal_actions(self, state: RaceState, seat: int) -> tuple[Play, ...]:
        if state.is_over:
            return ()
        return tuple(Play(seat, c) for c in self._playable(state, seat))

    def apply(self, state: RaceState, action: Play, emit: Emit | None) -> None:
        z = state.zones
        hand = HANDS[action.seat]
        z.move(hand, CENTRE, z.cards[hand].index(action.card))
        if emit is not None:
            emit(CardMoved(action.seat, f"hand.{action.seat}", "centre", action.card))
        self._settle(state, emit)

    def rule_for(self, state: RaceState, action: Play) -> tuple[str, str]:
        return "RACE-1", f"{str(action)!r} is not adjacent to the centre card"

    def table(self, state: RaceState, seat: int | None) -> dict[str, Any]:
        return {"round": state.round, "wins": list(state.sheet.totals)}

    def history(self, state: RaceState, seat: int | None, since: int) -> list[dict[str, Any]]:
        rounds = state.sheet.rounds
        return [{"round": i + 1, "wins": list(rounds[i])} for i in range(since, len(rounds))]

    def scores(self, state: RaceState) -> tuple[float, ...]:
        return tuple(float(t) for t in state.sheet.totals)

    def standings(self, state: RaceState) -> tuple[int, ...]:
        return winners_by(state.sheet.totals, lowest=False)


@hookimpl
def create_logic(ruleset: Ruleset) -> RaceLogic:
    return RaceLogic(ruleset)


__all__ = ["GAME", "Play", "RaceLogic", "RaceState", "adjacent"]
