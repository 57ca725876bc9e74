"""The kit catches what it promises to catch: each deliberately broken game fails its check."""

from __future__ import annotations

import types
from collections.abc import Iterator
from typing import Any

import pytest

import cardcore
from cardcore import RuleInfo, testing
from cardcore.plugins import unregister
from cardcore.testing import (
    Report,
    SpyAgent,
    assert_conserved,
    assert_view_known,
    assert_view_structure,
    check_game,
    check_views,
)
from tests.conformance.broken import BROKEN


@pytest.fixture(autouse=True, scope="module")
def _broken_games() -> Iterator[None]:
    """Register the broken games for this module only, so other tests never list them."""
    for name, (module, _) in BROKEN.items():
        cardcore.register("cardcore.games", name, module)
    yield
    for name in BROKEN:
        unregister("cardcore.games", name)


CHECKS = {
    "views": testing.check_views,
    "conservation": testing.check_conservation,
    "bounds": testing.check_bounds,
    "clone": testing.check_clone,
    "rejections": testing.check_rejections,
    "score_round": testing.check_score_round,
    "positions": testing.check_positions,
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_kit_catches_broken_game(name: str) -> None:
    check = CHECKS[BROKEN[name][1]]
    with pytest.raises(AssertionError, match=name):
        check(name, games=3, seed=3)
    report = check(name, games=3, seed=3, strict=False)
    assert not report.ok
    assert report.failures


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_kit_check_game_catches_broken_game(name: str) -> None:
    report = check_game(name, games=2, seed=5, strict=False)
    assert report.failed > 0


def test_kit_counts_leaks_and_lost_cards() -> None:
    assert check_game("broken-leaky-view", games=1, strict=False).leaks > 0
    assert check_game("broken-subtle-leak", games=2, strict=False).leaks > 0
    assert check_game("broken-leaky-event", games=1, strict=False).leaks > 0
    assert check_game("broken-seed-in-view", games=1, strict=False).leaks > 0
    assert check_game("broken-leaky-history", games=1, strict=False).leaks > 0
    assert check_game("broken-loses-cards", games=1, strict=False).cards_lost > 0
    assert check_game("broken-too-short", games=1, strict=False).truncated > 0


def test_kit_names_the_event_that_leaks() -> None:
    report = check_game("broken-leaky-event", games=1, strict=False)
    leak = next(f for f in report.failures if "does not know" in f)
    assert "in card-drawn" in leak
    assert "notation is public" not in leak  # only said when an action's text leaks


def test_kit_passes_the_sound_test_games() -> None:
    report = check_game("drawgame", games=3, seed=11)
    assert report.ok
    assert report.games == 3
    assert report.actions > 100
    assert report.bad_inputs == report.rejected > 0
    assert report.cards_lost == report.leaks == 0
    assert report.twins > 0 and report.reloads > 0 and report.views > 0
    assert report.positions > 0 and report.vetoed > 0 and report.scored > 0
    assert report.notations > 0 and report.skipped == {}
    assert set(report.checks) == testing.ALL_CHECKS
    race = check_game("racegame", options={"rounds": 3}, games=3, seed=11)
    assert race.ok and race.vetoed > 0 and race.scored > 0 and race.positions == 0
    assert set(race.skipped) == {"positions"}  # no position notation: said, not passed


def test_kit_finds_structure_problems_by_name() -> None:
    undeclared = check_views("broken-undeclared-field", games=1, strict=False)
    assert any("'stock_left'" in f and "not declared" in f for f in undeclared.failures)
    wrong = check_views("broken-wrong-kind", games=1, strict=False)
    assert any("'round'" in f and "kind 'int'" in f for f in wrong.failures)
    assert undeclared.leaks == wrong.leaks == 0  # a structure problem, not a leak


def test_kit_score_only_rule_exposes_a_game_ignoring_score_round() -> None:
    report = testing.check_score_round("broken-ignores-score-round", games=1, strict=False)
    assert report.scored > 0 and any("result is the same without it" in f for f in report.failures)


def test_kit_veto_only_rule_is_applied_by_the_core_for_every_game() -> None:
    """The core filters vetoes for any game, so a broken game cannot fail this check."""
    for name in ("broken-leaky-view", "drawgame", "racegame"):
        report = testing.check_vetoes(name, games=1, seed=2)
        assert report.vetoed > 0 and report.bad_inputs == report.rejected > 0


def test_kit_configurations_read_applies_data() -> None:
    module = types.ModuleType("drawgame_two_rounds_only")
    vars(module).update(
        RULE=RuleInfo(
            "DRAW-VAR-6", "drawgame.two-rounds", "drawgame", "x", applies={"rounds": (2, 3)}
        )
    )
    cardcore.register("cardcore.rules", "drawgame.two-rounds", module)
    try:
        configs = list(
            testing.configurations(
                "drawgame",
                pairs=True,
                rules=["drawgame.two-rounds", "drawgame.penalty", "drawgame.no-hearts"],
            )
        )
    finally:
        unregister("cardcore.rules", "drawgame.two-rounds")
    ruled = {c.rules: c for c in configs if c.rules}
    assert dict(ruled[("drawgame.two-rounds",)].options) == {"rounds": 2}
    assert dict(ruled[("drawgame.penalty",)].options) == {}
    assert ("drawgame.no-hearts", "drawgame.penalty") not in ruled  # a declared conflict
    assert dict(ruled[("drawgame.penalty", "drawgame.two-rounds")].options) == {"rounds": 2}
    assert [c.id for c in configs if not c.rules] == ["drawgame-2p", "drawgame-4p"]


def test_kit_finds_a_stuck_seat() -> None:
    """drawgame.no-hearts leaves a seat holding only hearts with no legal discard."""
    report = check_game("drawgame", rules=["drawgame.no-hearts"], games=40, seed=0, strict=False,
                        checks={"bound"})  # fmt: skip
    assert any("no legal action" in f for f in report.failures)


def test_kit_reports_a_plugin_error_as_failure() -> None:
    report = check_game(
        "drawgame", rules=["drawgame.boom"], games=1, strict=False, checks={"bound"}
    )
    assert report.failed == 1
    assert "PluginError" in report.failures[0] and "drawgame.boom" in report.failures[0]


def test_kit_rejects_unknown_check_names() -> None:
    with pytest.raises(ValueError, match="unknown checks"):
        check_game("drawgame", checks={"nonsense"})


@pytest.mark.parametrize(
    "kwargs",
    [
        {"games": 0},
        {"games": "x"},
        {"seed": -1},
        {"sample": "x"},
        {"sample": 2},
        {"options": [1]},
        {"checks": []},
    ],
)
def test_kit_refuses_bad_arguments_before_playing(kwargs: dict[str, Any]) -> None:
    with pytest.raises(cardcore.OptionError):
        check_game("drawgame", **kwargs)


def test_kit_reads_one_check_name_as_that_check() -> None:
    assert check_game("drawgame", games=1, checks="bound").checks == ("bound",)


def test_report_merge_adds_counters() -> None:
    a = Report("x", games=1, actions=5, bad_inputs=2, rejected=2, checks=("bound",))
    b = Report("x", games=2, actions=7, leaks=1, checks=("views",))
    b.fail("leak")
    a.merge(b)
    assert (a.games, a.actions, a.bad_inputs, a.rejected, a.leaks, a.failed) == (3, 12, 2, 2, 1, 1)
    assert a.checks == ("bound", "views")
    with pytest.raises(AssertionError, match="leak"):
        a.raise_if_failed()


def test_assert_conserved_and_view_known() -> None:
    game = cardcore.new_game("drawgame", 2, seed=4)
    assert_conserved(game)
    assert_view_known(game, 0)
    assert_view_known(game, None)
    hand = game.state.zones.id("hand.1")
    game.state.zones.cards[hand].pop()
    game.state.zones.seen[hand].pop()
    with pytest.raises(AssertionError, match="missing"):
        assert_conserved(game)
    leaky = cardcore.new_game("broken-leaky-view", 2, seed=4)
    with pytest.raises(AssertionError, match="does not know"):
        assert_view_known(leaky, 0)
    assert_view_structure(game, 1)
    with pytest.raises(AssertionError, match=r"'stock_left' .* not declared"):
        assert_view_structure(cardcore.new_game("broken-undeclared-field", 2, seed=4), 0)


def test_spy_agent_rejects_a_game_handed_as_view() -> None:
    report = Report("drawgame")
    game = cardcore.new_game("drawgame", 2, seed=4)
    spy = SpyAgent(0, 1, report)
    legal = game.legal_actions(0)
    spy.choose(game, legal)  # type: ignore[arg-type]
    spy.choose(game.state, legal)  # type: ignore[arg-type]
    SpyAgent(0, 1, report).choose(game.view(1), legal)  # a fresh spy looks at its first view
    assert report.failed == 3
    assert "was handed Game" in report.failures[0]
    assert "DrawState" in report.failures[1]
    assert "view of seat 1" in report.failures[2]


def test_arguments_too_large_to_print_are_refused_with_a_short_message() -> None:
    from cardcore.session import Session
    from cardcore_tonk.agents import TonkHeuristicAgent

    huge = 10**5000  # str() of it raises: messages must not try
    for call in (
        lambda: check_game("drawgame", seed=-huge),
        lambda: check_game("drawgame", sample=huge),
        lambda: cardcore.compare("golf", games=huge),
        lambda: cardcore.compare("golf", seed=huge),
        lambda: Session.create("golf", 2, now=huge),
        lambda: Session.create("golf", 2, now=0.0, session_id=huge),  # type: ignore[arg-type]
    ):
        with pytest.raises(cardcore.OptionError, match="bits"):
            call()
    assert TonkHeuristicAgent(samples=__import__("numpy").int64(8)).samples == 8
