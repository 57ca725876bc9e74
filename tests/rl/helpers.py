"""Configurations and random play shared by the reinforcement-learning tests."""

from __future__ import annotations

import contextlib
import random
import warnings
from collections.abc import Iterator
from typing import Any

import cardcore

BUILT_IN: list[tuple[str, int, dict[str, Any]]] = [
    ("golf", 2, {"rounds": 1}),
    ("golf", 3, {"layout": 4, "rounds": 1}),
    ("tonk", 3, {"hands": 2}),
    ("spit", 2, {}),
    ("speed", 2, {"jokers": 2}),
]
"""(game, players, options) covering every built-in game (and Golf's peeking layout)."""

DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}
"""The two warnings PettingZoo gives any environment whose observation is a dict (rl.rst)."""


@contextlib.contextmanager
def only_dict_observation_warnings() -> Iterator[None]:
    """Fail on any warning PettingZoo's tests give (many of their checks only warn) but the
    two every dict observation gets."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    others = {str(w.message) for w in caught if issubclass(w.category, UserWarning)}
    assert others <= DICT_OBSERVATION_WARNINGS, others - DICT_OBSERVATION_WARNINGS


IDS = [f"{g}-{n}-{'-'.join(f'{k}{v}' for k, v in o.items()) or 'default'}" for g, n, o in BUILT_IN]


def random_states(
    name: str, players: int, options: dict[str, Any], seed: int, steps: int
) -> Iterator[cardcore.Game]:
    """Yield a game after each of up to *steps* random actions (the first seat in ``to_act`` acts)."""
    rng = random.Random(seed)
    game = cardcore.new_game(name, players, options=options, seed=seed)
    yield game
    for _ in range(steps):
        if game.is_over:
            return
        seats = [s for s in game.to_act if game.legal_actions(s)]
        if not seats:
            return
        seat = seats[int(rng.random() * len(seats))]
        legal = game.legal_actions(seat)
        game.apply(legal[int(rng.random() * len(legal))])
        yield game
