"""Register the typed game and its house rule, play them, compare with and without the rule."""

from __future__ import annotations

import cardcore
from cardcore import Game, RandomAgent, Result

from .highcard import must_hit, rules


def register() -> None:
    """Make the plugin known in this process (tests and notebooks)."""
    cardcore.register("cardcore.games", "typed-highcard", rules)
    cardcore.register("cardcore.rules", "typed-highcard.must-hit", must_hit)


def unregister() -> None:
    cardcore.unregister("cardcore.rules", "typed-highcard.must-hit")
    cardcore.unregister("cardcore.games", "typed-highcard")


def play_both(seed: int = 3) -> tuple[Result, Result, Game]:
    """One game plain, one with the house rule and its option."""
    plain = cardcore.new_game("typed-highcard", 2, seed=seed)
    house = cardcore.new_game(
        "typed-highcard", 2, rules=["typed-highcard.must-hit"], options={"min_stand": 15}, seed=seed
    )
    assert house.rules == ("typed-highcard.must-hit",) and house.options["min_stand"] == 15
    a = cardcore.play(plain, [RandomAgent(1), RandomAgent(2)])
    b = cardcore.play(house, [RandomAgent(1), RandomAgent(2)])
    return a, b, house
