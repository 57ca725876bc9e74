"""An RL researcher tries the ``"wait"`` action of the real-time environments (``wait=True``,
docs/rl.rst "Real time" / "Waiting") on Spit, Speed and the third-party real-time games
Egyptian Ratscrew and Nertz (``tests/plugins``, registered in place).

Every game is dealt from a fixed seed; policies are deterministic (index arithmetic or a
generator with a fixed seed).
"""

from __future__ import annotations

import random
import types
import warnings
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import cardcore
from cardcore import IllegalActionError, OptionError, PluginError, RuleInfo, hookimpl
from cardcore.rl import aec_env, gym_env, observe, vector_env
from cardcore.rl.aec import BUILDER_PARAMETERS
from cardcore.rl.encoding import Observer
from cardcore.rl.match import Config, Match
from tests.plugins import nertz_2026_12_15 as nz
from tests.plugins import ratscrew_2026_12_16 as rs
from tests.plugins import spades_2026_12_16 as sp
from tests.rl.test_envs import _FirstLegal

DICT_WARNINGS = ("Observation space for each agent probably", "Observation is not a NumPy array")
THIRD = {"ratscrew": (rs.NAME, 3), "nertz": (nz.NAME, 2)}


@pytest.fixture
def third_party() -> Iterator[None]:
    """Register Ratscrew, Nertz and Spades in place; always unregister them."""
    for module in (rs, nz, sp):
        cardcore.register("cardcore.games", module.NAME, module)
    try:
        yield
    finally:
        for module in (sp, nz, rs):
            cardcore.unregister("cardcore.games", module.NAME)


def _cards(game: cardcore.Game) -> Counter[str]:
    return Counter(str(c) for pile in game.state.zones.cards for c in pile)


def _no_wait(obs: dict[str, Any], wait: int) -> list[int]:
    return [int(i) for i in np.flatnonzero(obs["action_mask"][:wait])]


def _busy(legal: list[Any], names: Any = None) -> list[Any]:
    """*legal* without Nertz's ``stuck`` (both seats stuck end the hand at once) if it can."""
    named = [(a, str(a if names is None else names[a])) for a in legal]
    rest = [a for a, n in named if n != "stuck"]
    return rest or legal


# --- the same decisions with and without wait=True -----------------------------------------


@pytest.mark.parametrize("key", ["spit", "speed", "ratscrew", "nertz"])
@pytest.mark.usefixtures("third_party")
def test_wait_true_changes_nothing_but_the_last_index_for_the_same_decisions(key: str) -> None:
    """Same seed, same (non-wait) decisions: the same game, the same observations of every
    seat, the same masks but for the added last index."""
    name, players = THIRD.get(key, (key, 2))
    plain, waiting = aec_env(name, players), aec_env(name, players, wait=True)
    plain.reset(seed=11)
    waiting.reset(seed=11)
    wait = waiting.config.observer.wait
    assert wait == plain.config.observer.actions == plain.action_space("player_0").n
    rng = random.Random(2)
    steps = 0
    while not plain.match.over and steps < 300:
        assert plain.agent_selection == waiting.agent_selection
        for agent in plain.agents:
            a, b = plain.observe(agent), waiting.observe(agent)
            assert np.array_equal(a["observation"], b["observation"])
            assert np.array_equal(a["action_mask"], b["action_mask"][:wait])
            assert b["action_mask"][wait] == int(a["action_mask"].any())
        legal = _no_wait(plain.observe(plain.agent_selection), wait)
        action = rng.choice(_busy([plain.choices()[i] for i in legal]))
        action = next(i for i, a in plain.choices().items() if a == action)
        plain.step(action)
        waiting.step(action)
        steps += 1
    assert steps > 10
    assert waiting.match.over == plain.match.over
    assert waiting.match.game.record_entries() == plain.match.game.record_entries()


@pytest.mark.parametrize("key", ["speed", "nertz"])
@pytest.mark.usefixtures("third_party")
def test_an_env_wait_is_match_wait_and_changes_no_other_seats_observation(key: str) -> None:
    """A seat that waits in the env plays the game of a plain-config Match told ``wait()``:
    the same record and the same observation of every seat at every decision."""
    name, players = THIRD.get(key, (key, 2))
    env = aec_env(name, players, wait=True)
    env.reset(seed=5)
    direct = Match(Config(name, players), 5)  # no wait index: Match.wait() all the same
    plain = Observer(direct.config.encoding)
    wait = env.config.observer.wait
    rng = random.Random(7)
    waits = 0
    for _ in range(150):
        if direct.over:
            break
        seat = direct.seat
        assert env.agent_selection == f"player_{seat}"
        for other in range(players):
            obs, mask, _ = plain.arrays(direct.game, other, direct.legal(other))
            mine = env.observe(f"player_{other}")
            assert np.array_equal(mine["observation"], obs)
            assert np.array_equal(mine["action_mask"][:wait], mask)
        if seat == 0 and rng.random() < 0.4:  # seat 0 waits often, the others never
            direct.wait()
            env.step(wait)
            waits += 1
        else:
            action = rng.choice(_busy(list(direct.legal(seat))))
            direct.act(action)
            env.step(next(i for i, a in env.choices().items() if a == action))
    assert waits >= 3
    assert env.match.game.record_entries() == direct.game.record_entries()
    assert env.match.now == direct.now


@pytest.mark.parametrize("key", ["spit", "speed", "ratscrew", "nertz"])
@pytest.mark.usefixtures("third_party")
def test_mixed_waits_keep_every_card_and_replay_from_the_seed(key: str) -> None:
    """A learner mixing waits and actions: no card lost or duplicated; same seed and same
    decisions give the same game (record, clock, end)."""
    name, players = THIRD.get(key, (key, 2))

    def play() -> tuple[Any, float, bool, int]:
        match = Match(Config(name, players, wait=True), 21)
        deck = _cards(match.game)
        rng = random.Random(3)
        waits = 0
        for _ in range(600):
            if match.over:
                break
            seat = match.seat
            if seat == 0 and rng.random() < 0.3:
                match.wait()
                waits += 1
            else:
                match.act(rng.choice(_busy(list(match.legal(seat)))))
            assert _cards(match.game) == deck
        return match.game.record_entries(), match.now, match.stalled, waits

    first, second = play(), play()
    assert first == second
    assert first[3] > 0


def test_waits_leak_nothing_a_seat_cannot_see() -> None:
    """Determinized twins (every card a seat cannot see dealt anew) give that seat the same
    observation and mask, wait index included, along a Spit game with waits."""
    env = aec_env("spit", 2, wait=True)
    env.reset(seed=8)
    observer = env.config.observer
    wait = observer.wait
    rng = random.Random(4)
    checked = 0
    for i in range(400):
        if env.match.over:
            break
        game = env.match.game
        if i % 8 == 0:
            for seat in range(2):
                twin = game.determinize(seat, 1000 + i)
                a = observer.arrays(game, seat, game.legal_actions(seat))
                b = observer.arrays(twin, seat, twin.legal_actions(seat))
                assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
                checked += 1
        agent = env.agent_selection
        legal = _no_wait(env.observe(agent), wait)
        env.step(wait if agent == "player_0" and rng.random() < 0.3 else rng.choice(legal))
    assert checked >= 10


# --- stalls ----------------------------------------------------------------------------------


@pytest.mark.usefixtures("third_party")
def test_every_seat_waiting_stalls_third_party_games_with_no_reward() -> None:
    for key, pending in (("ratscrew", [0]), ("nertz", [0, 1])):
        name, players = THIRD[key]
        env = aec_env(name, players, wait=True)
        env.reset(seed=4)
        assert env.match.pending == pending  # Ratscrew: only the seat to flip may act
        wait = env.config.observer.wait
        for _agent in env.agent_iter(max_iter=20):
            _, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                assert truncated and not terminated and info["stalled"], key
                assert info["result"]["winners"] == [] and info["result"]["reason"] == "truncated"
                env.step(None)
            else:
                env.step(wait)
        assert env.match.game.version == 0 and env.match.stalled
        assert not env.agents


def test_a_gym_learner_that_waits_while_the_opponent_has_nothing_to_do_stalls() -> None:
    """Spit: spit-greedy says ready, then waits for the learner, which never says it."""
    env = gym_env("spit", 2, opponents="spit-greedy", wait=True)
    obs, _ = env.reset(seed=3)
    wait = env.action_space.n - 1
    obs, reward, terminated, truncated, info = env.step(wait)
    assert (reward, terminated, truncated) == (0.0, False, False) and "stalled" not in info
    assert env.runner.match.game.version == 1  # the opponent's ready
    obs, reward, terminated, truncated, info = env.step(wait)
    assert (reward, terminated, truncated) == (0.0, False, True)
    assert info["stalled"] is True and info["result"]["winners"] == []
    assert not obs["action_mask"].any()  # no "wait" in the empty mask of a finished game
    with pytest.raises(IllegalActionError, match="the game is over"):
        env.step(wait)


def test_the_vector_env_deals_a_stalled_game_again_in_the_same_step() -> None:
    envs = vector_env("spit", 2, opponents="spit-greedy", wait=True)
    obs, _ = envs.reset(seed=3)
    wait = envs.single_action_space.n - 1
    ready = envs.config.observer.names.index("ready")
    obs, rewards, terminated, truncated, infos = envs.step([wait, wait])
    assert infos == {}
    obs, rewards, terminated, truncated, infos = envs.step([wait, ready])
    assert rewards.tolist() == [0.0, 0.0]
    assert terminated.tolist() == [False, False] and truncated.tolist() == [True, False]
    assert "stalled" not in infos  # only in final_info, as documented
    assert infos["_final_obs"].tolist() == [True, False]
    assert infos["final_info"][0]["stalled"] is True
    assert infos["final_info"][0]["result"]["reason"] == "truncated"
    assert not infos["final_obs"][0]["action_mask"].any()
    assert envs.runners[0].match.game.version == 0  # the new game
    assert obs["action_mask"][0, wait] == 1
    # Spit (like every real-time game here) has no score reward: no stalled score to pay
    with pytest.raises(OptionError, match="no score reward"):
        vector_env("spit", 2, rewards="score", wait=True)


# --- stale plans and waits -------------------------------------------------------------------


def test_a_wait_after_a_dropped_plan_is_not_reported_stale() -> None:
    env = gym_env("speed", 2, opponents="spit-greedy", reaction=2.0, wait=True)
    obs, _ = env.reset(seed=0)
    wait = env.action_space.n - 1
    for _ in range(50):
        obs, _, terminated, truncated, info = env.step(_no_wait(obs, wait)[0])
        assert not (terminated or truncated)
        if info.get("stale"):
            break
    else:
        pytest.fail("no plan of the slow learner was dropped")
    dropped = env.runner.match.dropped[0]
    obs, _, _, _, info = env.step(wait)
    assert "stale" not in info and env.runner.match.dropped[0] == dropped


def test_an_aec_agent_told_stale_that_waits_is_told_no_more() -> None:
    env = aec_env("speed", 2, wait=True, reaction=[2.0, 0.1])
    env.reset(seed=0)
    wait = env.config.observer.wait
    for agent in env.agent_iter(max_iter=300):
        obs, _, terminated, truncated, info = env.last()
        assert not (terminated or truncated)
        if agent == "player_0" and info.get("stale"):
            env.step(wait)
            assert "stale" not in env.infos["player_0"]
            return
        env.step(_no_wait(obs, wait)[0])
    pytest.fail("player_0 was never told stale")


# --- bad input -------------------------------------------------------------------------------


def test_wait_index_types_as_documented() -> None:
    env = gym_env("spit", 2, opponents="spit-greedy", wait=True)
    wait = env.action_space.n - 1
    for bad in (True, np.bool_(True), float(wait), str(wait), None):
        env.reset(seed=3)
        with pytest.raises(IllegalActionError, match="needs an action index"):
            env.step(bad)
        assert env.runner.match.game.version == 0  # refused: nothing ran
    for good in (np.int64(wait), np.int32(wait), np.array(wait)):
        env.reset(seed=3)
        env.step(good)
        assert not [a for _, a, _ in env.runner.match.game.record_entries() if a.seat == 0]


def test_a_done_aec_agent_cannot_wait() -> None:
    env = aec_env("speed", 2, wait=True)
    env.reset(seed=2)
    wait = env.config.observer.wait
    env.step(wait)
    env.step(wait)  # every seat waited: stalled
    assert env.truncations["player_0"]
    with pytest.raises(IllegalActionError, match="step it with None"):
        env.step(wait)


@pytest.mark.usefixtures("third_party")
def test_wait_config_refusals() -> None:
    with pytest.raises(OptionError, match="wait=True is for real-time games"):
        aec_env(sp.NAME, 4, wait=True)  # a third-party turn-based game
    # a numpy bool (a sweep's) is taken, as vector_env's copy takes one
    assert gym_env(rs.NAME, 3, wait=np.bool_(True)).runner.config.observer.wait is not None
    assert vector_env("speed", 1, copy=np.bool_(True)).copy is True


# --- conformance checkers --------------------------------------------------------------------


@pytest.mark.parametrize("key", ["ratscrew", "nertz"])
@pytest.mark.usefixtures("third_party")
def test_pettingzoo_and_gymnasium_checks_pass_with_wait_on_third_party_games(key: str) -> None:
    name, players = THIRD[key]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec_env(name, players, wait=True), num_cycles=60)
        seed_test(lambda: aec_env(name, players, wait=True), num_cycles=60)
    assert {str(w.message) for w in caught if not str(w.message).startswith(DICT_WARNINGS)} == set()
    env = _FirstLegal(gym_env(name, players, opponents="random", wait=True))
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*infinity")
        warnings.filterwarnings("ignore", message=".*different from the unwrapped")
        check_env(env, skip_render_check=True)


# --- failing hooks while a wait runs the clock -----------------------------------------------


class _Flaky:
    armed = 0
    seat: int | None = None


@hookimpl
def _flaky_forbid(state: Any, action: Any) -> None:
    if _Flaky.armed > 0 and (_Flaky.seat is None or action.seat == _Flaky.seat):
        _Flaky.armed -= 1
        raise RuntimeError("flaky veto")


@hookimpl
def _flaky_pattern(center: Any, options: Any) -> str | None:
    if _Flaky.armed > 0:
        _Flaky.armed -= 1
        raise RuntimeError("flaky pattern")
    return None


@pytest.fixture
def flaky_rules(third_party: None) -> Iterator[tuple[str, str]]:
    speed = types.ModuleType("speed_wait_flaky_2026_12_17")
    speed.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="WAIT-FLAKY-1", name="speed.wait-flaky", game="speed", summary="flaky veto"
    )
    speed.forbid_action = _flaky_forbid  # type: ignore[attr-defined]
    rats = types.ModuleType("rats_wait_flaky_2026_12_17")
    rats.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="WAIT-FLAKY-2", name=f"{rs.NAME}.wait-flaky", game=rs.NAME, summary="flaky pattern"
    )
    rats.ratscrew_slap_pattern = _flaky_pattern  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "speed.wait-flaky", speed)
    cardcore.register("cardcore.rules", f"{rs.NAME}.wait-flaky", rats)
    _Flaky.armed, _Flaky.seat = 0, None
    try:
        yield "speed.wait-flaky", f"{rs.NAME}.wait-flaky"
    finally:
        _Flaky.armed, _Flaky.seat = 0, None
        cardcore.unregister("cardcore.rules", f"{rs.NAME}.wait-flaky")
        cardcore.unregister("cardcore.rules", "speed.wait-flaky")


def _snapshot(env: Any) -> tuple[Any, ...]:
    m = env.match
    piles = [list(p) for p in m.game.state.zones.cards]
    return (m.game.version, m.now, list(m.plans), list(m.pending), env.agent_selection, piles)


def test_a_hook_failing_on_the_plan_a_wait_lets_run_changes_nothing(
    flaky_rules: tuple[str, str],
) -> None:
    """AEC Speed: player_0 plans, player_1 waits, the clock applies player_0's plan and the
    rule's forbid_action raises: a PluginError naming the rule, everything as it was, and
    the same wait works once the hook does."""
    env = aec_env("speed", 2, rules=[flaky_rules[0]], wait=True)
    env.reset(seed=1)
    wait = env.config.observer.wait
    env.step(_no_wait(env.last()[0], wait)[0])
    assert env.agent_selection == "player_1"
    before = _snapshot(env)
    _Flaky.armed = 1
    with pytest.raises(PluginError, match=r"speed\.wait-flaky"):
        env.step(wait)
    assert _snapshot(env) == before
    env.step(wait)
    assert env.match.game.version == 1 and env.agent_selection == "player_0"


def test_a_hook_failing_after_the_plan_a_wait_let_run_keeps_the_action(
    flaky_rules: tuple[str, str],
) -> None:
    """The veto fails for player_1's actions only, so player_0's plan is applied and the
    failure comes while asking who decides next: the action stands and play goes on."""
    env = aec_env("speed", 2, rules=[flaky_rules[0]], wait=True)
    env.reset(seed=1)
    wait = env.config.observer.wait
    env.step(_no_wait(env.last()[0], wait)[0])
    _Flaky.armed, _Flaky.seat = 1, 1
    with pytest.raises(PluginError, match=r"speed\.wait-flaky"):
        env.step(wait)
    _Flaky.armed, _Flaky.seat = 0, None
    assert env.match.game.version == 1 and env.agent_selection == "player_0"
    for _agent in env.agent_iter(max_iter=40):
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else _no_wait(obs, wait)[0])
    assert env.match.game.version > 10


def test_a_third_party_game_hook_failing_on_a_slap_a_wait_lets_run(
    flaky_rules: tuple[str, str],
) -> None:
    """Ratscrew's own hook (ratscrew_slap_pattern, answered by a house rule) raises when the
    clock, run by the last seat's wait, applies another seat's slap."""
    env = aec_env(rs.NAME, 3, rules=[flaky_rules[1]], wait=True)
    env.reset(seed=4)
    wait = env.config.observer.wait
    game = env.match.game
    slapper = None
    for _ in range(200):
        agent, choices = env.agent_selection, env.choices()
        turn = [i for i, a in choices.items() if str(a) in ("flip", "take")]
        slaps = [i for i, a in choices.items() if str(a).startswith("slap")]
        if len(game.state.zones.cards[rs.CENTER]) < 3:
            env.step(turn[0] if turn else wait)
        elif slapper is None and slaps:
            slapper = agent
            env.step(slaps[0])
        elif slapper is not None and len(env.match.pending) == 1:
            break
        else:
            env.step(wait)
    else:
        pytest.fail("no slap was planned")
    before = _snapshot(env)
    _Flaky.armed = 1
    with pytest.raises(PluginError, match="wait-flaky"):
        env.step(wait)
    assert _Flaky.armed == 0 and _snapshot(env) == before
    env.step(wait)
    assert str(game.record_entries()[-1][1]).startswith("slap")


def test_a_gym_learner_whose_wait_runs_a_failing_opponent_plan_may_retry(
    flaky_rules: tuple[str, str],
) -> None:
    """Learner in seat 1: the opponent decides first, so the learner's wait runs the clock;
    the veto fails on the opponent's plan before anything is applied. Everything is as it
    was and the same step works (docs/rl.rst says such a game needs reset(): see report)."""
    env = gym_env("speed", 2, seat=1, rules=[flaky_rules[0]], opponents="spit-greedy", wait=True)
    env.reset(seed=1)
    wait = env.action_space.n - 1
    match = env.runner.match
    plans = list(match.plans)
    _Flaky.armed = 1
    with pytest.raises(PluginError, match=r"speed\.wait-flaky"):
        env.step(wait)
    assert match.game.version == 0 and match.plans == plans and match.pending == [1]
    env.step(wait)
    assert match.game.version == 1


# --- the action space size elsewhere ---------------------------------------------------------


def test_observe_gives_the_mask_without_the_wait_index() -> None:
    """cardcore.rl.observe takes no wait: its observation is a wait=True environment's, its
    mask that mask without the last index (docs: "as the environments give them")."""
    env = aec_env("spit", 2, wait=True)
    env.reset(seed=1)
    wait = env.config.observer.wait
    for seat in range(2):
        mine = observe(env.match.game, seat)
        theirs = env.observe(f"player_{seat}")
        assert np.array_equal(mine["observation"], theirs["observation"])
        assert mine["action_mask"].shape == (wait,)
        assert np.array_equal(mine["action_mask"], theirs["action_mask"][:wait])
        assert theirs["action_mask"][wait] == 1


# --- bugs ------------------------------------------------------------------------------------


def test_the_aec_reset_refuses_wait_as_a_setting() -> None:
    env = aec_env("spit", 2, wait=True)
    with pytest.raises(OptionError, match=r"aec_env\(\.\.\., wait=\.\.\.\)"):
        env.reset(seed=1, options={"wait": False})


def test_the_single_seat_reset_names_wait_as_a_parameter() -> None:
    env = gym_env("spit", 2, wait=True)
    with pytest.raises(OptionError, match=r"gym_env\(\.\.\., wait=\.\.\.\)"):
        env.reset(seed=1, options={"wait": False})
    assert all("wait" in BUILDER_PARAMETERS[b] for b in ("aec_env", "gym_env", "vector_env"))
