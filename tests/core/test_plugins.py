from __future__ import annotations

import contextlib
import types
from collections.abc import Iterator
from contextlib import contextmanager

import attrs
import pytest
from tests.plugins import drawgame
from tests.plugins.drawgame import Discard

import cardcore
from cardcore import (
    PluginError,
    RuleConflictError,
    RuleInfo,
    UnknownPluginError,
    Veto,
    hookimpl,
    plugins,
)
from cardcore._declared import PluginWarning


def test_available_games_and_rules() -> None:
    assert "drawgame" in cardcore.available_games()
    rules = cardcore.available_rules("drawgame")
    assert {"drawgame.kings-free", "drawgame.no-hearts", "drawgame.penalty"} <= set(rules)
    assert "random" in cardcore.available_agents()


def test_unknown_game_lists_installed() -> None:
    with pytest.raises(UnknownPluginError, match="drawgame"):
        cardcore.new_game("nope", 2)


def test_unknown_rule_lists_installed() -> None:
    with pytest.raises(UnknownPluginError, match=r"drawgame\.kings-free"):
        cardcore.new_game("drawgame", 2, rules=["drawgame.nope"])


def test_rule_by_id_and_ruleset_cached() -> None:
    a = cardcore.get_ruleset("drawgame", ["DRAW-VAR-1"])
    b = cardcore.get_ruleset("drawgame", ["drawgame.kings-free"])
    assert a is b and a.rule_names == ("drawgame.kings-free",)
    assert cardcore.get_ruleset("drawgame") is not a


def test_conflicts_raise_before_the_deal() -> None:
    with pytest.raises(RuleConflictError, match="cannot be combined"):
        cardcore.new_game("drawgame", 2, rules=["drawgame.penalty", "drawgame.no-hearts"])


def test_rule_of_another_game() -> None:
    other = types.ModuleType("other_rule")
    other.RULE = RuleInfo("RACE-VAR-1", "racegame.other", "racegame", "x")  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "racegame.other", other)
    try:
        with pytest.raises(UnknownPluginError, match="belongs to 'racegame'") as info:
            cardcore.new_game("drawgame", 2, rules=["racegame.other"])
        assert isinstance(info.value, RuleConflictError)  # what it raised before: still caught
    finally:
        cardcore.unregister("cardcore.rules", "racegame.other")


def test_requires_and_without() -> None:
    needy = types.ModuleType("needy_rule")
    needy.RULE = RuleInfo("DRAW-VAR-9", "drawgame.needy", "drawgame", "x", requires=("DRAW-VAR-1",))  # type: ignore[attr-defined]
    needy.forbid_action = hookimpl(lambda action: None)  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "drawgame.needy", needy)
    try:
        with pytest.raises(RuleConflictError, match="requires"):
            cardcore.new_game("drawgame", 2, rules=["drawgame.needy"])
        game = cardcore.new_game(
            "drawgame", 2, rules=["drawgame.needy", "drawgame.kings-free"], seed=1
        )
        assert game.rules == ("drawgame.kings-free", "drawgame.needy")
        with pytest.raises(RuleConflictError, match="not a default rule"):
            cardcore.new_game("drawgame", 2, without=["drawgame.kings-free"])
    finally:
        cardcore.unregister("cardcore.rules", "drawgame.needy")


def test_bad_hookimpl_is_plugin_error() -> None:
    bad = types.ModuleType("bad_rule")
    bad.RULE = RuleInfo("DRAW-VAR-8", "drawgame.bad", "drawgame", "x")  # type: ignore[attr-defined]

    @hookimpl
    def card_points(card, nonsense):  # type: ignore[no-untyped-def]
        return 0

    bad.card_points = card_points  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "drawgame.bad", bad)
    try:
        with pytest.raises(PluginError, match=r"drawgame\.bad"):
            cardcore.new_game("drawgame", 2, rules=["drawgame.bad"])
    finally:
        cardcore.unregister("cardcore.rules", "drawgame.bad")


def test_resolve_firstresult_lists_and_absent_hooks() -> None:
    rs = cardcore.get_ruleset("drawgame", ["drawgame.kings-free"])
    points = rs.resolve("card_points")
    assert points is not None
    assert points(card=cardcore.Card.parse("KS")) == 0  # the rule answers first
    assert points(card=cardcore.Card.parse("QS")) == 10  # the game (trylast) answers the rest
    assert rs.resolve("forbid_action") is None and rs.veto is None  # no rule: nothing to call
    assert rs.resolve("score_round") is None and rs.score_round is None
    vetoes = cardcore.get_ruleset("drawgame", ["drawgame.no-hearts"]).resolve("forbid_action")
    assert vetoes is not None
    discard = _discard(0, "2H")
    assert [v.rule_id for v in vetoes(state=None, action=discard)] == ["DRAW-VAR-2"]
    assert vetoes(state=None, action=_discard(0, "2S")) == []  # a list hook: the non-None answers
    with pytest.raises(PluginError, match="did you mean 'forbid_action'"):
        rs.resolve("forbid_actoin")
    assert rs.versions() == {"drawgame": "0.1.0", "drawgame.kings-free": "0.1.0"}


def _discard(seat: int, card: str) -> Discard:
    return Discard(seat, cardcore.Card.parse(card))


def test_house_rule_changes_scores() -> None:
    def totals(rules: list[str]) -> tuple[float, ...]:
        game = cardcore.new_game("drawgame", 2, rules=rules, seed=4)
        result = cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
        return result.scores

    plain = totals([])
    assert totals(["drawgame.penalty"])[0] == plain[0] + 100


def test_two_configurations_side_by_side() -> None:
    a = cardcore.new_game("drawgame", 2, seed=2)
    b = cardcore.new_game("drawgame", 2, seed=2, rules=["drawgame.kings-free"])
    assert a.ruleset is not b.ruleset
    assert a.state.zones.cards == b.state.zones.cards


def test_unregister_removes_plugin_and_cached_rulesets() -> None:
    temp = types.ModuleType("temp_rule")
    temp.RULE = RuleInfo("DRAW-VAR-7", "drawgame.temp", "drawgame", "x")  # type: ignore[attr-defined]
    temp.forbid_action = hookimpl(lambda action: None)  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "drawgame.temp", temp)
    cardcore.new_game("drawgame", 2, rules=["drawgame.temp"], seed=1)
    cardcore.unregister("cardcore.rules", "drawgame.temp")
    assert "drawgame.temp" not in cardcore.available_rules("drawgame")
    with pytest.raises(UnknownPluginError):
        cardcore.new_game("drawgame", 2, rules=["drawgame.temp"], seed=1)
    with pytest.raises(UnknownPluginError):
        cardcore.unregister("cardcore.rules", "drawgame.temp")


# -- declarations checked at registration and when a configuration is built -------------


def _rule(rule_id: str, name: str, **extra: object) -> types.ModuleType:
    """A house-rule module for drawgame vetoing nothing, with *extra* module attributes."""
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    info = RuleInfo(rule_id, name, "drawgame", "a test rule", **extra.pop("info", {}))  # type: ignore[arg-type]
    vars(module).update(RULE=info, forbid_action=hookimpl(lambda action: None), **extra)
    return module


@contextmanager
def _registered(module: types.ModuleType, name: str | None = None) -> Iterator[None]:
    name = name or module.RULE.name
    cardcore.register("cardcore.rules", name, module)
    try:
        yield
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_register_refuses_a_declared_name_other_than_the_registered_one() -> None:
    """The record stores GAME.name / RULE.name and replay looks it up: they must match."""
    module = _rule("DRAW-VAR-31", "drawgame.beta")
    with pytest.raises(PluginError, match=r"declares RULE\.name = 'drawgame\.beta'") as info:
        cardcore.register("cardcore.rules", "drawgame.gamma", module)
    assert info.value.plugin == "drawgame.gamma"
    assert "drawgame.gamma" not in cardcore.available_rules("drawgame")
    game = types.ModuleType("eights")
    game.GAME = attrs.evolve(drawgame.GAME, name="eights-v2")  # type: ignore[attr-defined]
    with pytest.raises(
        PluginError, match=r"game plugin 'eights_v2' declares GAME\.name = 'eights-v2'"
    ):
        cardcore.register("cardcore.games", "eights_v2", game)
    assert "eights_v2" not in cardcore.available_games()


class _EntryPoint:
    """Stands for an installed entry point (loaded lazily, so register() never saw it)."""

    group = "cardcore.rules"

    def __init__(self, value: str, target: types.ModuleType) -> None:
        self.value, self._target = value, target

    def load(self) -> types.ModuleType:
        return self._target


def test_an_entry_point_whose_rule_declares_another_name_is_refused_when_loaded() -> None:
    module = _rule("DRAW-VAR-32", "drawgame.beta")
    plugins._entries()["cardcore.rules"]["drawgame.gamma"] = _EntryPoint("m:x", module)
    try:
        with pytest.raises(
            PluginError, match=r"house rule plugin 'drawgame\.gamma' declares RULE\.name"
        ):
            cardcore.new_game("drawgame", 2, rules=["drawgame.gamma"], seed=1)
        assert "drawgame.gamma" not in cardcore.available_rules("drawgame")
    finally:
        cardcore.unregister("cardcore.rules", "drawgame.gamma")


def test_a_hook_function_without_hookimpl_is_refused() -> None:
    def forbid_action(action: object) -> Veto | None:
        return Veto("DRAW-VAR-33", "no take")

    module = _rule("DRAW-VAR-33", "drawgame.unmarked")
    module.forbid_action = forbid_action  # type: ignore[attr-defined]
    with (
        _registered(module),
        pytest.raises(
            PluginError, match=r"'drawgame.unmarked' defines forbid_action\(\) without @hookimpl"
        ) as info,
    ):
        cardcore.new_game("drawgame", 2, rules=["drawgame.unmarked"], seed=1)
    assert info.value.plugin == "drawgame.unmarked"

    def card_points(card: cardcore.Card) -> int:
        return 1

    game = types.ModuleType("unmarkedgame")
    vars(game).update(
        GAME=attrs.evolve(drawgame.GAME, name="unmarkedgame"),
        create_logic=drawgame.create_logic,
        card_points=card_points,
    )
    cardcore.register("cardcore.games", "unmarkedgame", game)
    try:
        with pytest.raises(PluginError, match=r"'unmarkedgame' defines card_points\(\) without"):
            cardcore.new_game("unmarkedgame", 2, seed=1)
    finally:
        cardcore.unregister("cardcore.games", "unmarkedgame")


def test_a_house_rule_implementing_no_hook_warns() -> None:
    module = _rule("DRAW-VAR-34", "drawgame.idle")
    del module.forbid_action
    with (
        _registered(module),
        pytest.warns(PluginWarning, match="'drawgame.idle' implements no hook"),
    ):
        cardcore.new_game("drawgame", 2, rules=["drawgame.idle"], seed=1)


def test_applies_must_name_a_declared_option_and_values_it_accepts() -> None:
    typo = _rule("DRAW-VAR-35", "drawgame.typo-applies", info={"applies": {"rouns": (2,)}})
    with (
        _registered(typo),
        pytest.raises(
            PluginError, match="applies to option 'rouns', which 'drawgame' does not declare"
        ) as info,
    ):
        cardcore.new_game("drawgame", 2, rules=["drawgame.typo-applies"], seed=1)
    assert info.value.plugin == "drawgame.typo-applies"
    bad = _rule("DRAW-VAR-36", "drawgame.nine-rounds", info={"applies": {"rounds": (2, 9)}})
    with (
        _registered(bad),
        pytest.raises(
            PluginError, match=r"applies to rounds 9, a value 'drawgame' refuses: .*at most 5"
        ),
    ):
        cardcore.new_game("drawgame", 2, rules=["drawgame.nine-rounds"], seed=1)


def test_applies_values_are_compared_as_the_option_accepted_them() -> None:
    """Literal ``==`` with the checked value: ``"2"`` is not ``2`` (drawgame's rounds is an int)."""
    two = _rule("DRAW-VAR-37", "drawgame.two", info={"applies": {"rounds": (2,)}})
    with _registered(two):
        assert cardcore.new_game(
            "drawgame", 2, rules=["drawgame.two"], options={"rounds": 2}, seed=1
        )
        with pytest.raises(cardcore.OptionError, match="applies only with rounds in"):
            cardcore.new_game("drawgame", 2, rules=["drawgame.two"], options={"rounds": 3}, seed=1)


def test_conflicts_naming_no_installed_rule_warns() -> None:
    module = _rule(
        "DRAW-VAR-38", "drawgame.typo-conflicts", info={"conflicts": ("drawgame.kings-fre",)}
    )
    with (
        _registered(module),
        pytest.warns(
            PluginWarning, match="conflict with 'drawgame.kings-fre', which is no installed rule"
        ),
    ):
        cardcore.new_game("drawgame", 2, rules=["drawgame.typo-conflicts"], seed=1)


def test_a_rule_id_reused_by_another_rule_is_refused_where_it_is_ambiguous() -> None:
    copy = _rule("DRAW-VAR-1", "drawgame.kings-copy")  # drawgame.kings-free's ID
    with _registered(copy):
        assert cardcore.new_game("drawgame", 2, rules=["drawgame.kings-copy"], seed=1)
        with pytest.raises(PluginError, match="rule ID 'DRAW-VAR-1' is declared by several"):
            cardcore.new_game("drawgame", 2, rules=["DRAW-VAR-1"], seed=1)
        with pytest.raises(PluginError, match="both declare the rule ID 'DRAW-VAR-1'"):
            cardcore.new_game(
                "drawgame", 2, rules=["drawgame.kings-free", "drawgame.kings-copy"], seed=1
            )


def test_builtin_games_and_rules_trip_no_declaration_check() -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for game in ("golf", "tonk", "spit", "speed"):
            cardcore.get_ruleset(game)
            for rule in cardcore.available_rules(game):
                if rule.split(".")[0] == game and not rule.startswith(("drawgame", "racegame")):
                    # a rule that needs another is no business of this test
                    with contextlib.suppress(RuleConflictError):
                        cardcore.get_ruleset(game, [rule])
