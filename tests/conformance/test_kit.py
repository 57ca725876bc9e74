"""The kit catches what it promises to catch: each deliberately broken game fails its check."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import cardcore
from cardcore import testing
from cardcore.plugins import unregister
from cardcore.testing import Report, SpyAgent, assert_conserved, assert_view_known, check_game
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
    assert check_game("broken-loses-cards", games=1, strict=False).cards_lost > 0
    assert check_game("broken-too-short", games=1, strict=False).truncated > 0


def test_kit_passes_the_sound_test_game() -> None:
    report = check_game("drawgame", games=3, seed=11)
    assert report.ok
    assert report.games == 3
    assert report.actions > 100
    assert report.bad_inputs == report.rejected > 0
    assert report.cards_lost == report.leaks == 0
    assert report.twins > 0 and report.reloads > 0 and report.views > 0
    assert set(report.checks) == testing.ALL_CHECKS


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
    assert "GameState" in report.failures[1] or "DrawState" in report.failures[1]
    assert "view of seat 1" in report.failures[2]
