"""How much does the heuristic Tonk agent win against random agents?

Plays seeded 3-player Tonk hands (one hand per game, default rules): the
heuristic agent sits in seat ``i % 3`` of hand *i* and random agents fill the
other seats. As a control, the same hands are replayed with a random agent in
the heuristic's seat. Prints the results and writes them as JSON.

Usage::

    python benchmarks/tonk_agent_study.py [HANDS] [SEED] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import cardcore
from cardcore.agents import RandomAgent, play
from cardcore.deck import derive_rng
from cardcore_tonk.agents import HeuristicAgent

PLAYERS = 3


def _seed(study: int, index: int) -> int:
    return int(derive_rng(study, index).random() * 2**62)


def _mean_se(xs: list[int]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def study(hands: int, seed: int) -> dict[str, Any]:
    """Run the study and return its figures.

    :param hands: Number of seeded hands.
    :param seed: The study seed; hand *i* is seeded from ``(seed, i)``.
    :returns: JSON-ready results.
    """
    heuristic: list[int] = []
    control: list[int] = []
    reasons: Counter[str] = Counter()
    wins = losses = 0
    t0 = time.perf_counter()
    for i in range(hands):
        game_seed = _seed(seed, i)
        seat = i % PLAYERS
        for who in ("heuristic", "control"):
            game = cardcore.new_game("tonk", PLAYERS, seed=game_seed)
            agents: list[Any] = [RandomAgent(_seed(game_seed, 1000 + s)) for s in range(PLAYERS)]
            if who == "heuristic":
                agents[seat] = HeuristicAgent(_seed(game_seed, 2000))
            result = play(game, agents)
            assert result.payouts is not None
            mine = result.payouts[seat]
            if who == "heuristic":
                heuristic.append(mine)
                reasons[result.reason] += 1
                wins += mine > 0
                losses += mine < 0
            else:
                control.append(mine)
    seconds = time.perf_counter() - t0
    h_mean, h_se = _mean_se(heuristic)
    c_mean, c_se = _mean_se(control)
    return {
        "study": "tonk heuristic agent vs random agents",
        "command": f"python benchmarks/tonk_agent_study.py {hands} {seed}",
        "hands": hands,
        "seed": seed,
        "players": PLAYERS,
        "stake": 1,
        "heuristic_net_per_hand": round(h_mean, 4),
        "heuristic_stderr": round(h_se, 4),
        "heuristic_hands_won": wins,
        "heuristic_hands_lost": losses,
        "random_control_net_per_hand": round(c_mean, 4),
        "random_control_stderr": round(c_se, 4),
        "endings": dict(sorted(reasons.items())),
        "seconds": round(seconds, 2),
    }


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run the study, print and write the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hands", nargs="?", type=int, default=2000)
    parser.add_argument("seed", nargs="?", type=int, default=1)
    parser.add_argument("--out", default="tonk_agent_study.json", help="JSON file to write")
    args = parser.parse_args(argv)
    figures = study(args.hands, args.seed)
    for key, value in figures.items():
        print(f"{key}: {value}")
    Path(args.out).write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
