"""A mutation audit of the house-rule machinery (2026-12-25): registration, rule resolution
(conflicts, requires, applies, order), rule options and their bounds, and calling hooks.

Each test here fails on a mutant of ``src/cardcore`` that no other test noticed; the strict
xfail marks a bug found on the way (a conflict named by a rule ID in another case).
"""

from __future__ import annotations

import types
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import cardcore
from cardcore import Card, Option, RuleInfo, hookimpl
from cardcore.errors import OptionError, PluginError, PluginWarning, RuleConflictError


def _golf_rule(
    rule_id: str, name: str, conflicts: tuple[str, ...] = (), **hooks: Callable[..., Any]
) -> types.SimpleNamespace:
    """A Golf house rule as a namespace (what ``cardcore.register`` takes)."""
    info = RuleInfo(rule_id, name, "golf", "a test rule", conflicts=conflicts)
    return types.SimpleNamespace(RULE=info, **hooks)


@contextmanager
def _registered(*rules: Any) -> Iterator[None]:
    done = []
    try:
        for rule in rules:
            cardcore.register("cardcore.rules", rule.RULE.name, rule)
            done.append(rule.RULE.name)
        yield
    finally:
        for name in reversed(done):
            cardcore.unregister("cardcore.rules", name)


# --- order: house rules are registered sorted by rule ID (docs/hooks.rst) ---------------------


def test_house_rules_are_sorted_by_rule_id_not_by_name() -> None:
    # name order: pairs-anywhere < remove-columns; ID order: GOLF6-SCORE-2 < GOLF6-VAR-2
    for asked in (
        ["golf.pairs-anywhere", "golf.remove-columns"],
        ["golf.remove-columns", "golf.pairs-anywhere"],
    ):
        ruleset = cardcore.get_ruleset("golf", asked)
        assert ruleset.rule_names == ("golf.remove-columns", "golf.pairs-anywhere")
        assert [r.id for r in ruleset.rules] == ["GOLF6-SCORE-2", "GOLF6-VAR-2"]


def test_the_rule_with_the_highest_id_answers_a_firstresult_hook_first() -> None:
    """Registered sorted by ID, and pluggy calls the last registered first: of two rules
    answering ``card_points``, the one with the higher rule ID wins, whatever the names."""
    high = _golf_rule("GOLF-ZZ-9", "golf.aaa-high-id", card_points=hookimpl(lambda card: 91))
    low = _golf_rule("GOLF-AA-1", "golf.zzz-low-id", card_points=hookimpl(lambda card: 19))
    with _registered(high, low):
        for asked in (
            ["golf.aaa-high-id", "golf.zzz-low-id"],
            ["golf.zzz-low-id", "golf.aaa-high-id"],
        ):
            ruleset = cardcore.get_ruleset("golf", asked)
            assert ruleset.rule_names == ("golf.zzz-low-id", "golf.aaa-high-id")
            points = ruleset.resolve("card_points")
            assert points is not None
            assert points(card=Card.parse("5H")) == 91


# --- rule options: bounds and types ------------------------------------------------------------


def test_an_object_option_with_bounds_refuses_a_bool_within_them() -> None:
    """``kind=object`` with bounds takes a choice or a whole number: ``True`` (== 1) is no seat."""
    opt = Option("seat", default="random", kind=object, choices=("random",), minimum=0, maximum=63)
    assert opt.check(1) == 1
    assert opt.check("random") == "random"
    for bad in (True, False):
        with pytest.raises(OptionError, match="'seat'"):
            opt.check(bad)
    with pytest.raises(OptionError, match=r"'dealer'.*GOLF-DEAL-3"):
        cardcore.new_game("golf", 2, options={"dealer": True}, seed=1)
    assert cardcore.new_game("golf", 2, options={"dealer": 1}, seed=1).options["dealer"] == 1


def test_an_option_whose_minimum_equals_its_maximum_is_declared_and_takes_that_value() -> None:
    opt = Option("fixed", default=2, minimum=2, maximum=2)
    assert opt.check(2) == 2
    for bad in (1, 3):
        with pytest.raises(OptionError, match="'fixed'"):
            opt.check(bad)
    half = Option("half", default=0.5, kind=float, minimum=0.5, maximum=0.5)
    assert half.check(0.5) == 0.5
    # a rule may declare one as its own option
    info = RuleInfo("GOLF-TEST-30", "golf.fixed-option", "golf", "t", options=(opt,))
    assert info.options == (opt,)


# --- applies: every value listed must be one the game accepts ---------------------------------


def test_applies_listing_a_refused_value_first_is_refused() -> None:
    rule = types.SimpleNamespace(
        RULE=RuleInfo("GOLF-TEST-31", "golf.seven-cards", "golf", "t", applies={"layout": (7, 6)}),
        card_points=hookimpl(lambda card: None),
    )
    with (
        _registered(rule),
        pytest.raises(PluginError, match=r"applies to layout 7, a value 'golf' refuses") as info,
    ):
        cardcore.get_ruleset("golf", ["golf.seven-cards"])
    assert info.value.plugin == "golf.seven-cards"


# --- calling a rule's hooks ---------------------------------------------------------------------


def test_an_option_error_a_rule_raises_reaches_the_caller_as_it_is() -> None:
    """A rule refusing the caller's options (OptionError) is not the rule's own failure:
    the caller gets the OptionError, not a PluginError wrapping it."""

    def build_deck(players: int, options: Any) -> None:
        raise OptionError("golf.t-refuse takes at most 3 players")

    rule = _golf_rule("GOLF-TEST-32", "golf.t-refuse", build_deck=hookimpl(build_deck))
    with _registered(rule), pytest.raises(OptionError, match="takes at most 3 players") as info:
        cardcore.new_game("golf", 2, rules=["golf.t-refuse"], seed=1)
    assert not isinstance(info.value, PluginError)


class _Loud(int):
    """An int subclass whose sums stay of the subclass (what must never reach a state)."""

    def __add__(self, other: object) -> _Loud:
        return _Loud(int(self) + int(other))  # type: ignore[call-overload]

    __radd__ = __add__


@pytest.mark.parametrize("kind", [tuple, list])
def test_a_rules_list_or_tuple_answer_of_int_subclasses_comes_back_as_plain_ints(
    kind: type,
) -> None:
    def awards(layout: Any, keys: Any) -> Any:
        return kind([_Loud(3), _Loud(-1)])

    rule = _golf_rule("GOLF-TEST-33", "golf.loud-awards", golf_round_awards=hookimpl(awards))
    with _registered(rule):
        call = cardcore.get_ruleset("golf", ["golf.loud-awards"]).resolve("golf_round_awards")
        assert call is not None
        (answer,) = call(layout=None, keys=())
    assert type(answer) is kind
    assert answer == kind([3, -1])
    assert [type(x) for x in answer] == [int, int]


def test_a_rule_implementing_only_another_games_optional_hook_warns() -> None:
    """An ``optionalhook`` for a hook Golf does not have is no hook of Golf: the rule
    changes nothing, and building the configuration says so."""
    rule = _golf_rule(
        "GOLF-TEST-34",
        "golf.only-tonk-hook",
        tonk_drop_allowed=hookimpl(optionalhook=True)(lambda state: None),
    )
    with (
        _registered(rule),
        pytest.warns(PluginWarning, match=r"'golf\.only-tonk-hook' implements no hook of 'golf'"),
    ):
        cardcore.get_ruleset("golf", ["golf.only-tonk-hook"])


# --- a conflict named by a rule ID in another case ---------------------------------------------


def test_a_conflict_named_by_a_rule_id_in_another_case_is_enforced() -> None:
    rule = _golf_rule(
        "GOLF-TEST-35", "golf.t-lower", ("golf-score-2",), card_points=hookimpl(lambda card: None)
    )
    with _registered(rule), warnings.catch_warnings():
        warnings.simplefilter("ignore", PluginWarning)
        with pytest.raises(RuleConflictError, match=r"'golf\.t-lower' and 'golf\.hard'"):
            cardcore.get_ruleset("golf", ["golf.t-lower", "golf.hard"])
        assert cardcore.get_ruleset("golf", ["golf.t-lower"]).rule_names == ("golf.t-lower",)


def test_a_conflict_named_by_a_rule_id_in_another_case_does_not_warn() -> None:
    rule = _golf_rule(
        "GOLF-TEST-36", "golf.t-lower2", ("golf-score-2",), card_points=hookimpl(lambda card: None)
    )
    with _registered(rule), warnings.catch_warnings():
        warnings.simplefilter("error", PluginWarning)
        cardcore.get_ruleset("golf", ["golf.t-lower2"])


def test_a_non_veto_answer_after_a_veto_is_refused_naming_its_hook() -> None:
    """Every ``forbid_action`` answer must be a Veto, not only the first one collected."""
    veto = cardcore.Veto("GOLF-ZZ-8", "never draw from the stock")
    first = _golf_rule(
        "GOLF-ZZ-8",
        "golf.vetoes-stock",
        forbid_action=hookimpl(lambda action: veto if "stock" in str(action) else None),
    )
    second = _golf_rule(
        "GOLF-AA-2", "golf.answers-text", forbid_action=hookimpl(lambda action: "nope")
    )
    with _registered(first, second):
        ruleset = cardcore.get_ruleset("golf", ["golf.vetoes-stock", "golf.answers-text"])
        assert ruleset.veto is not None
        with pytest.raises(PluginError, match=r"answered 'nope'.*a Veto to forbid"):
            ruleset.veto(state=None, action="draw stock")
        with pytest.raises(PluginError, match=r"answered 'nope'.*a Veto to forbid"):
            game = cardcore.new_game("golf", 2, rules=["golf.answers-text"], seed=1)
            game.legal_actions(game.to_act[0])


def test_a_choice_is_matched_by_type_and_value() -> None:
    """``6.0`` and ``True`` equal ``6`` and ``1`` but are not those choices: they would reach
    views and records as given."""
    opt = Option("size", default=6, kind=object, choices=(1, 6, "6"))
    assert opt.check(6) == 6 and opt.check("6") == "6" and opt.check(1) == 1
    for bad in (6.0, True):
        with pytest.raises(OptionError, match="'size'"):
            opt.check(bad)
    with pytest.raises(OptionError, match="'layout'"):
        cardcore.new_game("golf", 2, options={"layout": 6.0}, seed=1)
