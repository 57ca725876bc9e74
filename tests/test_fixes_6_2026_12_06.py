"""Fixes of 2026-12-06 (night): a study whose executor lost a worker says so in the library's
words, how many games had come back, and that the same seed plays them again."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

import cardcore
from cardcore.agents import RandomAgent
from cardcore.errors import CardcoreError

PARENT = os.getpid()


class _DiesAfterOne(Executor):
    """Runs the first task here, then reports its worker dead, as a process pool does."""

    def map(  # type: ignore[override]
        self, fn: Callable[..., Any], *iterables: Iterable[Any], **_: Any
    ) -> Iterator[Any]:
        def results() -> Iterator[Any]:
            for i, item in enumerate(zip(*iterables, strict=True)):
                if i == 1:
                    raise BrokenProcessPool("A process in the process pool was terminated")
                yield fn(*item)

        return results()


def test_simulate_names_a_lost_worker_and_the_games_that_came_back() -> None:
    with pytest.raises(CardcoreError) as caught:
        cardcore.simulate("golf", games=8, chunk=3, executor=_DiesAfterOne())
    text = str(caught.value)
    assert type(caught.value) is CardcoreError
    assert "worker of the executor stopped" in text
    assert "after 3 of 8 games" in text
    assert "same seed" in text
    assert isinstance(caught.value.__cause__, BrokenProcessPool)


def test_compare_names_a_lost_worker_and_the_games_that_came_back() -> None:
    with pytest.raises(CardcoreError) as caught:
        cardcore.compare(
            "golf", rules=["golf.jokers"], games=4, chunk=2, skill=None, executor=_DiesAfterOne()
        )
    text = str(caught.value)
    assert type(caught.value) is CardcoreError
    assert "after 2 of 8 games" in text  # both configurations' games
    assert isinstance(caught.value.__cause__, BrokenProcessPool)


class _Killer(RandomAgent):
    """Kills the worker process it runs in (never the test's own process)."""

    def choose(self, view: Any, legal: Any) -> Any:
        if os.getpid() != PARENT:
            os._exit(3)
        return super().choose(view, legal)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # forking a threaded process
@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="needs the fork start method"
)
def test_a_real_process_pool_losing_a_worker_is_a_library_error() -> None:
    cardcore.register("cardcore.agents", "test-killer", _Killer)
    try:
        pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
        with pool, pytest.raises(CardcoreError, match="after 0 of 4 games"):
            cardcore.simulate("golf", games=4, chunk=2, agents="test-killer", executor=pool)
    finally:
        cardcore.unregister("cardcore.agents", "test-killer")


# -- a late tick of an idle clock (the session review's fix) -------------------------------------


def _idle_deadlines(end: float, *, late: bool) -> tuple[float | None, int]:
    """Go Fish (no default action of its own) with a 10 s turn whose timeouts play nothing
    (fallback "wait"): the next deadline after *end*, and the game's version."""
    from cardcore.session import TimeControl
    from tests.session.kit import table

    t = table("gofish", 2, time=TimeControl(turn=10.0, fallback="wait"), watch=False)
    game = t.session.game
    assert game is not None
    start = game.version
    if late:
        t.now = end
        t.tick()
    else:
        while (deadline := t.session.next_deadline()) is not None and deadline <= end:
            t.now = deadline
            t.tick()
    assert t.session.game is game and game.version == start  # nothing played: idle clocks
    return t.session.next_deadline(), game.version


@pytest.mark.parametrize("end", [35.0, 40.0, 1234.5])
def test_a_late_tick_of_a_waiting_clock_leaves_the_deadline_ticks_on_time_would(end: float) -> None:
    on_time = _idle_deadlines(end, late=False)
    assert on_time[0] is not None and on_time[0] > end
    assert _idle_deadlines(end, late=True) == on_time


def test_a_pending_takeback_names_a_card_only_to_the_seats_that_see_it() -> None:
    """A takeback request carries the action's text: a seat whose view does not hold every
    card the text names is told the request without it, as an update would (a game whose
    text names a card its action hides: none built in, so the request is set here)."""
    from cardcore.session.patch import card_words
    from tests.session.kit import table

    t = table("golf", 2, watch=False)
    session = t.session
    game = session.game
    assert game is not None
    seen = set(card_words(session.views[1]))
    hidden = next(c for c in ("QS", "KH", "2D", "9C", "JH", "5S") if c not in seen)
    shown = next(iter(sorted(seen)))
    for text, told in ((f"pass {hidden}", None), (f"pass {shown}", f"pass {shown}")):
        session.takeback = {
            "by": 0,
            "version": game.version,
            "action": text,
            "accepted": [],
            "deadline": 99.0,
        }
        assert session.takeback_for(0) == session.takeback  # the asker wrote it
        mine = session.takeback_for(1)
        assert mine is not None and mine["action"] == told
        message = session._view_message(session.streams[1], "resync")
        assert message["takeback"]["action"] == told
        assert session.takeback["action"] == text  # kept whole for the asker and the store
        session._emit_takeback("request", 0)
        sent = {o.conn: o.message for o in session._out if o.message["type"] == "takeback"}
        session._out.clear()
        assert sent["a"]["action"] == text and sent["b"]["action"] == told
    session.takeback = None


# -- the RL review's doc gaps, closed ---------------------------------------------------------


def test_seat_view_reads_a_numpy_seat_as_observe_does() -> None:
    np = pytest.importorskip("numpy")
    from cardcore.rl import seat_view

    game = cardcore.new_game("golf", 2, seed=5)
    for needs in ("view", "table"):
        assert seat_view(game, np.int64(1), needs) == seat_view(game, 1, needs)
    with pytest.raises(cardcore.SeatError):
        seat_view(game, np.int64(2), "table")


@pytest.mark.parametrize("bad", [{"a": 1}, object(), RandomAgent])
def test_an_opponent_that_cannot_play_is_an_option_error(bad: Any) -> None:
    pytest.importorskip("gymnasium")
    from cardcore.errors import OptionError
    from cardcore.rl import gym_env

    with pytest.raises(OptionError, match="opponent"):
        gym_env("golf", 2, opponents=bad)


# -- the benchmark scripts of the night run (they cannot rot) -----------------------------------


def _bench(name: str, *args: str) -> list[list[str]]:
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "benchmarks" / name
    out = subprocess.run(
        [sys.executable, str(script), *args],
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
    ).stdout
    return [line.split() for line in out.splitlines()]


def test_view_patches_benchmark_runs() -> None:
    rows = _bench("view_patches.py", "--quick")[1:]
    assert [r[0] for r in rows] == ["golf", "tonk", "spit", "speed"]
    assert all(int(r[1]) > 100 and float(r[2]) > 0 and float(r[3]) > 0 for r in rows)


def test_compare_memory_benchmark_runs() -> None:
    rows = _bench("compare_memory.py", "--quick")
    assert [r[1] for r in rows] == ["2", "4"]
    assert all(100 < float(r[3]) < 10_000 for r in rows)
