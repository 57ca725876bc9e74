"""Play one benchmark configuration in a loop, for a profiler to watch; summarize py-spy output.

Profile random play (the loop of ``run.py``) with py-spy::

    py-spy record -r 1000 -f raw -o golf.raw -- python benchmarks/hotpath.py golf-6 --seconds 10
    python benchmarks/hotpath.py --summarize golf.raw

or with pyinstrument, if installed::

    python benchmarks/hotpath.py golf-6 --seconds 5 --pyinstrument

``--subscriber`` attaches the one all-events subscriber; ``--replay`` replays
records instead of playing; ``--new-game`` only starts games. The summary
lists functions by inclusive share of samples, then the hottest lines.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import sys
import time
from collections.abc import Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import nullgame
import run

import cardcore

__all__ = ["main", "summarize"]


def summarize(path: str, top: int = 30) -> str:
    """Summarize a py-spy ``-f raw`` file: inclusive share per function, self share per line."""
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    total = 0
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            stack, _, count = line.rstrip().rpartition(" ")
            if not stack:
                continue
            n = int(count)
            total += n
            frames = stack.split(";")
            leaf = frames[-1]
            own[leaf] += n
            for name in {f.split(" (")[0] for f in frames}:
                inclusive[name] += n
    out = [f"{total} samples", "-- inclusive, by function"]
    out += [f"{100 * v / total:5.1f}%  {k}" for k, v in inclusive.most_common(top)]
    out.append("-- self, by line")
    out += [f"{100 * v / total:5.1f}%  {k}" for k, v in own.most_common(top)]
    return "\n".join(out)


def loop(key: str, seconds: float, subscriber: bool, mode: str) -> int:
    """Run *mode* (``play``, ``replay`` or ``new-game``) for *key* for *seconds*; return games."""
    cfg = {c.key: c for c in run.CONFIGS}[key]
    cardcore.new_game(cfg.name, cfg.players, options=cfg.options, seed=0)
    records = (
        [run.finished_game(cfg, 100 + k).record() for k in range(5)] if mode == "replay" else []
    )
    end = time.perf_counter() + seconds
    games = 0
    seed = 1
    while time.perf_counter() < end:
        if mode == "replay":
            for record in records:
                cardcore.replay(record)
            games += len(records)
        elif mode == "new-game":
            for _ in range(100):
                cardcore.new_game(cfg.name, cfg.players, options=cfg.options, seed=seed)
                seed += 1
            games += 100
        elif cfg.realtime:
            run.realtime_round(cfg, 1, seed, subscriber)
            games += 1
            seed += 1
        else:
            run.engine_round(cfg, 1, seed, subscriber)
            games += 1
            seed += 1
    return games


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description="profile one cardcore benchmark configuration")
    parser.add_argument("key", nargs="?", default="golf-6", help="golf-6, golf-4, tonk, spit ...")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument(
        "--subscriber", action="store_true", help="attach one all-events subscriber"
    )
    parser.add_argument("--replay", action="store_true", help="replay records instead of playing")
    parser.add_argument("--new-game", action="store_true", help="only start games")
    parser.add_argument("--pyinstrument", action="store_true", help="profile with pyinstrument")
    parser.add_argument("--summarize", metavar="RAW", help="summarize a py-spy raw file and exit")
    args = parser.parse_args(argv)
    if args.summarize:
        print(summarize(args.summarize))
        return 0
    nullgame.register()
    random.seed(0)
    mode = "replay" if args.replay else "new-game" if args.new_game else "play"
    if args.pyinstrument:
        from pyinstrument import Profiler

        profiler = Profiler(interval=0.0005)
        profiler.start()
        games = loop(args.key, args.seconds, args.subscriber, mode)
        profiler.stop()
        print(profiler.output_text(unicode=True, color=False, show_all=False))
    else:
        games = loop(args.key, args.seconds, args.subscriber, mode)
    print(f"{games} games ({mode}, {args.key})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
