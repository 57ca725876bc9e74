"""Estimates with 95% confidence intervals, and the summaries built from game records."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import frozen

__all__ = ["Z95", "ConfigSummary", "Estimate", "mean_ci", "proportion_ci", "share_ci"]

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


@frozen
class Estimate:
    """A mean with its 95% confidence interval.

    :param mean: The estimate.
    :param low: The interval's lower end.
    :param high: The interval's upper end.
    :param n: The number of observations.
    """

    mean: float
    low: float
    high: float
    n: int

    @property
    def significant(self) -> bool:
        """Whether the interval excludes zero."""
        return self.low > 0.0 or self.high < 0.0

    def to_json(self) -> dict[str, float | int]:
        """Return the estimate as JSON-ready data."""
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}

    def text(self, digits: int = 2, *, signed: bool = False, percent: bool = False) -> str:
        """The mean and its interval, rounded: ``"12.3 ± 0.4"`` when the interval is symmetric,
        ``"98.5% [96.8, 99.6]"`` when not (proportions near 0 or 1); *percent* scales by 100."""
        scale = 100.0 if percent else 1.0
        unit = "%" if percent else ""
        sign = "+" if signed else ""
        m, lo, hi = (self.mean * scale, self.low * scale, self.high * scale)
        if abs((hi - m) - (m - lo)) <= 1e-9 * max(1.0, abs(hi) + abs(lo)):
            return f"{m:{sign}.{digits}f}{unit} ± {hi - m:.{digits}f}"
        return f"{m:{sign}.{digits}f}{unit} [{lo:.{digits}f}, {hi:.{digits}f}]"

    def __str__(self) -> str:
        return self.text()


def mean_ci(xs: Sequence[float]) -> Estimate:
    """The mean of *xs* with a normal-approximation 95% interval (zero width for one value)."""
    n = len(xs)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    mean = math.fsum(xs) / n
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n)


def share_ci(xs: Sequence[float], low: float = 0.0, high: float = 1.0) -> Estimate:
    """Like :func:`mean_ci` for shares, the interval clipped to what a share can be."""
    e = mean_ci(xs)
    return Estimate(e.mean, max(low, e.low), min(high, e.high), e.n)


def proportion_ci(hits: float, n: int) -> Estimate:
    """A proportion with its Wilson score 95% interval (good near 0 and 1)."""
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    p = hits / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


@frozen
class ConfigSummary:
    """What one configuration of a comparison did, each figure with its 95% interval.

    :param label: ``"A"`` or ``"B"``.
    :param rules: The house rules asked for.
    :param without: The default rules switched off.
    :param options: The game's options.
    :param agents: The agent spec of each seat (mixed line-ups rotate seats game by game).
    :param games: Games played with the line-up (skill probes not counted).
    :param seat_wins: Per seat, its win share (a tie of k winners gives each 1/k).
    :param first_seat: The win share of the seat that acts first after the deal (in Golf
        seat 0, left of the dealer; in Tonk the seat left of the dealer the cut chose; seat 0
        in real time) less the fair share ``1 / players``: the first player's advantage.
    :param actions: Game length in actions.
    :param rounds: Game length in rounds or hands (``GameLogic.rounds_played``).
    :param spread: Per game, the best final score less the worst.
    :param reasons: How often each end reason occurs (``"truncated"`` at the action bound,
        ``"stalled"`` when nobody could act), as proportions.
    :param skill: In the skill probes, the strong agent's win share (``None`` without probes).
    :param overruns: Per agent of the line-up (as ``agents`` lists them; a mixed line-up
        rotates, so each sits in every seat), decisions over the move time.
    :param probe_overruns: The same in the skill probes: ``(strong, weak)``.
    :param slowest: Per agent of the line-up, its longest decision in seconds.
    :param decisions_per_s: Per agent of the line-up, decisions per second of its own time.
    """

    label: str
    rules: tuple[str, ...]
    without: tuple[str, ...]
    options: Mapping[str, Any]
    agents: tuple[str, ...]
    games: int
    seat_wins: tuple[Estimate, ...]
    first_seat: Estimate
    actions: Estimate
    rounds: Estimate
    spread: Estimate
    reasons: Mapping[str, Estimate]
    skill: Estimate | None
    overruns: tuple[int, ...]
    probe_overruns: tuple[int, int]
    slowest: tuple[float, ...]
    decisions_per_s: tuple[float, ...]

    def to_json(self) -> dict[str, Any]:
        """Return the summary as JSON-ready data."""
        return {
            "label": self.label,
            "rules": list(self.rules),
            "without": list(self.without),
            "options": dict(self.options),
            "agents": list(self.agents),
            "games": self.games,
            "seat_wins": [e.to_json() for e in self.seat_wins],
            "first_seat": self.first_seat.to_json(),
            "actions": self.actions.to_json(),
            "rounds": self.rounds.to_json(),
            "spread": self.spread.to_json(),
            "reasons": {k: e.to_json() for k, e in self.reasons.items()},
            "skill": None if self.skill is None else self.skill.to_json(),
            "overruns": list(self.overruns),
            "probe_overruns": list(self.probe_overruns),
            "slowest": list(self.slowest),
            "decisions_per_s": list(self.decisions_per_s),
        }
