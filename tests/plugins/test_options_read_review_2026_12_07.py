"""Read review (2026-12-07) of how games, house rules and options are declared, registered,
validated and versioned (``_options``, ``_declared``, ``info``, ``plugins``,
``_registrations``, ``_registered``, ``_earlier``, ``_versions``, the games' ``GAME``).

Each bug found is a strict xfail asserting the correct behaviour; each claim of the docs or
docstrings that held is a plain test. Every plugin registered here is unregistered in a
``finally`` (the ``registered`` helper), so other tests see the registry as they found it.
"""

from __future__ import annotations

import json
import math
import types
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from typing import Any

import pytest

import cardcore
from cardcore import (
    CardcoreError,
    Option,
    OptionError,
    PluginError,
    RuleConflictError,
    RuleInfo,
    UnknownPluginError,
    hookimpl,
)
from cardcore.errors import OtherGameRuleError

RULES = "cardcore.rules"


@hookimpl
def _no_veto(action: Any) -> None:
    """A hook that changes nothing (a rule implementing no hook would warn)."""
    return None


@contextmanager
def registered(rule: RuleInfo, **hooks: Any) -> Iterator[types.ModuleType]:
    """Register a house-rule module holding *rule* and *hooks* (as hooks.rst's ``house_rule``
    does), and unregister it whatever happens."""
    module = types.ModuleType("review_" + rule.name.replace(".", "_").replace("-", "_"))
    module.RULE = rule
    vars(module).update(hooks or {"forbid_action": _no_veto})
    cardcore.register(RULES, rule.name, module)
    try:
        yield module
    finally:
        cardcore.unregister(RULES, rule.name)


def _random_agents() -> list[cardcore.RandomAgent]:
    return [cardcore.RandomAgent(1), cardcore.RandomAgent(2)]


# --------------------------------------------------------------------------------------------
# Bugs found (strict xfails until fixed the same day; each checked to fail before the fix)
# --------------------------------------------------------------------------------------------


def test_two_chosen_rules_with_one_id_in_other_case_are_refused() -> None:
    rule = RuleInfo(id="golf-score-4", name="golf.review-jokers", game="golf", summary="x")
    with registered(rule):
        # the same ID in any case names both rules: asking for it is refused ...
        with pytest.raises(PluginError, match="several installed house rules"):
            cardcore.new_game("golf", 2, rules=["GOLF-SCORE-4"], seed=1)
        # ... and so must choosing both (house-rule.rst: "choosing both rules is a PluginError")
        with pytest.raises(PluginError, match="rule ID"):
            cardcore.new_game("golf", 2, rules=["golf.jokers", "golf.review-jokers"], seed=1)


def test_earlier_rules_of_a_prerelease_after_a_change_leave_that_change() -> None:
    # tonk.void-deal-counts keeps what Tonk did before 0.4.0; 0.5a1 comes after 0.4.0
    assert cardcore.rule_info("tonk.void-deal-counts").default_before == "0.4.0"
    earlier = cardcore.earlier_rules("tonk", "0.5a1")
    assert "tonk.void-deal-counts" not in earlier
    assert "tonk.quiet-round-any-turns" not in earlier
    assert "tonk.deal-shows-every-hand" in earlier  # changed at 0.5.0, after 0.5a1


def test_bounds_on_a_text_option_are_refused_when_declared() -> None:
    with pytest.raises(PluginError):
        Option("label", "a", kind=str, minimum=1)


def test_a_value_of_a_bounded_text_option_never_raises_a_raw_error() -> None:
    try:
        option = Option("label", None, kind=str, minimum=1, nullable=True)
    except PluginError:
        return  # refused where it is declared: the right place
    rule = RuleInfo(
        id="DOCS-LABEL-1", name="golf.review-label", game="golf", summary="x", options=(option,)
    )
    with registered(rule), pytest.raises(CardcoreError):
        cardcore.new_game("golf", 2, rules=[rule.name], options={"label": "a"}, seed=1)


def test_an_int_default_of_a_float_option_is_one_spelling() -> None:
    rule = RuleInfo(
        id="DOCS-WEIGHT-1",
        name="golf.review-weight",
        game="golf",
        summary="x",
        options=(Option("weight", 10, kind=float, minimum=0, maximum=100),),
    )
    with registered(rule):
        left_out = cardcore.new_game("golf", 2, rules=[rule.name], seed=1)
        given = cardcore.new_game("golf", 2, rules=[rule.name], options={"weight": 10}, seed=1)
        assert type(given.options["weight"]) is float  # Option.check: ints become floats
        record = left_out.record()
        again = cardcore.replay(record).record()
        assert json.dumps(again["options"]) == json.dumps(record["options"])
        assert type(left_out.options["weight"]) is float


def test_a_game_new_game_starts_has_a_record_that_replays() -> None:
    rule = RuleInfo(
        id="DOCS-COUNT-1",
        name="golf.review-count",
        game="golf",
        summary="x",
        options=(Option("count", 1),),  # the doc's default kind int, no bounds
    )
    with registered(rule):
        try:
            game = cardcore.new_game(
                "golf", 2, rules=[rule.name], options={"count": 2**200}, seed=1
            )
        except OptionError:
            return  # refused as out of bounds: fine
        cardcore.replay(game.record())
        cardcore.load(game.save())


def test_requiring_another_games_rule_by_id_in_any_case_is_a_plugin_error() -> None:
    upper = RuleInfo(
        id="DOCS-REQ-1", name="golf.review-req-up", game="golf", summary="x",
        requires=("TONK-VAR-1",),
    )  # fmt: skip
    lower = RuleInfo(
        id="DOCS-REQ-2", name="golf.review-req-low", game="golf", summary="x",
        requires=("tonk-var-1",),
    )  # fmt: skip
    with registered(upper), registered(lower):
        with pytest.raises(PluginError, match="a rule of 'tonk'"):
            cardcore.new_game("golf", 2, rules=[upper.name], seed=1)
        with pytest.raises(PluginError, match="a rule of 'tonk'"):
            cardcore.new_game("golf", 2, rules=[lower.name], seed=1)


# --------------------------------------------------------------------------------------------
# Claims that held
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [True, 3.0, math.nan, "3", Decimal(3), 10**100, 0, 101, None],
    ids=["bool", "float", "nan", "str", "decimal", "huge", "below", "above", "none"],
)
def test_golf_rounds_refuses_wrong_types_and_bounds_naming_option_and_rule(value: Any) -> None:
    if value is None:  # rounds is nullable: None is "unset"
        assert (
            cardcore.new_game("golf", 2, options={"rounds": None}, seed=1).options["rounds"] is None
        )
        return
    with pytest.raises(OptionError, match=r"option 'rounds' .*\(GOLF-GAME-1\)$"):
        cardcore.new_game("golf", 2, options={"rounds": value}, seed=1)


def test_numpy_int_is_refused_with_an_option_error() -> None:
    np = pytest.importorskip("numpy")
    with pytest.raises(OptionError, match="option 'stake' must be int"):
        cardcore.new_game("tonk", 2, options={"stake": np.int64(3)}, seed=1)
    with pytest.raises(OptionError, match="option 'layout'"):
        cardcore.new_game("golf", 2, options={"layout": np.int64(6)}, seed=1)


def test_unknown_option_names_it_and_lists_the_game_options() -> None:
    with pytest.raises(OptionError) as info:
        cardcore.new_game("golf", 2, options={"round": 3}, seed=1)
    assert str(info.value) == (
        "game 'golf' has no option 'round'"
        " (it accepts: dealer, layout, max_turns, points_limit, rounds)"
    )
    with pytest.raises(OptionError, match="options must be a mapping"):
        cardcore.new_game("golf", 2, options=[("rounds", 1)], seed=1)


def test_a_rule_option_given_without_its_rule_names_the_rule() -> None:
    with pytest.raises(OptionError, match=r"house rule 'golf.bonus-card' takes it"):
        cardcore.new_game("golf", 2, options={"bonus_card": "QH"}, seed=1)
    game = cardcore.new_game(
        "golf", 2, rules=["golf.bonus-card"], options={"bonus_card": "QH"}, seed=1
    )
    assert game.options["bonus_card"] == "QH"
    with pytest.raises(OptionError, match=r"\(GOLF-SCORE-10\)$"):
        cardcore.new_game("golf", 2, rules=["golf.bonus-card"], options={"bonus_card": "qh"})


def test_golf_layout_aliases_are_read_and_other_spellings_refused() -> None:
    assert cardcore.new_game("golf", 2, options={"layout": "6"}, seed=1).options["layout"] == 6
    assert cardcore.new_game("golf", 2, options={"layout": "4H"}, seed=1).options["layout"] == "4h"
    for bad in (6.0, 7, None, True):
        with pytest.raises(OptionError, match="option 'layout' "):
            cardcore.new_game("golf", 2, options={"layout": bad}, seed=1)


def test_seats_and_seat_options_are_checked_against_the_game() -> None:
    with pytest.raises(OptionError, match=r"seat from 0 to 1 .*\(GOLF-DEAL-3\)"):
        cardcore.new_game("golf", 2, options={"dealer": 5}, seed=1)
    with pytest.raises(OptionError, match=r"\(TONK-DEALER-1\)"):
        cardcore.new_game("tonk", 2, options={"first_dealer": 2}, seed=1)
    # TONK-GEN-1: 3 seats unless max_players raises it; the error names the option
    with pytest.raises(OptionError, match="max_players=4"):
        cardcore.new_game("tonk", 4, seed=1)
    assert cardcore.new_game("tonk", 4, options={"max_players": 4}, seed=1).players
    with pytest.raises(OptionError, match="option 'side_pile' must be one of 5 or 15"):
        cardcore.new_game("speed", 2, options={"side_pile": 10}, seed=1)
    with pytest.raises(OptionError, match=r"option 'stall_limit' must be at least 1"):
        cardcore.new_game("spit", 2, options={"stall_limit": 0}, seed=1)


def test_rule_choice_errors_are_the_documented_ones() -> None:
    with pytest.raises(RuleConflictError, match="cannot be combined"):
        cardcore.new_game("golf", 2, rules=["golf.jokers", "golf.bonus-twos"], seed=1)
    with pytest.raises(OtherGameRuleError) as other:
        cardcore.new_game("golf", 2, rules=["tonk.no-upcard"], seed=1)
    assert isinstance(other.value, UnknownPluginError)
    assert isinstance(other.value, RuleConflictError)
    with pytest.raises(UnknownPluginError, match=r"no house rule called 'golf\.nope'"):
        cardcore.new_game("golf", 2, rules=["golf.nope"], seed=1)
    with pytest.raises(RuleConflictError, match="not a default rule"):
        cardcore.new_game("tonk", 2, without=["tonk.no-upcard"], seed=1)
    with pytest.raises(RuleConflictError, match="both asked for and switched off"):
        cardcore.new_game(
            "tonk", 2, rules=["tonk.natural-49-50"], without=["tonk.natural-49-50"], seed=1
        )
    with pytest.raises(OptionError, match=r"applies only with layout in \(9\), not 6 \(GOLF9-4\)"):
        cardcore.new_game("golf", 2, rules=["golf.remove-triples"], seed=1)


def test_rule_ids_choose_and_switch_off_rules_in_any_case() -> None:
    jokers = cardcore.rule_info("golf.jokers").id
    assert cardcore.new_game("golf", 2, rules=[jokers.lower()], seed=1).rules == ("golf.jokers",)
    natural = cardcore.rule_info("tonk.natural-49-50").id
    assert cardcore.new_game("tonk", 2, without=[natural.lower()], seed=1).rules == ()


def test_two_rules_declaring_one_id_are_refused_together_and_by_id() -> None:
    rule = RuleInfo(id="GOLF-SCORE-4", name="golf.review-twin", game="golf", summary="x")
    with registered(rule):
        assert cardcore.new_game("golf", 2, rules=[rule.name], seed=1).rules == (rule.name,)
        with pytest.raises(PluginError, match="both declare the rule ID 'GOLF-SCORE-4'"):
            cardcore.new_game("golf", 2, rules=["golf.jokers", rule.name], seed=1)
        with pytest.raises(PluginError, match="several installed house rules"):
            cardcore.new_game("golf", 2, rules=["GOLF-SCORE-4"], seed=1)


def test_register_refuses_a_misnamed_or_undeclared_rule_and_registers_nothing() -> None:
    rule = RuleInfo(id="DOCS-NAME-1", name="golf.review-real", game="golf", summary="x")
    module = types.ModuleType("review_misnamed")
    module.RULE, module.forbid_action = rule, _no_veto
    with pytest.raises(PluginError, match="must be the same"):
        cardcore.register(RULES, "golf.review-other", module)
    empty = types.ModuleType("review_empty")
    with pytest.raises(PluginError, match="has no RULE = RuleInfo"):
        cardcore.register(RULES, "golf.review-empty", empty)
    assert "golf.review-other" not in cardcore.available_rules("golf")
    assert "golf.review-empty" not in cardcore.available_rules("golf")
    with pytest.raises(UnknownPluginError):
        cardcore.unregister(RULES, "golf.review-other")


def test_a_rule_option_named_like_a_game_option_is_refused() -> None:
    rule = RuleInfo(
        id="DOCS-CLASH-1", name="golf.review-clash", game="golf", summary="x",
        options=(Option("rounds", 1, minimum=1, maximum=5),),
    )  # fmt: skip
    with registered(rule), pytest.raises(PluginError, match="needs a name of its own"):
        cardcore.new_game("golf", 2, rules=[rule.name], seed=1)


def test_option_declarations_are_checked() -> None:
    with pytest.raises(PluginError, match="minimum 5 is above maximum 1"):
        Option("x", 1, minimum=5, maximum=1)
    with pytest.raises(PluginError, match="kind must be a type"):
        Option("x", 1, kind="int")  # type: ignore[arg-type]
    with pytest.raises(PluginError, match="must be a number"):
        Option("x", 1, minimum=math.nan)
    with pytest.raises(PluginError, match="its own default is refused"):
        Option("x", 7, minimum=1, maximum=5)
    with pytest.raises(PluginError, match="cannot be hashed"):
        RuleInfo(
            id="DOCS-H-1", name="golf.h", game="golf", summary="x",
            options=(Option("y", [1], kind=list),),
        )  # fmt: skip
    with pytest.raises(OptionError) as unknown:
        cardcore.game_info("golf").option("nope")
    assert isinstance(unknown.value, KeyError)


def test_an_option_error_in_setup_reaches_the_caller_as_it_is_later_a_plugin_error() -> None:
    """hooks.rst: an OptionError raised while the game is set up reaches the caller as it
    is; one raised later, in play, is the rule's PluginError."""

    @hookimpl(wrapper=True)
    def build_deck(players: int, options: Any) -> Any:
        if options.get("layout") == 9:
            raise OptionError("no nines here")
        return (yield)

    @hookimpl
    def forbid_action(action: Any) -> None:
        if action.verb == "take":
            raise OptionError("too late")

    rule = RuleInfo(id="DOCS-REF-1", name="golf.review-refuser", game="golf", summary="x")
    with registered(rule, build_deck=build_deck, forbid_action=forbid_action):
        with pytest.raises(OptionError, match=r"^no nines here$"):
            cardcore.new_game("golf", 2, rules=[rule.name], options={"layout": 9}, seed=1)
        game = cardcore.new_game("golf", 2, rules=[rule.name], seed=7)
        for seat, text in [(0, "flip 0"), (0, "flip 3"), (1, "flip 0"), (1, "flip 3")]:
            game.act(seat, text)
        version = game.version
        with pytest.raises(PluginError, match=r"golf\.review-refuser"):
            game.legal_actions(0)
        assert game.version == version


def test_a_house_rule_written_from_the_docs_takes_its_option() -> None:
    """A Tonk rule with an option of its own, written from hooks.rst and house-rule.rst:
    the value reaches the hook through the state; a bad value and a missing rule are
    refused naming the rule."""

    @hookimpl(wrapper=True)
    def score_round(state: Any, scores: Any) -> Any:
        inner = yield
        return [stake * state.options["factor"] for stake in inner]

    rule = RuleInfo(
        id="DOCS-FACTOR-1",
        name="tonk.review-factor",
        game="tonk",
        summary="Every hand pays factor times",
        options=(Option("factor", 2, "how many times a hand pays", minimum=1, maximum=5),),
    )
    base = cardcore.new_game("tonk", 2, seed=4)
    plain = cardcore.play(base, _random_agents()).payouts
    with registered(rule, score_round=score_round):
        game = cardcore.new_game("tonk", 2, rules=[rule.name], options={"factor": 3}, seed=4)
        assert game.options["factor"] == 3
        assert game.record()["options"]["factor"] == 3
        result = cardcore.play(game, _random_agents())
        assert plain is not None and result.payouts == tuple(3 * p for p in plain)
        default = cardcore.new_game("tonk", 2, rules=[rule.name], seed=4)
        assert default.options["factor"] == 2
        with pytest.raises(OptionError, match=r"at most 5, not 9 \(an option of house rule"):
            cardcore.new_game("tonk", 2, rules=[rule.name], options={"factor": 9}, seed=4)
        with pytest.raises(OptionError, match="must be int, not True"):
            cardcore.new_game("tonk", 2, rules=[rule.name], options={"factor": True}, seed=4)
        with pytest.raises(OptionError, match=r"house rule 'tonk\.review-factor' takes it"):
            cardcore.new_game("tonk", 2, options={"factor": 3}, seed=4)


def test_golf_rounds_unset_plays_nine_rounds() -> None:
    """seeds/golf.md: ``rounds`` unset means 9 rounds without a ``points_limit``."""
    game = cardcore.new_game("golf", 2, seed=3)
    assert game.options["rounds"] is None
    cardcore.play(game, _random_agents())
    assert len(game.history()) == 9


def test_earlier_rules_docstring_example() -> None:
    assert cardcore.earlier_rules("speed", "0.2.0") == ("speed.stuck-on-request",)
    assert cardcore.earlier_rules("tonk", cardcore.game_info("tonk").version) == ()


def test_a_stored_setup_of_an_earlier_tonk_gets_the_defaults_of_its_day() -> None:
    from cardcore.session import GameSetup

    players = ["a", "b", "c", "d"]
    old = GameSetup.from_data({"game": "tonk", "players": players, "game_version": "0.2.0"})
    assert old.options == {"max_players": 4}  # Option.default_before=("0.3.0", 4)
    assert "tonk.void-deal-counts" in old.rules
    assert old.build(seed=1).options["max_players"] == 4
    now = GameSetup.from_data({"game": "tonk", "players": players, "game_version": "0.5.0"})
    with pytest.raises(OptionError, match="TONK-GEN-1"):
        now.build(seed=1)


def test_a_conflict_naming_no_installed_rule_warns() -> None:
    rule = RuleInfo(
        id="DOCS-WARN-1", name="golf.review-warn", game="golf", summary="x",
        conflicts=("golf.no-such-rule",),
    )  # fmt: skip
    with registered(rule), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cardcore.new_game("golf", 2, rules=[rule.name], seed=1)
    assert any("golf.no-such-rule" in str(w.message) for w in caught)


def test_a_bad_option_leaves_no_trace_in_later_games() -> None:
    """A refused new_game creates nothing: the same configuration then deals as before."""
    before = cardcore.new_game("golf", 2, options={"rounds": 2}, seed=11).view(None)
    with pytest.raises(OptionError):
        cardcore.new_game("golf", 2, options={"rounds": 2, "layout": 7}, seed=11)
    with pytest.raises(RuleConflictError):
        cardcore.new_game("golf", 2, rules=["golf.jokers", "golf.bonus-twos"], seed=11)
    assert cardcore.new_game("golf", 2, options={"rounds": 2}, seed=11).view(None) == before


def test_options_are_fixed_when_the_game_is_created() -> None:
    """GOLF-GEN-2: the configuration is immutable; the caller's dict changed later changes
    nothing."""
    given = {"rounds": 2}
    game = cardcore.new_game("golf", 2, options=given, seed=1)
    given["rounds"] = 5
    assert game.options["rounds"] == 2
    with pytest.raises(TypeError):
        game.options["rounds"] = 3  # type: ignore[index]
    assert game.options["rounds"] == 2


def test_the_order_rules_are_listed_in_never_matters() -> None:
    """hooks.rst and house-rule.rst: the rules are registered sorted by rule ID."""
    one = cardcore.get_ruleset("golf", ["golf.remove-columns", "golf.jokers"])
    two = cardcore.get_ruleset("golf", ["golf.jokers", "golf.remove-columns"])
    assert one is two
    ids = [rule.id for rule in one.rules]
    assert ids == sorted(ids)
