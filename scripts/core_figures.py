"""Print the core figures quoted in notes: the test game's speed, new_game, clone and positions.

Run from the repository root: ``python scripts/core_figures.py``. CPU time
(``time.process_time``), medians of 5 rounds.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.conftest import register_test_plugins

import cardcore

register_test_plugins()


def median_of(fn, rounds: int = 5) -> float:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(rounds):
        start = time.process_time()
        fn()
        out.append(time.process_time() - start)
    return statistics.median(out)


def random_play(name: str, players: int, games: int) -> tuple[int, float]:
    decisions = 0

    def run() -> None:
        nonlocal decisions
        decisions = 0
        for i in range(games):
            game = cardcore.new_game(name, players, seed=i)
            rand = random.Random(i).random
            while not game.is_over:
                legal = game.legal_actions(game.to_act[0])
                game.apply(legal[int(rand() * len(legal))])
                decisions += 1

    seconds = median_of(run)
    return decisions, seconds


def per_call(fn, n: int) -> float:  # type: ignore[no-untyped-def]
    def run() -> None:
        for _ in range(n):
            fn()

    return median_of(run) / n * 1e6


def positions(name: str, game: cardcore.Game) -> None:
    """Print how long writing and reading *game*'s position takes (games with a notation)."""
    try:
        text = game.position()
    except cardcore.CardcoreError:
        return
    logic, state, options, players = game.logic, game.state, game.options, len(game.players)
    write = per_call(lambda: logic.write_position(state), 5000)
    read = per_call(lambda: logic.read_position(text, players, options), 5000)
    print(
        f"position of {name!r} at action {game.version}: write {write:.1f} µs, read {read:.1f} µs"
    )


def main() -> None:
    decisions, seconds = random_play("drawgame", 3, 200)
    print(
        f"test game (drawgame, 3 players): {decisions / seconds:,.0f} decisions/s, {200 / seconds:,.0f} games/s"
    )
    for name, players in (("drawgame", 3), ("golf", 4)):
        print(
            f"new_game({name!r}, {players}) for a cached configuration: "
            f"{per_call(lambda n=name, p=players: cardcore.new_game(n, p, seed=3), 2000):.1f} µs"
        )
        game = cardcore.new_game(name, players, seed=3)
        rand = random.Random(1).random
        for _ in range(60 if name == "drawgame" else 315):
            if game.is_over:
                break
            legal = game.legal_actions(game.to_act[0])
            game.apply(legal[int(rand() * len(legal))])
        print(f"clone() of {name!r} at action {game.version}: {per_call(game.clone, 20000):.2f} µs")
        positions(name, game)


if __name__ == "__main__":
    main()
