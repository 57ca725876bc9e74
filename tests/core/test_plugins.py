from __future__ import annotations

import types

import pytest
from tests.plugins.drawgame import Discard

import cardcore
from cardcore import PluginError, RuleConflictError, RuleInfo, UnknownPluginError, hookimpl


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
        with pytest.raises(RuleConflictError, match="belongs to 'racegame'"):
            cardcore.new_game("drawgame", 2, rules=["racegame.other"])
    finally:
        cardcore.unregister("cardcore.rules", "racegame.other")


def test_requires_and_without() -> None:
    needy = types.ModuleType("needy_rule")
    needy.RULE = RuleInfo("DRAW-VAR-9", "drawgame.needy", "drawgame", "x", requires=("DRAW-VAR-1",))  # type: ignore[attr-defined]
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
    cardcore.register("cardcore.rules", "drawgame.temp", temp)
    cardcore.new_game("drawgame", 2, rules=["drawgame.temp"], seed=1)
    cardcore.unregister("cardcore.rules", "drawgame.temp")
    assert "drawgame.temp" not in cardcore.available_rules("drawgame")
    with pytest.raises(UnknownPluginError):
        cardcore.new_game("drawgame", 2, rules=["drawgame.temp"], seed=1)
    with pytest.raises(UnknownPluginError):
        cardcore.unregister("cardcore.rules", "drawgame.temp")
