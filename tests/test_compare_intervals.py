"""``cardcore.compare``'s intervals: Wilson's for proportions and shares, Newcombe's for their
differences, the normal one for counts and scores; one way of showing each."""

from __future__ import annotations

import json
import math

import pytest

import cardcore
from cardcore.compare._stats import (
    Z95,
    Estimate,
    mean_ci,
    paired_share_diff,
    proportion_ci,
    share_ci,
    unpaired_diff,
)


def test_all_wins_is_not_a_zero_width_interval() -> None:
    e = share_ci([1.0] * 100)
    assert e.mean == 1.0 == e.high and e.low == pytest.approx(0.9630, abs=1e-4)
    assert e.text(1, percent=True) == "100.0% [96.3, 100.0]"
    assert e == proportion_ci(100, 100)  # a share without ties is a proportion
    none = share_ci([0.0] * 100)
    assert none.low == 0.0 and none.high == pytest.approx(1 - 0.9630, abs=1e-4)


def _score_root(hits: int, n: int, upper: bool) -> float:
    """Where the score test of a proportion just rejects: |p - q| = z sqrt(q (1 - q) / n)."""
    p = hits / n
    lo, hi = (p, 1.0) if upper else (0.0, p)
    for _ in range(200):  # bisection, independent of the closed form
        q = (lo + hi) / 2
        inside = abs(p - q) <= Z95 * math.sqrt(q * (1 - q) / n)
        if inside == upper:
            lo = q
        else:
            hi = q
    return (lo + hi) / 2


@pytest.mark.parametrize("hits, n", [(81, 263), (1, 10), (0, 20), (20, 20), (7, 9)])
def test_wilson_inverts_the_score_test(hits: int, n: int) -> None:
    e = proportion_ci(hits, n)
    low = 0.0 if hits == 0 else _score_root(hits, n, upper=False)
    high = 1.0 if hits == n else _score_root(hits, n, upper=True)
    assert (e.low, e.high) == pytest.approx((low, high), abs=1e-9)


def test_near_the_edge_the_interval_is_not_clipped_symmetric() -> None:
    e = share_ci([1.0] * 99 + [0.0])  # Wald: 99.0% [97.0, 100.0], clipped at 100
    assert e.text(1, percent=True) == "99.0% [94.6, 99.8]"


def test_ties_count_as_shares_and_widen_nothing_beyond_a_proportion() -> None:
    tied = share_ci([0.5] * 40)
    assert tied.mean == 0.5 and tied.low < 0.5 < tied.high  # never zero width
    assert (tied.low, tied.high) == pytest.approx(
        (proportion_ci(20, 40).low, proportion_ci(20, 40).high)
    )


def test_a_shifted_share_keeps_its_interval() -> None:
    e = share_ci([0.5, -0.5, 0.5, 0.5], -0.5, 0.5)  # the first seat's share less 1/2
    p = proportion_ci(3, 4)
    assert (e.mean, e.low, e.high) == pytest.approx((p.mean - 0.5, p.low - 0.5, p.high - 0.5))


@pytest.mark.parametrize("e, f, g, h", [(12, 2, 1, 14), (30, 0, 5, 5), (3, 9, 1, 7)])
def test_newcombe_paired_difference(e: int, f: int, g: int, h: int) -> None:
    """Newcombe's method 10 from the 2x2 table (no continuity correction), phi taken with half a
    game added to each cell (Agresti and Min), so it never reaches 1."""
    n = e + f + g + h
    a = [1.0] * e + [1.0] * f + [0.0] * g + [0.0] * h  # A wins in e + f games
    b = [1.0] * e + [0.0] * f + [1.0] * g + [0.0] * h  # B in e + g
    pa, pb = proportion_ci(e + f, n), proportion_ci(e + g, n)
    e2, f2, g2, h2 = e + 0.5, f + 0.5, g + 0.5, h + 0.5
    phi = (e2 * h2 - f2 * g2) / math.sqrt((e2 + f2) * (g2 + h2) * (e2 + g2) * (f2 + h2))
    delta = pb.mean - pa.mean
    x, y = pb.mean - pb.low, pa.high - pa.mean
    low = delta - math.sqrt(x * x - 2 * phi * x * y + y * y)
    x, y = pb.high - pb.mean, pa.mean - pa.low
    high = delta + math.sqrt(x * x - 2 * phi * x * y + y * y)
    d = paired_share_diff(a, b)
    assert (d.mean, d.low, d.high) == pytest.approx((delta, low, high))
    assert d.interval == "newcombe" and d.low < d.mean < d.high


def test_every_pair_agreeing_is_not_a_zero_width_difference() -> None:
    d = paired_share_diff([1.0] * 400, [1.0] * 400)
    assert d.mean == 0.0 and d.low < -0.009 and d.high > 0.0
    assert d.text(1, signed=True, percent=True) == "+0.0% [-1.0, 1.0]"
    half = paired_share_diff([1.0, 0.0] * 5, [1.0, 0.0] * 5)  # at 50% plain phi = 1 gave [0, 0]
    assert half.text(1, signed=True, percent=True) == "+0.0% [-15.2, 15.2]"


def test_counts_keep_the_normal_interval() -> None:
    e = mean_ci([1.0, 2.0, 3.0])
    assert e.interval == "normal" and e.text(1) == "2.0 ± 1.1"
    assert unpaired_diff(e, e).interval == "normal"
    w = unpaired_diff(proportion_ci(0, 10), proportion_ci(10, 10))
    assert w.interval == "newcombe" and w.low < 1.0 == pytest.approx(w.mean)


def test_an_estimate_made_the_old_way_still_works() -> None:
    e = Estimate(1.0, 0.5, 1.5, 4)  # four fields, as before the interval kind
    assert e.interval == "normal" and e.to_json()["interval"] == "normal"


def test_every_proportion_row_shows_its_bounds() -> None:
    result = cardcore.compare("golf", rules=["golf.hard"], games=30, seed=1, options={"rounds": 1})
    rows = {figure: cells for figure, *cells in result.rows()}
    for figure, cells in rows.items():
        proportion = figure.startswith(("first-seat", "skill", "ends"))
        for cell in cells:
            assert ("[" in cell) is proportion and ("±" in cell) is not proportion, (figure, cell)
    data = json.loads(json.dumps(result.to_json()))
    assert data["a"]["skill"]["interval"] == "wilson" == data["b"]["first_seat"]["interval"]
    assert (
        data["diff"]["skill"]["interval"] == "newcombe" == data["diff"]["reason:rounds"]["interval"]
    )
    assert data["diff"]["actions"]["interval"] == "normal" == data["a"]["spread"]["interval"]
    assert {"mean", "low", "high", "n"} <= set(data["a"]["skill"])  # the keys of before
