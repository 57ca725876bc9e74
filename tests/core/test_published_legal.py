"""The legal actions ``apply`` publishes, which ``legal_actions`` then reads without the lock."""

from __future__ import annotations

import random
import threading

import pytest

import cardcore


@pytest.mark.parametrize(("name", "players"), [("golf", 4), ("tonk", 3)])
def test_legal_actions_after_each_apply_are_the_logic_s_own(name: str, players: int) -> None:
    rand = random.Random(4).random
    steps = 0
    for seed in range(40):  # random Tonk hands are short: several games
        game = cardcore.new_game(name, players, seed=seed)
        while not game.is_over and steps < 300:
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            assert legal == game.logic.legal_actions(game.state, seat)
            for other in range(players):
                if other not in game.to_act:
                    assert game.legal_actions(other) == ()
            assert [str(a) for a in legal] == game.view(seat)["legal"]
            game.apply(legal[int(rand() * len(legal))])
            steps += 1
    assert steps >= 100


def test_the_published_set_is_read_without_the_lock_and_clones_share_it() -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    game.apply(game.legal_actions(game.to_act[0])[0])  # publishes the next seat's set
    seat = game.to_act[0]
    got: list[tuple[cardcore.Action, ...]] = []
    game._lock.acquire()  # another caller inside the game
    try:
        reader = threading.Thread(target=lambda: got.append(game.legal_actions(seat)))
        reader.start()
        reader.join(5)
        assert not reader.is_alive() and got  # answered while the lock was held
    finally:
        game._lock.release()
    assert got[0] == game.logic.legal_actions(game.state, seat)
    assert game.clone().legal_actions(seat) is got[0]


def test_a_legal_actions_failure_while_publishing_leaves_the_apply_done() -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    real = game._logic_legal
    failing = {"on": False}

    def legal(state: cardcore.GameState, seat: int) -> tuple[cardcore.Action, ...]:
        if failing["on"]:
            raise RuntimeError("the rules service is down")
        return real(state, seat)

    game._logic_legal = legal
    action = game.legal_actions(game.to_act[0])[0]
    failing["on"] = True
    game.apply(action)  # applied: only the next set could not be published
    assert game.version == 1 and game.record_entries()[0][1] is action
    with pytest.raises(cardcore.PluginError, match="rules service is down"):
        game.legal_actions(game.to_act[0])
    failing["on"] = False
    assert game.legal_actions(game.to_act[0]) == real(game.state, game.to_act[0])


def test_readers_in_other_threads_only_ever_see_a_set_of_the_seat_asked() -> None:
    game = cardcore.new_game("golf", 4, seed=8)
    stop = threading.Event()
    bad: list[str] = []

    def read() -> None:
        while not stop.is_set():
            for seat in range(4):
                for action in game.legal_actions(seat):
                    if action.seat != seat:
                        bad.append(f"seat {seat} was given {action}")

    readers = [threading.Thread(target=read) for _ in range(2)]
    for r in readers:
        r.start()
    try:
        rand = random.Random(2).random
        while not game.is_over:
            legal = game.legal_actions(game.to_act[0])
            game.apply(legal[int(rand() * len(legal))])
    finally:
        stop.set()
        for r in readers:
            r.join(10)
    assert not bad
    assert game.record() == cardcore.replay(game.record()).record()


def test_an_interrupt_while_publishing_comes_after_the_action_and_its_events() -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    got: list[cardcore.Event] = []
    game.events.subscribe(cardcore.ActionApplied, got.append)
    real = game._logic_legal
    stop = {"on": False}

    def legal(state: cardcore.GameState, seat: int) -> tuple[cardcore.Action, ...]:
        if stop["on"]:
            raise KeyboardInterrupt
        return real(state, seat)

    game._logic_legal = legal
    action = game.legal_actions(game.to_act[0])[0]
    stop["on"] = True
    with pytest.raises(KeyboardInterrupt):
        game.apply(action)
    assert game.version == 1 and [e.version for e in got] == [1]  # applied, and told
    stop["on"] = False
    game.apply(game.legal_actions(game.to_act[0])[0])  # the game goes on
    assert game.version == 2 and len(got) == 2


def test_an_interrupt_while_publishing_survives_a_handler_that_raises_too(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Two failures in one apply: the first (publishing) is raised, the handler's is logged."""
    game = cardcore.new_game("golf", 2, seed=5)
    got: list[cardcore.Event] = []

    def exits(event: cardcore.Event) -> None:
        got.append(event)
        raise SystemExit(3)

    game.events.subscribe(cardcore.ActionApplied, exits)
    real = game._logic_legal
    stop = {"on": False}

    def legal(state: cardcore.GameState, seat: int) -> tuple[cardcore.Action, ...]:
        if stop["on"]:
            raise KeyboardInterrupt
        return real(state, seat)

    game._logic_legal = legal
    action = game.legal_actions(game.to_act[0])[0]
    stop["on"] = True
    with caplog.at_level("ERROR", logger="cardcore.events"), pytest.raises(KeyboardInterrupt):
        game.apply(action)
    assert game.version == 1 and [e.version for e in got] == [1]  # applied, and told
    assert any("SystemExit" in r.getMessage() for r in caplog.records)  # logged, not lost
