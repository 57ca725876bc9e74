"""A researcher's first week with ``docs/rl.rst`` (2026-12-15): third-party games and Golf.

Gin Rummy and Euchre, written by third-party authors (``tests/plugins``), registered in
place with :func:`cardcore.register`, and the shipped Golf: PettingZoo's tests and its
parallel wrapper, a tiny tabular learner trained with the batched environment and
evaluated with the single-seat one, and the things that silently ruin research
(determinism, masks, truncation, rewards, hidden cards, autoreset, copies).
Every claim checked here held; nothing is marked ``xfail``.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import cardcore
from cardcore import ArgumentError, IllegalActionError, OptionError
from cardcore.rl import aec_env, encoding_for, gym_env, observe, vector_env
from tests.plugins import euchre_2026_12_15 as eu
from tests.plugins import gin_2026_12_15 as gin
from tests.rl.helpers import only_dict_observation_warnings

GIN, EU = gin.NAME, eu.NAME
GIN_OPTS: dict[str, Any] = {"target": 10}
GOLF_OPTS: dict[str, Any] = {"rounds": 1}
CONFIGS = [(GIN, 2, GIN_OPTS), (EU, 4, {}), ("golf", 2, GOLF_OPTS)]
IDS = ["gin", "euchre", "golf"]


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    cardcore.register("cardcore.games", GIN, gin)
    cardcore.register("cardcore.games", EU, eu)
    yield
    cardcore.unregister("cardcore.games", EU)
    cardcore.unregister("cardcore.games", GIN)


def _masked(rng: random.Random, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def _play_aec(env: Any, seed: int, rng: random.Random) -> tuple[dict[str, float], Any]:
    env.reset(seed=seed)
    ret = dict.fromkeys(env.possible_agents, 0.0)
    ends = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        ret[agent] += reward
        if term or trunc:
            ends[agent] = (term, trunc)
            env.step(None)
            continue
        env.step(_masked(rng, obs["action_mask"]))
    return ret, ends


# -- (1) PettingZoo --------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS[:2], ids=IDS[:2])
def test_pettingzoo_api_seed_and_parallel_tests_pass_for_third_party_games(
    game: str, players: int, options: dict[str, Any]
) -> None:
    with only_dict_observation_warnings():
        api_test(aec_env(game, players, options=options), num_cycles=60)
        seed_test(lambda: aec_env(game, players, options=options), num_cycles=30)
        parallel_api_test(
            turn_based_aec_to_parallel(aec_env(game, players, options=options)), num_cycles=60
        )


def test_the_parallel_wrapper_plays_euchre_to_the_end_zero_sum_with_empty_masks_off_turn() -> None:
    """Docs: each step takes every agent's action; the seat to act's is applied and the
    others (whose masks are empty) are ignored."""
    env = turn_based_aec_to_parallel(aec_env(EU, 4))
    rng = random.Random(3)
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        steps = 0
        while env.agents:
            acting = [a for a in env.agents if obs[a]["action_mask"].any()]
            assert len(acting) == 1, acting
            actions = {
                a: _masked(rng, obs[a]["action_mask"]) if a in acting else 0 for a in env.agents
            }
            obs, rewards, *_ = env.step(actions)
            for a, r in rewards.items():
                totals[a] += r
            steps += 1
            assert steps < 2000
        assert sum(totals.values()) == 0
        assert sorted(totals.values()) == [-1.0, -1.0, 1.0, 1.0]  # partners share the result
        assert totals["player_0"] == totals["player_2"]


# -- (2) a tiny tabular learner: vector env to train, single-seat env to evaluate ---------------

_S, _N = 6, 2
_GRID = _N * _S * 16  # GolfEncoding: per seat and position 16 one-hot ranks, observer first


def _keys(x: np.ndarray, mask: np.ndarray) -> dict[int, tuple[Any, ...]]:
    """A small hash per legal action, read from the observation as the encoding documents."""
    disc = int(np.argmax(x[_GRID : _GRID + 15]))
    held = int(np.argmax(x[_GRID + 15 : _GRID + 31]))
    out: dict[int, tuple[Any, ...]] = {}
    for a in np.flatnonzero(mask):
        a = int(a)
        if a in (0, 1):
            out[a] = ("draw" if a == 0 else "take", disc)
        elif a == 2:
            out[a] = ("discard", held)
        elif a == 3:
            out[a] = ("knock",)
        elif a < 4 + _S:
            p = a - 4
            out[a] = ("replace", held, int(np.argmax(x[p * 16 : (p + 1) * 16])))
        else:
            out[a] = ("other",)
    return out


def _choose(q: dict[Any, tuple[float, int]], ks: dict[int, Any], rng: Any, eps: float) -> int:
    if rng.random() < eps:
        return int(rng.choice(list(ks)))
    best = max(q.get(k, (0.0, 0))[0] for k in ks.values())
    return int(rng.choice([a for a, k in ks.items() if q.get(k, (0.0, 0))[0] == best]))


def _train(episodes: int, seed: int, num_envs: int = 16) -> dict[Any, tuple[float, int]]:
    envs = vector_env("golf", num_envs, _N, options=GOLF_OPTS, rewards="score")
    obs, _ = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    q: dict[Any, tuple[float, int]] = {}
    visits: list[list[Any]] = [[] for _ in range(num_envs)]
    ret = np.zeros(num_envs)
    done = 0
    while done < episodes:
        actions = []
        for i in range(num_envs):
            ks = _keys(obs["observation"][i], obs["action_mask"][i])
            a = _choose(q, ks, rng, 0.2)
            actions.append(a)
            visits[i].append(ks[a])
        obs, r, te, tr, _ = envs.step(np.array(actions))
        ret += r
        for i in np.flatnonzero(te | tr):
            for k in set(visits[i]):  # every-visit Monte Carlo mean of the return
                m, n = q.get(k, (0.0, 0))
                q[k] = (m + (ret[i] - m) / (n + 1), n + 1)
            visits[i], ret[i] = [], 0.0
            done += 1
    return q


def _win_rate(q: dict[Any, tuple[float, int]], eps: float, episodes: int = 150) -> float:
    env = gym_env("golf", _N, options=GOLF_OPTS, rewards="score")
    rng = np.random.default_rng(0)
    wins = 0.0
    for ep in range(episodes):
        obs, _ = env.reset(seed=10_000 + ep)
        while True:
            a = _choose(q, _keys(obs["observation"], obs["action_mask"]), rng, eps)
            obs, _, te, tr, info = env.step(a)
            if te or tr:
                break
        winners = info["result"]["winners"]
        wins += (0 in winners) / max(len(winners), 1)
    return wins / episodes


def test_a_tabular_learner_of_300_golf_holes_clearly_beats_random() -> None:
    """Measured (seeds 1-3): about 0.8 against ``random`` after 300 holes; a uniform
    learner about 0.47 on the same 150 evaluation deals."""
    q = _train(300, seed=1)
    trained, uniform = _win_rate(q, eps=0.0), _win_rate({}, eps=1.0)
    assert uniform < 0.6
    assert trained >= 0.7
    assert trained - uniform >= 0.2


# -- (3) determinism, autoreset --------------------------------------------------------------


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=IDS)
def test_the_vector_env_is_the_single_seat_env_game_by_game_autoreset_included(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """reset(seed=[...]) replays the single-seat games of those seeds; a game that ends
    gives its last observation, reward, flags and result in final_obs/final_info, and its
    new deal is the single-seat env's seedless next reset (the stream seeded by *s*)."""
    seeds = [21, 22, 23]
    envs = vector_env(game, 3, players, options=options, max_actions=120)
    obs, _ = envs.reset(seed=seeds)
    singles = [gym_env(game, players, options=options, max_actions=120) for _ in seeds]
    single_obs = [env.reset(seed=s)[0] for env, s in zip(singles, seeds, strict=True)]
    for k in range(3):
        assert np.array_equal(single_obs[k]["observation"], obs["observation"][k])
    rng = random.Random(0)
    ends = 0
    for _ in range(150):
        actions = [_masked(rng, m) for m in obs["action_mask"]]
        obs, r, te, tr, info = envs.step(actions)
        for k, env in enumerate(singles):
            o, rk, tek, trk, infok = env.step(actions[k])
            assert (r[k], te[k], tr[k]) == (rk, tek, trk)
            if tek or trk:
                ends += 1
                assert info["_final_obs"][k] and info["_final_info"][k]
                final = info["final_obs"][k]
                assert np.array_equal(final["observation"], o["observation"])
                assert not final["action_mask"].any()
                assert info["final_info"][k]["result"] == infok["result"]
                o, _ = env.reset()
            elif "_final_obs" in info:
                assert not info["_final_obs"][k] and info["final_obs"][k] is None
            assert np.array_equal(o["observation"], obs["observation"][k])
            assert np.array_equal(o["action_mask"], obs["action_mask"][k])
    assert ends >= 2


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=IDS)
def test_same_seed_same_episode_other_seed_other_episode(
    game: str, players: int, options: dict[str, Any]
) -> None:
    def episode(seed: int) -> list[Any]:
        env = aec_env(game, players, options=options)
        rng, trace = random.Random(9), []
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, r, te, tr, _ = env.last()
            trace.append((agent, r, te, tr, obs["observation"].tobytes()))
            env.step(None if te or tr else _masked(rng, obs["action_mask"]))
        return trace

    assert episode(5) == episode(5)
    assert episode(5) != episode(6)


# -- masks, truncation, rewards ----------------------------------------------------------------


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=IDS)
def test_the_mask_is_the_legal_actions_and_a_masked_out_index_is_refused_changing_nothing(
    game: str, players: int, options: dict[str, Any]
) -> None:
    env = aec_env(game, players, options=options)
    rng = random.Random(4)
    refused = 0
    for seed in range(3):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, te, tr, _ = env.last()
            if te or tr:
                env.step(None)
                continue
            seat = env.possible_agents.index(agent)
            game_obj = env.match.game
            assert int(obs["action_mask"].sum()) == len(game_obj.legal_actions(seat))
            illegal = np.flatnonzero(obs["action_mask"] == 0)
            if len(illegal) and refused < 20:
                before = game_obj.save()
                with pytest.raises(IllegalActionError, match=r"not in player_\d's action mask"):
                    env.step(int(rng.choice(illegal)))
                assert env.match.game.save() == before and env.agent_selection == agent
                refused += 1
            env.step(_masked(rng, obs["action_mask"]))  # a masked-legal index is never refused
    assert refused == 20


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=IDS)
def test_the_action_bound_truncates_not_terminates_and_pays_nothing_under_win(
    game: str, players: int, options: dict[str, Any]
) -> None:
    env = gym_env(game, players, options=options, max_actions=9)
    assert env.runner.config.bound == 9
    obs, _ = env.reset(seed=1)
    rng, total = random.Random(0), 0.0
    while True:
        obs, r, te, tr, info = env.step(_masked(rng, obs["action_mask"]))
        total += r
        if te or tr:
            break
    assert (te, tr) == (False, True) and total == 0.0
    assert info["result"]["reason"] == "truncated" and info["result"]["winners"] == []
    assert len(env.runner.match.game.record_entries()) == 9
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(0)


def test_gin_score_returns_are_the_payouts_even_when_truncated_and_win_returns_zero_sum() -> None:
    rng = random.Random(1)
    score_env = aec_env(GIN, 2, options={"target": 100}, rewards="score", max_actions=400)
    nonzero = 0
    for seed in range(6):
        ret, ends = _play_aec(score_env, seed, random.Random(0))
        payouts = score_env.match.game.result.to_json()["payouts"]
        assert [ret["player_0"], ret["player_1"]] == payouts
        nonzero += payouts != [0, 0]
        assert all(e == (False, True) for e in ends.values())
    assert nonzero >= 1
    win_env = aec_env(GIN, 2, options=GIN_OPTS)
    for seed in range(3):
        ret, _ = _play_aec(win_env, seed, rng)
        assert sum(ret.values()) == 0 and set(ret.values()) <= {-1.0, 0.0, 1.0}


def test_euchre_has_no_score_reward_and_says_so() -> None:
    with pytest.raises(OptionError, match="no score reward"):
        aec_env(EU, 4, rewards="score")


def test_a_learner_in_euchre_seat_1_is_paid_its_teams_result() -> None:
    env = gym_env(EU, 4, seat=1)
    rng = random.Random(0)
    for seed in range(8):
        obs, _ = env.reset(seed=seed)
        ret = 0.0
        while True:
            obs, r, te, tr, info = env.step(_masked(rng, obs["action_mask"]))
            ret += r
            if te or tr:
                break
        assert ret == (1.0 if 1 in info["result"]["winners"] else -1.0)


# -- hidden cards -----------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=IDS)
def test_no_seat_sees_a_card_hidden_from_it(
    game: str, players: int, options: dict[str, Any]
) -> None:
    env = aec_env(game, players, options=options)
    rng = random.Random(2)
    env.reset(seed=77)
    encoding = None
    for n, _agent in enumerate(env.agent_iter()):
        obs, _, te, tr, _ = env.last()
        if te or tr or n >= 60:
            break
        g = env.match.game
        encoding = encoding or encoding_for(g)
        for seat in range(players):
            mine = observe(g, seat, encoding)
            twin = observe(g.determinize(seat, rng.randrange(2**32)), seat, encoding)
            assert np.array_equal(mine["observation"], twin["observation"])
            assert np.array_equal(mine["action_mask"], twin["action_mask"])
        env.step(_masked(rng, obs["action_mask"]))


# -- copies -----------------------------------------------------------------------------------


def test_envs_refuse_copies_observations_pickle_and_copy_true_never_aliases() -> None:
    envs = [aec_env(GIN, 2), gym_env(GIN, 2), vector_env(GIN, 2, 2)]
    for env in envs:
        for how in (copy.copy, copy.deepcopy, pickle.dumps):
            with pytest.raises(ArgumentError, match="cannot be copied or pickled"):
                how(env)
    for copy_flag in (True, False):
        batch = vector_env("golf", 2, 2, options=GOLF_OPTS, copy=copy_flag)
        obs, _ = batch.reset(seed=[1, 2])
        rng = random.Random(0)
        kept, finals = [], []
        for _ in range(40):
            obs, *_, info = batch.step([_masked(rng, m) for m in obs["action_mask"]])
            kept.append((obs["observation"], obs["observation"].copy()))
            for k in np.flatnonzero(info.get("_final_obs", np.zeros(2, bool))):
                f = info["final_obs"][k]
                finals.append((f["observation"], f["observation"].copy()))
        overwritten = sum(not np.array_equal(a, b) for a, b in kept)
        assert overwritten == (0 if copy_flag else len(kept) - 1)
        assert finals and all(np.array_equal(a, b) for a, b in finals)  # never overwritten
        restored = pickle.loads(pickle.dumps(obs))
        assert np.array_equal(restored["observation"], obs["observation"])
    g = envs[0]
    g.reset(seed=3)
    clone = pickle.loads(pickle.dumps(g.match.game.clone()))
    assert clone.view(0) == g.match.game.view(0)
