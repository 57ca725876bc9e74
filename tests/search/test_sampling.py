"""Samples agree with the seat's view: same piles as it sees them, same table, same legal actions."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cardcore
from cardcore.search import deal_view, sample_position, view_config

CASES: list[tuple[str, int, tuple[str, ...], dict[str, Any]]] = [
    ("golf", 2, (), {}),
    ("golf", 3, (), {"layout": 4}),  # face down, peeks
    ("golf", 2, (), {"layout": "4h"}),  # a hand: taken discards stay known
    ("golf", 2, ("golf.remove-triples",), {"layout": 9}),  # removed positions
    ("golf", 2, ("golf.jokers",), {}),
    ("tonk", 3, (), {}),
    ("tonk", 2, ("tonk.hit-blocks-drop",), {"hands": 3}),
    ("spit", 2, (), {}),
    ("speed", 2, (), {}),
]


def _walk(name: str, players: int, rules: tuple[str, ...], options: dict[str, Any], steps: int):
    """Views of the seats to act along a seeded game (drops avoided, so hands last)."""
    game = cardcore.new_game(name, players, rules=rules, options=options, seed=3)
    rng = random.Random(3)
    for _ in range(steps):
        if game.is_over:
            return
        seats = [s for s in game.to_act if game.legal_actions(s)]
        if not seats:
            return
        seat = seats[0]
        yield game, seat
        legal = [a for a in game.legal_actions(seat) if str(a) != "drop"] or game.legal_actions(
            seat
        )
        game.apply(legal[rng.randrange(len(legal))])


def _sampled(view: dict[str, Any], rng: random.Random) -> cardcore.Game:
    config = view_config(view)
    for _ in range(30):  # rejection: a deal the rules forbid is drawn again, as the agent does
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


@pytest.mark.parametrize("name, players, rules, options", CASES, ids=lambda v: str(v))
def test_a_sample_shows_the_seat_exactly_its_view(
    name: str, players: int, rules: tuple[str, ...], options: dict[str, Any]
) -> None:
    rng = random.Random(11)
    checked = 0
    for game, seat in _walk(name, players, rules, options, steps=25):
        view = json.loads(json.dumps(game.view(seat)))  # what a remote agent would hold
        sample = _sampled(view, rng)
        mine = sample.view(seat)
        for key in ("zones", "table", "legal", "to_act", "rules", "options"):
            assert mine[key] == view[key], (key, game.version)
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("name, players, rules, options", CASES, ids=lambda v: str(v))
def test_a_sample_shows_a_spectator_exactly_its_view(
    name: str, players: int, rules: tuple[str, ...], options: dict[str, Any]
) -> None:
    rng = random.Random(13)
    checked = 0
    for game, _ in _walk(name, players, rules, options, steps=12):
        view = json.loads(json.dumps(game.view(None)))
        sample = _sampled(view, rng)
        mine = sample.view(None)
        for key in ("zones", "table", "to_act"):
            assert mine[key] == view[key], (key, game.version)
        checked += 1
    assert checked >= 5


def test_hidden_cards_are_redealt_and_the_deck_is_kept() -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    view = game.view(0)
    texts = {sample_position(view, random.Random(k)) for k in range(5)}
    assert len(texts) == 5  # the hidden cards differ from sample to sample
    zones = deal_view(view, view_config(view).deck(), random.Random(1))
    assert sorted(map(str, zones.all_cards())) == sorted(map(str, game.state.zones.all_cards()))


def test_go_fish_samples_use_the_default_notation() -> None:
    if "gofish" not in cardcore.available_games():
        pytest.skip("the Go Fish example distribution is not installed")
    rng = random.Random(2)
    for game, seat in _walk("gofish", 3, (), {}, steps=20):
        view = game.view(seat)
        mine = _sampled(view, rng).view(seat)
        assert mine["zones"] == view["zones"] and mine["legal"] == view["legal"]


def test_a_view_that_does_not_add_up_is_refused() -> None:
    view = cardcore.new_game("golf", 2, seed=5).view(0)
    view["zones"][0]["cards"] = view["zones"][0]["cards"][:-3]  # three stock cards vanish
    with pytest.raises(cardcore.CardcoreError, match="does not add up"):
        sample_position(view, random.Random(1))


def test_a_game_without_positions_cannot_be_sampled() -> None:
    view = cardcore.new_game("racegame", 2, seed=1).view(0)
    with pytest.raises(cardcore.CardcoreError, match="cannot sample positions of 'racegame'"):
        sample_position(view, random.Random(1))
