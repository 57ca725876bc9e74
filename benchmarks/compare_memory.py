"""Memory a comparison holds per game: :func:`cardcore.compare` keeps each game's small
record until the end, to pair the two configurations' games. Run from the repository root::

    python benchmarks/compare_memory.py      # --quick: 20 games, for the smoke test

Prints the bytes (``tracemalloc``) per record of 300 games of random Golf, per seat count.
"""

from __future__ import annotations

import sys
import tracemalloc

from cardcore.compare._run import Config, run_chunk


def bytes_per_record(players: int, games: int = 300) -> float:
    config = Config("A", (), (), {}, ("random",) * players)
    task = ("golf", players, config, 0, False, 0, 0, None, None)
    tracemalloc.start()
    try:
        records = run_chunk((task, games))
        held = tracemalloc.get_traced_memory()[0]
        del records
        return (held - tracemalloc.get_traced_memory()[0]) / games
    finally:
        tracemalloc.stop()


def main() -> None:
    games = 20 if "--quick" in sys.argv[1:] else 300
    for players in (2, 4):
        per = bytes_per_record(players, games)
        print(f"golf, {players} seats: {per:.0f} bytes per game record")


if __name__ == "__main__":
    main()
