"""Scopa, the Italian capture game, written from cardcore's plugin guide (2026-12-14).

A single-module game (docs/plugin-guide/game.rst): ``GAME``, ``create_logic``, the deck
(``build_deck``, ``trylast``), the action and its notation, the state, the logic, and the
game's own hookspec module built in place (docs/plugin-guide/hookspecs.rst).

Two players, or four in two partnerships (seats 0+2 against 1+3). A 40-card deck
(no 8, 9, 10); J=8, Q=9, K=10, A=1. Rules are in :data:`RULES_MD`.

Notation (SCOPA-NOTE-1): ``play <card>`` lays a card on the table; ``play <card> <taken> ...``
plays *card* and captures the table cards named after it (any order; written sorted).
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
    CardMoved,
    CardsDealt,
    Emit,
    Event,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    NotationError,
    Option,
    OptionError,
    PluginError,
    RoundScored,
    Ruleset,
    Shuffled,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    hookspec,
)
from cardcore.dealing import deal_round_robin, fill_stock, gather
from cardcore.positions import check
from cardcore.search import default_position
from cardcore.turns import end_game, next_seat, winners_by

NAME = "scopa-2026-12-14"

RULES_MD = """\
# Scopa (test plugin, 2026-12-14)

| ID | Rule |
|----|------|
| SCOPA-SEAT-1 | 2 players, or 4 in partnerships (0+2 against 1+3). |
| SCOPA-DECK-1 | 40 cards: A-7, J, Q, K of each suit; values A=1 ... 7=7, J=8, Q=9, K=10. |
| SCOPA-DEAL-1 | 3 cards to each player, 4 face up on the table; the seat after the dealer plays first. |
| SCOPA-DEAL-2 | When every hand is empty and the stock is not, 3 more cards each. |
| SCOPA-PLAY-1 | On your turn play one card of your hand. |
| SCOPA-CAPTURE-1 | If a table card has the played card's value you must capture one such card. |
| SCOPA-CAPTURE-2 | Else you may capture a set of 2+ table cards whose values sum to the card's. |
| SCOPA-CAPTURE-3 | Else (no capture possible) the card stays on the table; a capture is never refused. |
| SCOPA-SCOPA-1 | Clearing the table is a scopa (1 point), except on the last play of the round. |
| SCOPA-LAST-1 | At the end of a round the last player to capture takes the table's cards. |
| SCOPA-SCORE-1 | Round: most cards 1, most diamonds 1, the 7D 1, most sevens 1 (ties: nobody), scopas. |
| SCOPA-MATCH-1 | Rounds are played until a side reaches `target` (default 11) alone in the lead. |
| SCOPA-NOTE-1 | `play <card> [<taken> ...]`. |
"""

RANKS = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
VALUE = {rank: i + 1 for i, rank in enumerate(RANKS)}
SEVEN_OF_DIAMONDS = Card.parse("7D")


def value(card: Card) -> int:
    """The card's capture value (SCOPA-DECK-1)."""
    return VALUE[card.label]


# -- the game's own hookspecs, built in place (docs/plugin-guide/hookspecs.rst) ------------------


def scopa_sweep_points(options: Mapping[str, Any]) -> int | None:
    """Return the points one scopa is worth.

    Stops at the first non-``None`` result. The game answers 1 (SCOPA-SCOPA-1) with
    ``trylast=True``; a house rule may answer another value.

    :param options: The game's options (with the chosen rules' options).
    :returns: A whole number of points, or ``None`` to defer.

    .. versionadded:: 0.1
    """


hookspecs = types.ModuleType("scopa_2026_12_14_hookspecs")
hookspecs.scopa_sweep_points = hookspec(firstresult=True)(scopa_sweep_points)  # type: ignore[attr-defined]
del scopa_sweep_points


GAME = GameInfo(
    NAME,
    "Scopa: capture table cards of equal value or equal sum; sweep the table for a scopa",
    2,
    4,
    options=(Option("target", 11, "Points that win the match", minimum=1, maximum=99),),
    version="1.0.0",
    hookspecs=hookspecs,
    fields=(
        ViewField("stock", "int", "Cards left in the stock."),
        ViewField("dealer", "seat", "The dealer of this round."),
        ViewField("round", "int", "The round being played, from 1."),
        ViewField("captured", "per-seat", "Cards each seat captured this round.", of="int"),
        ViewField("scopas", "per-seat", "Scopas each seat made this round.", of="int"),
        ViewField("scores", "per-seat", "Match points of each seat (partners alike).", of="int"),
        ViewField("last_capture", "seat", "The last seat to capture this round.", nullable=True),
        ViewField("target", "int", "Points that win the match."),
    ),
)


# -- actions ----------------------------------------------------------------------------------


@frozen
class Play(Action):
    """Seat *seat* plays *card*, capturing *taken* (sorted; empty: the card stays on the table)."""

    card: Card
    taken: tuple[Card, ...] = ()
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return " ".join(["play", str(self.card), *map(str, self.taken)])


def sort_key(card: Card) -> tuple[int, str]:
    return (value(card), card.suit.value)


def make_play(seat: int, card: Card, taken: Sequence[Card] = ()) -> Play:
    return Play(seat, card, tuple(sorted(taken, key=sort_key)))


class ScopaMade(Event):
    """Seat *seat* swept the table: a scopa (SCOPA-SCOPA-1)."""

    slug: ClassVar[str] = "scopa-2026-12-14-scopa"
    seat: int


# -- state ------------------------------------------------------------------------------------

STOCK, TABLE = 0, 1


def hand(seat: int) -> int:
    return 2 + seat


def taken_pile(seat: int, players: int) -> int:
    return 2 + players + seat


@cache
def layout(players: int) -> Layout:
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    taken = [ZoneSpec(f"taken.{s}", s, Visibility.EVERYONE) for s in range(players)]
    return Layout.of(
        [ZoneSpec("stock"), ZoneSpec("table", None, Visibility.EVERYONE), *hands, *taken]
    )


class ScopaState(GameState):
    """The piles, the dealer, the round, scopas, match scores and the last capturer."""

    __slots__ = ("dealer", "last_capture", "past", "round_no", "scopas", "scores")
    _mutable = ("zones", "scopas", "scores", "past")
    dealer: int
    round_no: int
    scopas: list[int]
    scores: list[int]
    last_capture: int | None
    past: list[dict[str, Any]]


def side(seat: int, players: int) -> int:
    """The seat's side: 0 or 1 with four players (partners 0+2, 1+3), else the seat."""
    return seat % 2 if players == 4 else seat


# -- logic ------------------------------------------------------------------------------------


class ScopaLogic(GameLogic[ScopaState, Play]):
    """Scopa for 2 or 4 players."""

    position_fields = ("to_act", "dealer", "round_no", "scopas", "scores", "last_capture")
    max_legal = 64

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        sweep = ruleset.resolve("scopa_sweep_points")
        if sweep is None:
            raise PluginError("no plugin of scopa answers scopa_sweep_points", plugin=NAME)
        self._sweep = sweep

    def validate(self, players: int, options: Mapping[str, Any]) -> None:
        super().validate(players, options)
        if players not in (2, 4):
            raise OptionError(f"scopa is played by 2 or 4 players, not {players} (SCOPA-SEAT-1)")

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 40 * (2 * int(options["target"]) + 20)

    def blank_state(self, players: int, options: Mapping[str, Any]) -> ScopaState:
        state = ScopaState(players, options, Zones(layout(players)))
        state.dealer, state.round_no = players - 1, 1
        state.scopas, state.scores = [0] * players, [0] * players
        state.last_capture, state.past = None, []
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> ScopaState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        self._deal_round(state, emit)
        return state

    def _deal_round(self, state: ScopaState, emit: Emit | None) -> None:
        """SCOPA-DEAL-1: 3 each from the seat after the dealer, then 4 face up."""
        players, z = state.players, state.zones
        first = next_seat(state.dealer, players)
        deal_round_robin(state, STOCK, [hand(s) for s in range(players)], 3, first=first)
        for _ in range(4):
            z.move(STOCK, TABLE)
        if emit is not None:
            emit(CardsDealt(tuple(len(z.cards[hand(s)]) for s in range(players))))
        state.to_act = (first,)

    def legal_actions(self, state: ScopaState, seat: int) -> tuple[Play, ...]:
        """By hand card (value, then suit), each card's captures in a stable order."""
        if state.is_over or state.to_act != (seat,):
            return ()
        table = state.zones.cards[TABLE]
        out: list[Play] = []
        for card in sorted(state.zones.cards[hand(seat)], key=sort_key):
            out.extend(make_play(seat, card, t) for t in captures(card, table))
        return tuple(out)

    def rule_for(self, state: ScopaState, action: Play) -> tuple[str, str]:
        seat, card = action.seat, action.card
        if card not in state.zones.cards[hand(seat)]:
            return "SCOPA-PLAY-1", f"seat {seat} may play a card of its hand, not {card}"
        table = state.zones.cards[TABLE]
        if any(t not in table for t in action.taken) or len(set(action.taken)) != len(action.taken):
            return "SCOPA-CAPTURE-2", "only cards on the table can be captured, each once"
        if any(value(t) == value(card) for t in table) and (
            len(action.taken) != 1 or value(action.taken[0]) != value(card)
        ):
            return (
                "SCOPA-CAPTURE-1",
                f"a table card of value {value(card)} must be captured with {card}",
            )
        if not action.taken:
            return "SCOPA-CAPTURE-3", f"{card} can capture: a capture cannot be refused"
        return "SCOPA-CAPTURE-2", f"the captured cards must sum to {value(card)}"

    def parse_action(self, state: ScopaState, seat: int, text: str) -> Play:
        if not isinstance(text, str):
            raise NotationError("an action is text (SCOPA-NOTE-1)")
        words = text.split()
        if not words or words[0].lower() != "play":
            raise NotationError(
                f"expected 'play <card> [<taken> ...]', not {text[:40]!r} (SCOPA-NOTE-1)"
            )
        if len(words) < 2:
            raise NotationError(
                "'play' needs the card played: 'play 7D' or 'play 7D 3C 4S' (SCOPA-NOTE-1)"
            )
        try:
            cards = [Card.parse(w) for w in words[1:]]
        except NotationError as exc:
            raise NotationError(f"{exc} (SCOPA-NOTE-1)") from None
        if any(c.is_joker or c.label not in VALUE for c in cards):
            raise NotationError("scopa has no 8, 9, 10 or joker (SCOPA-DECK-1)")
        if len(set(cards)) != len(cards):
            raise NotationError("a card is named twice (SCOPA-NOTE-1)")
        return make_play(seat, cards[0], cards[1:])

    def apply(self, state: ScopaState, action: Play, emit: Emit | None) -> None:
        seat, players, z = action.seat, state.players, state.zones
        src = hand(seat)
        i = z.cards[src].index(action.card)
        if action.taken:
            dst = taken_pile(seat, players)
            for t in action.taken:
                card = z.move(TABLE, dst, z.cards[TABLE].index(t))
                if emit is not None:
                    emit(CardMoved(seat, "table", f"taken.{seat}", card))
            z.move(src, dst, i)
            if emit is not None:
                emit(CardMoved(seat, f"hand.{seat}", f"taken.{seat}", action.card))
            state.last_capture = seat
        else:
            z.move(src, TABLE, i)
            if emit is not None:
                emit(CardMoved(seat, f"hand.{seat}", "table", action.card))
        hands_empty = all(not z.cards[hand(s)] for s in range(players))
        last_play = hands_empty and not z.cards[STOCK]
        if action.taken and not z.cards[TABLE] and not last_play:  # SCOPA-SCOPA-1
            state.scopas[seat] += 1
            if emit is not None:
                emit(ScopaMade(seat))
        if not hands_empty:
            state.to_act = (next_seat(seat, players),)
            return
        if z.cards[STOCK]:  # SCOPA-DEAL-2
            deal_round_robin(
                state, STOCK, [hand(s) for s in range(players)], 3, first=next_seat(seat, players)
            )
            if emit is not None:
                emit(CardsDealt(tuple(len(z.cards[hand(s)]) for s in range(players))))
            state.to_act = (next_seat(seat, players),)
            return
        self._end_round(state, emit)

    def round_points(self, state: ScopaState) -> list[int]:
        """SCOPA-SCORE-1 per seat (partners alike), before house rules' ``score_round``."""
        players, z = state.players, state.zones
        sides = sorted({side(s, players) for s in range(players)})
        piles = {
            k: [
                c
                for s in range(players)
                if side(s, players) == k
                for c in z.cards[taken_pile(s, players)]
            ]
            for k in sides
        }
        points = dict.fromkeys(sides, 0)

        def most(measure: Any) -> None:
            counts = {k: measure(piles[k]) for k in sides}
            best = max(counts.values())
            leaders = [k for k in sides if counts[k] == best]
            if len(leaders) == 1:
                points[leaders[0]] += 1

        most(len)
        most(lambda cs: sum(c.suit.value == "D" for c in cs))
        most(lambda cs: sum(c.label == "7" for c in cs))
        for k in sides:
            if SEVEN_OF_DIAMONDS in piles[k]:
                points[k] += 1
        per = self.checked_answer("scopa_sweep_points", self._sweep(options=state.options), int)
        for s in range(players):
            points[side(s, players)] += per * state.scopas[s]
        return [points[side(s, players)] for s in range(players)]

    def _end_round(self, state: ScopaState, emit: Emit | None) -> None:
        players, z = state.players, state.zones
        if state.last_capture is not None:  # SCOPA-LAST-1
            dst = taken_pile(state.last_capture, players)
            while z.cards[TABLE]:
                card = z.move(TABLE, dst)
                if emit is not None:
                    emit(
                        CardMoved(state.last_capture, "table", f"taken.{state.last_capture}", card)
                    )
        made = list(self.score_round(state, self.round_points(state)))
        for s in range(players):
            state.scores[s] += made[s]
        state.past.append(
            {
                "round": state.round_no,
                "points": made,
                "totals": list(state.scores),
                "captured": [len(z.cards[taken_pile(s, players)]) for s in range(players)],
                "scopas": list(state.scopas),
            }
        )
        if emit is not None:
            emit(RoundScored(state.round_no, tuple(made), tuple(state.scores)))
        best = max(state.scores)
        leaders = {side(s, players) for s in range(players) if state.scores[s] == best}
        if best >= state.options["target"] and len(leaders) == 1:  # SCOPA-MATCH-1
            end_game(
                state,
                winners_by(state.scores, lowest=False),
                list(map(float, state.scores)),
                "target reached",
            )
            return
        state.round_no += 1
        state.dealer = next_seat(state.dealer, players)
        state.scopas = [0] * players
        state.last_capture = None
        gather(state, STOCK)
        if emit is not None:
            emit(Shuffled("stock", len(z.cards[STOCK])))
        self._deal_round(state, emit)

    def history(self, state: ScopaState, seat: int | None, since: int) -> list[dict[str, Any]]:
        return [dict(r) for r in state.past[since:]]

    def scores(self, state: ScopaState) -> tuple[float, ...]:
        return tuple(map(float, state.scores))

    def table(self, state: ScopaState, seat: int | None) -> dict[str, Any]:
        z, players = state.zones, state.players
        return {
            "stock": len(z.cards[STOCK]),
            "dealer": state.dealer,
            "round": state.round_no,
            "captured": [len(z.cards[taken_pile(s, players)]) for s in range(players)],
            "scopas": list(state.scopas),
            "scores": list(state.scores),
            "last_capture": state.last_capture,
            "target": state.options["target"],
        }

    def position_from_view(self, view: Mapping[str, Any], zones: Zones) -> str:
        """For search agents: the table shows the slot ``round_no`` as ``round``."""
        table = dict(view["table"])
        table["round_no"] = table.pop("round", 1)
        return default_position(self, {**view, "table": table}, zones)

    def check_position(self, state: ScopaState) -> None:
        z, players = state.zones, state.players
        sizes = {len(z.cards[hand(s)]) for s in range(players)}
        check(
            state.is_over or len(state.to_act) == 1,
            "to_act must be one seat, not {}",
            list(state.to_act),
        )
        check(all(0 <= n <= 3 for n in sizes), "a hand holds 0 to 3 cards (SCOPA-DEAL-1)")
        check(
            state.is_over or any(sizes),
            "some hand must hold cards while the game is on (SCOPA-DEAL-2)",
        )
        check(0 <= state.dealer < players, "dealer must be a seat, not {}", state.dealer)
        check(
            state.last_capture is None or 0 <= state.last_capture < players,
            "last_capture must be a seat or null, not {}",
            state.last_capture,
        )
        check(
            all(v >= 0 for v in state.scores + state.scopas), "scores and scopas are never negative"
        )


def captures(card: Card, table: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The captures *card* may make from *table* (SCOPA-CAPTURE-1..3): ``[()]`` for none."""
    v = value(card)
    equal = [(t,) for t in sorted(table, key=sort_key) if value(t) == v]
    if equal:
        return equal
    ordered = sorted(table, key=sort_key)
    sums = [
        combo
        for n in range(2, len(ordered) + 1)
        for combo in combinations(ordered, n)
        if sum(map(value, combo)) == v
    ]
    return sums or [()]


@hookimpl
def create_logic(ruleset: Ruleset) -> ScopaLogic:
    """Build the engine of a configuration of Scopa."""
    return ScopaLogic(ruleset)


@hookimpl(trylast=True)
def build_deck(players: int, options: Mapping[str, Any]) -> list[Card]:
    """SCOPA-DECK-1: the 40-card Italian-style deck (no 8, 9, 10)."""
    return [Card.parse(f"{r}{s}") for s in "SHDC" for r in RANKS]


@hookimpl(trylast=True)
def scopa_sweep_points(options: Mapping[str, Any]) -> int:
    """SCOPA-SCOPA-1: a scopa is worth one point."""
    return 1
