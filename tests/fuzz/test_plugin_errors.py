"""A house rule that raises inside a hook leaves the game exactly as it was, as a PluginError."""

from __future__ import annotations

import random

import pytest

import cardcore
from cardcore import Event, PluginError
from cardcore.testing._util import fingerprint


def _until_boom(seed: int) -> tuple[cardcore.Game, cardcore.Action, list[Event]]:
    game = cardcore.new_game("drawgame", 2, rules=["drawgame.boom"], seed=seed)
    events: list[Event] = []
    game.events.subscribe(Event, events.append)
    rng = random.Random(seed)
    while True:
        seat = game.to_act[0]
        action = rng.choice(game.legal_actions(seat))
        probe = game.clone()
        try:
            probe.apply(action)
        except PluginError:
            return game, action, events
        game.apply(action)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_raising_house_rule_is_a_plugin_error_and_changes_nothing(seed: int) -> None:
    game, action, events = _until_boom(seed)
    before = fingerprint(game)
    seen = len(events)
    views = [game.view(s) for s in (0, 1, None)]
    with pytest.raises(PluginError, match=r"drawgame\.boom") as info:
        game.apply(action)
    assert info.value.plugin == "drawgame.boom"
    assert "RuntimeError" in str(info.value)
    assert fingerprint(game) == before
    assert len(events) == seen
    assert [game.view(s) for s in (0, 1, None)] == views
    # the game still works: the same action fails the same way, another action is accepted
    with pytest.raises(PluginError):
        game.act(action.seat, str(action))
    game.act(action.seat, "resign")
    assert game.is_over and game.result is not None and game.result.reason == "resigned"
    assert fingerprint(cardcore.replay(game.record())) == fingerprint(game)


def test_raising_house_rule_in_realtime_like_driver_is_restored_for_every_seat() -> None:
    game, action, _ = _until_boom(4)
    legal = {s: game.legal_actions(s) for s in range(2)}
    with pytest.raises(PluginError):
        game.apply(action)
    assert {s: game.legal_actions(s) for s in range(2)} == legal
