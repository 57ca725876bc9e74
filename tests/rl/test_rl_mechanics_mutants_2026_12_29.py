"""Mutation audit of the reinforcement-learning environments' mechanics (2026-12-29).

The audit of 2026-12-26 (``test_rl_mutants_2026_12_26.py``) covered the observation
layouts; this one made small hand mutants of ``src/cardcore/rl/aec.py``, ``match.py``,
``seat.py``, ``vector.py`` and ``src/cardcore/info.py`` (a flipped comparison, a dropped
check, a skipped seed derivation, a field reset in the wrong place, a reused buffer ...).
Most tests here fail on a mutant that no earlier test caught (the others pin more directly
what only a distant or statistical test caught), and all pass on the code as it is. The
strict xfails describe real bugs found on the way.

Fixtures are fixed seeds whose deals were looked at once: Tonk's three-seat deal of seed
30 is a natural (the game ends at the deal, so every environment deals again), as is the
deal after seed 185 in its stream; Spit's seeds 2 and 10 give seat 0 different first
decisions.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import Action, IllegalActionError, Option, OptionError
from cardcore.game import MAX_TIME
from cardcore.rl import Config, Match, aec_env, gym_env, vector_env, win_rewards
from cardcore.rl.render import view_text


def _first_legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


# -- skipped deals: every seat's own reward, reported once ------------------------------------


def test_the_aec_env_reports_each_agent_its_own_reward_of_a_skipped_deal() -> None:
    """A deal that ends the game at once is skipped; each agent's info names its own reward."""
    natural = cardcore.new_game("tonk", 3, seed=30)
    assert natural.is_over and natural.result is not None  # the fixture: a natural
    owed = win_rewards(natural.result.winners, 3)
    assert len(set(owed)) == 2  # the winner's and the losers' differ
    env = aec_env("tonk", 3)
    env.reset(seed=30)
    for seat, agent in enumerate(env.possible_agents):
        (game,) = env.infos[agent]["skipped"]
        assert env.skipped_seeds == [30] and game["actions"] == 0 and "seed" not in game
        assert game["reward"] == owed[seat], agent
        assert game["result"] == natural.result.to_json()
    # the rewards of the skipped game are not paid again as the new game's rewards
    assert all(env._cumulative_rewards[a] == 0.0 for a in env.agents)


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_skipped_deals_reward_is_reported_in_the_info_and_not_added_to_the_next_game(
    seat: int,
) -> None:
    natural = cardcore.new_game("tonk", 3, seed=30)
    assert natural.result is not None
    owed = win_rewards(natural.result.winners, 3)[seat]
    env = gym_env("tonk", 3, seat=seat)
    obs, info = env.reset(seed=30)
    assert env.runner.skipped[0]["seed"] == 30 and info["skipped"][0]["reward"] == owed
    total = 0.0
    for _ in range(500):  # win rewards: paid once, at the end, from this game's result only
        obs, reward, terminated, truncated, info = env.step(_first_legal(obs["action_mask"]))
        total += reward
        if terminated or truncated:
            break
    assert terminated or truncated
    result = info["result"]
    expected = 0.0 if truncated else win_rewards(result["winners"], 3)[seat]
    assert total == expected


# -- seeding -----------------------------------------------------------------------------------


def test_a_matchs_reaction_delays_and_tie_draws_come_from_its_own_seed() -> None:
    config = Config("speed", 2)
    same = [Match(config, 1).delay(0) for _ in range(2)]
    assert same[0] == same[1]
    assert len({Match(config, s).delay(0) for s in (1, 2, 3)}) == 3


def test_the_gym_envs_np_random_is_seeded_by_reset() -> None:
    """Gymnasium's convention: ``reset(seed=s)`` seeds ``env.np_random`` (exploration noise)."""
    draws = []
    for _ in range(2):
        env = gym_env("golf", 2, options={"rounds": 1})
        env.reset(seed=11)
        draws.append(env.np_random.integers(2**62))
    assert draws[0] == draws[1]


def test_the_batched_envs_np_random_is_seeded_by_reset() -> None:
    draws = []
    for _ in range(2):
        envs = vector_env("golf", 2, options={"rounds": 1})
        envs.reset(seed=11)
        draws.append(envs.np_random.integers(2**62))
    assert draws[0] == draws[1]


def test_a_batch_reset_with_one_bad_seed_in_its_list_changes_no_game() -> None:
    envs = vector_env("golf", 3, options={"rounds": 1})
    envs.reset(seed=[1, 2, 3])
    before = [r.match for r in envs.runners]
    seeds = [r.match.game.seed for r in envs.runners]  # type: ignore[union-attr]
    for bad in ("4", -1, np.int64(4), 2.0):
        with pytest.raises(OptionError, match="seed must be"):
            envs.reset(seed=[5, 6, bad])
        assert [r.match for r in envs.runners] == before
        assert [r.match.game.seed for r in envs.runners] == seeds  # type: ignore[union-attr]


# -- the AEC environment's cached legal actions ------------------------------------------------


def test_a_new_games_first_decision_is_not_judged_by_the_last_games_cached_mask() -> None:
    """reset() forgets the legal actions cached for the last game at the same version and seat."""
    env = aec_env("spit", 2)
    env.reset(seed=2)
    old = set(np.flatnonzero(env.observe("player_0")["action_mask"]).tolist())
    env.reset(seed=10)
    assert env.agent_selection == "player_0"
    new = set(np.flatnonzero(env.observe("player_0")["action_mask"]).tolist())
    only_new = sorted(new - old)
    assert only_new  # the fixture: a decision of seed 10 that seed 2 did not offer
    env.reset(seed=2)
    env.observe("player_0")  # caches seed 2's choices at version 0 for seat 0
    env.reset(seed=10)
    env.step(only_new[0])  # no observe in between: still legal in this game
    plan = env.match.plans[0]  # seat 1 has yet to decide: the plan waits
    assert plan is not None and str(plan[1]) == env.config.observer.names[only_new[0]]


# -- real time: a decision of the Match API ---------------------------------------------------


def _spit_action_not_legal_for_seat_0_of_seed_2() -> Action:
    here = {str(a) for a in Match(Config("spit", 2), 2).legal(0)}
    other = Match(Config("spit", 2), 10)
    return next(a for a in other.legal(0) if str(a) not in here)


def test_a_plan_of_an_action_that_is_not_legal_now_is_refused_at_once_and_changes_nothing() -> None:
    match = Match(Config("spit", 2), 2)
    assert match.seat == 0 and match.pending == [0, 1]
    action = _spit_action_not_legal_for_seat_0_of_seed_2()
    before = (match.pending[:], match.plans[:], match.now, match.game.version)
    with pytest.raises(IllegalActionError, match=r"seat 0's plan .* was refused"):
        match.act(action, delay=1000.0)  # however late it would be due
    assert (match.pending, match.plans, match.now, match.game.version) == before


def test_a_negative_plan_delay_is_read_as_no_delay_and_time_never_runs_back() -> None:
    match = Match(Config("speed", 2), 3)
    assert match.pending == [0, 1]
    match.act(match.legal(0)[0], delay=-5.0)
    match.act(match.legal(match.seat)[0], delay=1.0)
    times = [entry[2] for entry in match.game.record_entries()]
    assert times and min(times) == 0.0
    assert match.now >= 0.0


# -- the batched environment's arrays ----------------------------------------------------------


def test_batched_rewards_and_flags_are_new_arrays_each_step_even_without_copies() -> None:
    envs = vector_env("golf", 2, options={"rounds": 1}, copy=False)
    obs, _ = envs.reset(seed=1)
    out1 = envs.step([_first_legal(m) for m in obs["action_mask"]])
    out2 = envs.step([_first_legal(m) for m in out1[0]["action_mask"]])
    assert out1[0]["observation"] is out2[0]["observation"]  # copy=False: the same buffer
    for i in (1, 2, 3):  # rewards, terminated, truncated: documented as new arrays either way
        assert out1[i] is not out2[i]


# -- options: a value of an int subclass is taken as the plain int -----------------------------


class _Loud(int):
    """An int whose own comparisons and text fail: a checker must read its value only."""

    def _fail(self, *args: Any) -> Any:
        raise RuntimeError("an int subclass's own method was called")

    __lt__ = __le__ = __gt__ = __ge__ = __str__ = __format__ = _fail


def test_an_int_option_given_an_int_subclass_keeps_its_plain_value() -> None:
    option = Option("n", 1, minimum=0, maximum=9)
    got = option.check(_Loud(3))
    assert type(got) is int and got == 3
    with pytest.raises(OptionError, match="at most 9"):
        option.check(_Loud(12))
    env = aec_env("golf", 2, options={"rounds": _Loud(1)})
    env.reset(seed=1)
    assert type(env.match.game.options["rounds"]) is int


# -- bugs --------------------------------------------------------------------------------------


class _Unreadable(Mapping[str, Any]):
    """A mapping of the caller's own whose reading fails."""

    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("unreadable")

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("unreadable")

    def __len__(self) -> int:
        return 1


def test_new_game_refuses_an_unreadable_options_mapping_with_an_option_error() -> None:
    with pytest.raises(OptionError, match="reading it failed"):
        cardcore.new_game("golf", 2, options=_Unreadable())


@pytest.mark.parametrize("builder", ["aec_env", "gym_env", "vector_env"])
def test_the_env_builders_refuse_an_unreadable_options_mapping_as_new_game_does(
    builder: str,
) -> None:
    build = {
        "aec_env": lambda **kw: aec_env("golf", 2, **kw),
        "gym_env": lambda **kw: gym_env("golf", 2, **kw),
        "vector_env": lambda **kw: vector_env("golf", 2, 2, **kw),
    }[builder]
    with pytest.raises(OptionError, match="options"):
        build(options=_Unreadable())


# -- PettingZoo semantics: every agent's return, termination and exit exactly once ------------


@pytest.mark.parametrize(
    ("game", "players", "options", "rewards"),
    [
        ("golf", 3, {"rounds": 2}, "score"),
        ("tonk", 3, {"hands": 3}, "win"),
        ("tonk", 3, {"hands": 3}, "score"),
        ("spit", 2, {}, "win"),
        ("speed", 2, {}, "win"),
    ],
    ids=["golf-score", "tonk-win", "tonk-score", "spit", "speed"],
)
def test_every_agent_gets_its_return_its_end_and_its_exit_exactly_once(
    game: str, players: int, options: dict[str, Any], rewards: str
) -> None:
    env = aec_env(game, players, options=options, rewards=rewards)
    env.reset(seed=5)
    rng = random.Random(7)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    ends: dict[str, int] = dict.fromkeys(env.possible_agents, 0)
    exits: list[str] = []
    for agent in env.agent_iter(50_000):
        obs, reward, terminated, truncated, info = env.last()
        returns[agent] += reward
        if terminated or truncated:
            ends[agent] += 1
            assert info["result"] == env.match.game.result.to_json()  # type: ignore[union-attr]
            exits.append(agent)
            env.step(None)
        else:
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert sorted(exits) == env.possible_agents and set(ends.values()) == {1}
    assert env.agents == []
    match = env.match
    result = match.game.result
    assert result is not None and not match.truncated  # the fixture: ended by the rules
    assert any(returns.values())
    if rewards == "win":
        winners = () if match.truncated else result.winners
        assert [returns[a] for a in env.possible_agents] == win_rewards(winners, players)
    else:  # the standing: the game's own final scores in the encoding's units
        final = env.config.progress(match.game)
        assert final is not None
        assert [returns[a] for a in env.possible_agents] == pytest.approx(list(final))


def _play_spit(env: Any, seed: int, steps: int) -> list[dict[str, Any]]:
    """*steps* seeded random decisions; the info of the agent selected after each."""
    rng = random.Random(seed)
    seen = []
    for _ in range(steps):
        obs = env.observe(env.agent_selection)
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        seen.append({"agent": env.agent_selection, **env.infos[env.agent_selection]})
    return seen


def test_a_reset_mid_game_forgets_which_agents_were_to_be_told_their_plan_was_dropped() -> None:
    dirty = aec_env("spit", 2)
    dirty.reset(seed=3)
    _play_spit(dirty, 1, 10)
    assert dirty._stale  # the fixture: a dropped plan not yet told to its agent
    fresh = aec_env("spit", 2)
    for env in (dirty, fresh):
        env.reset(seed=4)
    assert _play_spit(dirty, 2, 40) == _play_spit(fresh, 2, 40)


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_stale_is_said_once_to_the_decision_after_the_agents_plan_was_dropped(game: str) -> None:
    """``infos[agent]["stale"]`` is there when the selected agent's plan was dropped since its
    last decision, and only then (said once, to the decision it concerns)."""
    env = aec_env(game, 2)
    env.reset(seed=3)
    rng = random.Random(1)
    last_seen = dict.fromkeys(env.possible_agents, 0)
    told = 0
    for agent in env.agent_iter(3000):
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        dropped = env.match.dropped[env.possible_agents.index(agent)]
        assert ("stale" in info) == (dropped != last_seen[agent]), (agent, dropped, info)
        told += "stale" in info
        last_seen[agent] = dropped
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert told >= 2  # the fixture: plans were dropped and told


def test_a_games_declared_option_is_found_by_name() -> None:
    info = cardcore.game_info("golf")
    assert info.option("rounds").name == "rounds"


def test_asking_a_game_for_an_option_it_does_not_declare_is_an_option_error() -> None:
    with pytest.raises(OptionError, match="golf"):
        cardcore.game_info("golf").option("nope")


def test_each_agents_final_info_is_its_own_dict() -> None:
    """A learner that edits its agent's info (pops a key) leaves the other agents' alone."""
    env = aec_env("golf", 2, options={"rounds": 1}, max_actions=3)
    env.reset(seed=1)
    for _ in range(3):
        env.step(_first_legal(env.observe(env.agent_selection)["action_mask"]))
    assert all(env.truncations.values())
    first, second = env.possible_agents
    assert env.infos[first] == env.infos[second] and "result" in env.infos[second]
    env.infos[first].pop("result")
    assert "result" in env.infos[second]


def test_human_render_prints_the_next_agents_view_after_every_step(
    capsys: pytest.CaptureFixture[str],
) -> None:
    env = aec_env("golf", 2, options={"rounds": 1}, render_mode="human")
    env.reset(seed=7)
    capsys.readouterr()
    for _ in range(3):
        env.step(_first_legal(env.observe(env.agent_selection)["action_mask"]))
        seat = env.possible_agents.index(env.agent_selection)
        assert capsys.readouterr().out == view_text(env.match.game.view(seat)) + "\n"


def test_a_reaction_of_zero_seconds_is_taken_and_plans_are_due_at_once() -> None:
    config = Config("speed", 2, reaction=0)
    assert config.reaction == [0.0, 0.0]
    match = Match(config, 3)
    assert match.delay(0) == 0.0
    env = gym_env("speed", 2, reaction=[0, 0.5])
    env.reset(seed=3)


# -- the batched environment's autoreset -------------------------------------------------------


def _tonk_batch_step() -> tuple[dict[str, Any], dict[str, Any]]:
    """Two three-seat Tonk games (seeds 108 and 185) after one step that ends both: game 1's
    stream then deals a natural (seed 7803544217320755838), which is skipped."""
    envs = vector_env("tonk", 2, 3)
    obs, _ = envs.reset(seed=[108, 185])
    obs, _, terminated, truncated, infos = envs.step([_first_legal(m) for m in obs["action_mask"]])
    assert terminated.all() and not truncated.any()  # the fixture
    return obs, infos


def test_a_game_dealt_again_in_a_step_reports_the_deals_it_skipped() -> None:
    _, infos = _tonk_batch_step()
    assert infos["_skipped"].tolist() == [False, True] and infos["skipped"][0] is None
    natural = infos["skipped"][1][0]
    assert "seed" not in natural and natural["actions"] == 0  # the seed is privileged
    assert natural["reward"] == win_rewards(natural["result"]["winners"], 3)[0]


def test_final_obs_keeps_the_old_games_empty_mask_not_the_new_games() -> None:
    obs, infos = _tonk_batch_step()
    for i in (0, 1):
        final = infos["final_obs"][i]
        assert not final["action_mask"].any()  # the game is over: nothing is legal
        assert obs["action_mask"][i].any()  # the new game's first decision
        assert not np.array_equal(final["observation"], obs["observation"][i])


# -- opponents -----------------------------------------------------------------------------


def test_an_opponent_spec_that_sets_its_seed_plays_with_that_seed_in_every_game() -> None:
    """``"random:seed=3"``: every game's agent is seeded 3 (the game's seed is not used)."""

    def observations(opponent: Any, seed: int) -> list[bytes]:
        env = gym_env("golf", 2, opponents=opponent, options={"rounds": 1})
        obs, _ = env.reset(seed=seed)
        seen = [obs["observation"].tobytes()]
        for _ in range(30):
            obs, _, terminated, truncated, _ = env.step(_first_legal(obs["action_mask"]))
            seen.append(obs["observation"].tobytes())
            if terminated or truncated:
                break
        return seen

    for seed in (1, 2):
        spec = observations("random:seed=3", seed)
        assert spec == observations(cardcore.load_agent("random", seed=3), seed)
        assert spec != observations("random", seed)  # the game's own agent seed differs


class _FailsAfter:
    """An opponent that plays its first legal action *ok* times, then raises."""

    def __init__(self, ok: int) -> None:
        self.calls = 0
        self.ok = ok

    def choose(self, view: Any, legal: Any) -> Any:
        self.calls += 1
        if self.calls > self.ok:
            raise RuntimeError("the opponent broke")
        return legal[0]


def _opponent_calls_before_seat_1_decides(seed: int) -> int:
    counter = _FailsAfter(10**9)
    gym_env("golf", 2, seat=1, opponents=counter, options={"rounds": 1}).reset(seed=seed)
    return counter.calls


def test_a_batched_step_names_the_game_whose_opponent_failed() -> None:
    envs = vector_env("golf", 2, seat=1, opponents=_FailsAfter(10**9), options={"rounds": 1})
    obs, _ = envs.reset(seed=[1, 2])
    opponent = _FailsAfter(0)
    for runner in envs.runners:
        runner.agents[0] = opponent
        runner.specs[0] = opponent
    with pytest.raises(
        cardcore.CardcoreError, match=r"^game 0 of 2: .*the opponent broke.*\[game 0 had moved"
    ):
        for _ in range(10):  # until seat 0 is asked again
            obs = envs.step([_first_legal(m) for m in obs["action_mask"]])[0]


def test_a_batched_reset_names_the_game_whose_opponent_failed() -> None:
    ok = _opponent_calls_before_seat_1_decides(1)  # game 0's opponent decisions
    assert ok > 0  # the fixture: in Golf's setup, seat 0 acts before seat 1
    envs = vector_env("golf", 2, seat=1, opponents=_FailsAfter(ok), options={"rounds": 1})
    with pytest.raises(cardcore.CardcoreError, match=r"game 1 of 2"):
        envs.reset(seed=[1, 2])


def test_a_plan_due_past_max_time_is_refused_and_changes_nothing() -> None:
    match = Match(Config("speed", 2), 3)
    action = match.legal(0)[0]
    before = (match.pending[:], match.plans[:], match.now, match.game.version)
    with pytest.raises(cardcore.ArgumentError, match="CORE-RECORD-1"):
        match.act(action, delay=2 * MAX_TIME)
    assert (match.pending, match.plans, match.now, match.game.version) == before
    match.act(action, delay=1.0)  # the same decision, in time, is taken
    assert match.pending == [1]


@pytest.mark.parametrize("seat", [True, False, np.True_])
def test_a_bool_is_no_learner_seat(seat: Any) -> None:
    with pytest.raises(OptionError, match="seat must be a seat"):
        gym_env("golf", 2, seat=seat, options={"rounds": 1})
    with pytest.raises(OptionError, match="seat must be a seat"):
        vector_env("golf", 2, seat=seat, options={"rounds": 1})
