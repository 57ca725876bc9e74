"""The conformance kit catches the classes of bug the hardening issue found, in any game.

Its ``scores`` check fails a house rule's ``score_round`` on purpose (findings 2: the
game must be restored byte-identical, without calling the rule again); its ``events``
check adds subscribers that raise (finding 1); its ``persistence`` check loads saves
edited in one place and hostile JSON (findings 5 and 6). Each test below also breaks
the core on purpose and checks that the kit notices.
"""

from __future__ import annotations

import random

import pytest

import cardcore
from cardcore import _driver
from cardcore.testing import check_game, check_persistence, check_score_round
from tests.conftest import register_test_plugins

register_test_plugins()


@pytest.mark.parametrize("name", ["golf", "tonk", "drawgame", "racegame"])
def test_the_kit_fails_a_scoring_rule_and_finds_the_game_restored(name: str) -> None:
    report = check_score_round(name, games=2, seed=1)
    assert report.restored >= 1, report.summary()  # a one-hand Tonk game may end unscored


def test_the_kit_flags_a_core_that_does_not_restore(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("cardcore.game.restore", lambda game: None)
    monkeypatch.setattr("cardcore._bound.restore", lambda game: None)  # (commit's path)
    report = check_score_round("drawgame", games=2, seed=1, strict=False)
    assert not report.ok and report.restored == 0
    assert any("left the game changed" in f for f in report.failures), report.failures


def _restore_from_the_deal(game: cardcore.Game) -> None:
    """The restore before the fix: replay the whole record, calling every hook again."""
    state = _driver.rebuild_state(game)
    game._state = state
    game._legal_v = game._hot_v = -1
    game.to_act, game.is_over = state.to_act, state.is_over


def test_the_kit_flags_a_restore_that_calls_the_failing_hook_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("cardcore.game.restore", _restore_from_the_deal)
    monkeypatch.setattr("cardcore._bound.restore", _restore_from_the_deal)
    report = check_score_round("golf", games=2, seed=1, strict=False)
    assert not report.ok and report.restored == 0
    assert report.raw >= 1 or any("called" in f for f in report.failures), report.failures


def test_the_kits_persistence_check_tries_forged_saves_and_hostile_json() -> None:
    report = check_persistence("golf", games=2, seed=1)
    assert report.bad_inputs >= 6 and report.bad_inputs == report.rejected


def test_the_kit_flags_a_load_that_ignores_the_saved_config(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardcore import records

    monkeypatch.setattr(records, "same", lambda saved, replayed: True)  # every config "matches"
    report = check_persistence("golf", games=1, seed=1, strict=False)
    assert not report.ok
    assert any("players swapped in its record loaded" in f for f in report.failures), report.failures


@pytest.mark.parametrize("name", ["golf", "racegame"])
def test_the_kits_event_check_adds_subscribers_that_raise(
    name: str, caplog: pytest.LogCaptureFixture
) -> None:
    report = check_game(name, games=1, seed=2, checks={"events"})
    assert report.ok and report.actions > 0
    assert "ConnectionResetError" not in caplog.text  # the kit's own failures are not logged


def test_a_subscriber_failure_on_error_never_hears_of_is_flagged() -> None:
    from cardcore.testing._faults import RaisingSubscriber

    sub = RaisingSubscriber()
    game = cardcore.new_game("golf", 2, seed=1)
    game.events.subscribe(cardcore.Event, sub)  # on_error not set: the failures are only logged
    rng = random.Random(1)
    for _ in range(3):
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    assert sub.raised > 0 and sub.problem() is not None
