"""simulate keeps totals as games finish, and executors get ranges of games, not lists."""

from __future__ import annotations

import math
import pickle
import statistics
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from typing import Any

import pytest

import cardcore
from cardcore.simulate import run_one


class _Recording(Executor):
    """Runs here, keeping the pickled size of every chunk it was given."""

    def __init__(self) -> None:
        self.sizes: list[int] = []

    def map(self, fn: Callable[..., Any], *iterables: Iterable[Any], **_: Any) -> Any:  # type: ignore[override]
        items = list(iterables[0])
        self.sizes = [len(pickle.dumps(c)) for c in items]
        return (fn(c) for c in items)


def test_summary_matches_every_game_counted_by_hand() -> None:
    games = 120
    summary = cardcore.simulate("tonk", games=games, players=3, seed=11)
    outcomes = [run_one(("tonk", 3, ("random",) * 3, (), (), {}, 11, i)) for i in range(games)]
    for seat in range(3):
        scores = [o.scores[seat] for o in outcomes]
        pays = [float(o.payouts[seat]) for o in outcomes if o.payouts is not None]
        assert summary.mean_scores[seat] == sum(scores) / games
        assert summary.sd_scores[seat] == pytest.approx(statistics.stdev(scores), rel=1e-12)
        assert summary.sd_payouts is not None and summary.mean_payouts is not None
        assert summary.sd_payouts[seat] == pytest.approx(statistics.stdev(pays), rel=1e-12)
        wins = sum(1 / len(o.winners) for o in outcomes if seat in o.winners)
        assert summary.wins[seat] == pytest.approx(wins)
    assert summary.mean_actions == sum(o.actions for o in outcomes) / games
    assert sum(summary.reasons.values()) == games


def test_one_game_has_no_spread() -> None:
    """The sample sd (ddof 1) is undefined over one game: NaN, not a spread of 0."""
    summary = cardcore.simulate("golf", games=1, seed=3, options={"rounds": 1})
    assert all(math.isnan(sd) for sd in summary.sd_scores)


def test_chunks_name_their_games_whatever_the_chunk_size() -> None:
    executor = _Recording()
    here = cardcore.simulate("tonk", games=400, players=2, seed=2, chunk=200)
    there = cardcore.simulate("tonk", games=400, players=2, seed=2, chunk=200, executor=executor)
    assert there == here
    assert len(executor.sizes) == 2
    assert max(executor.sizes) < 1000  # a range, not 200 games' tasks


def test_compare_chunks_name_their_games() -> None:
    executor = _Recording()
    kw: dict[str, Any] = {"games": 60, "players": 2, "seed": 4, "chunk": 30, "skill": None}
    here = cardcore.compare("tonk", **kw)
    there = cardcore.compare("tonk", executor=executor, **kw)
    timing = ("slowest", "decisions_per_s")  # measured, not played
    for side in ("a", "b"):
        ours = {k: v for k, v in there.to_json()[side].items() if k not in timing}
        assert ours == {k: v for k, v in here.to_json()[side].items() if k not in timing}
    assert there.diff == here.diff
    assert len(executor.sizes) == 4  # two chunks per side
    assert max(executor.sizes) < 2000


def test_simulate_seats_as_many_players_as_its_agents_name() -> None:
    summary = cardcore.simulate("tonk", games=3, agents=["random", "random", "tonk-heuristic"])
    assert summary.players == 3 and len(summary.wins) == 3
    text = cardcore.simulate("tonk", games=3, agents="random,random,random")
    assert text.players == 3
    assert cardcore.simulate("tonk", games=3, agents="random").players == 2  # one fills every seat
    with pytest.raises(cardcore.OptionError, match="one agent spec per seat"):
        cardcore.simulate("tonk", games=3, players=2, agents=["random"] * 3)


def test_compare_seats_as_many_players_as_a_lineup_names() -> None:
    kw: dict[str, Any] = {"games": 2, "skill": None}
    assert cardcore.compare("tonk", agents=["random"] * 3, **kw).players == 3
    assert cardcore.compare("tonk", vs_agents="random,random,random", **kw).players == 3
    assert cardcore.compare("tonk", **kw).players == 2
    with pytest.raises(cardcore.OptionError, match="one agent spec per seat"):  # as simulate
        cardcore.compare("tonk", players=2, agents=["random"] * 3, **kw)
