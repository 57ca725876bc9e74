"""A Game copies as its clone and pickles as its save (what PettingZoo-style and
OpenSpiel-style code does with a state)."""

from __future__ import annotations

import copy
import pickle

import pytest

import cardcore


def _played(name: str, players: int, steps: int, seed: int = 3) -> cardcore.Game:
    game = cardcore.new_game(name, players, seed=seed)
    agent = cardcore.RandomAgent(seed=1)
    for _ in range(steps):
        if game.is_over:
            break
        seat = game.to_act[0]
        game.apply(agent.choose(game.view(seat), game.legal_actions(seat)))
    return game


@pytest.mark.parametrize(("name", "players"), [("golf", 2), ("tonk", 3), ("gofish", 3)])
def test_deepcopy_and_copy_are_clones_that_go_their_own_way(name: str, players: int) -> None:
    game = _played(name, players, 6)
    for twin in (copy.deepcopy(game), copy.copy(game)):
        assert twin is not game and twin.position() == game.position()
        assert twin.version == game.version
        if not twin.is_over:
            seat = twin.to_act[0]
            twin.apply(twin.legal_actions(seat)[0])
            assert game.version == twin.version - 1  # the original did not move


@pytest.mark.parametrize(("name", "players"), [("golf", 2), ("tonk", 3), ("spit", 2)])
def test_pickle_round_trips_through_the_save(name: str, players: int) -> None:
    game = _played(name, players, 8)
    back = pickle.loads(pickle.dumps(game))
    assert back.save() == game.save() and back.record() == game.record()
    assert back.to_act == game.to_act
    for seat in back.to_act:
        assert back.legal_actions(seat) == game.legal_actions(seat)


def test_a_game_that_cannot_be_saved_does_not_pickle_and_says_why() -> None:
    twin = _played("golf", 2, 4).determinize(0, 5)
    with pytest.raises(cardcore.CardcoreError, match="cannot be saved"):
        pickle.dumps(twin)
    assert copy.deepcopy(twin).position() == twin.position()  # copying still works


@pytest.mark.parametrize(("name", "players"), [("golf", 4), ("tonk", 3), ("spit", 2), ("gofish", 3)])
def test_a_state_deep_copies_as_its_clone_and_refuses_pickle_saying_what_to_do(
    name: str, players: int
) -> None:
    game = _played(name, players, 5)
    state = game.state
    before = state.snapshot()
    twin = copy.deepcopy(state)
    assert twin is not state and twin.zones is not state.zones
    assert twin.snapshot() == before
    twin.zones.cards[0].clear()  # the copy goes its own way
    assert state.snapshot() == before
    assert copy.copy(state).zones is state.zones  # shallow, as a hand-written clone expects
    with pytest.raises(TypeError, match=r"pickle its Game .*clone\(\)"):
        pickle.dumps(state)
