"""Numbers a researcher reads, pinned to values computed independently in the test
(a mutation audit of 2026-12-24, 42 mutants of the lab's statistics, simulate, the RL
rewards and masks, ISMCTS and the greedy agents): each test failed on a plausible slip the
suite missed."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from statistics import NormalDist
from typing import Any

import pytest

import cardcore
from cardcore.compare import GameRecord, compare
from cardcore.compare._stats import mean_ci, proportion_ci, unpaired_diff
from cardcore.simulate import run_one

Z = NormalDist().inv_cdf(0.975)


def _wilson(hits: float, n: int) -> tuple[float, float]:
    """Textbook Wilson score interval (Wilson 1927), 95%."""
    p = hits / n
    denom = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / denom
    half = Z / denom * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


class _Keep(Executor):
    """Runs every chunk here and keeps the per-game records it produced."""

    def __init__(self) -> None:
        self.records: list[Any] = []

    def map(self, fn: Callable[..., Any], *iterables: Iterable[Any], **_: Any) -> Any:  # type: ignore[override]
        out = [fn(c) for c in iterables[0]]
        for chunk in out:
            self.records.extend(chunk)
        return iter(out)


def _share(r: GameRecord, seat: int) -> float:
    return 1.0 / len(r.winners) if seat in r.winners else 0.0


# -- intervals -----------------------------------------------------------------------------


def test_unpaired_difference_of_proportions_is_newcombes_method_10() -> None:
    """Newcombe (1998) method 10: L = d - sqrt((pb - lb)^2 + (ua - pa)^2),
    U = d + sqrt((ub - pb)^2 + (pa - la)^2); asymmetric arms must not be swapped."""
    a, b = proportion_ci(3, 10), proportion_ci(8, 10)
    la, ua = _wilson(3, 10)
    lb, ub = _wilson(8, 10)
    d = 0.8 - 0.3
    low = d - math.sqrt((0.8 - lb) ** 2 + (ua - 0.3) ** 2)
    high = d + math.sqrt((ub - 0.8) ** 2 + (0.3 - la) ** 2)
    got = unpaired_diff(a, b)
    assert got.mean == pytest.approx(d)
    assert got.low == pytest.approx(low, abs=1e-6)
    assert got.high == pytest.approx(high, abs=1e-6)
    assert got.interval == "newcombe"


def test_unpaired_difference_of_means_adds_variances_not_half_widths() -> None:
    xs, ys = [1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 7.0]
    half = Z * math.sqrt(statistics.variance(xs) / 4 + statistics.variance(ys) / 3)
    d = statistics.mean(ys) - statistics.mean(xs)
    got = unpaired_diff(mean_ci(xs), mean_ci(ys))
    assert got.mean == pytest.approx(d)
    assert got.low == pytest.approx(d - half, abs=1e-6)
    assert got.high == pytest.approx(d + half, abs=1e-6)


# -- compare: mixed line-ups, ties in the probes and the paired shares ------------------------


def test_agent_wins_follow_the_rotation_in_three_seats() -> None:
    """Seat s of a game plays agent (s + lineup) % n (GameRecord's documented rotation);
    with three seats, rotating the wrong way credits the wrong agent."""
    agents = ("random", "random:seed=7", "golf-greedy")
    keep = _Keep()
    result = compare(
        "golf", agents=agents, games=30, seed=4, skill=None, options={"rounds": 1}, executor=keep
    )
    main = [r for r in keep.records if r.side == 0 and not r.probe]
    assert len(main) == 30 and {r.lineup for r in main} == {0, 1, 2}
    for spec in agents:
        shares = [
            sum(1.0 / len(r.winners) for s in r.winners if agents[(s + r.lineup) % 3] == spec)
            for r in main
        ]
        est = result.a.agent_wins[spec]
        assert est.mean == pytest.approx(sum(shares) / 30)
        lo, hi = _wilson(sum(shares), 30)
        assert (est.low, est.high) == pytest.approx((lo, hi), abs=1e-6)


def test_skill_probe_and_paired_first_seat_split_ties() -> None:
    """A tie of k winners gives each 1/k: in the skill probes and in the paired
    first-seat difference, as in the per-seat wins (drawgame: lowest hand wins, ties share)."""
    keep = _Keep()
    result = compare(
        "drawgame",
        games=60,
        seed=2,
        agents="random",
        vs_agents="random:seed=9",
        skill=("random:seed=3", "random"),
        executor=keep,
    )
    a = {r.index: r for r in keep.records if r.side == 0 and not r.probe}
    b = {r.index: r for r in keep.records if r.side == 1 and not r.probe}
    pa = [r for r in keep.records if r.side == 0 and r.probe]
    assert len(a) == len(b) == len(pa) == 60
    # the ties this test is about: a tied probe won by the strong seat, tied firsts in A
    assert any(len(r.winners) > 1 and r.strong in r.winners for r in pa)
    assert any(len(r.winners) > 1 and r.first in r.winners for r in a.values())
    skill = [_share(r, r.strong) for r in pa]
    assert result.a.skill is not None
    assert result.a.skill.mean == pytest.approx(sum(skill) / 60)
    lo, hi = _wilson(sum(skill), 60)
    assert (result.a.skill.low, result.a.skill.high) == pytest.approx((lo, hi), abs=1e-6)
    first_a = [_share(a[i], a[i].first) for i in sorted(a)]
    first_b = [_share(b[i], b[i].first) for i in sorted(b)]
    assert result.diff["first_seat"].mean == pytest.approx(sum(first_b) / 60 - sum(first_a) / 60)


# -- simulate: truncations and payouts ------------------------------------------------------


class _Taker:
    """Drawgame agent that always takes the discard: the stock never empties, the game never
    ends."""

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed

    def choose(self, view: Mapping[str, Any], legal: Sequence[cardcore.Action]) -> cardcore.Action:
        for a in legal:
            if type(a).__name__ == "Take":
                return a
        return legal[0]


def test_truncated_counts_the_games_stopped_at_the_bound() -> None:
    cardcore.register("cardcore.agents", "taker-2026-12-24", _Taker)
    try:
        games = 4
        summary = cardcore.simulate(
            "drawgame", games=games, players=2, agents=["taker-2026-12-24"] * 2, seed=3
        )
        outcomes = [
            run_one(("drawgame", 2, ("taker-2026-12-24",) * 2, (), (), {}, 3, i))
            for i in range(games)
        ]
    finally:
        cardcore.unregister("cardcore.agents", "taker-2026-12-24")
    truncated = sum(o.reason == "truncated" for o in outcomes)
    assert truncated > 0
    assert summary.truncated == truncated
    assert summary.reasons.get("truncated", 0) == truncated


def test_mean_and_sd_of_payouts_are_the_payouts_not_the_scores() -> None:
    """Tonk's scores are its balances in stakes and its payouts in chips: with a stake of 5
    they differ, and the payout figures must be the chips'."""
    games, opts = 40, {"stake": 5}
    summary = cardcore.simulate("tonk", games=games, players=2, seed=5, options=opts)
    outcomes = [run_one(("tonk", 2, ("random",) * 2, (), (), opts, 5, i)) for i in range(games)]
    assert summary.mean_payouts is not None and summary.sd_payouts is not None
    for seat in range(2):
        pays = [float(o.payouts[seat]) for o in outcomes if o.payouts is not None]
        assert len(pays) == games
        assert summary.mean_payouts[seat] == pytest.approx(statistics.fmean(pays))
        assert summary.sd_payouts[seat] == pytest.approx(statistics.stdev(pays))
        assert statistics.stdev(pays) != pytest.approx(summary.sd_scores[seat])  # in chips


# -- agents ---------------------------------------------------------------------------------


def test_ismcts_final_choice_is_the_most_visited_without_the_prior() -> None:
    """With prior=0 nothing overrides the most-visited root action: ISMCTS must then
    clearly beat random (taking the least-visited action plays worse than random)."""
    summary = cardcore.simulate(
        "golf",
        games=24,
        players=2,
        seed=1,
        options={"rounds": 1},
        agents=["ismcts:iterations=60,prior=0,rollout=random", "random"],
    )
    assert summary.wins[0] >= 17, summary.wins


_PTS = {"A": 1, "J": 10, "Q": 10, "K": 0, "JK": -2}


def _estimate(grid: Sequence[str | None]) -> float:
    total = 0.0
    for c in grid:
        if c is None:
            total += 5.5  # an unseen card
        elif c != "--":
            label = "JK" if c == "JK" else c[:-1]
            total += _PTS[label] if label in _PTS else int(label)
    return total


def test_golf_greedy_knocks_exactly_when_its_estimate_is_at_most_8() -> None:
    """Four-card Golf (knocking allowed): the greedy agent knocks iff its grid's estimate
    (BASIC points, an unseen card 5.5, a removed one 0) is at most 8."""
    from cardcore_golf.agents import GolfGreedyAgent

    seen = {True: 0, False: 0}
    for seed in range(12):
        game = cardcore.new_game("golf", 2, seed=seed, options={"layout": "4", "rounds": 1})
        agents = [GolfGreedyAgent(seed), GolfGreedyAgent(seed + 100)]
        while not game.is_over:
            seat = game.to_act[0]
            view = game.view(seat)
            legal = game.legal_actions(seat)
            action = agents[seat].choose(view, legal)
            if any(type(a).__name__ == "Knock" for a in legal):
                low = _estimate(view["table"]["grids"][seat]) <= 8
                seen[low] += 1
                assert (type(action).__name__ == "Knock") is low
            game.apply(action, seen=view["version"])
    assert seen[True] > 0 and seen[False] > 0


# -- ISMCTS statistics (white-box: the search keeps its visit counts to itself) -------------


def test_ismcts_ucb_with_dominant_exploration_visits_root_actions_evenly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """UCB1's bonus c * sqrt(ln(N) / n) favours the less visited: with c at its maximum
    (scores are scaled to 0..1) flat UCB (depth=1) spreads the visits within one of each
    other. Swapping the counts (sqrt(ln(n) / N)) locks onto one action instead."""
    from cardcore.search import ISMCTSAgent
    from cardcore.search import ismcts as mod

    seen: list[list[int]] = []
    final = mod.ISMCTSAgent._final

    def spy(self: Any, root: Any, default: Any) -> Any:
        seen.append(sorted(c.visits for c in root.children.values()))
        return final(self, root, default)

    monkeypatch.setattr(mod.ISMCTSAgent, "_final", spy)
    game = cardcore.new_game("golf", 2, seed=3, options={"rounds": 1})
    agent = ISMCTSAgent(seed=1, iterations=140, c=100.0, depth=1, rollout="random", prior=0.0)
    while not game.is_over and len(seen) < 6:
        seat = game.to_act[0]
        view = game.view(seat)
        legal = game.legal_actions(seat)
        action = agent.choose(view, legal) if len(legal) > 1 else legal[0]
        game.apply(action, seen=view["version"])
    assert len(seen) == 6
    for visits in seen:
        assert len(visits) > 1 and sum(visits) == 140
        assert visits[-1] - visits[0] <= 1, visits


def test_ismcts_node_spread_is_the_variance_of_the_mean() -> None:
    """The final choice's standard error: the sample variance (ddof 1) over n, per child."""
    from cardcore.search.ismcts import _Node

    xs = [0.0, 1.0, 1.0, 0.25, 0.5]
    node = _Node(0)
    for x in xs:
        node.visits += 1
        node.total += x
        node.squares += x * x
    assert node.spread() == pytest.approx(statistics.variance(xs) / len(xs))
