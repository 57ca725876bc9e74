"""A house-rule researcher and bot author, 2026-12-05: ``compare``, search agents, own agents.

Follows docs/house-rule-study.rst, docs/search-agents.rst, docs/agents.rst and docs/cli.rst
as a user would: reproducible studies, mirrored sides, search agents that must not see
hidden cards, clear errors for bad input and misbehaving agents. Small game counts.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import cardcore
from cardcore import cli
from cardcore.compare import Comparison, Estimate, compare
from cardcore.search import ISMCTSAgent

# -- agents a user writes (registered by name, as compare and the command line take names) ----


class FirstLegal:
    """docs/agents.rst's first agent, with the ``seed`` every named agent is built with."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: Mapping[str, Any], legal: Sequence[cardcore.Action]) -> Any:
        return legal[0]


class ArrayAnswer:
    """A bot author's slip: returns the policy's output (an array) rather than an action."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: Mapping[str, Any], legal: Sequence[cardcore.Action]) -> Any:
        np = pytest.importorskip("numpy")
        return np.array([0.25, 0.75])


class NanDelay:
    """A real-time agent whose plan has a delay that is not a number."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def plan(
        self, view: Mapping[str, Any], legal: Sequence[cardcore.Action], now: float
    ) -> cardcore.Plan | None:
        return cardcore.Plan(legal[0], math.nan) if legal else None


OWN_AGENTS = {
    "lab-first-legal": FirstLegal,
    "lab-array-answer": ArrayAnswer,
    "lab-nan-delay": NanDelay,
}


@pytest.fixture
def own_agents() -> Any:
    """The agents above, registered by name for the test only (other tests list what is installed)."""
    for name, factory in OWN_AGENTS.items():
        cardcore.register("cardcore.agents", name, factory)
    yield
    for name in OWN_AGENTS:
        cardcore.unregister("cardcore.agents", name)


def _figures(result: Comparison) -> dict[str, Any]:
    """The comparison's JSON without the wall-clock figures (they vary run to run)."""
    data = result.to_json()
    for side in ("a", "b"):
        data[side].pop("slowest")
        data[side].pop("decisions_per_s")
    return data


def _flipped(e: Estimate) -> tuple[float, float, float]:
    return (-e.mean, -e.high, -e.low)


# -- reproducible studies ---------------------------------------------------------------------


def test_a_study_with_search_agents_gives_the_same_numbers_however_it_is_run() -> None:
    kwargs: dict[str, Any] = {
        "agents": ["ismcts:iterations=8", "tonk-heuristic"],
        "vs_agents": "ismcts:iterations=8",
        "players": 2,
        "games": 6,
        "seed": 9,
        "skill": ("ismcts:iterations=8", "random"),
    }
    here = compare("tonk", **kwargs)
    again = compare("tonk", **kwargs)
    done: list[int] = []
    with ThreadPoolExecutor(3) as pool:
        threads = compare("tonk", executor=pool, chunk=1, progress=done.append, **kwargs)
    assert _figures(here) == _figures(again) == _figures(threads)
    assert sum(done) == 2 * 6 * 2  # both configurations, games and skill probes
    other = compare("tonk", **{**kwargs, "seed": 10})
    assert _figures(other) != _figures(here)  # the seed matters


def test_the_command_gives_the_same_json_with_worker_processes(tmp_path: Any) -> None:
    args = ["compare", "golf", "-o", "rounds=1", "--agents", "ismcts:iterations=5,golf-greedy"]
    args += ["--games", "4", "--seed", "3", "-q", "--json"]
    here, there = tmp_path / "here.json", tmp_path / "there.json"
    assert cli.main([*args, str(here)]) == 0
    assert cli.main([*args, str(there), "--workers", "2"]) == 0
    a, b = (json.loads(p.read_text(encoding="utf-8")) for p in (here, there))
    for data in (a, b):
        for side in ("a", "b"):
            data[side].pop("slowest")
            data[side].pop("decisions_per_s")
    assert a == b


# -- sane statistics --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "one", "other", "extra"),
    [
        ("golf", {"rules": ["golf.hard"]}, {"vs": ["golf.hard"]}, {"options": {"rounds": 1}}),
        (
            "tonk",
            {"without": ["tonk.natural-49-50"]},
            {"vs_without": ["tonk.natural-49-50"]},
            {"players": 3},
        ),
        (
            "golf",
            {"options": {"layout": 4}, "vs_options": {"layout": 6}},
            {"options": {"layout": 6}, "vs_options": {"layout": 4}},
            {"skill": None},
        ),
        (
            "tonk",
            {"agents": "ismcts:iterations=5", "vs_agents": "tonk-heuristic"},
            {"agents": "tonk-heuristic", "vs_agents": "ismcts:iterations=5"},
            {},
        ),
    ],
    ids=["golf-hard", "tonk-natural", "golf-layouts", "tonk-agents"],
)
def test_swapping_the_sides_mirrors_every_figure(
    game: str, one: dict[str, Any], other: dict[str, Any], extra: dict[str, Any]
) -> None:
    x = compare(game, games=16, seed=2, **one, **extra)
    y = compare(game, games=16, seed=2, **other, **extra)
    assert x.diff.keys() == y.diff.keys()
    for key, e in x.diff.items():
        assert (e.mean, e.low, e.high) == _flipped(y.diff[key]), key
    for figure in ("first_seat", "actions", "rounds", "spread", "skill"):
        assert getattr(x.a, figure) == getattr(y.b, figure), figure
        assert getattr(x.b, figure) == getattr(y.a, figure), figure
    assert x.a.reasons == y.b.reasons and x.a.seat_wins == y.b.seat_wins
    assert x.same_deals == y.same_deals


def test_a_real_time_line_up_against_itself_differs_by_nothing() -> None:
    result = compare("spit", agents=["ismcts:iterations=2", "spit-greedy"], games=2, seed=4)
    assert result.same_deals
    for key, e in result.diff.items():
        assert e.mean == 0.0 and not e.significant, key
    assert result.a.actions == result.b.actions and result.a.reasons == result.b.reasons


def test_a_default_rule_named_explicitly_is_the_base_game() -> None:
    result = compare("tonk", rules=["tonk.natural-49-50"], games=12, seed=3)
    assert result.same_deals
    assert all(e.mean == 0.0 and not e.significant for e in result.diff.values())


# -- search agents and hidden cards -----------------------------------------------------------


def _walk(name: str, players: int, seed: int, steps: int, **kw: Any) -> cardcore.Game:
    """A game after up to *steps* random actions, stopped at a seat that may choose."""
    game = cardcore.new_game(name, players, seed=seed, **kw)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over or not game.to_act or not game.legal_actions(game.to_act[0]):
            break
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    return game


def _decide(game: cardcore.Game, seat: int) -> tuple[str, int]:
    """An ISMCTS decision of *seat* from its view, and a digest of everything it drew."""
    agent = ISMCTSAgent(seed=5, iterations=25)
    view, legal = game.view(seat), game.legal_actions(seat)
    if game.ruleset.game.realtime:
        plan = agent.plan(view, legal, 0.0)
        choice = "" if plan is None else str(plan.action)
    else:
        choice = str(agent.choose(view, legal))
    return choice, hash(agent.rng.getstate())


@pytest.mark.parametrize(
    ("name", "players", "steps", "kw"),
    [
        ("golf", 2, 5, {"options": {"rounds": 1}}),
        ("golf", 3, 11, {}),
        ("tonk", 3, 0, {}),
        ("tonk", 2, 2, {}),
        ("spit", 2, 6, {}),
        ("speed", 2, 0, {}),
    ],
)
def test_a_search_decision_ignores_cards_its_seat_cannot_see(
    name: str, players: int, steps: int, kw: dict[str, Any]
) -> None:
    game = _walk(name, players, 11, steps, **kw)
    seat = game.to_act[0]
    assert len(game.legal_actions(seat)) > 1  # a real decision, searched
    base = game.view(seat)
    decisions = {_decide(game, seat)}
    changed = 0
    for k in range(4):  # the same view, the hidden cards dealt again by the host
        twin = game.determinize(seat, seed=k)
        world = cardcore.new_game(name, players, position=twin.position(), seed=99, **kw)
        changed += (
            world.position()
            != cardcore.new_game(name, players, position=game.position(), seed=99, **kw).position()
        )
        view = world.view(seat)
        assert {k: v for k, v in view.items() if k != "version"} == {
            k: v for k, v in base.items() if k != "version"
        }
        decisions.add(_decide(world, seat))
    assert changed  # the hidden cards did change
    assert len(decisions) == 1  # the same choice from the same random draws


def _swap_hidden(position: str, first: str, second: str) -> str:
    """Swap the first hidden (unmarked) card of pile *first* with that of pile *second*."""
    parts = position.split(" | ")
    where: list[tuple[int, int]] = []
    for pile in (first, second):
        i = next(n for n, p in enumerate(parts) if p.startswith(pile + ":"))
        tokens = parts[i].split(" ")
        j = next(n for n, t in enumerate(tokens[1:], 1) if not t.endswith("!"))
        where.append((i, j))
    (i1, j1), (i2, j2) = where
    t1, t2 = parts[i1].split(" "), parts[i2].split(" ")
    if i1 == i2:
        t2 = t1
    t1[j1], t2[j2] = t2[j2], t1[j1]
    parts[i1], parts[i2] = " ".join(t1), " ".join(t2)
    return " | ".join(parts)


@pytest.mark.parametrize(
    ("name", "first", "second", "kw"),
    [
        ("golf", "stock", "grid.1", {"options": {"rounds": 1}}),
        ("tonk", "stock", "hand.1", {}),
        ("spit", "spit.0", "spit.1", {}),
    ],
)
def test_swapping_two_cards_the_seat_cannot_see_changes_nothing_it_decides(
    name: str, first: str, second: str, kw: dict[str, Any]
) -> None:
    game = cardcore.new_game(name, 2, seed=11, **kw)
    seat = 0
    assert seat in game.to_act
    text = game.position()
    other = _swap_hidden(text, first, second)
    assert other != text
    a = cardcore.new_game(name, 2, position=text, seed=5, **kw)
    b = cardcore.new_game(name, 2, position=other, seed=5, **kw)
    assert a.view(seat) == b.view(seat)
    assert _decide(a, seat) == _decide(b, seat)


def test_a_time_budget_bounds_a_decision_in_every_game() -> None:
    import time

    for name in ("golf", "tonk", "spit"):
        game = _walk(name, 2, 4, 0)
        seat = game.to_act[0]
        agent = ISMCTSAgent(seed=1, iterations=None, time=0.05)
        started = time.perf_counter()
        if game.ruleset.game.realtime:
            plan = agent.plan(game.view(seat), game.legal_actions(seat), 0.0)
            assert plan is not None and plan.action in game.legal_actions(seat)
        else:
            assert agent.choose(game.view(seat), game.legal_actions(seat)) in game.legal_actions(
                seat
            )
        took = time.perf_counter() - started
        assert agent.last_iterations >= 1
        assert took < 1.5, (name, took)  # 50 ms plus the iteration under way, on a loaded box


# -- own agents -------------------------------------------------------------------------------


def test_an_own_agent_meets_the_built_in_ones_in_a_study(own_agents: None) -> None:
    result = compare(
        "golf",
        agents=["lab-first-legal", "golf-greedy"],
        skill=("golf-greedy", "lab-first-legal"),
        games=8,
        seed=1,
        options={"rounds": 1},
    )
    assert result.a.agents == ("lab-first-legal", "golf-greedy")
    assert result.skill_agents == ("golf-greedy", "lab-first-legal")
    assert result.a.skill is not None and result.a.skill.mean > 0.5  # greedy beats first-legal
    assert math.isclose(sum(e.mean for e in result.a.seat_wins), 1.0)


# -- bad input on the command line: one line, exit status 2, before any game ------------------


@pytest.mark.parametrize(
    "args",
    [
        ["golf", "--agents", "ismcts:depth=0"],
        ["golf", "--agents", "ismcts:iterations=none"],
        ["golf", "--agents", "ismcts:reuse=5000"],
        ["golf", "--agents", "ismcts:time=3"],
        ["golf", "--skill", "golf-greedy,random,random"],
        ["golf", "--skill", "spit-greedy"],
        ["spit", "--vs-agents", "golf-greedy"],
        ["golf", "--move-time", "inf"],
        ["golf", "--seed", str(2**128)],
        ["golf", "--vs-option", "layout=99"],
        ["golf", "--games", str(10_000_001)],
        ["golf", "--agents", "random,random", "--players", "3"],
    ],
)
def test_bad_input_is_one_line_and_status_2(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    games = [] if "--games" in args else ["--games", "2"]
    assert cli.main(["compare", *args, *games, "-q"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err


# -- bugs -------------------------------------------------------------------------------------


def test_an_agent_answering_an_array_stops_the_study_naming_seat_and_agent(
    own_agents: None,
) -> None:
    pytest.importorskip("numpy")
    with pytest.raises(cardcore.CardcoreError) as info:
        compare("golf", agents=["lab-array-answer", "random"], games=2, skill=None)
    text = str(info.value)
    assert "configuration A" in text and "seat 0" in text and "lab-array-answer" in text


def test_a_real_time_agents_bad_plan_names_the_agent_not_the_wrapper(own_agents: None) -> None:
    with pytest.raises(cardcore.CardcoreError) as info:
        compare("spit", agents=["lab-nan-delay", "random"], games=1, skill=None)
    text = str(info.value)
    assert "seat 0" in text
    assert "lab-nan-delay" in text and "_Seat" not in text


def test_spit_counts_the_deals_a_game_took_as_its_rounds() -> None:
    game = cardcore.new_game("spit", 2, seed=0)
    greedy = cardcore.load_agent("spit-greedy")
    cardcore.run_realtime(game, [greedy(seed=1), greedy(seed=2)], seed=0)
    deals = game.view(None)["table"]["deal"]
    assert game.is_over and deals > 2  # this game took several deals
    assert game.logic.rounds_played(game.state) >= deals - 1
    result = compare("spit", games=2, seed=0, skill=None)
    assert result.a.rounds.mean > 1.0


def test_a_determinized_go_fish_world_travels_as_a_position() -> None:
    if "gofish" not in cardcore.available_games():
        pytest.skip("the Go Fish example is not installed")
    game = cardcore.new_game("gofish", 3, seed=0)
    rng = random.Random(0)
    refused: list[str] = []
    for _ in range(6):
        seat = game.to_act[0]
        for k in range(3):
            twin = game.determinize(seat, seed=k)
            assert twin.view(seat) == game.view(seat)
            try:
                cardcore.new_game("gofish", 3, position=twin.position(), seed=1)
            except cardcore.CardcoreError as exc:
                refused.append(str(exc))
        game.apply(rng.choice(game.legal_actions(seat)))
    assert refused == []


def test_one_game_cannot_make_a_difference_significant() -> None:
    result = compare("golf", rules=["golf.hard"], games=1, seed=1, skill=None)
    assert result.diff["spread"].mean != 0.0  # HARD scoring did change this game's spread
    assert not result.diff["spread"].significant
    assert result.a.spread.low != result.a.spread.high  # one value says nothing of spread


def test_an_interrupt_stops_a_study_on_worker_processes_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import time

    progress = pytest.importorskip("rich.progress")
    pressed: list[float] = []

    def ctrl_c(self: Any, task: Any, advance: float = 1) -> None:  # after the first chunk
        pressed.append(time.perf_counter())
        raise KeyboardInterrupt

    monkeypatch.setattr(progress.Progress, "advance", ctrl_c)
    args = ["compare", "golf", "-o", "rounds=1", "--agents", "ismcts:iterations=5", "-n", "80"]
    start = time.perf_counter()
    status = cli.main([*args, "--workers", "2", "--skill", "none", "-q"])
    after = time.perf_counter() - pressed[0]
    first = pressed[0] - start  # the pool's start and the first chunk: this machine's pace
    assert status == 130
    # the running and pre-queued chunks (4 games each) may finish; the ~38 queued ones (about
    # ten times the first chunk with the pool's start) must not. 4x the first chunk (5 s at
    # least) leaves room for a loaded machine's pace changing between the first chunk and the
    # last (a flaky-test audit measured 38-66% of a 3x bound used under load)
    limit = max(5.0, 4 * first)
    assert after < limit, (
        f"{after:.1f} s from the interrupt to the exit (first chunk {first:.1f} s)"
    )
