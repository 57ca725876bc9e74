"""Week one with cardcore.rl for a researcher coming from OpenSpiel, RLCard and PettingZoo.

Written from the documentation (README, docs/rl.rst, agents.rst, search-agents.rst,
house-rule-study.rst): the PettingZoo and Gymnasium environments under the tools a
switcher brings along (``api_test``, ``seed_test``, PettingZoo's classic wrapper stack,
Gymnasium's episode statistics), an agent that encodes its own view as a trained policy
must, rewards against the documented formulas, a tiny learner and a search bot run
through ``compare``, and the calls a PettingZoo or Gymnasium user makes out of order.
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import json
import os
import pickle
import random
import re
import subprocess
import sys
import types
import warnings
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.wrappers.vector import RecordEpisodeStatistics
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import cardcore
from cardcore import CardcoreError, IllegalActionError, OptionError, PluginError, RuleInfo, hookimpl
from cardcore.rl import (
    Config,
    Match,
    SeatRunner,
    aec_env,
    encoding_for,
    gym_env,
    observe,
    vector_env,
    win_rewards,
)
from cardcore.search import ISMCTSAgent
from tests.rl.helpers import only_dict_observation_warnings

# House-rule configurations the existing conformance tests do not build.
HOUSE: list[tuple[str, int, dict[str, Any], list[str], list[str]]] = [
    ("golf", 2, {"rounds": 2, "layout": 8}, ["golf.final-stock-only", "golf.one-eyed-jacks"], []),
    ("golf", 3, {"rounds": 1, "layout": 10}, ["golf.reveal-different-columns"], []),
    ("golf", 3, {"rounds": 1, "layout": 4}, ["golf.diagonal-pairs"], []),
    ("tonk", 3, {"hands": 2}, ["tonk.stock-out-discard-only", "tonk.hit-blocks-drop"], []),
    ("tonk", 2, {"hands": 2}, [], ["tonk.natural-49-50"]),
    ("spit", 2, {}, ["spit.canfield", "spit.same-rank"], []),
    ("speed", 2, {}, ["speed.stuck-on-request"], []),
]
HOUSE_IDS = [f"{g}-{n}-{'+'.join(r) or 'without-' + '+'.join(w)}" for g, n, _, r, w in HOUSE]


def _masked_random(obs: Mapping[str, Any], rng: random.Random) -> int:
    choices = np.flatnonzero(obs["action_mask"])
    return int(choices[rng.randrange(len(choices))])


def _aec_episode(env: Any, seed: int | None, rng: random.Random) -> Iterator[tuple[str, Any]]:
    """Step *env* (already reset when *seed* is None) with random masked actions."""
    if seed is not None:
        env.reset(seed=seed)
    for agent in env.agent_iter(20000):
        obs, reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            yield agent, ("done", reward, terminated, truncated)
            env.step(None)
            continue
        action = _masked_random(obs, rng)
        yield agent, (obs["observation"].tobytes(), reward, action)
        env.step(action)


# --- PettingZoo: the official tests and the classic wrapper stack --------------------------


@pytest.mark.parametrize(("game", "players", "options", "rules", "without"), HOUSE, ids=HOUSE_IDS)
def test_api_and_seed_tests_pass_under_more_house_rules(
    game: str, players: int, options: dict[str, Any], rules: list[str], without: list[str]
) -> None:
    def build() -> Any:
        return aec_env(game, players, options=options, rules=rules, without=without)

    with only_dict_observation_warnings():
        api_test(build(), num_cycles=200)
        seed_test(build, num_cycles=100)


@pytest.mark.parametrize(("game", "players", "options", "rules", "without"), HOUSE, ids=HOUSE_IDS)
def test_masks_name_exactly_the_engines_legal_actions_under_house_rules(
    game: str, players: int, options: dict[str, Any], rules: list[str], without: list[str]
) -> None:
    env = aec_env(game, players, options=options, rules=rules, without=without)
    names = env.config.observer.names
    decisions = 0
    for seed in range(2):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for agent in env.agent_iter(6000):
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            assert env.observation_space(agent).contains(obs)
            legal = env.match.game.legal_actions(int(agent.removeprefix("player_")))
            masked = sorted(names[i] for i in np.flatnonzero(obs["action_mask"]))
            assert masked == sorted(a.notation() for a in legal), (agent, env.match.game.position())
            decisions += 1
            env.step(_masked_random(obs, rng))
    assert decisions >= 20


@pytest.mark.parametrize(("game", "players", "options", "rules", "without"), HOUSE, ids=HOUSE_IDS)
def test_observations_of_determinized_twins_are_identical_under_house_rules(
    game: str, players: int, options: dict[str, Any], rules: list[str], without: list[str]
) -> None:
    """A twin re-deals every card the seat cannot see (Game.determinize): an opponent's hidden
    hand, face-down grid cards, the stock. The seat's observation and mask must not change."""
    checked = differ = 0
    for seed in range(2):
        g = cardcore.new_game(
            game, players, options=options, rules=rules, without=without, seed=seed
        )
        enc = encoding_for(g)
        rng = random.Random(seed)
        for step in range(120):
            if g.is_over:
                break
            if step % 4 == 0:
                for s in range(players):
                    twin = g.determinize(s, seed=rng.randrange(10**6))
                    a, b = observe(g, s, enc), observe(twin, s, enc)
                    assert np.array_equal(a["observation"], b["observation"]), (s, g.position())
                    assert np.array_equal(a["action_mask"], b["action_mask"])
                    checked += 1
                    differ += twin.position() != g.position()
            seats = [s for s in g.to_act if g.legal_actions(s)]
            if not seats:
                break
            legal = g.legal_actions(seats[rng.randrange(len(seats))])
            g.apply(legal[rng.randrange(len(legal))])
    assert checked >= 10 and differ >= checked // 2  # the twins do hide other cards


@pytest.mark.parametrize("game", ["golf", "tonk", "speed", "gofish"])
def test_pettingzoo_classic_wrapper_stack_works_and_an_illegal_move_ends_the_game(
    game: str,
) -> None:
    """PettingZoo's classic games are built as raw_env + TerminateIllegal + AssertOutOfBounds +
    OrderEnforcing; a switcher wraps cardcore's environment the same way."""
    if game not in cardcore.available_games():
        pytest.skip(f"{game} is not installed")
    players = 3 if game in ("tonk", "gofish") else 2
    options = {"rounds": 1} if game == "golf" else {}

    def wrapped() -> Any:
        env: Any = aec_env(game, players, options=options)
        env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
        env = wrappers.AssertOutOfBoundsWrapper(env)
        return wrappers.OrderEnforcingWrapper(env)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(wrapped(), num_cycles=150)
        env = wrapped()
        env.reset(seed=3)
        agent = env.agent_selection
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))  # an illegal index
    assert env.unwrapped.match.game.version == 0  # the wrapper stopped it before the engine
    assert all(env.terminations.values())
    assert env._cumulative_rewards[agent] == -1.0
    stepped_out = []
    for done_agent in env.agent_iter(10):
        stepped_out.append(done_agent)
        env.step(None)
    assert sorted(stepped_out) == sorted(env.possible_agents) and not env.agents


@pytest.mark.parametrize(
    ("game", "players", "options"), [("golf", 3, {"rounds": 1}), ("tonk", 3, {})]
)
def test_a_parallel_api_for_turn_based_games_comes_from_pettingzoos_own_converter(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """metadata says is_parallelizable False (aec_to_parallel refuses), and rl.rst offers no
    parallel environment; PettingZoo's turn_based_aec_to_parallel gives one that passes."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = turn_based_aec_to_parallel(aec_env(game, players, options=options))
        parallel_api_test(env, num_cycles=200)
        observations, _ = env.reset(seed=4)
    acting = [a for a, obs in observations.items() if obs["action_mask"].any()]
    assert len(acting) == 1  # the seat to act; the others' masks are empty


# --- observations: a deployed policy encodes its own view ---------------------------------


def _encode_view(enc: Any, view: Mapping[str, Any], legal: Sequence[Any]) -> tuple[Any, Any]:
    """What a policy agent computes from a view alone (as examples/rl/reinforce_golf.py does)."""
    hot, scalars = enc.observe(view)
    counts = np.bincount(np.asarray(hot, dtype=np.intp), minlength=enc.planes)
    x = np.concatenate([counts, np.asarray(scalars, dtype=np.float64)]).astype(np.float32)
    mask = np.zeros(enc.actions, dtype=np.int8)
    for i in enc.action_indices(view, legal):
        if i >= 0:
            mask[i] = 1
    return x, mask


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("golf", 3, {"rounds": 2}),
        ("golf", 2, {"layout": "4h", "rounds": 1}),
        ("tonk", 3, {"hands": 2}),
        ("speed", 2, {"jokers": 2}),
        ("spit", 2, {}),
        ("gofish", 3, {}),
    ],
)
def test_a_policy_agent_encoding_its_view_sees_what_the_environment_trained_it_on(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """Train on env observations, deploy as an agent that gets only a view (or its JSON, over
    the network): the arrays must be the same, or the trained policy is fed other inputs."""
    if game not in cardcore.available_games():
        pytest.skip(f"{game} is not installed")
    checked = 0
    for seed in range(2):
        g = cardcore.new_game(game, players, options=options, seed=seed)
        enc = encoding_for(g)
        rng = random.Random(seed)
        for step in range(160):
            if g.is_over:
                break
            if step % 3 == 0:
                for s in range(players):
                    legal = g.legal_actions(s)
                    ref = observe(g, s, enc)
                    view = g.view(s)
                    for v in (view, json.loads(json.dumps(view))):
                        x, mask = _encode_view(enc, v, legal)
                        assert np.array_equal(x, ref["observation"]), (game, g.position())
                        assert np.array_equal(mask, ref["action_mask"])
                        checked += 1
            seats = [s for s in g.to_act if g.legal_actions(s)]
            if not seats:
                break
            legal = g.legal_actions(seats[rng.randrange(len(seats))])
            g.apply(legal[rng.randrange(len(legal))])
    assert checked >= 12


_TONK_FIELDS = {"played", "phase", "chance", "taken", "laid", "touched"}


def _rotate_tonk(text: str, n: int) -> str:
    """The Tonk position with every seat moved one on (hands, marks, dealer, turn, balances,
    the cut's cards and the spreads' owners)."""
    head, *piles = text.split(" | ")
    name, *fields = head.split(" ")
    out = [name]
    for field in fields:
        key, value = field.split("=", 1)
        data = json.loads(value)
        if key in ("dealer", "turn") and isinstance(data, int):
            data = (data + 1) % n
        elif key == "balances":
            data = [data[(i - 1) % n] for i in range(n)]
        elif key == "cut":
            data = [[row[(i - 1) % n] for i in range(n)] for row in data]
        elif key == "spreads":
            data = [[size, (owner + 1) % n] for size, owner in data]
        else:
            assert key in _TONK_FIELDS, f"a Tonk field this test does not rotate: {key}"
        out.append(f"{key}={json.dumps(data, separators=(',', ':'))}")
    body = []
    for pile in piles:
        pname, _, cards = pile.partition(":")
        cards = re.sub(
            r"@([0-9.]+)",
            lambda m: "@" + ".".join(sorted(str((int(s) + 1) % n) for s in m.group(1).split("."))),
            cards,
        )
        hand = re.match(r"hand\.(\d+)$", pname)
        if hand:
            pname = f"hand.{(int(hand.group(1)) + 1) % n}"
        body.append((pname, cards))
    order = {"stock": 0, "discard": 1}
    body.sort(key=lambda b: (order.get(b[0], 2 if b[0].startswith("hand") else 3), b[0]))
    return " | ".join([" ".join(out)] + [f"{pname}:{cards}" for pname, cards in body])


def test_one_policy_serves_every_seat_three_player_tonk_observations_are_seat_relative() -> None:
    """rl.rst: seats are relative, the observing seat first. Seat s of a position and seat
    s + 1 of the same position with every seat moved on must see the same arrays."""
    n = 3
    options = {"hands": 3}
    checked = with_spreads = 0
    for seed in range(8):
        g = cardcore.new_game("tonk", n, options=options, seed=seed)
        enc = encoding_for(g)
        rng = random.Random(seed)
        for _ in range(60):
            if g.is_over:
                break
            position = g.position()
            moved = cardcore.new_game(
                "tonk", n, options=options, position=_rotate_tonk(position, n)
            )
            with_spreads += "spreads=" in position
            for s in range(n):
                a, b = observe(g, s, enc), observe(moved, (s + 1) % n, enc)
                assert np.array_equal(a["observation"], b["observation"]), (s, position)
                assert np.array_equal(a["action_mask"], b["action_mask"]), (s, position)
                checked += 1
            legal = g.legal_actions(g.to_act[0])
            laying = [a for a in legal if a.notation().split()[0] in ("spread", "hit")]
            g.apply(
                laying[0] if laying and rng.random() < 0.7 else legal[rng.randrange(len(legal))]
            )
    assert checked >= 150 and with_spreads >= 3


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("golf", 2, {"rounds": 1}), ("tonk", 3, {}), ("gofish", 3, {}), ("speed", 2, {})],
)
def test_ismcts_decides_the_same_from_the_json_view_a_remote_process_would_get(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """search-agents.rst: the bot uses only its seat's view and legal actions, so it could
    run in another process; there the view arrives as JSON (lists, not tuples)."""
    if game not in cardcore.available_games():
        pytest.skip(f"{game} is not installed")
    g = cardcore.new_game(game, players, options=options, seed=2)
    realtime = g.ruleset.game.realtime
    rng = random.Random(2)
    checked = 0
    for step in range(60):
        seats = [s for s in g.to_act if g.legal_actions(s)] if not g.is_over else []
        if not seats:
            break
        legal = g.legal_actions(seats[0])
        if step % 5 == 0 and len(legal) > 1:
            view = g.view(seats[0])
            remote = json.loads(json.dumps(view))
            bots = [ISMCTSAgent(seed=1, iterations=8, max_rollout=40) for _ in range(2)]
            if realtime:
                a, b = bots[0].plan(view, legal, 0.0), bots[1].plan(remote, legal, 0.0)
                assert a is not None and b is not None
                assert (a.action, a.delay) == (b.action, b.delay)
            else:
                assert bots[0].choose(view, legal) == bots[1].choose(remote, legal)
            checked += 1
        g.apply(legal[rng.randrange(len(legal))])
    assert checked >= 1


@pytest.mark.parametrize("game", ["speed", "spit"])
def test_real_time_decisions_at_one_moment_are_not_told_the_other_seats_plan(game: str) -> None:
    """rl.rst: an agent never sees the other's plan; the decisions asked at one time all see
    the same state. The second seat asked at a moment observes exactly what it observed
    before the first seat planned."""
    compared = 0
    for seed in range(3):
        env = aec_env(game, 2)
        env.reset(seed=seed)
        rng = random.Random(seed)
        for agent in env.agent_iter(3000):
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            other = "player_1" if agent == "player_0" else "player_0"
            before, version = env.observe(other), env.match.game.version
            env.step(_masked_random(obs, rng))
            if env.agents and env.match.game.version == version and env.agent_selection == other:
                after = env.observe(other)
                assert np.array_equal(before["observation"], after["observation"])
                assert np.array_equal(before["action_mask"], after["action_mask"])
                compared += 1
    assert compared >= 50


# --- rewards against the documented formulas ----------------------------------------------


@pytest.mark.parametrize(
    ("game", "players", "options", "rules"),
    [
        ("golf", 3, {"rounds": 2}, ["golf.four-of-a-kind-columns"]),
        ("golf", 3, {"rounds": 2}, ["golf.ender-penalty-10"]),
        ("golf", 4, {"rounds": 2, "max_turns": 3}, []),
        ("golf", 2, {"points_limit": 40}, []),
        ("tonk", 3, {"hands": 3}, []),
        ("tonk", 2, {"hands": 3, "stake": 5}, []),
    ],
)
def test_score_returns_are_the_documented_final_standing(
    game: str, players: int, options: dict[str, Any], rules: list[str]
) -> None:
    """rl.rst: Golf pays (others' mean total - own) / 10 per round, Tonk each hand in stakes;
    a seat's return is its final standing, and every game is zero-sum."""
    for seed in range(3):
        env = aec_env(game, players, options=options, rules=rules, rewards="score")
        returns: dict[str, float] = defaultdict(float)
        for agent, step in _aec_episode(env, seed, random.Random(seed)):
            returns[agent] += step[1]
        result = env.match.game.result
        got = [returns[a] for a in env.possible_agents]
        scores = result.scores
        if game == "golf":
            expected = [
                ((sum(scores) - scores[s]) / (players - 1) - scores[s]) / 10 for s in range(players)
            ]
        else:
            stake = options.get("stake", 1)
            expected = [p / stake for p in result.to_json()["payouts"]]
        assert got == pytest.approx(expected), (seed, result.to_json())
        assert sum(got) == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize(
    ("game", "options", "bound"), [("golf", {"rounds": 1}, 7), ("tonk", {"hands": 5}, 4)]
)
def test_max_actions_truncates_every_agent_at_exactly_that_many_actions_and_pays_nothing(
    game: str, options: dict[str, Any], bound: int
) -> None:
    truncated_games = 0
    for seed in range(3):
        env = aec_env(game, 3, options=options, max_actions=bound)
        returns: dict[str, float] = defaultdict(float)
        dones = []
        for agent, step in _aec_episode(env, seed, random.Random(seed)):
            returns[agent] += step[1]
            if step[0] == "done":
                dones.append(step)
        game_ = env.match.game
        if game_.result.reason != "truncated":  # ended by its rules first
            continue
        assert game_.version == bound
        assert all(not terminated and truncated for _, _, terminated, truncated in dones)
        assert len(dones) == 3 and set(returns.values()) == {0.0}
        truncated_games += 1
    assert truncated_games >= 2


# --- determinism ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("golf", 2, {"rounds": 1}), ("tonk", 3, {}), ("speed", 2, {})],
)
def test_a_seeded_reset_then_unseeded_resets_replay_the_same_episodes(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """rl.rst: reset(seed=s) plays seed s, later resets draw from a stream seeded by s."""

    def run() -> list[Any]:
        env = aec_env(game, players, options=options)
        rng = random.Random(0)
        out: list[Any] = list(_aec_episode(env, 21, rng))
        for _ in range(2):
            env.reset()
            out.append(env.match.game.seed)
            out.extend(_aec_episode(env, None, rng))
        return out

    first = run()
    assert first == run()
    other = aec_env(game, players, options=options)
    other.reset(seed=22)
    assert other.match.game.seed == 22


# --- week one: a tiny learner and a search bot in the lab ---------------------------------


class _BanditPolicy:
    """A tabular learner: the mean return of each action index per legal-set, from batches."""

    def __init__(self) -> None:
        self.total: dict[tuple[bytes, int], float] = defaultdict(float)
        self.count: dict[tuple[bytes, int], int] = defaultdict(int)

    def act(self, mask: Any, rng: random.Random, explore: float) -> int:
        legal = [int(i) for i in np.flatnonzero(mask)]
        if rng.random() < explore:
            return legal[rng.randrange(len(legal))]
        key = np.asarray(mask, dtype=np.int8).tobytes()

        def value(i: int) -> float:
            n = self.count[(key, i)]
            return self.total[(key, i)] / n if n else 0.0

        return max(legal, key=value)

    def learn(self, trail: list[tuple[bytes, int]], ret: float) -> None:
        for key in trail:
            self.total[key] += ret
            self.count[key] += 1


class _BanditAgent:
    """The trained table as a cardcore agent: it encodes its own view (no access to the game)."""

    def __init__(self, policy: _BanditPolicy, seed: int = 0) -> None:
        self.policy = policy
        self.rng = random.Random(seed)
        self.encoding: Any = None

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        if self.encoding is None:
            config = Config("golf", 2, options={"rounds": 1})
            self.encoding = config.encoding
        indices = list(self.encoding.action_indices(view, legal))
        mask = np.zeros(self.encoding.actions, dtype=np.int8)
        mask[indices] = 1
        return legal[indices.index(self.policy.act(mask, self.rng, 0.0))]


@pytest.fixture
def bandit_registered() -> Iterator[_BanditPolicy]:
    policy = _BanditPolicy()
    cardcore.register(
        "cardcore.agents", "switcher-bandit", lambda seed=0: _BanditAgent(policy, seed)
    )
    yield policy
    cardcore.unregister("cardcore.agents", "switcher-bandit")


def test_a_tiny_learner_trains_on_the_batched_env_and_plays_in_compare_by_name(
    bandit_registered: _BanditPolicy,
) -> None:
    policy = bandit_registered
    envs = RecordEpisodeStatistics(vector_env("golf", 8, options={"rounds": 1}))
    obs, _ = envs.reset(seed=3)
    rng = random.Random(3)
    trails: list[list[tuple[bytes, int]]] = [[] for _ in range(8)]
    finished = 0
    for _ in range(400):
        actions = []
        for i, mask in enumerate(obs["action_mask"]):
            a = policy.act(mask, rng, 0.3)
            trails[i].append((mask.tobytes(), a))
            actions.append(a)
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        for i in np.flatnonzero(terminated | truncated):
            policy.learn(trails[i], float(rewards[i]))
            trails[i] = []
            finished += 1
            assert infos["_final_obs"][i] and not infos["final_obs"][i]["action_mask"].any()
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
    assert finished >= 40
    result = cardcore.compare(
        "golf",
        agents=["switcher-bandit", "random"],
        games=12,
        seed=2,
        options={"rounds": 1},
        skill=None,
    )
    wins = result.a.agent_wins
    assert sorted(wins) == ["random", "switcher-bandit"]
    assert all(e.n == 12 for e in wins.values())
    assert "wins: switcher-bandit" in result.table()


def test_ismcts_in_a_mixed_compare_line_up_against_the_heuristic() -> None:
    result = cardcore.compare(
        "golf",
        agents=["ismcts:iterations=15", "golf-greedy"],
        games=6,
        seed=1,
        options={"rounds": 1},
        skill=None,
    )
    wins = result.a.agent_wins
    assert set(wins) == {"ismcts:iterations=15", "golf-greedy"}
    assert 0.0 <= wins["ismcts:iterations=15"].mean <= 1.0
    assert result.same_deals and result.diff["actions"].mean == 0.0  # A and B are one config


_ISMCTS_HASH = """
import hashlib, random, cardcore
from cardcore.search import ISMCTSAgent
h = hashlib.sha256()
for game, n, opts in [("golf", 2, {"rounds": 1}), ("tonk", 3, {}), ("gofish", 3, {}), ("speed", 2, {})]:
    if game not in cardcore.available_games():
        continue
    g = cardcore.new_game(game, n, options=opts, seed=5)
    rng = random.Random(5)
    realtime = g.ruleset.game.realtime
    for step in range(45):
        seats = [s for s in g.to_act if g.legal_actions(s)] if not g.is_over else []
        if not seats:
            break
        legal = g.legal_actions(seats[0])
        if step % 3 == 0 and len(legal) > 1:
            bot = ISMCTSAgent(seed=3, iterations=10, max_rollout=40)
            answer = bot.plan(g.view(seats[0]), legal, 0.0) if realtime else bot.choose(g.view(seats[0]), legal)
            h.update(repr(answer).encode())
        g.apply(legal[rng.randrange(len(legal))])
r = cardcore.compare("golf", agents=["ismcts:iterations=6", "golf-greedy"], games=2, seed=4,
                     options={"rounds": 1}, skill=None)
h.update(repr(sorted((k, v.mean) for k, v in r.a.agent_wins.items())).encode())
print(h.hexdigest())
"""


def test_ismcts_decides_the_same_whatever_the_process_hash_seed() -> None:
    """search-agents.rst: for a seed and an iteration budget the same views give the same
    choices on any machine; so under any PYTHONHASHSEED (set iteration order)."""
    digests = set()
    for hash_seed in ("1", "7"):
        run = subprocess.run(
            [sys.executable, "-c", _ISMCTS_HASH],
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 0, run.stderr
        digests.add(run.stdout.strip())
    assert len(digests) == 1 and len(digests.pop()) == 64


# --- bad input and calls out of order ------------------------------------------------------


def test_numpy_action_ids_play_and_bad_ids_change_nothing_in_every_environment() -> None:
    env = aec_env("golf", 2, options={"rounds": 1})
    env.reset(seed=1)
    for bad in (-1, 22, 10**30, np.int64(-1), 10.0, "10", [10], np.array([10]), 1 + 0j):
        with pytest.raises(IllegalActionError, match="CORE-LEGAL-1"):
            env.step(bad)
    assert env.match.game.version == 0 and env.agent_selection == "player_0"
    for action in (np.int64(10), np.uint8(11), np.array(12)):
        env.step(action)
    assert env.match.game.version == 3
    gym = gym_env("golf", 2, options={"rounds": 1})
    obs, _ = gym.reset(seed=1)
    with pytest.raises(IllegalActionError, match=r"outside the action space Discrete\(22\)"):
        gym.step(np.int32(99))
    assert gym.runner.match.game.version == 0
    gym.step(np.int16(int(np.flatnonzero(obs["action_mask"])[0])))
    assert gym.runner.match.game.version >= 1


def test_stepping_a_finished_agent_with_an_action_is_refused_and_changes_nothing() -> None:
    env = aec_env("golf", 2, options={"rounds": 1})
    rng = random.Random(4)
    env.reset(seed=4)
    for agent in env.agent_iter(5000):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            with pytest.raises(IllegalActionError, match="step it with None"):
                env.step(0)
            assert env.agent_selection == agent and agent in env.agents
        env.step(None if terminated or truncated else _masked_random(obs, rng))
    with pytest.raises(IllegalActionError, match="call reset"):
        env.step(None)
    with pytest.raises(IllegalActionError, match="call reset"):
        env.last()


def test_reset_options_are_applied_or_refused_never_silently_ignored() -> None:
    """Gymnasium and PettingZoo pass per-episode settings as reset(options=...); a switcher
    who resets with {"rounds": 3} believes they train three-hole games. Silently ignoring
    it breaks the standard: an unknown or unusable option is a clear error."""
    env = aec_env("golf", 2, options={"rounds": 1})
    gym = gym_env("golf", 2, options={"rounds": 1})
    envs = vector_env("golf", 2, options={"rounds": 1})
    resets = [
        (lambda o: env.reset(seed=1, options=o), lambda: env.match.game.options),
        (lambda o: gym.reset(seed=1, options=o), lambda: gym.runner.match.game.options),
        (lambda o: envs.reset(seed=1, options=o), lambda: envs.runners[0].match.game.options),
    ]
    for reset, options in resets:
        try:
            reset({"rounds": 3})
        except OptionError:
            continue
        assert options()["rounds"] == 3


def test_the_pettingzoo_loop_before_reset_is_a_clear_cardcore_error() -> None:
    """rl.rst: last() before reset() is an IllegalActionError ('call reset()'). The loop's
    first call, agent_iter(), and num_agents / agent_selection are not: they raise
    AttributeError: 'CardEnv' object has no attribute 'agents'."""
    env = aec_env("golf", 2, options={"rounds": 1})
    for call in (
        lambda: next(iter(env.agent_iter())),
        lambda: env.num_agents,
        lambda: env.agent_selection,
    ):
        with pytest.raises(CardcoreError, match="reset"):
            call()


def test_numpy_scalars_from_a_sweep_are_taken_or_refused_for_their_type() -> None:
    """A hyper-parameter sweep hands out numpy scalars (np.linspace, np.arange). step() takes
    numpy integers and a Plan numpy delays, but reaction=np.float32(0.3) is refused as 'must be
    a finite delay in seconds (>= 0)', seat=np.int64(1) as 'must be a seat ... (0 to 1)', and
    ismcts iterations=np.int64(5) as 'must be a number from 1 to 2000'. Either take them, or
    say the type is the problem."""
    calls = [
        lambda: aec_env("speed", 2, reaction=np.float32(0.3)),
        lambda: gym_env("golf", 2, seat=np.int64(1), options={"rounds": 1}),
        lambda: cardcore.load_agent("ismcts", iterations=np.int64(5)),
    ]
    for call in calls:
        try:
            call()
        except OptionError as exc:
            assert re.search(r"numpy|type|Python (int|float)", str(exc)), str(exc)


def _documented(name: str) -> bool:
    text = "\n".join(
        p.read_text() for p in Path(__file__).parents[2].joinpath("docs").rglob("*.rst")
    )
    return (
        re.search(rf"(autoclass|autoexception|autofunction|autodata|py:\w+)::\s*[\w.]*\b{name}\b", text)
        is not None
    )


@pytest.mark.parametrize("module", ["cardcore.rl", "cardcore.search"])
def test_every_public_name_of_the_rl_and_search_packages_is_documented(module: str) -> None:
    missing = [n for n in importlib.import_module(module).__all__ if not _documented(n)]
    assert missing == []


def test_every_public_name_of_the_compare_package_is_documented() -> None:
    """tests/test_meta.py checks cardcore.__all__ only; house-rule-study.rst documents
    cardcore.compare's ConfigSummary, Estimate and default_agent but not the AgentFailure a
    caller catches when an agent fails, nor GameRecord."""
    module = importlib.import_module("cardcore.compare")
    missing = [n for n in module.__all__ if not _documented(n)]
    assert missing == []


def test_win_rewards_refuses_winners_that_are_no_seat() -> None:
    """rl.rst documents win_rewards as zero-sum; with a winner outside range(players) it pays
    every seat the loss, and text for players is a raw TypeError."""
    assert win_rewards([1], 2) == [-1.0, 1.0] and win_rewards([0, 2], 4) == [1.0, -1.0, 1.0, -1.0]
    for winners, players in [([5], 2), ([-1], 2), (["x"], 3), ([0], "2"), (None, 2)]:
        with pytest.raises(CardcoreError):
            win_rewards(winners, players)


def test_copying_an_environment_works_or_says_what_to_use_instead() -> None:
    """AlphaZero-style code written for PettingZoo deep-copies the environment to search it,
    and OpenSpiel states pickle. cardcore has Game.clone(), Game.save() and determinize() for
    that, but deepcopy and pickle end in TypeError: cannot pickle 'module' object (the
    environments) or '_thread.lock' object (a Game), naming none of them."""
    env = aec_env("golf", 2, options={"rounds": 1})
    env.reset(seed=1)
    game = cardcore.new_game("golf", 2, options={"rounds": 1}, seed=1)
    gym = gym_env("golf", 2, options={"rounds": 1})
    gym.reset(seed=1)
    for thing in (env, gym, game):
        for how in (copy.deepcopy, pickle.dumps):
            with contextlib.suppress(CardcoreError):
                how(thing)
    envs = vector_env("golf", 2, options={"rounds": 1})
    for thing in (env, gym, envs, aec_env("golf", 2, options={"rounds": 1})):
        for how in (copy.deepcopy, copy.copy, pickle.dumps):
            with pytest.raises(CardcoreError, match=r"cannot be copied or pickled.*\.clone\(\)"):
                how(thing)


def test_the_compare_names_resolve_as_the_docs_spell_them() -> None:
    """house-rule-study.rst documents cardcore.compare.ConfigSummary, .Estimate and
    .default_agent. After ``import cardcore.compare`` the package attribute is the compare
    function, so the dotted names fail ('function' object has no attribute 'Estimate'), and
    ``import cardcore.compare as lab`` binds the function. Every other dotted name the docs
    give (169 of them) resolves this way."""
    importlib.import_module("cardcore.compare")
    for name in ("ConfigSummary", "Estimate", "default_agent"):
        assert getattr(cardcore.compare, name, None) is not None, name


class _Flaky:
    """A house rule whose forbid_action raises while armed (a transient failure)."""

    armed = 0


@hookimpl
def _flaky_forbid_action(state: Any, action: Any) -> None:
    if _Flaky.armed > 0:
        _Flaky.armed -= 1
        raise RuntimeError("flaky veto")


@pytest.fixture
def flaky_speed_rule() -> Iterator[str]:
    module = types.ModuleType("speed_switcher_flaky")
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="SWITCHER-FLAKY-1", name="speed.switcher-flaky", game="speed", summary="flaky veto"
    )
    module.forbid_action = _flaky_forbid_action  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "speed.switcher-flaky", module)
    _Flaky.armed = 0
    yield "speed.switcher-flaky"
    _Flaky.armed = 0
    cardcore.unregister("cardcore.rules", "speed.switcher-flaky")


def test_a_failing_hook_in_a_real_time_step_leaves_the_environment_able_to_go_on(
    flaky_speed_rule: str,
) -> None:
    """Standards: a failing plugin hook never leaves a game half-changed. In Speed the
    second decision at t=0 runs the clock: Match._advance drops the earliest plan and moves
    the clock to its due time before Game.apply, whose legality check calls the rule's
    forbid_action. The PluginError leaves the game at version 0 but the environment with
    its clock at 0.35 s, player_0's plan gone and no seat pending: the retried step is
    refused ('legal: none'), and no step ever works again until reset(). (Turn-based games
    are not affected: Match.act applies before it pops the pending seat.)"""
    env = aec_env("speed", 2, rules=[flaky_speed_rule])
    env.reset(seed=1)
    rng = random.Random(1)
    failures = 0
    for _ in range(40):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        action = _masked_random(obs, rng)
        version, now = env.match.game.version, env.match.now
        _Flaky.armed = 1
        try:
            env.step(action)
        except PluginError:
            failures += 1
            _Flaky.armed = 0
            assert env.match.game.version == version  # the game is unchanged (it is)
            assert env.match.now == now  # so must the environment be
            env.step(action)  # and the same decision can be taken again
        _Flaky.armed = 0
    assert failures >= 1


def test_a_failing_hook_while_an_opponents_plan_is_applied_is_the_rules_error_not_the_agents(
    flaky_speed_rule: str,
) -> None:
    """rl.rst: an opponent that raises is a CardcoreError naming its seat and agent, and the
    game needs a reset. Here the agent did nothing wrong: its plan was legal and the rule's
    forbid_action raised while the engine applied it (SeatRunner._play_others wraps
    Match.act in the same try as agent.plan). The error should be the rule's PluginError."""
    env = gym_env("speed", 2, rules=[flaky_speed_rule], opponents="spit-greedy")
    obs, _ = env.reset(seed=1)
    _Flaky.armed = 1
    try:
        with pytest.raises(PluginError, match="switcher-flaky") as err:
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    finally:
        _Flaky.armed = 0
    assert "opponent" not in str(err.value)


@hookimpl
def _flaky_score_round(state: Any, scores: Any) -> None:
    if _Flaky.armed > 0:
        _Flaky.armed -= 1
        raise RuntimeError("flaky scorer")


@pytest.fixture
def flaky_golf_rule() -> Iterator[str]:
    module = types.ModuleType("golf_switcher_flaky")
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="SWITCHER-FLAKY-2", name="golf.switcher-flaky", game="golf", summary="flaky scorer"
    )
    module.score_round = _flaky_score_round  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "golf.switcher-flaky", module)
    _Flaky.armed = 0
    yield "golf.switcher-flaky"
    _Flaky.armed = 0
    cardcore.unregister("cardcore.rules", "golf.switcher-flaky")


def test_a_failing_hook_in_one_game_of_a_batch_keeps_its_type_and_names_the_games_it_moved(
    flaky_golf_rule: str,
) -> None:
    """rl.rst: a batch is checked whole before any game moves. A score_round that fails once
    in game k of the batch raised 'game k of 4: plugin ... raised' after games 0..k-1 had
    played the learner's action and their opponents' (seen: versions 29 -> 32), so their new
    observations and rewards are lost, without saying so; and the error was a plain
    CardcoreError, no longer the PluginError. Undoing the games that moved would need a copy
    of every game and agent on every step, so the error says which games moved instead
    (rl.rst, "Bad input"), keeps its type, and the games after k do not move."""
    envs = vector_env("golf", 4, rules=[flaky_golf_rule], options={"rounds": 1})
    obs, _ = envs.reset(seed=0)
    rng = random.Random(0)
    failures = 0
    for _ in range(400):
        actions = [int(rng.choice(list(np.flatnonzero(m)))) for m in obs["action_mask"]]
        before = [runner.match.game.version for runner in envs.runners]
        _Flaky.armed = 1
        try:
            obs, *_ = envs.step(actions)
        except CardcoreError as exc:
            _Flaky.armed = 0
            assert isinstance(exc, PluginError), repr(exc)
            assert exc.plugin == "golf.switcher-flaky", exc.plugin
            k = int(re.match(r"game (\d) of 4: plugin 'golf.switcher-flaky' raised", str(exc))[1])  # type: ignore[index]
            after = [runner.match.game.version for runner in envs.runners]
            moved = [i for i in range(4) if after[i] != before[i]]
            assert after[k + 1 :] == before[k + 1 :], str(exc)
            assert moved[:k] == list(range(k)), str(exc)
            if moved:
                last = moved[-1]
                named = "game 0 had moved" if last == 0 else f"games 0 to {last} had moved"
                assert f"[{named}, " in str(exc) and "call reset()" in str(exc), str(exc)
            else:
                assert str(exc).endswith("[no game moved]"), str(exc)
            failures += 1
            obs, _ = envs.reset(seed=failures)
            if failures >= 3:
                return
        finally:
            _Flaky.armed = 0
    pytest.fail(f"only {failures} rounds ended in 400 steps")


def test_waiting_in_a_turn_based_match_is_refused_and_changes_nothing() -> None:
    """rl.rst documents cardcore.rl.Match; its wait() is 'Real time: the pending seat plans
    nothing'. Called on Golf it pops the seat to act, finds no plan, and stalls: the game is
    over, truncated, after no action at all."""
    match = Match(Config("golf", 2, options={"rounds": 1}), 1)
    with pytest.raises(CardcoreError):
        match.wait()
    assert not match.over and match.seat == 0 and match.game.version == 0


def test_a_seat_runner_refuses_output_arrays_it_cannot_fill_before_dealing() -> None:
    """rl.rst documents cardcore.rl.SeatRunner (the engine under SeatEnv and BatchEnv, for
    one's own vectorisation). reset(seed, obs, mask) deals the game, plays the opponents and
    only then writes into obs and mask: a wrong size is 'could not broadcast input array',
    a list is "'list' object has no attribute 'fill'", None a TypeError; and the runner's
    game has already been dealt."""
    runner = SeatRunner(Config("golf", 2, options={"rounds": 1}), 0, "random")
    size = runner.config.observer.size
    for obs, mask in [
        (np.zeros(10, np.float32), np.zeros(22, np.int8)),
        (np.zeros(size, np.float32), np.zeros(5, np.int8)),
        (None, None),
        ([0.0] * size, [0] * 22),
    ]:
        with pytest.raises(CardcoreError):
            runner.reset(1, obs, mask)
        assert runner.match is None


# --- fixes of the review above: what else they changed ---------------------------------------


def _speed_match(rule: str, seed: int) -> Match:
    return Match(Config("speed", 2, rules=[rule]), seed)


def _play_matches(rule: str, seed: int, fail_every: int) -> tuple[Match, int]:
    """Play a Speed match by its legal actions (the first, equal delays so that plans tie);
    every *fail_every*-th decision first fails once in the rule's hook and is retried."""
    match = _speed_match(rule, seed)
    failures = 0
    for decision in range(300):
        seat = match.seat
        if seat < 0:
            break
        legal = match.legal(seat)
        action = legal[decision % len(legal)]
        delay = 0.25 if decision % 4 < 2 else None  # equal delays (ties), and drawn ones
        if fail_every and decision % fail_every == 1:
            before = (match.game.version, match.now, match.seat, list(match.plans))
            _Flaky.armed = 1
            try:
                match.act(action, delay)
            except PluginError:
                failures += 1
                assert (match.game.version, match.now, match.seat, list(match.plans)) == before
            finally:
                _Flaky.armed = 0
            if match.game.version != before[0] or match.seat != before[2]:
                continue  # the hook was not called before the action went through
        match.act(action, delay)
    return match, failures


def test_a_real_time_decision_that_failed_in_a_hook_replays_as_if_it_had_not(
    flaky_speed_rule: str,
) -> None:
    """Match.act puts back the clock, the plans, the seat asked and the generator (a drawn
    reaction delay, a tie's draw), so retrying gives the game a run without failures gives."""
    for seed in range(3):
        clean, _ = _play_matches(flaky_speed_rule, seed, 0)
        failed, failures = _play_matches(flaky_speed_rule, seed, 2)
        assert failures >= 5
        assert failed.game.record_entries() == clean.game.record_entries()
        assert (failed.now, failed.game.position()) == (clean.now, clean.game.position())


def test_a_hook_failing_after_the_action_was_applied_leaves_a_match_that_asks_again(
    flaky_speed_rule: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When asking who decides next fails, the action stands; the match's next ``seat``
    asks again instead of answering -1 (over) for a game that is not over."""
    match = _speed_match(flaky_speed_rule, 1)
    real = match._reask
    calls = []

    def failing_once() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise PluginError("plugin 'x' raised RuntimeError in legal_actions: once")
        real()

    monkeypatch.setattr(match, "_reask", failing_once)
    version = match.game.version
    with pytest.raises(PluginError):
        for _ in range(10):
            match.act(match.legal(match.seat)[0], 0.1)
    assert match.game.version == version + 1 and not match.over
    seat = match.seat  # asked again: a seat of the game's, with legal actions
    assert len(calls) == 2 and seat in match.game.to_act and match.legal(seat)
    rng = random.Random(1)
    while match.seat >= 0:
        legal = match.legal(match.seat)
        match.act(legal[rng.randrange(len(legal))])
    assert match.over


def test_reset_options_the_aec_environment_takes_and_those_every_environment_refuses() -> None:
    env = aec_env("golf", 2, options={"rounds": 1})
    for options in ({"options": {"rounds": 3}}, {"layout": 8}, [1]):
        with pytest.raises(OptionError, match=r"aec_env\(\.\.\., options="):
            env.reset(seed=1, options=options)  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError, match="call reset"):  # still not reset
            env.match  # noqa: B018
    with pytest.raises(OptionError, match=r"aec_env\(\.\.\., rewards="):  # (its own parameter)
        env.reset(seed=1, options={"rewards": "score"})
    with pytest.raises(IllegalActionError, match="call reset"):
        env.match  # noqa: B018
    for options in (None, {}, {"options": 1}):  # {"options": 1}: PettingZoo's api_test
        env.reset(seed=1, options=options)
        assert env.match is not None and env.match.game.options["rounds"] == 1
    gym = gym_env("golf", 2, options={"rounds": 1})
    envs = vector_env("golf", 2, options={"rounds": 1})
    for reset, name in ((gym.reset, "gym_env"), (envs.reset, "vector_env")):
        with pytest.raises(OptionError, match=rf"{name}\(\.\.\., options="):
            reset(seed=1, options={"options": 1})
        reset(seed=1, options={})
    assert gym.runner.match is not None


def test_numpy_numbers_are_taken_as_plain_ints_and_floats() -> None:
    env = aec_env("speed", np.int64(2), reaction=[np.float32(0.25), np.float64(0.5)])  # type: ignore[arg-type]
    assert env.config.reaction == [0.25, 0.5] and type(env.config.players) is int
    assert all(type(r) is float for r in env.config.reaction)
    gym = gym_env("golf", 2, seat=np.int64(1), options={"rounds": 1})  # type: ignore[arg-type]
    assert type(gym.runner.seat) is int
    obs, _ = gym.reset(seed=2)
    assert gym.runner._live().seat == 1 and obs["action_mask"].any()
    assert win_rewards([np.int64(1)], np.int64(3)) == [-0.5, 1.0, -0.5]  # type: ignore[list-item,arg-type]
    with pytest.raises(OptionError, match=r"Python int or float, not a numpy\.int64"):
        cardcore.load_agent("ismcts", iterations=np.int64(5))
    with pytest.raises(OptionError, match="must be a finite delay"):
        aec_env("speed", 2, reaction=np.bool_(True))  # type: ignore[arg-type]


def test_a_seat_runner_refuses_output_arrays_it_cannot_fill_before_stepping() -> None:
    runner = SeatRunner(Config("golf", 2, options={"rounds": 1}), 0, "random")
    size, actions = runner.config.observer.size, runner.config.encoding.actions
    obs, mask = np.zeros(size, np.float32), np.zeros(actions, np.int8)
    runner.reset(1, obs, mask)
    index = int(np.flatnonzero(mask)[0])
    version = runner._live().game.version
    read_only = np.zeros(actions, np.int8)
    read_only.flags.writeable = False
    for o, m in [(obs, read_only), (obs.astype(np.int8), mask), (obs, mask[:-1])]:
        with pytest.raises(CardcoreError, match=r"must be a writable .* numpy array of shape"):
            runner.step(index, o, m)
        assert runner._live().game.version == version
    runner.step(index, obs, mask)
    assert runner._live().game.version > version


def test_the_aec_environments_own_attributes_before_reset_are_clear_errors() -> None:
    env = aec_env("golf", 2, options={"rounds": 1})
    for name in ("agents", "rewards", "terminations", "truncations", "infos"):
        with pytest.raises(
            IllegalActionError, match=rf"call reset\(\).*\({name} is set by reset\)"
        ):
            getattr(env, name)
    assert not hasattr(env, "no_such_attribute")
    env.reset(seed=1)
    assert env.num_agents == 2 and env.agent_selection == "player_0"


@pytest.mark.parametrize("bad", [[2.5], [True], ("0",), 3], ids=["float", "bool", "text", "int"])
def test_win_rewards_refuses_winners_that_are_not_a_list_of_seats(bad: Any) -> None:
    with pytest.raises(CardcoreError, match="winners must be"):
        win_rewards(bad, 3)
    assert win_rewards([], 3) == [0.0, 0.0, 0.0] and win_rewards((1, 1), 2) == [-1.0, 1.0]


def test_a_hook_failing_after_an_aec_step_applied_its_action_leaves_the_loop_able_to_go_on(
    flaky_speed_rule: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = aec_env("speed", 2, rules=[flaky_speed_rule])
    env.reset(seed=3)
    match = env.match
    assert match is not None
    real = match._reask
    calls: list[int] = []

    def failing_once() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise PluginError("plugin 'x' raised RuntimeError in legal_actions: once")
        real()

    monkeypatch.setattr(match, "_reask", failing_once)
    rng = random.Random(3)
    version = match.game.version
    with pytest.raises(PluginError):
        for _ in range(10):
            obs, *_ = env.last()
            env.step(_masked_random(obs, rng))
    assert match.game.version > version
    assert env.agent_selection == f"player_{match.seat}"  # the next agent, asked again
    steps = 0
    for _agent in env.agent_iter(5000):
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else _masked_random(obs, rng))
        steps += 1
    assert match.over and steps > 2 and not env.agents
