"""``Game.single_thread``: the same game without the hot calls' lock."""

from __future__ import annotations

import random

import pytest

import cardcore


def _play(game: cardcore.Game, seed: int) -> cardcore.Game:
    rand = random.Random(seed).random
    while not game.is_over:
        legal = game.legal_actions(game.to_act[0])
        game.apply(legal[int(rand() * len(legal))])
    return game


def test_a_single_threaded_game_plays_exactly_as_a_locked_one() -> None:
    locked = _play(cardcore.new_game("golf", 3, seed=12), 5)
    solo = _play(cardcore.new_game("golf", 3, seed=12).single_thread(), 5)
    assert solo.record() == locked.record() and solo.result == locked.result


def test_single_thread_drops_only_the_hot_calls_lock_and_clones_inherit_it() -> None:
    game = cardcore.new_game("tonk", 2, seed=3)
    assert game._hot_lock is game._lock
    assert game.single_thread() is game and game._hot_lock is None
    clone = game.clone()
    assert clone._hot_lock is None and clone._lock is not game._lock
    assert cardcore.new_game("tonk", 2, seed=3).clone()._hot_lock is not None
    # every other call still takes the game's own lock
    game._lock.acquire()
    try:
        assert not game._lock.acquire(blocking=False)
    finally:
        game._lock.release()
    assert game.view(0)["version"] == 0


def test_the_engine_s_own_runners_use_it() -> None:
    pytest.importorskip("gymnasium")  # the rl extra
    from cardcore.rl.match import Config

    env_game = Config("golf", 2).start(1)
    assert env_game._hot_lock is None
