"""compare() and simulate() refuse bad arguments with cardcore errors before playing anything."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import cardcore
from cardcore import ArgumentError, OptionError

GOLF1 = {"rounds": 1}


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"rules": "golf.jokers"}, ArgumentError, r"^rules takes a list of names"),  # was 'g'
        ({"vs": "golf.jokers"}, ArgumentError, r"^vs takes a list of names"),
        ({"without": "golf.x"}, ArgumentError, r"^without takes a list of names"),
        ({"vs_without": None}, ArgumentError, r"^vs_without takes a list of names"),
        ({"rules": None}, ArgumentError, r"^rules takes a list of names"),  # was TypeError
        ({"agents": 3}, OptionError, r"^agents must be an agent spec"),  # was TypeError
        ({"vs_agents": 3}, OptionError, r"^vs_agents must be an agent spec"),
        ({"executor": 3}, OptionError, r"^executor must be"),  # was AttributeError
        ({"progress": 3}, OptionError, r"^progress must be"),  # was TypeError, after a chunk
        ({"chunk": 0}, OptionError, r"^chunk must be"),  # was taken as 1
        ({"chunk": -2}, OptionError, r"^chunk must be"),
        ({"chunk": 1.5}, OptionError, r"^chunk must be"),
        ({"move_time": float("nan")}, OptionError, r"^move_time must be a finite"),
        ({"move_time": float("inf")}, OptionError, r"^move_time must be a finite"),
        ({"vs_options": []}, OptionError, r"^vs_options must be a mapping"),  # was A's options
    ],
)
def test_compare_refuses_bad_arguments(
    kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        cardcore.compare("golf", games=2, options=GOLF1, skill=None, **kwargs)


def test_compare_still_takes_good_arguments() -> None:
    with ThreadPoolExecutor(2) as pool:
        result = cardcore.compare(
            "golf",
            rules=("golf.hard",),
            games=3,
            options=GOLF1,
            skill=None,
            executor=pool,
            chunk=2,
            move_time=5,
            progress=lambda n: None,
        )
    assert result.same_deals and result.a.games == 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"agents": 3}, r"^agents takes one agent spec per seat"), ({"progress": 3}, r"^progress")],
)
def test_simulate_refuses_bad_arguments(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        cardcore.simulate("golf", games=2, **kwargs)
