"""How strong is ISMCTS? Duplicate deals against each game's heuristic agent and random play.

For each built-in turn-based game (Golf: one hole per deal; Tonk: one hand), ISMCTS at two
budgets plays every deal twice, once from each seat, against the game's heuristic agent and
against a random agent. A budget is a number of iterations per decision (deterministic), or
``t`` and seconds per decision (``t0.05``: 20 decisions per second by construction, whatever
the machine; the iterations it reached are reported). Per deal the two games' margins are
averaged, so the luck of the cards cancels: the **margin** is ISMCTS's standing less its
opponent's at the end (``GameLogic.utility``: negated points in Golf, stakes won in Tonk;
positive favours ISMCTS), the **win rate** counts a tie as half. Both come with 95%
confidence intervals over the deals. **Decisions per second** counts ISMCTS's searched
decisions (more than one legal action) over its own thinking time.

Usage::

    python benchmarks/strength.py --seed 1 --workers 2 --json strength.json --plot strength.png
    python benchmarks/strength.py --small            # CI size: 20 deals, 20 iterations, vs random
    python benchmarks/strength.py --games golf --deals 60 --budgets 110 --params max_rollout=12
    python benchmarks/strength.py --from-json strength.json --plot strength.png  # no games

Deal *i* is seeded from ``(seed, i)`` and ISMCTS's own seed from the deal's, so an iteration
budget gives the same figures whatever the number of workers.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

import cardcore
from cardcore.deck import derive_rng
from cardcore.search import ISMCTSAgent

GAMES: dict[str, tuple[dict[str, Any], str]] = {
    "golf": ({"rounds": 1}, "golf-greedy"),
    "tonk": ({}, "tonk-heuristic"),
}
"""Each game's options for one deal, and its heuristic agent."""

BUDGETS = ("25", "t0.05")
"""25 iterations per decision, and 50 ms per decision (20 decisions per second)."""

PARAMS: dict[str, dict[str, Any]] = {
    "golf": {"max_rollout": 12},
    "tonk": {"depth": 1, "prior": 2.0},
}
"""ISMCTS's parameters per game, chosen on 60 to 100 deals of study seed 0 (110 iterations,
against the heuristic; the docs' run uses seed 1, other deals): Golf's utility counts the round in play, so its rollouts stop after
12 actions (less noise, more iterations; to the end of the hole: -2.7 points per deal, after
12 actions: +2.7); Tonk's rollouts play the hand out, with flat UCB at the root and the
policy's choice kept unless beaten by two standard errors (-0.51 stakes per deal with the
defaults, -0.18 so)."""

SMALL: dict[str, Any] = {"deals": 20, "budgets": ("20",), "opponents": ("random",)}
"""The CI run: enough to show ISMCTS beats random play with significance."""

Z95 = 1.959964

Task = tuple[str, str, str, int, int, tuple[tuple[str, Any], ...]]
"""game, budget, opponent, study seed, deal index, ISMCTS's other parameters."""


def _seed(study: int, index: int) -> int:
    return int(derive_rng(study, index).random() * 2**62)


def _ci(xs: Sequence[float]) -> dict[str, float]:
    """Mean and 95% confidence interval (normal approximation) of *xs*."""
    n = len(xs)
    mean = sum(xs) / n if n else 0.0
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n) if n else 0.0
    return {"mean": mean, "low": mean - half, "high": mean + half}


def budget_params(budget: str) -> dict[str, Any]:
    """ISMCTS's budget: ``"25"`` is 25 iterations, ``"t0.05"`` 50 ms per decision."""
    if budget.startswith("t"):
        return {"iterations": None, "time": float(budget[1:])}
    return {"iterations": int(budget)}


def budget_label(budget: str) -> str:
    """``"25 it."`` or ``"50 ms"``."""
    return f"{float(budget[1:]) * 1000:g} ms" if budget.startswith("t") else f"{budget} it."


class _Timed:
    """ISMCTS with a stopwatch: counts its searched decisions, their time and iterations."""

    def __init__(self, agent: ISMCTSAgent) -> None:
        self.agent = agent
        self.decisions = 0
        self.seconds = 0.0
        self.iterations = 0

    def choose(self, view: Mapping[str, Any], legal: Sequence[cardcore.Action]) -> cardcore.Action:
        if len(legal) == 1:
            return legal[0]
        started = time.perf_counter()
        action = self.agent.choose(view, legal)
        self.seconds += time.perf_counter() - started
        self.decisions += 1
        self.iterations += self.agent.last_iterations
        return action


def play_deal(task: Task) -> dict[str, float]:
    """Play one deal twice (ISMCTS in seat 0, then seat 1); the unit of work of a run."""
    game_name, budget, opponent, study, index, params = task
    options, _ = GAMES[game_name]
    seed = _seed(study, index)
    margins = []
    wins = []
    timed = _Timed(ISMCTSAgent(_seed(seed, 1), **budget_params(budget), **dict(params)))
    for me in (0, 1):
        game = cardcore.new_game(game_name, 2, options=options, seed=seed)
        other = cardcore.load_agent(opponent)(seed=_seed(seed, 2 + me))
        agents: list[Any] = [timed, other] if me == 0 else [other, timed]
        result = cardcore.play(game, agents)
        utility = game.logic.utility(game.state)
        margins.append(utility[me] - utility[1 - me])
        wins.append(1.0 / len(result.winners) if me in result.winners else 0.0)
    return {
        "margin": sum(margins) / 2,
        "win": sum(wins) / 2,
        "decisions": timed.decisions,
        "seconds": timed.seconds,
        "iterations": timed.iterations,
    }


def _chunk(tasks: list[Task]) -> list[dict[str, float]]:
    return [play_deal(t) for t in tasks]


def pairing(
    game: str,
    budget: str,
    opponent: str,
    *,
    deals: int,
    seed: int = 0,
    executor: Executor | None = None,
    params: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """ISMCTS with *budget* against *opponent* on *deals* duplicate deals.

    :param budget: ``"25"`` (iterations) or ``"t0.05"`` (seconds per decision).
    :param params: ISMCTS's other parameters; default :data:`PARAMS` of the game.
    """
    extra = tuple(sorted((PARAMS.get(game, {}) if params is None else params).items()))
    tasks: list[Task] = [(game, budget, opponent, seed, i, extra) for i in range(deals)]
    size = max(1, deals // 16)
    chunks = [tasks[i : i + size] for i in range(0, len(tasks), size)]
    outcomes: list[dict[str, float]] = []
    if executor is None:
        for c in chunks:
            outcomes.extend(_chunk(c))
    else:
        for done in executor.map(_chunk, chunks):
            outcomes.extend(done)
    decisions = sum(o["decisions"] for o in outcomes)
    seconds = sum(o["seconds"] for o in outcomes)
    return {
        "game": game,
        "budget": budget_label(budget),
        "opponent": opponent,
        "params": dict(extra),
        "deals": deals,
        "games": 2 * deals,
        "margin": _ci([o["margin"] for o in outcomes]),
        "win_rate": _ci([o["win"] for o in outcomes]),
        "decisions": decisions,
        "decisions_per_s": decisions / seconds if seconds else 0.0,
        "mean_iterations": sum(o["iterations"] for o in outcomes) / decisions if decisions else 0.0,
    }


def table(rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows as a reStructuredText simple table (the docs include it as is)."""
    head = ("game", "budget", "iterations", "opponent", "deals", "margin (95% CI)", "win rate (95% CI)", "decisions/s")  # fmt: skip
    lines = []
    for r in rows:
        m, w = r["margin"], r["win_rate"]
        lines.append(
            (
                r["game"],
                r["budget"],
                f"{r['mean_iterations']:.0f}",
                r["opponent"],
                str(r["deals"]),
                f"{m['mean']:+.2f} [{m['low']:+.2f}, {m['high']:+.2f}]",
                f"{w['mean']:.3f} [{w['low']:.3f}, {w['high']:.3f}]",
                f"{r['decisions_per_s']:.1f}",
            )
        )
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(head)]
    rule = "  ".join("=" * w for w in widths)
    out = [rule, "  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip(), rule]
    out += [
        "  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip() for line in lines
    ]
    out.append(rule)
    return "\n".join(out)


def plot(rows: Sequence[Mapping[str, Any]], path: str) -> None:
    """Margins with their intervals, per game, against decisions per second (needs matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = list(dict.fromkeys(r["game"] for r in rows))
    fig, axes = plt.subplots(1, len(games), figsize=(5.4 * len(games), 3.8), squeeze=False)
    for ax, game in zip(axes[0], games, strict=True):
        for opponent, marker in (("random", "o"), (GAMES[game][1], "s")):
            mine = sorted(
                (r for r in rows if r["game"] == game and r["opponent"] == opponent),
                key=lambda r: -r["decisions_per_s"],
            )
            if not mine:
                continue
            xs = [r["decisions_per_s"] for r in mine]
            ys = [r["margin"]["mean"] for r in mine]
            low = [r["margin"]["mean"] - r["margin"]["low"] for r in mine]
            high = [r["margin"]["high"] - r["margin"]["mean"] for r in mine]
            ax.errorbar(xs, ys, yerr=[low, high], marker=marker, capsize=4, label=f"vs {opponent}")
            for i, (r, x, y) in enumerate(zip(mine, xs, ys, strict=True)):
                label = r["budget"]
                if not label.endswith("it."):  # a time budget: the iterations it reached
                    label += f" ({r['mean_iterations']:.0f} it.)"
                offset = (6, 5) if i % 2 == 0 else (6, -13)  # neighbours' labels apart
                ax.annotate(label, (x, y), textcoords="offset points", xytext=offset)
        ax.axhline(0.0, color="grey", linewidth=0.8)
        ax.axvline(20.0, color="grey", linewidth=0.8, linestyle=":")
        ax.set_xlim(0.0, max(22.0, *(r["decisions_per_s"] * 1.15 for r in rows)))
        ax.set_title(f"{game}: ISMCTS margin per deal (95% CI)")
        ax.set_xlabel("ISMCTS decisions per second (dotted: 20)")
        ax.set_ylabel("margin (+ favours ISMCTS)")
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the pairings and print the table; ``--json`` and ``--plot`` write the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--small", action="store_true", help="the CI size (20 deals, vs random)")
    parser.add_argument("--games", default=",".join(GAMES), help="games, comma-separated")
    parser.add_argument("--deals", type=int, default=400, help="duplicate deals per pairing")
    parser.add_argument("--budgets", default=",".join(BUDGETS), help="e.g. 25,t0.05")
    parser.add_argument("--opponents", default="heuristic,random", help="heuristic and/or random")
    parser.add_argument("--seed", type=int, default=0, help="the study seed")
    parser.add_argument("--params", default=None, help="ISMCTS parameters, e.g. c=0.5,depth=1")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--json", default=None, help="write the rows as JSON")
    parser.add_argument("--plot", default=None, help="write a PNG plot (matplotlib)")
    parser.add_argument(
        "--from-json", default=None, help="play nothing: the table and plot of a --json file"
    )
    args = parser.parse_args(argv)
    if args.from_json:
        with open(args.from_json, encoding="utf-8") as fh:
            saved = json.load(fh)["rows"]
        print(table(saved))
        if args.plot:
            plot(saved, args.plot)
        return 0
    deals = SMALL["deals"] if args.small else args.deals
    budgets = SMALL["budgets"] if args.small else tuple(args.budgets.split(","))
    kinds = SMALL["opponents"] if args.small else tuple(args.opponents.split(","))
    params = None
    if args.params is not None:
        params = cardcore.parse_agent_spec("ismcts:" + args.params)[1]
    rows = []
    executor: Executor | None = None
    if args.workers > 1:
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        executor = ProcessPoolExecutor(max_workers=args.workers, mp_context=context)
    started = time.perf_counter()
    try:
        for game in args.games.split(","):
            for budget in budgets:
                for kind in kinds:
                    opponent = GAMES[game][1] if kind == "heuristic" else kind
                    row = pairing(
                        game,
                        budget,
                        opponent,
                        deals=deals,
                        seed=args.seed,
                        executor=executor,
                        params=params,
                    )
                    rows.append(row)
                    print(table([row]).splitlines()[3], file=sys.stderr, flush=True)
    finally:
        if executor is not None:
            executor.shutdown()
    print(table(rows))
    print(f"({time.perf_counter() - started:.0f} s, {args.workers} worker(s))")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"seed": args.seed, "rows": rows}, fh, indent=1)
    if args.plot:
        plot(rows, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
