"""Fixed-limit Texas Hold'em, written from cardcore's plugin guide (2026-12-14).

Rules (IDs cited by the code, errors and tests):

* HOLDEM-SEAT-1 2 to 6 players; one 52-card deck; each seat starts with ``stack`` chips.
* HOLDEM-BLIND-1 The seat left of the button posts the small blind (half the big blind,
  rounded down), the next the big blind; heads-up the button posts the small blind.
  A seat short of a blind posts all it has (all-in).
* HOLDEM-DEAL-1 Two hole cards each, one at a time from the seat left of the button,
  seen by their owner only; no burn cards (engine decision).
* HOLDEM-TURN-1 Pre-flop the seat left of the big blind acts first (heads-up: the
  button); after the flop the first seat in the hand left of the button.
* HOLDEM-BET-1 ``check`` when nothing is owed; ``fold`` / ``call`` when something is.
* HOLDEM-BET-2 ``bet`` / ``raise`` are of one fixed size: the big blind pre-flop and on
  the flop, two big blinds on the turn and river.
* HOLDEM-BET-3 At most 4 bets per round (pre-flop the big blind counts as the first).
* HOLDEM-BET-4 A seat short of chips calls, bets or raises all-in for what it has; an
  all-in bet or raise for less reopens the betting (engine decision).
* HOLDEM-BOARD-1 Flop 3, turn 1, river 1 community cards, face up.
* HOLDEM-SHOW-1 Best 5 of 7, standard ranking; A-2-3-4-5 is the lowest straight.
* HOLDEM-POT-1 Side pots by contribution level; ties split; odd chips one by one to
  the winners in order from the first seat left of the button.
* HOLDEM-MUCK-1 Folded hands are never shown; a hand won uncontested is not shown.
* HOLDEM-END-1 A seat without chips is out; the match ends when one seat holds chips
  or after ``hands`` hands; most chips wins (ties share).
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from functools import cache
from itertools import combinations
from typing import Any, ClassVar

from attrs import frozen

from cardcore import (
    Action,
    Card,
    CardDrawn,
    CardRevealed,
    CardsDealt,
    Emit,
    Event,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Ledger,
    Option,
    PaymentsMade,
    Ruleset,
    Shuffled,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    hookspec,
)
from cardcore.dealing import deal_round_robin, fill_stock
from cardcore.errors import PluginError
from cardcore.positions import check
from cardcore.turns import end_game, winners_by

NAME = "holdem-2026-12-14"
STREETS = ("preflop", "flop", "turn", "river")
CAP = 4
CATEGORIES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)

# --- hookspecs of the game's own (built in place, docs/plugin-guide/hookspecs.rst) ------


def _ante_spec() -> Any:
    def holdem_ante(options: Mapping[str, Any]) -> int:  # pragma: no cover - spec only
        """Return the ante every seat in a hand posts before the blinds.

        The first answer that is not ``None`` wins (the game answers 0, ``trylast``).

        :param options: The configuration's options.
        :returns: Chips per seat.
        """

    return hookspec(firstresult=True)(holdem_ante)


hookspecs = types.ModuleType("holdem_2026_12_14_hookspecs")
hookspecs.holdem_ante = _ante_spec()


# --- actions ------------------------------------------------------------------------------


@frozen
class Fold(Action):
    """Give up the hand (HOLDEM-BET-1)."""

    verb: ClassVar[str] = "fold"


@frozen
class Check(Action):
    """Pass with nothing owed (HOLDEM-BET-1)."""

    verb: ClassVar[str] = "check"


@frozen
class Call(Action):
    """Match the highest bet, or all-in for less (HOLDEM-BET-1, HOLDEM-BET-4)."""

    verb: ClassVar[str] = "call"


@frozen
class Bet(Action):
    """Open the betting with the round's fixed size (HOLDEM-BET-2)."""

    verb: ClassVar[str] = "bet"


@frozen
class Raise(Action):
    """Raise by the round's fixed size (HOLDEM-BET-2, HOLDEM-BET-3)."""

    verb: ClassVar[str] = "raise"


HoldemAction = Fold | Check | Call | Bet | Raise

# --- events -------------------------------------------------------------------------------


class HandShown(Event):
    """At the showdown seat *seat* showed *cards* and made *category*."""

    slug: ClassVar[str] = "holdem-hand-shown"
    seat: int
    cards: tuple[Card, ...]
    category: str


class PotAwarded(Event):
    """A pot (*amount* chips) went to *winners*, each getting the matching *shares*."""

    slug: ClassVar[str] = "holdem-pot-awarded"
    amount: int
    winners: tuple[int, ...]
    shares: tuple[int, ...]


# --- state --------------------------------------------------------------------------------

STOCK, BOARD, MUCK = 0, 1, 2


def hole(seat: int) -> int:
    return 3 + seat


@cache
def layout(players: int) -> Layout:
    holes = [ZoneSpec(f"hole.{s}", s, Visibility.OWNER) for s in range(players)]
    return Layout.of(
        [
            ZoneSpec("stock"),
            ZoneSpec("board", None, Visibility.EVERYONE),
            ZoneSpec("muck"),
            *holes,
        ]
    )


class HoldemState(GameState):
    """Chips, the hand in progress, and the ledger of the match."""

    __slots__ = (
        "bets",
        "button",
        "chips",
        "contrib",
        "folded",
        "hand_no",
        "ledger",
        "level",
        "net",
        "pending",
        "shown",
        "start",
        "street",
    )
    _mutable = (
        "zones",
        "chips",
        "start",
        "bets",
        "contrib",
        "folded",
        "pending",
        "net",
        "ledger",
        "shown",
    )
    button: int
    hand_no: int
    street: int
    chips: list[int]
    start: list[int]
    bets: list[int]
    contrib: list[int]
    folded: list[int]
    pending: list[int]
    level: int
    net: list[int]
    ledger: Ledger
    shown: list[int]


# --- hand ranking -------------------------------------------------------------------------


def value(card: Card) -> int:
    r = int(card.rank)
    return 14 if r == 1 else r


def rank5(cards: Sequence[Card]) -> tuple[int, ...]:
    """The rank of five cards: (category, tie-breaks...), higher is better."""
    vals = sorted((value(c) for c in cards), reverse=True)
    counts: dict[int, int] = {}
    for v in vals:
        counts[v] = counts.get(v, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    distinct = sorted(counts, reverse=True)
    top = 0
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            top = distinct[0]
        elif distinct == [14, 5, 4, 3, 2]:
            top = 5  # the wheel (HOLDEM-SHOW-1)
    if top and flush:
        return (8, top)
    if groups[0][1] == 4:
        return (7, groups[0][0], groups[1][0])
    if groups[0][1] == 3 and groups[1][1] == 2:
        return (6, groups[0][0], groups[1][0])
    if flush:
        return (5, *vals)
    if top:
        return (4, top)
    if groups[0][1] == 3:
        return (3, groups[0][0], *[g for g, _ in groups[1:]])
    if groups[0][1] == 2 and groups[1][1] == 2:
        return (2, groups[0][0], groups[1][0], groups[2][0])
    if groups[0][1] == 2:
        return (1, groups[0][0], *[g for g, _ in groups[1:]])
    return (0, *vals)


def best_hand(cards: Sequence[Card]) -> tuple[int, ...]:
    """The best rank of any five of *cards* (HOLDEM-SHOW-1)."""
    return max(rank5(five) for five in combinations(cards, 5))


# --- the logic ----------------------------------------------------------------------------


class HoldemLogic(GameLogic[HoldemState, HoldemAction]):
    action_types = (Fold, Check, Call, Bet, Raise)
    max_legal = 3
    position_fields = (
        "to_act",
        "button",
        "hand_no",
        "street",
        "chips",
        "start",
        "bets",
        "contrib",
        "folded",
        "pending",
        "level",
        "net",
        "shown",
    )

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        ante = ruleset.resolve("holdem_ante")
        if ante is None:
            raise PluginError("holdem_ante has no implementation")
        self._ante = ante

    # configuration
    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        # at most 4 streets x (cap 4 raises + every seat once more) per hand
        return int(options["hands"]) * 4 * (CAP + 2) * players + 10

    def blank_state(self, players: int, options: Mapping[str, Any]) -> HoldemState:
        state = HoldemState(players, options, Zones(layout(players)))
        state.button, state.hand_no, state.street, state.level = 0, 0, 0, 0
        state.chips = [int(options["stack"])] * players
        state.start = list(state.chips)
        state.bets = [0] * players
        state.contrib = [0] * players
        state.folded = [0] * players
        state.pending = []
        state.net = [0] * players
        state.ledger = Ledger(players)
        state.shown = [0] * players
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> HoldemState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        self._deal(state, emit)
        return state

    def read_position(self, text: str, players: int, options: Mapping[str, Any]) -> HoldemState:
        state = super().read_position(text, players, options)
        state.ledger = Ledger(players)
        if any(state.net):
            state.ledger.post(list(state.net), "position")
        return state

    def check_position(self, state: HoldemState) -> None:
        check(sum(state.net) == 0, "net must sum to zero, not {}", list(state.net))
        total = state.options["stack"] * state.players
        check(
            sum(state.chips) + sum(state.contrib) == total,
            "chips and contributions must add up to {} (HOLDEM-SEAT-1)",
            total,
        )
        check(0 <= state.street < 4, "street must be 0-3, not {}", state.street)
        board = len(state.zones.cards[BOARD])
        check(
            state.is_over or board == (0, 3, 4, 5)[state.street],
            "the board must hold {} cards on the {} (HOLDEM-BOARD-1)",
            (0, 3, 4, 5)[state.street],
            STREETS[state.street],
        )

    def position_from_view(self, view: Mapping[str, Any], zones: Zones) -> str:
        """For search agents: the table's fields back into the state's slots."""
        t = view["table"]
        state = self.blank_state(len(view["players"]), view["options"])
        state.zones, state.to_act = zones, tuple(view["to_act"])
        state.button, state.hand_no = t["button"], t["hand"] - 1
        state.street, state.level = STREETS.index(t["street"]), t["level"]
        state.chips, state.bets, state.contrib = (
            list(t["chips"]),
            list(t["bets"]),
            list(t["contrib"]),
        )
        state.folded = [int(f) for f in t["folded"]]
        state.pending, state.net = list(t["pending"]), list(t["net"])
        state.start = [c + b for c, b in zip(state.chips, state.contrib, strict=True)]
        if any(state.net):
            state.ledger.post(list(state.net), "view")
        return self.write_position(state)

    # helpers
    def _size(self, state: HoldemState) -> int:
        bb = int(state.options["big_blind"])
        return bb if state.street < 2 else 2 * bb

    def _in_hand(self, state: HoldemState) -> list[int]:
        """Seats dealt into this hand and not folded, left of the button first."""
        n = state.players
        order = [(state.button + 1 + i) % n for i in range(n)]
        return [s for s in order if state.zones.cards[hole(s)] and not state.folded[s]]

    def _able(self, state: HoldemState) -> list[int]:
        return [s for s in self._in_hand(state) if state.chips[s] > 0]

    def _put(self, state: HoldemState, seat: int, amount: int) -> None:
        amount = min(amount, state.chips[seat])
        state.chips[seat] -= amount
        state.bets[seat] += amount
        state.contrib[seat] += amount

    def _deal(self, state: HoldemState, emit: Emit | None) -> None:
        """Start a hand: antes, blinds, hole cards, the first seat to act."""
        n = state.players
        live = [s for s in range(n) if state.chips[s] > 0]
        state.start = list(state.chips)
        state.street, state.level = 0, 0
        state.bets = [0] * n
        state.contrib = [0] * n
        state.folded = [0] * n
        state.shown = [0] * n
        order = [(state.button + 1 + i) % n for i in range(n)]
        dealt = [s for s in order if s in live]
        deal_round_robin(state, STOCK, [hole(s) for s in dealt], 2)  # HOLDEM-DEAL-1
        if emit is not None:
            emit(CardsDealt(tuple(len(state.zones.cards[hole(s)]) for s in range(n))))
        ante = self.checked_answer("holdem_ante", self._ante(options=state.options), int)
        for s in dealt:
            self._put(state, s, ante)
        state.bets = [0] * n  # antes go to the pot, not to the round's bets
        if len(dealt) == 2:  # HOLDEM-BLIND-1 heads-up: the button posts the small blind
            small, big = state.button, dealt[0] if dealt[0] != state.button else dealt[1]
        else:
            small, big = dealt[0], dealt[1]
        bb = int(state.options["big_blind"])
        self._put(state, small, bb // 2)
        self._put(state, big, bb)
        state.level = 1
        # HOLDEM-TURN-1: pre-flop from the seat left of the big blind
        first = (big + 1) % n
        seq = [(first + i) % n for i in range(n)]
        state.pending = [s for s in seq if s in dealt and state.chips[s] > 0]
        self._advance(state, emit)

    def _advance(self, state: HoldemState, emit: Emit | None) -> None:
        """Drop seats that need not act; close rounds; deal streets; settle the hand."""
        while True:
            in_hand = self._in_hand(state)
            if len(in_hand) == 1:
                self._settle(state, emit)
                return
            top = max(state.bets)
            able = self._able(state)
            state.pending = [s for s in state.pending if s in able]
            if state.pending and len(able) == 1 and state.bets[state.pending[0]] >= top:
                state.pending = []  # nobody left to bet against
            if state.pending:
                state.to_act = (state.pending[0],)
                return
            if state.street == 3:
                self._settle(state, emit)
                return
            state.street += 1  # HOLDEM-BOARD-1
            state.bets = [0] * state.players
            state.level = 0
            for _ in range(3 if state.street == 1 else 1):
                card = state.zones.move(STOCK, BOARD)
                if emit is not None:
                    emit(CardDrawn(None, "stock", card))
            state.pending = list(self._able(state))

    def _settle(self, state: HoldemState, emit: Emit | None) -> None:
        """Showdown and pots (HOLDEM-SHOW-1, HOLDEM-POT-1), the ledger, the next hand."""
        n, z = state.players, state.zones
        in_hand = self._in_hand(state)
        won = [0] * n
        if len(in_hand) == 1:  # HOLDEM-MUCK-1: won uncontested, nothing shown
            won[in_hand[0]] = sum(state.contrib)
            if emit is not None:
                emit(PotAwarded(sum(state.contrib), (in_hand[0],), (sum(state.contrib),)))
        else:
            board = list(z.cards[BOARD])
            ranks = {}
            for s in in_hand:
                for i in range(len(z.cards[hole(s)])):
                    z.reveal(hole(s), i)
                state.shown[s] = 1
                ranks[s] = best_hand(board + list(z.cards[hole(s)]))
                if emit is not None:
                    for i, c in enumerate(z.cards[hole(s)]):
                        emit(CardRevealed(None, f"hole.{s}", i, c))
                    emit(HandShown(s, tuple(z.cards[hole(s)]), CATEGORIES[ranks[s][0]]))
            levels = sorted({state.contrib[s] for s in in_hand})
            prev = 0
            for k, lvl in enumerate(levels):
                last = k == len(levels) - 1
                amount = sum(
                    (c if last else min(c, lvl)) - min(c, prev) for c in state.contrib if c > prev
                )
                prev = lvl
                eligible = [s for s in in_hand if state.contrib[s] >= lvl]
                if amount <= 0:
                    continue
                best = max(ranks[s] for s in eligible)
                winners = [s for s in in_hand if s in eligible and ranks[s] == best]  # button order
                share, odd = divmod(amount, len(winners))
                shares = [share + (1 if i < odd else 0) for i in range(len(winners))]
                for s, got in zip(winners, shares, strict=True):
                    won[s] += got
                if emit is not None:
                    emit(PotAwarded(amount, tuple(winners), tuple(shares)))
        amounts = [won[s] - state.contrib[s] for s in range(n)]
        paid = self.score_round(state, amounts)
        state.ledger.post(list(paid), f"hand {state.hand_no + 1}")
        state.net = list(state.ledger.totals)
        state.chips = [state.start[s] + paid[s] for s in range(n)]
        state.contrib = [0] * n
        state.bets = [0] * n
        state.pending = []
        if emit is not None:
            emit(PaymentsMade(f"hand {state.hand_no + 1}", tuple(paid), tuple(state.ledger.totals)))
        state.hand_no += 1
        live = [s for s in range(n) if state.chips[s] > 0]
        if len(live) <= 1 or state.hand_no >= int(state.options["hands"]):  # HOLDEM-END-1
            reason = "one seat holds every chip" if len(live) <= 1 else "hands played"
            end_game(
                state,
                winners_by(state.chips, lowest=False),
                list(map(float, state.chips)),
                reason,
                payouts=list(state.ledger.totals),
                reveal=False,  # HOLDEM-MUCK-1
            )
            return
        state.button = next(s for s in ((state.button + 1 + i) % n for i in range(n)) if s in live)
        for zone in range(len(z.cards)):  # gather face down, nobody knows where any card is
            while zone != STOCK and z.cards[zone]:
                z.move(zone, STOCK, mask=0)
        z.forget(STOCK)
        z.shuffle(STOCK, state.rng())
        if emit is not None:
            emit(Shuffled("stock", len(z.cards[STOCK])))
        self._deal(state, emit)

    # rules
    def legal_actions(self, state: HoldemState, seat: int) -> tuple[HoldemAction, ...]:
        """In this order: fold, check, call, bet, raise (whichever apply)."""
        if state.is_over or seat not in state.to_act:
            return ()
        owe = max(state.bets) - state.bets[seat]
        out: list[HoldemAction] = []
        if owe > 0:
            out += [Fold(seat), Call(seat)]
        else:
            out.append(Check(seat))
        if state.level < CAP and state.chips[seat] > owe:  # HOLDEM-BET-3
            out.append(Bet(seat) if state.level == 0 else Raise(seat))
        return tuple(out)

    def rule_for(self, state: HoldemState, action: HoldemAction) -> tuple[str, str]:
        owe = max(state.bets) - state.bets[action.seat]
        if isinstance(action, Check):
            return "HOLDEM-BET-1", f"seat {action.seat} owes {owe} chips: it may not check"
        if isinstance(action, Fold | Call):
            return "HOLDEM-BET-1", f"seat {action.seat} owes nothing: check instead"
        if state.level >= CAP:
            return "HOLDEM-BET-3", f"the betting is capped at {CAP} bets this round"
        if isinstance(action, Bet):
            return "HOLDEM-BET-2", "there is a bet already: raise instead"
        if state.level == 0:
            return "HOLDEM-BET-2", "there is no bet to raise: bet instead"
        return "HOLDEM-BET-4", f"seat {action.seat} has no chips to raise with"

    def apply(self, state: HoldemState, action: HoldemAction, emit: Emit | None) -> None:
        seat, n = action.seat, state.players
        state.pending = [s for s in state.pending if s != seat]
        if isinstance(action, Fold):
            state.folded[seat] = 1
            for _ in range(len(state.zones.cards[hole(seat)])):
                state.zones.move(hole(seat), MUCK)  # HOLDEM-MUCK-1: keeps the owner's mask
        elif isinstance(action, Call):
            self._put(state, seat, max(state.bets) - state.bets[seat])
        elif isinstance(action, Bet | Raise):
            self._put(state, seat, max(state.bets) - state.bets[seat] + self._size(state))
            state.level += 1
            others = [(seat + 1 + i) % n for i in range(n - 1)]
            able = self._able(state)
            state.pending = [s for s in others if s in able]
        self._advance(state, emit)

    # views and results
    def table(self, state: HoldemState, seat: int | None) -> dict[str, Any]:
        owe = None
        if seat is not None and seat >= 0 and state.zones.cards[hole(seat)] and not state.is_over:
            owe = max(state.bets) - state.bets[seat]
        return {
            "chips": list(state.chips),
            "bets": list(state.bets),
            "pot": sum(state.contrib),
            "button": state.button,
            "street": STREETS[state.street],
            "hand": state.hand_no + 1,
            "folded": [bool(f) for f in state.folded],
            "level": state.level,
            "to_call": owe,
            "net": list(state.net),
            "contrib": list(state.contrib),
            "pending": list(state.pending),
        }

    def scores(self, state: HoldemState) -> tuple[float, ...]:
        return tuple(float(c + b) for c, b in zip(state.chips, state.contrib, strict=True))

    def payouts(self, state: HoldemState) -> tuple[int, ...]:
        return tuple(state.ledger.totals)

    def standings(self, state: HoldemState) -> tuple[int, ...]:
        return winners_by(self.scores(state), lowest=False)


GAME = GameInfo(
    NAME,
    "Fixed-limit Texas Hold'em for chips: blinds, four betting rounds, side pots",
    2,
    6,
    options=(
        Option("stack", 100, "Chips each seat starts with", minimum=2, maximum=100000),
        Option(
            "big_blind", 2, "The big blind; the small blind is half of it", minimum=2, maximum=1000
        ),
        Option("hands", 50, "The most hands in the match", minimum=1, maximum=1000),
    ),
    zero_sum=True,
    hookspecs=hookspecs,
    fields=(
        ViewField("chips", "per-seat", "Chips each seat has behind", of="int"),
        ViewField("bets", "per-seat", "Chips each seat put in this betting round", of="int"),
        ViewField("pot", "int", "Chips in the middle this hand"),
        ViewField("button", "seat", "The dealer button"),
        ViewField("street", "choice", "The betting round", choices=STREETS),
        ViewField("hand", "int", "The hand being played, from 1"),
        ViewField("folded", "per-seat", "Seats that folded this hand", of="bool"),
        ViewField("level", "int", "Bets made this round (4 caps it)"),
        ViewField("to_call", "int", "Chips the viewer owes now", nullable=True),
        ViewField("net", "per-seat", "Each seat's net winnings so far", of="int"),
        ViewField("contrib", "per-seat", "Chips each seat put in the pot this hand", of="int"),
        ViewField("pending", "json", "Seats still to act this betting round, in order"),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> HoldemLogic:
    return HoldemLogic(ruleset)


@hookimpl(trylast=True)
def holdem_ante(options: Mapping[str, Any]) -> int:
    """No ante by default (a house rule answers first)."""
    return 0
