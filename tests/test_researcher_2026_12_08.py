"""A researcher's first afternoon with cardcore, from the docs alone (2026-12-08).

Train-loop use of the PettingZoo and Gymnasium environments, hidden information in
observations, the ISMCTS agent, simulate/compare for a house-rule study and a custom
agent plugged in everywhere. Passing tests pin what was checked and works; strict xfails
are what the docs promise and the engine does not do.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import cli
from cardcore.rl import aec_env, encoding_for, gym_env, observe, vector_env
from cardcore.search import ISMCTSAgent


class FirstLegal:
    """The docs' custom agent (docs/agents.rst), with the ``seed`` keyword simulate passes."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[0]


class NoSeed:
    """The docs' custom agent exactly as written: no ``seed`` keyword."""

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[0]


class RequiredSeed:
    """An agent meant to be used by name: it 'takes a seed keyword' (docs/agents.rst)."""

    def __init__(self, *, seed: int) -> None:
        self.seed = seed

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[0]


@pytest.fixture
def registered() -> Iterator[None]:
    agents = {
        "researcher-first": FirstLegal,
        "researcher-noseed": NoSeed,
        "researcher-required-seed": RequiredSeed,
    }
    for name, factory in agents.items():
        cardcore.register("cardcore.agents", name, factory)
    yield
    for name in agents:
        cardcore.unregister("cardcore.agents", name)


def _random_masked_episode(env: Any, seed: int, rng: np.random.Generator) -> dict[str, float]:
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(5000):
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        seat = int(agent.rsplit("_", 1)[1])
        names = env.config.observer.names
        legal = sorted(str(a) for a in env.match.legal(seat))
        assert sorted(names[i] for i in np.flatnonzero(obs["action_mask"])) == legal
        assert env.observation_space(agent).contains(obs)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@pytest.mark.parametrize(
    ("game", "players", "rules", "options"),
    [
        ("golf", 3, ["golf.remove-triples"], {"layout": 9, "rounds": 1}),
        ("golf", 2, ["golf.knock-final-stock-only"], {"layout": "4h", "rounds": 1}),
        ("speed", 2, [], {"jokers": 2}),
    ],
)
def test_masks_match_the_legal_set_and_win_rewards_are_zero_sum_under_house_rules(
    game: str, players: int, rules: list[str], options: dict[str, Any]
) -> None:
    env = aec_env(game, players, rules=rules, options=options)
    rng = np.random.default_rng(0)
    for seed in (0, 1):
        totals = _random_masked_episode(env, seed, rng)
        assert abs(sum(totals.values())) < 1e-9
        winners = env.match.game.result.winners
        paid = [s for s, agent in enumerate(env.possible_agents) if totals[agent] == 1.0]
        assert paid == ([] if len(winners) in (0, players) else sorted(winners))


def test_score_rewards_add_up_to_the_documented_standing() -> None:
    """Golf pays (the other seats' mean total minus its own) / 10; Tonk the stakes."""
    for game, options in (("golf", {"rounds": 2}), ("tonk", {"hands": 2})):
        env = aec_env(game, 3, options=options, rewards="score")
        totals = _random_masked_episode(env, 4, np.random.default_rng(4))
        result = env.match.game.result
        if game == "golf":
            scores = result.scores
            expected = [((sum(scores) - s) / 2 - s) / 10 for s in scores]
        else:
            expected = list(result.payouts)
        assert list(totals.values()) == pytest.approx(expected)


def _parse_position(text: str) -> tuple[str, list[list[Any]]]:
    head, *sections = text.split(" | ")
    piles = []
    for section in sections:
        name, _, cards = section.partition(":")
        piles.append([name.strip(), cards.split()])
    return head, piles


def _swapped_twin(game: Any, seat: int, rng: random.Random) -> Any:
    """The game with two cards the seat cannot see swapped, written by hand (no determinize)."""
    head, piles = _parse_position(game.position())
    shown = {z["name"]: z["cards"] for z in game.view(seat)["zones"]}
    hidden = []
    for i, (name, cards) in enumerate(piles):
        view_cards = shown.get(name)
        if view_cards is None or len(view_cards) != len(cards):
            continue
        hidden += [(i, j) for j in range(len(cards)) if view_cards[len(cards) - 1 - j] is None]
    if len(hidden) < 2:
        return None
    (a, b), (c, d) = rng.sample(hidden, 2)
    x = re.match(r"^(\w+?)([!@].*)?$", piles[a][1][b])
    y = re.match(r"^(\w+?)([!@].*)?$", piles[c][1][d])
    assert x and y
    if x.group(1) == y.group(1):
        return None
    piles[a][1][b] = y.group(1) + (x.group(2) or "")
    piles[c][1][d] = x.group(1) + (y.group(2) or "")
    text = " | ".join([head] + [f"{n}:" + "".join(" " + c for c in cs) for n, cs in piles])
    return cardcore.new_game(
        game.name, len(game.players), options=game.options, position=text, seed=1
    )


@pytest.mark.parametrize(
    ("game", "options"), [("golf", {"rounds": 1, "layout": "4h"}), ("tonk", None), ("spit", None)]
)
def test_swapping_two_unseen_cards_by_hand_changes_neither_view_nor_observation(
    game: str, options: dict[str, Any] | None
) -> None:
    twins = 0
    for seed in range(6):
        real = cardcore.new_game(game, 2, seed=seed, options=options)
        rng = random.Random(seed)
        for _ in range(40):
            if real.is_over:
                break
            for seat in (0, 1):
                twin = _swapped_twin(real, seat, rng)
                if twin is None:
                    continue
                twins += 1
                a = {k: v for k, v in real.view(seat).items() if k != "version"}
                b = {k: v for k, v in twin.view(seat).items() if k != "version"}
                assert a == b
                oa, ob = observe(real, seat), observe(twin, seat)
                assert np.array_equal(oa["observation"], ob["observation"])
                assert np.array_equal(oa["action_mask"], ob["action_mask"])
            actions = [act for s in real.to_act for act in real.legal_actions(s)]
            real.apply(rng.choice(actions))
    assert twins > 10


def test_ismcts_games_replay_from_their_seeds_and_respect_a_time_budget() -> None:
    records = []
    for _ in range(2):
        game = cardcore.new_game("gofish", 2, seed=3)
        bots = [ISMCTSAgent(seed=1, iterations=6), ISMCTSAgent(seed=2, iterations=6)]
        cardcore.play(game, bots, max_actions=30)
        records.append(game.record()["actions"])
    assert records[0] == records[1]
    game = cardcore.new_game("golf", 2, seed=2, options={"rounds": 1})
    for text in ("flip 0", "flip 1", "flip 0", "flip 1"):
        game.act(game.to_act[0], text)
    bot = ISMCTSAgent(seed=1, iterations=None, time=0.02)
    start = time.perf_counter()
    bot.choose(game.view(game.to_act[0]), game.legal_actions(game.to_act[0]))
    assert time.perf_counter() - start < 2.0  # 20 ms and the iteration under way, on a loaded box
    assert bot.last_iterations >= 1


def test_a_custom_agent_plugs_into_simulate_compare_play_and_the_envs(registered: None) -> None:
    summary = cardcore.simulate(
        "golf", games=4, agents=["researcher-first", "random"], options={"rounds": 1}, seed=3
    )
    assert summary.games == 4 and sum(summary.wins) == pytest.approx(4)
    study = cardcore.compare(
        "golf",
        agents=["researcher-first", "random"],
        games=4,
        options={"rounds": 1},
        skill=("researcher-first", "random"),
    )
    assert study.a.skill is not None and study.a.skill.n == 4
    game = cardcore.new_game("golf", 2, seed=1, options={"rounds": 1})
    assert cardcore.play(game, [FirstLegal(), cardcore.RandomAgent(1)]).reason == "rounds"
    for opponents in (FirstLegal(), "researcher-first:seed=4"):
        env = gym_env("golf", 2, opponents=opponents, options={"rounds": 1})
        obs, _ = env.reset(seed=1)
        assert obs["action_mask"].any()


# -- findings -----------------------------------------------------------------------------------


def _golf_decision() -> cardcore.Game:
    game = cardcore.new_game("golf", 2, seed=3, options={"rounds": 1})
    for text in ("flip 0", "flip 1", "flip 0", "flip 1"):
        game.act(game.to_act[0], text)
    assert len(game.legal_actions(game.to_act[0])) > 1
    return game


def test_ismcts_iterations_bound_the_samples_and_reuse_searches_each_sample_again() -> None:
    game = _golf_decision()
    seat = game.to_act[0]
    bot = ISMCTSAgent(seed=1, iterations=40, reuse=4)
    samples = 0
    sample = bot._sample

    def counting(*args: Any, **kwargs: Any) -> Any:
        nonlocal samples
        samples += 1
        return sample(*args, **kwargs)

    bot._sample = counting  # type: ignore[method-assign]
    bot.choose(game.view(seat), game.legal_actions(seat))
    # docs/search-agents.rst: reuse=k searches each sample k times within the iterations:
    # iterations=40, reuse=4 draws 10 samples for 40 searches
    assert samples == 10 and bot.last_iterations == 40


def test_numpy_integers_from_a_sweep_are_taken_for_num_envs_and_max_actions() -> None:
    envs = vector_env("golf", np.int64(2), players=np.int64(2), max_actions=np.int64(50))
    obs, _ = envs.reset(seed=1)
    assert obs["observation"].shape[0] == 2


def test_compare_refuses_an_agent_of_another_game_as_simulate_does() -> None:
    with pytest.raises(cardcore.CardcoreError) as simulated:
        cardcore.simulate("tonk", games=2, players=2, agents=["golf-greedy"])
    with pytest.raises(cardcore.CardcoreError) as compared:
        cardcore.compare("tonk", games=2, players=2, agents=["golf-greedy"])
    # the same words, after the argument they came from (compare takes two line-ups)
    assert str(compared.value) == f"configuration A's agents: {simulated.value}"
    assert type(compared.value) is type(simulated.value)


def test_simulate_given_agent_objects_says_to_register_them_by_name() -> None:
    with pytest.raises(cardcore.OptionError) as error:
        cardcore.simulate("golf", games=2, agents=[FirstLegal(), FirstLegal()])
    assert "register" in str(error.value)


def test_an_agent_without_a_seed_keyword_is_refused_in_words_that_say_why(
    registered: None,
) -> None:
    with pytest.raises(cardcore.OptionError) as error:
        cardcore.simulate("golf", games=2, agents=["researcher-noseed"], options={"rounds": 1})
    assert "has no parameter 'seed'" not in str(error.value)


def test_the_envs_refuse_a_named_agent_without_a_seed_keyword_as_simulate_does(
    registered: None,
) -> None:
    with pytest.raises(cardcore.OptionError):
        cardcore.simulate("golf", games=2, agents=["researcher-noseed"], options={"rounds": 1})
    with pytest.raises(cardcore.CardcoreError):
        gym_env("golf", 2, opponents="researcher-noseed")


def test_observe_refuses_the_encoding_of_another_game() -> None:
    golf = cardcore.new_game("golf", 2, seed=1)
    gofish = cardcore.new_game("gofish", 2, seed=1)
    with pytest.raises(cardcore.ArgumentError):
        observe(golf, 0, encoding_for(gofish))


def _cli_json(args: list[str]) -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert cli.main(args) == 0
    return json.loads(out.getvalue())


def test_cli_compare_defaults_its_players_as_documented() -> None:
    # docs/cli.rst: compare's --players defaults to 2 where simulate prefers 4
    common = ["golf", "-o", "rounds=1", "--json", "-"]
    simulated = _cli_json(["simulate", *common, "-n", "1", "-q"])
    compared = _cli_json(["compare", *common, "--games", "1", "--skill", "none"])
    assert (compared["players"], simulated["players"]) == (2, 4)


def test_a_real_time_learner_is_told_when_its_action_was_dropped() -> None:
    env = gym_env("spit", 2, opponents="spit-greedy", reaction=2.0)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(300):
        game = env.runner.match.game
        mine = sum(1 for entry in game.record()["actions"] if entry[0] == 0)
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
        if sum(1 for entry in game.record()["actions"] if entry[0] == 0) == mine:
            assert info, "the learner's action was not applied, and info is empty"
            return
    pytest.fail("no dropped learner action in this run")


@pytest.mark.parametrize(
    ("game", "config", "options", "a_row", "documented_diff"),
    [
        (
            "tonk",
            {"without": ["tonk.natural-49-50"]},
            None,
            "+12.3% [7.4, 16.9]",
            "-0.3% [-1.0, 0.5]",
        ),
        (
            "golf",
            {"rules": ["golf.ender-penalty-10"]},
            {"rounds": 1},
            "+7.9% [3.0, 12.6]",
            "+0.0% [-0.5, 0.5]",
        ),
    ],
)
def test_the_house_rule_study_rows_reproduce_from_their_commands(
    game: str, config: dict[str, Any], options: Any, a_row: str, documented_diff: str
) -> None:
    study = cardcore.compare(game, games=400, seed=1, skill=None, options=options, **config)
    assert study.a.first_seat.text(1, signed=True, percent=True) == a_row  # the same deals
    assert study.diff["first_seat"].text(1, signed=True, percent=True) == documented_diff


def test_an_agent_with_a_required_seed_keyword_plays_in_simulate_and_the_envs(
    registered: None,
) -> None:
    summary = cardcore.simulate(
        "golf", games=2, agents=["researcher-required-seed"], options={"rounds": 1}
    )
    assert summary.games == 2
    env = gym_env("golf", 2, opponents="researcher-required-seed", options={"rounds": 1})
    obs, _ = env.reset(seed=1)
    assert obs["action_mask"].any()


def test_the_lobby_seats_an_agent_with_a_required_seed_or_refuses_it_first(
    registered: None,
) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from tests.web.helpers import serve

    seats = [{"name": "A", "agent": "researcher-required-seed"}, {"name": "B"}]
    with serve() as (client, server, _):
        try:
            status = client.post(
                "/api/sessions", json={"game": "golf", "seats": seats, "options": {"rounds": 1}}
            ).status_code
        except TypeError:
            status = 500
        assert status == 201 or (status == 400 and not server.hub.sessions)


def test_two_lobby_bots_of_one_agent_get_different_seeds(registered: None) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from tests.web.helpers import serve

    seats = [{"name": "A", "agent": "researcher-first"}, {"name": "B", "agent": "researcher-first"}]
    with serve() as (client, server, _):
        answer = client.post("/api/sessions", json={"game": "golf", "seats": seats})
        assert answer.status_code == 201
        bots = [bot for row in server.bots.values() for bot in row]
        assert len(bots) == 2
        assert bots[0].agent.seed != bots[1].agent.seed


def _make_golf_seat_env() -> Any:
    return gym_env("golf", 2, opponents="golf-greedy", options={"rounds": 1})


def test_gymnasium_sync_and_async_vector_envs_of_the_seat_env_play_the_same_games() -> None:
    import gymnasium as gym

    runs = []
    for cls in (gym.vector.SyncVectorEnv, gym.vector.AsyncVectorEnv):
        envs = cls([_make_golf_seat_env, _make_golf_seat_env])
        obs, _ = envs.reset(seed=3)
        rng = np.random.default_rng(0)
        trace = []
        for _ in range(60):
            masks = obs["action_mask"]
            actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
            obs, rewards, terminated, _truncated, _ = envs.step(actions)
            trace.append((actions.tolist(), rewards.tolist(), terminated.tolist()))
        envs.close()
        runs.append(trace)
    assert runs[0] == runs[1]
    assert any(any(done) for _, _, done in runs[0])


def test_a_time_budget_alone_is_a_time_budget_with_iterations_none() -> None:
    # docs/search-agents.rst: time alone keeps the cap of 200; iterations=None lifts it
    assert ISMCTSAgent(seed=1, time=0.5).iterations == 200
    assert ISMCTSAgent(seed=1, time=0.5, iterations=None).iterations is None
    assert cardcore.load_agent("ismcts:time=0.5,iterations=none").iterations is None


def test_a_comparison_run_twice_on_one_seed_writes_the_same_json() -> None:
    def run() -> dict[str, Any]:
        return cardcore.compare(
            "golf", rules=["golf.hard"], games=3, seed=2, options={"rounds": 1}, skill=None
        ).to_json()

    first, second = run(), run()
    for data in (first, second):  # docs: two wall-clock measures per agent differ per run
        for side in ("a", "b"):
            data[side].pop("slowest")
            data[side].pop("decisions_per_s")
    assert first == second
