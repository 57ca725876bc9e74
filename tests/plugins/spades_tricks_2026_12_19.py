"""Spades, a test-only game plugin written from cardcore's docs (game ``spades-tricks``).

Four players in two partnerships (seats 0 and 2 against 1 and 3), 13 cards each.
Rules (IDs cited in errors and tests):

SPT-DEAL-1  One 52-card deck, 13 cards each, dealt one at a time from the dealer's left.
            The first dealer is seat 3; the deal passes to the left after every hand.
SPT-BID-1   Each seat bids once, from the dealer's left: 0 (nil) to 13 tricks (``bid N``).
SPT-LEAD-1  The seat left of the dealer leads the first trick; a trick's winner leads the next.
SPT-FOLLOW-1 A player must follow the suit led if able; otherwise any card.
SPT-BREAK-1 Spades may not be led until a spade has been played to a trick (broken),
            unless the leader holds nothing but spades.
SPT-TRICK-1 Spades are trumps: the highest spade wins, else the highest card of the suit
            led (aces high).
SPT-SCORE-1 A team's contract is the sum of its non-nil bids; making it scores 10 per
            trick bid plus 1 per overtrick (bag); failing it scores -10 per trick bid.
SPT-NIL-1   A nil bid scores +100 if its bidder takes no trick, else -100; the partner's
            contract is scored alone, without the nil bidder's tricks.
SPT-NIL-2   Tricks taken by a failed nil bidder count as bags for the team (1 point each).
SPT-BAG-1   Each time a team's accumulated bags reach the bag limit (10; hook
            ``spades_bag_limit``), it loses 100 points and the limit is taken off its bags.
SPT-END-1   After a hand, if a team has reached ``target`` (500) points and leads, it wins.
            Equal teams at or above the target play on.
SPT-END-2   After ``max_hands`` hands the game ends: the leading team wins; equal teams share.
SPT-RESIGN-1 A resigning seat loses with its partner.
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from functools import cache
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
    PluginError,
    Ruleset,
    Shuffled,
    Suit,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    hookspec,
    tricks,
)
from cardcore.dealing import deal_round_robin, fill_stock, gather
from cardcore.positions import check
from cardcore.turns import end_game, next_seat, seats_from

PLAYERS = 4
HAND = 13
NO_BID = -1

# ---------------------------------------------------------------- hookspecs


def _bag_limit_spec(options: Mapping[str, Any]) -> int | None:  # pragma: no cover - a spec
    """Return how many bags cost a team 100 points (SPT-BAG-1).

    The first non-``None`` answer wins.

    :param options: The resolved options of the game.
    :returns: A whole number of bags of at least 1.

    .. versionadded:: 1.0.0
    """


hookspecs = types.ModuleType("spades_tricks_hookspecs")
vars(hookspecs)["spades_bag_limit"] = hookspec(firstresult=True)(_bag_limit_spec)

# ---------------------------------------------------------------- description

GAME = GameInfo(
    "spades-tricks",
    "Spades: partnerships bid tricks (nil too); spades trump and must be broken",
    PLAYERS,
    PLAYERS,
    version="1.0.0",
    hookspecs=hookspecs,
    options=(
        Option(
            "target",
            500,
            "Points a team needs to win.",
            minimum=100,
            maximum=1000,
            rule_id="SPT-END-1",
        ),
        Option(
            "max_hands", 20, "Hands played at most.", minimum=1, maximum=100, rule_id="SPT-END-2"
        ),
    ),
    fields=(
        ViewField("phase", "choice", "Bidding or playing.", choices=("bid", "play")),
        ViewField("dealer", "seat", "The seat that dealt this hand."),
        ViewField("leader", "seat", "The seat that led the current trick."),
        ViewField(
            "bids", "per-seat", "Each seat's bid this hand, -1 before it bids, 0 nil.", of="int"
        ),
        ViewField("taken", "per-seat", "Tricks each seat has taken this hand.", of="int"),
        ViewField("points", "per-seat", "Each seat's team score.", of="int"),
        ViewField("bags", "per-seat", "Each seat's team's accumulated bags.", of="int"),
        ViewField("broken", "bool", "Whether spades have been broken this hand."),
        ViewField("hands", "int", "Hands completed."),
    ),
)

# ---------------------------------------------------------------- actions


@frozen
class Bid(Action):
    """Seat *seat* bids *tricks* (0 is nil)."""

    tricks: int
    verb: ClassVar[str] = "bid"

    def notation(self) -> str:
        return f"bid {self.tricks}"


@frozen
class Play(Action):
    """Seat *seat* plays *card* to the trick."""

    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


SpadesAction = Bid | Play

# ---------------------------------------------------------------- state

STOCK, TRICK = 0, 1


def hand(seat: int) -> int:
    return 2 + seat


def won(seat: int) -> int:
    return 2 + PLAYERS + seat


@cache
def layout() -> Layout:
    return Layout.of(
        [
            ZoneSpec("stock"),
            ZoneSpec("trick", None, Visibility.EVERYONE, ordered=True),
            *(ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(PLAYERS)),
            *(ZoneSpec(f"won.{s}", s, Visibility.EVERYONE) for s in range(PLAYERS)),
        ]
    )


class SpadesState(GameState):
    __slots__ = ("bags", "bids", "broken", "dealer", "hands", "leader", "past", "phase", "points")
    _mutable = ("zones", "bids", "points", "bags", "past")
    phase: str
    dealer: int
    leader: int
    bids: list[int]
    points: list[int]
    bags: list[int]
    broken: bool
    hands: int
    past: list[dict[str, Any]]


def team(seat: int) -> tuple[int, int]:
    return (seat % 2, seat % 2 + 2)


def taken(state: GameState, seat: int) -> int:
    return len(state.zones.cards[won(seat)]) // PLAYERS


def score_hand(bids: Sequence[int], took: Sequence[int]) -> tuple[list[int], list[int]]:
    """Per team (0: seats 0+2, 1: seats 1+3): the hand's points and bags (SPT-SCORE/NIL-*)."""
    points, bags = [0, 0], [0, 0]
    for t in (0, 1):
        contract = made = 0
        for s in team(t):
            if bids[s] == 0:  # SPT-NIL-1
                points[t] += 100 if took[s] == 0 else -100
                points[t] += took[s]  # SPT-NIL-2: a failed nil's tricks are bags, 1 point each
                bags[t] += took[s]
            else:
                contract += bids[s]
                made += took[s]
        if made >= contract:  # SPT-SCORE-1
            points[t] += 10 * contract + (made - contract)
            bags[t] += made - contract
        else:
            points[t] -= 10 * contract
    return points, bags


# ---------------------------------------------------------------- logic


class SpadesLogic(GameLogic[SpadesState, SpadesAction]):
    action_types = (Bid, Play)
    position_fields = (
        "to_act",
        "phase",
        "dealer",
        "leader",
        "bids",
        "points",
        "bags",
        "broken",
        "hands",
    )
    max_legal = 14

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        limit = ruleset.resolve("spades_bag_limit")
        if limit is None:
            raise PluginError("spades_bag_limit has no implementation")
        self._bag_limit = limit
        self._bids = {(s, n): Bid(s, n) for s in range(PLAYERS) for n in range(HAND + 1)}

    def bag_limit(self, options: Mapping[str, Any]) -> int:
        n: int = self.checked_answer("spades_bag_limit", self._bag_limit(options=options), int)
        if n < 1:
            raise self.refused_answer("spades_bag_limit", n, "a whole number of at least 1")
        return n

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return int(options["max_hands"]) * (PLAYERS + 52) + 1

    def blank_state(self, players: int, options: Mapping[str, Any]) -> SpadesState:
        state = SpadesState(players, options, Zones(layout()))
        state.phase, state.dealer, state.leader = "bid", PLAYERS - 1, 0
        state.bids, state.points, state.bags = [NO_BID] * PLAYERS, [0] * PLAYERS, [0] * PLAYERS
        state.broken, state.hands, state.past = False, 0, []
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> SpadesState:
        self.bag_limit(options)  # refuse a bad house-rule answer before the deal
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        self._deal(state, emit)
        return state

    def _deal(self, state: SpadesState, emit: Emit | None) -> None:
        """SPT-DEAL-1: 13 each from the dealer's left; that seat bids first."""
        first = next_seat(state.dealer, PLAYERS)
        deal_round_robin(state, STOCK, [hand(s) for s in seats_from(first, PLAYERS)], HAND)
        if emit is not None:
            emit(CardsDealt((HAND,) * PLAYERS))
        state.phase, state.bids, state.broken = "bid", [NO_BID] * PLAYERS, False
        state.leader, state.to_act = first, (first,)

    def legal_actions(self, state: SpadesState, seat: int) -> tuple[SpadesAction, ...]:
        if state.phase == "bid":
            return tuple(self._bids[seat, n] for n in range(HAND + 1))
        return tuple(Play(seat, c) for c in self._playable(state, seat))

    def _playable(self, state: SpadesState, seat: int) -> list[Card]:
        cards = state.zones.cards
        held = sorted(
            cards[hand(seat)], key=lambda c: (c.suit.value if c.suit else "", c.rank.value)
        )
        trick = cards[TRICK]
        if trick:  # SPT-FOLLOW-1
            return list(tricks.following(held, trick[0].suit))
        if state.broken or all(c.suit is Suit.SPADES for c in held):
            return held
        return [c for c in held if c.suit is not Suit.SPADES]  # SPT-BREAK-1

    def rule_for(self, state: SpadesState, action: SpadesAction) -> tuple[str, str]:
        if isinstance(action, Bid):
            if state.phase != "bid":
                return "SPT-BID-1", "the bidding is over"
            return "SPT-BID-1", f"a bid is 0 (nil) to 13 tricks, not {action.tricks}"
        if state.phase != "play":
            return "SPT-BID-1", "every seat bids before the play"
        if action.card not in state.zones.cards[hand(action.seat)]:
            return "SPT-FOLLOW-1", f"seat {action.seat} may play only a card it holds"
        if state.zones.cards[TRICK]:
            return (
                "SPT-FOLLOW-1",
                f"seat {action.seat} must follow {state.zones.cards[TRICK][0]}",
            )
        return "SPT-BREAK-1", "spades may not be led until broken"

    def apply(self, state: SpadesState, action: SpadesAction, emit: Emit | None) -> None:
        seat = action.seat
        if isinstance(action, Bid):
            state.bids[seat] = action.tricks
            nxt = next_seat(seat, PLAYERS)
            if NO_BID not in state.bids:
                state.phase = "play"
                nxt = state.leader  # SPT-LEAD-1
            state.to_act = (nxt,)
            return
        z = state.zones
        i = z.cards[hand(seat)].index(action.card)
        card = z.move(hand(seat), TRICK, i)
        if emit is not None:
            emit(CardMoved(seat, f"hand.{seat}", "trick", card))
        if card.suit is Suit.SPADES:
            state.broken = True
        if len(z.cards[TRICK]) < PLAYERS:
            state.to_act = (next_seat(seat, PLAYERS),)
            return
        winner = (state.leader + tricks.trick_winner(z.cards[TRICK], trump=Suit.SPADES)) % PLAYERS
        while z.cards[TRICK]:  # SPT-TRICK-1
            moved = z.move(TRICK, won(winner), 0)
            if emit is not None:
                emit(CardMoved(None, "trick", f"won.{winner}", moved))
        state.leader, state.to_act = winner, (winner,)
        if not z.cards[hand(winner)]:
            self._end_hand(state, emit)

    def _end_hand(self, state: SpadesState, emit: Emit | None) -> None:
        took = [taken(state, s) for s in range(PLAYERS)]
        points, bags = score_hand(state.bids, took)
        limit = self.bag_limit(state.options)
        per_seat = [points[s % 2] for s in range(PLAYERS)]
        for t in (0, 1):  # SPT-BAG-1
            total_bags = state.bags[t] + bags[t]
            while total_bags >= limit:
                total_bags -= limit
                per_seat[t] -= 100
                per_seat[t + 2] -= 100
            for s in team(t):
                state.bags[s] = total_bags
        made = self.score_round(state, per_seat)
        if made[0] != made[2] or made[1] != made[3]:
            raise self.refused_answer(
                "score_round",
                made,
                "one score per team",
                asked={"state": state, "scores": per_seat},
            )
        for s in range(PLAYERS):
            state.points[s] += made[s]
        state.past.append(
            {
                "hand": state.hands,
                "dealer": state.dealer,
                "bids": list(state.bids),
                "taken": took,
                "scores": list(made),
            }
        )
        state.hands += 1
        a, b = state.points[0], state.points[1]
        target = int(state.options["target"])
        if (max(a, b) >= target and a != b) or state.hands >= int(state.options["max_hands"]):
            winners = (0, 2) if a > b else (1, 3) if b > a else (0, 1, 2, 3)
            reason = "target reached" if max(a, b) >= target and a != b else "hand cap reached"
            end_game(state, winners, [float(p) for p in state.points], reason)
            return
        state.dealer = next_seat(state.dealer, PLAYERS)
        gather(state, STOCK)
        if emit is not None:
            emit(Shuffled("stock", len(state.zones.cards[STOCK])))
        self._deal(state, emit)

    def resign(self, state: SpadesState, seat: int) -> None:
        """SPT-RESIGN-1: the resigning seat's partner loses with it."""
        others = tuple(s for s in range(PLAYERS) if s % 2 != seat % 2)
        end_game(state, others, [float(p) for p in state.points], "resigned")

    def scores(self, state: SpadesState) -> tuple[float, ...]:
        return tuple(float(p) for p in state.points)

    def standings(self, state: SpadesState) -> tuple[int, ...]:
        a, b = state.points[0], state.points[1]
        return (0, 2) if a > b else (1, 3) if b > a else (0, 1, 2, 3)

    def history(self, state: SpadesState, seat: int | None, since: int) -> list[dict[str, Any]]:
        return [dict(h) for h in state.past[since:]]

    def table(self, state: SpadesState, seat: int | None) -> dict[str, Any]:
        return {
            "phase": state.phase,
            "dealer": state.dealer,
            "leader": state.leader,
            "bids": list(state.bids),
            "taken": [taken(state, s) for s in range(PLAYERS)],
            "points": list(state.points),
            "bags": list(state.bags),
            "broken": state.broken,
            "hands": state.hands,
        }

    def check_position(self, state: SpadesState) -> None:
        cards = state.zones.cards
        check(state.phase in ("bid", "play"), "phase must be bid or play, not {!r}", state.phase)
        check(
            0 <= state.dealer < PLAYERS and 0 <= state.leader < PLAYERS,
            "dealer and leader must be seats",
        )
        check(all(NO_BID <= b <= HAND for b in state.bids), "bids must be -1 to 13 (SPT-BID-1)")
        check(
            state.points[0] == state.points[2] and state.points[1] == state.points[3],
            "partners share points",
        )
        check(
            state.bags[0] == state.bags[2] and state.bags[1] == state.bags[3], "partners share bags"
        )
        check(len(cards[TRICK]) < PLAYERS, "a full trick must have been taken")
        if not state.is_over:
            check(len(state.to_act) == 1, "to_act must be one seat, not {}", list(state.to_act))
            expect = (state.leader + len(cards[TRICK])) % PLAYERS
            if state.phase == "play":
                check(NO_BID not in state.bids, "every seat bids before the play (SPT-BID-1)")
                check(state.to_act[0] == expect, "seat {} must play next", expect)
            sizes = {
                len(cards[hand(s)]) + (1 if s in self._played(state) else 0) for s in range(PLAYERS)
            }
            check(len(sizes) == 1, "the hands must hold equal counts of cards")

    def _played(self, state: SpadesState) -> set[int]:
        return {(state.leader + i) % PLAYERS for i in range(len(state.zones.cards[TRICK]))}


# ---------------------------------------------------------------- hooks


@hookimpl
def create_logic(ruleset: Ruleset) -> SpadesLogic:
    return SpadesLogic(ruleset)


@hookimpl(trylast=True)
def spades_bag_limit(options: Mapping[str, Any]) -> int:
    """SPT-BAG-1: ten bags cost 100 points."""
    return 10
