"""A small Blackjack game written from the docs only, as a third-party plugin.

1-4 players play against an automated dealer (the dealer is not a seat). Each
hand every player who can afford it stakes ``stake`` chips; the dealer draws
to 17 by rule once every player is done. Rules (IDs cited in the code):

* BJ-DEAL-1: each hand is dealt from the shoe: two cards face up to each betting seat, one face up to the dealer (the up card)
  and one face down (the hole card), hidden from everyone until the dealer plays.
* BJ-BET-1: a seat stakes ``stake`` chips per hand if its bank holds that much;
  otherwise it sits out the hand.
* BJ-ACT-1: in seat order, a seat hits, stands or doubles (BJ-DOUBLE-1); a seat
  reaching 21 or more is done; a natural (21 with two cards) does not act.
* BJ-DOUBLE-1: double only on the first two cards with a bank of twice the
  stake; the stake doubles, one card is drawn, and the seat is done.
* BJ-DEALER-1: the dealer turns up the hole card and, if a seat is not bust,
  draws until 17 or more (stands on every 17).
* BJ-PAY-1: bust loses; a natural against no dealer natural wins 3:2 (rounded
  down); naturals on both sides push; a dealer natural beats any other hand;
  otherwise the higher total wins the stake, equal totals push.
* BJ-SHOE-1: a finished hand's cards go face up to the discard tray; before a
  hand, a shoe of fewer than 20 cards is shuffled again with the tray.
* BJ-END-1: after ``hands`` hands, or when no seat can stake, the biggest bank
  wins; payouts are each seat's net chips.
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
    CardDrawn,
    CardsDealt,
    Emit,
    Event,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Option,
    PaymentsMade,
    Ruleset,
    Shuffled,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    shuffle,
)
from cardcore.dealing import fill_stock
from cardcore.positions import check
from cardcore.turns import end_game, winners_by

NAME = "bj-author"

GAME = GameInfo(
    NAME,
    "Blackjack against an automated dealer: hit, stand or double; naturals pay 3:2",
    1,
    4,
    version="1.0.0",
    options=(
        Option("stake", 10, "Chips staked per hand.", minimum=1, maximum=100),
        Option("bank", 100, "Chips each seat starts with.", minimum=1, maximum=10000),
        Option("hands", 3, "Hands in a match.", minimum=1, maximum=50),
    ),
    fields=(
        ViewField("hand_no", "int", "Hands dealt so far (this one included)."),
        ViewField("bank", "per-seat", "Chips each seat holds, before this hand settles.", of="int"),
        ViewField("bet", "per-seat", "Each seat's stake in this hand (0: sitting out).", of="int"),
        ViewField("values", "per-seat", "Each seat's best hand total.", of="int"),
        ViewField("dealer_shows", "int", "The total of the dealer's cards known to all."),
        ViewField(
            "last_net", "per-seat", "What each seat won in the last hand (0 before).", of="int"
        ),
    ),
)

STOCK, DEALER, DISCARD = 0, 1, 2
RESHUFFLE_BELOW = 20
"""BJ-SHOE-1: a shoe this short is shuffled again before a hand."""


def hand(seat: int) -> int:
    return 3 + seat


@cache
def layout(players: int) -> Layout:
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.EVERYONE) for s in range(players)]
    return Layout.of(
        [
            ZoneSpec("stock"),
            ZoneSpec("dealer"),
            ZoneSpec("discard", None, Visibility.EVERYONE),
            *hands,
        ]
    )


def value(cards: list[Card]) -> int:
    """The best total of *cards*: aces 1 or 11, faces 10."""
    total = sum(min(c.rank.value, 10) for c in cards)
    if any(c.rank.value == 1 for c in cards) and total + 10 <= 21:
        total += 10
    return total


def natural(cards: list[Card]) -> bool:
    return len(cards) == 2 and value(cards) == 21


@frozen
class Hit(Action):
    verb: ClassVar[str] = "hit"


@frozen
class Stand(Action):
    verb: ClassVar[str] = "stand"


@frozen
class Double(Action):
    verb: ClassVar[str] = "double"


BjAction = Hit | Stand | Double


class HoleRevealed(Event):
    """The dealer turned up the hole card *card*."""

    slug: ClassVar[str] = "bj-author-hole-revealed"
    card: Card


class DealerDrew(Event):
    """The dealer drew *card*, face up."""

    slug: ClassVar[str] = "bj-author-dealer-drew"
    card: Card


class BjState(GameState):
    __slots__ = ("bank", "bet", "hand_no", "last_net")
    _mutable = ("zones", "bank", "bet", "last_net")
    bank: list[int]
    bet: list[int]
    hand_no: int
    last_net: list[int]


class BlackjackLogic(GameLogic[BjState, BjAction]):
    action_types = (Hit, Stand, Double)
    position_fields = ("to_act", "hand_no", "bank", "bet", "last_net")
    max_legal = 3
    reshuffle_below = RESHUFFLE_BELOW

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 12 * players * int(options["hands"]) + 10

    def blank_state(self, players: int, options: Mapping[str, Any]) -> BjState:
        state = BjState(players, options, Zones(layout(players)))
        state.bank = [int(options["bank"])] * players
        state.bet = [0] * players
        state.hand_no = 0
        state.last_net = [0] * players
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> BjState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        self._deal(state, emit)
        self._advance(state, -1, emit)
        return state

    # -- the hand ---------------------------------------------------------------------------

    def _deal(self, state: BjState, emit: Emit | None) -> None:
        """BJ-BET-1 and BJ-DEAL-1 (the stock already holds the shuffled deck)."""
        stake = int(state.options["stake"])
        z = state.zones
        state.hand_no += 1
        state.bet = [stake if b >= stake else 0 for b in state.bank]
        seats = [s for s in range(state.players) if state.bet[s]]
        for round_ in range(2):
            for s in seats:
                z.move(STOCK, hand(s), mask=ALL)
            z.move(STOCK, DEALER, mask=ALL if round_ == 0 else 0)  # the hole card: nobody
        if emit is not None:
            emit(CardsDealt(tuple(len(z.cards[hand(s)]) for s in range(state.players))))

    def _needs_turn(self, state: BjState, seat: int) -> bool:
        cards = state.zones.cards[hand(seat)]
        stake = int(state.options["stake"])
        return bool(state.bet[seat]) and value(cards) < 21 and state.bet[seat] == stake

    def _advance(self, state: BjState, after: int, emit: Emit | None) -> None:
        """Give the turn to the next seat that acts (BJ-ACT-1), or play the dealer."""
        while True:
            for s in range(after + 1, state.players):
                if self._needs_turn(state, s):
                    state.to_act = (s,)
                    return
            self._dealer_and_settle(state, emit)
            if state.is_over:
                return
            after = -1

    def _dealer_and_settle(self, state: BjState, emit: Emit | None) -> None:
        z = state.zones
        hole = z.reveal(DEALER, 1)  # BJ-DEALER-1
        if emit is not None:
            emit(HoleRevealed(hole))
        seats = [s for s in range(state.players) if state.bet[s]]
        if any(value(z.cards[hand(s)]) <= 21 for s in seats):
            while value(z.cards[DEALER]) < 17:
                card = z.move(STOCK, DEALER, mask=ALL)
                if emit is not None:
                    emit(DealerDrew(card))
        dealer = z.cards[DEALER]
        dv, dnat = value(dealer), natural(dealer)
        amounts = [0] * state.players
        for s in seats:  # BJ-PAY-1
            cards, bet = z.cards[hand(s)], state.bet[s]
            pv, pnat = value(cards), natural(cards)
            if pv > 21:
                amounts[s] = -bet
            elif pnat and dnat:
                amounts[s] = 0
            elif pnat:
                amounts[s] = bet * 3 // 2
            elif dnat or (dv <= 21 and dv > pv):
                amounts[s] = -bet
            elif dv > 21 or pv > dv:
                amounts[s] = bet
        amounts = list(self.score_round(state, amounts))
        state.bank = [b + a for b, a in zip(state.bank, amounts, strict=True)]
        state.last_net = amounts
        state.bet = [0] * state.players
        if emit is not None:
            emit(PaymentsMade("hand", tuple(amounts), tuple(self._net(state))))
        stake = int(state.options["stake"])
        if state.hand_no >= int(state.options["hands"]) or all(b < stake for b in state.bank):
            net = self._net(state)  # BJ-END-1
            end_game(
                state,
                winners_by(state.bank, lowest=False),
                net,
                "hands played",
                payouts=net,
                reveal=False,
            )
            return
        for z_ in [DEALER, *map(hand, range(state.players))]:  # BJ-SHOE-1
            while z.cards[z_]:
                z.move(z_, DISCARD, 0, mask=ALL)
        if len(z.cards[STOCK]) < self.reshuffle_below:
            cards = z.cards[STOCK] + z.cards[DISCARD]
            for z_ in (STOCK, DISCARD):
                z.cards[z_].clear()
                z.seen[z_].clear()
            cards.sort(key=str)
            shuffle(cards, state.rng())
            fill_stock(state, STOCK, cards)
            if emit is not None:
                emit(Shuffled("stock", len(cards)))
        self._deal(state, emit)

    def _net(self, state: BjState) -> tuple[int, ...]:
        start = int(state.options["bank"])
        return tuple(b - start for b in state.bank)

    # -- the contract -----------------------------------------------------------------------

    def legal_actions(self, state: BjState, seat: int) -> tuple[BjAction, ...]:
        """``hit``, ``stand``, then ``double`` when allowed (BJ-DOUBLE-1)."""
        actions: tuple[BjAction, ...] = (Hit(seat), Stand(seat))
        if self._may_double(state, seat):
            actions += (Double(seat),)
        return actions

    def _may_double(self, state: BjState, seat: int) -> bool:
        return len(state.zones.cards[hand(seat)]) == 2 and state.bank[seat] >= 2 * state.bet[seat]

    def rule_for(self, state: BjState, action: BjAction) -> tuple[str, str]:
        if isinstance(action, Double):
            return (
                "BJ-DOUBLE-1",
                f"seat {action.seat} may double only on two cards with a bank of twice the stake",
            )
        return "BJ-ACT-1", f"seat {action.seat} may not {action.verb} now"

    def apply(self, state: BjState, action: BjAction, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        if isinstance(action, Stand):
            self._advance(state, seat, emit)
            return
        if isinstance(action, Double):
            state.bet[seat] *= 2
        card = z.move(STOCK, hand(seat), mask=ALL)
        if emit is not None:
            emit(CardDrawn(seat, "stock", card, visible_to=ALL))
        if isinstance(action, Double) or value(z.cards[hand(seat)]) >= 21:
            self._advance(state, seat, emit)

    def table(self, state: BjState, seat: int | None) -> dict[str, Any]:
        z = state.zones
        shown = [c for c, m in zip(z.cards[DEALER], z.seen[DEALER], strict=True) if m == ALL]
        return {
            "hand_no": state.hand_no,
            "bank": list(state.bank),
            "bet": list(state.bet),
            "values": [value(z.cards[hand(s)]) for s in range(state.players)],
            "dealer_shows": value(shown),
            "last_net": list(state.last_net),
        }

    def scores(self, state: BjState) -> tuple[float, ...]:
        return tuple(map(float, self._net(state)))

    def payouts(self, state: BjState) -> tuple[int, ...] | None:
        return self._net(state)

    def standings(self, state: BjState) -> tuple[int, ...]:
        return winners_by(state.bank, lowest=False)

    def check_position(self, state: BjState) -> None:
        stake = int(state.options["stake"])
        check(state.hand_no >= 1, "hand_no must be at least 1, not {}", state.hand_no)
        if state.is_over:
            return
        check(len(state.to_act) == 1, "to_act must be one seat, not {}", list(state.to_act))
        s = state.to_act[0]
        check(self._needs_turn(state, s), "seat {} has no turn to play (BJ-ACT-1)", s)
        check(
            all(b in (0, stake, 2 * stake) for b in state.bet),
            "bets must be 0, stake or double (BJ-BET-1)",
        )
        check(
            len(state.zones.cards[DEALER]) == 2,
            "the dealer holds two cards while seats act (BJ-DEAL-1)",
        )


@hookimpl
def create_logic(ruleset: Ruleset) -> BlackjackLogic:
    return BlackjackLogic(ruleset)
