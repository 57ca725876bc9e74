"""Hearts for four players, written from cardcore's docs alone (a test-only plugin).

Registered in place with ``cardcore.register("cardcore.games", NAME, module)``. The
rules, each with an ID cited by the code, the errors and the tests:

| HRT-DEAL-1   | 52 cards, 13 to each of 4 seats; a new shuffled deal every hand         |
| HRT-PASS-1   | every seat at once passes 3 cards of its hand (``pass a b c``: positions  |
|              | in the hand as its owner's view lists it, top first, ascending)          |
| HRT-PASS-2   | a seat that passed waits for the others; passes stay face down           |
| HRT-PASS-3   | when the last seat passes, the passes are exchanged: hand 1 left (seat   |
|              | s gives to s+1), 2 right (s-1), 3 across (s+2), 4 none; and so on       |
| HRT-PASS-4   | no passing outside the passing phase                                     |
| HRT-LEAD-1   | the holder of 2C (made public) leads it to the first trick               |
| HRT-LEAD-2   | hearts may not be led until broken, unless the hand holds only hearts    |
| HRT-FOLLOW-1 | follow the suit led if you can                                           |
| HRT-FIRST-1  | no heart nor QS on the first trick unless the hand holds nothing else    |
| HRT-PLAY-1   | play a card you hold, during the play                                    |
| HRT-TRICK-1  | the highest card of the suit led wins the trick; its winner leads next  |
| HRT-SCORE-1  | each heart taken scores 1, QS 13 (through score_round: house rules)      |
| HRT-END-1    | the match ends after the hand where a seat reaches points_limit; lowest  |
|              | total wins (ties share)                                                  |
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from itertools import combinations
from typing import Any, ClassVar

from attrs import frozen

from cardcore import (
    ALL,
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
    Shuffled,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.dealing import deal_round_robin, fill_stock, gather
from cardcore.positions import check
from cardcore.search import default_position
from cardcore.turns import end_game, winners_by

NAME = "hearts-1213"
PLAYERS = 4
HAND = 13
PASS = 3
DIRECTIONS = ("left", "right", "across", "none")
OFFSET = {"left": 1, "right": -1, "across": 2, "none": 0}
TWO_CLUBS = Card.parse("2C")
QUEEN_SPADES = Card.parse("QS")

RULES_MD = __doc__

GAME = GameInfo(
    NAME,
    "Hearts for four: pass three cards at once, then avoid hearts and the queen of spades",
    PLAYERS,
    PLAYERS,
    version="1.0.0",
    options=(
        Option(
            "points_limit",
            default=100,
            minimum=10,
            maximum=500,
            doc="The match ends after the hand where a seat reaches this many points",
            rule_id="HRT-END-1",
        ),
    ),
    fields=(
        ViewField("phase", "choice", "Passing or playing", choices=("pass", "play", "over")),
        ViewField("direction", "choice", "Where this hand's passes go", choices=DIRECTIONS),
        ViewField("hand_no", "int", "The hand being played, from 0"),
        ViewField("leader", "seat", "The seat that led the current trick"),
        ViewField("broken", "bool", "Whether a heart has been played this hand"),
        ViewField("totals", "per-seat", "Points of the match so far", of="int"),
        ViewField("taken_points", "per-seat", "Points taken in this hand so far", of="int"),
        ViewField("passed", "per-seat", "Who has chosen their pass this hand", of="bool"),
        ViewField(
            "given",
            "cards",
            "The cards this seat passed that the receiver still holds, unless shown to all",
        ),
    ),
)

# zone ids
STOCK = 0
TRICK = 1


def hand(seat: int) -> int:
    """The zone id of *seat*'s hand (its owner sees it)."""
    return 2 + seat


def pending(seat: int) -> int:
    """The zone id of *seat*'s chosen pass, face down until the exchange."""
    return 2 + PLAYERS + seat


def taken(seat: int) -> int:
    """The zone id of the tricks *seat* won, face up."""
    return 2 + 2 * PLAYERS + seat


@cache
def layout() -> Layout:
    return Layout.of(
        [
            ZoneSpec("stock"),
            ZoneSpec("trick", None, Visibility.EVERYONE),
            *[ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(PLAYERS)],
            *[ZoneSpec(f"pass.{s}", s, Visibility.OWNER) for s in range(PLAYERS)],
            *[ZoneSpec(f"taken.{s}", s, Visibility.EVERYONE) for s in range(PLAYERS)],
        ]
    )


def high(card: Card) -> int:
    """Rank for winning a trick: aces high."""
    value = int(card.rank)
    return 14 if value == 1 else value


def points(card: Card) -> int:
    if card == QUEEN_SPADES:
        return 13
    return 1 if card.suit.letter == "H" else 0


def is_heart(card: Card) -> bool:
    return card.suit.letter == "H"


@frozen
class Pass(Action):
    """Seat *seat* passes the cards at positions *a* < *b* < *c* of its hand (top first)."""

    a: int
    b: int
    c: int
    verb: ClassVar[str] = "pass"

    def notation(self) -> str:
        return f"pass {self.a} {self.b} {self.c}"


@frozen
class Play(Action):
    """Seat *seat* plays *card* to the trick."""

    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


HeartsAction = Pass | Play


class HeartsState(GameState):
    __slots__ = ("broken", "hand_no", "leader", "phase", "totals")
    _mutable = ("zones", "totals")
    hand_no: int
    phase: str
    leader: int
    broken: bool
    totals: list[int]


def direction(state: HeartsState) -> str:
    return DIRECTIONS[state.hand_no % 4]


class HeartsLogic(GameLogic[HeartsState, HeartsAction]):
    action_types = (Pass, Play)
    position_fields = ("to_act", "hand_no", "phase", "leader", "broken", "totals")
    max_legal = 286  # C(13, 3) passes

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        limit = int(options.get("points_limit", 100))
        hands = 4 * limit // 26 + 8  # 26 points a hand: someone reaches the limit by then
        return 56 * hands

    def blank_state(self, players: int, options: Mapping[str, Any]) -> HeartsState:
        state = HeartsState(players, options, Zones(layout()))
        state.hand_no, state.phase, state.leader, state.broken = 0, "pass", 0, False
        state.totals = [0] * players
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> HeartsState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        self._deal(state, emit)
        return state

    def _deal(self, state: HeartsState, emit: Emit | None) -> None:
        """HRT-DEAL-1, then the passing phase (HRT-PASS-1) or, on a hand without passing, the play."""
        deal_round_robin(state, STOCK, [hand(s) for s in range(PLAYERS)], HAND)
        if emit is not None:
            emit(CardsDealt((HAND,) * PLAYERS))
        state.broken = False
        if direction(state) == "none":
            self._start_play(state)
        else:
            state.phase, state.leader, state.to_act = "pass", 0, tuple(range(PLAYERS))

    def _start_play(self, state: HeartsState) -> None:
        """HRT-LEAD-1: the holder of 2C, shown to all, leads."""
        z = state.zones
        for s in range(PLAYERS):
            pile = z.cards[hand(s)]
            if TWO_CLUBS in pile:
                z.seen[hand(s)][pile.index(TWO_CLUBS)] = ALL
                state.phase, state.leader, state.to_act = "play", s, (s,)
                return
        raise AssertionError("2C is in no hand")

    # legality

    def _positions(self, state: HeartsState, seat: int) -> tuple[int, ...]:
        return tuple(range(len(state.zones.cards[hand(seat)])))

    def _playable(self, state: HeartsState, seat: int) -> list[Card]:
        z = state.zones
        cards = list(z.cards[hand(seat)])
        trick = z.cards[TRICK]
        first = sum(len(z.cards[taken(s)]) for s in range(PLAYERS)) == 0
        if not trick:
            if first:
                return [c for c in cards if c == TWO_CLUBS]  # HRT-LEAD-1
            if not state.broken and any(not is_heart(c) for c in cards):
                return [c for c in cards if not is_heart(c)]  # HRT-LEAD-2
            return cards
        suit = trick[0].suit
        follow = [c for c in cards if c.suit == suit]
        if follow:
            return follow  # HRT-FOLLOW-1
        if first:
            clean = [c for c in cards if points(c) == 0]
            if clean:
                return clean  # HRT-FIRST-1
        return cards

    def legal_actions(self, state: HeartsState, seat: int) -> tuple[HeartsAction, ...]:
        """Passing: every 3 positions, ascending, in lexicographic order. Playing: the
        playable cards by suit (C D H S) then rank, aces high."""
        if seat not in state.to_act:
            return ()
        if state.phase == "pass":
            return tuple(
                Pass(seat, a, b, c) for a, b, c in combinations(self._positions(state, seat), 3)
            )
        cards = sorted(
            self._playable(state, seat), key=lambda c: ("CDHS".index(c.suit.letter), high(c))
        )
        return tuple(Play(seat, c) for c in cards)

    def rule_for(self, state: HeartsState, action: HeartsAction) -> tuple[str, str]:
        seat = action.seat
        if isinstance(action, Pass):
            if state.phase != "pass":
                return "HRT-PASS-4", f"seat {seat} may not pass cards now: the passing is over"
            n = len(state.zones.cards[hand(seat)])
            return "HRT-PASS-1", (
                f"seat {seat} must pass exactly three distinct cards of its hand, by positions "
                f"0-{n - 1} in ascending order, not {action.a} {action.b} {action.c}"
            )
        if state.phase == "pass":
            return (
                "HRT-PASS-1",
                f"seat {seat} must choose three cards to pass before any card is played",
            )
        z = state.zones
        card = action.card
        if card not in z.cards[hand(seat)]:
            return "HRT-PLAY-1", f"seat {seat} may play only a card it holds, not {card}"
        trick = z.cards[TRICK]
        first = sum(len(z.cards[taken(s)]) for s in range(PLAYERS)) == 0
        if not trick:
            if first:
                return "HRT-LEAD-1", f"seat {seat} must lead 2C to the first trick"
            return "HRT-LEAD-2", f"seat {seat} may not lead a heart before hearts are broken"
        if any(c.suit == trick[0].suit for c in z.cards[hand(seat)]):
            return "HRT-FOLLOW-1", f"seat {seat} must follow the suit led ({trick[0].suit.letter})"
        return "HRT-FIRST-1", f"seat {seat} may not play a heart or QS on the first trick"

    def waiting_rule(self, state: HeartsState, action: HeartsAction) -> tuple[str, str] | None:
        if state.phase == "pass" and not state.is_over:
            return "HRT-PASS-2", f"seat {action.seat} has chosen its pass and waits for the others"
        return None

    def default_action(self, state: HeartsState, seat: int) -> HeartsAction | None:
        legal = self.legal_actions(state, seat)
        return legal[0] if legal else None

    # effects

    def apply(self, state: HeartsState, action: HeartsAction, emit: Emit | None) -> None:
        if isinstance(action, Pass):
            self._pass(state, action, emit)
        else:
            self._play(state, action, emit)

    def _pass(self, state: HeartsState, action: Pass, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        src, dst = hand(seat), pending(seat)
        n = len(z.cards[src])
        # position p, top first, is index n - 1 - p; move the highest index first
        indices = sorted((n - 1 - p for p in (action.a, action.b, action.c)), reverse=True)
        for i in indices:
            card = z.move(src, dst, i)
            if emit is not None:
                emit(CardMoved(seat, f"hand.{seat}", f"pass.{seat}", card, visible_to=1 << seat))
        rest = tuple(s for s in state.to_act if s != seat)
        if rest:
            state.to_act = rest
            return
        # HRT-PASS-3: every seat has chosen: exchange
        offset = OFFSET[direction(state)]
        for giver in range(PLAYERS):
            receiver = (giver + offset) % PLAYERS
            mask = (1 << giver) | (1 << receiver)
            while z.cards[pending(giver)]:
                card = z.move(pending(giver), hand(receiver), mask=mask)
                if emit is not None:
                    emit(
                        CardMoved(giver, f"pass.{giver}", f"hand.{receiver}", card, visible_to=mask)
                    )
        self._start_play(state)

    def _play(self, state: HeartsState, action: Play, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        src = hand(seat)
        card = z.move(src, TRICK, z.cards[src].index(action.card), mask=ALL)
        if emit is not None:
            emit(CardMoved(seat, f"hand.{seat}", "trick", card))
        if is_heart(card):
            state.broken = True
        trick = z.cards[TRICK]
        if len(trick) < PLAYERS:
            state.to_act = ((seat + 1) % PLAYERS,)
            return
        # HRT-TRICK-1
        suit = trick[0].suit
        best = max(
            (i for i in range(PLAYERS) if trick[i].suit == suit), key=lambda i: high(trick[i])
        )
        winner = (state.leader + best) % PLAYERS
        while z.cards[TRICK]:
            moved = z.move(TRICK, taken(winner), 0, mask=ALL)
            if emit is not None:
                emit(CardMoved(winner, "trick", f"taken.{winner}", moved))
        state.leader, state.to_act = winner, (winner,)
        if any(z.cards[hand(s)] for s in range(PLAYERS)):
            return
        # HRT-SCORE-1: the hand is over
        raw = [sum(points(c) for c in z.cards[taken(s)]) for s in range(PLAYERS)]
        scored = self.score_round(state, raw)
        state.totals = [t + s for t, s in zip(state.totals, scored, strict=True)]
        if emit is not None:
            emit(RoundScored(state.hand_no + 1, tuple(scored), tuple(state.totals)))
        limit = state.options["points_limit"]
        if max(state.totals) >= limit:  # HRT-END-1
            state.phase = "over"
            end_game(
                state, winners_by(state.totals), [float(t) for t in state.totals], "points limit"
            )
            return
        state.hand_no += 1
        gather(state, STOCK)
        if emit is not None:
            emit(Shuffled("stock", len(z.cards[STOCK])))
        self._deal(state, emit)

    # views

    def table(self, state: HeartsState, seat: int | None) -> dict[str, Any]:
        z = state.zones
        given: list[str] = []
        if seat is not None and state.phase == "play":
            receiver = (seat + OFFSET[direction(state)]) % PLAYERS
            if receiver != seat:
                pile = z.cards[hand(receiver)]
                marks = z.seen[hand(receiver)]
                given = sorted(  # sorted: the hand's order is the receiver's to know
                    str(c) for i, c in enumerate(pile) if marks[i] != ALL and marks[i] & (1 << seat)
                )
        return {
            "phase": state.phase,
            "direction": direction(state),
            "hand_no": state.hand_no,
            "leader": state.leader,
            "broken": state.broken,
            "totals": list(state.totals),
            "taken_points": [sum(points(c) for c in z.cards[taken(s)]) for s in range(PLAYERS)],
            "passed": [state.phase == "pass" and bool(z.cards[pending(s)]) for s in range(PLAYERS)],
            "given": given,
        }

    def position_from_view(self, view: Mapping[str, Any], zones: Zones) -> str:
        """For search agents: the cards this seat passed that the receiver still holds (the
        table's ``given``) are known to the two of them, not to all (HRT-PASS-1)."""
        seat, table = view["seat"], view["table"]
        if seat is not None and table.get("phase") == "play":
            receiver = (seat + OFFSET.get(str(table.get("direction")), 0)) % PLAYERS
            given = set(table.get("given") or ())
            z = hand(receiver)
            for name in given:  # dealt elsewhere, at a place hidden from the seat: swap it in
                mine = [str(c) for c in zones.cards[z]]
                if name in mine:
                    continue
                y, i = next(
                    (y, [str(c) for c in pile].index(name))
                    for y, pile in enumerate(zones.cards)
                    if name in map(str, pile)
                )
                j = next(k for k, c in enumerate(mine) if c not in given)
                zones.cards[y][i], zones.cards[z][j] = zones.cards[z][j], zones.cards[y][i]
            zones.seen[z] = [
                (1 << seat | 1 << receiver) if str(c) in given else m
                for c, m in zip(zones.cards[z], zones.seen[z], strict=True)
            ]
        return default_position(self, view, zones)

    def scores(self, state: HeartsState) -> tuple[float, ...]:
        return tuple(float(t) for t in state.totals)

    def standings(self, state: HeartsState) -> tuple[int, ...]:
        return winners_by(state.totals)

    def check_position(self, state: HeartsState) -> None:
        check(
            state.phase in ("pass", "play", "over"),
            "phase must be pass, play or over, not {}",
            state.phase,
        )
        check(0 <= state.leader < PLAYERS, "leader must be a seat, not {}", state.leader)
        check(state.hand_no >= 0, "hand_no must be at least 0, not {}", state.hand_no)
        if state.phase == "play" and not state.is_over:
            check(
                len(state.to_act) == 1,
                "to_act must be one seat in the play, not {}",
                list(state.to_act),
            )


@hookimpl
def create_logic(ruleset: Ruleset) -> HeartsLogic:
    return HeartsLogic(ruleset)
