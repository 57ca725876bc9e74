"""CORE-BOUND-1: a game that reaches its declared action bound ends as ``"truncated"``.

The runners always stopped there; a game driven through ``apply`` by hand played on,
and then its own record and save held more actions than ``replay`` and ``load`` accept.
Now the core ends it, so every record a game makes replays.
"""

from __future__ import annotations

import random
import types
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from tests.plugins import drawgame, racegame

import cardcore
from cardcore import GameEnded, GameInfo, PluginError, hookimpl
from cardcore.testing import check_game

BOUND = 25


class ShortDraw(drawgame.DrawLogic):
    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return BOUND


class ShortRace(racegame.RaceLogic):
    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return BOUND


class BrokenBound(drawgame.DrawLogic):
    answer: Any = 2.5

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return type(self).answer  # type: ignore[no-any-return]


class FailingScores(ShortDraw):
    def scores(self, state: Any) -> tuple[int, ...]:
        raise RuntimeError("no scores today")


def _module(name: str, base: types.ModuleType, logic: type) -> types.ModuleType:
    mod = types.ModuleType(f"{name}_game")
    g = base.GAME
    mod.GAME = GameInfo(  # type: ignore[attr-defined]
        name, g.summary, g.min_players, g.max_players, realtime=g.realtime, options=g.options,
        fields=g.fields,
    )  # fmt: skip

    @hookimpl
    def create_logic(ruleset: Any) -> Any:
        return logic(ruleset)

    mod.create_logic = create_logic  # type: ignore[attr-defined]
    if hasattr(base, "card_points"):
        mod.card_points = base.card_points  # type: ignore[attr-defined]
    return mod


@pytest.fixture
def games() -> Iterator[None]:
    made = [
        ("short-draw", drawgame, ShortDraw),
        ("short-race", racegame, ShortRace),
        ("broken-bound", drawgame, BrokenBound),
        ("failing-scores", drawgame, FailingScores),
    ]
    for name, base, logic in made:
        cardcore.register("cardcore.games", name, _module(name, base, logic))
    yield
    for name, _, _ in made:
        cardcore.unregister("cardcore.games", name)


def _play_by_hand(game: cardcore.Game, seed: int, limit: int = 200) -> None:
    rng = random.Random(seed)
    for _ in range(limit):
        if game.is_over:
            return
        seats = [s for s in game.to_act if game.legal_actions(s)]
        seat = rng.choice(seats)
        game.apply(rng.choice(game.legal_actions(seat)))


@pytest.mark.parametrize("name", ["short-draw", "short-race"])
def test_core_bound_1_a_game_played_by_hand_ends_at_its_bound(games: None, name: str) -> None:
    game = cardcore.new_game(name, 2, options={"rounds": 5}, seed=3)
    ended: list[GameEnded] = []
    game.events.subscribe(GameEnded, ended.append)
    _play_by_hand(game, 3)
    assert game.is_over and game.version == BOUND
    assert game.result is not None and game.result.reason == "truncated"
    assert game.result.winners == ()
    assert [e.reason for e in ended] == ["truncated"]  # told once, with the last action
    assert game.to_act == () and game.legal_actions(0) == ()
    with pytest.raises(cardcore.IllegalActionError, match="CORE-OVER-1"):
        game.act(0, "resign")
    # its own record and save replay and load: the same game, ended the same way
    record = game.record()
    assert record["truncated"] is True and len(record["actions"]) == BOUND
    for other in (cardcore.replay(record), cardcore.load(game.save())):
        assert other.version == BOUND and other.is_over
        assert other.result == game.result and other.view(None) == game.view(None)
        assert other.view(0) == game.view(0)


def test_core_bound_1_a_clone_near_the_bound_ends_there_too(games: None) -> None:
    game = cardcore.new_game("short-draw", 2, seed=5)
    rng = random.Random(5)
    while game.version < BOUND - 1:
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    twin = game.clone()
    twin.apply(twin.legal_actions(twin.to_act[0])[0])
    assert twin.is_over and twin.result is not None and twin.result.reason == "truncated"
    assert not game.is_over and game.version == BOUND - 1  # the original is untouched


def test_core_bound_1_the_runners_and_the_kit_agree(games: None) -> None:
    game = cardcore.new_game("short-draw", 2, seed=7)
    result = cardcore.play(game, [cardcore.RandomAgent(seed=1), cardcore.RandomAgent(seed=2)])
    assert result.reason == "truncated" and game.version == BOUND
    report = check_game("short-draw", games=3, seed=1, checks={"persistence"})
    assert report.ok, report.failures
    assert report.actions == 3 * BOUND and report.reloads >= 3  # every game reached the bound


def test_a_record_marked_truncated_before_its_bound_still_replays(games: None) -> None:
    game = cardcore.new_game("short-draw", 2, seed=9)
    cardcore.play(game, [cardcore.RandomAgent(seed=1)] * 2, max_actions=10)
    assert game.version == 10 and game.result is not None and game.result.reason == "truncated"
    again = cardcore.replay(game.record())
    assert again.version == 10 and again.result == game.result


def test_a_bound_that_is_not_a_whole_number_is_the_games_error(games: None) -> None:
    for answer in (2.5, 0, "100", None, True):
        BrokenBound.answer = answer
        with pytest.raises(PluginError, match="action_bound"):
            cardcore.new_game("broken-bound", 2, options={"rounds": 1}, seed=1)
        cardcore.unregister("cardcore.games", "broken-bound")  # a fresh configuration each time
        cardcore.register(
            "cardcore.games", "broken-bound", _module("broken-bound", drawgame, BrokenBound)
        )


def test_scores_failing_at_the_bound_keep_the_action_and_the_events(games: None) -> None:
    """The action stands, every event is delivered, then the game's error is raised; the
    game stays open and ends at the next action if its scores answer then."""
    game = cardcore.new_game("failing-scores", 2, seed=4)
    heard: list[int] = []
    game.events.subscribe(cardcore.ActionApplied, lambda e: heard.append(e.version))
    rng = random.Random(4)
    while game.version < BOUND - 1:
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    with pytest.raises(PluginError, match="no scores today"):
        game.apply(game.legal_actions(game.to_act[0])[0])
    assert game.version == BOUND and heard[-1] == BOUND and not game.is_over
