"""Review (2026-12-06) of the plugin registry, the configuration caches and the options cache.

Each bug is a strict xfail; each claim that held is a plain test. Every plugin this file
registers is unregistered in a ``finally`` (fixtures), so other tests see the registry as
they found it.
"""

from __future__ import annotations

import math
import types
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

import cardcore
from cardcore import (
    CorruptStateError,
    GameInfo,
    Option,
    OptionError,
    PluginError,
    RuleConflictError,
    RuleInfo,
    UnknownPluginError,
    hookimpl,
)
from cardcore.errors import OtherGameRuleError
from tests.plugins import drawgame

GAMES, RULES = "cardcore.games", "cardcore.rules"


class _ShapeLogic(drawgame.DrawLogic):
    """The draw game, refusing a ``shape`` that holds anything but whole numbers."""

    def validate(self, players: int, options: Mapping[str, Any]) -> None:
        super().validate(players, options)
        for value in options.get("shape", ()):
            if type(value) is not int:
                msg = f"shape holds whole numbers only, not {value!r}"
                raise OptionError(msg)


def _game(name: str, *options: Option) -> types.SimpleNamespace:
    info = GameInfo(
        name=name,
        summary="review game",
        min_players=2,
        max_players=4,
        options=(Option("rounds", 1, "rounds", int, minimum=1, maximum=5), *options),
    )

    @hookimpl
    def create_logic(ruleset: cardcore.Ruleset) -> drawgame.DrawLogic:
        return _ShapeLogic(ruleset)

    return types.SimpleNamespace(
        GAME=info, create_logic=create_logic, card_points=drawgame.card_points
    )


@pytest.fixture
def registered() -> Iterator[list[tuple[str, str]]]:
    """Register through ``done.append((group, name))`` after ``cardcore.register``; all undone."""
    done: list[tuple[str, str]] = []
    try:
        yield done
    finally:
        for group, name in reversed(done):
            cardcore.unregister(group, name)


def _register(done: list[tuple[str, str]], group: str, name: str, target: Any) -> None:
    cardcore.register(group, name, target)
    done.append((group, name))


def _unregister(done: list[tuple[str, str]], group: str, name: str) -> None:
    cardcore.unregister(group, name)
    done.remove((group, name))


def _veto_rule(name: str, rule_id: str, *, default: int = 0, fail: bool = False) -> Any:
    info = RuleInfo(
        rule_id,
        name,
        "drawgame",
        "review rule",
        options=(Option(f"{name.split('.')[1]}-n", default, "n", int),),
    )

    @hookimpl
    def forbid_action(state: Any, action: Any) -> None:
        if fail:
            raise RuntimeError("boom in review rule")
        return None

    return types.SimpleNamespace(RULE=info, forbid_action=forbid_action)


# -- the options cache (``ruleset.checked`` in setup.new_game) ---------------------------------


def test_tuple_option_is_validated_fresh(registered: list[tuple[str, str]]) -> None:
    """Claim: with nothing cached, a shape holding 1.0 is refused by the game's validate."""
    _register(
        registered, GAMES, "revgame-a", _game("revgame-a", Option("shape", (1, 2), "s", tuple))
    )
    with pytest.raises(OptionError, match="whole numbers"):
        cardcore.new_game("revgame-a", 2, options={"shape": (1.0, 2)}, seed=1)


def test_tuple_option_not_answered_by_an_equal_cached_tuple(
    registered: list[tuple[str, str]],
) -> None:
    _register(
        registered, GAMES, "revgame-b", _game("revgame-b", Option("shape", (1, 2), "s", tuple))
    )
    cardcore.new_game("revgame-b", 2, options={"shape": (1, 2)}, seed=1)
    with pytest.raises(OptionError, match="whole numbers"):
        cardcore.new_game("revgame-b", 2, options={"shape": (1.0, 2)}, seed=1)


def test_float_option_zero_reads_as_a_plain_zero(registered: list[tuple[str, str]]) -> None:
    """A float option is made a plain float (``-0.0`` reads as ``0.0``), the same whether or
    not the configuration was checked before: the cache keys a float by its text, and a
    game replays from its record with the value it played with."""
    _register(registered, GAMES, "revgame-c", _game("revgame-c", Option("x", 0.0, "x", float)))
    for given in (-0.0, 0.0, -0.0):
        game = cardcore.new_game("revgame-c", 2, options={"x": given}, seed=1)
        assert math.copysign(1.0, game.options["x"]) == 1.0
        assert cardcore.replay(game.record()).options == game.options


def test_list_option_not_aliased_into_the_game(registered: list[tuple[str, str]]) -> None:
    _register(
        registered, GAMES, "revgame-d", _game("revgame-d", Option("shape", [1, 2], "s", list))
    )
    shape = [1, 2]
    game = cardcore.new_game("revgame-d", 2, options={"shape": shape}, seed=1)
    shape.append("x")
    assert list(game.options["shape"]) == [1, 2]
    cardcore.replay(game.record())


def test_dict_options_mutated_after_new_game_do_not_leak(registered: list[tuple[str, str]]) -> None:
    """Claim: the options dict itself is copied (a later change to it reaches no game)."""
    _register(registered, GAMES, "revgame-e", _game("revgame-e"))
    opts = {"rounds": 2}
    game = cardcore.new_game("revgame-e", 2, options=opts, seed=1)
    opts["rounds"] = 3
    assert game.options["rounds"] == 2
    assert cardcore.new_game("revgame-e", 2, options={"rounds": 2}, seed=1).options["rounds"] == 2
    assert cardcore.new_game("revgame-e", 2, options=opts, seed=1).options["rounds"] == 3


def test_int_bool_float_values_keyed_apart(registered: list[tuple[str, str]]) -> None:
    """Claim: 1, True and 1.0 for an int option are checked each on its own (the key holds the type)."""
    _register(registered, GAMES, "revgame-f", _game("revgame-f"))
    assert cardcore.new_game("revgame-f", 2, options={"rounds": 1}, seed=1).options["rounds"] == 1
    for bad in (True, 1.0, "1"):
        with pytest.raises(OptionError, match="rounds"):
            cardcore.new_game("revgame-f", 2, options={"rounds": bad}, seed=1)


# -- register / unregister and the configuration caches -----------------------------------


def test_reregistered_game_bounds_apply_to_new_games(registered: list[tuple[str, str]]) -> None:
    """Claim: a game registered again with other bounds and defaults is used at once (no stale
    ruleset or checked options), and unregister brings the first one back."""
    _register(registered, GAMES, "revgame-g", _game("revgame-g"))
    assert cardcore.new_game("revgame-g", 2, seed=1).options == {"rounds": 1}
    cardcore.new_game("revgame-g", 2, options={"rounds": 5}, seed=1)
    again = _game("revgame-g")
    again.GAME = GameInfo(
        name="revgame-g",
        summary="review game",
        min_players=2,
        max_players=4,
        options=(Option("rounds", 2, "rounds", int, minimum=1, maximum=3),),
    )
    _register(registered, GAMES, "revgame-g", again)
    assert cardcore.new_game("revgame-g", 2, seed=1).options == {"rounds": 2}
    with pytest.raises(OptionError, match="at most 3"):
        cardcore.new_game("revgame-g", 2, options={"rounds": 5}, seed=1)
    _unregister(registered, GAMES, "revgame-g")
    assert cardcore.new_game("revgame-g", 2, options={"rounds": 5}, seed=1).options["rounds"] == 5


def test_reregistered_rule_options_and_hooks_apply(registered: list[tuple[str, str]]) -> None:
    """Claim: a house rule registered again (other option default, a failing hook) is what new
    games get; a game started before keeps the ruleset it started with."""
    _register(registered, RULES, "drawgame.rev-a", _veto_rule("drawgame.rev-a", "DRAW-VAR-91"))
    old = cardcore.new_game("drawgame", 2, rules=["drawgame.rev-a"], seed=1)
    assert old.options["rev-a-n"] == 0
    _register(
        registered,
        RULES,
        "drawgame.rev-a",
        _veto_rule("drawgame.rev-a", "DRAW-VAR-91", default=7, fail=True),
    )
    new = cardcore.new_game("drawgame", 2, rules=["DRAW-VAR-91"], seed=1)
    assert new.options["rev-a-n"] == 7
    with pytest.raises(PluginError, match=r"drawgame\.rev-a") as info:
        new.legal_actions(new.to_act[0])
    assert info.value.plugin == "drawgame.rev-a"
    assert old.legal_actions(old.to_act[0])  # its own ruleset: the first rule's hook


def test_unregistered_rule_live_game_and_save(registered: list[tuple[str, str]]) -> None:
    """Claim: with its rule unregistered a live game plays on; its save and record are refused
    with CorruptStateError naming the rule, and load again once it is back."""
    rule = _veto_rule("drawgame.rev-b", "DRAW-VAR-92")
    _register(registered, RULES, "drawgame.rev-b", rule)
    game = cardcore.new_game("drawgame", 2, rules=["drawgame.rev-b"], seed=3)
    game.apply(game.legal_actions(game.to_act[0])[0])
    saved, record = game.save(), game.record()
    _unregister(registered, RULES, "drawgame.rev-b")
    game.apply(game.legal_actions(game.to_act[0])[0])
    assert game.version == 2
    for restore, data in ((cardcore.load, saved), (cardcore.replay, record)):
        with pytest.raises(CorruptStateError, match=r"drawgame\.rev-b"):
            restore(data)
    with pytest.raises(UnknownPluginError, match=r"drawgame\.rev-b"):
        cardcore.new_game("drawgame", 2, rules=["drawgame.rev-b"], seed=3)
    _register(registered, RULES, "drawgame.rev-b", rule)
    assert cardcore.load(saved).version == 1


# -- rules= and without= --------------------------------------------------------------------


def test_rule_named_by_name_and_by_id_is_one_rule(registered: list[tuple[str, str]]) -> None:
    """Claim: a rule named twice (by name and by ID, in either order) is one configuration."""
    _register(registered, RULES, "drawgame.rev-c", _veto_rule("drawgame.rev-c", "DRAW-VAR-93"))
    a = cardcore.get_ruleset("drawgame", ["DRAW-VAR-93", "drawgame.rev-c"])
    b = cardcore.get_ruleset("drawgame", ["drawgame.rev-c", "DRAW-VAR-93"])
    assert a is b
    assert a.rule_names == ("drawgame.rev-c",)


def test_rules_and_without_refusals_are_cardcore_errors() -> None:
    """Claim: bad rules= / without= give cardcore errors naming what was wrong."""
    with pytest.raises(RuleConflictError, match="'nope' is not a default rule"):
        cardcore.get_ruleset("drawgame", [], ["nope"])
    with pytest.raises(OtherGameRuleError, match="belongs to 'racegame'"):
        cardcore.get_ruleset("drawgame", ["racegame.no-kings"])
    with pytest.raises(UnknownPluginError, match="not 1"):
        cardcore.get_ruleset("drawgame", [1])  # type: ignore[list-item]
    with pytest.raises(cardcore.CardcoreError, match="without takes a list of names"):
        cardcore.new_game("drawgame", 2, without=None)  # type: ignore[arg-type]
    with pytest.raises(UnknownPluginError, match="nothing is registered"):
        cardcore.unregister(RULES, ["zzz"])  # type: ignore[arg-type]
    with pytest.raises(PluginError, match="has no RULE"):
        cardcore.register(RULES, "drawgame.zz", 5)


# -- hooks misused by a house rule -----------------------------------------------------------


@hookimpl
def _generator_veto(state: Any, action: Any) -> Iterator[None]:
    yield None  # a generator without wrapper=True: its answer is a generator


@hookimpl
def _stopping_veto(state: Any, action: Any) -> None:
    raise StopIteration


@pytest.mark.parametrize(
    ("name", "rule_id", "hook", "words"),
    [
        ("drawgame.rev-gen", "DRAW-VAR-94", _generator_veto, "answered <generator"),
        ("drawgame.rev-stop", "DRAW-VAR-95", _stopping_veto, "raised StopIteration"),
    ],
)
def test_misused_hook_is_a_plugin_error_naming_the_rule(
    registered: list[tuple[str, str]], name: str, rule_id: str, hook: Any, words: str
) -> None:
    """Claim: a generator hook (no wrapper=True) or one raising StopIteration is a
    PluginError naming the rule, not a raw error or a silent allow."""
    rule = types.SimpleNamespace(
        RULE=RuleInfo(rule_id, name, "drawgame", "review rule"), forbid_action=hook
    )
    _register(registered, RULES, name, rule)
    game = cardcore.new_game("drawgame", 2, rules=[name], seed=1)
    with pytest.raises(PluginError, match=words) as info:
        game.legal_actions(game.to_act[0])
    assert name in str(info.value)
