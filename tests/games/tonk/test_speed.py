"""Random play through the public API keeps up with a bare plain-Python Tonk loop.

The yardstick is :func:`cardcore_tonk.bare.play_hands` (cards as ints, no engine).
The engine plays whole sessions (option ``hands``) through ``legal_actions`` and
``apply`` with random choices; it must reach a quarter of the bare loop's
decisions per second. Rounds alternate bare and engine and are timed in CPU
time (``time.process_time``), like ``benchmarks/run.py``; the median ratio counts.
"""

from __future__ import annotations

import random
import statistics
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
    t0 = time.process_time()
    while not game.is_over:
        legal = legal_actions(game.to_act[0])
        apply(legal[int(rng.random() * len(legal))])
        decisions += 1
    return decisions / (time.process_time() - t0)


def _bare_rate(seed: int) -> float:
    t0 = time.process_time()
    decisions = play_hands(HANDS, 3, seed)
    return decisions / (time.process_time() - t0)


def test_engine_reaches_a_quarter_of_the_bare_loop() -> None:
    ratios = []
    for seed in range(1, 6):
        bare = _bare_rate(seed)
        engine = _engine_rate(seed)
        ratios.append(engine / bare)
    assert statistics.median(ratios) >= 0.25, f"engine / bare ratios: {ratios}"
