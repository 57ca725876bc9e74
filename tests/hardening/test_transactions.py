"""Finding 2: apply is transactional whatever a hook does.

A failed apply leaves the game byte-identical (``save()`` before and after), the caller
gets PluginError (a BaseException is re-raised after the state is restored), and the
restore never calls the failing hook again (before the fix it replayed the record from
the deal and hit the same hook for an earlier round).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator

import pytest

import cardcore
from cardcore import PluginError
from cardcore.testing._util import fingerprint
from tests.conftest import register_test_plugins
from tests.hardening import flaky

register_test_plugins()


@pytest.fixture(autouse=True, scope="module")
def _flaky_rules() -> Iterator[None]:
    """The failing-on-demand rules exist only while this module runs."""
    flaky.register()
    try:
        yield
    finally:
        flaky.unregister()


@pytest.fixture(autouse=True)
def _switch_off() -> None:
    flaky.reset()


def _play_until_scoring(game: cardcore.Game, rng: random.Random, rounds_before: int) -> cardcore.Action:
    """Play until the action that would score round ``rounds_before + 1``; return it unapplied."""
    while True:
        seat = game.to_act[0]
        action = rng.choice(game.legal_actions(seat))
        calls = flaky.SWITCH["calls"]
        probe = game.clone()
        probe.apply(action)
        if flaky.SWITCH["calls"] > calls and flaky.SWITCH["calls"] > rounds_before:
            flaky.SWITCH["calls"] = calls
            return action
        flaky.SWITCH["calls"] = calls
        game.apply(action)


def _dump(game: cardcore.Game) -> str:
    return json.dumps(game.save(), sort_keys=True)


@pytest.mark.parametrize("name", ["golf", "drawgame", "tonk"])
def test_persistently_failing_hook_leaves_the_game_byte_identical(name: str) -> None:
    options = {"golf": {"rounds": 3}, "drawgame": {"rounds": 3}, "tonk": {"hands": 3}}[name]
    game = cardcore.new_game(name, 2, rules=[f"{name}.flaky"], options=options, seed=5)
    rng = random.Random(5)
    action = _play_until_scoring(game, rng, rounds_before=1)  # round 1 was scored fine
    assert flaky.SWITCH["calls"] >= 1
    before = _dump(game)
    views = [game.view(s) for s in (0, 1, None)]
    flaky.reset(on=True)  # the service goes down and stays down
    with pytest.raises(PluginError, match=rf"{name}\.flaky"):
        game.apply(action)
    assert flaky.SWITCH["calls"] == 1  # the restore called no hook (before: a second call raised)
    assert _dump(game) == before
    assert [game.view(s) for s in (0, 1, None)] == views  # nothing revealed
    flaky.reset(on=False)  # the service is back
    again = cardcore.load(game.save())  # the save still loads (before: it did not)
    assert _dump(again) == before and fingerprint(again) == fingerprint(game)
    game.apply(action)  # the service is back: the same action now goes through
    assert game.version == again.version + 1


def test_a_function_a_house_rule_answered_is_tracked_too() -> None:
    """A house rule's scorer (called by the game, not through a hook) keeps failing: restored."""
    game = cardcore.new_game("golf", 2, rules=["golf.flaky-scorer"], options={"rounds": 3}, seed=6)
    action = _play_until_scoring(game, random.Random(6), rounds_before=2)  # two seats scored
    before = _dump(game)
    flaky.reset(on=True)
    with pytest.raises(PluginError, match="scoring service"):
        game.apply(action)
    assert flaky.SWITCH["calls"] == 1 and _dump(game) == before


@pytest.mark.parametrize("error", [KeyboardInterrupt, SystemExit, asyncio.CancelledError])
def test_base_exception_from_a_hook_is_reraised_after_the_state_is_restored(error: type) -> None:
    game = cardcore.new_game("golf", 2, rules=["golf.flaky"], options={"rounds": 3}, seed=8)
    action = _play_until_scoring(game, random.Random(8), rounds_before=0)
    before = _dump(game)
    flaky.reset(on=True, error=error)
    with pytest.raises(error):
        game.apply(action)
    assert _dump(game) == before
    assert flaky.SWITCH["calls"] == 1


def test_failure_in_the_games_own_apply_is_restored_from_the_record() -> None:
    game = cardcore.new_game("golf", 2, seed=4)
    rng = random.Random(4)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    before = _dump(game)
    real = game._logic_apply

    def half(state: cardcore.GameState, action: cardcore.Action, emit: object) -> None:
        for pile in state.zones.cards:  # change the table, then fail half way
            pile.reverse()
        state.to_act = ()
        raise ValueError("a bug in the game")

    game._logic_apply = half
    with pytest.raises(PluginError, match="ValueError"):
        game.apply(game.legal_actions(game.to_act[0])[0])
    game._logic_apply = real
    assert _dump(game) == before


def test_restore_replays_a_bounded_number_of_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """A restore starts from the newest checkpoint, never from the deal of a long game."""
    from cardcore import _driver

    monkeypatch.setattr(_driver, "BASE_EVERY", 64)
    monkeypatch.setattr("cardcore.game.BASE_EVERY", 64)
    monkeypatch.setattr("cardcore._bound.BASE_EVERY", 64)
    game = cardcore.new_game("drawgame", 2, options={"rounds": 5}, seed=2)
    rng = random.Random(2)
    while game.version < 300 and not game.is_over:
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    replayed = []
    real = _driver.replay_one
    monkeypatch.setattr(
        _driver, "replay_one", lambda logic, state, action: (replayed.append(1), real(logic, state, action))
    )
    monkeypatch.setattr(_driver, "_deal_again", lambda game: pytest.fail("dealt again"), raising=False)
    game._logic_apply = lambda state, action, emit: (_ for _ in ()).throw(ValueError("bug"))
    with pytest.raises(PluginError):
        game.apply(game.legal_actions(game.to_act[0])[0])
    assert len(replayed) < 64


def test_a_hook_that_ran_in_apply_moves_the_checkpoint() -> None:
    game = cardcore.new_game("drawgame", 2, rules=["drawgame.flaky"], options={"rounds": 3}, seed=3)
    rng = random.Random(3)
    action = _play_until_scoring(game, rng, rounds_before=0)
    game.apply(action)  # round 1 scored: a hook ran
    assert game._base[0] == game.version and game._base[1] is not None


def test_a_game_that_cannot_be_restored_refuses_every_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Should replaying fail as well (a game whose code fails from some moment on), the
    half-applied state is never served: every later move and read raises PluginError, and
    the record, still whole, replays the game as it was before the failed apply."""
    from cardcore import _driver

    game = cardcore.new_game("golf", 2, seed=6)
    rng = random.Random(6)
    for _ in range(20):
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    before = cardcore.replay(game.record()).view(0)
    seat = game.to_act[0]
    action = game.legal_actions(seat)[0]

    def fails(logic: object, state: cardcore.GameState, action: cardcore.Action) -> None:
        raise ValueError("the service went down")

    monkeypatch.setattr(_driver, "replay_one", fails)
    game._logic_apply = lambda state, action, emit: fails(None, state, action)
    with pytest.raises(PluginError, match="could not be restored"):
        game.apply(action)
    monkeypatch.undo()
    for call in (
        lambda: game.view(0),
        lambda: game.legal_actions(seat),
        lambda: game.act(seat, str(action)),
        lambda: game.apply(action),
        lambda: game.position(),
    ):
        with pytest.raises(PluginError, match="refuses every call"):
            call()
    assert cardcore.replay(game.record()).view(0) == before
