"""Finding 3: every game the engine produces saves and replays.

``at`` is validated when applied (a finite number; non-decreasing in real time), and
``Game.truncate()`` is written into the record, so truncated games load and replay.
"""

from __future__ import annotations

import json
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardcore
from cardcore import IllegalActionError
from cardcore.testing._util import fingerprint
from tests.conftest import register_test_plugins

register_test_plugins()

GAMES = ("drawgame", "racegame", "golf", "tonk", "spit", "speed")
BAD_TIMES = [
    float("nan"), float("inf"), -float("inf"), "12:00", True, None.__class__, 10**400, 1e300,
    [1.0], b"1", complex(1, 0),
]  # fmt: skip


@pytest.mark.parametrize("at", BAD_TIMES, ids=repr)
@pytest.mark.parametrize("name", ["golf", "spit"])
def test_bad_time_is_refused_and_changes_nothing(name: str, at: object) -> None:
    game = cardcore.new_game(name, 2, seed=1)
    seat = game.to_act[0]
    action = game.legal_actions(seat)[0]
    before = fingerprint(game)
    with pytest.raises(IllegalActionError, match="CORE-RECORD-1"):
        game.apply(action, at=at)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="CORE-RECORD-1"):
        game.act(seat, str(action), at=at)  # type: ignore[arg-type]
    assert fingerprint(game) == before
    cardcore.load(json.loads(json.dumps(game.save())))  # before the fix: CorruptStateError


def test_real_time_refuses_a_time_before_the_last_one() -> None:
    game = cardcore.new_game("spit", 2, seed=1)
    seat = game.to_act[0]
    game.apply(game.legal_actions(seat)[0], at=10.0)
    seat = game.to_act[0]
    action = game.legal_actions(seat)[0]
    before = fingerprint(game)
    with pytest.raises(IllegalActionError, match="earlier"):
        game.apply(action, at=9.5)
    assert fingerprint(game) == before
    game.apply(action, at=10.0)  # the same time is fine
    assert cardcore.replay(game.record()).version == game.version


def test_turn_based_games_accept_any_finite_times() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    for at in (5, 3.5, -1.0):
        game.apply(game.legal_actions(game.to_act[0])[0], at=at)
    assert [t for _, _, t in game.record_entries()] == [5, 3.5, -1.0]


@pytest.mark.parametrize("name", GAMES)
def test_truncated_game_is_recorded_and_replays(name: str) -> None:
    game = cardcore.new_game(name, 2, seed=3, options={"hands": 3} if name == "tonk" else None)
    rng = random.Random(3)
    for _ in range(3):
        if game.is_over:
            break
        seat = rng.choice(game.to_act)
        legal = game.legal_actions(seat)
        if legal:
            game.apply(rng.choice(legal))
    game.truncate()
    assert game.result is not None and game.result.reason == "truncated"
    record = game.record()
    assert record["truncated"] is True
    for again in (cardcore.replay(json.dumps(record)), cardcore.load(json.dumps(game.save()))):
        assert again.result == game.result and fingerprint(again) == fingerprint(game)
    with pytest.raises(cardcore.CorruptStateError, match="truncated"):
        cardcore.replay(dict(record, truncated="yes"))


def test_a_record_without_truncated_still_replays() -> None:
    game = cardcore.new_game("golf", 2, seed=3)
    record = game.record()
    del record["truncated"]
    assert cardcore.replay(record).version == 0


ENDS = st.sampled_from(["play", "truncate", "resign", "end"])


@settings(max_examples=24, deadline=None)
@given(
    name=st.sampled_from(GAMES),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 120),
    end=ENDS,
    timed=st.booleans(),
)
def test_every_game_the_engine_produces_saves_and_replays(
    name: str, seed: int, steps: int, end: str, timed: bool
) -> None:
    """Random play, any way of ending (or none), any valid times: save/load and replay round-trip."""
    game = cardcore.new_game(name, 2, seed=seed)
    rng = random.Random(seed)
    clock = 0.0
    for _ in range(steps if end != "play" else 20_000):
        if game.is_over:
            break
        seat = rng.choice(game.to_act)
        legal = game.legal_actions(seat)
        if not legal:
            break
        clock += rng.choice([0.0, 0.5, 1.25])
        at = (clock if game.ruleset.game.realtime else rng.uniform(-1e9, 1e9)) if timed else None
        game.apply(rng.choice(legal), at=at)
    if not game.is_over:
        if end == "truncate":
            game.truncate()
        elif end == "resign":
            game.act(rng.randrange(2), "resign")
        elif end == "end":
            game.act(cardcore.HOST, "end")
    want = fingerprint(game)
    saved = json.loads(json.dumps(game.save()))
    recorded = json.loads(json.dumps(game.record()))
    assert fingerprint(cardcore.load(saved)) == want
    assert fingerprint(cardcore.replay(recorded)) == want
    assert all(t is None or math.isfinite(t) for _, _, t in game.record_entries())


def test_games_play_and_run_realtime_stop_at_their_bound_save_and_replay() -> None:
    """``play`` and ``run_realtime`` truncate at ``max_actions``; those games load and replay."""
    golf = cardcore.new_game("golf", 2, seed=4)
    cardcore.play(golf, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)], max_actions=9)
    spit = cardcore.new_game("spit", 2, seed=4)
    cardcore.run_realtime(spit, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)], max_actions=9)
    for game in (golf, spit):
        assert game.result is not None and game.result.reason == "truncated"
        want = fingerprint(game)
        assert fingerprint(cardcore.load(json.loads(json.dumps(game.save())))) == want
        assert fingerprint(cardcore.replay(json.loads(json.dumps(game.record())))) == want
