"""How much does a house rule shift Golf scores? Simulate with and without it.

For each rule, the same seeded study (same deals, same random agents' seeds)
is run with and without the rule with ``cardcore.simulate``; the shift in the
mean final score per player is printed and plotted with its spread.

Run: ``python examples/house_rule_study.py [PLOT.png] [--games N] [--workers W]``
"""

from __future__ import annotations

import argparse
import math
from concurrent.futures import Executor, ProcessPoolExecutor
from statistics import fmean

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt

import cardcore

GAME = "golf"
RULES = ["golf.hard", "golf.jokers", "golf.bonus-twos", "golf.ender-penalty-10"]
OPTIONS = {"rounds": 1}  # one hole per game: each game is one scored round


def study(
    rules: list[str], games: int, players: int, executor: Executor | None
) -> cardcore.Summary:
    return cardcore.simulate(
        GAME, games=games, players=players, rules=rules, options=OPTIONS, seed=42, executor=executor
    )


def mean_sd(summary: cardcore.Summary) -> float:
    """The seats' mean standard deviation of the score (NaN over one game: undefined)."""
    return fmean(summary.sd_scores)


def spread(summary: cardcore.Summary) -> str:
    """The spread as the table prints it: "–" where it is undefined (one game)."""
    sd = mean_sd(summary)
    return "–" if math.isnan(sd) else f"{sd:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "plot", nargs="?", default="house_rule_study.png", help="where to save the plot (PNG)"
    )
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--workers", type=int, default=0, help="worker processes (0: this process)")
    args = parser.parse_args()
    if args.workers < 0:
        parser.error(f"--workers must be 0 (this process) or more, not {args.workers}")

    installed = set(cardcore.available_rules(GAME))
    rules = [r for r in RULES if r in installed]
    executor = ProcessPoolExecutor(args.workers) if args.workers else None
    try:
        base = study([], args.games, args.players, executor)
        results = {rule: study([rule], args.games, args.players, executor) for rule in rules}
    except cardcore.CardcoreError as exc:  # --games 0, a count the game does not seat ...
        parser.error(str(exc))
    finally:
        if executor is not None:
            executor.shutdown()

    base_mean = fmean(base.mean_scores)
    print(
        f"{GAME}, {args.players} players, {args.games} one-round games per configuration, random agents"
    )
    print(f"{'configuration':<24}{'mean score':>11}{'sd':>8}{'shift':>9}")
    print(f"{'(no house rule)':<24}{base_mean:>11.2f}{spread(base):>8}{0:>+9.2f}")
    shifts = {}
    for rule, summary in results.items():
        mean = fmean(summary.mean_scores)
        shifts[rule] = mean - base_mean
        print(f"{rule:<24}{mean:>11.2f}{spread(summary):>8}{shifts[rule]:>+9.2f}")

    labels = ["(none)", *results]
    means = [base_mean, *(fmean(s.mean_scores) for s in results.values())]
    # over one game the spread is undefined (NaN): no error bar
    sds = [0.0 if math.isnan(sd) else sd for sd in map(mean_sd, [base, *results.values()])]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    colors = ["#888888"] + ["#c0392b" if shifts[r] > 0 else "#2e86c1" for r in results]
    ax.bar(labels, means, yerr=sds, capsize=4, color=colors)
    ax.axhline(base_mean, color="#444444", linewidth=0.8, linestyle="--")
    ax.set_ylabel("mean score per player and round (lower is better)")
    ax.set_title(f"Golf house rules: score shift over {args.games} seeded games each")
    for x, (mean, label) in enumerate(zip(means, labels, strict=True)):
        if label != "(none)":
            ax.annotate(
                f"{mean - base_mean:+.1f}",
                (x, 1.0),
                ha="center",
                va="bottom",
                color="white",
                fontweight="bold",
            )
    plt.setp(ax.get_xticklabels(), rotation=15, ha="right")
    fig.tight_layout()
    fig.savefig(args.plot, dpi=100)
    print(f"plot saved to {args.plot}")


if __name__ == "__main__":
    main()
