"""Read review of simulate, the agents and their specs (2026-12-07).

Strict xfails mark bugs found by reading src/cardcore/simulate.py, agents.py,
_agentspec.py and the built-in agents; the passing tests pin claims of
docs/agents.rst, docs/embedding.rst, docs/cli.rst and the docstrings that held.
"""

from __future__ import annotations

import copy
import json
import math
import multiprocessing
import os
import statistics
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, ClassVar

import pytest

import cardcore
from cardcore import CardcoreError, IllegalActionError, OptionError
from cardcore.deck import derive_rng
from cardcore.plugins import register, unregister
from cardcore.simulate import run_one, seats_for


@contextmanager
def registered(cls: type, name: str) -> Iterator[str]:
    """Register agent *cls* as *name* for the block; always unregister it."""
    register("cardcore.agents", name, cls)
    try:
        yield name
    finally:
        unregister("cardcore.agents", name)


# -- agents that misbehave, built by name -----------------------------------------------------


class StopsWhenBuilt:
    """Builds fine four times, then its constructor raises StopIteration (a ``next()`` on an
    exhausted iterator: easy to write by accident in an agent's setup)."""

    made = 0

    def __init__(self, seed: int | None = None) -> None:
        type(self).made += 1
        if type(self).made > 4:
            raise StopIteration

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[-1]


class FailsWhenBuilt:
    """Its constructor raises a plain Python error."""

    def __init__(self, seed: int | None = None) -> None:
        raise RuntimeError("cannot load my weights")

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[0]


class FailsWhenChoosing:
    def __init__(self, seed: int | None = None) -> None:
        pass

    def choose(self, view: Any, legal: Any) -> Any:
        raise RuntimeError("boom in choose")


class AnswersText:
    def __init__(self, seed: int | None = None) -> None:
        pass

    def choose(self, view: Any, legal: Any) -> Any:
        return str(legal[0])


class RecordsSeed:
    """Keeps every seed it was built with (to check the documented agent seeds)."""

    seeds: ClassVar[list[int | None]] = []

    def __init__(self, seed: int | None = None) -> None:
        type(self).seeds.append(seed)
        self.rng = cardcore.RandomAgent(seed)

    def choose(self, view: Any, legal: Any) -> Any:
        return self.rng.choose(view, legal)


# -- findings (strict xfails) -----------------------------------------------------------------


def test_agent_constructor_stopiteration_does_not_shorten_the_study() -> None:
    with registered(StopsWhenBuilt, "review-test-agent-constructor-stopite") as agent_name:
        StopsWhenBuilt.made = 0
        try:
            summary = cardcore.simulate("tonk", games=10, agents=[agent_name, "random"], chunk=1)
        except CardcoreError:
            return  # right: the study stops with an error
        assert summary.games == 10  # wrong now: a summary of 4 games for a study of 10


def test_agent_constructor_failure_is_named_like_a_choose_failure() -> None:
    name = "review-test-agent-constructor-failure"
    with registered(FailsWhenBuilt, name), pytest.raises(CardcoreError, match=name):
        cardcore.simulate("golf", games=2, agents=[name, "random"])


def test_load_agent_parameter_in_spec_and_keyword_is_refused() -> None:
    with pytest.raises(OptionError, match="seed"):
        cardcore.load_agent("random:seed=1", seed=2)


# -- claims that hold: bad input ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"games": 0}, "games must be a whole number"),
        ({"games": -3}, "games must be a whole number"),
        ({"games": 2.0}, "games must be a whole number"),
        ({"games": True}, "games must be a whole number"),
        ({"games": 10_000_001}, "at most 10,000,000"),
        ({"players": 1}, r"golf takes 2 to 64 players, not 1 \(CORE-SEAT-2\)"),
        ({"players": 2**80}, "CORE-SEAT-2"),
        ({"players": True}, "players must be a whole number"),
        ({"seed": -1}, r"seed must be an int from 0 below 2\*\*128"),
        ({"seed": 2**128}, r"seed must be an int from 0 below 2\*\*128"),
        ({"seed": 1.0}, "seed must be an int"),
        ({"seed": True}, "seed must be an int"),
        ({"chunk": 0}, "chunk must be a whole number of at least 1"),
        ({"chunk": False}, "chunk must be a whole number"),
        ({"options": [("rounds", 1)]}, "options must be a mapping"),
        ({"options": {"nope": 1}}, "no option 'nope'"),
        ({"executor": 5}, "executor must be"),
        ({"progress": 5}, "progress must be"),
        ({"agents": {"random": 1}}, "agents must be an agent spec"),
        ({"agents": ["random"] * 3, "players": 2}, r"one agent spec per seat \(2\)"),
        ({"agents": [cardcore.RandomAgent(1)] * 2}, "agent specs \\(names, as text\\)"),
        ({"agents": "random,,random"}, "empty agent name"),
        ({"agents": "random:seed=1,seed=2"}, "'seed' is given twice"),
        ({"agents": "random:Seed=1"}, "did you mean 'seed'"),
        ({"agents": "random:seed=-1"}, "at least 0"),
        ({"agents": "random:seed=1.5"}, "seed must be a whole number"),
        ({"agents": "random:reaction=nan"}, r"reaction must be a number from 0.0 to 60.0, not nan"),
        ({"agents": "random:reaction=inf"}, "not inf"),
        ({"agents": "random:reaction=true"}, "not True"),
        ({"agents": "random:reaction=fast"}, "not 'fast'"),
        ({"agents": "random:seed=" + "9" * 5000}, "5000 digits"),
        ({"agents": "golf-greedy:seed=true"}, "seed must be a whole number"),
        ({"agents": "spit-greedy"}, "agent 'spit-greedy' plays speed, spit, not 'golf'"),
        ({"agents": "nope"}, "no agent called 'nope'"),
    ],
)
def test_simulate_refuses_bad_input_in_words(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(CardcoreError, match=words):
        cardcore.simulate("golf", **{"games": 1, **kwargs})


def test_simulate_refuses_an_agent_of_another_game_as_documented() -> None:
    with pytest.raises(OptionError, match=r"^agent 'golf-greedy' plays golf, not 'tonk'$"):
        cardcore.simulate("tonk", games=2, players=2, agents=["golf-greedy", "random"])


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("tonk-heuristic:samples=0", "samples must be a number from 1 to 10000, not 0"),
        ("tonk-heuristic:samples=5.0", "samples must be a whole number from 1 to 10000"),
        ("tonk-heuristic:drop_margin=1e999", "drop_margin must be a number"),
        ("tonk-heuristic:samples=" + "9" * 40, "samples must be a number from 1 to 10000"),
    ],
)
def test_simulate_refuses_bad_tonk_parameters(spec: str, words: str) -> None:
    with pytest.raises(OptionError, match=words):
        cardcore.simulate("tonk", games=1, agents=spec)


def test_an_agent_failing_in_choose_is_named_with_its_game() -> None:
    with registered(FailsWhenChoosing, "review-test-an-agent-failing-in-choos") as agent_name:
        with pytest.raises(
            CardcoreError, match=f"seat 0 \\({agent_name}\\) failed in golf game 0"
        ) as info:
            cardcore.simulate("golf", games=2, agents=[agent_name, "random"])
        assert isinstance(info.value.__cause__, RuntimeError)


def test_an_agent_answering_text_is_an_illegal_action_naming_the_game() -> None:
    name = "review-test-an-agent-answering-text"
    words = r"in golf game 0 \(seed \d+\): the agent at seat 0"
    with registered(AnswersText, name), pytest.raises(IllegalActionError, match=words):
        cardcore.simulate("golf", games=2, agents=[name, "random"])


def test_run_one_refuses_a_task_that_is_not_eight_fields() -> None:
    with pytest.raises(cardcore.ArgumentError, match="a task is"):
        run_one(("golf", 2))  # type: ignore[arg-type]


# -- claims that hold: seeds, determinism ------------------------------------------------------


def test_game_seeds_follow_the_documented_derivation() -> None:
    for i in range(3):
        outcome = run_one(("golf", 2, ("random", "random"), (), (), {}, 9, i))
        assert outcome.seed == int(derive_rng(9, i).random() * 2**62)
        assert outcome.index == i


def test_agent_seeds_follow_the_documented_derivation() -> None:
    with registered(RecordsSeed, "review-test-agent-seeds-follow-the-do") as agent_name:
        RecordsSeed.seeds.clear()
        cardcore.simulate("tonk", games=3, players=2, agents=agent_name, seed=4)
        expected = []
        for i in range(3):
            g = int(derive_rng(4, i).random() * 2**62)
            expected += [int(derive_rng(g, 1000 + k).random() * 2**62) for k in range(2)]
        assert RecordsSeed.seeds == expected
        RecordsSeed.seeds.clear()
        cardcore.simulate("tonk", games=2, players=2, agents=f"{agent_name}:seed=5", seed=4)
        assert RecordsSeed.seeds == [5, 5, 5, 5]  # a spec's own seed is kept


STUDIES = [
    ("golf", "golf-greedy,random"),
    ("tonk", "tonk-heuristic,random,random"),
    ("speed", "spit-greedy,spit-human"),
]


@pytest.mark.parametrize(("game", "agents"), STUDIES)
def test_same_summary_with_one_and_two_thread_workers(game: str, agents: str) -> None:
    here = cardcore.simulate(game, games=4, agents=agents, seed=11, chunk=3)
    for workers in (1, 2):
        with ThreadPoolExecutor(workers) as pool:
            there = cardcore.simulate(game, games=4, agents=agents, seed=11, executor=pool, chunk=1)
        assert there == here


def test_same_summary_with_one_and_two_worker_processes() -> None:
    here = cardcore.simulate("tonk", games=4, agents="tonk-heuristic,random", seed=3)
    context = multiprocessing.get_context(
        "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    )
    for workers in (1, 2):
        with ProcessPoolExecutor(workers, context) as pool:
            there = cardcore.simulate(
                "tonk", games=4, agents="tonk-heuristic,random", seed=3, executor=pool, chunk=1
            )
        assert there == here


_HASH_SCRIPT = """
import cardcore
for game, agents in (("golf", "golf-greedy,random"), ("tonk", "tonk-heuristic,random,random"),
                     ("spit", "spit-greedy,spit-human")):
    print(repr(cardcore.simulate(game, games=2, agents=agents, seed=21)))
"""


def test_same_summary_under_any_hash_seed() -> None:
    outs = []
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", _HASH_SCRIPT],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        outs.append(done.stdout)
    assert outs[0] == outs[1]
    assert outs[0].count("Summary(") == 3


def test_broken_pool_is_a_cardcore_error_counting_games() -> None:
    context = multiprocessing.get_context(
        "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    )
    with ProcessPoolExecutor(1, context) as pool:
        with pytest.raises(Exception):  # noqa: B017 - the pool's own BrokenProcessPool
            pool.submit(os._exit, 1).result(timeout=60)
        with pytest.raises(CardcoreError, match=r"stopped abruptly .* after 0 of 3 games"):
            cardcore.simulate("golf", games=3, executor=pool)


# -- claims that hold: statistics --------------------------------------------------------------


def test_summary_statistics_equal_hand_computed_values_with_ties() -> None:
    lineup = ("golf-greedy",) * 3
    outs = [run_one(("golf", 3, lineup, (), (), {}, 3, i)) for i in range(8)]
    assert any(len(o.winners) > 1 for o in outs)  # game 7 is a tie of two
    summary = cardcore.simulate("golf", games=8, players=3, agents="golf-greedy", seed=3)
    wins = [0.0] * 3
    for o in outs:
        for w in o.winners:
            wins[w] += 1 / len(o.winners)
    assert summary.wins == pytest.approx(wins)
    assert summary.win_rates == pytest.approx([w / 8 for w in wins])
    for k in range(3):
        col = [o.scores[k] for o in outs]
        assert summary.mean_scores[k] == pytest.approx(statistics.fmean(col))
        assert summary.sd_scores[k] == pytest.approx(statistics.stdev(col))
    assert summary.mean_actions == pytest.approx(statistics.fmean(o.actions for o in outs))
    assert summary.mean_payouts is None and summary.sd_payouts is None
    assert summary.truncated == 0 and dict(summary.reasons) == {"rounds": 8}
    assert summary.agents == lineup and summary.games == 8 and summary.players == 3


def test_summary_payouts_equal_hand_computed_values() -> None:
    lineup = ("tonk-heuristic", "random", "random")
    outs = [run_one(("tonk", 3, lineup, (), (), {}, 5, i)) for i in range(9)]
    summary = cardcore.simulate("tonk", games=9, agents=list(lineup), seed=5)
    assert summary.mean_payouts is not None and summary.sd_payouts is not None
    for k in range(3):
        col = [o.payouts[k] for o in outs if o.payouts is not None]
        assert len(col) == 9
        assert summary.mean_payouts[k] == pytest.approx(statistics.fmean(col))
        assert summary.sd_payouts[k] == pytest.approx(statistics.stdev(col))
    reasons: dict[str, int] = {}
    for o in outs:
        reasons[o.reason] = reasons.get(o.reason, 0) + 1
    assert dict(summary.reasons) == reasons
    assert list(summary.reasons) == sorted(reasons)


def test_one_game_has_undefined_spreads_and_strict_json() -> None:
    one = cardcore.simulate("tonk", games=1, seed=2)
    assert all(math.isnan(x) for x in one.sd_scores)
    assert one.sd_payouts is not None and all(math.isnan(x) for x in one.sd_payouts)
    data = one.to_json()
    assert data["sd_scores"] == [None, None] and data["sd_payouts"] == [None, None]
    json.dumps(data, allow_nan=False)  # strict JSON
    assert one == cardcore.simulate("tonk", games=1, seed=2)  # NaN equal to NaN


def test_progress_reports_each_chunk_and_an_exception_stops_the_study() -> None:
    seen: list[int] = []
    cardcore.simulate("tonk", games=7, chunk=3, progress=seen.append)
    assert seen == [3, 3, 1]

    played: list[int] = []

    class Stop(Exception):
        pass

    def stop(k: int) -> None:
        played.append(k)
        if len(played) == 2:
            raise Stop

    with pytest.raises(Stop):
        cardcore.simulate("tonk", games=50, chunk=1, progress=stop)
    assert played == [1, 1]


def test_seats_for_as_documented() -> None:
    assert seats_for("golf", 4, options={"dealer": 5}) == 6
    assert seats_for("tonk", 4) == 3
    assert seats_for("tonk", 4, options={"max_players": 4}) == 4
    assert seats_for("golf", 10**30) == 64
    with pytest.raises(cardcore.ArgumentError):
        seats_for("golf", True)


def test_players_default_follows_the_agents_named() -> None:
    assert cardcore.simulate("golf", games=1, agents="golf-greedy,random,random").players == 3
    assert cardcore.simulate("golf", games=1, agents="golf-greedy").players == 2


# -- claims that hold: agents ------------------------------------------------------------------


def test_built_in_agents_bound_their_parameters_built_directly() -> None:
    from cardcore_golf.agents import GolfGreedyAgent
    from cardcore_spit.agents import SpitGreedyAgent, SpitHumanAgent
    from cardcore_tonk.agents import TonkHeuristicAgent

    for build in (
        lambda: TonkHeuristicAgent(samples=10**9),
        lambda: TonkHeuristicAgent(samples=True),
        lambda: TonkHeuristicAgent(drop_margin=math.nan),
        lambda: TonkHeuristicAgent(seed=-1),
        lambda: SpitGreedyAgent(mean=math.nan),
        lambda: SpitGreedyAgent(sigma=3.5),
        lambda: SpitHumanAgent(mean=61),
        lambda: SpitHumanAgent(seed=-1),
        lambda: GolfGreedyAgent(seed=-1),
        lambda: GolfGreedyAgent(seed=True),
        lambda: cardcore.RandomAgent(seed=-1),
        lambda: cardcore.RandomAgent(spread=21),
    ):
        with pytest.raises(OptionError):
            build()


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"reaction": True}, "reaction must be a number from 0.0 to 60.0, not True"),
        ({"reaction": math.nan}, "not nan"),
        ({"reaction": "fast"}, "not 'fast'"),
        ({"spread": 3.5}, "spread must be a number from 0.0 to 3.0"),
        ({"seed": -1}, "at least 0"),
    ],
)
def test_load_agent_checks_bounds_by_name(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(OptionError, match=words):
        cardcore.load_agent("random", **kwargs)


def test_load_agent_tonk_samples_message_as_documented() -> None:
    with pytest.raises(OptionError) as info:
        cardcore.load_agent("tonk-heuristic", samples=10**9)
    assert str(info.value) == (
        "agent 'tonk-heuristic': samples must be a number from 1 to 10000, not 1000000000"
    )


def test_play_names_the_seat_for_another_seats_resign_and_changes_nothing() -> None:
    class Resigner:
        def choose(self, view: Any, legal: Any) -> Any:
            return cardcore.Resign(1)

    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(IllegalActionError, match=r"seat 0 \(Resigner\).*CORE-TURN-1"):
        cardcore.play(game, [Resigner(), Resigner()])
    assert game.version == 0 and not game.is_over


def test_play_lets_an_agents_own_exception_through_with_the_game_unchanged() -> None:
    class Boom:
        def choose(self, view: Any, legal: Any) -> Any:
            raise ZeroDivisionError("mine")

    game = cardcore.new_game("tonk", 2, seed=1)
    with pytest.raises(ZeroDivisionError, match="mine"):
        cardcore.play(game, [Boom(), Boom()])
    assert game.version == 0


def test_run_realtime_negative_delay_counts_as_zero_and_far_plans_are_refused() -> None:
    class Quick:
        def __init__(self, delay: float) -> None:
            self.delay = delay

        def plan(self, view: Any, legal: Any, now: float) -> Any:
            return cardcore.Plan(legal[0], self.delay) if legal else None

    speed = cardcore.new_game("speed", 2, seed=3)
    cardcore.run_realtime(speed, [Quick(-5), Quick(-3)], seed=1, max_actions=4)
    assert [at for _, _, at in speed.record()["actions"]] == [0.0] * 4
    far = cardcore.new_game("speed", 2, seed=3)
    with pytest.raises(CardcoreError, match=r"seat 0 \(Quick\).*past the latest time"):
        cardcore.run_realtime(far, [Quick(2e15), Quick(1)], seed=1)
    assert far.version == 0


def _choices_match_on_a_twin(
    game_name: str, agent_spec: str, players: int, steps: int, seed: int = 17
) -> int:
    """Play *steps* actions of a seeded game; at each, the built-in agent (a copy, same memory
    and generator) must choose the same on the game and on a determinized twin (hidden cards
    re-dealt, same view): it reads nothing its seat cannot see."""
    game = cardcore.new_game(game_name, players, seed=seed)
    agents = [cardcore.load_agent(agent_spec, seed=seat) for seat in range(players)]
    movers = [cardcore.RandomAgent(seat + 50) for seat in range(players)]
    checked = 0
    for step in range(steps):
        if game.is_over:
            break
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        twin = game.determinize(seat, seed=step + 1)
        view = game.view(seat)
        assert twin.view(seat) == view
        a = copy.deepcopy(agents[seat]).choose(view, legal)
        b = copy.deepcopy(agents[seat]).choose(twin.view(seat), twin.legal_actions(seat))
        assert str(a) == str(b)
        checked += 1
        # the agent sees this position, then a seeded random move plays on
        agents[seat].choose(view, legal)
        quiet = [x for x in legal if type(x).__name__ not in ("Drop", "Knock")] or legal
        game.apply(movers[seat].choose(view, quiet))  # (no early end: more positions)
    return checked


@pytest.mark.parametrize(
    ("game", "spec", "players"), [("golf", "golf-greedy", 2), ("tonk", "tonk-heuristic", 3)]
)
def test_built_in_agents_choose_from_their_view_alone(game: str, spec: str, players: int) -> None:
    checked = sum(_choices_match_on_a_twin(game, spec, players, 40, seed) for seed in range(8))
    assert checked >= 30


def test_load_agent_spec_without_parameters_is_the_bare_name() -> None:
    assert cardcore.load_agent("random:") is cardcore.load_agent("random")


def test_old_agent_names_remain_aliases() -> None:
    from cardcore_golf.agents import GolfGreedyAgent, GreedyGolfAgent
    from cardcore_spit.agents import GreedyBot, HumanBot, SpitGreedyAgent, SpitHumanAgent
    from cardcore_tonk.agents import HeuristicAgent, TonkHeuristicAgent

    assert GreedyGolfAgent is GolfGreedyAgent is cardcore.load_agent("golf-greedy")
    assert HeuristicAgent is TonkHeuristicAgent is cardcore.load_agent("tonk-heuristic")
    assert GreedyBot is SpitGreedyAgent is cardcore.load_agent("spit-greedy")
    assert HumanBot is SpitHumanAgent is cardcore.load_agent("spit-human")
