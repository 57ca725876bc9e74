"""The environments: Gymnasium single-seat and batched, rewards, real time, renders and bad input."""

from __future__ import annotations

import random
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import cardcore
from cardcore import CardcoreError, IllegalActionError, OptionError, UnknownPluginError
from cardcore.rl import Config, Match, aec_env, gym_env, vector_env, win_rewards


def _first_legal(obs: Mapping[str, Any]) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


# -- gymnasium ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "opponents", "options"),
    [
        ("golf", "golf-greedy", {"rounds": 1}),
        ("tonk", "tonk-heuristic", {}),
        ("spit", "spit-greedy", {}),
        ("speed", "random", {}),
        ("gofish", "gofish-basic", {}),
    ],
)
def test_gymnasium_env_checker_passes(game: str, opponents: str, options: dict[str, Any]) -> None:
    env = _FirstLegal(gym_env(game, 2, opponents=opponents, options=options))
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*infinity")  # scalars are unbounded on purpose
        warnings.filterwarnings("ignore", message=".*different from the unwrapped")
        check_env(env, skip_render_check=True)


class _FirstLegal(gymnasium.Wrapper[dict[str, Any], np.int64, dict[str, Any], np.int64]):
    """For the checker, which steps with unmasked samples: an action outside the mask plays the
    first legal one (the environment itself refuses it, see the bad-input tests)."""

    def step(self, action: Any) -> Any:
        mask = self.env.unwrapped.action_masks()  # type: ignore[attr-defined]
        if not mask[int(action)]:
            action = int(np.flatnonzero(mask)[0])
        return self.env.step(action)


def test_gym_env_is_deterministic_for_a_seed_and_plays_whole_games() -> None:
    def run(seed: int) -> list[tuple[float, bool, bool, list[float]]]:
        env = gym_env("golf", 3, seat=1, opponents=["golf-greedy", "random"], options={"rounds": 1})
        obs, _ = env.reset(seed=seed)
        out = []
        for _ in range(3):  # three games: reset(seed) then the seed's stream
            done = False
            while not done:
                obs, reward, terminated, truncated, info = env.step(_first_legal(obs))
                done = terminated or truncated
                out.append((reward, terminated, truncated, obs["observation"][:20].tolist()))
            assert info["result"]["reason"] == "rounds"
            obs, _ = env.reset()
        return out

    a, b = run(5), run(5)
    assert a == b
    assert a != run(6)
    assert all(r in (1.0, -0.5, 0.0, 0.5) or abs(r) <= 1 for r, *_ in a)


def test_gym_env_rewards_the_learner_at_the_end_of_the_game() -> None:
    env = gym_env("golf", 2, opponents="random", options={"rounds": 1})
    obs, _ = env.reset(seed=1)
    rewards = []
    terminated = False
    while not terminated:
        obs, reward, terminated, _truncated, info = env.step(_first_legal(obs))
        rewards.append(reward)
    assert all(r == 0 for r in rewards[:-1]) and rewards[-1] in (-1.0, 0.0, 1.0)
    winners = info["result"]["winners"]
    assert rewards[-1] == win_rewards(winners, 2)[0]
    assert not obs["action_mask"].any()
    with pytest.raises(IllegalActionError, match="game is over"):
        env.step(0)


def test_score_rewards_add_up_to_the_final_standing() -> None:
    env = gym_env("golf", 2, opponents="golf-greedy", options={"rounds": 3}, rewards="score")
    obs, _ = env.reset(seed=2)
    total = 0.0
    done = False
    nonzero = 0
    while not done:
        obs, reward, terminated, truncated, info = env.step(_first_legal(obs))
        total += reward
        nonzero += reward != 0
        done = terminated or truncated
    totals = info["result"]["scores"]
    assert nonzero >= 2  # paid per round, not only at the end
    assert total == pytest.approx((totals[1] - totals[0]) / 10)


def test_tonk_score_rewards_pay_stakes_per_hand() -> None:
    env = aec_env("tonk", 3, options={"hands": 3}, rewards="score")
    env.reset(seed=4)
    paid = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        paid[agent] += reward
        env.step(None if terminated or truncated else _first_legal(obs))
    assert env.match is not None
    balances = env.match.game.result.payouts  # type: ignore[union-attr]
    assert [paid[a] for a in env.possible_agents] == pytest.approx(list(balances))


def _first_deal_natural(players: int, hands: int) -> int:
    """A seed whose first deal settles a natural before anyone acts."""
    return next(
        s
        for s in range(10_000)
        if any(
            cardcore.new_game("tonk", players, options={"hands": hands}, seed=s).view(None)[
                "table"
            ]["balances"]
        )
    )


def test_tonk_score_rewards_pay_a_natural_on_the_first_deal() -> None:
    """The stakes the first deal settles count: a seat's return is still its final standing."""
    seed = _first_deal_natural(3, 2)
    env = aec_env("tonk", 3, options={"hands": 2}, rewards="score")
    env.reset(seed=seed)
    assert env.match is not None and any(env.match.game.view(None)["table"]["balances"])
    paid = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        paid[agent] += reward
        env.step(None if terminated or truncated else _first_legal(obs))
    balances = env.match.game.result.payouts  # type: ignore[union-attr]
    assert [paid[a] for a in env.possible_agents] == pytest.approx(list(balances))
    gym = gym_env("tonk", 3, seat=1, options={"hands": 2}, rewards="score")
    obs, _ = gym.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        obs, reward, terminated, truncated, info = gym.step(_first_legal(obs))
        total += reward
        done = terminated or truncated
    assert total == pytest.approx(info["result"]["payouts"][1])


def test_opponents_may_be_agent_objects() -> None:
    class Last:
        def choose(
            self, view: Mapping[str, Any], legal: Sequence[cardcore.Action]
        ) -> cardcore.Action:
            assert "table" in view  # agents get the seat's view
            return legal[-1]

    env = gym_env("golf", 2, seat=1, opponents=Last(), options={"rounds": 1})
    _obs, _ = env.reset(seed=3)
    game = env.runner.match.game  # type: ignore[union-attr]
    assert (
        game.record_entries()[0][1]
        == cardcore.new_game("golf", 2, options={"rounds": 1}, seed=3).legal_actions(0)[-1]
    )


# -- batched ----------------------------------------------------------------------------------


def test_vector_env_steps_many_games_and_resets_finished_ones_in_the_same_step() -> None:
    envs = vector_env("golf", 8, 2, opponents="random", options={"rounds": 1})
    obs, infos = envs.reset(seed=9)
    size = envs.single_observation_space["observation"].shape[0]
    assert obs["observation"].shape == (8, size) and obs["action_mask"].shape == (8, 22)
    assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
    assert len({row.tobytes() for row in obs["observation"]}) > 1  # different deals
    finished = 0
    rng = np.random.default_rng(0)
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terminated, _truncated, infos = envs.step(actions)
        assert obs["action_mask"].any(axis=1).all()  # every row is a live game
        if terminated.any():
            finished += int(terminated.sum())
            assert infos["_final_obs"].tolist() == terminated.tolist()
            for i in np.flatnonzero(terminated):
                assert rewards[i] in (-1.0, 0.0, 1.0)
                assert not infos["final_obs"][i]["action_mask"].any()
        assert not rewards[~terminated].any()
    assert finished >= 8
    envs.close()


def test_vector_env_is_deterministic_for_a_seed() -> None:
    def run() -> list[float]:
        envs = vector_env("speed", 4, 2, opponents="random")
        obs, _ = envs.reset(seed=1)
        out: list[float] = []
        for _ in range(50):
            obs, rewards, *_ = envs.step(obs["action_mask"].argmax(axis=1))
            out += [float(obs["observation"].sum()), *rewards.tolist()]
        return out

    assert run() == run()


# -- real time ----------------------------------------------------------------------------------


class _Stacked(Config):
    """A configuration whose games are dealt from a stacked deck (top first) whatever the seed."""

    def __init__(self, deck: str, *args: Any, **kwargs: Any) -> None:
        self.deck = deck  # set first: Config's constructor starts a probe game
        super().__init__(*args, **kwargs)

    def start(self, seed: int) -> cardcore.Game:
        return cardcore.new_game(
            self.game,
            self.players,
            rules=self.rules,
            without=self.without,
            options=self.options,
            seed=seed,
            deck=self.deck,
        )


#: Speed, side piles of 5: 5S starts L, 9S starts R, then the side piles (AC..5C, 6C..10C),
#: then the hands alternately: seat 0 holds 6H..10H (it can play at once: 6H on L, 8H or 10H on R),
#: seat 1 holds 10S JS QS KS AS (10S on R, or stuck).
SPEED_PLAYS = "5S 9S AC 2C 3C 4C 5C 6C 7C 8C 9C 10C 6H 10S 7H JS 8H QS 9H KS 10H AS"


def test_real_time_decisions_at_one_moment_see_the_same_state_and_plans_wait_their_turn() -> None:
    config = _Stacked(SPEED_PLAYS, "speed", 2, reaction=[0.2, 1.0])
    match = Match(config, 3)
    assert match.pending == [0, 1]  # both seats decide at time 0
    version = match.game.version
    first = match.legal(0)[0]
    assert first.verb == "play"  # a play applies alone: seat 0 must decide again after it
    match.act(first, delay=0.2)
    assert match.game.version == version and match.seat == 1  # nothing applied yet
    match.act(match.legal(1)[-1], delay=1.0)
    assert match.now == pytest.approx(0.2)  # the faster plan came first
    assert match.game.record_entries()[0][1] == first
    assert match.seat == 0  # the seat that acted decides again; seat 1 keeps its plan
    assert match.plans[1] is not None and match.plans[1][0] == pytest.approx(1.0)


def test_a_faster_learner_wins_more_at_speed() -> None:
    def wins(reaction: float) -> float:
        env = gym_env("speed", 2, opponents="random", reaction=reaction)
        obs, _ = env.reset(seed=0)
        won = 0
        for _ in range(30):
            done = False
            while not done:
                obs, reward, terminated, truncated, _ = env.step(_first_legal(obs))
                done = terminated or truncated
            won += reward > 0
            obs, _ = env.reset()
        return won / 30

    assert wins(0.05) > wins(3.0)


def test_a_stalled_real_time_game_is_truncated() -> None:
    class Idle:
        def plan(
            self, view: Mapping[str, Any], legal: Sequence[cardcore.Action], now: float
        ) -> None:
            return None

    env = gym_env("speed", 2, opponents=Idle())
    obs, _ = env.reset(seed=1)
    done = False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(legal[-1]))  # "stuck" first
        done = terminated or truncated
    assert truncated and info["stalled"] and info["result"]["reason"] == "truncated"
    assert reward == 0.0


# -- rewards -------------------------------------------------------------------------------------


def test_win_rewards_are_zero_sum() -> None:
    assert win_rewards([0], 2) == [1.0, -1.0]
    assert win_rewards([1], 4) == [-1 / 3, 1.0, -1 / 3, -1 / 3]
    assert win_rewards([0, 2], 4) == [1.0, -1.0, 1.0, -1.0]
    assert win_rewards([], 3) == [0.0, 0.0, 0.0]
    assert win_rewards([0, 1], 2) == [0.0, 0.0]


# -- render --------------------------------------------------------------------------------------


def test_render_prints_the_view_of_the_seat_to_act(capsys: pytest.CaptureFixture[str]) -> None:
    env = aec_env("golf", 2, render_mode="human")
    env.reset(seed=1)
    out = capsys.readouterr().out
    assert "golf v0 · seat 0" in out and "grid.0 (6): ## ## ## ## ## ##" in out
    assert "legal: flip 0, flip 1" in out
    text = aec_env("tonk", 2, render_mode="ansi")
    text.reset(seed=1)
    shown = text.render()
    assert isinstance(shown, str) and "hand:" in shown
    with pytest.warns(UserWarning, match="render_mode"):
        assert aec_env("golf", 2).render() is None  # no render mode: nothing drawn


# -- bad input ------------------------------------------------------------------------------------


def test_unknown_game_rule_option_agent_seat_or_rewards_are_refused_clearly() -> None:
    with pytest.raises(UnknownPluginError, match="bridge"):
        aec_env("bridge")
    with pytest.raises(UnknownPluginError, match=r"golf\.nope"):
        aec_env("golf", rules=["golf.nope"])
    with pytest.raises(OptionError, match="no option 'lay'"):
        aec_env("golf", options={"lay": 6})
    with pytest.raises(OptionError, match="takes 2 to 3"):
        aec_env("tonk", 6)
    with pytest.raises(OptionError, match="rewards"):
        aec_env("golf", rewards="points")
    with pytest.raises(OptionError, match="no score reward"):
        aec_env("spit", rewards="score")
    with pytest.raises(UnknownPluginError, match="nobody"):
        gym_env("golf", opponents="nobody")
    with pytest.raises(CardcoreError, match="plays golf, not 'tonk'"):
        gym_env("tonk", opponents="golf-greedy")
    with pytest.raises(OptionError, match="seat"):
        gym_env("golf", 2, seat=2)
    with pytest.raises(OptionError, match="one opponent or 2"):
        gym_env("golf", 3, opponents=["random"] * 3)
    with pytest.raises(CardcoreError, match="plan"):
        gym_env("spit", opponents=object())
    with pytest.raises(OptionError, match="num_envs"):
        vector_env("golf", 0)
    with pytest.raises(OptionError, match="reaction"):
        aec_env("spit", reaction=-1)


def test_an_action_outside_the_mask_is_refused_naming_it_and_changes_nothing() -> None:
    env = aec_env("golf", 2)
    env.reset(seed=1)
    assert env.match is not None
    version = env.match.game.version
    with pytest.raises(
        IllegalActionError, match=r"action 0 \('draw'\) is not in player_0's action mask"
    ) as err:
        env.step(0)  # the setup flips come first
    assert "10 'flip 0'" in str(err.value) and err.value.rule_id == "CORE-LEGAL-1"
    with pytest.raises(IllegalActionError, match=r"outside the action space Discrete\(22\)"):
        env.step(22)
    with pytest.raises(IllegalActionError, match="needs an action index"):
        env.step("flip 0")
    with pytest.raises(IllegalActionError, match="needs an action index"):
        env.step(None)
    assert env.match.game.version == version
    env.step(np.int64(10))  # numpy integers are indices too
    assert env.match.game.version == version + 1

    gym = gym_env("golf", 2)
    _obs, _ = gym.reset(seed=1)
    with pytest.raises(IllegalActionError, match=r"action 1 \('take'\)"):
        gym.step(1)


def test_stepping_after_the_game_is_over_is_refused() -> None:
    env = aec_env("golf", 2, options={"rounds": 1})
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(0)
    env.reset(seed=3)
    rng = random.Random(0)
    while not env.match.game.is_over:  # type: ignore[union-attr]
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert all(env.terminations.values())
    with pytest.raises(IllegalActionError, match="step it with None"):
        env.step(4)
    while env.agents:
        env.step(None)
    with pytest.raises(IllegalActionError, match="the game is over and every agent is done"):
        env.step(None)


def test_a_truncated_game_truncates_every_agent_and_pays_nothing() -> None:
    env = aec_env("golf", 2, max_actions=10)
    env.reset(seed=1)
    rewards = []
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        rewards.append(reward)
        if terminated or truncated:
            assert truncated and not terminated and info["result"]["reason"] == "truncated"
            env.step(None)
        else:
            env.step(_first_legal(obs))
    assert env.match is not None and env.match.steps == 10 and not any(rewards)
