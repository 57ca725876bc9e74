"""CPU seconds of one ISMCTS decision at a fixed budget, per game: the figures behind the
search's parameter bounds (docs/search-agents.rst).

For each game, a few positions are reached by random play from fixed seeds, and one
decision of ``ISMCTSAgent(seed=1, iterations=N)`` is timed at each with
``time.process_time`` (the search's own CPU time, one core). Run from the repository root::

    python benchmarks/ismcts_time.py                       # 1,000 iterations, 3 positions
    python benchmarks/ismcts_time.py --iterations 300 --games golf tonk
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

import cardcore
from cardcore.search import ISMCTSAgent

__all__ = ["decision_seconds", "main"]

GAMES = {"golf": 4, "tonk": 3, "gofish": 3, "spit": 2}
"""The games timed, with their seats."""


def decision_seconds(name: str, players: int, iterations: int, seed: int, moves: int) -> float:
    """CPU seconds of one ISMCTS decision after *moves* random actions of game *seed* (the
    next seed whose game is still on by then: random Tonk players often drop at once)."""
    game = cardcore.new_game(name, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            return decision_seconds(name, players, iterations, seed + 1000, moves)
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        if not legal:  # real time: the first seat to act may have no move
            seat = game.to_act[-1]
            legal = game.legal_actions(seat)
        game.apply(rng.choice(legal))
    if game.is_over:
        return decision_seconds(name, players, iterations, seed + 1000, moves)
    seat = next((s for s in game.to_act if game.legal_actions(s)), game.to_act[0])
    agent = ISMCTSAgent(seed=1, iterations=iterations)
    view, legal = game.view(seat), game.legal_actions(seat)
    start = time.process_time()
    agent.choose(view, legal)
    return time.process_time() - start


def main(argv: Sequence[str] | None = None) -> int:
    """Print the median and range of the decisions' CPU seconds, per game."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    args = parser.parse_args(argv)
    print(f"ISMCTS, {args.iterations} iterations a decision, CPU seconds (one core)")
    for name in args.games:
        times = [
            decision_seconds(name, GAMES[name], args.iterations, seed=10 + k, moves=4 * k)
            for k in range(args.positions)
        ]
        print(
            f"  {name:7s} median {statistics.median(times):6.2f} s"
            f"  (range {min(times):.2f}-{max(times):.2f}, {len(times)} positions)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
