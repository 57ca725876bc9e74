"""Random play through the public API keeps up with a bare plain-Python Tonk loop.

The yardstick is :func:`cardcore_tonk.bare.play_hands` (cards as ints, no engine).
The engine plays whole sessions (option ``hands``) through ``legal_actions`` and
``apply`` with random choices; it must reach a quarter of the bare loop's
decisions per second. Best of three runs each, to ride out a busy machine.
"""

from __future__ import annotations

import random
import time

import cardcore
from cardcore_tonk.bare import play_hands

HANDS = 150


def _engine_rate(seed: int) -> float:
    game = cardcore.new_game("tonk", 3, seed=seed, options={"hands": HANDS})
    rng = random.Random(seed)
    legal_actions = game.legal_actions
    apply = game.apply
    decisions = 0
    t0 = time.perf_counter()
    while not game.is_over:
        legal = legal_actions(game.to_act[0])
        apply(legal[int(rng.random() * len(legal))])
        decisions += 1
    return decisions / (time.perf_counter() - t0)


def _bare_rate(seed: int) -> float:
    t0 = time.perf_counter()
    decisions = play_hands(HANDS, 3, seed)
    return decisions / (time.perf_counter() - t0)


def test_engine_reaches_a_quarter_of_the_bare_loop() -> None:
    engine = max(_engine_rate(s) for s in (1, 2, 3))
    bare = max(_bare_rate(s) for s in (1, 2, 3))
    assert engine >= 0.25 * bare, f"engine {engine:,.0f}/s vs bare {bare:,.0f}/s"
