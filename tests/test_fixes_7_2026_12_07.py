"""Fixes of the seventh night: a score sheet of numpy numbers stays JSON-ready, an option
refused for its type says its range, and dask's ``KilledWorker`` is a ``CardcoreError``."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import CardcoreError, OptionError, ScoreSheet


def test_score_sheet_keeps_numpy_scores_as_python_numbers() -> None:
    sheet = ScoreSheet(3)
    sheet.add_round([np.int64(3), np.float64(2.5), np.int32(-4)])
    sheet.add_round([1, 2, 3])
    assert sheet.totals == [4, 4.5, -1]
    assert [type(x) for x in sheet.rounds[0]] == [int, float, int]
    assert [type(x) for x in sheet.totals] == [int, float, int]
    assert json.loads(json.dumps(sheet.snapshot())) == {
        "rounds": [[3, 2.5, -4], [1, 2, 3]],
        "totals": [4, 4.5, -1],
    }
    assert [type(x) for x in sheet.clone().totals] == [int, float, int]


def test_score_sheet_still_refuses_bad_rounds_and_changes_nothing() -> None:
    sheet = ScoreSheet(2)
    for bad in ([np.float64("nan"), 1], [True, 1], [1], "12", [np.inf, 0]):
        with pytest.raises(cardcore.ArgumentError, match="one per seat"):
            sheet.add_round(bad)  # type: ignore[arg-type]
    assert sheet.rounds == [] and sheet.totals == [0, 0]


@pytest.mark.parametrize("value", ["x", 2.5, True])
def test_option_refused_for_its_type_names_its_range(value: object) -> None:
    with pytest.raises(OptionError) as err:
        cardcore.new_game("golf", 2, options={"rounds": value})
    assert "must be int, not" in str(err.value)
    assert "(from 1 to 100)" in str(err.value)


def test_option_without_bounds_says_no_range() -> None:
    info = cardcore.Option("width", 3, "a width", kind=int)
    with pytest.raises(OptionError) as err:
        info.check("wide")
    assert str(err.value) == "option 'width' must be int, not 'wide'"
    low = cardcore.Option("n", 3, "n", kind=int, minimum=1)
    with pytest.raises(OptionError, match=r"must be int, not 'x' \(at least 1\)$"):
        low.check("x")
    high = cardcore.Option("n", 3, "n", kind=int, maximum=9)
    with pytest.raises(OptionError, match=r"must be int, not 'x' \(at most 9\)$"):
        high.check("x")


class _DyingExecutor:
    """An executor whose worker dies after *keep* chunks, raising *error* as dask would."""

    def __init__(self, error: BaseException, keep: int) -> None:
        self.error, self.keep = error, keep

    def map(self, fn: Callable[[Any], Any], chunks: Iterable[Any]) -> Iterator[Any]:
        for i, chunk in enumerate(list(chunks)):
            if i == self.keep:
                raise self.error
            yield fn(chunk)


def _killed() -> BaseException:
    scheduler = pytest.importorskip("distributed.scheduler")
    worker = SimpleNamespace(address="tcp://127.0.0.1:1")
    return scheduler.KilledWorker("task-1", worker, 3)  # type: ignore[no-any-return]


def test_simulate_dask_killed_worker_is_a_cardcore_error() -> None:
    with pytest.raises(CardcoreError) as err:
        cardcore.simulate("golf", games=20, chunk=5, executor=_DyingExecutor(_killed(), 2))  # type: ignore[arg-type]
    text = str(err.value)
    assert "stopped abruptly" in text and "after 10 of 20 games" in text
    assert "KilledWorker" in text and "all those workers died" in text


def test_killed_worker_whose_text_fails_is_still_reported() -> None:
    scheduler = pytest.importorskip("distributed.scheduler")
    error = scheduler.KilledWorker("task-1", "no address", 3)  # its str() raises
    with pytest.raises(CardcoreError, match="stopped abruptly") as err:
        cardcore.simulate("golf", games=10, chunk=5, executor=_DyingExecutor(error, 0))  # type: ignore[arg-type]
    assert "after 0 of 10 games" in str(err.value)


def test_compare_dask_killed_worker_is_a_cardcore_error() -> None:
    with pytest.raises(CardcoreError) as err:
        cardcore.compare(
            "golf",
            vs=["golf.hard"],
            games=10,
            chunk=5,
            executor=_DyingExecutor(_killed(), 1),  # type: ignore[arg-type]
        )
    assert "stopped abruptly" in str(err.value) and "KilledWorker" in str(err.value)


def test_other_executor_errors_pass_through_unchanged() -> None:
    class KilledWorker(Exception):  # the name alone, not dask's: not a dead worker
        pass

    for error in (RuntimeError("boom"), KilledWorker("mine")):
        with pytest.raises(type(error)) as err:
            cardcore.simulate("golf", games=20, chunk=5, executor=_DyingExecutor(error, 1))  # type: ignore[arg-type]
        assert err.value is error


def test_score_sheet_refuses_a_round_taking_a_total_beyond_a_float() -> None:
    sheet = ScoreSheet(2)
    sheet.add_round([1e308, 0.5])
    with pytest.raises(cardcore.ArgumentError, match="beyond a float's range"):
        sheet.add_round([1e308, 0.5])
    big = ScoreSheet(1)
    big.add_round([10**400])  # ints never overflow
    with pytest.raises(cardcore.ArgumentError, match="beyond a float's range"):
        big.add_round([1.5])  # an int total too large for a float
    assert sheet.totals == [1e308, 0.5] and big.totals == [10**400]
    assert len(sheet.rounds) == 1 and len(big.rounds) == 1
