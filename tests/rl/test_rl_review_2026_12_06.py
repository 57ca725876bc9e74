"""RL layer review (2026-12-06): hidden information, bad input, lifecycle and documented claims.

Every test here checks a claim of ``docs/rl.rst`` (or of a docstring of ``cardcore.rl``)
that held when the review ran; none is marked ``xfail``: the review found no bug it could
confirm with a repro (its report lists the doc gaps it found).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore.rl import (
    NotResetError,
    aec_env,
    encoding_for,
    gym_env,
    observe,
    seat_view,
    vector_env,
    win_rewards,
)


def _random_games(
    name: str, players: int, rules: tuple[str, ...], options: dict[str, Any], seed: int, steps: int
) -> Any:
    rng = random.Random(seed)
    game = cardcore.new_game(name, players, rules=rules, options=options, seed=seed)
    yield game
    for _ in range(steps):
        if game.is_over:
            return
        seats = [s for s in game.to_act if game.legal_actions(s)]
        if not seats:
            return
        seat = seats[int(rng.random() * len(seats))]
        legal = game.legal_actions(seat)
        game.apply(legal[int(rng.random() * len(legal))])
        yield game


def _aec_random(env: Any, seed: int, rng: random.Random, max_iter: int = 2**63) -> dict[str, float]:
    """Play *env* from reset(seed) with uniformly random legal actions; each agent's return."""
    env.reset(seed=seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter):
        obs, reward, term, trunc, _ = env.last()
        returns[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[int(rng.random() * len(legal))]))
    return returns


# -- hidden information ------------------------------------------------------------------------

HOUSE_RULE_CONFIGS = [
    ("golf", 2, ("golf.jokers",), {"rounds": 2}),
    ("golf", 2, ("golf.peek-nearest",), {"layout": 4, "rounds": 1}),
    ("golf", 2, ("golf.hand-same-value",), {"layout": "4h", "rounds": 1}),
    ("tonk", 3, ("tonk.deal-shows-every-hand",), {"hands": 2}),
    ("spit", 2, ("spit.canfield",), {}),
    ("speed", 2, ("speed.stuck-on-request",), {"jokers": 2}),
]


@pytest.mark.parametrize(("name", "players", "rules", "options"), HOUSE_RULE_CONFIGS)
def test_twins_encode_alike_under_house_rules_and_layouts(
    name: str, players: int, rules: tuple[str, ...], options: dict[str, Any]
) -> None:
    """observe(): two games a seat cannot tell apart give it the same arrays (house rules
    and layouts test_hidden.py does not walk), and the mask is exactly the legal actions."""
    encoding = None
    checks = moved = 0
    for game in (
        g for seed in (1, 2) for g in _random_games(name, players, rules, options, seed, 60)
    ):
        if encoding is None:
            encoding = encoding_for(game)
        for seat in range(players):
            legal = game.legal_actions(seat)
            obs = observe(game, seat, encoding)
            indices = (
                list(encoding.action_indices(seat_view(game, seat, encoding.needs), legal))
                if legal
                else []
            )
            assert all(i >= 0 for i in indices), "a legal action has no index"
            assert sorted(np.flatnonzero(obs["action_mask"]).tolist()) == sorted(indices)
            assert len(set(indices)) == len(indices)
            if game.version % 3 or game.is_over:
                continue
            twin = game.determinize(seat, 7 + game.version)
            other = observe(twin, seat, encoding)
            assert np.array_equal(obs["observation"], other["observation"])
            assert np.array_equal(obs["action_mask"], other["action_mask"])
            checks += 1
            moved += twin.position() != game.position()
    assert checks >= 3 and moved >= 1


def test_seat_view_table_is_the_views_table() -> None:
    """The built-in encodings read the same table Game.view gives (seat_view "table")."""
    for game in _random_games("tonk", 3, (), {"hands": 2}, 3, 40):
        for seat in (None, 0, 1, 2):
            assert seat_view(game, seat, "table")["table"] == game.view(seat)["table"]


def test_observe_takes_a_numpy_seat_as_the_int() -> None:
    game = cardcore.new_game("golf", 2, options={"rounds": 1}, seed=4)
    a, b = observe(game, np.int64(1)), observe(game, 1)
    assert np.array_equal(a["observation"], b["observation"])
    assert np.array_equal(a["action_mask"], b["action_mask"])
    with pytest.raises(cardcore.SeatError):
        observe(game, True)
    with pytest.raises(cardcore.SeatError):
        observe(game, None)


def test_other_agents_masks_are_empty_in_turn_based_aec() -> None:
    """Turn-based: only the selected agent's mask is set (what the parallel conversion relies on)."""
    env = aec_env("tonk", 3, options={"hands": 2})
    env.reset(seed=9)
    rng = random.Random(0)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[int(rng.random() * len(legal))]))


# -- masks and choices -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "players", "options"), [("golf", 2, {"rounds": 1}), ("tonk", 3, {"hands": 2})]
)
def test_aec_mask_is_exactly_the_legal_actions(
    name: str, players: int, options: dict[str, Any]
) -> None:
    env = aec_env(name, players, options=options)
    env.reset(seed=2)
    rng = random.Random(2)
    names = env.config.observer.names
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        seat = int(agent.split("_")[1])
        legal = env.match.game.legal_actions(seat)
        choices = env.choices()
        assert sorted(choices) == np.flatnonzero(obs["action_mask"]).tolist()
        assert sorted(map(str, choices.values())) == sorted(map(str, legal))
        for i, action in choices.items():
            if name == "golf":  # Golf's index names are its notation, seat-free
                assert names[i] == str(action)
        env.step(int(rng.choice(sorted(choices))))


# -- rewards -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "players", "options"), [("golf", 3, {"rounds": 3}), ("tonk", 3, {"hands": 4})]
)
def test_score_rewards_track_the_standing_after_every_step(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """rewards="score": what has been paid equals the public standing after every step, so a
    seat's return is its final standing (Golf's margin / 10, Tonk's balance in stakes)."""
    env = aec_env(name, players, options=options, rewards="score")
    rng = random.Random(5)
    for seed in range(2):
        env.reset(seed=seed)
        paid = np.zeros(players)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            paid += [env.rewards[a] for a in env.possible_agents]
            standing = env.config.progress(env.match.game)
            assert np.allclose(paid, standing)
        assert abs(paid.sum()) < 1e-9  # zero-sum


@pytest.mark.parametrize(
    ("name", "players", "options"), [("golf", 3, {"rounds": 2}), ("speed", 2, {})]
)
def test_win_returns_sum_to_win_rewards(name: str, players: int, options: dict[str, Any]) -> None:
    env = aec_env(name, players, options=options)
    rng = random.Random(1)
    for seed in range(2):
        returns = _aec_random(env, seed, rng)
        match = env.match
        winners = [] if match.truncated else match.game.result.winners
        assert list(returns.values()) == pytest.approx(win_rewards(winners, players))


def test_win_rewards_documented_values() -> None:
    assert win_rewards([0], 2) == [1.0, -1.0]
    assert win_rewards([0], 4) == pytest.approx([1.0, -1 / 3, -1 / 3, -1 / 3])
    assert win_rewards([0, 1], 4) == [1.0, 1.0, -1.0, -1.0]
    assert win_rewards([], 3) == [0.0, 0.0, 0.0]
    assert win_rewards([0, 1], 2) == [0.0, 0.0]
    assert win_rewards([0], 1) == [1.0] and win_rewards([], 1) == [0.0]
    with pytest.raises(cardcore.ArgumentError):
        win_rewards([2], 2)
    with pytest.raises(cardcore.ArgumentError):
        win_rewards([0], 0)


# -- lifecycle and determinism -----------------------------------------------------------------


def test_aec_reset_seed_plays_that_seed_then_its_stream() -> None:
    env = aec_env("golf", 2, options={"rounds": 1})
    env.reset(seed=3)
    assert env.match.game.seed == 3
    env.reset()
    assert env.match.game.seed == random.Random(3).getrandbits(63)
    first = env.observe(env.agent_selection)["observation"]
    env.reset(seed=3)
    env.reset()
    assert np.array_equal(env.observe(env.agent_selection)["observation"], first)


def test_wait_true_gives_the_same_game_and_observations() -> None:
    """docs: the same seeds and decisions give the same game with or without wait=True, and every
    seat's observation is the same (the mask has one index more)."""

    def run(wait: bool) -> tuple[list[str], list[np.ndarray], list[np.ndarray]]:
        env = aec_env("spit", 2, wait=wait)
        env.reset(seed=4)
        rng = random.Random(4)
        observations, masks = [], []
        actions = env.config.encoding.actions
        for _agent in env.agent_iter(400):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            observations.append(obs["observation"].copy())
            masks.append(obs["action_mask"][:actions].copy())
            if wait:
                assert obs["action_mask"][actions] == int(obs["action_mask"][:actions].any())
            legal = np.flatnonzero(obs["action_mask"][:actions])
            env.step(int(legal[int(rng.random() * len(legal))]))
        record = [f"{s} {a} {t}" for s, a, t in env.match.game.record_entries()]
        return record, observations, masks

    plain, waiting = run(False), run(True)
    assert plain[0] == waiting[0] and len(plain[0]) > 50
    assert all(np.array_equal(a, b) for a, b in zip(plain[1], waiting[1], strict=True))
    assert all(np.array_equal(a, b) for a, b in zip(plain[2], waiting[2], strict=True))


def test_vector_env_same_seed_same_episodes_and_autoreset_keys() -> None:
    def run() -> tuple[list[np.ndarray], list[float], int]:
        envs = vector_env("golf", 3, options={"rounds": 1})
        obs, _ = envs.reset(seed=8)
        rng = random.Random(8)
        seen, rewards, ends = [obs["observation"].copy()], [], 0
        for _ in range(60):
            actions = [int(rng.choice(np.flatnonzero(m).tolist())) for m in obs["action_mask"]]
            obs, r, term, trunc, infos = envs.step(actions)
            ended = term | trunc
            keys = {"final_obs", "_final_obs", "final_info", "_final_info"}
            if ended.any():
                ends += 1
                assert keys <= set(infos)
                assert (infos["_final_obs"] == ended).all() and (
                    infos["_final_info"] == ended
                ).all()
                for i in range(3):
                    if ended[i]:
                        assert not infos["final_obs"][i]["action_mask"].any()
                        assert obs["action_mask"][i].any()  # the new game's first decision
                        json.dumps(infos["final_info"][i]["result"])
                        assert set(infos["final_info"][i]) == {"result", "stalled"}
                    else:
                        assert infos["final_obs"][i] is None and infos["final_info"][i] is None
            else:
                assert not keys & set(infos)
            seen.append(obs["observation"].copy())
            rewards.extend(r.tolist())
        return seen, rewards, ends

    a, b = run(), run()
    assert a[2] >= 1
    assert all(np.array_equal(x, y) for x, y in zip(a[0], b[0], strict=True))
    assert a[1] == b[1]


def test_gym_reset_seed_replays_against_named_opponents() -> None:
    def run() -> list[Any]:
        env = gym_env("tonk", 3, seat=1, opponents="tonk-heuristic", options={"hands": 2})
        obs, _ = env.reset(seed=12)
        rng = random.Random(0)
        out: list[Any] = [obs["observation"].tobytes()]
        for _ in range(200):
            legal = np.flatnonzero(obs["action_mask"])
            obs, r, term, trunc, _ = env.step(int(legal[int(rng.random() * len(legal))]))
            out.append((obs["observation"].tobytes(), r))
            if term or trunc:
                break
        return out

    assert run() == run()


def test_too_low_a_bound_is_refused_after_1000_deals_naming_it() -> None:
    env = gym_env("golf", 2, seat=1, options={"rounds": 1}, max_actions=1)
    with pytest.raises(cardcore.IllegalActionError, match=r"action bound \(1, max_actions\)"):
        env.reset(seed=1)
    with pytest.raises(cardcore.IllegalActionError, match="call reset"):
        env.step(0)


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize("action", [99, -1, 2**100, 1.0, "10", None, True, np.array([10]), 0])
def test_aec_bad_actions_are_refused_and_change_nothing(action: Any) -> None:
    env = aec_env("golf", 2, options={"rounds": 1})
    env.reset(seed=7)
    game = env.match.game
    before = (game.version, game.position(), env.agent_selection, dict(env.rewards))
    with pytest.raises(cardcore.IllegalActionError, match="CORE-LEGAL-1"):
        env.step(action)
    assert (game.version, game.position(), env.agent_selection, dict(env.rewards)) == before
    env.step(np.int64(10))  # a numpy integer is an index; the game goes on
    assert game.version == 1


def test_aec_before_reset_and_after_the_end() -> None:
    env = aec_env("golf", 2, options={"rounds": 1})
    with pytest.raises(NotResetError):
        next(iter(env.agent_iter()))
    with pytest.raises(NotResetError):
        _ = env.num_agents
    with pytest.raises(cardcore.IllegalActionError):
        env.step(0)
    assert not hasattr(env, "agent_selection")
    _aec_random(env, 1, random.Random(1))
    assert env.agents == []
    with pytest.raises(cardcore.IllegalActionError, match="call reset"):
        env.last()
    with pytest.raises(cardcore.IllegalActionError, match="call reset"):
        env.step(None)


@pytest.mark.parametrize("seed", [-1, 2**128, True, 1.0, "1", np.int64(1)])
def test_bad_seeds_are_option_errors_and_change_nothing(seed: Any) -> None:
    env = aec_env("golf", 2, options={"rounds": 1})
    env.reset(seed=5)
    match = env.match
    with pytest.raises(cardcore.OptionError):
        env.reset(seed=seed)
    assert env.match is match
    single = gym_env("golf", 2, options={"rounds": 1})
    single.reset(seed=5)
    kept = single.runner.match
    with pytest.raises(cardcore.OptionError):
        single.reset(seed=seed)
    assert single.runner.match is kept
    batch = vector_env("golf", 2, options={"rounds": 1})
    with pytest.raises(cardcore.OptionError):
        batch.reset(seed=[5, seed])
    assert all(r.match is None for r in batch.runners)


def test_vector_bad_batch_moves_no_game() -> None:
    envs = vector_env("golf", 3, options={"rounds": 1})
    obs, _ = envs.reset(seed=1)
    versions = [r.match.game.version for r in envs.runners]
    good = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
    for bad in ([*good[:2], 0], good[:2], np.array([good]), [*good[:2], 1.5]):
        with pytest.raises(cardcore.IllegalActionError):
            envs.step(bad)
        assert [r.match.game.version for r in envs.runners] == versions


def test_environments_cannot_be_copied() -> None:
    env = aec_env("golf", 2, options={"rounds": 1})
    single = gym_env("golf", 2, options={"rounds": 1})
    batch = vector_env("golf", 2, options={"rounds": 1})
    for thing in (env, single, batch):
        with pytest.raises(cardcore.ArgumentError, match="cannot be copied"):
            copy.copy(thing)
        with pytest.raises(cardcore.ArgumentError, match="cannot be copied"):
            copy.deepcopy(thing)


def test_reset_options_refused_as_documented() -> None:
    env = aec_env("golf", 2, options={"rounds": 1})
    env.reset(seed=1, options={"options": 1})  # PettingZoo's api_test: taken, not used
    for bad in ({"rounds": 2}, {"rewards": "score"}, {"options": {"rounds": 2}}, ["x"]):
        with pytest.raises(cardcore.OptionError):
            env.reset(seed=1, options=bad)
    single = gym_env("golf", 2, options={"rounds": 1})
    with pytest.raises(cardcore.OptionError):
        single.reset(options={"anything": 1})
    single.reset(options={})


def test_closed_single_seat_env_refuses_steps_until_reset() -> None:
    env = gym_env("golf", 2, options={"rounds": 1})
    obs, _ = env.reset(seed=2)
    env.close()
    with pytest.raises(cardcore.IllegalActionError, match="closed"):
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    obs, _ = env.reset(seed=2)
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))


# -- real time ---------------------------------------------------------------------------------


def test_aec_stale_flag_exactly_when_the_agents_plan_was_dropped() -> None:
    """docs: the agent whose plan was dropped finds "stale": True in its infos entry when it is
    selected to decide again, and only then."""
    env = aec_env("spit", 2, reaction=[0.2, 2.0])
    env.reset(seed=3)
    rng = random.Random(1)
    last = dict.fromkeys(env.possible_agents, 0)
    flagged = 0
    for agent in env.agent_iter(1500):
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        dropped = env.match.dropped[int(agent[-1])]
        assert bool(info.get("stale")) == (dropped != last[agent])
        flagged += bool(info.get("stale"))
        last[agent] = dropped
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[int(rng.random() * len(legal))]))
    assert flagged >= 1


def test_single_seat_stale_info_exactly_when_the_learners_plan_was_dropped() -> None:
    env = gym_env("spit", 2, opponents="spit-greedy", reaction=2.0)
    obs, _ = env.reset(seed=1)
    stale = 0
    for _ in range(250):
        before = env.unwrapped.runner.match.dropped[0]
        obs, _, term, trunc, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert bool(info.get("stale")) == (env.unwrapped.runner.match.dropped[0] != before)
        stale += bool(info.get("stale"))
        if term or trunc:
            break
    assert stale >= 1
