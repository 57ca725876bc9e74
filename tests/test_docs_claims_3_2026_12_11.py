"""Claims of docs/rl.rst, docs/notation.rst and docs/core-rules.rst checked against the code.

Review of 11 December 2026 (third pass). Each test names the page and the promise it
checks; a promise that does not hold is a strict xfail asserting what the page says,
whose reason says what happens instead.
"""

from __future__ import annotations

import copy
import pickle
import re
from typing import Any

import pytest

from tests.rl.helpers import only_dict_observation_warnings

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import cardcore  # noqa: E402
from cardcore import (  # noqa: E402
    HOST,
    ArgumentError,
    Card,
    CardcoreError,
    IllegalActionError,
    NotationError,
    OptionError,
    SeatError,
    StaleActionError,
    UnknownPluginError,
    parse_cards,
)
from cardcore.rl import (  # noqa: E402
    MAX_REACTION,
    aec_env,
    encoding_for,
    gym_env,
    observe,
    vector_env,
    win_rewards,
)

pytestmark = pytest.mark.filterwarnings("ignore")

GOLF1 = {"rounds": 1}


def first_legal(mask: Any) -> int:
    return int(np.flatnonzero(mask)[0])


def golf_aec() -> Any:
    env = aec_env("golf", 2, options=GOLF1)
    env.reset(seed=7)
    return env


# --------------------------------------------------------------------------- rl.rst: spaces


def test_rl_golf_spaces_shapes_dtypes_and_mask_names() -> None:
    env = golf_aec()
    obs, *_ = env.last()
    assert obs["observation"].shape == (253,) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (22,) and obs["action_mask"].dtype == np.int8
    names = [env.config.observer.names[i] for i in obs["action_mask"].nonzero()[0]]
    assert names == [f"flip {p}" for p in range(6)]
    assert env.action_space("player_0").n == 22
    assert env.observation_space("player_1")["observation"].shape == (253,)


@pytest.mark.parametrize(
    ("game", "options", "count"),
    [
        ("golf", {"layout": 4}, 4 + 3 * 4),
        ("golf", {"layout": 6}, 4 + 3 * 6),
        ("golf", {"layout": 8}, 4 + 3 * 8),
        ("golf", {"layout": 9}, 4 + 3 * 9),
        ("golf", {"layout": 10}, 4 + 3 * 10),
        ("tonk", None, 1157),
        ("spit", None, 64),
        ("speed", None, 107),
    ],
)
def test_rl_action_space_sizes_of_the_table(game: str, options: Any, count: int) -> None:
    env = aec_env(game, 2, options=options)
    names = env.config.observer.names
    assert len(names) == count == env.action_space("player_0").n
    assert len(set(names)) == count  # every index has its own name


def test_rl_golf_enumeration_order_and_tonk_spreads() -> None:
    names = aec_env("golf", 2).config.observer.names
    assert list(names[:4]) == ["draw", "take", "discard", "knock"]
    assert list(names[4:10]) == [f"replace {p}" for p in range(6)]
    assert list(names[10:16]) == [f"flip {p}" for p in range(6)]
    assert list(names[16:22]) == [f"peek {p}" for p in range(6)]
    tonk = aec_env("tonk", 2).config.observer.names
    assert list(tonk[:4]) == ["drop", "draw", "take", "deal"]
    assert sum(n.startswith("discard ") for n in tonk) == 52
    assert sum(n.startswith("hit ") for n in tonk) == 17 * 52
    assert sum(n.startswith("spread ") for n in tonk) == 65 + 152


def test_rl_spit_chooser_uses_the_slap_indices() -> None:
    plain = aec_env("spit", 2).config.observer.names
    chooser = aec_env("spit", 2, rules=["spit.chooser"]).config.observer.names
    assert plain.index("slap L") == chooser.index("choose L")
    assert plain.index("slap R") == chooser.index("choose R")


def test_rl_generic_encoding_names_are_positional() -> None:
    env = aec_env("gofish", 3)
    assert list(env.config.observer.names[:2]) == ["legal[0]", "legal[1]"]


# ------------------------------------------------------------------ rl.rst: actions


@pytest.mark.parametrize(
    "action", [np.int8(10), np.uint8(10), np.int16(10), np.int64(10), np.uint64(10), 10]
)
def test_rl_numpy_integer_actions_of_every_dtype_step(action: Any) -> None:
    env = golf_aec()
    env.step(action)
    assert env.match.game.record_entries()[0][1].notation() == "flip 0"


@pytest.mark.parametrize(
    "action",
    [-1, 22, 2**70, -(2**70), np.uint64(2**63), 10.0, np.float32(10), True, np.bool_(True), "10"],
)
def test_rl_bad_action_is_illegal_citing_core_legal_1_and_nothing_moves(action: Any) -> None:
    env = golf_aec()
    with pytest.raises(IllegalActionError) as info:
        env.step(action)
    assert info.value.rule_id == "CORE-LEGAL-1"
    assert str(info.value).endswith("(CORE-LEGAL-1)")
    assert "10 'flip 0'" in str(info.value)  # names the legal ones
    assert env.match.game.version == 0


def test_rl_action_outside_mask_message_of_the_page() -> None:
    env = golf_aec()
    with pytest.raises(
        IllegalActionError,
        match=re.escape(
            "action 0 ('draw') is not in player_0's action mask now; legal: 10 'flip 0', 11 'flip 1'"
        ),
    ):
        env.step(0)


def test_rl_gym_action_masks_are_booleans_matching_the_mask() -> None:
    env = gym_env("golf", 2, options=GOLF1)
    obs, info = env.reset(seed=7)
    masks = env.action_masks()
    assert masks.dtype == np.bool_
    assert (masks == obs["action_mask"].astype(bool)).all()
    assert info == {}


# ------------------------------------------------------------------ rl.rst: seeds


@pytest.mark.parametrize("seed", [np.int64(3), True, 3.0, "3", -1, 2**128, 2**200])
def test_rl_bad_seeds_refused_by_every_environment(seed: Any) -> None:
    env = aec_env("golf", 2, options=GOLF1)
    with pytest.raises(OptionError):
        env.reset(seed=seed)
    with pytest.raises(OptionError):
        gym_env("golf", 2, options=GOLF1).reset(seed=seed)
    with pytest.raises(OptionError):
        vector_env("golf", 2, options=GOLF1).reset(seed=seed)


def test_rl_largest_seed_accepted() -> None:
    env = gym_env("golf", 2, options=GOLF1)
    obs, _ = env.reset(seed=2**128 - 1)
    assert obs["action_mask"].any()


def test_rl_batched_seed_lists_checked() -> None:
    envs = vector_env("golf", 3, options=GOLF1)
    for seeds in ([1, 2], [1, 2, np.int64(3)], [1, None, 2**128], np.array([1, 2, 3])):
        with pytest.raises(OptionError):
            envs.reset(seed=seeds)
    obs, _ = envs.reset(seed=[1, None, 2])
    assert obs["observation"].shape == (3, 253)


def test_rl_reset_seed_replays_and_later_resets_follow_the_stream() -> None:
    def run(make: Any) -> list[Any]:
        env = make()
        out = [env.reset(seed=11)[0]["observation"].copy()]
        out += [env.reset()[0]["observation"].copy() for _ in range(2)]
        return out

    a = run(lambda: gym_env("golf", 2, options=GOLF1))
    b = run(lambda: gym_env("golf", 2, options=GOLF1))
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[0], a[1])

    def aec_run() -> list[Any]:
        env = aec_env("golf", 2, options=GOLF1)
        env.reset(seed=11)
        out = [env.last()[0]["observation"].copy()]
        env.reset()
        out.append(env.last()[0]["observation"].copy())
        return out

    c, d = aec_run(), aec_run()
    assert all(np.array_equal(x, y) for x, y in zip(c, d, strict=True))
    assert np.array_equal(c[0], a[0])  # the game of seed 11 in both environments


# ------------------------------------------------------------- rl.rst: AEC life cycle


@pytest.mark.parametrize(
    "attr",
    ["agents", "num_agents", "agent_selection", "rewards", "terminations", "truncations", "infos"],
)
def test_rl_aec_attributes_before_reset_are_illegal(attr: str) -> None:
    env = aec_env("golf", 2)
    with pytest.raises(IllegalActionError, match=r"call reset\(\)"):
        getattr(env, attr)


def test_rl_aec_last_and_agent_iter_before_reset() -> None:
    env = aec_env("golf", 2)
    with pytest.raises(IllegalActionError):
        env.last()
    with pytest.raises(IllegalActionError):
        next(iter(env.agent_iter()))


def test_rl_aec_agent_names_refused_with_seat_error() -> None:
    env = golf_aec()
    for bad in ("player_2", 0, "player_-1"):
        with pytest.raises(SeatError):
            env.observation_space(bad)
        with pytest.raises(SeatError):
            env.action_space(bad)
        with pytest.raises(SeatError):
            env.observe(bad)


def play_aec(game: str, players: int, seed: int, **kwargs: Any) -> tuple[Any, dict[str, float]]:
    env = aec_env(game, players, **kwargs)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(env.agents, 0.0)
    finished = False
    for agent in env.agent_iter(max_iter=3000):
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            if not finished:
                finished = True
                assert set(info) >= {"result", "stalled"}
                assert set(info["result"]) == {"winners", "scores", "payouts", "reason"}
                with pytest.raises(IllegalActionError, match="step it with None"):
                    env.step(first_legal(np.ones(1)))
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert finished
    return env, total


@pytest.mark.parametrize(
    ("game", "players", "kwargs"),
    [
        ("golf", 2, {"options": GOLF1}),
        ("golf", 3, {"options": GOLF1}),
        ("tonk", 3, {}),
        ("speed", 2, {}),
        ("gofish", 3, {}),
    ],
)
def test_rl_win_rewards_are_zero_sum_and_done_agents_step_none(
    game: str, players: int, kwargs: dict[str, Any]
) -> None:
    env, total = play_aec(game, players, 3, **kwargs)
    assert sum(total.values()) == pytest.approx(0.0, abs=1e-9)
    assert max(total.values()) in (1.0, 0.0)
    for call in (env.last, lambda: env.step(None), lambda: env.step(0)):
        with pytest.raises(IllegalActionError, match=r"call reset\(\)"):
            call()


def test_rl_golf_score_reward_is_mean_of_others_minus_own_over_ten() -> None:
    env, total = play_aec("golf", 3, 3, options=GOLF1, rewards="score")
    # the last info is gone once every agent stepped out: read the game's result
    result = env.match.game.result
    scores = list(result.scores)
    for seat, agent in enumerate(("player_0", "player_1", "player_2")):
        others = [s for i, s in enumerate(scores) if i != seat]
        expected = (sum(others) / len(others) - scores[seat]) / 10
        assert total[agent] == pytest.approx(expected)


def test_rl_tonk_score_reward_is_the_settlement() -> None:
    env, total = play_aec("tonk", 2, 4, rewards="score")
    payouts = env.match.game.result.payouts
    assert [total["player_0"], total["player_1"]] == [float(p) for p in payouts]


@pytest.mark.parametrize(
    ("winners", "players", "expected"),
    [
        ([0], 2, [1.0, -1.0]),
        ([0], 4, [1.0, -1 / 3, -1 / 3, -1 / 3]),
        ([0, 1], 2, [0.0, 0.0]),
        ([], 3, [0.0, 0.0, 0.0]),
        ([0], 1, [1.0]),
        ([], 1, [0.0]),
    ],
)
def test_rl_win_rewards_of_the_page(
    winners: list[int], players: int, expected: list[float]
) -> None:
    assert win_rewards(winners, players) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("winners", "players"), [([5], 2), ([True], 2), ([0], 0), ([0], True), ([0], 2.0)]
)
def test_rl_win_rewards_bad_arguments(winners: Any, players: Any) -> None:
    with pytest.raises(ArgumentError):
        win_rewards(winners, players)


@pytest.mark.parametrize("game", ["spit", "speed", "gofish"])
def test_rl_score_reward_refused_where_there_is_none(game: str) -> None:
    with pytest.raises(OptionError, match="no score reward"):
        aec_env(game, 2, rewards="score")


# ------------------------------------------------------------- rl.rst: building


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": True},
        {"max_actions": True},
        {"max_actions": 0},
        {"reaction": MAX_REACTION + 1},
        {"reaction": -0.1},
        {"reaction": float("nan")},
        {"reaction": [0.3]},
        {"rewards": "points"},
        {"options": {"rounds": 10**9}},
        {"options": {"nosuch": 1}},
    ],
)
def test_rl_bad_settings_are_option_errors(kwargs: dict[str, Any]) -> None:
    kwargs = dict(kwargs)
    players = kwargs.pop("players", 2)
    with pytest.raises(OptionError):
        aec_env("golf", players, **kwargs)


def test_rl_numpy_numbers_are_numbers_and_max_actions_is_capped() -> None:
    env = aec_env("golf", np.int64(2), max_actions=np.int64(50), reaction=np.float32(0.3))
    assert env.config.bound == 50
    assert aec_env("golf", 2, max_actions=10**9).config.bound == aec_env("golf", 2).config.bound
    assert vector_env("golf", np.int64(2)).num_envs == 2
    env2 = gym_env("golf", 2, seat=np.int64(1), options=GOLF1)
    assert env2.reset(seed=1)[0]["action_mask"].any()


def test_rl_unknown_game_rule_and_list_arguments() -> None:
    with pytest.raises(UnknownPluginError, match="installed"):
        aec_env("nosuch", 2)
    with pytest.raises(UnknownPluginError):
        aec_env("golf", 2, rules=["nosuch"])
    with pytest.raises(ArgumentError):
        aec_env("golf", 2, rules="golf.jokers")
    with pytest.raises(ArgumentError):
        aec_env("golf", 2, without="golf.jokers")
    with pytest.raises(UnknownPluginError):
        aec_env("golf", 2, rules=[3])


def test_rl_batched_copy_and_num_envs_checked() -> None:
    with pytest.raises(OptionError):
        vector_env("golf", 2, copy="yes")
    with pytest.raises(OptionError):
        vector_env("golf", True)
    with pytest.raises(OptionError):
        vector_env("golf", 0)


def test_rl_opponents_checked_when_built() -> None:
    with pytest.raises(UnknownPluginError):
        gym_env("golf", 2, opponents="nosuch")
    with pytest.raises(OptionError):
        gym_env("golf", 2, opponents="random:seed=x")
    with pytest.raises(CardcoreError):
        gym_env("golf", 2, opponents="tonk-heuristic")
    with pytest.raises(OptionError):
        gym_env("golf", 2, seat=2)
    with pytest.raises(OptionError):
        gym_env("golf", 2, seat=True)


@pytest.mark.parametrize(
    "options", [{"rounds": 3}, {"rewards": "score"}, {"options": {"rounds": 2}}]
)
def test_rl_reset_refuses_game_options_and_settings(options: dict[str, Any]) -> None:
    env = aec_env("golf", 2, options=GOLF1)
    with pytest.raises(OptionError, match="aec_env"):
        env.reset(options=options)
    with pytest.raises(OptionError, match="gym_env"):
        gym_env("golf", 2, options=GOLF1).reset(options=options)
    with pytest.raises(OptionError, match="vector_env"):
        vector_env("golf", 2, options=GOLF1).reset(options=options)


def test_rl_aec_reset_takes_other_keys_but_single_seat_refuses_any() -> None:
    env = aec_env("golf", 2, options=GOLF1)
    env.reset(seed=1, options={"options": 1})
    env.reset(seed=1, options={"foo": 1})
    assert env.agent_selection == "player_0"
    with pytest.raises(OptionError):
        gym_env("golf", 2, options=GOLF1).reset(options={"foo": 1})
    gym_env("golf", 2, options=GOLF1).reset(options={})


def test_rl_environments_cannot_be_copied_or_pickled() -> None:
    for env in (golf_aec(), gym_env("golf", 2, options=GOLF1), vector_env("golf", 2)):
        for how in (copy.copy, copy.deepcopy, pickle.dumps):
            with pytest.raises(ArgumentError, match="clone"):
                how(env)


def test_rl_no_state_and_not_parallelizable() -> None:
    env = golf_aec()
    assert env.metadata["is_parallelizable"] is False
    with pytest.raises(NotImplementedError):
        env.state()


# ---------------------------------------------------------------- rl.rst: observe


def test_rl_observe_refuses_an_encoding_of_another_configuration() -> None:
    game = cardcore.new_game("golf", 2, seed=3)
    other = [
        (cardcore.new_game("gofish", 2, seed=1), "it encodes gofish, not golf"),
        (cardcore.new_game("golf", 2, seed=1, options={"rounds": 3}), "rounds"),
        (cardcore.new_game("golf", 3, seed=1), "3 seats"),
    ]
    for source, words in other:
        with pytest.raises(ArgumentError, match=re.escape(words)):
            observe(game, 0, encoding_for(source))
    with pytest.raises(ArgumentError):
        observe(game, 0, "not an encoding")
    with pytest.raises(SeatError):
        observe(game, 2)
    out = observe(game, 0, encoding_for(cardcore.new_game("golf", 2, seed=99)))
    assert out["observation"].dtype == np.float32 and out["action_mask"].shape == (22,)


# ---------------------------------------------------------------- rl.rst: batched


def test_rl_batched_shapes_and_refused_batches_move_nothing() -> None:
    envs = vector_env("golf", 3, options=GOLF1)
    obs, _ = envs.reset(seed=5)
    assert obs["observation"].shape == (3, 253) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (3, 22) and obs["action_mask"].dtype == np.int8
    versions = [r.match.game.version for r in envs.runners]
    bad = (
        [10, 10],
        np.array([[10], [10], [10]]),
        np.array([10.0, 10.0, 10.0]),
        np.array([True, True, True]),
        {0: 10, 1: 10, 2: 10},
        10,
    )
    for batch in bad:
        with pytest.raises(IllegalActionError):
            envs.step(batch)
    with pytest.raises(IllegalActionError, match=re.escape("game 2 of 3: action 0 ('draw')")):
        envs.step([10, 10, 0])
    assert versions == [r.match.game.version for r in envs.runners]
    envs.step(np.array([10, 11, 12], dtype=np.uint16))
    assert [r.match.game.version for r in envs.runners] != versions


def test_rl_batched_autoreset_same_step_with_final_obs_and_info() -> None:
    envs = vector_env("golf", 2, options=GOLF1, max_actions=3)
    obs, _ = envs.reset(seed=1)
    for _ in range(10):
        obs, rewards, term, trunc, infos = envs.step([first_legal(m) for m in obs["action_mask"]])
        if (term | trunc).any():
            break
    ended = term | trunc
    assert ended.any()
    assert (infos["_final_obs"] == ended).all() and (infos["_final_info"] == ended).all()
    for i in range(2):
        if ended[i]:
            assert set(infos["final_obs"][i]) == {"observation", "action_mask"}
            info = infos["final_info"][i]
            assert set(info) == {"result", "stalled"}
            assert info["result"]["reason"] == "truncated" and info["result"]["winners"] == []
            assert rewards[i] == 0.0  # a truncated game pays nothing
        else:
            assert infos["final_obs"][i] is None
    assert obs["action_mask"].any(axis=1).all()  # every game was dealt again


def test_rl_batched_copy_false_hands_out_the_same_arrays() -> None:
    envs = vector_env("golf", 2, options=GOLF1, copy=False)
    a, _ = envs.reset(seed=1)
    b, *_ = envs.step([first_legal(m) for m in a["action_mask"]])
    assert a["observation"] is b["observation"] and a["action_mask"] is b["action_mask"]


class FailingAgent:
    """Plays the first legal action, then raises from its *fail_at*-th call."""

    def __init__(self, fail_at: int) -> None:
        self.calls = 0
        self.fail_at = fail_at

    def choose(self, view: Any, legal: Any) -> Any:
        self.calls += 1
        if self.calls >= self.fail_at:
            raise RuntimeError("boom")
        return legal[0]

    def __repr__(self) -> str:
        return "FailingAgent()"


def test_rl_batched_failure_names_the_game_and_the_moved_games() -> None:
    envs = vector_env("golf", 3, opponents=FailingAgent(3), options=GOLF1)
    obs, _ = envs.reset(seed=1)
    with pytest.raises(CardcoreError) as info:
        for _ in range(5):
            obs, *_ = envs.step([first_legal(m) for m in obs["action_mask"]])
    text = str(info.value)
    assert text.startswith("game 1 of 3:")
    assert text.endswith("[games 0 to 1 had moved, their new observations lost: call reset()]")
    assert "seat 1" in text and "FailingAgent()" in text


def test_rl_single_seat_failed_opponent_blocks_until_reset() -> None:
    env = gym_env("golf", 2, opponents=FailingAgent(1), options=GOLF1)
    obs, _ = env.reset(seed=1)
    with pytest.raises(CardcoreError, match=r"seat 1 \(FailingAgent\(\)\)"):
        for _ in range(3):
            obs, *_ = env.step(first_legal(obs["action_mask"]))
    with pytest.raises(IllegalActionError, match=r"call reset\(\)"):
        env.step(first_legal(obs["action_mask"]))


def test_rl_seat_runner_refuses_output_arrays_before_dealing() -> None:
    env = gym_env("golf", 2, options=GOLF1)
    runner = env.runner
    mask = np.zeros(22, dtype=np.int8)
    readonly = np.zeros(253, dtype=np.float32)
    readonly.flags.writeable = False
    for obs in (np.zeros(252, dtype=np.float32), np.zeros(253, dtype=np.int8), readonly, [0.0]):
        with pytest.raises(ArgumentError):
            runner.reset(1, obs, mask)
    with pytest.raises(ArgumentError):
        runner.reset(1, np.zeros(253, dtype=np.float32), np.zeros(22, dtype=np.float32))
    assert runner.match is None  # nothing was dealt


# ---------------------------------------------------------- rl.rst: skipped games


def test_rl_skipped_tonk_games_are_listed_with_json_results() -> None:
    env = gym_env("tonk", 2, opponents="tonk-heuristic", seat=1)
    _, info = env.reset(seed=58)  # the opponent drops at once
    assert set(info) == {"skipped"}
    (game,) = info["skipped"]
    assert set(game) == {"actions", "reward", "result"}  # the seed is privileged
    assert env.runner.skipped[0]["seed"] == 58 and game["reward"] == -1.0
    assert set(game["result"]) == {"winners", "scores", "payouts", "reason"}
    aec = aec_env("tonk", 2)
    aec.reset(seed=150)  # a natural on the deal
    for seat, agent in enumerate(aec.agents):
        (skipped,) = aec.infos[agent]["skipped"]
        assert aec.skipped_seeds == [150] and skipped["actions"] == 0 and "seed" not in skipped
        assert skipped["reward"] == (1.0 if seat == 0 else -1.0)


# --------------------------------------------------------- rl.rst: hidden information


def card_words(text: str) -> set[str]:
    return set(re.findall(r"\b(?:10|[2-9AJQK])[SHDC]\b", text))


def test_rl_single_seat_infos_and_errors_never_show_the_opponents_hand() -> None:
    env = gym_env("tonk", 2, opponents="random")
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(30):
        game = env.runner.match.game
        hidden = set(game.view(1)["table"]["hand"])
        with pytest.raises(IllegalActionError) as err:
            env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
        assert not card_words(str(err.value)) & hidden
        assert not card_words(repr(info)) & hidden
        obs, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if term or trunc:
            break


def test_rl_render_shows_only_the_acting_seat_hand() -> None:
    env = aec_env("tonk", 2, render_mode="ansi")
    env.reset(seed=3)
    for _ in range(6):
        game = env.match.game
        if game.is_over:
            break
        seat = game.to_act[0]
        other = set(game.view(1 - seat)["table"]["hand"])
        text = env.render()
        assert set(game.view(seat)["table"]["hand"]) <= card_words(text)
        assert not card_words(text) & other
        obs, *_, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(first_legal(obs["action_mask"]))


def test_rl_observation_is_the_same_for_a_determinized_twin() -> None:
    game = cardcore.new_game("tonk", 3, seed=9)
    for _ in range(4):
        legal = game.legal_actions(game.to_act[0])
        game.apply(legal[-1] if str(legal[0]) == "drop" else legal[0])
    assert not game.is_over
    for seat in range(3):
        twin = game.determinize(seat, seed=seat + 40)
        a, b = observe(game, seat), observe(twin, seat)
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"])
        other = (seat + 1) % 3
        assert twin.view(other)["table"]["hand"] != game.view(other)["table"]["hand"]


def stale_moments(seed: int) -> list[tuple[str, str]]:
    """(selected agent, agent whose infos entry says stale) along a Speed game."""
    env = aec_env("speed", 2, reaction=[0.5, 3.0])
    env.reset(seed=seed)
    seen: list[tuple[str, str]] = []
    for agent in env.agent_iter(3000):
        obs, _, term, trunc, _ = env.last()
        seen += [(agent, a) for a, i in env.infos.items() if i.get("stale")]
        env.step(None if term or trunc else first_legal(obs["action_mask"]))
    return seen


def test_rl_aec_stale_is_told_to_the_agent_deciding_again() -> None:
    assert any(sel == who for sel, who in stale_moments(2))


def test_rl_aec_stale_shows_only_when_its_agent_is_selected() -> None:
    assert all(sel == who for sel, who in stale_moments(2))


# --------------------------------------------------------------------- notation.rst


@pytest.mark.parametrize(
    "text", ["flip 0", "FLIP 0", "  FLIP   0 ", "Flip 0", "f 0", "F 0", "flip 0" + " " * 194]
)
def test_notation_spaces_and_case_do_not_matter(text: str) -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    assert str(game.act(0, text)) == "flip 0"


@pytest.mark.parametrize("text", ["x" * 201, "flip 0" + " " * 195])
def test_notation_long_text_refused_unread(text: str) -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    with pytest.raises(NotationError) as info:
        game.act(0, text)
    assert info.value.rule_id == "CORE-NOTATION-1"
    assert str(info.value).endswith("(CORE-NOTATION-1)")
    assert game.version == 0


@pytest.mark.parametrize(
    "text",
    ["flip ٠", "flip ０", "flip 𝟎", "flip +0", "flip 0_0", "flip -0", "flip 0 0", "", "ﬂip 0"],
)
def test_notation_non_ascii_digits_and_odd_forms_are_notation_errors(text: str) -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    with pytest.raises(NotationError):
        game.act(0, text)
    assert game.version == 0


def test_notation_kelvin_sign_is_not_knock() -> None:
    game = cardcore.new_game("golf", 2, seed=3, options={"layout": 4})
    with pytest.raises(NotationError):
        game.act(0, "\u212anock")


def test_notation_cards_of_the_page() -> None:
    assert str(Card.parse(" qs ")) == "QS" and str(Card.parse("10h")) == "10H"
    assert [str(c) for c in parse_cards("10h, jk AS")] == ["10H", "JK", "AS"]
    assert [str(c) for c in parse_cards("AS\tKS,,QH")] == ["AS", "KS", "QH"]
    with pytest.raises(
        NotationError,
        match=re.escape(
            "not a card: '1H': expected rank+suit like '10H', or 'JK' (CORE-NOTATION-2)"
        ),
    ):
        Card.parse("1H")


@pytest.mark.parametrize(
    "text",
    ["1H", "QK", "TH", "0H", "010H", "A S", "JKS", "１０H", "١٠H", "ＱS", "10H\u200b", "10", 5],
)
def test_notation_bad_cards_cite_core_notation_2(text: Any) -> None:
    with pytest.raises(NotationError) as info:
        Card.parse(text)
    assert info.value.rule_id == "CORE-NOTATION-2"


def test_notation_long_s_is_not_a_suit() -> None:
    with pytest.raises(NotationError):
        Card.parse("Q\u017f")


def test_notation_resign_and_end_not_in_legal_and_end_only_by_host() -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    legal = [str(a) for a in game.legal_actions(0)]
    assert "resign" not in legal and "end" not in legal
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "end")
    assert info.value.rule_id == "CORE-END-1"
    assert str(game.act(HOST, "end")) == "end"
    assert game.result.reason == "ended" and game.result.winners == (0, 1)


def test_notation_resign_out_of_turn_ends_the_game_others_win() -> None:
    game = cardcore.new_game("golf", 3, seed=5)
    game.act(1, "resign")
    assert game.is_over and game.result.winners == (0, 2)


def test_notation_position_round_trip_and_wrong_name() -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    game.act(0, "flip 0")
    text = game.position()
    copy_ = cardcore.new_game("golf", 2, position=text, seed=1)
    for seat in (0, 1):
        a, b = dict(copy_.view(seat)), dict(game.view(seat))
        a.pop("version"), b.pop("version")
        assert a == b
    with pytest.raises(OptionError, match="must start with the game's name 'golf'"):
        cardcore.new_game("golf", 2, position=text.replace("golf", "tonk", 1))


def golf_position() -> str:
    game = cardcore.new_game("golf", 2, seed=5)
    game.act(0, "flip 0")
    return game.position()


@pytest.mark.parametrize(
    "edit",
    [
        ("2S 3S", "2S 2S"),  # a card twice
        ("2S 3S", "2S"),  # a card missing
        ("discard:", "discardx:"),  # an unknown pile
        ("10S!", "10S@5"),  # an unknown seat
        ("turn=0", "turn=7"),  # the game's own counts
    ],
)
def test_core_position_1_bad_positions_are_option_errors(edit: tuple[str, str]) -> None:
    text = golf_position()
    assert edit[0] in text
    with pytest.raises(OptionError, match=r"bad (golf )?position"):
        cardcore.new_game("golf", 2, position=text.replace(*edit, 1))


def test_core_position_1_is_cited_by_the_bad_position_error() -> None:
    text = golf_position()
    with pytest.raises(OptionError) as info:
        cardcore.new_game("golf", 2, position=text.replace("2S 3S", "2S 2S", 1))
    assert info.value.rule_id == "CORE-POSITION-1"
    assert str(info.value).endswith("(CORE-POSITION-1)")


# ------------------------------------------------------------------- core-rules.rst


def assert_cites(error: BaseException, rule: str) -> None:
    assert getattr(error, "rule_id", None) == rule
    assert str(error).endswith(f"({rule})")


@pytest.mark.parametrize("seat", [2, -2, HOST, True, 1.0, "0", None, 10**30])
def test_core_seat_1_act_view_and_legal_for_no_seat(seat: Any) -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    with pytest.raises(IllegalActionError) as info:
        game.act(seat, "flip 0")
    assert_cites(info.value, "CORE-SEAT-1")
    if seat is not None:
        with pytest.raises(IllegalActionError) as info:
            game.view(seat)
        assert_cites(info.value, "CORE-SEAT-1")
    with pytest.raises(IllegalActionError) as info:
        game.legal_actions(seat)
    assert_cites(info.value, "CORE-SEAT-1")


@pytest.mark.parametrize("players", [0, 1, 65])
def test_core_seat_2_player_count_outside_range(players: int) -> None:
    with pytest.raises(OptionError) as info:
        cardcore.new_game("golf", players, seed=1)
    assert_cites(info.value, "CORE-SEAT-2")


def test_core_turn_1_legal_1_action_1_and_over_1_cite_their_ids() -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    with pytest.raises(IllegalActionError) as info:
        game.act(1, "flip 0")
    assert_cites(info.value, "CORE-TURN-1")
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "draw")
    assert info.value.rule_id == "GOLF-DEAL-4"  # the game's own rule, as CORE-LEGAL-1 allows
    for thing in ("flip 0", None, 3):
        with pytest.raises(IllegalActionError) as info:
            game.apply(thing)
        assert_cites(info.value, "CORE-ACTION-1")
    game.act(HOST, "end")
    for seat, text in ((0, "flip 0"), (0, "resign"), (1, "resign"), (HOST, "end")):
        with pytest.raises(IllegalActionError) as info:
            game.act(seat, text)
        assert_cites(info.value, "CORE-OVER-1")


def test_core_rt_1_stale_after_the_first_action_ended_the_game() -> None:
    game = cardcore.new_game("speed", 2, seed=11)
    text = str(game.legal_actions(1)[0])
    game.act(0, "resign", seen=0)
    with pytest.raises(StaleActionError) as info:
        game.act(1, text, seen=0)
    assert_cites(info.value, "CORE-RT-1")
    with pytest.raises(StaleActionError):
        game.act(1, "resign", seen=0)
    with pytest.raises(IllegalActionError) as info:
        game.act(1, text)  # without seen: judged against the state now
    assert_cites(info.value, "CORE-OVER-1")


@pytest.mark.parametrize("seen", [1, -1, True, "x", 1.0, 10**100])
def test_core_rt_3_seen_outside_the_window_is_illegal(seen: Any) -> None:
    game = cardcore.new_game("speed", 2, seed=11)
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "stuck", seen=seen)
    assert_cites(info.value, "CORE-RT-3")
    assert game.version == 0


def test_core_rt_3_resign_with_a_seen_that_is_no_version_is_refused() -> None:
    game = cardcore.new_game("speed", 2, seed=11)
    with pytest.raises(IllegalActionError):
        game.act(0, "resign", seen="x")


def test_core_veto_1_and_applies_1_cite_the_rule() -> None:
    game = cardcore.new_game("golf", 2, seed=1, rules=["golf.reveal-same-column"])
    game.act(0, "flip 0")
    assert [str(a) for a in game.legal_actions(0)] == ["flip 3"]
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "flip 1")
    assert_cites(info.value, "GOLF6-SETUP-3")
    with pytest.raises(OptionError) as info:
        cardcore.new_game(
            "golf", 2, seed=1, rules=["golf.reveal-same-column"], options={"layout": 4}
        )
    assert_cites(info.value, "GOLF6-SETUP-3")


def test_core_bound_1_truncated_game_has_no_winner() -> None:
    env = gym_env("golf", 2, options=GOLF1, max_actions=3)
    obs, _ = env.reset(seed=1)
    for _ in range(5):
        obs, reward, term, trunc, info = env.step(first_legal(obs["action_mask"]))
        if term or trunc:
            break
    assert trunc and not term and reward == 0.0
    assert info["result"]["reason"] == "truncated" and info["result"]["winners"] == []
    assert not obs["action_mask"].any()
    with pytest.raises(IllegalActionError, match=r"call reset\(\)"):
        env.step(10)


# ------------------------------------------------------------------ more of rl.rst


def test_rl_stale_step_returns_stale_and_applies_nothing_of_the_learner() -> None:
    env = gym_env("speed", 2, opponents="spit-greedy", reaction=2.0)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(0)
    stale = applied = 0
    for _ in range(200):
        before = len(env.runner.match.game.record_entries())
        obs, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if term or trunc:
            break
        mine = any(entry[0] == 0 for entry in env.runner.match.game.record_entries()[before:])
        if info.get("stale"):
            stale += 1
            assert not mine
        else:
            applied += 1
            assert mine
    assert stale and applied


@pytest.mark.parametrize(
    ("game", "players", "kwargs"),
    [
        ("tonk", 4, {"options": {"max_players": 4}}),
        ("golf", 9, {"options": GOLF1}),
        ("golf", 3, {"options": {"layout": 4, "rounds": 1}, "rules": ["golf.jokers"]}),
        ("spit", 2, {"rules": ["spit.chooser"]}),
    ],
)
def test_rl_variants_pass_pettingzoo_api_test(game: str, players: int, kwargs: Any) -> None:
    from pettingzoo.test import api_test

    with only_dict_observation_warnings():
        api_test(aec_env(game, players, **kwargs), num_cycles=20)


@pytest.mark.parametrize(("game", "players"), [("gofish", 3), ("speed", 2), ("spit", 2)])
def test_rl_generic_and_real_time_observations_equal_for_twins(game: str, players: int) -> None:
    import random

    g = cardcore.new_game(game, players, seed=5)
    rng = random.Random(5)
    for _ in range(25):
        if g.is_over:
            break
        for seat in range(players):
            twin = g.determinize(seat, seed=100 + seat)
            a, b = observe(g, seat), observe(twin, seat)
            assert np.array_equal(a["observation"], b["observation"])
            assert np.array_equal(a["action_mask"], b["action_mask"])
        seat = rng.choice([s for s in g.to_act if g.legal_actions(s)])
        g.apply(rng.choice(g.legal_actions(seat)))


def test_rl_refused_reset_changes_nothing_mid_game() -> None:
    env = golf_aec()
    env.step(10)
    version, selected = env.match.game.version, env.agent_selection
    with pytest.raises(OptionError):
        env.reset(seed=-1)
    with pytest.raises(OptionError):
        env.reset(seed=1, options={"rounds": 2})
    assert (env.match.game.version, env.agent_selection) == (version, selected)


def test_rl_reset_seed_plays_the_game_of_that_seed() -> None:
    env = golf_aec()
    assert (
        env.match.game.position() == cardcore.new_game("golf", 2, seed=7, options=GOLF1).position()
    )


def test_rl_agent_spec_numpy_parameter_refused_naming_the_type() -> None:
    with pytest.raises(OptionError, match=r"numpy\.int64.*int\(\)"):
        cardcore.load_agent("ismcts", iterations=np.int64(5))


# ---------------------------------------------------------------- more of notation.rst


@pytest.mark.parametrize(("game", "players"), [("golf", 2), ("tonk", 3), ("spit", 2), ("speed", 2)])
def test_notation_every_legal_text_reads_back_in_any_case(game: str, players: int) -> None:
    import random

    g = cardcore.new_game(game, players, seed=2)
    rng = random.Random(2)
    for _ in range(25):
        if g.is_over:
            break
        for seat in g.to_act:
            legal = g.legal_actions(seat)
            assert list(g.view(seat)["legal"]) == [str(a) for a in legal]
            for action in legal:
                assert g.clone().act(seat, str(action).upper()) == action
                assert g.clone().act(seat, " " + str(action).lower().replace(" ", "  ")) == action
        seat = rng.choice([s for s in g.to_act if g.legal_actions(s)])
        g.apply(rng.choice(g.legal_actions(seat)))


def test_notation_text_that_is_not_a_string_cites_core_notation_1() -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    for thing in (b"flip 0", 0, None):
        with pytest.raises(NotationError) as info:
            game.act(0, thing)
        assert_cites(info.value, "CORE-NOTATION-1")


@pytest.mark.parametrize("key", ["rules", "without"])
@pytest.mark.parametrize("names", [b"golf.jokers", bytearray(b"golf.jokers")])
def test_new_game_refuses_bytes_as_rules_with_argument_error(key: str, names: Any) -> None:
    with pytest.raises(ArgumentError, match="takes a list of names"):
        cardcore.new_game("golf", 2, seed=1, **{key: names})


@pytest.mark.parametrize("key", ["rules", "without"])
@pytest.mark.parametrize("build", [aec_env, gym_env])
def test_rl_bytes_as_rules_is_an_argument_error(key: str, build: Any) -> None:
    with pytest.raises(ArgumentError, match="takes a list of names"):
        build("golf", 2, **{key: b"golf.jokers"})


def test_rl_reset_with_a_setting_names_the_builder_parameter() -> None:
    env = aec_env("golf", 2, options=GOLF1)
    with pytest.raises(OptionError, match=r"rewards="):
        env.reset(options={"rewards": "score"})


def test_rl_match_wait_on_a_turn_based_game_is_an_argument_error() -> None:
    env = golf_aec()
    with pytest.raises(ArgumentError, match="real-time"):
        env.match.wait()
