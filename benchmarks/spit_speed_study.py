"""Who wins Spit and Speed, and how often, at which difference in reaction speed.

Plays seeded games between two greedy bots (:class:`cardcore_spit.agents.SpitBot`)
on the virtual clock (:func:`cardcore.run_realtime`): a fast bot with mean
reaction time 0.3 s against a bot of mean 0.3, 0.4, 0.6 or 0.9 s. The fast bot
sits in seat 0 in even games and seat 1 in odd ones. Prints a table and writes
the figures as JSON.

Usage::

    python benchmarks/spit_speed_study.py --games 1000 --seed 1 [--out spit_speed_study.json]

``--games`` is the number of games per game and speed pairing.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Sequence
from typing import Any

import cardcore
from cardcore_spit.agents import SpitBot

FAST = 0.3
SLOW = (0.3, 0.4, 0.6, 0.9)


def binomial_p(wins: int, games: int) -> float:
    """Return the one-sided p-value P(X >= wins) for X ~ Binomial(games, 1/2)."""
    total = sum(math.comb(games, k) for k in range(wins, games + 1))
    return float(total / 2**games)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95 % Wilson interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    d = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / d
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / d
    return centre - half, centre + half


def play_pairing(game: str, games: int, seed: int, fast: float, slow: float) -> dict[str, Any]:
    """Play *games* games of *game*, fast bot (mean *fast*) against slow bot (mean *slow*)."""
    fast_wins = slow_wins = draws = truncated = actions = 0
    started = time.perf_counter()
    for i in range(games):
        game_seed = int(cardcore.derive_rng(seed, i).random() * 2**62)
        g = cardcore.new_game(game, 2, seed=game_seed)
        fast_seat = i % 2
        agents: list[SpitBot] = [SpitBot(), SpitBot()]
        agents[fast_seat] = SpitBot(seed=game_seed + 1, mean=fast)
        agents[1 - fast_seat] = SpitBot(seed=game_seed + 2, mean=slow)
        result = cardcore.run_realtime(g, agents, seed=game_seed)
        actions += g.version
        if result.reason == "truncated":
            truncated += 1
        elif len(result.winners) != 1:
            draws += 1
        elif result.winners[0] == fast_seat:
            fast_wins += 1
        else:
            slow_wins += 1
    decided = fast_wins + slow_wins
    low, high = wilson(fast_wins, decided)
    return {
        "game": game,
        "fast_mean": fast,
        "slow_mean": slow,
        "games": games,
        "fast_wins": fast_wins,
        "slow_wins": slow_wins,
        "draws": draws,
        "truncated": truncated,
        "fast_rate": fast_wins / decided if decided else 0.0,
        "ci95": [low, high],
        "p_value": binomial_p(fast_wins, decided) if decided else 1.0,
        "mean_actions": actions / games if games else 0.0,
        "seconds": time.perf_counter() - started,
    }


def study(games: int, seed: int, names: Sequence[str] = ("spit", "speed"), slow: Sequence[float] = SLOW) -> list[dict[str, Any]]:
    """Run every pairing for every game in *names*; return one row per pairing."""
    return [play_pairing(name, games, seed, FAST, s) for name in names for s in slow]


def table(rows: Sequence[dict[str, Any]]) -> str:
    """Format *rows* as a fixed-width text table."""
    head = f"{'game':<6} {'fast':>5} {'slow':>5} {'games':>6} {'fast wins':>9} {'rate':>6} {'95% CI':>15} {'p':>9} {'actions':>8}"
    lines = [head, "-" * len(head)]
    for r in rows:
        ci = f"{r['ci95'][0]:.3f}-{r['ci95'][1]:.3f}"
        lines.append(
            f"{r['game']:<6} {r['fast_mean']:>5.1f} {r['slow_mean']:>5.1f} {r['games']:>6} {r['fast_wins']:>9}"
            f" {r['fast_rate']:>6.3f} {ci:>15} {r['p_value']:>9.2g} {r['mean_actions']:>8.1f}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the study from the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per game and pairing (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="study seed (default 1)")
    parser.add_argument("--out", default="spit_speed_study.json", help="where to write the JSON figures")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    rows = study(args.games, args.seed)
    print(table(rows))
    data = {"games": args.games, "seed": args.seed, "fast_mean": FAST, "rows": rows,
            "seconds": time.perf_counter() - started}
    with open(args.out, "w") as fh:
        json.dump(data, fh, indent=1)
    print(f"wrote {args.out} ({data['seconds']:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
