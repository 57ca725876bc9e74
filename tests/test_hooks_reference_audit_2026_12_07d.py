"""Audit of the hooks reference, hook by hook, as a plugin author relies on it (2026-12-07d).

Pages: ``docs/hooks.rst``, ``docs/plugin-guide/hookspecs.rst``,
``docs/plugin-guide/house-rule.rst`` and ``docs/plugin-guide/migration.rst``.

Every core hook (``create_logic``, ``build_deck``, ``card_points``, ``forbid_action``,
``determinize``, ``score_round``, ``on_event``), every game hook the pages name (Golf's,
Tonk's, Spit's and Speed's own hookspecs) and the pages' runnable code blocks are checked
here: when the hook is called (and not otherwise), with what, what its answer means, how
several implementations combine, and what a raising or wrongly answering implementation
costs (a ``PluginError`` naming the plugin that failed, the game unchanged: its save, its
spectator view and its version compared before and after, every card in exactly one place).

A claim that holds is a plain test; a disagreement between a page and the engine is a
``xfail(strict=True)`` test that passes once the engine does what the page says.
"""

from __future__ import annotations

import contextlib
import doctest
import inspect
import json
import logging
import random
import re
import textwrap
import types
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import (
    Card,
    DeliveryFailure,
    IllegalActionError,
    OptionError,
    PluginError,
    PluginWarning,
    RandomAgent,
    RuleInfo,
    Veto,
    hookimpl,
)

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


# --- helpers -----------------------------------------------------------------------------------


@contextlib.contextmanager
def house_rule(rule_id: str, name: str, game: str, **hooks: Any) -> Iterator[types.ModuleType]:
    """Register a house rule holding *hooks* for the block, and unregister it after."""
    module = types.ModuleType("audit_" + name.replace(".", "_").replace("-", "_"))
    module.RULE = RuleInfo(id=rule_id, name=name, game=game, summary="audit rule")  # type: ignore[attr-defined]
    vars(module).update(hooks)
    cardcore.register("cardcore.rules", name, module)
    try:
        yield module
    finally:
        cardcore.unregister("cardcore.rules", name)


def impl(hook: str, params: str, answer: Callable[..., Any], **marks: Any) -> Callable[..., Any]:
    """A ``@hookimpl`` function named *hook* taking *params* that returns ``answer(**args)``."""
    names = [p.strip() for p in params.split(",") if p.strip()]
    call = ", ".join(f"{n}={n}" for n in names)
    namespace: dict[str, Any] = {"_answer": answer}
    exec(f"def {hook}({', '.join(names)}):\n    return _answer({call})\n", namespace)
    return hookimpl(**marks)(namespace[hook]) if marks else hookimpl(namespace[hook])


def const(hook: str, params: str, value: Any) -> Callable[..., Any]:
    """A ``@hookimpl`` named *hook* taking *params* that always answers *value*."""
    return impl(hook, params, lambda **_: value)


def snap(game: cardcore.Game) -> tuple[str, int, str]:
    """Everything observable of *game*: its save, its version and the spectator's view."""
    return (
        json.dumps(game.save(), sort_keys=True, default=str),
        game.version,
        json.dumps(game.view(None), sort_keys=True, default=str),
    )


def cards_in_one_place(game: cardcore.Game) -> bool:
    """Every card of the game's deck lies in exactly one pile, none missing, none extra."""
    zones = game.state.zones
    held = Counter(card for pile in zones.cards for card in pile)
    return held == Counter(game.logic.deck(len(game.players), game.options))


def golf_ready(game: cardcore.Game) -> cardcore.Game:
    """Both players of a 2-player Golf game flip their two cards (the hooks page's opening)."""
    for seat, text in [(0, "flip 0"), (0, "flip 3"), (1, "flip 0"), (1, "flip 3")]:
        game.act(seat, text)
    return game


def drive(game: cardcore.Game, seed: int, limit: int = 3000) -> tuple[Exception | None, Any, Any]:
    """Play seeded random legal actions of the seat to act until the game ends or an apply
    fails: return (the error, the game before that apply, the game after it)."""
    chooser = random.Random(seed)
    for _ in range(limit):
        if game.is_over:
            return None, None, None
        seat = game.to_act[0]
        actions = game.legal_actions(seat)
        action = actions[chooser.randrange(len(actions))]
        before = snap(game)
        try:
            game.apply(action)
        except Exception as exc:
            return exc, before, snap(game)
    raise AssertionError("the game did not end")


def play_random(game: cardcore.Game) -> cardcore.Result:
    return cardcore.play(game, [RandomAgent(1 + s) for s in range(len(game.players))])


def fails_cleanly(game: cardcore.Game, seed: int, plugin: str, *, words: str = "") -> PluginError:
    """Drive *game* into the failing hook; check the failure is *plugin*'s PluginError and
    the game is exactly as it was before the failing apply."""
    exc, before, after = drive(game, seed)
    assert isinstance(exc, PluginError), exc
    assert exc.plugin == plugin, (exc.plugin, str(exc))
    assert plugin in str(exc)
    assert words in str(exc)
    assert before == after
    assert cards_in_one_place(game)
    return exc


# --- create_logic ----------------------------------------------------------------------------------


def test_create_logic_one_logic_per_configuration() -> None:
    ruleset = cardcore.get_ruleset("golf")
    assert type(ruleset.logic).__name__ == "GolfLogic"
    assert cardcore.new_game("golf", 2, seed=1).logic is ruleset.logic
    assert cardcore.new_game("golf", 2, seed=2).logic is ruleset.logic
    assert cardcore.get_ruleset("golf", ["golf.jokers"]).logic is not ruleset.logic


def test_create_logic_called_once_per_configuration_with_the_ruleset() -> None:
    calls: list[Any] = []
    hook = impl("create_logic", "ruleset", lambda ruleset: calls.append(ruleset))
    with house_rule("AUD-CL-1", "golf.audit-cl", "golf", create_logic=hook):
        for seed in (1, 2, 3):
            game = cardcore.new_game("golf", 2, rules=["golf.audit-cl"], seed=seed)
        # the rule answered None: the game's own logic stands
        assert type(game.logic).__name__ == "GolfLogic"
        assert len(calls) == 1
        assert calls[0] is cardcore.get_ruleset("golf", ["golf.audit-cl"])


def test_create_logic_raising_is_the_rules_plugin_error() -> None:
    def boom(ruleset: Any) -> Any:
        raise ValueError("no logic today")

    with (
        house_rule(
            "AUD-CL-1", "golf.audit-cl", "golf", create_logic=impl("create_logic", "ruleset", boom)
        ),
        pytest.raises(PluginError) as info,
    ):
        cardcore.new_game("golf", 2, rules=["golf.audit-cl"], seed=1)
    assert info.value.plugin == "golf.audit-cl"
    assert "golf.audit-cl" in str(info.value)


def test_create_logic_wrong_answer_names_the_rule() -> None:
    with (
        house_rule(
            "AUD-CL-1",
            "golf.audit-cl",
            "golf",
            create_logic=const("create_logic", "ruleset", "nope"),
        ),
        pytest.raises(PluginError) as info,
    ):
        cardcore.new_game("golf", 2, rules=["golf.audit-cl"], seed=1)
    assert info.value.plugin == "golf.audit-cl"
    assert "golf.audit-cl" in str(info.value)


# --- build_deck ------------------------------------------------------------------------------------


def test_build_deck_wrapper_adds_jokers() -> None:
    @hookimpl(wrapper=True)
    def build_deck(players: int, options: Any) -> Any:
        deck = yield
        return (*deck, cardcore.JOKER, cardcore.JOKER)

    points = impl("card_points", "card", lambda card: 0 if card.is_joker else None)
    with house_rule(
        "AUD-DECK-1", "golf.audit-jokers", "golf", build_deck=build_deck, card_points=points
    ):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-jokers"], seed=1)
        deck = game.logic.deck(2, game.options)
        assert (len(deck), sum(card.is_joker for card in deck)) == (54, 2)
        assert cards_in_one_place(game)
        assert Counter(c for pile in game.state.zones.cards for c in pile)[cardcore.JOKER] == 2


def test_build_deck_called_once_per_players_and_options() -> None:
    calls: list[int] = []

    @hookimpl(wrapper=True)
    def build_deck(players: int, options: Any) -> Any:
        calls.append(players)
        return (yield)

    with house_rule("AUD-DECK-1", "golf.audit-deck", "golf", build_deck=build_deck):
        for seed in (1, 2, 3):
            cardcore.new_game("golf", 2, rules=["golf.audit-deck"], seed=seed)
        assert calls == [2]
        game = cardcore.new_game("golf", 3, rules=["golf.audit-deck"], seed=1)
        assert calls == [2, 3]
        game.act(0, "flip 0")
        game.clone()
        cardcore.load(game.save())
        assert calls == [2, 3]


def test_build_deck_raising_is_the_rules_plugin_error() -> None:
    def boom(players: int, options: Any) -> Any:
        raise KeyError("deck")

    with (
        house_rule(
            "AUD-DECK-1",
            "golf.audit-deck",
            "golf",
            build_deck=impl("build_deck", "players, options", boom),
        ),
        pytest.raises(PluginError) as info,
    ):
        cardcore.new_game("golf", 2, rules=["golf.audit-deck"], seed=1)
    assert info.value.plugin == "golf.audit-deck"


@pytest.mark.parametrize("bad", [["AH", "2H"], 5, (), (Card.parse("AH"),) * 3])
def test_build_deck_wrong_answer_is_a_plugin_error(bad: Any) -> None:
    with (
        house_rule(
            "AUD-DECK-1",
            "golf.audit-deck",
            "golf",
            build_deck=const("build_deck", "players, options", bad),
        ),
        pytest.raises(PluginError) as info,
    ):
        cardcore.new_game("golf", 2, rules=["golf.audit-deck"], seed=1)
    assert "golf.audit-deck" in str(info.value)


def test_build_deck_option_error_at_setup_passes_as_it_is() -> None:
    def refuse(players: int, options: Any) -> Any:
        raise OptionError("this rule wants 3 players")

    with (
        house_rule(
            "AUD-DECK-1",
            "golf.audit-deck",
            "golf",
            build_deck=impl("build_deck", "players, options", refuse),
        ),
        pytest.raises(OptionError, match="this rule wants 3 players") as info,
    ):
        cardcore.new_game("golf", 2, rules=["golf.audit-deck"], seed=1)
    assert not isinstance(info.value, PluginError)


def test_build_deck_wrong_answer_blames_the_rule_that_answered() -> None:
    # GOLF ids sort as text: AUD-X-10 before AUD-X-9, so golf.audit-b (AUD-X-9) is asked first
    with (
        house_rule(
            "AUD-X-10", "golf.audit-a", "golf", build_deck=const("build_deck", "players", 5)
        ),
        house_rule(
            "AUD-X-9", "golf.audit-b", "golf", build_deck=const("build_deck", "players", None)
        ),
        pytest.raises(PluginError) as info,
    ):
        cardcore.new_game("golf", 2, rules=["golf.audit-a", "golf.audit-b"], seed=1)
    assert info.value.plugin in ("golf.audit-a", None)


# --- card_points ------------------------------------------------------------------------------------


def test_card_points_rule_first_then_the_game() -> None:
    free_queens = impl("card_points", "card", lambda card: 0 if card.label == "Q" else None)
    with house_rule("AUD-POINTS-1", "tonk.audit-queens", "tonk", card_points=free_queens):
        points = cardcore.get_ruleset("tonk", ["tonk.audit-queens"]).resolve("card_points")
        assert (points(card=Card.parse("QH")), points(card=Card.parse("7C"))) == (0, 7)
    assert cardcore.get_ruleset("tonk").resolve("card_points")(card=Card.parse("QH")) == 10
    # Golf has no card_points of its own
    assert cardcore.get_ruleset("golf").resolve("card_points") is None


def test_card_points_asked_when_the_configuration_is_built_not_in_play() -> None:
    asked: list[str] = []
    spy = impl("card_points", "card", lambda card: asked.append(str(card)))
    with house_rule("AUD-POINTS-1", "tonk.audit-spy", "tonk", card_points=spy):
        game = cardcore.new_game("tonk", 2, rules=["tonk.audit-spy"], seed=4)
        built = len(asked)
        assert built >= 52
        play_random(game)
        cardcore.new_game("tonk", 2, rules=["tonk.audit-spy"], seed=5)
        assert len(asked) == built


def test_card_points_two_rules_the_id_sorting_last_wins_whatever_the_order() -> None:
    a = impl("card_points", "card", lambda card: 100 if card.label == "Q" else None)
    b = impl("card_points", "card", lambda card: 200 if card.label == "Q" else None)
    with (
        house_rule("TONK-AUD-10", "tonk.audit-a", "tonk", card_points=a),
        house_rule("TONK-AUD-9", "tonk.audit-b", "tonk", card_points=b),
    ):
        for order in (["tonk.audit-a", "tonk.audit-b"], ["tonk.audit-b", "tonk.audit-a"]):
            points = cardcore.get_ruleset("tonk", order).resolve("card_points")
            assert points(card=Card.parse("QS")) == 200  # TONK-AUD-9 sorts after TONK-AUD-10
            assert points(card=Card.parse("KS")) == 10  # neither answers: the game's


def test_card_points_trylast_rule_comes_after_the_game() -> None:
    late = impl("card_points", "card", lambda card: 0 if card.label == "Q" else None, trylast=True)
    with house_rule("AUD-POINTS-1", "tonk.audit-late", "tonk", card_points=late):
        points = cardcore.get_ruleset("tonk", ["tonk.audit-late"]).resolve("card_points")
        # among trylast implementations the earlier-registered (the game) is asked first
        assert points(card=Card.parse("QH")) == 10


@pytest.mark.parametrize("bad", [2.5, "3", True, 10**30])
@pytest.mark.parametrize("game_name", ["tonk", "golf"])
def test_card_points_wrong_answer_is_the_rules_plugin_error(game_name: str, bad: Any) -> None:
    name = f"{game_name}.audit-points"
    hook = impl("card_points", "card", lambda card: bad if card.label == "Q" else None)
    with (
        house_rule("AUD-POINTS-1", name, game_name, card_points=hook),
        pytest.raises(PluginError) as info,
    ):
        cardcore.new_game(game_name, 2, rules=[name], seed=1)
    assert info.value.plugin == name


def test_card_points_raising_is_the_rules_plugin_error() -> None:
    def boom(card: Card) -> Any:
        raise RuntimeError("points")

    with (
        house_rule(
            "AUD-POINTS-1",
            "tonk.audit-points",
            "tonk",
            card_points=impl("card_points", "card", boom),
        ),
        pytest.raises(PluginError) as info,
    ):
        cardcore.new_game("tonk", 2, rules=["tonk.audit-points"], seed=1)
    assert info.value.plugin == "tonk.audit-points"


# --- forbid_action ---------------------------------------------------------------------------------


def _closed(action: Any) -> Veto | None:
    if action.verb == "take":
        return Veto("AUD-CLOSED-1", "the discard pile is closed")
    return None


def test_forbid_action_veto_leaves_legal_and_refuses_the_action() -> None:
    hook = impl("forbid_action", "action", _closed)
    with house_rule("AUD-CLOSED-1", "golf.audit-closed", "golf", forbid_action=hook):
        game = golf_ready(cardcore.new_game("golf", 2, rules=["golf.audit-closed"], seed=7))
        plain = golf_ready(cardcore.new_game("golf", 2, seed=7))
        assert "take" in plain.view(0)["legal"]
        assert game.view(0)["legal"] == [a for a in plain.view(0)["legal"] if a != "take"]
        before = snap(game)
        with pytest.raises(
            IllegalActionError, match=r"the discard pile is closed \(AUD-CLOSED-1\)$"
        ):
            game.act(0, "take")
        assert snap(game) == before


def test_forbid_action_not_resolved_without_a_rule() -> None:
    assert cardcore.get_ruleset("tonk").resolve("forbid_action") is None
    assert cardcore.get_ruleset("tonk", ["tonk.must-lay-down"]).resolve("forbid_action") is not None


def test_forbid_action_called_with_the_state_and_candidate_actions() -> None:
    seen: list[tuple[str, str]] = []

    def spy(state: Any, action: Any) -> None:
        seen.append((type(state).__name__, str(action)))

    with house_rule(
        "AUD-SPY-1",
        "golf.audit-spy",
        "golf",
        forbid_action=impl("forbid_action", "state, action", spy),
    ):
        game = golf_ready(cardcore.new_game("golf", 2, rules=["golf.audit-spy"], seed=7))
        seen.clear()
        legal = game.legal_actions(0)
        assert {text for _, text in seen} == {str(a) for a in legal}
        assert {kind for kind, _ in seen} == {"GolfState"}
        seen.clear()
        game.legal_actions(1)  # a seat not to act: Golf offers it nothing to judge
        assert seen == []


@pytest.mark.parametrize("bad", ["no", False, 0, [Veto("AUD-X-1", "listed")]])
def test_forbid_action_answer_not_a_veto_is_the_rules_plugin_error(bad: Any) -> None:
    hook = impl("forbid_action", "action", lambda action: bad if action.verb == "take" else None)
    with house_rule("AUD-BAD-1", "golf.audit-bad", "golf", forbid_action=hook):
        game = golf_ready(cardcore.new_game("golf", 2, rules=["golf.audit-bad"], seed=7))
        before = snap(game)
        for call in (lambda: game.legal_actions(0), lambda: game.act(0, "take")):
            with pytest.raises(PluginError) as info:
                call()
            assert info.value.plugin == "golf.audit-bad"
            assert snap(game) == before
        assert cards_in_one_place(game)


@pytest.mark.parametrize(("rule_id", "reason"), [("", "empty id"), ("AUD-V-1", 42), (7, "int id")])
def test_forbid_action_malformed_veto_names_the_rule(rule_id: Any, reason: Any) -> None:
    hook = impl(
        "forbid_action",
        "action",
        lambda action: Veto(rule_id, reason) if action.verb == "take" else None,
    )
    with house_rule("AUD-V-1", "golf.audit-veto", "golf", forbid_action=hook):
        game = golf_ready(cardcore.new_game("golf", 2, rules=["golf.audit-veto"], seed=7))
        before = snap(game)
        with pytest.raises(PluginError) as info:
            game.legal_actions(0)
        assert info.value.plugin == "golf.audit-veto"
        assert snap(game) == before


def test_forbid_action_raising_leaves_the_game_unchanged() -> None:
    def boom(state: Any, action: Any) -> Any:
        if action.verb == "take":
            state.zones.reveal(state.zones.id("stock"))  # changed, then failed: put back
            raise ZeroDivisionError("veto")
        return None

    with house_rule(
        "AUD-BOOM-1",
        "golf.audit-boom",
        "golf",
        forbid_action=impl("forbid_action", "state, action", boom),
    ):
        game = golf_ready(cardcore.new_game("golf", 2, rules=["golf.audit-boom"], seed=7))
        before, position = snap(game), game.position()
        for call in (
            lambda: game.legal_actions(0),
            lambda: game.act(0, "take"),
            lambda: game.view(0),
        ):
            with pytest.raises(PluginError) as info:
                call()
            assert info.value.plugin == "golf.audit-boom"
        assert snap(game) == before and game.position() == position
        assert cards_in_one_place(game)


def test_forbid_action_changing_pile_sizes_is_refused_naming_the_rule() -> None:
    def thief(state: Any, action: Any) -> None:
        if action.verb == "take":
            zones = state.zones
            zones.pop(zones.id("stock"))

    with house_rule(
        "AUD-THIEF-1",
        "golf.audit-thief",
        "golf",
        forbid_action=impl("forbid_action", "state, action", thief),
    ):
        game = golf_ready(cardcore.new_game("golf", 2, rules=["golf.audit-thief"], seed=7))
        before = snap(game)
        for call in (lambda: game.legal_actions(0), lambda: game.act(0, "take")):
            with pytest.raises(PluginError, match="only read") as info:
                call()
            assert info.value.plugin == "golf.audit-thief"
            assert snap(game) == before
        assert cards_in_one_place(game)


@pytest.mark.parametrize("thief_first", [True, False])
def test_forbid_action_size_check_names_the_rule_that_moved_cards(thief_first: bool) -> None:
    def thief(state: Any, action: Any) -> None:
        if action.verb == "take":
            state.zones.pop(state.zones.id("stock"))

    honest = const("forbid_action", "state, action", None)
    stealing = impl("forbid_action", "state, action", thief)
    # golf.audit-b (AUD-X-9) is asked first
    with (
        house_rule(
            "AUD-X-10", "golf.audit-a", "golf", forbid_action=honest if thief_first else stealing
        ),
        house_rule(
            "AUD-X-9", "golf.audit-b", "golf", forbid_action=stealing if thief_first else honest
        ),
    ):
        game = golf_ready(
            cardcore.new_game("golf", 2, rules=["golf.audit-a", "golf.audit-b"], seed=7)
        )
        with pytest.raises(PluginError) as info:
            game.legal_actions(0)
    assert info.value.plugin == ("golf.audit-b" if thief_first else "golf.audit-a")


@pytest.mark.parametrize("method", ["view", "apply", "legal_actions"])
def test_forbid_action_calling_back_into_the_game_is_refused(method: str) -> None:
    box: dict[str, cardcore.Game] = {}

    def callback(state: Any, action: Any) -> None:
        if action.verb == "take":
            game = box["game"]
            {
                "view": lambda: game.view(0),
                "apply": lambda: game.apply(action),
                "legal_actions": lambda: game.legal_actions(0),
            }[method]()

    with house_rule(
        "AUD-CB-1",
        "golf.audit-cb",
        "golf",
        forbid_action=impl("forbid_action", "state, action", callback),
    ):
        game = golf_ready(cardcore.new_game("golf", 2, rules=["golf.audit-cb"], seed=7))
        box["game"] = game
        before = snap(game)
        for call in (lambda: game.legal_actions(0), lambda: game.act(0, "take")):
            with pytest.raises(PluginError) as info:
                call()
            assert info.value.plugin == "golf.audit-cb"
            assert snap(game) == before


def test_forbid_action_two_vetoes_cite_the_rule_sorting_last() -> None:
    calls: list[str] = []

    def veto_by(rule_id: str) -> Callable[..., Any]:
        def answer(action: Any) -> Veto | None:
            calls.append(rule_id)
            return Veto(rule_id, f"by {rule_id}") if action.verb == "take" else None

        return impl("forbid_action", "action", answer)

    with (
        house_rule("GOLF-AUD-10", "golf.audit-a", "golf", forbid_action=veto_by("GOLF-AUD-10")),
        house_rule("GOLF-AUD-9", "golf.audit-b", "golf", forbid_action=veto_by("GOLF-AUD-9")),
    ):
        for order in (["golf.audit-a", "golf.audit-b"], ["golf.audit-b", "golf.audit-a"]):
            game = golf_ready(cardcore.new_game("golf", 2, rules=order, seed=7))
            assert game.rules == ("golf.audit-a", "golf.audit-b")
            assert "take" not in game.view(0)["legal"]
            calls.clear()
            with pytest.raises(IllegalActionError, match=r"\(GOLF-AUD-9\)$"):
                game.act(0, "take")
            assert calls[:2] == ["GOLF-AUD-9", "GOLF-AUD-10"]  # every rule is asked: a list hook


def test_forbid_action_wrapper_returns_a_list_of_vetoes() -> None:
    @hookimpl(wrapper=True)
    def forbid_action(action: Any) -> Any:
        inner = yield
        assert isinstance(inner, list)
        return [Veto("AUD-W-1", "wrapped")] if action.verb == "take" else inner

    with house_rule("AUD-W-1", "golf.audit-wrap", "golf", forbid_action=forbid_action):
        game = golf_ready(cardcore.new_game("golf", 2, rules=["golf.audit-wrap"], seed=7))
        assert game.view(0)["legal"] == ["draw"]
        with pytest.raises(IllegalActionError, match=r"wrapped \(AUD-W-1\)$"):
            game.act(0, "take")


def test_forbid_action_wrapper_answering_no_list_is_refused() -> None:
    @hookimpl(wrapper=True)
    def forbid_action(action: Any) -> Any:
        yield
        return "x"

    with (
        house_rule("AUD-W-1", "golf.audit-wrap", "golf", forbid_action=forbid_action),
        pytest.raises(PluginError) as info,
    ):
        golf_ready(cardcore.new_game("golf", 2, rules=["golf.audit-wrap"], seed=7))
    assert info.value.plugin == "golf.audit-wrap"


def test_forbid_action_option_error_in_play_is_the_rules_failure() -> None:
    def refuse(action: Any) -> None:
        if action.verb == "take":
            raise OptionError("in play")

    with house_rule(
        "AUD-OPT-1", "golf.audit-opt", "golf", forbid_action=impl("forbid_action", "action", refuse)
    ):
        game = golf_ready(cardcore.new_game("golf", 2, rules=["golf.audit-opt"], seed=7))
        with pytest.raises(PluginError) as info:
            game.legal_actions(0)
    assert info.value.plugin == "golf.audit-opt"


def test_forbid_action_plugin_error_raised_by_the_rule_passes_as_it_is() -> None:
    mine = PluginError("my own words", plugin="golf.audit-own")

    def own(action: Any) -> None:
        if action.verb == "take":
            raise mine

    with house_rule(
        "AUD-OWN-1", "golf.audit-own", "golf", forbid_action=impl("forbid_action", "action", own)
    ):
        game = golf_ready(cardcore.new_game("golf", 2, rules=["golf.audit-own"], seed=7))
        with pytest.raises(PluginError) as info:
            game.legal_actions(0)
    assert info.value is mine


def test_forbid_action_only_rule_works_in_a_real_time_game() -> None:
    cursed = Card.parse("QS")
    hook = impl(
        "forbid_action",
        "action",
        lambda action: (
            Veto("AUD-CURSE-1", "stays") if getattr(action, "card", None) == cursed else None
        ),
    )
    deck = "JC 5D 2H 3H 4H 5H 6H 2S 3S 4S 5S 6S 10D 2C 10H 8C QS 9H 3D AD 7C 4C"
    with house_rule("AUD-CURSE-1", "speed.audit-curse", "speed", forbid_action=hook):
        speed = cardcore.new_game("speed", 2, rules=["speed.audit-curse"], deck=deck, seed=5)
        plain = cardcore.new_game("speed", 2, deck=deck, seed=5)
        assert "play QS L" in plain.view(0)["legal"]
        assert speed.view(0)["legal"] == [a for a in plain.view(0)["legal"] if a != "play QS L"]
        before = snap(speed)
        with pytest.raises(IllegalActionError, match=r"\(AUD-CURSE-1\)$"):
            speed.act(0, "play QS L")
        assert snap(speed) == before


# --- determinize --------------------------------------------------------------------------------------


def test_determinize_called_on_a_clone_with_seat_and_generator_only() -> None:
    seen: list[tuple[str, int, str]] = []
    live: list[Any] = []

    def spy(state: Any, seat: int, rng: Any) -> None:
        seen.append((type(state).__name__, seat, type(rng).__name__))
        live.append(state)

    with house_rule(
        "AUD-DET-1",
        "golf.audit-det",
        "golf",
        determinize=impl("determinize", "state, seat, rng", spy),
    ):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-det"], seed=8)
        before = snap(game)
        twin = game.determinize(1, seed=1)
        assert seen == [("GolfState", 1, "Random")]
        assert live[0] is not game.state
        # the rule passed (None): the core's default re-dealt
        assert twin.view(1) == game.view(1) and twin.position() != game.position()
        assert snap(game) == before
        seen.clear()
        game.act(0, "flip 0")
        game.legal_actions(1)
        game.view(0)
        play_random(game.clone())
        assert seen == []


def test_determinize_true_stops_the_chain() -> None:
    done = const("determinize", "state, seat, rng", True)
    with house_rule("AUD-DET-1", "golf.audit-det", "golf", determinize=done):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-det"], seed=8)
        assert game.determinize(0, seed=1).position() == game.position()


@pytest.mark.parametrize("bad", ["yes", 1, 0, [], False])
def test_determinize_wrong_answer_is_the_rules_plugin_error(bad: Any) -> None:
    with house_rule(
        "AUD-DET-1", "golf.audit-det", "golf", determinize=const("determinize", "seat", bad)
    ):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-det"], seed=8)
        before = snap(game)
        with pytest.raises(PluginError) as info:
            game.determinize(0, seed=1)
        assert info.value.plugin == "golf.audit-det"
        assert snap(game) == before and cards_in_one_place(game)


def test_determinize_raising_or_losing_a_card_is_the_rules_plugin_error() -> None:
    def boom(state: Any) -> Any:
        raise IndexError("det")

    def loses(state: Any) -> bool:
        state.zones.pop(state.zones.id("stock"))
        return True

    for body in (boom, loses):
        with house_rule(
            "AUD-DET-1", "golf.audit-det", "golf", determinize=impl("determinize", "state", body)
        ):
            game = cardcore.new_game("golf", 2, rules=["golf.audit-det"], seed=8)
            before = snap(game)
            with pytest.raises(PluginError) as info:
                game.determinize(0, seed=1)
            assert info.value.plugin == "golf.audit-det"
            assert snap(game) == before and cards_in_one_place(game)


# --- score_round ----------------------------------------------------------------------------------------


def test_score_round_wrapper_caps_golf_rounds() -> None:
    @hookimpl(wrapper=True)
    def score_round(state: Any, scores: Any) -> Any:
        inner = yield
        return [min(score, 20) for score in inner]

    def one_round(rules: list[str]) -> tuple[float, ...]:
        game = cardcore.new_game("golf", 2, rules=rules, options={"rounds": 1}, seed=3)
        return play_random(game).scores

    with house_rule("AUD-CAP-1", "golf.audit-cap", "golf", score_round=score_round):
        plain, capped = one_round([]), one_round(["golf.audit-cap"])
    assert max(plain) > 20
    assert capped == tuple(float(min(s, 20)) for s in plain)


def test_score_round_receives_money_in_tonk_and_once_per_hand() -> None:
    received: list[list[int]] = []

    @hookimpl(wrapper=True)
    def score_round(scores: Any) -> Any:
        received.append(list(scores))
        return (yield)

    with house_rule("AUD-SPY-1", "tonk.audit-spy", "tonk", score_round=score_round):
        game = cardcore.new_game("tonk", 2, rules=["tonk.audit-spy"], options={"stake": 5}, seed=4)
        result = play_random(game)
    assert received == [[5, -5]]
    assert (result.payouts, result.reason) == ((5, -5), "drop-won")


def test_score_round_not_resolved_without_a_rule_and_none_leaves_scores() -> None:
    assert cardcore.get_ruleset("golf").resolve("score_round") is None
    passes = const("score_round", "scores", None)
    with house_rule("AUD-NONE-1", "golf.audit-none", "golf", score_round=passes):
        ruled = play_random(
            cardcore.new_game("golf", 2, rules=["golf.audit-none"], options={"rounds": 2}, seed=5)
        )
    plain = play_random(cardcore.new_game("golf", 2, options={"rounds": 2}, seed=5))
    assert ruled.scores == plain.scores


def test_score_round_called_once_per_golf_round_with_the_layouts_face_up() -> None:
    calls: list[tuple[list[int], bool]] = []

    def spy(state: Any, scores: Any) -> None:
        zones = state.zones
        names = [z["name"] for z in cardcore.new_game("golf", 2, seed=1).view(None)["zones"]]
        grids = [zones.id(n) for n in names if n.startswith("grid.")]
        face_up = all(
            zones.is_visible(z, i, None) for z in grids for i in range(len(zones.cards[z]))
        )
        calls.append((list(scores), face_up))

    with house_rule(
        "AUD-SPY-1", "golf.audit-spy", "golf", score_round=impl("score_round", "state, scores", spy)
    ):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-spy"], options={"rounds": 3}, seed=5)
        result = play_random(game)
    assert len(calls) == 3
    assert all(face_up for _, face_up in calls)
    assert result.scores == tuple(
        float(sum(col)) for col in zip(*(s for s, _ in calls), strict=True)
    )


@pytest.mark.parametrize("game_name", ["speed", "spit"])
def test_score_round_is_never_called_in_speed_or_spit(game_name: str) -> None:
    def boom(scores: Any) -> Any:
        raise RuntimeError("never called")

    agent = cardcore.load_agent("spit-greedy")
    name = f"{game_name}.audit-score"
    with house_rule("AUD-SR-1", name, game_name, score_round=impl("score_round", "scores", boom)):
        game = cardcore.new_game(game_name, 2, rules=[name], seed=3)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            ruled = cardcore.run_realtime(game, [agent(seed=1), agent(seed=2)], seed=0)
    plain = cardcore.run_realtime(
        cardcore.new_game(game_name, 2, seed=3), [agent(seed=1), agent(seed=2)], seed=0
    )
    assert ruled == plain


@pytest.mark.parametrize(
    "bad", [[1], [1, 2, 3], [2.5, 0], ["3", 0], [True, 0], 7, [10**20, -(10**20)]]
)
@pytest.mark.parametrize("game_name", ["golf", "tonk"])
def test_score_round_wrong_answer_leaves_the_game_unchanged(game_name: str, bad: Any) -> None:
    name = f"{game_name}.audit-score"
    options = {"rounds": 1} if game_name == "golf" else None
    with house_rule("AUD-SR-1", name, game_name, score_round=const("score_round", "scores", bad)):
        game = cardcore.new_game(game_name, 2, rules=[name], seed=3, options=options)
        fails_cleanly(game, 3, name)


def test_score_round_breaking_the_zero_sum_is_refused() -> None:
    cut = impl("score_round", "scores", lambda scores: [s - 1 if s > 0 else s for s in scores])
    with house_rule("AUD-CUT-1", "tonk.audit-cut", "tonk", score_round=cut):
        game = cardcore.new_game("tonk", 2, rules=["tonk.audit-cut"], seed=4)
        fails_cleanly(game, 4, "tonk.audit-cut", words="broke the zero sum of 'tonk'")


def test_score_round_raising_changing_state_or_calling_back_leaves_the_game_unchanged() -> None:
    box: dict[str, cardcore.Game] = {}

    def boom(scores: Any) -> Any:
        raise ArithmeticError("score")

    def thief(state: Any) -> None:
        state.zones.pop(state.zones.id("stock"))

    def callback(state: Any) -> None:
        box["game"].view(0)

    def late_option(scores: Any) -> Any:
        raise OptionError("not now")

    for body, params in (
        (boom, "scores"),
        (thief, "state"),
        (callback, "state"),
        (late_option, "scores"),
    ):
        with house_rule(
            "AUD-SR-1", "golf.audit-score", "golf", score_round=impl("score_round", params, body)
        ):
            game = cardcore.new_game(
                "golf", 2, rules=["golf.audit-score"], seed=3, options={"rounds": 1}
            )
            box["game"] = game
            fails_cleanly(game, 3, "golf.audit-score")


def test_score_round_failure_publishes_no_event() -> None:
    heard: list[str] = []
    observed: list[str] = []
    observer = impl("on_event", "event", lambda event: observed.append(event.slug))
    with (
        house_rule(
            "AUD-SR-1", "golf.audit-score", "golf", score_round=const("score_round", "scores", [1])
        ),
        house_rule("AUD-EV-1", "golf.audit-ev", "golf", on_event=observer),
    ):
        game = cardcore.new_game(
            "golf", 2, rules=["golf.audit-score", "golf.audit-ev"], seed=3, options={"rounds": 1}
        )
        game.events.subscribe(cardcore.Event, lambda event: heard.append(event.slug))
        record = game.record()
        chooser = random.Random(3)
        while True:
            actions = game.legal_actions(game.to_act[0])
            action = actions[chooser.randrange(len(actions))]
            counts, record = (len(heard), len(observed)), game.record()
            try:
                game.apply(action)
            except PluginError:
                break
        assert (len(heard), len(observed)) == counts
        assert game.record() == record


def test_score_round_wrong_answer_blames_the_rule_that_answered() -> None:
    # golf.audit-b (AUD-X-9) is asked first and passes; golf.audit-a answers [1]
    with (
        house_rule(
            "AUD-X-10", "golf.audit-a", "golf", score_round=const("score_round", "scores", [1])
        ),
        house_rule(
            "AUD-X-9", "golf.audit-b", "golf", score_round=const("score_round", "scores", None)
        ),
    ):
        game = cardcore.new_game(
            "golf", 2, rules=["golf.audit-a", "golf.audit-b"], seed=3, options={"rounds": 1}
        )
        fails_cleanly(game, 3, "golf.audit-a")


def test_score_round_zero_sum_refusal_blames_the_rule_that_answered() -> None:
    with (
        house_rule(
            "AUD-X-10", "tonk.audit-a", "tonk", score_round=const("score_round", "scores", [1, 0])
        ),
        house_rule(
            "AUD-X-9", "tonk.audit-b", "tonk", score_round=const("score_round", "scores", None)
        ),
    ):
        game = cardcore.new_game("tonk", 2, rules=["tonk.audit-a", "tonk.audit-b"], seed=3)
        fails_cleanly(game, 3, "tonk.audit-a", words="zero sum")


def test_score_round_two_rules_the_id_sorting_last_answers_first() -> None:
    asked: list[str] = []

    def answer(rule: str, value: Any) -> Callable[..., Any]:
        return impl("score_round", "scores", lambda scores: asked.append(rule) or value)

    with (
        house_rule("AUD-X-10", "golf.audit-a", "golf", score_round=answer("a", [1, 1])),
        house_rule("AUD-X-9", "golf.audit-b", "golf", score_round=answer("b", [2, 2])),
    ):
        game = cardcore.new_game(
            "golf", 2, rules=["golf.audit-b", "golf.audit-a"], seed=3, options={"rounds": 1}
        )
        result = play_random(game)
    assert asked == ["b"]
    assert result.scores == (2.0, 2.0)


# --- on_event ---------------------------------------------------------------------------------------------


def test_on_event_counts_every_event_of_a_played_game() -> None:
    slugs: Counter[str] = Counter()
    with house_rule(
        "AUD-LOG-1",
        "golf.audit-log",
        "golf",
        on_event=impl("on_event", "event", lambda event: slugs.update([event.slug])),
    ):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-log"], seed=4)
        play_random(game)
    assert (slugs["game-started"], slugs["action-applied"], slugs["game-ended"]) == (
        1,
        game.version,
        1,
    )


def test_on_event_runs_outside_the_lock_and_in_version_order() -> None:
    box: dict[str, Any] = {"views": [], "versions": []}

    def observe(event: Any) -> None:
        game = box.get("game")
        if game is not None:
            box["views"].append(game.view(0)["version"])  # would be refused under the lock
        if event.slug == "action-applied":
            box["versions"].append(event.version)

    with house_rule(
        "AUD-EV-1", "golf.audit-ev", "golf", on_event=impl("on_event", "event", observe)
    ):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-ev"], seed=4)
        box["game"] = game
        for seat, text in [(0, "flip 0"), (0, "flip 3"), (1, "flip 0")]:
            game.act(seat, text)
    assert box["versions"] == [1, 2, 3]
    assert box["views"] and box["views"] == sorted(box["views"])


def test_on_event_hushed_for_copies_heard_for_played_games() -> None:
    heard: list[str] = []
    with house_rule(
        "AUD-EV-1",
        "golf.audit-ev",
        "golf",
        on_event=impl("on_event", "event", lambda event: heard.append(event.slug)),
    ):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-ev"], seed=4)
        game.act(0, "flip 0")
        heard.clear()
        clone = game.clone()
        mine: list[str] = []
        clone.events.subscribe(cardcore.Event, lambda event: mine.append(event.slug))
        clone.act(0, "flip 3")
        assert heard == [] and "action-applied" in mine  # a subscriber of a clone hears it
        game.determinize(0, seed=1).act(0, "flip 3")
        cardcore.replay(game.record())
        loaded = cardcore.load(game.save())
        assert heard == []
        loaded.act(0, "flip 3")
        assert "action-applied" in heard


def test_on_event_raising_goes_to_on_error_and_the_game_goes_on() -> None:
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    def boom(event: Any) -> None:
        raise ValueError(f"observer {event.slug}")

    logger = logging.getLogger("cardcore.events")
    handler, level = Keep(level=logging.DEBUG), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        with house_rule(
            "AUD-EV-1", "golf.audit-ev", "golf", on_event=impl("on_event", "event", boom)
        ):
            game = cardcore.new_game("golf", 2, rules=["golf.audit-ev"], seed=4)
            failures: list[DeliveryFailure] = []
            heard: list[str] = []
            game.events.on_error = failures.append
            game.events.subscribe(cardcore.Event, lambda event: heard.append(event.slug))
            game.act(0, "flip 0")
            assert game.version == 1
            assert heard == ["action-applied", "card-revealed"]
            assert [f.plugin for f in failures] == ["golf.audit-ev"] * 2
            play_random(game)
            assert game.is_over
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    mine = [r for r in records if "golf.audit-ev" in r.getMessage()]
    assert mine[0].levelno == logging.ERROR and mine[0].exc_info
    assert all(r.levelno in (logging.DEBUG, logging.WARNING) for r in mine[1:])
    warned = [r for r in mine if r.levelno == logging.WARNING]
    assert "10 times" in warned[0].getMessage()
    assert warned[-1] is mine[-1]  # the count when the game ends


def test_on_event_base_exception_raised_after_every_handler() -> None:
    heard: list[str] = []

    def interrupt(event: Any) -> None:
        if event.slug == "action-applied":
            raise KeyboardInterrupt

    with house_rule(
        "AUD-EV-1", "golf.audit-ev", "golf", on_event=impl("on_event", "event", interrupt)
    ):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-ev"], seed=4)
        game.events.subscribe(cardcore.Event, lambda event: heard.append(event.slug))
        with pytest.raises(KeyboardInterrupt):
            game.act(0, "flip 0")
        assert game.version == 1 and heard == ["action-applied", "card-revealed"]


def test_on_event_wrapper_is_refused() -> None:
    @hookimpl(wrapper=True)
    def on_event(event: Any) -> Any:
        return (yield)

    with (
        house_rule("AUD-EV-1", "golf.audit-ev", "golf", on_event=on_event),
        pytest.raises(PluginError) as info,
    ):
        cardcore.new_game("golf", 2, rules=["golf.audit-ev"], seed=4)
    assert info.value.plugin == "golf.audit-ev"


# --- hook names and arguments ----------------------------------------------------------------------------


def test_unknown_hook_name_is_refused_with_the_closest_names() -> None:
    with (
        house_rule(
            "AUD-TYPO-1",
            "golf.audit-typo",
            "golf",
            forbid_actoin=const("forbid_actoin", "state, action", None),
        ),
        pytest.raises(PluginError, match=r"did you mean 'forbid_action'\?") as info,
    ):
        cardcore.new_game("golf", 2, rules=["golf.audit-typo"])
    assert "golf.audit-typo" in str(info.value)
    with pytest.raises(PluginError, match="did you mean 'golf_score_table'"):
        cardcore.get_ruleset("golf", ["golf.hard"]).resolve("golf_score_tabel")


def test_optionalhook_of_another_game_is_accepted() -> None:
    other = const("tonk_upcard", "", False)
    other = hookimpl(optionalhook=True)(
        other.__wrapped__ if hasattr(other, "__wrapped__") else other
    )
    with house_rule(
        "AUD-OPT-1",
        "golf.audit-shared",
        "golf",
        tonk_upcard=other,
        forbid_action=const("forbid_action", "action", None),
    ):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-shared"], seed=1)
        assert game.version == 0


def test_game_hook_argument_mismatch_is_refused_naming_the_plugin() -> None:
    bad = const("golf_score_table", "layout, bogus", None)
    with (
        house_rule("AUD-ARG-1", "golf.audit-args", "golf", golf_score_table=bad),
        pytest.raises(PluginError, match="bogus") as info,
    ):
        cardcore.new_game("golf", 2, rules=["golf.audit-args"], seed=1)
    assert "golf.audit-args" in str(info.value)


def test_rule_implementing_no_hook_warns() -> None:
    with (
        house_rule("AUD-NONE-1", "golf.audit-nothing", "golf"),
        pytest.warns(PluginWarning, match="golf.audit-nothing"),
    ):
        cardcore.new_game("golf", 2, rules=["golf.audit-nothing"], seed=1)


# --- Golf's own hooks ------------------------------------------------------------------------------------------


def test_golf_hard_answers_golf_score_table_and_no_penalty_hook_without_a_rule() -> None:
    ruleset = cardcore.get_ruleset("golf", ["golf.hard"])
    assert ruleset.resolve("golf_score_table") is not None
    assert cardcore.get_ruleset("golf").resolve("golf_ender_penalty") is None
    assert cardcore.get_ruleset("golf").resolve("golf_round_awards") is None


def test_golf_score_table_takes_the_options_when_named() -> None:
    seen: list[Any] = []
    spy = impl(
        "golf_score_table", "layout, options", lambda layout, options: seen.append(dict(options))
    )
    with house_rule("AUD-GST-1", "golf.audit-table", "golf", golf_score_table=spy):
        cardcore.new_game("golf", 2, rules=["golf.audit-table"], seed=1, options={"rounds": 2})
    assert seen and seen[-1]["rounds"] == 2


GOLF_BAD_AT_SETUP = [
    ("golf_score_table", "layout, options", "x"),
    ("golf_scorer", "layout", "x"),
    ("golf_final_turns", "layout", "x"),
    ("golf_removable_groups", "layout", [[99]]),
]


@pytest.mark.parametrize(("hook", "params", "bad"), GOLF_BAD_AT_SETUP)
def test_golf_hooks_wrong_answer_at_setup_names_the_rule(hook: str, params: str, bad: Any) -> None:
    with (
        house_rule("AUD-G-1", "golf.audit-g", "golf", **{hook: const(hook, params, bad)}),
        pytest.raises(PluginError) as info,
    ):
        cardcore.new_game("golf", 2, rules=["golf.audit-g"], seed=3, options={"rounds": 1})
    assert info.value.plugin == "golf.audit-g"


GOLF_BAD_IN_PLAY = [
    ("golf_scorer", "layout", lambda keys, points: 2.5),
    ("golf_round_awards", "layout, keys", [1]),
    ("golf_round_awards", "layout, keys", [2.5, 0]),
    ("golf_ender_penalty", "layout, scores, ender, pays", 2.5),
]


@pytest.mark.parametrize(("hook", "params", "bad"), GOLF_BAD_IN_PLAY)
def test_golf_hooks_wrong_answer_in_play_leaves_the_game_unchanged(
    hook: str, params: str, bad: Any
) -> None:
    with house_rule("AUD-G-1", "golf.audit-g", "golf", **{hook: const(hook, params, bad)}):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-g"], seed=3, options={"rounds": 1})
        fails_cleanly(game, 3, "golf.audit-g")


def test_golf_ender_ties_pay_asked_with_a_penalty_rule() -> None:
    bad = const("golf_ender_ties_pay", "layout", "x")
    with house_rule("AUD-G-1", "golf.audit-g", "golf", golf_ender_ties_pay=bad):
        game = cardcore.new_game(
            "golf",
            2,
            rules=["golf.audit-g", "golf.ender-penalty-10"],
            seed=3,
            options={"rounds": 1},
        )
        fails_cleanly(game, 3, "golf.audit-g")


def test_golf_ender_penalty_gets_scores_ender_and_pays() -> None:
    asked: list[tuple[tuple[int, ...], int, bool]] = []

    def penalty(layout: Any, scores: Any, ender: int, pays: bool) -> int:
        asked.append((tuple(scores), ender, pays))
        return 0

    with house_rule(
        "AUD-G-1",
        "golf.audit-pen",
        "golf",
        golf_ender_penalty=impl("golf_ender_penalty", "layout, scores, ender, pays", penalty),
    ):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-pen"], seed=3, options={"rounds": 2})
        result = play_random(game)
    plain = play_random(cardcore.new_game("golf", 2, seed=3, options={"rounds": 2}))
    assert result.scores == plain.scores
    assert 1 <= len(asked) <= 2
    for scores, ender, pays in asked:
        low = min(scores)
        assert pays == (scores[ender] > low)  # ties do not pay by default (GOLF-PEN-4)


def test_golf_round_awards_blames_the_rule_that_answered() -> None:
    with (
        house_rule(
            "AUD-X-10",
            "golf.audit-a",
            "golf",
            golf_round_awards=const("golf_round_awards", "layout, keys", "x"),
        ),
        house_rule(
            "AUD-X-9",
            "golf.audit-b",
            "golf",
            golf_round_awards=const("golf_round_awards", "layout, keys", None),
        ),
    ):
        game = cardcore.new_game(
            "golf", 2, rules=["golf.audit-a", "golf.audit-b"], seed=3, options={"rounds": 1}
        )
        fails_cleanly(game, 3, "golf.audit-a")


def test_golf_scorer_blames_the_rule_whose_scorer_answered() -> None:
    with (
        house_rule(
            "AUD-X-10",
            "golf.audit-a",
            "golf",
            golf_scorer=const("golf_scorer", "layout", lambda keys, points: 2.5),
        ),
        house_rule(
            "AUD-X-9", "golf.audit-b", "golf", golf_scorer=const("golf_scorer", "layout", None)
        ),
    ):
        game = cardcore.new_game(
            "golf", 2, rules=["golf.audit-a", "golf.audit-b"], seed=3, options={"rounds": 1}
        )
        fails_cleanly(game, 3, "golf.audit-a")


@pytest.mark.parametrize("bad_first", [True, False])
def test_golf_ender_penalty_blames_the_rule_that_answered(bad_first: bool) -> None:
    bad = const("golf_ender_penalty", "layout, scores, ender, pays", 2.5)
    none = const("golf_ender_penalty", "layout, scores, ender, pays", None)
    with (
        house_rule(
            "AUD-X-10", "golf.audit-a", "golf", golf_ender_penalty=none if bad_first else bad
        ),
        house_rule(
            "AUD-X-9", "golf.audit-b", "golf", golf_ender_penalty=bad if bad_first else none
        ),
    ):
        game = cardcore.new_game(
            "golf", 2, rules=["golf.audit-a", "golf.audit-b"], seed=3, options={"rounds": 1}
        )
        fails_cleanly(game, 3, "golf.audit-b" if bad_first else "golf.audit-a")


def test_golf_hooks_asked_per_configuration_and_scoring_hooks_per_round() -> None:
    asked: Counter[str] = Counter()

    def spy(hook: str, params: str) -> Callable[..., Any]:
        return impl(hook, params, lambda **_: asked.update([hook]))

    hooks = {
        "golf_score_table": spy("golf_score_table", "layout"),
        "golf_scorer": spy("golf_scorer", "layout"),
        "golf_final_turns": spy("golf_final_turns", "layout"),
        "golf_removable_groups": spy("golf_removable_groups", "layout"),
        "golf_round_awards": spy("golf_round_awards", "layout, keys"),
        "golf_ender_ties_pay": spy("golf_ender_ties_pay", "layout"),
        "golf_ender_penalty": spy("golf_ender_penalty", "layout, scores, ender, pays"),
    }
    setup = {"golf_score_table", "golf_scorer", "golf_final_turns", "golf_removable_groups"}
    with house_rule("AUD-S-1", "golf.audit-spy", "golf", **hooks):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-spy"], seed=3, options={"rounds": 3})
        assert set(asked) == setup and all(n == 1 for n in asked.values())
        asked.clear()
        cardcore.new_game("golf", 2, rules=["golf.audit-spy"], seed=4, options={"rounds": 3})
        assert not asked  # the same configuration, players and options: kept
        play_random(game)
        assert set(asked) <= set(hooks) - setup
        assert asked["golf_round_awards"] == 3
        assert asked["golf_ender_penalty"] == asked["golf_ender_ties_pay"] <= 3


# --- Tonk's, Spit's and Speed's own hooks -----------------------------------------------------------------------

OTHER_GAME_HOOKS = [
    ("tonk", "tonk_upcard", "", "x"),
    ("tonk", "tonk_deal_judge", "", "x"),
    ("tonk", "tonk_deal_judge", "", lambda hands, values: "v"),
    ("tonk", "tonk_out_units", "new_spread", 2.5),
    ("tonk", "tonk_hand_ends_on_empty_stock", "", "x"),
    ("tonk", "tonk_quiet_from_discards", "", "x"),
    ("tonk", "tonk_void_deal_counts", "", "x"),
    ("tonk", "tonk_deal_shows_every_hand", "", "x"),
    ("spit", "spit_rank_gaps", "", [13]),
    ("spit", "spit_deal_order", "cards", "x"),
    ("spit", "spit_claim_rule", "", "x"),
    ("speed", "speed_stuck_detection", "", 0),
]


@pytest.mark.parametrize(("game_name", "hook", "params", "bad"), OTHER_GAME_HOOKS)
@pytest.mark.parametrize("bad_first", [True, False])
def test_game_hooks_wrong_answer_names_the_rule_that_answered(
    game_name: str, hook: str, params: str, bad: Any, bad_first: bool
) -> None:
    wrong, none = const(hook, params, bad), const(hook, params, None)
    a, b = f"{game_name}.audit-a", f"{game_name}.audit-b"
    with (
        house_rule("AUD-X-10", a, game_name, **{hook: none if bad_first else wrong}),
        house_rule("AUD-X-9", b, game_name, **{hook: wrong if bad_first else none}),
        pytest.raises(PluginError) as info,
    ):
        cardcore.new_game(game_name, 2, rules=[a, b], seed=3)
    assert info.value.plugin == (b if bad_first else a)


@pytest.mark.parametrize(
    ("game_name", "hook", "params"),
    [
        ("tonk", "tonk_upcard", ""),
        ("spit", "spit_claim_rule", ""),
        ("speed", "speed_stuck_detection", ""),
    ],
)
def test_game_hooks_raising_is_the_rules_plugin_error(
    game_name: str, hook: str, params: str
) -> None:
    def boom(**_: Any) -> Any:
        raise ZeroDivisionError("hook")

    name = f"{game_name}.audit-boom"
    with (
        house_rule("AUD-B-1", name, game_name, **{hook: impl(hook, params, boom)}),
        pytest.raises(PluginError) as info,
    ):
        cardcore.new_game(game_name, 2, rules=[name], seed=3)
    assert info.value.plugin == name


def test_tonk_upcard_false_leaves_the_discard_empty() -> None:
    with house_rule(
        "AUD-U-1", "tonk.audit-upcard", "tonk", tonk_upcard=const("tonk_upcard", "", False)
    ):
        game = cardcore.new_game("tonk", 2, rules=["tonk.audit-upcard"], seed=3)
        assert game.view(None)["zones"][1]["count"] == 0
        assert cards_in_one_place(game)
    plain = cardcore.new_game("tonk", 2, seed=3)
    assert plain.view(None)["zones"][1]["count"] == 1


def test_spit_rank_gaps_list_hook_merges_answers() -> None:
    zero = const("spit_rank_gaps", "", [0])
    with house_rule("AUD-G-1", "spit.audit-gaps", "spit", spit_rank_gaps=zero):
        gaps = cardcore.get_ruleset("spit", ["spit.audit-gaps"]).resolve("spit_rank_gaps")()
    assert sorted(x for answer in gaps for x in answer) == [0, 1, 12]


def test_game_hookspecs_built_in_place_take_the_name_they_are_set_under() -> None:
    import attrs

    from tests.plugins import drawgame

    def bonus_spec(seat: int) -> int | None:
        """Return a bonus."""

    def extras_spec(seat: int) -> int | None:
        """Return extras."""

    specs = types.ModuleType("auditgame_hookspecs")
    vars(specs)["auditgame_bonus"] = cardcore.hookspec(firstresult=True)(bonus_spec)
    vars(specs)["auditgame_extras"] = cardcore.hookspec(extras_spec)
    game = types.ModuleType("auditgame")
    game.GAME = attrs.evolve(drawgame.GAME, name="auditgame", hookspecs=specs)  # type: ignore[attr-defined]
    game.create_logic = drawgame.create_logic  # type: ignore[attr-defined]
    game.card_points = drawgame.card_points  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", "auditgame", game)
    try:
        with (
            house_rule(
                "AG-1",
                "auditgame.one",
                "auditgame",
                auditgame_bonus=const("auditgame_bonus", "seat", None),
                auditgame_extras=impl("auditgame_extras", "seat", lambda seat: seat + 1),
            ),
            house_rule(
                "AG-2",
                "auditgame.two",
                "auditgame",
                auditgame_bonus=const("auditgame_bonus", "seat", 7),
                auditgame_extras=const("auditgame_extras", "seat", None),
            ),
        ):
            ruleset = cardcore.get_ruleset("auditgame", ["auditgame.one", "auditgame.two"])
            assert ruleset.resolve("auditgame_bonus")(seat=0) == 7  # firstresult: AG-2 first
            assert ruleset.resolve("auditgame_extras")(seat=0) == [1]  # list: non-None answers
            assert cardcore.get_ruleset("auditgame").resolve("auditgame_bonus") is None
            with pytest.raises(PluginError, match="not a hook of 'auditgame'"):
                ruleset.resolve("bonus_spec")
            game_ = cardcore.new_game(
                "auditgame", 2, rules=["auditgame.two", "auditgame.one"], seed=1
            )
            assert game_.rules == ("auditgame.one", "auditgame.two")
    finally:
        cardcore.unregister("cardcore.games", "auditgame")


@pytest.mark.parametrize(
    "exc", [PluginError("own words", plugin="golf.audit-own"), KeyboardInterrupt()]
)
def test_score_round_own_plugin_error_or_interrupt_passes_as_it_is_game_restored(
    exc: BaseException,
) -> None:
    def raise_it(scores: Any) -> Any:
        raise exc

    with house_rule(
        "AUD-OWN-1", "golf.audit-own", "golf", score_round=impl("score_round", "scores", raise_it)
    ):
        game = cardcore.new_game("golf", 2, rules=["golf.audit-own"], seed=3, options={"rounds": 1})
        chooser = random.Random(3)
        while True:
            actions = game.legal_actions(game.to_act[0])
            action = actions[chooser.randrange(len(actions))]
            before = snap(game)
            try:
                game.apply(action)
            except BaseException as caught:
                assert caught is exc
                break
        assert snap(game) == before and cards_in_one_place(game)


def test_forbid_action_failing_mid_real_time_run_leaves_the_game_as_last_applied() -> None:
    calls = {"n": 0}

    def late(state: Any, action: Any) -> None:
        calls["n"] += 1
        if calls["n"] > 400:
            raise ValueError("late veto")

    agent = cardcore.load_agent("spit-greedy")
    last: dict[str, Any] = {}
    with house_rule(
        "AUD-RT-1",
        "spit.audit-late",
        "spit",
        forbid_action=impl("forbid_action", "state, action", late),
    ):
        game = cardcore.new_game("spit", 2, rules=["spit.audit-late"], seed=3)
        with pytest.raises(PluginError) as info:
            cardcore.run_realtime(
                game,
                [agent(seed=1), agent(seed=2)],
                seed=0,
                on_action=lambda g, a, t: last.update(snap=snap(g)),
            )
        assert info.value.plugin == "spit.audit-late"
        assert last["snap"] == snap(game) and cards_in_one_place(game)


# --- the pages' runnable code -------------------------------------------------------------------------------------


def _blocks(path: Path) -> list[tuple[str, str, str]]:
    """The ``doctest``, ``testcode`` and ``code-block`` blocks of an rst page, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[tuple[str, str, str]] = []
    i = 0
    while i < len(lines):
        found = re.match(r"^\s*\.\. (doctest|testcode|code-block)::\s*(\S*)", lines[i])
        i += 1
        if not found:
            continue
        indent = len(lines[i - 1]) - len(lines[i - 1].lstrip())
        while i < len(lines) and re.match(r"^\s+:\w[\w-]*:", lines[i]):
            i += 1
        body: list[str] = []
        while i < len(lines) and (
            not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent
        ):
            body.append(lines[i])
            i += 1
        out.append((found.group(1), found.group(2), textwrap.dedent("\n".join(body)).strip("\n")))
    return out


@pytest.mark.parametrize(
    ("page", "group"),
    [
        ("hooks.rst", "hooks"),
        ("plugin-guide/hookspecs.rst", "hookspecs"),
        ("plugin-guide/house-rule.rst", "house"),
        ("plugin-guide/migration.rst", "migration"),
    ],
)
def test_page_doctests_run_as_written(page: str, group: str) -> None:
    path = DOCS / page
    names = set(
        cardcore.available_rules("golf")
        + cardcore.available_rules("tonk")
        + cardcore.available_rules("speed")
    )
    namespace: dict[str, Any] = {}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    ran = 0
    try:
        for kind, arg, body in _blocks(path):
            if arg != group:
                continue
            if kind == "testcode":
                exec(compile(body, str(path), "exec"), namespace)
            elif kind == "doctest":
                test = parser.get_doctest(body, namespace, page, str(path), 0)
                result = runner.run(test, clear_globs=False)
                namespace.update(test.globs)
                assert result.failed == 0, f"{page}: {result.failed} failed"
                ran += result.attempted
    finally:  # a failing block must not leave its rules registered
        for name in (
            set(
                cardcore.available_rules("golf")
                + cardcore.available_rules("tonk")
                + cardcore.available_rules("speed")
            )
            - names
        ):
            cardcore.unregister("cardcore.rules", name)
    assert ran > 0


def test_migration_code_blocks_of_now_run() -> None:
    blocks = [
        body
        for kind, _, body in _blocks(DOCS / "plugin-guide" / "migration.rst")
        if kind == "code-block"
    ]
    game_info = next(b for b in blocks if b.startswith("GAME = GameInfo("))
    namespace: dict[str, Any] = {"GameInfo": cardcore.GameInfo, "ViewField": cardcore.ViewField}
    exec(game_info, namespace)
    assert [f.name for f in namespace["GAME"].fields] == ["turn", "totals"]
    event_block = next(
        b
        for b in blocks
        if "class CardDiscarded(Event)" in b and "@frozen" not in b.split("# now")[-1]
    )
    now = event_block.split("# now", 1)[1]
    from typing import ClassVar

    namespace = {"Event": cardcore.Event, "Card": Card, "ClassVar": ClassVar}
    exec(textwrap.dedent(now), namespace)
    event = namespace["CardDiscarded"](0, Card.parse("7H"))
    assert event.to_json() == {"event": "card-discarded", "seat": 0, "card": "7H"}


def test_literalinclude_targets_exist() -> None:
    import cardcore_golf.house.hard_scoring as hard
    import cardcore_golf.house.jokers_minus_two as jokers
    import cardcore_golf.logic as golf_logic
    import cardcore_golf.rules as golf_rules

    assert callable(golf_rules.create_logic) and callable(jokers.build_deck)
    assert callable(hard.golf_score_table) and callable(golf_logic.GolfLogic.__init__)
    assert "hookspecs=hookspecs" in inspect.getsource(golf_rules)
    assert "_required" in inspect.getsource(golf_logic.GolfLogic.__init__)
