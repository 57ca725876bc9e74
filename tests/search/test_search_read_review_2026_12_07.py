"""Search read review (2026-12-07): samples keep what the seat knows, hooks fail as PluginError.

Each test that shows a bug is a strict xfail; the others check claims that held.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cardcore
from cardcore import ALL, PluginError
from cardcore.search import ISMCTSAgent, sample_position, view_config


def _sample_game(view: dict[str, Any], seed: int) -> cardcore.Game:
    """A game started from a sample of *view* (drawn again where the reader refuses it)."""
    config = view_config(view)
    rng = random.Random(seed)
    for _ in range(30):
        try:
            return cardcore.new_game(
                config.game,
                config.players,
                rules=config.rules,
                without=config.without,
                options=config.options,
                position=sample_position(view, rng),
                seed=rng.getrandbits(32),
            )
        except cardcore.OptionError:
            continue
    raise AssertionError("no sample in 30 draws")


def _golf4_after_take(taker: int) -> tuple[cardcore.Game, int]:
    """A two-seat GOLF4 game in which *taker* took the discard and laid it face down at
    position 0 of its grid; returns the game and the grid's pile index."""
    game = cardcore.new_game("golf", 2, options={"layout": 4, "rounds": 1}, seed=3)
    rng = random.Random(1)
    for _ in range(40):
        seat = game.to_act[0]
        legal = [str(a) for a in game.legal_actions(seat)]
        if seat == taker and "take" in legal:
            game.act(seat, "take")
            game.act(seat, "replace 0")
            return game, game.state.plan.grid[taker]
        pick = [a for a in legal if a not in ("knock", "take")] or legal
        game.act(seat, pick[rng.randrange(len(pick))])
    raise AssertionError("no take")


def test_golf4_a_discard_the_opponent_took_into_its_face_down_grid_stays_there_known_to_all() -> (
    None
):
    game, z = _golf4_after_take(taker=1)
    card = game.state.zones.cards[z][0]
    assert game.state.zones.seen[z][0] == ALL  # the real game: everyone saw it taken
    view = json.loads(json.dumps(game.view(0)))
    for seed in range(6):
        sample = _sample_game(view, seed)
        assert sample.state.zones.cards[z][0] == card
        assert sample.state.zones.seen[z][0] == ALL
        assert sample.view(0)["zones"] == view["zones"]


def test_golf4_a_discard_the_seat_took_into_its_own_grid_stays_known_to_all() -> None:
    game, z = _golf4_after_take(taker=0)
    assert game.state.zones.seen[z][0] == ALL
    view = json.loads(json.dumps(game.view(0)))
    real = game.view(1)["table"]["grids"][0]
    for seed in range(4):
        sample = _sample_game(view, seed)
        assert sample.state.zones.seen[z][0] == ALL
        assert sample.view(1)["table"]["grids"][0] == real


def test_tonk_a_discard_taken_this_turn_lies_in_the_takers_hand_known_to_all() -> None:
    checked = 0
    for seed in range(40):
        game = cardcore.new_game("tonk", 3, seed=seed)
        seat = game.to_act[0]
        if game.is_over or "take" not in [str(a) for a in game.legal_actions(seat)]:
            continue
        game.act(seat, "take")
        taken = game.view(seat)["table"]["taken"]
        for viewer in range(3):
            if viewer == seat:
                continue
            view = json.loads(json.dumps(game.view(viewer)))
            assert view["table"]["taken"] == taken
            for k in range(3):
                sample = _sample_game(view, k)
                zones = sample.state.zones
                hand = zones.layout.index[f"hand.{seat}"]
                texts = [str(c) for c in zones.cards[hand]]
                assert taken in texts
                assert zones.seen[hand][texts.index(taken)] == ALL
                assert sample.view(viewer)["zones"] == view["zones"]
                assert sample.view(viewer)["table"] == view["table"]
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_go_fish_samples_keep_every_asked_rank_in_its_askers_hand() -> None:
    """The docs say the Go Fish example's asked ranks are not used by samples; its
    position_from_view does use them: every sample keeps them (and the view's table)."""
    if "gofish" not in cardcore.available_games():
        pytest.skip("the Go Fish example distribution is not installed")
    game = cardcore.new_game("gofish", 3, seed=4)
    rng = random.Random(1)
    checked = 0
    for _ in range(40):
        if game.is_over:
            break
        seat = game.to_act[0]
        view = json.loads(json.dumps(game.view(seat)))
        asked = view["table"]["asked"]
        if any(asked):
            sample = _sample_game(view, checked)
            cards = sample.state.zones.cards
            layout = sample.state.zones.layout
            for s, ranks in enumerate(asked):
                held = {c.label for c in cards[layout.index[f"hand.{s}"]]}
                assert set(ranks) <= held
            assert sample.view(seat)["table"] == view["table"]
            assert sample.view(seat)["zones"] == view["zones"]
            checked += 1
        legal = game.legal_actions(seat)
        game.apply(legal[rng.randrange(len(legal))])
    assert checked >= 5


@pytest.mark.parametrize("game_name", ["golf", "tonk"])
@pytest.mark.parametrize("hook", ["position_from_view", "read_position"])
def test_a_sampling_or_reading_hook_that_raises_is_a_plugin_error_naming_the_game(
    monkeypatch: pytest.MonkeyPatch, game_name: str, hook: str
) -> None:
    game = cardcore.new_game(game_name, 2, seed=1)
    seat = game.to_act[0]
    before = game.save()

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("boom in the hook")

    monkeypatch.setattr(type(game.logic), hook, boom)
    with pytest.raises(PluginError) as info:
        ISMCTSAgent(seed=1, iterations=3).choose(game.view(seat), game.legal_actions(seat))
    assert info.value.plugin == game_name
    assert game_name in str(info.value) and "boom in the hook" in str(info.value)
    monkeypatch.undo()
    assert game.save() == before  # the real game is untouched
