"""Crazy Eights, written as a third party from the docs alone, then played through the public API.

The game lives in this module and is registered with :func:`cardcore.register`, as
docs/plugin-guide/testing.rst says a test may ("a game registered with cardcore.register is
checked the same way"). It uses the core's turn flow, zones with visibility (a face-down stock,
a ``TOP`` discard pile, hands shown to their owners), the dealing and turn building blocks, core
and own events, a scored end through ``GameLogic.score_round``, the default position notation,
and two house rules: a veto (no going out on an eight) and a ``score_round`` wrapper whose
``RuleInfo.applies`` names values of the game's bounded ``hand_size`` option.

The xfail tests are the places where the docs promise something the engine or the kit does not
do (see each reason).
"""

from __future__ import annotations

import json
import types
from collections.abc import Iterator, Mapping
from functools import cache
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
    NotationError,
    Option,
    OptionError,
    PluginError,
    Rank,
    RuleInfo,
    Ruleset,
    ScoreTable,
    Shuffled,
    TurnPassed,
    Veto,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    standard_52,
)
from cardcore.dealing import deal_round_robin, draw_card, fill_stock
from cardcore.positions import check
from cardcore.testing import check_game, configurations
from cardcore.turns import end_game, next_seat, winners_by

NAME = "crazyeights-docs"
SUITS = "SHDC"
STOCK, DISCARD = 0, 1


def hand(seat: int) -> int:
    """The zone id of *seat*'s hand."""
    return 2 + seat


# --- actions -------------------------------------------------------------------------------


@frozen
class Play(Action):
    """``play 7H``, or ``play 8H S`` for an eight naming the suit to follow."""

    card: Card
    suit: str = ""
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card} {self.suit}" if self.suit else f"play {self.card}"


@frozen
class Draw(Action):
    verb: ClassVar[str] = "draw"


@frozen
class Pass(Action):
    verb: ClassVar[str] = "pass"


C8Action = Play | Draw | Pass


# --- events --------------------------------------------------------------------------------


class SuitNamed(Event):
    """Seat *seat* played an eight and named *suit*."""

    slug: ClassVar[str] = "crazyeights-suit-named"
    seat: int
    suit: str


class StarterTurned(Event):
    """The starter *card* was turned up from the stock onto the discard pile."""

    slug: ClassVar[str] = "crazyeights-starter-turned"
    card: Card


# --- state ---------------------------------------------------------------------------------


@cache
def layout(players: int) -> Layout:
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    return Layout.of([ZoneSpec("stock"), ZoneSpec("discard", None, Visibility.TOP), *hands])


class C8State(GameState):
    __slots__ = ("drawn", "passes", "suit")
    _mutable = ("zones",)
    suit: str
    drawn: bool
    passes: int


def can_draw(state: C8State) -> bool:
    cards = state.zones.cards
    return bool(cards[STOCK]) or len(cards[DISCARD]) > 1


# --- logic ---------------------------------------------------------------------------------


class C8Logic(GameLogic[C8State, C8Action]):
    """Crazy Eights for 2 to 5 players, one hand: first out wins, the rest score what they hold."""

    action_types = (Play, Draw, Pass)
    position_fields = ("to_act", "suit", "drawn", "passes")

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        points = ruleset.resolve("card_points")
        self.points = ScoreTable.from_points(
            lambda card: self.checked_answer("card_points", points(card=card), int),
            standard_52(),
        )

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 3000

    def blank_state(self, players: int, options: Mapping[str, Any]) -> C8State:
        state = C8State(players, options, Zones(layout(players)))
        state.suit, state.drawn, state.passes = "S", False, 0
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
        size = options["hand_size"]
        deal_round_robin(state, STOCK, [hand(s) for s in range(players)], size)
        starter = state.zones.move(STOCK, DISCARD, mask=ALL)
        assert starter.suit is not None
        state.suit = starter.suit.letter
        if emit is not None:
            emit(CardsDealt(tuple(size for _ in range(players))))
            emit(StarterTurned(starter))
        return state

    def legal_actions(self, state: C8State, seat: int) -> tuple[C8Action, ...]:
        """Plays by rank then suit (an eight once per suit), then ``draw``, then ``pass``."""
        if seat not in state.to_act:
            return ()
        cards = state.zones.cards
        top = cards[DISCARD][-1]
        out: list[C8Action] = []
        for card in sorted(cards[hand(seat)], key=lambda c: (c.rank, str(c))):
            if card.rank is Rank.EIGHT:
                out.extend(Play(seat, card, s) for s in SUITS)
            elif (
                card.suit is not None and card.suit.letter == state.suit
            ) or card.rank == top.rank:
                out.append(Play(seat, card))
        drawable = can_draw(state)
        if not state.drawn and drawable:
            out.append(Draw(seat))
        if state.drawn or not drawable:
            out.append(Pass(seat))
        return tuple(out)

    def parse_action(self, state: C8State, seat: int, text: str) -> C8Action:
        """Actions of one verb vary in length, so the game reads them (plugin-guide/game.rst)."""
        words = text.split()
        expected = "'play CARD [SUIT]', 'draw' or 'pass'"
        if not words:
            raise self.parse_error(text, expected)
        verb = words[0].lower()
        if verb == "draw" and len(words) == 1:
            return Draw(seat)
        if verb == "pass" and len(words) == 1:
            return Pass(seat)
        if verb == "play" and len(words) in (2, 3):
            card = Card.parse(words[1])
            suit = words[2].upper() if len(words) == 3 else ""
            if len(words) == 3 and suit not in tuple(SUITS):
                raise self.parse_error(text, "a suit S, H, D or C")
            return Play(seat, card, suit)
        raise self.parse_error(text, expected)

    def rule_for(self, state: C8State, action: C8Action) -> tuple[str, str]:
        if isinstance(action, Play):
            if action.card not in state.zones.cards[hand(action.seat)]:
                return "C8-PLAY-2", f"seat {action.seat} holds no {action.card}"
            if action.card.rank is Rank.EIGHT or action.suit:
                return "C8-EIGHT-1", "an eight, and only an eight, names a suit"
            return "C8-PLAY-1", f"{action.card} matches neither suit {state.suit} nor the top card"
        if isinstance(action, Draw):
            return "C8-DRAW-1", "one draw per turn, and only while there is a card to draw"
        return "C8-PASS-1", "a seat passes only after drawing, or when nothing can be drawn"

    def apply(self, state: C8State, action: C8Action, emit: Emit | None) -> None:
        seat, zones = action.seat, state.zones
        if isinstance(action, Play):
            i = zones.cards[hand(seat)].index(action.card)
            zones.move(hand(seat), DISCARD, i, mask=ALL)
            assert action.card.suit is not None
            state.suit = action.suit or action.card.suit.letter
            state.drawn, state.passes = False, 0
            if emit is not None:
                emit(CardDiscarded(seat, action.card))
                if action.suit:
                    emit(SuitNamed(seat, action.suit))
            if not zones.cards[hand(seat)]:
                self._finish(state, "out")
                return
        elif isinstance(action, Draw):
            rebuilt = not zones.cards[STOCK]
            card = draw_card(state, STOCK, hand(seat), discard=DISCARD)
            state.drawn = True
            if emit is not None:
                if rebuilt:
                    emit(Shuffled("stock", len(zones.cards[STOCK]) + 1))
                emit(CardDrawn(seat, "stock", card, visible_to=1 << seat))
            return
        else:
            state.drawn = False
            state.passes += 1
            if state.passes >= state.players and not can_draw(state):
                self._finish(state, "blocked")
                return
        nxt = next_seat(seat, state.players)
        state.to_act = (nxt,)
        if emit is not None:
            emit(TurnPassed(nxt))

    def _finish(self, state: C8State, reason: str) -> None:
        held = [self.points.total(state.zones.cards[hand(s)]) for s in range(state.players)]
        made = self.score_round(state, held)
        end_game(state, winners_by(made), made, reason)

    def scores(self, state: C8State) -> tuple[float, ...]:
        cards = state.zones.cards
        return tuple(float(self.points.total(cards[hand(s)])) for s in range(state.players))

    def table(self, state: C8State, seat: int | None) -> dict[str, Any]:
        cards = state.zones.cards
        return {
            "stock": len(cards[STOCK]),
            "suit": state.suit,
            "top": str(cards[DISCARD][-1]) if cards[DISCARD] else None,
            "hands": [len(cards[hand(s)]) for s in range(state.players)],
            "drawn": state.drawn,
        }

    def check_position(self, state: C8State) -> None:
        check(state.suit in tuple(SUITS), "suit must be one of S H D C, not {!r}", state.suit)
        check(bool(state.zones.cards[DISCARD]), "the discard pile must hold a card")
        check(state.passes >= 0, "passes must be at least 0, not {}", state.passes)


GAME = GameInfo(
    NAME,
    "Crazy Eights: match the suit or the rank; eights are wild and name the suit",
    2,
    5,
    options=(Option("hand_size", 5, "Cards dealt to each player.", minimum=3, maximum=8),),
    fields=(
        ViewField("stock", "int", "Cards left in the stock."),
        ViewField("suit", "str", "The suit to follow."),
        ViewField("top", "card", "The top discard."),
        ViewField("hands", "per-seat", "Cards in each hand.", of="int"),
        ViewField("drawn", "bool", "The seat to act has drawn this turn."),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> GameLogic[Any, Any]:
    return C8Logic(ruleset)


@hookimpl(trylast=True)
def card_points(card: Card) -> int:
    return 50 if card.rank is Rank.EIGHT else min(int(card.rank), 10)


def game_module(name: str, logic: type[C8Logic]) -> types.ModuleType:
    """A game plugin module named *name* whose engine is *logic* (variants reuse the game)."""
    module = types.ModuleType(name.replace("-", "_"))

    @hookimpl
    def create_logic(ruleset: Ruleset) -> GameLogic[Any, Any]:
        return logic(ruleset)

    module.GAME = GameInfo(name, GAME.summary, 2, 5, options=GAME.options, fields=GAME.fields)
    module.create_logic = create_logic
    module.card_points = card_points
    return module


# --- house rules ---------------------------------------------------------------------------

NO_EIGHT_OUT = RuleInfo(
    id="C8-HOUSE-1", name=f"{NAME}.no-eight-out", game=NAME, summary="Nobody goes out on an eight"
)


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    if (
        isinstance(action, Play)
        and action.card.rank is Rank.EIGHT
        and len(state.zones.cards[hand(action.seat)]) == 1
    ):
        return Veto("C8-HOUSE-1", "nobody goes out on an eight")
    return None


DOUBLE = RuleInfo(
    id="C8-HOUSE-2",
    name=f"{NAME}.double-short",
    game=NAME,
    summary="Short hands (3 or 4 cards) score double",
    applies={"hand_size": (3, 4)},
)


@hookimpl(wrapper=True)
def score_round(scores: list[int]) -> Iterator[None]:  # type: ignore[misc]
    inner = yield
    return [2 * s for s in inner]  # type: ignore[union-attr]


def rule_module(rule: RuleInfo, **hooks: Any) -> types.ModuleType:
    module = types.ModuleType(rule.name.replace(".", "_").replace("-", "_"))
    module.RULE = rule
    vars(module).update(hooks)
    return module


RULES = (
    rule_module(NO_EIGHT_OUT, forbid_action=forbid_action),
    rule_module(DOUBLE, score_round=score_round),
)


@pytest.fixture(autouse=True, scope="module")
def registered() -> Iterator[None]:
    cardcore.register("cardcore.games", NAME, game_module(NAME, C8Logic))
    for module in RULES:
        cardcore.register("cardcore.rules", module.RULE.name, module)
    yield
    for module in RULES:
        cardcore.unregister("cardcore.rules", module.RULE.name)
    cardcore.unregister("cardcore.games", NAME)


@pytest.fixture
def variant() -> Iterator[Any]:
    """Register a variant of the game with another logic; unregister it after the test."""
    names: list[str] = []

    def make(suffix: str, logic: type[C8Logic]) -> str:
        name = f"{NAME}-{suffix}"
        cardcore.register("cardcore.games", name, game_module(name, logic))
        names.append(name)
        return name

    yield make
    for name in names:
        cardcore.unregister("cardcore.games", name)


def agents(players: int) -> list[cardcore.RandomAgent]:
    return [cardcore.RandomAgent(seat + 1) for seat in range(players)]


def walk(game: cardcore.Game, steps: int) -> None:
    """Play *steps* random actions (or until the game ends)."""
    players = agents(len(game.view()["players"]))
    for _ in range(steps):
        if game.is_over:
            return
        seat = game.to_act[0]
        game.apply(players[seat].choose(game.view(seat), game.legal_actions(seat)))


# --- what works ----------------------------------------------------------------------------


def test_conformance_kit_on_every_configuration_it_chooses() -> None:
    configs = list(configurations(NAME))
    # the rule with applies= is played under an option value it serves (hand_size 3)
    assert any(
        c.rules == (DOUBLE.name,) and dict(c.options or {}) == {"hand_size": 3} for c in configs
    )
    for config in configs:
        report = check_game(config.game, games=2, seed=1, **config.kwargs())
        assert report.ok and report.leaks == 0 and report.cards_lost == 0 and report.raw == 0
        assert "positions" not in report.skipped and "scores" not in report.skipped


def test_public_api_round_trip() -> None:
    game = cardcore.new_game(NAME, ["Ann", "Bob", "Cy"], seed=11)
    # each seat sees its own hand and no other
    for seat in range(3):
        hands = [z for z in game.view(seat)["zones"] if z["name"].startswith("hand.")]
        for zone in hands:
            shown = [c for c in zone["cards"] if c is not None]
            assert len(shown) == (5 if zone["owner"] == seat else 0)
    assert all(c is None for z in game.view(None)["zones"][2:] for c in z["cards"])
    # a refused move changes nothing
    before = (game.position(), game.version, game.record())
    with pytest.raises(IllegalActionError, match=r"\(CORE-TURN-1\)$"):
        game.act(1, "draw")
    with pytest.raises(NotationError, match=r"\(CORE-NOTATION-1\)$"):
        game.act(0, "play 8H X")
    assert (game.position(), game.version, game.record()) == before
    walk(game, 12)
    # clone, record/replay, save/load, position
    twin = game.clone()
    here = game.position()
    walk(twin, 3)
    assert twin.version == game.version + 3 and game.position() == here
    assert cardcore.replay(json.dumps(game.record())).position() == game.position()
    assert cardcore.load(json.dumps(game.save())).position() == game.position()
    again = cardcore.new_game(NAME, 3, position=game.position(), seed=5)
    for seat in (0, 1, 2, None):
        mine, theirs = again.view(seat), game.view(seat)
        assert (mine["legal"], mine["zones"], mine["table"]) == (
            theirs["legal"],
            theirs["zones"],
            theirs["table"],
        )
    result = cardcore.play(game, agents(3))
    assert game.is_over and result.reason in ("out", "blocked")
    assert cardcore.replay(game.record()).result == result
    summary = cardcore.simulate(NAME, games=6, players=3, seed=2)
    assert summary.games == 6 and summary.truncated == 0 and sum(summary.wins) == pytest.approx(6)


def test_option_bounds_applies_and_veto() -> None:
    with pytest.raises(OptionError, match="at most 8"):
        cardcore.new_game(NAME, 2, options={"hand_size": 9})
    with pytest.raises(OptionError, match=r"\(C8-HOUSE-2\)$"):
        cardcore.new_game(NAME, 2, rules=[DOUBLE.name], seed=1)  # hand_size 5: not served
    game = cardcore.new_game(NAME, 2, rules=["C8-HOUSE-1"], seed=1)  # a rule by its ID
    assert game.rules == (NO_EIGHT_OUT.name,)
    # seat 0 holds only the eight of hearts: the veto leaves it the draw
    text = game.position()
    head, *piles = text.split(" | ")
    cards = {p.split(":")[0]: p.split(":", 1)[1].split() for p in piles}
    eight = next(c for c in [*cards["stock"], *cards["hand.1"]] if c.startswith("8"))
    rest = [c for c in cards["hand.0"]]
    stock = [c for c in cards["stock"] if c != eight] + rest
    hand1 = [c for c in cards["hand.1"] if c != eight]
    position = " | ".join(
        [
            head,
            "stock: " + " ".join(c.split("@")[0] for c in stock),
            "discard: " + " ".join(cards["discard"]),
            f"hand.0: {eight.split('@')[0]}@0",
            "hand.1: " + " ".join(hand1),
        ]
    )
    plain = cardcore.new_game(NAME, 2, position=position, seed=1)
    ruled = cardcore.new_game(NAME, 2, rules=[NO_EIGHT_OUT.name], position=position, seed=1)
    assert plain.view(0)["legal"][:4] == [f"play {eight.split('@')[0]} {s}" for s in SUITS]
    assert ruled.view(0)["legal"] == ["draw"]
    with pytest.raises(IllegalActionError, match=r"nobody goes out on an eight \(C8-HOUSE-1\)$"):
        ruled.act(0, f"play {eight.split('@')[0]} H")


# --- what the docs promise and the engine or the kit does not do ---------------------------


class NoRuleId(C8Logic):
    """A plugin mistake: ``rule_for`` answers no rule ID (docs: "(rule_id, reason)")."""

    def rule_for(self, state: C8State, action: C8Action) -> tuple[str, str]:
        return None, None  # type: ignore[return-value]


class MissingField(C8Logic):
    """A plugin mistake: the view leaves out a field ``GameInfo.fields`` declares."""

    def table(self, state: C8State, seat: int | None) -> dict[str, Any]:
        table = super().table(state, seat)
        del table["drawn"]
        return table


class FailingScores(C8Logic):
    """A plugin mistake: ``scores`` (asked when a seat resigns) raises."""

    def scores(self, state: C8State) -> tuple[float, ...]:
        raise ZeroDivisionError("oops")


def test_kit_flags_rejections_that_cite_no_rule_id(variant: Any) -> None:
    name = variant("norule", NoRuleId)
    game = cardcore.new_game(name, 2, seed=3)
    before = game.position()
    with pytest.raises(PluginError, match=r"rule_for .*\(None, None\).*\(rule ID, reason\)"):
        game.act(0, "pass")  # not legal before a draw: the game's answer is refused, named
    assert game.position() == before
    report = check_game(name, players=2, games=1, checks={"rejections"}, strict=False)
    assert not report.ok  # testing-kit.rst: "with a message ending in its rule ID"


def test_kit_flags_a_declared_field_missing_from_the_view(variant: Any) -> None:
    name = variant("missing", MissingField)
    assert "drawn" not in cardcore.new_game(name, 2, seed=3).view(0)["table"]
    report = check_game(name, players=2, games=1, checks={"views"}, strict=False)
    assert not report.ok


def test_failing_scores_on_resign_is_named(variant: Any) -> None:
    name = variant("brokenend", FailingScores)
    game = cardcore.new_game(name, 2, seed=3)
    before = game.position()
    with pytest.raises(PluginError) as info:
        game.act(1, "resign")
    assert game.position() == before and not game.is_over  # restored, as documented
    assert "in resign" in str(info.value) and "oops" in str(info.value)
