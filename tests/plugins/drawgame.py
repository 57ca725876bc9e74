"""A small turn-based test game that exercises the whole driver.

Each seat holds three cards (private). On a turn a seat draws from the stock
(seen only by the drawer) or takes the face-up discard, then discards one card.
The game ends when a turn starts with an empty stock; the lowest hand total
(card_points) wins; ties share. Rounds: option ``rounds`` deals again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from attrs import frozen

from cardcore import (
    ALL,
    Action,
    CardDiscarded,
    CardDrawn,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    NotationError,
    Option,
    Result,
    Ruleset,
    ScoreSheet,
    ScoreTable,
    Veto,
    Visibility,
    ZoneSpec,
    Zones,
    hookimpl,
)
from cardcore.cards import Card

GAME = GameInfo(
    name="drawgame",
    summary="test game: draw, discard, lowest hand wins",
    min_players=2,
    max_players=4,
    options=(Option("rounds", 1, "rounds to play", int, minimum=1, maximum=5),),
)


@frozen
class Draw(Action):
    verb: ClassVar[str] = "draw"


@frozen
class Take(Action):
    verb: ClassVar[str] = "take"


@frozen
class Discard(Action):
    card: Card
    verb: ClassVar[str] = "discard"

    def __str__(self) -> str:
        return f"discard {self.card}"


class DrawState(GameState):
    __slots__ = ("hands", "phase", "round", "sheet", "stock", "discard", "turn")


class DrawLogic(GameLogic):
    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        points = ruleset.chain("card_points")
        table = {}
        for card in set(self.deck(2, {"rounds": 1})):
            value = points(card=card)
            table[str(card)] = 0 if value is None else value
        self.points = ScoreTable.from_ranks({}, default=0).replace(table)
        self.vetoes = ruleset.impls("forbid_action")
        self._draws = {s: (Draw(s), Take(s)) for s in range(4)}
        self._layouts: dict[int, Layout] = {}

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 4000 * int(options["rounds"])

    def layout(self, players: int) -> Layout:
        lay = self._layouts.get(players)
        if lay is None:
            specs = [ZoneSpec("stock"), ZoneSpec("discard", None, Visibility.EVERYONE)]
            specs += [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
            lay = self._layouts[players] = Layout.of(specs)
        return lay

    def new_state(self, players: int, options: Mapping[str, Any], cards: list[Card], seed: int) -> GameState:
        zones = Zones(self.layout(players))
        st = DrawState(players, options, zones)
        st.stock, st.discard, st.hands = 0, 1, tuple(range(2, 2 + players))
        st.sheet = ScoreSheet(players)
        st.round = 1
        zones.cards[0] = cards
        zones.seen[0] = [0] * len(cards)
        self._deal(st)
        return st

    def _deal(self, st: DrawState) -> None:
        z = st.zones
        for _ in range(3):
            for s in range(st.players):
                z.move(st.stock, st.hands[s])
        z.move(st.stock, st.discard)
        st.turn = (st.round - 1) % st.players
        st.phase = "draw"
        st.to_act = (st.turn,)

    def legal_actions(self, state: GameState, seat: int) -> tuple[Action, ...]:
        st: DrawState = state  # type: ignore[assignment]
        if seat not in st.to_act:
            return ()
        if st.phase == "draw":
            out: tuple[Action, ...] = self._draws[seat]
        else:
            out = tuple(Discard(seat, c) for c in st.zones.cards[st.hands[seat]])
        if self.vetoes:
            out = tuple(a for a in out if not any(v(state=st, action=a) for v in self.vetoes))
        return out

    def rule_for(self, state: GameState, action: Action) -> tuple[str, str]:
        for v in self.vetoes:
            veto = v(state=state, action=action)
            if isinstance(veto, Veto):
                return veto.rule_id, veto.reason
        return "DRAW-1", f"{str(action)!r} is not legal now"

    def apply(self, state: GameState, action: Action, emit: Emit | None) -> None:
        st: DrawState = state  # type: ignore[assignment]
        z = st.zones
        seat = action.seat
        hand = st.hands[seat]
        kind = type(action)
        if kind is Draw:
            card = z.move(st.stock, hand)
            if emit is not None:
                emit(CardDrawn(seat, "stock", card, visible_to=1 << seat))
            st.phase = "discard"
        elif kind is Take:
            card = z.move(st.discard, hand)
            if emit is not None:
                emit(CardDrawn(seat, "discard", card))
            st.phase = "discard"
        else:
            card = action.card  # type: ignore[attr-defined]
            z.move(hand, st.discard, z.cards[hand].index(card))
            if emit is not None:
                emit(CardDiscarded(seat, card))
            st.turn = (seat + 1) % st.players
            st.phase = "draw"
            st.to_act = (st.turn,)
            if not z.cards[st.stock]:
                self._score(st)

    def _score(self, st: DrawState) -> None:
        z = st.zones
        totals = [self.points.total(z.cards[h]) for h in st.hands]
        scores = list(self.ruleset.hook.score_round(state=st, scores=totals))
        st.sheet.add_round(scores)
        for h in st.hands:
            for i in range(len(z.cards[h])):
                z.reveal(h, i)
        if st.round >= st.options["rounds"]:
            best = min(st.sheet.totals)
            winners = tuple(s for s, t in enumerate(st.sheet.totals) if t == best)
            st.is_over = True
            st.to_act = ()
            st.result = Result(winners, tuple(float(t) for t in st.sheet.totals), None, "stock empty")
            return
        st.round += 1
        rng = st.rng()
        for zid in range(len(z.cards)):
            while z.cards[zid] and zid != st.stock:
                z.move(zid, st.stock)
        z.shuffle(st.stock, rng)
        self._deal(st)

    def parse_action(self, state: GameState, seat: int, text: str) -> Action:
        words = text.lower().split()
        if words == ["draw"]:
            return Draw(seat)
        if words == ["take"]:
            return Take(seat)
        if len(words) == 2 and words[0] == "discard":
            return Discard(seat, Card.parse(words[1]))
        raise NotationError(f"cannot read {text!r}: expected draw, take or discard CARD (CORE-NOTATION-1)")

    def scores(self, state: GameState) -> tuple[float, ...]:
        st: DrawState = state  # type: ignore[assignment]
        return tuple(float(t) for t in st.sheet.totals)

    def table(self, state: GameState, seat: int | None) -> dict[str, Any]:
        st: DrawState = state  # type: ignore[assignment]
        z = st.zones
        return {
            "stock": z.count(st.stock),
            "discard": z.show(st.discard, seat)[:1],
            "hands": [z.show(h, seat) for h in st.hands],
            "phase": st.phase,
            "totals": list(st.sheet.totals),
            "round": st.round,
        }


@hookimpl
def create_logic(ruleset: Ruleset) -> GameLogic:
    return DrawLogic(ruleset)


@hookimpl(trylast=True)
def card_points(card: Card) -> int:
    return min(int(card.rank), 10)


__all__ = ["ALL", "GAME"]
