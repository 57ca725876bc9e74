"""A read review of ``cardcore.rl`` (encoding, seat, aec, match, vector, render), 2026-12-07.

Strict xfails are bugs found by reading the code (each names the line at fault); the
other tests pin claims of ``docs/rl.rst`` and the docstrings that held.
"""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

import cardcore
from cardcore import IllegalActionError, OptionError, PluginError
from cardcore.rl import aec_env, gym_env, vector_env, win_rewards

GOLF1 = {"rounds": 1}


def _first(obs: Mapping[str, Any]) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


def _tonk_seed_whose_deal_is_skipped() -> int:
    """The first reset seed of two-seat Tonk whose own deal ends the game (a natural)."""
    env = aec_env("tonk", 2)
    for seed in range(3000):
        env.reset(seed=seed)
        if env.infos["player_0"].get("skipped"):
            return seed
    pytest.fail("no deal of seeds 0..2999 ended two-seat Tonk at once")


# -- findings ----------------------------------------------------------------------------------


def test_an_agents_info_does_not_let_it_rebuild_the_game_it_plays() -> None:
    """design.md: records and spectator data hold the seed and are privileged, never sent to a
    player; the brief: hidden information is never in an info dict. After reset(seed=s) whose
    deal of seed s ends at once (a Tonk natural), infos[agent]["skipped"] holds {"seed": s}
    for every agent, and the game played is seed random.Random(s).getrandbits(63) (Seeds.next):
    player_1 deals it again with new_game and reads player_0's hand and the stock."""
    env = aec_env("tonk", 2)
    env.reset(seed=_tonk_seed_whose_deal_is_skipped())
    game = env.match.game
    hand_of_0 = game.view(0)["table"]["hand"]
    info = env.infos["player_1"]  # what player_1 is given
    leaked = [g["seed"] for g in info.get("skipped", ()) if isinstance(g, Mapping) and "seed" in g]
    rebuilt = [cardcore.new_game("tonk", 2, seed=random.Random(s).getrandbits(63)) for s in leaked]
    assert not any(twin.view(0)["table"]["hand"] == hand_of_0 for twin in rebuilt), (
        f"player_1 read player_0's hand {hand_of_0} from the seed in its own info"
    )


class _ShortProgress:
    """A Golf encoding whose progress answers one standing for a two-seat game."""

    @staticmethod
    def make(base: type) -> type:
        class Short(base):  # type: ignore[misc]
            def progress(self, view: Mapping[str, Any]) -> Sequence[float] | None:
                standing = super().progress(view)
                return None if standing is None else list(standing)[:1]

        return Short


def test_an_encodings_progress_for_the_wrong_number_of_seats_is_a_plugin_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Config._payouts names a stakes game whose payouts are not one per seat with a
    PluginError; an encoding's progress answering one standing for two seats reaches the
    caller of reset() as 'ValueError: zip() argument 2 is shorter than argument 1'."""
    from cardcore_golf.encoding import GolfEncoding
    from cardcore_golf.logic import GolfLogic

    monkeypatch.setattr(GolfLogic, "rl_encoding", _ShortProgress.make(GolfEncoding))
    env = aec_env("golf", 2, options=GOLF1, rewards="score")
    with pytest.raises(PluginError):
        env.reset(seed=1)


def test_an_encoding_answering_a_plane_position_past_its_planes_is_a_plugin_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Observer.__init__ refuses an encoding whose names do not match its actions with a
    PluginError naming it; an observe() answering a position outside its count block is a
    raw numpy ValueError at the first observation."""
    from cardcore_golf.encoding import GolfEncoding
    from cardcore_golf.logic import GolfLogic

    class PastPlanes(GolfEncoding):
        def observe(self, view: Mapping[str, Any]) -> tuple[Sequence[int], Sequence[float]]:
            hot, scalars = super().observe(view)
            return [*hot, self.planes], scalars

    monkeypatch.setattr(GolfLogic, "rl_encoding", PastPlanes)
    env = aec_env("golf", 2, options=GOLF1)
    env.reset(seed=1)
    with pytest.raises(PluginError):
        env.last()  # the first observation


def test_an_encoding_answering_an_index_outside_its_action_space_is_a_plugin_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardcore_golf.encoding import GolfEncoding
    from cardcore_golf.logic import GolfLogic

    class PastSpace(GolfEncoding):
        def action_indices(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Sequence[int]:
            return [self.actions + i for i in range(len(legal))]

    monkeypatch.setattr(GolfLogic, "rl_encoding", PastSpace)
    env = aec_env("golf", 2, options=GOLF1)
    env.reset(seed=1)
    with pytest.raises(PluginError):
        env.last()  # the first observation and mask


# -- claims that held --------------------------------------------------------------------------


def test_numpy_integer_actions_play_and_other_non_indices_are_refused_changing_nothing() -> None:
    """rl.rst: step takes numpy integer actions; a float, a bool, text or an index outside
    the space is an IllegalActionError naming it (CORE-LEGAL-1), and a refusal changes nothing."""
    env = aec_env("golf", 2, options=GOLF1)
    env.reset(seed=7)
    env.step(np.int64(10))  # flip 0
    assert env.match.game.version == 1
    version, selected = env.match.game.version, env.agent_selection
    for bad in (np.float64(11.0), 11.0, True, np.bool_(True), "11", -1, 22, None):
        with pytest.raises(IllegalActionError) as err:
            env.step(bad)
        assert err.value.rule_id == "CORE-LEGAL-1"
        assert (env.match.game.version, env.agent_selection) == (version, selected)
    with pytest.raises(IllegalActionError, match=r"outside the action space Discrete\(22\)"):
        env.step(22)
    with pytest.raises(IllegalActionError, match=r"action 0 \('draw'\) is not in player_0's"):
        env.step(0)


def test_reset_plays_the_seed_and_later_resets_draw_from_the_stream_it_started() -> None:
    """rl.rst: reset(seed=s) plays the game of seed s, later resets without a seed draw from a
    stream seeded by s (so two environments give the same games)."""
    seeds = []
    for _ in range(2):
        env = aec_env("golf", 2, options=GOLF1)
        env.reset(seed=5)
        got = [env.match.game.seed]
        for _ in range(3):
            env.reset()
            got.append(env.match.game.seed)
        seeds.append(got)
    assert seeds[0] == seeds[1] and seeds[0][0] == 5 and len(set(seeds[0])) == 4


def test_bad_reset_seeds_and_options_are_option_errors_that_change_nothing() -> None:
    env = aec_env("golf", 2, options=GOLF1)
    env.reset(seed=3)
    env.step(_first(env.last()[0]))
    match, version = env.match, env.match.game.version
    for seed in (True, -1, 1.0, np.int64(1), "1", 2**128):
        with pytest.raises(OptionError, match="seed"):
            env.reset(seed=seed)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match=r"options=\{\.\.\.\}"):
        env.reset(seed=1, options={"rounds": 2})
    assert env.match is match and env.match.game.version == version
    env.reset(seed=1, options={"options": 1})  # PettingZoo's api_test: taken, unused
    assert env.match.game.seed == 1


def test_finished_agents_step_none_and_a_game_with_every_agent_out_is_refused() -> None:
    env = aec_env("golf", 2, options=GOLF1, max_actions=3)
    env.reset(seed=2)
    for _ in range(3):
        env.step(_first(env.last()[0]))
    _, reward, terminated, truncated, info = env.last()
    assert (reward, terminated, truncated) == (0.0, False, True)  # cut off by max_actions
    assert info["result"]["reason"] == "truncated" and info["stalled"] is False
    with pytest.raises(IllegalActionError, match="step it with None"):
        env.step(0)
    env.step(None)
    env.step(None)
    assert env.agents == []
    with pytest.raises(IllegalActionError, match="call reset"):
        env.step(None)
    with pytest.raises(IllegalActionError, match="call reset"):
        env.last()


def test_wait_changes_neither_the_game_nor_the_observations() -> None:
    """rl.rst: the same seeds and decisions give the same game with or without wait=True, and
    every seat's observation is the same (the mask has the one index more)."""
    traces = []
    for wait in (False, True):
        env = aec_env("spit", 2, wait=wait, reaction=[0.5, 0.6])
        env.reset(seed=3)
        rng = random.Random(1)
        trace = []
        for agent in env.agent_iter(150):
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = obs["action_mask"][:-1] if wait else obs["action_mask"]
            legal = np.flatnonzero(mask)
            action = int(legal[rng.randrange(len(legal))])
            trace.append((agent, action, obs["observation"].tobytes()))
            env.step(action)
        traces.append((trace, env.match.game.version))
    assert traces[0] == traces[1]


def test_a_batch_with_one_bad_action_moves_no_game() -> None:
    envs = vector_env("golf", 3, options=GOLF1)
    obs, _ = envs.reset(seed=4)
    before = [r._live().game.version for r in envs.runners]
    actions = [_first({"action_mask": m}) for m in obs["action_mask"]]
    with pytest.raises(IllegalActionError, match=r"^game 2 of 3: "):
        envs.step([*actions[:2], 0])  # "draw" during the setup flips
    with pytest.raises(IllegalActionError, match="one action index per game"):
        envs.step(actions[:2])
    with pytest.raises(IllegalActionError):
        envs.step(np.array(actions, dtype=np.float64))
    assert [r._live().game.version for r in envs.runners] == before


def test_a_batched_game_that_ends_is_dealt_again_in_the_same_step() -> None:
    """rl.rst: AutoresetMode.SAME_STEP; the last observation in infos["final_obs"], the info
    ({"result", "stalled"}) in infos["final_info"], object arrays masked by "_final_obs" and
    "_final_info", present only in a step where a game ended."""
    envs = vector_env("golf", 2, options=GOLF1)
    obs, _ = envs.reset(seed=6)
    rng = random.Random(0)
    for _ in range(300):
        actions = [int(rng.choice(list(np.flatnonzero(m)))) for m in obs["action_mask"]]
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        ended = terminated | truncated
        if not ended.any():
            assert "final_obs" not in infos and "final_info" not in infos
            continue
        assert set(infos) >= {"final_obs", "_final_obs", "final_info", "_final_info"}
        for i in range(2):
            if ended[i]:
                assert infos["_final_obs"][i] and infos["_final_info"][i]
                assert infos["final_obs"][i]["action_mask"].sum() == 0  # the old game's end
                assert obs["action_mask"][i].sum() > 0  # the new game's first decision
                assert set(infos["final_info"][i]) == {"result", "stalled"}
                json.dumps(infos["final_info"][i])  # JSON-ready data, not a Result
                assert rewards[i] in (-1.0, 1.0, 0.0)
            else:
                assert infos["final_obs"][i] is None and not infos["_final_obs"][i]
        return
    pytest.fail("no game ended in 300 steps")


def test_the_single_seat_env_refuses_a_step_after_the_game_is_over() -> None:
    env = gym_env("golf", 2, opponents="random", options=GOLF1, max_actions=4)
    obs, _ = env.reset(seed=1)
    terminated = truncated = False
    while not (terminated or truncated):
        obs, _, terminated, truncated, info = env.step(_first(obs))
    assert truncated and info["result"]["reason"] == "truncated"
    assert not obs["action_mask"].any()
    with pytest.raises(IllegalActionError, match="call reset"):
        env.step(0)


def test_win_rewards_follow_the_documented_formula() -> None:
    assert win_rewards([0], 2) == [1.0, -1.0]
    assert win_rewards([1], 4) == [-1 / 3, 1.0, -1 / 3, -1 / 3]
    assert win_rewards([0, 2], 4) == [1.0, -1.0, 1.0, -1.0]
    assert win_rewards([], 3) == [0.0, 0.0, 0.0]
    assert win_rewards([0, 1], 2) == [0.0, 0.0]
    assert win_rewards([0], 1) == [1.0] and win_rewards([], 1) == [0.0]


def test_pettingzoo_api_test_passes_quickly_for_golf_and_speed() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env("golf", 2, options=GOLF1), num_cycles=100)
        api_test(aec_env("speed", 2), num_cycles=100)


def test_no_info_of_any_environment_holds_a_skipped_deals_seed() -> None:
    """The fix of the first finding, everywhere: the single-seat, batched and AEC environments
    list a skipped deal without its seed; the host reads the seeds where no agent looks."""
    seed = _tonk_seed_whose_deal_is_skipped()
    single = gym_env("tonk", 2)
    _, info = single.reset(seed=seed)
    assert [set(g) for g in info["skipped"]] == [{"actions", "reward", "result"}]
    assert [g["seed"] for g in single.runner.skipped] == [seed]
    batch = vector_env("tonk", 2, 2)
    _, infos = batch.reset(seed=[seed, seed + 1])
    assert infos["_skipped"].tolist()[0] is True
    assert all("seed" not in g for games in infos["skipped"] if games for g in games)
    assert batch.runners[0].skipped[0]["seed"] == seed
    env = aec_env("tonk", 2)
    env.reset(seed=seed)
    assert env.skipped_seeds == [seed]
    assert all("seed" not in g for i in env.infos.values() for g in i.get("skipped", ()))
    dealt = next(
        s for s in range(seed + 1, seed + 500) if not cardcore.new_game("tonk", 2, seed=s).is_over
    )
    env.reset(seed=dealt)  # a deal that is played: the last reset's list is empty again
    assert env.skipped_seeds == []
