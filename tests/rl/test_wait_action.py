"""The ``"wait"`` action of the real-time environments (``wait=True``): the last index of
the action space, in the mask whenever the seat may act; it plans nothing, and the seat
decides again after the next change (``Match.wait``)."""

from __future__ import annotations

import warnings
from collections import Counter
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import cardcore
from cardcore.errors import IllegalActionError, OptionError
from cardcore.rl import aec_env, gym_env, vector_env
from cardcore.rl.match import Config, Match
from tests.rl.test_envs import _FirstLegal

DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


def _named(env: Any, index: int) -> str:
    return str(env.runner.choices.get(index, env.runner.config.observer.names[index]))


def _by_seat(game: cardcore.Game) -> Counter[tuple[int, str]]:
    """How many actions of each kind (the notation's first word) each seat played."""
    return Counter((a.seat, str(a).split()[0]) for _, a, _ in game.record_entries())


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_wait_is_the_last_index_and_in_the_mask_whenever_the_seat_may_act(game: str) -> None:
    plain = gym_env(game, 2)
    env = gym_env(game, 2, wait=True)
    actions = env.runner.config.encoding.actions
    assert plain.action_space.n == actions and env.action_space.n == actions + 1
    assert env.runner.config.observer.names[-1] == "wait"
    assert env.runner.config.observer.wait == actions
    obs, _ = env.reset(seed=5)
    assert obs["action_mask"].shape == (actions + 1,) and obs["action_mask"][-1] == 1
    assert env.action_masks()[-1]
    plain_obs, _ = plain.reset(seed=5)
    # the same observation and the same legal actions otherwise
    assert np.array_equal(plain_obs["observation"], obs["observation"])
    assert np.array_equal(plain_obs["action_mask"], obs["action_mask"][:-1])
    assert env.runner.choices == plain.runner.choices  # "wait" is no action of the game


def test_a_learner_that_waits_lets_the_opponent_play_on() -> None:
    """Spit: the learner says "ready" and "spit" with the other seat, and otherwise waits."""
    env = gym_env("spit", 2, opponents="spit-greedy", wait=True)
    obs, _ = env.reset(seed=3)
    waited = 0
    for _ in range(2000):
        mask = obs["action_mask"].nonzero()[0]
        together = [i for i in mask if _named(env, int(i)) in ("ready", "spit")]
        if together:
            action = int(together[0])
        else:
            action, waited = env.action_space.n - 1, waited + 1
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    assert terminated and not truncated and not info["stalled"]
    assert info["result"]["winners"] == [1]  # it never played a card: the opponent went out
    played = _by_seat(env.runner.match.game)
    assert waited > 10 and played[1, "play"] > 20
    assert {kind for seat, kind in played if seat == 0} <= {"ready", "spit"}


def test_every_seat_waiting_stalls_the_game_as_truncated() -> None:
    env = aec_env("speed", 2, wait=True)
    env.reset(seed=2)
    wait = env.config.observer.wait
    steps = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert truncated and not terminated and info["stalled"]
            env.step(None)
            continue
        assert obs["action_mask"][wait] == 1
        env.step(wait)
        steps += 1
    assert env.match.game.version == 0  # nobody ever acted
    assert steps == 2  # each seat was asked once, then nobody had anything to do


def test_waiting_in_the_aec_env_gives_the_turn_to_the_other_plans() -> None:
    env = aec_env("speed", 2, wait=True, reaction=[0.1, 0.5])
    env.reset(seed=9)
    wait = env.config.observer.wait
    for agent in env.agent_iter(max_iter=400):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        elif agent == "player_0":
            env.step(wait)
        else:
            env.step(int(obs["action_mask"][:wait].nonzero()[0][0]))
    played = _by_seat(env.match.game)
    assert played and all(seat == 1 for seat, _ in played)
    assert env.match.dropped[0] == 0  # a wait is no plan: nothing of seat 0's was dropped


def test_wait_is_refused_for_turn_based_games_and_must_be_a_bool() -> None:
    with pytest.raises(OptionError, match="wait=True is for real-time games; in golf"):
        gym_env("golf", 2, wait=True)
    with pytest.raises(OptionError, match="wait=True is for real-time games"):
        aec_env("tonk", 3, wait=True)
    for bad in ("yes", 1, None, 0.0):
        with pytest.raises(OptionError, match="wait must be True or False"):
            Config("spit", 2, wait=bad)
    assert gym_env("golf", 2, wait=False).action_space.n == Config("golf", 2).encoding.actions


def test_a_wait_index_out_of_the_mask_is_refused_naming_it() -> None:
    plain = gym_env("spit", 2)
    plain.reset(seed=1)
    n = plain.action_space.n
    with pytest.raises(IllegalActionError, match=rf"outside the action space Discrete\({n}\)"):
        plain.step(n)  # no wait index without wait=True
    env = gym_env("spit", 2, wait=True)
    env.reset(seed=1)
    with pytest.raises(IllegalActionError, match=rf"legal: .*, {n} 'wait'") as caught:
        env.step(int(np.flatnonzero(env._mask == 0)[0]))
    assert caught.value.rule_id == "CORE-LEGAL-1"


def test_stepping_wait_once_the_game_is_over_is_refused() -> None:
    env = gym_env("speed", 2, opponents="spit-greedy", wait=True)
    env.reset(seed=4)
    wait = env.action_space.n - 1
    obs, _, terminated, truncated, _ = env.step(wait)
    while not (terminated or truncated):
        obs, _, terminated, truncated, _ = env.step(int(obs["action_mask"].nonzero()[0][0]))
    assert not obs["action_mask"].any()  # no "wait" in an empty mask
    with pytest.raises(IllegalActionError, match="the game is over"):
        env.step(wait)


def test_the_vector_env_waits_per_game() -> None:
    envs = vector_env("speed", 3, opponents="spit-greedy", wait=True)
    obs, _ = envs.reset(seed=6)
    wait = envs.single_action_space.n - 1
    assert obs["action_mask"].shape == (3, wait + 1) and obs["action_mask"][:, wait].all()
    before = [r.match.game.version for r in envs.runners]
    first = int(obs["action_mask"][1, :wait].nonzero()[0][0])
    envs.step(np.array([wait, first, wait]))
    after = [r.match.game.version for r in envs.runners]
    assert all(a > b for a, b in zip(after, before, strict=True))  # the opponents played on
    learner = [Counter(a.seat for _, a, _ in r.match.game.record_entries()) for r in envs.runners]
    assert learner[0][0] == 0 and learner[2][0] == 0  # the waiting learners did nothing


def test_a_match_driven_from_python_waits_as_the_env_does() -> None:
    """The env's wait is ``Match.wait``: the same seeds give the same game."""
    config = Config("speed", 2, wait=True)
    direct = Match(config, 8)
    env = aec_env("speed", 2, wait=True)
    env.reset(seed=8)
    wait = config.observer.wait
    for _ in range(30):
        if direct.over:
            break
        seat = direct.seat
        assert env.agent_selection == f"player_{seat}"
        if seat == 0:
            direct.wait()
            env.step(wait)
        else:
            action = direct.legal(seat)[0]
            direct.act(action)
            env.step(int(next(i for i, a in env.choices().items() if a == action)))
    assert env.match.game.record_entries() == direct.game.record_entries()


def test_pettingzoo_and_gymnasium_checks_pass_with_wait() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec_env("spit", 2, wait=True), num_cycles=300)
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_WARNINGS
    env = _FirstLegal(gym_env("speed", 2, opponents="random", wait=True))
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*infinity")  # scalars are unbounded on purpose
        warnings.filterwarnings("ignore", message=".*different from the unwrapped")
        check_env(env, skip_render_check=True)


@pytest.mark.parametrize("wait", [False, True])
def test_none_is_never_read_as_wait(wait: bool) -> None:
    """``None`` is no index (``observer.wait`` is ``None`` without a wait action)."""
    env = gym_env("spit", 2, wait=wait)
    env.reset(seed=1)
    with pytest.raises(IllegalActionError, match="needs an action index"):
        env.step(None)
    aec = aec_env("speed", 2, wait=wait)
    aec.reset(seed=1)
    with pytest.raises(IllegalActionError, match="needs an action index"):
        aec.step(None)
    assert aec.match.game.version == 0 and aec.match.plans == [None, None]
    envs = vector_env("speed", 2, wait=wait)
    envs.reset(seed=1)
    with pytest.raises(IllegalActionError, match="needs an action index"):
        envs.step([None, None])  # type: ignore[list-item]
    assert [r.match.game.version for r in envs.runners] == [0, 0]


def test_a_third_party_slap_game_lets_a_seat_hold_back_its_slap() -> None:
    """Egyptian Ratscrew (``tests/plugins/ratscrew_2026_12_16.py``): off turn, the only
    legal action is a slap (a false one burns a card); with ``wait=True`` a seat may
    also let the flips go on."""
    from tests.plugins import ratscrew_2026_12_16 as rs

    cardcore.register("cardcore.games", rs.NAME, rs)
    try:
        env = aec_env(rs.NAME, 3, wait=True)
        env.reset(seed=4)
        env.step(0)  # seat 0 flips
        game = env.match.game
        assert env.agent_selection == "player_0"  # asked again, now off turn
        (only,) = game.legal_actions(0)
        assert str(only).startswith("slap ")
        assert env.last()[0]["action_mask"].tolist() == [1, 0, 1]  # legal[0] (the slap), wait
        wait = env.config.observer.wait
        for _ in range(60):  # nobody slaps: flips and takes only, nothing is burned
            turn = [i for i, a in env.choices().items() if str(a) in ("flip", "take")]
            env.step(turn[0] if turn else wait)
        kinds = [str(a).split()[0] for _, a, _ in game.record_entries()]
        assert set(kinds) == {"flip", "take"} and len(kinds) > 15
        assert not env.terminations["player_0"] and not env.truncations["player_0"]
    finally:
        cardcore.unregister("cardcore.games", rs.NAME)
