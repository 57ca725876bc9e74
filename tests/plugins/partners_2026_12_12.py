"""Partners, a partnership trick-taking game written by a third-party author from the docs.

Rules (each with its ID):

* PARTNERS-SEAT-1: exactly 4 players in two fixed teams, seats 0+2 against seats 1+3.
* PARTNERS-DEAL-1: a 24-card deck (9 through A of each suit), 6 cards each, one at a time
  from the left of the dealer; the deal passes to the left after each hand (seat 3 deals
  first, so seat 0 leads the first trick).
* PARTNERS-TRUMP-1: the last card dealt (the dealer's) is turned face up and its suit is
  trump for the hand; it stays in the dealer's hand (no cards are left over to turn up).
* PARTNERS-FOLLOW-1: a seat must follow the led suit if it can, else plays any card.
* PARTNERS-TRICK-1: the highest trump wins the trick, else the highest card of the led
  suit; the trick's winner leads the next one.
* PARTNERS-SCORE-1: each trick scores 1 point to the team that took it; the team that
  took 4 or more tricks in the hand scores 1 bonus point.
* PARTNERS-END-1: the match ends after a hand in which a team has reached ``points``
  (default 10) and leads; both partners of that team win. Equal totals play on.

One house rule, in ``MarchBonus`` below (module ``march``): PARTNERS-MARCH-1.
"""

from __future__ import annotations

import random
import types
from collections.abc import Mapping, Sequence
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
    Option,
    PluginError,
    Rank,
    Result,
    RoundScored,
    RuleInfo,
    Shuffled,
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

NAME = "partners-1212"
PLAYERS = 4
HAND = 6
STOCK, TRICK, DONE = 0, 1, 2
SUITS = ("C", "D", "H", "S")
RANKS = (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)


def hand(seat: int) -> int:
    return 3 + seat


def team(seat: int) -> int:
    return seat % 2


def partners(t: int) -> tuple[int, int]:
    return (t, t + 2)


@cache
def layout() -> Layout:
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(PLAYERS)]
    return Layout.of(
        [
            ZoneSpec("stock"),
            ZoneSpec("trick", None, Visibility.EVERYONE, ordered=True),
            ZoneSpec("done", None, Visibility.EVERYONE, ordered=True),
            *hands,
        ]
    )


GAME = GameInfo(
    NAME,
    "Partners: 0+2 against 1+3, turn-up trump, follow suit, first team to the points wins",
    PLAYERS,
    PLAYERS,
    version="1.0.0",
    options=(Option("points", 10, "Points a team needs to win the match.", minimum=1, maximum=50),),
    fields=(
        ViewField("dealer", "seat", "The seat that dealt this hand."),
        ViewField("trump", "choice", "The trump suit of this hand.", choices=SUITS),
        ViewField("turnup", "card", "The dealer's turned-up card (it names trump)."),
        ViewField("leader", "seat", "The seat that led the current trick."),
        ViewField("tricks", "per-seat", "Tricks each seat's team took this hand.", of="int"),
        ViewField("points", "per-seat", "Each seat's team's match total.", of="int"),
        ViewField("hand", "int", "The number of this hand, from 0."),
        ViewField("target", "int", "Points a team needs to win."),
    ),
)


@frozen
class Play(Action):
    """Play *card* to the trick (``play 9H``)."""

    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


play = cache(Play)


class PartnersState(GameState):
    __slots__ = ("dealer", "hand", "leader", "past", "points", "tricks", "trump", "turnup")
    _mutable = ("zones", "tricks", "points", "past")
    dealer: int
    trump: str
    turnup: str
    leader: int
    tricks: list[int]  # per seat: its team's tricks this hand
    points: list[int]  # per seat: its team's match total
    hand: int
    past: list[Any]  # finished hands, for history only (not in the position)


def suit_of(card: Card) -> str:
    return card.suit.value if card.suit is not None else ""


def trick_winner(cards: Sequence[Card], leader: int, trump: str) -> int:
    """The seat that wins *cards* (in play order, led by *leader*) (PARTNERS-TRICK-1)."""
    led = suit_of(cards[0])

    def strength(i: int) -> tuple[int, int]:
        card = cards[i]
        s = suit_of(card)
        return (2 if s == trump else 1 if s == led else 0, RANKS.index(card.rank))

    best = max(range(len(cards)), key=strength)
    return (leader + best) % PLAYERS


class PartnersLogic(GameLogic[PartnersState, Play]):
    action_types = (Play,)
    position_fields = ("to_act", "dealer", "trump", "turnup", "leader", "tricks", "points", "hand")
    max_legal = HAND

    def deck(self, players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
        return tuple(Card(r, Suit(s)) for s in SUITS for r in RANKS)

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return HAND * PLAYERS * (4 * int(options.get("points", 10)) + 20)

    def blank_state(self, players: int, options: Mapping[str, Any]) -> PartnersState:
        state = PartnersState(players, options, Zones(layout()))
        state.dealer, state.trump, state.turnup, state.leader, state.hand = 3, "", "", 0, 0
        state.tricks, state.points, state.past = [0] * players, [0] * players, []
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> PartnersState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        self._deal(state, emit)
        return state

    def _deal(self, state: PartnersState, emit: Emit | None) -> None:
        """PARTNERS-DEAL-1 and PARTNERS-TRUMP-1."""
        first = (state.dealer + 1) % PLAYERS
        deal_round_robin(state, STOCK, [hand(s) for s in range(PLAYERS)], HAND, first=first)
        z = hand(state.dealer)
        z_seen = state.zones.seen[z]
        z_seen[-1] = ALL  # the dealer's last card is turned up for everyone
        up = state.zones.cards[z][-1]
        state.turnup, state.trump = str(up), suit_of(up)
        state.leader, state.to_act = first, (first,)
        state.tricks = [0] * PLAYERS
        if emit is not None:
            emit(CardsDealt(tuple(HAND for _ in range(PLAYERS))))
            emit(CardRevealed(state.dealer, f"hand.{state.dealer}", HAND - 1, up))

    def legal_actions(self, state: PartnersState, seat: int) -> tuple[Play, ...]:
        """The seat's cards in hand order (bottom first), only the led suit when it holds one."""
        held = state.zones.cards[hand(seat)]
        trick = state.zones.cards[TRICK]
        if trick:
            led = suit_of(trick[0])
            follow = [c for c in held if suit_of(c) == led]
            if follow:  # PARTNERS-FOLLOW-1
                return tuple(play(seat, c) for c in follow)
        return tuple(play(seat, c) for c in held)

    def rule_for(self, state: PartnersState, action: Play) -> tuple[str, str]:
        if action.card not in state.zones.cards[hand(action.seat)]:
            return "PARTNERS-FOLLOW-1", f"seat {action.seat} does not hold that card"
        led = suit_of(state.zones.cards[TRICK][0])
        return "PARTNERS-FOLLOW-1", f"seat {action.seat} must follow the led suit {led}"

    def apply(self, state: PartnersState, action: Play, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        i = z.cards[hand(seat)].index(action.card)
        card = z.move(hand(seat), TRICK, i, mask=ALL)
        if emit is not None:
            emit(CardMoved(seat, f"hand.{seat}", "trick", card))
        trick = z.cards[TRICK]
        if len(trick) < PLAYERS:
            state.to_act = ((seat + 1) % PLAYERS,)
            return
        winner = trick_winner(trick, state.leader, state.trump)  # PARTNERS-TRICK-1
        for _ in range(PLAYERS):
            z.move(TRICK, DONE, 0, mask=ALL)
        for s in partners(team(winner)):
            state.tricks[s] += 1
        state.leader, state.to_act = winner, (winner,)
        if any(z.cards[hand(s)] for s in range(PLAYERS)):
            return
        self._score_hand(state, emit)

    def _score_hand(self, state: PartnersState, emit: Emit | None) -> None:
        """PARTNERS-SCORE-1, then PARTNERS-END-1 or the next deal."""
        made = [state.tricks[s] + (1 if state.tricks[s] >= 4 else 0) for s in range(PLAYERS)]
        scored = self.score_round(state, made)
        for t in (0, 1):
            a, b = partners(t)
            if scored[a] != scored[b]:
                msg = f"partners {a} and {b} were scored differently {list(scored)}: a team scores as one"
                raise PluginError(msg, plugin=self._scorer_name())
        state.points = [p + d for p, d in zip(state.points, scored, strict=True)]
        state.past = [
            *state.past,
            {
                "hand": state.hand,
                "trump": state.trump,
                "tricks": state.tricks[:2],
                "points": list(scored[:2]),
            },
        ]
        if emit is not None:
            emit(RoundScored(state.hand, tuple(scored), tuple(state.points)))
        target = state.options["points"]
        best = max(state.points)
        if best >= target and state.points[0] != state.points[1]:
            end_game(state, self.standings(state), state.points, "points")
            return
        state.hand += 1
        state.dealer = (state.dealer + 1) % PLAYERS
        gather(state, STOCK)
        if emit is not None:
            emit(Shuffled("stock", len(state.zones.cards[STOCK])))
        self._deal(state, emit)

    def scores(self, state: PartnersState) -> tuple[float, ...]:
        return tuple(float(p) for p in state.points)

    def standings(self, state: PartnersState) -> tuple[int, ...]:
        """Both partners of the leading team; both teams when level."""
        if state.points[0] == state.points[1]:
            return tuple(range(PLAYERS))
        return partners(0 if state.points[0] > state.points[1] else 1)

    def resign(self, state: PartnersState, seat: int) -> None:
        """The resigning seat's team loses: the other team's partners win."""
        state.is_over, state.to_act = True, ()
        state.result = Result(partners(1 - team(seat)), self.scores(state), None, "resigned")

    def history(self, state: PartnersState, seat: int | None, since: int) -> list[dict[str, Any]]:
        return [dict(h) for h in state.past[since:]]

    def rounds_played(self, state: PartnersState) -> int:
        return state.hand + (
            1 if state.is_over and state.result and state.result.reason == "points" else 0
        )

    def table(self, state: PartnersState, seat: int | None) -> dict[str, Any]:
        return {
            "dealer": state.dealer,
            "trump": state.trump,
            "turnup": state.turnup,
            "leader": state.leader,
            "tricks": list(state.tricks),
            "points": list(state.points),
            "hand": state.hand,
            "target": state.options["points"],
        }

    def check_position(self, state: PartnersState) -> None:
        check(
            state.is_over or len(state.to_act) == 1,
            "to_act must be one seat, not {}",
            list(state.to_act),
        )
        check(state.trump in SUITS, "trump must be one of C D H S, not {!r}", state.trump)
        check(0 <= state.dealer < PLAYERS, "dealer must be a seat, not {}", state.dealer)
        check(0 <= state.leader < PLAYERS, "leader must be a seat, not {}", state.leader)
        for t in (0, 1):
            a, b = partners(t)
            check(
                state.points[a] == state.points[b], "partners share their points: {}", state.points
            )
            check(
                state.tricks[a] == state.tricks[b], "partners share their tricks: {}", state.tricks
            )


@hookimpl
def create_logic(ruleset: Any) -> PartnersLogic:
    return PartnersLogic(ruleset)


# --- the house rule: PARTNERS-MARCH-1 ------------------------------------------------------

MARCH_RULE = RuleInfo(
    id="PARTNERS-MARCH-1",
    name=f"{NAME}.march-bonus",
    game=NAME,
    summary="A team that takes all 6 tricks scores march_bonus extra points",
    version="1.0.0",
    options=(
        Option(
            "march_bonus",
            2,
            "Extra points for a team that takes every trick of a hand.",
            minimum=0,
            maximum=10,
        ),
    ),
)


def _march_module() -> types.ModuleType:
    """The rule's module (built here: the game's own module must hold only the game's hooks)."""

    @hookimpl
    def score_round(state: GameState, scores: Sequence[int]) -> list[int]:
        """Add ``march_bonus`` to both partners of a team that took all 6 tricks."""
        bonus = state.options["march_bonus"]
        tricks = state.tricks  # type: ignore[attr-defined]
        return [score + (bonus if tricks[s] == HAND else 0) for s, score in enumerate(scores)]

    module = types.ModuleType("partners_march_bonus_2026_12_12")
    module.RULE = MARCH_RULE  # type: ignore[attr-defined]
    module.score_round = score_round  # type: ignore[attr-defined]
    return module


march = _march_module()


class PartnersBasicAgent:
    """Wins cheaply when it can, else throws its lowest card."""

    games = (NAME,)

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        plays = [a for a in legal if isinstance(a, Play)]
        return min(plays, key=lambda a: (RANKS.index(a.card.rank), self.rng.random()))
