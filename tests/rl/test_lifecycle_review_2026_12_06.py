"""Lifecycle and ordering review of ``cardcore.rl`` (2026-12-06), by reading the code.

What happens around the edges of an episode: ``reset()`` mid-episode or twice, ``step()``
after the end, an opponent, a standing read or the observation failing mid-step, real-time
decision order, rewards summed per episode, arrays and infos shared between steps, seeding,
the batched environment's autoreset, memory over many episodes, and ``close()``.

The six bugs found are pinned by tests of the right behaviour (each failed on the code
before its fix); every other test checks a claim that held and fails if it breaks. Small seeded games only (Golf with one or two holes,
one Speed game).
"""

from __future__ import annotations

import contextlib
import gc
import random
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import cardcore  # noqa: E402
from cardcore import CardcoreError, IllegalActionError  # noqa: E402
from cardcore.rl import aec_env, gym_env, vector_env  # noqa: E402

GOLF1 = {"rounds": 1}


def _pick(mask: Any, rng: random.Random) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.randrange(len(legal))])


def _aec_play(env: Any, rng: random.Random, limit: int = 5000) -> list[tuple[str, Any]]:
    """Play the reset *env* to the end with random masked actions; return what each agent saw."""
    seen: list[tuple[str, Any]] = []
    for agent in env.agent_iter(limit):
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            seen.append((agent, ("done", reward, terminated, truncated)))
            env.step(None)
            continue
        action = _pick(obs["action_mask"], rng)
        seen.append((agent, (obs["observation"].tobytes(), reward, action)))
        env.step(action)
    return seen


def _aec_returns(env: Any, rng: random.Random) -> dict[str, float]:
    """Each agent's return: the sum of the rewards ``last()`` shows it (PettingZoo's convention)."""
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent, what in _aec_play(env, rng):
        totals[agent] += what[1]
    return totals


def _gym_episode(
    env: Any, seed: int, rng: random.Random
) -> tuple[list[Any], float, dict[str, Any]]:
    obs, _ = env.reset(seed=seed)
    trace: list[Any] = [obs["observation"].tobytes()]
    total = 0.0
    while True:
        action = _pick(obs["action_mask"], rng)
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        trace.append((action, reward, obs["observation"].tobytes(), terminated, truncated))
        if terminated or truncated:
            return trace, total, info


def _golf_standing(totals: list[float]) -> list[float]:
    """rl.rst: Golf's score reward, (the other seats' mean total minus its own) / 10."""
    n, whole = len(totals), sum(totals)
    return [((whole - t) / (n - 1) - t) / 10.0 for t in totals]


def _failing_once(obj: Any, name: str, after: int = 0) -> Callable[[], None]:
    """Make *obj*.*name* raise RuntimeError once, on the call after *after* good ones; return undo."""
    real = getattr(obj, name)
    calls = [0]

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] == after + 1:
            raise RuntimeError(f"{name} failed")
        return real(*args, **kwargs)

    setattr(obj, name, wrapper)
    return lambda: setattr(obj, name, real)


class _FirstLegal:
    """A deterministic turn-based opponent object that can be told to fail once."""

    fail_next = False

    def choose(self, view: Any, legal: Any) -> Any:
        if self.fail_next:
            self.fail_next = False
            raise RuntimeError("opponent crashed")
        return legal[0]


class _FailsToStart:
    """An installed agent whose construction fails while ``armed`` (a model file not found)."""

    armed = 0

    def __init__(self, seed: int | None = None) -> None:
        if _FailsToStart.armed > 0:
            _FailsToStart.armed -= 1
            raise RuntimeError("model file not found")

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[0]


@pytest.fixture
def failing_agent() -> Iterator[str]:
    name = "review-lifecycle-fails-to-start"
    cardcore.register("cardcore.agents", name, _FailsToStart)
    _FailsToStart.armed = 0
    yield name
    _FailsToStart.armed = 0
    cardcore.unregister("cardcore.agents", name)


# --- the AEC environment -----------------------------------------------------------------------


def test_aec_reset_in_the_middle_of_an_episode_replays_the_seeded_game_from_scratch() -> None:
    fresh = aec_env("golf", 2, options=GOLF1)
    fresh.reset(seed=5)
    want = _aec_play(fresh, random.Random(1))

    env = aec_env("golf", 2, options=GOLF1)
    env.reset(seed=9)
    rng = random.Random(3)
    for _ in range(7):  # part of another game, then start over
        obs, *_ = env.last()
        env.step(_pick(obs["action_mask"], rng))
    env.reset(seed=5)
    env.reset(seed=5)  # twice in a row: the same game
    assert env.match.game.version == 0 and env.agents == env.possible_agents
    assert _aec_play(env, random.Random(1)) == want


def test_aec_reset_without_a_seed_draws_from_the_stream_of_the_last_seed() -> None:
    a, b = aec_env("golf", 2, options=GOLF1), aec_env("golf", 2, options=GOLF1)
    a.reset(seed=7)
    b.reset(seed=7)
    assert a.match.game.seed == 7
    a.reset()
    b.reset()
    assert a.match.game.seed == b.match.game.seed != 7
    a.reset(seed=7)
    assert a.match.game.seed == 7  # a seed starts the stream again


@pytest.mark.parametrize(
    ("game", "players", "options", "rewards", "max_actions"),
    [
        ("golf", 2, {"rounds": 1}, "win", None),
        ("golf", 3, {"rounds": 2}, "score", None),
        ("golf", 2, {"rounds": 2}, "score", 40),  # truncated after the first hole
        ("golf", 2, {"rounds": 1}, "win", 9),  # truncated: nobody wins
        ("speed", 2, {}, "win", None),
    ],
)
def test_aec_returns_are_zero_sum_and_match_the_documented_rewards(
    game: str, players: int, options: dict[str, Any], rewards: str, max_actions: int | None
) -> None:
    env = aec_env(game, players, options=options, rewards=rewards, max_actions=max_actions)
    env.reset(seed=3)
    returns = _aec_returns(env, random.Random(3))
    result = env.match.game.result
    assert abs(sum(returns.values())) < 1e-9, returns
    got = [returns[a] for a in env.possible_agents]
    if max_actions is not None:
        assert result.reason == "truncated" and env.match.truncated
    if rewards == "score":
        totals = env.match.game.view(None)["table"]["totals"]
        assert got == pytest.approx(_golf_standing(totals))
        if max_actions is not None:
            assert any(got), "the first hole's standing is paid though the game was cut off"
    elif max_actions is not None:
        assert got == [0.0] * players
    else:
        assert got == cardcore.rl.win_rewards(result.winners, players)


def test_aec_after_the_end_done_agents_step_out_once_with_none() -> None:
    env = aec_env("golf", 2, options=GOLF1, max_actions=6)
    env.reset(seed=1)
    rng = random.Random(1)
    while not env.match.over:
        obs, *_ = env.last()
        env.step(_pick(obs["action_mask"], rng))
    assert env.truncations == dict.fromkeys(env.possible_agents, True)
    assert env.terminations == dict.fromkeys(env.possible_agents, False)
    with pytest.raises(IllegalActionError, match="step it with None"):
        env.step(10)
    left = set(env.agents)
    while env.agents:
        agent = env.agent_selection
        _, reward, _, truncated, info = env.last()
        assert truncated and reward == 0.0 and info["result"]["reason"] == "truncated"
        env.step(None)
        left.discard(agent)
        assert agent not in env.infos and agent not in env.truncations
    assert not left and env.infos == {} and env.rewards == {}
    with pytest.raises(IllegalActionError, match="reset"):
        env.last()
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(None)
    env.reset(seed=1)
    assert env.agents == env.possible_agents and not env.match.over


def test_aec_real_time_decisions_at_one_time_come_in_seat_order_and_stale_is_said_once() -> None:
    env = aec_env("speed", 2, reaction=[0.4, 0.6])
    env.reset(seed=2)
    rng = random.Random(2)
    runs: dict[tuple[int, float], list[str]] = {}
    told = 0
    for agent in env.agent_iter(2000):
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        runs.setdefault((env.match.game.version, env.match.now), []).append(agent)
        if info.get("stale"):
            told += 1
        env.step(_pick(obs["action_mask"], rng))
        if agent in env.agents:  # said to the decision it concerned, then gone
            assert "stale" not in env.infos[agent] or env.agent_selection == agent
    several = [seq for seq in runs.values() if len(seq) > 1]
    assert several and told, (len(several), told)
    assert all(seq == sorted(set(seq)) for seq in several), several


def test_aec_final_infos_of_two_agents_are_not_one_shared_result() -> None:
    env = aec_env("golf", 2, options=GOLF1)
    env.reset(seed=1)
    rng = random.Random(1)
    while not env.match.over:
        obs, *_ = env.last()
        env.step(_pick(obs["action_mask"], rng))
    winners = list(env.infos["player_1"]["result"]["winners"])
    env.infos["player_0"]["result"]["winners"].append(99)  # one agent's own bookkeeping
    assert env.infos["player_1"]["result"]["winners"] == winners


def test_aec_a_failed_standing_read_pays_the_hole_at_the_next_step_not_at_the_end() -> None:
    def paid(fail: bool) -> list[dict[str, float]]:
        env = aec_env("golf", 2, options={"rounds": 2}, rewards="score")
        # the standing is read at the deal, then when a hole ends: fail the second read once
        undo = _failing_once(env.config.encoding, "progress", after=1) if fail else None
        env.reset(seed=4)
        rng = random.Random(4)
        out = []
        for _agent in env.agent_iter(3000):
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            version = env.match.game.version
            try:
                env.step(_pick(obs["action_mask"], rng))
            except RuntimeError:  # the action stands; the AEC loop goes on (rl.rst)
                assert fail and env.match.game.version == version + 1
            if any(env.rewards.values()):
                out.append(dict(env.rewards))
        if undo is not None:
            undo()
        return out

    clean, failed = paid(False), paid(True)
    assert len(clean) == 2  # one payment per hole
    assert failed[0] == pytest.approx(clean[0])


# --- the single-seat environment ---------------------------------------------------------------


def test_gym_reset_mid_episode_replays_and_kept_observations_do_not_change() -> None:
    env = gym_env("golf", 2, options=GOLF1, opponents="golf-greedy")
    want, _, _ = _gym_episode(env, 5, random.Random(1))
    obs, _ = env.reset(seed=9)
    env.step(_pick(obs["action_mask"], random.Random(0)))
    kept = []
    obs, _ = env.reset(seed=5)
    rng, got = random.Random(1), [obs["observation"].tobytes()]
    kept.append((obs, obs["observation"].copy(), obs["action_mask"].copy()))
    while True:
        action = _pick(obs["action_mask"], rng)
        obs, reward, terminated, truncated, _ = env.step(action)
        kept.append((obs, obs["observation"].copy(), obs["action_mask"].copy()))
        got.append((action, reward, obs["observation"].tobytes(), terminated, truncated))
        if terminated or truncated:
            break
    assert got == want
    for o, observation, mask in kept:  # a caller's obs from step k is not overwritten at k+1
        assert np.array_equal(o["observation"], observation)
        assert np.array_equal(o["action_mask"], mask)


@pytest.mark.parametrize("max_actions", [None, 44])
def test_gym_score_return_is_the_final_standing_also_when_truncated(
    max_actions: int | None,
) -> None:
    env = gym_env(
        "golf",
        2,
        options={"rounds": 2},
        rewards="score",
        max_actions=max_actions,
        opponents="golf-greedy",
    )
    for seed in range(2):
        _, total, info = _gym_episode(env, seed, random.Random(seed))
        match = env.runner.match
        assert match.truncated == (max_actions is not None)
        assert info["result"]["reason"] == ("truncated" if max_actions else "rounds")
        totals = match.game.view(None)["table"]["totals"]
        assert total == pytest.approx(_golf_standing(totals)[0])
        assert total != 0.0


def test_gym_step_after_the_end_is_refused_until_reset() -> None:
    env = gym_env("golf", 2, options=GOLF1, max_actions=5)
    obs, _ = env.reset(seed=2)
    rng = random.Random(2)
    while True:
        obs, reward, terminated, truncated, _ = env.step(_pick(obs["action_mask"], rng))
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == 0.0 and not obs["action_mask"].any()
    version = env.runner.match.game.version
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(10)
    assert env.runner.match.game.version == version
    obs, _ = env.reset()
    assert obs["action_mask"].any()


def test_gym_after_an_opponent_fails_the_game_needs_reset_and_reset_is_clean() -> None:
    opponent = _FirstLegal()
    env = gym_env("golf", 2, options=GOLF1, opponents=opponent)
    want, _, _ = _gym_episode(env, 6, random.Random(6))
    obs, _ = env.reset(seed=6)
    rng = random.Random(6)
    obs, *_ = env.step(_pick(obs["action_mask"], rng))
    obs, *_ = env.step(_pick(obs["action_mask"], rng))  # golf: two flips, then the opponent
    opponent.fail_next = True
    with pytest.raises(CardcoreError, match=r"seat 1 .*raised RuntimeError"):
        for _ in range(10):
            obs, *_ = env.step(_pick(obs["action_mask"], rng))
    version = env.runner.match.game.version
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.runner.match.game.version == version
    got, _, _ = _gym_episode(env, 6, random.Random(6))
    assert got == want


def test_gym_close_stops_the_game_and_reset_starts_anew() -> None:
    env = gym_env("golf", 2, options=GOLF1)
    obs, _ = env.reset(seed=1)
    env.close()
    with pytest.raises(IllegalActionError, match="closed"):
        env.step(_pick(obs["action_mask"], random.Random(0)))
    env.close()  # twice: nothing more
    _, total, info = _gym_episode(env, 1, random.Random(1))
    assert total in (-1.0, 1.0, 0.0) and info["result"] is not None


def test_gym_an_observation_failing_after_the_actions_leaves_the_game_needing_reset() -> None:
    env = gym_env("golf", 2, options=GOLF1, opponents="golf-greedy")
    obs, _ = env.reset(seed=1)
    assert list(np.flatnonzero(obs["action_mask"])) == [10, 11, 12, 13, 14, 15]  # flips
    undo = _failing_once(env.runner.config.encoding, "observe")
    with pytest.raises(RuntimeError, match="observe failed"):
        env.step(10)  # flip 0 is applied; its observation fails
    undo()
    version = env.runner.match.game.version
    assert version == 1
    with contextlib.suppress(IllegalActionError):  # flip 1: in the last mask it saw
        env.step(11)
    assert env.runner.match.game.version == version, "an action on a state never observed"


def test_gym_a_failed_reset_does_not_let_the_previous_mask_play_the_new_game() -> None:
    env = gym_env("golf", 2, options=GOLF1, opponents="golf-greedy")
    env.reset(seed=1)
    undo = _failing_once(env.runner.config.encoding, "observe")
    with pytest.raises(RuntimeError, match="observe failed"):
        env.reset(seed=2)
    undo()
    game = env.runner.match.game
    with contextlib.suppress(IllegalActionError):
        env.step(10)  # from the mask of the game before
    assert game.version == 0, game.record_entries()


def test_gym_an_opponent_failing_to_start_is_a_cardcore_error_naming_it(
    failing_agent: str,
) -> None:
    env = gym_env("golf", 2, options=GOLF1, opponents=failing_agent)
    env.reset(seed=1)
    _FailsToStart.armed = 1
    error: BaseException | None = None
    try:
        env.reset(seed=2)
    except Exception as exc:
        error = exc
    assert isinstance(error, CardcoreError), repr(error)
    assert "seat 1" in str(error) and failing_agent in str(error), str(error)


def test_gym_after_an_opponent_fails_to_start_a_step_is_refused(failing_agent: str) -> None:
    env = gym_env("golf", 2, options=GOLF1, opponents=failing_agent)
    env.reset(seed=1)
    _FailsToStart.armed = 1
    with pytest.raises(Exception, match=r"model file not found|seat 1"):
        env.reset(seed=2)
    game = env.runner.match.game
    with contextlib.suppress(IllegalActionError):
        env.step(10)
    assert game.version == 0, game.record_entries()


# --- the batched environment -------------------------------------------------------------------


@pytest.mark.parametrize("copy", [True, False])
def test_batch_copy_flag_and_final_observations(copy: bool) -> None:
    envs = vector_env("golf", 2, options=GOLF1, copy=copy, max_actions=12)
    obs, _ = envs.reset(seed=11)
    rng = random.Random(0)
    finals = []
    for _ in range(40):
        before = obs["observation"].copy()
        prev = obs
        obs, _, _, _, infos = envs.step([_pick(m, rng) for m in obs["action_mask"]])
        assert (obs["observation"] is prev["observation"]) == (not copy)
        if copy:
            assert np.array_equal(prev["observation"], before)  # kept: not overwritten
        if "final_obs" in infos:
            for i in np.flatnonzero(infos["_final_obs"]):
                final = infos["final_obs"][i]
                finals.append((final, final["observation"].copy(), obs["observation"][i].copy()))
                assert final["observation"] is not obs["observation"]
                assert not final["action_mask"].any() and obs["action_mask"][i].any()
    assert len(finals) >= 2
    for final, observation, _ in finals:  # the last observation of a game stays as it was
        assert np.array_equal(final["observation"], observation)


def test_batch_autoreset_gives_the_game_a_single_seat_env_plays_from_the_same_seed() -> None:
    kw: dict[str, Any] = {"options": GOLF1, "opponents": "golf-greedy", "max_actions": 30}
    envs = vector_env("golf", 2, **kw)
    obs, _ = envs.reset(seed=21)
    seed0 = envs.runners[0].match.game.seed
    rng = random.Random(5)
    steps = []
    for _ in range(60):
        actions = [_pick(m, rng) for m in obs["action_mask"]]
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        steps.append((actions[0], rewards[0], obs["observation"][0].copy(), infos))
        if infos.get("_final_obs", np.zeros(2, bool))[0]:
            break
    else:
        pytest.fail("game 0 did not end")
    single = gym_env("golf", 2, **kw)
    single.reset(seed=seed0)
    for action, reward, observation, _ in steps[:-1]:
        o, r, *_ = single.step(action)
        assert r == reward and np.array_equal(o["observation"], observation)
    action, reward, observation, infos = steps[-1]
    o, r, terminated, truncated, info = single.step(action)
    assert (terminated or truncated) and r == reward
    assert np.array_equal(o["observation"], infos["final_obs"][0]["observation"])
    assert info == infos["final_info"][0]
    o, _ = single.reset()  # the stream's next game is the one dealt again in the batch
    assert np.array_equal(o["observation"], observation)


def test_batch_per_game_seeds() -> None:
    two = vector_env("golf", 2, options=GOLF1)
    three = vector_env("golf", 3, options=GOLF1)
    a, _ = two.reset(seed=8)
    b, _ = three.reset(seed=8)
    assert np.array_equal(a["observation"], b["observation"][:2])  # game i's seed: not of N
    assert not np.array_equal(a["observation"][0], a["observation"][1])
    again, _ = two.reset(seed=8)
    assert np.array_equal(again["observation"], a["observation"])
    same, _ = two.reset(seed=[4, 4])
    assert np.array_equal(same["observation"][0], same["observation"][1])
    seeds = [r.match.game.seed for r in two.runners]
    nxt, _ = two.reset(seed=[None, 4])  # game 0 draws from its stream, game 1 plays seed 4
    assert two.runners[1].match.game.seed == 4 and two.runners[0].match.game.seed != seeds[0]
    assert np.array_equal(nxt["observation"][1], same["observation"][1])


def test_batch_a_failure_in_one_game_names_the_game_whatever_its_class() -> None:
    envs = vector_env("golf", 2, options=GOLF1)
    obs, _ = envs.reset(seed=1)
    actions = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
    undo = _failing_once(envs.config.encoding, "observe", after=1)  # game 0's passes
    error: BaseException | None = None
    try:
        envs.step(actions)
    except RuntimeError as exc:
        error = exc
    undo()
    assert error is not None
    assert str(error).startswith("game 1 of 2"), str(error)
    # game 1's own action was applied before its observation failed: it moved too (as the
    # step's docstring says: "and game k if the learner's action was applied")
    assert "games 0 to 1 had moved" in str(error), str(error)


def test_batch_reset_names_the_game_whose_opponent_fails_to_start(failing_agent: str) -> None:
    envs = vector_env("golf", 2, options=GOLF1, opponents=failing_agent)
    envs.reset(seed=1)
    _FailsToStart.armed = 1
    error: BaseException | None = None
    try:
        envs.reset(seed=2)
    except Exception as exc:
        error = exc
    assert isinstance(error, CardcoreError) and str(error).startswith("game 0 of 2 at reset")


def test_batch_final_masks_are_two_arrays() -> None:
    envs = vector_env("golf", 2, options=GOLF1, max_actions=6)
    obs, _ = envs.reset(seed=3)
    rng = random.Random(3)
    for _ in range(20):
        obs, _, _, _, infos = envs.step([_pick(m, rng) for m in obs["action_mask"]])
        if "final_obs" in infos:
            break
    ended = infos["_final_info"].copy()
    infos["_final_obs"][:] = False  # a caller marks the final observations consumed
    assert np.array_equal(infos["_final_info"], ended)


def test_batch_close_stops_every_game() -> None:
    envs = vector_env("golf", 2, options=GOLF1)
    obs, _ = envs.reset(seed=1)
    envs.close()
    with pytest.raises(IllegalActionError, match=r"game 0 of 2: .*closed"):
        envs.step([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])


# --- memory ------------------------------------------------------------------------------------


def test_memory_stays_flat_over_many_episodes() -> None:
    env = gym_env("golf", 2, options=GOLF1)
    aec = aec_env("golf", 2, options=GOLF1)
    rng = random.Random(0)

    def episodes(k: int) -> None:
        for i in range(k):
            _gym_episode(env, i, rng)
            aec.reset(seed=i)
            _aec_play(aec, rng)

    episodes(5)
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        episodes(60)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert grown < 256 * 1024, grown
