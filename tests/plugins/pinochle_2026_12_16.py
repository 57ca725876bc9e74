"""Partnership Pinochle, written by a third-party author from the docs only.

Rules (each with its ID):

* PINOCHLE-SEAT-1: exactly 4 players, seats 0+2 against seats 1+3.
* PINOCHLE-DECK-1: a 48-card double deck, two each of 9 10 J Q K A in four suits (the
  game's ``build_deck``); identical cards are interchangeable.
* PINOCHLE-DEAL-1: 12 cards each, one at a time from the dealer's left (seat 3 deals
  first); the deal passes left each hand.
* PINOCHLE-BID-1: the auction starts left of the dealer; a bid is ``bid N`` with N from 250
  to 600 in steps of 10, above the current bid.
* PINOCHLE-BID-2: ``pass`` is final: a seat that passed never bids again this hand.
* PINOCHLE-BID-3: when three seats have passed, the fourth wins the auction; if nobody has
  bid, that last seat (the dealer) may not pass and must bid (stick the dealer).
* PINOCHLE-TRUMP-1: the auction's winner names trump (``trump H``).
* PINOCHLE-MELD-1: then every seat's meld is shown at once (computed, best value): the
  melded cards move face up to the seat's ``meld.N`` pile, the rest stays hidden. Values:
  run (A 10 K Q J of trump) 150, double run 1500; royal marriage (K Q of trump, beyond a
  run) 40; marriage (K Q of another suit) 20; dix (9 of trump) 10 each; aces around 100 /
  1000 (double), kings 80 / 800, queens 60 / 600, jacks 40 / 400; pinochle (JD QS) 40,
  double pinochle 300.
* PINOCHLE-MELD-2: a card may count in melds of different kinds, never twice in one kind;
  each card shown once.
* PINOCHLE-PLAY-1: the auction's winner leads the first trick; the trick's winner leads the
  next.
* PINOCHLE-PLAY-2: follow the led suit; must head the trick (play a higher card than the
  best so far) if able.
* PINOCHLE-PLAY-3: void in the led suit: must trump (and over-trump if able); else any card.
* PINOCHLE-PLAY-4: ``play AS`` names the card, from the hand or the meld pile; a melded copy
  is played before a hidden identical one, so a play reveals nothing about the hand.
* PINOCHLE-TRICK-1: rank order A 10 K Q J 9; the highest trump wins, else the highest card
  of the led suit; of two identical cards the first played wins.
* PINOCHLE-COUNT-1: A, 10 and K count 10 each; the last trick 10 more (250 a hand).
* PINOCHLE-SCORE-1: the bidding team scores meld + count if that reaches the bid, else it is
  set and loses the bid.
* PINOCHLE-SCORE-2: the defending team scores meld + count if it took a trick, else nothing.
* PINOCHLE-END-1: the game ends after a hand in which a team reaches ``target`` (default
  1500, 500..10000); if both do, the bidding team wins. After ``max_hands`` hands (default
  40, 1..200) the higher team wins (a tie: every seat).

House rule (module ``pinochle_rules_2026_12_16``): PINOCHLE-MINBID-1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
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
    PluginError,
    Rank,
    Result,
    Suit,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.dealing import deal_round_robin, fill_stock, gather
from cardcore.positions import check
from cardcore.turns import end_game

RULES_MD = __doc__
NAME = "pinochle-2026-12-16"
PLAYERS = 4
HAND = 12
SUITS = ("C", "D", "H", "S")
RANKS = (Rank.NINE, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.TEN, Rank.ACE)  # low to high
LABELS = ("9", "J", "Q", "K", "10", "A")
MIN_BID, MAX_BID, STEP = 250, 600, 10
STOCK, TRICK = 0, 1
PHASES = ("bid", "trump", "play")
COUNTERS = {"A": 10, "10": 10, "K": 10}
AROUND = {"A": 100, "K": 80, "Q": 60, "J": 40}


def won(t: int) -> int:
    return 2 + t


def meld_pile(seat: int) -> int:
    return 4 + seat


def hand(seat: int) -> int:
    return 8 + seat


def team(seat: int) -> int:
    return seat % 2


@cache
def layout() -> Layout:
    return Layout.of(
        [
            ZoneSpec("stock"),
            ZoneSpec("trick", None, Visibility.EVERYONE),
            ZoneSpec("won.0", None, Visibility.EVERYONE),
            ZoneSpec("won.1", None, Visibility.EVERYONE),
            *(ZoneSpec(f"meld.{s}", s, Visibility.EVERYONE) for s in range(PLAYERS)),
            *(ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(PLAYERS)),
        ]
    )


GAME = GameInfo(
    NAME,
    "Partnership Pinochle: auction, meld, twelve tricks; first team to 1500",
    4,
    4,
    version="1.0.0",
    options=(
        Option("target", 1500, "Points that win the game.", minimum=500, maximum=10000),
        Option("max_hands", 40, "Hands after which the leader wins.", minimum=1, maximum=200),
    ),
    fields=(
        ViewField("dealer", "seat", "Who dealt this hand."),
        ViewField("phase", "choice", "Auction, naming trump or trick play.", choices=PHASES),
        ViewField("bid", "int", "The highest bid so far (0: none)."),
        ViewField("bidder", "seat", "Who made the highest bid.", nullable=True),
        ViewField("passed", "per-seat", "Seats that passed this auction.", of="bool"),
        ViewField("trump", "choice", "Trump, once named.", choices=SUITS, nullable=True),
        ViewField("leader", "seat", "Who led the current trick."),
        ViewField("meld", "per-seat", "Each seat's meld points this hand.", of="int"),
        ViewField("count", "per-seat", "Counters taken this hand (partners alike).", of="int"),
        ViewField("tricks", "per-seat", "Tricks each seat took this hand.", of="int"),
        ViewField("points", "per-seat", "Game points (partners alike).", of="int"),
        ViewField("hand", "int", "Hands played before this one."),
    ),
)


@frozen
class Bid(Action):
    amount: int
    verb: ClassVar[str] = "bid"

    def notation(self) -> str:
        return f"bid {self.amount}"


@frozen
class Pass(Action):
    verb: ClassVar[str] = "pass"


@frozen
class Trump(Action):
    suit: str
    verb: ClassVar[str] = "trump"

    def notation(self) -> str:
        return f"trump {self.suit}"


@frozen
class Play(Action):
    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


PinochleAction = Bid | Pass | Trump | Play


class PinochleState(GameState):
    __slots__ = (
        "bid",
        "bidder",
        "count",
        "dealer",
        "hand",
        "leader",
        "meld",
        "passed",
        "past",
        "phase",
        "points",
        "tricks",
        "trump",
    )
    _mutable = ("zones", "passed", "meld", "count", "tricks", "points", "past")
    dealer: int
    phase: str
    bid: int
    bidder: int | None
    passed: list[bool]
    trump: str | None
    leader: int
    meld: list[int]
    count: list[int]
    tricks: list[int]
    points: list[int]
    hand: int
    past: list[dict[str, Any]]


def suit_of(card: Card) -> str:
    return str(card.suit.value) if card.suit is not None else ""


def label(card: Card) -> str:
    return card.rank.label


def order(card: Card) -> int:
    """PINOCHLE-TRICK-1: A 10 K Q J 9, high to low."""
    return LABELS.index(label(card))


def meld_of(cards: Sequence[Card], trump: str) -> tuple[int, Counter[str], list[str]]:
    """PINOCHLE-MELD-1/2: (points, the cards shown by code, the melds' names)."""
    n = Counter(str(c) for c in cards)
    need: Counter[str] = Counter()
    names: list[str] = []
    points = 0

    def use(codes: Sequence[str], k: int) -> None:
        for code in codes:
            need[code] = max(need[code], k)

    t = trump
    runs = min(n[f"{r}{t}"] for r in ("A", "10", "K", "Q", "J"))
    royal = min(n[f"K{t}"], n[f"Q{t}"]) - runs
    if runs:
        points += 150 if runs == 1 else 1500
        names.append("run" if runs == 1 else "double run")
    if royal:
        points += 40 * royal
        names.extend(["royal marriage"] * royal)
    use([f"A{t}", f"10{t}", f"J{t}"], runs)
    use([f"K{t}", f"Q{t}"], runs + royal)
    for s in SUITS:
        if s != t:
            m = min(n[f"K{s}"], n[f"Q{s}"])
            points += 20 * m
            names.extend([f"marriage {s}"] * m)
            use([f"K{s}", f"Q{s}"], m)
    if n[f"9{t}"]:
        points += 10 * n[f"9{t}"]
        names.extend(["dix"] * n[f"9{t}"])
        use([f"9{t}"], n[f"9{t}"])
    for r, value in AROUND.items():
        k = min(n[f"{r}{s}"] for s in SUITS)
        if k:
            points += value if k == 1 else 10 * value
            names.append(f"{r} around" if k == 1 else f"double {r} around")
            use([f"{r}{s}" for s in SUITS], k)
    p = min(n["JD"], n["QS"])
    if p:
        points += 40 if p == 1 else 300
        names.append("pinochle" if p == 1 else "double pinochle")
        use(["JD", "QS"], p)
    return points, need, names


def held(state: PinochleState, seat: int) -> list[Card]:
    z = state.zones
    return [*z.cards[meld_pile(seat)], *z.cards[hand(seat)]]


def sort_key(card: Card) -> tuple[int, int]:
    return SUITS.index(suit_of(card)), order(card)


def best_index(trick: Sequence[Card], trump: str) -> int:
    """PINOCHLE-TRICK-1: the first card of the highest strength."""
    led = suit_of(trick[0])

    def strength(c: Card) -> int:
        s = suit_of(c)
        return (200 if s == trump else 100 if s == led else 0) + order(c)

    return max(range(len(trick)), key=lambda k: strength(trick[k]))


def playable(state: PinochleState, seat: int) -> list[Card]:
    """PINOCHLE-PLAY-2/3: the distinct cards the seat may play, in suit and rank order."""
    cards = {str(c): c for c in held(state, seat)}
    mine = sorted(cards.values(), key=sort_key)
    trick = state.zones.cards[TRICK]
    if not trick:
        return mine
    trump = state.trump or ""
    led = suit_of(trick[0])
    best = trick[best_index(trick, trump)]
    follow = [c for c in mine if suit_of(c) == led]
    if follow:
        if suit_of(best) == led:
            higher = [c for c in follow if order(c) > order(best)]
            return higher or follow
        return follow
    trumps = [c for c in mine if suit_of(c) == trump]
    if trumps:
        if suit_of(best) == trump:
            higher = [c for c in trumps if order(c) > order(best)]
            return higher or trumps
        return trumps
    return mine


class PinochleLogic(GameLogic[PinochleState, PinochleAction]):
    position_fields = (
        "to_act",
        "dealer",
        "phase",
        "bid",
        "bidder",
        "passed",
        "trump",
        "leader",
        "meld",
        "count",
        "tricks",
        "points",
        "hand",
    )
    max_legal = (MAX_BID - MIN_BID) // STEP + 2

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        per_hand = 3 + (MAX_BID - MIN_BID) // STEP + 1 + 1 + 48
        return per_hand * int(options.get("max_hands", 40)) + 10

    def blank_state(self, players: int, options: Mapping[str, Any]) -> PinochleState:
        state = PinochleState(players, options, Zones(layout()))
        state.dealer, state.phase, state.bid, state.bidder = 3, "bid", 0, None
        state.passed, state.trump, state.leader = [False] * 4, None, 0
        state.meld, state.count, state.tricks = [0] * 4, [0] * 4, [0] * 4
        state.points, state.hand, state.past = [0] * 4, 0, []
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> PinochleState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        self._deal(state, emit)
        return state

    def _deal(self, state: PinochleState, emit: Emit | None) -> None:
        """PINOCHLE-DEAL-1."""
        first = (state.dealer + 1) % 4
        deal_round_robin(state, STOCK, [hand(s) for s in range(4)], HAND, first=first)
        state.phase, state.bid, state.bidder, state.trump = "bid", 0, None, None
        state.passed, state.meld, state.count, state.tricks = [False] * 4, [0] * 4, [0] * 4, [0] * 4
        state.leader, state.to_act = first, (first,)
        if emit is not None:
            emit(CardsDealt((HAND,) * 4))

    def parse_action(self, state: PinochleState, seat: int, text: str) -> PinochleAction:
        words = text.strip().split()
        verb = words[0].lower() if words else ""
        if words and verb == "pass" and len(words) == 1:
            return Pass(seat)
        if len(words) == 2 and verb == "bid":
            if not words[1].isdigit() or len(words[1]) > 4:
                raise NotationError(
                    f"bid a number of points, not {words[1]!r:.20} (PINOCHLE-BID-1)"
                )
            return Bid(seat, int(words[1]))
        if len(words) == 2 and verb == "trump":
            if words[1].upper() not in SUITS:
                raise NotationError(
                    f"name a suit C D H or S, not {words[1]!r:.20} (PINOCHLE-TRUMP-1)"
                )
            return Trump(seat, words[1].upper())
        if len(words) == 2 and verb == "play":
            return Play(seat, Card.parse(words[1].upper()))
        raise NotationError(
            f"expected 'pass', 'bid N', 'trump S' or 'play C', not {text!r:.40} (PINOCHLE-BID-1)"
        )

    def legal_actions(self, state: PinochleState, seat: int) -> tuple[PinochleAction, ...]:
        if state.phase == "bid":
            low = max(MIN_BID, state.bid + STEP)
            bids = [Bid(seat, b) for b in range(low, MAX_BID + 1, STEP)]
            stuck = state.bid == 0 and sum(state.passed) == 3
            return tuple(bids if stuck else [Pass(seat), *bids])
        if state.phase == "trump":
            return tuple(Trump(seat, s) for s in SUITS)
        return tuple(Play(seat, c) for c in playable(state, seat))

    def rule_for(self, state: PinochleState, action: PinochleAction) -> tuple[str, str]:
        if state.phase == "bid":
            if isinstance(action, Pass):
                return "PINOCHLE-BID-3", "the last seat must bid when all others passed"
            if isinstance(action, Bid):
                low = max(MIN_BID, state.bid + STEP)
                return (
                    "PINOCHLE-BID-1",
                    f"bid {low} to {MAX_BID} in steps of {STEP}, not {action.amount}",
                )
            return "PINOCHLE-BID-1", f"the auction is on: bid or pass, not {action}"
        if state.phase == "trump":
            return "PINOCHLE-TRUMP-1", f"the auction's winner names trump, not {action}"
        if not isinstance(action, Play):
            return "PINOCHLE-PLAY-2", f"{action} is no play: play a card"
        if action.card not in held(state, action.seat):
            return "PINOCHLE-PLAY-4", f"seat {action.seat} holds no {action.card}"
        if state.zones.cards[TRICK] and suit_of(action.card) == suit_of(
            state.zones.cards[TRICK][0]
        ):
            return "PINOCHLE-PLAY-2", "follow suit and head the trick if able"
        return "PINOCHLE-PLAY-3", "follow suit, else trump (over-trump if able)"

    def apply(self, state: PinochleState, action: PinochleAction, emit: Emit | None) -> None:
        seat = action.seat
        if isinstance(action, Pass | Bid):
            if isinstance(action, Pass):
                state.passed[seat] = True
            else:
                state.bid, state.bidder = action.amount, seat
            if sum(state.passed) == 3 and state.bidder is not None:
                state.phase, state.to_act = "trump", (state.bidder,)
                return
            nxt = (seat + 1) % 4
            while state.passed[nxt]:
                nxt = (nxt + 1) % 4
            state.to_act = (nxt,)
            return
        if isinstance(action, Trump):
            state.trump = action.suit
            self._meld(state, emit)
            state.phase, state.leader, state.to_act = "play", seat, (seat,)
            return
        self._play(state, action, emit)

    def _meld(self, state: PinochleState, emit: Emit | None) -> None:
        """PINOCHLE-MELD-1: each seat's melded cards go face up to its meld pile."""
        z = state.zones
        for s in range(4):
            points, need, _ = meld_of(z.cards[hand(s)], state.trump or "")
            state.meld[s] = points
            for code, k in sorted(need.items()):
                for _ in range(k):
                    i = next(j for j, c in enumerate(z.cards[hand(s)]) if str(c) == code)
                    card = z.move(hand(s), meld_pile(s), i, mask=ALL)
                    if emit is not None:
                        emit(CardMoved(s, f"hand.{s}", f"meld.{s}", card))

    def _play(self, state: PinochleState, action: Play, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        code = str(action.card)
        src = meld_pile(seat)  # PINOCHLE-PLAY-4: a melded copy first
        if code not in [str(c) for c in z.cards[src]]:
            src = hand(seat)
        i = next(j for j, c in enumerate(z.cards[src]) if str(c) == code)
        card = z.move(src, TRICK, i, mask=ALL)
        if emit is not None:
            where = f"meld.{seat}" if src == meld_pile(seat) else f"hand.{seat}"
            emit(CardMoved(seat, where, "trick", card))
        trick = z.cards[TRICK]
        if len(trick) < 4:
            state.to_act = ((seat + 1) % 4,)
            return
        winner = (state.leader + best_index(trick, state.trump or "")) % 4
        points = sum(COUNTERS.get(label(c), 0) for c in trick)
        t = team(winner)
        for _ in range(4):
            z.move(TRICK, won(t), 0, mask=ALL)
        state.tricks[winner] += 1
        if sum(state.tricks) == HAND:
            points += 10  # PINOCHLE-COUNT-1: the last trick
        state.count[t] += points
        state.count[t + 2] += points
        state.leader, state.to_act = winner, (winner,)
        if sum(state.tricks) == HAND:
            self._score(state, emit)

    def _score(self, state: PinochleState, emit: Emit | None) -> None:
        """PINOCHLE-SCORE-1/2, then PINOCHLE-END-1 or the next deal."""
        bidder = state.bidder if state.bidder is not None else 0
        bt = team(bidder)
        made_team = [0, 0]
        for t in (0, 1):
            total = state.meld[t] + state.meld[t + 2] + state.count[t]
            took = state.tricks[t] + state.tricks[t + 2]
            if t == bt:
                made_team[t] = total if total >= state.bid else -state.bid
            else:
                made_team[t] = total if took else 0
        made = [made_team[team(s)] for s in range(4)]
        scored = list(self.score_round(state, made))
        if scored[0] != scored[2] or scored[1] != scored[3]:
            raise PluginError(
                f"a house rule's score_round split partners: {scored} (PINOCHLE-SEAT-1)",
                plugin=NAME,
            )
        state.points = [p + d for p, d in zip(state.points, scored, strict=True)]
        state.past = [
            *state.past,
            {
                "hand": state.hand,
                "bid": state.bid,
                "bidder": bidder,
                "trump": state.trump,
                "meld": list(state.meld),
                "count": [state.count[0], state.count[1]],
                "points": scored,
            },
        ]
        state.hand += 1
        target = state.options["target"]
        reached = [t for t in (0, 1) if state.points[t] >= target]
        if reached:
            t = bt if bt in reached else reached[0]
            end_game(state, (t, t + 2), self.scores(state), "target")
            return
        if state.hand >= state.options["max_hands"]:
            end_game(state, self.standings(state), self.scores(state), "max_hands")
            return
        state.dealer = (state.dealer + 1) % 4
        gather(state, STOCK)
        self._deal(state, emit)

    def scores(self, state: PinochleState) -> tuple[float, ...]:
        return tuple(float(p) for p in state.points)

    def standings(self, state: PinochleState) -> tuple[int, ...]:
        if state.points[0] == state.points[1]:
            return (0, 1, 2, 3)
        t = 0 if state.points[0] > state.points[1] else 1
        return (t, t + 2)

    def resign(self, state: PinochleState, seat: int) -> None:
        t = 1 - team(seat)
        state.is_over, state.to_act = True, ()
        state.result = Result((t, t + 2), self.scores(state), None, "resigned")

    def history(self, state: PinochleState, seat: int | None, since: int) -> list[dict[str, Any]]:
        return [dict(h) for h in state.past[since:]]

    def table(self, state: PinochleState, seat: int | None) -> dict[str, Any]:
        return {
            "dealer": state.dealer,
            "phase": state.phase,
            "bid": state.bid,
            "bidder": state.bidder,
            "passed": list(state.passed),
            "trump": state.trump,
            "leader": state.leader,
            "meld": list(state.meld),
            "count": list(state.count),
            "tricks": list(state.tricks),
            "points": list(state.points),
            "hand": state.hand,
        }

    def check_position(self, state: PinochleState) -> None:
        check(
            state.is_over or len(state.to_act) == 1,
            "to_act must be one seat, not {}",
            list(state.to_act),
        )
        check(state.phase in PHASES, "phase must be one of {}, not {!r}", PHASES, state.phase)
        check(state.trump in (None, *SUITS), "trump must be a suit or null, not {!r}", state.trump)
        check(
            state.bidder in (None, 0, 1, 2, 3),
            "bidder must be a seat or null, not {!r}",
            state.bidder,
        )
        check(0 <= state.dealer < 4, "dealer must be a seat, not {}", state.dealer)
        check(0 <= state.leader < 4, "leader must be a seat, not {}", state.leader)
        check(
            state.bid == 0 or (MIN_BID <= state.bid <= MAX_BID and state.bid % STEP == 0),
            "bid must be 0 or {}..{} in steps of {}, not {}",
            MIN_BID,
            MAX_BID,
            STEP,
            state.bid,
        )
        for a in (0, 1):
            check(
                state.points[a] == state.points[a + 2] and state.count[a] == state.count[a + 2],
                "partners share points and count: {} {}",
                state.points,
                state.count,
            )


@hookimpl(trylast=True)
def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
    """PINOCHLE-DECK-1: two each of 9 10 J Q K A in four suits."""
    return tuple(Card(r, Suit(s)) for _ in range(2) for s in SUITS for r in RANKS)


@hookimpl
def create_logic(ruleset: Any) -> PinochleLogic:
    return PinochleLogic(ruleset)
