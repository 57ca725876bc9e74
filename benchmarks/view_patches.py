"""What a view patch costs: :func:`cardcore.session.diff` between a seat's consecutive views.

A session diffs every seat's view after each action (an ``update`` carries the patch).
Since 2026-12-06 ``diff`` tells ``1``, ``1.0`` and ``true`` apart inside objects and lists
too, which walks the equal parts of the views for the types inside. Run from the
repository root::

    python benchmarks/view_patches.py          # --quick: one round, for the smoke test

Prints, per game, the best of 7 rounds of microseconds per diff, over the views of seat 0
after each action of random games (at least 60 pairs per game), and beside it the same
diff with Python's ``==`` for equal parts (the diff before 2026-12-06, blind to ``1`` against
``true`` inside a container), in alternating rounds.
"""

from __future__ import annotations

import json
import random
import sys
import timeit
from typing import Any

import cardcore
from cardcore.session import diff
from cardcore.session import patch as patch_module

GAMES = (("golf", 4), ("tonk", 3), ("spit", 2), ("speed", 2))


def view_pairs(name: str, players: int, want: int = 60) -> list[tuple[Any, Any]]:
    """Consecutive views of seat 0 over random games of *name*."""
    pairs: list[tuple[Any, Any]] = []
    seed = 0
    while len(pairs) < want:
        seed += 1
        game = cardcore.new_game(name, players, seed=seed)
        rng = random.Random(seed)
        before = None
        for _ in range(80):
            if game.is_over:
                break
            view = game.view(0)
            if before is not None:
                pairs.append((before, view))
            before = view
            seat = game.to_act[0] if game.to_act else 0
            legal = game.legal_actions(seat)
            if not legal:
                break
            game.apply(rng.choice(legal))
    return pairs


def _plain(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def main() -> None:
    rounds, number = (1, 2) if "--quick" in sys.argv[1:] else (7, 20)
    typed = patch_module._same
    print(f"{'game':<6} {'view bytes':>10} {'diff µs':>8} {'with == µs':>10}")
    for name, players in GAMES:
        pairs = view_pairs(name, players)
        best = {"typed": float("inf"), "plain": float("inf")}
        for _ in range(rounds):
            for label, same in (("typed", typed), ("plain", _plain)):
                patch_module._same = same  # type: ignore[assignment]
                try:
                    took = timeit.timeit(
                        lambda pairs=pairs: [diff(a, b) for a, b in pairs], number=number
                    )
                finally:
                    patch_module._same = typed  # type: ignore[assignment]
                best[label] = min(best[label], took / number / len(pairs) * 1e6)
        size = len(json.dumps(pairs[0][0]))
        print(f"{name:<6} {size:>10} {best['typed']:>8.1f} {best['plain']:>10.1f}")


if __name__ == "__main__":
    main()
