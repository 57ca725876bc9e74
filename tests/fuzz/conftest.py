"""Shared bases for the fuzz tests: mid-game positions of every game and their saves.

The hypothesis profile comes from tests/conftest.py (``ci``: derandomized, 60 examples;
``HYPOTHESIS_PROFILE=long`` for more).
"""

from __future__ import annotations

import functools
import random

import cardcore
from tests.conftest import register_test_plugins

register_test_plugins()

GAMES = ("drawgame", "racegame", "golf", "tonk", "spit", "speed")
"""Every game the fuzz tests run on (the test games and the built-in ones)."""


@functools.cache
def position(name: str, steps: int = 12, rules: tuple[str, ...] = ()) -> cardcore.Game:
    """Return a seeded game of *name* after up to *steps* random actions (do not mutate: clone it)."""
    game = cardcore.new_game(name, cardcore.game_info(name).min_players, rules=rules, seed=20261129)
    rng = random.Random(7)
    for _ in range(steps):
        if game.is_over:
            break
        seat = rng.choice(game.to_act)
        legal = game.legal_actions(seat)
        if not legal:
            break
        game.apply(rng.choice(legal))
    return game
