"""A plugin author's Crazy Eights, written from the docs only (2026-12-07).

The whole plugin lives in this file and is registered with
:func:`cardcore.register`, as ``docs/plugin-guide/testing.rst`` ("Register
test-only plugins with cardcore.register") and ``entry-points.rst`` tell a
plugin author to do for tests. Nothing is installed.

Rules (our choices, each with an ID, cited by the code and the tests):

- CRAZY8-SEAT-1: 2 to 5 players.
- CRAZY8-DEAL-1: 7 cards each to 2 players, 5 each to 3 or more (the common
  Hoyle rule); seat 0 plays first.
- CRAZY8-START-1: the top card of the stock is turned up as the starter; an 8
  turned up is put face up at the bottom of the stock and the next one turned.
- CRAZY8-PLAY-1: play a card matching the suit to match or the rank of the top
  discard (``play 7H``).
- CRAZY8-EIGHT-1: an 8 is wild and names the suit to match (``play 8H S``).
- CRAZY8-DRAW-1: instead of playing (cannot or will not), draw one card
  (``draw``), then play a matching card or ``pass``; one draw per turn.
- CRAZY8-STOCK-1: an empty stock is rebuilt from the discards under the top card.
- CRAZY8-BLOCK-1: a seat that can neither play nor draw passes; when every seat
  passes in a row without drawing, the game is blocked: the lowest hand wins
  (a tie for lowest pays nobody).
- CRAZY8-END-1: the first seat to empty its hand wins.
- CRAZY8-SCORE-1: each other seat pays the winner its hand's points
  (8 = 50, J Q K = 10, A = 1, others their face value), through the ledger.
- CRAZY8-VAR-1 (house rule ``crazy8.draw-until-playable``): a seat draws (one
  ``draw`` at a time) only while it cannot play, and must play once it can; it
  passes only when it can neither play nor draw. (Drawing many cards in one
  ``draw`` fails the kit's twins check: the number of cards drawn depends on
  cards hidden from the others.)
"""

from __future__ import annotations

import json
import random
import types
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import (
    ALL,
    Action,
    Card,
    CardDiscarded,
    CardDrawn,
    CardsDealt,
    Emit,
    Event,
    GameInfo,
    GameLogic,
    GameState,
    IllegalActionError,
    Layout,
    Ledger,
    NotationError,
    OptionError,
    PaymentsMade,
    Rank,
    RuleInfo,
    Ruleset,
    ScoreTable,
    Shuffled,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    hookspec,
    standard_52,
)
from cardcore.dealing import deal_round_robin, draw_card, fill_stock
from cardcore.positions import check
from cardcore.testing import ALL_CHECKS, assert_view_structure, check_game, configurations
from cardcore.turns import end_game, next_seat
from tests.rl.helpers import only_dict_observation_warnings

GAME_NAME = "crazy8"
RULE_NAME = "crazy8.draw-until-playable"
SUITS = ("S", "H", "D", "C")

# --------------------------------------------------------------------------- hookspecs


def _spec_draw_until_playable() -> bool | None:
    """Say whether ``draw`` goes on until the card drawn can be played.

    Stops at the first non-``None`` result; the game answers ``False``.

    :returns: ``True`` to draw until playable (CRAZY8-VAR-1).

    .. versionadded:: 1.0
    """


_spec_draw_until_playable.__name__ = "crazy8_draw_until_playable"
hookspecs = types.ModuleType("crazy8_hookspecs")
hookspecs.crazy8_draw_until_playable = hookspec(firstresult=True)(_spec_draw_until_playable)  # type: ignore[attr-defined]

# --------------------------------------------------------------------------- actions


@frozen
class Play(Action):
    """Seat *seat* plays *card*; an eight names *suit* (CRAZY8-PLAY-1, CRAZY8-EIGHT-1)."""

    card: Card
    suit: str = ""
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card} {self.suit}" if self.suit else f"play {self.card}"


@frozen
class Draw(Action):
    """Seat *seat* draws from the stock (CRAZY8-DRAW-1)."""

    verb: ClassVar[str] = "draw"


@frozen
class Pass(Action):
    """Seat *seat* ends its turn after a draw, or when it can neither play nor draw."""

    verb: ClassVar[str] = "pass"


C8Action = Play | Draw | Pass

# --------------------------------------------------------------------------- events


class SuitCalled(Event):
    """Seat *seat* played an eight and named *suit* (CRAZY8-EIGHT-1)."""

    slug: ClassVar[str] = "crazy8-suit-called"
    seat: int
    suit: str


class StarterTurned(Event):
    """The starter *card* was turned up from the stock (CRAZY8-START-1)."""

    slug: ClassVar[str] = "crazy8-starter-turned"
    card: Card


# --------------------------------------------------------------------------- state

STOCK, DISCARD = 0, 1


def hand(seat: int) -> int:
    return 2 + seat


def layout(players: int) -> Layout:
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    return Layout.of([ZoneSpec("stock"), ZoneSpec("discard", None, Visibility.TOP), *hands])


class C8State(GameState):
    """Cards, the suit to match, whether the seat to act drew, passes in a row, totals."""

    __slots__ = ("drawn", "ledger", "passes", "suit", "totals")
    _mutable = ("zones", "totals", "ledger")
    suit: str
    drawn: bool
    passes: int
    totals: list[int]
    ledger: Ledger


# --------------------------------------------------------------------------- logic


class C8Logic(GameLogic[C8State, C8Action]):
    """Crazy Eights for 2 to 5 players."""

    action_types = (Play, Draw, Pass)
    position_fields = ("to_act", "suit", "drawn", "passes", "totals")

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        until = ruleset.resolve("crazy8_draw_until_playable")
        self.until = bool(
            until is not None and self.checked_answer("crazy8_draw_until_playable", until(), bool)
        )
        points = ruleset.resolve("card_points")
        assert points is not None
        self.points = ScoreTable.from_points(
            lambda c: self.checked_answer("card_points", points(card=c), int), standard_52()
        )

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 4000

    def blank_state(self, players: int, options: Mapping[str, Any]) -> C8State:
        state = C8State(players, options, Zones(layout(players)))
        state.suit, state.drawn, state.passes = "", False, 0
        state.totals, state.ledger = [0] * players, Ledger(players)
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> C8State:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, STOCK, cards)
        deal_round_robin(
            state, STOCK, [hand(s) for s in range(players)], 7 if players == 2 else 5
        )  # DEAL-1
        if emit is not None:
            emit(CardsDealt(tuple(len(state.zones.cards[hand(s)]) for s in range(players))))
        z = state.zones
        while True:  # CRAZY8-START-1
            card = z.move(STOCK, DISCARD, mask=ALL)
            if emit is not None:
                emit(StarterTurned(card))
            if card.rank is not Rank.EIGHT:
                break
            z.pop(DISCARD)
            z.insert_bottom(STOCK, card, ALL)
        state.suit = card.suit.value if card.suit else ""
        return state

    # ---- rules

    def matches(self, state: C8State, card: Card) -> bool:
        top = state.zones.cards[DISCARD][-1]
        return (
            card.rank is Rank.EIGHT
            or (card.suit is not None and card.suit.value == state.suit)
            or (top.rank is not Rank.EIGHT and card.rank == top.rank)
        )

    def can_draw(self, state: C8State) -> bool:
        return bool(state.zones.cards[STOCK]) or len(state.zones.cards[DISCARD]) > 1

    def legal_actions(self, state: C8State, seat: int) -> tuple[C8Action, ...]:
        """Plays by card notation (eights with S H D C), then ``draw``, then ``pass``."""
        if state.is_over or state.to_act != (seat,):
            return ()
        out: list[C8Action] = []
        for card in sorted(set(state.zones.cards[hand(seat)]), key=str):
            if self.matches(state, card):
                if card.rank is Rank.EIGHT:
                    out.extend(Play(seat, card, s) for s in SUITS)
                else:
                    out.append(Play(seat, card))
        if self.may_draw(state, bool(out)):
            out.append(Draw(seat))
        if self.may_pass(state, bool(out)):
            out.append(Pass(seat))
        return tuple(out)

    def may_draw(self, state: C8State, playable: bool) -> bool:
        """CRAZY8-DRAW-1: once a turn; CRAZY8-VAR-1: only while no card can be played."""
        if not self.can_draw(state):
            return False
        return not playable if self.until else not state.drawn

    def may_pass(self, state: C8State, playable: bool) -> bool:
        """CRAZY8-DRAW-1: after the draw; CRAZY8-BLOCK-1: with nothing to draw (VAR-1: nor to play)."""
        if self.until:
            return not playable and not self.can_draw(state)
        return state.drawn or not self.can_draw(state)

    def playable(self, state: C8State, seat: int) -> bool:
        return any(self.matches(state, c) for c in state.zones.cards[hand(seat)])

    def is_legal(self, state: C8State, action: C8Action) -> bool:
        seat = action.seat
        if state.is_over or state.to_act != (seat,):
            return False
        if type(action) is Draw:
            return self.may_draw(state, self.until and self.playable(state, seat))
        if type(action) is Pass:
            return self.may_pass(state, self.until and self.playable(state, seat))
        if type(action) is Play:
            card, suit = action.card, action.suit
            if type(card) is not Card or type(suit) is not str:
                return False
            if card not in state.zones.cards[hand(seat)] or not self.matches(state, card):
                return False
            return suit in SUITS if card.rank is Rank.EIGHT else suit == ""
        return False

    def rule_for(self, state: C8State, action: C8Action) -> tuple[str, str]:
        if isinstance(action, Draw):
            if state.drawn:
                return "CRAZY8-DRAW-1", f"seat {action.seat} has drawn this turn already"
            return "CRAZY8-BLOCK-1", "nothing is left to draw"
        if isinstance(action, Pass):
            return "CRAZY8-DRAW-1", "play or draw before passing"
        if action.card not in state.zones.cards[hand(action.seat)]:
            return "CRAZY8-PLAY-1", f"seat {action.seat} does not hold {action.card}"
        if action.card.rank is Rank.EIGHT:
            return "CRAZY8-EIGHT-1", "an eight names one suit of S H D C"
        if action.suit:
            return "CRAZY8-EIGHT-1", "only an eight names a suit"
        return (
            "CRAZY8-PLAY-1",
            f"{action.card} matches neither suit {state.suit} nor the top card's rank",
        )

    def parse_action(self, state: C8State, seat: int, text: str) -> C8Action:
        words = text.split()
        if not words:
            raise NotationError("expected an action, not '' (CORE-NOTATION-1)")
        verb = words[0].lower()
        if verb in ("draw", "pass") and len(words) == 1:
            return Draw(seat) if verb == "draw" else Pass(seat)
        if verb == "play" and len(words) in (2, 3):
            card = Card.parse(words[1])  # raises NotationError (CORE-NOTATION-2)
            suit = words[2].upper() if len(words) == 3 else ""
            if suit and suit not in SUITS:
                raise NotationError(f"expected a suit S H D C, not {words[2]!r} (CORE-NOTATION-1)")
            return Play(seat, card, suit)
        raise NotationError(
            f"expected 'play CARD [SUIT]', 'draw' or 'pass', not {text!r} (CORE-NOTATION-1)"
        )

    def apply(self, state: C8State, action: C8Action, emit: Emit | None) -> None:
        seat, z, players = action.seat, state.zones, state.players
        if isinstance(action, Play):
            src = hand(seat)
            z.move(src, DISCARD, z.cards[src].index(action.card), mask=ALL)
            if emit is not None:
                emit(CardDiscarded(seat, action.card))
            if action.card.rank is Rank.EIGHT:
                state.suit = action.suit  # CRAZY8-EIGHT-1
                if emit is not None:
                    emit(SuitCalled(seat, action.suit))
            else:
                assert action.card.suit is not None
                state.suit = action.card.suit.value
            state.drawn, state.passes = False, 0
            if not z.cards[src]:  # CRAZY8-END-1
                self._settle(state, seat, "went out", emit)
            else:
                state.to_act = (next_seat(seat, players),)
        elif isinstance(action, Draw):
            was_empty = not z.cards[STOCK]
            card = draw_card(state, STOCK, hand(seat), discard=DISCARD)  # CRAZY8-STOCK-1
            assert card is not None
            if emit is not None:
                if was_empty:
                    emit(Shuffled("stock", len(z.cards[STOCK]) + 1))
                emit(CardDrawn(seat, "stock", card, visible_to=1 << seat))
            state.drawn, state.passes = True, 0
        else:
            state.passes = 0 if state.drawn else state.passes + 1
            state.drawn = False
            if state.passes >= players:  # CRAZY8-BLOCK-1
                held = [sum(self.points[c] for c in z.cards[hand(s)]) for s in range(players)]
                low = [s for s in range(players) if held[s] == min(held)]
                self._settle(
                    state, low[0] if len(low) == 1 else None, "blocked", emit, winners=tuple(low)
                )
            else:
                state.to_act = (next_seat(seat, players),)

    def _settle(
        self,
        state: C8State,
        winner: int | None,
        reason: str,
        emit: Emit | None,
        winners: tuple[int, ...] = (),
    ) -> None:
        """CRAZY8-SCORE-1: the others pay the winner their hands' points."""
        players, z = state.players, state.zones
        amounts = [0] * players
        if winner is not None:
            for s in range(players):
                if s != winner:
                    owed = sum(self.points[c] for c in z.cards[hand(s)])
                    amounts[s] -= owed
                    amounts[winner] += owed
            winners = (winner,)
        made = self.score_round(state, amounts)
        state.ledger.post(made, reason)
        state.totals = list(state.ledger.totals)
        if emit is not None:
            emit(PaymentsMade(reason, tuple(made), tuple(state.totals)))
        end_game(state, winners, [float(a) for a in made], reason, payouts=state.totals)

    def default_action(self, state: C8State, seat: int) -> C8Action | None:
        """On a timeout (session.rst "Clocks"): draw, then pass; play only when nothing else is legal."""
        legal = self.legal_actions(state, seat)
        for kind in (Draw, Pass):
            for action in legal:
                if type(action) is kind:
                    return action
        return legal[0] if legal else None

    # ---- views and positions

    def table(self, state: C8State, seat: int | None) -> dict[str, Any]:
        top = state.zones.top(DISCARD)
        return {
            "stock": len(state.zones.cards[STOCK]),
            "top": None if top is None else str(top),
            "suit": state.suit,
            "drawn": state.drawn,
            "passes": state.passes,
            "totals": list(state.totals),
        }

    def scores(self, state: C8State) -> tuple[float, ...]:
        return tuple(
            -float(sum(self.points[c] for c in state.zones.cards[hand(s)]))
            for s in range(state.players)
        )

    def payouts(self, state: C8State) -> tuple[int, ...] | None:
        return tuple(state.totals)

    def read_position(self, text: str, players: int, options: Mapping[str, Any]) -> C8State:
        state = super().read_position(text, players, options)
        if any(state.totals):
            check(sum(state.totals) == 0, "totals must sum to zero, not {}", state.totals)
            state.ledger.post(list(state.totals), "position")
        return state

    def check_position(self, state: C8State) -> None:
        z = state.zones
        check(bool(z.cards[DISCARD]), "the discard pile holds the top card (CRAZY8-START-1)")
        check(state.suit in SUITS, "suit must be one of S H D C, not {!r}", state.suit)
        top = z.cards[DISCARD][-1]
        check(
            top.rank is Rank.EIGHT or (top.suit is not None and top.suit.value == state.suit),
            "suit {!r} must be the top card's unless an eight is on top",
            state.suit,
        )
        check(
            state.is_over or len(state.to_act) == 1,
            "to_act must be one seat, not {}",
            list(state.to_act),
        )
        check(
            0 <= state.passes < state.players or state.is_over,
            "passes must be below the players, not {}",
            state.passes,
        )


# --------------------------------------------------------------------------- plugin modules


def _points(card: Card) -> int:
    if card.rank is Rank.EIGHT:
        return 50
    if card.rank >= Rank.JACK:
        return 10
    return int(card.rank)


class Crazy8EagerAgent:
    """Plays a card that is not an eight if it can, else an eight naming its commonest suit,
    else draws, else passes (agents.rst: a class with choose(view, legal) and a seed keyword)."""

    games = (GAME_NAME,)

    def __init__(self, *, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: Mapping[str, Any], legal: tuple[Action, ...]) -> Action:
        seat = view["seat"]
        held = [c for c in view["zones"][2 + seat]["cards"] if c]
        suits = [c[-1] for c in held if not c.startswith("8")]
        best = max(SUITS, key=suits.count)
        plays = [a for a in legal if isinstance(a, Play)]
        for action in plays:
            if action.card.rank is not Rank.EIGHT:
                return action
        for action in plays:
            if action.suit == best:
                return action
        return legal[0] if not plays else plays[0]


def _make_game_module() -> types.ModuleType:
    module = types.ModuleType("cardcore_crazy8")
    module.GAME = GameInfo(  # type: ignore[attr-defined]
        GAME_NAME,
        "Crazy Eights: match suit or rank, eights are wild; first out collects",
        2,
        5,
        version="1.0.0",
        hookspecs=hookspecs,
        zero_sum=True,
        fields=(
            ViewField("stock", "int", "Cards left in the stock."),
            ViewField("top", "card", "The top card of the discard pile.", nullable=True),
            ViewField("suit", "str", "The suit to match (named by an eight)."),
            ViewField("drawn", "bool", "Whether the seat to act has drawn this turn."),
            ViewField("passes", "int", "Passes in a row without a draw."),
            ViewField("totals", "per-seat", "Points won (+) or paid (-).", of="int"),
        ),
    )

    @hookimpl
    def create_logic(ruleset: Ruleset) -> C8Logic:
        return C8Logic(ruleset)

    @hookimpl(trylast=True)
    def card_points(card: Card) -> int | None:
        return _points(card)

    @hookimpl(trylast=True)
    def crazy8_draw_until_playable() -> bool | None:
        return False

    module.create_logic = create_logic  # type: ignore[attr-defined]
    module.card_points = card_points  # type: ignore[attr-defined]
    module.crazy8_draw_until_playable = crazy8_draw_until_playable  # type: ignore[attr-defined]
    return module


def _make_rule_module() -> types.ModuleType:
    module = types.ModuleType("cardcore_crazy8_until")
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="CRAZY8-VAR-1",
        name=RULE_NAME,
        game=GAME_NAME,
        summary="Draw until you can play",
        version="1.0.0",
    )

    @hookimpl
    def crazy8_draw_until_playable() -> bool | None:
        return True

    module.crazy8_draw_until_playable = crazy8_draw_until_playable  # type: ignore[attr-defined]
    return module


@pytest.fixture(autouse=True, scope="module")
def registered() -> Iterator[None]:
    cardcore.register("cardcore.games", GAME_NAME, _make_game_module())
    cardcore.register("cardcore.rules", RULE_NAME, _make_rule_module())
    yield
    cardcore.unregister("cardcore.rules", RULE_NAME)
    cardcore.unregister("cardcore.games", GAME_NAME)


# --------------------------------------------------------------------------- tests


def _liar_module() -> types.ModuleType:
    """A copy of the game whose ``is_legal`` answers ``True`` for everything."""

    class Liar(C8Logic):
        def is_legal(self, state: C8State, action: C8Action) -> bool:
            return True

    module = _make_game_module()
    module.GAME = GameInfo(  # type: ignore[attr-defined]
        "crazy8liar",
        "Crazy Eights with a lying is_legal",
        2,
        5,
        hookspecs=hookspecs,
        zero_sum=True,
        fields=module.GAME.fields,
    )

    @hookimpl
    def create_logic(ruleset: Ruleset) -> C8Logic:
        return Liar(ruleset)

    module.create_logic = create_logic  # type: ignore[attr-defined]
    return module


def _variant(name: str, logic: type[C8Logic]) -> types.ModuleType:
    """A copy of the game published as *name* whose engine is *logic*."""
    module = _make_game_module()
    module.GAME = GameInfo(  # type: ignore[attr-defined]
        name,
        "A Crazy Eights variant",
        2,
        5,
        hookspecs=hookspecs,
        zero_sum=True,
        fields=module.GAME.fields,
    )

    @hookimpl
    def create_logic(ruleset: Ruleset) -> C8Logic:
        return logic(ruleset)

    module.create_logic = create_logic  # type: ignore[attr-defined]
    return module


class RaisingIsLegal(C8Logic):
    """``is_legal`` fails on every call (a plugin mistake)."""

    def is_legal(self, state: C8State, action: C8Action) -> bool:
        raise ValueError("a bug in is_legal")


class DrawUntilInOneAction(C8Logic):
    """Uno-style: one ``draw`` draws until the card drawn can be played (every draw public)."""

    def apply(self, state: C8State, action: C8Action, emit: Emit | None) -> None:
        if type(action) is not Draw:
            super().apply(state, action, emit)
            return
        while (card := draw_card(state, STOCK, hand(action.seat), discard=DISCARD)) is not None:
            if emit is not None:
                emit(CardDrawn(action.seat, "stock", card, visible_to=1 << action.seat))
            if self.matches(state, card):
                break
        state.drawn, state.passes = True, 0


def position(
    hands: list[list[str]],
    discard: list[str],
    *,
    to_act: int = 0,
    suit: str | None = None,
    stock: list[str] | None = None,
    drawn: bool = False,
    passes: int = 0,
) -> str:
    """A position: *hands* known to their owners, *discard* bottom to top (seen by all), the rest
    of the deck in the stock (or, with ``stock=[]``, under the discards)."""
    used = {c for h in hands for c in h} | set(discard) | set(stock or [])
    rest = [str(c) for c in standard_52() if str(c) not in used]
    if stock is None:
        stock = rest
    else:
        discard = rest + discard
    top = Card.parse(discard[-1])
    suit = suit or (top.suit.value if top.suit else "S")
    text = (
        f'crazy8 to_act=[{to_act}] suit="{suit}" drawn={json.dumps(drawn)} passes={passes} '
        f"totals={json.dumps([0] * len(hands), separators=(',', ':'))} | stock: {' '.join(stock)} | discard: "
        + " ".join(c + "!" for c in discard)
    )
    for s, h in enumerate(hands):
        text += f" | hand.{s}: " + " ".join(f"{c}@{s}" for c in h)
    return text


def events_of(game: cardcore.Game, seat: int | None = None) -> list[dict[str, Any]]:
    """Subscribe to every event of *game* (for *seat*, or in full); return the growing list."""
    got: list[dict[str, Any]] = []
    game.events.subscribe(Event, lambda e: got.append(e.to_json()), seat=seat)
    return got


STACK = "2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D 8D 9H"
"""Top first: seat 0 gets 2C 4C 6C 8C 3D 5D 7D, seat 1 3C 5C 7C 2D 4D 6D 8D; the starter is 9H."""


def test_smoke_random_games() -> None:
    """CRAZY8-END-1: "the first seat to empty its hand wins"; random games end."""
    for players in (2, 3, 5):
        for seed in range(3):
            game = cardcore.new_game(GAME_NAME, players, seed=seed)
            agents = [cardcore.RandomAgent(seed=seed * 10 + i) for i in range(players)]
            result = cardcore.play(game, agents)
            assert game.is_over and result.reason in ("went out", "blocked")
            assert result.payouts is not None and sum(result.payouts) == 0


@pytest.mark.parametrize("players", [2, 4, 5])
def test_conformance_kit(players: int) -> None:
    """testing.rst: "check_game plays seeded random games ... and checks what every game owes
    the core" -- "a game registered with cardcore.register is checked the same way"."""
    report = check_game(GAME_NAME, players=players, games=3, seed=players)
    assert report.ok and report.skipped == {}


def test_conformance_kit_house_rule_configurations() -> None:
    """testing.rst: "configurations chooses them from what the game and its house rules declare"."""
    configs = list(configurations(GAME_NAME))
    assert any(RULE_NAME in c.rules for c in configs)
    for config in configs:
        if config.rules:
            assert check_game(config.game, games=3, **config.kwargs()).ok


def test_crazy8_seat_1_player_range() -> None:
    """CRAZY8-SEAT-1: 2 to 5 players; GameInfo's seat range is enforced by the core."""
    with pytest.raises(cardcore.CardcoreError):
        cardcore.new_game(GAME_NAME, 6, seed=1)
    with pytest.raises(cardcore.CardcoreError):
        cardcore.new_game(GAME_NAME, 1, seed=1)


@pytest.mark.parametrize(("players", "each"), [(2, 7), (3, 5), (5, 5)])
def test_crazy8_deal_1_seven_or_five(players: int, each: int) -> None:
    """CRAZY8-DEAL-1: "7 cards each to 2 players, 5 each to 3 or more"."""
    game = cardcore.new_game(GAME_NAME, players, seed=3)
    view = game.view(0)
    assert [z["count"] for z in view["zones"][2:]] == [each] * players
    assert view["zones"][0]["count"] == 52 - each * players - 1


def test_crazy8_deal_1_stacked_deck_is_top_first() -> None:
    """testing.rst: "Stack the deck with deck= (cards top first)"; new_state gets them bottom to top."""
    game = cardcore.new_game(GAME_NAME, 2, deck=STACK, seed=1)
    assert sorted(game.view(0)["zones"][2]["cards"]) == sorted(
        ["2C", "4C", "6C", "8C", "3D", "5D", "7D"]
    )
    assert game.view(0)["table"]["top"] == "9H"


def test_crazy8_start_1_eight_starter_goes_under_the_stock() -> None:
    """CRAZY8-START-1: "an 8 turned up is put face up at the bottom of the stock"."""
    game = cardcore.new_game(GAME_NAME, 2, deck=STACK.replace("9H", "8S 9H"), seed=1)
    assert game.view(0)["table"]["top"] == "9H"
    assert game.view(1)["zones"][0]["cards"][-1] == "8S"  # bottom of the stock, known to all


def test_crazy8_play_1_must_match_and_rejection_changes_nothing() -> None:
    """CRAZY8-PLAY-1; embedding.rst: "A rejected action ... changes nothing: not the state,
    not the version, not the events, not the record. Its message ends with the ID"."""
    game = cardcore.new_game(GAME_NAME, 2, deck=STACK, seed=1)
    got = events_of(game)
    before = game.position()
    with pytest.raises(IllegalActionError, match=r"\(CRAZY8-PLAY-1\)$"):
        game.act(0, "play 2C")
    with pytest.raises(IllegalActionError, match="CRAZY8-PLAY-1"):
        game.act(0, "play 9S")  # not held
    with pytest.raises(IllegalActionError, match="CORE-TURN-1"):
        game.act(1, "draw")
    with pytest.raises(NotationError):
        game.act(0, "play 8C X")
    with pytest.raises(NotationError, match="CORE-NOTATION-2"):
        game.act(0, "play 1Z")
    assert game.position() == before and game.version == 0 and got == []


def test_crazy8_eight_1_names_the_suit() -> None:
    """CRAZY8-EIGHT-1: "an 8 is wild and names the suit to match (play 8H S)"; cards and verbs
    are read in any case (game.rst)."""
    game = cardcore.new_game(GAME_NAME, 2, deck=STACK, seed=1)
    seen = events_of(game, seat=1)
    assert game.act(0, "PLAY 8c s") == Play(0, Card.parse("8C"), "S")
    assert game.view(1)["table"]["suit"] == "S" and game.view(1)["table"]["top"] == "8C"
    assert {"event": "crazy8-suit-called", "seat": 0, "suit": "S"} in seen
    with pytest.raises(IllegalActionError, match="CRAZY8-PLAY-1"):
        game.act(1, "play 4D")  # a diamond no longer matches
    with pytest.raises(IllegalActionError, match="CRAZY8-EIGHT-1"):
        game.act(1, "play 8D")  # an eight must name a suit


def test_crazy8_draw_1_one_draw_then_play_or_pass() -> None:
    """CRAZY8-DRAW-1: "draw one card (draw), then play a matching card or pass; one draw per turn";
    the drawn card is shown to the drawer only (CardDrawn ... a draw from a hidden stock passes 1 << seat)."""
    game = cardcore.new_game(GAME_NAME, 2, deck=STACK, seed=1)
    mine, theirs = events_of(game, seat=0), events_of(game, seat=1)
    game.act(0, "draw")
    drawn = mine[-1]["card"]
    assert drawn in game.view(0)["zones"][2]["cards"] and theirs[-1]["card"] is None
    assert game.view(1)["zones"][2]["cards"].count(None) == 8
    assert game.legal_actions(0)[-1] == Pass(0) and Draw(0) not in game.legal_actions(0)
    with pytest.raises(IllegalActionError, match="CRAZY8-DRAW-1"):
        game.act(0, "draw")
    game.act(0, "pass")
    assert game.to_act == (1,)
    with pytest.raises(IllegalActionError, match="CRAZY8-DRAW-1"):
        game.act(1, "pass")


def test_crazy8_stock_1_rebuilt_under_the_top_card() -> None:
    """CRAZY8-STOCK-1; dealing.draw_card: "rebuild the stock from *discard* first if empty ...
    shuffles every discard but the top one, which stays face up where it was"."""
    game = cardcore.new_game(
        GAME_NAME, 2, position=position([["2C"], ["3C"]], ["9H"], stock=[]), seed=4
    )
    got = events_of(game)
    game.act(0, "draw")
    view = game.view(1)
    assert view["zones"][1]["cards"] == ["9H"] and view["table"]["stock"] == 48
    assert set(view["zones"][0]["cards"]) == {None}  # nobody knows the rebuilt stock's order
    assert [e["event"] for e in got] == ["action-applied", "shuffled", "card-drawn"]


def test_crazy8_block_1_lowest_hand_wins_a_blocked_game() -> None:
    """CRAZY8-BLOCK-1: "a seat that can neither play nor draw passes; when every seat passes in
    a row ... the lowest hand wins"."""
    hands = [
        [
            "KC",
            "QC",
            *[
                "2S",
                "3S",
                "4S",
                "5S",
                "6S",
                "7S",
                "8S",
                "9S",
                "10S",
                "JS",
                "QS",
                "KS",
                "AS",
                "2D",
                "3D",
                "4D",
                "5D",
                "6D",
                "7D",
                "8D",
                "9D",
                "10D",
            ],
        ],
        [
            "2C",
            *["JD", "QD", "KD", "AD", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "AC"],
            *["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "10H", "JH", "QH", "KH"],
        ],
    ]
    game = cardcore.new_game(GAME_NAME, 2, position=position(hands, ["9H"], stock=[]), seed=1)
    assert Draw(0) not in game.legal_actions(0) and Pass(0) in game.legal_actions(0)
    game.act(0, "pass")
    game.act(1, "pass")
    result = game.result
    assert result is not None and result.reason == "blocked"
    held = [sum(_points(Card.parse(c)) for c in h) for h in hands]
    winner = held.index(min(held))
    assert result.winners == (winner,) and result.payouts is not None
    assert result.payouts[winner] == held[1 - winner] and sum(result.payouts) == 0


def test_crazy8_end_1_and_score_1_the_others_pay_through_the_ledger() -> None:
    """CRAZY8-END-1 and CRAZY8-SCORE-1 (8 = 50, face = 10, ace = 1); game.rst "Stakes": post the
    amounts with Ledger.post, emit PaymentsMade, end_game(..., payouts=totals)."""
    hands = [["9S"], ["8D", "KC", "AH", "5S"], ["QD", "2C"]]
    game = cardcore.new_game(GAME_NAME, 3, position=position(hands, ["9H"]), seed=1)
    got = events_of(game, seat=2)
    game.act(0, "play 9S")
    assert game.result == cardcore.Result((0,), (78.0, -66.0, -12.0), (78, -66, -12), "went out")
    assert {
        "event": "payments-made",
        "reason": "went out",
        "amounts": [78, -66, -12],
        "totals": [78, -66, -12],
    } in got
    assert got[-1]["event"] == "game-ended"
    assert game.view(2)["zones"][3]["cards"].count(None) == 0  # end_game reveals every hand


def test_crazy8_score_1_card_points_hook_and_score_round_rule() -> None:
    """hooks.rst: card_points "a game that scores cards implements this with trylast=True";
    house-rule.rst: a score_round rule "works in every game ... with no help from the game's code"."""
    double = types.ModuleType("crazy8_double")
    double.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="CRAZY8-DOUBLE-1", name="crazy8.double", game=GAME_NAME, summary="Pay double"
    )

    @hookimpl
    def score_round(scores: list[int]) -> list[int]:
        return [2 * s for s in scores]

    double.score_round = score_round  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "crazy8.double", double)
    try:
        hands = [["9S"], ["8D"]]
        game = cardcore.new_game(
            GAME_NAME, 2, rules=["crazy8.double"], position=position(hands, ["9H"]), seed=1
        )
        game.act(0, "play 9S")
        assert game.result is not None and game.result.payouts == (100, -100)
    finally:
        cardcore.unregister("cardcore.rules", "crazy8.double")


def test_crazy8_var_1_draw_until_playable_house_rule() -> None:
    """CRAZY8-VAR-1 (a game hookspec, hookspecs.rst "Implementing them": the game answers with
    trylast=True, a house rule overrides it): draw only while you cannot play, then play."""
    hands = [["2C", "KC"], ["3C"]]
    stock = ["QS", "4H", "5S"]  # top first: 5S is drawn first
    text = position(hands, ["9H"], stock=list(reversed(stock)))
    text = text.replace("stock: ", "stock: ", 1)
    game = cardcore.new_game(GAME_NAME, 2, rules=[RULE_NAME], position=text, seed=1)
    assert [str(a) for a in game.legal_actions(0)] == ["draw"]
    game.act(0, "draw")
    assert [str(a) for a in game.legal_actions(0)] == ["draw"]  # 5S does not match 9H
    game.act(0, "draw")
    assert [str(a) for a in game.legal_actions(0)] == ["play 4H"]  # no pass once playable
    plain = cardcore.new_game(GAME_NAME, 2, position=text, seed=1)
    plain.act(0, "draw")
    assert [str(a) for a in plain.legal_actions(0)] == ["pass"]


def test_views_hide_other_hands_and_match_the_schema() -> None:
    """game.rst "Views": every pile in zones as the seat may see it (hidden cards as None);
    view_schema declares the fields; assert_view_structure checks a view against it."""
    game = cardcore.new_game(GAME_NAME, 3, seed=9)
    for seat in (0, 1, 2, None):
        view = game.view(seat)
        assert_view_structure(game, seat)
        for s in range(3):
            cards = view["zones"][2 + s]["cards"]
            assert (None not in cards) if seat == s else set(cards) == {None}
    assert [f["name"] for f in game.view_schema()["fields"]] == [
        "stock",
        "top",
        "suit",
        "drawn",
        "passes",
        "totals",
    ]


def _played(seed: int, players: int = 3, steps: int = 30) -> cardcore.Game:
    game = cardcore.new_game(GAME_NAME, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    return game


def test_save_load_record_replay_clone_position() -> None:
    """embedding.rst / api.rst: save -> load, record -> replay rebuild the game; clone is
    independent; a position starts the same table again."""
    game = _played(11)
    loaded = cardcore.load(json.loads(json.dumps(game.save())))
    assert loaded.position() == game.position() and loaded.view(1) == game.view(1)
    replayed = cardcore.replay(json.loads(json.dumps(game.record())))
    assert replayed.position() == game.position()
    clone = game.clone()
    clone.apply(clone.legal_actions(clone.to_act[0])[-1])
    assert clone.version == game.version + 1 and game.position() == loaded.position()
    again = cardcore.new_game(GAME_NAME, 3, position=game.position(), seed=2)
    assert again.position() == game.position()
    assert all(again.view(s)["legal"] == game.view(s)["legal"] for s in range(3))
    result = cardcore.play(game, [cardcore.RandomAgent(seed=i) for i in range(3)])
    assert cardcore.replay(game.record()).result == result
    over = cardcore.new_game(GAME_NAME, 3, position=game.position(), seed=3)
    assert over.is_over and over.result == result


def test_determinize_keeps_the_seats_view() -> None:
    """api.rst Game.determinize: "a clone whose cards hidden from *seat* are re-dealt at random"."""
    game = _played(12)
    for seat in range(3):
        twin = game.determinize(seat, 5)
        assert twin.view(seat) == game.view(seat)
        assert twin.position() != game.position()


def test_simulate_compare_and_cli_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    """embedding.rst "Simulating many games"; cli.rst: "a third-party game ... appears as soon as
    its distribution is installed" -- in process, cli.main sees a registered game too."""
    summary = cardcore.simulate(GAME_NAME, games=4, players=3, seed=1)
    assert summary.games == 4 and sum(summary.wins) == 4 and summary.truncated == 0
    assert summary == cardcore.simulate(GAME_NAME, games=4, players=3, seed=1)
    comparison = cardcore.compare(GAME_NAME, rules=[RULE_NAME], games=4, players=2, seed=1)
    assert comparison.same_deals
    from cardcore import cli

    assert cli.main(["simulate", GAME_NAME, "--games", "2", "-p", "2"]) == 0
    assert "crazy8" in capsys.readouterr().out


def test_is_legal_fast_path_is_asked() -> None:
    """GameLogic.is_legal: "*Optional* fast path for apply and replay"; a hand-built action with
    a wrong field type is refused (the game's check "should refuse fields of another type")."""
    game = cardcore.new_game(GAME_NAME, 2, deck=STACK, seed=1)
    with pytest.raises(IllegalActionError):
        game.apply(Play(0, Card.parse("8C"), 1))  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        game.apply(Play(0, Card.parse("8C"), "X"))
    game.apply(Play(0, Card.parse("8C"), "D"))
    assert game.view(1)["table"]["suit"] == "D"


def test_kit_catches_an_is_legal_that_disagrees_with_legal_actions() -> None:
    """GameLogic.is_legal: "its answer must equal the default's for every state and action";
    testing.rst: the kit checks that "illegal ... inputs raise the documented errors and change
    nothing". A game whose is_legal says yes to everything applies illegal plays."""
    cardcore.register("cardcore.games", "crazy8liar", _liar_module())
    try:
        game = cardcore.new_game("crazy8liar", 2, deck=STACK, seed=1)
        game.act(0, "play 2C")  # 2C does not match 9H: applied all the same
        assert game.view(1)["table"]["top"] == "2C"
        report = check_game("crazy8liar", players=2, games=3, strict=False)
        assert not report.ok
    finally:
        cardcore.unregister("cardcore.games", "crazy8liar")


def test_kit_names_an_is_legal_that_raises() -> None:
    """testing.rst: "A plugin mistake never crashes the kit: each one becomes a failure saying what
    the plugin did"; game.rst: "A mistake in a game's code becomes a PluginError naming the game"."""
    cardcore.register("cardcore.games", "crazy8boom", _variant("crazy8boom", RaisingIsLegal))
    try:
        game = cardcore.new_game("crazy8boom", 2, deck=STACK, seed=1)
        game.act(0, "draw")  # applied: the failure of is_legal is swallowed
        report = check_game("crazy8boom", players=2, games=2, strict=False)
        assert not report.ok
    finally:
        cardcore.unregister("cardcore.games", "crazy8boom")


def test_kit_twins_flag_a_public_draw_count_that_depends_on_the_stock() -> None:
    """testing-kit.rst "Twins": the kit applies the next actions to the game and a determinized twin
    and compares P's events "until P learns a new card". Uno-style draw-until-playable in one
    action shows everyone how many cards were drawn, a count the hidden stock decides: the kit
    calls it a leak (only the twins check), so a game with such a rule must leave "twins" out."""
    cardcore.register("cardcore.games", "crazy8uno", _variant("crazy8uno", DrawUntilInOneAction))
    try:
        twins = check_game("crazy8uno", players=2, games=3, strict=False, checks={"twins"})
        assert not twins.ok and "depend on cards hidden" in twins.failures[0]
        rest = check_game("crazy8uno", players=2, games=2, checks=ALL_CHECKS - {"twins"})
        assert rest.ok
    finally:
        cardcore.unregister("cardcore.games", "crazy8uno")


def test_house_rule_answer_of_the_wrong_kind_is_refused_by_name() -> None:
    """GameLogic.checked_answer: "a rule answering 2.5, "3" or "no" is refused by name instead of
    being coerced"; house-rule.rst: RuleInfo and game hookspecs."""
    bad = types.ModuleType("crazy8_bad")
    bad.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="CRAZY8-BAD-1", name="crazy8.bad", game=GAME_NAME, summary="Answers 'yes'"
    )

    @hookimpl
    def crazy8_draw_until_playable() -> Any:
        return "yes"

    bad.crazy8_draw_until_playable = crazy8_draw_until_playable  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "crazy8.bad", bad)
    try:
        with pytest.raises(cardcore.PluginError, match=r"crazy8\.bad"):
            cardcore.new_game(GAME_NAME, 2, rules=["crazy8.bad"], seed=1)
    finally:
        cardcore.unregister("cardcore.rules", "crazy8.bad")
    assert cardcore.rule_info(RULE_NAME).id == "CRAZY8-VAR-1"
    assert RULE_NAME in cardcore.available_rules(GAME_NAME)


def test_custom_parse_action_leaves_resign_and_end_to_the_core() -> None:
    """notation.rst: "end (EndMatch) from the host"; Resign: "Notation: resign"; game.rst "Stakes":
    "payouts answers the ledger's totals, so a resignation or the host's end reports them"."""
    game = cardcore.new_game(GAME_NAME, 2, seed=1)
    game.act(0, "resign")
    assert game.result is not None and game.result.winners == (1,) and game.result.payouts == (0, 0)
    game = cardcore.new_game(GAME_NAME, 3, seed=1)
    game.apply(cardcore.EndMatch(cardcore.HOST))
    assert (
        game.result is not None
        and game.result.reason == "ended"
        and game.result.winners == (0, 1, 2)
    )


def test_events_from_the_first_card_with_subscribers() -> None:
    """events.rst: "pass them to new_game(..., subscribers=[...]) to receive every event from the
    first card"; a game's own event (slug prefixed with the game's name) is delivered too."""
    got: list[dict[str, Any]] = []
    cardcore.new_game(
        GAME_NAME,
        2,
        deck=STACK,
        seed=1,
        subscribers=[(Event, lambda e: got.append(e.to_json()), 1)],
    )
    assert [e["event"] for e in got] == ["game-started", "cards-dealt", "crazy8-starter-turned"]
    assert got[-1]["card"] == "9H"


def test_plugin_guide_lists_the_optional_methods_the_core_calls() -> None:
    """GameLogic.is_legal: "*Optional* fast path for apply and replay"; session.rst: "the game's
    default_action (a GameLogic method any game can implement)"; rl.rst: "the max_legal the game
    declares on its logic" -- the plugin guide's table "What the core calls" lists none of them."""
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "plugin-guide" / "game.rst").read_text()
    text = " ".join(text.split())
    start = text.index("What the core calls:")
    table = text[start : text.index("================ ", text.index("resign", start))]
    assert all(name in table for name in ("is_legal", "default_action", "max_legal"))


def test_positions_refuse_what_the_rules_forbid() -> None:
    """game.rst "Positions": each field "checked against the blank value: the same JSON type, a
    per-seat list as long"; check_position raises OptionError; game.rst "Stakes": rebuild the
    ledger from the totals "in a read_position that calls the default first"."""
    base = position([["2C"], ["3C"]], ["9H"])
    for old, new in [
        ("drawn=false", "drawn=0"),
        ("passes=0", "passes=0.0"),
        ('suit="H"', 'suit="S"'),
        ("totals=[0,0]", "totals=[5,-4]"),
        ("totals=[0,0]", "totals=[0,0,0]"),
        ("to_act=[0]", "to_act=[0,1]"),
    ]:
        with pytest.raises(OptionError):
            cardcore.new_game(GAME_NAME, 2, position=base.replace(old, new), seed=1)
    game = cardcore.new_game(
        GAME_NAME, 2, position=base.replace("totals=[0,0]", "totals=[5,-5]"), seed=1
    )
    game.act(0, "draw")
    game.act(0, "pass")
    game.act(1, "draw")
    game.act(1, "pass")
    hands = [[c for c in game.view(s)["zones"][2 + s]["cards"]] for s in range(2)]
    assert all(len(h) == 2 for h in hands)
    game.apply(cardcore.EndMatch(cardcore.HOST))
    assert game.result is not None and game.result.payouts == (5, -5)


def test_session_sends_each_seat_only_its_own_draw() -> None:
    """session.rst: "Every seat has its own numbered stream ... and holds only what that seat
    may see" -- for a registered third-party game as for the built-in ones."""
    from cardcore.session import Session

    session = Session.create(GAME_NAME, ["Ann", "Bob"], now=0.0, seed=7)
    session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("bob", '{"type": "join", "seat": 1}', now=2.0)
    assert session.phase == "playing"
    out = session.handle("ann", '{"type": "act", "action": "draw", "seen": 0}', now=3.0)
    cards = {o.conn: o.message["events"][0]["card"] for o in out if o.message["type"] == "update"}
    assert cards["bob"] is None and cards["ann"] is not None


def test_cli_play_and_replay_in_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    """cli.rst: "Moves are read from standard input, one per line"; "Anything else is answered with
    the library's error, and nothing changes"; ``cardcore replay`` rebuilds the game from the record.
    (A ``cardcore`` subprocess cannot see a game made known with cardcore.register: the docs give
    no way but installing it, so the command runs in process through cli.main.)"""
    import io

    from cardcore import cli

    monkeypatch.setattr("sys.stdin", io.StringIO("draw\npass\nplay ZZ\nquit\n"))
    assert cli.main(["play", GAME_NAME, "--seed", "1", "--no-record"]) == 0
    out = capsys.readouterr().out
    assert "you: draw" in out and "you: pass" in out and "CORE-NOTATION-2" in out
    game = cardcore.new_game(GAME_NAME, 2, seed=3)
    cardcore.play(game, [cardcore.RandomAgent(seed=1), cardcore.RandomAgent(seed=2)])
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(game.record()))
    assert cli.main(["replay", str(path), "--final"]) == 0
    assert "game over" in capsys.readouterr().out


def test_rl_generic_encoding_for_a_third_party_game() -> None:
    """rl.rst "Games without an encoding": "A third-party game gets an environment with no extra
    code"; "two states a seat cannot tell apart give it identical observations and masks"."""
    pytest.importorskip("pettingzoo")
    import numpy as np
    from pettingzoo.test import api_test  # type: ignore[import-untyped]

    from cardcore.rl import aec_env, observe

    env = aec_env(GAME_NAME, 3)
    env.reset(seed=7)
    obs: Any = env.last()[0]
    match: Any = env.match
    assert obs["action_mask"].sum() == len(match.game.legal_actions(0))
    # rl.rst: "the only warnings are the two PettingZoo gives any dict observation"
    with only_dict_observation_warnings():
        api_test(aec_env(GAME_NAME, 2), num_cycles=50)
    game = _played(4, steps=25)
    for seat in range(3):
        a, b = observe(game, seat), observe(game.determinize(seat, 1), seat)
        assert np.array_equal(a["observation"], b["observation"]) and np.array_equal(
            a["action_mask"], b["action_mask"]
        )


def test_search_agent_plays_from_the_default_position_notation() -> None:
    """testing.rst: "Play a few games with one [a search agent] as well"; game.rst: without
    position_from_view the search writes the default notation from the view's table fields."""
    agent_class = cardcore.load_agent("ismcts")
    game = cardcore.new_game(GAME_NAME, 3, seed=2)
    for _ in range(12):
        seat = game.to_act[0]
        game.apply(
            agent_class(seed=1, iterations=20).choose(game.view(seat), game.legal_actions(seat))
        )
    assert game.version == 12


def test_records_check_the_major_version_of_a_registered_game() -> None:
    """entry-points.rst: "loading a record or saved game made with another major version raises
    CorruptStateError" -- a minor bump still loads."""
    game = _played(5, steps=6)
    record, saved = json.loads(json.dumps(game.record())), json.loads(json.dumps(game.save()))
    made = 0
    try:
        for version, ok in [("1.4.0", True), ("2.0.0", False)]:
            module = _make_game_module()
            module.GAME = GameInfo(  # type: ignore[attr-defined]
                GAME_NAME,
                module.GAME.summary,
                2,
                5,
                version=version,
                hookspecs=hookspecs,
                zero_sum=True,
                fields=module.GAME.fields,
            )
            cardcore.register("cardcore.games", GAME_NAME, module)
            made += 1
            for read, data in [(cardcore.replay, record), (cardcore.load, saved)]:
                if ok:
                    assert read(data).position() == game.position()
                else:
                    with pytest.raises(cardcore.CorruptStateError, match="major versions differ"):
                        read(data)
    finally:  # the module's own registration comes back
        for _ in range(made):
            cardcore.unregister("cardcore.games", GAME_NAME)


def test_session_timeout_plays_the_default_action() -> None:
    """session.rst "Clocks": "On a timeout the session plays the game's default_action ... again
    and again while the seat stays to act in a turn-based game"."""
    from cardcore.session import Session, SessionConfig, TimeControl

    config = SessionConfig(time=TimeControl(turn=10.0))
    session = Session.create(GAME_NAME, ["Ann", "Bob"], now=0.0, seed=7, deck=STACK, config=config)
    session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("bob", '{"type": "join", "seat": 1}', now=2.0)
    deadline = session.next_deadline()
    assert deadline is not None
    out = session.tick(deadline)
    texts = [
        o.message["action"]["text"]
        for o in out
        if o.conn == "bob" and o.message["type"] == "update"
    ]
    causes = {o.message["action"]["cause"] for o in out if o.message["type"] == "update"}
    assert texts == ["draw", "pass"] and causes == {"timeout"}


def test_a_registered_agent_declares_its_game() -> None:
    """agents.rst: "An agent written for one game declares it: a class attribute games names the
    games it plays"; cardcore.register("cardcore.agents", ...) publishes one for this process."""
    cardcore.register("cardcore.agents", "crazy8-eager", Crazy8EagerAgent)
    try:
        summary = cardcore.simulate(
            GAME_NAME, games=6, players=2, agents=["crazy8-eager", "random"], seed=3
        )
        assert summary.games == 6 and summary.agents == ("crazy8-eager", "random")
        with pytest.raises(cardcore.CardcoreError, match="crazy8"):
            cardcore.simulate("golf", games=1, players=2, agents=["crazy8-eager", "random"])
        with pytest.raises(cardcore.CardcoreError, match="golf"):
            cardcore.simulate(GAME_NAME, games=1, players=2, agents=["golf-greedy", "random"])
    finally:
        cardcore.unregister("cardcore.agents", "crazy8-eager")


def test_zero_sum_score_round_rule_is_refused_and_the_apply_undone() -> None:
    """hooks.rst: in a zero_sum game "a rule that keeps a cut for the house breaks it, and the core
    refuses its answer"; game.rst: "a failing apply leaves the game as it was" -- even though the
    play had moved its card before score_round was asked."""
    cut = types.ModuleType("crazy8_cut")
    cut.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="CRAZY8-CUT-1", name="crazy8.cut", game=GAME_NAME, summary="A cut for the house"
    )

    @hookimpl
    def score_round(scores: list[int]) -> list[int]:
        return [s - 1 for s in scores]

    cut.score_round = score_round  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "crazy8.cut", cut)
    try:
        game = cardcore.new_game(
            GAME_NAME, 2, rules=["crazy8.cut"], position=position([["9S"], ["8D"]], ["9H"]), seed=1
        )
        got = events_of(game)
        before = game.position()
        with pytest.raises(cardcore.PluginError, match=r"crazy8\.cut.*zero sum"):
            game.act(0, "play 9S")
        assert (
            game.position() == before
            and game.version == 0
            and got == []
            and not game.record_entries()
        )
    finally:
        cardcore.unregister("cardcore.rules", "crazy8.cut")
