"""Oh Hell in one module, as short as the plugin guide allows (a test-only game).

Rules (IDs cited by the code and the errors):

- OHHELL-DEAL-1: hand *h* (from 0) deals ``top - h`` cards to each seat, one at a time,
  starting left of the dealer (seat ``h % players``); ``top`` is an option; the game
  has ``top`` hands.
- OHHELL-TRUMP-1: the next card is turned face up; its suit is trumps for the hand.
- OHHELL-BID-1: starting left of the dealer, each seat bids once, 0 to the cards dealt.
- OHHELL-BID-2: the dealer, bidding last, may not bid so the bids add up to the cards dealt.
- OHHELL-LEAD-1: the seat left of the dealer leads the first trick; a trick's winner leads
  the next.
- OHHELL-FOLLOW-1: a seat that holds a card of the suit led must play one.
- OHHELL-TRICK-1: the highest trump wins the trick, else the highest card of the suit led
  (aces high).
- OHHELL-SCORE-1: a seat that takes exactly its bid scores 10 plus its bid, else 0.
- OHHELL-END-1: after the last hand the highest total wins; ties share.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from attrs import frozen

from cardcore import (
    Action,
    Card,
    CardMoved,
    CardRevealed,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Option,
    OptionError,
    Rank,
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
from cardcore.turns import end_game, next_seat, winners_by

STOCK, TRUMP, TRICK, DONE = 0, 1, 2, 3

GAME = GameInfo(
    "ohhell",
    "Oh Hell: bid the exact number of tricks you will take",
    3,
    7,
    version="1.0.0",
    options=(
        Option(
            "top", 5, "Cards dealt in the first hand (one fewer each hand).", minimum=1, maximum=10
        ),
    ),
    fields=(
        ViewField("hand_no", "int", "Hands played so far."),
        ViewField("bids", "per-seat", "Each seat's bid, -1 before it bids.", of="int"),
        ViewField("taken", "per-seat", "Tricks each seat took this hand.", of="int"),
        ViewField("totals", "per-seat", "Each seat's score so far.", of="int"),
        ViewField("leader", "seat", "The seat that led the current trick."),
    ),
)


@frozen
class Bid(Action):
    amount: int
    verb: ClassVar[str] = "bid"

    def notation(self) -> str:
        return f"bid {self.amount}"


@frozen
class Play(Action):
    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


HellAction = Bid | Play


def hand(seat: int) -> int:
    return 4 + seat


def power(card: Card, led: str, trump: str) -> int:  # OHHELL-TRICK-1
    assert card.suit is not None
    rank = 14 if card.rank == Rank.ACE else int(card.rank)
    return rank + (200 if card.suit.letter == trump else 100 if card.suit.letter == led else 0)


class HellState(GameState):
    __slots__ = ("bids", "hand_no", "leader", "past", "taken", "totals")
    _mutable = ("zones", "bids", "taken", "totals")
    past: tuple[int, ...]
    hand_no: int
    bids: list[int]
    taken: list[int]
    totals: list[int]
    leader: int


class HellLogic(GameLogic[HellState, HellAction]):
    action_types = (Bid, Play)
    position_fields = ("to_act", "hand_no", "bids", "taken", "totals", "leader", "past")

    def validate(self, players: int, options: Mapping[str, Any]) -> None:
        super().validate(players, options)
        if players * options["top"] >= 52:
            raise OptionError(
                f"{players} seats cannot be dealt {options['top']} cards each (OHHELL-DEAL-1)"
            )

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return int(options["top"]) * (int(options["top"]) + 1) * (players + 1)

    def blank_state(self, players: int, options: Mapping[str, Any]) -> HellState:
        hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
        specs = [
            ZoneSpec("stock"),
            ZoneSpec("trump", None, Visibility.EVERYONE),
            ZoneSpec("trick", None, Visibility.EVERYONE, ordered=True),
            ZoneSpec("done"),
            *hands,
        ]
        state = HellState(players, options, Zones(Layout.of(specs)))
        state.hand_no, state.leader, state.past = 0, 1 % players, ()
        state.bids, state.taken, state.totals = [-1] * players, [0] * players, [0] * players
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> HellState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        self.deal(state, emit)
        return state

    def deal(self, state: HellState, emit: Emit | None) -> None:  # OHHELL-DEAL-1, OHHELL-TRUMP-1
        players, dealer = state.players, state.hand_no % state.players
        deal_round_robin(
            state, STOCK, [hand(s) for s in range(players)], self.cards(state), first=dealer + 1
        )
        card = state.zones.move(STOCK, TRUMP)
        state.leader = next_seat(dealer, players)
        state.to_act = (state.leader,)
        if emit is not None:
            emit(CardsDealt(tuple(len(state.zones.cards[hand(s)]) for s in range(players))))
            emit(CardRevealed(None, "trump", 0, card))

    def cards(self, state: HellState) -> int:
        return int(state.options["top"]) - state.hand_no

    def trump(self, state: HellState) -> str:
        top = state.zones.top(TRUMP)
        assert top is not None and top.suit is not None
        return top.suit.letter

    def legal_actions(self, state: HellState, seat: int) -> tuple[HellAction, ...]:
        n = self.cards(state)
        if state.bids[seat] < 0:  # OHHELL-BID-1, OHHELL-BID-2
            last = sum(b >= 0 for b in state.bids) == state.players - 1
            made = sum(b for b in state.bids if b >= 0)
            return tuple(Bid(seat, b) for b in range(n + 1) if not (last and made + b == n))
        held = state.zones.cards[hand(seat)]
        trick = state.zones.cards[TRICK]
        led = trick[0].suit if trick else None
        follow = [c for c in held if c.suit == led]  # OHHELL-FOLLOW-1
        return tuple(Play(seat, c) for c in sorted(follow or held, key=str))

    def rule_for(self, state: HellState, action: HellAction) -> tuple[str, str]:
        if isinstance(action, Bid):
            if state.bids[action.seat] >= 0:
                return "OHHELL-BID-1", "every seat has bid: play a card"
            if 0 <= action.amount <= self.cards(state):
                return "OHHELL-BID-2", "the dealer may not make the bids add up to the cards dealt"
            return "OHHELL-BID-1", f"bid 0 to {self.cards(state)}"
        if min(state.bids) < 0:
            return "OHHELL-BID-1", "bid before playing"
        if action.card not in state.zones.cards[hand(action.seat)]:
            return "OHHELL-FOLLOW-1", "play a card you hold"
        return "OHHELL-FOLLOW-1", "follow the suit led"

    def apply(self, state: HellState, action: HellAction, emit: Emit | None) -> None:
        seat, z, players = action.seat, state.zones, state.players
        if isinstance(action, Bid):
            state.bids[seat] = action.amount  # OHHELL-LEAD-1: after the last bid, the leader
            state.to_act = (next_seat(seat, players),)
            return
        z.move(hand(seat), TRICK, z.cards[hand(seat)].index(action.card))
        if emit is not None:
            emit(CardMoved(seat, f"hand.{seat}", "trick", action.card))
        trick = z.cards[TRICK]
        if len(trick) < players:
            state.to_act = (next_seat(seat, players),)
            return
        led, trump = trick[0].suit, self.trump(state)  # OHHELL-TRICK-1
        assert led is not None
        best = max(range(players), key=lambda i: power(trick[i], led.letter, trump))
        winner = (state.leader + best) % players
        state.taken[winner] += 1
        while trick:
            z.move(TRICK, DONE)
        state.leader, state.to_act = winner, (winner,)  # OHHELL-LEAD-1
        if z.cards[hand(0)]:
            return
        # OHHELL-SCORE-1
        made = [10 + b if b == t else 0 for b, t in zip(state.bids, state.taken, strict=True)]
        made = list(self.score_round(state, made))
        state.totals = [a + b for a, b in zip(state.totals, made, strict=True)]
        state.hand_no, state.past = state.hand_no + 1, (*state.past, *made)
        if self.cards(state) == 0:  # OHHELL-END-1
            end_game(state, self.standings(state), state.totals, "all hands played")
            return
        state.bids, state.taken = [-1] * players, [0] * players
        gather(state, STOCK)
        if emit is not None:
            emit(Shuffled("stock", 52))
        self.deal(state, emit)

    def rounds_played(self, state: HellState) -> int:
        return state.hand_no

    def history(self, state: HellState, seat: int | None, since: int) -> list[dict[str, Any]]:
        n, past = state.players, state.past
        return [
            {"hand": h, "scores": list(past[h * n : h * n + n])}
            for h in range(since, len(past) // n)
        ]

    def standings(self, state: HellState) -> tuple[int, ...]:
        return winners_by(state.totals, lowest=False)

    def scores(self, state: HellState) -> tuple[float, ...]:
        return tuple(map(float, state.totals))

    def table(self, state: HellState, seat: int | None) -> dict[str, Any]:
        return {
            "hand_no": state.hand_no,
            "bids": list(state.bids),
            "taken": list(state.taken),
            "totals": list(state.totals),
            "leader": state.leader,
        }

    def check_position(self, state: HellState) -> None:
        z, n = state.zones, self.cards(state)
        check(
            state.is_over or len(state.to_act) == 1,
            "to_act must be one seat, not {}",
            list(state.to_act),
        )
        check(
            state.is_over or (n > 0 and z.count(TRUMP) == 1),
            "the trump card must be turned (OHHELL-TRUMP-1)",
        )
        check(state.is_over or all(-1 <= b <= n for b in state.bids), "bids must be -1 to {}", n)


@hookimpl
def create_logic(ruleset: Ruleset) -> HellLogic:
    return HellLogic(ruleset)
