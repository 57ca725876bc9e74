"""Review of the day's later changes, ``git diff 368c9c6..HEAD -- src plugins docs seeds``
(2026-12-03): blaming the hook implementation that gave a refused answer (``cardcore._blame``),
register/unregister putting back what they replaced, Veto naming the house rule that built it
(frame inspection in ``cardcore.info._guarded_plugin``), RuleInfo refusing control characters,
Golf score tables that leave a rank out, Spit gaps outside 0..12, Tonk verdict reasons, and the
testing kit's ``rules=`` given as one text.

Plain tests pin what works; strict xfails show what is still wrong.
"""

from __future__ import annotations

import itertools
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import cardcore
from cardcore import ArgumentError, PluginError, RuleInfo, ScoreTable, Veto, hookimpl, new_game
from cardcore.testing import applicable_options, check_game, check_score_round, configurations
from cardcore_tonk.melds import DealVerdict

RULES = "cardcore.rules"
_count = itertools.count()


def _rule(name: str, game: str, rule_id: str | None = None, **hooks: Callable[..., Any]) -> Any:
    """A house-rule module *name* of *game* implementing *hooks* (already marked or not)."""
    mod = types.ModuleType(f"review_late_{next(_count)}")
    mod.RULE = RuleInfo(  # type: ignore[attr-defined]
        id=rule_id or name.upper().replace(".", "-"), name=name, game=game, summary="review"
    )
    for hook, func in hooks.items():
        marked = func if hasattr(func, "cardcore_impl") else hookimpl(func)
        setattr(mod, hook, marked)
    return mod


@contextmanager
def _registered(*mods: Any) -> Iterator[None]:
    done: list[str] = []
    try:
        for mod in mods:
            cardcore.register(RULES, mod.RULE.name, mod)
            done.append(mod.RULE.name)
        yield
    finally:
        for name in reversed(done):
            cardcore.unregister(RULES, name)


def _blamed(game: str, rules: list[str], **kw: Any) -> PluginError:
    with pytest.raises(PluginError) as info:
        new_game(game, 2, rules=rules, seed=0, **kw)
    return info.value


# -- refused answers: which implementation gave it (cardcore._blame) -----------------------------


def test_golf_incomplete_score_table_blames_the_rule_that_answered_it() -> None:
    """The new ``asked={"layout": ...}`` re-asks golf_score_table: the rule that answered None
    first is passed over."""
    bad = _rule(
        "golf.rv-table-bad", "golf", golf_score_table=lambda layout: ScoreTable.from_ranks({"A": 1})
    )
    idle = _rule("golf.rv-table-idle", "golf", golf_score_table=lambda layout: None)
    with _registered(bad, idle):
        err = _blamed("golf", ["golf.rv-table-bad", "golf.rv-table-idle"])
    assert err.plugin == "golf.rv-table-bad"
    assert "scores every card of the deck in whole points" in str(err)


def test_golf_table_without_jokers_is_taken_when_card_points_scores_them() -> None:
    """The hookspec: the table must score every card ``card_points`` does not."""
    table = ScoreTable.from_ranks(
        {rank: 5 for rank in ("A", *map(str, range(2, 11)), "J", "Q", "K")}
    )
    rule = _rule(
        "golf.rv-table-no-jokers",
        "golf",
        golf_score_table=lambda layout: table,
        card_points=lambda card: -2 if card.is_joker else None,
    )
    with _registered(rule):
        game = new_game("golf", 2, rules=["golf.rv-table-no-jokers"], seed=0)
    assert not game.is_over


def _table_wrapper(layout: Any) -> Any:
    yield
    return ScoreTable.from_ranks({"A": 1})  # leaves every other rank out


def test_golf_incomplete_table_from_a_house_rule_wrapper_is_not_blamed_on_the_game() -> None:
    wrap = _rule(
        "golf.rv-table-wrapper", "golf", golf_score_table=hookimpl(wrapper=True)(_table_wrapper)
    )
    with _registered(wrap):
        err = _blamed("golf", ["golf.rv-table-wrapper"])
    assert "scores every card of the deck in whole points" in str(err)
    assert err.plugin == "golf.rv-table-wrapper"


def test_golf_score_table_that_is_no_table_blames_the_rule_that_answered_it() -> None:
    bad = _rule("golf.rv-table-42", "golf", golf_score_table=lambda layout: 42)
    idle = _rule("golf.rv-table-none", "golf", golf_score_table=lambda layout: None)
    with _registered(bad, idle):
        err = _blamed("golf", ["golf.rv-table-42", "golf.rv-table-none"])
    assert "answered 42" in str(err)
    assert err.plugin == "golf.rv-table-42"


def test_golf_bad_card_points_answer_blames_the_rule_that_gave_it() -> None:
    bad = _rule(
        "golf.rv-points-bad",
        "golf",
        card_points=lambda card: "5" if card.rank.label == "K" else None,
    )
    idle = _rule("golf.rv-points-idle", "golf", card_points=lambda card: None)
    with _registered(bad, idle):
        err = _blamed("golf", ["golf.rv-points-bad", "golf.rv-points-idle"])
    assert "answered '5'" in str(err)
    assert err.plugin == "golf.rv-points-bad"


def test_spit_out_of_range_gaps_given_as_a_set_blame_the_rule_that_gave_them() -> None:
    bad = _rule("spit.rv-gaps-bad", "spit", spit_rank_gaps=lambda: {13})
    good = _rule("spit.rv-gaps-good", "spit", spit_rank_gaps=lambda: {2})
    with _registered(bad, good):
        err = _blamed("spit", ["spit.rv-gaps-bad", "spit.rv-gaps-good"])
    assert "answered {13}" in str(err)
    assert err.plugin == "spit.rv-gaps-bad"


def test_spit_out_of_range_gaps_given_as_a_list_blame_the_rule_that_gave_them() -> None:
    bad = _rule("spit.rv-gaps-list", "spit", spit_rank_gaps=lambda: [13])
    good = _rule("spit.rv-gaps-list-ok", "spit", spit_rank_gaps=lambda: [2])
    with _registered(bad, good):
        err = _blamed("spit", ["spit.rv-gaps-list", "spit.rv-gaps-list-ok"])
        assert err.plugin == "spit.rv-gaps-list"
        same = _rule("spit.rv-gaps-zero", "spit", spit_rank_gaps=lambda: [0])
        with _registered(same):
            game = new_game("spit", 2, rules=["spit.rv-gaps-zero"], seed=0)
    assert game.logic.gaps == frozenset({0, 1, 12})


class _Judge:
    """A deal judge made as an object: callable, as a DealJudge may be."""

    def __call__(self, hands: Any, points: Any) -> DealVerdict:
        return DealVerdict("", 0, (1, -1))


# "AA-" sorts the rule before TONK-49-1, so tonk.natural-49-50 is asked first and names[0]
@pytest.mark.parametrize("make", [_Judge, lambda: _Judge().__call__], ids=["object", "method"])
def test_tonk_judge_made_as_a_callable_object_is_blamed_on_its_rule(make: Any) -> None:
    bad = _rule("tonk.rv-judge-obj", "tonk", "AA-JUDGE-1", tonk_deal_judge=lambda: make())
    with _registered(bad):
        err = _blamed("tonk", ["tonk.rv-judge-obj", "tonk.natural-49-50"])
    assert "reason=''" in str(err)
    assert err.plugin == "tonk.rv-judge-obj"


def test_tonk_judge_answering_a_verdict_instead_of_a_function_is_blamed_on_its_rule() -> None:
    bad = _rule(
        "tonk.rv-judge-verdict",
        "tonk",
        "AA-JUDGE-2",
        tonk_deal_judge=lambda: DealVerdict("x", 0, (1, -1)),
    )
    with _registered(bad):
        err = _blamed("tonk", ["tonk.rv-judge-verdict", "tonk.natural-49-50"])
    assert "a function (a DealJudge)" in str(err)
    assert err.plugin == "tonk.rv-judge-verdict"


def test_tonk_judge_made_as_a_fresh_lambda_is_blamed_on_its_rule() -> None:
    bad = _rule(
        "tonk.rv-judge-lambda",
        "tonk",
        "AA-JUDGE-3",
        tonk_deal_judge=lambda: lambda hands, points: DealVerdict("\x1b[2J", 0, (1, -1)),
    )
    with _registered(bad):
        err = _blamed("tonk", ["tonk.rv-judge-lambda", "tonk.natural-49-50"])
    assert err.plugin == "tonk.rv-judge-lambda"
    assert "printable text, not blank" in str(err)


# -- Veto naming the house rule that built it (info._guarded_plugin) -----------------------------


def _empty_veto(state: Any, action: Any) -> Veto:
    return Veto("", "no")


def _passing_wrapper(state: Any, action: Any) -> Any:
    return (yield)


def test_empty_veto_names_the_house_rule_whose_hook_built_it() -> None:
    rule = _rule("tonk.rv-veto", "tonk", forbid_action=_empty_veto)
    with _registered(rule):
        game = new_game("tonk", 2, rules=["tonk.rv-veto"], seed=1)
        with pytest.raises(PluginError) as info:
            game.legal_actions(game.to_act[0])
    assert info.value.plugin == "tonk.rv-veto"
    assert "by plugin 'tonk.rv-veto'" in str(info.value)


def test_empty_veto_names_the_house_rule_when_a_forbid_action_wrapper_is_chosen() -> None:
    rule = _rule("tonk.rv-veto-w", "tonk", forbid_action=_empty_veto)
    wrap = _rule(
        "tonk.rv-veto-wrapper", "tonk", forbid_action=hookimpl(wrapper=True)(_passing_wrapper)
    )
    with _registered(rule, wrap):
        game = new_game("tonk", 2, rules=["tonk.rv-veto-w", "tonk.rv-veto-wrapper"], seed=1)
        with pytest.raises(PluginError) as info:
            game.legal_actions(game.to_act[0])
    assert info.value.plugin == "tonk.rv-veto-w", str(info.value)


def test_empty_veto_built_outside_a_hook_still_names_the_module() -> None:
    with pytest.raises(PluginError) as info:
        Veto("", "no")
    assert info.value.plugin == __name__


# -- register / unregister put back what they replaced --------------------------------------------


def test_register_over_an_installed_rule_nested_then_unregister_puts_each_back() -> None:
    name = "golf.diagonal-pairs"
    installed = cardcore.rule_info(name)
    first = _rule(name, "golf", "GOLF-RV-FIRST")
    second = _rule(name, "golf", "GOLF-RV-SECOND")
    cardcore.register(RULES, name, first)
    try:
        cardcore.register(RULES, name, second)
        try:
            assert cardcore.rule_info(name).id == "GOLF-RV-SECOND"
        finally:
            cardcore.unregister(RULES, name)
        assert cardcore.rule_info(name).id == "GOLF-RV-FIRST"
    finally:
        cardcore.unregister(RULES, name)
    assert cardcore.rule_info(name) is installed
    assert new_game("golf", 2, rules=[name], seed=0, options={"layout": 4}).name == "golf"


def test_rule_requiring_a_rule_of_another_game_is_a_plugin_error_naming_it() -> None:
    rule = _rule("golf.rv-needs-tonk", "golf", golf_final_turns=lambda layout: None)
    rule.RULE = RuleInfo(
        id="GOLF-RV-NEEDS",
        name="golf.rv-needs-tonk",
        game="golf",
        summary="review",
        requires=("tonk.natural-49-50",),
    )
    with _registered(rule):
        err = _blamed("golf", ["golf.rv-needs-tonk"])
    assert err.plugin == "golf.rv-needs-tonk" and "a rule of 'tonk'" in str(err)


# -- RuleInfo text checks -------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["a\x1b[2Jb", "carriage\rreturn", "x\u202ey"])
def test_rule_info_refuses_control_characters_in_its_summary(text: str) -> None:
    with pytest.raises(PluginError, match="control character"):
        RuleInfo(id="GOLF-RV-CTRL", name="golf.rv-ctrl", game="golf", summary=text)


def test_rule_info_summary_may_be_wrapped_but_its_name_may_not() -> None:
    """A summary (prose) may hold line breaks and tabs; a name, an ID or a version may not."""
    rule = RuleInfo(id="GOLF-RV-WRAP", name="golf.rv-wrap", game="golf", summary="two\n\tlines")
    assert rule.summary == "two\n\tlines"
    with pytest.raises(PluginError, match="control character"):
        RuleInfo(id="GOLF-RV-WRAP", name="golf.rv-\nwrap", game="golf", summary="s")


def test_rule_info_refuses_a_summary_utf8_cannot_carry() -> None:
    with pytest.raises(PluginError):
        RuleInfo(id="GOLF-RV-SUR", name="golf.rv-sur", game="golf", summary="lone \ud800 half")


# -- testing kit: names, not text -----------------------------------------------------------------


def test_kit_refuses_rules_given_as_one_text_and_takes_names_or_ids() -> None:
    with pytest.raises(ArgumentError, match="list of names"):
        check_game("golf", rules="golf.diagonal-pairs", checks=["bound"])
    with pytest.raises(ArgumentError, match="list of names"):
        applicable_options("golf", "golf.diagonal-pairs")
    assert applicable_options("golf", ["golf.diagonal-pairs"]) == {"layout": 4}
    assert applicable_options("golf", ["GOLF4-VAR-1"]) == {"layout": 4}


def test_configurations_refuses_a_rule_of_another_game_like_applicable_options() -> None:
    with pytest.raises(cardcore.OtherGameRuleError):
        applicable_options("golf", ["tonk.natural-49-50"])
    with pytest.raises(cardcore.OtherGameRuleError):
        list(configurations("golf", rules=["tonk.natural-49-50"]))


# -- docs: score_round only in games that score rounds ------------------------------------------


@pytest.mark.parametrize("game", ["speed", "spit"])
def test_score_round_check_is_skipped_for_games_that_score_no_round(game: str) -> None:
    report = check_score_round(game, games=2)
    assert "GameLogic.score_round" in report.skipped["scores"]
