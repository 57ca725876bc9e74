"""Mini Bridge with a short auction, written from cardcore's docs alone (a test-only plugin).

Registered in place with ``cardcore.register("cardcore.games", NAME, module)``. Seats:
0 = North, 1 = East, 2 = South, 3 = West; partnerships N/S (0, 2) and E/W (1, 3). The
rules, each with an ID cited by the code, the errors and the tests:

| MB-DEAL-1    | 52 cards, 13 to each seat, one at a time from the dealer's left             |
| MB-BID-1     | the dealer calls first, then clockwise; a call is a bid (``1C`` .. ``7NT``), |
|              | ``pass`` or ``double``                                                      |
| MB-BID-2     | a bid names a level 1-7 and a strain C < D < H < S < NT, higher than the     |
|              | last bid (a higher level, or the same level and a higher strain)            |
| MB-BID-3     | ``double`` only the last bid, only if an opponent made it, and only once    |
| MB-BID-4     | three passes after a bid end the auction; that bid is the contract          |
| MB-BID-5     | four passes at the start: the hand is passed out; the game ends, no score   |
| MB-DECL-1    | declarer: the first seat of the winning side to name the contract's strain |
| MB-LEAD-1    | declarer's left-hand opponent leads to the first trick                      |
| MB-DUMMY-1   | after the opening lead, dummy (declarer's partner) lays its hand face up    |
|              | for every seat                                                              |
| MB-DUMMY-2   | dummy's seat never acts: when dummy's card is due, declarer acts, choosing  |
|              | one of dummy's cards (``to_act`` is declarer; ``turn`` names dummy)         |
| MB-PLAY-1    | play a card of the hand whose turn it is                                    |
| MB-FOLLOW-1  | follow the suit led if that hand can                                        |
| MB-TRICK-1   | the highest trump wins the trick, else the highest card of the suit led     |
|              | (aces high); the hand that won it leads next                                |
| MB-SCORE-1   | made (tricks >= 6 + level): declarer's side scores, per trick over 6,       |
|              | 20 (C, D), 30 (H, S), NT 40 for the first and 30 for each other; doubled    |
|              | doubles these; plus 50                                                      |
| MB-SCORE-2   | down: the defenders score 50 per undertrick (100 doubled)                   |
| MB-END-1     | one deal; the side that scores wins (both seats of it); scores through      |
|              | ``score_round`` (house rules)                                               |
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
    CardRevealed,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    NotationError,
    Option,
    PluginError,
    RoundScored,
    Ruleset,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.dealing import deal_round_robin, fill_stock
from cardcore.positions import check
from cardcore.turns import end_game

NAME = "bridge-1215"
PLAYERS = 4
HAND = 13
STRAINS = ("C", "D", "H", "S", "NT")
SUITS = "CDHS"
SEAT_NAMES = ("N", "E", "S", "W")

RULES_MD = __doc__

GAME = GameInfo(
    NAME,
    "Mini Bridge: a short auction, dummy face up and played by declarer, 13 tricks",
    PLAYERS,
    PLAYERS,
    version="1.0.0",
    options=(
        Option(
            "dealer",
            default=0,
            minimum=0,
            maximum=3,
            doc="The seat that deals and calls first",
            rule_id="MB-BID-1",
        ),
    ),
    fields=(
        ViewField("phase", "choice", "Auction, play or over", choices=("auction", "play", "over")),
        ViewField("calls", "json", "The calls so far, from the dealer: 1NT, pass, double"),
        ViewField("level", "int", "The last bid's level", nullable=True),
        ViewField("strain", "choice", "The last bid's strain", choices=STRAINS, nullable=True),
        ViewField("doubled", "bool", "Whether the last bid is doubled"),
        ViewField("declarer", "seat", "Declarer, once the auction is over", nullable=True),
        ViewField("dummy", "seat", "Dummy, once the auction is over", nullable=True),
        ViewField("leader", "seat", "The seat that led the current trick", nullable=True),
        ViewField(
            "turn", "seat", "The hand whose card is due (dummy's: declarer acts)", nullable=True
        ),
        ViewField("tricks", "per-seat", "Tricks won by each seat's side", of="int"),
    ),
)

# zone ids
STOCK = 0
TRICK = 1


def hand(seat: int) -> int:
    """The zone id of *seat*'s hand."""
    return 2 + seat


def won(side: int) -> int:
    """The zone id of the tricks won by *side* (0 = N/S, 1 = E/W), face up."""
    return 2 + PLAYERS + side


@cache
def layout() -> Layout:
    return Layout.of(
        [
            ZoneSpec("stock"),
            ZoneSpec("trick", None, Visibility.EVERYONE),
            *[ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(PLAYERS)],
            ZoneSpec("won.ns", None, Visibility.EVERYONE),
            ZoneSpec("won.ew", None, Visibility.EVERYONE),
        ]
    )


def high(card: Card) -> int:
    value = int(card.rank)
    return 14 if value == 1 else value


def side(seat: int) -> int:
    return seat % 2


def partner(seat: int) -> int:
    return (seat + 2) % PLAYERS


@frozen
class Bid(Action):
    """Seat *seat* bids *level* (1-7) in *strain* (C D H S NT), written ``1NT``."""

    level: int
    strain: str
    verb: ClassVar[str] = "bid"

    def notation(self) -> str:
        return f"{self.level}{self.strain}"


@frozen
class Pass(Action):
    """Seat *seat* passes."""

    verb: ClassVar[str] = "pass"

    def notation(self) -> str:
        return "pass"


@frozen
class Double(Action):
    """Seat *seat* doubles the opponents' last bid."""

    verb: ClassVar[str] = "double"

    def notation(self) -> str:
        return "double"


@frozen
class Play(Action):
    """Seat *seat* plays *card*: from its own hand, or from dummy's when it is declarer."""

    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


BridgeAction = Bid | Pass | Double | Play


@frozen
class Auction:
    """What the calls so far say (MB-BID-*, MB-DECL-1)."""

    level: int | None
    strain: str | None
    bidder: int | None
    doubled: bool
    passes: int  # passes since the last bid (or from the start)
    declarer: int | None  # MB-DECL-1, valid once the auction is over


def read_calls(calls: list[str] | tuple[str, ...], dealer: int) -> Auction:
    level: int | None = None
    strain: str | None = None
    bidder: int | None = None
    doubled = False
    passes = 0
    first: dict[tuple[int, str], int] = {}
    for i, call in enumerate(calls):
        seat = (dealer + i) % PLAYERS
        if call == "pass":
            passes += 1
        elif call == "double":
            doubled, passes = True, 0
        else:
            level, strain, bidder = int(call[0]), call[1:], seat
            doubled, passes = False, 0
            first.setdefault((side(seat), strain), seat)
    declarer = None
    if bidder is not None and strain is not None:
        declarer = first[(side(bidder), strain)]
    return Auction(level, strain, bidder, doubled, passes, declarer)


def bid_rank(level: int, strain: str) -> int:
    return (level - 1) * 5 + STRAINS.index(strain)


def trick_score(level: int, strain: str, doubled: bool, tricks: int) -> tuple[int, int]:
    """(declarer's side, defenders) for *tricks* won by declarer's side (MB-SCORE-1/2)."""
    need = 6 + level
    if tricks >= need:
        over = tricks - 6
        if strain == "NT":
            points = 40 + 30 * (over - 1)
        else:
            points = (20 if strain in ("C", "D") else 30) * over
        if doubled:
            points *= 2
        return points + 50, 0
    return 0, (need - tricks) * (100 if doubled else 50)


class BridgeState(GameState):
    __slots__ = ("calls", "leader", "phase")
    _mutable = ("zones", "calls")
    calls: list[str]
    phase: str
    leader: int | None


class BridgeLogic(GameLogic[BridgeState, BridgeAction]):
    action_types = (Bid, Pass, Double, Play)
    position_fields = ("to_act", "calls", "phase", "leader")
    max_legal = 37  # pass, double and 35 bids

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 4 + 35 * 4 + 52 + 8

    def blank_state(self, players: int, options: Mapping[str, Any]) -> BridgeState:
        state = BridgeState(players, options, Zones(layout()))
        state.calls, state.phase, state.leader = [], "auction", None
        state.to_act = (int(options.get("dealer", 0)),)
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> BridgeState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        dealer = int(options["dealer"])
        deal_round_robin(
            state, STOCK, [hand(s) for s in range(PLAYERS)], HAND, first=(dealer + 1) % PLAYERS
        )
        if emit is not None:
            emit(CardsDealt((HAND,) * PLAYERS))
        state.to_act = (dealer,)  # MB-BID-1
        return state

    # helpers

    def auction(self, state: BridgeState) -> Auction:
        return read_calls(state.calls, int(state.options["dealer"]))

    def turn(self, state: BridgeState) -> int | None:
        """The hand whose card is due in the play."""
        if state.phase != "play" or state.leader is None:
            return None
        return (state.leader + len(state.zones.cards[TRICK])) % PLAYERS

    def _playable(self, state: BridgeState, whose: int) -> list[Card]:
        z = state.zones
        cards = list(z.cards[hand(whose)])
        trick = z.cards[TRICK]
        if trick:
            follow = [c for c in cards if c.suit == trick[0].suit]
            if follow:
                return follow  # MB-FOLLOW-1
        return cards

    # legality

    def legal_actions(self, state: BridgeState, seat: int) -> tuple[BridgeAction, ...]:
        """Auction: ``pass``, ``double`` if allowed, then the bids from the lowest. Play: the
        playable cards of the hand whose turn it is, by suit (C D H S) then rank, aces high."""
        if seat not in state.to_act or state.is_over:
            return ()
        if state.phase == "auction":
            a = self.auction(state)
            out: list[BridgeAction] = [Pass(seat)]
            if a.bidder is not None and side(a.bidder) != side(seat) and not a.doubled:
                out.append(Double(seat))
            low = 0 if a.level is None or a.strain is None else bid_rank(a.level, a.strain) + 1
            out.extend(Bid(seat, 1 + r // 5, STRAINS[r % 5]) for r in range(low, 35))
            return tuple(out)
        whose = self.turn(state)
        assert whose is not None
        cards = sorted(
            self._playable(state, whose), key=lambda c: (SUITS.index(c.suit.letter), high(c))
        )
        return tuple(Play(seat, c) for c in cards)

    def parse_action(self, state: BridgeState, seat: int, text: str) -> BridgeAction:
        words = text.strip().lower().split()
        if len(words) == 1:
            word = words[0]
            if word == "pass":
                return Pass(seat)
            if word == "double":
                return Double(seat)
            if len(word) >= 2 and word[0] in "1234567" and word[1:].upper() in STRAINS:
                return Bid(seat, int(word[0]), word[1:].upper())
        elif len(words) == 2 and words[0] == "play":
            try:
                card = Card.parse(words[1].upper())
            except Exception as exc:
                raise NotationError(f"not a card: {words[1]!r} (CORE-NOTATION-2)") from exc
            return Play(seat, card)
        raise NotationError(
            f"expected a bid (1C-7NT), 'pass', 'double' or 'play <card>', not {text!r} (MB-BID-1)"
        )

    def rule_for(self, state: BridgeState, action: BridgeAction) -> tuple[str, str]:
        seat = action.seat
        if isinstance(action, Play):
            if state.phase != "play":
                return "MB-BID-1", f"seat {seat} may not play a card during the auction"
            whose = self.turn(state)
            assert whose is not None
            if action.card not in state.zones.cards[hand(whose)]:
                who = "dummy's hand" if whose != seat else "its hand"
                return "MB-PLAY-1", f"seat {seat} may play only a card of {who}, not {action.card}"
            lead = state.zones.cards[TRICK][0].suit.letter
            return "MB-FOLLOW-1", f"seat {seat} must follow the suit led ({lead})"
        if state.phase != "auction":
            return "MB-BID-4", f"seat {seat} may not call: the auction is over"
        a = self.auction(state)
        if isinstance(action, Double):
            if a.bidder is None:
                return "MB-BID-3", f"seat {seat} may not double: nobody has bid"
            if side(a.bidder) == side(seat):
                return "MB-BID-3", f"seat {seat} may double only an opponent's bid"
            return "MB-BID-3", f"seat {seat} may not double a bid already doubled"
        if isinstance(action, Bid):
            if not (isinstance(action.level, int) and 1 <= action.level <= 7) or (
                action.strain not in STRAINS
            ):
                return "MB-BID-2", f"a bid is a level 1-7 and a strain {', '.join(STRAINS)}"
            return "MB-BID-2", (
                f"seat {seat} must bid higher than {a.level}{a.strain}, not {action.notation()}"
            )
        return "CORE-LEGAL-1", f"{action} is not legal now"

    def waiting_rule(self, state: BridgeState, action: BridgeAction) -> tuple[str, str] | None:
        if state.phase == "play" and not state.is_over:
            a = self.auction(state)
            if a.declarer is not None and action.seat == partner(a.declarer):
                return "MB-DUMMY-2", (
                    f"seat {action.seat} is dummy and never acts: declarer (seat {a.declarer}) "
                    "plays dummy's cards"
                )
        return None

    def default_action(self, state: BridgeState, seat: int) -> BridgeAction | None:
        legal = self.legal_actions(state, seat)
        return legal[0] if legal else None

    # effects

    def apply(self, state: BridgeState, action: BridgeAction, emit: Emit | None) -> None:
        if isinstance(action, Play):
            self._play(state, action, emit)
        else:
            self._call(state, action, emit)

    def _call(self, state: BridgeState, action: BridgeAction, emit: Emit | None) -> None:
        state.calls.append(str(action))
        dealer = int(state.options["dealer"])
        a = self.auction(state)
        if a.bidder is None and a.passes == 4:  # MB-BID-5
            state.phase = "over"
            scored = self.score_round(state, [0] * PLAYERS)
            if emit is not None:
                emit(RoundScored(1, tuple(scored), tuple(scored)))
            end_game(state, (), [float(s) for s in scored], "passed out")
            return
        if a.bidder is not None and a.passes == 3:  # MB-BID-4
            assert a.declarer is not None
            state.phase = "play"
            state.leader = (a.declarer + 1) % PLAYERS  # MB-LEAD-1
            state.to_act = (state.leader,)
            return
        state.to_act = ((dealer + len(state.calls)) % PLAYERS,)

    def _play(self, state: BridgeState, action: Play, emit: Emit | None) -> None:
        z = state.zones
        whose = self.turn(state)
        assert whose is not None and state.leader is not None
        a = self.auction(state)
        assert a.declarer is not None and a.strain is not None and a.level is not None
        dummy = partner(a.declarer)
        src = hand(whose)
        card = z.move(src, TRICK, z.cards[src].index(action.card), mask=ALL)
        if emit is not None:
            emit(CardMoved(action.seat, f"hand.{whose}", "trick", card))
        opening = len(z.cards[TRICK]) == 1 and not z.cards[won(0)] and not z.cards[won(1)]
        if opening:  # MB-DUMMY-1
            for i in range(len(z.cards[hand(dummy)])):
                shown = z.reveal(hand(dummy), i)
                if emit is not None:
                    emit(CardRevealed(dummy, f"hand.{dummy}", i, shown))
        trick = z.cards[TRICK]
        if len(trick) < PLAYERS:
            nxt = (whose + 1) % PLAYERS
            state.to_act = (a.declarer if nxt == dummy else nxt,)  # MB-DUMMY-2
            return
        # MB-TRICK-1
        led = trick[0].suit

        def strength(i: int) -> int:
            c = trick[i]
            if a.strain != "NT" and c.suit.letter == a.strain:
                return 200 + high(c)
            if c.suit == led:
                return 100 + high(c)
            return 0

        best = max(range(PLAYERS), key=strength)
        winner = (state.leader + best) % PLAYERS
        while z.cards[TRICK]:
            moved = z.move(TRICK, won(side(winner)), 0, mask=ALL)
            if emit is not None:
                emit(CardMoved(None, "trick", ("won.ns", "won.ew")[side(winner)], moved))
        state.leader = winner
        state.to_act = (a.declarer if winner == dummy else winner,)
        if any(z.cards[hand(s)] for s in range(PLAYERS)):
            return
        # MB-SCORE-1/2, MB-END-1
        taken = len(z.cards[won(side(a.declarer))]) // PLAYERS
        mine, theirs = trick_score(a.level, a.strain, a.doubled, taken)
        raw = [mine if side(s) == side(a.declarer) else theirs for s in range(PLAYERS)]
        scored = self.score_round(state, raw)
        if scored[0] != scored[2] or scored[1] != scored[3]:
            raise PluginError(f"a house rule split the partners' scores of {NAME}: {scored}")
        if emit is not None:
            emit(RoundScored(1, tuple(scored), tuple(scored)))
        state.phase = "over"
        best_score = max(scored)
        winners = tuple(s for s in range(PLAYERS) if scored[s] == best_score and best_score > 0)
        end_game(state, winners, [float(s) for s in scored], "made" if mine else "down")

    def resign(self, state: BridgeState, seat: int) -> None:
        """The resigning seat's partner loses with it."""
        state.phase = "over"
        others = tuple(s for s in range(PLAYERS) if side(s) != side(seat))
        end_game(state, others, [0.0] * PLAYERS, "resigned")

    # views

    def table(self, state: BridgeState, seat: int | None) -> dict[str, Any]:
        a = self.auction(state)
        z = state.zones
        declarer = a.declarer if state.phase != "auction" else None
        return {
            "phase": state.phase,
            "calls": list(state.calls),
            "level": a.level,
            "strain": a.strain,
            "doubled": a.doubled,
            "declarer": declarer,
            "dummy": None if declarer is None else partner(declarer),
            "leader": state.leader,
            "turn": self.turn(state),
            "tricks": [len(z.cards[won(side(s))]) // PLAYERS for s in range(PLAYERS)],
        }

    def scores(self, state: BridgeState) -> tuple[float, ...]:
        return (0.0,) * PLAYERS

    def check_position(self, state: BridgeState) -> None:
        check(
            state.phase in ("auction", "play", "over"),
            "phase must be auction, play or over, not {}",
            state.phase,
        )
        for call in state.calls:
            ok = call in ("pass", "double") or (
                len(call) >= 2 and call[0] in "1234567" and call[1:] in STRAINS
            )
            check(ok, "calls must be bids, pass or double, not {}", call)
        if state.is_over:
            return
        a = self.auction(state)
        dealer = int(state.options["dealer"])
        check(len(state.to_act) == 1, "to_act must be one seat, not {}", list(state.to_act))
        if state.phase == "auction":
            check(
                state.to_act[0] == (dealer + len(state.calls)) % PLAYERS,
                "to_act must be the seat to call, not {}",
                list(state.to_act),
            )
            check(a.passes < 3 or a.bidder is None, "the auction should be over: {}", state.calls)
            return
        check(
            a.declarer is not None and a.passes == 3, "the play needs a contract: {}", state.calls
        )
        check(state.leader is not None, "the play needs a leader, not {}", state.leader)
        assert a.declarer is not None
        whose = self.turn(state)
        expected = a.declarer if whose == partner(a.declarer) else whose
        check(state.to_act[0] == expected, "to_act must be {}, not {}", expected, state.to_act)


@hookimpl
def create_logic(ruleset: Ruleset) -> BridgeLogic:
    return BridgeLogic(ruleset)
