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
