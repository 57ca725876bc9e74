"""What a refused action costs: bad text and an action out of turn, per game.

A refusal is the path a hostile or careless client drives: since 2026-12-06 a
refusal raised by the game's own code (``parse_action``, ``is_legal``) is undone
like any other failure (restored from the checkpoint, which then moves to the
state restored, so each further refusal costs one clone). Run from the
repository root::

    python benchmarks/refusals.py

Prints, per game, the best of 3 rounds of microseconds per refused call,
mid-game (after up to 30 random actions); real-time games have no turn to be out of.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import cardcore

GAMES = (("golf", 4), ("tonk", 3), ("spit", 2), ("speed", 2))


def mid_game(name: str, players: int) -> cardcore.Game:
    """A game of *name* after up to 30 random actions, with a seat to act."""
    for seed in range(1000):
        game = cardcore.new_game(name, players, seed=seed)
        rand = random.Random(seed)
        for _ in range(30):
            moves = [a for s in game.to_act for a in game.legal_actions(s)]
            if game.is_over or not moves:
                break
            game.apply(rand.choice(moves))
        if not game.is_over and any(game.legal_actions(s) for s in game.to_act):
            return game
    msg = f"no game of {name} lasted"
    raise RuntimeError(msg)


def per_call(fn: Callable[[], Any], calls: int = 3000, rounds: int = 3) -> float:
    """The best of *rounds* rounds of microseconds per call of *fn*, which must refuse."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            try:
                fn()
            except cardcore.CardcoreError:
                pass
            else:
                msg = "the call was not refused"
                raise AssertionError(msg)
        best = min(best, (time.perf_counter() - start) / calls * 1e6)
    return best


def main() -> None:
    print(f"{'game':8} {'bad text (µs)':>14} {'out of turn (µs)':>17}")
    for name, players in GAMES:
        game = mid_game(name, players)
        seat = next(s for s in game.to_act if game.legal_actions(s))
        text = str(game.legal_actions(seat)[0])
        others = [s for s in range(players) if s not in game.to_act]  # (none: real time)
        bad = per_call(lambda: game.act(seat, "zz qq"))  # noqa: B023 (called at once)
        wrong = per_call(lambda: game.act(others[0], text)) if others else None  # noqa: B023
        print(f"{name:8} {bad:14.1f} {'-' if wrong is None else f'{wrong:.1f}':>17}")


if __name__ == "__main__":
    main()
