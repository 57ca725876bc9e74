"""Fixes of 2026-12-07e: the functions a hook wrapper answers are blamed rightly, and
refused hook answers that several plugins gave alike name none of them.

The reviews' own tests (``tests/test_review_fixes_2026_12_07e.py``,
``tests/games/test_tonk_spit_house_rule_combinations_2026_12_07e.py``) hold the cases they
found; these hold the neighbouring cases the fixes had to keep right.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import cardcore
from cardcore import PluginError, RuleInfo, hookimpl
from tests.games.tonk.helpers import tonk

H20 = "10S 4H 3D 2C AS"
H15 = "5D 4C 3H 2D AD"


@contextmanager
def house_rule(name: str, rule_id: str, **hooks: Any) -> Iterator[str]:
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    module.RULE = RuleInfo(id=rule_id, name=name, game="tonk", summary="test rule")  # type: ignore[attr-defined]
    vars(module).update(hooks)
    cardcore.register("cardcore.rules", name, module)
    try:
        yield name
    finally:
        cardcore.unregister("cardcore.rules", name)


def _raising_judge(hands: Any, points: Any) -> None:
    raise LookupError("judge down")


def _adding_wrapper(judge: Any) -> Any:
    @hookimpl(wrapper=True)
    def tonk_deal_judge() -> Any:
        inner = yield
        return [judge, *inner]

    return tonk_deal_judge


def _passing_wrapper() -> Any:
    @hookimpl(wrapper=True)
    def tonk_deal_judge() -> Any:
        return (yield)

    return tonk_deal_judge


def test_two_wrappers_adding_judges_name_neither_when_one_raises() -> None:
    with (
        house_rule("tonk.fx7e-a", "FX7E-A", tonk_deal_judge=_adding_wrapper(_raising_judge)) as a,
        house_rule("tonk.fx7e-b", "FX7E-B", tonk_deal_judge=_adding_wrapper(_raising_judge)) as b,
        pytest.raises(PluginError) as failure,
    ):
        tonk([H20, H15], rules=[a, b])
    assert failure.value.plugin is None, str(failure.value)
    assert a in str(failure.value) and b in str(failure.value)
    assert "LookupError" in str(failure.value)


def test_a_judge_a_rule_answers_plainly_is_named_with_a_passing_wrapper_beside_it() -> None:
    @hookimpl
    def tonk_deal_judge() -> Any:
        return _raising_judge

    with (
        house_rule("tonk.fx7e-plain", "FX7E-C", tonk_deal_judge=tonk_deal_judge) as plain,
        house_rule("tonk.fx7e-pass", "FX7E-D", tonk_deal_judge=_passing_wrapper()) as passing,
        pytest.raises(PluginError) as failure,
    ):
        tonk([H20, H15], rules=[plain, passing])
    assert failure.value.plugin == plain, str(failure.value)


def test_the_games_own_judge_through_a_wrapper_still_works_and_settles_a_natural() -> None:
    # the game's own judge (the natural 49/50) passed on by a wrapper is not the wrapper's:
    # it runs as before and settles the hand
    with house_rule("tonk.fx7e-pass2", "FX7E-E", tonk_deal_judge=_passing_wrapper()) as passing:
        game = tonk(["10C JH QD KC 9S", H15], natural=True, rules=[passing], stake=1)
    assert game.is_over and game.result.payouts[0] > 0


# -- Spit's own hook answers, checked when the configuration is built ---------------------


@contextmanager
def spit_rule(name: str, rule_id: str, **hooks: Any) -> Iterator[str]:
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    module.RULE = RuleInfo(id=rule_id, name=name, game="spit", summary="test rule")  # type: ignore[attr-defined]
    vars(module).update(hooks)
    cardcore.register("cardcore.rules", name, module)
    try:
        yield name
    finally:
        cardcore.unregister("cardcore.rules", name)


@pytest.mark.parametrize(
    ("word", "only", "rule_id", "said"),
    [
        ("", False, "ZZ-CLAIM-1", "word"),
        ("Grab", False, "ZZ-CLAIM-1", "word"),
        ("grab it", False, "ZZ-CLAIM-1", "word"),
        ("play", False, "ZZ-CLAIM-1", "word"),
        ("grab", "yes", "ZZ-CLAIM-1", "emptier_only"),
        ("grab", 1, "ZZ-CLAIM-1", "emptier_only"),
        ("grab", False, "", "rule_id"),
        ("grab", False, "claim one", "rule_id"),
    ],
)
def test_a_claim_rule_with_a_field_no_claim_can_use_is_refused_naming_the_rule(
    word: Any, only: Any, rule_id: Any, said: str
) -> None:
    from cardcore_spit.actions import ClaimRule

    @hookimpl
    def spit_claim_rule() -> Any:
        return ClaimRule(word=word, emptier_only=only, rule_id=rule_id)

    with (
        spit_rule("spit.fx7e-claim", "ZZ-CLAIM-9", spit_claim_rule=spit_claim_rule) as name,
        pytest.raises(PluginError, match=said) as failure,
    ):
        cardcore.new_game("spit", 2, rules=[name], seed=1)
    assert failure.value.plugin == name


def test_a_well_formed_claim_rule_names_the_claims() -> None:
    from cardcore_spit.actions import ClaimRule

    @hookimpl
    def spit_claim_rule() -> Any:
        return ClaimRule(word="grab", emptier_only=True, rule_id="ZZ-CLAIM-1")

    with spit_rule("spit.fx7e-grab", "ZZ-CLAIM-8", spit_claim_rule=spit_claim_rule) as name:
        game = cardcore.new_game("spit", 2, rules=[name], seed=1)
        assert game.logic.claim.word == "grab"  # type: ignore[attr-defined]
        with pytest.raises(cardcore.NotationError, match=r"'grab L\|R'"):
            game.act(0, "slap L")


def test_a_deal_order_laying_out_nothing_for_a_player_holding_cards_is_refused() -> None:
    @hookimpl
    def spit_deal_order(cards: int) -> Any:
        return () if cards == 26 else tuple(range(min(cards, 5)))

    with (
        spit_rule("spit.fx7e-none", "ZZ-ORD-9", spit_deal_order=spit_deal_order) as name,
        pytest.raises(PluginError, match="1 to 26 pile numbers") as failure,
    ):
        cardcore.new_game("spit", 2, rules=[name], seed=1)
    assert failure.value.plugin == name
