"""An RL researcher tries cardcore.rl on third-party games from the docs (docs/rl.rst) only.

The games ship as test plugins and are registered in place: Spades (4 seats, partnerships,
blind nil: a seat's cards are hidden from it until it looks or declares), Spite and Malice
(payoff piles with only the top face up), Egyptian Ratscrew (real time: slaps race, flips in
turn) and Nertz (real time). Every game here is dealt from a fixed seed or a stacked deck;
policies are deterministic (index arithmetic or a seeded generator).
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import IllegalActionError, OptionError
from cardcore.rl import aec_env, gym_env, observe, vector_env, win_rewards
from tests.plugins import nertz_2026_12_15 as nz
from tests.plugins import ratscrew_2026_12_16 as rs
from tests.plugins import spades_2026_12_16 as sp
from tests.plugins import spite_2026_12_16 as si
from tests.rl.helpers import only_dict_observation_warnings

GAMES = {
    "spades": (sp.NAME, 4, {"target": 50, "max_hands": 1}),
    "spite": (si.NAME, 2, {"payoff": 4}),
    "ratscrew": (rs.NAME, 3, {}),
    "nertz": (nz.NAME, 2, {}),
}
TURN_BASED = ["spades", "spite"]
REAL_TIME = ["ratscrew", "nertz"]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [r + s for s in "SHDC" for r in RANKS]  # one sorted 52-card deck, top first
# The two warnings PettingZoo gives any dict observation (docs: "the only warnings").
DICT_WARNINGS = ("Observation space for each agent probably", "Observation is not a NumPy array")


@pytest.fixture(autouse=True)
def registered():
    for module in (sp, si, rs, nz):
        cardcore.register("cardcore.games", module.NAME, module)
    yield
    for module in (nz, rs, si, sp):
        cardcore.unregister("cardcore.games", module.NAME)


def build(key: str, **kwargs: Any):
    name, players, options = GAMES[key]
    return aec_env(name, players, options=options, **kwargs)


def seat_of(agent: str) -> int:
    return int(agent.rsplit("_", 1)[1])


def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return bool(
        np.array_equal(a["observation"], b["observation"])
        and np.array_equal(a["action_mask"], b["action_mask"])
    )


# --- PettingZoo's own tests ---------------------------------------------------------------


@pytest.mark.parametrize("key", list(GAMES))
def test_api_test_passes_with_only_the_dict_observation_warnings(key):
    from pettingzoo.test import api_test

    env = build(key)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=40)
    others = {str(w.message)[:60] for w in caught if not str(w.message).startswith(DICT_WARNINGS)}
    assert others == set()
    assert env.metadata["is_parallelizable"] is False


@pytest.mark.parametrize("key", list(GAMES))
def test_seed_test_passes(key):
    from pettingzoo.test import seed_test

    seed_test(lambda: build(key), num_cycles=40)


@pytest.mark.parametrize("key", TURN_BASED)
def test_turn_based_games_convert_to_a_parallel_env_that_passes_parallel_api_test(key):
    from pettingzoo.test import parallel_api_test
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    with only_dict_observation_warnings():
        parallel_api_test(turn_based_aec_to_parallel(build(key)), num_cycles=60)


# --- spaces and masks ---------------------------------------------------------------------


@pytest.mark.parametrize("key", list(GAMES))
def test_every_agents_mask_is_its_legal_actions_at_every_step(key):
    """Generic encoding: index i is the i-th legal action; observe() gives the env's arrays."""
    env = build(key)
    env.reset(seed=11)
    rng = random.Random(0)
    decisions = 0
    for agent in env.agent_iter(max_iter=150):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        game = env.match.game
        for other in env.agents:
            seat = seat_of(other)
            got = env.observe(other)
            assert env.observation_space(other).contains(got)
            legal = game.legal_actions(seat)
            size = env.action_space(other).n
            want = np.zeros(size, dtype=np.int8)
            want[: min(len(legal), size)] = 1
            assert np.array_equal(got["action_mask"], want), (other, [str(a) for a in legal])
            assert same(got, observe(game, seat))
        assert obs["action_mask"].any()
        legal_now = list(np.nonzero(obs["action_mask"])[0])
        index = rng.choice(legal_now[:-1] or legal_now)  # not Nertz's 'stuck' (last)
        chosen = str(game.legal_actions(seat_of(agent))[index])
        before = len(game.record_entries())
        env.step(int(index))
        decisions += 1
        if key in TURN_BASED:  # turn-based: applied at once, as named
            assert str(game.record_entries()[before][1]) == chosen
    assert decisions >= 20


@pytest.mark.parametrize("key", TURN_BASED)
def test_turn_based_seats_not_to_act_have_empty_masks(key):
    env = build(key)
    env.reset(seed=2)
    for _ in range(6):
        for agent in env.agents:
            mask = env.observe(agent)["action_mask"]
            assert mask.any() == (agent == env.agent_selection)
        env.step(int(env.last()[0]["action_mask"].nonzero()[0][0]))


@pytest.mark.parametrize("key", list(GAMES))
def test_an_illegal_index_is_refused_naming_it_and_nothing_changes(key):
    env = build(key)
    env.reset(seed=2)
    mask = env.last()[0]["action_mask"]
    off = int(np.nonzero(mask == 0)[0][0])
    version, agent = env.match.game.version, env.agent_selection
    with pytest.raises(IllegalActionError, match=rf"action {off} \('legal\[{off}\]'\) is not in"):
        env.step(off)
    for bad in (mask.size, -1, 1.0, True, "0"):
        with pytest.raises(IllegalActionError, match="legal"):
            env.step(bad)
    assert (env.match.game.version, env.agent_selection) == (version, agent)
    assert np.array_equal(env.last()[0]["action_mask"], mask)


def test_batched_env_checks_every_action_before_any_game_moves():
    envs = vector_env(rs.NAME, 3, 2)
    obs, _ = envs.reset(seed=[1, 2, 3])
    versions = [r.match.game.version for r in envs.runners]
    actions = [int(m.nonzero()[0][0]) for m in obs["action_mask"]]
    actions[2] = int(np.nonzero(obs["action_mask"][2] == 0)[0][0])
    with pytest.raises(IllegalActionError, match="game 2 of 3"):
        envs.step(actions)
    assert [r.match.game.version for r in envs.runners] == versions


@pytest.mark.parametrize("key", list(GAMES))
def test_score_reward_is_refused_for_games_without_progress_or_payouts(key):
    name, players, options = GAMES[key]
    with pytest.raises(OptionError, match="no score reward"):
        aec_env(name, players, options=options, rewards="score")


# --- rewards: partnerships ----------------------------------------------------------------


def test_spades_partners_share_the_win_and_every_step_is_zero_sum():
    env = build("spades")
    env.reset(seed=3)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for _ in env.agent_iter(max_iter=200):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(obs["action_mask"].nonzero()[0][-1]))
        assert sum(env.rewards.values()) == 0
        for agent, value in env.rewards.items():
            total[agent] += value
    result = env.match.game.result
    assert result is not None and len(result.winners) == 2
    assert result.winners[1] == result.winners[0] + 2  # one team
    assert list(total.values()) == win_rewards(result.winners, 4)
    assert sorted(total.values()) == [-1.0, -1.0, 1.0, 1.0]


def test_win_rewards_for_partnerships_and_a_drawn_game():
    assert win_rewards((1, 3), 4) == [-1.0, 1.0, -1.0, 1.0]
    assert win_rewards((0, 1, 2, 3), 4) == [0.0] * 4  # Spades' tie after max_hands


def test_spades_truncated_by_max_actions_pays_nothing():
    env = build("spades", max_actions=10)
    assert env.config.bound == 10
    assert build("spades", max_actions=10**6).config.bound == 70 * 1 + 10  # capped
    env.reset(seed=3)
    total = 0.0
    for _ in env.agent_iter(max_iter=100):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            assert trunc and not term
            env.step(None)
            continue
        env.step(int(obs["action_mask"].nonzero()[0][0]))
        total += sum(abs(v) for v in env.rewards.values())
    assert total == 0 and env.match.game.version == 10


def test_spades_single_seat_learner_is_paid_its_teams_result():
    env = gym_env(sp.NAME, 4, seat=1, options={"target": 50, "max_hands": 1})
    obs, _ = env.reset(seed=3)
    for _ in range(40):
        obs, reward, term, trunc, info = env.step(int(obs["action_mask"].nonzero()[0][0]))
        if term or trunc:
            break
    assert term and info["stalled"] is False
    winners = info["result"]["winners"]
    assert reward == win_rewards(winners, 4)[1] == (1.0 if 1 in winners else -1.0)


def test_generic_encoding_puts_per_seat_fields_relative_to_the_observer():
    """Seat 0's bid shows at relative place (0 - s) % 4 in seat s's observation."""

    def after_bid(tricks: int) -> cardcore.Game:
        game = cardcore.new_game(sp.NAME, 4, options=GAMES["spades"][2], seed=1)
        game.act(0, "look")
        game.act(0, f"bid {tricks}")
        return game

    a, b = after_bid(2), after_bid(5)
    places = []
    for seat in range(4):
        diff = np.nonzero(observe(a, seat)["observation"] != observe(b, seat)["observation"])[0]
        assert len(diff) == 1
        places.append(int(diff[0]))
    base = places[0]
    assert places == [base + (0 - s) % 4 for s in range(4)]


# --- hidden information: stacked twins ----------------------------------------------------


def spades_deck(hands: list[list[str]]) -> list[str]:
    """Seat 3 deals one at a time from seat 0: card k (top first) goes to seat k % 4."""
    return [hands[s][r] for r in range(13) for s in range(4)]


SPADES_HANDS = [DECK[s::4] for s in range(4)]


def test_blind_nil_pile_is_hidden_from_its_owner_in_the_observation():
    opts = GAMES["spades"][2]
    swapped = [SPADES_HANDS[0], SPADES_HANDS[3], SPADES_HANDS[2], SPADES_HANDS[1]]
    a = cardcore.new_game(sp.NAME, 4, options=opts, deck=spades_deck(SPADES_HANDS), seed=1)
    b = cardcore.new_game(sp.NAME, 4, options=opts, deck=spades_deck(swapped), seed=1)
    for game in (a, b):
        game.act(0, "look")
        game.act(0, "bid 3")
    assert a.position() != b.position()
    # seat 1 has not decided: its own 13 cards differ, yet it sees the same
    assert a.view(1) == b.view(1)
    for seat in range(4):
        if seat != 0:
            assert same(observe(a, seat), observe(b, seat)), seat
    for game in (a, b):
        game.act(1, "blind")
    # once declared it sees its cards: the observation is no longer blind to them
    assert not same(observe(a, 1), observe(b, 1))
    assert same(observe(a, 0), observe(b, 0)) and same(observe(a, 2), observe(b, 2))


def test_spite_cards_under_the_payoff_tops_and_in_the_stock_do_not_show():
    def deal(swaps: list[tuple[int, int]]) -> cardcore.Game:
        deck = DECK + DECK
        for i, j in swaps:
            deck[i], deck[j] = deck[j], deck[i]
        return cardcore.new_game(si.NAME, 2, options={"payoff": 4}, deck=deck, seed=1)

    base = deal([])
    # payoff 4: deck 0,2,4 under seat 0's top (6), 1,3,5 under seat 1's (7); hands 8-17
    for seat, swaps in ((0, [(0, 30), (1, 9)]), (1, [(0, 30), (1, 31)])):
        twin = deal(swaps)
        assert twin.position() != base.position()
        assert twin.view(seat) == base.view(seat)
        assert same(observe(twin, seat), observe(base, seat)), seat
    assert not same(observe(deal([(8, 30)]), 0), observe(base, 0))  # own hand shows


def test_ratscrew_unflipped_piles_do_not_show_to_anyone():
    def deal(deck: list[str]) -> cardcore.Game:
        game = cardcore.new_game(rs.NAME, 2, deck=deck, seed=1)
        game.act(0, "flip")
        game.act(1, "flip")
        return game

    twin_deck = list(DECK)
    twin_deck[10], twin_deck[21] = twin_deck[21], twin_deck[10]  # deep in both piles
    a, b = deal(list(DECK)), deal(twin_deck)
    assert a.position() != b.position()
    for seat in (0, 1):
        assert same(observe(a, seat), observe(b, seat)), seat


def test_nertz_face_down_nertz_cards_and_stock_do_not_show_even_to_their_owner():
    def deal(swaps: list[tuple[int, int]]) -> cardcore.Game:
        deck = DECK + DECK[::-1]  # seat 0's block, then seat 1's
        for i, j in swaps:
            deck[i], deck[j] = deck[j], deck[i]
        return cardcore.new_game(nz.NAME, 2, deck=deck, seed=1)

    base = deal([])
    twin = deal([(1, 30), (52 + 2, 52 + 40)])  # nertz face-down <-> stock, in each block
    assert twin.position() != base.position()
    for seat in (0, 1):
        assert same(observe(twin, seat), observe(base, seat)), seat
    assert not same(observe(deal([(0, 30)]), 0), observe(base, 0))  # the nertz top shows


@pytest.mark.parametrize("key", list(GAMES))
def test_determinized_twins_encode_alike_along_an_env_game(key):
    env = build(key)
    env.reset(seed=5)
    rng = random.Random(1)
    checks = moved = 0
    for i, _agent in enumerate(env.agent_iter(max_iter=120)):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        game = env.match.game
        if i % 4 == 0:
            for seat in range(len(game.players)):
                twin = game.determinize(seat, 1000 + i)
                moved += twin.position() != game.position()
                assert same(observe(game, seat), observe(twin, seat)), (seat, game.version)
                checks += 1
        env.step(int(rng.choice(list(np.nonzero(obs["action_mask"])[0]))))
    assert checks >= 4 and moved >= checks // 2  # the twins do differ


# --- seeds ----------------------------------------------------------------------------------


def aec_trace(key: str, seed: int) -> list[Any]:
    env = build(key)
    out: list[Any] = []
    for first in (True, False):
        env.reset(seed=seed) if first else env.reset()
        k = 0
        for agent in env.agent_iter(max_iter=120):
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.nonzero(obs["action_mask"])[0]
            out.append((agent, obs["observation"].tobytes(), reward, int(legal[k % len(legal)])))
            env.step(int(legal[k % len(legal)]))
            k += 1
        out.append([(s, str(a), t) for s, a, t in env.match.game.record_entries()])
    return out


@pytest.mark.parametrize("key", list(GAMES))
def test_a_seed_replays_the_episode_exactly_and_the_unseeded_stream_too(key):
    assert aec_trace(key, 9) == aec_trace(key, 9)
    assert aec_trace(key, 9) != aec_trace(key, 10)


@pytest.mark.parametrize("key", list(GAMES))
def test_reset_seed_plays_the_game_of_that_seed(key):
    name, players, options = GAMES[key]
    env = build(key)
    env.reset(seed=7)
    fresh = cardcore.new_game(name, players, options=options, seed=7)
    assert env.match.game.position() == fresh.position()


@pytest.mark.parametrize("key", list(GAMES))
def test_single_seat_and_batched_envs_replay_from_a_seed(key):
    name, players, options = GAMES[key]

    def single() -> list[Any]:
        env = gym_env(name, players, seat=1, options=options)
        obs, _ = env.reset(seed=4)
        out = []
        for k in range(60):
            legal = np.nonzero(env.action_masks())[0]
            obs, reward, term, trunc, info = env.step(int(legal[k % len(legal)]))
            out.append((obs["observation"].tobytes(), reward, term, trunc, repr(info)))
            if term or trunc:
                obs, _ = env.reset()
        return out

    def batched() -> list[Any]:
        envs = vector_env(name, 2, players, options=options)
        obs, _ = envs.reset(seed=[4, 5])
        out = []
        for k in range(40):
            acts = [int(np.nonzero(m)[0][k % int(m.sum())]) for m in obs["action_mask"]]
            obs, reward, term, _, _ = envs.step(acts)
            out.append((obs["observation"].tobytes(), reward.tobytes(), term.tobytes()))
        return out

    assert single() == single()
    assert batched() == batched()


def test_a_game_the_opponent_ends_before_the_learner_acts_is_listed_as_skipped():
    """Spite with one payoff card: at seed 103 seat 0 plays it at once."""
    env = gym_env(si.NAME, 2, seat=1, options={"payoff": 1})
    _, info = env.reset(seed=103)
    (skipped,) = info["skipped"]
    assert (
        env.runner.skipped[0]["seed"] == 103
        and skipped["actions"] == 1
        and skipped["reward"] == -1.0
    )
    assert skipped["result"]["winners"] == [0]
    game = env.runner.match.game
    assert not game.is_over and game.to_act == (1,)


# --- real time ------------------------------------------------------------------------------


def test_ratscrew_seats_deciding_at_one_time_see_one_state_in_seat_order():
    env = build("ratscrew")
    env.reset(seed=4)
    assert env.agent_selection == "player_0"  # only the flipper has a legal action
    env.step(0)
    version = env.match.game.version
    batch = []
    for _ in range(3):
        agent = env.agent_selection
        batch.append(agent)
        assert env.match.game.version == version  # nothing applied until all are in
        env.step(0)
    assert batch == ["player_0", "player_1", "player_2"]


def test_ratscrew_stale_is_told_only_to_the_agent_selected_again():
    env = build("ratscrew")
    env.reset(seed=2)
    rng = random.Random(3)
    told = 0
    for agent in env.agent_iter(max_iter=250):
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        assert not any(env.infos[a].get("stale") for a in env.agents if a != agent)
        told += bool(info.get("stale"))
        env.step(int(rng.choice(list(np.nonzero(obs["action_mask"])[0]))))
    assert told > 0


def test_single_seat_learner_step_dropped_as_stale_is_not_applied():
    env = gym_env(rs.NAME, 2, seat=1)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(0)
    stale = 0
    for _ in range(150):
        game = env.runner.match.game
        mine = sum(1 for s, _, _ in game.record_entries() if s == 1)
        obs, _, term, trunc, info = env.step(int(rng.choice(np.nonzero(obs["action_mask"])[0])))
        if info.get("stale"):
            stale += 1
            assert sum(1 for s, _, _ in game.record_entries() if s == 1) == mine
        if term or trunc:
            break
    assert stale > 0


def test_ratscrew_has_no_no_op_a_seat_asked_off_turn_must_slap():
    """Docs: no no-op in real time. Off turn, Ratscrew's only legal action is a slap."""
    env = build("ratscrew")
    env.reset(seed=4)
    env.step(0)  # seat 0 flips
    game = env.match.game
    assert env.agent_selection == "player_0"  # asked again, now off turn
    (only,) = game.legal_actions(0)
    assert str(only).startswith("slap ")
    assert env.last()[0]["action_mask"].tolist() == [1, 0]


def test_real_time_reaction_is_checked_and_seeded_lognormal():
    import math
    import statistics

    from cardcore.rl import Match

    for bad in ([0.5, 0.5], -1, 3601, float("nan")):
        with pytest.raises(OptionError, match="reaction"):
            build("ratscrew", reaction=bad)
    env = build("ratscrew", reaction=0.5)
    match, again = Match(env.config, 5), Match(env.config, 5)
    delays = [match.delay(0) for _ in range(300)]
    assert delays[:5] == [again.delay(0) for _ in range(5)]  # seeded by the game's seed
    assert 0.45 < statistics.median(delays) < 0.55
    assert 0.25 < statistics.pstdev(math.log(d) for d in delays) < 0.35


@pytest.mark.parametrize("key", REAL_TIME)
def test_real_time_batched_env_ends_and_deals_again_in_the_same_step(key):
    name, players, options = GAMES[key]
    envs = vector_env(name, 3, players, options=options)
    obs, _ = envs.reset(seed=[4, 5, 6])
    rng = np.random.default_rng(1)
    for _ in range(300):
        acts = [int(rng.choice(np.nonzero(m)[0])) for m in obs["action_mask"]]
        obs, reward, term, _, info = envs.step(acts)
        if term.any():
            break
    assert term.any()
    i = int(np.nonzero(term)[0][0])
    assert info["_final_obs"][i] and info["final_obs"][i]["observation"][-1] == 1.0
    assert obs["observation"][i][-1] == 0.0  # dealt again: not over
    assert info["final_info"][i]["result"]["winners"]
    assert reward[i] == win_rewards(info["final_info"][i]["result"]["winners"], players)[0]
    assert all(info["final_obs"][j] is None for j in range(3) if not term[j])
