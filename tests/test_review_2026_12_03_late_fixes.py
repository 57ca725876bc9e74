"""Review of the late 2026-12-03 fixes (1ffc95b..ba0a575): game-ended at the deal, Option.rule_id,
vetoed timeout defaults, the new Golf and Tonk position checks, cancels_without_choice."""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest

import cardcore
from cardcore import Option, PluginError
from cardcore_golf.grids import anywhere_scorer, cancels_without_choice, column_scorer

# Speed: a deal nobody can play from (a stalemate inside new_game); see
# tests/games/spit/test_speed_worked_2026_12_03.py DEAD_DEAL.
DEAD_DEAL = (
    "9S 9H 10S 10H JS JH QS 10D 10C JD JC QD 5S 5D 5H 5C 6S 6D 6H 6C 7S 7H AS 3D 2S 4D 3S 7D"
    " 4S 8D 8S 9D KS KD AH AC 2H 2C 3H 3C 4H 4C 8H 7C QH 8C KH 9C AD QC 2D KC"
)


# --------------------------------------------------------------------- (1) game-ended at the deal


def test_a_deal_that_ends_the_game_sends_game_ended_once_last() -> None:
    heard: list[dict[str, Any]] = []
    seat0: list[str] = []
    game = cardcore.new_game(
        "speed",
        2,
        deck=DEAD_DEAL,
        seed=4,
        subscribers=[
            (cardcore.Event, lambda e: heard.append(e.to_json())),
            (cardcore.GameEnded, lambda e: seat0.append(e.reason), 0),
        ],
    )
    assert game.is_over
    kinds = [e["event"] for e in heard]
    assert kinds[0] == "game-started" and kinds[-1] == "game-ended"
    assert kinds.count("game-ended") == 1 and seat0 == ["stalemate"]
    before = len(heard)
    with pytest.raises(cardcore.IllegalActionError):
        game.act(0, "stuck")
    game.clone()
    cardcore.replay(json.dumps(game.record()))
    loaded = cardcore.load(json.dumps(game.save()))
    assert loaded.is_over and loaded.result == game.result
    assert len(heard) == before and seat0 == ["stalemate"]


def test_a_finished_position_read_back_does_not_announce_the_end_again() -> None:
    game = cardcore.new_game("tonk", 2, seed=3)
    rng = random.Random(1)
    while not game.is_over:
        seat = game.to_act[0]
        game.act(seat, str(rng.choice(game.legal_actions(seat))))
    heard: list[str] = []
    again = cardcore.new_game(
        "tonk",
        2,
        seed=1,
        position=game.position(),
        subscribers=[(cardcore.Event, lambda e: heard.append(e.to_json()["event"]))],
    )
    assert again.is_over and again.result == game.result
    assert "game-ended" not in heard


# --------------------------------------------------------------------- (2) Option.rule_id


@pytest.mark.parametrize(
    ("name", "options", "rule"),
    [
        ("golf", {"max_turns": 0}, "GOLF-CAP-1"),
        ("golf", {"dealer": 99}, "GOLF-DEAL-3"),
        ("tonk", {"stake": 0}, "TONK-STAKE-1"),
        ("speed", {"side_pile": 7}, "SPEED-SETUP-2"),
    ],
)
def test_an_option_refusal_cites_its_rule_once(
    name: str, options: dict[str, Any], rule: str
) -> None:
    with pytest.raises(cardcore.OptionError) as caught:
        cardcore.new_game(name, 2, options=options, seed=1)
    text = str(caught.value)
    assert caught.value.rule_id == rule and text.endswith(f"({rule})")
    assert text.count(rule) == 1


@pytest.mark.parametrize("rule_id", ["bad", "golf-cap-1", "GOLF CAP 1", None, 7])
def test_an_option_whose_rule_id_is_no_rule_id_is_a_plugin_error(rule_id: Any) -> None:
    with pytest.raises(PluginError):
        Option("x", 1, rule_id=rule_id)


# --------------------------------------------------------------------- (3) timeout defaults

# Seat 2 took JC and holds 9C 10C JS JC QC KC: tonk.must-lay-down leaves it only spreads.
MUST_SPREAD = (
    'tonk played=0 dealer=1 turn=2 phase="play" balances=[0,0,0] chance=2 taken="JC"'
    ' cut=[["7","9","9"],[null,"K","J"]] | stock: 3S 7D QH 5H AS 5C 9D JD 4H AH 9H 10S 8S 2D'
    " KS AD 2H 7H 3D 5D 7C 8D 7S AC 6H | discard: KH! QD! 5S! 10H! 3H! QS! 6C! 8C! 4D! 6D!"
    " 3C! | hand.0: 4S! KD! 6S! 2S! 9S! | hand.1: JH! 2C! 10D! 8H! 4C! | hand.2: QC! 10C!"
    " JS! 9C! KC! JC! | spreads:"
)


def test_tonk_timeout_default_is_legal_when_must_lay_down_leaves_only_spreads() -> None:
    game = cardcore.new_game("tonk", 3, rules=["tonk.must-lay-down"], seed=1, position=MUST_SPREAD)
    legal = game.legal_actions(2)
    assert legal and all(str(a).startswith("spread") for a in legal)
    assert game.logic.default_action(game.state, 2) in legal


# --------------------------------------------------------------------- (4) positions of real play


def _round_trips(name: str, players: int, rules: list[str], options: dict[str, Any]) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        game = cardcore.new_game(name, players, rules=rules, options=options, seed=seed)
        while True:
            again = cardcore.new_game(
                name, players, rules=rules, options=options, seed=1, position=game.position()
            )
            assert again.to_act == game.to_act
            if game.is_over or game.version > 300:
                break
            seat = game.to_act[0]
            game.act(seat, str(rng.choice(game.legal_actions(seat))))


@pytest.mark.parametrize(
    ("players", "rules", "options"),
    [
        (3, ["golf.remove-columns"], {"layout": 6}),
        (2, ["golf.pairs-anywhere", "golf.remove-columns"], {"layout": 8}),
        (2, ["golf.remove-triples", "golf.bonus-twos"], {"layout": 9}),
        (3, ["golf.peek-nearest"], {"layout": 4}),
        (2, [], {"layout": "4h"}),
    ],
)
def test_golf_positions_of_random_play_read_back(
    players: int, rules: list[str], options: dict[str, Any]
) -> None:
    _round_trips("golf", players, rules, {**options, "rounds": 2})


# tonk.no-upcard, three seats, seed 7: seat 1 goes out (tonk-out) spreading the taken AS.
GOES_OUT = [
    (0, "draw"),
    (0, "discard AC"),
    (1, "take"),
    (1, "spread 8H 9H 10H"),
    (1, "discard 3H"),
    (2, "take"),
    (2, "discard 6C"),
    (0, "take"),
    (0, "discard AS"),
    (1, "take"),
    (1, "spread AS AD AC"),
]


@pytest.mark.parametrize("hands", [1, 2])
def test_tonk_position_after_a_seat_goes_out_reads_back(hands: int) -> None:
    options = {"hands": hands}
    game = cardcore.new_game("tonk", 3, rules=["tonk.no-upcard"], options=options, seed=7)
    for seat, text in GOES_OUT:
        game.act(seat, text)
    assert game.is_over == (hands == 1)
    again = cardcore.new_game(
        "tonk", 3, rules=["tonk.no-upcard"], options=options, seed=1, position=game.position()
    )
    assert again.to_act == game.to_act and again.result == game.result


# --------------------------------------------------------------------- (5) cancels_without_choice


def test_cancels_without_choice_unwraps_a_wrapped_chooser() -> None:
    chooser = anywhere_scorer()
    wrapped = functools.wraps(chooser)(lambda keys, points: chooser(keys, points))
    twice = functools.wraps(wrapped)(lambda keys, points: wrapped(keys, points))
    assert not cancels_without_choice(chooser)
    assert not cancels_without_choice(wrapped) and not cancels_without_choice(twice)
    assert cancels_without_choice(column_scorer(3))

    class Odd:
        def __getattr__(self, name: str) -> Any:
            raise RuntimeError(name)

        def __call__(self, keys: Any, points: Any) -> int:
            return 0

    assert cancels_without_choice(Odd())
