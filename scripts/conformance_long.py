"""The long conformance run: many seeded random games of every installed game through the kit.

Usage::

    python scripts/conformance_long.py --games 100000 [--workers 2] [--seed 0]

Every game's share of the games is spread over its configurations, chosen by the
kit from declared data (:func:`cardcore.testing.configurations`: each choice of
each option, each default rule off, each house rule alone under options it
applies to).
Cheap checks (conservation after every action, bounds, agents' arguments) run on
every game; the costly ones (views, per-seat events, twins, hostile inputs,
clones, save/load, replay, positions) on every ``--full-every``-th game; each
task also meets the kit's veto-only and score-only rules. Prints, per game:
games, actions applied, bad inputs tried and rejected, cards lost, leaks found,
raw exceptions (errors that are not a ``CardcoreError`` escaping the public API,
including one that stops a whole task) and failures. Exits 1 if any check failed
or any raw exception escaped.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import zlib
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

import cardcore
from cardcore.testing import ALL_CHECKS, Report, check_game, configurations

DEFAULT_SHARES = {"tonk": 0.41, "speed": 0.30, "golf": 0.27, "spit": 0.02}
"""Share of the games per built-in game (spit games are ~2,500 actions each, tonk ~5)."""

Task = tuple[str, int, tuple[str, ...], tuple[str, ...], dict[str, Any], int, int]
Config = tuple[int, tuple[str, ...], tuple[str, ...], dict[str, Any]]


def configs(name: str) -> list[Config]:
    """Return (players, rules, without, options) for every layout and house rule of *name*.

    Chosen by the kit from declared data (option choices, ``RuleInfo.applies``,
    conflicts and requirements): no game is started to find out.
    """
    return [(c.players, c.rules, c.without, dict(c.options)) for c in configurations(name)]


def plan(total: int, seed: int, chunk: int, shares: dict[str, float]) -> Iterator[Task]:
    """Split *total* games into tasks of at most *chunk* games."""
    games = [g for g in cardcore.available_games() if g in shares or g not in DEFAULT_SHARES]
    extra = [g for g in games if g not in shares]
    weights = {g: shares.get(g, 0.0) for g in games}
    for g in extra:
        weights[g] = 0.02
    norm = sum(weights.values())
    exact = {g: total * weights[g] / norm for g in games}
    count = {g: int(exact[g]) for g in games}
    for g in sorted(games, key=lambda g: exact[g] - count[g], reverse=True)[
        : total - sum(count.values())
    ]:
        count[g] += 1  # largest remainders: the counts add up to *total* exactly
    for name in games:
        n_game = count[name]
        cfgs = configs(name)
        for k, (players, rules, without, options) in enumerate(cfgs):
            n = n_game // len(cfgs) + (1 if k < n_game % len(cfgs) else 0)
            start = 0
            while start < n:
                size = min(chunk, n - start)
                salt = zlib.crc32(f"{name}/{k}/{start}".encode())
                yield name, players, rules, without, options, size, seed * 1_000_003 + salt
                start += size


def run_task(task: Task, full_every: int) -> tuple[str, Report]:
    """Run one task (in a worker process)."""
    name, players, rules, without, options, games, seed = task
    try:
        report = check_game(
            name, players=players, rules=rules, without=without, options=options, games=games,
            seed=seed, sample=0.1, full_every=full_every, samples_per_game=3, strict=False,
            checks=ALL_CHECKS - ({"determinism"} if games < 2 else set()),
        )  # fmt: skip
    except Exception as exc:  # a raw exception escaped the kit's run: a failure, not a crash
        report = Report(name, players, rules, dict(options))
        report.raw += 1
        report.fail(f"task seed {seed} stopped on a raw {type(exc).__name__}: {str(exc)[:200]}")
    return name, report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="games in total across games")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--chunk", type=int, default=250, help="games per task")
    parser.add_argument(
        "--full-every", type=int, default=20, help="costly checks on every n-th game"
    )
    parser.add_argument("--share", action="append", default=[], metavar="GAME=FRACTION")
    args = parser.parse_args(argv)
    shares = dict(DEFAULT_SHARES)
    for item in args.share:
        game, _, frac = item.partition("=")
        shares[game] = float(frac)
    tasks = list(plan(args.games, args.seed, args.chunk, shares))
    totals: dict[str, Report] = {}
    started = time.monotonic()
    try:
        from rich.progress import Progress

        progress: Any = Progress()
    except ImportError:  # pragma: no cover - rich is optional
        progress = None
    done_games = 0
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(run_task, t, args.full_every) for t in tasks]
        bar = None
        if progress is not None:
            progress.start()
            bar = progress.add_task("conformance", total=sum(t[5] for t in tasks))
        try:
            for fut in as_completed(futures):
                name, report = fut.result()
                if name in totals:
                    totals[name].merge(report)
                else:
                    totals[name] = report
                done_games += report.games
                if bar is not None:
                    progress.update(bar, advance=report.games, description=f"conformance ({name})")
                elif done_games % 5000 < report.games:
                    print(f"{done_games} games ...", file=sys.stderr)
        finally:
            if progress is not None:
                progress.stop()
    elapsed = time.monotonic() - started
    header = f"{'game':<10}{'games':>9}{'actions':>12}{'bad inputs':>12}{'rejected':>10}{'cards lost':>11}{'leaks':>7}{'raw':>6}{'failed':>8}"
    print(header)
    grand = Report("all")
    for name in sorted(totals):
        r = totals[name]
        grand.merge(r)
        print(
            f"{name:<10}{r.games:>9}{r.actions:>12}{r.bad_inputs:>12}{r.rejected:>10}{r.cards_lost:>11}{r.leaks:>7}{r.raw:>6}{r.failed:>8}"
        )
    r = grand
    print(
        f"{'total':<10}{r.games:>9}{r.actions:>12}{r.bad_inputs:>12}{r.rejected:>10}{r.cards_lost:>11}{r.leaks:>7}{r.raw:>6}{r.failed:>8}"
    )
    print(f"views/event streams checked {r.views}, twins {r.twins}, save/replay round trips {r.reloads},"
          f" positions {r.positions}, vetoed {r.vetoed}, scored rounds {r.scored},"
          f" truncated {r.truncated}; {elapsed:.0f} s with {args.workers} workers")  # fmt: skip
    for name in sorted(totals):
        for msg in sorted(set(totals[name].failures))[:5]:
            print(f"  {name}: {msg[:300]}")
    return 0 if grand.failed == 0 and grand.raw == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
