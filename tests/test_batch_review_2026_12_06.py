"""Review of the batch-running layer: ``cardcore.simulate``, ``cardcore.compare``, their
executors and the ``simulate`` / ``compare`` commands.

The five bugs found are pinned by tests of the documented (or evidently intended)
behaviour, each failing on the code before its fix; each claim that held is a passing
test that fails if it breaks. Small sizes,
one-round Golf, at most two workers.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import sys
import threading
import types
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

import pytest

import cardcore
from cardcore import RuleInfo, cli, hookimpl
from cardcore.agents import RandomAgent
from cardcore.errors import CardcoreError, OptionError, PluginError
from cardcore.simulate import _seed_of

SIM = sys.modules["cardcore.simulate"]  # the module (cardcore.simulate is the function)
CMP = sys.modules["cardcore.compare"]
ONE = {"rounds": 1}

FAIL_GAME = 3
FAIL_GAME_SEED = _seed_of(0, FAIL_GAME)
FAIL_AGENT_SEED = _seed_of(FAIL_GAME_SEED, 1000)  # seat 0 of game 3 of study seed 0


class FailAtGame3(RandomAgent):
    """A random agent that raises in game 3 of study seed 0 (seat 0) only."""

    def choose(self, view: Any, legal: Any) -> Any:
        if self.seed == FAIL_AGENT_SEED:
            raise ZeroDivisionError("agent blew up")
        return super().choose(view, legal)


class CrashAtGame3(RandomAgent):
    """A random agent whose process dies in game 3 of study seed 0 (seat 0)."""

    def choose(self, view: Any, legal: Any) -> Any:
        if self.seed == FAIL_AGENT_SEED:
            os._exit(7)
        return super().choose(view, legal)


class Reversed(Executor):
    """Runs every task at once, last first, and hands results back in order: a
    scheduler that finishes the last chunk first."""

    def __init__(self) -> None:
        self.ran: list[Any] = []

    def map(self, fn: Callable[..., Any], *iterables: Any, **_: Any) -> Iterator[Any]:  # type: ignore[override]
        items = list(zip(*iterables, strict=True))
        out: list[Any] = [None] * len(items)
        for i in reversed(range(len(items))):
            self.ran.append(i)
            out[i] = fn(*items[i])
        return iter(out)


@pytest.fixture
def boom_rule() -> Iterator[str]:
    """A house rule whose hook raises in game 3 of study seed 0 only."""
    mod = types.ModuleType("review_boom_rule")
    mod.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="REVIEW-BOOM-1", name="golf.review-boom", game="golf", summary="boom", version="1.0.0"
    )

    @hookimpl
    def forbid_action(state: Any, action: Any) -> None:
        if state.seed == FAIL_GAME_SEED:
            raise ZeroDivisionError("boom in hook")

    mod.forbid_action = forbid_action  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "golf.review-boom", mod)
    yield "golf.review-boom"
    cardcore.unregister("cardcore.rules", "golf.review-boom")


@pytest.fixture
def agent_registered() -> Iterator[Callable[[str, type], None]]:
    names: list[str] = []

    def register(name: str, cls: type) -> None:
        cardcore.register("cardcore.agents", name, cls)
        names.append(name)

    yield register
    for name in names:
        cardcore.unregister("cardcore.agents", name)


def _timeless(result: Any) -> dict[str, Any]:
    """A comparison's JSON less the wall-clock measures the docs say differ run to run."""
    data = result.to_json()
    for side in ("a", "b"):
        data[side].pop("slowest")
        data[side].pop("decisions_per_s")
    return data


# -- the same result however it is run ---------------------------------------------------


def test_simulate_same_summary_in_process_threads_and_last_chunk_first() -> None:
    kw: dict[str, Any] = {"games": 12, "players": 2, "options": ONE, "seed": 5}
    here = cardcore.simulate("golf", **kw)
    backwards = Reversed()
    with ThreadPoolExecutor(2) as pool:
        threads = cardcore.simulate("golf", chunk=1, executor=pool, **kw)
    last_first = cardcore.simulate("golf", chunk=5, executor=backwards, **kw)
    assert backwards.ran == [2, 1, 0]  # (the scheduler did run the last chunk first)
    assert here == threads == last_first
    assert here.to_json() == last_first.to_json()
    assert here != cardcore.simulate("golf", **{**kw, "seed": 6})  # (the check can fail)


def test_compare_same_result_in_process_threads_and_last_chunk_first() -> None:
    kw: dict[str, Any] = {
        "rules": ["golf.jokers"],
        "games": 6,
        "options": ONE,
        "seed": 2,
        "agents": ["golf-greedy", "random"],
    }
    here = cardcore.compare("golf", **kw)
    with ThreadPoolExecutor(2) as pool:
        threads = cardcore.compare("golf", chunk=1, executor=pool, **kw)
    last_first = cardcore.compare("golf", chunk=4, executor=Reversed(), **kw)
    assert _timeless(here) == _timeless(threads) == _timeless(last_first)


def test_compare_a_configuration_with_itself_shows_no_difference_at_all() -> None:
    result = cardcore.compare("golf", games=5, options=ONE, seed=4, skill=None)
    assert result.same_deals
    for key in ("actions", "rounds", "spread"):
        e = result.diff[key]
        assert (e.mean, e.low, e.high) == (0.0, 0.0, 0.0), key
    assert result.diff["first_seat"].mean == 0.0
    assert result.a.to_json() | {"label": "B"} == result.b.to_json() | {
        "slowest": result.a.to_json()["slowest"],
        "decisions_per_s": result.a.to_json()["decisions_per_s"],
    }


# -- seeds ---------------------------------------------------------------------------------


def test_compare_pairs_game_i_of_a_and_b_on_the_documented_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[Any] = []
    real = CMP.run_chunk

    def spy(chunk: Any) -> Any:
        done = real(chunk)
        seen.extend(done)
        return done

    monkeypatch.setattr(CMP, "run_chunk", spy)
    cardcore.compare("golf", rules=["golf.hard"], games=4, options=ONE, seed=9, chunk=3)
    main = {(r.side, r.index): r.seed for r in seen if not r.probe}
    assert sorted(main) == [(s, i) for s in (0, 1) for i in range(4)]
    for i in range(4):
        assert main[(0, i)] == main[(1, i)] == _seed_of(9, i)
    assert len(set(main.values())) == 4  # no two games of the study on one seed


# -- a failure in one game -----------------------------------------------------------------


def test_simulate_names_the_game_and_seed_an_agent_failed_in(agent_registered: Any) -> None:
    agent_registered("review-fail", FailAtGame3)
    with pytest.raises(CardcoreError) as info:
        cardcore.simulate(
            "golf", games=6, players=2, agents=["review-fail", "random"], options=ONE, chunk=2
        )
    assert f"game {FAIL_GAME} (seed {FAIL_GAME_SEED})" in str(info.value)
    assert "review-fail" in str(info.value)


def test_simulate_names_the_game_and_seed_a_plugin_failed_in(boom_rule: str) -> None:
    with pytest.raises(PluginError) as info:
        cardcore.simulate("golf", games=6, players=2, rules=[boom_rule], options=ONE, chunk=2)
    assert f"game {FAIL_GAME}" in str(info.value)
    assert str(FAIL_GAME_SEED) in str(info.value)


def test_compare_names_the_configuration_game_and_seed_a_plugin_failed_in(
    boom_rule: str,
) -> None:
    with pytest.raises(CardcoreError) as info:
        cardcore.compare("golf", rules=[boom_rule], games=6, options=ONE, chunk=2, skill=None)
    assert f"configuration A, game {FAIL_GAME} (seed {FAIL_GAME_SEED})" in str(info.value)


def test_compare_keeps_a_plugin_failure_a_plugin_error(boom_rule: str) -> None:
    with pytest.raises(PluginError):
        cardcore.compare("golf", rules=[boom_rule], games=6, options=ONE, chunk=2, skill=None)


def _gated(real: Callable[[Any], Any], started: list[int], first: Callable[[Any], Any]) -> Any:
    """A chunk runner for a one-thread pool and chunks of one game: the first chunk runs
    *first*, every later one holds the worker a moment, so that the main thread acts on
    the first before the worker can reach a third."""

    def run(chunk: Any) -> Any:
        started.append(len(started))
        if len(started) == 1:
            return first(chunk)
        threading.Event().wait(0.15)
        return real(chunk)

    return run


def test_simulate_stops_starting_chunks_after_one_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []

    def fail(chunk: Any) -> Any:
        raise CardcoreError("chunk 0 failed")

    monkeypatch.setattr(SIM, "_run_chunk", _gated(SIM._run_chunk, started, fail))
    with pytest.raises(CardcoreError, match="chunk 0 failed"), ThreadPoolExecutor(1) as pool:
        cardcore.simulate("golf", games=8, players=2, options=ONE, chunk=1, executor=pool)
    assert len(started) <= 3, started  # 0 failed, 1 was running: the rest cancelled


def test_simulate_interrupted_cancels_the_chunks_not_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started: list[int] = []
    monkeypatch.setattr(SIM, "_run_chunk", _gated(SIM._run_chunk, started, SIM._run_chunk))

    def interrupt(done: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt), ThreadPoolExecutor(1) as pool:  # as Ctrl-C leaves
        cardcore.simulate(
            "golf", games=8, players=2, options=ONE, chunk=1, executor=pool, progress=interrupt
        )
    assert len(started) <= 3, started


def test_compare_interrupted_cancels_the_chunks_not_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started: list[int] = []
    monkeypatch.setattr(CMP, "run_chunk", _gated(CMP.run_chunk, started, CMP.run_chunk))

    def interrupt(done: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt), ThreadPoolExecutor(1) as pool:
        cardcore.compare(
            "golf", games=4, options=ONE, chunk=1, skill=None, executor=pool, progress=interrupt
        )
    assert len(started) <= 3, started


# -- hostile arguments ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kw", "words"),
    [
        ({"games": 10**12}, "at most 10,000,000"),
        ({"games": 0}, "at least 1"),
        ({"games": True}, "whole number"),
        ({"games": 4, "chunk": 0}, "chunk"),
        ({"games": 4, "chunk": -1}, "chunk"),
        ({"games": 4, "executor": object()}, "executor"),
        ({"games": 4, "progress": 3}, "progress"),
        ({"games": 4, "seed": -1}, "seed"),
        ({"games": 4, "players": 10**30}, "CORE-SEAT-2"),
    ],
)
def test_hostile_study_arguments_are_refused_before_any_game(
    kw: dict[str, Any], words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[Any] = []
    monkeypatch.setattr(SIM, "_run_chunk", ran.append)
    monkeypatch.setattr(CMP, "run_chunk", ran.append)
    with pytest.raises(OptionError, match=words):
        cardcore.simulate("golf", **{"players": 2, **kw})
    with pytest.raises(OptionError, match=words):
        cardcore.compare("golf", **{"skill": None, **kw})
    assert ran == []


@pytest.mark.parametrize("workers", ["0", "-1", "1025", "two"])
def test_cli_refuses_bad_worker_counts_in_one_line(workers: str, capsys: Any) -> None:
    for command in ("simulate", "compare"):
        code = cli.main([command, "golf", "-n", "2", "--workers", workers, "-q"])
        _out, err = capsys.readouterr()
        assert code == 2
        assert "--workers" in err and len(err.strip().splitlines()) == 1
    assert multiprocessing.active_children() == []


def test_cli_huge_game_count_starts_no_worker(capsys: Any) -> None:
    code = cli.main(["simulate", "golf", "-n", str(10**12), "--workers", "2", "-q"])
    _out, err = capsys.readouterr()
    assert code == 2
    assert "at most 10,000,000" in err
    assert multiprocessing.active_children() == []


# -- statistics edge cases -----------------------------------------------------------------


def test_one_game_has_undefined_spreads_as_null_in_strict_json() -> None:
    summary = cardcore.simulate("golf", games=1, players=2, options=ONE)
    assert all(math.isnan(s) for s in summary.sd_scores)
    json.dumps(summary.to_json(), allow_nan=False)
    result = cardcore.compare("golf", games=1, options=ONE, skill=None)
    data = result.to_json()
    json.dumps(data, allow_nan=False)
    assert data["a"]["actions"]["low"] is None and data["diff"]["actions"]["high"] is None


def test_games_that_all_truncate_count_as_nobody_winning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardcore.plugins import get_ruleset

    logic = type(cardcore.new_game("golf", 2, seed=0).logic)
    for rules in ((), ("golf.hard",)):  # the bound is kept with the options checked: fresh,
        # so the patched bound leaves with the test (later tests' games are not truncated)
        monkeypatch.setattr(get_ruleset("golf", rules), "checked", {})
    monkeypatch.setattr(logic, "action_bound", lambda self, n, options: 3)
    summary = cardcore.simulate("golf", games=4, players=2, options=ONE)
    assert summary.truncated == 4 and dict(summary.reasons) == {"truncated": 4}
    assert summary.mean_actions == 3.0
    result = cardcore.compare("golf", rules=["golf.hard"], games=4, options=ONE, skill=None)
    assert result.a.reasons["truncated"].mean == 1.0
    assert result.a.first_seat is not None and result.a.first_seat.mean == -0.5
    assert result.diff["reason:truncated"].mean == 0.0


# -- the command line: progress, Ctrl-C, workers -------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "golf", "-n", "4", "-p", "2", "-o", "rounds=1"],
        ["compare", "golf", "-n", "2", "-o", "rounds=1", "--skill", "none"],
    ],
)
def test_progress_bar_goes_to_stderr(
    argv: list[str], capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich: both streams are terminals
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "this process" in err  # the bar's caption
    assert "this process" not in out


def test_progress_bar_stays_out_of_json_on_stdout(
    capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    code = cli.main(["simulate", "golf", "-n", "4", "-p", "2", "-o", "rounds=1", "--json", "-"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["games"] == 4  # stdout is the JSON alone
    assert "4/4" in err or "this process" in err  # (the bar was drawn: on stderr)


def test_cli_simulate_interrupted_in_process_says_so_with_130(
    capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = SIM.run_one

    def run_one(task: Any) -> Any:
        if task[-1] == 2:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(SIM, "run_one", run_one)
    code = cli.main(["simulate", "golf", "-n", "6", "-p", "2", "-o", "rounds=1", "-q"])
    out, err = capsys.readouterr()
    assert code == 130
    assert err.strip() == "interrupted"
    assert "seat" not in out  # no table of a partial study passed off as the whole


def test_cli_interrupted_with_workers_leaves_no_worker_running(
    capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("rich")
    from rich.progress import Progress

    def interrupt(self: Any, task: Any, advance: float = 1) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Progress, "advance", interrupt)
    argv = ["simulate", "golf", "-n", "40", "-p", "2", "-o", "rounds=1", "-q", "--workers", "2"]
    code = cli.main(argv)
    _out, err = capsys.readouterr()
    assert code == 130
    assert err.strip() == "interrupted"
    assert multiprocessing.active_children() == []  # the pool shut down and joined


def test_cli_workers_see_an_importable_registered_agent_and_match(
    capsys: Any, agent_registered: Any
) -> None:
    agent_registered("review-fail", FailAtGame3)
    base = ["simulate", "golf", "-n", "3", "-p", "2", "-o", "rounds=1", "-q", "--json", "-"]
    argv = [*base, "--agents", "review-fail,random"]
    assert cli.main(argv) == 0
    here = json.loads(capsys.readouterr().out)
    assert cli.main([*argv, "--workers", "2"]) == 0
    there = json.loads(capsys.readouterr().out)
    assert here == there and here["agents"] == ["review-fail", "random"]
    assert multiprocessing.active_children() == []


def test_cli_a_worker_that_dies_is_one_error_line_and_no_worker_left(
    capsys: Any, agent_registered: Any
) -> None:
    agent_registered("review-crash", CrashAtGame3)
    argv = ["simulate", "golf", "-p", "2", "-o", "rounds=1", "-q", "--workers", "2"]
    argv += ["--agents", "review-crash,random"]
    assert cli.main([*argv, "-n", "3"]) == 0  # games 0-2: the workers do play the agent
    capsys.readouterr()
    code = cli.main([*argv, "-n", "6"])  # game 3 kills its worker
    out, err = capsys.readouterr()
    assert code == 1
    assert len(err.strip().splitlines()) == 1 and err.startswith("error:")
    assert "terminated abruptly" in err
    assert "seat" not in out
    assert multiprocessing.active_children() == []


# -- memory ----------------------------------------------------------------------------------


def test_simulate_memory_does_not_grow_with_games_at_chunk_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import tracemalloc

    outcome = SIM.GameOutcome(0, 0, (0,), (1.0, 2.0), None, "rounds", 5)
    monkeypatch.setattr(SIM, "_run_chunk", lambda chunk: [outcome] * (chunk[2] - chunk[1]))

    def peak(games: int) -> int:
        tracemalloc.start()
        try:
            cardcore.simulate("golf", games=games, players=2, chunk=1)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, large = peak(1_000), peak(40_000)
    assert large < 2 * small + 200_000, (small, large)
