"""A comparison as table rows, a plain-text table and a PNG plot."""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Any

from cardcore._text import counted, shown
from cardcore.compare._stats import Z95, ConfigSummary, Estimate, proportion_ci, unpaired_diff
from cardcore.errors import ArgumentError, CardcoreError

if TYPE_CHECKING:
    from cardcore.compare import Comparison

__all__ = ["describe", "overrun_lines", "plot_comparison", "rows_of", "text_table"]


def _rules(c: ConfigSummary) -> str:
    words = [*c.rules, *(f"without {w}" for w in c.without)]
    return ", ".join(words) or "(base game)"


def _agents(c: ConfigSummary) -> str:
    names = list(dict.fromkeys(c.agents))
    return names[0] if len(names) == 1 else " / ".join(c.agents) + " (rotating)"


def describe(summary: ConfigSummary) -> str:
    """``"A: golf.jokers; agents golf-greedy"``: a configuration in one line."""
    options = ", ".join(f"{k}={v}" for k, v in summary.options.items())
    where = f"; options {options}" if options else ""
    return f"{summary.label}: {_rules(summary)}; agents {_agents(summary)}{where}"


def _first(e: Estimate | None) -> str:
    """A first-seat advantage as text: ``n/a`` in a one-seat game (no other seat)."""
    return "n/a" if e is None else e.text(1, signed=True, percent=True)


def rows_of(cmp: Comparison) -> list[tuple[str, str, str, str]]:
    """``(figure, A, B, B - A)`` rows, each figure with its 95% interval."""
    a, b, d = cmp.a, cmp.b, cmp.diff
    rows: list[tuple[str, str, str, str]] = [
        (
            "first-seat advantage",
            _first(a.first_seat),
            _first(b.first_seat),
            _first(d.get("first_seat")),
        ),
        (
            "actions per game",
            a.actions.text(1),
            b.actions.text(1),
            d["actions"].text(1, signed=True),
        ),
        ("rounds per game", a.rounds.text(2), b.rounds.text(2), d["rounds"].text(2, signed=True)),
        ("score spread", a.spread.text(1), b.spread.text(1), d["spread"].text(1, signed=True)),
    ]
    if a.skill is not None and b.skill is not None and cmp.skill_agents is not None:
        strong, weak = cmp.skill_agents
        rows.append(
            (
                f"skill: {strong} wins vs {weak}",
                a.skill.text(1, percent=True),
                b.skill.text(1, percent=True),
                d["skill"].text(1, signed=True, percent=True) if "skill" in d else "",
            )
        )
    if len(a.agent_wins) > 1 or len(b.agent_wins) > 1:  # a mixed line-up: who won
        for spec in dict.fromkeys([*a.agent_wins, *b.agent_wins]):
            wa, wb = a.agent_wins.get(spec), b.agent_wins.get(spec)
            rows.append(
                (
                    f"wins: {spec}",
                    "-" if wa is None else wa.text(1, percent=True),
                    "-" if wb is None else wb.text(1, percent=True),
                    d[f"agent:{spec}"].text(1, signed=True, percent=True)
                    if f"agent:{spec}" in d
                    else "",
                )
            )
    for reason in sorted({*a.reasons, *b.reasons}):
        ea = a.reasons.get(reason, proportion_ci(0, a.games))
        eb = b.reasons.get(reason, proportion_ci(0, b.games))
        rows.append(
            (
                f"ends: {reason}",
                ea.text(1, percent=True),
                eb.text(1, percent=True),
                d.get(f"reason:{reason}", unpaired_diff(ea, eb)).text(1, signed=True, percent=True),
            )
        )
    return rows


def _secs(seconds: float) -> str:
    """Seconds to 3 significant digits (a limit of 1e-06 s is broken by 2.3e-05 s, not 0.000)."""
    return f"{seconds:.3g} s"


def overrun_lines(cmp: Comparison) -> list[str]:
    """With a move time: per configuration, each agent's decisions that took longer."""
    if cmp.move_time is None:
        return []
    out = []
    for summary in (cmp.a, cmp.b):
        mixed = len(set(summary.agents)) > 1
        counts = [
            f"{spec}: {summary.overruns[k]} (slowest {_secs(summary.slowest[k])})"
            for k, spec in enumerate(summary.agents if mixed else summary.agents[:1])
        ]
        if not mixed:
            counts = [
                f"{summary.agents[0]}: {sum(summary.overruns)} (slowest {_secs(max(summary.slowest))})"
            ]
        strong, weak = summary.probe_overruns
        probes = f"; skill probes: strong {strong}, weak {weak}" if cmp.skill_agents else ""
        out.append(
            f"{summary.label}: decisions over {cmp.move_time:g} s by {', '.join(counts)}{probes}"
        )
    return out


def text_table(cmp: Comparison) -> str:
    """The rows as a reStructuredText simple table."""
    head = ("figure (95% CI)", "A", "B", "B - A (paired)")
    rows = rows_of(cmp)
    widths = [max(len(head[i]), *(len(r[i]) for r in rows)) for i in range(4)]
    rule = "  ".join("=" * w for w in widths)

    def line(cells: tuple[str, ...]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    title = f"{cmp.game}, {counted(cmp.players, 'player')}, {counted(cmp.games, 'game')} per configuration, seed {cmp.seed}"
    body = [rule, line(head), rule, *(line(r) for r in rows), rule]
    notes = [cmp.deals, *overrun_lines(cmp)]
    return "\n".join([title, describe(cmp.a), describe(cmp.b), "", *body, "", *notes])


def _below(e: Estimate) -> float:  # no bar for an unbounded end (one game's count)
    return max(0.0, e.mean - e.low) if math.isfinite(e.low) else 0.0


def _above(e: Estimate) -> float:
    return max(0.0, e.high - e.mean) if math.isfinite(e.high) else 0.0


def _unwritable(name: str | bytes) -> bool:
    """A file name no file can have: empty, with a NUL, or not encodable for the OS."""
    try:
        raw = os.fsencode(name)
    except UnicodeError:
        return True
    return not raw or b"\x00" in raw


def plot_comparison(cmp: Comparison, path: str | os.PathLike[str] | None) -> Any:
    """Draw each figure of A and B with its 95% interval (needs matplotlib): write a PNG to
    *path*, or return the ``Figure`` (``None``: a notebook shows it). pyplot is not used, so
    the user's backend and open figures are left as they are."""
    if path is not None and (not isinstance(path, str | os.PathLike) or _unwritable(os.fspath(path))):
        msg = f"plot writes to a file path (not empty, no NUL, encodable), not {shown(path, 60)}"
        raise ArgumentError(msg)
    try:
        import matplotlib  # noqa: F401  (first: a figure's own imports need it too)
        from matplotlib.figure import Figure
    except ImportError:
        msg = "a plot needs matplotlib: install it with pip install 'cardcore[plot]' (in a checkout: pip install -e '.[plot]')"
        raise CardcoreError(msg) from None
    a, b = cmp.a, cmp.b
    panels: list[tuple[str, Estimate, Estimate, float]] = []
    if a.first_seat is not None and b.first_seat is not None:  # not in a one-seat game
        panels.append(("first-seat advantage (win share - 1/n)", a.first_seat, b.first_seat, 1.0))
    panels += [
        ("actions per game", a.actions, b.actions, 1.0),
        ("rounds per game", a.rounds, b.rounds, 1.0),
        ("score spread (best - worst)", a.spread, b.spread, 1.0),
    ]
    if a.skill is not None and b.skill is not None and cmp.skill_agents is not None:
        panels.append((f"skill: {cmp.skill_agents[0]} win share", a.skill, b.skill, 1.0))
    reasons = sorted({*a.reasons, *b.reasons})
    cols = 3
    rows = -(-(len(panels) + 1) // cols)
    fig = Figure(figsize=(3.4 * cols, 2.9 * rows))
    grid = fig.subplots(rows, cols, squeeze=False)
    axes = [ax for row in grid for ax in row]
    for ax in axes[len(panels) + 1 :]:
        ax.set_visible(False)
    labels = [f"A: {_rules(a)}", f"B: {_rules(b)}"]
    colors = ("#4c72b0", "#dd8452")
    for ax, (title, ea, eb, _) in zip(axes, panels, strict=False):
        means = [ea.mean, eb.mean]
        err = [[_below(ea), _below(eb)], [_above(ea), _above(eb)]]
        ax.bar([0, 1], means, yerr=err, capsize=5, color=colors)
        ax.set_xticks([0, 1], ["A", "B"])
        ax.set_title(title, fontsize=9)
        ax.axhline(0.0, color="grey", linewidth=0.6)
        if title.startswith("skill"):
            ax.axhline(1.0 / cmp.players, color="grey", linewidth=0.8, linestyle=":")
    ax = axes[len(panels)]
    width = 0.4
    zero = Estimate(0.0, 0.0, 0.0, 0)
    for k, (summary, color) in enumerate(((a, colors[0]), (b, colors[1]))):
        es = [summary.reasons.get(r, zero) for r in reasons]
        xs = [i + (k - 0.5) * width for i in range(len(reasons))]
        err = [[_below(e) for e in es], [_above(e) for e in es]]
        ax.bar(xs, [e.mean for e in es], width=width, yerr=err, capsize=3, color=color)
    ax.set_xticks(range(len(reasons)), reasons, rotation=30, fontsize=8)
    ax.set_title("end reasons (share of games)", fontsize=9)
    fig.suptitle(
        f"{cmp.game}: {labels[0]}  vs  {labels[1]}  ({cmp.games} games each, 95% CI, z={Z95:.2f})",
        fontsize=9,
    )
    fig.tight_layout()
    if path is None:
        return fig
    fig.savefig(path, dpi=110, format="png")  # a PNG at the very path named, whatever its ending
    return None
