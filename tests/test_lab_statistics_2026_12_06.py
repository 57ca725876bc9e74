"""Differential audit of the house-rule lab's statistics (``cardcore.compare``,
``cardcore.simulate`` and their command lines), 2026-12-06.

Every figure is recomputed here from per-game outcomes obtained independently of the
lab's statistics: each game is replayed with the documented unit of work
:func:`cardcore.simulate.run_one` (``(game, players, agents, rules, without, options,
study_seed, index)``; "game *i* of both configurations is seeded from ``(seed, i)``,
every agent's seed from the game's seed and its seat", the same words in
``simulate`` and ``compare``), the first seat is read from a fresh
:func:`cardcore.new_game` with the game's seed, and the statistics are this file's own
code (``statistics`` from the standard library) following docs/house-rule-study.rst:
Wilson's score interval for shares and proportions, Newcombe's hybrid score interval
(method 10, no continuity correction) for their paired differences, with the
correlation of the paired games taken with half a game of each of the four paired
outcomes added, and the normal interval (mean +- z standard errors) for counts and
scores and their paired differences.

z is the 97.5% normal quantile (1.959964..., "1.96" in the docs); the engine's figures
agree with it to about 1e-8, so figures are compared to 1e-6, far below the
documented rounding (0.1 of a percent point, 0.01 of a round).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import select
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from statistics import NormalDist, mean, stdev
from typing import Any

import pytest

import cardcore
from cardcore import cli
from cardcore.compare import Estimate
from cardcore.simulate import GameOutcome, run_one

Z = NormalDist().inv_cdf(0.975)
TOL = 1e-6


# -- this file's own statistics ------------------------------------------------------


def wilson(p: float, n: int) -> tuple[float, float]:
    z2 = Z * Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def wilson_est(xs: Sequence[float], shift: float = 0.0) -> tuple[float, float, float]:
    p = mean(xs)
    low, high = wilson(p, len(xs))
    return p - shift, low - shift, high - shift


def normal_est(xs: Sequence[float]) -> tuple[float, float, float]:
    m = mean(xs)
    if len(xs) < 2:
        return m, -math.inf, math.inf
    half = Z * stdev(xs) / math.sqrt(len(xs))
    return m, m - half, m + half


def paired_normal(xa: Sequence[float], xb: Sequence[float]) -> tuple[float, float, float]:
    return normal_est([b - a for a, b in zip(xa, xb, strict=True)])


def correlation(xa: Sequence[float], xb: Sequence[float]) -> float:
    """Pearson correlation of the paired games with half a game of each of the four
    paired outcomes (0,0), (0,1), (1,0), (1,1) added (Agresti and Min)."""
    xs = [*xa, 0.0, 0.0, 1.0, 1.0]
    ys = [*xb, 0.0, 1.0, 0.0, 1.0]
    w = [1.0] * len(xa) + [0.5] * 4
    tw = sum(w)
    mx = sum(wi * x for wi, x in zip(w, xs, strict=True)) / tw
    my = sum(wi * y for wi, y in zip(w, ys, strict=True)) / tw
    sxy = sum(wi * (x - mx) * (y - my) for wi, x, y in zip(w, xs, ys, strict=True))
    sxx = sum(wi * (x - mx) ** 2 for wi, x in zip(w, xs, strict=True))
    syy = sum(wi * (y - my) ** 2 for wi, y in zip(w, ys, strict=True))
    return sxy / math.sqrt(sxx * syy)


def newcombe(xa: Sequence[float], xb: Sequence[float]) -> tuple[float, float, float]:
    """B - A of paired shares: Newcombe's method 10."""
    n = len(xa)
    pa, pb = mean(xa), mean(xb)
    la, ua = wilson(pa, n)
    lb, ub = wilson(pb, n)
    phi = correlation(xa, xb)
    diff = pb - pa
    low = diff - math.sqrt(
        max(0.0, (pb - lb) ** 2 - 2 * phi * (pb - lb) * (ua - pa) + (ua - pa) ** 2)
    )
    high = diff + math.sqrt(
        max(0.0, (ub - pb) ** 2 - 2 * phi * (ub - pb) * (pa - la) + (pa - la) ** 2)
    )
    return diff, low, high


def shares(winners: Sequence[int], players: int) -> list[float]:
    """A win is 1, a tie of k winners 1/k each, no winner 0 for every seat."""
    return [1 / len(winners) if s in winners else 0.0 for s in range(players)]


# -- per-game outcomes, replayed ------------------------------------------------------


def first_seat(game: str, players: int, rules, without, options, seed: int) -> int:
    """The documented first seat: the one seat to act after the deal; several (real
    time): seat 0; none (the deal ended the game): left of the table's dealer, else 0."""
    g = cardcore.new_game(game, players, rules=rules, without=without, options=options, seed=seed)
    if len(g.to_act) == 1:
        return g.to_act[0]
    if g.to_act:
        return 0
    dealer = g.view(None)["table"].get("dealer")
    return (dealer + 1) % players if type(dealer) is int else 0


def lineup(agents: Sequence[str], players: int, g: int) -> list[str]:
    """Game g puts agent (s + g) % players in seat s (a mixed line-up only)."""
    if len(set(agents)) > 1:
        return [agents[(s + g) % players] for s in range(players)]
    return list(agents)


def replay_side(
    game: str,
    players: int,
    agents: Sequence[str],
    rules: Sequence[str],
    without: Sequence[str],
    options: Mapping[str, Any],
    seed: int,
    games: int,
    skill: tuple[str, str] | None,
    rounds_of: Callable[[GameOutcome], int],
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    recs = []
    for i in range(games):
        lu = lineup(agents, players, i)
        task = (game, players, lu, list(rules), list(without), dict(options), seed, i)
        recs.append((run_one(task), lu))
    sh = [shares(o.winners, players) for o, _ in recs]
    out["seat"] = [[x[s] for x in sh] for s in range(players)]
    out["first"] = [
        x[first_seat(game, players, rules, without, options, o.seed)]
        for x, (o, _) in zip(sh, recs, strict=True)
    ]
    out["actions"] = [float(o.actions) for o, _ in recs]
    out["spread"] = [max(o.scores) - min(o.scores) for o, _ in recs]
    out["rounds"] = [float(rounds_of(o)) for o, _ in recs]
    out["reasons"] = {
        r: [1.0 if o.reason == r else 0.0 for o, _ in recs] for r in {o.reason for o, _ in recs}
    }
    out["agents"] = {}
    if len(set(agents)) > 1:
        for spec in dict.fromkeys(agents):
            out["agents"][spec] = [
                sum(x[s] for s in range(players) if lu[s] == spec)
                for x, (_, lu) in zip(sh, recs, strict=True)
            ]
    if skill is not None:
        probe = []
        for i in range(games):
            strong = i % players
            lu = [skill[0] if s == strong else skill[1] for s in range(players)]
            task = (game, players, lu, list(rules), list(without), dict(options), seed, i)
            probe.append(shares(run_one(task).winners, players)[strong])
        out["skill"] = probe
    return out


def close(est: Estimate, trip: tuple[float, float, float], kind: str) -> bool:
    def eq(x: float, y: float) -> bool:
        if math.isinf(x) or math.isinf(y):
            return x == y
        return abs(x - y) <= TOL

    return est.interval == kind and all(
        eq(x, y) for x, y in zip((est.mean, est.low, est.high), trip, strict=True)
    )


def mismatches(r: cardcore.Comparison, sides: tuple[dict, dict]) -> list[tuple]:
    """Every figure of *r* against this file's own computation from *sides*."""
    bad: list[tuple] = []
    players = r.players
    n = r.games
    for cs, s in zip((r.a, r.b), sides, strict=True):
        lab = cs.label
        for seat in range(players):
            if not close(cs.seat_wins[seat], wilson_est(s["seat"][seat]), "wilson"):
                bad.append((lab, "seat_wins", seat, cs.seat_wins[seat]))
        if not close(cs.first_seat, wilson_est(s["first"], 1 / players), "wilson"):
            bad.append((lab, "first_seat", cs.first_seat, wilson_est(s["first"], 1 / players)))
        for k in ("actions", "rounds", "spread"):
            if not close(getattr(cs, k), normal_est(s[k]), "normal"):
                bad.append((lab, k, getattr(cs, k), normal_est(s[k])))
        # every reason seen on either side has a share on both (0 where never seen), as the
        # table shows it; no other reason appears
        ends = set().union(*(side["reasons"] for side in sides))
        games = len(s["seat"][0])
        for k in ends:
            xs = s["reasons"].get(k, [0.0] * games)
            if k not in cs.reasons or not close(cs.reasons[k], wilson_est(xs), "wilson"):
                bad.append((lab, "reason", k, cs.reasons.get(k), wilson_est(xs)))
        if set(cs.reasons) - ends:
            bad.append((lab, "reasons that never occurred", set(cs.reasons) - ends))
        if "skill" in s and not close(cs.skill, wilson_est(s["skill"]), "wilson"):
            bad.append((lab, "skill", cs.skill, wilson_est(s["skill"])))
        if set(cs.agent_wins) != set(s["agents"]):
            bad.append((lab, "agent_wins keys", set(cs.agent_wins)))
        for k, xs in s["agents"].items():
            if k in cs.agent_wins and not close(cs.agent_wins[k], wilson_est(xs), "wilson"):
                bad.append((lab, "agent_wins", k, cs.agent_wins[k], wilson_est(xs)))
    a, b = sides
    want: dict[str, tuple[tuple[float, float, float], str]] = {
        "first_seat": (newcombe(a["first"], b["first"]), "newcombe"),
    }
    for k in ("actions", "rounds", "spread"):
        want[k] = (paired_normal(a[k], b[k]), "normal")
    if "skill" in a:
        want["skill"] = (newcombe(a["skill"], b["skill"]), "newcombe")
    for k in set(a["reasons"]) | set(b["reasons"]):
        xa = a["reasons"].get(k, [0.0] * n)
        xb = b["reasons"].get(k, [0.0] * n)
        want["reason:" + k] = (newcombe(xa, xb), "newcombe")
    for k in set(a["agents"]) & set(b["agents"]):
        want["agent:" + k] = (newcombe(a["agents"][k], b["agents"][k]), "newcombe")
    for k, (trip, kind) in want.items():
        if k not in r.diff or not close(r.diff[k], trip, kind):
            bad.append(("diff", k, r.diff.get(k), trip))
    if set(r.diff) != set(want):
        bad.append(("diff keys", sorted(r.diff), sorted(want)))
    return bad


def study(
    game: str,
    games: int,
    seed: int,
    rounds_of: Callable[[GameOutcome], int],
    **kw: Any,
) -> tuple[cardcore.Comparison, tuple[dict, dict]]:
    r = cardcore.compare(game, games=games, seed=seed, **kw)
    opts_a = kw.get("options") or {}
    opts_b = kw.get("vs_options", opts_a)
    a = replay_side(
        game,
        r.players,
        r.a.agents,
        kw.get("rules", ()),
        kw.get("without", ()),
        opts_a,
        seed,
        games,
        r.skill_agents,
        rounds_of,
    )
    b = replay_side(
        game,
        r.players,
        r.b.agents,
        kw.get("vs", ()),
        kw.get("vs_without", ()),
        opts_b,
        seed,
        games,
        r.skill_agents,
        rounds_of,
    )
    return r, (a, b)


def one_round(_: GameOutcome) -> int:
    return 1


STUDIES: dict[str, tuple[str, int, int, Callable[[GameOutcome], int], dict[str, Any]]] = {
    # duplicate deals, skill probe golf-greedy vs random
    "golf-hard": ("golf", 20, 3, one_round, {"rules": ["golf.hard"], "options": {"rounds": 1}}),
    # decks differ; two-way ties (shares of 1/2) in both: the correlation of fractional shares
    "golf-jokers": ("golf", 30, 5, one_round, {"rules": ["golf.jokers"], "options": {"rounds": 1}}),
    # mixed line-up rotating over three seats, a random dealer, two rounds
    "golf-mixed-3": (
        "golf",
        12,
        7,
        lambda _: 2,
        {
            "vs": ["golf.hard"],
            "options": {"rounds": 2, "dealer": "random"},
            "agents": ["golf-greedy", "random", "random"],
            "skill": None,
        },
    ),
    # 5 games of a two-agent rotation (seat 0 gets the first agent three times)
    "golf-rotation-5": (
        "golf",
        5,
        8,
        one_round,
        {
            "rules": ["golf.jokers"],
            "options": {"rounds": 1},
            "agents": "golf-greedy,random",
            "skill": ("golf-greedy", "random"),
        },
    ),
    # three seats, stakes, skill probe with three seats (ties in the probe)
    "tonk-3-stake": (
        "tonk",
        40,
        2,
        one_round,
        {"rules": ["tonk.hit-blocks-drop"], "options": {"stake": 3}, "players": 3},
    ),
    # game 185 of seed 1 is a natural in A (over at the deal): first seat left of the dealer;
    # B plays it out: a reason that occurs on one side only
    "tonk-natural": (
        "tonk",
        186,
        1,
        one_round,
        {"vs_without": ["tonk.natural-49-50"], "agents": "random", "skill": None, "chunk": 50},
    ),
    # B alone has a mixed line-up: agent_wins for B only, no paired agent difference
    "golf-mixed-b-only": (
        "golf",
        6,
        3,
        one_round,
        {"options": {"rounds": 1}, "vs_agents": "golf-greedy,random", "skill": None},
    ),
    # real time: seat 0 is the first seat; the deals differ (side piles of 15)
    "speed-side-pile": ("speed", 6, 1, one_round, {"vs_options": {"side_pile": 15}}),
    # one game: unbounded normal intervals, finite Wilson/Newcombe ones
    "golf-one-game": ("golf", 1, 4, one_round, {"rules": ["golf.hard"], "options": {"rounds": 1}}),
}

_CACHE: dict[str, tuple[cardcore.Comparison, tuple[dict, dict]]] = {}


def get_study(name: str) -> tuple[cardcore.Comparison, tuple[dict, dict]]:
    if name not in _CACHE:
        game, games, seed, rounds_of, kw = STUDIES[name]
        _CACHE[name] = study(game, games, seed, rounds_of, **kw)
    return _CACHE[name]


# -- my statistics against the docs' worked numbers -----------------------------------


def test_own_intervals_reproduce_the_documented_examples() -> None:
    """house-rule-study.rst: 100 of 100 is [96.3, 100.0], 99 of 100 [94.6, 99.8]; 100%
    against 100% of 400 games is +0.0% [-1.0, 1.0], 50% against 50% of 10 games (the same
    games) +0.0% [-15.2, 15.2]. Checks this file's formulas before using them."""
    assert [round(100 * x, 1) for x in wilson(1.0, 100)] == [96.3, 100.0]
    assert [round(100 * x, 1) for x in wilson(0.99, 100)] == [94.6, 99.8]
    assert [round(100 * x, 1) + 0.0 for x in newcombe([1.0] * 400, [1.0] * 400)] == [0.0, -1.0, 1.0]
    half = [1.0] * 5 + [0.0] * 5
    assert [round(100 * x, 1) + 0.0 for x in newcombe(half, half)] == [0.0, -15.2, 15.2]


def test_engine_reproduces_the_documented_50_of_10_example() -> None:
    """A configuration against itself over 10 games whose first seat wins 5 outright:
    ``+0.0% [-15.2, 15.2]``, not significant (seed 9 found by replaying games with
    ``run_one``, asserted here)."""
    wins = [
        run_one(("golf", 2, ["golf-greedy"] * 2, [], [], {"rounds": 1}, 9, i)).winners
        for i in range(10)
    ]
    assert all(len(w) == 1 for w in wins) and sum(w == (0,) for w in wins) == 5
    r = cardcore.compare("golf", options={"rounds": 1}, games=10, seed=9, skill=None)
    assert r.diff["first_seat"].text(1, signed=True, percent=True) == "+0.0% [-15.2, 15.2]"
    assert not r.diff["first_seat"].significant


# -- every figure of compare, recomputed ----------------------------------------------


@pytest.mark.parametrize("name", sorted(STUDIES))
def test_compare_figures_match_independent_computation(name: str) -> None:
    r, sides = get_study(name)
    assert mismatches(r, sides) == []


def test_natural_first_seat_is_left_of_dealer_and_counted() -> None:
    """The natural of game 185 really is in the tonk-natural study (guards the case)."""
    _, (a, b) = get_study("tonk-natural")
    assert a["reasons"]["natural"][185] == 1.0 and "natural" not in b["reasons"]
    o = run_one(("tonk", 2, ["random", "random"], [], [], {}, 1, 185))
    g = cardcore.new_game("tonk", 2, seed=o.seed)
    assert g.to_act == () or not g.to_act
    assert a["first"][185] == shares(o.winners, 2)[(g.view(None)["table"]["dealer"] + 1) % 2]


def test_ties_are_present_where_the_fractional_correlation_matters() -> None:
    """Guards the golf-jokers case: both sides have games with a share of 1/2 in the first
    seat and the sides disagree, so the paired interval depends on how shares correlate."""
    _, (a, b) = get_study("golf-jokers")
    assert 0.5 in a["first"] and 0.5 in b["first"] and a["first"] != b["first"]


def test_significance_is_the_interval_excluding_zero() -> None:
    for name in ("golf-hard", "golf-jokers", "tonk-3-stake", "golf-one-game"):
        r, _ = get_study(name)
        estimates = [*r.diff.values(), r.a.actions, r.a.spread, r.a.first_seat]
        for e in estimates:
            assert e.significant == (e.low > 0 or e.high < 0), (name, e)
    assert not Estimate(0.0, 0.0, 0.0, 5).significant  # every game agrees on no difference
    assert Estimate(2.0, 2.0, 2.0, 5).significant  # every game agrees on +2


def test_table_rows_round_my_figures_as_documented() -> None:
    """Shares in percent with one decimal and their bounds, counts as mean +- half width
    (actions and spread one decimal, rounds two); B - A signed."""
    r, (a, b) = get_study("golf-hard")

    def pct(t: tuple[float, float, float], signed: bool) -> str:
        m = f"{100 * t[0]:+.1f}" if signed else f"{100 * t[0]:.1f}"
        return f"{m}% [{100 * t[1]:.1f}, {100 * t[2]:.1f}]"

    def num(t: tuple[float, float, float], digits: int, signed: bool) -> str:
        m = f"{t[0]:+.{digits}f}" if signed else f"{t[0]:.{digits}f}"
        return f"{m} ± {(t[2] - t[1]) / 2:.{digits}f}"

    rows = {row[0]: row[1:] for row in r.rows()}
    assert rows["first-seat advantage"] == (
        pct(wilson_est(a["first"], 0.5), True),
        pct(wilson_est(b["first"], 0.5), True),
        pct(newcombe(a["first"], b["first"]), True),
    )
    assert rows["actions per game"] == (
        num(normal_est(a["actions"]), 1, False),
        num(normal_est(b["actions"]), 1, False),
        num(paired_normal(a["actions"], b["actions"]), 1, True),
    )
    assert rows["rounds per game"] == ("1.00 ± 0.00", "1.00 ± 0.00", "+0.00 ± 0.00")
    assert rows["score spread"] == (
        num(normal_est(a["spread"]), 1, False),
        num(normal_est(b["spread"]), 1, False),
        num(paired_normal(a["spread"], b["spread"]), 1, True),
    )
    assert rows["skill: golf-greedy wins vs random"] == (
        pct(wilson_est(a["skill"]), False),
        pct(wilson_est(b["skill"]), False),
        pct(newcombe(a["skill"], b["skill"]), True),
    )


def _no_nan(data: Any) -> bool:
    if isinstance(data, float):
        return not math.isnan(data) and not math.isinf(data)
    if isinstance(data, Mapping):
        return all(_no_nan(v) for v in data.values())
    if isinstance(data, list | tuple):
        return all(_no_nan(v) for v in data)
    return True


def test_one_game_is_unbounded_never_significant_and_strict_json() -> None:
    r, _ = get_study("golf-one-game")
    for e in (r.a.actions, r.a.spread, r.a.rounds, r.diff["actions"], r.diff["spread"]):
        assert e.n == 1 and e.low == -math.inf and e.high == math.inf and not e.significant
        assert e.to_json()["low"] is None and e.to_json()["high"] is None
        assert "± inf" in e.text()
    for e in (r.a.first_seat, r.diff["first_seat"], r.a.skill, r.diff["skill"]):
        assert math.isfinite(e.low) and math.isfinite(e.high) and e.low <= e.mean <= e.high
    data = r.to_json()
    assert _no_nan(data)
    json.dumps(data, allow_nan=False)


def test_zero_variance_is_zero_wide_and_a_self_comparison_shows_no_difference() -> None:
    """Comparing a configuration with itself: the same games move for move, every
    difference zero (zero wide for counts), none significant."""
    r = cardcore.compare("golf", options={"rounds": 1}, games=8, seed=2)
    assert r.same_deals
    for k in ("actions", "rounds", "spread"):
        e = r.diff[k]
        assert (e.mean, e.low, e.high) == (0.0, 0.0, 0.0) and not e.significant
    assert r.a.rounds.low == r.a.rounds.high == 1.0  # one round in every game
    for k, e in r.diff.items():
        assert (e.mean == 0.0 and e.low < 0 < e.high) or e.interval == "normal", k
        assert not e.significant, k
    assert _no_nan(r.to_json())


# -- duplicate deals ------------------------------------------------------------------


def _piles(game: str, seed: int, **kw: Any) -> list[list[str]]:
    g = cardcore.new_game(game, 2, seed=seed, **kw)
    return [[str(c) for c in pile] for pile in g.state.zones.cards]


@pytest.mark.parametrize(
    ("name", "same"),
    [
        ("golf-hard", True),
        ("golf-jokers", False),
        ("speed-side-pile", False),
        ("tonk-natural", True),
    ],
)
def test_same_deals_means_the_same_piles_after_new_game(name: str, same: bool) -> None:
    game, _games, seed, _, kw = STUDIES[name]
    r, _ = get_study(name)
    assert r.same_deals is same
    opts_a = kw.get("options") or {}
    opts_b = kw.get("vs_options", opts_a)
    game_seeds = [run_one((game, 2, ["random"] * 2, [], [], {}, seed, i)).seed for i in range(3)]
    for s in game_seeds:
        pa = _piles(
            game, s, rules=kw.get("rules", ()), without=kw.get("without", ()), options=opts_a
        )
        pb = _piles(
            game, s, rules=kw.get("vs", ()), without=kw.get("vs_without", ()), options=opts_b
        )
        assert (pa == pb) is same


# -- simulate -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "games", "seed", "players", "agents", "options"),
    [
        ("golf", 15, 2, 3, ["random"], {"rounds": 1}),
        ("tonk", 25, 9, 3, ["tonk-heuristic", "random", "random"], {"stake": 2, "hands": 2}),
        ("speed", 5, 1, 2, ["spit-greedy"], {}),
        ("tonk", 1, 9, 2, ["random"], {"stake": 2}),
    ],
)
def test_simulate_summary_matches_replayed_games(
    game, games, seed, players, agents, options
) -> None:
    s = cardcore.simulate(
        game, games=games, seed=seed, players=players, agents=agents, options=options
    )
    lu = agents if len(agents) == players else agents * players
    outs = [run_one((game, players, lu, [], [], options, seed, i)) for i in range(games)]
    assert s.games == games and s.players == players and s.agents == tuple(lu)
    wins = [round(sum(shares(o.winners, players)[p] for o in outs), 9) for p in range(players)]
    assert list(s.wins) == wins
    assert s.win_rates == pytest.approx([w / games for w in wins])

    def sd(xs: list[float]) -> float:
        return stdev(xs) if len(xs) > 1 else math.nan

    scores = [[float(o.scores[p]) for o in outs] for p in range(players)]
    assert s.mean_scores == pytest.approx([mean(x) for x in scores])
    assert s.sd_scores == pytest.approx([sd(x) for x in scores], nan_ok=True)
    if outs[0].payouts is None:
        assert s.mean_payouts is None and s.sd_payouts is None
    else:
        pay = [[float(o.payouts[p]) for o in outs] for p in range(players)]
        assert s.mean_payouts == pytest.approx([mean(x) for x in pay])
        assert s.sd_payouts == pytest.approx([sd(x) for x in pay], nan_ok=True)
    assert s.mean_actions == pytest.approx(mean(o.actions for o in outs))
    assert s.truncated == sum(o.reason == "truncated" for o in outs)
    reasons: dict[str, int] = {}
    for o in outs:
        reasons[o.reason] = reasons.get(o.reason, 0) + 1
    assert dict(s.reasons) == reasons
    data = s.to_json()
    json.dumps(data, allow_nan=False)  # strict JSON, one game included
    if games == 1:
        assert data["sd_scores"] == [None] * players


# -- workers, progress, command line --------------------------------------------------


def _without_clocks(data: dict) -> dict:
    for side in ("a", "b"):
        data[side].pop("slowest", None)
        data[side].pop("decisions_per_s", None)
    return data


def test_one_and_two_workers_give_the_same_report() -> None:
    kw: dict[str, Any] = {
        "rules": ["golf.hard"],
        "options": {"rounds": 1},
        "games": 8,
        "seed": 5,
        "chunk": 3,
    }
    here = cardcore.compare("golf", **kw)
    sim_here = cardcore.simulate("tonk", games=12, seed=4, players=3, chunk=5)
    with ProcessPoolExecutor(2) as pool:
        there = cardcore.compare("golf", executor=pool, **kw)
        sim_there = cardcore.simulate("tonk", games=12, seed=4, players=3, chunk=5, executor=pool)
    assert _without_clocks(here.to_json()) == _without_clocks(there.to_json())
    assert sim_here == sim_there


def test_progress_counts_every_game() -> None:
    calls: list[int] = []
    cardcore.compare("golf", options={"rounds": 1}, games=5, seed=1, chunk=2, progress=calls.append)
    assert sum(calls) == 2 * 5 * 2  # both sides, and as many skill probes
    calls.clear()
    cardcore.compare(
        "golf", options={"rounds": 1}, games=5, seed=1, skill=None, progress=calls.append
    )
    assert sum(calls) == 2 * 5
    calls.clear()
    cardcore.simulate(
        "golf", games=7, seed=1, chunk=3, options={"rounds": 1}, progress=calls.append
    )
    assert sum(calls) == 7


def _cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(args)
    return rc, out.getvalue(), err.getvalue()


def test_cli_compare_json_matches_the_api() -> None:
    rc, out, _ = _cli(
        [
            "compare",
            "golf",
            "--rules",
            "golf.hard",
            "-o",
            "rounds=1",
            "--games",
            "6",
            "--seed",
            "5",
            "--json",
            "-",
            "-q",
        ]
    )
    assert rc == 0
    api = cardcore.compare("golf", rules=["golf.hard"], options={"rounds": 1}, games=6, seed=5)
    assert _without_clocks(json.loads(out)) == _without_clocks(
        json.loads(json.dumps(api.to_json()))
    )


def test_cli_simulate_json_matches_the_api() -> None:
    rc, out, _ = _cli(
        ["simulate", "tonk", "-n", "9", "-s", "3", "-p", "3", "-o", "stake=2", "--json", "-", "-q"]
    )
    assert rc == 0
    data = json.loads(out)
    api = cardcore.simulate("tonk", games=9, seed=3, players=3, options={"stake": 2}).to_json()
    assert {k: data[k] for k in api} == json.loads(json.dumps(api))
    assert (data["seed"], data["rules"], data["without"], data["options"]) == (
        3,
        [],
        [],
        {"stake": 2},
    )


def test_cli_simulate_one_game_shows_a_dash_for_the_spread() -> None:
    rc, out, _ = _cli(["simulate", "tonk", "-n", "1", "-p", "2", "-q"])
    assert rc == 0 and "–" in out and "nan" not in out.lower()


def _run_in_pty(args: list[str]) -> str:
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardcore", *args],
        stdout=slave,
        stderr=slave,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "COLUMNS": "100"},
    )
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 15)
        if not ready:
            break
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=30)
    os.close(master)
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_progress_bar_in_a_terminal_and_quiet_removes_it() -> None:
    args = ["simulate", "golf", "-n", "6", "-o", "rounds=1", "-p", "2"]
    loud = _run_in_pty(args)
    quiet = _run_in_pty([*args, "-q"])
    assert "0/6" in loud.split("┏")[0]
    assert "0/6" not in quiet and "6/6" not in quiet


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["compare", "golf", "--games", "0"], "--games"),
        (["compare", "golf", "--games", "x"], "--games"),
        (["simulate", "golf", "--games", "-2"], "--games"),
        (["compare", "golf", "--workers", "0"], "--workers"),
        (["compare", "golf", "--players", "0"], "--players"),
        (["compare", "golf", "--seed", "-1"], "seed"),
        (["compare", "golf", "--move-time", "-1"], "--move-time"),
        (["compare", "golf", "--skill", "nope"], "nope"),
    ],
)
def test_cli_bad_arguments_name_the_argument(args: list[str], named: str) -> None:
    rc, _, err = _cli(args)
    assert rc == 2 and named in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("kw", "named"),
    [
        ({"games": 0}, "games"),
        ({"games": True}, "games"),
        ({"chunk": 0}, "chunk"),
        ({"progress": 5}, "progress"),
        ({"executor": object()}, "executor"),
        ({"seed": -1}, "seed"),
        ({"move_time": float("nan")}, "move_time"),
    ],
)
def test_api_bad_arguments_name_the_argument(kw: dict[str, Any], named: str) -> None:
    with pytest.raises(cardcore.OptionError, match=named):
        cardcore.compare("golf", options={"rounds": 1}, **{"games": 2, **kw})
    if named != "move_time":
        with pytest.raises(cardcore.OptionError, match=named):
            cardcore.simulate("golf", options={"rounds": 1}, players=2, **{"games": 2, **kw})


# -- findings -------------------------------------------------------------------------


def test_json_holds_every_reason_figure_of_the_table() -> None:
    r, _ = get_study("tonk-natural")
    shown = {row[0].removeprefix("ends: ") for row in r.rows() if row[0].startswith("ends: ")}
    assert "natural" in shown  # the table shows B's 0.0% [0.0, 2.0] for it
    data = r.to_json()
    for side in ("a", "b"):
        assert set(data[side]["reasons"]) >= shown, side
    low, high = wilson(0.0, r.games)
    e = r.b.reasons["natural"]
    assert (
        (e.mean, e.interval) == (0.0, "wilson")
        and abs(e.low - low) < TOL
        and abs(e.high - high) < TOL
    )
