"""A plugin's ``on_event`` hears the games that are played, not their copies: clones, the
worlds search agents build (with made-up hidden cards) and the actions a load or a replay
applies again are hushed; what is played after a load is heard."""

from __future__ import annotations

import types
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import cardcore
from cardcore import RuleInfo, hookimpl
from cardcore.search import ISMCTSAgent

NAME = "golf.hears-events"


@pytest.fixture
def heard() -> Iterator[Counter[str]]:
    """Slugs of the events a Golf house rule's ``on_event`` receives."""
    slugs: Counter[str] = Counter()
    module = types.ModuleType("hears_events")

    @hookimpl
    def on_event(event: Any) -> None:
        slugs[event.slug] += 1

    module.on_event = on_event  # type: ignore[attr-defined]
    module.RULE = RuleInfo(id="TEST-HUSH-1", name=NAME, game="golf", summary="hears events")  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", NAME, module)
    try:
        yield slugs
    finally:
        cardcore.unregister("cardcore.rules", NAME)


def _step(game: cardcore.Game) -> None:
    seat = game.to_act[0]
    game.apply(game.legal_actions(seat)[0])


def test_the_played_game_is_heard_and_its_copies_are_not(heard: Counter[str]) -> None:
    game = cardcore.new_game("golf", 2, rules=[NAME], options={"rounds": 1}, seed=3)
    for _ in range(4):
        _step(game)
    assert heard["game-started"] == 1 and heard["action-applied"] == 4
    before = heard.copy()
    copy = game.clone()
    world = game.determinize(game.to_act[0], 9)
    for g in (copy, world):
        for _ in range(3):
            _step(g)
    seat = game.to_act[0]
    ISMCTSAgent(seed=1, iterations=30).choose(game.view(seat), game.legal_actions(seat))
    assert heard == before  # no copy, world or search sample was heard
    _step(game)
    assert heard["action-applied"] == 5  # the game itself still is


def test_a_subscriber_of_a_copy_hears_it_without_the_plugin(heard: Counter[str]) -> None:
    game = cardcore.new_game("golf", 2, rules=[NAME], options={"rounds": 1}, seed=3)
    before = heard.copy()
    copy = game.clone()
    got: list[cardcore.Event] = []
    copy.events.subscribe(cardcore.ActionApplied, got.append)
    _step(copy)
    assert [e.version for e in got] == [1]  # type: ignore[attr-defined]
    assert heard == before


@pytest.mark.parametrize("how", ["load", "replay"])
def test_a_load_is_not_heard_again_and_what_follows_is(heard: Counter[str], how: str) -> None:
    game = cardcore.new_game("golf", 2, rules=[NAME], options={"rounds": 1}, seed=3)
    for _ in range(5):
        _step(game)
    before = heard.copy()
    again = cardcore.load(game.save()) if how == "load" else cardcore.replay(game.record())
    assert again.version == 5
    assert heard == before  # the five actions were heard once, when they were played
    _step(again)
    assert heard["action-applied"] == before["action-applied"] + 1
