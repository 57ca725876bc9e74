"""Spades for four players in fixed partnerships, written by a third-party author from the docs.

Rules (each with its ID; ``[D]`` marks a decision of this plugin where common rules differ):

* SPADES-SEAT-1: exactly 4 players, seats 0+2 against seats 1+3.
* SPADES-DEAL-1: one 52-card deck, 13 cards each, one at a time from the dealer's left; seat 3
  deals first, the deal passes left each hand. Dealt cards lie face down: nobody, not even the
  owner, knows them until the owner looks (SPADES-BLIND-1).
* SPADES-BID-1: bidding goes once round from the dealer's left; each seat bids 0-13 tricks
  (``bid N``); ``bid 0`` is a nil bid and is written ``bid nil``.
* SPADES-BLIND-1: at its turn to bid, before seeing its cards, a seat either declares blind nil
  (``blind``) or looks at its cards (``look``) and then bids. [D] A seat looks only at its own
  turn to bid; a blind nil bidder sees its cards once it has declared. [D] No card exchange.
* SPADES-FOLLOW-1: follow the led suit if you can; otherwise play any card.
* SPADES-TRUMP-1: spades are trumps: the highest spade wins the trick, else the highest card
  of the led suit; A high. The winner leads the next trick; the dealer's left leads the first.
* SPADES-LEAD-1: spades may not be led until a spade has been played to a trick (broken),
  unless the leader holds only spades.
* SPADES-SCORE-1: a team's contract is the sum of its partners' bids; the team's tricks are
  both partners' tricks [D] (a nil bidder's tricks count too). Made: 10 per bid trick plus 1
  per overtrick (a bag); set: minus 10 per bid trick.
* SPADES-BAGS-1: each overtrick is a bag; when a team has 10 bags it loses 100 and 10 bags.
* SPADES-NIL-1: a nil bidder who takes no trick scores +100 for the team, else -100; blind
  nil [D] +200 / -200.
* SPADES-END-1: after a hand, a team with ``target`` points (default 500, 50..1000) and more
  than the other team wins (both partners win); a tie above the target plays another hand.
  [D] After ``max_hands`` hands (default 40, 1..200) the higher team wins, a tie is a draw.

House rule (module ``spades_rules_2026_12_16``): SPADES-HOUSE-BLIND-1.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
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
    NotationError,
    Option,
    Rank,
    Result,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.dealing import deal_round_robin, fill_stock, gather
from cardcore.positions import check
from cardcore.turns import end_game

NAME = "spades-2026-12-16"
PLAYERS = 4
HAND = 13
STOCK, TRICK, DONE = 0, 1, 2
PHASES = ("bid", "play")
ORDER = (
    Rank.TWO,
    Rank.THREE,
    Rank.FOUR,
    Rank.FIVE,
    Rank.SIX,
    Rank.SEVEN,
    Rank.EIGHT,
    Rank.NINE,
    Rank.TEN,
    Rank.JACK,
    Rank.QUEEN,
    Rank.KING,
    Rank.ACE,
)

RULES_MD = __doc__


def unseen(seat: int) -> int:
    return 3 + seat


def hand(seat: int) -> int:
    return 7 + seat


def team(seat: int) -> int:
    return seat % 2


def suit(card: Card) -> str:
    return card.suit.value  # type: ignore[union-attr]


@cache
def layout() -> Layout:
    return Layout.of(
        [
            ZoneSpec("stock"),
            ZoneSpec("trick", None, Visibility.EVERYONE),
            ZoneSpec("done", None, Visibility.EVERYONE),
            *(ZoneSpec(f"unseen.{s}", s, Visibility.NOBODY) for s in range(PLAYERS)),
            *(ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(PLAYERS)),
        ]
    )


GAME = GameInfo(
    NAME,
    "Spades: partnership bidding, nil and blind nil, spades trump, bags; first team to 500",
    4,
    4,
    version="1.0.0",
    options=(
        Option("target", 500, "Points that win the game.", minimum=50, maximum=1000),
        Option("max_hands", 40, "Hands played at most.", minimum=1, maximum=200),
    ),
    fields=(
        ViewField("dealer", "seat", "Who dealt this hand."),
        ViewField("phase", "choice", "Bidding or play.", choices=PHASES),
        ViewField("bids", "per-seat", "Each seat's bid (0 nil, -1 not yet).", of="int"),
        ViewField("blind", "per-seat", "Whether the seat bid blind nil.", of="bool"),
        ViewField("looked", "per-seat", "Whether the seat has seen its cards.", of="bool"),
        ViewField("leader", "seat", "Who led the current trick."),
        ViewField("tricks", "per-seat", "Tricks each seat took this hand.", of="int"),
        ViewField("score", "per-seat", "Game points (partners alike).", of="int"),
        ViewField("bags", "per-seat", "Bags held (partners alike).", of="int"),
        ViewField("broken", "bool", "Whether spades have been broken."),
        ViewField("hand", "int", "Hands played before this one."),
    ),
)


@frozen
class Look(Action):
    verb: ClassVar[str] = "look"


@frozen
class Blind(Action):
    verb: ClassVar[str] = "blind"


@frozen
class Bid(Action):
    tricks: int
    verb: ClassVar[str] = "bid"

    def notation(self) -> str:
        return "bid nil" if self.tricks == 0 else f"bid {self.tricks}"


@frozen
class Play(Action):
    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


SpadesAction = Look | Blind | Bid | Play


class SpadesState(GameState):
    __slots__ = (
        "bags",
        "bids",
        "blind",
        "broken",
        "dealer",
        "hand",
        "leader",
        "looked",
        "past",
        "phase",
        "score",
        "tricks",
    )
    _mutable = ("zones", "bids", "blind", "looked", "tricks", "score", "bags", "past")
    dealer: int
    phase: str
    bids: list[int]
    blind: list[bool]
    looked: list[bool]
    leader: int
    tricks: list[int]
    score: list[int]
    bags: list[int]
    broken: bool
    hand: int
    past: list[dict[str, Any]]


def strength(card: Card, led: str) -> int:
    """SPADES-TRUMP-1."""
    rank = ORDER.index(card.rank)
    if suit(card) == "S":
        return 100 + rank
    return 50 + rank if suit(card) == led else rank - 100


def team_points(bids: list[int], blind: list[bool], tricks: list[int], t: int) -> tuple[int, int]:
    """SPADES-SCORE-1 and SPADES-NIL-1 for team *t*: (points, new bags) before the bag penalty."""
    seats = (t, t + 2)
    contract = sum(bids[s] for s in seats)
    took = sum(tricks[s] for s in seats)
    points, bags = 0, 0
    if took >= contract:
        bags = took - contract
        points += 10 * contract + bags
    else:
        points -= 10 * contract
    for s in seats:
        if bids[s] == 0:
            value = 200 if blind[s] else 100
            points += value if tricks[s] == 0 else -value
    return points, bags


class SpadesLogic(GameLogic[SpadesState, SpadesAction]):
    position_fields = (
        "to_act",
        "dealer",
        "phase",
        "bids",
        "blind",
        "looked",
        "leader",
        "tricks",
        "score",
        "bags",
        "broken",
        "hand",
    )
    max_legal = 14

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 70 * int(options.get("max_hands", 40)) + 10

    def blank_state(self, players: int, options: Mapping[str, Any]) -> SpadesState:
        state = SpadesState(players, options, Zones(layout()))
        state.dealer, state.phase, state.leader, state.hand = 3, "bid", 0, 0
        state.bids, state.blind, state.looked = [-1] * 4, [False] * 4, [False] * 4
        state.tricks, state.score, state.bags = [0] * 4, [0] * 4, [0] * 4
        state.broken, state.past = False, []
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> SpadesState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        self._deal(state, emit)
        return state

    def _deal(self, state: SpadesState, emit: Emit | None) -> None:
        """SPADES-DEAL-1: face down, unseen even by the owner."""
        first = (state.dealer + 1) % 4
        deal_round_robin(state, STOCK, [unseen(s) for s in range(4)], HAND, first=first)
        state.phase, state.broken = "bid", False
        state.bids, state.blind, state.looked = [-1] * 4, [False] * 4, [False] * 4
        state.tricks, state.leader, state.to_act = [0] * 4, first, (first,)
        if emit is not None:
            emit(CardsDealt((HAND,) * 4))

    def parse_action(self, state: SpadesState, seat: int, text: str) -> SpadesAction:
        words = text.strip().lower().split()
        if words == ["look"]:
            return Look(seat)
        if words == ["blind"]:
            return Blind(seat)
        if len(words) == 2 and words[0] == "bid":
            if words[1] == "nil":
                return Bid(seat, 0)
            if words[1].isdigit() and len(words[1]) <= 2 and int(words[1]) <= 13:
                return Bid(seat, int(words[1]))
            raise NotationError(f"bid 0-13 or nil, not {words[1]!r:.20} (SPADES-BID-1)")
        if len(words) == 2 and words[0] == "play":
            return Play(seat, Card.parse(words[1].upper()))
        raise NotationError(
            f"expected 'look', 'blind', 'bid N', 'bid nil' or 'play C', not {text!r:.40}"
            " (SPADES-BID-1)"
        )

    def legal_actions(self, state: SpadesState, seat: int) -> tuple[SpadesAction, ...]:
        if state.phase == "bid":
            if not state.looked[seat]:
                return (Look(seat), Blind(seat))
            return tuple(Bid(seat, n) for n in range(14))
        held = state.zones.cards[hand(seat)]
        trick = state.zones.cards[TRICK]
        if trick:
            led = suit(trick[0])
            follow = [c for c in held if suit(c) == led]
            if follow:
                return tuple(Play(seat, c) for c in follow)
            return tuple(Play(seat, c) for c in held)
        if not state.broken:
            lead = [c for c in held if suit(c) != "S"]
            if lead:
                return tuple(Play(seat, c) for c in lead)
        return tuple(Play(seat, c) for c in held)

    def rule_for(self, state: SpadesState, action: SpadesAction) -> tuple[str, str]:
        seat = action.seat
        if state.phase == "bid":
            if isinstance(action, Bid):
                return "SPADES-BLIND-1", f"seat {seat} must look at its cards or bid blind nil"
            if isinstance(action, Look | Blind):
                return "SPADES-BLIND-1", "blind nil is declared before looking at the cards"
            return "SPADES-BID-1", f"the bidding is not over: {action} is no bid"
        if not isinstance(action, Play):
            return "SPADES-BID-1", f"the bidding is over: {action} is no play"
        if action.card not in state.zones.cards[hand(seat)]:
            return "SPADES-FOLLOW-1", f"seat {seat} does not hold {action.card}"
        trick = state.zones.cards[TRICK]
        if trick:
            return "SPADES-FOLLOW-1", f"seat {seat} must follow the led suit {suit(trick[0])}"
        return "SPADES-LEAD-1", "spades may not be led until they are broken"

    def apply(self, state: SpadesState, action: SpadesAction, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        if isinstance(action, Look | Blind):
            state.looked[seat] = True
            while z.cards[unseen(seat)]:
                z.move(unseen(seat), hand(seat), mask=1 << seat)
            if isinstance(action, Blind):
                state.blind[seat] = True
                self._bid(state, seat, 0)
            return
        if isinstance(action, Bid):
            self._bid(state, seat, action.tricks)
            return
        self._play(state, action, emit)

    def _bid(self, state: SpadesState, seat: int, tricks: int) -> None:
        state.bids[seat] = tricks
        if all(b >= 0 for b in state.bids):
            state.phase = "play"
            state.to_act = (state.leader,)
        else:
            state.to_act = ((seat + 1) % 4,)

    def _play(self, state: SpadesState, action: Play, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        i = z.cards[hand(seat)].index(action.card)
        card = z.move(hand(seat), TRICK, i, mask=ALL)
        if suit(card) == "S":
            state.broken = True
        if emit is not None:
            emit(CardMoved(seat, f"hand.{seat}", "trick", card))
        trick = z.cards[TRICK]
        if len(trick) < 4:
            state.to_act = ((seat + 1) % 4,)
            return
        led = suit(trick[0])
        best = max(range(4), key=lambda k: strength(trick[k], led))
        winner = (state.leader + best) % 4
        for _ in range(4):
            z.move(TRICK, DONE, 0, mask=ALL)
        state.tricks[winner] += 1
        state.leader, state.to_act = winner, (winner,)
        if sum(state.tricks) == HAND:
            self._score(state, emit)

    def _score(self, state: SpadesState, emit: Emit | None) -> None:
        """SPADES-SCORE-1, SPADES-BAGS-1, SPADES-NIL-1, then SPADES-END-1 or the next deal."""
        made, bags = [0] * 4, list(state.bags)
        for t in (0, 1):
            points, new = team_points(state.bids, state.blind, state.tricks, t)
            total = bags[t] + new
            if total >= 10:
                points -= 100
                total -= 10
            for s in (t, t + 2):
                made[s], bags[s] = points, total
        scored = self.score_round(state, made)
        state.score = [p + d for p, d in zip(state.score, scored, strict=True)]
        state.bags = bags
        state.past = [
            *state.past,
            {
                "hand": state.hand,
                "bids": list(state.bids),
                "blind": list(state.blind),
                "tricks": list(state.tricks),
                "points": list(scored),
            },
        ]
        state.hand += 1
        target = state.options["target"]
        a, b = state.score[0], state.score[1]
        if (max(a, b) >= target and a != b) or state.hand >= state.options["max_hands"]:
            end_game(state, self.standings(state), self.scores(state), "points")
            return
        state.dealer = (state.dealer + 1) % 4
        gather(state, STOCK)
        self._deal(state, emit)

    def scores(self, state: SpadesState) -> tuple[float, ...]:
        return tuple(float(p) for p in state.score)

    def standings(self, state: SpadesState) -> tuple[int, ...]:
        if state.score[0] == state.score[1]:
            return (0, 1, 2, 3)
        t = 0 if state.score[0] > state.score[1] else 1
        return (t, t + 2)

    def resign(self, state: SpadesState, seat: int) -> None:
        t = 1 - team(seat)
        state.is_over, state.to_act = True, ()
        state.result = Result((t, t + 2), self.scores(state), None, "resigned")

    def history(self, state: SpadesState, seat: int | None, since: int) -> list[dict[str, Any]]:
        return [dict(h) for h in state.past[since:]]

    def table(self, state: SpadesState, seat: int | None) -> dict[str, Any]:
        return {
            "dealer": state.dealer,
            "phase": state.phase,
            "bids": list(state.bids),
            "blind": list(state.blind),
            "looked": list(state.looked),
            "leader": state.leader,
            "tricks": list(state.tricks),
            "score": list(state.score),
            "bags": list(state.bags),
            "broken": state.broken,
            "hand": state.hand,
        }

    def check_position(self, state: SpadesState) -> None:
        check(
            state.is_over or len(state.to_act) == 1,
            "to_act must be one seat, not {}",
            list(state.to_act),
        )
        check(state.phase in PHASES, "phase must be one of {}, not {!r}", PHASES, state.phase)
        check(0 <= state.dealer < 4, "dealer must be a seat, not {}", state.dealer)
        check(all(-1 <= b <= 13 for b in state.bids), "bids must be -1..13: {}", state.bids)
        for a in (0, 1):
            check(
                state.score[a] == state.score[a + 2] and state.bags[a] == state.bags[a + 2],
                "partners share their score and bags: {} {}",
                state.score,
                state.bags,
            )
        for s in range(4):
            check(
                state.looked[s] or not state.zones.cards[hand(s)],
                "seat {} holds cards it has not looked at",
                s,
            )


@hookimpl
def create_logic(ruleset: Any) -> SpadesLogic:
    return SpadesLogic(ruleset)
