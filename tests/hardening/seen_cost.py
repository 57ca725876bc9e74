"""Measure a rejected action with a hostile ``seen`` against a view, deep into a Spit game.

Run ``python -m tests.hardening.seen_cost [VERSION]`` (default 15,000): it prints the median
cost of a view, and of rejected actions whose ``seen`` lies outside the window, at the far
edge of the window (one replay from a checkpoint), and repeated (answered from the cache).
"""

from __future__ import annotations

import contextlib
import random
import statistics
import sys
import time
from collections.abc import Callable

import cardcore
from cardcore import STALE_WINDOW, IllegalActionError


def long_spit(version: int, seed: int = 0) -> cardcore.Game:
    """A Spit game driven to *version* by moves that rarely make progress."""
    game = cardcore.new_game("spit", 2, seed=seed, options={"stall_limit": 1000})
    rng = random.Random(seed)
    while not game.is_over and game.version < version:
        seat = rng.choice(game.to_act)
        legal = game.legal_actions(seat)
        if not legal:
            continue
        slow = [a for a in legal if str(a).split()[0] in ("fill", "combine")]
        game.apply(rng.choice(slow if slow and rng.random() < 0.97 else legal))
    return game


def illegal_action(game: cardcore.Game) -> cardcore.Action:
    """An action of seat 0 seen legal earlier in the game but not legal now."""
    now = set(game.legal_actions(0))
    for _, action, _ in reversed(game.record_entries()):
        if action.seat == 0 and action not in now and type(action).__name__ != "Resign":
            return action
    raise LookupError("no illegal action found")


def per_call(fn: Callable[[], object], n: int) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        with contextlib.suppress(IllegalActionError):
            fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def measure(version: int = 15_000) -> dict[str, float]:
    game = long_spit(version).clone()  # a clone has no cached history: the worst case
    action = illegal_action(game)
    v = game.version
    out = {"version": float(v), "view_us": per_call(lambda: game.view(0), 200)}
    out["seen_future_us"] = per_call(lambda: game.apply(action, seen=v + 10**6), 200)
    out["seen_zero_us"] = per_call(lambda: game.apply(action, seen=0), 200)
    out["seen_none_us"] = per_call(lambda: game.apply(action), 200)
    fresh = [v - STALE_WINDOW + k for k in range(STALE_WINDOW)]
    edge = iter(fresh)
    out["seen_in_window_first_us"] = per_call(lambda: game.apply(action, seen=next(edge)), len(fresh))
    out["seen_in_window_again_us"] = per_call(lambda: game.apply(action, seen=v - STALE_WINDOW), 200)
    return out


if __name__ == "__main__":
    figures = measure(int(sys.argv[1]) if len(sys.argv) > 1 else 15_000)
    view = figures["view_us"]
    for key, value in figures.items():
        ratio = "" if key in ("version", "view_us") else f"  ({value / view:.2f}x a view)"
        print(f"{key:28} {value:10.1f}{ratio}")
