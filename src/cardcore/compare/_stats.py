"""Estimates with 95% confidence intervals, and the summaries built from game records."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import field, frozen

from cardcore._text import shown
from cardcore.errors import ArgumentError

__all__ = [
    "Z95",
    "ConfigSummary",
    "Estimate",
    "mean_ci",
    "paired_share_diff",
    "proportion_ci",
    "share_ci",
    "unpaired_diff",
]

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


@frozen
class Estimate:
    """A mean with its 95% confidence interval.

    :param mean: The estimate.
    :param low: The interval's lower end.
    :param high: The interval's upper end.
    :param n: The number of observations.
    :param interval: How the interval was made: ``"normal"`` (mean ± 1.96 standard errors,
        for counts and scores), ``"wilson"`` (Wilson score interval, for proportions and
        win shares) or ``"newcombe"`` (a paired difference of two of those: Newcombe's
        hybrid score interval).
    """

    mean: float
    low: float
    high: float
    n: int
    interval: str = "normal"

    @property
    def significant(self) -> bool:
        """Whether the interval excludes zero: a real effect for a difference (``diff``) or
        the first seat's edge; for a share or a proportion (``seat_wins``, ``skill``, a
        reason), only that it is above 0."""
        return self.low > 0.0 or self.high < 0.0

    def to_json(self) -> dict[str, float | int | str | None]:
        """Return the estimate as JSON-ready data (an unbounded end, of one game's count, as
        ``null``)."""
        return {
            "mean": self.mean,
            "low": self.low if math.isfinite(self.low) else None,
            "high": self.high if math.isfinite(self.high) else None,
            "n": self.n,
            "interval": self.interval,
        }

    def text(self, digits: int = 2, *, signed: bool = False, percent: bool = False) -> str:
        """The mean and its interval, rounded; *percent* scales by 100.

        A normal interval is symmetric: ``"12.3 ± 0.4"``. A proportion's interval (Wilson's,
        or a paired difference of proportions) is not, and always shows its bounds:
        ``"98.5% [96.8, 99.4]"``, ``"100.0% [99.0, 100.0]"``.

        :raises ArgumentError: For *digits* that is not an ``int`` from 0 to 17.
        """
        if not (type(digits) is int and 0 <= digits <= 17):
            raise ArgumentError(f"digits must be an int from 0 to 17, not {shown(digits)}")
        scale = 100.0 if percent else 1.0
        unit = "%" if percent else ""
        sign = "+" if signed else ""
        m, lo, hi = (self.mean * scale, self.low * scale, self.high * scale)
        if self.interval == "normal":
            return f"{m:{sign}.{digits}f}{unit} ± {hi - m:.{digits}f}"
        return f"{m:{sign}.{digits}f}{unit} [{lo:.{digits}f}, {hi:.{digits}f}]"

    def __str__(self) -> str:
        return self.text()


def mean_ci(xs: Sequence[float]) -> Estimate:
    """The mean of *xs* with a normal-approximation 95% interval.

    For counts and scores (game length, score spread) and their paired differences. One
    value has no spread to estimate, so its interval is unbounded (never significant).
    """
    n = len(xs)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    mean = math.fsum(xs) / n
    if n == 1:
        return Estimate(mean, -math.inf, math.inf, 1)
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n)


def _wilson(p: float, n: int) -> tuple[float, float]:
    """Wilson's score 95% interval of a proportion *p* of *n* observations."""
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(max(0.0, p * (1 - p)) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))  # p inside, as rounding at 0 or 1 may not keep it


def proportion_ci(hits: float, n: int) -> Estimate:
    """A proportion with its Wilson score 95% interval (never zero width, even at 0 or 1)."""
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0, "wilson")
    p = hits / n
    lo, hi = _wilson(p, n)
    return Estimate(p, lo, hi, n, "wilson")


def share_ci(xs: Sequence[float], low: float = 0.0, high: float = 1.0) -> Estimate:
    """The mean share of *xs* (each between *low* and *high*) with Wilson's 95% interval.

    A win share is 1 for a win, 0 for a loss and ``1/k`` for a tie of *k* winners: not
    quite a proportion. Any value in [0, 1] with mean *p* has a variance of at most
    ``p (1 - p)``, the variance of a proportion, so Wilson's interval on the mean share is
    exact for wins and losses and, with ties, a little wider than it need be. *low* and
    *high* shift the scale (the first seat's share less the fair share).
    """
    n = len(xs)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0, "wilson")
    width = high - low
    p = min(1.0, max(0.0, (math.fsum(xs) / n - low) / width))
    lo, hi = _wilson(p, n)
    return Estimate(low + p * width, low + lo * width, low + hi * width, n, "wilson")


def _correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Pearson's correlation of paired shares, with half a pair of each of the four outcomes
    ``(0, 0)``, ``(0, 1)``, ``(1, 0)``, ``(1, 1)`` added (Agresti and Min's adjustment for
    matched pairs): below 1 even when every pair agrees, and defined when a side never
    varies (the half pairs vary)."""
    n = len(xs)
    mx, my = (math.fsum(xs) + 1) / (n + 2), (math.fsum(ys) + 1) / (n + 2)
    sxy = math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = math.fsum((x - mx) ** 2 for x in xs)
    syy = math.fsum((y - my) ** 2 for y in ys)
    sxy += (1 - 2 * mx) * (1 - 2 * my) / 2  # the four half pairs, summed
    sxx += mx**2 + (1 - mx) ** 2
    syy += my**2 + (1 - my) ** 2
    return sxy / math.sqrt(sxx * syy)


def paired_share_diff(a: Sequence[float], b: Sequence[float]) -> Estimate:
    """B - A of two shares measured on the same games (``a[i]``, ``b[i]``), with 95% interval.

    Newcombe's hybrid score interval for paired proportions (his method 10, without the
    continuity correction; Zou and Donner's MOVER): each side's Wilson interval, combined
    through the correlation of the pairs, taken with half a pair of each outcome added
    (Agresti and Min), since a correlation of 1 would make the interval zero wide at 50%.
    Unlike mean ± 1.96 standard errors, it is never zero wide when every pair agrees (100%
    against 100% of 400 games gives about ± 1%, 50% against 50% of 10 games ± 15%).
    """
    n = len(a)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0, "newcombe")
    ea, eb = share_ci(a), share_ci(b)
    r = _correlation(a, b)
    d = eb.mean - ea.mean
    b_down, b_up = eb.mean - eb.low, eb.high - eb.mean
    a_down, a_up = ea.mean - ea.low, ea.high - ea.mean
    # exactly rounded sums of products taken in one order: the same pairs swapped give
    # the same interval mirrored, to the last bit
    below = math.sqrt(max(0.0, math.fsum((b_down**2, a_up**2, -2 * r * (b_down * a_up)))))
    above = math.sqrt(max(0.0, math.fsum((b_up**2, a_down**2, -2 * r * (b_up * a_down)))))
    return Estimate(d, max(-1.0, d - below), min(1.0, d + above), n, "newcombe")


def unpaired_diff(a: Estimate, b: Estimate) -> Estimate:
    """B - A of two independent estimates of the same kind, with a 95% interval.

    Normal estimates combine their half widths; Wilson ones by Newcombe's hybrid score
    interval for independent proportions (his method 10).
    """
    d = b.mean - a.mean
    if a.interval == "normal" and b.interval == "normal":
        half = math.hypot((a.high - a.low) / 2, (b.high - b.low) / 2)
        return Estimate(d, d - half, d + half, min(a.n, b.n))
    below = math.hypot(b.mean - b.low, a.high - a.mean)
    above = math.hypot(b.high - b.mean, a.mean - a.low)
    return Estimate(d, d - below, d + above, min(a.n, b.n), "newcombe")


@frozen
class ConfigSummary:
    """What one configuration of a comparison did, each figure with its 95% interval.

    :param label: ``"A"`` or ``"B"``.
    :param rules: The house rules asked for, named as :attr:`cardcore.Game.rules` names
        them (by name, not rule ID; each once, sorted by rule ID).
    :param without: The default rules switched off, named the same way.
    :param options: The game's options.
    :param agents: The agent spec of each seat (mixed line-ups rotate seats game by game).
    :param games: Games played with the line-up (skill probes not counted).
    :param seat_wins: Per seat, its win share (a tie of k winners gives each 1/k).
    :param first_seat: The win share of the seat that acts first after the deal (in Golf
        seat 0, left of the dealer; in Tonk the seat left of the dealer the cut chose; seat 0
        in real time) less the fair share ``1 / players``: the first player's advantage
        (``None`` in a one-seat game, which has none; ``null`` in JSON).
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
    :param agent_wins: A mixed line-up's agents (each spec once, in line-up order): the share
        of the games each won, over every seat it held (a tie of k winners gives each 1/k).
        Seats rotate game by game, so this is the figure that says which agent is stronger.
        Empty when one agent holds every seat.
    """

    label: str
    rules: tuple[str, ...]
    without: tuple[str, ...]
    options: Mapping[str, Any]
    agents: tuple[str, ...]
    games: int
    seat_wins: tuple[Estimate, ...]
    first_seat: Estimate | None
    actions: Estimate
    rounds: Estimate
    spread: Estimate
    reasons: Mapping[str, Estimate]
    skill: Estimate | None
    overruns: tuple[int, ...]
    probe_overruns: tuple[int, int]
    slowest: tuple[float, ...]
    decisions_per_s: tuple[float, ...]
    agent_wins: Mapping[str, Estimate] = field(factory=dict)

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
            "first_seat": None if self.first_seat is None else self.first_seat.to_json(),
            "actions": self.actions.to_json(),
            "rounds": self.rounds.to_json(),
            "spread": self.spread.to_json(),
            "reasons": {k: e.to_json() for k, e in self.reasons.items()},
            "skill": None if self.skill is None else self.skill.to_json(),
            "overruns": list(self.overruns),
            "probe_overruns": list(self.probe_overruns),
            "slowest": list(self.slowest),
            "decisions_per_s": list(self.decisions_per_s),
            "agent_wins": {k: e.to_json() for k, e in self.agent_wins.items()},
        }
