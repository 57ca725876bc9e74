"""Two-player Cribbage to 61, written from cardcore's docs only (registered by its tests).

Rule IDs (the errors cite them):

- CRIB-DEAL-1: six cards each; seat 0 deals first and the deal alternates.
- CRIB-DISCARD-1: each seat lays two cards face down in the dealer's crib, the
  non-dealer first, naming a position in its hand as the view lists it (``crib 3``).
- CRIB-STARTER-1: once the crib is full the starter is turned up from the stock; a
  jack gives the dealer 2 ("his heels").
- CRIB-PLAY-1: the non-dealer leads; players alternate laying a card face up
  (``play 5H``) without taking the count past 31.
- CRIB-GO-1: a seat with cards of which none fits says ``go``; the other plays on
  while it can; the last card of a sequence scores 1 (31 scores 2 instead); the
  count restarts at 0 and the seat that did not play the last card leads.
- CRIB-PEG-1: in play, 15 and 31 score 2; a pair 2, three of a kind 6, four 12; a
  run of three or more of the last cards played scores its length.
- CRIB-SHOW-1: after play, the non-dealer's hand, then the dealer's hand, then the
  crib are counted with the starter: 15s (2 each), pairs (2 each), runs (length,
  each), a flush (4 in hand, 5 with the starter; the crib only with 5), nobs (the
  jack of the starter's suit, 1). The crib is turned face up.
- CRIB-NEXT-1: after the show the next dealer says ``deal``.
- CRIB-WIN-1: the first seat to reach 61 wins at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations, pairwise
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
    Rank,
    Ruleset,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.dealing import deal_round_robin, fill_stock, gather
from cardcore.positions import check
from cardcore.turns import end_game, winners_by

NAME = "crib-2026-12-10"
TARGET = 61

STOCK, CRIB, STARTER = 0, 1, 2


def hand(seat: int) -> int:
    return 3 + seat


def played(seat: int) -> int:
    return 5 + seat


LAYOUT = Layout.of(
    [
        ZoneSpec("stock"),
        ZoneSpec("crib"),
        ZoneSpec("starter", None, Visibility.EVERYONE),
        ZoneSpec("hand.0", 0, Visibility.OWNER),
        ZoneSpec("hand.1", 1, Visibility.OWNER),
        ZoneSpec("played.0", 0, Visibility.EVERYONE),
        ZoneSpec("played.1", 1, Visibility.EVERYONE),
    ]
)


def value(card: Card) -> int:
    return min(int(card.rank), 10)


# --- scoring ---------------------------------------------------------------------------


def peg_points(seq: list[Card], count: int) -> int:
    """Points for the card just played (the last of *seq*), count *count* after it."""
    points = 2 if count in (15, 31) else 0
    same = 1
    while same < len(seq) and seq[-1 - same].rank == seq[-1].rank:
        same += 1
    points += {2: 2, 3: 6, 4: 12}.get(same, 0)
    for k in range(len(seq), 2, -1):
        ranks = sorted(int(c.rank) for c in seq[-k:])
        if all(b - a == 1 for a, b in pairwise(ranks)):
            points += k
            break
    return points


def show_points(cards: list[Card], starter: Card, crib: bool) -> int:
    """Counting a hand (or the crib) of four with the starter (CRIB-SHOW-1)."""
    every = [*cards, starter]
    points = 0
    for k in range(2, 6):
        points += 2 * sum(sum(map(value, sub)) == 15 for sub in combinations(every, k))
    points += 2 * sum(a.rank == b.rank for a, b in combinations(every, 2))
    for k in (5, 4, 3):
        runs = 0
        for sub in combinations(every, k):
            ranks = sorted(int(c.rank) for c in sub)
            runs += all(b - a == 1 for a, b in pairwise(ranks))
        if runs:
            points += runs * k
            break
    if len({c.suit for c in cards}) == 1:
        if starter.suit == cards[0].suit:
            points += 5
        elif not crib:
            points += 4
    points += any(c.rank is Rank.JACK and c.suit == starter.suit for c in cards)
    return points


# --- actions ---------------------------------------------------------------------------


@frozen
class Discard(Action):
    """Lay the card at position *pos* of the hand (as the view lists it) in the crib."""

    pos: int
    verb: ClassVar[str] = "crib"

    def notation(self) -> str:
        return f"crib {self.pos}"


@frozen
class Play(Action):
    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


@frozen
class Go(Action):
    verb: ClassVar[str] = "go"


@frozen
class Deal(Action):
    verb: ClassVar[str] = "deal"


CribAction = Discard | Play | Go | Deal


# --- state -----------------------------------------------------------------------------


class CribState(GameState):
    __slots__ = ("count", "dealer", "go", "last", "last_show", "phase", "scores", "seq")
    _mutable = ("zones", "scores", "seq", "last_show")
    phase: str  # "crib", "play", "show"
    dealer: int
    count: int
    seq: list[str]  # the cards of the current sequence of play, in order
    go: int  # the seat that said go in this sequence, or -1
    last: int  # the seat that played the last card, or -1
    scores: list[int]
    last_show: list[int]  # what each seat counted at the last show (crib included)


# --- logic -----------------------------------------------------------------------------


class CribLogic(GameLogic[CribState, CribAction]):
    action_types = (Discard, Play, Go, Deal)
    position_fields = (
        "to_act",
        "phase",
        "dealer",
        "count",
        "seq",
        "go",
        "last",
        "scores",
        "last_show",
    )
    max_legal = 6

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 3000  # a deal takes at most ~20 actions and scores at least 1 point

    def blank_state(self, players: int, options: Mapping[str, Any]) -> CribState:
        state = CribState(players, options, Zones(LAYOUT))
        state.phase, state.dealer, state.count, state.seq = "crib", 0, 0, []
        state.go, state.last, state.scores, state.last_show = -1, -1, [0, 0], [0, 0]
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> CribState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        self._deal(state, emit)
        return state

    def _deal(self, state: CribState, emit: Emit | None) -> None:
        """CRIB-DEAL-1: six each, the non-dealer first; the non-dealer discards first."""
        nd = 1 - state.dealer
        deal_round_robin(state, STOCK, [hand(0), hand(1)], 6, first=nd)
        state.phase, state.count, state.seq, state.go, state.last = "crib", 0, [], -1, -1
        state.to_act = (nd,)
        if emit is not None:
            emit(CardsDealt((6, 6)))

    # legal actions ------------------------------------------------------------------

    def legal_actions(self, state: CribState, seat: int) -> tuple[CribAction, ...]:
        cards = state.zones.cards[hand(seat)]
        if state.phase == "crib":
            return tuple(Discard(seat, i) for i in range(len(cards)))
        if state.phase == "play":
            fits = sorted(
                {c for c in cards if value(c) + state.count <= 31},
                key=lambda c: (int(c.rank), str(c)),
            )
            if fits:
                return tuple(Play(seat, c) for c in fits)
            return (Go(seat),)
        return (Deal(seat),)

    def rule_for(self, state: CribState, action: CribAction) -> tuple[str, str]:
        seat = action.seat
        if isinstance(action, Discard):
            if state.phase != "crib":
                return "CRIB-DISCARD-1", f"the crib is full: seat {seat} may not discard now"
            n = len(state.zones.cards[hand(seat)])
            return "CRIB-DISCARD-1", f"seat {seat} holds {n} cards: no position {action.pos}"
        if isinstance(action, Play):
            if state.phase != "play":
                return (
                    "CRIB-PLAY-1",
                    f"cards are played only after the crib is laid, not in {state.phase!r}",
                )
            if action.card not in state.zones.cards[hand(seat)]:
                return "CRIB-PLAY-1", f"seat {seat} does not hold {action.card}"
            return (
                "CRIB-PLAY-1",
                f"{action.card} would take the count past 31 (count {state.count})",
            )
        if isinstance(action, Go):
            if state.phase != "play":
                return "CRIB-GO-1", f"go is said only in play, not in {state.phase!r}"
            return "CRIB-GO-1", f"seat {seat} has a card that fits the count {state.count}: no go"
        return "CRIB-NEXT-1", f"deal comes after the show, not in {state.phase!r}"

    # apply --------------------------------------------------------------------------

    def apply(self, state: CribState, action: CribAction, emit: Emit | None) -> None:
        seat = action.seat
        if isinstance(action, Discard):
            self._discard(state, seat, action.pos, emit)
        elif isinstance(action, Play):
            self._play(state, seat, action.card, emit)
        elif isinstance(action, Go):
            if state.go == -1:
                state.go = seat
                self._next(state, seat, emit)
            else:  # both said go: the sequence ends (CRIB-GO-1)
                self._end_sequence(state)
        else:
            gather(state, STOCK)
            state.dealer = 1 - state.dealer
            state.last_show = [0, 0]
            self._deal(state, emit)

    def _discard(self, state: CribState, seat: int, pos: int, emit: Emit | None) -> None:
        z = state.zones
        index = len(z.cards[hand(seat)]) - 1 - pos  # the view lists the hand top first
        card = z.move(hand(seat), CRIB, index)
        if emit is not None:
            emit(CardMoved(seat, f"hand.{seat}", "crib", card, visible_to=1 << seat))
        if len(z.cards[hand(seat)]) > 4:
            return
        if seat != state.dealer:
            state.to_act = (state.dealer,)
            return
        # CRIB-STARTER-1: turn up the starter
        starter = z.move(STOCK, STARTER, mask=ALL)
        if emit is not None:
            emit(CardRevealed(state.dealer, "starter", 0, starter))
        state.phase = "play"
        if starter.rank is Rank.JACK and self._peg(state, state.dealer, 2):
            return
        state.to_act = (1 - state.dealer,)

    def _peg(self, state: CribState, seat: int, points: int) -> bool:
        """Add points; end the game at 61 (CRIB-WIN-1). True when it ended."""
        state.scores[seat] += points
        if state.scores[seat] >= TARGET:
            end_game(state, (seat,), tuple(map(float, state.scores)), f"{TARGET} points")
            return True
        return False

    def _play(self, state: CribState, seat: int, card: Card, emit: Emit | None) -> None:
        z = state.zones
        cards = z.cards[hand(seat)]
        moved = z.move(hand(seat), played(seat), cards.index(card), mask=ALL)
        if emit is not None:
            emit(CardMoved(seat, f"hand.{seat}", f"played.{seat}", moved))
        state.count += value(moved)
        state.seq.append(str(moved))
        state.last = seat
        points = peg_points([Card.parse(t) for t in state.seq], state.count)
        if points and self._peg(state, seat, points):
            return
        if state.count == 31:
            state.count, state.seq, state.go = 0, [], -1
        self._next(state, seat, emit)

    def _next(self, state: CribState, actor: int, emit: Emit | None) -> None:
        z = state.zones
        if not z.cards[hand(0)] and not z.cards[hand(1)]:
            if state.count and self._peg(state, state.last, 1):  # last card
                return
            self._show(state, emit)
            return
        other = 1 - actor
        if state.go == -1:
            if z.cards[hand(other)]:
                state.to_act = (other,)
                return
            state.go = other  # no cards left: as good as a go
        on = 1 - state.go
        if z.cards[hand(on)]:
            state.to_act = (on,)  # it plays while it can, then says go too
            return
        self._end_sequence(state)

    def _end_sequence(self, state: CribState) -> None:
        """CRIB-GO-1: the last card scores 1; the count restarts, the other seat leads."""
        if state.count and self._peg(state, state.last, 1):
            return
        state.count, state.seq, state.go = 0, [], -1
        lead = 1 - state.last
        state.to_act = (lead if state.zones.cards[hand(lead)] else state.last,)

    def _show(self, state: CribState, emit: Emit | None) -> None:
        z = state.zones
        starter = z.cards[STARTER][-1]
        for i in range(len(z.cards[CRIB])):
            z.seen[CRIB][i] = ALL
            if emit is not None:
                emit(CardRevealed(state.dealer, "crib", i, z.cards[CRIB][i]))
        nd, dealer = 1 - state.dealer, state.dealer
        raw = [0, 0]
        raw[nd] = show_points(z.cards[played(nd)], starter, False)
        raw[dealer] = show_points(z.cards[played(dealer)], starter, False) + show_points(
            z.cards[CRIB], starter, True
        )
        made = list(self.score_round(state, raw))
        state.last_show = made
        state.phase, state.count, state.seq, state.go = "show", 0, [], -1
        for seat in (nd, dealer):
            if self._peg(state, seat, made[seat]):
                return
        state.to_act = (nd,)  # the next dealer deals (CRIB-NEXT-1)

    # views and positions --------------------------------------------------------------

    def table(self, state: CribState, seat: int | None) -> dict[str, Any]:
        return {
            "phase": state.phase,
            "dealer": state.dealer,
            "count": state.count,
            "seq": list(state.seq),
            "go": state.go,
            "last": state.last,
            "scores": list(state.scores),
            "last_show": list(state.last_show),
        }

    def scores(self, state: CribState) -> tuple[float, ...]:
        return tuple(map(float, state.scores))

    def standings(self, state: CribState) -> tuple[int, ...]:
        """The leaders, for the host's end (the default would name every seat)."""
        return winners_by(state.scores, lowest=False)

    def check_position(self, state: CribState) -> None:
        check(
            state.phase in ("crib", "play", "show"),
            "phase must be crib, play or show, not {}",
            state.phase,
        )
        check(state.dealer in (0, 1), "dealer must be 0 or 1, not {}", state.dealer)
        check(0 <= state.count <= 30, "count must be 0 to 30, not {}", state.count)
        check(state.go in (-1, 0, 1) and state.last in (-1, 0, 1), "go and last must be -1, 0 or 1")
        check(
            state.is_over or len(state.to_act) == 1,
            "to_act must be one seat, not {}",
            list(state.to_act),
        )
        check(all(s < TARGET for s in state.scores) or state.is_over, "scores must be below 61")
        public = {str(c) for s in (0, 1) for c in state.zones.cards[played(s)]}
        check(
            all(isinstance(t, str) and t in public for t in state.seq),
            "seq must list cards played in this deal, not {}",
            state.seq,
        )
        total = sum(value(Card.parse(t)) for t in state.seq)
        check(total == state.count, "count must be the sum of seq ({}), not {}", total, state.count)


GAME = GameInfo(
    NAME,
    "Cribbage for two: crib, starter, play to 31 and the show; first to 61 wins",
    2,
    2,
    version="1.0.0",
    fields=(
        ViewField("phase", "str", "crib (laying away), play (pegging) or show."),
        ViewField("dealer", "seat", "The seat whose crib it is."),
        ViewField("count", "int", "The count of the current sequence of play."),
        ViewField("seq", "cards", "The cards of the current sequence of play, in order."),
        ViewField("go", "int", "The seat that said go in this sequence, or -1."),
        ViewField("last", "int", "The seat that played the last card, or -1."),
        ViewField("scores", "per-seat", "Points so far.", of="int"),
        ViewField("last_show", "per-seat", "Points counted at the last show.", of="int"),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> CribLogic:
    return CribLogic(ruleset)
