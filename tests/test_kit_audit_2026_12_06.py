"""Audit of the conformance kit (``cardcore.testing``) as a third-party game author uses it.

A tiny draw-and-discard game is written from docs/plugin-guide/game.rst (a face-down stock, a
``TOP`` discard pile, hands shown to their owners, the core's events, ``score_round`` at the
end, the default position notation) and registered in place with :func:`cardcore.register`, as
docs/plugin-guide/testing.rst shows. The correct game must pass every check (no false
positive); then one broken copy per mistake docs/testing-kit.rst says the kit catches, each of
which must be reported by :func:`check_game` and by the single-check function of the table
("Each check is also available on its own, with the same keyword arguments").

The strict xfails are where the kit does not do what its docs say (see each reason).
"""

from __future__ import annotations

import itertools
import re
import types
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import (
    ALL,
    Action,
    ArgumentError,
    Card,
    CardDiscarded,
    CardDrawn,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    OptionError,
    RuleConflictError,
    RuleInfo,
    TurnPassed,
    UnknownPluginError,
    Veto,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore import testing as kit
from cardcore.dealing import deal_round_robin, draw_card, fill_stock
from cardcore.testing import check_game
from cardcore.turns import end_game, next_seat, winners_by

STOCK, DISCARD = 0, 1
DECK_TEXT = "AS 2S 3S 4S AH 2H 3H 4H AD 2D 3D 4D AC 2C"
DECK = tuple(Card.parse(t) for t in DECK_TEXT.split())
KW: dict[str, Any] = {"players": 2, "games": 3, "seed": 0}
BROKEN = "not run: the game breaks the plugin contract"


def hand(seat: int) -> int:
    """The zone id of *seat*'s hand."""
    return 2 + seat


@frozen
class Discard(Action):
    """``discard 3H``: put a card of the hand face up on the discard pile, then draw."""

    card: Card
    verb: ClassVar[str] = "discard"

    def notation(self) -> str:
        return f"discard {self.card}"


@cache
def layout(players: int) -> Layout:
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    return Layout.of([ZoneSpec("stock"), ZoneSpec("discard", None, Visibility.TOP), *hands])


class DDState(GameState):
    __slots__ = ()
    _mutable = ("zones",)


class DDLogic(GameLogic[DDState, Discard]):
    """Deal 3 each from a 14-card deck; discard and draw until the stock is out; most hearts win."""

    action_types = (Discard,)
    position_fields = ("to_act",)

    def deck(self, players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
        return DECK

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 100

    def blank_state(self, players: int, options: Mapping[str, Any]) -> DDState:
        return DDState(players, options, Zones(layout(players)))

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> DDState:
        state = DDState(players, options, Zones(layout(players)))
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, STOCK, cards)
        deal_round_robin(state, STOCK, [hand(s) for s in range(players)], 3)
        if emit is not None:
            emit(CardsDealt(tuple(3 for _ in range(players))))
        return state

    def legal_actions(self, state: DDState, seat: int) -> tuple[Discard, ...]:
        if seat not in state.to_act:
            return ()
        return tuple(Discard(seat, c) for c in sorted(state.zones.cards[hand(seat)], key=str))

    def rule_for(self, state: DDState, action: Discard) -> tuple[str, str]:
        return "DD-PLAY-1", f"seat {action.seat} may discard a card it holds"

    def apply(self, state: DDState, action: Discard, emit: Emit | None) -> None:
        z, seat = state.zones, action.seat
        z.move(hand(seat), DISCARD, z.cards[hand(seat)].index(action.card), mask=ALL)
        if emit is not None:
            emit(CardDiscarded(seat, action.card))
        drawn = draw_card(state, STOCK, hand(seat))
        if drawn is not None and emit is not None:
            emit(CardDrawn(seat, "stock", drawn, visible_to=1 << seat))
        if not z.cards[STOCK]:
            raw = [
                sum(c.suit is not None and c.suit.letter == "H" for c in z.cards[hand(s)])
                for s in range(state.players)
            ]
            made = self.score_round(state, raw)
            end_game(state, winners_by(made, lowest=False), made, "stock empty")
            return
        state.to_act = (nxt := next_seat(seat, state.players),)
        if emit is not None:
            emit(TurnPassed(nxt))

    def table(self, state: DDState, seat: int | None) -> dict[str, Any]:
        return {"stock": len(state.zones.cards[STOCK])}


FIELDS = (ViewField("stock", "int", "Cards left in the stock."),)


# --- broken copies, one mistake each ---------------------------------------------------------


class Lose(DDLogic):
    def apply(self, state: DDState, action: Discard, emit: Emit | None) -> None:
        super().apply(state, action, emit)
        z = state.zones
        if len(z.cards[DISCARD]) == 2:  # the first discard vanishes
            z.cards[DISCARD].pop(0)
            z.seen[DISCARD].pop(0)


class Dup(DDLogic):
    def apply(self, state: DDState, action: Discard, emit: Emit | None) -> None:
        super().apply(state, action, emit)
        z = state.zones
        if len(z.cards[DISCARD]) == 2:  # the top discard is copied under the pile
            z.cards[DISCARD].insert(0, z.cards[DISCARD][-1])
            z.seen[DISCARD].insert(0, ALL)


class ViewLeak(DDLogic):
    def table(self, state: DDState, seat: int | None) -> dict[str, Any]:
        other = state.zones.cards[hand(1)]
        return {"stock": len(state.zones.cards[STOCK]), "peek": str(other[0]) if other else ""}


class EventLeak(DDLogic):
    def apply(self, state: DDState, action: Discard, emit: Emit | None) -> None:
        def shout(event: Any) -> None:
            if isinstance(event, CardDrawn):  # the hidden draw shown to every seat
                event = CardDrawn(event.seat, event.source, event.card, visible_to=ALL)
            assert emit is not None
            emit(event)

        super().apply(state, action, shout if emit is not None else None)


class SeedView(DDLogic):
    def table(self, state: DDState, seat: int | None) -> dict[str, Any]:
        return {"stock": len(state.zones.cards[STOCK]), "seed": state.seed}


class Twin(DDLogic):
    """A public flag that depends on the hidden top card of the stock (no card shown)."""

    def table(self, state: DDState, seat: int | None) -> dict[str, Any]:
        stock = state.zones.cards[STOCK]
        red = bool(stock) and stock[-1].suit is not None and stock[-1].suit.letter in "HD"
        return {"stock": len(stock), "red": red}


_deals = itertools.count()


class NonDet(DDLogic):
    """Each deal is cut at a place taken from a process-wide counter, not from the seed."""

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> DDState:
        k = next(_deals) % len(cards)
        return super().new_state(players, options, cards[k:] + cards[:k], seed, emit)


class RefuseLegal(DDLogic):
    def is_legal(self, state: DDState, action: Discard) -> bool:  # refuses legal aces
        legal = action in self.legal_actions(state, action.seat)
        return legal and action.card.rank.label != "A"


class AcceptIllegal(DDLogic):
    def is_legal(self, state: DDState, action: Discard) -> bool:  # any card of the seat to act
        return action.seat in state.to_act


class RaisingIsLegal(DDLogic):
    def is_legal(self, state: DDState, action: Discard) -> bool:
        raise KeyError("boom")


class RefusalLeak(DDLogic):
    def rule_for(self, state: DDState, action: Discard) -> tuple[str, str]:
        other = state.zones.cards[hand(1 - action.seat)]
        return "DD-PLAY-1", f"seat {action.seat} may discard a card it holds, not {other[0]}"


class IgnoreScore(DDLogic):
    def score_round(self, state: DDState, scores: Any) -> tuple[int, ...]:
        super().score_round(state, scores)  # asks the house rules, then ignores their answer
        return tuple(scores)


class NoScore(DDLogic):
    def score_round(self, state: DDState, scores: Any) -> tuple[int, ...]:
        return tuple(scores)  # never asks the house rules


class ShortBound(DDLogic):
    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 3


class SharedState(GameState):
    __slots__ = ("log",)
    _mutable = ("zones",)  # 'log' left out
    log: list[int]


class Shared(DDLogic):
    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> Any:
        base = super().new_state(players, options, cards, seed, emit)
        state = SharedState(players, options, base.zones)
        state.seed, state.to_act, state.log = seed, base.to_act, []
        return state

    def blank_state(self, players: int, options: Mapping[str, Any]) -> Any:
        state = SharedState(players, options, Zones(layout(players)))
        state.log = []
        return state

    def apply(self, state: Any, action: Discard, emit: Emit | None) -> None:
        state.log.append(1)
        super().apply(state, action, emit)


class ReadWrites(DDLogic):
    def legal_actions(self, state: DDState, seat: int) -> tuple[Discard, ...]:
        z = state.zones
        if seat in state.to_act and z.cards[hand(seat)]:
            z.cards[hand(seat)].reverse()
            z.seen[hand(seat)].reverse()
        return super().legal_actions(state, seat)


@frozen
class Throw(Action):
    """An action class with a field and no ``notation()``."""

    card: Card
    verb: ClassVar[str] = "discard"


class NoNotation(DDLogic):
    action_types = (Throw,)  # type: ignore[assignment]

    def legal_actions(self, state: DDState, seat: int) -> Any:
        return tuple(Throw(a.seat, a.card) for a in super().legal_actions(state, seat))

    def apply(self, state: DDState, action: Any, emit: Emit | None) -> None:
        super().apply(state, Discard(action.seat, action.card), emit)


class ListLegal(DDLogic):
    def legal_actions(self, state: DDState, seat: int) -> Any:
        return list(super().legal_actions(state, seat))


class IntToAct(DDLogic):
    def apply(self, state: DDState, action: Discard, emit: Emit | None) -> None:
        super().apply(state, action, emit)
        if state.to_act:
            state.to_act = state.to_act[0]  # type: ignore[assignment]


class NoBound(GameLogic[DDState, Discard]):
    action_types = (Discard,)
    deck = DDLogic.deck
    new_state = DDLogic.new_state
    legal_actions = DDLogic.legal_actions
    apply = DDLogic.apply
    table = DDLogic.table


class NoPositions(GameLogic[DDState, Discard]):
    """The correct game without ``blank_state``: no position notation."""

    action_types = (Discard,)
    deck = DDLogic.deck
    action_bound = DDLogic.action_bound
    new_state = DDLogic.new_state
    legal_actions = DDLogic.legal_actions
    rule_for = DDLogic.rule_for
    apply = DDLogic.apply
    table = DDLogic.table


def _stopping(exc: Callable[[], BaseException]) -> type[DDLogic]:
    class Stops(DDLogic):
        def apply(self, state: DDState, action: Discard, emit: Emit | None) -> None:
            if len(state.zones.cards[DISCARD]) == 3:
                raise exc()
            super().apply(state, action, emit)

    return Stops


class OwnBase(BaseException):
    """A plugin's own BaseException subclass."""


def game_module(name: str, logic: Any, fields: tuple[ViewField, ...] = FIELDS) -> Any:
    """A module holding what an installed game's entry-point module holds."""
    module = types.ModuleType(name.replace("-", "_"))
    module.GAME = GameInfo(name, "draw and discard", 2, 4, version="1.0.0", fields=fields)

    @hookimpl
    def create_logic(ruleset: Any) -> Any:
        return logic(ruleset)

    module.create_logic = create_logic
    return module


def rule_module(name: str, rule_id: str, **hooks: Any) -> Any:
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    module.RULE = RuleInfo(id=rule_id, name=name, game="dd-ok", summary="a test rule")
    for hook, impl in hooks.items():
        setattr(module, hook, hookimpl(impl))
    return module


def _mutating_veto(state: GameState, action: Action) -> Veto | None:
    cards, seen = state.zones.cards[hand(action.seat)], state.zones.seen[hand(action.seat)]
    cards.reverse()
    seen.reverse()
    return None


def _no_ace_of_hearts(state: GameState, action: Action) -> Veto | None:
    if getattr(action, "card", None) == Card.parse("AH"):
        return Veto("DDNOH-1", "the ace of hearts stays in the hand")
    return None


def _bonus(state: GameState, scores: Any) -> tuple[int, ...]:
    return tuple(s + (1 if i == 0 else 0) for i, s in enumerate(scores))


def _extra(name: str, kind: str) -> tuple[ViewField, ...]:
    return (*FIELDS, ViewField(name, kind, "a field of a broken copy"))


GAMES: dict[str, tuple[Any, tuple[ViewField, ...]]] = {
    "ok": (DDLogic, FIELDS),
    "lose": (Lose, FIELDS),
    "dup": (Dup, FIELDS),
    "viewleak": (ViewLeak, _extra("peek", "str")),
    "undeclared": (ViewLeak, FIELDS),
    "eventleak": (EventLeak, FIELDS),
    "seedview": (SeedView, _extra("seed", "int")),
    "twin": (Twin, _extra("red", "bool")),
    "nondet": (NonDet, FIELDS),
    "refuselegal": (RefuseLegal, FIELDS),
    "acceptillegal": (AcceptIllegal, FIELDS),
    "raisinglegal": (RaisingIsLegal, FIELDS),
    "refusalleak": (RefusalLeak, FIELDS),
    "ignorescore": (IgnoreScore, FIELDS),
    "noscore": (NoScore, FIELDS),
    "shortbound": (ShortBound, FIELDS),
    "shared": (Shared, FIELDS),
    "readwrites": (ReadWrites, FIELDS),
    "nonotation": (NoNotation, FIELDS),
    "listlegal": (ListLegal, FIELDS),
    "inttoact": (IntToAct, FIELDS),
    "nobound": (NoBound, FIELDS),
    "object": (lambda ruleset: object(), FIELDS),
    "nopositions": (NoPositions, FIELDS),
    "sysexit": (_stopping(lambda: SystemExit(3)), FIELDS),
    "genexit": (_stopping(GeneratorExit), FIELDS),
    "ownbase": (_stopping(lambda: OwnBase("mine")), FIELDS),
    "keyboard": (_stopping(KeyboardInterrupt), FIELDS),
}
RULES = {
    "dd-ok.mut": rule_module("dd-ok.mut", "DDMUT-1", forbid_action=_mutating_veto),
    "dd-ok.no-ah": rule_module("dd-ok.no-ah", "DDNOH-1", forbid_action=_no_ace_of_hearts),
    "dd-ok.bonus": rule_module("dd-ok.bonus", "DDBONUS-1", score_round=_bonus),
}


@pytest.fixture(scope="module", autouse=True)
def _games() -> Iterator[None]:
    for short, (logic, fields) in GAMES.items():
        cardcore.register(
            "cardcore.games", f"dd-{short}", game_module(f"dd-{short}", logic, fields)
        )
    for name, module in RULES.items():
        cardcore.register("cardcore.rules", name, module)
    yield
    for name in RULES:
        cardcore.unregister("cardcore.rules", name)
    for short in GAMES:
        cardcore.unregister("cardcore.games", f"dd-{short}")


def run(short: str, **kwargs: Any) -> kit.Report:
    return check_game(f"dd-{short}", **{**KW, "strict": False, **kwargs})


# --- documented examples and shipped games ----------------------------------------------------


def test_quick_start_verbatim() -> None:
    def test_my_game_conforms():
        report = check_game("golf", players=3, rules=["golf.jokers"], games=3, seed=0)
        assert report.cards_lost == 0 and report.leaks == 0

    test_my_game_conforms()


def test_plugin_guide_golf_example() -> None:
    report = check_game("golf", players=2, rules=["golf.jokers"], options={"rounds": 1}, games=2)
    assert (report.ok, report.games, report.cards_lost, report.leaks, report.skipped) == (
        True,
        2,
        0,
        0,
        {},
    )


def test_shipped_games_pass_with_house_rules() -> None:
    tonk = check_game("tonk", players=2, rules=["tonk.no-upcard", "tonk.must-lay-down"], games=2)
    assert tonk.ok and tonk.cards_lost == 0 and tonk.leaks == 0 and tonk.games == 2
    golf = check_game("golf", players=2, rules=["golf.hard"], options={"rounds": 1}, games=1)
    assert golf.ok and golf.games == 1
    config = next(iter(kit.configurations("tonk")))
    assert check_game(config.game, games=1, **config.kwargs()).ok


# --- the correct game: no false positive -------------------------------------------------------

SINGLE = (
    "check_bounds",
    "check_conservation",
    "check_views",
    "check_agents",
    "check_rejections",
    "check_clone",
    "check_persistence",
    "check_determinism",
    "check_positions",
    "check_notation",
    "check_vetoes",
    "check_score_round",
)


def test_correct_game_passes_every_check() -> None:
    report = check_game("dd-ok", **KW)  # strict: raises on any failure
    assert report.ok and report.skipped == {} and report.failed == 0
    assert set(report.checks) == kit.ALL_CHECKS
    assert report.games == 3 and report.cards_lost == report.leaks == 0
    assert report.twins > 0 and report.positions > 0 and report.reloads > 0
    assert report.vetoed > 0 and report.scored > 0 and report.notations > 0
    assert report.bad_inputs == report.rejected > 0


@pytest.mark.parametrize("function", SINGLE)
def test_correct_game_passes_each_single_check(function: str) -> None:
    report = getattr(kit, function)("dd-ok", **KW)
    assert report.ok and report.failed == 0


@pytest.mark.parametrize(
    "rules", [["dd-ok.no-ah"], ["dd-ok.bonus"], ["dd-ok.no-ah", "dd-ok.bonus"]]
)
def test_correct_game_passes_with_house_rules(rules: list[str]) -> None:
    report = check_game("dd-ok", rules=rules, **KW)
    assert report.ok and report.rules == tuple(rules)


# --- each documented mistake is caught, by check_game and by its single check -------------------

CAUGHT = [
    ("lose", "check_conservation", "cards not conserved", "cards_lost"),
    ("dup", "check_conservation", "extra ['", "cards_lost"),
    ("viewleak", "check_views", "shows cards it does not know", "leaks"),
    ("eventleak", "check_views", "in card-drawn", "leaks"),
    ("seedview", "check_views", "carries the seed", "leaks"),
    ("twin", "check_views", "depends on cards hidden from seat", "leaks"),
    ("undeclared", "check_views", "table key 'peek'", None),
    ("readwrites", "check_views", "changed the state at version", None),
    ("nondet", "check_determinism", "the same seed gave two different games", None),
    ("refuselegal", "check_rejections", "is_legal says False", None),
    ("acceptillegal", "check_rejections", "is_legal says True", None),
    ("raisinglegal", "check_rejections", "is_legal raised KeyError", None),
    ("refusalleak", "check_rejections", "names cards hidden from that seat", "leaks"),
    ("ignorescore", "check_score_round", "but the result is the same without it", None),
    ("shortbound", "check_bounds", "did not end within its declared bound of 3", "truncated"),
    ("shared", "check_clone", "the clone shares 'log'", None),
    ("nonotation", "check_notation", "share the notation 'discard'", None),
]


@pytest.mark.parametrize(("short", "function", "text", "counter"), CAUGHT)
def test_broken_copy_is_caught(short: str, function: str, text: str, counter: str | None) -> None:
    report = run(short)
    assert not report.ok and any(text in f for f in report.failures), report.failures
    if counter is not None:
        assert getattr(report, counter) > 0
    with pytest.raises(AssertionError, match=re.escape(text)):
        getattr(kit, function)(f"dd-{short}", **KW)


def test_twin_leak_is_left_to_twins_and_event_leak_to_events() -> None:
    assert not run("twin", checks={"twins"}).ok
    assert run("twin", checks={"views"}).ok and run("twin", checks={"events"}).ok
    assert not run("eventleak", checks={"events"}).ok
    assert run("eventleak", checks={"views"}).ok and run("eventleak", checks={"twins"}).ok


def test_shared_notation_skips_record_checks_with_the_reason() -> None:
    report = run("nonotation")
    why = "records hold each action's notation"
    assert why in report.skipped["persistence"] and why in report.skipped["scores"]
    assert "Throw" in report.failures[0] and "give Throw a notation()" in report.failures[0]


@pytest.mark.parametrize(
    ("short", "text"),
    [
        ("listlegal", "(a list): it must return a tuple of the seat's Action objects"),
        ("inttoact", "set state.to_act to 1 (an int, not a tuple)"),
        ("nobound", "NoBound does not implement the required method action_bound"),
        ("object", "create_logic of 'dd-object' returned <object object"),
    ],
)
def test_contract_mistake_reported_once_and_stops(short: str, text: str) -> None:
    report = run(short)
    assert report.failed == 1 and len(report.failures) == 1 and text in report.failures[0]
    assert set(report.skipped) == kit.ALL_CHECKS and report.checks == ()
    assert all(why.startswith(BROKEN) for why in report.skipped.values())
    with pytest.raises(AssertionError, match=re.escape(BROKEN)):
        check_game(f"dd-{short}", **KW)


def test_veto_that_changes_the_state_is_named() -> None:
    report = run("ok", rules=["dd-ok.mut"])
    assert not report.ok
    assert report.failures[0].startswith("forbid_action (dd-ok.mut) changed the state")
    assert "apply" not in report.failures[0]


def test_game_that_never_calls_score_round_is_skipped_not_failed() -> None:
    report = run("noscore")
    assert report.ok and "never called GameLogic.score_round" in report.skipped["scores"]
    assert "scores" not in report.checks


def test_game_without_position_notation_skips_positions() -> None:
    report = run("nopositions")
    assert report.ok and "has no position notation" in report.skipped["positions"]


@pytest.mark.parametrize("short", ["sysexit", "genexit", "ownbase"])
def test_plugin_base_exception_is_a_failure(short: str) -> None:
    report = run(short)
    assert not report.ok and report.raw == 1
    assert report.failures[0].startswith("the checks stopped: a plugin raised a raw")


def test_keyboard_interrupt_passes() -> None:
    with pytest.raises(KeyboardInterrupt):
        run("keyboard")


@pytest.mark.parametrize("function", ["check_game", "check_conservation", "check_vetoes"])
@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"rules": "golf.jokers"}, ArgumentError),
        ({"without": "golf.jokers"}, ArgumentError),
        ({"rules": ["golf.nope"]}, UnknownPluginError),
        ({"options": {"rounds": -5}}, OptionError),
        ({"rules": ["golf.ender-penalty-10", "golf.ender-penalty-lowest"]}, RuleConflictError),
    ],
)
def test_only_own_arguments_raise(function: str, kwargs: dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        getattr(kit, function)("golf", players=2, games=1, **kwargs)


def test_single_position_assertions() -> None:
    ok = cardcore.new_game("dd-ok", 2, seed=3)
    kit.assert_conserved(ok)
    for seat in (0, 1, None):
        kit.assert_view_known(ok, seat)
        kit.assert_view_structure(ok, seat)
    with pytest.raises(ArgumentError):
        kit.assert_conserved(ok.state)  # type: ignore[arg-type]
    lost = cardcore.new_game("dd-lose", 2, seed=3)
    lost.act(0, str(lost.legal_actions(0)[0]))
    lost.act(1, str(lost.legal_actions(1)[0]))
    with pytest.raises(AssertionError, match="cards not conserved"):
        kit.assert_conserved(lost)
    leaky = cardcore.new_game("dd-viewleak", 2, seed=3)
    with pytest.raises(AssertionError, match="shows cards it does not know"):
        kit.assert_view_known(leaky, 0)
    kit.assert_view_known(leaky, 1)  # seat 1 sees its own card
    kit.assert_view_structure(leaky, 0)  # 'peek' is declared
    undeclared = cardcore.new_game("dd-undeclared", 2, seed=3)
    with pytest.raises(AssertionError, match=r"table key 'peek'.*not declared"):
        kit.assert_view_structure(undeclared, 0)


def test_sampling_knobs() -> None:
    full = run("ok")
    none = run("ok", samples_per_game=0)
    assert none.twins == none.positions == 0 and full.twins > 0
    sparse = run("ok", full_every=5)
    assert sparse.views < full.views and sparse.reloads < full.reloads
    assert run("ok", sample=0.0).twins == 0


# --- findings ------------------------------------------------------------------------------------


def test_failed_notation_check_is_not_reported_as_skipped() -> None:
    report = run("nonotation")
    assert "notation" not in report.skipped, report.skipped


def test_twins_check_that_compared_nothing_is_skipped() -> None:
    report = run("twin", samples_per_game=0)
    assert report.twins == 0
    assert "twins" in report.skipped or not report.ok


def test_check_conservation_reports_only_conservation() -> None:
    report = kit.check_conservation("dd-seedview", **{**KW, "strict": False})
    assert report.cards_lost == 0
    assert report.ok, report.failures


def test_checks_stopped_by_base_exception_are_not_listed_as_run() -> None:
    report = run("sysexit")
    assert report.games == 0
    assert report.checks == () or set(report.skipped) == kit.ALL_CHECKS


def test_same_event_leak_at_another_seat_is_shown_once() -> None:
    report = run("eventleak", games=1)
    shapes = [re.sub(r"seat (\d+|spectator)", "seat #", f) for f in report.failures]
    assert len(shapes) == len(set(shapes)), report.failures
