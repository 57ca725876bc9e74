"""A researcher's first session with cardcore, from the docs alone (2026-12-29).

Pages followed: docs/rl.rst, docs/search-agents.rst, docs/agents.rst,
docs/house-rule-study.rst, docs/cli.rst, docs/embedding.rst, docs/tutorial.rst.
The session trained against the reinforcement-learning environments of Golf, Tonk and
Spit, wrote its own agent and a determinization search bot, ran a Golf house-rule study
with ``cardcore.compare`` and ``cardcore compare``, and tried the edge cases a researcher
hits. No documented claim it checked failed and no input it tried raised a raw Python
exception, so this file has no xfails: it pins the claims that held and that a study
depends on (observation layouts, hidden information, seeding, figures, refusals).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
import warnings

import pytest

import cardcore
from cardcore import cli

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from cardcore.rl import aec_env, gym_env, observe, vector_env  # noqa: E402

GOLF1 = {"rounds": 1}


def _random_aec_hash(env, seed, resets, rng_seed=0):
    """Play random legal actions over several episodes; hash every observation."""
    env.reset(seed=seed)
    rng = np.random.default_rng(rng_seed)
    digests = []
    for k in range(resets):
        if k:
            env.reset()
        h = hashlib.sha256()
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _info = env.last()
            h.update(obs["observation"].tobytes())
            h.update(obs["action_mask"].tobytes())
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        digests.append(h.hexdigest())
    return digests


# --- (1) the environments: the doc example, layouts, hidden information --------------


def test_rl_doc_example_golf_aec_holds():
    env = aec_env("golf", 2, options=GOLF1)
    env.reset(seed=7)
    assert env.agent_selection == "player_0"
    obs, _reward, _term, _trunc, _info = env.last()
    assert obs["observation"].shape == (253,)
    assert obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (22,)
    names = env.config.observer.names
    assert [names[i] for i in obs["action_mask"].nonzero()[0]] == [f"flip {p}" for p in range(6)]
    env.step(10)
    assert env.match.game.record_entries()[0][1].notation() == "flip 0"


def _golf_size(n, s):
    # grids n*S*16, discard 15, held 16, phase 4, to act n+1, knocker n+1; scalars:
    # n*S points, discard and held points, stock and discard sizes, round, final turns,
    # n totals (cardcore_golf.encoding's documented layout)
    return n * s * 16 + 15 + 16 + 4 + 2 * (n + 1) + n * s + 2 + 2 + 1 + 1 + n


@pytest.mark.parametrize(
    ("players", "layout"), [(2, 4), (2, 6), (3, 8), (2, 9), (2, 10), (2, "4h")]
)
def test_golf_observation_and_action_sizes_match_documented_layout(players, layout):
    env = aec_env("golf", players, options={"rounds": 1, "layout": layout})
    env.reset(seed=1)
    obs, *_ = env.last()
    s = 4 if layout == "4h" else layout
    assert obs["action_mask"].shape == (4 + 3 * s,)
    assert obs["observation"].shape == (_golf_size(players, s),)
    names = env.config.observer.names
    assert names[:4] == ("draw", "take", "discard", "knock")
    assert names[4 + s] == "flip 0" and names[4 + 2 * s] == "peek 0"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tonk_observation_size_matches_documented_layout(players):
    options = {"max_players": 4} if players == 4 else None
    env = aec_env("tonk", players, options=options)
    env.reset(seed=1)
    obs, *_ = env.last()
    n = players
    count = 52 + 53 + 53 + 17 * 52 + 17 * n + 4 + n + n
    scalars = 2 + n + 1 + n + 1
    assert obs["observation"].shape == (count + scalars,)
    assert obs["action_mask"].shape == (1157,)


def test_spit_observation_size_matches_documented_layout():
    env = aec_env("spit", 2)
    env.reset(seed=1)
    obs, *_ = env.last()
    # per seat and pile a top rank of 14, per spit pile a top rank of 14 (13 = empty),
    # phase 4, emptier 3, observer 2; scalars 2*5*2 + 2*4 + 2 + 1 + 1 + 1
    assert obs["observation"].shape == (2 * 5 * 14 + 2 * 14 + 4 + 3 + 2 + 20 + 8 + 5,)
    assert obs["action_mask"].shape == (64,)
    names = env.config.observer.names
    assert names[60:62] == ("ready", "spit")


def test_golf_grid_planes_decode_to_the_seats_view():
    """Seats relative, observing seat first; rank 1..13, 14 face down or unseen."""
    game = cardcore.new_game("golf", 2, seed=7, options=GOLF1)
    rng = random.Random(3)
    ranks = {"A": 1, "J": 11, "Q": 12, "K": 13}

    def code(card):
        return 14 if card is None else ranks.get(card[:-1]) or int(card[:-1])

    checked = 0
    for _ in range(30):
        if game.is_over:
            break
        for seat in (0, 1):
            table = game.view(seat)["table"]
            grids = observe(game, seat)["observation"][: 2 * 6 * 16].reshape(2, 6, 16)
            for rel in (0, 1):
                for pos, card in enumerate(table["grids"][(seat + rel) % 2]):
                    assert int(np.argmax(grids[rel, pos])) == code(card)
                    checked += 1
        mover = game.to_act[0]
        game.apply(rng.choice(game.legal_actions(mover)))
    assert checked > 200


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("golf", 2, GOLF1),
        ("golf", 3, {"rounds": 1, "layout": "4h"}),
        ("tonk", 3, None),
        ("spit", 2, None),
    ],
)
def test_hidden_cards_never_reach_another_seats_observation(game, players, options):
    """Two deals differing only in cards a seat cannot see give it the same observation."""
    probe = cardcore.new_game(game, players, seed=1, options=options)
    deck = [str(c) for c in cardcore.get_ruleset(game).logic.deck(players, probe.options)]
    random.Random(5).shuffle(deck)
    base = cardcore.new_game(game, players, deck=" ".join(deck), seed=1, options=options)
    pairs = 0
    for i in range(0, len(deck), 3):
        for j in range(i + 1, min(len(deck), i + 6)):
            if deck[i] == deck[j]:
                continue
            other = list(deck)
            other[i], other[j] = other[j], other[i]
            twin = cardcore.new_game(game, players, deck=" ".join(other), seed=1, options=options)
            if twin.position() == base.position():
                continue
            for seat in range(players):
                if twin.view(seat) != base.view(seat):
                    continue
                pairs += 1
                a, b = observe(base, seat), observe(twin, seat)
                assert np.array_equal(a["observation"], b["observation"]), (i, j, seat)
                assert np.array_equal(a["action_mask"], b["action_mask"]), (i, j, seat)
    assert pairs > 20


def test_determinized_twins_observe_alike_along_a_golf_game():
    game = cardcore.new_game("golf", 2, seed=11, options={"rounds": 2})
    rng = random.Random(2)
    for step in range(60):
        if game.is_over:
            break
        for seat in (0, 1):
            twin = game.determinize(seat, seed=step)
            assert np.array_equal(
                observe(game, seat)["observation"], observe(twin, seat)["observation"]
            )
        mover = game.to_act[0]
        game.apply(rng.choice(game.legal_actions(mover)))


@pytest.mark.parametrize(
    ("game", "players", "options"), [("golf", 2, GOLF1), ("tonk", 3, None), ("spit", 2, None)]
)
def test_pettingzoo_api_test_passes(game, players, options):
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env(game, players, options=options), num_cycles=20)


@pytest.mark.parametrize(("game", "options"), [("golf", GOLF1), ("tonk", None)])
def test_turn_based_parallel_conversion_trains_and_pays_zero_sum(game, options):
    from pettingzoo.test import parallel_api_test
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(
            turn_based_aec_to_parallel(aec_env(game, 2, options=options)), num_cycles=20
        )
    penv = turn_based_aec_to_parallel(aec_env(game, 2, options=options))
    obs, _infos = penv.reset(seed=3)
    rng = np.random.default_rng(0)
    returns = dict.fromkeys(penv.possible_agents, 0.0)
    while penv.agents:
        actions = {}
        for agent in penv.agents:
            mask = obs[agent]["action_mask"]
            actions[agent] = int(rng.choice(np.flatnonzero(mask))) if mask.any() else 0
        obs, rewards, _term, _trunc, _infos = penv.step(actions)
        for agent, r in rewards.items():
            returns[agent] += r
    assert sorted(returns.values()) == [-1.0, 1.0]


def test_aec_observations_are_not_overwritten_by_later_steps():
    env = aec_env("spit", 2)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    kept = []
    for _agent in env.agent_iter(max_iter=40):
        obs, _r, term, trunc, _info = env.last()
        kept.append((obs, {k: v.copy() for k, v in obs.items()}))
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert all(np.array_equal(obs[k], snap[k]) for obs, snap in kept for k in snap)


def test_vector_env_copy_flag_and_final_obs_match_single_seat_env():
    shared = vector_env("golf", 2, 2, options=GOLF1, copy=False)
    obs, _ = shared.reset(seed=1)
    first = obs["observation"]
    obs2, *_ = shared.step([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])
    assert obs2["observation"] is first  # documented: the same arrays every step

    batch = vector_env("golf", 1, 2, options=GOLF1)
    single = gym_env("golf", 2, options=GOLF1)
    bobs, _ = batch.reset(seed=[11])
    sobs, _ = single.reset(seed=11)
    rng = np.random.default_rng(5)
    for _ in range(200):
        assert np.array_equal(bobs["observation"][0], sobs["observation"])
        action = int(rng.choice(np.flatnonzero(sobs["action_mask"])))
        sobs, sr, sterm, strunc, sinfo = single.step(action)
        bobs, br, bterm, btrunc, binfo = batch.step([action])
        if sterm or strunc:
            assert binfo["_final_obs"][0] and (bterm[0], btrunc[0], br[0]) == (sterm, strunc, sr)
            assert np.array_equal(binfo["final_obs"][0]["observation"], sobs["observation"])
            assert binfo["final_info"][0] == sinfo
            assert json.dumps(sinfo["result"])  # JSON-ready data
            break
    else:
        pytest.fail("the one-hole game did not end")


def test_truncation_by_max_actions_pays_nothing():
    env = aec_env("golf", 2, options=GOLF1, max_actions=5)
    env.reset(seed=1)
    ends = {}
    acted = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            ends[agent] = (reward, term, trunc, info["result"]["reason"])
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        acted += 1
    assert acted == 5 and env.config.bound == 5
    assert ends == dict.fromkeys(("player_0", "player_1"), (0.0, False, True, "truncated"))


def test_two_and_sixty_four_seat_golf_and_seat_limits():
    env = aec_env("golf", 64, options=GOLF1)
    env.reset(seed=1)
    obs, *_ = env.last()
    assert obs["observation"].shape == (_golf_size(64, 6),)
    assert len(env.agents) == 64
    for game, players in (("golf", 1), ("golf", 65), ("spit", 3), ("tonk", 4)):
        with pytest.raises(cardcore.OptionError):
            aec_env(game, players)


def test_score_reward_return_is_the_documented_standing():
    env = aec_env("golf", 3, options={"rounds": 2}, rewards="score")
    env.reset(seed=5)
    rng = np.random.default_rng(1)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        for a, r in env.rewards.items():
            returns[a] += r
    scores = env.match.game.result.scores
    for i in range(3):
        expected = (sum(scores[j] for j in range(3) if j != i) / 2 - scores[i]) / 10
        assert returns[f"player_{i}"] == pytest.approx(expected)


def test_tonk_natural_at_the_deal_is_listed_as_skipped_everywhere():
    seed = next(s for s in range(2000) if cardcore.new_game("tonk", 2, seed=s).is_over)
    env = aec_env("tonk", 2)
    env.reset(seed=seed)
    skipped = env.infos["player_0"]["skipped"]
    assert env.skipped_seeds == [seed] and skipped[0]["result"]["reason"] == "natural"
    assert skipped[0]["reward"] == -env.infos["player_1"]["skipped"][0]["reward"]
    single = gym_env("tonk", 2)
    _obs, info = single.reset(seed=seed)
    assert single.runner.skipped[0]["seed"] == seed and "seed" not in info["skipped"][0]
    _obs, infos = vector_env("tonk", 2, 2).reset(seed=[seed, seed + 1])
    assert infos["_skipped"].tolist() == [True, False]


def test_reset_seed_stream_is_reproducible_in_one_process():
    env = aec_env("golf", 2, options=GOLF1)
    first = _random_aec_hash(env, 4, 3)
    again = _random_aec_hash(env, 4, 3)
    assert first == again
    assert len(set(first)) == 3  # later resets deal other games


def test_reset_seed_stream_is_reproducible_across_processes():
    code = (
        "import hashlib, numpy as np\n"
        "from cardcore.rl import aec_env\n"
        "env = aec_env('golf', 2, options={'rounds': 1})\n"
        "env.reset(seed=4); rng = np.random.default_rng(0); h = hashlib.sha256()\n"
        "for k in range(2):\n"
        "    if k: env.reset()\n"
        "    for a in env.agent_iter():\n"
        "        o, r, te, tr, i = env.last(); h.update(o['observation'].tobytes())\n"
        "        env.step(None if te or tr else int(rng.choice(np.flatnonzero(o['action_mask']))))\n"
        "print(h.hexdigest())\n"
    )
    outs = set()
    for hashseed in ("1", "987"):
        proc = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": hashseed},
            check=True,
            timeout=60,
        )
        outs.add(proc.stdout.strip())
    assert len(outs) == 1


def test_wait_action_changes_nothing_but_the_mask():
    plain = gym_env("spit", 2, opponents="spit-greedy")
    waiting = gym_env("spit", 2, opponents="spit-greedy", wait=True)
    a, _ = plain.reset(seed=4)
    b, _ = waiting.reset(seed=4)
    rng = np.random.default_rng(2)
    for _ in range(300):
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"][:-1])
        action = int(rng.choice(np.flatnonzero(a["action_mask"])))
        a, ra, ta, tra, _ = plain.step(action)
        b, rb, tb, trb, _ = waiting.step(action)
        assert (ra, ta, tra) == (rb, tb, trb)
        if ta or tra:
            break
    # a learner that always waits never says ready: the deal stalls, truncated
    wait = waiting.action_space.n - 1
    waiting.reset(seed=1)
    for _ in range(5):
        _obs, _r, term, trunc, info = waiting.step(wait)
        if term or trunc:
            break
    assert trunc and info["stalled"]


@pytest.mark.parametrize(
    "build",
    [
        lambda: aec_env("golf", 2, rules="golf.jokers"),
        lambda: aec_env("golf", 2, options={"rounds": 0}),
        lambda: aec_env("golf", 2, max_actions=0),
        lambda: aec_env("golf", 2, wait=True),
        lambda: aec_env("spit", 2, rewards="score"),
        lambda: aec_env("spit", 2, reaction=float("nan")),
        lambda: gym_env("golf", 2, seat=2),
        lambda: gym_env("golf", 2, opponents="tonk-heuristic"),
        lambda: gym_env("golf", 2, opponents="random:foo=1"),
        lambda: vector_env("golf", 0, 2),
        lambda: vector_env("golf", 2, 2, copy="yes"),
    ],
)
def test_bad_environment_arguments_are_cardcore_errors(build):
    with pytest.raises(cardcore.CardcoreError):
        build()


def test_bad_seeds_and_actions_are_cardcore_errors_and_change_nothing():
    env = aec_env("golf", 2, options=GOLF1)
    with pytest.raises(cardcore.CardcoreError):
        env.last()
    for seed in (-1, 1.0, np.int64(1), 2**200, "1"):
        with pytest.raises(cardcore.OptionError):
            env.reset(seed=seed)
    env.reset(seed=1)
    for action in (10.0, -1, 22, 0, None, True):
        with pytest.raises(cardcore.IllegalActionError):
            env.step(action)
    assert env.match.game.version == 0
    env.step(np.int64(10))  # numpy integer actions are taken
    assert env.match.game.version == 1
    with pytest.raises(cardcore.OptionError):
        env.reset(options={"rounds": 3})


# --- (2) agents: one of my own, a determinization bot, ISMCTS, the figures ------------


class LowTaker:
    """Takes the discard when it may, else replaces or flips the first position."""

    games = ("golf",)

    def __init__(self, seed=0):
        self.seed = seed

    def choose(self, view, legal):
        names = [str(a) for a in legal]
        for wanted in ("take", "replace 0", "flip 0"):
            if wanted in names:
                return legal[names.index(wanted)]
        return legal[-1]


class FlatDeterminization:
    """Perfect-information Monte Carlo from the docs: sample_position + new_game(position=...)."""

    def __init__(self, seed=0, samples=2):
        self.rng = random.Random(seed)
        self.samples = samples

    def choose(self, view, legal):
        from cardcore.search import sample_position, view_config

        if len(legal) == 1:
            return legal[0]
        cfg = view_config(view)
        seat = view["seat"]
        best, best_value = legal[0], float("-inf")
        for action in legal:
            value = 0.0
            for _ in range(self.samples):
                world = cardcore.new_game(
                    cfg.game,
                    cfg.players,
                    rules=list(cfg.rules),
                    options=cfg.options,
                    position=sample_position(view, self.rng),
                    seed=self.rng.getrandbits(64),
                )
                world.act(seat, str(action))
                for _ in range(200):
                    if world.is_over:
                        break
                    mover = world.to_act[0]
                    world.apply(self.rng.choice(world.legal_actions(mover)))
                if world.is_over:
                    value -= world.result.scores[seat]
            if value > best_value:
                best, best_value = action, value
        return best


@pytest.fixture
def my_agents():
    cardcore.register("cardcore.agents", "r29-low", LowTaker)
    cardcore.register("cardcore.agents", "r29-pimc", FlatDeterminization)
    yield
    cardcore.unregister("cardcore.agents", "r29-low")
    cardcore.unregister("cardcore.agents", "r29-pimc")


def test_search_doc_example_and_ismcts_is_deterministic_per_seed():
    from cardcore.search import ISMCTSAgent

    game = cardcore.new_game("golf", 2, seed=7, options=GOLF1)
    result = cardcore.play(game, [ISMCTSAgent(seed=7, iterations=30), cardcore.RandomAgent(1)])
    assert result.reason == "rounds"

    def first_choice(seed):
        g = cardcore.new_game("golf", 2, seed=9, options=GOLF1)
        for text in ("flip 0", "flip 3", "flip 0", "flip 3"):
            g.act(g.to_act[0], text)
        seat = g.to_act[0]
        return [
            str(ISMCTSAgent(seed=seed, iterations=20).choose(g.view(seat), g.legal_actions(seat)))
            for _ in "ab"
        ]

    choices = first_choice(3)
    assert choices[0] == choices[1]


def test_mixed_lineup_rotates_seats_and_agent_wins_name_the_stronger(my_agents):
    c = cardcore.compare(
        "golf",
        agents=["r29-low", "ismcts:iterations=10"],
        games=8,
        seed=2,
        options=GOLF1,
        skill=None,
    )
    wins = c.a.agent_wins
    assert sorted(wins) == ["ismcts:iterations=10", "r29-low"]
    assert wins["ismcts:iterations=10"].mean + wins["r29-low"].mean == pytest.approx(1.0)
    assert wins["ismcts:iterations=10"].mean > wins["r29-low"].mean
    # ISMCTS won every game of these seeds while alternating seats: each seat won half
    assert wins["ismcts:iterations=10"].mean == 1.0
    assert [s.mean for s in c.a.seat_wins] == [0.5, 0.5]
    # first-seat advantage is seat 0's share less 1/2, its Wilson interval shifted alike
    assert c.a.first_seat.mean == pytest.approx(c.a.seat_wins[0].mean - 0.5)
    assert c.a.first_seat.low == pytest.approx(c.a.seat_wins[0].low - 0.5)
    # A against itself: the same games, no difference
    assert c.diff["actions"].mean == 0 and c.diff["actions"].low == c.diff["actions"].high == 0


def test_my_determinization_bot_plays_through_compare(my_agents):
    c = cardcore.compare(
        "golf", agents=["r29-pimc:samples=1", "random"], games=2, seed=1, options=GOLF1, skill=None
    )
    assert c.a.games == 2 and sum(w.mean for w in c.a.agent_wins.values()) <= 1.0 + 1e-9


def test_wilson_interval_figures_are_the_documented_formula():
    c = cardcore.compare(
        "golf", agents=["golf-greedy", "random"], games=12, seed=3, options=GOLF1, skill=None
    )
    est = c.a.agent_wins["golf-greedy"]
    k, n, z = round(est.mean * est.n), est.n, 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    assert (est.low, est.high) == pytest.approx((centre - half, centre + half), abs=1e-6)
    assert est.interval == "wilson" and c.diff["actions"].interval == "normal"


# --- (3) the house-rule study: Python, the command line, JSON, refusals ---------------


def _without_clock(doc):
    for side in ("a", "b"):
        doc[side].pop("slowest")
        doc[side].pop("decisions_per_s")
    return doc


def test_compare_doc_example_and_rule_id_aliases():
    result = cardcore.compare("golf", rules=["golf.jokers"], games=10, seed=1, options=GOLF1)
    assert (result.a.rules, result.b.rules) == (("golf.jokers",), ())
    assert (result.same_deals, result.diff["actions"].n) == (False, 10)
    same = cardcore.compare(
        "golf", rules=["golf.hard"], vs=["GOLF-SCORE-2"], games=4, seed=1, options=GOLF1
    )
    assert same.a.rules == same.b.rules == ("golf.hard",) and same.same_deals
    assert all(same.diff[k].mean == 0 for k in ("actions", "spread", "first_seat"))


def test_compare_is_reproducible_for_a_seed_and_duplicate_deals_pair_games():
    def run(seed):
        return _without_clock(
            cardcore.compare(
                "golf", rules=["golf.hard"], games=12, seed=seed, options=GOLF1
            ).to_json()
        )

    first = run(4)
    assert first == run(4)
    assert first != run(5)
    assert first["same_deals"] is True
    # golf-greedy plays the same whatever the scoring: the same games, only scored otherwise
    assert first["diff"]["actions"]["mean"] == first["diff"]["actions"]["low"] == 0


def test_vs_options_default_drops_options_only_a_rule_takes():
    c = cardcore.compare(
        "golf",
        rules=["golf.bonus-card"],
        options={"bonus_card": "K", "rounds": 1},
        games=2,
        skill=None,
    )
    assert c.a.options["bonus_card"] == "K"
    assert "bonus_card" not in c.b.options and c.b.options["rounds"] == 1


def test_cli_compare_json_is_the_same_with_two_workers(tmp_path, capsys):
    paths = []
    for extra in ([], ["--workers", "2"]):
        path = tmp_path / f"w{len(extra)}.json"
        argv = ["compare", "golf", "--rules", "golf.hard", "-n", "20", "-s", "4", "-o", "rounds=1"]
        assert cli.main([*argv, "--json", str(path), *extra]) == 0
        paths.append(path)
    capsys.readouterr()
    one, two = (_without_clock(json.loads(p.read_text())) for p in paths)
    assert one == two


def test_cli_compare_json_to_stdout_is_strict_json_with_null_for_one_game(capsys):
    assert cli.main(["compare", "golf", "-n", "1", "-o", "rounds=1", "--json", "-"]) == 0
    out, err = capsys.readouterr()

    def refuse(constant):
        raise ValueError(constant)

    doc = json.loads(out, parse_constant=refuse)
    assert doc["a"]["actions"]["low"] is None and doc["a"]["actions"]["high"] is None
    assert "first-seat" in err  # the table went to standard error
    assert "A vs B" not in err  # no progress bar ("golf: A vs B on ...") off a terminal


@pytest.mark.parametrize(
    "args",
    [
        ["--rules", "golf.nope"],
        ["--vs", "golf.nope"],
        ["--vs-option", "rounds=0"],
        ["--rules", "golf.diagonal-pairs"],
        ["--agents", "nobody"],
        ["--agents", "ismcts:iterations=0"],
        ["--agents", "ismcts:iters=3"],
        ["--agents", "seed=7,random"],
        ["--games", "0"],
        ["--games", "-3"],
        ["--workers", "-1"],
        ["--workers", "0"],
        ["--seed", "-1"],
        ["--players", "1"],
        ["--move-time", "0"],
    ],
)
def test_cli_compare_bad_input_is_one_line_and_status_2(args, capsys):
    assert cli.main(["compare", "golf", "-n", "2", *args]) == 2
    _out, err = capsys.readouterr()
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err


def test_cli_compare_out_of_bounds_option_is_status_2(capsys):
    assert cli.main(["compare", "golf", "-n", "2", "-o", "rounds=1000"]) == 2
    assert "at most 100" in capsys.readouterr().err


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rules": ["golf.nope"]},
        {"rules": "golf.hard"},
        {"options": {"rounds": 1000}},
        {"agents": "ismcts:iterations=0"},
        {"agents": ["random", "random", "random"], "players": 2},
        {"games": 0},
        {"games": -1},
        {"seed": -1},
        {"chunk": 0},
        {"move_time": float("nan")},
        {"skill": ("a", "b", "c")},
        {"executor": 3},
        {"progress": 3},
        {"rules": ["golf.jokers", "golf.bonus-twos"]},
    ],
)
def test_compare_bad_input_is_a_cardcore_error(kwargs):
    with pytest.raises(cardcore.CardcoreError):
        cardcore.compare("golf", **{"games": 2, "skill": None, **kwargs})


def test_compare_progress_counts_every_game_including_probes():
    calls = []
    cardcore.compare("golf", games=6, seed=1, options=GOLF1, progress=calls.append)
    assert sum(calls) == 2 * 6 * 2
