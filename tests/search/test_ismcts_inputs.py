"""ISMCTSAgent refuses what is not a seat's view or a list of legal actions with ArgumentError."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardcore
from cardcore import ArgumentError
from cardcore.search import ISMCTSAgent, sample_position


def test_search_needs_a_seats_view_and_legal_action_objects() -> None:
    game = cardcore.new_game("golf", 2, seed=1, options={"rounds": 1})
    agent = ISMCTSAgent(seed=1, iterations=3)
    bad: list[tuple[Any, Any]] = [
        (game.view(None), game.legal_actions(0)),  # a spectator's view: was TypeError
        (game.view(0), ["flip 0", "flip 1"]),  # text: was AttributeError
        (game.view(0), ["flip 0"]),  # one text action: was returned as it is
        (game.view(0), None),
    ]
    for view, legal in bad:
        with pytest.raises(ArgumentError, match=r"^ismcts"):
            agent.choose(view, legal)
    assert agent.choose(game.view(0), game.legal_actions(0)) in game.legal_actions(0)


def test_sample_position_needs_a_random_generator() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    for rng in (None, 3, "seed"):
        with pytest.raises(ArgumentError, match=r"random\.Random"):
            sample_position(game.view(0), rng)  # type: ignore[arg-type]
    assert sample_position(game.view(0), random.Random(1)).startswith("golf")
